/*
 * Microbenchmark of one rendered prime field (not a test).  Render a field as
 * field_under_test.h next to limbs.h (prefix fp), then for example:
 *   gcc -std=c99 -O3 -march=native -DPF_LIMB_BITS=64 -I<dir> tests/c_harness/bench_field.c -o bench
 * Each operation is timed in a dependent chain (latency): the best of 300 short runs, in ns per
 * call, so that a busy machine still gives the quiet-machine figure.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>

#include "limbs.h"
#include "field_under_test.h"

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#define BENCH(label, iters, body)                                            \
    do {                                                                     \
        double best = 1e300;                                                 \
        int run;                                                             \
        long k;                                                              \
        for (run = 0; run < 300; run++) {                                    \
            double t0 = now_ns(), dt;                                        \
            for (k = 0; k < (iters); k++) { body; }                          \
            dt = (now_ns() - t0) / (double)(iters);                          \
            if (dt < best) best = dt;                                        \
        }                                                                    \
        printf("%-22s %9.1f ns\n", label, best);                             \
    } while (0)

int main(void)
{
    fp_t x, y;
    limb_t acc = 0;
    size_t i;

    for (i = 0; i < FP_NLIMBS; i++) {
        x.l[i] = (limb_t)0x9e3779b97f4a7c15ULL * (limb_t)(i + 1);
        y.l[i] = (limb_t)0xc2b2ae3d27d4eb4fULL * (limb_t)(i + 7);
    }
    x.l[FP_NLIMBS - 1] = 0;  /* below p */
    y.l[FP_NLIMBS - 1] = 0;

    BENCH("fp_add", 20000L, fp_add(&x, &x, &y));
    BENCH("fp_mul", 4000L, fp_mul(&x, &x, &y));
    BENCH("fp_mul(a, a)", 4000L, fp_mul(&x, &x, &x));
    BENCH("fp_sqr", 4000L, fp_sqr(&x, &x));
    BENCH("fp_inv", 20L, fp_inv(&x, &x));
    BENCH("fp_legendre", 20L, acc += (limb_t)fp_legendre(&x); x.l[0] ^= acc);
    BENCH("fp_sqrt", 20L, acc += fp_sqrt(&y, &x); fp_add(&x, &x, &y));
    acc ^= x.l[0] ^ y.l[0];
    printf("(checksum %llx)\n", (unsigned long long)acc);
    return 0;
}
