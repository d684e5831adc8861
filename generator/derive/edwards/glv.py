"""A degree-2 endomorphism of a twisted Edwards curve, found (not named) and checked, with its GLV data.

How it is found: on the short Weierstrass model y² = x³ + A·x + B, each rational 2-torsion point
(x0, 0) is the kernel of a 2-isogeny (Vélu): (x, y) -> (x + t/(x − x0), y·(1 − t/(x − x0)²)),
t = 3x0² + A, onto y² = x³ + (A − 5t)·x + (B − 7x0·t). When that curve is isomorphic to the model
((x, y) -> (u²x, u³y) with u⁴ = A/(A − 5t), u⁶ = B/(B − 7x0·t)), the composition psi is an
endomorphism of degree 2. Its trace tr is read off the curve: psi² − [tr]psi + [2] = 0 on random
points for one tr with tr² < 8 (tr = 0 is complex multiplication by √−2, discriminant −8, as on
Bandersnatch, Masson–Sanso–Zhang eprint 2021/1152). On the subgroup of order r it acts as [lam]
with lam a root of lam² − tr·lam + 2 mod r, the one with psi(G) = [lam]G.

How it is written for C: psi carried to the Edwards model is invariant under P -> P + (0, −1) (the
2-torsion point (0, −1) is its kernel there), so x'·x and y' are rational functions of y alone. Both
are interpolated from points (the smallest degree with a solution) and then checked on fresh random
points of the whole curve against the composition of the maps, and psi(P) = [lam]P on random
points of the subgroup. The GLV basis and its bound come from endomorphisms.derive_decomposition.

The subgroup test: a short lattice vector (u0, u1) (u0 + u1·lam = 0 mod r) gives the endomorphism
alpha = u0 + u1·psi, zero on the subgroup of order r. Its kernel on the whole curve has N(alpha) =
u0² + tr·u0·u1 + 2·u1² points; when r² does not divide N and gcd(N / r, h) = 1, no point of E(F_p)
outside the subgroup is in the kernel (E(F_p) has order h·r), so [u0]P + [u1]psi(P) = O is a
complete membership test. Checked on the generator, on random points of the curve and on the
points of small order.

Layer: derive. The curves and the maps between their models are algebra.py's; model.py imports
this module, never the other way; it imports derive's checks.py and endomorphisms.py.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from sympy import ZZ
from sympy.polys.galoistools import gf_factor_sqf

from ..checks import require
from ..endomorphisms import Decomposition, derive_decomposition
from .algebra import EdwardsCurve, WeierstrassCurve, sqrt_mod, to_weierstrass, weierstrass_to_edwards

SAMPLES = 8
Poly = tuple[int, ...]      # coefficients of y^0, y^1, ...


@dataclass(frozen=True)
class EdwardsEndo:
    """psi(x, y) = (nx(y) / (x·dx(y)), ny(y) / dy(y)) on the Edwards model; psi = [lam] on the subgroup."""

    trace: int
    lam: int
    nx: Poly
    dx: Poly
    ny: Poly
    dy: Poly
    glv: Decomposition
    test_vector: tuple[int, int] | None
    test_note: str

    @property
    def degree(self) -> int:
        return max(len(f) for f in (self.nx, self.dx, self.ny, self.dy)) - 1


def _poly_eval(f: Poly, y: int, p: int) -> int:
    acc = 0
    for c in reversed(f):
        acc = (acc * y + c) % p
    return acc


def _null_vector(rows: list[list[int]], p: int) -> list[int] | None:
    """A non-zero solution of rows·v = 0 mod p (Gaussian elimination), or None when only 0 solves it."""
    m = [list(r) for r in rows]
    ncols = len(m[0])
    pivots: list[int] = []
    rank = 0
    for col in range(ncols):
        piv = next((i for i in range(rank, len(m)) if m[i][col] % p), None)
        if piv is None:
            continue
        m[rank], m[piv] = m[piv], m[rank]
        inv = pow(m[rank][col], -1, p)
        m[rank] = [v * inv % p for v in m[rank]]
        for i in range(len(m)):
            if i != rank and m[i][col] % p:
                f = m[i][col]
                m[i] = [(a - f * b) % p for a, b in zip(m[i], m[rank], strict=True)]
        pivots.append(col)
        rank += 1
    free = [c for c in range(ncols) if c not in pivots]
    if not free:
        return None
    v = [0] * ncols
    v[free[0]] = 1
    for i, col in enumerate(pivots):
        v[col] = -m[i][free[0]] % p
    return v


def _fit(samples: list[tuple[int, int]], p: int) -> tuple[Poly, Poly]:
    """N, D of the smallest degree with N(y) = value·D(y) on every sample (y, value), scaled so that
    D's leading coefficient is 1 (the caller checks the result on fresh points)."""
    for deg in range(1, 5):
        rows = [[pow(y, i, p) for i in range(deg + 1)] + [-v * pow(y, i, p) % p for i in range(deg + 1)]
                for y, v in samples]
        v = _null_vector(rows, p)
        if v is not None:
            num, den = v[:deg + 1], v[deg + 1:]
            lead = next(c for c in reversed(den) if c)
            scale = pow(lead, -1, p)
            num, den = [c * scale % p for c in num], [c * scale % p for c in den]
            while len(num) > 1 and len(den) > 1 and num[-1] == 0 and den[-1] == 0:
                num, den = num[:-1], den[:-1]
            return tuple(num), tuple(den)
    raise AssertionError("no rational function of degree <= 4 fits")


def find_degree2_endomorphism(E: EdwardsCurve, mont: tuple[int, int], weierstrass: tuple[int, int], r: int, h: int,
                              G: tuple[int, int], curve: str, rng: random.Random,
                              published_lam: int | None = None) -> EdwardsEndo | None:
    """The endomorphism of degree 2 of the Edwards curve E, when its Weierstrass model has one; None otherwise.
    Of psi and -psi, the one whose eigenvalue is published_lam when given (else the square root u that
    sqrt_mod returns)."""
    p = E.p
    aw, bw = weierstrass
    W = WeierstrassCurve(p, aw, bw)
    _, factors = gf_factor_sqf([ZZ(1), ZZ(0), ZZ(aw), ZZ(bw)], p, ZZ)
    roots = [int(-f[1]) % p for f in factors if len(f) == 2]
    for x0 in roots:
        found = _from_kernel(E, W, mont, x0, roots, r, h, G, curve, rng, published_lam)
        if found is not None:
            return found
    return None


def _from_kernel(E: EdwardsCurve, W: WeierstrassCurve, mont: tuple[int, int], x0: int, roots: list[int], r: int,
                 h: int, G: tuple[int, int], curve: str, rng: random.Random,
                 published_lam: int | None) -> EdwardsEndo | None:
    """The endomorphism whose kernel is the 2-torsion point (x0, 0) of W, when the isogeny's image is W."""
    p, aw, bw = E.p, W.A, W.B
    t = (3 * x0 * x0 + aw) % p
    a2, b2 = (aw - 5 * t) % p, (bw - 7 * x0 * t) % p
    if 0 in (aw, bw, a2, b2):
        return None
    u2 = bw * a2 * pow(aw * b2, -1, p) % p
    if (pow(u2, 2, p) * a2 - aw) % p or (pow(u2, 3, p) * b2 - bw) % p:
        return None
    u = sqrt_mod(u2, p)
    if u is None:
        return None

    def psi_w(P: tuple[int, int] | None) -> tuple[int, int] | None:
        if P is None or P[0] == x0:
            return None
        inv = pow(P[0] - x0, -1, p)
        return (u * u * (P[0] + t * inv) % p, u * u * u * P[1] * (1 - t * inv * inv) % p)

    def to_w(P: tuple[int, int]) -> tuple[int, int] | None:
        return to_weierstrass(E, mont, 1, P)

    def psi(P: tuple[int, int]) -> tuple[int, int]:
        return weierstrass_to_edwards(p, mont, psi_w(to_w(P)))

    points = [E.random_point(rng) for _ in range(SAMPLES)]
    traces = [tr for tr in range(-2, 3)
              if all(E.add(E.add(psi(psi(P)), E.mul(psi(P), -tr)), E.mul(P, 2)) == E.identity for P in points)]
    if len(traces) != 1:
        return None
    trace = traces[0]
    require(trace * trace < 8, curve, "the degree-2 endomorphism has |trace| < 2·sqrt(2)")
    psiG = psi(G)
    disc = (trace * trace - 8) % r
    root = sqrt_mod(disc, r)
    require(root is not None, curve, "lam^2 - trace·lam + 2 has roots mod r")
    lams = [lam for lam in {(trace + root) * pow(2, -1, r) % r, (trace - root) * pow(2, -1, r) % r}
            if E.mul(G, lam) == psiG]
    require(len(lams) == 1, curve, "psi(G) = [lam]G for one root lam of lam^2 - trace·lam + 2 mod r")
    lam = lams[0]
    if published_lam is not None:
        require(published_lam in (lam, r - lam), curve, "the curve file's [glv] lambda is +-lam")
        if published_lam != lam:
            u, lam, psiG = p - u, r - lam, E.neg(psiG)
            require(psi(G) == psiG, curve, "-psi(G) = [-lam]G")
    require((lam * lam - trace * lam + 2) % r == 0, curve, "lam^2 - trace·lam + 2 = 0 mod r")
    # the Edwards formulas: x'·x and y' as rational functions of y
    fit_points = [E.random_point(rng) for _ in range(12)]
    fit_points = [P for P in fit_points if P[0] != 0]
    images = [psi(P) for P in fit_points]
    nx, dx = _fit([(P[1], Q[0] * P[0] % p) for P, Q in zip(fit_points, images, strict=True)], p)
    ny, dy = _fit([(P[1], Q[1]) for P, Q in zip(fit_points, images, strict=True)], p)

    def psi_formula(P: tuple[int, int]) -> tuple[int, int]:
        x, y = P
        return (_poly_eval(nx, y, p) * pow(x * _poly_eval(dx, y, p), -1, p) % p,
                _poly_eval(ny, y, p) * pow(_poly_eval(dy, y, p), -1, p) % p)

    for P in (E.random_point(rng) for _ in range(SAMPLES)):
        require(psi_formula(P) == psi(P), curve, "the Edwards formulas of psi agree with the Weierstrass maps")
    for _ in range(SAMPLES):
        P = E.mul(E.random_point(rng), h)
        require(psi_formula(P) == E.mul(P, lam), curve, "psi(P) = [lam]P on random points of the subgroup")
    glv = derive_decomposition(lam, r, 2, curve, "Edwards")
    k = rng.randrange(r)
    k1, k2 = glv.split(k)
    require(E.add(E.mul(G, k1), E.mul(psiG, k2)) == E.mul(G, k), curve, "[k1]G + [k2]psi(G) = [k]G")
    test_vector, note = _subgroup_test(E, W, to_w, psi_w, glv, trace, r, h, G, psi_formula,
                                        [(x, 0) for x in roots], curve, rng)
    return EdwardsEndo(trace=trace, lam=lam, nx=nx, dx=dx, ny=ny, dy=dy, glv=glv, test_vector=test_vector,
                       test_note=note)


def _subgroup_test(E: EdwardsCurve, W: WeierstrassCurve, to_w, psi_w, glv: Decomposition, trace: int, r: int, h: int,
                   G: tuple[int, int], psi, torsion: list, curve: str, rng: random.Random) -> tuple[tuple[int, int] | None, str]:
    """The shortest basis vector (u0, u1) whose alpha = u0 + u1·psi has no kernel outside the subgroup."""
    for u0, u1 in sorted(glv.basis, key=lambda v: max(abs(c) for c in v)):
        N = u0 * u0 + trace * u0 * u1 + 2 * u1 * u1
        if N == 0 or N % r or (N // r) % r == 0 or math.gcd(N // r, h) != 1:
            continue
        require(E.add(E.mul(G, u0), E.mul(psi(G), u1)) == E.identity, curve, "[u0]G + [u1]psi(G) = O")
        rejected = 0
        for _ in range(SAMPLES):
            # on the Weierstrass model, whose affine formulas have no exceptions outside the subgroup
            P = to_w(E.random_point(rng))
            if W.mul(P, r) is None:
                continue
            require(W.add(W.mul(P, u0 % (h * r)), W.mul(psi_w(P), u1 % (h * r))) is not None, curve,
                    "[u0]P + [u1]psi(P) != O on random points outside the subgroup")
            rejected += 1
        for T in torsion:
            require(T is None or W.add(W.mul(T, u0 % (2 * h)), W.mul(psi_w(T), u1 % (2 * h))) is not None, curve,
                    "[u0]T + [u1]psi(T) != O on the points T of small order")
        require(rejected > 0, curve, "the subgroup test was checked on points outside the subgroup")
        return (u0, u1), (f"[{u0}]P + [{u1}]psi(P) == O: N(u0 + u1·psi) = r·{N // r}, prime to the cofactor {h}, "
                          "so its kernel on E(F_p) is the subgroup of order r")
    return None, "[r]P == O (no lattice vector gives a proven test)"
