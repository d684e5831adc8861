/* pf_divsteps_57 (field.h: the constant-time safegcd's batch of 57 divsteps, three packed blocks
 * of 19) on given words: reads lines "zeta f g" (zeta decimal, f odd and g as 64-bit hex) from stdin
 * and prints "zeta u v q r" after the batch (the matrix scaled by 2^62, decimal). Built by
 * tests/emit/test_divsteps.py with and without the x86_64-adx kernels (the block's CMOV form). */
#include <stdio.h>
#include <inttypes.h>

#include "pairforge.h"

int main(void)
{
    int64_t zeta;
    uint64_t f, g;

    while (scanf("%" SCNd64 " %" SCNx64 " %" SCNx64, &zeta, &f, &g) == 3) {
        pf_trans2x2_t t;

        if ((f & 1) == 0)
            return 2;
        zeta = pf_divsteps_57(zeta, f, g, &t);
        printf("%" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 "\n", zeta, t.u, t.v, t.q, t.r);
    }
    return 0;
}
