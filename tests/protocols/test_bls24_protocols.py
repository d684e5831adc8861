"""The protocol modules over G2 in Fp4: Groth16, KZG and BLS signatures on BLS24-317 (M-twist) and
BLS24-315 (D-twist, x < 0), and Groth16 and KZG on BW6-633 (their 2-chain partner, G2 over Fp), on
the installed packages (curves/ lists the protocols; these tests join the xdist groups of
tests/pairings/test_bls24_package.py and tests/derive/test_bw6_633.py, so one worker derives each
model: tests/bls24_util.py).

The checks are the shipped curves' own (those of tests/protocols/test_groth16.py, test_kzg.py and
test_bls_signatures.py), called here on these packages: tests/groth16_util.py's (its test-only
prover, TestProver, makes the proofs: there is no independent Groth16 prover for these curves
here), tests/kzg_util.py's (setups from a known tau) and tests/bls_util.py's (round trips,
tampering, batches, bad bytes); and the Dask entry points (distributed.py) on a local cluster, with
conftest's ``client`` fixture. What does not apply is refused with its reason: the snarkjs formats
(ffjavascript has no such curve) and the protocols defined for other curves.
"""

from __future__ import annotations

import dataclasses
import importlib
import random

import bls_util
import groth16_util
import kzg_util
import pytest
from bls24_util import BW6_633_PROTOCOLS, CURVE_PARAMS, PROTOCOLS, built

from generator.params import CurveFileError
from generator.protocols import PROTOCOLS as REGISTRY

# Every curve here, in the xdist group of the file that builds it.
PAIRING_CURVE_PARAMS = [*CURVE_PARAMS, pytest.param("bw6-633", marks=pytest.mark.xdist_group("bw6-633"))]
CARRIED = {"bls24-317": PROTOCOLS, "bls24-315": PROTOCOLS, "bw6-633": BW6_633_PROTOCOLS}


@pytest.fixture(scope="module", params=PAIRING_CURVE_PARAMS)
def curve(request):
    """(module, model) of each curve: BLS24-317, BLS24-315, BW6-633."""
    C, m, _ = built(request.param)
    return C, m


@pytest.fixture(scope="module")
def C(curve):
    return curve[0]


@pytest.fixture(scope="module", params=CURVE_PARAMS)
def bls24(request):
    """(module, model, reference) of each BLS24 curve (the BLS signature tests)."""
    return built(request.param)


# ------------------------------------------------------------------------------------------------
# Groth16


@pytest.fixture(scope="module")
def case(C) -> groth16_util.Case:
    """Three proofs of the test circuit under one key, and an unrelated key (test-only prover)."""
    return groth16_util.prover_case(C)


def test_groth16_valid_proofs_verify(case) -> None:
    groth16_util.check_valid_proofs_verify(case)


def test_groth16_tampered_proofs_fail(case) -> None:
    groth16_util.check_tampered_proofs_fail(case)


def test_groth16_points_outside_the_subgroup(case) -> None:
    groth16_util.check_points_outside_the_subgroup(case)


def test_groth16_public_input_checks(case) -> None:
    groth16_util.check_public_inputs(case)


def test_groth16_batch_verify(case) -> None:
    groth16_util.check_batch_verify(case)


def test_groth16_bytes(curve, case) -> None:
    """Keys and proofs round-trip in every profile, and truncated or padded bytes are refused;
    gnark's compressed points: one Fp (40 bytes at 315/317 bits, 80 at 633) per G2 coordinate
    coefficient (4 over Fp4)."""
    groth16_util.check_bytes_round_trip_every_profile(case)
    C, m = curve
    n1, n2 = len(C.G1.generator().to_bytes()), len(C.G2.generator().to_bytes())
    assert (n1, n2) == (m.fp.nbytes, m.fq_degree * m.fp.nbytes) and m.fp.nbytes == (m.p.bit_length() + 7) // 8
    assert len(case.proofs[0].to_bytes()) == 2 * n1 + n2
    assert len(case.proofs[0].to_bytes(False)) == 2 * (2 * n1 + n2)


def test_groth16_snarkjs_refused(C) -> None:
    """snarkjs (ffjavascript's getCurveFromQ) knows no curve with this p: its JSON is refused
    with that reason, as on BLS12-377 and BW6-761."""
    groth16_util.check_snarkjs_refused(C)


# ------------------------------------------------------------------------------------------------
# KZG


@pytest.fixture(scope="module")
def setup(C):
    return C.kzg.Setup.insecure_from_tau(kzg_util.TAU, kzg_util.N, g2_count=3)


def test_kzg_commit_open_verify(C, setup) -> None:
    kzg_util.check_commit_open_verify(C, setup)


def test_kzg_evaluation_form(C, setup) -> None:
    kzg_util.check_evaluation_form(C, setup)


@pytest.mark.parametrize("bad", ["first", "last"])
def test_kzg_batch_verify(C, setup, bad) -> None:
    kzg_util.check_batch_verify(C, setup, bad)


def test_kzg_input_errors(C, setup) -> None:
    kzg_util.check_input_errors(C, setup)


def test_kzg_bad_setups_refused(C, setup) -> None:
    kzg_util.check_bad_setups_refused(C, setup)


def test_kzg_setup_files(C, setup, tmp_path) -> None:
    """c-kzg's trusted_setup.txt (hex of the default profile's compressed points) and a .ptau
    whose G2 coordinates are the four Fp coefficients in the flat order, each n8 bytes."""
    kzg_util.check_trusted_setup_file(C, setup, tmp_path)
    kzg_util.check_ptau(C)


# ------------------------------------------------------------------------------------------------
# BLS signatures


def test_bls_ciphersuites(bls24) -> None:
    """draft-05 section 4.2: the IDs are built from the signature group's hash-to-curve suite
    (SVDW here), and the key and signature sizes are the default profile's compressed points."""
    C, m, _ = bls24
    for variant, sig in (("MinPk", "g2"), ("MinSig", "g1")):
        v = getattr(C.bls, variant)
        suite = m.h2c[sig].suite_ro
        assert "_SVDW_RO_" in suite
        assert v.Basic.CIPHERSUITE == f"BLS_SIG_{suite}NUL_" and v.Pop.POP_DST == f"BLS_POP_{suite}POP_".encode()
    assert (C.bls.MinPk.Pop.PK_BYTES, C.bls.MinPk.Pop.SIG_BYTES) == (40, 160)
    assert (C.bls.MinSig.Pop.PK_BYTES, C.bls.MinSig.Pop.SIG_BYTES) == (160, 40)


@pytest.mark.parametrize("variant", bls_util.VARIANTS)
@pytest.mark.parametrize("scheme", bls_util.SCHEMES)
def test_bls_round_trip_and_tampering(bls24, variant, scheme) -> None:
    C = bls24[0]
    bls_util.check_round_trip_and_tampering(C, C.bls, variant, scheme)


@pytest.mark.parametrize("variant", bls_util.VARIANTS)
def test_bls_batch_verify_rejects_one_bad_signature(bls24, variant) -> None:
    bls_util.check_batch_verify_rejects_one_bad_signature(bls24[0].bls, variant)


@pytest.mark.parametrize("variant", bls_util.VARIANTS)
def test_bls_bad_bytes_return_false(bls24, variant) -> None:
    C = bls24[0]
    bls_util.check_bad_bytes_return_false(C, C.bls, variant)


# ------------------------------------------------------------------------------------------------
# Dask (distributed.py, rendered for every curve): G2 points over Fp4 travel as bytes


def test_distributed(bls24, client) -> None:
    """MSM in both groups, Groth16 and BLS batch verification and KZG commitments with a client
    equal the local results; a forged proof or signature fails there too."""
    C = bls24[0]
    D = importlib.import_module(f"{C.__name__}.distributed")
    rng = random.Random(24)
    for G in (C.G1, C.G2):
        points = [G.generator() * rng.randrange(1, C.R) for _ in range(8)] + [G.identity()]
        scalars = [rng.randrange(C.R) for _ in range(9)]
        want = G.msm(points, scalars)
        assert D.msm(points, scalars, client=client, group=G.__name__, chunk=4) == want
        packed = b"".join(P.to_bytes(False) for P in points)
        assert D.msm(packed, scalars, client=client, group=G.__name__, chunk=2) == want
    g = C.groth16
    prover = groth16_util.TestProver(C, 3)
    made = [prover.prove(x, z) for x, z in groth16_util.WITNESSES]
    proofs, inputs = [p for p, _ in made], [ins for _, ins in made]
    assert g.batch_verify(prover.vk, proofs, inputs, client=client, chunk=2)
    forged = [proofs[0], g.Proof(proofs[1].a, proofs[1].b, proofs[1].c + C.G1.generator()), proofs[2]]
    assert not g.batch_verify(prover.vk, forged, inputs, client=client, chunk=2)
    S = C.bls.MinPk.Pop
    sks, pks = bls_util.keys(S, 5, b"dask")
    msgs = [b"m%d" % (i % 3) for i in range(5)]
    sigs = [S.sign(sk, m) for sk, m in zip(sks, msgs, strict=True)]
    assert S.batch_verify(pks, msgs, sigs, client=client, chunk=2)
    assert not S.batch_verify(pks, msgs, [*sigs[:4], S.sign(sks[4], b"other")], client=client, chunk=2)
    setup = C.kzg.Setup.insecure_from_tau(kzg_util.TAU, kzg_util.N)
    coeffs = [rng.randrange(C.R) for _ in range(11)]
    assert C.kzg.commit(setup, coeffs, client=client, chunk=4) == C.kzg.commit(setup, coeffs)


# ------------------------------------------------------------------------------------------------
# What the packages carry, and what is refused


# Registered protocols these curves cannot carry, each for a reason of its own definition: EIP-4844
# names BLS12-381's r, each EVM precompile set one family (EIP-196/197 BN, EIP-2537/2539 BLS12,
# EIP-3026 BW6), ark-vrf's suites twisted Edwards curves. (EIP-2333 needs only r: it applies, as its
# module says, but these packages do not carry it.)
REFUSED = {"ecvrf": "twisted Edwards", "eip4844": "BLS_MODULUS", "eip197": "BN family",
           "eip2537": "BLS12 family", "eip2539": "BLS12 family", "eip3026": "BW6 family"}


def test_protocols_carried(curve) -> None:
    """Each package carries exactly the protocols its test build asks for, each one the curve can
    carry by its protocol's own derived check."""
    C, m = curve
    carried = CARRIED[m.name.lower()]
    assert set(C.PROTOCOLS) == set(carried)
    for name in carried:
        assert REGISTRY[name].unsupported(m) is None, name


def test_protocols_refused(bls24) -> None:
    """Every other registered protocol is refused on BLS24 by its own derived reason when a curve
    file asks for it."""
    from generator.emit.context import protocol_files

    _, m, _ = bls24
    assert set(REGISTRY) == set(PROTOCOLS) | set(REFUSED) | {"eip2333"}
    assert REGISTRY["eip2333"].unsupported(m) is None
    for name, why in REFUSED.items():
        assert why in REGISTRY[name].unsupported(m), name
        spec = dataclasses.replace(m.spec, protocols=(name,))
        with pytest.raises(CurveFileError, match=f"cannot carry {name!r}: .*{why}"):
            protocol_files(dataclasses.replace(m, spec=spec), {}, lambda _msg: None)
