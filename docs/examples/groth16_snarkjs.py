# SPDX-License-Identifier: MIT OR Apache-2.0
"""Verify a snarkjs Groth16 proof on BN254 from its verification_key.json, proof.json and
public.json: a real key and proof made by snarkjs for a circom circuit (kept in
tests/vectors/snarkjs_groth16_bn254 with their origin).

Run from the repository root: python docs/examples/groth16_snarkjs.py
"""

import json
from pathlib import Path

from generated.bn254 import G1, groth16

VECTORS = Path(__file__).resolve().parents[2] / "tests" / "vectors" / "snarkjs_groth16_bn254"
vk_file, proof_file, public_file = (VECTORS / "verification_key.json", VECTORS / "proof.json",
                                    VECTORS / "public.json")

# from_snarkjs takes file paths, JSON text or the parsed objects; every point is decoded,
# checked on the curve and in the subgroup, and the public signals must be in [0, r).
vk, proof, inputs = groth16.from_snarkjs(vk_file, proof_file, public_file)
assert len(inputs) == vk.num_public_inputs == 4

# Prepare the key once (e(alpha, beta) cached, -gamma and -delta with their Miller-loop lines),
# then each verification is one 3-pair Miller loop and one final exponentiation.
pvk = groth16.prepare(vk)
assert groth16.verify(pvk, proof, inputs)

# A changed public signal, or a proof element swapped for another point, does not verify.
assert not groth16.verify(pvk, proof, [inputs[0] + 1, *inputs[1:]])
assert not groth16.verify(pvk, proof, [*inputs[:3], 1 - inputs[3]])
assert not groth16.verify(pvk, groth16.Proof(proof.a, proof.b, proof.c + G1.generator()), inputs)
assert not groth16.verify(pvk, groth16.Proof(-proof.a, proof.b, proof.c), inputs)

# Many proofs at once: one multi-pairing with random 128-bit weights.
assert groth16.batch_verify(pvk, [proof, proof], [inputs, inputs])
assert not groth16.batch_verify(pvk, [proof, proof], [inputs, [inputs[0] + 1, *inputs[1:]]])

# snarkjs stores e(alpha, beta) in the key as vk_alphabeta_12; to_snarkjs writes the same value
# string for string (BN254's pairing here follows snarkjs's convention), and the proof document
# round-trips.
vk_doc, proof_doc, public_doc = groth16.to_snarkjs(pvk, proof, inputs)
assert vk_doc["vk_alphabeta_12"] == json.loads(vk_file.read_text())["vk_alphabeta_12"]
assert public_doc == json.loads(public_file.read_text())
assert groth16.from_snarkjs(vk_doc, proof_doc, public_doc) == (vk, proof, inputs)

# The same key and proof as bytes (gnark's compressed points by default on BN254; profile=
# "arkworks" for ark-groth16's layout), e.g. for an on-chain or WebAssembly verifier.
assert groth16.Proof.from_bytes(proof.to_bytes()) == proof
assert groth16.VerifyingKey.from_bytes(vk.to_bytes(profile="arkworks"), profile="arkworks") == vk

print(f"Groth16: snarkjs's proof verifies with its {len(inputs)} public signals; tampered ones do not: OK")
