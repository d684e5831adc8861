/* The line-by-line products of the Miller loop (pairing.h) against the plain multiplication in GT:
 * for random lines a, b and a random f, pf_line_mul(a, b) must equal fk_mul(a, b) with the lines
 * written out as elements of GT, pf_mul_by_line_product(f, g) must equal fk_mul(f, g), and
 * pf_mul_by_line(f, a) must equal fk_mul(f, a) (the first two where pairing.h has
 * PF_LINE_BY_LINE), and pf_line_to_gt(a) (the Miller loop's first line, which becomes f) must be
 * the line written out here. Where pairing.h has the doubling step's IFMA kernel
 * compiled in (PF_LINE_DBL_IFMA), pf_line_dbl (the kernel where the CPU runs it) must give the same line and
 * point as the limb version pf_line_dbl_limbs, on random points and on coordinates at the edges
 * (0, 1, p - 1). Built by tests/emit/test_line_products.py with
 * -DLINE_FQ=<fq name> -DLINE_FK=<fq6 name> -DLINE_TWIST_D=<1 for a D-twist, 0 for an M-twist>;
 * prints the number of trials and of mismatches per check. */
#include <stdio.h>

#include "pairforge.h"
#include "random_fp.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define FQ(op) CAT(CAT(LINE_FQ, _), op)
#define FK(op) CAT(CAT(LINE_FK, _), op)
#define FQ_T CAT(LINE_FQ, _t)
#define FQ_DEGREE (sizeof(FQ_T) / sizeof(fp_t))

static void rand_fq(FQ_T *out)
{
    fp_t *c = (fp_t *)out;

    for (size_t i = 0; i < FQ_DEGREE; i++)
        rand_fp(&c[i]);
}

static void rand_line(pf_line_t *l)
{
    rand_fq(&l->y);
    rand_fq(&l->x);
    rand_fq(&l->c);
}

/* Coefficient i of an edge point: 0, 1 or p - 1 by the digits of k in base 3. */
static void edge_fp(fp_t *out, int k, int i)
{
    int digit = k;

    for (int j = 0; j < i; j++)
        digit /= 3;
    digit %= 3;
    fp_set_zero(out);
    if (digit > 0)
        fp_set_one(out);
    if (digit == 2)
        fp_neg(out, out);
}

/* The line as an element of GT (slot w^j is c(j mod 2).c(j div 2)). */
static void line_to_gt(gt_t *out, const pf_line_t *l)
{
    FK(set_zero)(out);
#if LINE_TWIST_D
    out->c0.c0 = l->y; /* w^0 */
    out->c1.c0 = l->x; /* w^1 */
    out->c1.c1 = l->c; /* w^3 */
#else
    out->c0.c0 = l->c; /* w^0 */
    out->c0.c1 = l->x; /* w^2 */
    out->c1.c1 = l->y; /* w^3 */
#endif
}

int main(void)
{
    int trials = 200, bad_line = 0, bad_product = 0, bad_single = 0, bad_to_gt = 0;

    for (int t = 0; t < trials; t++) {
        pf_line_t a, b;
        gt_t f, ga, gb, g, want, got;

        rand_line(&a);
        rand_line(&b);
        rand_fq(&f.c0.c0);
        rand_fq(&f.c0.c1);
        rand_fq(&f.c0.c2);
        rand_fq(&f.c1.c0);
        rand_fq(&f.c1.c1);
        rand_fq(&f.c1.c2);
        line_to_gt(&ga, &a);
        line_to_gt(&gb, &b);

#if PF_LINE_BY_LINE
        pf_line_mul(&g, &a, &b);
        FK(mul)(&want, &ga, &gb);
        bad_line += !FK(equal)(&g, &want);

        got = f;
        pf_mul_by_line_product(&got, &g);
        FK(mul)(&want, &f, &g);
        bad_product += !FK(equal)(&got, &want);
#else
        (void)gb;
        (void)g;
#endif

        got = f;
        pf_mul_by_line(&got, &a);
        FK(mul)(&want, &f, &ga);
        bad_single += !FK(equal)(&got, &want);

        got = f;
        pf_line_to_gt(&got, &a);
        bad_to_gt += !FK(equal)(&got, &ga);
    }
#if PF_LINE_DBL_IFMA
    /* the doubling step: 3^6 points with coordinates at the edges, then random ones */
    int dbl_trials = 729 + trials, bad_dbl = 0, dbl_ifma = 0;
    dbl_ifma = CAT(LINE_FK, _ifma_cpu)();
    for (int t = 0; t < dbl_trials; t++) {
        pf_proj_t got_t, want_t;
        pf_line_t got_l, want_l;
        fp_t *c = (fp_t *)&want_t;

        for (int i = 0; i < (int)(sizeof(pf_proj_t) / sizeof(fp_t)); i++) {
            if (t < 729)
                edge_fp(&c[i], t, i);
            else
                rand_fp(&c[i]);
        }
        got_t = want_t;
        pf_line_dbl(&got_l, &got_t);
        pf_line_dbl_limbs(&want_l, &want_t);
        bad_dbl += !(FQ(equal)(&got_t.x, &want_t.x) && FQ(equal)(&got_t.y, &want_t.y) && FQ(equal)(&got_t.z, &want_t.z)
                     && FQ(equal)(&got_l.y, &want_l.y) && FQ(equal)(&got_l.x, &want_l.x) && FQ(equal)(&got_l.c, &want_l.c));
    }
    printf("line_dbl_trials %d line_dbl_ifma %d line_dbl %d\n", dbl_trials, dbl_ifma, bad_dbl);
#endif
    printf("trials %d line_by_line %d line_mul %d mul_by_line_product %d mul_by_line %d line_to_gt %d\n",
           trials, PF_LINE_BY_LINE, bad_line, bad_product, bad_single, bad_to_gt);
    return 0;
}
