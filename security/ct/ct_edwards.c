/* Constant-time checks of one generated twisted Edwards curve (c/edwards_core.h) under valgrind
 * memcheck: the method, the command line and the expectations of ct_curve.c (see there):
 *
 *     ct_edwards --list              one line per check: NAME EXPECT (ct, vartime or may)
 *     ct_edwards NAME [NAME ...]     run checks in turn, each between marker lines on stderr
 *
 * Secret paths: [k]P (te_mul_ct; te_mul_glv_ct and te_psi where the curve has an endomorphism;
 * SWPoint's sw_mul_subgroup_ct, sw_mul_any_ct, sw_mul_ct, the complete sw_add_ct and sw_dbl and the maps between
 * the models where the curve file has a [weierstrass] section, with sw_mul_subgroup_vartime as a
 * second control),
 * the unified addition and the doubling, inversion and square roots; public-data operations that are constant time all the same (to affine, equality, the
 * curve equation, cofactor clearing, decoding helpers); te_mul_vartime is the negative control. */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "edwards_core.h"

#define SECRET(x) VALGRIND_MAKE_MEM_UNDEFINED(&(x), sizeof(x))
#define PUBLIC(x) VALGRIND_MAKE_MEM_DEFINED(&(x), sizeof(x))

static volatile limb_t sink;

/* Fill any struct of fq_t (field elements, points) with distinct elements. */
static void fill_fq(void *p, size_t size, unsigned salt)
{
    limb_t ints[FQ_NLIMBS];
    size_t i, j;
    for (i = 0; i < size / sizeof(fq_t); i++) {
        for (j = 0; j < FQ_NLIMBS; j++)
            ints[j] = (limb_t)0x9E3779B97F4A7C15ULL * (limb_t)(i + 7 * j + salt + 1);
        ints[FQ_NLIMBS - 1] >>= 8; /* below p */
        fq_from_int((fq_t *)p + i, ints);
    }
}

static void fill_fr(void *p, size_t size, unsigned salt)
{
    limb_t ints[FR_NLIMBS];
    size_t j;
    (void)size;
    for (j = 0; j < FR_NLIMBS; j++)
        ints[j] = (limb_t)0x9E3779B97F4A7C15ULL * (limb_t)(7 * j + salt + 1);
    ints[FR_NLIMBS - 1] >>= 16; /* below r */
    fr_from_int((fr_t *)p, ints);
}

static void consume(const void *p, size_t size)
{
    const unsigned char *b = p;
    size_t i;
    for (i = 0; i < size; i++)
        sink ^= b[i];
}

#define OUT(x)                                                                                     \
    do {                                                                                           \
        PUBLIC(x);                                                                                 \
        consume(&(x), sizeof(x));                                                                  \
    } while (0)

/* A point operation on a secret point (and scalar). */
#define POINT_CHECK(name, R, call)                                                                 \
    static void name(void)                                                                         \
    {                                                                                              \
        te_t p, q;                                                                                 \
        R r;                                                                                       \
        limb_t k[FR_NLIMBS];                                                                       \
        fr_t t;                                                                                    \
        int ok = 0;                                                                                \
        fill_fq(&p, sizeof(p), 1);                                                                 \
        fill_fq(&q, sizeof(q), 2);                                                                 \
        fill_fr(&t, sizeof(t), 3);                                                                 \
        fr_to_int(k, &t);                                                                          \
        memset(&r, 0, sizeof(r));                                                                  \
        SECRET(p);                                                                                 \
        SECRET(q);                                                                                 \
        SECRET(k);                                                                                 \
        call;                                                                                      \
        OUT(ok);                                                                                   \
        OUT(r);                                                                                    \
    }

/* A unary field operation on a secret element; bool results are outputs too. */
#define FIELD_CHECK(name, T, fill, call)                                                           \
    static void name(void)                                                                         \
    {                                                                                              \
        T a, r;                                                                                    \
        int ok;                                                                                    \
        fill(&a, sizeof(a), 5);                                                                    \
        memset(&r, 0, sizeof(r));                                                                  \
        SECRET(a);                                                                                 \
        ok = (int)(call);                                                                          \
        OUT(ok);                                                                                   \
        OUT(r);                                                                                    \
    }

POINT_CHECK(check_te_mul_ct, te_t, te_mul_ct(&r, &p, k, FR_BITS))
POINT_CHECK(check_te_add, te_t, te_add(&r, &p, &q))
POINT_CHECK(check_te_dbl, te_t, te_dbl(&r, &p))
POINT_CHECK(check_te_neg, te_t, te_neg(&r, &p))
POINT_CHECK(check_te_clear_cofactor, te_t, te_clear_cofactor(&r, &p))
POINT_CHECK(check_te_to_affine, te_affine_t, te_to_affine(&r, &p))
static void batch_to_affine_two(te_affine_t *r, const te_t *p, const te_t *q)
{
    fq_t s[2];
    te_affine_t two[2];
    te_t in[2];

    in[0] = *p;
    in[1] = *q;
    te_batch_to_affine(two, in, 2, s);
    *r = two[1];
}

static void add_cached(te_t *r, const te_t *p, const te_t *q)
{
    te_cached_t c;

    te_to_cached(&c, (const te_affine_t *)(const void *)q);
    te_add_cached(r, p, &c);
}

POINT_CHECK(check_te_batch_to_affine, te_affine_t, batch_to_affine_two(&r, &p, &q))
POINT_CHECK(check_te_equal, te_t, ok = te_equal(&p, &q))
POINT_CHECK(check_te_is_on_curve, te_t, ok = te_is_on_curve(&p))
POINT_CHECK(check_te_affine_is_on_curve, te_t, ok = te_affine_is_on_curve((const te_affine_t *)(const void *)&p))
POINT_CHECK(check_te_add_cached, te_t, add_cached(&r, &p, &q))
POINT_CHECK(check_te_mul_vartime, te_t, te_mul_vartime(&r, &p, k, FR_NLIMBS))
POINT_CHECK(check_te_in_subgroup_vartime, te_t, ok = te_in_subgroup_vartime(&p))
#ifdef TE_GLV_W
/* curves with a degree-2 endomorphism (TE_GLV_W is defined where one was derived) */
POINT_CHECK(check_te_mul_glv_ct, te_t, te_mul_glv_ct(&r, &p, k))
POINT_CHECK(check_te_psi, te_t, te_psi(&r, &p))
POINT_CHECK(check_te_mul_glv_vartime, te_t, te_mul_glv_vartime(&r, &p, k))
#endif
#ifdef PF_EDWARDS_SW_H
/* SWPoint's C (edwards_sw.h, where the curve file has a [weierstrass] section): a secret point of
 * the Weierstrass model in Jacobian coordinates, and a secret scalar. */
#define SW_CHECK(name, R, call)                                                                    \
    static void name(void)                                                                         \
    {                                                                                              \
        sw_t p, q;                                                                                 \
        te_t e;                                                                                    \
        R r;                                                                                       \
        limb_t k[FR_NLIMBS];                                                                       \
        fr_t t;                                                                                    \
        int ok = 0;                                                                                \
        fill_fq(&p, sizeof(p), 11);                                                                \
        fill_fq(&q, sizeof(q), 12);                                                                \
        fill_fq(&e, sizeof(e), 13);                                                                \
        fill_fr(&t, sizeof(t), 14);                                                                \
        fr_to_int(k, &t);                                                                          \
        memset(&r, 0, sizeof(r));                                                                  \
        SECRET(p);                                                                                 \
        SECRET(q);                                                                                 \
        SECRET(e);                                                                                 \
        SECRET(k);                                                                                 \
        call;                                                                                      \
        OUT(ok);                                                                                   \
        OUT(r);                                                                                    \
    }

SW_CHECK(check_sw_mul_subgroup_ct, sw_t, sw_mul_subgroup_ct(&r, &p, k))
SW_CHECK(check_sw_mul_ct, sw_t, sw_mul_ct(&r, &p, k, FR_BITS))
SW_CHECK(check_sw_mul_any_ct, sw_t, sw_mul_any_ct(&r, &p, k))
SW_CHECK(check_sw_add_ct, sw_t, sw_add_ct(&r, &p, &q))
SW_CHECK(check_sw_dbl, sw_t, sw_dbl(&r, &p))
SW_CHECK(check_te_from_sw, te_t, te_from_sw(&r, &p))
SW_CHECK(check_sw_from_te, sw_t, sw_from_te(&r, &e))
SW_CHECK(check_sw_clear_cofactor_ct, sw_t, sw_clear_cofactor_ct(&r, &p))
SW_CHECK(check_sw_equal, sw_t, ok = sw_equal(&p, &q))
SW_CHECK(check_sw_mul_subgroup_vartime, sw_t, sw_mul_subgroup_vartime(&r, &p, k))
#endif
FIELD_CHECK(check_fq_inv, fq_t, fill_fq, (fq_inv(&r, &a), 0))
FIELD_CHECK(check_fq_inv_fermat, fq_t, fill_fq, (fq_inv_fermat(&r, &a), 0))
FIELD_CHECK(check_fr_inv, fr_t, fill_fr, (fr_inv(&r, &a), 0))
FIELD_CHECK(check_fq_sqrt, fq_t, fill_fq, fq_sqrt(&r, &a))
FIELD_CHECK(check_fr_sqrt, fr_t, fill_fr, fr_sqrt(&r, &a))
FIELD_CHECK(check_fq_legendre, fq_t, fill_fq, fq_legendre(&a))
FIELD_CHECK(check_fq_is_lex_largest, fq_t, fill_fq, fq_is_lex_largest(&a))
FIELD_CHECK(check_fq_is_odd, fq_t, fill_fq, fq_is_odd(&a))
FIELD_CHECK(check_fq_from_bytes_be, fq_t, fill_fq, fq_from_bytes_be(&r, (const uint8_t *)(const void *)&a))

#define CHECK(fn) { #fn, 0, check_##fn }
#define CONTROL(fn) { #fn, 1, check_##fn }

static const struct {
    const char *name;
    int control;
    void (*run)(void);
} CHECKS[] = {
    /* secret paths */
    CHECK(te_mul_ct), CHECK(te_add), CHECK(te_dbl), CHECK(te_neg), CHECK(te_add_cached),
#ifdef TE_GLV_W
    CHECK(te_mul_glv_ct), CHECK(te_psi), CONTROL(te_mul_glv_vartime),
#endif
#ifdef PF_EDWARDS_SW_H
    CHECK(sw_mul_subgroup_ct), CHECK(sw_mul_any_ct), CHECK(sw_mul_ct), CHECK(sw_add_ct), CHECK(sw_dbl), CHECK(te_from_sw),
    CHECK(sw_from_te), CHECK(sw_clear_cofactor_ct), CONTROL(sw_mul_subgroup_vartime),
#endif
    CHECK(fq_inv), CHECK(fq_inv_fermat), CHECK(fr_inv), CHECK(fq_sqrt), CHECK(fr_sqrt), CHECK(fq_legendre),
    /* operations on public data that are constant time all the same */
    CHECK(te_clear_cofactor), CHECK(te_to_affine), CHECK(te_batch_to_affine), CHECK(te_equal),
    CHECK(te_is_on_curve), CHECK(te_affine_is_on_curve), CHECK(fq_is_lex_largest), CHECK(fq_is_odd),
    CHECK(fq_from_bytes_be),
#ifdef PF_EDWARDS_SW_H
    CHECK(sw_equal),
#endif
    /* variable time, and named so; the control must be flagged */
    CONTROL(te_mul_vartime), CHECK(te_in_subgroup_vartime),
};

#define CT_PROGRAM "ct_edwards"
#include "ct_main.h"
