/*
 * The baseline: the generated package's own Fp and Fp12 multiplications (x86_64-adx kernels,
 * lazy tower), compiled with generator/build.py's flags, timed in the same harness.
 */
#include "pairforge.h"

#if PF_LIMB_BITS != 64 || FP_NLIMBS != 6
#error "the baseline harness expects 6 limbs of 64 bits"
#endif

size_t base_fp12_size(void) { return sizeof(fp12_t); }

void base_fp12_from_words(void *out, const uint64_t in[12][6])
{
    fp_t *o = (fp_t *)out; /* fp12_t is 12 fp_t in coefficient order */
    for (int k = 0; k < 12; k++) fp_from_int(&o[k], in[k]);
}

void base_fp12_to_words(uint64_t out[12][6], const void *in)
{
    const fp_t *a = (const fp_t *)in;
    for (int k = 0; k < 12; k++) fp_to_int(out[k], &a[k]);
}

void base_fp12_mul(void *out, const void *a, const void *b) { fp12_mul(out, a, b); }

void base_fp12_mul_chain(void *x, const void *b, long n)
{
    fp12_t t = *(fp12_t *)x, bb = *(const fp12_t *)b;
    for (long i = 0; i < n; i++) {
        fp12_mul(&t, &t, &bb);
        __asm__ volatile("" : : : "memory");
    }
    *(fp12_t *)x = t;
}

void base_fp12_mul_pair(void *x, void *y, const void *b, long n)
{
    fp12_t s = *(fp12_t *)x, t = *(fp12_t *)y, bb = *(const fp12_t *)b;
    for (long i = 0; i < n; i++) {
        fp12_mul(&s, &s, &bb);
        fp12_mul(&t, &t, &bb);
        __asm__ volatile("" : : : "memory");
    }
    *(fp12_t *)x = s;
    *(fp12_t *)y = t;
}

/* Fp multiplication latency: n dependent products. */
void base_fp_mul_chain(uint64_t *state, long n)
{
    fp_t x, y = FP_R2;
    for (int j = 0; j < 6; j++) x.l[j] = state[j] >> (j == 5 ? 8 : 0);
    for (long i = 0; i < n; i++) {
        fp_mul(&x, &x, &y);
        __asm__ volatile("" : : : "memory");
    }
    for (int j = 0; j < 6; j++) state[j] ^= x.l[j];
}

/* Fp multiplication throughput: n rounds of 4 independent products. */
void base_fp_mul_quad(uint64_t *state, long n)
{
    fp_t x[4], y = FP_R2;
    for (int g = 0; g < 4; g++)
        for (int j = 0; j < 6; j++) x[g].l[j] = (state[j] + (uint64_t)g) >> (j == 5 ? 8 : 0);
    for (long i = 0; i < n; i++) {
        for (int g = 0; g < 4; g++) fp_mul(&x[g], &x[g], &y);
        __asm__ volatile("" : : : "memory");
    }
    for (int j = 0; j < 6; j++) state[j] ^= x[0].l[j] ^ x[1].l[j] ^ x[2].l[j] ^ x[3].l[j];
}
