"""The extension tower: non-residues and Frobenius coefficients.

k = 12: Fp2 = Fp[u]/(u^2 - beta), Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v).
k = 6:  Fp3 = Fp[u]/(u^3 - alpha), Fp6 = Fp3[v]/(v^2 - u).
k = 24: Fp2 = Fp[u]/(u^2 - beta), Fp4 = Fp2[v]/(v^2 - nu), Fp12 = Fp4[w]/(w^3 - xi),
        Fp24 = Fp12[z]/(z^2 - w) (gnark-crypto's E2, E4, E12, E24 names u, v, w, i).
k = 48: Fp2 = Fp[u]/(u^2 - beta), Fp4 = Fp2[v]/(v^2 - nu), Fp8 = Fp4[w]/(w^2 - omega),
        Fp24 = Fp8[z]/(z^3 - xi), Fp48 = Fp24[W]/(W^2 - z): degrees 2, 2, 2, 3, 2 over Fp.
All are a sextic extension of Fq (Fp2, Fp, Fp4 or Fp8, the field of the twist) written as quadratic
over cubic, with W^6 = xi (xi = alpha for k = 6; W = z for k = 24).

The IRTF pairing-friendly-curves draft's BLS48 tower is u^2 = -1, v^2 = -(1 + u), w^2 = -v, z^3 = -w,
s^2 = -z: its first four levels are this one with beta = -1, nu = -1 - u, omega = -v, xi = -w, and its
s is -u W (then s^2 = u^2 W^2 = -z); W = u s is the draft's own untwisting element, W^6 = -w = xi. Frobenius: (sum a_i W^i)^(p^n) =
sum frob^n(a_i) * gamma[n][i] * W^i with gamma[n][i] = xi^(i (p^n - 1) / 6), rows n = 0 .. k/2 - 1
(n = k/2 is the conjugation W -> -W); on Fp4, (a0 + a1 v)^(p^n) = frob^n(a0) + frob^n(a1)
nu_gamma[n] v with nu_gamma[n] = nu^((p^n - 1)/2), n = 0..3.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

from dataclasses import dataclass

import gmpy2

from .algebra import Elem, Fq
from .checks import require


@dataclass(frozen=True)
class Fp2SqrtModel:
    """The norm-based Fp2 square root with no inversion, for p = 3 mod 4 (then -beta is a square,
    beta being a non-square).  With alpha = sqrt(N(a)) and delta = (a0 + alpha)/2, one
    exponentiation r = delta^((p-3)/4) (fp_recip_sqrt, the chain of the prime field's square root)
    gives s = delta r, with s^2 = delta and 1/s = r when delta is a square (root s + a1 r / 2 u), else s^2 = -delta and 1/s = -r (root
    -c a1 r / 2 + (s / c) u with c = sqrt(-beta)): ``inv_sqrt_neg_beta`` = 1/c."""

    inv_sqrt_neg_beta: int


@dataclass(frozen=True)
class TowerModel:
    k: int
    beta: int | None          # u^2 = beta in Fp2 (k = 12)
    xi: Elem                  # w^6 = xi, an element of Fq
    fq: Fq                    # the field of the twist
    gamma: tuple[tuple[Elem, ...], ...]  # gamma[n][i], n = 0..3 (k = 24: 0..11), i = 0..5
    nu: Elem | None = None    # v^2 = nu in Fp4 (k = 24)
    nu_gamma: tuple[Elem, ...] = ()  # nu^((p^n - 1)/2), n = 0..3 (k = 24; k = 48: 0..7)
    omega: Elem | None = None  # w^2 = omega in Fp8 (k = 48)
    omega_gamma: tuple[Elem, ...] = ()  # omega^((p^n - 1)/2), n = 0..7 (k = 48)
    fp2_sqrt: Fp2SqrtModel | None = None  # the inversion-free Fp2 square root (k = 12, p = 3 mod 4)
    # s > 0 with xi = -s^2 for a small integer s when Fq = Fp, else 0: then x^2 xi + y^2 =
    # (y - s x)(y + s x), and the cyclotomic squarings take one product in Fp for it instead of
    # two squarings, a third one for 2 x y and the multiplication by xi (tower.h's product_pair).
    xi_neg_square_root: int = 0

    @property
    def names(self) -> dict[str, str]:
        """C names of the three levels above Fp: the twist field, the cubic and the sextic."""
        if self.k == 48:
            return {"fq": "fp8", "fq3": "fp24", "fq6": "fp48"}
        if self.k == 24:
            return {"fq": "fp4", "fq3": "fp12", "fq6": "fp24"}
        if self.k == 12:
            return {"fq": "fp2", "fq3": "fp6", "fq6": "fp12"}
        return {"fq": "fp", "fq3": "fp3", "fq6": "fp6"}


def _is_cube(F: Fq, a: Elem) -> bool:
    return F.pow(a, (F.order - 1) // 3) == F.one


def _search_beta(p: int) -> int:
    """-1 when p = 3 mod 4, else the non-square of smallest |beta|, negative first."""
    for magnitude in range(1, 1000):
        for beta in (-magnitude, magnitude):
            if gmpy2.legendre(beta % p, p) == -1:
                return beta
    raise AssertionError("no quadratic non-residue below 1000")


def _search_nu(F2: Fq) -> Elem:
    """The first of u, 1+u, 2+u, ... that is a non-square in Fp2 (v^2 = nu defines Fp4)."""
    for a in range(0, 1000):
        nu = F2.elem(a, 1)
        if not F2.is_square(nu):
            return nu
    raise AssertionError("no quadratic non-residue a + u in Fp2")


def _search_omega(F4: Fq) -> Elem:
    """The first of v, 1+v, 2+v, ... that is a non-square in Fp4 (w^2 = omega defines Fp8)."""
    for a in range(0, 1000):
        omega = F4.elem(a, 0, 1, 0)
        if not F4.is_square(omega):
            return omega
    raise AssertionError("no quadratic non-residue a + v in Fp4")


def _search_xi(F: Fq) -> Elem:
    """The first of u, 1+u, 2+u, ... (k = 12), v, 1+v, 2+v, ... (k = 24), w, 1+w, 2+w, ... (k = 48)
    or -1, 2, -2, ... (k = 6) that is a sextic non-residue."""
    if F.degree == 8:
        candidates = (F.elem(a, 0, 0, 0, 1) for a in range(0, 1000))
    elif F.degree == 4:
        candidates = (F.elem(a, 0, 1, 0) for a in range(0, 1000))
    elif F.degree == 2:
        candidates = (F.elem(a, 1) for a in range(0, 1000))
    else:
        candidates = (F.elem(sign * m) for m in range(2, 1000) for sign in (1, -1))
    for xi in candidates:
        if not F.is_square(xi) and not _is_cube(F, xi):
            return xi
    raise AssertionError("no sextic non-residue found")


def _quadratic_gammas(F: Fq, nr: Elem, p: int, count: int, curve: str, level: str) -> tuple[Elem, ...]:
    """nr^((p^n - 1)/2) for n < count, each checked on its defining property (the image of the
    adjoined root r, r^2 = nr, under Frobenius is g r): g^2 nr = frob^n(nr)."""
    rows = []
    for n in range(count):
        g = F.pow(nr, (p**n - 1) // 2 % (F.order - 1))
        require(F.mul(F.mul(g, g), nr) == F.frobenius(nr, n), curve,
                f"{level} Frobenius coefficient ^((p^{n} - 1)/2)")
        rows.append(g)
    return tuple(rows)


def _beta(p: int, curve: str, beta: int | None) -> int:
    """u^2 = beta in Fp2: the curve file's, or the first non-square found; checked."""
    beta = _search_beta(p) if beta is None else beta
    require(gmpy2.legendre(beta % p, p) == -1, curve, f"beta = {beta} is a non-square in Fp")
    return beta


def _nu(F2: Fq, curve: str, nu: tuple[int, ...] | None) -> Elem:
    """v^2 = nu in Fp4: the curve file's, or the first non-square a + u found; checked."""
    nu_elem = F2.elem(*nu) if nu is not None else _search_nu(F2)
    require(not F2.is_square(nu_elem), curve, f"nu = {nu_elem} is a non-square in Fp2 (v^2 = nu)")
    return nu_elem


def _derive_tower_48(p: int, curve: str, beta: int | None, xi: tuple[int, ...] | None,
                     nu: tuple[int, ...] | None, omega: tuple[int, ...] | None) -> TowerModel:
    """k = 48: Fp2, Fp4, Fp8 by three square roots, then Fp24 and Fp48 by W^6 = xi over Fp8.
    Each adjoined root's polynomial is checked irreducible: beta, nu, omega non-squares in the level
    below; xi neither a square nor a cube in Fp8, so z^3 - xi (Fp24) and W^2 - z (Fp48, z a non-square
    in Fp24 since its norm to Fp8 is xi) are irreducible, and so is W^6 - xi. The Frobenius rows
    gamma[n] (n < 24) follow W^(p^(n+1)) = frob(gamma[n][1]) gamma[1][1] W, each checked on
    gamma[n][1]^6 xi = frob^n(xi)."""
    beta = _beta(p, curve, beta)
    F2 = Fq(p, 2, beta % p)
    nu_elem = _nu(F2, curve, nu)
    F4 = Fq(p, 4, beta % p, nu_elem)
    omega_elem = F4.elem(*omega) if omega is not None else _search_omega(F4)
    require(not F4.is_square(omega_elem), curve, f"omega = {omega_elem} is a non-square in Fp4 (w^2 = omega)")
    F = Fq(p, 8, beta % p, nu_elem, omega_elem)
    xi_elem = F.elem(*xi) if xi is not None else _search_xi(F)
    require(not F.is_square(xi_elem), curve, f"xi = {xi_elem} is a non-square in Fp8")
    require(not _is_cube(F, xi_elem), curve, f"xi = {xi_elem} is a non-cube in Fp8")
    first = F.pow(xi_elem, (p - 1) // 6)
    g1 = F.one
    gamma = []
    for n in range(24):
        require(F.mul(F.pow(g1, 6), xi_elem) == F.frobenius(xi_elem, n), curve,
                f"Frobenius coefficient gamma[{n}][1]")
        row = (F.one,)
        for _ in range(5):
            row += (F.mul(row[-1], g1),)
        gamma.append(row)
        g1 = F.mul(F.frobenius(g1, 1), first)
    return TowerModel(k=48, beta=beta, xi=xi_elem, fq=F, gamma=tuple(gamma), nu=nu_elem,
                      nu_gamma=_quadratic_gammas(F2, nu_elem, p, 8, curve, "Fp4"), omega=omega_elem,
                      omega_gamma=_quadratic_gammas(F4, omega_elem, p, 8, curve, "Fp8"))


def derive_tower(k: int, p: int, curve: str, beta: int | None, xi: tuple[int, ...] | None,
                 alpha: int | None, nu: tuple[int, ...] | None = None,
                 omega: tuple[int, ...] | None = None) -> TowerModel:
    require(p % 6 == 1, curve, "p = 1 mod 6 (sextic twists and the tower exist)")
    if k == 48:
        return _derive_tower_48(p, curve, beta, xi, nu, omega)
    nu_elem: Elem | None = None
    nu_gamma: tuple[Elem, ...] = ()
    if k == 24:
        beta = _beta(p, curve, beta)
        F2 = Fq(p, 2, beta % p)
        nu_elem = _nu(F2, curve, nu)
        F = Fq(p, 4, beta % p, nu_elem)
        xi_elem = F.elem(*xi) if xi is not None else _search_xi(F)
        nu_gamma = _quadratic_gammas(F2, nu_elem, p, 4, curve, "Fp4")
    elif k == 12:
        beta = _beta(p, curve, beta)
        F = Fq(p, 2, beta % p)
        xi_elem = F.elem(*xi) if xi is not None else _search_xi(F)
    else:
        F = Fq(p, 1)
        xi_elem = F.elem(alpha) if alpha is not None else _search_xi(F)
    require(not F.is_square(xi_elem), curve, f"xi = {xi_elem} is a non-square in Fq")
    require(not _is_cube(F, xi_elem), curve, f"xi = {xi_elem} is a non-cube in Fq")
    gamma = []
    for n in range(k // 2 if k == 24 else 4):
        e = (p**n - 1) // 6
        g1 = F.pow(xi_elem, e % (F.order - 1))
        row = (F.one,)
        for _ in range(5):
            row += (F.mul(row[-1], g1),)
        # Defining property: (w^(p^n))^6 = frob^n(xi), i.e. gamma[n][1]^6 * xi = frob^n(xi).
        require(F.mul(F.pow(row[1], 6), xi_elem) == F.frobenius(xi_elem, n), curve,
                f"Frobenius coefficient gamma[{n}][1]")
        gamma.append(row)
    fp2_sqrt = _fp2_sqrt_model(p, beta, curve) if k == 12 and p % 4 == 3 else None
    return TowerModel(k=k, beta=beta, xi=xi_elem, fq=F, gamma=tuple(gamma), nu=nu_elem, nu_gamma=nu_gamma,
                      fp2_sqrt=fp2_sqrt, xi_neg_square_root=_xi_neg_square_root(F, xi_elem))


# The largest s for which xi = -s^2 is worth the product form: s x takes up to 2 log2(s) sums in
# Fp, against the squaring and the multiplication by xi that the form saves.
XI_NEG_SQUARE_ROOT_MAX = 15


def _xi_neg_square_root(F: Fq, xi: Elem) -> int:
    """The smallest s in 1 .. XI_NEG_SQUARE_ROOT_MAX with xi = -s^2 when Fq = Fp, else 0."""
    if F.degree != 1:
        return 0
    for s in range(1, XI_NEG_SQUARE_ROOT_MAX + 1):
        if F.elem(-s * s % F.p) == xi:
            return s
    return 0


def _fp2_sqrt_model(p: int, beta: int, curve: str) -> Fp2SqrtModel:
    """The constants of the inversion-free Fp2 square root, checked on the case analysis."""
    c = pow(-beta % p, (p + 1) // 4, p)
    require(c * c % p == -beta % p, curve, "sqrt(-beta) exists in Fp (p = 3 mod 4, beta a non-square)")
    inv_c = int(gmpy2.invert(c, p))
    # Both branches on a square delta and a non-square delta (-1 is a non-square for p = 3 mod 4).
    for delta in (4, p - 4):
        r = pow(delta, (p - 3) // 4, p)
        s = delta * r % p
        require(s * s % p == delta % p if delta == 4 else s * s % p == -delta % p, curve,
                "delta^((p+1)/4) squares to +-delta")
        require(s * r % p == (1 if delta == 4 else p - 1), curve, "s r = delta^((p-1)/2) = +-1")
    require(inv_c * c % p == 1, curve, "1/sqrt(-beta)")
    return Fp2SqrtModel(inv_sqrt_neg_beta=inv_c)
