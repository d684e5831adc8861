/* Test-only prime field "fp" for the group template (tests/emit/test_group_c.py): the F API the
 * group code uses, in plain Montgomery form (textbook CIOS with an extra carry word).  Not fast,
 * but free of data-dependent branches (except fp_inv, on the public exponent), so the valgrind
 * constant-time check can run on it.  Before including it define (PF_W word lists come from limbs.h):
 *   MOCK_LIMBS64          number of 64-bit words of p
 *   MOCK_P, MOCK_ONE, MOCK_R2   p, R mod p, R^2 mod p with R = 2^(64 MOCK_LIMBS64)
 *   MOCK_N0_64, MOCK_N0_32      -p^-1 mod 2^64 and mod 2^32 */
#ifndef MOCK_FP_H
#define MOCK_FP_H

#include "limbs.h"

#define FP_NLIMBS (MOCK_LIMBS64 * PF_LIMBS_PER_WORD)

typedef struct { limb_t l[FP_NLIMBS]; } fp_t;

static const limb_t MOCK_P_L[FP_NLIMBS] = { MOCK_P };
static const fp_t MOCK_ONE_F = { { MOCK_ONE } };
static const fp_t MOCK_R2_F = { { MOCK_R2 } };
#if PF_LIMB_BITS == 64
static const limb_t MOCK_N0 = (limb_t)MOCK_N0_64;
#else
static const limb_t MOCK_N0 = (limb_t)MOCK_N0_32;
#endif

/* out = t - p if t (with the extra top word hi) >= p, else t */
static inline void mock_reduce(limb_t *out, const limb_t *t, limb_t hi)
{
    limb_t u[FP_NLIMBS], borrow = 0;
    size_t i;

    for (i = 0; i < FP_NLIMBS; i++) {
        dlimb_t d = (dlimb_t)t[i] - MOCK_P_L[i] - borrow;
        u[i] = (limb_t)d;
        borrow = (limb_t)(d >> PF_LIMB_BITS) & 1;
    }
    /* keep t only when there was no top word and t - p borrowed */
    {
        limb_t keep = pf_mask(borrow & (hi ^ 1)); /* hi is 0 or 1 */
        for (i = 0; i < FP_NLIMBS; i++)
            out[i] = (t[i] & keep) | (u[i] & ~keep);
    }
}

static inline void fp_set_zero(fp_t *out) { memset(out, 0, sizeof(*out)); }
static inline void fp_set_one(fp_t *out) { *out = MOCK_ONE_F; }

static inline void fp_add(fp_t *out, const fp_t *a, const fp_t *b)
{
    limb_t t[FP_NLIMBS], c = 0;
    size_t i;

    for (i = 0; i < FP_NLIMBS; i++) {
        dlimb_t s = (dlimb_t)a->l[i] + b->l[i] + c;
        t[i] = (limb_t)s;
        c = (limb_t)(s >> PF_LIMB_BITS);
    }
    mock_reduce(out->l, t, c);
}

static inline void fp_sub(fp_t *out, const fp_t *a, const fp_t *b)
{
    limb_t t[FP_NLIMBS], borrow = 0, c = 0;
    size_t i;

    for (i = 0; i < FP_NLIMBS; i++) {
        dlimb_t d = (dlimb_t)a->l[i] - b->l[i] - borrow;
        t[i] = (limb_t)d;
        borrow = (limb_t)(d >> PF_LIMB_BITS) & 1;
    }
    for (i = 0; i < FP_NLIMBS; i++) {
        dlimb_t s = (dlimb_t)t[i] + (MOCK_P_L[i] & pf_mask(borrow)) + c;
        t[i] = (limb_t)s;
        c = (limb_t)(s >> PF_LIMB_BITS);
    }
    memcpy(out->l, t, sizeof(t));
}

static inline bool fp_is_zero(const fp_t *a)
{
    limb_t acc = 0;
    size_t i;

    for (i = 0; i < FP_NLIMBS; i++)
        acc |= a->l[i];
    return acc == 0;
}

static inline void fp_neg(fp_t *out, const fp_t *a)
{
    fp_t z;

    fp_set_zero(&z);
    fp_sub(out, &z, a);
}

static inline void fp_dbl(fp_t *out, const fp_t *a) { fp_add(out, a, a); }

static inline void fp_mul(fp_t *out, const fp_t *a, const fp_t *b)
{
    limb_t t[FP_NLIMBS + 2];
    size_t i, j;

    memset(t, 0, sizeof(t));
    for (i = 0; i < FP_NLIMBS; i++) {
        limb_t c = 0, m;
        dlimb_t s;

        for (j = 0; j < FP_NLIMBS; j++) {
            s = (dlimb_t)a->l[j] * b->l[i] + t[j] + c;
            t[j] = (limb_t)s;
            c = (limb_t)(s >> PF_LIMB_BITS);
        }
        s = (dlimb_t)t[FP_NLIMBS] + c;
        t[FP_NLIMBS] = (limb_t)s;
        t[FP_NLIMBS + 1] = (limb_t)(s >> PF_LIMB_BITS);
        m = t[0] * MOCK_N0;
        s = (dlimb_t)m * MOCK_P_L[0] + t[0];
        c = (limb_t)(s >> PF_LIMB_BITS);
        for (j = 1; j < FP_NLIMBS; j++) {
            s = (dlimb_t)m * MOCK_P_L[j] + t[j] + c;
            t[j - 1] = (limb_t)s;
            c = (limb_t)(s >> PF_LIMB_BITS);
        }
        s = (dlimb_t)t[FP_NLIMBS] + c;
        t[FP_NLIMBS - 1] = (limb_t)s;
        t[FP_NLIMBS] = t[FP_NLIMBS + 1] + (limb_t)(s >> PF_LIMB_BITS);
    }
    mock_reduce(out->l, t, t[FP_NLIMBS]);
}

static inline void fp_sqr(fp_t *out, const fp_t *a) { fp_mul(out, a, a); }

/* a^(p-2) by square-and-multiply; 0 -> 0 */
static inline void fp_inv(fp_t *out, const fp_t *a)
{
    limb_t e[FP_NLIMBS], borrow = 2;
    fp_t r, base = *a;
    size_t i;

    for (i = 0; i < FP_NLIMBS; i++) {
        dlimb_t d = (dlimb_t)MOCK_P_L[i] - borrow;
        e[i] = (limb_t)d;
        borrow = (limb_t)(d >> PF_LIMB_BITS) & 1;
    }
    fp_set_one(&r);
    for (i = FP_NLIMBS * PF_LIMB_BITS; i-- > 0;) {
        fp_sqr(&r, &r);
        if ((e[i / PF_LIMB_BITS] >> (i % PF_LIMB_BITS)) & 1)
            fp_mul(&r, &r, &base);
    }
    *out = r;
}

/* the MSM's batch inversion (public denominators) */
static inline void fp_inv_vartime(fp_t *out, const fp_t *a) { fp_inv(out, a); }

static inline bool fp_equal(const fp_t *a, const fp_t *b)
{
    limb_t acc = 0;
    size_t i;

    for (i = 0; i < FP_NLIMBS; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}
static inline bool fp_is_one(const fp_t *a) { return fp_equal(a, &MOCK_ONE_F); }

static inline void fp_cmov(fp_t *out, const fp_t *a, limb_t flag)
{
    limb_t mask = pf_mask(flag);
    size_t i;

    for (i = 0; i < FP_NLIMBS; i++)
        out->l[i] ^= (out->l[i] ^ a->l[i]) & mask;
}

static inline void fp_from_int(fp_t *out, const limb_t in[FP_NLIMBS])
{
    fp_t t;

    memcpy(t.l, in, sizeof(t.l));
    fp_mul(out, &t, &MOCK_R2_F);
}

static inline void fp_to_int(limb_t out[FP_NLIMBS], const fp_t *a)
{
    fp_t one, t;

    fp_set_zero(&one);
    one.l[0] = 1;
    fp_mul(&t, a, &one);
    memcpy(out, t.l, sizeof(t.l));
}

#endif /* MOCK_FP_H */
