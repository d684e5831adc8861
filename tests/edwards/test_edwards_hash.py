"""Hash to curve on the twisted Edwards packages (generated/<curve>/_hash_to_curve.py and the
Point methods): RFC 9380 Elligator 2 and the §6.8.2 rational map, compared with the pure-Python
reference (generator/reference/edwards.py), outputs in the subgroup, Z by appendix H.3, bad input.
ark-vrf's Bandersnatch vectors (tests/edwards/test_ecvrf.py) pin the map byte for byte."""

from __future__ import annotations

import importlib
import random
from pathlib import Path

import pytest
from conftest import check_stub, edwards_packages, load_curve_module, skip_or_fail
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.derive.edwards.hash_to_curve import derive_elligator2, find_z_ell2
from generator.reference.edwards import EdwardsCurve, elligator2_montgomery, montgomery_to_edwards
from generator.reference.hash_to_curve import expand_message_xmd

PACKAGES = edwards_packages()


def hashing(pkg: str):
    load_curve_module(pkg)
    return importlib.import_module(f"generated.{pkg}._hash_to_curve")


def reference_map(h, u: int) -> tuple[int, int]:
    return montgomery_to_edwards(h.P, elligator2_montgomery(h.P, h.J, h.K, h.Z, u))


def reference_hash(C, h, msg: bytes, dst: bytes) -> tuple[int, int]:
    E = EdwardsCurve(C.P, C.A, C.D)
    data = expand_message_xmd(msg, dst, 2 * h.L, "sha512")
    u0, u1 = (int.from_bytes(data[i * h.L:(i + 1) * h.L], "big") % C.P for i in range(2))
    return E.mul(E.add(reference_map(h, u0), reference_map(h, u1)), C.H)


@pytest.mark.parametrize("pkg", PACKAGES)
def test_constants_derived(pkg: str) -> None:
    C, h = load_curve_module(pkg), hashing(pkg)
    p = C.P
    assert h.Z == find_z_ell2(p) and pow(h.Z % p, (p - 1) // 2, p) == p - 1
    for small in range(1, abs(h.Z)):  # every candidate before Z (both signs) is a square
        assert pow(small, (p - 1) // 2, p) == 1 and pow(-small % p, (p - 1) // 2, p) == 1
    if h.Z < 0:
        assert pow(-h.Z, (p - 1) // 2, p) == 1
    assert h.J == 2 * (C.A + C.D) * pow(C.A - C.D, -1, p) % p and h.K == 4 * pow(C.A - C.D, -1, p) % p
    assert (h.J, h.K) == (C.MONTGOMERY_A, C.MONTGOMERY_B)
    assert h.RFC_PRECONDITION == (pow(C.A * C.D % p, (p - 1) // 2, p) != 1)
    assert h.L == (p.bit_length() + 128 + 7) // 8


@pytest.mark.parametrize("pkg", PACKAGES)
def test_map_matches_reference(pkg: str) -> None:
    C, h = load_curve_module(pkg), hashing(pkg)
    E = EdwardsCurve(C.P, C.A, C.D)
    rng = random.Random(pkg)
    edge = [0, 1, C.P - 1, 2, C.P - 2]
    for u in edge + [rng.randrange(C.P) for _ in range(40)]:
        xy = h.map_to_curve_vartime(u)
        assert xy == reference_map(h, u) and E.on_curve(xy)
        assert h.map_to_curve(C.Point, u).to_affine() == xy


@pytest.mark.parametrize("pkg", PACKAGES)
def test_hash_to_curve_in_subgroup_and_reference(pkg: str) -> None:
    C, h = load_curve_module(pkg), hashing(pkg)
    for i in range(6):
        msg, dst = bytes([i]) * i, b"pairforge-test-" + pkg.encode()
        Q = h.hash_to_curve(C.Point, msg, dst)
        assert Q.in_subgroup() and not Q.is_identity()
        assert Q.to_affine() == reference_hash(C, h, msg, dst)
        N = h.encode_to_curve(C.Point, msg, dst)
        assert N.in_subgroup()
        (u,) = h.hash_to_field(msg, dst, 1)
        assert N == h.map_to_curve(C.Point, u).clear_cofactor()


def test_expand_message_xmd_matches_reference() -> None:
    h = hashing(PACKAGES[0])
    for n in (1, 48, 96, 200):
        for dst in (b"d", b"x" * 300):
            assert h.expand_message_xmd(b"msg", dst, n) == expand_message_xmd(b"msg", dst, n, "sha512")
    # arkworks' zero pad (L bytes instead of the block size) changes the output
    assert h.expand_message_xmd(b"msg", b"d", 96, zero_pad=48) != h.expand_message_xmd(b"msg", b"d", 96)


@pytest.mark.parametrize("pkg", PACKAGES)
def test_bad_input(pkg: str) -> None:
    C, h = load_curve_module(pkg), hashing(pkg)
    with pytest.raises(TypeError):
        h.hash_to_curve(C.Point, "text", b"dst")
    with pytest.raises(TypeError):
        h.hash_to_curve(C.Point, b"m", None)
    with pytest.raises(ValueError):
        h.hash_to_field(b"m", b"d", 0)
    with pytest.raises(ValueError, match="DST"):
        h.hash_to_curve(C.Point, b"m", b"")
    with pytest.raises(ValueError):
        h.map_to_curve(C.Point, C.P)
    with pytest.raises(ValueError):
        h.map_to_curve(C.Point, -1)
    with pytest.raises(TypeError):
        h.map_to_curve(C.Point, 1.0)


def _methods(C) -> bool:
    return hasattr(C.Point, "hash_to_curve")


@pytest.mark.parametrize("pkg", PACKAGES)
def test_point_methods(pkg: str) -> None:
    C, h = load_curve_module(pkg), hashing(pkg)
    if not _methods(C):
        skip_or_fail(f"{pkg}'s compiled module predates the hash methods: rebuild it (gen-curve {pkg})")
    Q = C.Point.hash_to_curve(b"abc", b"dst")
    assert Q == h.hash_to_curve(C.Point, b"abc", b"dst") and Q.in_subgroup()
    assert C.Point.encode_to_curve(b"abc", b"dst") == h.encode_to_curve(C.Point, b"abc", b"dst")
    assert C.Point.map_to_curve(C.Fq(7)) == C.Point.map_to_curve(7) == h.map_to_curve(C.Point, 7)
    assert C.Point.hash_to_field(b"abc", b"dst", 3) == h.hash_to_field(b"abc", b"dst", 3)
    assert C.Point.HASH_SUITE == h.HASH_SUITE and C.Point.HASH_MAP == "elligator2"


@pytest.mark.parametrize("pkg", PACKAGES)
@settings(max_examples=15, deadline=None)
@given(msg=st.binary(max_size=80), dst=st.binary(min_size=1, max_size=40))
def test_hypothesis_hash(pkg: str, msg: bytes, dst: bytes) -> None:
    C, h = load_curve_module(pkg), hashing(pkg)
    Q = h.hash_to_curve(C.Point, msg, dst)
    assert Q.in_subgroup()
    assert Q.to_affine() == reference_hash(C, h, msg, dst)


@pytest.mark.parametrize("pkg", PACKAGES)
def test_derivation_refuses_a_wrong_montgomery_model(pkg: str) -> None:
    C = load_curve_module(pkg)
    model = derive_elligator2(C.P, C.A, C.D, C.NAME, pkg)
    assert (model.J, model.K) == (C.MONTGOMERY_A, C.MONTGOMERY_B)
    with pytest.raises(ValueError):
        derive_elligator2(C.P, C.A, C.A, C.NAME, pkg)  # a = d: singular, no Montgomery model


@pytest.mark.parametrize("pkg", PACKAGES)
def test_stub_matches_module(pkg: str) -> None:
    """Every class, function and method of the Edwards _core.pyi exists in the compiled module,
    and back (the hashing methods included)."""
    C = load_curve_module(pkg)
    if not _methods(C):
        skip_or_fail(f"{pkg}'s compiled module predates the hash methods: rebuild it (gen-curve {pkg})")
    core = C._impl
    names = check_stub(core, Path(C.__file__).with_name("_core.pyi"))
    assert {"hash_to_curve", "encode_to_curve", "map_to_curve", "hash_to_field", "HASH_SUITE"} <= set(vars(core.Point))
    assert set(core.__all__) <= names
