"""Sizes of the batched operations, the operations the chart shows, and the curves known by name.

The operations themselves are listed, in report order, by ``bench.ours.setups`` (every operation
of the Python API); peers use the same names.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import re

MULTI_PAIRING_N = 4
PAIRING_CHECK_N = 2
MSM_N = 64

# the operations of the chart (the table has all of them)
CHART_OPS = (
    "Fp mul",
    "Fp inverse",
    "G1 add",
    "G1 scalar mul (int)",
    "G1 scalar mul (Fr)",
    "G2 scalar mul (int)",
    "G2 scalar mul (Fr)",
    f"G1 msm (n={MSM_N})",
    "G1 from_bytes (compressed)",
    "G2 from_bytes (compressed)",
    "G2 hash_to_curve",
    "miller_loop",
    "final_exponentiation",
    "pairing",
    f"multi_pairing (n={MULTI_PAIRING_N})",
)

# the C-level kernels (bench/c/bench_kernels.c), in report order, with what they compute
C_KERNELS = {
    "fp_add": "Fp add",
    "fp_mul": "Fp mul (Montgomery)",
    "fp_sqr": "Fp square",
    "fp_inv": "Fp inverse (constant time)",
    "fq_mul": "twist-field mul (Fq)",
    "fq_sqr": "twist-field square (Fq)",
    "fk_mul": "GT-field mul",
    "fk_sqr": "GT-field square",
    "fk_mul_limbs": "GT-field mul, the target's limb code (where fk_mul has an IFMA kernel)",
    "fk_sqr_limbs": "GT-field square, the target's limb code (beside the IFMA one)",
    "fk_cyclotomic_sqr": "GT cyclotomic square (Granger–Scott)",
    "fk_cyclotomic_sqr_compressed": "GT compressed cyclotomic square (Karabina)",
    "g1_add": "G1 add (Jacobian + Jacobian)",
    "g1_add_affine": "G1 mixed add (Jacobian + affine)",
    "g1_dbl": "G1 double",
    "g2_add": "G2 add (Jacobian + Jacobian)",
    "g2_add_affine": "G2 mixed add (Jacobian + affine)",
    "g2_dbl": "G2 double",
    "miller_loop": "Miller loop (affine inputs)",
    "miller_loop_2": "Miller loop of two pairs (one shared f)",
    "final_exp": "final exponentiation",
    "pairing": "pairing (Miller loop + final exp.)",
}

# package name -> display name, for curves whose module is not built
STANDARD_CURVES = {
    "bn254": "BN254",
    "bls12_381": "BLS12-381",
    "bls12_377": "BLS12-377",
    "bw6_761": "BW6-761",
}


def package_name(name: str) -> str:
    """``BLS12-381`` / ``bls12-381`` / ``bls12_381`` -> ``bls12_381``."""
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")
