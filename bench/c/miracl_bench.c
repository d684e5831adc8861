/*
 * MIRACL core's optimal ate pairing on BLS48-581 and BLS12-381, timed for bench/miracl.py.
 *
 * Built by bench/miracl.py against a MIRACL core library configured for BLS12381 and BLS48581
 * (its c/config64.py). Usage: miracl_bench CALLS48 CALLS12. For each curve it prints one line,
 *
 *     <curve> miller <ms> fexp <ms> pairing <ms>
 *
 * the medians over CALLS calls of PAIR_ate (the Miller loop), PAIR_fexp (the final
 * exponentiation) and the two in a row, on random multiples of the generators; each pairing is
 * compared with the first one, so a wrong answer stops the run.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pair8_BLS48581.h"
#include "pair_BLS12381.h"
#include "randapi.h"

#define MAX_CALLS 1001

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void report(const char *curve, double *miller, double *fexp, double *pairing, int calls)
{
    printf("%s miller %.4f fexp %.4f pairing %.4f\n", curve, median(miller, calls), median(fexp, calls),
           median(pairing, calls));
}

/* One curve's loop, for MIRACL's names of that curve: C the curve, G2 its twist's point type, B
 * its BIG type, GT its target field. */
#define TIME_CURVE(NAME, C, G2, B, GT)                                                                  \
    static void time_##C(csprng *rng, int calls)                                                        \
    {                                                                                                   \
        static double miller[MAX_CALLS], fexp[MAX_CALLS], pairing[MAX_CALLS];                           \
        ECP_##C P;                                                                                      \
        G2##_##C Q;                                                                                     \
        B order, k;                                                                                     \
        GT##_##C first, f, g;                                                                           \
        int i;                                                                                          \
                                                                                                        \
        B##_rcopy(order, CURVE_Order_##C);                                                              \
        ECP_##C##_generator(&P);                                                                        \
        G2##_##C##_generator(&Q);                                                                       \
        B##_randomnum(k, order, rng);                                                                   \
        PAIR_##C##_G1mul(&P, k);                                                                        \
        B##_randomnum(k, order, rng);                                                                   \
        PAIR_##C##_G2mul(&Q, k);                                                                        \
        ECP_##C##_affine(&P);                                                                           \
        G2##_##C##_affine(&Q);                                                                          \
        PAIR_##C##_ate(&first, &Q, &P);                                                                 \
        PAIR_##C##_fexp(&first);                                                                        \
        for (i = 0; i < calls; i++) {                                                                   \
            double t0 = now_ms(), t1, t2, t3;                                                           \
                                                                                                        \
            PAIR_##C##_ate(&f, &Q, &P);                                                                 \
            t1 = now_ms();                                                                              \
            PAIR_##C##_fexp(&f);                                                                        \
            t2 = now_ms();                                                                              \
            PAIR_##C##_ate(&g, &Q, &P);                                                                 \
            PAIR_##C##_fexp(&g);                                                                        \
            t3 = now_ms();                                                                              \
            if (!GT##_##C##_equals(&f, &first) || !GT##_##C##_equals(&g, &first)) {                     \
                fprintf(stderr, "miracl_bench: %s: a pairing differs from the first\n", NAME);          \
                exit(1);                                                                                \
            }                                                                                           \
            miller[i] = t1 - t0;                                                                        \
            fexp[i] = t2 - t1;                                                                          \
            pairing[i] = t3 - t2;                                                                       \
        }                                                                                               \
        report(NAME, miller, fexp, pairing, calls);                                                     \
    }

TIME_CURVE("BLS48-581", BLS48581, ECP8, BIG_584_60, FP48)
TIME_CURVE("BLS12-381", BLS12381, ECP2, BIG_384_58, FP12)

static int calls_arg(const char *arg)
{
    int n = atoi(arg);

    if (n < 1 || n > MAX_CALLS) {
        fprintf(stderr, "miracl_bench: calls must be in [1, %d], got %s\n", MAX_CALLS, arg);
        exit(2);
    }
    return n;
}

int main(int argc, char **argv)
{
    char seed[64];
    octet SEED = {sizeof seed, sizeof seed, seed};
    csprng rng;
    int i;

    if (argc != 3) {
        fprintf(stderr, "usage: miracl_bench CALLS48 CALLS12\n");
        return 2;
    }
    for (i = 0; i < (int)sizeof seed; i++)
        seed[i] = (char)(7 * i + 3);
    CREATE_CSPRNG(&rng, &SEED);
    time_BLS48581(&rng, calls_arg(argv[1]));
    time_BLS12381(&rng, calls_arg(argv[2]));
    return 0;
}
