/* Montgomery multiplication kernels for wasm32, side by side (research/wasm_fp_kernels.py builds and
 * runs this file; docs/targets.md, "WebAssembly").  The field comes from wasm_fp_field.h, written by the
 * driver: NL (64-bit limbs), FP_P[NL] (the modulus, least significant limb first) and FP_N0
 * (-p^-1 mod 2^64).  Every kernel computes out = a * b / 2^(64 NL) mod p for a, b < p, the
 * Montgomery product of the stored representation, and needs p < 2^(64 NL - 2):
 *
 *   a  the current portable kernel: 64-bit limbs, CIOS without the carry word, each 64 x 64 ->
 *      128-bit product emulated with four i64.mul (limbs.h's pf_mac on wasm32);
 *   b  32-bit limbs in product-scanning form (Comba, with the reduction interleaved), each column
 *      summed in two i64 accumulators (low and high halves of the products), carried once;
 *   c  29-bit unsaturated limbs in product-scanning form: every product is below 2^58, so a
 *      column of up to 64 of them sums in one i64 with no carry at all; one shift per column.
 *      The radix stays 2^(64 NL): the last reduction step takes the 64 NL mod 29 bits left.
 *   d  (c) in operand-scanning form (row by row): N29 running column sums, the lowest shifted
 *      out per reduction step; the kernel the wasm32 target uses (templates/asm/wasm32/).
 *   s  (c) with SIMD128: the a*b and m*p products of a column in the two lanes of an i64x2
 *      (i64x2.extmul_low_i32x4_u), summed once per column.
 *
 * Squaring: sqr_a is the portable SOS squaring plus reduction; sqr_c is (c) with each cross
 * product a_i a_j (i < j) once, doubled; sqr_d is (d) the same way, the wasm32 target's squaring.
 */
#include <stdint.h>
#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif
#include "wasm_fp_field.h"

typedef uint64_t u64;
typedef uint32_t u32;
#define EXPORT(name) __attribute__((export_name(#name)))
#define UNROLL _Pragma("clang loop unroll(full)")

/* ---- shared: the final conditional subtraction, on 64-bit limbs ---- */
static inline void reduce_once(u64 out[NL], const u64 t[NL])
{
    u64 d[NL], borrow = 0, keep;
    UNROLL for (int i = 0; i < NL; i++) {
        u64 x = t[i] - FP_P[i], b1 = t[i] < FP_P[i], b2 = x < borrow;
        d[i] = x - borrow;
        borrow = b1 | b2;
    }
    keep = (u64)0 - borrow;
    UNROLL for (int i = 0; i < NL; i++)
        out[i] = (t[i] & keep) | (d[i] & ~keep);
}

/* ---- (a) the current kernel ---- */
static inline u64 pf_mac(u64 a, u64 b, u64 c, u64 *carry)
{
    u64 a0 = (u32)a, a1 = a >> 32, b0 = (u32)b, b1 = b >> 32;
    u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
    u64 mid = (p00 >> 32) + (u32)p01 + (u32)p10;
    u64 lo = (mid << 32) | (u32)p00, hi = a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    lo += c;
    hi += lo < c;
    lo += *carry;
    hi += lo < *carry;
    *carry = hi;
    return lo;
}

static inline u64 addc(u64 a, u64 b, u64 *carry)
{
    unsigned __int128 s = (unsigned __int128)a + b + *carry;
    *carry = (u64)(s >> 64);
    return (u64)s;
}

static void mul_a(u64 out[NL], const u64 a[NL], const u64 b[NL])
{
    u64 t[NL] = {0};
    for (int i = 0; i < NL; i++) {
        u64 bi = b[i], m, A = 0, C = 0;
        t[0] = pf_mac(a[0], bi, t[0], &A);
        m = t[0] * FP_N0;
        (void)pf_mac(m, FP_P[0], t[0], &C);
        for (int j = 1; j < NL; j++) {
            t[j] = pf_mac(a[j], bi, t[j], &A);
            t[j - 1] = pf_mac(m, FP_P[j], t[j], &C);
        }
        t[NL - 1] = C + A;
    }
    reduce_once(out, t);
}

static inline void redc_a(u64 out[NL], u64 t[2 * NL])
{
    u64 hi = 0;
    for (int i = 0; i < NL; i++) {
        u64 m = t[i] * FP_N0, c = 0;
        for (int j = 0; j < NL; j++)
            t[i + j] = pf_mac(m, FP_P[j], t[i + j], &c);
        t[i + NL] = addc(t[i + NL], c, &hi);
    }
    reduce_once(out, t + NL); /* hi is 0: t < p 2^(64 NL) and p < 2^(64 NL - 2) */
}

static void sqr_a(u64 out[NL], const u64 a[NL])
{
    u64 t[2 * NL] = {0}, c, top = 0;
    for (int i = 0; i + 1 < NL; i++) {
        c = 0;
        for (int j = i + 1; j < NL; j++)
            t[i + j] = pf_mac(a[i], a[j], t[i + j], &c);
        t[i + NL] = c;
    }
    for (int i = 0; i < 2 * NL; i++) {
        u64 x = t[i];
        t[i] = (x << 1) | top;
        top = x >> 63;
    }
    c = 0;
    for (int i = 0; i < NL; i++) {
        u64 hi = c;
        t[2 * i] = pf_mac(a[i], a[i], t[2 * i], &hi);
        c = 0;
        t[2 * i + 1] = addc(t[2 * i + 1], hi, &c);
    }
    redc_a(out, t);
}

/* ---- (b) 32-bit limbs, product scanning, split accumulators ---- */
#define N32 (2 * NL)
#define ACC(x, y) do { u64 pr_ = (u64)(x) * (y); lo += (u32)pr_; hi += pr_ >> 32; } while (0)

static void mul_b(u64 out[NL], const u64 a64[NL], const u64 b64[NL])
{
    u32 a[N32], b[N32], p[N32], m[N32], t[N32];
    const u32 n0 = (u32)FP_N0;
    u64 lo = 0, hi = 0, r[NL];
    UNROLL for (int i = 0; i < NL; i++) {
        a[2 * i] = (u32)a64[i], a[2 * i + 1] = (u32)(a64[i] >> 32);
        b[2 * i] = (u32)b64[i], b[2 * i + 1] = (u32)(b64[i] >> 32);
        p[2 * i] = (u32)FP_P[i], p[2 * i + 1] = (u32)(FP_P[i] >> 32);
    }
    UNROLL for (int k = 0; k < N32; k++) {
        UNROLL for (int i = 0; i < k; i++) {
            ACC(a[i], b[k - i]);
            ACC(m[i], p[k - i]);
        }
        ACC(a[k], b[0]);
        m[k] = (u32)lo * n0;
        ACC(m[k], p[0]);
        lo = (lo >> 32) + hi, hi = 0;
    }
    UNROLL for (int k = N32; k < 2 * N32 - 1; k++) {
        UNROLL for (int i = k - N32 + 1; i < N32; i++) {
            ACC(a[i], b[k - i]);
            ACC(m[i], p[k - i]);
        }
        t[k - N32] = (u32)lo;
        lo = (lo >> 32) + hi, hi = 0;
    }
    t[N32 - 1] = (u32)lo; /* the result is below 2p < 2^(64 NL) */
    UNROLL for (int i = 0; i < NL; i++)
        r[i] = (u64)t[2 * i] | (u64)t[2 * i + 1] << 32;
    reduce_once(out, r);
}

/* ---- (c) 29-bit unsaturated limbs, product scanning, one i64 per column ---- */
#define W 29
#define MASK ((u64)1 << W) - 1
#define N29 ((64 * NL + W - 1) / W)       /* limbs of 29 bits covering 64 NL bits */
#define LAST_BITS (64 * NL - W * (N29 - 1)) /* bits of the last reduction step */

/* limbs of W bits from 64-bit limbs (bit positions are constants: unrolled to shifts) */
static inline void to29(u64 out[N29], const u64 in[NL])
{
    UNROLL for (int i = 0; i < N29; i++) {
        int bit = W * i, w = bit / 64, s = bit % 64;
        u64 v = in[w] >> s;
        if (s + W > 64 && w + 1 < NL)
            v |= in[w + 1] << (64 - s);
        out[i] = v & (MASK);
    }
}

/* the 64 NL bits of z from bit position `base` on, as 64-bit limbs (z: normalized W-bit limbs) */
static inline void from29(u64 out[NL], const u64 z[2 * N29], int base)
{
    UNROLL for (int w = 0; w < NL; w++) {
        u64 v = 0;
        UNROLL for (int i = 0; i < 2 * N29; i++) {
            int lo = W * i - base - 64 * w; /* position of limb i within word w */
            if (lo <= -W || lo >= 64)
                continue;
            v |= lo >= 0 ? z[i] << lo : z[i] >> -lo;
        }
        out[w] = v;
    }
}

static void mul_c(u64 out[NL], const u64 a64[NL], const u64 b64[NL])
{
    u64 a[N29], b[N29], p[N29], m[N29], z[2 * N29], r[NL], acc = 0;
    const u64 n0 = FP_N0 & (MASK);
    to29(a, a64);
    to29(b, b64);
    to29(p, FP_P);
    UNROLL for (int k = 0; k < N29; k++) {
        UNROLL for (int i = 0; i < k; i++)
            acc += a[i] * b[k - i] + m[i] * p[k - i];
        acc += a[k] * b[0];
        if (k < N29 - 1) {
            m[k] = (acc * n0) & (MASK);
            acc += m[k] * p[0];
            z[k] = 0;
            acc >>= W;
        } else {
            m[k] = (acc * n0) & (((u64)1 << LAST_BITS) - 1);
            acc += m[k] * p[0];
            z[k] = acc & (MASK);
            acc >>= W;
        }
    }
    UNROLL for (int k = N29; k < 2 * N29 - 1; k++) {
        UNROLL for (int i = k - N29 + 1; i < N29; i++)
            acc += a[i] * b[k - i] + m[i] * p[k - i];
        z[k] = acc & (MASK);
        acc >>= W;
    }
    z[2 * N29 - 1] = acc;
    from29(r, z, 64 * NL);
    reduce_once(out, r);
}

static void sqr_c(u64 out[NL], const u64 a64[NL])
{
    u64 a[N29], a2[N29], p[N29], m[N29], z[2 * N29], r[NL], acc = 0;
    const u64 n0 = FP_N0 & (MASK);
    to29(a, a64);
    UNROLL for (int i = 0; i < N29; i++)
        a2[i] = a[i] << 1;
    to29(p, FP_P);
    UNROLL for (int k = 0; k < 2 * N29 - 1; k++) {
        int lo = k < N29 ? 0 : k - N29 + 1;
        UNROLL for (int i = lo; i < k - i; i++)
            acc += a2[i] * a[k - i];
        if (k % 2 == 0)
            acc += a[k / 2] * a[k / 2];
        UNROLL for (int i = lo; i < (k < N29 ? k : N29); i++)
            acc += m[i] * p[k - i];
        if (k < N29 - 1) {
            m[k] = (acc * n0) & (MASK);
            acc += m[k] * p[0];
            z[k] = 0;
        } else if (k == N29 - 1) {
            m[k] = (acc * n0) & (((u64)1 << LAST_BITS) - 1);
            acc += m[k] * p[0];
            z[k] = acc & (MASK);
        } else {
            z[k] = acc & (MASK);
        }
        acc >>= W;
    }
    z[2 * N29 - 1] = acc;
    from29(r, z, 64 * NL);
    reduce_once(out, r);
}

/* ---- (d) (c) in operand-scanning form (row by row, as Mitschabaude's MSM): the columns are
 * N29 running i64 sums, shifted down one limb per reduction step ---- */
static void mul_d(u64 out[NL], const u64 a64[NL], const u64 b64[NL])
{
    u64 a[N29], b[N29], p[N29], t[N29 + 1], z[2 * N29], r[NL];
    const u64 n0 = FP_N0 & (MASK);
    to29(a, a64);
    to29(b, b64);
    to29(p, FP_P);
    UNROLL for (int j = 0; j <= N29; j++)
        t[j] = 0;
    UNROLL for (int i = 0; i < N29; i++) {
        u64 m;
        UNROLL for (int j = 0; j < N29; j++)
            t[j] += a[i] * b[j];
        m = (t[0] * n0) & (i < N29 - 1 ? (MASK) : (((u64)1 << LAST_BITS) - 1));
        UNROLL for (int j = 0; j < N29; j++)
            t[j] += m * p[j];
        if (i < N29 - 1) {
            t[1] += t[0] >> W;
            UNROLL for (int j = 0; j < N29; j++)
                t[j] = t[j + 1];
            t[N29] = 0;
        }
    }
    /* t[0] is column N29 - 1 (low LAST_BITS bits zero), t[j] column N29 - 1 + j: normalize */
    UNROLL for (int k = 0; k < N29 - 1; k++)
        z[k] = 0;
    UNROLL for (int j = 0; j < N29 - 1; j++) {
        z[N29 - 1 + j] = t[j] & (MASK);
        t[j + 1] += t[j] >> W;
    }
    z[2 * N29 - 2] = t[N29 - 1] & (MASK);
    z[2 * N29 - 1] = t[N29 - 1] >> W;
    from29(r, z, 64 * NL);
    reduce_once(out, r);
}

/* ---- (d) squaring: row i adds a_i^2 and 2 a_i a_j (j > i) only ---- */
static void sqr_d(u64 out[NL], const u64 a64[NL])
{
    u64 a[N29], a2[N29], p[N29], t[N29 + 1], z[2 * N29], r[NL];
    const u64 n0 = FP_N0 & (MASK);
    to29(a, a64);
    to29(p, FP_P);
    UNROLL for (int i = 0; i < N29; i++)
        a2[i] = a[i] << 1;
    UNROLL for (int j = 0; j <= N29; j++)
        t[j] = 0;
    UNROLL for (int i = 0; i < N29; i++) {
        u64 m;
        /* t[k] is column i + k: a_i a_j lands at column i + j, t[j] */
        t[i] += a[i] * a[i];
        UNROLL for (int j = i + 1; j < N29; j++)
            t[j] += a2[i] * a[j];
        m = (t[0] * n0) & (i < N29 - 1 ? (MASK) : (((u64)1 << LAST_BITS) - 1));
        UNROLL for (int j = 0; j < N29; j++)
            t[j] += m * p[j];
        if (i < N29 - 1) {
            t[1] += t[0] >> W;
            UNROLL for (int j = 0; j < N29; j++)
                t[j] = t[j + 1];
            t[N29] = 0;
        }
    }
    UNROLL for (int k = 0; k < N29 - 1; k++)
        z[k] = 0;
    UNROLL for (int j = 0; j < N29 - 1; j++) {
        z[N29 - 1 + j] = t[j] & (MASK);
        t[j + 1] += t[j] >> W;
    }
    z[2 * N29 - 2] = t[N29 - 1] & (MASK);
    z[2 * N29 - 1] = t[N29 - 1] >> W;
    from29(r, z, 64 * NL);
    reduce_once(out, r);
}

#ifdef __wasm_simd128__
/* ---- (s) (c) with the two products of a column term in the lanes of an i64x2 ---- */
static void mul_s(u64 out[NL], const u64 a64[NL], const u64 b64[NL])
{
    u64 a[N29], b[N29], p[N29], m[N29], z[2 * N29], r[NL], acc = 0;
    const u64 n0 = FP_N0 & (MASK);
    v128_t am[N29], bp[N29]; /* lanes (a_i, m_i) and (b_j, p_j), as i32x4 (x, y, _, _) */
    to29(a, a64);
    to29(b, b64);
    to29(p, FP_P);
    UNROLL for (int i = 0; i < N29; i++)
        bp[i] = wasm_i32x4_make((int32_t)b[i], (int32_t)p[i], 0, 0);
    UNROLL for (int k = 0; k < N29; k++) {
        v128_t s = wasm_i64x2_const(0, 0);
        UNROLL for (int i = 0; i < k; i++)
            s = wasm_i64x2_add(s, wasm_u64x2_extmul_low_u32x4(am[i], bp[k - i]));
        acc += a[k] * b[0] + wasm_i64x2_extract_lane(s, 0) + wasm_i64x2_extract_lane(s, 1);
        m[k] = (acc * n0) & (k < N29 - 1 ? (MASK) : (((u64)1 << LAST_BITS) - 1));
        am[k] = wasm_i32x4_make((int32_t)a[k], (int32_t)m[k], 0, 0);
        acc += m[k] * p[0];
        z[k] = k < N29 - 1 ? 0 : acc & (MASK);
        acc >>= W;
    }
    UNROLL for (int k = N29; k < 2 * N29 - 1; k++) {
        v128_t s = wasm_i64x2_const(0, 0);
        UNROLL for (int i = k - N29 + 1; i < N29; i++)
            s = wasm_i64x2_add(s, wasm_u64x2_extmul_low_u32x4(am[i], bp[k - i]));
        acc += (u64)wasm_i64x2_extract_lane(s, 0) + (u64)wasm_i64x2_extract_lane(s, 1);
        z[k] = acc & (MASK);
        acc >>= W;
    }
    z[2 * N29 - 1] = acc;
    from29(r, z, 64 * NL);
    reduce_once(out, r);
}
#endif

/* ---- exports: one call on memory (correctness) and a chain of calls (timing) ---- */
static u64 X[NL], Y[NL];

#define KERNEL_EXPORTS(v)                                                                 \
    EXPORT(mul_##v) void mul_##v##_export(u64 *o, const u64 *a, const u64 *b) { mul_##v(o, a, b); } \
    EXPORT(chain_mul_##v) u64 chain_mul_##v(u64 *x, const u64 *y, int n)                      \
    {                                                                                          \
        for (int i = 0; i < n; i++)                                                            \
            mul_##v(x, x, y);                                                                  \
        return x[0];                                                                           \
    }
#define SQR_EXPORTS(v)                                                                    \
    EXPORT(sqr_##v) void sqr_##v##_export(u64 *o, const u64 *a) { sqr_##v(o, a); }             \
    EXPORT(chain_sqr_##v) u64 chain_sqr_##v(u64 *x, int n)                                     \
    {                                                                                          \
        for (int i = 0; i < n; i++)                                                            \
            sqr_##v(x, x);                                                                     \
        return x[0];                                                                           \
    }

KERNEL_EXPORTS(a)
KERNEL_EXPORTS(b)
KERNEL_EXPORTS(c)
KERNEL_EXPORTS(d)
SQR_EXPORTS(a)
SQR_EXPORTS(c)
SQR_EXPORTS(d)
#ifdef __wasm_simd128__
KERNEL_EXPORTS(s)
#endif

EXPORT(buffer) u64 *buffer(void)
{
    static u64 buf[4 * NL];
    (void)X, (void)Y;
    return buf;
}
