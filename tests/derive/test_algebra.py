"""generator/derive/algebra.py, the exact arithmetic every derivation checks itself with: its
multiplication (Karatsuba over unreduced integers) and inverse (through the norm), its square test
(through the norms) and its Frobenius (with cached constants) against the definitions, on the
towers of the k = 24 and k = 48 families (u^2 = 13 > 0 and u^2 = -1, v^2 = u and v^2 = -(1 + u), w^2 = -v)."""

from __future__ import annotations

import random

import pytest

from generator.derive.algebra import Elem, Fq

X24 = -0xBFCFFFFF  # BLS24-315
X48 = -1 + 2**7 - 2**10 - 2**30 - 2**32  # BLS48-581 (IRTF pairing-friendly-curves draft)
P24 = (X24 - 1) ** 2 * (X24**8 - X24**4 + 1) // 3 + X24
P48 = (X48 - 1) ** 2 * (X48**16 - X48**8 + 1) // 3 + X48

TOWERS = {
    "bls24-315": Fq(P24, 4, 13, (0, 1)),
    "bls48-581": Fq(P48, 8, -1, (P48 - 1, P48 - 1), (0, 0, P48 - 1, 0)),
}


def schoolbook(F: Fq, a: Elem, b: Elem) -> Elem:
    """a b by the definition of each level: (a0 + a1 t)(b0 + b1 t) = a0 b0 + t^2 a1 b1 + (a0 b1 + a1 b0) t,
    every step reduced."""
    p = F.p
    if F.degree == 1:
        return (a[0] * b[0] % p,)
    if F.degree == 2:
        return ((a[0] * b[0] + F.beta * a[1] * b[1]) % p, (a[0] * b[1] + a[1] * b[0]) % p)
    S, h = F.subfield, F.degree // 2
    a0, a1, b0, b1 = a[:h], a[h:], b[:h], b[h:]
    c0 = S.add(schoolbook(S, a0, b0), schoolbook(S, F.non_residue, schoolbook(S, a1, b1)))
    c1 = S.add(schoolbook(S, a0, b1), schoolbook(S, a1, b0))
    return c0 + c1


def levels(F: Fq) -> list[Fq]:
    out = [F]
    while out[-1].degree > 2:
        out.append(out[-1].subfield)
    return out


def edge_elements(F: Fq) -> list[Elem]:
    p = F.p
    return [F.zero, F.one, F.elem(p - 1), tuple([p - 1] * F.degree), F.elem(*([0] * (F.degree - 1) + [1]))]


@pytest.mark.parametrize("name", TOWERS)
def test_product_is_the_schoolbook_product(name: str) -> None:
    rng = random.Random(48)
    for F in levels(TOWERS[name]):
        cases = [(F.random(rng), F.random(rng)) for _ in range(20)]
        cases += [(a, b) for a in edge_elements(F) for b in edge_elements(F)]
        for a, b in cases:
            c = F.mul(a, b)
            assert c == schoolbook(F, a, b)
            assert all(0 <= x < F.p for x in c)
            if a != F.zero:
                assert F.mul(a, F.inv(a)) == F.one


@pytest.mark.parametrize("name", TOWERS)
def test_square_test_is_eulers_criterion(name: str) -> None:
    rng = random.Random(24)
    for F in levels(TOWERS[name]):
        seen = set()
        for _ in range(6):  # an exponentiation in Fp8 takes about half a second
            a = F.random(rng)
            euler = F.pow(a, (F.order - 1) // 2) == F.one
            seen.add(euler)
            assert F.is_square(a) == euler
            assert F.is_square(F.mul(a, a))
        assert seen == {True, False}, "both answers were met"
        assert F.is_square(F.zero)


@pytest.mark.parametrize("name", TOWERS)
def test_frobenius_is_the_power(name: str) -> None:
    rng = random.Random(8)
    for F in levels(TOWERS[name]):
        for n in (1, 3, F.degree + 1):
            a = F.random(rng)
            assert F.frobenius(a, n) == F.pow(a, pow(F.p, n, F.order - 1))
        assert F.frobenius(a, F.degree) == a
