/*
 * Test driver for the assembly Montgomery kernels of one target (templates/asm/<target>/
 * kernels.h.j2), built by tests/targets/test_cross.py with the target's PF_TARGET_* macro and limb width,
 * next to the rendered "limbs.h" (which includes the kernel header) and "kernel_table.h", which
 * lists the Montgomery shapes as KERNELS = X(n, nc) X(n, nc) ... and the limb counts with
 * double-width kernels (mul_wide, redc_mont) as WIDE_KERNELS = Y(n) Y(n) ...
 *
 * Reads lines "n nc op a b p n0" (a, b, p as n limbs of hex, most significant first; n0 one limb)
 * and prints, as limbs of hex:
 *   mul, sqr  a b / 2^(w n) mod p (b ignored for sqr), n limbs; also run with out aliasing a, a
 *             difference prints "alias-mismatch"
 *   wide      a b, 2n limbs (p, n0 ignored)
 *   redc      t / 2^(w n) mod p for t = b 2^(w n) + a, n limbs
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limbs.h"
#include "kernel_table.h"

#define MAXN 32

static void parse(limb_t *out, size_t n, const char *s)
{
    size_t digits = 2 * sizeof(limb_t), i, k;

    if (strlen(s) != n * digits) {
        fprintf(stderr, "bad operand length %zu\n", strlen(s));
        exit(2);
    }
    for (i = 0; i < n; i++) {
        limb_t v = 0;

        for (k = 0; k < digits; k++) {
            char c = s[i * digits + k];
            v = (v << 4) | (limb_t)(c <= '9' ? c - '0' : (c | 32) - 'a' + 10);
        }
        out[n - 1 - i] = v;
    }
}

static void print(const limb_t *a, size_t n)
{
    while (n-- > 0)
        printf("%0*llx", (int)(2 * sizeof(limb_t)), (unsigned long long)a[n]);
}

#define SUFFIX_0
#define SUFFIX_1 _nc
#define NAME_(op, n, sfx) pf_##op##_mont_##n##sfx
#define NAME(op, n, sfx) NAME_(op, n, sfx)

int main(void)
{
    static char a_hex[1024], b_hex[1024], p_hex[1024], n0_hex[64], op[8];
    unsigned n, nc;

    while (scanf("%u %u %7s %1023s %1023s %1023s %63s", &n, &nc, op, a_hex, b_hex, p_hex, n0_hex) == 7) {
        limb_t a[MAXN], b[MAXN], p[MAXN], n0, out[MAXN], alias[MAXN];
        int sqr = strcmp(op, "sqr") == 0, wide = strcmp(op, "wide") == 0, redc = strcmp(op, "redc") == 0;
        int found = 0;

        parse(a, n, a_hex);
        parse(b, n, b_hex);
        parse(p, n, p_hex);
        parse(&n0, 1, n0_hex);
        memcpy(alias, a, sizeof a);
#define Y(N)                                                                                 \
        if (n == N && (wide || redc)) {                                                      \
            limb_t t[2 * N];                                                                 \
            found = 1;                                                                       \
            if (wide) {                                                                      \
                pf_mul_wide_##N(t, a, b);                                                    \
                print(t, 2 * N);                                                             \
            } else {                                                                         \
                memcpy(t, a, N * sizeof(limb_t));                                            \
                memcpy(t + N, b, N * sizeof(limb_t));                                        \
                pf_redc_mont_##N(out, t, p, n0);                                             \
                print(out, N);                                                               \
            }                                                                                \
            putchar('\n');                                                                   \
            continue;                                                                        \
        }
        WIDE_KERNELS
#undef Y
#define X(N, NC)                                                                             \
        if (n == N && nc == NC && !wide && !redc) {                                          \
            found = 1;                                                                       \
            if (sqr) {                                                                       \
                NAME(sqr, N, SUFFIX_##NC)(out, a, p, n0);                                     \
                NAME(sqr, N, SUFFIX_##NC)(alias, alias, p, n0);                               \
            } else {                                                                         \
                NAME(mul, N, SUFFIX_##NC)(out, a, b, p, n0);                                  \
                NAME(mul, N, SUFFIX_##NC)(alias, alias, b, p, n0);                            \
            }                                                                                \
        }
        KERNELS
#undef X
        if (!found) {
            fprintf(stderr, "no kernel for n = %u, nc = %u\n", n, nc);
            return 2;
        }
        if (memcmp(out, alias, n * sizeof(limb_t)) != 0) {
            puts("alias-mismatch");
            continue;
        }
        print(out, n);
        putchar('\n');
    }
    return 0;
}
