/* fp_mac_small and fpw_mac_small (tower.h: t = k a + b, the Fp2 square's and product's small
 * factors of u^2) on given values: reads lines "w k a b" (w = 1 for FP_NLIMBS words, 2 for
 * 2 FP_NLIMBS words; a and b as w FP_NLIMBS hex limbs each, least significant first) from stdin and
 * prints the result in the same form, one line each, then the result with t aliasing a and with t
 * aliasing b. Built by tests/emit/test_mac_small.py with and without the x86_64-adx kernels. */
#include <stdio.h>
#include <inttypes.h>
#include <string.h>

#include "pairforge.h"

static void print_words(const limb_t *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        printf("%016" PRIx64 "%s", (uint64_t)t[i], i + 1 < n ? " " : "\n");
}

int main(void)
{
    int w;
    unsigned long k;

    while (scanf("%d %lu", &w, &k) == 2) {
        limb_t a[2 * FP_NLIMBS], b[2 * FP_NLIMBS], t[2 * FP_NLIMBS], x[2 * FP_NLIMBS];
        size_t n = (size_t)w * FP_NLIMBS;

        if (w != 1 && w != 2)
            return 2;
        for (size_t i = 0; i < 2 * n; i++) {
            uint64_t v;

            if (scanf("%" SCNx64, &v) != 1)
                return 2;
            (i < n ? a : b)[i % n] = (limb_t)v;
        }
        if (w == 1) {
            fp_mac_small(t, a, (limb_t)k, b);
            print_words(t, n);
            memcpy(x, a, sizeof a);
            fp_mac_small(x, x, (limb_t)k, b);
            print_words(x, n);
            memcpy(x, b, sizeof b);
            fp_mac_small(x, a, (limb_t)k, x);
            print_words(x, n);
        } else {
            fpw_mac_small(t, a, (limb_t)k, b);
            print_words(t, n);
            memcpy(x, a, sizeof a);
            fpw_mac_small(x, x, (limb_t)k, b);
            print_words(x, n);
            memcpy(x, b, sizeof b);
            fpw_mac_small(x, a, (limb_t)k, x);
            print_words(x, n);
        }
        fflush(stdout);
    }
    return 0;
}
