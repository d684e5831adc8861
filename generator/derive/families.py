"""The BN, BLS12, BLS24, BLS48 and BW6 families: p, r, t as polynomials in the seed, and their checks.

BN (Barreto–Naehrig 2005) and BLS12 (Barreto–Lynn–Scott 2002) have k = 12; BLS24 has k = 24
(r = Phi_24(x) = x^8 - x^4 + 1, p = (x - 1)^2 r / 3 + x, t = x + 1) and BLS48 has k = 48 (r =
Phi_48(x) = x^16 - x^8 + 1, the same p and t); for every BLS family #E(Fp) = (x - 1)^2 r / 3, so
h1(x) = (x - 1)^2 / 3, and the sextic twist's cofactor h2(x) over Fp^(k/6) is derived from the
family's polynomials (``twist_cofactor_polynomial``). BW6 (Brezing–Weng,
El Housni–Guillevic eprint 2020/351 and 2021/1359) has k = 6 and is built over a BLS12 or BLS24
curve of the same seed: its r is the inner curve's p, and t, y are lifted by (ht, hy) multiples of r.

BW6 traces, derived: a k = 6, D = 3 curve of order divisible by r needs t - 1 to be a primitive
sixth root of unity mod r, so t = t0 mod r with t0 = (3 +- sqrt(-3))/2 mod r(x), and y = (t - 2)/sqrt(-3);
sqrt(-3) = t_in / y_in mod r(x) from the inner curve's CM equation 4 p_in = t_in^2 + 3 y_in^2, and
y0 = +-t0 / 3 solves (t0 - 2)^2 + 3 y0^2 = 0 mod r(x) for both roots. The two roots are the two
trace cases: t0(0) = 0 ("t mod r = 0 mod x", BW6-633 over BLS24-315, BW6-767 over BLS12-381) or
t0(0) = 3 (BW6-761 over BLS12-377). The lift hy is taken in the published convention (El Housni–
Guillevic's formulas, gnark-crypto's and arkworks' (ht, hy)): y = t0/3 + hy r in the case 3 and
y = -t0/3 + hy r in the case 0, that is y0 = (2 - t0)/sqrt(-3) in both, sqrt(-3) = t_in / y_in. The optimal ate loop (c0, c1), c0 + p c1 = 0 mod r with p = t0 - 1 mod r, is the pair
with one entry x + 1 and the other c = -(x + 1)(t0 - 1)^(+-1) mod r(x) divisible by x.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import gmpy2
import sympy

from ..params_common import X  # the seed, the symbol curve-file polynomials are written in
from .checks import DerivationError, require

BN_P = 36 * X**4 + 36 * X**3 + 24 * X**2 + 6 * X + 1
BN_R = 36 * X**4 + 36 * X**3 + 18 * X**2 + 6 * X + 1
BN_T = 6 * X**2 + 1
BLS12_P = (X - 1) ** 2 * (X**4 - X**2 + 1) / 3 + X
BLS12_R = X**4 - X**2 + 1
BLS12_T = X + 1
BLS24_P = (X - 1) ** 2 * (X**8 - X**4 + 1) / 3 + X
BLS24_R = X**8 - X**4 + 1
BLS24_T = X + 1
BLS48_P = (X - 1) ** 2 * (X**16 - X**8 + 1) / 3 + X
BLS48_R = X**16 - X**8 + 1
BLS48_T = X + 1
BLS_H1 = (X - 1) ** 2 / 3          # (p + 1 - t) / r for every BLS family
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
    t_poly: sympy.Expr | None = None         # t(x), and for BW6 y(x) with 4 p = t^2 + 3 y^2
    y_poly: sympy.Expr | None = None
    inner: str | None = None                 # BW6: the inner family (BLS12 or BLS24)
    trace_case: int | None = None            # BW6: t0(0), the constant term of t(x) mod r(x): 0 or 3
    loop: tuple[sympy.Expr, sympy.Expr] | None = None  # BW6: (c0(x), c1(x)), f_{c0,Q} f_{c1,Q}^p
    h1_poly: sympy.Expr | None = None        # BLS48: h1(x) = (x - 1)^2 / 3
    h2_poly: sympy.Expr | None = None        # BLS48: #E'(Fp^(k/6)) / r as a polynomial in x


INNER_FAMILIES = {"BLS12": (BLS12_P, BLS12_T), "BLS24": (BLS24_P, BLS24_T)}
TRACE_CASES = (3, 0)     # tried in this order when a BW6 curve file names none


@functools.lru_cache(maxsize=None)
def bw6_trace_residues(inner: str) -> dict[int, sympy.Expr]:
    """{t0(0): t0(x)} for the two roots t0 = (3 +- sqrt(-3))/2 mod r(x), r = the inner p (module
    docstring), each checked: t0 - 1 is a primitive sixth root of unity mod r(x)."""
    p_in, t_in = INNER_FAMILIES[inner]
    r = sympy.Poly(p_in, X, domain="QQ")
    content, factors = sympy.factor_list(sympy.expand((4 * p_in - t_in**2) / 3), X)
    y_in = sympy.sqrt(content)
    for f, e in factors:
        if e % 2:
            raise DerivationError(f"BW6 over {inner}: (4 p - t^2)/3 is not a square polynomial")
        y_in *= f ** (e // 2)
    s = (sympy.Poly(t_in, X, domain="QQ") * sympy.Poly(sympy.invert(sympy.expand(y_in), p_in, X), X, domain="QQ")).rem(r)
    if not (s * s + 3).rem(r).is_zero:
        raise DerivationError(f"BW6 over {inner}: t / y is not a square root of -3 mod r(x)")
    roots = {}
    for sign in (1, -1):
        t0 = ((sympy.Poly(3, X, domain="QQ") + sign * s) * sympy.Rational(1, 2)).rem(r)
        zeta = t0 - 1
        if not (zeta**2 - zeta + 1).rem(r).is_zero:
            raise DerivationError(f"BW6 over {inner}: t0 - 1 is not a primitive sixth root of unity mod r(x)")
        roots[int(t0.eval(0))] = t0.as_expr()
    if set(roots) != set(TRACE_CASES):
        raise DerivationError(f"BW6 over {inner}: the trace residues have constant terms {sorted(roots)}, not 0 and 3")
    return roots


def bw6_loop(inner: str, trace_case: int) -> tuple[sympy.Expr, sympy.Expr]:
    """(c0, c1) with c0 + p c1 = 0 mod r(x): x + 1 and -(x + 1)(t0 - 1)^(+-1) mod r(x), whichever
    is divisible by x (module docstring)."""
    r = sympy.Poly(INNER_FAMILIES[inner][0], X, domain="QQ")
    zeta = sympy.Poly(bw6_trace_residues(inner)[trace_case], X, domain="QQ") - 1
    x1 = sympy.Poly(X + 1, X, domain="QQ")
    c1 = (-x1 * sympy.Poly(sympy.invert(zeta.as_expr(), r.as_expr(), X), X, domain="QQ")).rem(r)
    c0 = (-x1 * zeta).rem(r)
    for pair in ((x1, c1), (c0, x1)):
        other = pair[1] if pair[0] == x1 else pair[0]
        if other.eval(0) == 0 and all(sympy.Rational(c).q == 1 for c in other.all_coeffs()):
            if not (pair[0] + zeta * pair[1]).rem(r).is_zero:
                raise DerivationError(f"BW6 over {inner}: c0 + (t0 - 1) c1 != 0 mod r(x)")
            return pair[0].as_expr(), pair[1].as_expr()
    raise DerivationError(f"BW6 over {inner}: no optimal ate pair (x + 1, c) with c(0) = 0")


def bw6_y_residue(inner: str, trace_case: int) -> sympy.Expr:
    """y0(x) with y = y0 + hy r: t0/3 in the trace case 3 and -t0/3 in the case 0, the convention of
    the published lifts (module docstring): BW6-761's (13, 9), BW6-633's (-7, -1), BW6-767's (-4, -6)."""
    t0 = bw6_trace_residues(inner)[trace_case]
    return t0 / 3 if trace_case == 3 else -t0 / 3


def bw6_polynomials(ht: int, hy: int, inner: str = "BLS12",
                    trace_case: int = 3) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr]:
    """p(x), r(x), t(x) of the BW6 curve over the inner family's curve of seed x with lifts (ht, hy)
    and trace t0 of the given case: t = t0 + ht r, y = y0 + hy r (bw6_y_residue), p = (t^2 + 3 y^2) / 4."""
    r = INNER_FAMILIES[inner][0]
    t = bw6_trace_residues(inner)[trace_case] + ht * r
    p = sympy.expand((t**2 + 3 * bw6_y(hy, inner, trace_case) ** 2) / 4)
    return p, sympy.expand(r), sympy.expand(t)


def bw6_y(hy: int, inner: str, trace_case: int) -> sympy.Expr:
    """y(x) = y0 + hy r with 4 p = t^2 + 3 y^2: Frobenius is (t +- y)/2 + (+-y) phi on E(Fp)."""
    return sympy.expand(bw6_y_residue(inner, trace_case) + hy * INNER_FAMILIES[inner][0])


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
    if k == 48:
        return p**16 - p**8 + 1
    raise ValueError(f"unsupported embedding degree {k}")


def _qq(poly: sympy.Expr) -> sympy.Poly:
    return sympy.Poly(sympy.expand(poly), X, domain="QQ")


def _poly_sqrt(square: sympy.Poly) -> sympy.Poly | None:
    """The square root with a positive leading coefficient of a perfect-square polynomial over Q,
    found top down (each coefficient from the highest one not yet matched), or None."""
    degree = square.degree()
    lead = sympy.sqrt(square.LC())
    if degree % 2 or not lead.is_rational:
        return None
    half = degree // 2
    root = sympy.Poly(lead * X**half, X, domain="QQ")
    for i in range(half - 1, -1, -1):
        rest = square - root * root
        if rest.is_zero or rest.degree() < half + i:
            continue
        coeff = rest.coeff_monomial(X ** (half + i)) / (2 * lead)
        root += sympy.Poly(coeff * X**i, X, domain="QQ")
    return root if (square - root * root).is_zero else None


def twist_cofactor_polynomial(p_poly: sympy.Expr, r_poly: sympy.Expr, t_poly: sympy.Expr, k: int) -> sympy.Expr:
    """h2(x) = #E'(Fq) / r(x) for the sextic twist over q = p^(k/6), as a polynomial in x.

    The trace over Fq is t_q = t t_(q/p) - p t_(q/p^2) (t_0 = 2, t_1 = t); 4 q - t_q^2 = 3 f^2 with f a
    polynomial (D = 3), and the sextic twists have the orders q + 1 - (+-t_q +- 3 f)/2: the one divisible
    by r(x) is E', the curve r divides besides E(Fq) itself (whose order q + 1 - t_q is not it for
    these families). The numeric twist derivation (twist.py) confirms the order on points."""
    p, r, t = _qq(p_poly), _qq(r_poly), _qq(t_poly)
    prev, cur = sympy.Poly(2, X, domain="QQ"), t
    for _ in range(k // 6 - 1):
        prev, cur = cur, t * cur - p * prev
    q = p ** (k // 6)
    f = _poly_sqrt(((4 * q - cur * cur) * sympy.Rational(1, 3)))
    if f is None:
        raise DerivationError(f"k = {k}: (4 q - t_q^2) / 3 is not a square polynomial")
    orders = [q + 1 - (s1 * cur + s2 * 3 * f) * sympy.Rational(1, 2) for s1 in (1, -1) for s2 in (1, -1)]
    divisible = [n for n in orders if n.rem(r).is_zero and n != q + 1 - cur]
    if len(divisible) != 1:
        raise DerivationError(f"k = {k}: {len(divisible)} sextic twist orders are divisible by r(x), not one")
    return divisible[0].quo(r).as_expr()


def _check(curve: str, k: int, p: int, r: int, t: int) -> None:
    require(gmpy2.is_prime(p, 50), curve, "p is prime")
    require(gmpy2.is_prime(r, 50), curve, "r is prime")
    require((p + 1 - t) % r == 0, curve, "r divides #E(Fp) = p + 1 - t")
    require(cyclotomic(k, p) % r == 0, curve, f"r divides Phi_{k}(p)")
    for d in range(1, k):
        if k % d == 0:
            require(pow(p, d, r) != 1, curve, f"embedding degree is exactly {k} (p^{d} != 1 mod r)")
    require(t * t < 4 * p, curve, "Hasse bound |t| <= 2 sqrt(p)")


def _bw6_lift_valid(x: int, ht: int, hy: int, inner: str, trace_case: int) -> bool:
    """The lift gives an integral prime p = 1 mod 3 that passes the family checks."""
    polys = bw6_polynomials(ht, hy, inner, trace_case)
    try:
        p, r, t = (_eval(poly, x) for poly in polys)
        if not (p > 3 and gmpy2.is_prime(p, 30) and p % 3 == 1):
            return False
        _check("", 6, p, r, t)
    except DerivationError:
        return False
    return True


def _bw6_search(x: int, curve: str, inner: str, trace_case: int) -> tuple[int, int] | None:
    """Smallest (|ht| + |hy|) lift giving a prime p; positive values first (HG20 §3)."""
    for total in range(0, 40):
        for ht in sorted(range(-total, total + 1), key=lambda v: (abs(v), -v)):
            for hy in (total - abs(ht), -(total - abs(ht))):
                if (ht - hy) % 2:
                    continue
                p_poly, _, _ = bw6_polynomials(ht, hy, inner, trace_case)
                try:
                    p = _eval(p_poly, x)
                except DerivationError:
                    continue
                if p > 3 and gmpy2.is_prime(p, 30) and p % 3 == 1:
                    return ht, hy
    return None


def _bw6_choose(x: int, curve: str, ht: int | None, hy: int | None, inner: str,
                trace_case: int | None) -> tuple[int, int, int]:
    """(ht, hy, trace case): the given ones, else the first case of TRACE_CASES whose given lift
    is valid, or whose smallest lift exists."""
    cases = TRACE_CASES if trace_case is None else (trace_case,)
    for case in cases:
        if ht is not None and hy is not None:
            if _bw6_lift_valid(x, ht, hy, inner, case):
                return ht, hy, case
            continue
        found = _bw6_search(x, curve, inner, case)
        if found is not None:
            return found[0], found[1], case
    lift = (f"(ht, hy) = ({ht}, {hy}) gives no prime p = 1 mod 3" if ht is not None
            else "no lift (ht, hy) with |ht| + |hy| < 40 gives a prime p = 1 mod 3")
    message = f"{curve}: BW6 over {inner}: {lift} in trace case(s) {', '.join(map(str, cases))}"
    if ht is not None and hy is not None and hy != 0:
        twins = [case for case in cases if _bw6_lift_valid(x, ht, -hy, inner, case)]
        if twins:
            case = twins[0]
            y0 = "t0/3" if case == 3 else "-t0/3"
            message += (f"; its other-sign twin (ht, hy) = ({ht}, {-hy}) does (trace case {case}): hy is taken "
                        f"in the published convention y = {y0} + hy r of the trace case {case} (El Housni–"
                        f"Guillevic, gnark-crypto, arkworks), so change the key 'hy' to {-hy}")
    raise DerivationError(message)


def derive_family(family: str, x: int, curve: str, ht: int | None = None, hy: int | None = None,
                  inner: str = "BLS12", trace_case: int | None = None) -> FamilyValues:
    """p, r, t, h1 from the family and seed, each checked (BW6: over the inner family, in the
    given trace case or the first that gives a curve)."""
    loop = y_poly = None
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
    elif family == "BLS48":
        require(x % 3 == 1, curve, "BLS48 seed satisfies x = 1 mod 3 (p is integral)")
        polys = (BLS48_P, BLS48_R, BLS48_T)
        k = 48
    elif family == "BW6":
        require(inner in INNER_FAMILIES, curve, f"BW6 inner family {inner} is one of {', '.join(INNER_FAMILIES)}")
        require(x % 3 == 1, curve, f"BW6 seed is a {inner} seed: x = 1 mod 3")
        ht, hy, trace_case = _bw6_choose(x, curve, ht, hy, inner, trace_case)
        polys = bw6_polynomials(ht, hy, inner, trace_case)
        y_poly = bw6_y(hy, inner, trace_case)
        loop = bw6_loop(inner, trace_case)
        k = 6
    else:
        raise DerivationError(f"{curve}: unknown family {family}")
    p_poly, r_poly, t_poly = polys
    p, r, t = (_eval(poly, x) for poly in polys)
    _check(curve, k, p, r, t)
    h1_poly = h2_poly = None
    if family == "BLS48":
        h1_poly = BLS_H1
        h2_poly = twist_cofactor_polynomial(p_poly, r_poly, t_poly, k)
        require(_eval(h1_poly, x) * r == p + 1 - t, curve, "h1(x) r(x) = p + 1 - t")
    return FamilyValues(k=k, p=p, r=r, t=t, h1=(p + 1 - t) // r, p_poly=sympy.expand(p_poly),
                        r_poly=sympy.expand(r_poly), ht=ht, hy=hy, t_poly=sympy.expand(t_poly),
                        y_poly=y_poly,
                        inner=inner if family == "BW6" else None,
                        trace_case=trace_case if family == "BW6" else None, loop=loop,
                        h1_poly=h1_poly, h2_poly=h2_poly)
