/* The line-by-line products of the Miller loop (pairing.h) against the plain multiplication in GT:
 * for random lines a, b and a random f, pf_line_mul(a, b) must equal fk_mul(a, b) with the lines
 * written out as elements of GT, pf_mul_by_line_product(f, g) must equal fk_mul(f, g), and
 * pf_mul_by_line(f, a) must equal fk_mul(f, a) (the first two where pairing.h has
 * PF_LINE_BY_LINE), and pf_line_to_gt(a) (the Miller loop's first line, which becomes f) must be
 * the line written out here. Built by tests/emit/test_line_products.py with
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
    printf("trials %d line_by_line %d line_mul %d mul_by_line_product %d mul_by_line %d line_to_gt %d\n",
           trials, PF_LINE_BY_LINE, bad_line, bad_product, bad_single, bad_to_gt);
    return 0;
}
