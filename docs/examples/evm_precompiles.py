# SPDX-License-Identifier: MIT OR Apache-2.0
"""The EVM precompiles: BN254's EIP-196/197 (ecAdd, ecMul, ecPairing) and BLS12-381's EIP-2537,
called by address or name as an EVM host calls them: output bytes and gas, and a
PrecompileError naming the broken rule for bad input. Checked on go-ethereum's vector files
(tests/vectors).

Run from the repository root: python docs/examples/evm_precompiles.py
"""

import json
from pathlib import Path

from generated import bls12_381, bn254
from generated.bls12_381 import eip2537
from generated.bn254 import eip197

VECTORS = Path(__file__).resolve().parents[2] / "tests" / "vectors"

# --- BN254: ecAdd (0x06), ecMul (0x07), ecPairing (0x08) -----------------------------------------
# Points are x || y, 32 bytes each, big-endian (the "eip197" serialization profile).
g = bn254.G1.generator().to_bytes(False, eip197.PROFILE)
assert len(g) == 64

out, gas = eip197.run(0x06, g + g)                                  # ecAdd
assert out == (bn254.G1.generator() * 2).to_bytes(False, "eip197") and gas == 150
out, gas = eip197.run("ECMUL", g + (5).to_bytes(32, "big"))         # by name as well
assert out == (bn254.G1.generator() * 5).to_bytes(False, "eip197") and gas == 6000

# ecPairing: pairs of (G1, G2) points; returns 32 bytes, 1 when the product of pairings is one.
# e(P, Q) * e(-P, Q) = 1. Gas: 45000 + 34000 per pair (Istanbul).
P, Q = bn254.G1.generator() * 7, bn254.G2.generator() * 11
pairs = b"".join(pt.to_bytes(False, "eip197") for pt in (P, Q, -P, Q))
out, gas = eip197.run(0x08, pairs)
assert out == (1).to_bytes(32, "big") and gas == 45000 + 2 * 34000
assert eip197.gas(0x08, pairs) == gas                               # the price without running it

# go-ethereum's test vectors: the same output and gas for every case
for name in ("bn256Add.json", "bn256ScalarMul.json", "bn256Pairing.json"):
    address = {"bn256Add.json": 0x06, "bn256ScalarMul.json": 0x07, "bn256Pairing.json": 0x08}[name]
    cases = json.loads((VECTORS / "eip196_197_bn254_precompiles_geth" / name).read_text())
    for case in cases:
        out, gas = eip197.run(address, bytes.fromhex(case["Input"]))
        assert out.hex() == case["Expected"] and gas == case["Gas"], case["Name"]

# --- BLS12-381: EIP-2537 (0x0b-0x11) -------------------------------------------------------------
# Points uncompressed, each coordinate padded to 64 bytes (the "eip2537" profile); scalars 32 bytes.
G = bls12_381.G1.generator()
g = G.to_bytes(False, eip2537.PROFILE)
assert len(g) == 128
msm_input = g + (5).to_bytes(32, "big") + (G * 3).to_bytes(False, "eip2537") + (2).to_bytes(32, "big")
out, gas = eip2537.run("G1MSM", msm_input)
assert out == (G * 11).to_bytes(False, "eip2537")                  # 5 G + 2 (3 G)
assert gas == eip2537.gas("G1MSM", b"\0" * 320)                    # the EIP's discount table

# Bad input: a PrecompileError (a ValueError) whose rule says what was wrong.
for data, rule in ((b"", "length"),                                  # PAIRING_CHECK needs k * 384 bytes
                   (b"\x01" + bytes(383), "padding")):               # the 16 padding bytes must be zero
    try:
        eip2537.run(0x0F, data)
    except eip2537.PrecompileError as exc:
        assert exc.rule == rule, exc
    else:
        raise AssertionError("accepted bad input")

# go-ethereum's EIP-2537 vectors: outputs and gas of G1ADD, and every failure case of the pairing
for case in json.loads((VECTORS / "eip2537_bls12381_precompiles_geth" / "blsG1Add.json").read_text()):
    out, gas = eip2537.run("G1ADD", bytes.fromhex(case["Input"]))
    assert out.hex() == case["Expected"] and gas == case["Gas"], case["Name"]
for case in json.loads((VECTORS / "eip2537_bls12381_precompiles_geth" / "fail-blsPairing.json").read_text()):
    try:
        eip2537.run("PAIRING_CHECK", bytes.fromhex(case["Input"]))
    except eip2537.PrecompileError:
        pass
    else:
        raise AssertionError(f"{case['Name']}: accepted")

print("EVM precompiles: EIP-196/197 and EIP-2537 outputs, gas and errors as go-ethereum's vectors: OK")
