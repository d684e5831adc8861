# SPDX-License-Identifier: MIT OR Apache-2.0
"""KZG polynomial commitments on BN254 from a snarkjs powers-of-tau file (.ptau): load the setup,
commit, open at a point, verify (one at a time and in a batch).

A real .ptau (a ceremony's, e.g. powersOfTau28_hez_final_12.ptau, or one made with
`snarkjs powersoftau`) loads the same way. So that this script stands alone and can check the
commitment against its known value, it first writes a small .ptau in snarkjs's layout from a
KNOWN tau: such a setup is for examples and tests only (anyone who knows tau can forge openings).

Run from the repository root: python docs/examples/kzg_ptau_bn254.py
"""

import struct
import tempfile
from pathlib import Path

from generated.bn254 import G1, Fr, P, R, kzg

POWER = 4  # the file holds 2^(POWER+1) - 1 powers in G1 and 2^POWER in G2
TAU = 0x5EC2E7_7A0  # the "toxic waste": known here only to build and check the example


def write_ptau(path: Path, g1: list, g2: list, power: int) -> None:
    """snarkjs's .ptau layout: "ptau", version 1, sections (type u32, size u64): 1 the header
    (n8, q, power, ceremony power), 2 tau G1, 3 tau G2; each coordinate little-endian in
    Montgomery form (times 2^(8 n8) mod q), G2 coordinates c0 then c1."""
    n8 = 32

    def coord(v: int) -> bytes:
        return (v * (1 << (8 * n8)) % P).to_bytes(n8, "little")

    def point(pt) -> bytes:
        x, y = pt.to_affine()  # ints on G1, (c0, c1) pairs on G2
        return b"".join(coord(c) for xy in (x, y) for c in (xy if isinstance(xy, tuple) else (xy,)))

    sections = [(1, struct.pack("<I", n8) + P.to_bytes(n8, "little") + struct.pack("<II", power, power)),
                (2, b"".join(point(pt) for pt in g1)),
                (3, b"".join(point(pt) for pt in g2))]
    data = b"ptau" + struct.pack("<II", 1, len(sections))
    for kind, body in sections:
        data += struct.pack("<IQ", kind, len(body)) + body
    path.write_bytes(data)


known = kzg.Setup.insecure_from_tau(TAU, 2 ** (POWER + 1) - 1, g2_count=2 ** POWER, lagrange=False)
with tempfile.TemporaryDirectory() as tmp:
    ptau = Path(tmp) / f"pot{POWER}.ptau"
    write_ptau(ptau, known.g1, known.g2, POWER)

    # Load it: every point is decoded and subgroup-checked, and the points are checked to be
    # powers of one tau. size= keeps fewer G1 powers (default 2^power).
    setup = kzg.Setup.from_ptau(ptau)
    assert setup.size == 2 ** POWER and setup.g1 == known.g1[: setup.size]

# Commit to p(X) = 3 + 5 X + 7 X^3 + X^15: the commitment is [p(tau)] G1.
coeffs = [3, 5, 0, 7] + [0] * 11 + [1]
C = kzg.commit(setup, coeffs)
p_tau = sum(c * pow(TAU, i, R) for i, c in enumerate(coeffs)) % R
assert C == G1.generator() * p_tau

# Open at z: y = p(z) and a proof (one G1 point); verify is one pairing check.
z = Fr(1234567)
proof, y = kzg.open(setup, coeffs, z)
assert y == Fr(sum(c * pow(1234567, i, R) for i, c in enumerate(coeffs)))
assert kzg.verify(setup, C, z, y, proof)
assert not kzg.verify(setup, C, z, y + 1, proof)         # a wrong value
assert not kzg.verify(setup, C, z + 1, y, proof)         # the proof is for z only

# Many openings of many commitments: one pairing check with random 128-bit weights.
coeffs2 = list(range(1, 17))
C2 = kzg.commit(setup, coeffs2)
proof2, y2 = kzg.open(setup, coeffs2, 42)
assert kzg.batch_verify(setup, [C, C2], [z, 42], [y, y2], [proof, proof2])
assert not kzg.batch_verify(setup, [C, C2], [z, 42], [y, y2 + 1], [proof, proof2])

# Commitments and proofs are points: bytes in the curve's default profile (gnark on BN254).
assert G1.from_bytes(C.to_bytes()) == C

print(f"KZG on BN254 from a .ptau of power {POWER}: commitment = [p(tau)] G1, openings verify: OK")
