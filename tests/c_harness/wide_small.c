/* fpw_mul_small_mod and fpw_mul_small_add_mod (tower.h) on given double-width values: reads lines
 * "k neg steps form bneg a b" (a and b as 2n hex limbs each, least significant first; form 0 takes
 * fpw_mul_small_mod, 1 fpw_mul_small_add_mod without b, 2 with b, 3 with b aliasing the output) from
 * stdin and prints the result in the same form, one line each. Built by tests/emit/test_wide_small.py
 * with and without the x86_64-adx kernels. */
#include <stdio.h>
#include <inttypes.h>

#include "pairforge.h"

static int read_wide(fpw_t *v)
{
    for (size_t i = 0; i < 2 * FP_NLIMBS; i++) {
        uint64_t w;

        if (scanf("%" SCNx64, &w) != 1)
            return 0;
        v->l[i] = (limb_t)w;
    }
    return 1;
}

int main(void)
{
    unsigned long k;
    int neg, steps, form, bneg;

    while (scanf("%lu %d %d %d %d", &k, &neg, &steps, &form, &bneg) == 5) {
        fpw_t a, b, out;

        if (!read_wide(&a) || !read_wide(&b))
            return 2;
        switch (form) {
        case 0:
            fpw_mul_small_mod(&out, &a, (limb_t)k, neg, steps);
            break;
#ifdef FPW_HAS_MUL_SMALL_ADD
        case 1:
            fpw_mul_small_add_mod(&out, &a, (limb_t)k, neg, steps, NULL, 0);
            break;
        case 2:
            fpw_mul_small_add_mod(&out, &a, (limb_t)k, neg, steps, &b, bneg);
            break;
        case 3:
            out = b;
            fpw_mul_small_add_mod(&out, &a, (limb_t)k, neg, steps, &out, bneg);
            break;
#endif
        default:
            return 3;
        }
        for (size_t i = 0; i < 2 * FP_NLIMBS; i++)
            printf("%016" PRIx64 "%s", (uint64_t)out.l[i], i + 1 < 2 * FP_NLIMBS ? " " : "\n");
        fflush(stdout);
    }
    return 0;
}
