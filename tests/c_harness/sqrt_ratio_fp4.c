/* The generated hash_to_curve.h's g2_sqrt_ratio over a degree-4 twist field (BLS24), run on inputs
 * from stdin (tests/pairings/test_bls24_package.py): each input is 8 Fp elements u0..u3 v0..v3 (flat
 * coefficients c0.c0, c0.c1, c1.c0, c1.c1; big-endian hex); each output line is "is_qr y0 y1 y2 y3".
 * Built against a rendered package's c/ directory. With -DPF_CT_CHECK, u and v are marked secret
 * (undefined) for valgrind's memcheck, which then reports any branch or memory index on them. */
#include <stdio.h>
#include <stdint.h>
#include "pairforge.h"
#ifdef PF_CT_CHECK
#include <valgrind/memcheck.h>
#endif

static int read_fp(fp_t *out)
{
    char hex[2 * FP_NBYTES + 1], fmt[16];
    uint8_t b[FP_NBYTES];
    unsigned v;

    snprintf(fmt, sizeof fmt, "%%%ds", 2 * FP_NBYTES);
    if (scanf(fmt, hex) != 1)
        return 0;
    for (int i = 0; i < FP_NBYTES; i++) {
        sscanf(hex + 2 * i, "%2x", &v);
        b[i] = (uint8_t)v;
    }
    return fp_from_bytes_be(out, b);
}

static void put_fp(const fp_t *a)
{
    uint8_t b[FP_NBYTES];
    fp_to_bytes_be(b, a);
    for (int i = 0; i < FP_NBYTES; i++)
        printf("%02x", b[i]);
}

int main(void)
{
    fp4_t u, v, y;
    for (;;) {
        fp_t *in[8] = { &u.c0.c0, &u.c0.c1, &u.c1.c0, &u.c1.c1, &v.c0.c0, &v.c0.c1, &v.c1.c0, &v.c1.c1 };
        for (int i = 0; i < 8; i++)
            if (!read_fp(in[i]))
                return 0;
#ifdef PF_CT_CHECK
        VALGRIND_MAKE_MEM_UNDEFINED(&u, sizeof u);
        VALGRIND_MAKE_MEM_UNDEFINED(&v, sizeof v);
#endif
        limb_t qr = g2_sqrt_ratio(&y, &u, &v);
#ifdef PF_CT_CHECK
        VALGRIND_MAKE_MEM_DEFINED(&y, sizeof y);
        VALGRIND_MAKE_MEM_DEFINED(&qr, sizeof qr);
#endif
        printf("%d", (int)qr);
        const fp_t *out[4] = { &y.c0.c0, &y.c0.c1, &y.c1.c0, &y.c1.c1 };
        for (int i = 0; i < 4; i++) {
            printf(" ");
            put_fp(out[i]);
        }
        printf("\n");
    }
}
