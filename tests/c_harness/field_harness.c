/*
 * Test driver for one rendered prime field (templates/c/field.h.j2).
 *
 * Built by tests/emit/test_field_c.py with -DPF_PREFIX=fp_ -DPF_UPPER=FP_ (or fr_/FR_) and
 * -DPF_LIMB_BITS=64 or 32, with the rendered "limbs.h" and "field_under_test.h" on the include
 * path.  Reads one operation a line from stdin, operands as canonical hex integers, and prints
 * one result a line (hex integers, or decimal for predicates).  Binary operations are also run
 * with the output aliased to each input; a difference prints "alias-mismatch".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limbs.h"
#include "field_under_test.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define F(name) CAT(PF_PREFIX, name)
#define U(name) CAT(PF_UPPER, name)

typedef F(t) elem_t;
#define NLIMBS U(NLIMBS)
#define NBYTES U(NBYTES)

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* hex text (no 0x) to little-endian limbs; exits on malformed or oversized input */
static void parse_limbs(limb_t out[NLIMBS], const char *s)
{
    size_t len = strlen(s), k;

    memset(out, 0, NLIMBS * sizeof(limb_t));
    for (k = 0; k < len; k++) {
        int v = hexval(s[len - 1 - k]);
        size_t limb = k / (2 * sizeof(limb_t)), shift = 4 * (k % (2 * sizeof(limb_t)));

        if (v < 0) { fprintf(stderr, "bad hex %s\n", s); exit(2); }
        if (limb >= NLIMBS) {
            if (v != 0) { fprintf(stderr, "hex too large %s\n", s); exit(2); }
            continue;
        }
        out[limb] |= (limb_t)v << shift;
    }
}

static void print_limbs(const limb_t a[NLIMBS])
{
    size_t i;

    for (i = NLIMBS; i-- > 0;)
        printf("%0*llx", (int)(2 * sizeof(limb_t)), (unsigned long long)a[i]);
    putchar('\n');
}

static void parse_elem(elem_t *out, const char *s)
{
    limb_t t[NLIMBS];

    parse_limbs(t, s);
    F(from_int)(out, t);
}

static void print_elem(const elem_t *a)
{
    limb_t t[NLIMBS];

    F(to_int)(t, a);
    print_limbs(t);
}

#define BINARY(fn)                                                           \
    do {                                                                     \
        elem_t r, t;                                                         \
        fn(&r, &x, &y);                                                      \
        t = x; fn(&t, &t, &y);                                               \
        if (!F(equal)(&t, &r)) { puts("alias-mismatch"); break; }            \
        t = y; fn(&t, &x, &t);                                               \
        if (!F(equal)(&t, &r)) { puts("alias-mismatch"); break; }            \
        print_elem(&r);                                                      \
    } while (0)

#define UNARY(fn)                                                            \
    do {                                                                     \
        elem_t r, t;                                                         \
        fn(&r, &x);                                                          \
        t = x; fn(&t, &t);                                                   \
        if (!F(equal)(&t, &r)) { puts("alias-mismatch"); break; }            \
        print_elem(&r);                                                      \
    } while (0)

int main(void)
{
    static char line[8192];

    while (fgets(line, sizeof line, stdin)) {
        char *op = strtok(line, " \n"), *a1 = strtok(NULL, " \n"), *a2 = strtok(NULL, " \n");
        char *a3 = strtok(NULL, " \n");
        elem_t x, y;

        if (!op) continue;
        if (a1 && strcmp(op, "frombytes") && strcmp(op, "fromint") && strcmp(op, "sqrn") && strcmp(op, "redc"))
            parse_elem(&x, a1);
        if (a2 && strcmp(op, "sqrn") && strcmp(op, "redc")) parse_elem(&y, a2);

        if (!strcmp(op, "add")) BINARY(F(add));
        else if (!strcmp(op, "sub")) BINARY(F(sub));
        else if (!strcmp(op, "triadd")) BINARY(F(tri_add));
        else if (!strcmp(op, "trisub")) BINARY(F(tri_sub));
        else if (!strcmp(op, "mul")) BINARY(F(mul));
#if defined(FP_HAS_WIDE) || defined(FR_HAS_WIDE)
        /* lazy reduction: the double-width product of two elements, reduced (= mul) */
        else if (!strcmp(op, "wmul")) {
            limb_t t[2 * NLIMBS];
            elem_t r;

            F(mul_wide)(t, x.l, y.l);
            F(redc)(r.l, t);
            print_elem(&r);
        } else if (!strcmp(op, "wsqr")) {
            limb_t t[2 * NLIMBS];
            elem_t r;

            F(sqr_wide)(t, x.l);
            F(redc)(r.l, t);
            print_elem(&r);
        /* redc of the raw integer hi * R + lo (hi < p): prints (hi R + lo) / R^2 mod p */
        } else if (!strcmp(op, "redc")) {
            limb_t t[2 * NLIMBS];
            elem_t r;

            parse_limbs(t + NLIMBS, a1);
            parse_limbs(t, a2);
            F(redc)(r.l, t);
            print_elem(&r);
        /* double-width sums modulo p R of hi * R + lo integers (both below p R), raw hex of the
         * result; the aliased call must agree */
        } else if (!strcmp(op, "wadd") || !strcmp(op, "wsub")) {
            limb_t a[2 * NLIMBS], b[2 * NLIMBS], t[2 * NLIMBS], u[2 * NLIMBS];
            char *a4 = strtok(NULL, " \n");
            size_t i;

            parse_limbs(a + NLIMBS, a1);
            parse_limbs(a, a2);
            parse_limbs(b + NLIMBS, a3);
            parse_limbs(b, a4);
            memcpy(u, a, sizeof u);
            if (op[1] == 'a') {
                F(wide_add_mod)(t, a, b);
                F(wide_add_mod)(u, u, b);
            } else {
                F(wide_sub_mod)(t, a, b);
                F(wide_sub_mod)(u, u, b);
            }
            if (memcmp(t, u, sizeof t)) { puts("alias-mismatch"); continue; }
            for (i = 2 * NLIMBS; i-- > 0;)
                printf("%0*llx", (int)(2 * sizeof(limb_t)), (unsigned long long)t[i]);
            putchar('\n');
        }
#endif
        else if (!strcmp(op, "sqr")) UNARY(F(sqr));
        else if (!strcmp(op, "neg")) UNARY(F(neg));
        else if (!strcmp(op, "dbl")) UNARY(F(dbl));
        else if (!strcmp(op, "inv")) UNARY(F(inv));
        else if (!strcmp(op, "invvar")) UNARY(F(inv_vartime));
        else if (!strcmp(op, "sqrn")) {
            elem_t r;
            parse_elem(&x, a1);
            F(sqr_n)(&r, &x, atoi(a2));
            F(sqr_n)(&x, &x, atoi(a2));
            if (!F(equal)(&x, &r)) puts("alias-mismatch"); else print_elem(&r);
        } else if (!strcmp(op, "sqrt")) {
            elem_t r, t = x;
            bool ok = F(sqrt)(&r, &x), ok2 = F(sqrt)(&t, &t);
            if (ok != ok2 || !F(equal)(&t, &r)) { puts("alias-mismatch"); continue; }
            printf("%d ", (int)ok);
            print_elem(&r);
        } else if (!strcmp(op, "legendre")) printf("%d\n", F(legendre)(&x));
        else if (!strcmp(op, "iszero")) printf("%d\n", (int)F(is_zero)(&x));
        else if (!strcmp(op, "isone")) printf("%d\n", (int)F(is_one)(&x));
        else if (!strcmp(op, "isodd")) printf("%d\n", (int)F(is_odd)(&x));
        else if (!strcmp(op, "islex")) printf("%d\n", (int)F(is_lex_largest)(&x));
        else if (!strcmp(op, "equal")) printf("%d\n", (int)F(equal)(&x, &y));
        else if (!strcmp(op, "cmov")) {
            F(cmov)(&x, &y, (limb_t)atoi(a3));
            print_elem(&x);
        } else if (!strcmp(op, "zero")) { F(set_zero)(&x); print_elem(&x); }
        else if (!strcmp(op, "one")) { F(set_one)(&x); print_elem(&x); }
        else if (!strcmp(op, "mont")) print_limbs(x.l);
        else if (!strcmp(op, "fromint")) {
            limb_t t[NLIMBS];
            parse_limbs(t, a1);
            F(from_int)(&x, t);
            print_elem(&x);
        } else if (!strcmp(op, "frombytes")) {
            uint8_t b[NBYTES];
            size_t i;
            bool ok;
            if (strlen(a1) != 2 * NBYTES) { fprintf(stderr, "frombytes wants %d bytes\n", NBYTES); return 2; }
            for (i = 0; i < NBYTES; i++)
                b[i] = (uint8_t)(hexval(a1[2 * i]) << 4 | hexval(a1[2 * i + 1]));
            ok = F(from_bytes_be)(&x, b);
            printf("%d ", (int)ok);
            print_elem(&x);
        } else if (!strcmp(op, "tobytes")) {
            uint8_t b[NBYTES];
            size_t i;
            F(to_bytes_be)(b, &x);
            for (i = 0; i < NBYTES; i++) printf("%02x", b[i]);
            putchar('\n');
        } else {
            fprintf(stderr, "unknown op %s\n", op);
            return 2;
        }
    }
    return 0;
}
