"""BW6 cofactor clearing, subgroup tests and GT tests as polynomials of the inner seed x, from the
curve's lift (ht, hy), its trace case and its optimal ate pair.

Why: a BW6 curve's cofactor-clearing formulas depend on its lift, so a table of one curve's
polynomials (BW6-761's, BW6-633's) fails for every other lift. El Housni and Guillevic give them
with (ht, hy) as parameters for both trace cases and both inner families (eprint 2020/351 for
BW6-761, 2021/1359 and its companion code for the rest), hy in the published convention
(families.bw6_y_residue). With d1 = (ht^2 + 3 hy^2)/4, d2 = (ht + 3 hy)/2, d3 = (ht - 3 hy)/2, the
optimal ate pair's scalar c other than x + 1 (x^3 - x^2 - x over BLS12, x^5 - x^4 - x over BLS24),
v = (c + 1)/(x + 1) ((x - 1)^2 over BLS12, (x - 1)^2 (x^2 + 1) over BLS24) and w = c + x + 1,
their formulas take one shape over both inner families:
* trace case 3: G1 [d1 w + d2 v + ht] + phi o [d1 (x + 1) - d3 (v + 1) + ht],
                G2 [d1 c + d2 (v + 1) - ht] + phi^2 o [-d1 (x + 1) - d3 v - ht];
* trace case 0: G1 [d1 w - ht v - d3] + phi o [d1 (x + 1) - d2 v - ht],
                G2 [-d1 (x + 1) - d2 (v + 1) + ht] + phi o [d1 c - ht v - d2].
At BW6-761's lift (13, 9) the case-3 pair is HG20's [103x^3 - 83x^2 - 40x + 136] + phi o
[7x^2 + 89x + 130] and [103x^3 - 83x^2 - 143x + 27] + phi^2 o [7x^2 - 117x - 109]; at BW6-633's
(-7, -1) the case-0 pair is gnark-crypto's. endomorphisms.derive_group proves each on the curve
(the integer it equals on the whole E(Fq), checked on random points) before using it.

When no published formula proves out, the fallback is derived: on E(Fq), of trace t_E, Frobenius is
a + b phi with 2a - b = t_E and 3 b^2 = 4q - t_E^2, and it fixes every point, so phi acts there as
lam = (1 - a)/b modulo the cofactor h(x); the Q[x]-lattice {(l0, l1) : l0 + l1 lam = 0 mod h(x)}
is reduced (weak Popov form, psi_clearing.weak_popov) and its shortest row, cleared of
denominators, is [l0] + phi o [l1]. The last resort is [m h(x)], h(x) written as a polynomial in x
with integer coefficients (m its denominator).

Subgroup and GT tests from the optimal ate pair (c0, c1), c0 + p c1 = 0 mod r: p is a primitive
sixth root of unity mod r, so phi acts on G as the cube root of unity -p (or its square, tried by
the caller) and [c0] - phi o [c1] vanishes on G (the form of El Housni–Guillevic–Piellard, eprint
2022/352); on GT, f^c0 (f^p)^c1 = 1. The caller proves each (kernel exactly G, gcd = r).

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import reduce

import sympy
from sympy import QQ, Poly

from .psi_clearing import weak_popov

X = sympy.Symbol("x")
Coeffs = tuple[tuple[int, ...], ...]   # coeffs[i][j]: coefficient of phi^i o [x^j]


@dataclass(frozen=True)
class BW6Data:
    """What the BW6 formulas are written in: the lift, the trace case, the inner family, the optimal
    ate pair (c0(x), c1(x)) and the curve's polynomials."""

    inner: str
    trace_case: int
    ht: int
    hy: int
    loop: tuple[sympy.Expr, sympy.Expr]
    p_poly: sympy.Expr
    r_poly: sympy.Expr
    t_poly: sympy.Expr
    y_poly: sympy.Expr


def _ints(poly: sympy.Expr) -> tuple[int, ...]:
    """Integer coefficients of poly, degree 0 first (raises if one is not an integer)."""
    coeffs = [sympy.Rational(c) for c in reversed(Poly(sympy.expand(poly), X).all_coeffs())]
    if any(c.q != 1 for c in coeffs):
        raise ValueError(f"{poly} has non-integer coefficients")
    out = [int(c) for c in coeffs]
    while out and out[-1] == 0:
        out.pop()
    return tuple(out)


def format_poly(coeffs: tuple[int, ...]) -> str:
    """[103x^3 - 83x^2 - 40x + 136] style, highest degree first."""
    terms = []
    for j in range(len(coeffs) - 1, -1, -1):
        c = coeffs[j]
        if c == 0:
            continue
        mag = abs(c)
        body = (f"{mag if mag != 1 or j == 0 else ''}" + ("x" if j >= 1 else "") + (f"^{j}" if j >= 2 else ""))
        terms.append(("-" if c < 0 else "+", body))
    if not terms:
        return "[0]"
    sign, body = terms[0]
    text = ("-" if sign == "-" else "") + body
    for sign, body in terms[1:]:
        text += f" {sign} {body}"
    return f"[{text}]"


def _long_scalar(data: BW6Data) -> sympy.Expr:
    """The optimal ate pair's entry other than x + 1."""
    c0, c1 = data.loop
    return c1 if sympy.expand(c0 - (X + 1)) == 0 else c0


def published_clearing(data: BW6Data) -> dict[str, tuple[Coeffs, str]]:
    """{"G1": ..., "G2": ...}: El Housni–Guillevic's cofactor-clearing formulas at this lift and
    trace case (module docstring), as phi^i o [x^j] coefficients, with their description."""
    ht, hy = data.ht, data.hy
    d1, d2, d3 = sympy.Rational(ht * ht + 3 * hy * hy, 4), sympy.Rational(ht + 3 * hy, 2), sympy.Rational(ht - 3 * hy, 2)
    c = _long_scalar(data)
    v = sympy.cancel((c + 1) / (X + 1))
    w = c + X + 1
    if data.trace_case == 3:
        g1 = (d1 * w + d2 * v + ht, d1 * (X + 1) - d3 * (v + 1) + ht)
        g2, g2_power = (d1 * c + d2 * (v + 1) - ht, -d1 * (X + 1) - d3 * v - ht), 2
    else:
        g1 = (d1 * w - ht * v - d3, d1 * (X + 1) - d2 * v - ht)
        g2, g2_power = (-d1 * (X + 1) - d2 * (v + 1) + ht, d1 * c - ht * v - d2), 1
    source = "HG20" if (data.inner, data.trace_case) == ("BLS12", 3) else "HG21"
    out = {}
    for group, (a, b), power in (("G1", g1, 1), ("G2", g2, g2_power)):
        rows: list[tuple[int, ...]] = [_ints(a)] + [()] * (power - 1) + [_ints(b)]
        phi = "phi" if power == 1 else f"phi^{power}"
        text = f"p1 + {phi}(p2), p1 = {format_poly(rows[0])}, p2 = {format_poly(rows[-1])} ({source})"
        out[group] = (tuple(rows), text)
    return out


def _trace_b(t_e: sympy.Expr, q: sympy.Expr) -> sympy.Expr | None:
    """b(x) with 3 b^2 = 4q - t_E^2 (Frobenius = a + b phi, 2a - b = t_E), or None if not a square."""
    content, factors = sympy.factor_list(sympy.expand((4 * q - t_e**2) / 3), X)
    b = sympy.sqrt(content)
    if not b.is_rational:
        return None
    for f, e in factors:
        if e % 2:
            return None
        b *= f ** (e // 2)
    return sympy.expand(b)


def twist_trace(data: BW6Data, x: int, t_value: int) -> sympy.Expr | None:
    """The trace polynomial of E or of its sextic twist whose value at the seed is t_value: one of
    +-t, +-(t +- 3y)/2 (the six twists of a j = 0 curve)."""
    t, y = data.t_poly, data.y_poly
    for cand in (t, -t, (t + 3 * y) / 2, (t - 3 * y) / 2, -(t + 3 * y) / 2, -(t - 3 * y) / 2):
        if sympy.Rational(cand.subs(X, x)) == t_value:
            return sympy.expand(cand)
    return None


def derived_clearing(data: BW6Data, t_e: sympy.Expr) -> tuple[Coeffs, str] | None:
    """[l0] + phi o [l1] with l0 + l1 lam = 0 mod h(x), the shortest row of the reduced lattice
    (module docstring), for the curve of trace t_E(x) over Fp; None where phi has no eigenvalue
    modulo h(x) (b not invertible there)."""
    q, r = data.p_poly, data.r_poly
    h = Poly(sympy.cancel((q + 1 - t_e) / r), X, domain=QQ)
    b = _trace_b(t_e, q)
    if b is None or h.degree() < 1:
        return None
    bq = Poly(b, X, domain=QQ)
    if not bq.gcd(h).is_one:
        return None
    a = (Poly(t_e, X, domain=QQ) + bq) * sympy.Rational(1, 2)
    lam = ((Poly(1, X, domain=QQ) - a) * Poly(sympy.invert(b, h.as_expr(), X), X, domain=QQ)).rem(h)
    rows = weak_popov([[h, Poly(0, X, domain=QQ)], [-lam, Poly(1, X, domain=QQ)]])
    best = min(rows, key=lambda row: (max(e.degree() for e in row), sum(len([c for c in e.all_coeffs() if c]) for e in row)))
    if not ((best[0] + best[1] * lam).rem(h)).is_zero:
        return None
    denominators = [sympy.Rational(c).q for e in best for c in e.all_coeffs()]
    scale = reduce(lambda u, v: u * v // math.gcd(u, v), denominators, 1)
    ints = [_ints(e.as_expr() * scale) for e in best]
    content = reduce(math.gcd, (abs(c) for row in ints for c in row), 0)
    rows_int = tuple(tuple(c // content for c in row) for row in ints)
    text = (f"p1 + phi(p2), p1 = {format_poly(rows_int[0])}, p2 = {format_poly(rows_int[1])} (derived: the "
            "lattice-reduced phi combination, no published formula applies)")
    return rows_int, text


def scalar_clearing(data: BW6Data, t_e: sympy.Expr) -> tuple[Coeffs, str] | None:
    """[m h(x)] as a polynomial in x with integer coefficients (m the denominator of h(x)): the
    last resort, a plain multiple of the cofactor."""
    h = sympy.cancel((data.p_poly + 1 - t_e) / data.r_poly)
    coeffs = [sympy.Rational(c) for c in reversed(Poly(h, X).all_coeffs())]
    m = reduce(lambda u, v: u * v // math.gcd(u, v), (c.q for c in coeffs), 1)
    row = tuple(int(c * m) for c in coeffs)
    return (row,), f"{format_poly(row)} = [{m} h(x)] (derived: no endomorphism formula applies)"


def loop_subgroup_test(data: BW6Data) -> tuple[Coeffs, str]:
    """[c0] - phi o [c1] from the optimal ate pair (module docstring)."""
    c0, c1 = (_ints(c) for c in data.loop)
    return ((c0, tuple(-c for c in c1)),
            f"{format_poly(c0)} P == phi({format_poly(c1)} P), from the optimal ate pair (HGP 2022/352)")


def loop_gt_test(data: BW6Data) -> tuple[Coeffs, str]:
    """f^c0 (f^p)^c1 == 1 from the optimal ate pair (module docstring)."""
    c0, c1 = (_ints(c) for c in data.loop)
    return ((c0, c1), f"f^{format_poly(c0)} (f^p)^{format_poly(c1)} == 1, from the optimal ate pair "
                      "(HGP 2022/352, in GT)")
