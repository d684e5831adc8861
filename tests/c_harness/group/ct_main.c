/* Loads a harness.so built with -DHARNESS_MEMCHECK and runs its t_ct_check under valgrind
 * (tests/emit/test_group_c.py): ct_main LIB ct|vartime. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    void *lib;
    unsigned long (*check)(int);

    if (argc < 3 || !(lib = dlopen(argv[1], RTLD_NOW))) {
        fprintf(stderr, "usage: ct_main LIB ct|vartime (%s)\n", dlerror());
        return 2;
    }
    *(void **)&check = dlsym(lib, "t_ct_check");
    if (!check)
        return 2;
    printf("%lx\n", check(argv[2][0] == 'v'));
    return 0;
}
