/*
 * Harness of the IFMA tower study: the generated x86_64-adx Fp12 / Fp multiplication (base.c)
 * beside the radix-2^52 IFMA ones (ifma_fp12.c).
 *
 *   harness check   < lines      products for check.py (see there for the line format)
 *   harness bench R [MS]         R interleaved rounds; per round and kernel, 9 runs of about MS
 *                                milliseconds (default 2) each; thread CPU time; prints one line
 *                                per kernel: name median_ns best_ns (per operation) runs
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

size_t base_fp12_size(void);
void base_fp12_from_words(void *out, const uint64_t in[12][6]);
void base_fp12_to_words(uint64_t out[12][6], const void *in);
void base_fp12_mul(void *out, const void *a, const void *b);
void base_fp12_mul_chain(void *x, const void *b, long n);
void base_fp12_mul_pair(void *x, void *y, const void *b, long n);
void base_fp_mul_chain(uint64_t *state, long n);
void base_fp_mul_quad(uint64_t *state, long n);

size_t ifma_fp12_size(void);
void ifma_fp12_from_words(void *out, const uint64_t in[12][6]);
void ifma_fp12_to_words(uint64_t out[12][6], const void *in);
void ifma_fp12_get_limbs(uint64_t out[12][8], const void *in);
void ifma_fp12_set_limbs(void *out, const uint64_t in[12][8]);
void ifma_fp12_mul(void *out, const void *a, const void *b);
void ifma_fp12_mul_chain(void *x, const void *b, long n);
void ifma_fp12_mul_pair(void *x, void *y, const void *b, long n);
void ifma_fp_mul_batch_chain(uint64_t *state, long n);
void ifma_fp_mul_batches(uint64_t *state, long n);
void ifma_fp12_core_chain(uint64_t *state, long n);

static void *xalloc(size_t n)
{
    void *p = aligned_alloc(64, (n + 63) / 64 * 64);
    if (!p) abort();
    memset(p, 0, n);
    return p;
}

/* a hexadecimal integer below 2^384 -> 6 little-endian words */
static const char *parse_words(uint64_t w[6], const char *s)
{
    char *end;
    while (*s == ' ') s++;
    const char *start = s;
    while ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')) s++;
    memset(w, 0, 6 * sizeof *w);
    for (const char *q = s; q > start;) {
        const char *from = q - 16 > start ? q - 16 : start;
        char buf[17] = {0};
        memcpy(buf, from, (size_t)(q - from));
        /* word index = number of 16-digit groups already consumed */
        w[(size_t)(s - q) / 16] = strtoull(buf, &end, 16);
        q = from;
    }
    return s;
}

static void print_words(const uint64_t w[6])
{
    printf(" ");
    for (int i = 5; i >= 0; i--) printf("%016llx", (unsigned long long)w[i]);
}

/* Lines: "C a0 .. a11 b0 .. b11" (canonical coefficients, hex): prints "B" + the baseline
 * product, "I" + the IFMA product, "R" + the IFMA output limbs as stored.
 * "L" + 96 + 96 limbs (hex, Montgomery radix-2^52 as stored): prints "I" and "R" only. */
static int check(void)
{
    char line[1 << 14];
    void *xa = xalloc(base_fp12_size()), *xb = xalloc(base_fp12_size()), *xo = xalloc(base_fp12_size());
    void *ya = xalloc(ifma_fp12_size()), *yb = xalloc(ifma_fp12_size()), *yo = xalloc(ifma_fp12_size());
    uint64_t a[12][6], b[12][6], o[12][6], la[12][8], lb[12][8], lo[12][8];
    while (fgets(line, sizeof line, stdin)) {
        const char *s = line + 1;
        if (line[0] == 'C') {
            for (int k = 0; k < 12; k++) s = parse_words(a[k], s);
            for (int k = 0; k < 12; k++) s = parse_words(b[k], s);
            base_fp12_from_words(xa, a);
            base_fp12_from_words(xb, b);
            base_fp12_mul(xo, xa, xb);
            base_fp12_to_words(o, xo);
            printf("B");
            for (int k = 0; k < 12; k++) print_words(o[k]);
            printf("\n");
            ifma_fp12_from_words(ya, a);
            ifma_fp12_from_words(yb, b);
        } else if (line[0] == 'L') {
            char *end = (char *)s;
            for (int k = 0; k < 12; k++)
                for (int j = 0; j < 8; j++) la[k][j] = strtoull(end, &end, 16);
            for (int k = 0; k < 12; k++)
                for (int j = 0; j < 8; j++) lb[k][j] = strtoull(end, &end, 16);
            ifma_fp12_set_limbs(ya, la);
            ifma_fp12_set_limbs(yb, lb);
        } else {
            continue;
        }
        ifma_fp12_mul(yo, ya, yb);
        ifma_fp12_to_words(o, yo);
        printf("I");
        for (int k = 0; k < 12; k++) print_words(o[k]);
        printf("\nR");
        ifma_fp12_get_limbs(lo, yo);
        for (int k = 0; k < 12; k++)
            for (int j = 0; j < 8; j++) printf(" %llx", (unsigned long long)lo[k][j]);
        printf("\n");
        fflush(stdout);
    }
    return 0;
}

static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

enum { K_BASE12, K_IFMA12, K_BASE12P, K_IFMA12P, K_BASEFP, K_BASEFP4, K_IFMAFP, K_IFMAFP32, K_IFMACORE, NK };
static const char *NAMES[NK] = {
    "adx_fp12_mul_latency", "ifma52_fp12_mul_latency", "adx_fp12_mul_2chains", "ifma52_fp12_mul_2chains",
    "adx_fp_mul_latency", "adx_fp_mul_4chains", "ifma52_fp_mul_8lanes_latency", "ifma52_fp_mul_4x8lanes", "ifma52_fp12_core_only",
};
/* operations per loop iteration */
static const double OPS[NK] = {1, 1, 2, 2, 1, 4, 8, 32, 1};

static void *g_xa, *g_xb, *g_xc, *g_ya, *g_yb, *g_yc;
static uint64_t g_state[8] = {0x123456789abcdefULL, 0xfedcba987654321ULL, 3, 4, 5, 6, 7, 8};

static void run(int k, long n)
{
    switch (k) {
    case K_BASE12: base_fp12_mul_chain(g_xa, g_xb, n); break;
    case K_IFMA12: ifma_fp12_mul_chain(g_ya, g_yb, n); break;
    case K_BASE12P: base_fp12_mul_pair(g_xa, g_xc, g_xb, n); break;
    case K_IFMA12P: ifma_fp12_mul_pair(g_ya, g_yc, g_yb, n); break;
    case K_BASEFP: base_fp_mul_chain(g_state, n); break;
    case K_BASEFP4: base_fp_mul_quad(g_state, n); break;
    case K_IFMAFP: ifma_fp_mul_batch_chain(g_state, n); break;
    case K_IFMAFP32: ifma_fp_mul_batches(g_state, n); break;
    case K_IFMACORE: ifma_fp12_core_chain(g_state, n); break;
    }
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int bench(int rounds, double ms)
{
    enum { RUNS = 9 };
    uint64_t w[12][6];
    g_xa = xalloc(base_fp12_size()); g_xb = xalloc(base_fp12_size()); g_xc = xalloc(base_fp12_size());
    g_ya = xalloc(ifma_fp12_size()); g_yb = xalloc(ifma_fp12_size()); g_yc = xalloc(ifma_fp12_size());
    for (int k = 0; k < 12; k++)
        for (int j = 0; j < 6; j++) w[k][j] = (0x9e3779b97f4a7c15ULL * (uint64_t)(12 * k + j + 1)) >> (j == 5 ? 8 : 0);
    base_fp12_from_words(g_xa, w); ifma_fp12_from_words(g_ya, w);
    w[0][0] ^= 1;
    base_fp12_from_words(g_xc, w); ifma_fp12_from_words(g_yc, w);
    w[1][1] ^= 7;
    base_fp12_from_words(g_xb, w); ifma_fp12_from_words(g_yb, w);

    long iters[NK];
    for (int k = 0; k < NK; k++) { /* calibrate: iterations for about ms milliseconds */
        long n = 16;
        for (;;) {
            double t0 = cpu_ns();
            run(k, n);
            double dt = cpu_ns() - t0;
            if (dt > ms * 1e6 / 4) { iters[k] = (long)(n * ms * 1e6 / dt) + 1; break; }
            n *= 2;
        }
    }
    double *res[NK];
    int cnt = 0;
    for (int k = 0; k < NK; k++) res[k] = calloc((size_t)rounds * RUNS, sizeof(double));
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < RUNS; i++, cnt++)
            for (int k = 0; k < NK; k++) {
                double t0 = cpu_ns();
                run(k, iters[k]);
                res[k][cnt] = (cpu_ns() - t0) / (iters[k] * OPS[k]);
            }
    for (int k = 0; k < NK; k++) {
        qsort(res[k], (size_t)cnt, sizeof(double), cmpd);
        printf("%s %.2f %.2f %d\n", NAMES[k], res[k][cnt / 2], res[k][0], cnt);
    }
    /* keep every chain alive */
    uint64_t sink[12][6];
    base_fp12_to_words(sink, g_xa);
    fprintf(stderr, "sink %llx %llx\n", (unsigned long long)sink[0][0], (unsigned long long)g_state[0]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "check")) return check();
    if (argc >= 3 && !strcmp(argv[1], "bench")) return bench(atoi(argv[2]), argc >= 4 ? atof(argv[3]) : 2.0);
    fprintf(stderr, "usage: %s check | bench ROUNDS [MS]\n", argv[0]);
    return 2;
}
