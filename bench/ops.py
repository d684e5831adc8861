"""The operations the benchmark measures, in report order, and the curves it knows by name."""

from __future__ import annotations

import re

OPS = (
    "Fp mul",
    "Fp inverse",
    "G1 add",
    "G1 double",
    "G1 scalar mul",
    "G2 add",
    "G2 scalar mul",
    "pairing",
    "miller_loop",
    "final_exponentiation",
    "multi_pairing (n=4)",
    "G1 msm (n=64)",
    "G1 to_bytes (compressed)",
    "G1 from_bytes (compressed)",
    "G2 to_bytes (compressed)",
    "G2 from_bytes (compressed)",
    "G2 hash_to_curve",
)

# The DST of Ethereum's BLS signatures (proof of possession scheme); a 32-byte message.
HASH_DST = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"

MULTI_PAIRING_N = 4
MSM_N = 64

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
