"""The BN, BLS12, BLS24 and BW6 families: p, r, t as polynomials in the seed, and their checks.

BN (Barreto–Naehrig 2005) and BLS12 (Barreto–Lynn–Scott 2002) have k = 12; BLS24 has k = 24
(r = Phi_24(x) = x^8 - x^4 + 1, p = (x - 1)^2 r / 3 + x, t = x + 1). BW6 (Brezing–Weng,
El Housni–Guillevic eprint 2020/351) has k = 6 and is built over a BLS12 curve of the same seed:
its r is the BLS12 p, and t, y are lifted by (ht, hy) multiples of r.
"""

from __future__ import annotations

from dataclasses import dataclass

import gmpy2
import sympy

from .checks import DerivationError, require

X = sympy.Symbol("x")

BN_P = 36 * X**4 + 36 * X**3 + 24 * X**2 + 6 * X + 1
BN_R = 36 * X**4 + 36 * X**3 + 18 * X**2 + 6 * X + 1
BN_T = 6 * X**2 + 1
BLS12_P = (X - 1) ** 2 * (X**4 - X**2 + 1) / 3 + X
BLS12_R = X**4 - X**2 + 1
BLS12_T = X + 1
BLS24_P = (X - 1) ** 2 * (X**8 - X**4 + 1) / 3 + X
BLS24_R = X**8 - X**4 + 1
BLS24_T = X + 1
BW6_T0 = X**5 - 3 * X**4 + 3 * X**3 - X + 3


@dataclass(frozen=True)
class FamilyValues:
    """p, r, t and the polynomials they came from (for the final-exponentiation derivation)."""

    k: int
    p: int
    r: int
    t: int
    h1: int
    p_poly: sympy.Expr
    r_poly: sympy.Expr
    ht: int | None = None
    hy: int | None = None


def bw6_polynomials(ht: int, hy: int) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr]:
    """p(x), r(x), t(x) of the BW6 curve over the BLS12 curve of seed x with lifts (ht, hy)."""
    r = BLS12_P
    t = BW6_T0 + ht * r
    y = BW6_T0 / 3 + hy * r
    p = sympy.expand((t**2 + 3 * y**2) / 4)
    return p, sympy.expand(r), sympy.expand(t)


def _eval(poly: sympy.Expr, x: int) -> int:
    value = sympy.Rational(poly.subs(X, x))
    if value.q != 1:
        raise DerivationError(f"polynomial {poly} is not integral at x = {x}")
    return int(value.p)


def cyclotomic(k: int, p: int) -> int:
    """Phi_k(p) for the embedding degrees used here."""
    if k == 12:
        return p**4 - p**2 + 1
    if k == 6:
        return p**2 - p + 1
    if k == 24:
        return p**8 - p**4 + 1
    raise ValueError(f"unsupported embedding degree {k}")


def _check(curve: str, k: int, p: int, r: int, t: int) -> None:
    require(gmpy2.is_prime(p, 50), curve, "p is prime")
    require(gmpy2.is_prime(r, 50), curve, "r is prime")
    require((p + 1 - t) % r == 0, curve, "r divides #E(Fp) = p + 1 - t")
    require(cyclotomic(k, p) % r == 0, curve, f"r divides Phi_{k}(p)")
    for d in range(1, k):
        if k % d == 0:
            require(pow(p, d, r) != 1, curve, f"embedding degree is exactly {k} (p^{d} != 1 mod r)")
    require(t * t < 4 * p, curve, "Hasse bound |t| <= 2 sqrt(p)")


def _bw6_search(x: int, curve: str) -> tuple[int, int]:
    """Smallest (|ht| + |hy|) lift giving a prime p; positive values first (HG20 §3)."""
    for total in range(0, 40):
        for ht in sorted(range(-total, total + 1), key=lambda v: (abs(v), -v)):
            for hy in (total - abs(ht), -(total - abs(ht))):
                if (ht - hy) % 2:
                    continue
                p_poly, _, _ = bw6_polynomials(ht, hy)
                try:
                    p = _eval(p_poly, x)
                except DerivationError:
                    continue
                if p > 3 and gmpy2.is_prime(p, 30) and p % 3 == 1:
                    return ht, hy
    raise DerivationError(f"{curve}: no BW6 lift (ht, hy) with |ht| + |hy| < 40 gives a prime p")


def derive_family(family: str, x: int, curve: str, ht: int | None = None, hy: int | None = None) -> FamilyValues:
    """p, r, t, h1 from the family and seed, each checked."""
    if family == "BN":
        polys = (BN_P, BN_R, BN_T)
        k = 12
    elif family == "BLS12":
        require(x % 3 == 1, curve, "BLS12 seed satisfies x = 1 mod 3 (p is integral)")
        polys = (BLS12_P, BLS12_R, BLS12_T)
        k = 12
    elif family == "BLS24":
        require(x % 3 == 1, curve, "BLS24 seed satisfies x = 1 mod 3 (p is integral)")
        polys = (BLS24_P, BLS24_R, BLS24_T)
        k = 24
    elif family == "BW6":
        require(x % 3 == 1, curve, "BW6 seed is a BLS12 seed: x = 1 mod 3")
        if ht is None or hy is None:
            ht, hy = _bw6_search(x, curve)
        polys = bw6_polynomials(ht, hy)
        k = 6
    else:
        raise DerivationError(f"{curve}: unknown family {family}")
    p_poly, r_poly, t_poly = polys
    p, r, t = (_eval(poly, x) for poly in polys)
    _check(curve, k, p, r, t)
    return FamilyValues(k=k, p=p, r=r, t=t, h1=(p + 1 - t) // r, p_poly=sympy.expand(p_poly),
                        r_poly=sympy.expand(r_poly), ht=ht, hy=hy)
