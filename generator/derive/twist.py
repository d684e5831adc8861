"""b, the sextic twist (type and order, confirmed on random points) and the two generators.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import gmpy2

from .algebra import Curve, Elem, Fq, Point
from .checks import DerivationError, require
from .tower import TowerModel

RANDOM_POINTS = 3


@dataclass(frozen=True)
class TwistModel:
    kind: str           # "D": b' = b / xi, "M": b' = b * xi
    b: Elem             # b' in Fq
    order: int          # #E'(Fq)
    cofactor: int       # h2 = order / r
    curve: Curve

    @property
    def b3_small(self) -> tuple[int, tuple[int, ...]] | None:
        """3 b' = g (k_0 + k_1 u) with small signed integers (|3 b'_i| <= 64), as (g, (k_i)),
        g > 0 the gcd of the coefficients; None when 3 b' is not that small. The doubling step
        then multiplies by 3 b' with a few additions instead of a multiplication in Fq."""
        p = self.curve.F.p
        coeffs = tuple(c if c <= p // 2 else c - p for c in (3 * x % p for x in self.b))
        if not all(abs(c) <= 64 for c in coeffs) or not any(coeffs):
            return None
        g = math.gcd(*coeffs)
        return g, tuple(c // g for c in coeffs)

    @property
    def b3_monomial(self) -> tuple[tuple[int, int, bool], ...] | None:
        """Multiplication by 3 b' as a permutation with factors, when 3 b' is c times one basis
        monomial of Fq over Fp (one non-zero coefficient; then b' a maps each coefficient of a to
        one coefficient of the product): per output coefficient i, (j, k, small) with out_i = k a_j,
        k a signed integer when small (|k| <= 64: additions), else k mod p (one multiplication in
        Fp). None over Fp, where 3 b' is already one multiplication, or when 3 b' has more than one
        non-zero coefficient (BN254's 3/(9 + u)) or a basis monomial times it is not a monomial.
        BLS12-377's 3/u and BLS24-315's 3/v are monomials: one Fp multiplication and small
        multiples instead of a multiplication in Fq."""
        F = self.curve.F
        b3 = F.scale(self.b, 3)
        if F.degree == 1 or sum(1 for c in b3 if c) != 1:
            return None
        p = F.p
        rows: list[tuple[int, int, bool] | None] = [None] * F.degree
        for j in range(F.degree):
            column = F.mul(F.elem(*([0] * j + [1])), b3)
            nonzero = [(i, c) for i, c in enumerate(column) if c]
            if len(nonzero) != 1:       # a non-residue that is no monomial (BLS24-317's v^2 = 1 + u)
                return None
            (i, k), = nonzero
            signed = k if k <= p // 2 else k - p
            rows[i] = (j, signed, True) if abs(signed) <= 64 else (j, k, False)
        return tuple(rows)  # a permutation: each output coefficient is met once


def _order_kills_random_points(E: Curve, n: int, rng: random.Random) -> bool:
    return all(E.mul(E.random_point(rng), n) is None for _ in range(RANDOM_POINTS))


def search_b(p: int, n1: int, curve: str) -> int:
    """Smallest |b| (positive first) with #E(Fp) = n1, confirmed on random points."""
    F = Fq(p, 1)
    rng = random.Random(1)
    for magnitude in range(1, 200):
        for b in (magnitude, -magnitude):
            if _order_kills_random_points(Curve(F, F.elem(b)), n1, rng):
                return b
    raise DerivationError(f"{curve}: no b with |b| < 200 gives #E(Fp) = p + 1 - t")


def check_b(p: int, b: int, n1: int, curve: str) -> None:
    F = Fq(p, 1)
    require(_order_kills_random_points(Curve(F, F.elem(b)), n1, random.Random(2)), curve,
            f"#E(Fp) = p + 1 - t on random points of y^2 = x^3 + {b}")


def derive_twist(tower: TowerModel, p: int, t: int, r: int, b: int, curve: str) -> TwistModel:
    """The sextic twist E'/Fq whose order r divides, excluding the trivial twist.

    Divisibility does not identify the twist (the trivial one is always divisible), so the
    candidate order is confirmed by [n]R = O on random points of the actual curve E'.
    """
    F = tower.fq
    q = p ** F.degree
    tq = trace_over_extension(t, p, F.degree)
    f2, rem = divmod(4 * q - tq * tq, 3)
    f, exact = gmpy2.iroot(f2, 2)
    require(rem == 0 and exact, curve, "4q - t_q^2 = 3 f^2 has an integer solution")
    f = int(f)
    candidates = []
    for s in ((tq + 3 * f) // 2, (tq - 3 * f) // 2, (-tq + 3 * f) // 2, (-tq - 3 * f) // 2, -tq):
        n = q + 1 - s
        if n % r == 0 and n not in candidates:
            candidates.append(n)
    require(bool(candidates), curve, "a non-trivial sextic twist has order divisible by r")
    b_fq = F.elem(b)
    rng = random.Random(3)
    for kind, b_twist in (("D", F.mul(b_fq, F.inv(tower.xi))), ("M", F.mul(b_fq, tower.xi))):
        E = Curve(F, b_twist)
        for n in candidates:
            if _order_kills_random_points(E, n, rng):
                return TwistModel(kind=kind, b=b_twist, order=n, cofactor=n // r, curve=E)
    raise DerivationError(f"{curve}: no twist type (D or M) has an order divisible by r on random points")


def trace_over_extension(t: int, p: int, n: int) -> int:
    """The trace of E over Fp^n: t_n = t t_(n-1) - p t_(n-2), t_0 = 2, t_1 = t."""
    prev, cur = 2, t
    for _ in range(n - 1):
        prev, cur = cur, t * cur - p * prev
    return cur


def _check_generator(E: Curve, G: Point, r: int, curve: str, group: str) -> None:
    require(G is not None and E.on_curve(G), curve, f"{group} generator is on the curve")
    require(E.mul(G, r) is None, curve, f"{group} generator has order r ([r]G = O)")


def derive_generator(E: Curve, cofactor: int, r: int, given: tuple | None, curve: str, group: str) -> Point:
    """The given generator after checking it, or the first of x = 1, 2, ... (x = i + u on Fp2,
    x = i on Fp4), lifted with the smaller y and multiplied by the cofactor, that is not the identity."""
    F = E.F
    if given is not None:
        if F.degree == 1:
            G = (F.elem(*given[0]) if isinstance(given[0], tuple) else F.elem(given[0]),
                 F.elem(*given[1]) if isinstance(given[1], tuple) else F.elem(given[1]))
        else:
            G = (F.elem(*given[0]), F.elem(*given[1]))
        _check_generator(E, G, r, curve, group)
        return G
    for i in range(1, 10_000):
        x = F.elem(i, 1) if F.degree == 2 else F.elem(i)
        P = E.lift_x(x)
        if P is None:
            continue
        G = E.mul(P, cofactor)
        if G is not None:
            _check_generator(E, G, r, curve, group)
            return G
    raise DerivationError(f"{curve}: no {group} generator found")
