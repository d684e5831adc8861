/*
 * Radix-2^52 Montgomery arithmetic on AVX-512 IFMA, one field element per 64-bit lane: a batch
 * holds 8 independent elements, limb i of all 8 in vector i ("lane-sliced"). R = 2^(52 N52).
 * Study code (research/ifma_tower): not constant-time-reviewed, not part of any package.
 *
 * Needs params.h from derive.py (N52, P52, R2_52, N0_52 and the Fp12 plan).
 */
#ifndef IFMA52_H
#define IFMA52_H

#include <immintrin.h>
#include <stdint.h>

#define M52 ((1ULL << 52) - 1)

/* Every loop here runs over limbs or columns: fully unrolled, so the arrays live in registers. */
#if defined(__clang__)
#define UNROLL _Pragma("clang loop unroll(full)")
#else
#define UNROLL _Pragma("GCC unroll 64")
#endif

typedef struct { __m512i l[N52]; } b52_t;          /* 8 elements, N52 limbs of 52 bits */
typedef struct { __m512i c[2 * N52]; } b52w_t;     /* 8 double-width values, signed 64-bit columns */

/* Double-width product, no reduction: column k = sum of lo(a_i b_j), i + j = k, and of
 * hi(a_i b_j), i + j = k - 1. Limbs of a and b must be below 2^52. */
/* B52_SPLIT_ACC 1: separate accumulators for the lo and hi halves (shorter dependency chains,
 * 16 more adds); 0: one accumulator per column. */
#ifndef B52_SPLIT_ACC
#define B52_SPLIT_ACC 1
#endif

static inline __attribute__((always_inline)) void b52_mul_wide(b52w_t *t, const b52_t *a, const b52_t *b)
{
    const __m512i z = _mm512_setzero_si512();
#if B52_SPLIT_ACC
    __m512i lo[2 * N52], hi[2 * N52];
    UNROLL for (int k = 0; k < 2 * N52; k++) { lo[k] = z; hi[k] = z; }
    UNROLL for (int i = 0; i < N52; i++)
        UNROLL for (int j = 0; j < N52; j++) {
            lo[i + j] = _mm512_madd52lo_epu64(lo[i + j], a->l[i], b->l[j]);
            hi[i + j + 1] = _mm512_madd52hi_epu64(hi[i + j + 1], a->l[i], b->l[j]);
        }
    UNROLL for (int k = 0; k < 2 * N52; k++) t->c[k] = _mm512_add_epi64(lo[k], hi[k]);
#else
    UNROLL for (int k = 0; k < 2 * N52; k++) t->c[k] = z;
    UNROLL for (int i = 0; i < N52; i++)
        UNROLL for (int j = 0; j < N52; j++) {
            t->c[i + j] = _mm512_madd52lo_epu64(t->c[i + j], a->l[i], b->l[j]);
            t->c[i + j + 1] = _mm512_madd52hi_epu64(t->c[i + j + 1], a->l[i], b->l[j]);
        }
#endif
}

/* Montgomery reduction of signed columns: out = t / R mod p + offset p, limbs normalized.
 * With t in (-neg, pos), the result lies in (offset p - neg/R, offset p + pos/R + p); derive.py
 * checks that it is positive and below the input bound. */
static inline __attribute__((always_inline)) void b52_redc(b52_t *out, b52w_t *t, int offset)
{
    const __m512i z = _mm512_setzero_si512(), n0 = _mm512_set1_epi64((long long)N0_52);
    __m512i p[N52];
    UNROLL for (int j = 0; j < N52; j++) p[j] = _mm512_set1_epi64((long long)P52[j]);
    UNROLL for (int i = 0; i < N52; i++) {
        __m512i m = _mm512_madd52lo_epu64(z, t->c[i], n0);
        UNROLL for (int j = 0; j < N52; j++) {
            t->c[i + j] = _mm512_madd52lo_epu64(t->c[i + j], m, p[j]);
            t->c[i + j + 1] = _mm512_madd52hi_epu64(t->c[i + j + 1], m, p[j]);
        }
        /* t_i is now a multiple of 2^52: carry it (signed) into t_{i+1} */
        t->c[i + 1] = _mm512_add_epi64(t->c[i + 1], _mm512_srai_epi64(t->c[i], 52));
    }
    UNROLL for (int j = 0; j < N52; j++) {
        __m512i x = t->c[N52 + j];
        if (offset) x = _mm512_add_epi64(x, _mm512_set1_epi64((long long)(P52[j] * (uint64_t)offset)));
        out->l[j] = x;
    }
    UNROLL for (int j = 0; j + 1 < N52; j++) {
        out->l[j + 1] = _mm512_add_epi64(out->l[j + 1], _mm512_srai_epi64(out->l[j], 52));
        out->l[j] = _mm512_and_si512(out->l[j], _mm512_set1_epi64((long long)M52));
    }
}

/* Montgomery multiplication of 8 pairs: out < a b / R + p (below 2p for inputs below 2^20 p). */
static inline __attribute__((always_inline)) void b52_mont_mul(b52_t *out, const b52_t *a, const b52_t *b)
{
    b52w_t t;
    b52_mul_wide(&t, a, b);
    b52_redc(out, &t, 0);
}

/* Carry limbs above 52 bits upward (non-negative limbs): after sums of normalized elements. */
static inline __attribute__((always_inline)) void b52_normalize(b52_t *x)
{
    UNROLL for (int j = 0; j + 1 < N52; j++) {
        x->l[j + 1] = _mm512_add_epi64(x->l[j + 1], _mm512_srli_epi64(x->l[j], 52));
        x->l[j] = _mm512_and_si512(x->l[j], _mm512_set1_epi64((long long)M52));
    }
}

/* 8x8 transpose of 64-bit words: r[i] lane j -> c[j] lane i. */
static inline __attribute__((always_inline)) void tr8x8(__m512i c[8], const __m512i r[8])
{
    const __m512i i0 = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const __m512i i1 = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    __m512i t[8], u[8];
    UNROLL for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm512_unpacklo_epi64(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_epi64(r[2 * k], r[2 * k + 1]);
    }
    /* u[0..3]: rows 0-3, columns {0,4}, {1,5}, {2,6}, {3,7}; u[4..7]: rows 4-7 */
    UNROLL for (int h = 0; h < 2; h++) {
        u[4 * h + 0] = _mm512_permutex2var_epi64(t[4 * h + 0], i0, t[4 * h + 2]);
        u[4 * h + 1] = _mm512_permutex2var_epi64(t[4 * h + 1], i0, t[4 * h + 3]);
        u[4 * h + 2] = _mm512_permutex2var_epi64(t[4 * h + 0], i1, t[4 * h + 2]);
        u[4 * h + 3] = _mm512_permutex2var_epi64(t[4 * h + 1], i1, t[4 * h + 3]);
    }
    UNROLL for (int k = 0; k < 4; k++) {
        c[k] = _mm512_shuffle_i64x2(u[k], u[4 + k], 0x44);
        c[k + 4] = _mm512_shuffle_i64x2(u[k], u[4 + k], 0xEE);
    }
}

#endif
