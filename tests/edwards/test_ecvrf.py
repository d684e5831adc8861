"""ark-vrf's IETF-style VRF (generated/<curve>/ecvrf.py) against every ``*_tiny.json`` and ``*_thin.json`` vector of
tests/vectors/edwards_companions/ark-vrf (davxy/ark-vrf @ 9ec593e9): the input point h, pk,
gamma, beta and the proof (c, s), byte for byte; and rejection of tampered proofs, outputs, keys
and inputs. The Bandersnatch SW suite runs on SWPoint (33-byte points)."""

from __future__ import annotations

import pytest
from conftest import REPO_ROOT, load_curve_module
from hypothesis import given, settings
from hypothesis import strategies as st
from vectors_util import read_vector_json

# vector file prefix -> (package, suite id)
SUITES = {
    "bandersnatch_sha-512_ell2": ("bandersnatch", "Bandersnatch-SHA512-ELL2-v1"),
    "bandersnatch_shake128_ell2": ("bandersnatch", "Bandersnatch-SHAKE128-ELL2-v1"),
    "bandersnatch_sw_sha-512_tai": ("bandersnatch", "Bandersnatch-SW-SHA512-TAI-v1"),
    "jubjub_sha-512_tai": ("jubjub", "JubJub-SHA512-TAI-v1"),
    "baby-jubjub_sha-512_tai": ("babyjubjub", "BabyJubJub-SHA512-TAI-v1"),
}


def cases(prefix: str) -> list[dict]:
    data = read_vector_json("edwards_companions", f"ark-vrf/{prefix}_tiny.json")
    assert len(data) == 7
    return data


@pytest.mark.parametrize("prefix", sorted(SUITES))
def test_tiny_vectors(prefix: str) -> None:
    pkg, suite = SUITES[prefix]
    vrf = load_curve_module(pkg).ecvrf
    for v in cases(prefix):
        sk, alpha, ad = bytes.fromhex(v["sk"]), bytes.fromhex(v["alpha"]), bytes.fromhex(v["ad"])
        assert vrf.encode_point(vrf.hash_to_curve(alpha, suite), suite).hex() == v["h"], v["comment"]
        pk = vrf.public_key(sk, suite)
        assert pk.hex() == v["pk"]
        assert vrf.output(sk, alpha, suite).hex() == v["gamma"]
        pi = vrf.prove(sk, alpha, ad, suite)
        gamma, c, s = vrf.split_proof(pi, suite)
        assert (gamma.hex(), c.hex(), s.hex()) == (v["gamma"], v["proof_c"], v["proof_s"]), v["comment"]
        assert vrf.proof_to_hash(pi, suite).hex() == v["beta"]
        assert vrf.output_to_hash(gamma, suite).hex() == v["beta"]
        assert vrf.verify(pk, alpha, ad, pi, suite) is True
        # the vector's own proof bytes verify too (not only ours)
        theirs = bytes.fromhex(v["gamma"] + v["proof_c"] + v["proof_s"])
        assert vrf.verify(bytes.fromhex(v["pk"]), alpha, ad, theirs, suite) is True


def _flip(data: bytes, i: int) -> bytes:
    b = bytearray(data)
    b[i] ^= 1
    return bytes(b)


@pytest.mark.parametrize("prefix", sorted(SUITES))
def test_tampering_is_rejected(prefix: str) -> None:
    pkg, suite = SUITES[prefix]
    vrf = load_curve_module(pkg).ecvrf
    v = cases(prefix)[2]
    sk, alpha, ad = bytes.fromhex(v["sk"]), bytes.fromhex(v["alpha"]), bytes.fromhex(v["ad"])
    pk = bytes.fromhex(v["pk"])
    pi = vrf.prove(sk, alpha, ad, suite)
    gamma, c, s = vrf.split_proof(pi, suite)
    assert vrf.verify(pk, alpha, ad, pi, suite)
    # another message, other additional data, another key: False
    assert not vrf.verify(pk, alpha + b"x", ad, pi, suite)
    assert not vrf.verify(pk, alpha, ad + b"x", pi, suite)
    other_pk = vrf.public_key(12345, suite)
    assert not vrf.verify(other_pk, alpha, ad, pi, suite)
    # a changed challenge or response: False (s stays below r: flip its lowest bit)
    assert not vrf.verify(pk, alpha, ad, gamma + _flip(c, 0) + s, suite)
    assert not vrf.verify(pk, alpha, ad, gamma + c + _flip(s, 0), suite)
    # another output point (a valid point of the subgroup): False
    other_gamma = vrf.output(12345, alpha, suite)
    assert not vrf.verify(pk, alpha, ad, other_gamma + c + s, suite)
    # the proof of another key for the same input does not pass for this key
    assert not vrf.verify(pk, alpha, ad, vrf.prove(12345, alpha, ad, suite), suite)
    # a suite mismatch (where the curve has two): False, or an error for another point encoding
    for name in vrf.SUITES:
        if name != suite and vrf.SUITES[name].point_len == vrf.SUITES[suite].point_len:
            assert not vrf.verify(pk, alpha, ad, pi, name)
        elif name != suite:
            with pytest.raises(ValueError):
                vrf.verify(pk, alpha, ad, pi, name)


@pytest.mark.parametrize("prefix", sorted(SUITES))
def test_bad_input(prefix: str) -> None:
    pkg, suite = SUITES[prefix]
    C = load_curve_module(pkg)
    vrf = C.ecvrf
    v = cases(prefix)[0]
    pk, alpha = bytes.fromhex(v["pk"]), bytes.fromhex(v["alpha"])
    pi = bytes.fromhex(v["gamma"] + v["proof_c"] + v["proof_s"])
    with pytest.raises(ValueError, match="bytes"):
        vrf.verify(pk[:-1], alpha, b"", pi, suite)
    with pytest.raises(ValueError, match="proof"):
        vrf.verify(pk, alpha, b"", pi + b"\x00", suite)
    with pytest.raises(TypeError):
        vrf.verify(pk, "alpha", b"", pi, suite)
    with pytest.raises(TypeError):
        vrf.prove(1.5, alpha, b"", suite)
    for bad_sk in (0, C.R, -1, bytes(vrf.SCALAR_LEN)):
        with pytest.raises(ValueError):
            vrf.prove(bad_sk, alpha, b"", suite)
    with pytest.raises(ValueError, match="unknown suite"):
        vrf.prove(1, alpha, b"", "no-such-suite")
    # s not below r
    gamma, c, _s = vrf.split_proof(pi, suite)
    with pytest.raises(ValueError, match="below r"):
        vrf.verify(pk, alpha, b"", gamma + c + (C.R).to_bytes(vrf.SCALAR_LEN, "little"), suite)
    if vrf.SUITES[suite].model == "weierstrass":
        _bad_weierstrass_points(C, suite, pk, alpha, pi)
        return
    # y not below p, a point off the curve, the identity, a point outside the subgroup
    top = (C.P).to_bytes(vrf.POINT_LEN, "little")
    with pytest.raises(ValueError, match="below p"):
        vrf.decode_point(top, suite)
    identity = (1).to_bytes(vrf.POINT_LEN, "little")
    with pytest.raises(ValueError, match="identity"):
        vrf.verify(identity, alpha, b"", pi, suite)
    # the point of order 2 (0, -1) is on every twisted Edwards curve and outside the subgroup
    with pytest.raises(ValueError, match="subgroup"):
        vrf.verify(pk, alpha, b"", (C.P - 1).to_bytes(vrf.POINT_LEN, "little") + c + _s, suite)
    off = next(y for y in range(2, 200) if vrf._x_from_y(y, vrf._suite(suite)) is None)
    with pytest.raises(ValueError, match="not on the curve"):
        vrf.decode_point(off.to_bytes(vrf.POINT_LEN, "little"), suite)


def _bad_weierstrass_points(C, suite: str, pk: bytes, alpha: bytes, pi: bytes) -> None:
    """x not below p, the identity, the point of order 2, an x with no point, a wrong length."""
    vrf, n = C.ecvrf, C.ecvrf.SUITES[suite].point_len
    with pytest.raises(ValueError, match="below p"):
        vrf.decode_point(C.P.to_bytes(n, "little"), suite)
    with pytest.raises(ValueError, match="identity"):
        vrf.verify(C.SWPoint.identity().to_bytes(), alpha, b"", pi, suite)
    two = C.Point.from_affine(0, C.P - 1, check=False).to_weierstrass().to_bytes()
    with pytest.raises(ValueError, match="subgroup"):
        vrf.verify(pk, alpha, b"", two + pi[n:], suite)
    A, B = C._weierstrass.A, C._weierstrass.B
    off = next(x for x in range(2, 200) if not C.Fq((x ** 3 + A * x + B) % C.P).is_square())
    with pytest.raises(ValueError, match="off the curve"):
        vrf.decode_point(off.to_bytes(n, "little"), suite)
    with pytest.raises(ValueError, match="33 bytes|bytes"):
        vrf.decode_point(bytes(n - 1), suite)


@pytest.mark.parametrize("prefix", sorted(SUITES))
def test_decode_encode_round_trip_and_subgroup(prefix: str) -> None:
    pkg, suite = SUITES[prefix]
    vrf = load_curve_module(pkg).ecvrf
    for v in cases(prefix):
        for key in ("pk", "h", "gamma"):
            point = vrf.decode_point(bytes.fromhex(v[key]), suite)
            assert point.in_subgroup() and not point.is_identity()
            assert vrf.encode_point(point, suite).hex() == v[key]


# ---------------------------------------------------------------------------------------------
# the thin scheme (*_thin.json: proof_r, proof_s)


@pytest.mark.parametrize("prefix", sorted(SUITES))
def test_thin_vectors(prefix: str) -> None:
    pkg, suite = SUITES[prefix]
    vrf = load_curve_module(pkg).ecvrf
    data = read_vector_json("edwards_companions", f"ark-vrf/{prefix}_thin.json")
    assert len(data) == 7
    for v in data:
        sk, alpha, ad = bytes.fromhex(v["sk"]), bytes.fromhex(v["alpha"]), bytes.fromhex(v["ad"])
        assert vrf.public_key(sk, suite).hex() == v["pk"]
        pi = vrf.prove_thin(sk, alpha, ad, suite)
        gamma, commitment, s = vrf.split_thin_proof(pi, suite)
        assert (gamma.hex(), commitment.hex(), s.hex()) == (v["gamma"], v["proof_r"], v["proof_s"]), v["comment"]
        assert vrf.proof_to_hash(pi, suite).hex() == v["beta"]
        theirs = bytes.fromhex(v["gamma"] + v["proof_r"] + v["proof_s"])
        pk = bytes.fromhex(v["pk"])
        assert vrf.verify_thin(pk, alpha, ad, theirs, suite) is True
        assert not vrf.verify_thin(pk, alpha, ad + b"!", theirs, suite)
        assert not vrf.verify_thin(pk, alpha, ad, gamma + commitment + _flip(s, 0), suite)
        # a tiny proof is not a thin one, and the other way round
        with pytest.raises(ValueError):
            vrf.verify(pk, alpha, ad, theirs, suite)
        with pytest.raises(ValueError):
            vrf.verify_thin(pk, alpha, ad, vrf.prove(sk, alpha, ad, suite), suite)


@pytest.mark.parametrize("pkg", ["bandersnatch", "jubjub", "babyjubjub"])
@settings(max_examples=10, deadline=None)
@given(sk=st.integers(min_value=1), alpha=st.binary(max_size=40), ad=st.binary(max_size=20))
def test_hypothesis_prove_verify(pkg: str, sk: int, alpha: bytes, ad: bytes) -> None:
    C = load_curve_module(pkg)
    vrf = C.ecvrf
    sk = sk % (C.R - 1) + 1
    for suite in vrf.SUITES:
        pk = vrf.public_key(sk, suite)
        pi = vrf.prove(sk, alpha, ad, suite)
        assert vrf.verify(pk, alpha, ad, pi, suite)
        assert vrf.split_proof(pi, suite)[0] == vrf.output(sk, alpha, suite)
        thin = vrf.prove_thin(sk, alpha, ad, suite)
        assert vrf.verify_thin(pk, alpha, ad, thin, suite)
        assert vrf.proof_to_hash(thin, suite) == vrf.proof_to_hash(pi, suite)
        assert not vrf.verify(pk, alpha + b"\x00", ad, pi, suite)


# ---------------------------------------------------------------------------------------------
# the [[ecvrf]] suite tables: refused with a reason



def _curve_text(name: str) -> str:
    return (REPO_ROOT / "curves" / f"{name}.toml").read_text()


@pytest.mark.parametrize("curve,old,new,message", [
    ("jubjub", 'transcript = "sha512"', 'transcript = "md5"', "transcript must be one of"),
    ("jubjub", 'hash_to_curve = "tai"', 'hash_to_curve = "sswu"', "hash_to_curve must be one of"),
    ("jubjub", 'transcript = "sha512"', 'transcript = "sha512"\nlabel = 1', "unknown key 'label'"),
    ("jubjub", 'suite = "JubJub-SHA512-TAI-v1"\n', "", "missing key 'suite'"),
    ("jubjub", 'generator = "arkworks"\n', 'generator = "nope"\n', "generator names 'nope'"),
    ("jubjub", 'protocols = ["ecvrf"]', 'protocols = ["ecvrf", "ecvrf"]', "twice"),
    ("jubjub", 'protocols = ["ecvrf"]', 'protocols = ["groth16"]', "not available for TwistedEdwards"),
    ("jubjub", 'protocols = ["ecvrf"]', "protocols = []", "go together"),
    ("babyjubjub", "form_a = 1", "form_a = 0", "form_a must be non-zero"),
    ("bandersnatch", 'model = "weierstrass"', 'model = "montgomery"', "model must be one of"),
    ("bandersnatch", 'hash_to_curve = "tai"', 'hash_to_curve = "ell2-xmd"', "weierstrass suite hashes by 'tai'"),
])
def test_suite_table_errors(curve: str, old: str, new: str, message: str) -> None:
    from generator.params import CurveFileError, parse_curve_text

    text = _curve_text(curve)
    assert old in text
    with pytest.raises(CurveFileError, match=message):
        parse_curve_text(text.replace(old, new, 1), str(REPO_ROOT / "curves" / "bad.toml"))


@pytest.mark.parametrize("old,new,message", [
    # a generator that is not on the suite's form, or not of order r
    ('"19698561148652590122159747500897617769866003486955115824547446575314762165298"', '"5"',
     "generator lies on the suite's curve form"),
    # a form a' with a/a' a non-square mod p (5 is not a square mod BN254's r)
    ("form_a = 1", "form_a = 5", "a/a' is a square|suite's curve form"),
    # Elligator 2 suites use the curve's own form
    ('hash_to_curve = "tai"', 'hash_to_curve = "ell2-xmd"', "Elligator 2 suites use the curve file's own form"),
])
def test_suite_data_checked_by_the_protocol(old: str, new: str, message: str) -> None:
    from generator.derive.checks import DerivationError
    from generator.derive.edwards import build_edwards_model
    from generator.params import parse_curve_text
    from generator.pipeline import render_package

    text = _curve_text("babyjubjub")
    assert old in text
    spec = parse_curve_text(text.replace(old, new, 1), str(REPO_ROOT / "curves" / "babyjubjub.toml"))
    with pytest.raises(DerivationError, match=message):
        render_package(build_edwards_model(spec))


@pytest.mark.parametrize("old,new,message", [
    # the SW suite's generator: off the [weierstrass] model, or another point of it (not of order r)
    ('"12663882780877899054958035777720958383845500985908634476792678820121468453298"]\n\n# The eigen',
     '"12663882780877899054958035777720958383845500985908634476792678820121468453299"]\n\n# The eigen',
     "lies on the \\[weierstrass\\] model"),
])
def test_weierstrass_suite_checked_by_the_protocol(old: str, new: str, message: str) -> None:
    from generator.derive.checks import DerivationError
    from generator.derive.edwards import build_edwards_model
    from generator.params import parse_curve_text
    from generator.pipeline import render_package

    text = _curve_text("bandersnatch")
    assert text.count(old) == 1
    spec = parse_curve_text(text.replace(old, new, 1), str(REPO_ROOT / "curves" / "bandersnatch.toml"))
    with pytest.raises(DerivationError, match=message):
        render_package(build_edwards_model(spec))


def test_pairing_curve_cannot_carry_ecvrf() -> None:
    import dataclasses

    from generator.emit.context import protocol_files
    from generator.params import CurveFileError, load_curve_file
    from generator.pipeline import derive_model

    model = derive_model(REPO_ROOT / "curves" / "bn254.toml")
    spec = dataclasses.replace(model.spec, protocols=("ecvrf",))
    with pytest.raises(CurveFileError, match="twisted Edwards"):
        protocol_files(dataclasses.replace(model, spec=spec), {}, lambda _m: None)
    assert load_curve_file(REPO_ROOT / "curves" / "bn254.toml").protocols  # the file itself is unchanged
