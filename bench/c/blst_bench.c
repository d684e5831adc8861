/*
 * Times blst (https://github.com/supranational/blst, built from source by the user with its
 * build.sh) for bench/blst.py:
 *
 *     blst_bench OP [OP ...]
 *
 * OP: pairing (blst_miller_loop then blst_final_exp, on affine points, as blspy pairs), miller_loop,
 * final_exp, g1_mul_ct, g2_mul_ct (blst_p1_mult / blst_p2_mult by a 255-bit scalar: blst's
 * constant-time multiplication). Each OP prints one line "OP SECONDS_PER_CALL": process CPU
 * seconds, the fastest of 5 batches of about 50 ms, after a warm-up call, as bench/mcl.py's
 * harness and bench/blst.py measure. Inputs are fixed multiples of the generators and a fixed
 * scalar (blst's timing does not depend on them).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "blst.h"

static double cpu_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static blst_p1_affine P;
static blst_p2_affine Q;
static blst_p1 p1;
static blst_p2 p2;
static blst_fp12 f, g;
static byte scalar[32];

static void run(const char *op)
{
    if (!strcmp(op, "pairing")) {
        blst_miller_loop(&g, &Q, &P);
        blst_final_exp(&g, &g);
    } else if (!strcmp(op, "miller_loop")) {
        blst_miller_loop(&g, &Q, &P);
    } else if (!strcmp(op, "final_exp")) {
        blst_final_exp(&g, &f);
    } else if (!strcmp(op, "g1_mul_ct")) {
        blst_p1_mult(&p1, &p1, scalar, 255);
    } else {
        blst_p2_mult(&p2, &p2, scalar, 255);
    }
    __asm__ volatile("" : : "r"(&g), "r"(&p1), "r"(&p2) : "memory");
}

static double seconds_per_call(const char *op)
{
    size_t calls = 1;
    double best = 1e30;

    run(op);
    for (;;) { /* calls per batch of about 50 ms */
        double t0 = cpu_seconds(), s;

        for (size_t i = 0; i < calls; i++)
            run(op);
        s = cpu_seconds() - t0;
        if (s >= 0.05)
            break;
        calls = s <= 0.0 ? calls * 10 : (size_t)(calls * 0.06 / s) + 1;
    }
    for (int b = 0; b < 5; b++) {
        double t0 = cpu_seconds(), s;

        for (size_t i = 0; i < calls; i++)
            run(op);
        s = (cpu_seconds() - t0) / (double)calls;
        if (s < best)
            best = s;
    }
    return best;
}

int main(int argc, char **argv)
{
    static const char *ops[] = { "pairing", "miller_loop", "final_exp", "g1_mul_ct", "g2_mul_ct" };
    uint64_t x = 0x9e3779b97f4a7c15u;

    for (size_t i = 0; i < sizeof scalar; i++) { /* a fixed scalar below 2^255 */
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        scalar[i] = (byte)x;
    }
    scalar[31] &= 0x7f;
    blst_p1_mult(&p1, blst_p1_generator(), scalar, 255);
    blst_p2_mult(&p2, blst_p2_generator(), scalar, 255);
    blst_p1_to_affine(&P, &p1);
    blst_p2_to_affine(&Q, &p2);
    blst_miller_loop(&f, &Q, &P);
    for (int i = 1; i < argc; i++) {
        size_t k;

        for (k = 0; k < sizeof ops / sizeof ops[0] && strcmp(argv[i], ops[k]); k++)
            ;
        if (k == sizeof ops / sizeof ops[0]) {
            fprintf(stderr, "blst_bench: unknown operation %s\n", argv[i]);
            return 2;
        }
        printf("%s %.9e\n", argv[i], seconds_per_call(argv[i]));
    }
    return 0;
}
