/* fpw_mul_small_mod (tower.h) on given double-width values: reads lines "k neg steps a" (a as 2n
 * hex limbs, least significant first) from stdin and prints fpw_mul_small_mod's result in the same
 * form, one line each. Built by tests/test_wide_small.py with and without the x86_64-adx kernels. */
#include <stdio.h>
#include <inttypes.h>

#include "pairforge.h"

int main(void)
{
    unsigned long k;
    int neg, steps;

    while (scanf("%lu %d %d", &k, &neg, &steps) == 3) {
        fpw_t a, out;

        for (size_t i = 0; i < 2 * FP_NLIMBS; i++) {
            uint64_t w;

            if (scanf("%" SCNx64, &w) != 1)
                return 2;
            a.l[i] = (limb_t)w;
        }
        fpw_mul_small_mod(&out, &a, (limb_t)k, neg, steps);
        for (size_t i = 0; i < 2 * FP_NLIMBS; i++)
            printf("%016" PRIx64 "%s", (uint64_t)out.l[i], i + 1 < 2 * FP_NLIMBS ? " " : "\n");
        fflush(stdout);
    }
    return 0;
}
