/*
 * Test driver for a rendered extension tower (templates/c/tower.h.j2) whose twist field has degree
 * 4: Fp2, Fp4 = Fp2[v]/(v^2 - nu), Fp12 = Fp4[w]/(w^3 - xi), Fp24 = Fp12[z]/(z^2 - w).
 *
 * Built by tests/emit/test_bls24_tower_c.py with -DPF_LIMB_BITS=64 or 32 and the rendered limbs.h,
 * fp.h, fr.h, tower.h, g1.h, g2.h, endomorphism.h and pairing.h on the include path.  Besides the
 * tower's operations it runs the Miller loop ("miller": P = (x, y) in Fp, Q = (x, y) in Fp4, flat)
 * and the final exponentiation ("final_exp").  Reads one operation a line from stdin,
 * "<op> <n> <hex> ...", where the operands are the flat Fp coefficients (canonical hex integers,
 * in memory order: fp4 = (c0.c0, c0.c1, c1.c0, c1.c1), fp12 = (c0, c1, c2), fp24 = (c0, c1)) and n
 * an integer argument (a Frobenius power; 0 elsewhere), and prints the result's flat coefficients
 * on one line (or 0/1 for predicates).  Every operation is also run with the output aliased to
 * its first input; a difference prints "alias-mismatch".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limbs.h"
#include "fp.h"
#include "fr.h"
#include "tower.h"
#include "g1.h"
#include "g2.h"
#include "endomorphism.h"
#include "pairing.h"

#define MAX_FP 24 /* an element of Fp24 */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* hex text (no 0x) to an element of Fp; exits on malformed or oversized input */
static void parse_fp(fp_t *out, const char *s)
{
    limb_t l[FP_NLIMBS];
    size_t len = strlen(s), k;

    memset(l, 0, sizeof l);
    for (k = 0; k < len; k++) {
        int v = hexval(s[len - 1 - k]);
        size_t limb = k / (2 * sizeof(limb_t)), shift = 4 * (k % (2 * sizeof(limb_t)));

        if (v < 0 || (limb >= FP_NLIMBS && v != 0)) { fprintf(stderr, "bad hex %s\n", s); exit(2); }
        if (limb < FP_NLIMBS)
            l[limb] |= (limb_t)v << shift;
    }
    fp_from_int(out, l);
}

static void print_fps(const fp_t *a, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        limb_t l[FP_NLIMBS];

        fp_to_int(l, &a[j]);
        for (size_t i = FP_NLIMBS; i-- > 0;)
            printf("%0*llx", (int)(2 * sizeof(limb_t)), (unsigned long long)l[i]);
        putchar(j + 1 < n ? ' ' : '\n');
    }
}

/* The operations, wrapped to one shape: out = f(a, b, n) on flat arrays of Fp. */
typedef void (*op_fn)(fp_t *out, const fp_t *a, const fp_t *b, int n);

#define WRAP_BINARY(T, fn) \
    static void w_##fn(fp_t *out, const fp_t *a, const fp_t *b, int n) { (void)n; fn((T *)out, (const T *)a, (const T *)b); }
#define WRAP_UNARY(T, fn) \
    static void w_##fn(fp_t *out, const fp_t *a, const fp_t *b, int n) { (void)b; (void)n; fn((T *)out, (const T *)a); }
#define WRAP_POWER(T, fn) \
    static void w_##fn(fp_t *out, const fp_t *a, const fp_t *b, int n) { (void)b; fn((T *)out, (const T *)a, n); }

WRAP_BINARY(fp2_t, fp2_mul)
WRAP_UNARY(fp2_t, fp2_sqr)
WRAP_UNARY(fp2_t, fp2_mul_by_nu)
WRAP_BINARY(fp4_t, fp4_add)
WRAP_BINARY(fp4_t, fp4_sub)
WRAP_UNARY(fp4_t, fp4_neg)
WRAP_UNARY(fp4_t, fp4_dbl)
WRAP_BINARY(fp4_t, fp4_mul)
WRAP_UNARY(fp4_t, fp4_sqr)
WRAP_UNARY(fp4_t, fp4_inv)
WRAP_UNARY(fp4_t, fp4_conj)
WRAP_UNARY(fp4_t, fp4_mul_by_xi)
WRAP_POWER(fp4_t, fp4_frobenius)
WRAP_BINARY(fp12_t, fp12_mul)
WRAP_UNARY(fp12_t, fp12_sqr)
WRAP_UNARY(fp12_t, fp12_inv)
WRAP_UNARY(fp12_t, fp12_mul_by_v)
WRAP_POWER(fp12_t, fp12_frobenius)
WRAP_BINARY(fp24_t, fp24_mul)
WRAP_UNARY(fp24_t, fp24_sqr)
WRAP_UNARY(fp24_t, fp24_inv)
WRAP_UNARY(fp24_t, fp24_conj)
WRAP_POWER(fp24_t, fp24_frobenius)
WRAP_UNARY(fp24_t, fp24_cyclotomic_sqr)
WRAP_UNARY(gt_t, gt_exp_by_x)

static void w_fp4_mul_by_fp(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    (void)n;
    fp4_mul_by_fp((fp4_t *)out, (const fp4_t *)a, b);
}

static void w_fp4_mul_by_fp2(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    (void)n;
    fp4_mul_by_fp2((fp4_t *)out, (const fp4_t *)a, (const fp2_t *)b);
}

static void w_fp12_mul_by_01(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    (void)n;
    fp12_mul_by_01((fp12_t *)out, (const fp12_t *)a, (const fp4_t *)b, (const fp4_t *)b + 1);
}

static void w_fp12_mul_by_1(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    (void)n;
    fp12_mul_by_1((fp12_t *)out, (const fp12_t *)a, (const fp4_t *)b);
}

/* a^e for an exponent e given as the hex operand b (vartime square and multiply) */
static void w_fp24_pow(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    limb_t e[FP_NLIMBS];

    (void)n;
    fp_to_int(e, b);
    fp24_pow_vartime((fp24_t *)out, (const fp24_t *)a, e, FP_NLIMBS);
}

/* a^k with the constant-time windowed power, k < r given as the hex operand b */
static void w_gt_pow_ct(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    limb_t e[FP_NLIMBS], k[FR_NLIMBS];

    (void)n;
    fp_to_int(e, b);
    for (size_t i = 0; i < FR_NLIMBS; i++)
        k[i] = i < FP_NLIMBS ? e[i] : 0;
    gt_pow_ct((gt_t *)out, (const gt_t *)a, k, FR_NLIMBS * PF_LIMB_BITS);
}

/* the square roots: the root in out[0..3], the flag (0 or 1) in out[4] */
static void sqrt_result(fp_t *out, const fp4_t *root, bool ok)
{
    memcpy(out, root, sizeof *root);
    if (ok)
        fp_set_one(&out[4]);
    else
        fp_set_zero(&out[4]);
}

static void w_fp4_sqrt(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    fp4_t x, root;
    bool ok;

    (void)b;
    (void)n;
    memcpy(&x, a, sizeof x);
    ok = fp4_sqrt(&root, &x);
    sqrt_result(out, &root, ok);
}

static void w_fp4_sqrt_vartime(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    fp4_t x, root;
    bool ok;

    (void)b;
    (void)n;
    memcpy(&x, a, sizeof x);
    fp4_set_zero(&root);
    ok = fp4_sqrt_vartime(&root, &x);
    sqrt_result(out, &root, ok);
}

/* the predicates as one Fp coefficient: (is_square, is_lex_largest) */
static void w_fp4_predicates(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    fp4_t x;
    bool sq, large;

    (void)b;
    (void)n;
    memcpy(&x, a, sizeof x);
    sq = fp4_is_square(&x);
    large = fp4_is_lex_largest(&x);
    if (sq) fp_set_one(&out[0]); else fp_set_zero(&out[0]);
    if (large) fp_set_one(&out[1]); else fp_set_zero(&out[1]);
}

/* the Miller loop of one pair: a = (P.x, P.y, Q.x, Q.y), 2 + 8 coefficients */
static void w_miller(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    g1_affine_t P;
    g2_affine_t Q;
    pf_miller_pair_t scratch[1];

    (void)b;
    (void)n;
    memcpy(&P, a, sizeof P);
    memcpy(&Q, a + 2, sizeof Q);
    pf_miller_loop_vartime((gt_t *)out, &P, &Q, NULL, 1, scratch);
}

/* the multi-Miller loop of two pairs: a = (P1, Q1, P2, Q2), 2 x (2 + 8) coefficients */
static void w_miller2(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    g1_affine_t P[2];
    g2_affine_t Q[2];
    pf_miller_pair_t scratch[2];

    (void)b;
    (void)n;
    for (int i = 0; i < 2; i++) {
        memcpy(&P[i], a + 10 * i, sizeof P[i]);
        memcpy(&Q[i], a + 10 * i + 2, sizeof Q[i]);
    }
    pf_miller_loop_vartime((gt_t *)out, P, Q, NULL, 2, scratch);
}

static void w_final_exp(fp_t *out, const fp_t *a, const fp_t *b, int n)
{
    gt_t f;

    (void)b;
    (void)n;
    memcpy(&f, a, sizeof f);
    pf_final_exp((gt_t *)out, &f);
}

static const struct {
    const char *name;
    op_fn fn;
    size_t in, in2, out; /* Fp coefficients of a, of b, of the result */
} OPS[] = {
    { "fp2_mul", w_fp2_mul, 2, 2, 2 },
    { "fp2_sqr", w_fp2_sqr, 2, 0, 2 },
    { "fp2_mul_by_nu", w_fp2_mul_by_nu, 2, 0, 2 },
    { "fp4_add", w_fp4_add, 4, 4, 4 },
    { "fp4_sub", w_fp4_sub, 4, 4, 4 },
    { "fp4_neg", w_fp4_neg, 4, 0, 4 },
    { "fp4_dbl", w_fp4_dbl, 4, 0, 4 },
    { "fp4_mul", w_fp4_mul, 4, 4, 4 },
    { "fp4_sqr", w_fp4_sqr, 4, 0, 4 },
    { "fp4_inv", w_fp4_inv, 4, 0, 4 },
    { "fp4_conj", w_fp4_conj, 4, 0, 4 },
    { "fp4_mul_by_xi", w_fp4_mul_by_xi, 4, 0, 4 },
    { "fp4_mul_by_fp", w_fp4_mul_by_fp, 4, 1, 4 },
    { "fp4_mul_by_fp2", w_fp4_mul_by_fp2, 4, 2, 4 },
    { "fp4_frobenius", w_fp4_frobenius, 4, 0, 4 },
    { "fp4_sqrt", w_fp4_sqrt, 4, 0, 5 },
    { "fp4_sqrt_vartime", w_fp4_sqrt_vartime, 4, 0, 5 },
    { "fp4_predicates", w_fp4_predicates, 4, 0, 2 },
    { "fp12_mul", w_fp12_mul, 12, 12, 12 },
    { "fp12_sqr", w_fp12_sqr, 12, 0, 12 },
    { "fp12_inv", w_fp12_inv, 12, 0, 12 },
    { "fp12_mul_by_v", w_fp12_mul_by_v, 12, 0, 12 },
    { "fp12_mul_by_01", w_fp12_mul_by_01, 12, 8, 12 },
    { "fp12_mul_by_1", w_fp12_mul_by_1, 12, 4, 12 },
    { "fp12_frobenius", w_fp12_frobenius, 12, 0, 12 },
    { "fp24_mul", w_fp24_mul, 24, 24, 24 },
    { "fp24_sqr", w_fp24_sqr, 24, 0, 24 },
    { "fp24_inv", w_fp24_inv, 24, 0, 24 },
    { "fp24_conj", w_fp24_conj, 24, 0, 24 },
    { "fp24_frobenius", w_fp24_frobenius, 24, 0, 24 },
    { "fp24_cyclotomic_sqr", w_fp24_cyclotomic_sqr, 24, 0, 24 },
    { "fp24_pow", w_fp24_pow, 24, 1, 24 },
    { "gt_exp_by_x", w_gt_exp_by_x, 24, 0, 24 },
    { "gt_pow_ct", w_gt_pow_ct, 24, 1, 24 },
    { "miller", w_miller, 10, 0, 24 },
    { "miller2", w_miller2, 20, 0, 24 },
    { "final_exp", w_final_exp, 24, 0, 24 },
};

int main(void)
{
    static char line[1 << 16];

    while (fgets(line, sizeof line, stdin)) {
        char *op = strtok(line, " \n"), *narg = strtok(NULL, " \n");
        fp_t a[MAX_FP], b[MAX_FP], r[MAX_FP], t[MAX_FP];
        size_t i, j;

        if (!op || !narg) continue;
        /* predicates on one element of Fp24 */
        if (!strcmp(op, "gt_in_subgroup") || !strcmp(op, "gt_in_subgroup_by_order")) {
            for (j = 0; j < 24; j++) parse_fp(&a[j], strtok(NULL, " \n"));
            printf("%d\n", !strcmp(op, "gt_in_subgroup") ? (int)gt_in_subgroup_vartime((const gt_t *)a)
                                                         : (int)gt_in_subgroup_by_order((const gt_t *)a));
            continue;
        }
        for (i = 0; i < sizeof OPS / sizeof OPS[0] && strcmp(op, OPS[i].name); i++)
            ;
        if (i == sizeof OPS / sizeof OPS[0]) { fprintf(stderr, "unknown op %s\n", op); return 2; }
        for (j = 0; j < OPS[i].in; j++) parse_fp(&a[j], strtok(NULL, " \n"));
        for (j = 0; j < OPS[i].in2; j++) parse_fp(&b[j], strtok(NULL, " \n"));
        OPS[i].fn(r, a, b, atoi(narg));
        memcpy(t, a, sizeof a);
        OPS[i].fn(t, t, b, atoi(narg));
        for (j = 0; j < OPS[i].out; j++)
            if (!fp_equal(&t[j], &r[j]))
                break;
        if (j < OPS[i].out) { puts("alias-mismatch"); continue; }
        print_fps(r, OPS[i].out);
    }
    return 0;
}
