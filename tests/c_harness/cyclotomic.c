/* The cyclotomic squarings of tower.h against the general squaring in GT's field: for random
 * elements g of the cyclotomic subgroup (a random f raised to the easy part
 * (p^(k/2) - 1)(p^(k/6) + 1)), fk_cyclotomic_sqr(g) must equal fk_sqr(g), in place and not; where
 * tower.h has Karabina's compressed squaring (CYC_COMPRESSED), n compressed squarings of g followed
 * by one batched decompression of several such powers must equal n general squarings. Built by
 * tests/emit/test_cyclotomic_c.py with -DCYC_FK=<fq6 name> -DCYC_FQ=<fq name> -DCYC_K=<k>
 * -DCYC_COMPRESSED=<0 or 1>; prints the number of trials and of mismatches per check. */
#include <stdio.h>

#include "pairforge.h"
#include "random_fp.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define FK(op) CAT(CAT(CYC_FK, _), op)
#define FK_T CAT(CYC_FK, _t)
#define FQ_T CAT(CYC_FQ, _t)
#define FK_FP_COEFFS (sizeof(FK_T) / sizeof(fp_t))
#define POWERS 3

/* A random element of the cyclotomic subgroup: f^((p^(k/2) - 1)(p^(k/6) + 1)) for a random f. */
static void rand_cyclotomic(FK_T *out)
{
    FK_T f, t;
    fp_t *c = (fp_t *)&f;

    for (size_t i = 0; i < FK_FP_COEFFS; i++)
        rand_fp(&c[i]);
    FK(inv)(&t, &f);
    FK(conj)(&f, &f);
    FK(mul)(&f, &f, &t);                  /* f^(p^(k/2) - 1) */
    FK(frobenius)(&t, &f, CYC_K / 6);
    FK(mul)(out, &t, &f);                 /* ... (p^(k/6) + 1) */
}

int main(void)
{
    int trials = 100, bad_sqr = 0, bad_sqr_in_place = 0, bad_compressed = 0;

    for (int t = 0; t < trials; t++) {
        FK_T g, want, got;

        rand_cyclotomic(&g);
        FK(sqr)(&want, &g);
        FK(cyclotomic_sqr)(&got, &g);
        bad_sqr += !FK(equal)(&got, &want);
        got = g;
        FK(cyclotomic_sqr)(&got, &got);
        bad_sqr_in_place += !FK(equal)(&got, &want);
#if CYC_COMPRESSED
        {
            /* POWERS elements, each squared a different number of times, decompressed together */
            FK_T pw[POWERS], ref[POWERS];
            FQ_T num[POWERS], den[POWERS];

            for (int i = 0; i < POWERS; i++) {
                int n = 1 + (int)(rng_next() % 8);

                rand_cyclotomic(&pw[i]);
                ref[i] = pw[i];
                for (int j = 0; j < n; j++) {
                    FK(cyclotomic_sqr_compressed)(&pw[i], &pw[i]);
                    FK(sqr)(&ref[i], &ref[i]);
                }
            }
            FK(cyclotomic_decompress)(pw, POWERS, num, den);
            for (int i = 0; i < POWERS; i++)
                bad_compressed += !FK(equal)(&pw[i], &ref[i]);
        }
#endif
    }
    printf("trials %d\nsqr %d\nsqr_in_place %d\ncompressed %d\n", trials, bad_sqr, bad_sqr_in_place,
           bad_compressed);
    return 0;
}
