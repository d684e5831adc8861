"""Checks of an installed pairforge, run by packaging/wheel_smoke.py inside a fresh venv outside
the repository (this file is copied there; it imports nothing from the checkout).

    python smoke_checks.py imports               every curve imports and passes its self-test
    python smoke_checks.py protocols VECTORS     BLS, Groth16 (snarkjs), EIP-4844 (against ckzg), ECVRF
    python smoke_checks.py selftest PKG [PKG...]  the self-test of standalone curve packages

VECTORS is the repository's tests/vectors folder. Each check prints one line; any failure raises.

Layer: tools (packaging/), above the generator: imports the standard library and the installed
pairforge (wheel_smoke.py also generator.wheel); the generator never imports it.
"""

from __future__ import annotations

import importlib
import json
import lzma
import os
import pkgutil
import shutil
import sys
import tempfile
from pathlib import Path


def check_no_compiler() -> None:
    """The first stage runs where no compiler can be found: an import that tried one would fail."""
    found = [name for name in ("gcc", "cc", "clang") if shutil.which(name)]
    assert not found, f"a C compiler is on PATH: {found}"
    assert os.environ.get("CC") == "false", "CC should be false"


def imports() -> None:
    check_no_compiler()
    for blocked in ("sympy", "jinja2", "Cython", "gmpy2", "rich"):
        assert importlib.util.find_spec(blocked) is None, f"{blocked} is installed: install the wheel with --no-deps"
    import generated

    packages = sorted(m.name for m in pkgutil.iter_modules(generated.__path__))
    assert len(packages) >= 12, packages
    for name in packages:
        package = importlib.import_module(f"generated.{name}")
        importlib.import_module(f"generated.{name}.selftest").run(say=lambda line: None)
        where = Path(package.__file__).parent
        assert not list(where.glob("*.pyx")) and not (where / "c").exists(), f"{name}: the wheel ships sources"
        print(f"{name}: imported ({package.TARGET}), self-test passed")


def protocols(vectors: Path) -> None:
    from generated import bandersnatch, bls12_381, bn254

    # BLS: an Ethereum consensus vector (a valid signature, then a tampered one)
    verify_dir = vectors / "bls12381_sig_ethereum_bls12-381-tests_v0.1.2" / "verify"
    checked = 0
    for path in sorted(verify_dir.glob("verify_*.json")):
        case = json.loads(path.read_text())
        args = [bytes.fromhex(case["input"][k][2:]) for k in ("pubkey", "message", "signature")]
        assert bls12_381.bls.MinPk.Pop.verify(*args) is case["output"], path.name
        checked += 1
    assert checked >= 2
    print(f"bls: {checked} verify vectors")

    # Groth16: snarkjs's own proof
    snark = vectors / "snarkjs_groth16_bn254"
    vk, proof, inputs = bn254.groth16.from_snarkjs(
        *(str(snark / f) for f in ("verification_key.json", "proof.json", "public.json")))
    assert bn254.groth16.verify(vk, proof, inputs) is True
    assert bn254.groth16.verify(vk, proof, [inputs[0] + 1, *inputs[1:]]) is False
    print("groth16: the snarkjs proof verifies, a changed input does not")

    # EIP-4844 with the built-in mainnet setup, against ckzg with c-kzg's file
    import ckzg

    eip = bls12_381.eip4844
    setup = eip.load_trusted_setup()
    blob = b"".join(((i * 0x9E3779B97F4A7C15 + 7) ** 3 % eip.R).to_bytes(32, "big") for i in range(eip.FIELD_ELEMENTS_PER_BLOB))
    with tempfile.TemporaryDirectory() as tmp:
        setup_txt = Path(tmp) / "trusted_setup.txt"
        setup_txt.write_bytes(lzma.decompress((vectors / "eip4844_kzg" / "trusted_setup.txt.xz").read_bytes()))
        theirs = ckzg.blob_to_kzg_commitment(blob, ckzg.load_trusted_setup(str(setup_txt), 0))
    ours = eip.blob_to_kzg_commitment(blob, setup)
    assert ours == theirs, (ours.hex(), theirs.hex())
    print(f"eip4844: blob_to_kzg_commitment with the built-in setup equals ckzg's ({ours.hex()[:16]}...)")

    # ECVRF: ark-vrf's vector, proof bytes and verification
    v = json.loads((vectors / "edwards_companions" / "ark-vrf" / "bandersnatch_sha-512_ell2_tiny.json").read_text())[1]
    suite = "Bandersnatch-SHA512-ELL2-v1"
    vrf = bandersnatch.ecvrf
    sk, alpha, ad = (bytes.fromhex(v[k]) for k in ("sk", "alpha", "ad"))
    pi = vrf.prove(sk, alpha, ad, suite)
    assert pi.hex() == v["gamma"] + v["proof_c"] + v["proof_s"]
    assert vrf.verify(vrf.public_key(sk, suite), alpha, ad, pi, suite) is True
    print("ecvrf: ark-vrf's proof reproduced and verified")


def selftest(packages: list[str]) -> None:
    for name in packages:
        importlib.import_module(f"{name}.selftest").run()


if __name__ == "__main__":
    stage, *rest = sys.argv[1:]
    if stage == "imports":
        imports()
    elif stage == "protocols":
        protocols(Path(rest[0]))
    elif stage == "selftest":
        selftest(rest)
    else:
        sys.exit(f"unknown stage {stage!r}")
