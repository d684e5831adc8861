/* Constant-time checks of one generated curve under valgrind memcheck (the "ctgrind" method of
 * tests/c_harness/group/ct_check.inc, applied to the real generated C):
 *
 *     ct_curve --list              one line per check: NAME EXPECT (ct, vartime or may)
 *     ct_curve NAME [NAME ...]     run checks in turn, each between marker lines on stderr
 *
 * A check marks its secret inputs undefined (VALGRIND_MAKE_MEM_UNDEFINED), calls the function and
 * marks the outputs defined again.  Memcheck then reports every branch ("Conditional jump or move
 * depends on uninitialised value") and every memory index ("Use of uninitialised value of size 8")
 * computed from a secret.  The name of the function decides what security/constant_time.py
 * requires: every function whose name does not end in _vartime must be clean, so a function that
 * branches on its inputs without saying so in its name fails here ("ct").  Functions named _vartime
 * are run and reported ("may": some are constant time on some curves, e.g. the subgroup test of a
 * group of prime order); the CONTROL entries among them must be flagged ("vartime"): negative
 * controls, proof that the harness sees a leak where there is one.  Adding a function is one line
 * of the table below.
 *
 * Built with the flags of the real module, -DCT_HAVE_FP2 when the tower has Fp2 (G2 over Fp2),
 * -DCT_HAVE_FP4 when it has Fp4 (G2 over Fp4, k = 24) and -DCT_TOP=<prefix of GT's field> (fp6,
 * fp12 or fp24): properties of the curve, never its name.  Inputs are arbitrary field elements: only the control flow and the addresses are checked. */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "pairforge.h"

#define SECRET(x) VALGRIND_MAKE_MEM_UNDEFINED(&(x), sizeof(x))
#define PUBLIC(x) VALGRIND_MAKE_MEM_DEFINED(&(x), sizeof(x))
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

static volatile limb_t sink;

/* Fill any struct of fp_t (field elements, points, GT elements) with distinct elements. */
static void fill_fp(void *p, size_t size, unsigned salt)
{
    limb_t ints[FP_NLIMBS];
    size_t i, j;
    for (i = 0; i < size / sizeof(fp_t); i++) {
        for (j = 0; j < FP_NLIMBS; j++)
            ints[j] = (limb_t)0x9E3779B97F4A7C15ULL * (limb_t)(i + 7 * j + salt + 1);
        ints[FP_NLIMBS - 1] >>= 8; /* below p */
        fp_from_int((fp_t *)p + i, ints);
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

static void fill_scalar(limb_t *k, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        k[i] = (limb_t)0xD1B54A32D192ED03ULL * (limb_t)(i + 3);
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

/* [k]P on a secret scalar and point; mul selects the function under test. */
#define MUL_CHECK(name, G, call)                                                                   \
    static void name(void)                                                                         \
    {                                                                                              \
        CAT(G, _t) p, r;                                                                           \
        limb_t k[FR_NLIMBS];                                                                       \
        fill_fp(&p, sizeof(p), 1);                                                                 \
        fill_scalar(k, FR_NLIMBS);                                                                 \
        SECRET(p);                                                                                 \
        SECRET(k);                                                                                 \
        call;                                                                                      \
        OUT(r);                                                                                    \
    }

MUL_CHECK(check_g1_mul_ct, g1, g1_mul_ct(&r, &p, k, FR_BITS))
MUL_CHECK(check_g2_mul_ct, g2, g2_mul_ct(&r, &p, k, FR_BITS))
MUL_CHECK(check_g1_mul_endo_ct, g1, g1_mul_endo_ct(&r, &p, k))
MUL_CHECK(check_g2_mul_endo_ct, g2, g2_mul_endo_ct(&r, &p, k))
MUL_CHECK(check_gt_pow_endo_ct, gt, gt_pow_endo_ct(&r, &p, k))
MUL_CHECK(check_g1_mul_vartime, g1, g1_mul_vartime(&r, &p, k, FR_NLIMBS))
MUL_CHECK(check_g2_mul_vartime, g2, g2_mul_vartime(&r, &p, k, FR_NLIMBS))
MUL_CHECK(check_g1_mul_window_vartime, g1, g1_mul_window_vartime(&r, &p, k, FR_NLIMBS))
MUL_CHECK(check_g1_add_ct, g1, g1_add_ct(&r, &p, &p))
MUL_CHECK(check_g2_add_ct, g2, g2_add_ct(&r, &p, &p))
MUL_CHECK(check_g1_add_vartime, g1, g1_add_vartime(&r, &p, &p))
MUL_CHECK(check_g2_add_vartime, g2, g2_add_vartime(&r, &p, &p))
MUL_CHECK(check_g1_dbl, g1, g1_dbl(&r, &p))
MUL_CHECK(check_g2_dbl, g2, g2_dbl(&r, &p))
MUL_CHECK(check_g1_neg, g1, g1_neg(&r, &p))
MUL_CHECK(check_gt_pow_ct, gt, gt_pow_ct(&r, &p, k, FR_BITS))
MUL_CHECK(check_gt_pow_vartime, gt, CAT(CT_TOP, _pow_vartime)(&r, &p, k, FR_NLIMBS))

/* A unary field operation on a secret element; bool results are outputs too. */
#define FIELD_CHECK(name, T, fill, call)                                                                \
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

FIELD_CHECK(check_fp_inv, fp_t, fill_fp, (fp_inv(&r, &a), 0))
FIELD_CHECK(check_fp_inv_fermat, fp_t, fill_fp, (fp_inv_fermat(&r, &a), 0))
FIELD_CHECK(check_fp_sqrt, fp_t, fill_fp, fp_sqrt(&r, &a))
FIELD_CHECK(check_fp_legendre, fp_t, fill_fp, fp_legendre(&a))
FIELD_CHECK(check_fp_mul, fp_t, fill_fp, (fp_mul(&r, &a, &a), 0))
FIELD_CHECK(check_fr_inv, fr_t, fill_fr, (fr_inv(&r, &a), 0))
FIELD_CHECK(check_fr_sqrt, fr_t, fill_fr, fr_sqrt(&r, &a))
FIELD_CHECK(check_fr_legendre, fr_t, fill_fr, fr_legendre(&a))
FIELD_CHECK(check_fp_is_lex_largest, fp_t, fill_fp, fp_is_lex_largest(&a))
FIELD_CHECK(check_fp_from_bytes_be, fp_t, fill_fp, fp_from_bytes_be(&r, (const uint8_t *)(const void *)&a))
FIELD_CHECK(check_gt_inv, gt_t, fill_fp, (CAT(CT_TOP, _inv)(&r, &a), 0))
FIELD_CHECK(check_gt_exp_by_x, gt_t, fill_fp, (gt_exp_by_x(&r, &a), 0))
FIELD_CHECK(check_pf_final_exp, gt_t, fill_fp, (pf_final_exp(&r, &a), 0))
FIELD_CHECK(check_gt_in_subgroup_vartime, gt_t, fill_fp, gt_in_subgroup_vartime(&a))
FIELD_CHECK(check_g1_to_affine, g1_t, fill_fp, (g1_to_affine((g1_affine_t *)(void *)&r, &a), 0))
FIELD_CHECK(check_g2_to_affine, g2_t, fill_fp, (g2_to_affine((g2_affine_t *)(void *)&r, &a), 0))
FIELD_CHECK(check_g1_equal, g1_t, fill_fp, g1_equal(&a, &a))
FIELD_CHECK(check_g2_equal, g2_t, fill_fp, g2_equal(&a, &a))
FIELD_CHECK(check_g1_is_on_curve, g1_t, fill_fp, g1_is_on_curve(&a))
FIELD_CHECK(check_g2_is_on_curve, g2_t, fill_fp, g2_is_on_curve(&a))
FIELD_CHECK(check_g1_in_subgroup_vartime, g1_t, fill_fp, g1_in_subgroup_vartime(&a))
FIELD_CHECK(check_g2_in_subgroup_vartime, g2_t, fill_fp, g2_in_subgroup_vartime(&a))
FIELD_CHECK(check_g1_in_subgroup_by_order_vartime, g1_t, fill_fp, g1_in_subgroup_by_order_vartime(&a))
#ifdef CT_HAVE_FP2
FIELD_CHECK(check_fp2_inv, fp2_t, fill_fp, (fp2_inv(&r, &a), 0))
FIELD_CHECK(check_fp2_sqrt, fp2_t, fill_fp, fp2_sqrt(&r, &a))
FIELD_CHECK(check_fp2_sqrt_vartime, fp2_t, fill_fp, fp2_sqrt_vartime(&r, &a))
FIELD_CHECK(check_fp2_is_square, fp2_t, fill_fp, fp2_is_square(&a))
FIELD_CHECK(check_fp2_is_lex_largest, fp2_t, fill_fp, fp2_is_lex_largest(&a))
#endif
#ifdef CT_HAVE_FP4
FIELD_CHECK(check_fp4_inv, fp4_t, fill_fp, (fp4_inv(&r, &a), 0))
FIELD_CHECK(check_fp4_sqrt, fp4_t, fill_fp, fp4_sqrt(&r, &a))
FIELD_CHECK(check_fp4_sqrt_vartime, fp4_t, fill_fp, fp4_sqrt_vartime(&r, &a))
FIELD_CHECK(check_fp4_is_square, fp4_t, fill_fp, fp4_is_square(&a))
FIELD_CHECK(check_fp4_is_lex_largest, fp4_t, fill_fp, fp4_is_lex_largest(&a))
#endif

/* The complete mixed addition of the constant-time multiplications, on a secret point pair. */
#define ADD_AFFINE_CT_CHECK(name, G)                                                               \
    static void name(void)                                                                         \
    {                                                                                              \
        CAT(G, _t) p, r;                                                                           \
        CAT(G, _affine_t) q;                                                                       \
        fill_fp(&p, sizeof(p), 1);                                                                 \
        fill_fp(&q, sizeof(q), 2);                                                                 \
        SECRET(p);                                                                                 \
        SECRET(q);                                                                                 \
        CAT(G, _add_affine_ct)(&r, &p, &q);                                                        \
        OUT(r);                                                                                    \
    }

ADD_AFFINE_CT_CHECK(check_g1_add_affine_ct, g1)
ADD_AFFINE_CT_CHECK(check_g2_add_affine_ct, g2)

/* Mixed addition: a secret Jacobian point plus a secret affine one. */
#define ADD_AFFINE_CHECK(name, G)                                                                  \
    static void name(void)                                                                         \
    {                                                                                              \
        CAT(G, _t) p, r;                                                                           \
        CAT(G, _affine_t) q;                                                                       \
        fill_fp(&p, sizeof(p), 1);                                                                 \
        fill_fp(&q, sizeof(q), 2);                                                                 \
        SECRET(p);                                                                                 \
        SECRET(q);                                                                                 \
        CAT(G, _add_affine_vartime)(&r, &p, &q);                                                   \
        OUT(r);                                                                                    \
    }

ADD_AFFINE_CHECK(check_g1_add_affine_vartime, g1)
ADD_AFFINE_CHECK(check_g2_add_affine_vartime, g2)

/* The Miller loop of one pair of secret points: pf_miller_run steps every pair the same way;
 * pf_miller_loop_vartime also skips pairs with an identity point. */
static void check_pf_miller_run(void)
{
    g1_affine_t P;
    g2_affine_t Q;
    pf_miller_pair_t st;
    gt_t f;
    fill_fp(&P, sizeof(P), 1);
    fill_fp(&Q, sizeof(Q), 2);
    SECRET(P);
    SECRET(Q);
    pf_miller_prepare(&st, &P, &Q);
    pf_miller_run(&f, &st, 1);
    OUT(f);
}

/* The pairing's affine conversion of Jacobian inputs (two pairs, one shared inversion). */
static void check_pf_pairs_to_affine(void)
{
    g1_t p1[2];
    g2_t p2[2];
    g1_affine_t a1[2];
    g2_affine_t a2[2];
    fp_t s1[2];
    __typeof__(p2[0].z) s2[2]; /* the coordinate field of G2 */
    fill_fp(p1, sizeof(p1), 3);
    fill_fp(p2, sizeof(p2), 4);
    SECRET(p1);
    SECRET(p2);
    pf_pairs_to_affine(a1, a2, p1, p2, 2, s1, s2);
    OUT(a1);
    OUT(a2);
}

static void check_pf_miller_loop_vartime(void)
{
    g1_affine_t P;
    g2_affine_t Q;
    pf_miller_pair_t scratch[1];
    gt_t f;
    fill_fp(&P, sizeof(P), 1);
    fill_fp(&Q, sizeof(Q), 2);
    SECRET(P);
    SECRET(Q);
    pf_miller_loop_vartime(&f, &P, &Q, NULL, 1, scratch);
    OUT(f);
}

/* The C side of signing and SkToPk (the bls protocol module's sign, pop_prove and sk_to_pk): the
 * secret key arrives as big-endian bytes (Python has reduced it mod r), becomes limbs through Fr,
 * multiplies a public point of the subgroup (the hashed message, or the generator for SkToPk) by
 * the endomorphism method, and the product is made affine for its encoding.  Both variants: the
 * signature (or key) in G1 and in G2. */
#define SIGN_CHECK(name, G)                                                                        \
    static void name(void)                                                                         \
    {                                                                                              \
        CAT(G, _t) base, r;                                                                        \
        CAT(G, _affine_t) out;                                                                     \
        uint8_t sk[FR_NBYTES];                                                                     \
        fr_t t;                                                                                    \
        limb_t k[FR_NLIMBS];                                                                       \
        size_t i;                                                                                  \
        fill_fp(&base, sizeof(base), 3);                                                           \
        for (i = 0; i < FR_NBYTES; i++)                                                            \
            sk[i] = (uint8_t)(0x5A ^ (i * 37));                                                    \
        sk[0] = 0; /* below r */                                                                   \
        SECRET(sk);                                                                                \
        (void)fr_from_bytes_be(&t, sk);                                                            \
        fr_to_int(k, &t);                                                                          \
        CAT(G, _mul_endo_ct)(&r, &base, k);                                                        \
        CAT(G, _to_affine)(&out, &r);                                                              \
        OUT(out);                                                                                  \
    }

SIGN_CHECK(check_sign_and_sk_to_pk_g1, g1)
SIGN_CHECK(check_sign_and_sk_to_pk_g2, g2)

#define CHECK(fn) { #fn, 0, check_##fn }
#define CONTROL(fn) { #fn, 1, check_##fn }

/* What is checked, by name (see the top of the file): */
static const struct {
    const char *name;
    int control;
    void (*run)(void);
} CHECKS[] = {
    /* secret paths: scalar multiplication, GT exponentiation, inversion, square root */
    CHECK(g1_mul_ct), CHECK(g2_mul_ct), CHECK(g1_mul_endo_ct), CHECK(g2_mul_endo_ct),
    CHECK(gt_pow_endo_ct), CHECK(gt_pow_ct), CHECK(g1_add_ct), CHECK(g2_add_ct),
    CHECK(g1_add_affine_ct), CHECK(g2_add_affine_ct),
    CHECK(g1_dbl), CHECK(g2_dbl), CHECK(g1_neg),
    CHECK(sign_and_sk_to_pk_g1), CHECK(sign_and_sk_to_pk_g2),
    CHECK(fp_inv), CHECK(fp_inv_fermat), CHECK(fr_inv), CHECK(gt_inv),
    CHECK(fp_sqrt), CHECK(fr_sqrt), CHECK(fp_legendre), CHECK(fr_legendre), CHECK(fp_mul),
#ifdef CT_HAVE_FP2
    CHECK(fp2_inv), CHECK(fp2_sqrt), CHECK(fp2_is_square), CHECK(fp2_is_lex_largest),
#endif
#ifdef CT_HAVE_FP4
    CHECK(fp4_inv), CHECK(fp4_sqrt), CHECK(fp4_is_square), CHECK(fp4_is_lex_largest),
#endif
    /* operations on public data that are constant time all the same */
    CHECK(fp_is_lex_largest), CHECK(fp_from_bytes_be), CHECK(g1_to_affine), CHECK(g2_to_affine),
    CHECK(g1_equal), CHECK(g2_equal), CHECK(g1_is_on_curve), CHECK(g2_is_on_curve),
    CHECK(gt_exp_by_x), CHECK(pf_final_exp), CHECK(pf_miller_run), CHECK(pf_pairs_to_affine),
    /* variable time, and named so; the controls must be flagged */
    CONTROL(g1_mul_vartime), CONTROL(g2_mul_vartime), CONTROL(g1_mul_window_vartime),
    CONTROL(gt_pow_vartime), CONTROL(g1_add_vartime), CONTROL(pf_miller_loop_vartime),
    CHECK(g2_add_vartime), CHECK(g1_add_affine_vartime), CHECK(g2_add_affine_vartime),
    CHECK(g1_in_subgroup_vartime), CHECK(g2_in_subgroup_vartime),
    CHECK(g1_in_subgroup_by_order_vartime), CHECK(gt_in_subgroup_vartime),
#ifdef CT_HAVE_FP2
    CHECK(fp2_sqrt_vartime),
#endif
#ifdef CT_HAVE_FP4
    CHECK(fp4_sqrt_vartime),
#endif
};

#define CT_PROGRAM "ct_curve"
#include "ct_main.h"
