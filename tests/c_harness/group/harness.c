/* ctypes harness for templates/c/group.h.j2 (tests/emit/test_group_c.py).
 * The test writes, into the include directory: limbs.h, harness_cfg.h (MOCK_* constants, or
 * HARNESS_REAL_FP to use the rendered field template fp.h; HARNESS_FR_LIMBS64, the number of 64-bit
 * words of r; HARNESS_G2_FP for a BW6-style G2 over fp), g1.h (F = fp) and g2.h (F = fp2, the mock
 * quadratic extension u^2 = -1, or F = fp with HARNESS_G2_FP) and msm.h (both groups).  Field elements cross the boundary as canonical integers:
 * FP_NLIMBS limbs each, c0 before c1 for fp2; a Jacobian point is x, y, z and an affine one x, y. */
#include "harness_cfg.h"
#include "limbs.h"
#ifdef HARNESS_REAL_FP
#include "fp.h"
#else
#include "mock_fp.h"
#endif
#include "mock_fp2.h"
#include <stdlib.h>

#define FR_NLIMBS (HARNESS_FR_LIMBS64 * PF_LIMBS_PER_WORD)

#include "g1.h"
#include "g2.h"
#include "msm.h"

static inline void fp_h_in(fp_t *out, const limb_t *in) { fp_from_int(out, in); }
static inline void fp_h_out(limb_t *out, const fp_t *a) { fp_to_int(out, a); }
static inline void fp2_h_in(fp2_t *out, const limb_t *in)
{
    fp_from_int(&out->c0, in);
    fp_from_int(&out->c1, in + FP_NLIMBS);
}
static inline void fp2_h_out(limb_t *out, const fp2_t *a)
{
    fp_to_int(out, &a->c0);
    fp_to_int(out + FP_NLIMBS, &a->c1);
}

int t_limb_bits(void) { return PF_LIMB_BITS; }
int t_fp_nlimbs(void) { return FP_NLIMBS; }
int t_fr_nlimbs(void) { return FR_NLIMBS; }

#define HG g1_
#define HF fp_
#define HX t_g1_
#define HDEG 1
#include "harness_group.inc"
#undef HG
#undef HF
#undef HX
#undef HDEG

#define HG g2_
#define HX t_g2_
#ifdef HARNESS_G2_FP
#define HF fp_
#define HDEG 1
#else
#define HF fp2_
#define HDEG 2
#endif
#include "harness_group.inc"

#ifdef HARNESS_MEMCHECK
#include "ct_check.inc"
#endif
