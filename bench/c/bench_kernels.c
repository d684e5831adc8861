/*
 * C-level microbenchmark of one generated curve package, without Python in the way.
 *
 * bench/cbench.py writes bench_inputs.h (the tower names of the curve, taken from its model,
 * and the affine generators as canonical 64-bit limbs) next to this file and compiles it with
 * the flags of generator/build.py against generated/<pkg>/c/pairforge.h. Nothing here names a
 * curve: the tower levels come in as BENCH_FQ (the field of the twist: fp2 or fp) and BENCH_FK
 * (the field of GT), the sizes from the headers.
 *
 * Each kernel runs in a calibrated loop whose output feeds its next input (a dependent chain,
 * so the compiler can neither drop nor hoist a call, and the time is the latency of one call).
 * A run lasts about BENCH_RUN_NS (shorter than a scheduler time slice, so that on a loaded machine
 * most runs are undisturbed); the median of BENCH_RUNS runs is printed, with the fastest,
 * one line per kernel: "name median_ns min_ns calls_per_run". The twist-field kernels are labelled
 * fq_*, the GT-field ones fk_* (a first comment line gives their C names); the twist field's own
 * kernels are skipped when it is fp itself.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pairforge.h"
#include "bench_inputs.h"

#if PF_LIMB_BITS != 64
#error "the C microbenchmark is written for 64-bit limbs"
#endif

#define PF_CAT_(a, b) a##b
#define PF_CAT(a, b) PF_CAT_(a, b)
#define FQ(op) PF_CAT(PF_CAT(BENCH_FQ, _), op)
#define FK(op) PF_CAT(PF_CAT(BENCH_FK, _), op)
#define FQ_T PF_CAT(BENCH_FQ, _t)
#define STR_(x) #x
#define STR(x) STR_(x)

#ifndef BENCH_RUNS
#define BENCH_RUNS 101
#endif
#ifndef BENCH_RUN_NS
#define BENCH_RUN_NS 2e5
#endif

/* Read once per Miller loop / pairing call to tie its output to its next input at no cost the
 * compiler could see through. */
static volatile limb_t bench_zero = 0;
/* Everything the chains produce ends up here and is printed, so no chain is dead code. */
static limb_t bench_sink = 0;

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#ifdef BENCH_INSTRUCTIONS
/* Instruction counts instead of times (run under valgrind --tool=callgrind
 * --collect-atstart=no): BENCH_INSTRUCTIONS calls per kernel between a zeroing and a dump of
 * the counters named after the kernel. Counts do not depend on the machine's load. */
#include <valgrind/callgrind.h>
#define BENCH(label, body)                                                               \
    do {                                                                                 \
        long k;                                                                          \
        CALLGRIND_ZERO_STATS;                                                            \
        CALLGRIND_TOGGLE_COLLECT;                                                        \
        for (k = 0; k < (BENCH_INSTRUCTIONS); k++) { body; }                             \
        CALLGRIND_TOGGLE_COLLECT;                                                        \
        CALLGRIND_DUMP_STATS_AT(label);                                                  \
        printf("%s %d\n", label, (int)(BENCH_INSTRUCTIONS));                             \
    } while (0)
#else
/* Calibrate: double the batch until one batch takes 1/8 of a run, then size the runs. */
#define BENCH(label, body)                                                               \
    do {                                                                                 \
        double t[BENCH_RUNS], t0, dt;                                                    \
        long n = 1, k;                                                                   \
        int run;                                                                         \
        for (;;) {                                                                       \
            t0 = now_ns();                                                               \
            for (k = 0; k < n; k++) { body; }                                            \
            dt = now_ns() - t0;                                                          \
            if (dt >= BENCH_RUN_NS / 8 || n >= (1L << 40)) break;                        \
            n *= 2;                                                                      \
        }                                                                                \
        n = (long)((double)n * BENCH_RUN_NS / (dt > 1 ? dt : 1)) + 1;                    \
        for (run = 0; run < BENCH_RUNS; run++) {                                         \
            t0 = now_ns();                                                               \
            for (k = 0; k < n; k++) { body; }                                            \
            t[run] = (now_ns() - t0) / (double)n;                                        \
        }                                                                                \
        qsort(t, BENCH_RUNS, sizeof t[0], cmp_double);                                   \
        printf("%s %.2f %.2f %ld\n", label, t[BENCH_RUNS / 2], t[0], n);                 \
        fflush(stdout);                                                                  \
    } while (0)
#endif

static void load_fp(fp_t *out, const limb_t in[FP_NLIMBS]) { fp_from_int(out, in); }

static void load_fq(FQ_T *out, const limb_t in[BENCH_FQ_DEGREE][FP_NLIMBS])
{
    fp_t *c = (fp_t *)out;  /* the twist field is BENCH_FQ_DEGREE consecutive fp_t */
    for (int i = 0; i < BENCH_FQ_DEGREE; i++)
        fp_from_int(&c[i], in[i]);
}

#ifdef BENCH_LIBRARY
/* Built as a shared library, for bench/cbench.py's measurement of the Python overhead: n calls
 * of g1_add_vartime (the kernel behind P + Q in Python; both points with Z != 1), in ns. Like P + Q
 * repeated in Python, the calls are independent (same inputs, a fresh output each time): the
 * empty asm with a memory clobber keeps the compiler from hoisting or dropping them. Python
 * alternates this with timeit runs of P + Q, so both see the same machine load. */
double pf_bench_g1_add(long n);

double pf_bench_g1_add(long n)
{
    static int ready = 0;
    static g1_t p, q, out;
    double t0, dt;
    long k;

    if (!ready) {
        g1_affine_t a;
        load_fp(&a.x, BENCH_G1[0]);
        load_fp(&a.y, BENCH_G1[1]);
        g1_from_affine(&q, &a);
        g1_dbl(&p, &q);
        g1_add_vartime(&p, &p, &q);  /* 3 G */
        g1_dbl(&q, &p);      /* 6 G */
        ready = 1;
    }
    t0 = now_ns();
    for (k = 0; k < n; k++) {
        g1_add_vartime(&out, &p, &q);
        __asm__ volatile("" : : "r"(&out), "r"(&p), "r"(&q) : "memory");
    }
    dt = now_ns() - t0;
    bench_sink ^= out.x.l[0];
    return dt;
}
#else
int main(void)
{
    g1_affine_t g1a, p1a, q1a;
    g2_affine_t g2a, p2a, q2a;
    g1_t g1, p1, q1, acc1;
    g2_t g2, p2, q2, acc2;
    fp_t x, y;
    FQ_T xq, yq;
    gt_t f, e;
    pf_miller_pair_t scratch[2];
    g1_affine_t pair1[2];
    g2_affine_t pair2[2];

    load_fp(&g1a.x, BENCH_G1[0]);
    load_fp(&g1a.y, BENCH_G1[1]);
    load_fq(&g2a.x, BENCH_G2[0]);
    load_fq(&g2a.y, BENCH_G2[1]);
    if (!g1_affine_is_on_curve(&g1a) || !g2_affine_is_on_curve(&g2a)) {
        fprintf(stderr, "bench: the generators are not on the curves\n");
        return 1;
    }
    /* Points with Z != 1 (as in the Python objects) and affine ones, from small multiples. */
    g1_from_affine(&g1, &g1a);
    g2_from_affine(&g2, &g2a);
    g1_dbl(&p1, &g1);
    g1_add_vartime(&p1, &p1, &g1);      /* 3 G1 */
    g1_dbl(&q1, &p1);
    g1_add_vartime(&q1, &q1, &g1);      /* 7 G1 */
    g2_dbl(&p2, &g2);
    g2_add_vartime(&p2, &p2, &g2);
    g2_dbl(&q2, &p2);
    g2_add_vartime(&q2, &q2, &g2);
    g1_to_affine(&p1a, &p1);
    g1_to_affine(&q1a, &q1);
    g2_to_affine(&p2a, &p2);
    g2_to_affine(&q2a, &q2);
    x = p1a.x;
    y = q1a.y;
    xq = p2a.x;
    yq = q2a.y;

    /* fq_* and fk_* below are the kernels of these two fields */
    printf("# fp_limbs %d fq %s fk %s\n", (int)FP_NLIMBS, STR(BENCH_FQ), STR(BENCH_FK));
    BENCH("fp_add", fp_add(&x, &x, &y));
    BENCH("fp_mul", fp_mul(&x, &x, &y));
    BENCH("fp_sqr", fp_sqr(&x, &x));
    BENCH("fp_inv", fp_inv(&x, &x));
    bench_sink ^= x.l[0];
#if BENCH_FQ_DEGREE > 1
    BENCH("fq_mul", FQ(mul)(&xq, &xq, &yq));
    BENCH("fq_sqr", FQ(sqr)(&xq, &xq));
    bench_sink ^= ((fp_t *)&xq)[0].l[0];
#endif
    /* a GT-field element to multiply: the Miller value of two points */
    pf_miller_loop_vartime(&f, &p1a, &p2a, NULL, 1, scratch);
    pf_miller_loop_vartime(&e, &q1a, &q2a, NULL, 1, scratch);
    BENCH("fk_mul", FK(mul)(&f, &f, &e));
    BENCH("fk_sqr", FK(sqr)(&f, &f));
#if BENCH_FK_LIMBS
    /* where fk_mul and fk_sqr may run on AVX-512 IFMA: the target's limb versions beside them */
    BENCH("fk_mul_limbs", FK(mul_limbs)(&f, &f, &e));
    BENCH("fk_sqr_limbs", FK(sqr_limbs)(&f, &f));
#endif
    /* the squaring of the final exponentiation's hard part: its formulas hold only on the
     * cyclotomic subgroup, but they cost the same on any input */
    BENCH("fk_cyclotomic_sqr", FK(cyclotomic_sqr)(&f, &f));
#if BENCH_FK_COMPRESSED
    BENCH("fk_cyclotomic_sqr_compressed", FK(cyclotomic_sqr_compressed)(&f, &f));
#endif

    /* Group: the accumulator runs through the chain; q stays fixed (never +-acc in practice). */
    acc1 = p1;
    BENCH("g1_add", g1_add_vartime(&acc1, &acc1, &q1));
    BENCH("g1_add_affine", g1_add_affine_vartime(&acc1, &acc1, &q1a));
    BENCH("g1_dbl", g1_dbl(&acc1, &acc1));
    bench_sink ^= acc1.x.l[0];
    acc2 = p2;
    BENCH("g2_add", g2_add_vartime(&acc2, &acc2, &q2));
    BENCH("g2_add_affine", g2_add_affine_vartime(&acc2, &acc2, &q2a));
    BENCH("g2_dbl", g2_dbl(&acc2, &acc2));
    bench_sink ^= ((fp_t *)&acc2.x)[0].l[0];

    /* Pairing, on affine inputs: the Miller loop's output perturbs its next input through a
     * volatile zero, the final exponentiation is its own chain. */
    BENCH("miller_loop", {
        pf_miller_loop_vartime(&f, &p1a, &p2a, NULL, 1, scratch);
        p1a.x.l[0] ^= ((limb_t *)&f)[0] & bench_zero;
    });
    /* Two pairs sharing the squarings of f, as a signature or KZG check has them (where Fp has
     * more than four words, the lines of the two pairs are multiplied together first). */
    pair1[0] = p1a;
    pair1[1] = q1a;
    pair2[0] = p2a;
    pair2[1] = q2a;
    BENCH("miller_loop_2", {
        pf_miller_loop_vartime(&f, pair1, pair2, NULL, 2, scratch);
        pair1[0].x.l[0] ^= ((limb_t *)&f)[0] & bench_zero;
    });
    BENCH("final_exp", { pf_final_exp(&e, &f); f = e; });
    BENCH("pairing", {
        pf_miller_loop_vartime(&e, &p1a, &p2a, NULL, 1, scratch);
        pf_final_exp(&e, &e);
        p1a.x.l[0] ^= ((limb_t *)&e)[0] & bench_zero;
    });
    bench_sink ^= ((limb_t *)&f)[0] ^ ((limb_t *)&e)[0];
    printf("# checksum %016llx\n", (unsigned long long)bench_sink);
    return 0;
}
#endif /* BENCH_LIBRARY */
