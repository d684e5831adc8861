/* Constant-time checks of one generated curve under valgrind memcheck (the "ctgrind" method of
 * tests/c_harness/group/ct_check.inc, applied to the real generated C):
 *
 *     ct_curve --list          one line per check: NAME EXPECT (ct, vartime or audit)
 *     ct_curve NAME            run one check
 *
 * A check marks its secret inputs undefined (VALGRIND_MAKE_MEM_UNDEFINED), calls the function and
 * marks the outputs defined again.  Memcheck then reports every branch ("Conditional jump or move
 * depends on uninitialised value") and every memory index ("Use of uninitialised value of size 8")
 * computed from a secret.  EXPECT says what security/constant_time.py requires: "ct" no report,
 * "vartime" at least one (the negative controls: the harness must see a leak where there is one),
 * "audit" nothing (the result is only reported).  Adding a secret path is one CHECK line below.
 *
 * Built with the flags of the real module and -DCT_HAVE_FP2 when the tower has Fp2 (G2 over Fp2)
 * and -DCT_TOP=<prefix of the top tower level> (fp12 or fp6): properties of the curve, never its
 * name.  Inputs are arbitrary field elements: only the control flow and the addresses are checked. */
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
MUL_CHECK(check_g1_add_ct, g1, g1_add_ct(&r, &p, &p))
MUL_CHECK(check_g2_add_ct, g2, g2_add_ct(&r, &p, &p))
MUL_CHECK(check_g1_add, g1, g1_add(&r, &p, &p))
MUL_CHECK(check_g1_dbl, g1, g1_dbl(&r, &p))
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
FIELD_CHECK(check_gt_inv, gt_t, fill_fp, (CAT(CT_TOP, _inv)(&r, &a), 0))
/* public-data operations, audited: point conversions and predicates, pairing pieces */
FIELD_CHECK(check_g1_to_affine, g1_t, fill_fp, (g1_to_affine((g1_affine_t *)(void *)&r, &a), 0))
FIELD_CHECK(check_g1_equal, g1_t, fill_fp, g1_equal(&a, &a))
FIELD_CHECK(check_g1_is_on_curve, g1_t, fill_fp, g1_is_on_curve(&a))
FIELD_CHECK(check_g1_in_subgroup, g1_t, fill_fp, g1_in_subgroup(&a))
FIELD_CHECK(check_g2_in_subgroup, g2_t, fill_fp, g2_in_subgroup(&a))
FIELD_CHECK(check_gt_in_subgroup, gt_t, fill_fp, gt_in_subgroup(&a))
FIELD_CHECK(check_gt_exp_by_x, gt_t, fill_fp, (gt_exp_by_x(&r, &a), 0))
FIELD_CHECK(check_pf_final_exp, gt_t, fill_fp, (pf_final_exp(&r, &a), 0))
FIELD_CHECK(check_fp_from_bytes_be, fp_t, fill_fp, fp_from_bytes_be(&r, (const uint8_t *)(const void *)&a))

static void check_g1_add_affine(void)
{
    g1_t p, r;
    g1_affine_t q;
    fill_fp(&p, sizeof(p), 1);
    fill_fp(&q, sizeof(q), 2);
    SECRET(p);
    SECRET(q);
    g1_add_affine(&r, &p, &q);
    OUT(r);
}

/* the complete mixed addition of the constant-time multiplications, on a secret point pair */
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

static void check_pf_miller_loop(void)
{
    g1_affine_t P;
    g2_affine_t Q;
    pf_miller_pair_t scratch[1];
    gt_t f;
    fill_fp(&P, sizeof(P), 1);
    fill_fp(&Q, sizeof(Q), 2);
    SECRET(P);
    SECRET(Q);
    pf_miller_loop(&f, &P, &Q, NULL, 1, scratch);
    OUT(f);
}

#ifdef CT_HAVE_FP2
FIELD_CHECK(check_fp2_inv, fp2_t, fill_fp, (fp2_inv(&r, &a), 0))
FIELD_CHECK(check_fp2_sqrt, fp2_t, fill_fp, fp2_sqrt(&r, &a))
#endif

static const struct {
    const char *name, *expect;
    void (*run)(void);
} CHECKS[] = {
    /* secret paths: scalar multiplication, inversion, square root, GT exponentiation */
    { "g1_mul_ct", "ct", check_g1_mul_ct },
    { "g2_mul_ct", "ct", check_g2_mul_ct },
    { "g1_mul_endo_ct", "ct", check_g1_mul_endo_ct },
    { "g2_mul_endo_ct", "ct", check_g2_mul_endo_ct },
    { "gt_pow_endo_ct", "ct", check_gt_pow_endo_ct },
    { "g1_add_ct", "ct", check_g1_add_ct },
    { "g2_add_ct", "ct", check_g2_add_ct },
    { "g1_add_affine_ct", "ct", check_g1_add_affine_ct },
    { "g2_add_affine_ct", "ct", check_g2_add_affine_ct },
    { "gt_pow_ct", "ct", check_gt_pow_ct },
    { "fp_inv", "ct", check_fp_inv },
    { "fp_inv_fermat", "ct", check_fp_inv_fermat },
    { "fr_inv", "ct", check_fr_inv },
    { "fp_sqrt", "ct", check_fp_sqrt },
    { "fr_sqrt", "ct", check_fr_sqrt },
    { "fp_legendre", "ct", check_fp_legendre },
    { "fr_legendre", "ct", check_fr_legendre },
    { "fp_mul", "ct", check_fp_mul },
    { "g1_dbl", "ct", check_g1_dbl },
    { "g1_neg", "ct", check_g1_neg },
    { "gt_inv", "ct", check_gt_inv },
#ifdef CT_HAVE_FP2
    { "fp2_inv", "ct", check_fp2_inv },
#endif
    /* negative controls: variable time by name, must be flagged */
    { "g1_mul_vartime", "vartime", check_g1_mul_vartime },
    { "g2_mul_vartime", "vartime", check_g2_mul_vartime },
    { "gt_pow_vartime", "vartime", check_gt_pow_vartime },
    /* public-data functions without _vartime in their name: reported, not required */
    { "g1_add", "audit", check_g1_add },
    { "fp_is_lex_largest", "audit", check_fp_is_lex_largest },
    { "g1_add_affine", "audit", check_g1_add_affine },
    { "g1_to_affine", "audit", check_g1_to_affine },
    { "g1_equal", "audit", check_g1_equal },
    { "g1_is_on_curve", "audit", check_g1_is_on_curve },
    { "g1_in_subgroup", "audit", check_g1_in_subgroup },
    { "g2_in_subgroup", "audit", check_g2_in_subgroup },
    { "gt_in_subgroup", "audit", check_gt_in_subgroup },
    { "gt_exp_by_x", "audit", check_gt_exp_by_x },
    { "pf_final_exp", "audit", check_pf_final_exp },
    { "pf_miller_loop", "audit", check_pf_miller_loop },
    { "fp_from_bytes_be", "audit", check_fp_from_bytes_be },
#ifdef CT_HAVE_FP2
    { "fp2_sqrt", "audit", check_fp2_sqrt },
#endif
};

int main(int argc, char **argv)
{
    size_t i;
    if (argc != 2) {
        fprintf(stderr, "usage: ct_curve --list | ct_curve NAME\n");
        return 2;
    }
    for (i = 0; i < sizeof(CHECKS) / sizeof(CHECKS[0]); i++) {
        if (!strcmp(argv[1], "--list"))
            printf("%s %s\n", CHECKS[i].name, CHECKS[i].expect);
        else if (!strcmp(argv[1], CHECKS[i].name)) {
            CHECKS[i].run();
            return 0;
        }
    }
    return strcmp(argv[1], "--list") ? 2 : 0;
}
