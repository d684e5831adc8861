/* The command line of the constant-time harnesses (ct_curve.c, ct_edwards.c), included after a
 * harness's CHECKS table with CT_PROGRAM defined to its name:
 *
 *     PROGRAM --list                one line per check: NAME EXPECT (ct, vartime or may)
 *     PROGRAM NAME [NAME ...]       run checks in turn, each between marker lines on stderr
 *
 * security/constant_time.py reads the markers (memcheck_checks). */
#ifndef CT_PROGRAM
#error "define CT_PROGRAM, the harness's name, before including ct_main.h"
#endif

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static int find_check(const char *name)
{
    int i;
    for (i = 0; i < (int)(sizeof(CHECKS) / sizeof(CHECKS[0])); i++)
        if (!strcmp(name, CHECKS[i].name))
            return i;
    return -1;
}

/* Run the named checks in order, each between two marker lines on stderr; the end marker carries
 * the number of errors memcheck counted during the check (VALGRIND_COUNT_ERRORS counts repeats
 * too), so one valgrind process runs many checks and still says which one leaked. */
int main(int argc, char **argv)
{
    size_t i;
    int a;
    if (argc < 2) {
        fprintf(stderr, "usage: " CT_PROGRAM " --list | " CT_PROGRAM " NAME [NAME ...]\n");
        return 2;
    }
    if (!strcmp(argv[1], "--list")) {
        for (i = 0; i < sizeof(CHECKS) / sizeof(CHECKS[0]); i++)
            printf("%s %s\n", CHECKS[i].name,
                   CHECKS[i].control ? "vartime" : ends_with(CHECKS[i].name, "_vartime") ? "may" : "ct");
        return 0;
    }
    for (a = 1; a < argc; a++)
        if (find_check(argv[a]) < 0) {
            fprintf(stderr, CT_PROGRAM ": no check named %s\n", argv[a]);
            return 2;
        }
    for (a = 1; a < argc; a++) {
        unsigned before;
        fprintf(stderr, "ct-check begin %s\n", argv[a]);
        before = VALGRIND_COUNT_ERRORS;
        CHECKS[find_check(argv[a])].run();
        fprintf(stderr, "ct-check end %s %u\n", argv[a], (unsigned)VALGRIND_COUNT_ERRORS - before);
    }
    return 0;
}
