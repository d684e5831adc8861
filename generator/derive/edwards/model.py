"""The model of a twisted Edwards companion curve a·x² + y² = 1 + d·x²·y², each fact checked.

What is derived and how it is proven (every check fails loudly, naming the curve):

* the curve is non-singular (a·d·(a − d) ≠ 0) over a prime field;
* completeness: the addition law (and so the unified extended-coordinate formulas of Hisil, Wong,
  Carter, Dawson, "Twisted Edwards curves revisited", 2008) is complete when a is a square and d
  is not (Bernstein-Birkner-Joye-Lange-Peters, eprint 2008/013, Thm 3.3). Otherwise its only
  exceptions are pairs whose sum or difference is a point of order 2 or 4 at infinity (HWCD §3),
  so the formulas are complete on the subgroup of odd prime order r, which is all the generated
  code relies on for points that passed a subgroup check;
* the group order: r prime, and n = h·r is #E(F_p): [n]P = O on random points P, while [h]P is
  not O for some of them, so r divides the orders seen; since r > 4√p, n is the only multiple of
  r in the Hasse interval, so n = #E. The largest point order among the samples is recorded;
* the generator (the curve file's default, else the first y = 2, 3, ... with a point, times h)
  is on the curve, not the identity, and [r]G = O;
* a degree-2 endomorphism psi where the Weierstrass model has one (glv.py):
  its eigenvalue lam on the subgroup, its Edwards formulas, the GLV basis and a subgroup test;
* the Montgomery model B·v² = u³ + A·u² + u (A = 2(a+d)/(a−d), B = 4/(a−d)) and the short
  Weierstrass model y² = x³ + A_w·x + B_w, with the birational maps
  (x, y) -> (u, v) = ((1+y)/(1−y), (1+y)/((1−y)x)) -> (u/B + A/(3B), v/B), checked to carry sums of
  random points to sums; a Weierstrass model given in the curve file is checked to be the image
  of the derived one under (x, y) -> (c²x, c³y) with the generator carried to its generator.

The arithmetic and the maps are derive's own (algebra.py), never generator/reference's.
Layer: derive. Imports algebra.py, glv.py and serialization.py of this package, derive's checks.py
and fields.py, and generator.params_edwards; none of them imports it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

import gmpy2

from ...params_edwards import EdwardsSpec
from ..checks import require
from ..fields import FieldModel, derive_field
from .algebra import (
    EdwardsCurve,
    MontgomeryCurve,
    WeierstrassCurve,
    sqrt_mod,
    to_montgomery,
    to_weierstrass,
)
from .glv import EdwardsEndo, find_degree2_endomorphism
from .serialization import EdwardsProfile, derive_edwards_profiles

Progress = Callable[[str], None]
SAMPLES = 8


@dataclass(frozen=True)
class WeierstrassModel:
    """y² = x³ + a·x + b and the constants of the map from the Edwards curve:
    (x, y) -> (c²·(u/B + A/(3B)), c³·v/B) with (u, v) the Montgomery image."""

    a: int
    b: int
    c: int
    generator: tuple[int, int]


@dataclass(frozen=True)
class EdwardsModel:
    name: str
    package: str
    source: str
    family: str
    p: int
    r: int
    h: int
    a: int
    d: int
    a_is_minus_one: bool
    complete: bool
    fq: FieldModel
    fr: FieldModel
    generator: tuple[int, int]
    generators: dict[str, tuple[int, int]]
    default_generator: str
    montgomery: tuple[int, int]
    weierstrass: WeierstrassModel
    published_weierstrass: WeierstrassModel | None
    profiles: tuple[EdwardsProfile, ...]
    default_profile: str
    over: str | None
    spec: EdwardsSpec
    endo: EdwardsEndo | None = None     # a degree-2 endomorphism (GLV, subgroup test) where one exists

    @property
    def fields(self) -> dict[str, FieldModel]:
        """The prime fields of the package by their C prefix: the base field fq and the scalar field fr
        (the pairing model's are fp and fr)."""
        return {"fq": self.fq, "fr": self.fr}

    @property
    def order(self) -> int:
        return self.h * self.r

    @property
    def sw_compressed_bytes(self) -> int:
        """The length of arkworks' compressed short-Weierstrass point (ark-vrf's too): x little-endian
        with its two flag bits (infinity, sign) above the field's bits."""
        return (self.p.bit_length() + 2 + 7) // 8

    @property
    def a_small(self) -> int | None:
        """a as a small signed integer (|a| <= 16, a != -1): multiplications by a become a few
        additions in C; None otherwise."""
        signed = self.a - self.p if self.a > self.p // 2 else self.a
        return signed if abs(signed) <= 16 and not self.a_is_minus_one else None

    @property
    def curve(self) -> EdwardsCurve:
        return EdwardsCurve(self.p, self.a, self.d)


def _is_square(a: int, p: int) -> bool:
    return gmpy2.legendre(a % p, p) == 1


def _points(E: EdwardsCurve, rng: random.Random, count: int) -> list[tuple[int, int]]:
    return [E.random_point(rng) for _ in range(count)]


def check_order(E: EdwardsCurve, r: int, h: int, curve: str, rng: random.Random) -> None:
    """n = h·r is the group order (see the module docstring for the proof)."""
    p = E.p
    require(gmpy2.is_prime(r, 50), curve, "r is prime")
    require(r % 2 == 1, curve, "r is odd")
    n = h * r
    require(abs(p + 1 - n) <= 2 * gmpy2.isqrt(p) + 2, curve, f"h·r = {n} lies in the Hasse interval of p")
    require(r * r > 16 * p, curve, "r > 4·sqrt(p), so h·r is the only multiple of r in the Hasse interval")
    outside = 0
    for P in _points(E, rng, SAMPLES):
        require(E.mul(P, n) == E.identity, curve, "[h·r]P = O on random points (the order h·r)")
        hP = E.mul(P, h)
        require(E.mul(hP, r) == E.identity, curve, "[r]([h]P) = O on random points")
        outside += hP != E.identity
    require(outside > 0, curve, "[h]P is not O for some random P (r divides the group order)")


def _derive_generator(E: EdwardsCurve, spec: EdwardsSpec, h: int, curve: str) -> tuple[int, int]:
    if spec.default_generator is not None:
        G = spec.generators[spec.default_generator]
    else:
        y = 2
        while not E.lift_y(y) or E.mul(E.lift_y(y)[0], h) == E.identity:
            y += 1
        G = E.mul(E.lift_y(y)[0], h)
    for label, P in [("generator", G), *((f"generators.{k}", v) for k, v in spec.generators.items())]:
        require(E.on_curve(P), curve, f"the {label} lies on the curve")
        require(P != E.identity, curve, f"the {label} is not the identity")
        require(E.mul(P, spec.r) == E.identity, curve, f"the {label} lies in the subgroup of order r")
    return G


def _montgomery(E: EdwardsCurve, curve: str, rng: random.Random) -> tuple[int, int]:
    p = E.p
    inv = pow(E.a - E.d, -1, p)
    A, B = 2 * (E.a + E.d) * inv % p, 4 * inv % p
    M = MontgomeryCurve(p, A, B)
    for _ in range(SAMPLES):
        P, Q = _points(E, rng, 2)
        if 0 in (P[0], Q[0]) or E.add(P, Q)[0] == 0:
            continue
        mP, mQ, mS = to_montgomery(E, P), to_montgomery(E, Q), to_montgomery(E, E.add(P, Q))
        require(M.on_curve(mP) and M.on_curve(mQ), curve, "the Montgomery map sends points to B·v² = u³ + A·u² + u")
        require(M.add(mP, mQ) == mS, curve, "the Montgomery map carries sums to sums")
    return A, B


def _weierstrass(E: EdwardsCurve, mont: tuple[int, int], G: tuple[int, int], spec: EdwardsSpec, curve: str,
                 rng: random.Random) -> tuple[WeierstrassModel, WeierstrassModel | None]:
    p, (A, B) = E.p, mont
    aw = (3 - A * A) * pow(3 * B * B, -1, p) % p
    bw = (2 * A ** 3 - 9 * A) * pow(27 * B ** 3, -1, p) % p
    W = WeierstrassCurve(p, aw, bw)
    for _ in range(SAMPLES):
        P, Q = _points(E, rng, 2)
        if 0 in (P[0], Q[0]) or E.add(P, Q)[0] == 0:
            continue
        wP, wQ = to_weierstrass(E, mont, 1, P), to_weierstrass(E, mont, 1, Q)
        require(W.on_curve(wP) and W.on_curve(wQ), curve, "the Weierstrass map sends points to y² = x³ + A·x + B")
        require(W.add(wP, wQ) == to_weierstrass(E, mont, 1, E.add(P, Q)), curve, "the Weierstrass map carries sums to sums")
    derived = WeierstrassModel(aw, bw, 1, to_weierstrass(E, mont, 1, G))
    given = spec.weierstrass
    if given is None:
        return derived, None
    where = "the curve file's [weierstrass] model"
    require(aw != 0 and bw != 0 and given.a != 0 and given.b != 0, curve, f"{where}: A and B are non-zero")
    c2 = given.b * aw * pow(given.a * bw, -1, p) % p
    c = sqrt_mod(c2, p)
    require(c is not None, curve, f"{where} is isomorphic to the derived one by (x, y) -> (c²x, c³y)")
    require(pow(c, 4, p) * aw % p == given.a and pow(c, 6, p) * bw % p == given.b, curve,
            f"{where}: A = c⁴·A_w and B = c⁶·B_w")
    gen = to_weierstrass(E, mont, c, G)
    if given.generator is not None:
        # the image of the default Edwards generator, else of another listed one (a library's)
        images = {to_weierstrass(E, mont, s, P): s for P in (G, *spec.generators.values()) for s in (c, p - c)}
        require(given.generator in images, curve, f"{where}: its generator is the image of a listed Edwards generator")
        c = images[given.generator]
        gen = given.generator
    Wg = WeierstrassCurve(p, given.a, given.b)
    require(Wg.on_curve(gen) and Wg.mul(gen, spec.r) is None, curve, f"{where}: the generator has order r")
    return derived, WeierstrassModel(given.a, given.b, c, gen)


def build_edwards_model(spec: EdwardsSpec, progress: Progress | None = None) -> EdwardsModel:
    """Derive and check every constant of a twisted Edwards curve file."""
    say = progress or (lambda _msg: None)
    curve = f"{spec.name} ({spec.source})"
    p, a, d, r, h = spec.p, spec.a, spec.d, spec.r, spec.cofactor
    rng = random.Random(f"pairforge-edwards-{p}-{a}-{d}")
    require(gmpy2.is_prime(p, 50) and p > 3, curve, "p is a prime above 3")
    require(a != 0 and d != 0 and a != d, curve, "the curve is non-singular: a·d·(a − d) ≠ 0")
    E = EdwardsCurve(p, a, d)
    complete = _is_square(a, p) and not _is_square(d, p)
    say("group order: r prime, h·r on random points")
    check_order(E, r, h, curve, rng)
    say("prime fields: Montgomery constants, square roots, chains")
    fq = derive_field("fq", p, curve)
    fr = derive_field("fr", r, curve)
    say("generator, Montgomery and short Weierstrass models")
    G = _derive_generator(E, spec, h, curve)
    mont = _montgomery(E, curve, rng)
    weierstrass, published = _weierstrass(E, mont, G, spec, curve, rng)
    say("degree-2 endomorphism (GLV) on the Weierstrass model")
    endo = find_degree2_endomorphism(E, mont, (weierstrass.a, weierstrass.b), r, h, G, curve, rng, spec.glv_lambda)
    require(spec.glv_lambda is None or endo is not None, curve,
            "the curve file's [glv] lambda: the curve has a degree-2 endomorphism")
    profiles = derive_edwards_profiles(fq, curve)
    require(any(pr.name == spec.serialization for pr in profiles), curve,
            f"the default serialization profile {spec.serialization!r} is usable for this field")
    return EdwardsModel(
        name=spec.name, package=spec.package, source=spec.source, family=spec.family, p=p, r=r, h=h, a=a, d=d,
        a_is_minus_one=a == p - 1, complete=complete, fq=fq, fr=fr, generator=G,
        generators=dict(spec.generators), default_generator=spec.default_generator or "derived",
        montgomery=mont, weierstrass=weierstrass, published_weierstrass=published, profiles=profiles,
        default_profile=spec.serialization, over=spec.over, spec=spec, endo=endo,
    )
