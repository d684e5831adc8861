"""The affine arithmetic the twisted Edwards derivations check themselves with.

What it holds: twisted Edwards, Montgomery and short Weierstrass curves over a prime field
(``EdwardsCurve``, ``MontgomeryCurve``, ``WeierstrassCurve``), the birational maps between the
three models (``to_montgomery``, ``to_weierstrass``, ``weierstrass_to_edwards``), square roots mod
p (``sqrt_mod``) and RFC 9380's Elligator 2 with its rational map to the Edwards curve
(``elligator2_montgomery``, ``montgomery_to_edwards``). Points are ``(x, y)`` tuples of ints in
[0, p); the Edwards identity is (0, 1), the Weierstrass and Montgomery point at infinity is
``None``. The Edwards addition law is the affine one of Bernstein-Birkner-Joye-Lange-Peters
(eprint 2008/013) and raises ZeroDivisionError where it is not defined.

Who uses it: model.py (the model, its Montgomery and Weierstrass maps), glv.py (the
degree-2 endomorphism), hash_to_curve.py (Elligator 2) and generator/protocols/ecvrf.py. It is
derive's own, apart from generator/reference/edwards.py on purpose: the reference is the test
oracle the generated code is checked against, and derive never imports it.

What it may import: the standard library and derive's algebra.py (``sqrt_fp``); nothing else.

Layer: derive.
"""

from __future__ import annotations

import random
from typing import Optional

from ..algebra import sqrt_fp

AffinePoint = tuple[int, int]
WPoint = Optional[AffinePoint]


def _inv(a: int, p: int) -> int:
    if a % p == 0:
        raise ZeroDivisionError("inverse of 0")
    return pow(a, -1, p)


def sqrt_mod(a: int, p: int) -> int | None:
    """A square root of a mod the odd prime p (Tonelli–Shanks, ``algebra.sqrt_fp``), or None for a
    non-square."""
    return sqrt_fp(a, p)


class EdwardsCurve:
    """a·x² + y² = 1 + d·x²·y² over F_p."""

    def __init__(self, p: int, a: int, d: int) -> None:
        self.p, self.a, self.d = p, a % p, d % p
        self.identity: AffinePoint = (0, 1)

    def on_curve(self, P: AffinePoint) -> bool:
        x, y = P
        p = self.p
        return 0 <= x < p and 0 <= y < p and (self.a * x * x + y * y - 1 - self.d * x * x * y * y) % p == 0

    def neg(self, P: AffinePoint) -> AffinePoint:
        return (-P[0] % self.p, P[1])

    def add(self, P: AffinePoint, Q: AffinePoint) -> AffinePoint:
        (x1, y1), (x2, y2), p = P, Q, self.p
        t = self.d * x1 * x2 * y1 * y2 % p
        return (x1 * y2 + y1 * x2) * _inv(1 + t, p) % p, (y1 * y2 - self.a * x1 * x2) * _inv(1 - t, p) % p

    def mul(self, P: AffinePoint, k: int) -> AffinePoint:
        """[k]P by double-and-add from the lowest bit; k < 0 multiplies -P."""
        if k < 0:
            return self.mul(self.neg(P), -k)
        acc, base = self.identity, P
        while k:
            if k & 1:
                acc = self.add(acc, base)
            base, k = self.add(base, base), k >> 1
        return acc

    def lift_y(self, y: int) -> list[AffinePoint]:
        """The points with this y, (x, y) and (−x, y) in ascending order; empty when there are none."""
        p = self.p
        num, den = (y * y - 1) % p, (self.d * y * y - self.a) % p
        if den == 0:
            return []
        x = sqrt_mod(num * _inv(den, p), p)
        if x is None:
            return []
        return sorted({(x, y), (-x % p, y)})

    def random_point(self, rng: random.Random) -> AffinePoint:
        """A point with a random y (retried until one lifts), then one of its two x at random."""
        while True:
            points = self.lift_y(rng.randrange(self.p))
            if points:
                return points[rng.randrange(len(points))]


class MontgomeryCurve:
    """B·v² = u³ + A·u² + u over F_p; the point at infinity is None."""

    def __init__(self, p: int, A: int, B: int) -> None:
        self.p, self.A, self.B = p, A % p, B % p

    def on_curve(self, P: WPoint) -> bool:
        if P is None:
            return True
        u, v = P
        return (self.B * v * v - u * u * u - self.A * u * u - u) % self.p == 0

    def add(self, P: WPoint, Q: WPoint) -> WPoint:
        if P is None:
            return Q
        if Q is None:
            return P
        p, (u1, v1), (u2, v2) = self.p, P, Q
        if u1 == u2 and (v1 + v2) % p == 0:
            return None
        if P == Q:
            lam = (3 * u1 * u1 + 2 * self.A * u1 + 1) * _inv(2 * self.B * v1, p) % p
        else:
            lam = (v2 - v1) * _inv(u2 - u1, p) % p
        u3 = (self.B * lam * lam - self.A - u1 - u2) % p
        return u3, (lam * (u1 - u3) - v1) % p


class WeierstrassCurve:
    """y² = x³ + A·x + B over F_p; the point at infinity is None."""

    def __init__(self, p: int, A: int, B: int) -> None:
        self.p, self.A, self.B = p, A % p, B % p

    def on_curve(self, P: WPoint) -> bool:
        if P is None:
            return True
        x, y = P
        return (y * y - x * x * x - self.A * x - self.B) % self.p == 0

    def add(self, P: WPoint, Q: WPoint) -> WPoint:
        if P is None:
            return Q
        if Q is None:
            return P
        p, (x1, y1), (x2, y2) = self.p, P, Q
        if x1 == x2 and (y1 + y2) % p == 0:
            return None
        if P == Q:
            lam = (3 * x1 * x1 + self.A) * _inv(2 * y1, p) % p
        else:
            lam = (y2 - y1) * _inv(x2 - x1, p) % p
        x3 = (lam * lam - x1 - x2) % p
        return x3, (lam * (x1 - x3) - y1) % p

    def mul(self, P: WPoint, k: int) -> WPoint:
        """[k]P for k >= 0, by double-and-add from the lowest bit."""
        acc, base = None, P
        while k:
            if k & 1:
                acc = self.add(acc, base)
            base, k = self.add(base, base), k >> 1
        return acc


# -- the maps between the models --

def to_montgomery(E: EdwardsCurve, P: AffinePoint) -> AffinePoint | None:
    """The Montgomery image (u, v) = ((1 + y)/(1 − y), (1 + y)/((1 − y)·x)) of an Edwards point
    (None for the identity)."""
    p, (x, y) = E.p, P
    if P == E.identity:
        return None
    w = (1 + y) * pow(1 - y, -1, p) % p
    return w, w * pow(x, -1, p) % p


def to_weierstrass(E: EdwardsCurve, mont: tuple[int, int], c: int, P: AffinePoint) -> AffinePoint | None:
    """The image (c²·(u/B + A/(3B)), c³·v/B) of an Edwards point on the short Weierstrass model,
    (u, v) its Montgomery image and (A, B) = ``mont`` (None for the identity)."""
    p, (A, B) = E.p, mont
    m = to_montgomery(E, P)
    if m is None:
        return None
    u, v = m
    binv = pow(B, -1, p)
    x = (u * binv + A * pow(3 * B, -1, p)) % p
    return c * c * x % p, c * c * c * v * binv % p


def weierstrass_to_edwards(p: int, mont: tuple[int, int], P: WPoint) -> AffinePoint:
    """The inverse of to_weierstrass with c = 1: u = B·x − A/3, v = B·y, then (u/v, (u − 1)/(u + 1))."""
    if P is None:
        return 0, 1
    A, B = mont
    u = (B * P[0] - A * pow(3, -1, p)) % p
    v = B * P[1] % p
    return u * pow(v, -1, p) % p, (u - 1) * pow(u + 1, -1, p) % p


# -- hashing (RFC 9380 §6.7.1 Elligator 2, §6.8.2 rational map) --

def elligator2_montgomery(p: int, J: int, K: int, Z: int, u: int) -> WPoint:
    """map_to_curve_elligator2(u) of RFC 9380 §6.7.1 onto K·t² = s³ + J·s² + s (as (s, t))."""
    c1 = J * _inv(K, p) % p
    c2 = _inv(K * K, p)
    tv1 = Z * u * u % p
    x1 = -c1 * _inv(1 if tv1 == p - 1 else tv1 + 1, p) % p     # tv1 = −1: x1 = −c1
    gx1 = (x1 * x1 * x1 + c1 * x1 * x1 + c2 * x1) % p
    x2 = (-x1 - c1) % p
    gx2 = (x2 * x2 * x2 + c1 * x2 * x2 + c2 * x2) % p
    y1 = sqrt_mod(gx1, p)
    if y1 is not None:
        x, y, want = x1, y1, 1
    else:
        x, y, want = x2, sqrt_mod(gx2, p), 0
    if y is None:
        raise ValueError("not a square")                         # neither gx1 nor gx2: not on a curve of the RFC's form
    if y & 1 != want:                                            # sgn0
        y = -y % p
    return x * K % p, y * K % p


def montgomery_to_edwards(p: int, st: WPoint) -> AffinePoint:
    """RFC 9380 appendix D.1: (v, w) = (s/t, (s − 1)/(s + 1)), the identity where t = 0 or s = −1."""
    if st is None:
        return (0, 1)
    s, t = st
    if t % p == 0 or (s + 1) % p == 0:
        return (0, 1)
    return s * pow(t, -1, p) % p, (s - 1) * pow(s + 1, -1, p) % p
