"""G2 cofactor clearing through psi (generator/derive/psi_clearing.py): the formula is found over
Q[x] from the family polynomials alone, and its h_eff is proven in Z[psi] / (Phi_k(psi), #E'(Fq)).

The search finds Budroni–Pintore's BLS12 formula and its k = 24 analogue; the proof gives the RFC
9380 h_eff 3 (x^2 - 1) h2 on BLS12-381 and 3 (x^4 - 1) h2 on BLS24-315 and BLS24-317; random points
of both BLS24 twists land in G2 and equal [h_eff] of the point. Altered formulas, h_eff values and
lattices are refused. About 40 s (the two BLS24 derivations dominate, shared with
test_bls24_derive.py through the same cache when both run in one process).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from fractions import Fraction

import pytest
import sympy
from conftest import REPO_ROOT

from generator.derive import endomorphisms
from generator.derive.checks import DerivationError
from generator.derive.endomorphisms import CLEAR, Evaluator, derive_endomorphisms
from generator.derive.model import PairingCore, derive_core
from generator.derive.psi_clearing import (
    X,
    find_psi_clearing,
    hnf2,
    in_lattice,
    psi_formula_equals,
    psi_formula_scalar,
    reduce_mod_quadratic,
)
from generator.params import CurveSpec, load_curve_file

FILES = {
    "bls24-315": REPO_ROOT / "curves" / "bls24-315.toml",
    "bls24-317": REPO_ROOT / "curves" / "bls24-317.toml",
    "bls12-381": REPO_ROOT / "curves" / "bls12-381.toml",
}
BLS24 = ("bls24-315", "bls24-317")
BP_BLS12 = ((-1, -1, 1), (-1, 1), (2,))                             # [x^2 - x - 1] + psi [x - 1] + psi^2 [2]
BP_BLS24 = ((-1, 0, 0, -1, 1), (0, 0, -1, 1), (0, -1, 1), (-1, 1), (2,))


@functools.lru_cache(maxsize=None)
def spec_of(name: str) -> CurveSpec:
    return load_curve_file(FILES[name])


@functools.lru_cache(maxsize=None)
def core_of(name: str) -> PairingCore:
    return derive_core(spec_of(name))


def cofactor_polynomial(core: PairingCore, x0: int) -> sympy.Expr:
    """h2(x): the irreducible factor of N(Phi_k(psi)) (the norm in Z[x][psi]) whose value at the
    seed is a small rational multiple of the twist's cofactor, scaled to equal it."""
    fam, h2 = core.family, core.twist.cofactor
    t, p = sympy.Poly(X + 1, X), sympy.Poly(fam.p_poly, X, domain="QQ")
    coefficients = [int(c) for c in reversed(sympy.Poly(sympy.cyclotomic_poly(fam.k, X), X).all_coeffs())]
    f0, f1 = reduce_mod_quadratic(coefficients, t, p, sympy.Poly(0, X, domain="QQ"), sympy.Poly(1, X, domain="QQ"))
    norm = (f0 * f0 + t * f0 * f1 + p * f1 * f1).as_expr()
    for factor, _ in sympy.factor_list(norm)[1]:
        ratio = Fraction(int(sympy.Poly(factor, X).eval(x0))) / h2
        if ratio and ratio.numerator.bit_length() < 20 and ratio.denominator.bit_length() < 20:
            return sympy.expand(factor / sympy.Rational(ratio.numerator, ratio.denominator))
    raise AssertionError("no factor of the norm is the cofactor")


@pytest.mark.parametrize("name, expected", [("bls12-381", BP_BLS12), ("bls24-317", BP_BLS24)])
def test_search_finds_budroni_pintore(name: str, expected: tuple) -> None:
    """From p(x), r(x), t(x) and h2(x) alone: BLS12 gives Budroni–Pintore's formula, BLS24 its
    analogue, which is the data in endomorphisms.CLEAR."""
    core, x0 = core_of(name), spec_of(name).x
    h = cofactor_polynomial(core, x0)
    assert sympy.Poly(h, X).eval(x0) == core.twist.cofactor
    found = find_psi_clearing(core.family.p_poly, X + 1, h, core.family.k)
    assert found == expected
    assert CLEAR[(spec_of(name).family, "G2")][0] == expected


@pytest.mark.parametrize("name", [*BLS24, "bls12-381"])
def test_h_eff_is_proven(name: str) -> None:
    core, x = core_of(name), spec_of(name).x
    fam, h2 = core.family, core.twist.cofactor
    formula, h_eff = (BP_BLS12, 3 * (x * x - 1) * h2) if fam.k == 12 else (BP_BLS24, 3 * (x**4 - 1) * h2)
    n = fam.r * h2
    assert psi_formula_scalar(formula, x, fam.k, fam.t, fam.p, fam.r, h2) == h_eff
    assert psi_formula_equals(formula, x, fam.k, fam.t, fam.p, n, h_eff)
    assert h_eff % h2 == 0 and (h_eff // h2) % fam.r != 0
    # altered: another h_eff, a coefficient of the formula
    assert not psi_formula_equals(formula, x, fam.k, fam.t, fam.p, n, h_eff + h2)
    assert not psi_formula_equals(formula, x, fam.k, fam.t, fam.p, n, 3 * (x**4 + 1) * h2)
    bumped = formula[:-1] + ((3,),)
    assert not psi_formula_equals(bumped, x, fam.k, fam.t, fam.p, n, h_eff)
    assert psi_formula_scalar(bumped, x, fam.k, fam.t, fam.p, fam.r, h2) is None


@pytest.mark.parametrize("name", BLS24)
def test_random_twist_points_land_in_g2(name: str) -> None:
    """The formula on random points of the whole twist E'(Fp4): killed by r, equal to [h_eff]P."""
    core, x = core_of(name), spec_of(name).x
    E, r, h2 = core.twist.curve, core.family.r, core.twist.cofactor
    ev = Evaluator(E, "psi", None, core.miller.psi, x)
    rng = random.Random(2026)
    for _ in range(2):
        P = E.random_point(rng)
        assert E.mul(P, r) is not None                      # not already in G2
        Q = ev.formula(BP_BLS24, P)
        assert Q is not None and E.mul(Q, r) is None
        assert Q == E.mul(P, 3 * (x**4 - 1) * h2)


def test_altered_clearing_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """derive_endomorphisms refuses a BLS24 G2 formula with a coefficient altered."""
    core, spec = core_of("bls24-317"), spec_of("bls24-317")
    fam = core.family
    altered = ((-1, 0, 0, -1, 1), (0, 0, -1, 1), (0, -1, 1), (-1, 1), (1,))
    monkeypatch.setitem(endomorphisms.CLEAR, ("BLS24", "G2"), (altered, "altered"))
    with pytest.raises(DerivationError, match="cofactor clearing"):
        derive_endomorphisms(dict(family="BLS24", x=spec.x, p=fam.p, r=fam.r, t=fam.t, k=24, h1=fam.h1,
                                  h2=core.twist.cofactor, E1=core.E1, E2=core.twist.curve, g1=core.g1,
                                  g2=core.g2, psi=core.miller.psi), "altered")


def test_hnf2_spans_the_same_lattice() -> None:
    """Every input vector lies in the HNF's lattice, and both lattices have the same index in Z^2
    (the gcd of the 2 x 2 minors): so they are equal. A wrong b or g0 is caught."""
    rng = random.Random(5)
    tried = 0
    for _ in range(200):
        vectors = [(rng.randrange(-50, 51), rng.randrange(-50, 51)) for _ in range(rng.randrange(2, 5))]
        minors = [a[0] * b[1] - a[1] * b[0] for a, b in itertools.combinations(vectors, 2)]
        index = functools.reduce(math.gcd, minors, 0)
        if index == 0:
            with pytest.raises(ValueError):
                hnf2(vectors)
            continue
        g1, b, g0 = hnf2(vectors)
        assert g1 > 0 and 0 <= b < g0 and g1 * g0 == index
        assert all(in_lattice(v1, v0, (g1, b, g0)) for v1, v0 in vectors)
        if g0 > 1:
            assert not in_lattice(g1, b + 1, (g1, b, g0))
        tried += 1
    assert tried > 150
