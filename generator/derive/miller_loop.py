"""Optimal ate Miller loops per family, as data: loop terms with their digits.

A loop is a list of terms f_{c_i, Q_i}(P) sharing the squarings of f. Term i doubles its own
accumulator T_i and adds +-Q_i at its non-zero digits; a term whose digits are shorter starts
later (its T_i is set to Q_i at its top digit).

* BN (Vercauteren 2010): one term c = 6x + 2 (NAF), then the two Frobenius correction lines
  l_{T, psi(Q)} and l_{T + psi(Q), -psi^2(Q)}.
* BLS12, BLS24 and BLS48: one term c = |x| (binary or NAF, whichever has fewer non-zero digits),
  since x = p mod r; the lines are those of the sextic twist over Fp^(k/6) (Fp2, Fp4, Fp8).
* BW6 (El Housni–Guillevic, eprint 2020/351, optimal ate eq. (1)):
  f = f_{x+1,Q}(P) * f_{x^3-x^2-x,Q}(P)^p over BLS12 (trace case 3); in general f_{c0,Q} f_{c1,Q}^p
  with (c0, c1) from the family derivation (BW6-633 over BLS24-315: (x^5-x^4-x, x+1)). The p-power is moved onto the point:
  f_{c,Q}^p = f_{c,pi(Q)} and pi acts on G2 as [p mod r], which on the twist (j = 0) is an
  automorphism (x, y) -> (zeta x, s y); zeta and s are derived and checked on the generator.
  The two terms share one loop of squarings and one accumulator T = [n_0]Q + [n_1]pi(Q) that is
  doubled once per step and adds +-Q or +-pi(Q) at the digits of either term (the joint loop of
  El Housni–Guillevic eprint 2021/1359, Alg. 2, as in gnark-crypto). Its value differs from
  f_{x+1,Q} f_{x^3-x^2-x,pi(Q)} by the line through [x+1]Q and [x^3-x^2-x]pi(Q) = -[x+1]Q, a
  vertical line whose value at P lies in a proper subfield and vanishes in the final
  exponentiation; so the pairing values are those of eq. (1). derive_miller_loop checks that no
  step before the last meets an exceptional case (T = O or T = +-Q_i).
For a negative loop scalar, f is conjugated after the loop (f^(p^(k/2)) = 1/f after the final
exponentiation) and T negated before any correction lines.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from .algebra import Curve, Elem, Point
from .checks import DerivationError, require
from .families import X
from .tower import TowerModel


@dataclass(frozen=True)
class MillerTerm:
    scalar: int                 # |c|
    digits: tuple[int, ...]     # signed digits of |c|, most significant first (top digit is 1)
    zeta: Elem | None           # Q_i = (zeta x, sign y); None means Q_i = Q
    sign: int


@dataclass(frozen=True)
class MillerLoopModel:
    terms: tuple[MillerTerm, ...]
    negative: bool              # the loop scalars are negative: conjugate f, negate T
    frobenius_corrections: bool  # BN: the two extra lines with psi(Q) and -psi^2(Q)
    psi: tuple[tuple[Elem, Elem], ...]  # (c_x, c_y) of psi^n, n = 0..k/3 - 1 (k = 12, 24, 48); else empty
    formula: str
    shared_accumulator: bool = False  # several terms, one T doubled once per step (joint loop)

    @property
    def length(self) -> int:
        return max(len(t.digits) for t in self.terms)

    @property
    def signed_scalars(self) -> tuple[int, ...]:
        """The loop scalars with their sign (BW6: the pair (c0, c1) of f_{c0,Q} f_{c1,Q}^p, which
        generator.reference's ``bw6_loop`` takes)."""
        return tuple(-t.scalar if self.negative else t.scalar for t in self.terms)


def naf(n: int) -> tuple[int, ...]:
    """Non-adjacent form of n > 0, most significant digit first."""
    digits = []
    while n:
        if n & 1:
            d = 2 - (n & 3)
            n -= d
        else:
            d = 0
        digits.append(d)
        n >>= 1
    return tuple(reversed(digits))


def binary(n: int) -> tuple[int, ...]:
    return tuple(int(b) for b in bin(n)[2:])


def lightest_digits(n: int) -> tuple[int, ...]:
    """Binary or NAF, whichever needs fewer additions (ties go to binary: no negation)."""
    b, s = binary(n), naf(n)
    weight = lambda ds: sum(1 for d in ds if d)  # noqa: E731
    return b if weight(b) <= weight(s) else s


def _digits_value(digits: tuple[int, ...]) -> int:
    value = 0
    for d in digits:
        value = 2 * value + d
    return value


def psi_coefficients(tower: TowerModel, twist_kind: str, p: int) -> tuple[tuple[Elem, Elem], ...]:
    """psi^n(x, y) = (frob^n(x) c_x, frob^n(y) c_y) for n = 0 .. k/3 - 1 (untwist-Frobenius-twist):
    n = 0..3 for k = 12, 0..7 for k = 24, 0..15 for k = 48: k/3 = phi(k) powers, a basis of Z[psi]
    acting on G2, where p has order k."""
    F = tower.fq
    base = tower.xi if twist_kind == "D" else F.inv(tower.xi)
    order = F.order - 1
    return tuple((F.pow(base, (p**n - 1) // 3 % order), F.pow(base, (p**n - 1) // 2 % order))
                 for n in range(tower.k // 3))


def apply_psi(E: Curve, psi: tuple[tuple[Elem, Elem], ...], Q: Point, n: int) -> Point:
    if Q is None:
        return None
    F = E.F
    cx, cy = psi[n]
    return (F.mul(F.frobenius(Q[0], n), cx), F.mul(F.frobenius(Q[1], n), cy))


def _frobenius_automorphism(E: Curve, G2: Point, p: int, r: int, curve: str) -> tuple[Elem, int]:
    """(zeta, s) with [p mod r]Q = (zeta x, s y) on the twist, for k = 6."""
    F = E.F
    target = E.mul(G2, p % r)
    zeta_candidates = [F.one]
    # The cube roots of unity in Fq: c^((q-1)/3) for a non-cube c.
    for c in range(2, 100):
        z = F.pow(F.elem(c), (F.order - 1) // 3)
        if z != F.one:
            zeta_candidates += [z, F.mul(z, z)]
            break
    for zeta in zeta_candidates:
        for s in (1, -1):
            Q1 = (F.mul(zeta, G2[0]), G2[1] if s == 1 else F.neg(G2[1]))
            if Q1 == target:
                return zeta, s
    raise DerivationError(f"{curve}: [p]Q is not an automorphism image of Q on the twist")


def _poly_text(poly: sympy.Expr) -> str:
    """x^3-x^2-x: a loop polynomial as the formula's compact text."""
    return str(sympy.expand(poly)).replace("**", "^").replace(" ", "")


def derive_miller_loop(family: str, x: int, p: int, r: int, tower: TowerModel, twist_kind: str,
                       E2: Curve, G2: Point, curve: str,
                       loop: tuple[sympy.Expr, sympy.Expr] | None = None) -> MillerLoopModel:
    """The loop terms of the family's optimal ate pairing; loop: BW6's (c0(x), c1(x)) from the
    family derivation (f_{c0,Q} f_{c1,Q}^p; default (x + 1, x^3 - x^2 - x), BW6 over BLS12)."""
    psi: tuple[tuple[Elem, Elem], ...] = ()
    if tower.k in (12, 24, 48):
        psi = psi_coefficients(tower, twist_kind, p)
        require(apply_psi(E2, psi, G2, 1) == E2.mul(G2, p % r), curve, "psi(G2) = [p mod r] G2")
        require(apply_psi(E2, psi, G2, 2) == E2.mul(G2, p * p % r), curve, "psi^2(G2) = [p^2 mod r] G2")
    if family == "BN":
        c = 6 * x + 2
        require((c + p - p**2 + p**3) % r == 0, curve, "6x + 2 + p - p^2 + p^3 = 0 mod r (optimal ate)")
        terms = (MillerTerm(abs(c), naf(abs(c)), None, 1),)
        negative, corrections = c < 0, True
        formula = "BN optimal ate (Vercauteren): f_{6x+2,Q} l_{T,psi(Q)} l_{T+psi(Q),-psi^2(Q)}"
    elif family == "BLS12":
        require((x - p) % r == 0, curve, "x = p mod r (optimal ate with one term)")
        terms = (MillerTerm(abs(x), lightest_digits(abs(x)), None, 1),)
        negative, corrections = x < 0, False
        formula = "BLS12 optimal ate: f_{|x|,Q}, conjugated when x < 0"
    elif family in ("BLS24", "BLS48"):
        require((x - p) % r == 0, curve, "x = p mod r (optimal ate with one term)")
        terms = (MillerTerm(abs(x), lightest_digits(abs(x)), None, 1),)
        negative, corrections = x < 0, False
        formula = f"{family} optimal ate: f_{{|x|,Q}}, conjugated (f^(p^{tower.k // 2})) when x < 0"
    elif family == "BW6":
        polys = loop if loop is not None else (X + 1, X**3 - X**2 - X)
        c0, c1 = (int(sympy.Poly(poly, X).eval(x)) for poly in polys)
        t0, t1 = (_poly_text(poly) for poly in polys)
        require((c0 + p * c1) % r == 0, curve, f"({t0}) + p ({t1}) = 0 mod r (HG20 optimal ate)")
        if (c0 < 0) != (c1 < 0):
            raise DerivationError(f"{curve}: BW6 loop scalars {t0} and {t1} have different signs")
        zeta, s = _frobenius_automorphism(E2, G2, p, r, curve)
        terms = (
            MillerTerm(abs(c0), lightest_digits(abs(c0)), None, 1),
            MillerTerm(abs(c1), lightest_digits(abs(c1)), zeta, s),
        )
        negative, corrections = c0 < 0, False
        formula = (f"BW6 optimal ate (El Housni–Guillevic 2020/351 eq. (1)): f_{{{t0},Q}} * f_{{{t1},Q}}^p, "
                   "with the p-power moved onto the point (pi(Q) = [p]Q) and one shared loop")
    else:
        # a family params accepts (its fields, tower and twist derive) with no Miller loop yet
        raise DerivationError(f"{curve}: the {family} family has no Miller loop derivation yet, so no code can be "
                              "generated for it (its fields, tower and twist derive, and generator.reference "
                              "computes its pairing)")
    for term in terms:
        require(_digits_value(term.digits) == term.scalar and term.digits[0] == 1, curve,
                "Miller loop digits encode the loop scalar")
    shared = len(terms) > 1
    if shared:
        eigenvalues = [1] + [p % r for _ in terms[1:]]       # Q_i = [p]Q (derived above)
        require(all(t.zeta is not None for t in terms[1:]), curve, "joint loop: Q_i = [p]Q for the later terms")
        _check_joint_loop(terms, eigenvalues, r, curve)
        formula += "; joint loop with one accumulator (El Housni–Guillevic 2021/1359 Alg. 2)"
    return MillerLoopModel(terms=terms, negative=negative, frobenius_corrections=corrections, psi=psi,
                           formula=formula, shared_accumulator=shared)


def _check_joint_loop(terms: tuple[MillerTerm, ...], eigenvalues: list[int], r: int, curve: str) -> None:
    """Step the joint loop on scalars mod r (T = [t]Q, Q_i = [eigenvalues[i]]Q): no doubling of O,
    no addition with T = O or T = +-Q_i, except the last addition, which must reach O (the loop
    scalar is a multiple of r)."""
    length = max(len(t.digits) for t in terms)
    t: int | None = None
    steps: list[tuple[int, int]] = []           # (index, term) of every addition, in loop order
    for i in range(length):
        for k, term in enumerate(terms):
            j = i - (length - len(term.digits))
            if j >= 0 and term.digits[j]:
                steps.append((i, k))
    last = steps[-1]
    for i in range(length):
        if t is not None and i > 0:
            require(t % r != 0, curve, f"joint loop: T = O before the doubling at step {i}")
            t = 2 * t % r
        for k, term in enumerate(terms):
            j = i - (length - len(term.digits))
            if j < 0 or not term.digits[j]:
                continue
            q = term.digits[j] * eigenvalues[k] % r
            if t is None:
                t = q
                continue
            require(t % r != 0 and (t - q) % r != 0 and (t + q) % r != 0 or (i, k) == last, curve,
                    f"joint loop: exceptional addition at step {i}")
            t = (t + q) % r
    require(t == 0, curve, "joint loop: the loop scalar sum_i c_i lambda_i is 0 mod r")
