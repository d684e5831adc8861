"""EIP-7594 (PeerDAS) in generated.bls12_381.eip4844 against every case of c-kzg-4844's reference
tests for compute_cells, compute_cells_and_kzg_proofs, recover_cells_and_kzg_proofs and
verify_cell_kzg_proof_batch (tests_full.tar.xz, read in place once per module), and against ckzg
on a random blob; the G1 FFT under FK20's cell proofs against the quadratic transform.  The
first cell-proof call makes the setup's FK20 table (about 2 s); each later blob takes well under
a second."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from kzg_vectors import hex_bytes as _hex
from kzg_vectors import read_cases

EIP7594_FUNCTIONS = {  # function -> number of cases in the archive
    "compute_cells": 11,
    "compute_cells_and_kzg_proofs": 11,
    "recover_cells_and_kzg_proofs": 18,
    "verify_cell_kzg_proof_batch": 32,
}


@pytest.fixture(scope="module")
def setup_file(vector_file) -> Path:
    """c-kzg-4844's trusted_setup.txt (stored xz-compressed; this is a plain copy)."""
    return vector_file("eip4844_kzg", "trusted_setup.txt")


@pytest.fixture(scope="module")
def eip4844(curve_module):
    return curve_module("bls12_381").eip4844


@pytest.fixture(scope="module")
def trusted_setup(eip4844, setup_file):
    return eip4844.load_trusted_setup(str(setup_file))


@pytest.fixture(scope="module")
def cases() -> dict[str, list[tuple[str, Any]]]:
    return read_cases(EIP7594_FUNCTIONS)



def _hexes(items: list[bytes]) -> list[str]:
    return ["0x" + x.hex() for x in items]


def _call(E, ts, function: str, inp: dict[str, Any]) -> Any:
    if function == "compute_cells":
        return _hexes(E.compute_cells(_hex(inp["blob"]), ts))
    if function == "compute_cells_and_kzg_proofs":
        cells, proofs = E.compute_cells_and_kzg_proofs(_hex(inp["blob"]), ts)
        return [_hexes(cells), _hexes(proofs)]
    if function == "recover_cells_and_kzg_proofs":
        cells, proofs = E.recover_cells_and_kzg_proofs(inp["cell_indices"], [_hex(c) for c in inp["cells"]], ts)
        return [_hexes(cells), _hexes(proofs)]
    if function == "verify_cell_kzg_proof_batch":
        return E.verify_cell_kzg_proof_batch([_hex(c) for c in inp["commitments"]], inp["cell_indices"],
                                             [_hex(c) for c in inp["cells"]], [_hex(p) for p in inp["proofs"]], ts)
    raise AssertionError(function)


@pytest.mark.parametrize("function", sorted(EIP7594_FUNCTIONS))
def test_reference_vectors(eip4844, trusted_setup, cases, function):
    found = cases[function]
    assert len(found) == EIP7594_FUNCTIONS[function]
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
                failures.append(f"{name}: expected ValueError, got {str(got):.120}")
        elif got != expected:
            failures.append(f"{name}: expected {str(expected):.120}, got {str(got):.120}")
    assert not failures, "\n".join(failures)
    assert invalid < len(found)


def test_against_ckzg(eip4844, trusted_setup, setup_file):
    """A random blob: cells and proofs equal ckzg's; recovery from the odd half of the cells; a
    batch of 128 cells verifies, and fails with one wrong cell at the first, middle, last place."""
    ckzg = pytest.importorskip("ckzg")
    E, ts = eip4844, trusted_setup
    cts = ckzg.load_trusted_setup(str(setup_file), 0)
    rng = random.Random(7594)
    r = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
    blob = b"".join(rng.randrange(r).to_bytes(32, "big") for _ in range(E.FIELD_ELEMENTS_PER_BLOB))
    cells, proofs = E.compute_cells_and_kzg_proofs(blob, ts)
    theirs = ckzg.compute_cells_and_kzg_proofs(blob, cts)
    assert (list(cells), list(proofs)) == (list(theirs[0]), list(theirs[1]))
    idx = list(range(1, E.CELLS_PER_EXT_BLOB, 2))
    assert E.recover_cells_and_kzg_proofs(idx, [cells[i] for i in idx], ts) == (cells, proofs)
    commitment = E.blob_to_kzg_commitment(blob, ts)
    all_idx = list(range(E.CELLS_PER_EXT_BLOB))
    assert E.verify_cell_kzg_proof_batch([commitment] * 128, all_idx, cells, proofs, ts)
    for bad in (0, 64, 127):
        wrong = list(cells)
        wrong[bad] = cells[(bad + 1) % 128]
        assert not E.verify_cell_kzg_proof_batch([commitment] * 128, all_idx, wrong, proofs, ts)


def test_g1_fft_matches_the_quadratic_transform(eip4844):
    """_g1_fft (FK20's transforms over points) equals sum_j P_j w^(ij) computed as MSMs, and the
    transform with w^-1 undoes it up to the factor n."""
    E = eip4844
    G1, Fr = E.G1, E.Fr
    rng = random.Random(4844)
    for n in (2, 4, 16):
        points = [G1.generator().mul_vartime(rng.randrange(1, E.R)) for _ in range(n)]
        points[1] = G1.identity()
        w = Fr.root_of_unity(n)
        got = E._g1_fft(points, w)
        assert got == [G1.msm(points, [w ** (i * j) for j in range(n)], threads=1) for i in range(n)]
        assert E._g1_fft(got, w.inverse()) == [P.mul_vartime(n) for P in points]


def test_interpolate_cosets_gives_the_weighted_inverse_coset_ffts(eip4844):
    """The verifier's aggregated interpolant (Fr.interpolate_cosets on cells in bit-reversed
    order) is sum_k r_k times the inverse FFT over cell k's coset, for cells of several indices,
    two of them on one index (summed before their transform)."""
    E = eip4844
    Fr = E.Fr
    rng = random.Random(7)
    m = E.FIELD_ELEMENTS_PER_CELL
    perm = E._bit_reversal(m)
    cells = (0, 1, 77, 127, 77)
    rows = [[Fr(rng.randrange(E.R)) for _ in range(m)] for _ in cells]
    weights = [rng.randrange(1, 1 << 128) for _ in cells]
    expected = [Fr(0)] * m
    for cell, values, w in zip(cells, rows, weights, strict=True):
        natural = [values[perm[j]] for j in range(m)]  # bit-reversed order inside the coset
        coeffs = Fr.fft(natural, inverse=True, coset=E._coset_shift(cell))
        expected = [e + w * c for e, c in zip(expected, coeffs, strict=True)]
    data = b"".join(Fr.vector_to_bytes(values) for values in rows)
    assert Fr.interpolate_cosets(data, [E._coset_shift(i) for i in cells], weights, bit_reversed=True) == expected


def test_verify_cell_batch_names_the_bad_proof(eip4844, trusted_setup, curve_module):
    """A proof off the subgroup (on the curve) at index 5 of a batch is a ValueError naming
    proofs[5]; the batch decoding falls back to one-by-one decoding for the message."""
    E, ts = eip4844, trusted_setup
    G1, Fp = E.G1, curve_module("bls12_381").Fp
    x = 1
    while True:
        rhs = Fp(x) ** 3 + 4
        if rhs.is_square():
            outside = G1.from_affine(x, int(rhs.sqrt()), check=False)
            if not outside.in_subgroup():
                break
        x += 1
    rng = random.Random(75)
    blob = b"".join(rng.randrange(E.R).to_bytes(32, "big") for _ in range(E.FIELD_ELEMENTS_PER_BLOB))
    cells, proofs = E.compute_cells_and_kzg_proofs(blob, ts)
    commitment = E.blob_to_kzg_commitment(blob, ts)
    idx = list(range(8))
    bad = list(proofs[:8])
    bad[5] = outside.to_bytes()
    with pytest.raises(ValueError, match=r"proofs\[5\].*subgroup"):
        E.verify_cell_kzg_proof_batch([commitment] * 8, idx, cells[:8], bad, ts)
    assert E.verify_cell_kzg_proof_batch([commitment] * 8, idx, cells[:8], proofs[:8], ts)


def test_fk20_table_at_load_and_in_threads(eip4844, setup_file, trusted_setup):
    """load_trusted_setup(fk20=True) makes FK20's table at load, on two threads, equal to the one
    made on one thread on first use; the cell proofs from it are the same."""
    E = eip4844
    eager = E.load_trusted_setup(str(setup_file), fk20=True, threads=2)
    assert eager._fk20 is not None
    assert eager._fk20 == E._fk20_points(trusted_setup, 1)
    rng = random.Random(20)
    blob = b"".join(rng.randrange(E.R).to_bytes(32, "big") for _ in range(E.FIELD_ELEMENTS_PER_BLOB))
    lazy = E.compute_cells_and_kzg_proofs(blob, trusted_setup, threads=1)
    assert E.compute_cells_and_kzg_proofs(blob, eager, threads=2) == lazy


def test_fk20_tables_match_plain_msms(eip4844, trusted_setup, curve_module):
    """With load_trusted_setup's default precompute the setup holds a fixed-base table per FK20
    MSM, at the width the cost model picks for 64 bases; each gives the plain MSM's point on its
    bases (all scalars, fewer scalars than bases, zero and r - 1 among them), on one and two
    threads, with the IFMA kernel and without it; and the setup's tables stay within 64 MiB."""
    E = eip4844
    core = curve_module("bls12_381")._impl
    G1 = E.G1
    points = E._fk20_points(trusted_setup, 1)
    tables = trusted_setup._fk20_tables
    m = E.FIELD_ELEMENTS_PER_CELL
    assert tables is not None and len(tables) == len(points) == 2 * (E.FIELD_ELEMENTS_PER_BLOB // m)
    assert {(t.size, t.width) for t in tables} == {(m, core._G1MSMTable.best_width(m))}
    assert trusted_setup.table_bytes == trusted_setup._table.nbytes + sum(t.nbytes for t in tables)
    assert trusted_setup.table_bytes <= 64 << 20
    rng = random.Random(64)
    was_on = core._msm_ifma()
    try:
        for ifma in sorted({was_on, False}):
            core._msm_ifma(ifma)
            for f in (0, 1, 77, 127):
                for count in (m, 17, 1):
                    scalars = [rng.randrange(E.R) for _ in range(count)]
                    scalars[0] = E.R - 1
                    if count > 1:
                        scalars[1] = 0
                    expected = G1.msm(points[f][:count], scalars, threads=1)
                    for threads in (1, 2):
                        assert tables[f].msm(scalars, threads=threads) == expected, (ifma, f, count, threads)
    finally:
        core._msm_ifma(was_on)


@pytest.mark.slow
@pytest.mark.parametrize("precompute", [0, 9])
def test_cell_proofs_with_and_without_fk20_tables(eip4844, trusted_setup, precompute, curve_module):
    """The cells and proofs (and a recovery) of a setup without FK20 tables (precompute=0) and of
    one with 9-bit tables equal those of the default setup, with the IFMA kernel and without it
    (a new setup makes its own FK20 points: about 2 s)."""
    E = eip4844
    core = curve_module("bls12_381")._impl
    other = E.TrustedSetup(trusted_setup.setup, precompute=precompute, threads=2)
    rng = random.Random(7594 + precompute)
    blob = b"".join(rng.randrange(E.R).to_bytes(32, "big") for _ in range(E.FIELD_ELEMENTS_PER_BLOB))
    expected = E.compute_cells_and_kzg_proofs(blob, trusted_setup, threads=2)
    got = E.compute_cells_and_kzg_proofs(blob, other, threads=2)
    assert (other._fk20_tables is None) == (precompute == 0)
    assert precompute == 0 or {t.width for t in other._fk20_tables} == {precompute}
    assert got == expected
    was_on = core._msm_ifma()
    try:
        core._msm_ifma(False)
        assert E.compute_cells_and_kzg_proofs(blob, other, threads=1) == expected
    finally:
        core._msm_ifma(was_on)
    idx = list(range(0, E.CELLS_PER_EXT_BLOB, 2))
    assert E.recover_cells_and_kzg_proofs(idx, [expected[0][i] for i in idx], other, threads=2) == expected
