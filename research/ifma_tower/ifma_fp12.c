/*
 * Fp12 multiplication in radix-2^52 lanes (AVX-512 IFMA), lazy reduction; the kernels the
 * harness times. Compiled with -mavx512ifma -mavx512vl (or -march=znver4).
 *
 * An Fp12 element is 12 coefficients, one per 512-bit vector (N52 = 8 limbs of 52 bits, in
 * Montgomery form with R = 2^416, below 4p, limbs normalized). A multiplication:
 *   1. pre stage: the 54 Karatsuba operand pairs as sums of coefficients (one vector add each);
 *   2. 7 batches of 8 products: transpose 8 operands into lanes, carry the limbs, 128 IFMA for
 *      the double-width products, transpose the 16 columns back;
 *   3. post stage: the 12 outputs as signed integer combinations of the products, double width;
 *   4. 2 batches of Montgomery reductions (12 of 16 lanes used), plus p, transposed back.
 * The plan (which sums, which combinations) and the bounds come from derive.py (params.h).
 */
#include <stdint.h>
#include <string.h>

#include "params.h"
#include "ifma52.h"

#if N52 != 8
#error "this harness lays one coefficient per 512-bit vector: 8 limbs of 52 bits"
#endif

typedef struct { __m512i c[12]; } fp12_52_t;

#define NB ((FP12_NPROD + 7) / 8)

static inline __attribute__((always_inline)) void fp12_52_mul(fp12_52_t *out, const fp12_52_t *a, const fp12_52_t *b)
{
    __m512i A[8 * NB], B[8 * NB], P[8 * NB][2], W[16][2];
    FP12_PRE(a->c, b->c, A, B);
    UNROLL for (int k = FP12_NPROD; k < 8 * NB; k++) A[k] = B[k] = _mm512_setzero_si512();
    UNROLL for (int g = 0; g < NB; g++) {
        b52_t x, y;
        b52w_t t;
        __m512i r[8];
        tr8x8(x.l, &A[8 * g]);
        tr8x8(y.l, &B[8 * g]);
        b52_normalize(&x);
        b52_normalize(&y);
        b52_mul_wide(&t, &x, &y);
        tr8x8(r, &t.c[0]);
        UNROLL for (int k = 0; k < 8; k++) P[8 * g + k][0] = r[k];
        tr8x8(r, &t.c[8]);
        UNROLL for (int k = 0; k < 8; k++) P[8 * g + k][1] = r[k];
    }
    FP12_POST(P, W);
    UNROLL for (int r = 12; r < 16; r++) W[r][0] = W[r][1] = _mm512_setzero_si512();
    UNROLL for (int h = 0; h < 2; h++) {
        b52w_t t;
        b52_t o;
        __m512i rows[8];
        UNROLL for (int k = 0; k < 8; k++) rows[k] = W[8 * h + k][0];
        tr8x8(&t.c[0], rows);
        UNROLL for (int k = 0; k < 8; k++) rows[k] = W[8 * h + k][1];
        tr8x8(&t.c[8], rows);
        b52_redc(&o, &t, REDC_OFFSET_52);
        tr8x8(rows, o.l);
        UNROLL for (int k = 0; k < 8; k++)
            if (8 * h + k < 12) out->c[8 * h + k] = rows[k];
    }
}

/* ---- conversions (not timed): canonical little-endian 64-bit words <-> Montgomery radix 2^52 */

static void to52(uint64_t l[8], const uint64_t w[6])
{
    for (int i = 0; i < 8; i++) {
        int bit = 52 * i, q = bit / 64, s = bit % 64;
        unsigned __int128 v = (unsigned __int128)(q < 6 ? w[q] : 0) | ((unsigned __int128)(q + 1 < 6 ? w[q + 1] : 0) << 64);
        l[i] = (uint64_t)(v >> s) & M52;
    }
}

static void from52(uint64_t w[6], const uint64_t l[8])
{
    memset(w, 0, 6 * sizeof *w);
    for (int i = 0; i < 8; i++) {
        int bit = 52 * i, q = bit / 64, s = bit % 64;
        unsigned __int128 v = (unsigned __int128)l[i] << s;
        if (q < 6) w[q] |= (uint64_t)v;
        if (q + 1 < 6) w[q + 1] |= (uint64_t)(v >> 64);
    }
}

/* 12 canonical coefficients (6 words each) -> Montgomery form (x R^2 / R). */
void ifma_fp12_from_words(void *out, const uint64_t in[12][6])
{
    fp12_52_t *o = out;
    uint64_t lanes[16][8] = {{0}}, r2[8];
    for (int k = 0; k < 12; k++) to52(lanes[k], in[k]);
    memcpy(r2, R2_52, sizeof r2);
    for (int h = 0; h < 2; h++) {
        b52_t x, y, z;
        __m512i rows[8];
        for (int k = 0; k < 8; k++) rows[k] = _mm512_loadu_si512(lanes[8 * h + k]);
        tr8x8(x.l, rows);
        for (int j = 0; j < 8; j++) y.l[j] = _mm512_set1_epi64((long long)r2[j]);
        b52_mont_mul(&z, &x, &y);
        tr8x8(rows, z.l);
        for (int k = 0; k < (h ? 4 : 8); k++) o->c[8 * h + k] = rows[k];
    }
}

/* Montgomery form (below 4p) -> 12 canonical coefficients. */
void ifma_fp12_to_words(uint64_t out[12][6], const void *in)
{
    const fp12_52_t *a = in;
    uint64_t p[6];
    from52(p, P52);
    for (int h = 0; h < 2; h++) {
        b52_t x, one, z;
        __m512i rows[8];
        for (int k = 0; k < 8; k++) rows[k] = 8 * h + k < 12 ? a->c[8 * h + k] : _mm512_setzero_si512();
        tr8x8(x.l, rows);
        for (int j = 0; j < 8; j++) one.l[j] = _mm512_set1_epi64(j == 0);
        b52_mont_mul(&z, &x, &one); /* below p + 1: at most one subtraction */
        tr8x8(rows, z.l);
        for (int k = 0; k < (h ? 4 : 8); k++) {
            uint64_t l[8], w[6], d[6];
            unsigned char borrow = 0;
            _mm512_storeu_si512(l, rows[k]);
            from52(w, l);
            for (int i = 0; i < 6; i++) borrow = _subborrow_u64(borrow, w[i], p[i], (unsigned long long *)&d[i]);
            memcpy(out[8 * h + k], borrow ? w : d, sizeof w);
        }
    }
}

/* Raw access for the bound tests: the Montgomery limbs as stored. */
void ifma_fp12_get_limbs(uint64_t out[12][8], const void *in)
{
    const fp12_52_t *a = in;
    for (int k = 0; k < 12; k++) _mm512_storeu_si512(out[k], a->c[k]);
}

void ifma_fp12_set_limbs(void *out, const uint64_t in[12][8])
{
    fp12_52_t *a = out;
    for (int k = 0; k < 12; k++) a->c[k] = _mm512_loadu_si512(in[k]);
}

size_t ifma_fp12_size(void) { return sizeof(fp12_52_t); }

void ifma_fp12_mul(void *out, const void *a, const void *b) { fp12_52_mul(out, a, b); }

/* ---- timed loops: everything inside this unit, so no call sits in the measured path */

/* n dependent multiplications x = x b (latency). */
void ifma_fp12_mul_chain(void *x, const void *b, long n)
{
    fp12_52_t t = *(fp12_52_t *)x, bb = *(const fp12_52_t *)b;
    for (long i = 0; i < n; i++) {
        fp12_52_mul(&t, &t, &bb);
        __asm__ volatile("" : : : "memory");
    }
    *(fp12_52_t *)x = t;
}

/* n rounds of two independent chains (throughput when one product cannot fill the core). */
void ifma_fp12_mul_pair(void *x, void *y, const void *b, long n)
{
    fp12_52_t s = *(fp12_52_t *)x, t = *(fp12_52_t *)y, bb = *(const fp12_52_t *)b;
    for (long i = 0; i < n; i++) {
        fp12_52_mul(&s, &s, &bb);
        fp12_52_mul(&t, &t, &bb);
        __asm__ volatile("" : : : "memory");
    }
    *(fp12_52_t *)x = s;
    *(fp12_52_t *)y = t;
}

/* Fp multiplication throughput: n rounds of 4 independent batches (32 products per round). */
void ifma_fp_mul_batches(uint64_t *state, long n)
{
    b52_t x[4], y;
    for (int g = 0; g < 4; g++)
        for (int j = 0; j < 8; j++) x[g].l[j] = _mm512_set1_epi64((long long)((state[j] + (uint64_t)g) & M52) >> (j == 7 ? 30 : 0));
    for (int j = 0; j < 8; j++) y.l[j] = _mm512_set1_epi64((long long)(R2_52[j]));
    for (long i = 0; i < n; i++) {
        for (int g = 0; g < 4; g++) b52_mont_mul(&x[g], &x[g], &y);
        __asm__ volatile("" : : : "memory");
    }
    for (int j = 0; j < 8; j++) {
        __m512i s = _mm512_xor_si512(_mm512_xor_si512(x[0].l[j], x[1].l[j]), _mm512_xor_si512(x[2].l[j], x[3].l[j]));
        state[j] ^= (uint64_t)_mm512_reduce_add_epi64(s);
    }
}

/* Fp multiplication latency: n dependent batch multiplications (8 products each). */
void ifma_fp_mul_batch_chain(uint64_t *state, long n)
{
    b52_t x, y;
    for (int j = 0; j < 8; j++) x.l[j] = _mm512_set1_epi64((long long)(state[j] & M52) >> (j == 7 ? 30 : 0));
    for (int j = 0; j < 8; j++) y.l[j] = _mm512_set1_epi64((long long)(R2_52[j]));
    for (long i = 0; i < n; i++) {
        b52_mont_mul(&x, &x, &y);
        __asm__ volatile("" : : : "memory");
    }
    for (int j = 0; j < 8; j++) state[j] ^= (uint64_t)_mm512_reduce_add_epi64(x.l[j]);
}

/* The IFMA core of one Fp12 multiplication alone, for the breakdown: the 7 batches of
 * double-width products and the 2 batches of reductions, on lane-sliced data, without the
 * pre/post stages and transposes (each reduction's output feeds the next round's operands). */
void ifma_fp12_core_chain(uint64_t *state, long n)
{
    b52_t x[NB], y;
    UNROLL for (int g = 0; g < NB; g++)
        UNROLL for (int j = 0; j < 8; j++) x[g].l[j] = _mm512_set1_epi64((long long)((state[j] + (uint64_t)g) & M52) >> (j == 7 ? 30 : 0));
    UNROLL for (int j = 0; j < 8; j++) y.l[j] = _mm512_set1_epi64((long long)(R2_52[j]));
    for (long i = 0; i < n; i++) {
        b52w_t t[NB];
        UNROLL for (int g = 0; g < NB; g++) b52_mul_wide(&t[g], &x[g], &y);
        UNROLL for (int g = 1; g < NB; g++)
            UNROLL for (int c = 0; c < 2 * N52; c++) t[g & 1].c[c] = _mm512_add_epi64(t[g & 1].c[c], _mm512_srli_epi64(t[g].c[c], 8));
        b52_redc(&x[0], &t[0], 1);
        b52_redc(&x[1], &t[1], 1);
        UNROLL for (int g = 2; g < NB; g++) x[g] = x[g & 1];
        __asm__ volatile("" : : : "memory");
    }
    UNROLL for (int j = 0; j < 8; j++) state[j] ^= (uint64_t)_mm512_reduce_add_epi64(_mm512_xor_si512(x[0].l[j], x[1].l[j]));
}
