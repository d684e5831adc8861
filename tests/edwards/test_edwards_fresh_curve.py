"""A fresh twisted Edwards curve over BN254's Fr from its parameters alone (the companion-curve goal: "a curve of
your own choosing ... to show that no template needs an edit"), not BabyJubJub: a = -1 and the
smallest non-square d >= 2 whose curve order is 4 or 8 times a prime. The order comes from
PARI's point counting (SEA through cypari2, the `test` extra): the curve file below holds only
name, family, over, a, d, r and the cofactor; the generator is derived. The package is generated
by `gen-curve --params FILE --out DIR` at -O1 (tests/build_cache.py) and checked against the
pure-Python reference on random points.

How d was found (once, offline, about two minutes): for d = 2, 3, ... skipping squares (the
addition law is complete for a = -1, a square, and d a non-square), the order of the Montgomery
model B v^2 = u^3 + A u^2 + u, A = 2(a + d)/(a - d), B = 4/(a - d), which is the order of
v^2 = u^3 + (A/B) u^2 + u/B^2 (u -> B u, v -> B v), by PARI's ellsea(E, 8) (SEA with early
abort on a small prime factor other than 2); d = 93 is the first with order 4·prime (h = 4).
"""

from __future__ import annotations

import importlib.util
import random
import sys

import pytest
from build_cache import cached_test_curve, import_test_curve
from conftest import import_optional

from generator.derive.edwards import build_edwards_model
from generator.params import parse_curve_text
from generator.reference.edwards import EdwardsCurve

BN254_R = 21888242871839275222246405745257275088548364400416034343698204186575808495617
D_FRESH = 93
COFACTOR = 4
ORDER_R = 5472060717959818805561601436314318772161128120744227507801782176883904601741

PARAMS = f"""name = "FreshEdBN254"
family = "TwistedEdwards"
over = "bn254"
a = -1
d = {D_FRESH}
r = "{ORDER_R}"
cofactor = {COFACTOR}
"""


@pytest.fixture(scope="module")
def fresh():
    root = cached_test_curve("fresh edwards curve over bn254", PARAMS, "fresh_ed_bn254.toml")
    module = import_test_curve(root / "out", "freshedbn254")
    return module, build_edwards_model(parse_curve_text(PARAMS, str(root / "fresh_ed_bn254.toml")))


def test_parameters_are_the_search_result() -> None:
    """d is a non-square (complete law with a = -1, a square mod r), and PARI's count of the curve
    order is cofactor · r with r prime."""
    if sys.version_info >= (3, 13) and importlib.util.find_spec("cypari2") is None:
        pytest.skip("cypari2 2.2.0 has no wheel for Python 3.13, so the test extra leaves it out there")
    cypari2 = import_optional("cypari2", "in the test extra: pip install -e '.[test]'")
    pari = cypari2.Pari(size=256 * 10**6, sizemax=10**9)
    p, a, d = BN254_R, -1 % BN254_R, D_FRESH
    assert pow(a, (p - 1) // 2, p) == 1 and pow(d, (p - 1) // 2, p) == p - 1
    A, B = 2 * (a + d) * pow(a - d, -1, p) % p, 4 * pow(a - d, -1, p) % p
    b_inv = pow(B, -1, p)
    E = pari.ellinit([0, A * b_inv % p, 0, b_inv * b_inv % p, 0], p)
    assert int(pari.ellcard(E)) == COFACTOR * ORDER_R
    assert pari.isprime(ORDER_R)


@pytest.mark.slow  # builds a curve package of its own
def test_generated_module_matches_the_reference(fresh) -> None:
    C, m = fresh
    E = EdwardsCurve(m.p, m.a, m.d)
    assert m.p == BN254_R and m.a_is_minus_one and m.complete and m.default_generator == "derived"
    G = C.Point.generator()
    assert G.to_affine() == m.generator and G.in_subgroup()
    rng = random.Random(7)
    for _ in range(4):
        k1, k2 = rng.randrange(m.r), rng.randrange(m.r)
        P, Q = G * k1, G.mul_vartime(k2)
        assert P.to_affine() == E.mul(m.generator, k1) and Q.to_affine() == E.mul(m.generator, k2)
        assert (P + Q).to_affine() == E.add(P.to_affine(), Q.to_affine())
        assert (P - Q).to_affine() == E.add(P.to_affine(), E.neg(Q.to_affine()))
        assert C.Point.msm([P, Q], [k2, k1]) == G * (2 * k1 * k2 % m.r)
        assert C.Point.from_bytes(P.to_bytes()) == P
        U = E.random_point(rng)
        V = C.Point.from_affine(*U, check=False)
        assert V.clear_cofactor().to_affine() == E.mul(U, m.h)
        assert V.in_subgroup() == (E.mul(U, m.r) == E.identity)
        with pytest.raises(ValueError):
            C.Point.from_affine(U[0], (U[1] + 1) % m.p)
