"""Hash to curve (RFC 9380): the map of each group and every constant it needs, checked.

A group whose curve file records an isogeny gets simplified SWU on the isogenous curve E'
(section 6.6.2 and 6.6.3); any other group gets Shallue-van de Woestijne (section 6.6.1), which
works on every Weierstrass curve, including j = 0 ones.  Z is always derived by the rule of the
RFC's appendix H; a Z recorded in the curve file is compared with it (an RFC suite must agree, a
non-RFC suite may have made another valid choice, which is then checked against the same
criteria).  The recorded isogeny is checked, never trusted: E' has A'B' != 0, the rational map
sends points of E' onto E and is a group homomorphism of the recorded degree, its kernel lies on
E', and #E' = #E.  sqrt_ratio (appendix F.2.1.1) constants are derived, and the algorithm is
run on random inputs before any C is written (generator/derive/sqrt_ratio.py).

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from math import gcd

from ..params_pairing import SECURITY_LEVELS, HashToCurveSpec, IsogenySpec
from .algebra import Curve, Elem, Fq
from .checks import DerivationError, require
from .sqrt_ratio import SqrtRatioModel, derive_sqrt_ratio

# The digest sizes of expand_message_xmd's hashes: RFC 9380 section 5.3.1 asks b >= 2k bits.
HASH_BITS = {"sha256": 256, "sha512": 512}
RANDOM_CHECKS = 4

Poly = tuple[Elem, ...]  # coefficients from degree 0 up


@dataclass(frozen=True)
class IsogenyModel:
    """A checked isogeny E': y^2 = x^3 + a x + b -> E of ``degree``; map coefficients degree 0 up."""

    a: Elem
    b: Elem
    degree: int
    x_num: Poly
    x_den: Poly
    y_num: Poly
    y_den: Poly


@dataclass(frozen=True)
class SvdwModel:
    """The constants of RFC 9380 section 6.6.1."""

    c1: Elem  # g(Z)
    c2: Elem  # -Z / 2
    c3: Elem  # sqrt(-g(Z) (3 Z^2 + 4 A)), sgn0 = 0
    c4: Elem  # -4 g(Z) / (3 Z^2 + 4 A)


@dataclass(frozen=True)
class HashToCurveModel:
    """Everything hash_to_curve / encode_to_curve / map_to_curve of one group needs."""

    group: str              # "g1" or "g2"
    hash: str               # expand_message_xmd's hash: "sha256" or "sha512"
    suite_ro: str           # the hash_to_curve suite ID
    suite_nu: str           # the encode_to_curve suite ID
    rfc: bool               # one of RFC 9380's suites (checked against its list when parsing)
    method: str             # "sswu" or "svdw"
    degree: int             # m: the degree of the coordinate field over Fp
    L: int                  # bytes per Fp coordinate in hash_to_field
    z: Elem
    z_by_rule: bool         # Z is the one appendix H's search finds first
    a: Elem                 # the curve the map lands on: E' for SSWU (a != 0), E for SVDW (a = 0)
    b: Elem
    isogeny: IsogenyModel | None
    svdw: SvdwModel | None
    sqrt_ratio: SqrtRatioModel
    h_eff: int
    clear: str              # how [h_eff] is computed: "endo" ({g}_clear_cofactor is [h_eff]),
                            # "endo_neg" (it is [-h_eff]) or "mul" (a multiplication by h_eff)

    @property
    def map_name(self) -> str:
        return "simplified SWU" if self.method == "sswu" else "Shallue-van de Woestijne"


# ---------------------------------------------------------------------------------------------
# Small polynomial and field helpers over Fq


def sgn0(F: Fq, a: Elem) -> int:
    """RFC 9380 section 4.1: the parity of the first non-zero coefficient, c0 first."""
    for coeff in a:
        if coeff:
            return coeff & 1
    return 0


def _poly_eval(F: Fq, poly: Poly, x: Elem) -> Elem:
    acc = F.zero
    for coeff in reversed(poly):
        acc = F.add(F.mul(acc, x), coeff)
    return acc


def _poly_mulmod(F: Fq, a: Poly, b: Poly, mod: Poly) -> Poly:
    """a * b mod a monic polynomial ``mod``."""
    prod = [F.zero] * (len(a) + len(b) - 1)
    for i, ai in enumerate(a):
        for j, bj in enumerate(b):
            prod[i + j] = F.add(prod[i + j], F.mul(ai, bj))
    n = len(mod) - 1
    for k in range(len(prod) - 1, n - 1, -1):
        c = prod[k]
        if c != F.zero:
            for i in range(n + 1):
                prod[k - n + i] = F.sub(prod[k - n + i], F.mul(c, mod[i]))
    return tuple(prod[:n]) + (F.zero,) * max(0, n - len(prod))


def _cubic_has_root(F: Fq, f: Poly) -> bool:
    """Whether a monic cubic has a root in Fq: x^q = x mod f shares a factor with f; a cubic is
    irreducible exactly when it has no root."""
    xq: Poly = (F.one,)
    base: Poly = (F.zero, F.one)
    e = F.order
    while e:
        if e & 1:
            xq = _poly_mulmod(F, xq, base, f)
        base = _poly_mulmod(F, base, base, f)
        e >>= 1
    diff = list(xq) + [F.zero] * (3 - len(xq))
    diff[1] = F.sub(diff[1], F.one)
    # gcd(diff, f) != 1 by the Euclidean algorithm on polynomials over Fq
    a = [c for c in f]
    b = diff
    while any(c != F.zero for c in b):
        while b and b[-1] == F.zero:
            b.pop()
        while len(a) >= len(b):
            if a[-1] == F.zero:
                a.pop()
                continue
            k = len(a) - len(b)
            c = F.mul(a[-1], F.inv(b[-1]))
            for i, bi in enumerate(b):
                a[k + i] = F.sub(a[k + i], F.mul(c, bi))
            a.pop()
        a, b = b, a
    return len(a) > 1


def _g(F: Fq, a: Elem, b: Elem, x: Elem) -> Elem:
    return F.add(F.add(F.mul(F.mul(x, x), x), F.mul(a, x)), b)


def _candidates_rfc(F: Fq, start: Elem, limit: int = 1000):
    """The candidate order of appendix H: ctr, -ctr for ctr = start, start + 1, ..."""
    ctr = start
    for _ in range(limit):
        yield ctr
        yield F.neg(ctr)
        ctr = F.add(ctr, F.one)


def sswu_z_ok(F: Fq, a: Elem, b: Elem, z: Elem) -> bool:
    """The four criteria of RFC 9380 appendix H.2 for simplified SWU's Z."""
    if F.is_square(z) or z == F.neg(F.one):
        return False
    cubic: Poly = (F.sub(b, z), a, F.zero, F.one)
    if _cubic_has_root(F, cubic):
        return False
    return F.is_square(_g(F, a, b, F.mul(b, F.inv(F.mul(z, a)))))


def svdw_z_ok(F: Fq, a: Elem, b: Elem, z: Elem) -> bool:
    """The criteria of RFC 9380 appendix H.1 for Shallue-van de Woestijne's Z."""
    gz = _g(F, a, b, z)
    if gz == F.zero:
        return False
    t = F.add(F.scale(F.mul(z, z), 3), F.scale(a, 4))
    h = F.neg(F.mul(t, F.inv(F.scale(gz, 4))))
    if h == F.zero or not F.is_square(h):
        return False
    half_neg_z = F.neg(F.mul(z, F.inv(F.elem(2))))
    return F.is_square(gz) or F.is_square(_g(F, a, b, half_neg_z))


def field_generator(F: Fq) -> Elem:
    """Sage's F.gen() for our towers: 1 in Fp, u in Fp2 = Fp[u], v in Fp4 = Fp2[v] (the top
    level's generator, whose flat coefficients are 0 except a 1 at position degree / 2)."""
    if F.degree == 1:
        return F.one
    return F.elem(*([0] * (F.degree // 2) + [1]))


def find_z(F: Fq, a: Elem, b: Elem, method: str) -> Elem:
    """Appendix H: SSWU starts the counter at the field's generator (1 in Fp, u in Fp2, v in
    Fp4), SVDW at the integer 1; for each counter value ctr, ctr is tried before -ctr."""
    if method == "sswu":
        start = field_generator(F)
        ok = sswu_z_ok
    else:
        start = F.one
        ok = svdw_z_ok
    for z in _candidates_rfc(F, start):
        if ok(F, a, b, z):
            return z
    raise DerivationError(f"no {method} Z among the first candidates")


# ---------------------------------------------------------------------------------------------
# Isogeny


def _strip(F: Fq, poly: Poly) -> Poly:
    out = list(poly)
    while len(out) > 1 and out[-1] == F.zero:
        out.pop()
    return tuple(out)


def _iso_map(F: Fq, iso: IsogenyModel, P: tuple[Elem, Elem]) -> tuple[Elem, Elem] | None:
    x, y = P
    xd = _poly_eval(F, iso.x_den, x)
    yd = _poly_eval(F, iso.y_den, x)
    if xd == F.zero or yd == F.zero:
        return None
    return (F.mul(_poly_eval(F, iso.x_num, x), F.inv(xd)), F.mul(F.mul(y, _poly_eval(F, iso.y_num, x)), F.inv(yd)))


def check_isogeny(F: Fq, spec: IsogenySpec, E: Curve, order: int, curve: str, what: str) -> IsogenyModel:
    """Check the recorded map E' -> E: A'B' != 0, degrees, images on E, homomorphism, kernel, order."""
    def elem(c: tuple[int, ...]) -> Elem:
        require(len(c) == F.degree, curve, f"{what}: isogeny coefficients lie in the coordinate field (degree {F.degree})")
        return F.elem(*c)

    a, b = elem(spec.a), elem(spec.b)
    polys = [_strip(F, tuple(elem(c) for c in p)) for p in (spec.x_num, spec.x_den, spec.y_num, spec.y_den)]
    iso = IsogenyModel(a, b, len(polys[0]) - 1, *polys)
    require(a != F.zero and b != F.zero, curve, f"{what}: the isogenous curve E' has A' B' != 0 (SSWU needs it)")
    disc = F.add(F.scale(F.mul(F.mul(a, a), a), 4), F.scale(F.mul(b, b), 27))
    require(disc != F.zero, curve, f"{what}: E' is non-singular")
    n = iso.degree
    require(n >= 2 and len(iso.x_den) == n, curve, f"{what}: the x map has degree {n} over {n - 1}")
    require(len(iso.y_num) == len(iso.y_den), curve, f"{what}: the y map has numerator and denominator of one degree")
    require(iso.x_den[-1] == F.one and iso.y_den[-1] == F.one, curve, f"{what}: the map's denominators are monic")
    rng = random.Random(11)

    def random_point() -> tuple[Elem, Elem]:
        while True:
            x = F.random(rng)
            y = F.sqrt(_g(F, a, b, x))
            if y is not None:
                return (x, y)

    def add(P, Q):  # affine addition on E' (a != 0, so not algebra.Curve)
        if P is None:
            return Q
        if Q is None:
            return P
        if P[0] == Q[0]:
            if P[1] != Q[1] or P[1] == F.zero:
                return None
            lam = F.mul(F.add(F.scale(F.mul(P[0], P[0]), 3), a), F.inv(F.scale(P[1], 2)))
        else:
            lam = F.mul(F.sub(Q[1], P[1]), F.inv(F.sub(Q[0], P[0])))
        x3 = F.sub(F.sub(F.mul(lam, lam), P[0]), Q[0])
        return (x3, F.sub(F.mul(lam, F.sub(P[0], x3)), P[1]))

    def mul(P, k: int):
        R = None
        while k:
            if k & 1:
                R = add(R, P)
            P = add(P, P)
            k >>= 1
        return R

    for _ in range(RANDOM_CHECKS):
        P, Q = random_point(), random_point()
        iP, iQ, iPQ = _iso_map(F, iso, P), _iso_map(F, iso, Q), _iso_map(F, iso, add(P, Q))
        require(iP is not None and E.on_curve(iP) and E.on_curve(iQ), curve, f"{what}: the isogeny sends E' onto E")
        require(E.add(iP, iQ) == iPQ, curve, f"{what}: the isogeny is a group homomorphism")
        require(mul(P, order) is None, curve, f"{what}: #E' = #E (isogenous curves have one order)")
    # Kernel: the x map's denominator vanishes exactly on the x of the non-trivial kernel points,
    # each double for odd degree (x_den = h^2, h of degree (n - 1)/2) and simple for even degree
    # (the 2-torsion point, a root of x^3 + a x + b); and y_den^2 = x_den^3 in both cases.
    y2 = _poly_mul(F, iso.y_den, iso.y_den)
    x3 = _poly_mul(F, _poly_mul(F, iso.x_den, iso.x_den), iso.x_den)
    if n % 2:
        require(y2 == x3, curve, f"{what}: y_den^2 = x_den^3 (the kernel polynomial squared and cubed)")
    else:
        require(n == 2 and len(iso.x_den) == 2, curve, f"{what}: an even-degree isogeny here has degree 2")
        x0 = F.neg(iso.x_den[0])
        require(_g(F, a, b, x0) == F.zero, curve, f"{what}: the kernel of the 2-isogeny is a 2-torsion point of E'")
    return iso


def _poly_mul(F: Fq, a: Poly, b: Poly) -> Poly:
    prod = [F.zero] * (len(a) + len(b) - 1)
    for i, ai in enumerate(a):
        for j, bj in enumerate(b):
            prod[i + j] = F.add(prod[i + j], F.mul(ai, bj))
    return tuple(prod)


# ---------------------------------------------------------------------------------------------
# The model of one group


def suite_prefix(name: str) -> str:
    """The curve part of a suite ID: the display name upper-cased, letters and digits only."""
    return re.sub(r"[^A-Z0-9]", "", name.upper())


def derive_hash_to_curve(group: str, name: str, E: Curve, order: int, cofactor: int, r: int,
                         spec: HashToCurveSpec | None, curve: str,
                         endo_h_eff: int | None = None, security_bits: int = 128) -> HashToCurveModel:
    """The map of one group (E over its coordinate field, #E = order = cofactor * r).

    ``endo_h_eff`` is the multiple the group's endomorphism-based cofactor clearing computes, if
    there is one: a suite without a recorded h_eff uses it, and a suite whose h_eff gives the same
    map (or its negative) on random points of E clears with it. ``security_bits`` is RFC 9380's k:
    it sets L and, for a derived suite, the hash (params_pairing.SECURITY_LEVELS)."""
    F = E.F
    what = f"hash to {group.upper()}"
    p = F.p
    L = -(-(p.bit_length() + security_bits) // 8)  # ceil((ceil(log2 p) + k) / 8); p is not a power of 2
    if spec is None:
        digest_bits = SECURITY_LEVELS[security_bits][len("sha"):]
        spec = HashToCurveSpec(suite=f"{suite_prefix(name)}{group.upper()}_XMD:SHA-{digest_bits}_SVDW_RO_")
    hash_name = "sha512" if "_XMD:SHA-512_" in spec.suite else "sha256"  # the suite ID names it
    require(HASH_BITS[hash_name] >= 2 * security_bits, curve,
            f"{what}: the suite's hash has a {HASH_BITS[hash_name]}-bit digest, below 2k = {2 * security_bits} "
            f"(RFC 9380 section 5.3.1; security_bits = {security_bits})")
    method = "sswu" if spec.isogeny is not None else "svdw"
    if method == "sswu":
        iso = check_isogeny(F, spec.isogeny, E, order, curve, what)
        a, b = iso.a, iso.b
    else:
        iso = None
        a, b = F.zero, E.b
    z_rule = find_z(F, a, b, method)
    if spec.z is not None:
        z = F.elem(*spec.z)
        require(len(spec.z) == F.degree, curve, f"{what}: the recorded Z lies in the coordinate field")
        ok = sswu_z_ok if method == "sswu" else svdw_z_ok
        require(ok(F, a, b, z), curve, f"{what}: the recorded Z meets RFC 9380 appendix H's criteria")
        require(z == z_rule or not spec.rfc, curve, f"{what}: an RFC suite's Z is the one appendix H finds first")
    else:
        z = z_rule
    svdw = None
    if method == "svdw":
        gz = _g(F, a, b, z)
        t = F.add(F.scale(F.mul(z, z), 3), F.scale(a, 4))
        c3 = F.sqrt(F.neg(F.mul(gz, t)))
        require(c3 is not None, curve, f"{what}: -g(Z)(3 Z^2 + 4 A) is a square")
        if sgn0(F, c3):
            c3 = F.neg(c3)
        svdw = SvdwModel(c1=gz, c2=F.neg(F.mul(z, F.inv(F.elem(2)))), c3=c3,
                         c4=F.neg(F.mul(F.scale(gz, 4), F.inv(t))))
        require(F.mul(svdw.c3, svdw.c3) == F.neg(F.mul(gz, t)) and sgn0(F, svdw.c3) == 0, curve,
                f"{what}: SVDW c3 is the square root with sgn0 = 0")
        ratio_z = _first_non_square(F)
    else:
        ratio_z = z
    sr = derive_sqrt_ratio(F, ratio_z, curve, what)
    default = endo_h_eff if endo_h_eff is not None else cofactor
    h_eff = spec.h_eff if spec.h_eff is not None else default
    require(gcd(h_eff, r) == 1, curve, f"{what}: gcd(h_eff, r) = 1")
    rng = random.Random(12)
    points = [E.random_point(rng) for _ in range(RANDOM_CHECKS)]
    images = [E.mul(P, h_eff) for P in points]
    for Q in images:
        require(E.mul(Q, r) is None, curve, f"{what}: [h_eff] sends random points of E into the subgroup of order r")
    clear = "mul"
    if endo_h_eff is not None:
        endo_images = [E.mul(P, endo_h_eff) for P in points]
        if endo_images == images:
            clear = "endo"
        elif [E.neg(Q) for Q in endo_images] == images:
            clear = "endo_neg"
    return HashToCurveModel(
        group=group, hash=hash_name, suite_ro=spec.suite, suite_nu=spec.suite[:-3] + "NU_", rfc=spec.rfc, method=method,
        degree=F.degree, L=L, z=z, z_by_rule=z == z_rule, a=a, b=b, isogeny=iso, svdw=svdw, sqrt_ratio=sr,
        h_eff=h_eff, clear=clear,
    )


def _first_non_square(F: Fq) -> Elem:
    """A non-square for sqrt_ratio when SVDW has none of its own: the first of appendix H.2's
    candidate order (ctr, -ctr from the field's generator) that is not a square."""
    for z in _candidates_rfc(F, field_generator(F)):
        if not F.is_square(z):
            return z
    raise DerivationError("no small non-square")
