/* Test-only quadratic extension fp2 = fp[u]/(u^2 + 1) over any fp that has the F API (the mock
 * or the real field template), for rendering the group template as a k = 12 G2. */
#ifndef MOCK_FP2_H
#define MOCK_FP2_H

typedef struct { fp_t c0, c1; } fp2_t;

static inline void fp2_set_zero(fp2_t *out) { fp_set_zero(&out->c0); fp_set_zero(&out->c1); }
static inline void fp2_set_one(fp2_t *out) { fp_set_one(&out->c0); fp_set_zero(&out->c1); }
static inline void fp2_add(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    fp_add(&out->c0, &a->c0, &b->c0);
    fp_add(&out->c1, &a->c1, &b->c1);
}
static inline void fp2_sub(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    fp_sub(&out->c0, &a->c0, &b->c0);
    fp_sub(&out->c1, &a->c1, &b->c1);
}
static inline void fp2_neg(fp2_t *out, const fp2_t *a) { fp_neg(&out->c0, &a->c0); fp_neg(&out->c1, &a->c1); }
static inline void fp2_dbl(fp2_t *out, const fp2_t *a) { fp_dbl(&out->c0, &a->c0); fp_dbl(&out->c1, &a->c1); }
static inline void fp2_mul(fp2_t *out, const fp2_t *a, const fp2_t *b)
{
    fp_t t0, t1, t2, t3;

    fp_mul(&t0, &a->c0, &b->c0);
    fp_mul(&t1, &a->c1, &b->c1);
    fp_mul(&t2, &a->c0, &b->c1);
    fp_mul(&t3, &a->c1, &b->c0);
    fp_sub(&out->c0, &t0, &t1);
    fp_add(&out->c1, &t2, &t3);
}
static inline void fp2_sqr(fp2_t *out, const fp2_t *a) { fp2_mul(out, a, a); }
static inline void fp2_inv(fp2_t *out, const fp2_t *a)
{
    fp_t n, t;

    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    fp_inv(&n, &n);
    fp_mul(&out->c0, &a->c0, &n);
    fp_neg(&t, &a->c1);
    fp_mul(&out->c1, &t, &n);
}
static inline bool fp2_is_zero(const fp2_t *a) { return fp_is_zero(&a->c0) & fp_is_zero(&a->c1); }
static inline bool fp2_is_one(const fp2_t *a) { return fp_is_one(&a->c0) & fp_is_zero(&a->c1); }
static inline bool fp2_equal(const fp2_t *a, const fp2_t *b)
{
    return fp_equal(&a->c0, &b->c0) & fp_equal(&a->c1, &b->c1);
}
static inline void fp2_cmov(fp2_t *out, const fp2_t *a, limb_t flag)
{
    fp_cmov(&out->c0, &a->c0, flag);
    fp_cmov(&out->c1, &a->c1, flag);
}

#endif /* MOCK_FP2_H */
