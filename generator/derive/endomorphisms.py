"""Endomorphisms of G1 and G2: cofactor clearing, subgroup membership tests and GLV/GLS data.

Each group has one cheap endomorphism `e`:
* phi(x, y) = (zeta x, y) with zeta a cube root of unity in Fq, when the group's curve is over
  Fp (G1, and G2 of k = 6 curves): e^2 + e + 1 = 0;
* psi = untwist o Frobenius o twist on E'(Fp2) (G2 of k = 12 curves): e^2 - t e + p = 0
  (Galbraith–Scott).
On G (order r) e acts as a scalar `lam`. Formulas are written as sums of e^i o [x^j] with small
integer coefficients, so that C evaluates them with multiplications by the low-weight seed x.

Cofactor clearing (per family, the literature's formulas):
* BLS12 G1: [1 - x] (Wahby–Boneh, eprint 2019/403 §5; h_eff of RFC 9380);
* BLS12 G2: [x^2 - x - 1] + [x - 1] psi + [2] psi^2 (Budroni–Pintore, eprint 2017/419 §4.1),
  equal to [3 (x^2 - 1) h2] (the RFC 9380 h_eff of the BLS12-381 suites);
* BLS24 G2: [x^4 - x^3 - 1] + psi o [x^3 - x^2] + psi^2 o [x^2 - x] + psi^3 o [x - 1] + psi^4 o [2],
  Budroni–Pintore's method carried to k = 24 (found by generator/derive/psi_clearing.py, which
  also finds the BLS12 formula above), equal to [3 (x^4 - 1) h2];
* BLS48 G1: [1 - x]; G2: [x^8 - x^7 - 1] + psi o [x^7 - x^6] + ... + psi^7 o [x - 1] + psi^8 o [2],
  the same search at k = 48 (about two minutes, so kept here as data and re-found by a slow test),
  its h_eff the scalar it is proven to equal in Z[psi] (psi_formula_scalar);
* BN G1: the cofactor is 1; BN G2: [x] + psi o [3x] + psi^2 o [x] + psi^3 (Fuentes-Castañeda,
  Knapp, Rodríguez-Henríquez 2011), equal to [-(18x^3 + 12x^2 + 3x + 1) h2] (gnark-crypto's
  ClearCofactor, which its hash to G2 uses);
* BW6 G1 and G2: the El Housni–Guillevic formulas (eprint 2020/351 over BLS12, 2021/1359 over
  BLS12 and BLS24; the ones gnark-crypto's ClearCofactor uses for BW6-761 and BW6-633), written in
  the curve's lift (ht, hy) and trace case (bw6_formulas.py); where they do not prove out, a
  lattice-reduced phi combination derived for the curve, and last [m h(x)]; the rendered comment
  says which was taken. h_eff is the integer the formula equals on the whole E(Fq), derived from
  Frobenius = a + b phi (so phi = (1 - a) / b on E(Fq)). A BW6 curve's formulas are polynomials of
  its inner family's seed, so the tables key them by "BW6/<inner family>" (``formula_family``).
Each one is checked on random points of the whole curve: equal to [h_eff]P, killed by [r]. The psi
formulas are also proven: c(psi) - h_eff lies in the ideal (Phi_k(psi), #E'(Fq)) of Z[psi], whose
relations hold on the whole twist (psi_clearing.py; Phi_k(psi) = 0 is checked on random points).
h_eff choice: the RFC 9380 values where an RFC suite exists (BLS12-381 G1 0xd201000000010001, G2
3 (x^2 - 1) h2); elsewhere the integer that gnark-crypto's ClearCofactor (used by its hash to curve)
equals, since the formulas above are the ones it implements for BN254, BLS12-377 and BW6-761.

Subgroup tests (Scott, eprint 2021/1130; El Housni–Guillevic–Piellard, eprint 2022/352; and
eprint 2022/348 for BN G2): a formula alpha = sum c_ij e^i x^j with alpha(lam) = 0 mod r, so
G is in its kernel. It is a valid test when its kernel on E(Fq) is exactly G: the kernel has
order dividing deg(alpha) = N(alpha) (the norm in Z[e]), so gcd(N(alpha), h) = 1 and r not
dividing h prove it. When no candidate passes, the test is [r]P.
GT: f in the cyclotomic subgroup and f^e = 1 with e = sum c_ij x^j p^i; the solutions form the
subgroup of order gcd(e, Phi_k(p)) of the cyclic group of order Phi_k(p), so gcd = r proves it.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import gmpy2
import sympy
from sympy import ZZ
from sympy.polys.matrices.ddm import DDM

from .algebra import Curve, Elem, Point
from .bw6_formulas import (
    BW6Data,
    derived_clearing,
    loop_gt_test,
    loop_subgroup_test,
    published_clearing,
    scalar_clearing,
    twist_trace,
)
from .checks import require
from .families import cyclotomic
from .miller_loop import apply_psi, lightest_digits
from .psi_clearing import psi_formula_equals, psi_formula_scalar

Coeffs = tuple[tuple[int, ...], ...]   # coeffs[i][j]: coefficient of e^i o [x^j]

RANDOM_POINTS = 3


@dataclass(frozen=True)
class Decomposition:
    """k = sum k_i lam^i mod r with short k_i (GLV/GLS, Babai rounding with precomputed constants).

    With the reduced basis B (rows b_j, sum_i b_ji lam^i = 0 mod r) and w = first row of B^-1:
    M_j = (k |g_j| + 2^(shift-1)) >> shift, c_j = sign(g_j) M_j with g_j = round(w_j 2^shift),
    k_i = [i = 0] k - sum_j c_j b_ji. This is exactly what the C computes (in constant time).
    """

    dim: int
    basis: tuple[tuple[int, ...], ...]
    g: tuple[int, ...]
    shift: int
    bits: int                   # |k_i| < 2^bits for every k < 2^(bit length of r)
    g_words: int                # 64-bit words of |g_j|
    m_words: int                # of M_j
    b_words: int                # of |b_ji|
    acc_words: int              # of the signed accumulator of k_i (two's complement)
    ct_window: int              # signed (Booth) window of the constant-time path
    vartime_window: int         # wNAF width of the variable-time path

    def split(self, k: int) -> list[int]:
        ms = [(k * abs(g) + (1 << (self.shift - 1))) >> self.shift for g in self.g]
        cs = [m if g >= 0 else -m for m, g in zip(ms, self.g, strict=True)]
        return [(k if i == 0 else 0) - sum(c * b[i] for c, b in zip(cs, self.basis, strict=True)) for i in range(self.dim)]


@dataclass(frozen=True)
class GroupEndo:
    """The endomorphism data of one group (G1 or G2)."""

    group: str                  # "G1" or "G2"
    kind: str                   # "phi" (x -> zeta x) or "psi"
    zeta: Elem | None           # phi's cube root of unity (kind "phi")
    lam: int                    # e acts as [lam] on G
    trace: int                  # e^2 - trace e + det = 0 on the whole curve
    det: int
    cofactor: int               # h
    clear: Coeffs | None        # cofactor clearing, equal to [h_eff]; None: not derived for this family
    h_eff: int | None
    clear_formula: str
    test: Coeffs | None         # subgroup test sum == O, or None: [r]P
    test_note: str
    glv: Decomposition
    test_vector: tuple[int, ...] | None = None  # or sum [u_i] e^i(P) == O with these integers
    seed_digits: tuple[int, ...] = ()            # signed digits of |x|, most significant first

    @property
    def max_power(self) -> int:
        return max(len(self.clear or ()), len(self.test or ())) - 1


@dataclass(frozen=True)
class GTTest:
    coeffs: Coeffs | None       # f^(sum c_ij x^j p^i) == 1, or None: f^r == 1
    note: str


@dataclass(frozen=True)
class EndomorphismModel:
    g1: GroupEndo
    g2: GroupEndo
    gt: GTTest
    gt_glv: Decomposition       # exponents split along the Frobenius (p acts as p mod r on GT)


# ----------------------------------------------------------------------------------------------
# Formulas as data


def poly_value(coeffs: Coeffs, x: int, e: int) -> int:
    """sum c_ij x^j e^i as an integer."""
    return sum(c * x**j * e**i for i, row in enumerate(coeffs) for j, c in enumerate(row))


def reduce_in_order(coeffs: Coeffs, x: int, trace: int, det: int) -> tuple[int, int]:
    """(u0, u1) with sum c_ij x^j e^i = u0 + u1 e modulo e^2 - trace e + det."""
    u0, u1 = 0, 0      # accumulates e^i as a0 + a1 e
    a0, a1 = 1, 0
    for row in coeffs:
        c = sum(cj * x**j for j, cj in enumerate(row))
        u0, u1 = u0 + c * a0, u1 + c * a1
        a0, a1 = -det * a1, a0 + trace * a1
    return u0, u1


def norm(u0: int, u1: int, trace: int, det: int) -> int:
    """N(u0 + u1 e) = (u0 + u1 e)(u0 + u1 e') = u0^2 + trace u0 u1 + det u1^2."""
    return u0 * u0 + trace * u0 * u1 + det * u1 * u1


def swap_phi(coeffs: Coeffs) -> Coeffs:
    """The same formula with phi replaced by phi^2 (the other cube root of unity)."""
    rows: list[list[int]] = [[] for _ in range(3)]
    for i, row in enumerate(coeffs):
        k = (2 * i) % 3
        target = rows[k]
        for j, c in enumerate(row):
            while len(target) <= j:
                target.append(0)
            target[j] += c
    while rows and not any(rows[-1]):
        rows.pop()
    return tuple(tuple(r) for r in rows)


class Evaluator:
    """Evaluates e^i and formulas on affine points of one group's curve (for the checks)."""

    def __init__(self, E: Curve, kind: str, zeta: Elem | None, psi: tuple, x: int) -> None:
        self.E, self.kind, self.zeta, self.psi, self.x = E, kind, zeta, psi, x

    def endo(self, P: Point, n: int) -> Point:
        if P is None or n == 0:
            return P
        if self.kind == "psi":
            return apply_psi(self.E, self.psi, P, n)
        F = self.E.F
        assert self.zeta is not None
        return (F.mul(F.pow(self.zeta, n), P[0]), P[1])

    def formula(self, coeffs: Coeffs, P: Point) -> Point:
        E = self.E
        powers = [P]
        for _ in range(max(len(row) for row in coeffs) - 1):
            powers.append(E.mul(powers[-1], self.x))
        acc: Point = None
        for i, row in enumerate(coeffs):
            s: Point = None
            for j, c in enumerate(row):
                s = E.add(s, E.mul(powers[j], c))
            acc = E.add(acc, self.endo(s, i))
        return acc


# ----------------------------------------------------------------------------------------------
# Candidate formulas per family (coefficients of e^i o [x^j])

CLEAR = {
    ("BLS12", "G1"): (((1, -1),), "[1 - x] (Wahby–Boneh 2019/403)"),
    ("BLS12", "G2"): (((-1, -1, 1), (-1, 1), (2,)),
                      "[x^2 - x - 1] + psi o [x - 1] + psi^2 o [2] (Budroni–Pintore 2017/419)"),
    ("BN", "G1"): (((1,),), "identity (the cofactor is 1)"),
    ("BN", "G2"): (((0, 1), (0, 3), (0, 1), (1,)),
                   "[x] + psi o [3x] + psi^2 o [x] + psi^3 (Fuentes-Castañeda et al. 2011)"),
    ("BLS24", "G1"): (((1, -1),), "[1 - x] (Wahby–Boneh 2019/403; h1 = (x - 1)^2 / 3 as for BLS12)"),
    ("BLS24", "G2"): (((-1, 0, 0, -1, 1), (0, 0, -1, 1), (0, -1, 1), (-1, 1), (2,)),
                      "[x^4 - x^3 - 1] + psi o [x^3 - x^2] + psi^2 o [x^2 - x] + psi^3 o [x - 1] + psi^4 o [2] "
                      "(Budroni–Pintore 2017/419 for k = 24; derive/psi_clearing.py)"),
    ("BLS48", "G1"): (((1, -1),), "[1 - x] (Wahby–Boneh 2019/403; h1 = (x - 1)^2 / 3 as for BLS12)"),
    ("BLS48", "G2"): (((-1, 0, 0, 0, 0, 0, 0, -1, 1), (0, 0, 0, 0, 0, 0, -1, 1), (0, 0, 0, 0, 0, -1, 1),
                       (0, 0, 0, 0, -1, 1), (0, 0, 0, -1, 1), (0, 0, -1, 1), (0, -1, 1), (-1, 1), (2,)),
                      "[x^8 - x^7 - 1] + psi o [x^7 - x^6] + ... + psi^7 o [x - 1] + psi^8 o [2] "
                      "(Budroni–Pintore 2017/419 for k = 48; derive/psi_clearing.py)"),
    # BW6: written in the curve's lift and trace case (bw6_formulas.published_clearing)
}

TESTS = {
    ("BLS12", "G1"): [(((0, 0, 1), (1,)), "[x^2] P + phi(P) == O (Scott 2021/1130)")],
    ("BLS12", "G2"): [(((0, -1), (1,)), "psi(P) == [x] P (Scott 2021/1130; HGP 2022/352)")],
    ("BLS24", "G1"): [(((1, 0, 0, 0, -1), (1,)), "phi(P) == [x^4 - 1] P (Scott 2021/1130, for k = 24)")],
    ("BLS24", "G2"): [(((0, -1), (1,)), "psi(P) == [x] P (Scott 2021/1130; HGP 2022/352)")],
    ("BLS48", "G1"): [(((1, 0, 0, 0, 0, 0, 0, 0, -1), (1,)), "phi(P) == [x^8 - 1] P (Scott 2021/1130, for k = 48)")],
    ("BLS48", "G2"): [(((0, -1), (1,)), "psi(P) == [x] P (Scott 2021/1130; HGP 2022/352)")],
    ("BN", "G2"): [(((1, 1), (0, 1), (0, 1), (0, -2)),
                    "[x+1] P + psi([x] P) + psi^2([x] P) == psi^3([2x] P) (eprint 2022/348)")],
    ("BW6/BLS12", "G1"): [(((1, 1), (1, 0, -1, 1)), "[x+1] P + phi([x^3 - x^2 + 1] P) == O (HGP 2022/352)")],
    ("BW6/BLS12", "G2"): [(((1, 1), (1, 0, -1, 1)), "[x+1] P + phi([x^3 - x^2 + 1] P) == O (HGP 2022/352)")],
    ("BW6/BLS24", "G1"): [(((0, 1, 0, 0, 1, -1), (1, 1)), "[-x^5 + x^4 + x] P + phi([x+1] P) == O (HGP 2022/352)")],
    ("BW6/BLS24", "G2"): [(((0, 1, 0, 0, 1, -1), (1, 1)), "[-x^5 + x^4 + x] P + phi([x+1] P) == O (HGP 2022/352)")],
}

GT_TESTS = {
    "BLS12": [(((0, -1), (1,)), "f^p == f^x (Scott 2021/1130)")],
    "BLS24": [(((0, -1), (1,)), "f^p == f^x (Scott 2021/1130)")],
    "BLS48": [(((0, -1), (1,)), "f^p == f^x (Scott 2021/1130)")],
    "BN": [(((0, 0, -6), (1,)), "f^p == f^(6x^2) (Scott 2021/1130)")],
    "BW6/BLS12": [(((1, 1), (), (1, 0, -1, 1)), "f^(x+1) (f^(p^2))^(x^3 - x^2 + 1) == 1 (HGP 2022/352, in GT)")],
    # phi acts on GT as p^2 or p^4 (the two cube roots of unity): both are tried, gcd(e, Phi_6(p)) = r decides
    "BW6/BLS24": [(((0, 1, 0, 0, 1, -1), (), (1, 1)), "f^(-x^5 + x^4 + x) (f^(p^2))^(x+1) == 1 (HGP 2022/352, in GT)"),
                  (((0, 1, 0, 0, 1, -1), (), (), (), (1, 1)),
                   "f^(-x^5 + x^4 + x) (f^(p^4))^(x+1) == 1 (HGP 2022/352, in GT)")],
}


def formula_family(family: str, inner_family: str | None = None) -> str:
    """The key of the formula tables: the family, and for BW6 also the inner curve's family (its
    formulas are polynomials in the inner seed)."""
    return f"{family}/{inner_family or 'BLS12'}" if family == "BW6" else family


# ----------------------------------------------------------------------------------------------
# Derivation


def _cube_root_of_unity(E: Curve) -> Elem:
    F = E.F
    for c in range(2, 1000):
        z = F.pow(F.elem(c), (F.order - 1) // 3)
        if z != F.one:
            return z
    raise AssertionError("no cube root of unity")


def _cube_roots_mod(r: int) -> list[int]:
    """The two roots of l^2 + l + 1 mod r (r = 1 mod 3)."""
    for g in range(2, 1000):
        c = pow(g, (r - 1) // 3, r)
        if c != 1:
            return [c, c * c % r]
    raise AssertionError("no cube root of unity mod r")


def _clearing_candidates(family: str, group: str, bw6: BW6Data | None, x: int,
                         t_e: int) -> Iterator[tuple[Coeffs, str]]:
    """The cofactor-clearing formulas to try, in order: the family's published one; for BW6 the
    El Housni–Guillevic formula at the curve's lift, then the derived lattice combination, then
    [m h(x)] (bw6_formulas.py), each produced only when the ones before did not prove out."""
    if (family, group) in CLEAR:
        yield CLEAR[(family, group)]
    if bw6 is None:
        return
    yield published_clearing(bw6)[group]
    trace = twist_trace(bw6, x, t_e)
    if trace is None:
        return
    derived = derived_clearing(bw6, trace)
    if derived is not None:
        yield derived
    yield scalar_clearing(bw6, trace)


def derive_group(family: str, group: str, E: Curve, G: Point, r: int, h: int, x: int, t: int,
                 p: int, psi: tuple, curve: str, bw6: BW6Data | None = None) -> GroupEndo:
    """The endomorphism data of one group; E is its curve (E(Fp) or the twist), h its cofactor,
    t the trace of the curve over Fp (psi satisfies e^2 - t e + p = 0); bw6: a BW6 curve's lift,
    trace case and polynomials, which its formulas are written in."""
    rng = random.Random(11)
    F = E.F
    n = r * h
    t_e = F.order + 1 - n            # the trace of E over its own field Fq
    if psi and group == "G2":
        kind, zeta, trace, det = "psi", None, t, p
        lam = p % r
    else:
        kind, zeta, trace, det = "phi", _cube_root_of_unity(E), -1, 1
        phiG = (F.mul(zeta, G[0]), G[1])
        lams = [lam for lam in _cube_roots_mod(r) if E.mul(G, lam) == phiG]
        require(len(lams) == 1, curve, f"{group}: phi(G) = [lam] G for one root of lam^2 + lam + 1 mod r")
        lam = lams[0]
    ev = Evaluator(E, kind, zeta, psi, x)
    for _ in range(RANDOM_POINTS):
        P = E.random_point(rng)
        lhs = E.add(E.add(ev.endo(P, 2), E.neg(E.mul(ev.endo(P, 1), trace))), E.mul(P, det))
        require(lhs is None, curve, f"{group}: e^2 - ({trace}) e + {det} = 0 on random points of the curve")
    require(ev.endo(G, 1) == E.mul(G, lam), curve, f"{group}: e(G) = [lam] G on the generator")

    # cofactor clearing (families without a derived formula keep None: [h] is not rendered)
    found: tuple[Coeffs, int] | None = None
    base: Coeffs = ()
    formula = "not derived for this family"
    for base, formula in _clearing_candidates(family, group, bw6, x, t_e):
        found = _prove_clearing(base, formula, kind, ev, E, rng, family, group, x, t, p, r, h, n, t_e, curve)
        if found is not None:
            break
    clear: Coeffs | None = None
    h_eff: int | None = None
    if base:
        require(found is not None, curve,
                f"{group}: cofactor clearing {formula} equals [h_eff] (r does not divide h_eff) and lands in G "
                "on random points")
        assert found is not None
        clear, h_eff = found
        require(ev.formula(clear, G) == E.mul(G, h_eff), curve, f"{group}: cofactor clearing on the generator")

    # subgroup membership test
    test: Coeffs | None = None
    note = "[r]P == O (no fast test proven for this curve)"
    if h == 1:
        test, note = (), "the cofactor is 1: every point of the curve is in G"
    tests = TESTS.get((family, group), []) + ([loop_subgroup_test(bw6)] if bw6 is not None else [])
    for cand, text in tests if h != 1 else []:
        if kind == "phi" and poly_value(cand, x, lam) % r != 0:
            cand = swap_phi(cand)
        if poly_value(cand, x, lam) % r != 0 or h % r == 0:
            continue
        u0, u1 = reduce_in_order(cand, x, trace, det)
        N = norm(u0, u1, trace, det)
        if N == 0 or not _kernel_prime_to(ev, cand, N, h, n, rng):
            continue
        require(ev.formula(cand, G) is None, curve, f"{group}: subgroup test {text} holds on G")
        for _ in range(RANDOM_POINTS):
            P = E.random_point(rng)
            require(ev.formula(cand, P) is not None, curve, f"{group}: subgroup test rejects random points")
        test = cand
        note = (f"{text}; proven: N(alpha) ({N.bit_length()} bits) is prime to h, except small primes l "
                f"for which alpha is injective on E(Fq)[l] (checked on its points)")
        break
    dim = 2 if kind == "phi" else len(psi)      # psi: phi(k) = k/3 for k = 12, 24, 48
    glv = derive_decomposition(lam, r, dim, curve, group)
    # the decomposition on the generator: sum [k_i] e^i(G) = [k] G
    k = (r * 2) // 3 + 12345
    acc: Point = None
    for i, ki in enumerate(glv.split(k)):
        acc = E.add(acc, E.mul(ev.endo(G, i), ki))
    require(acc == E.mul(G, k), curve, f"{group}: sum [k_i] e^i(G) = [k] G for the decomposition")
    test_vector = None
    if test is None and h % r != 0:
        test_vector, note = _numeric_test(ev, glv, lam, r, h, n, trace, det, G, rng, curve, group, note)
    return GroupEndo(group=group, kind=kind, zeta=zeta, lam=lam, trace=trace, det=det, cofactor=h,
                     clear=clear, h_eff=h_eff, clear_formula=formula, test=test, test_note=note, glv=glv,
                     test_vector=test_vector, seed_digits=lightest_digits(abs(x)))


def _prove_clearing(coeffs: Coeffs, formula: str, kind: str, ev: Evaluator, E: Curve, rng: random.Random,
                    family: str, group: str, x: int, t: int, p: int, r: int, h: int, n: int, t_e: int,
                    curve: str) -> tuple[Coeffs, int] | None:
    """(formula, h_eff) when the formula (or, for phi, the same with phi^2) equals [h_eff] on the
    whole curve with r not dividing h_eff, checked on random points; None otherwise."""
    choices = [coeffs] if kind == "psi" or len(coeffs) == 1 else [coeffs, swap_phi(coeffs)]
    for coeffs in choices:
        if len(coeffs) == 1:
            h_eff = poly_value(coeffs, x, 0)
        elif kind == "psi":
            k = 6 * E.F.degree               # a sextic twist over Fq = F_(p^(k/6))
            h_eff = _psi_h_eff(family, x, h)
            if h_eff is None:                # no published value: the scalar the formula equals
                h_eff = psi_formula_scalar(coeffs, x, k, t, p, r, h)
            if h_eff is not None:
                _require_psi_relations(ev, E, rng, curve, group)
                require(psi_formula_equals(coeffs, x, k, t, p, n, h_eff), curve,
                        f"{group}: cofactor clearing {formula} equals [h_eff] on E'(Fq): proven in "
                        "Z[psi] / (Phi_k(psi), #E'(Fq))")
        else:
            h_eff = _phi_h_eff(ev, coeffs, n, t_e, x, rng)
        if h_eff is None or h_eff % r == 0:
            continue
        points = [E.random_point(rng) for _ in range(RANDOM_POINTS)]
        images = [ev.formula(coeffs, P) for P in points]
        if all(Q == E.mul(P, h_eff) and E.mul(Q, r) is None for P, Q in zip(points, images, strict=True)):
            return coeffs, h_eff
    return None


def _numeric_test(ev: Evaluator, glv: Decomposition, lam: int, r: int, h: int, n: int, trace: int, det: int,
                  G: Point, rng: random.Random, curve: str, group: str,
                  note: str) -> tuple[tuple[int, ...] | None, str]:
    """A short lattice vector u (sum u_i lam^i = 0 mod r) whose endomorphism sum u_i e^i has no
    kernel outside G on E(Fq), proven as for the formulas; evaluated with the GLV machinery."""
    rows = list(glv.basis)
    cands = rows + [tuple(a + b for a, b in zip(u, v, strict=True)) for i, u in enumerate(rows) for v in rows[i + 1:]] \
        + [tuple(a - b for a, b in zip(u, v, strict=True)) for i, u in enumerate(rows) for v in rows[i + 1:]]
    for u in sorted(cands, key=lambda v: max(abs(c) for c in v)):
        if max(abs(c) for c in u).bit_length() > glv.bits:
            continue
        coeffs = tuple((c,) for c in u)
        u0, u1 = reduce_in_order(coeffs, 0, trace, det)
        N = norm(u0, u1, trace, det)
        if N == 0 or not _kernel_prime_to(ev, coeffs, N, h, n, rng):
            continue
        require(ev.formula(coeffs, G) is None, curve, f"{group}: the numeric subgroup test holds on G")
        return u, (f"sum [u_i] e^i(P) == O for a reduced lattice vector u (norm {N.bit_length()} bits), "
                   f"proven as above; the literature's formula was rejected")
    return None, note


def _words(bits: int) -> int:
    return max(1, (bits + 63) // 64)


def _ct_window(dim: int, bits: int) -> int:
    """The signed window minimising doublings + complete additions + table reads + table setup
    (relative costs: dbl 0.6, complete add 1.6, cmov of one entry 0.04, setup add 1)."""
    def cost(w: int) -> float:
        windows = (bits + 1 + w - 1) // w
        entries = (1 << (w - 1)) + 1
        return windows * w * 0.6 + windows * dim * (1.6 + 0.04 * entries) + dim * (entries - 2)
    return min(range(2, 8), key=cost)


def _vartime_window(dim: int, bits: int) -> int:
    """The wNAF width minimising additions: bits / (w + 1) digits per scalar, 2^(w-2) table entries."""
    return min(range(2, 9), key=lambda w: dim * (bits / (w + 1) + (1 << (w - 2))))


def derive_decomposition(lam: int, r: int, dim: int, curve: str, group: str) -> Decomposition:
    """A reduced basis of {(a_0..a_{d-1}) : sum a_i lam^i = 0 mod r} (LLL) and the rounding constants.

    The reduction is sympy's own LLL on its pure-Python dense matrix (DDM), whatever sympy's ground
    types: DomainMatrix.lll hands the work to python-flint where that is installed, whose LLL returns
    another (equally reduced) basis, so the rendered endomorphism.h would depend on the machine."""
    rows = [[r] + [0] * (dim - 1)] + [[-pow(lam, i, r)] + [1 if j == i else 0 for j in range(1, dim)]
                                      for i in range(1, dim)]
    M = DDM([[ZZ(v) for v in row] for row in rows], (dim, dim), ZZ).lll()
    basis = tuple(tuple(int(v) for v in row) for row in M.to_list())
    B = sympy.Matrix(basis)
    det = int(B.det())
    require(abs(det) == r, curve, f"{group}: the GLV basis has determinant +-r")
    for row in basis:
        require(sum(b * pow(lam, i, r) for i, b in enumerate(row)) % r == 0, curve,
                f"{group}: GLV basis vectors lie in the lattice")
    rbits = r.bit_length()
    require(max(abs(v) for row in basis for v in row).bit_length() <= rbits // dim + 4, curve,
            f"{group}: the GLV basis is short (|b| < 2^(log r / {dim} + 4))")
    adj = B.adjugate()
    shift = rbits + 4
    w = [Fraction(int(adj[0, j]), det) for j in range(dim)]   # first row of B^-1 = adj[0, :] / det
    g = tuple(round(wj * (1 << shift)) for wj in w)
    eps = Fraction(1, 2) + Fraction(1 << rbits, 1) * max(abs(Fraction(gj, 1 << shift) - wj) for gj, wj in zip(g, w, strict=True))
    bound = max(eps * sum(abs(row[i]) for row in basis) for i in range(dim))
    bits = int(bound).bit_length()
    require(bits <= rbits // dim + 4, curve, f"{group}: GLV sub-scalars are below 2^(log r / {dim} + 4)")
    m_bits = max(((((1 << rbits) * abs(gj)) + (1 << (shift - 1))) >> shift).bit_length() for gj in g)
    b_bits = max(abs(v) for row in basis for v in row).bit_length()
    acc_bits = max(rbits, m_bits + b_bits + dim.bit_length()) + 1
    dec = Decomposition(dim=dim, basis=basis, g=g, shift=shift, bits=bits,
                        g_words=_words(max(abs(gj) for gj in g).bit_length()), m_words=_words(m_bits),
                        b_words=_words(b_bits), acc_words=_words(acc_bits),
                        ct_window=_ct_window(dim, bits), vartime_window=_vartime_window(dim, bits))
    rng = random.Random(7)
    for k in [0, 1, r - 1, (1 << rbits) - 1] + [rng.randrange(1 << rbits) for _ in range(200)]:
        parts = dec.split(k)
        require(sum(ki * pow(lam, i, r) for i, ki in enumerate(parts)) % r == k % r, curve,
                f"{group}: GLV decomposition recombines to k")
        require(all(abs(ki) < 1 << bits for ki in parts), curve, f"{group}: GLV sub-scalars within the bound")
    return dec


def _kernel_prime_to(ev: Evaluator, alpha: Coeffs, N: int, h: int, n: int, rng: random.Random) -> bool:
    """alpha has no kernel of order prime to r in E(Fq): every prime l dividing gcd(N(alpha), h) must
    be small, and alpha must be injective on E(Fq)[l]. E(Fq)[l] is spanned by points [n / l^v] P
    pushed down to order l, for 24 random P (a missed dimension has probability l^-24)."""
    g = math.gcd(N, h)
    if g == 1:
        return True
    if g > 1 << 32:
        return False
    E = ev.E
    for ell in sympy.primefactors(g):
        v, m = 0, n
        while m % ell == 0:
            v, m = v + 1, m // ell
        span: list[Point] = [None]
        for _ in range(24):
            Q = E.mul(E.random_point(rng), n // ell**v)
            while Q is not None and E.mul(Q, ell) is not None:
                Q = E.mul(Q, ell)
            if Q is None or Q in span:
                continue
            span = [E.add(A, E.mul(Q, i)) for A in span for i in range(ell)]
        if any(ev.formula(alpha, Q) is None for Q in span if Q is not None):
            return False
    return True


def _require_psi_relations(ev: Evaluator, E: Curve, rng: random.Random, curve: str, group: str) -> None:
    """Phi_k(psi) = Phi_6(psi^(k/6)) = 0 on random points of E'(Fq): the relation that the proof of
    a psi formula's h_eff rests on (psi_clearing.py; psi^2 - t psi + p = 0 is checked above)."""
    d = E.F.degree                    # k/6: 2 (k = 12, Fq = Fp2), 4 (k = 24, Fq = Fp4), 8 (k = 48, Fp8)
    for _ in range(RANDOM_POINTS):
        P = E.random_point(rng)
        A = ev.endo(P, d)
        require(E.add(E.add(ev.endo(A, d), E.neg(A)), P) is None, curve,
                f"{group}: psi^(k/3) - psi^(k/6) + 1 = 0 on random points of the twist")


def _psi_h_eff(family: str, x: int, h: int) -> int | None:
    """The multiple of h2 the psi formulas equal (proven by the caller in Z[psi], and checked on
    random points): 3 (x^2 - 1) h2 for BLS12 (RFC 9380), 3 (x^4 - 1) h2 for BLS24 (derived:
    psi_clearing.py), -(18x^3 + 12x^2 + 3x + 1) h2 for BN; None elsewhere (BLS48), where the caller
    takes the scalar the formula is proven to equal (psi_clearing.psi_formula_scalar)."""
    if family == "BLS12":
        return 3 * (x * x - 1) * h
    if family == "BLS24":
        return 3 * (x**4 - 1) * h
    if family == "BN":
        return -(18 * x**3 + 12 * x**2 + 3 * x + 1) * h
    return None


def _phi_h_eff(ev: Evaluator, coeffs: Coeffs, n: int, t_e: int, x: int, rng: random.Random) -> int | None:
    """The integer a phi-formula equals on E(Fq) (#E(Fq) = n = q + 1 - t_e), in [0, n): Frobenius
    is a + b phi with 2a - b = t_e and 4q - t_e^2 = 3 b^2, and it is the identity on E(Fq), so phi
    acts there as (1 - a) / b mod n (when b is prime to n)."""
    q = ev.E.F.order
    b2, rem = divmod(4 * q - t_e * t_e, 3)
    root, exact = gmpy2.iroot(b2, 2)
    if rem or not exact:
        return None
    # b may share small factors with n: solve modulo the part of n prime to b, then lift by
    # trying the few multiples on random points
    points = [ev.E.random_point(rng) for _ in range(RANDOM_POINTS)]
    for b in (int(root), -int(root)):
        if (t_e + b) % 2:
            continue
        n_odd = n
        while math.gcd(n_odd, b) != 1:
            n_odd //= math.gcd(n_odd, b)
        if n // n_odd > 1 << 16:
            continue
        lam_e = (1 - (t_e + b) // 2) * pow(b, -1, n_odd) % n_odd
        base = poly_value(coeffs, x, lam_e) % n_odd
        images = [ev.formula(coeffs, P) for P in points]
        for k in range(n // n_odd):
            h_eff = base + k * n_odd
            if all(ev.E.mul(P, h_eff) == Q for P, Q in zip(points, images, strict=True)):
                return h_eff
    return None


def derive_gt_test(family: str, x: int, p: int, r: int, k: int, curve: str, bw6: BW6Data | None = None) -> GTTest:
    phi_k = cyclotomic(k, p)
    if phi_k % (r * r) == 0:
        return GTTest(None, "f^r == 1 (r^2 divides Phi_k(p))")
    for cand, text in GT_TESTS.get(family, []) + ([loop_gt_test(bw6)] if bw6 is not None else []):
        e = poly_value(cand, x, p)
        if e % r == 0 and math.gcd(e, phi_k) == r:
            return GTTest(cand, f"{text}; proven: gcd(e, Phi_k(p)) = r")
    return GTTest(None, "f^r == 1 (no fast test proven for this curve)")


def derive_endomorphisms(model_parts: dict, curve: str) -> EndomorphismModel:
    """model_parts: family, x, p, r, t, k, h1, h2, E1, E2, g1, g2, psi, and for BW6 inner_family and
    bw6 (BW6Data: the lift, trace case and polynomials its formulas are written in)."""
    m = model_parts
    family = formula_family(m["family"], m.get("inner_family"))
    bw6 = m.get("bw6")
    g1 = derive_group(family, "G1", m["E1"], m["g1"], m["r"], m["h1"], m["x"], m["t"], m["p"], (), curve, bw6)
    g2 = derive_group(family, "G2", m["E2"], m["g2"], m["r"], m["h2"], m["x"], m["t"], m["p"], m["psi"], curve, bw6)
    gt = derive_gt_test(family, m["x"], m["p"], m["r"], m["k"], curve, bw6)
    # p has order k mod r, so its minimal polynomial is Phi_k, of degree phi(k): 2, 4 or 8
    gt_glv = derive_decomposition(m["p"] % m["r"], m["r"], euler_phi(m["k"]), curve, "GT")
    return EndomorphismModel(g1=g1, g2=g2, gt=gt, gt_glv=gt_glv)


# ----------------------------------------------------------------------------------------------
# GLV on G1 and GLS on G2 alone (the scalar splits), for families whose cofactor clearing and
# subgroup tests are not derived yet (BLS24): the same checks as derive_group's.


@dataclass(frozen=True)
class ScalarSplit:
    """One group's endomorphism e (phi: x -> zeta x; psi: untwist-Frobenius-twist), its eigenvalue
    lam on G and the decomposition k = sum k_i lam^i mod r with short k_i."""

    group: str
    kind: str
    zeta: Elem | None
    lam: int
    decomposition: Decomposition


def euler_phi(k: int) -> int:
    """phi(k): the degree of Phi_k, the dimension of the Frobenius (GLS) decomposition."""
    return sum(1 for i in range(1, k + 1) if math.gcd(i, k) == 1)


def check_split(E: Curve, G: Point, endo, dec: Decomposition, r: int, curve: str, group: str) -> None:
    """sum [k_i] e^i(G) = [k] G for a few k (the decomposition and the eigenvalue agree on G)."""
    for k in ((r * 2) // 3 + 12345, r - 1, (1 << (r.bit_length() - 1)) + 987654321):
        acc: Point = None
        for i, ki in enumerate(dec.split(k)):
            acc = E.add(acc, E.mul(endo(G, i), ki))
        require(acc == E.mul(G, k), curve, f"{group}: sum [k_i] e^i(G) = [k] G for the decomposition")


def derive_scalar_splits(k: int, p: int, r: int, t: int, E1: Curve, g1: Point, E2: Curve, g2: Point,
                         psi: tuple, curve: str) -> tuple[ScalarSplit, ScalarSplit]:
    """GLV on G1 (phi, dimension 2) and GLS on G2 (psi, dimension phi(k): 4 for k = 12, 8 for
    k = 24), each checked: phi^2 + phi + 1 = 0 and psi^2 - t psi + p = 0 on random points of the
    whole curve, the eigenvalue on the generator, the decomposition on the generator."""
    rng = random.Random(13)
    zeta = _cube_root_of_unity(E1)
    F1 = E1.F
    phi_g = (F1.mul(zeta, g1[0]), g1[1])
    lams = [lam for lam in _cube_roots_mod(r) if E1.mul(g1, lam) == phi_g]
    require(len(lams) == 1, curve, "G1: phi(G) = [lam] G for one root of lam^2 + lam + 1 mod r")
    ev1 = Evaluator(E1, "phi", zeta, (), 0)
    for _ in range(RANDOM_POINTS):
        P = E1.random_point(rng)
        require(E1.add(E1.add(ev1.endo(P, 2), ev1.endo(P, 1)), P) is None, curve,
                "G1: phi^2 + phi + 1 = 0 on random points of the curve")
    glv = derive_decomposition(lams[0], r, 2, curve, "G1")
    check_split(E1, g1, ev1.endo, glv, r, curve, "G1")
    ev2 = Evaluator(E2, "psi", None, psi, 0)
    for _ in range(RANDOM_POINTS):
        P = E2.random_point(rng)
        lhs = E2.add(E2.add(ev2.endo(P, 2), E2.neg(E2.mul(ev2.endo(P, 1), t))), E2.mul(P, p))
        require(lhs is None, curve, "G2: psi^2 - t psi + p = 0 on random points of the twist")
    lam2 = p % r
    require(ev2.endo(g2, 1) == E2.mul(g2, lam2), curve, "G2: psi(G) = [p] G on the generator")
    dim = euler_phi(k)
    require(len(psi) >= dim, curve, f"G2: psi^n is derived for n < {dim}")
    gls = derive_decomposition(lam2, r, dim, curve, "G2")
    check_split(E2, g2, ev2.endo, gls, r, curve, "G2")
    return (ScalarSplit("G1", "phi", zeta, lams[0], glv), ScalarSplit("G2", "psi", None, lam2, gls))
