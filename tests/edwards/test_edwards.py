"""The generated twisted Edwards modules (generated/<curve>/ with c/edwards_core.h) against the
pure-Python reference (generator/reference/edwards.py), on random and edge inputs: the identity,
the point of order 2, points of small order, points outside the subgroup; and the API's errors."""

from __future__ import annotations

import pickle
import random
from types import ModuleType

import pytest
from conftest import edwards_packages, load_curve_module
from edwards_util import model, outside, pt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.derive.edwards import EdwardsModel
from generator.reference.edwards import EdwardsCurve

PACKAGES = edwards_packages()
FEW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module", params=PACKAGES or [None])
def ctx(request) -> tuple[ModuleType, EdwardsModel, EdwardsCurve]:
    if request.param is None:
        pytest.skip("no twisted Edwards packages in generated/")
    C = load_curve_module(request.param)
    m = model(request.param)
    return C, m, EdwardsCurve(m.p, m.a, m.d)


def torsion(m: EdwardsModel, E: EdwardsCurve, seed: int) -> tuple[int, int]:
    """A point of order dividing h: [r]Q for a random curve point Q (affine: where [r]Q is a
    point at infinity of the Edwards model, as it can be on Bandersnatch, the next Q)."""
    rng = random.Random(seed)
    while True:
        try:
            return E.mul(E.random_point(rng), m.r)
        except ZeroDivisionError:
            continue


# ---------------------------------------------------------------------------------------------
# Constants and the generator


def test_constants(ctx) -> None:
    C, m, E = ctx
    assert (C.P, C.R, C.H, C.A, C.D, C.COMPLETE) == (m.p, m.r, m.h, m.a, m.d, m.complete)
    assert C.Point.generator().to_affine() == m.generator
    assert C.Point.identity().to_affine() == (0, 1) and C.Point.identity().is_identity()
    assert C.TARGET in ("generic64", "x86_64-adx", "generic32")
    for x, y in C.GENERATORS.values():
        G = C.Point.from_affine(x, y)
        assert G.in_subgroup() and not G.is_identity() and (G * C.R).is_identity()


# ---------------------------------------------------------------------------------------------
# Group law against the reference


@FEW
@given(k1=st.integers(0, 2**400), k2=st.integers(-(2**300), 2**300))
def test_subgroup_arithmetic(ctx, k1: int, k2: int) -> None:
    C, m, E = ctx
    G = m.generator
    P, Q = E.mul(G, k1 % m.r), E.mul(G, k2 % m.r)
    cP, cQ = C.Point.generator() * k1, C.Point.generator().mul_vartime(k2)
    assert cP.to_affine() == P and cQ.to_affine() == Q
    assert (cP + cQ).to_affine() == E.add(P, Q)
    assert (cP - cQ).to_affine() == E.add(P, E.neg(Q))
    assert (-cP).to_affine() == E.neg(P) and cP.double() == cP + cP
    assert (k2 * cP).to_affine() == E.mul(P, k2 % m.r)
    assert (cP * C.Fr(k2)) == cP * k2
    assert cP.in_subgroup() and cP.is_on_curve()
    assert cP + C.Point.identity() == cP and cP - cP == C.Point.identity()


def ref(m: EdwardsModel, f, *args):
    """A reference result, or None where the affine law has an exception (a result or an
    intermediate at infinity of the Edwards model): only on curves whose law is not complete."""
    try:
        return f(*args)
    except ZeroDivisionError:
        assert not m.complete
        return None


@FEW
@given(seed=st.integers(0, 2**32), seed2=st.integers(0, 2**32), k=st.integers(0, 2**256))
def test_points_outside_the_subgroup(ctx, seed: int, seed2: int, k: int) -> None:
    """Small-order points and random curve points: where the reference is defined (always on
    complete curves), the generated code agrees with it."""
    C, m, E = ctx
    T, U = torsion(m, E, seed), outside(m, E, seed2)
    G = E.mul(m.generator, k % m.r)
    for P, Q in ((T, G), (U, G), (U, T), (U, U), (T, T)):
        expected = ref(m, E.add, P, Q)
        if expected is not None:
            got = pt(C, P) + pt(C, Q)
            assert got.to_affine() == expected and got.is_on_curve()
    cT, cU = pt(C, T), pt(C, U)
    assert (cT * C.H).is_identity() and cT.mul_vartime(m.h).is_identity()
    assert cT.in_subgroup() == (T == E.identity)
    checks = [
        (lambda: E.mul(U, m.h), lambda: cU.clear_cofactor()),
        (lambda: E.mul(U, k % m.r), lambda: cU.mul_vartime(k)),
        (lambda: E.mul(U, k % m.r), lambda: cU * k),
    ]
    for expected, got in checks:
        value = ref(m, expected)
        if value is not None:
            assert got().to_affine() == value
    rU = ref(m, E.mul, U, m.r)
    if rU is not None:
        assert cU.in_subgroup() == (rU == E.identity)
    if m.complete:
        assert cU.clear_cofactor().in_subgroup()


def test_order_two_point(ctx) -> None:
    C, m, E = ctx
    T = C.Point.from_affine(0, m.p - 1, check=False)
    assert not T.in_subgroup() and T.double().is_identity() and not T.is_identity()
    assert (T + T).is_identity() and -T == T
    G = C.Point.generator()
    assert (G + T).to_affine() == E.add(m.generator, (0, m.p - 1))
    assert T.clear_cofactor().is_identity()
    with pytest.raises(ValueError, match="subgroup"):
        C.Point.from_affine(0, m.p - 1)


# ---------------------------------------------------------------------------------------------
# Serialization


@FEW
@given(k=st.integers(0, 2**256), seed=st.integers(0, 2**32))
def test_encodings_round_trip(ctx, k: int, seed: int) -> None:
    C, m, E = ctx
    P = C.Point.generator() * k
    U = pt(C, outside(m, E, seed))
    for profile in C.SERIALIZATION_PROFILES:
        for Q in (P, C.Point.identity()):
            data = Q.to_bytes(profile=profile)
            assert len(data) == m.fq.nbytes
            assert C.Point.from_bytes(data, profile=profile) == Q
            assert C.Point.batch_from_bytes([data, data], profile=profile) == [Q, Q]
        x, y = P.to_affine()
        data = P.to_bytes(profile=profile)
        sign = x % 2 if profile == "zcash" else int(x > (m.p - 1) // 2)
        assert data == (y | sign << (8 * m.fq.nbytes - 1)).to_bytes(m.fq.nbytes, "little")
        assert C.Point.from_bytes(U.to_bytes(profile=profile), check=False, profile=profile) == U
    unc = P.to_bytes(False, profile="arkworks")
    assert unc == P.to_affine()[0].to_bytes(m.fq.nbytes, "little") + P.to_affine()[1].to_bytes(m.fq.nbytes, "little")
    assert C.Point.from_bytes(unc, profile="arkworks") == P
    assert C.Point.batch_from_bytes(unc + unc, profile="arkworks", compressed=False) == [P, P]
    assert pickle.loads(pickle.dumps(U)) == U and pickle.loads(pickle.dumps(P)) == P
    assert hash(P) == hash(C.Point.from_bytes(P.to_bytes())) and hash(U) == hash(pickle.loads(pickle.dumps(U)))


def test_bad_encodings(ctx) -> None:
    C, m, E = ctx
    n = m.fq.nbytes
    G = C.Point.generator()
    with pytest.raises(ValueError, match=f"expected {n} bytes"):
        C.Point.from_bytes(b"\x00" * (n - 1))
    with pytest.raises(ValueError, match="profile .* has no uncompressed form"):
        G.to_bytes(False, profile="zcash")
    with pytest.raises(ValueError, match="unknown profile"):
        G.to_bytes(profile="sec1")
    with pytest.raises(TypeError):
        C.Point.from_bytes("00" * n)
    with pytest.raises(TypeError):
        G.to_bytes(profile=3)
    with pytest.raises(ValueError, match="not canonical"):   # y = p
        C.Point.from_bytes(m.p.to_bytes(n, "little"))
    with pytest.raises(ValueError, match="not canonical"):   # x = p, uncompressed
        C.Point.from_bytes(m.p.to_bytes(n, "little") + (1).to_bytes(n, "little"), profile="arkworks")
    y = next(y for y in range(2, 1000) if not E.lift_y(y))
    with pytest.raises(ValueError, match="not on the curve"):
        C.Point.from_bytes(y.to_bytes(n, "little"))
    with pytest.raises(ValueError, match="not on the curve"):
        C.Point.from_bytes((1).to_bytes(n, "little") + (2).to_bytes(n, "little"), profile="arkworks")
    for profile in C.SERIALIZATION_PROFILES:   # x = 0 has no sign: ZIP-216's non-canonical encodings
        for yy in (1, m.p - 1):
            with pytest.raises(ValueError, match="sign bit is set but x = 0"):
                C.Point.from_bytes((yy | 1 << (8 * n - 1)).to_bytes(n, "little"), check=False, profile=profile)
    T = pt(C, torsion(m, E, 3) if torsion(m, E, 3) != E.identity else (0, m.p - 1))
    with pytest.raises(ValueError, match="subgroup"):
        C.Point.from_bytes(T.to_bytes())
    assert C.Point.from_bytes(T.to_bytes(), check=False) == T
    with pytest.raises(ValueError, match="item 1: the point is not in the subgroup"):
        C.Point.batch_from_bytes([G.to_bytes(), T.to_bytes()])
    with pytest.raises(ValueError, match="not on the curve"):
        C.Point.from_affine(1, 2)
    with pytest.raises(ValueError, match="not canonical"):
        C.Point.from_affine(m.p, 1)
    with pytest.raises(TypeError):
        C.Point.from_affine("1", 1)
    with pytest.raises(TypeError):
        G * "3"
    with pytest.raises(TypeError):
        G.mul_vartime(1.5)


# ---------------------------------------------------------------------------------------------
# Multi-scalar multiplication


@pytest.mark.parametrize("n", [0, 1, 2, 7, 40, 300])
def test_msm(ctx, n: int) -> None:
    C, m, E = ctx
    rng = random.Random(n)
    G = C.Point.generator()
    points = [G * rng.randrange(m.r) for _ in range(n)]
    if n > 2:
        points[1] = C.Point.identity()
    scalars = [rng.randrange(m.r) for _ in range(n)]
    if n > 3:
        scalars[2], scalars[3] = 0, m.r - 1
    expected = C.Point.identity()
    for P, k in zip(points, scalars, strict=True):
        expected = expected + P.mul_vartime(k)
    for threads in (1, 2, 5):
        assert C.Point.msm(points, scalars, threads=threads) == expected
    assert C.Point.msm(points, [C.Fr(k) for k in scalars]) == expected
    assert C.Point.msm(points, [k + m.r for k in scalars]) == expected
    data = b"".join(P.to_bytes(False, profile="arkworks") for P in points)
    scalar_bytes = b"".join(k.to_bytes(m.fr.nbytes, "little") for k in scalars)
    assert C.Point.msm_bytes(data, scalar_bytes, profile="arkworks", check=True) == expected
    big = b"".join(k.to_bytes(m.fr.nbytes, "big") for k in scalars)
    assert C.Point.msm_bytes(b"".join(P.to_bytes() for P in points), big, endian="big", compressed=True) == expected


def test_msm_outside_the_subgroup(ctx) -> None:
    C, m, E = ctx
    rng = random.Random(5)
    raw = [outside(m, E, s) for s in range(20)]
    scalars = [rng.randrange(m.r) for _ in raw]
    expected = E.identity
    for P, k in zip(raw, scalars, strict=True):
        expected = E.add(expected, E.mul(P, k))
    try:
        assert C.Point.msm([pt(C, P) for P in raw], scalars, threads=2).to_affine() == expected
    except ValueError:  # a bucket sum met an exceptional pair: only where the law is not complete
        assert not m.complete


def test_msm_errors(ctx) -> None:
    C, m, E = ctx
    G = C.Point.generator()
    with pytest.raises(ValueError, match="2 points but 1 scalars"):
        C.Point.msm([G, G], [1])
    with pytest.raises(TypeError, match="expected Point"):
        C.Point.msm([G, 3], [1, 2])
    with pytest.raises(ValueError, match="threads must be at least 1"):
        C.Point.msm([G], [1], threads=0)
    with pytest.raises(ValueError, match="not a multiple"):
        C.Point.msm_bytes(b"\x00" * 5, b"")
    T = pt(C, (0, m.p - 1))
    with pytest.raises(ValueError, match="point 0: the point is not in the subgroup"):
        C.Point.msm_bytes(T.to_bytes(False, profile="arkworks"), (1).to_bytes(m.fr.nbytes, "little"),
                          profile="arkworks", check=True)


# ---------------------------------------------------------------------------------------------
# Fields


@FEW
@given(a=st.integers(0, 2**400), b=st.integers(1, 2**400))
def test_fields(ctx, a: int, b: int) -> None:
    C, m, E = ctx
    for F, mod in ((C.Fq, m.p), (C.Fr, m.r)):
        x, y = F(a), F(b)
        assert int(x * y) == a * b % mod and int(x - y) == (a - b) % mod
        if b % mod:
            assert int(x / y) == a * pow(b, -1, mod) % mod
        s = x * x
        assert s.sqrt() in (x, -x)
        assert F.from_bytes(x.to_bytes()) == x and F.from_bytes(x.to_bytes("arkworks"), "arkworks") == x
        assert pickle.loads(pickle.dumps(x)) == x


def test_host_scalar_field_converts_through_int(ctx) -> None:
    """A value of the host curve's Fr is a value of the companion's Fq, through int."""
    C, m, E = ctx
    hosts = {"bls12-381": "bls12_381", "bls12-377": "bls12_377", "bn254": "bn254", "bw6-761": "bw6_761"}
    if m.over is None:
        pytest.skip("the curve names its field by p")
    H = load_curve_module(hosts[m.over])
    x = H.Fr(123456789) ** 5
    assert int(C.Fq(int(x))) == int(x) and H.Fr(int(C.Fq(int(x)))) == x
    assert C.P == H.R
