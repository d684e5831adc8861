"""The ES module loader (generated/<pkg>/wasm/<pkg>.mjs) under Node: `node --test` runs
tests/js/wasm.test.mjs on BLS12-381's module (built once: tests/wasm_util.py's cached_wasm): a BLS
verification, a pairing check and rejected forgeries, and the protocol entry points (BLS sign,
AggregateVerify, an EIP-2537 precompile, Groth16 verify), against values made by the Python module;
and tests/js/wasm_curve.test.mjs (G2 arithmetic, hashing and the pairing, no protocols) on the curves
with G2 over Fp4 (tests/fq4_curves.py, from their test builds). Needs node (Debian's nodejs); without it this skips locally and fails under CI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from conftest import REPO_ROOT, TESTS_DIR, skip_or_fail
from fq4_curves import fq4_packages
from groth16_util import TestProver
from wasm_util import cached_wasm, point_outside_subgroup


def test_node_loader(curve_module, tmp_path) -> None:
    node = shutil.which("node")
    if node is None:
        skip_or_fail("node is not installed (apt-get install nodejs)")
    C = curve_module("bls12_381")
    from generated.bls12_381 import bls

    pop = bls.MinPk.Pop
    sk, other = pop.key_gen(bytes(range(32))), pop.key_gen(bytes(range(1, 33)))
    message = "pairforge over WebAssembly"
    P, Q = C.G1.generator() * 1234567, C.G2.generator() * 7654321
    fixture = {
        "loader": (REPO_ROOT / "generated" / "bls12_381" / "wasm" / "bls12_381.mjs").as_uri(),
        "wasm": str(cached_wasm(REPO_ROOT / "generated" / "bls12_381")),
        "dst": pop.DST.decode(), "message": message,
        "pk": pop.sk_to_pk(sk).hex(), "sig": pop.sign(sk, message.encode()).hex(),
        "other_pk": pop.sk_to_pk(other).hex(), "forged_sig": pop.sign(other, message.encode()).hex(),
        "p": P.to_bytes().hex(), "neg_p": (-P).to_bytes().hex(), "q": Q.to_bytes().hex(),
        "gt": C.pairing(P, Q).to_bytes().hex(), "outside_g1": point_outside_subgroup(C, C.G1).hex(),
        "agg_pks": [pop.sk_to_pk(sk).hex(), pop.sk_to_pk(other).hex()],
        "agg_sig": pop.aggregate([pop.sign(sk, message.encode()), pop.sign(other, message.encode())]).hex(),
    }
    # the protocol entry points: distinct messages, a precompile input, a Groth16 proof
    from generated.bls12_381 import eip2537

    agg_msgs = ["first", "second"]
    p2537 = P.to_bytes(False, "eip2537") + Q.to_bytes(False, "eip2537") + (-P).to_bytes(False, "eip2537") \
        + Q.to_bytes(False, "eip2537")
    prover = TestProver(C, 3)
    proof, inputs = prover.prove(3, 7)
    fixture.update({
        "sk": sk.to_bytes(32, "big").hex(), "agg_msgs": agg_msgs,
        "agg_distinct_sig": pop.aggregate([pop.sign(sk, agg_msgs[0].encode()),
                                           pop.sign(other, agg_msgs[1].encode())]).hex(),
        "eip2537_pairing": p2537.hex(), "eip2537_pairing_out": eip2537.run("PAIRING_CHECK", p2537)[0].hex(),
        "groth16_vk": prover.vk.to_bytes().hex(), "groth16_proof": proof.to_bytes().hex(),
        "groth16_tampered": C.groth16.Proof(proof.a, proof.b, -proof.c).to_bytes().hex(),
        "groth16_inputs": [x.to_bytes(32, "big").hex() for x in inputs],
    })
    assert eip2537.run("PAIRING_CHECK", p2537)[0][-1] == 1
    path = tmp_path / "fixture.json"
    path.write_text(json.dumps(fixture))
    proc = subprocess.run([node, "--test", str(TESTS_DIR / "js" / "wasm.test.mjs")], capture_output=True,
                          text=True, env={**os.environ, "PAIRFORGE_WASM_FIXTURE": str(path)}, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "# pass 6" in proc.stdout and "# fail 0" in proc.stdout, proc.stdout[-2000:]


@pytest.mark.parametrize("pkg", fq4_packages())
def test_node_loader_fq4(pkg, curve_module, tmp_path) -> None:
    """The loader of a curve with G2 over Fp4: G2 add/mul/decode/hash, the pairing and a pairing check
    under Node give the Python module's bytes."""
    node = shutil.which("node")
    if node is None:
        skip_or_fail("node is not installed (apt-get install nodejs)")
    pkg_dir, C = REPO_ROOT / "generated" / pkg, curve_module(pkg)
    P, Q, Q2 = C.G1.generator() * 1234567, C.G2.generator() * 7654321, C.G2.generator() * 42
    k = 0xC0FFEE
    dst = "QUUX-V01-CS02-with-" + C.G2.HASH_SUITE
    outside = point_outside_subgroup(C, C.G2)
    assert outside is not None  # G2's cofactor is not 1
    fixture = {
        "loader": (pkg_dir / "wasm" / f"{pkg}.mjs").as_uri(), "wasm": str(cached_wasm(pkg_dir)), "name": C.NAME,
        "p": P.to_bytes().hex(), "neg_p": (-P).to_bytes().hex(), "q": Q.to_bytes().hex(), "q2": Q2.to_bytes().hex(),
        "q_plus_q2": (Q + Q2).to_bytes().hex(), "k": k.to_bytes(len(C.Fr(0).to_bytes()), "big").hex(),
        "q_times_k": (Q * k).to_bytes().hex(), "q_uncompressed": Q.to_bytes(False).hex(), "dst": dst,
        "h2c": C.G2.hash_to_curve(b"abc", dst.encode()).to_bytes().hex(), "gt": C.pairing(P, Q).to_bytes().hex(),
        "outside_g2": outside.hex(),
    }
    path = tmp_path / "fixture.json"
    path.write_text(json.dumps(fixture))
    proc = subprocess.run([node, "--test", str(TESTS_DIR / "js" / "wasm_curve.test.mjs")], capture_output=True,
                          text=True, env={**os.environ, "PAIRFORGE_WASM_FIXTURE": str(path)}, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "# pass 4" in proc.stdout and "# fail 0" in proc.stdout, proc.stdout[-2000:]
