"""The degree-2 endomorphism of a twisted Edwards curve (generator/derive/edwards/glv.py): found on
Bandersnatch (discriminant -8) and on no other companion curve, equal to the formulas and values
gnark-crypto and arkworks publish, rejected when the curve file's lambda is altered; and the
generated GLV scalar multiplications and endomorphism subgroup test against the reference."""

from __future__ import annotations

import dataclasses
import random
from functools import lru_cache

import pytest
from conftest import REPO_ROOT, edwards_packages, load_curve_module
from hypothesis import given, settings
from hypothesis import strategies as st
from vectors_util import read_vector_json

from generator.derive.checks import DerivationError
from generator.derive.edwards import EdwardsModel, build_edwards_model
from generator.derive.edwards.algebra import to_weierstrass
from generator.params import load_curve_file
from generator.reference.edwards import EdwardsCurve, WeierstrassCurve


@lru_cache(maxsize=None)
def model(name: str) -> EdwardsModel:
    return build_edwards_model(load_curve_file(REPO_ROOT / "curves" / f"{name}.toml"))


@pytest.fixture(scope="module")
def glv_vectors() -> tuple[dict, dict]:
    curves = read_vector_json("edwards_companions", "curves.json")["curves"]["bandersnatch"]["glv"]
    fixed = read_vector_json("edwards_companions", "arkworks_fixed_vectors.json")["bandersnatch_glv"]
    return curves, fixed


def weierstrass(m: EdwardsModel) -> tuple[WeierstrassCurve, object]:
    """The derived Weierstrass model, whose affine law has no exception anywhere on the curve,
    and the map to it."""
    W = WeierstrassCurve(m.p, m.weierstrass.a, m.weierstrass.b)
    return W, lambda P: to_weierstrass(m.curve, m.montgomery, 1, P)


# ---------------------------------------------------------------------------------------------
# Derivation


def test_bandersnatch_endomorphism_is_found_and_checked() -> None:
    m = model("bandersnatch")
    e = m.endo
    assert e is not None and e.trace == 0
    assert (e.lam * e.lam + 2) % m.r == 0
    # the GLV basis: lattice vectors of determinant r, sub-scalars within the proven bound
    (a0, a1), (b0, b1) = e.glv.basis
    assert abs(a0 * b1 - a1 * b0) == m.r
    assert (a0 + a1 * e.lam) % m.r == 0 and (b0 + b1 * e.lam) % m.r == 0
    rng = random.Random(3)
    for k in [0, 1, m.r - 1] + [rng.randrange(m.r) for _ in range(200)]:
        k0, k1 = e.glv.split(k)
        assert (k0 + k1 * e.lam - k) % m.r == 0
        assert max(abs(k0), abs(k1)) < 1 << e.glv.bits
    assert e.glv.bits <= 128
    # the subgroup test's vector has norm r: its kernel on E(F_p) is exactly the subgroup
    u0, u1 = e.test_vector
    assert u0 * u0 + 2 * u1 * u1 == m.r


@pytest.mark.parametrize("name", ["jubjub", "babyjubjub"])
def test_no_endomorphism_on_other_curves(name: str) -> None:
    assert model(name).endo is None


def test_formulas_equal_gnark_and_arkworks(glv_vectors) -> None:
    """Independent values: gnark-crypto's phi (x' = endo1 (1 - y^2) / (x y), y' = endo0 (y^2 + endo0) /
    (y^2 - endo0)) and lambda, arkworks PR #102's psi(base)."""
    curves, fixed = glv_vectors
    m = model("bandersnatch")
    e, p = m.endo, m.p
    assert e.lam == int(curves["lambda"]["value"])
    endo0 = int(curves["gnark_te"]["value"]["endo0"])
    endo1 = int(curves["gnark_te"]["value"]["endo1"])
    assert e.nx == (endo1, 0, -endo1 % p) and e.dx[:2] == (0, 1) and not any(e.dx[2:])
    assert e.ny == (endo0 * endo0 % p, 0, endo0) and e.dy == (-endo0 % p, 0, 1)
    C = load_curve_module("bandersnatch") if "bandersnatch" in edwards_packages() else None
    base = tuple(int(v) for v in fixed["base_point"])
    psi_point = tuple(int(v) for v in fixed["psi_point"])
    if C is not None:
        B = C.Point.from_affine(*base)
        assert B.psi().to_affine() == psi_point
        assert B.mul_vartime(e.lam).to_affine() == psi_point
        assert (B * int(fixed["scalar"])).to_affine() == tuple(int(v) for v in fixed["scalar_times_base"])


def test_altered_lambda_fails() -> None:
    m = model("bandersnatch")
    spec = dataclasses.replace(m.spec, glv_lambda=(m.endo.lam + 1) % m.r)
    with pytest.raises(DerivationError, match="lambda"):
        build_edwards_model(spec)
    # the other root is -psi: accepted, and the formulas follow the sign
    other = build_edwards_model(dataclasses.replace(m.spec, glv_lambda=m.r - m.endo.lam)).endo
    assert other.lam == m.r - m.endo.lam and other.nx == tuple(-c % m.p for c in m.endo.nx)


def test_lambda_on_a_curve_without_endomorphism_fails() -> None:
    m = model("jubjub")
    with pytest.raises(DerivationError, match="degree-2 endomorphism"):
        build_edwards_model(dataclasses.replace(m.spec, glv_lambda=5))


# ---------------------------------------------------------------------------------------------
# Generated code

needs_module = pytest.mark.skipif("bandersnatch" not in edwards_packages(), reason="generated/bandersnatch not built")


@needs_module
@settings(max_examples=25, deadline=None)
@given(k=st.one_of(st.integers(0, 2**256), st.sampled_from([0, 1, 2, 2**126, 2**127 - 1, 2**128, 2**253 - 1])),
       j=st.integers(1, 2**253))
def test_glv_scalar_multiplication(k: int, j: int) -> None:
    C, m = load_curve_module("bandersnatch"), model("bandersnatch")
    E = EdwardsCurve(m.p, m.a, m.d)
    P = C.Point.generator().mul_vartime(j)
    expected = E.mul(E.mul(m.generator, j % m.r), k % m.r)
    assert (P * k).to_affine() == expected
    assert P.mul_vartime(k).to_affine() == expected
    assert (P * (m.r - k % m.r)).to_affine() == E.neg(expected)
    assert P.psi() == P.mul_vartime(m.endo.lam) and P.psi().psi() == -P.double()
    # a point decoded unchecked takes the plain path, then the GLV path once known to be inside
    Q = C.Point.from_bytes(P.to_bytes(), check=False)
    assert (Q * k).to_affine() == expected
    assert Q.in_subgroup() and (Q * k).to_affine() == expected


@needs_module
def test_subgroup_test_on_points_outside() -> None:
    """The endomorphism test against [r]P on the Weierstrass model, on random curve points (a
    quarter of them inside), the points of small order and subgroup points plus torsion."""
    C, m = load_curve_module("bandersnatch"), model("bandersnatch")
    E = EdwardsCurve(m.p, m.a, m.d)
    W, to_w = weierstrass(m)
    rng = random.Random(14)
    seen = {True: 0, False: 0}
    for _ in range(120):
        P = E.random_point(rng)
        inside = W.mul(to_w(P), m.r) is None
        assert C.Point.from_affine(*P, check=False).in_subgroup() == inside
        seen[inside] += 1
    assert seen[True] and seen[False]
    T2 = C.Point.from_affine(0, m.p - 1, check=False)
    assert C.Point.from_affine(0, 1, check=False).in_subgroup()
    assert not T2.in_subgroup() and T2.psi().is_identity()   # (0, -1) is the kernel of psi
    G = C.Point.generator().mul_vartime(rng.randrange(1, m.r))
    assert not C.Point.from_bytes((G + T2).to_bytes(), check=False).in_subgroup()
    with pytest.raises(ValueError, match="subgroup"):
        C.Point.from_affine(*(G + T2).to_affine())


def test_glv_table_shape_is_validated() -> None:
    from generator.params import CurveFileError, parse_curve_text

    text = (REPO_ROOT / "curves" / "bandersnatch.toml").read_text()
    bad = text.replace('lambda = "', 'lam = "')
    with pytest.raises(CurveFileError, match="glv"):
        parse_curve_text(bad, str(REPO_ROOT / "curves" / "altered.toml"))
