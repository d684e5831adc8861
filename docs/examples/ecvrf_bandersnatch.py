# SPDX-License-Identifier: MIT OR Apache-2.0
"""The Bandersnatch ECVRF of ark-vrf (IETF-style, tiny and thin proofs): keys, proofs and outputs
byte for byte with ark-vrf's own test vectors (tests/vectors/edwards_companions/ark-vrf).

Run from the repository root: python docs/examples/ecvrf_bandersnatch.py
"""

import json
from pathlib import Path

from generated.bandersnatch import ecvrf

ARK_VRF = Path(__file__).resolve().parents[2] / "tests" / "vectors" / "edwards_companions" / "ark-vrf"
SUITE = "Bandersnatch-SHA512-ELL2-v1"  # the default suite (ecvrf.SUITES lists them all)

# --- Prove and verify ----------------------------------------------------------------------------
sk = 0x1234_5678_9ABC_DEF0  # an int in [1, r) or 32 bytes little-endian
pk = ecvrf.public_key(sk)  # 32 bytes: arkworks' compressed Edwards point
pi = ecvrf.prove(sk, b"alpha", ad=b"additional data")  # gamma || c || s (the tiny proof)
assert ecvrf.verify(pk, b"alpha", b"additional data", pi)
assert not ecvrf.verify(pk, b"alpha", b"other data", pi)  # the additional data is bound too
assert not ecvrf.verify(ecvrf.public_key(sk + 1), b"alpha", b"additional data", pi)

# The VRF output: 32 bytes that depend on the key and input only, not on the additional data.
beta = ecvrf.proof_to_hash(pi)
assert beta == ecvrf.proof_to_hash(ecvrf.prove(sk, b"alpha", ad=b""))
assert beta != ecvrf.proof_to_hash(ecvrf.prove(sk, b"beta"))

# --- ark-vrf's vectors: the same key, output point, proof and output hash ------------------------
for v in json.loads((ARK_VRF / "bandersnatch_sha-512_ell2_tiny.json").read_text()):
    sk, alpha, ad = bytes.fromhex(v["sk"]), bytes.fromhex(v["alpha"]), bytes.fromhex(v["ad"])
    assert ecvrf.public_key(sk, SUITE).hex() == v["pk"], v["comment"]
    pi = ecvrf.prove(sk, alpha, ad, SUITE)
    gamma, c, s = ecvrf.split_proof(pi, SUITE)
    assert (gamma.hex(), c.hex(), s.hex()) == (v["gamma"], v["proof_c"], v["proof_s"]), v["comment"]
    assert ecvrf.proof_to_hash(pi, SUITE).hex() == v["beta"]
    # ark-vrf's own proof bytes verify, and a flipped bit of the response does not
    theirs = bytes.fromhex(v["gamma"] + v["proof_c"] + v["proof_s"])
    assert ecvrf.verify(bytes.fromhex(v["pk"]), alpha, ad, theirs, SUITE)
    flipped = theirs[:-32] + bytes([theirs[-32] ^ 1]) + theirs[-31:]  # the lowest bit of s
    assert not ecvrf.verify(bytes.fromhex(v["pk"]), alpha, ad, flipped, SUITE)

# The thin proof (gamma || R || s) of the same scheme
for v in json.loads((ARK_VRF / "bandersnatch_sha-512_ell2_thin.json").read_text()):
    sk, alpha, ad = bytes.fromhex(v["sk"]), bytes.fromhex(v["alpha"]), bytes.fromhex(v["ad"])
    pi = ecvrf.prove_thin(sk, alpha, ad, SUITE)
    assert pi.hex() == v["gamma"] + v["proof_r"] + v["proof_s"], v["comment"]
    assert ecvrf.verify_thin(bytes.fromhex(v["pk"]), alpha, ad, pi, SUITE)
    assert not ecvrf.verify_thin(bytes.fromhex(v["pk"]), alpha, ad + b"!", pi, SUITE)

print("Bandersnatch ECVRF: keys, proofs and outputs equal ark-vrf's vectors: OK")
