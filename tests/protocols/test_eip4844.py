"""generated.bls12_381.eip4844 against every EIP-4844 case of c-kzg-4844's reference tests
(tests/vectors/eip4844_kzg/tests_full.tar.xz, read in place, parsed once per session: about
10 s), and against the ckzg binding on random blobs where it installs."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from kzg_vectors import hex_bytes as _hex
from kzg_vectors import read_cases

EIP4844_FUNCTIONS = {  # function -> number of cases in the archive (its README)
    "blob_to_kzg_commitment": 11,
    "compute_kzg_proof": 52,
    "compute_blob_kzg_proof": 15,
    "verify_kzg_proof": 122,
    "verify_blob_kzg_proof": 29,
    "verify_blob_kzg_proof_batch": 24,
    "compute_challenge": 9,
}


@pytest.fixture(scope="session")
def setup_file(vector_file) -> Path:
    """c-kzg-4844's trusted_setup.txt (stored xz-compressed; this is a plain copy)."""
    return vector_file("eip4844_kzg", "trusted_setup.txt")


@pytest.fixture(scope="session")
def eip4844(curve_module):
    return curve_module("bls12_381").eip4844


@pytest.fixture(scope="session")
def trusted_setup(eip4844, setup_file):
    return eip4844.load_trusted_setup(str(setup_file))


@pytest.fixture(scope="session")
def plain_setup(eip4844, trusted_setup):
    """The same points without the fixed-base table (precompute=0): every MSM a plain one."""
    return eip4844.TrustedSetup(trusted_setup.setup, precompute=0)


@pytest.fixture(scope="session")
def cases() -> dict[str, list[tuple[str, Any]]]:
    """{function: [(case name, parsed data.yaml)]} for the EIP-4844 functions, from the archive."""
    start = time.perf_counter()
    out = read_cases(EIP4844_FUNCTIONS)
    print(f"parsed the EIP-4844 cases in {time.perf_counter() - start:.1f} s")
    return out



def _call(E, ts, function: str, inp: dict[str, Any]) -> Any:
    """The function on the case's input, its output in the vectors' form (hex strings, bools)."""
    if function == "blob_to_kzg_commitment":
        return "0x" + E.blob_to_kzg_commitment(_hex(inp["blob"]), ts).hex()
    if function == "compute_kzg_proof":
        proof, y = E.compute_kzg_proof(_hex(inp["blob"]), _hex(inp["z"]), ts)
        return ["0x" + proof.hex(), "0x" + y.hex()]
    if function == "compute_blob_kzg_proof":
        return "0x" + E.compute_blob_kzg_proof(_hex(inp["blob"]), _hex(inp["commitment"]), ts).hex()
    if function == "verify_kzg_proof":
        return E.verify_kzg_proof(_hex(inp["commitment"]), _hex(inp["z"]), _hex(inp["y"]), _hex(inp["proof"]), ts)
    if function == "verify_blob_kzg_proof":
        return E.verify_blob_kzg_proof(_hex(inp["blob"]), _hex(inp["commitment"]), _hex(inp["proof"]), ts)
    if function == "verify_blob_kzg_proof_batch":
        blobs = [_hex(b) for b in inp["blobs"]]
        commitments = [_hex(c) for c in inp["commitments"]]
        proofs = [_hex(p) for p in inp["proofs"]]
        return E.verify_blob_kzg_proof_batch(blobs, commitments, proofs, ts)
    if function == "compute_challenge":
        return "0x" + E.compute_challenge(_hex(inp["blob"]), _hex(inp["commitment"])).hex()
    raise AssertionError(function)


# the functions whose MSM takes the fixed-base table where the setup has one
MSM_FUNCTIONS = ("blob_to_kzg_commitment", "compute_kzg_proof", "compute_blob_kzg_proof")


@pytest.mark.parametrize("function", sorted(EIP4844_FUNCTIONS))
def test_reference_vectors(eip4844, trusted_setup, cases, function):
    """Every case: the output byte for byte, or ValueError where the expected output is null (the
    setup of load_trusted_setup's default, with its fixed-base table)."""
    assert trusted_setup.precompute > 0 and trusted_setup.table_bytes > 0
    _check_vectors(eip4844, trusted_setup, cases, function)


@pytest.mark.parametrize("function", MSM_FUNCTIONS)
def test_reference_vectors_without_table(eip4844, plain_setup, cases, function):
    """The cases of the functions with an MSM also hold with precompute=0 (plain MSMs)."""
    assert plain_setup.precompute == 0 and plain_setup.table_bytes == 0
    _check_vectors(eip4844, plain_setup, cases, function)


def _check_vectors(eip4844, trusted_setup, cases, function: str) -> None:
    found = cases[function]
    assert len(found) == EIP4844_FUNCTIONS[function]
    failures = []
    invalid = 0
    for name, data in found:
        expected = data["output"]
        try:
            got = _call(eip4844, trusted_setup, function, data["input"])
        except ValueError as exc:
            got = ("ValueError", str(exc))
        if expected is None:
            invalid += 1
            if not (isinstance(got, tuple) and got[0] == "ValueError"):
                failures.append(f"{name}: expected ValueError, got {got!r:.120}")
        elif got != expected:
            failures.append(f"{name}: expected {expected!r:.120}, got {got!r:.120}")
    assert not failures, "\n".join(failures)
    assert invalid < len(found)  # each function has valid cases as well


def test_batch_accepts_concatenated_bytes(eip4844, trusted_setup, cases):
    """ckzg's form of the batch arguments (one bytes object each) gives the same answers."""
    for name, data in cases["verify_blob_kzg_proof_batch"]:
        inp = data["input"]
        if data["output"] is None:
            continue
        joined = [b"".join(_hex(x) for x in inp[k]) for k in ("blobs", "commitments", "proofs")]
        assert eip4844.verify_blob_kzg_proof_batch(*joined, trusted_setup) is data["output"], name


def test_entry_errors(eip4844, trusted_setup):
    E, ts = eip4844, trusted_setup
    blob = bytes(E.BYTES_PER_BLOB)
    commitment = E.blob_to_kzg_commitment(blob, ts)
    with pytest.raises(ValueError, match="blob: expected 131072 bytes"):
        E.blob_to_kzg_commitment(blob[:-1], ts)
    with pytest.raises(ValueError, match="element 3 is not canonical"):
        E.blob_to_kzg_commitment(bytes(96) + b"\xff" * 32 + bytes(E.BYTES_PER_BLOB - 128), ts)
    with pytest.raises(ValueError, match="z: not a canonical"):
        E.compute_kzg_proof(blob, b"\xff" * 32, ts)
    with pytest.raises(ValueError, match="2 blobs, 1 commitments and 2 proofs"):
        E.verify_blob_kzg_proof_batch([blob, blob], [commitment], [commitment, commitment], ts)
    with pytest.raises(TypeError, match="trusted setup"):
        E.blob_to_kzg_commitment(blob, object())
    with pytest.raises(ValueError, match="precompute"):
        E.load_trusted_setup("unused", 99)


def test_setup_with_a_bad_point_refused(eip4844, setup_file, tmp_path):
    """A trusted setup whose monomial G1 point 5 is replaced by another point is refused: the
    points are no longer powers of one tau (and a non-point is refused by decoding)."""
    lines = setup_file.read_text().split("\n")
    n1, n2 = int(lines[0]), int(lines[1])
    swapped = list(lines)
    j = 2 + n1 + n2 + 5
    swapped[j], swapped[j + 1] = swapped[j + 1], swapped[j]
    path = tmp_path / "swapped.txt"
    path.write_text("\n".join(swapped))
    with pytest.raises(ValueError, match="not powers"):
        eip4844.load_trusted_setup(str(path))
    broken = list(lines)
    broken[2 + 7] = "a" + broken[2 + 7][1:]  # Lagrange point 7: flags byte changed
    path.write_text("\n".join(broken))
    with pytest.raises(ValueError, match=r"g1_lagrange\[7\]"):
        eip4844.load_trusted_setup(str(path))


def test_against_ckzg(eip4844, trusted_setup, setup_file):
    """Random blobs: every function byte-identical with ckzg (c-kzg-4844 over blst)."""
    ckzg = pytest.importorskip("ckzg")
    E, ts = eip4844, trusted_setup
    cts = ckzg.load_trusted_setup(str(setup_file), 0)
    rng = random.Random(4844)
    r = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
    blobs = [b"".join(rng.randrange(r).to_bytes(32, "big") for _ in range(E.FIELD_ELEMENTS_PER_BLOB)) for _ in range(3)]
    commitments, proofs = [], []
    for blob in blobs:
        c = E.blob_to_kzg_commitment(blob, ts)
        assert c == ckzg.blob_to_kzg_commitment(blob, cts)
        for z in (rng.randrange(r).to_bytes(32, "big"), ts.roots_brp[rng.randrange(4096)].to_bytes()):
            proof, y = E.compute_kzg_proof(blob, z, ts)
            assert (proof, y) == tuple(ckzg.compute_kzg_proof(blob, z, cts))
            assert E.verify_kzg_proof(c, z, y, proof, ts) is ckzg.verify_kzg_proof(c, z, y, proof, cts) is True
        p = E.compute_blob_kzg_proof(blob, c, ts)
        assert p == ckzg.compute_blob_kzg_proof(blob, c, cts)
        assert E.verify_blob_kzg_proof(blob, c, p, ts) is True
        commitments.append(c)
        proofs.append(p)
    assert E.verify_blob_kzg_proof_batch(blobs, commitments, proofs, ts) is True
    for bad in (0, 1, 2):  # one wrong proof at the first, middle and last position
        wrong = list(proofs)
        wrong[bad] = proofs[(bad + 1) % 3]
        assert E.verify_blob_kzg_proof_batch(blobs, commitments, wrong, ts) is False
        assert ckzg.verify_blob_kzg_proof_batch(b"".join(blobs), b"".join(commitments), b"".join(wrong), cts) is False


def test_the_built_in_setup_is_c_kzgs_file(eip4844, trusted_setup, vector_file) -> None:
    """load_trusted_setup() with no file gives Ethereum's mainnet setup: the package's copy is
    c-kzg's trusted_setup.txt (tests/vectors) byte for byte, its points equal the file's point for
    point, and the loaded object is checked once and then reused."""
    import lzma

    from generator.protocols import data_file

    package_copy = Path(eip4844.__file__).with_name(eip4844.MAINNET_TRUSTED_SETUP).read_bytes()
    vectors_copy = vector_file("eip4844_kzg", "trusted_setup.txt").read_bytes()
    assert lzma.decompress(package_copy) == vectors_copy
    assert data_file("ethereum_mainnet_trusted_setup.txt.xz") == package_copy  # what the generator renders
    built_in = eip4844.load_trusted_setup()
    assert eip4844.load_trusted_setup() is built_in
    for name in ("g1", "g2", "g1_lagrange"):
        assert list(getattr(built_in.setup, name)) == list(getattr(trusted_setup.setup, name)), name
    assert built_in.g1_lagrange_brp == trusted_setup.g1_lagrange_brp
    blob = b"".join(random.Random(7).randrange(eip4844.R).to_bytes(32, "big") for _ in range(eip4844.FIELD_ELEMENTS_PER_BLOB))
    assert eip4844.blob_to_kzg_commitment(blob, built_in) == eip4844.blob_to_kzg_commitment(blob, trusted_setup)
    with pytest.raises(ValueError, match="precompute"):
        eip4844.load_trusted_setup(precompute=16)
    assert eip4844.load_trusted_setup(precompute=0) is eip4844.load_trusted_setup(precompute=0) is not built_in
    assert eip4844.load_trusted_setup(precompute=0).setup is built_in.setup  # the points checked once


@pytest.mark.parametrize("bad", [1, 2, 3, 16, -1, True, 8.0, "8"])
def test_bad_precompute_refused(eip4844, trusted_setup, bad):
    """A precompute outside None, 0 and [4, 15] (or not an int) is a ValueError that names it, from
    load_trusted_setup (before the file is read) and from TrustedSetup."""
    with pytest.raises(ValueError, match=r"precompute must be None, 0 \(no table\) or an int in \[4, 15\], got"):
        eip4844.load_trusted_setup("no such file", precompute=bad)
    with pytest.raises(ValueError, match="TrustedSetup: precompute"):
        eip4844.TrustedSetup(trusted_setup.setup, precompute=bad)


def _blobs(E, seed: int) -> list[bytes]:
    """A random blob, the zero blob, and a blob of small values with zeros among them."""
    rng = random.Random(seed)
    r = E.R
    full = b"".join(rng.randrange(r).to_bytes(32, "big") for _ in range(E.FIELD_ELEMENTS_PER_BLOB))
    small = b"".join((rng.randrange(3) * rng.randrange(1 << 20)).to_bytes(32, "big") for _ in range(E.FIELD_ELEMENTS_PER_BLOB))
    return [full, bytes(E.BYTES_PER_BLOB), small]


@pytest.mark.parametrize("width", [13, None])
def test_precomputed_table_matches_plain_msm(curve_module, eip4844, trusted_setup, plain_setup, setup_file, width):
    """Commitments and proofs with a fixed-base table (the width the cost model picks here, and
    13) equal those without one, on one and three threads, with the IFMA kernel and without it
    (where the module has it), and equal ckzg's bytes where it installs."""
    E = eip4844
    core = curve_module("bls12_381")._impl
    ts = trusted_setup if width is None else E.TrustedSetup(trusted_setup.setup, precompute=width, threads=2)
    assert ts.precompute == (width or core._G1MSMTable.best_width(E.FIELD_ELEMENTS_PER_BLOB))
    blobs = _blobs(E, 7594 + (width or 0))
    expected = []
    for blob in blobs:
        c = E.blob_to_kzg_commitment(blob, plain_setup, threads=1)
        z = E.compute_challenge(blob, c)
        expected.append((c, E.compute_blob_kzg_proof(blob, c, plain_setup), E.compute_kzg_proof(blob, z, plain_setup)))
    ckzg = None
    try:
        import ckzg
    except ImportError:
        pass
    if ckzg is not None:
        cts = ckzg.load_trusted_setup(str(setup_file), 0)
        for blob, (c, p, (pz, y)) in zip(blobs, expected, strict=True):
            assert c == ckzg.blob_to_kzg_commitment(blob, cts)
            assert p == ckzg.compute_blob_kzg_proof(blob, c, cts)
            assert (pz, y) == tuple(ckzg.compute_kzg_proof(blob, E.compute_challenge(blob, c), cts))
    was_on = core._msm_ifma()
    try:
        for ifma in sorted({was_on, False}):
            core._msm_ifma(ifma)
            for threads in (1, 3):
                for blob, (c, p, (pz, y)) in zip(blobs, expected, strict=True):
                    assert E.blob_to_kzg_commitment(blob, ts, threads=threads) == c, (ifma, threads)
                    assert E.compute_blob_kzg_proof(blob, c, ts, threads=threads) == p, (ifma, threads)
                    assert E.compute_kzg_proof(blob, E.compute_challenge(blob, c), ts, threads=threads) == (pz, y)
    finally:
        core._msm_ifma(was_on)
