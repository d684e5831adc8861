"""Twisted Edwards, Montgomery and short Weierstrass curves over a prime field, in affine
coordinates on Python integers: the oracle for the generated Edwards code and its maps.

Points are ``(x, y)`` tuples of ints in [0, p). The twisted Edwards identity is (0, 1); the
Weierstrass and Montgomery point at infinity is ``None``. The Edwards addition law is the affine
one of Bernstein-Birkner-Joye-Lange-Peters (eprint 2008/013), which raises ZeroDivisionError
where it is not defined (it is defined everywhere when a is a square and d is not).

Layer: oracle. Imports only generator/reference's own modules; no module of the generator imports it
(the tests do).
"""

from __future__ import annotations

from typing import Optional

from .fields import PrimeField

AffinePoint = tuple[int, int]
WPoint = Optional[AffinePoint]

__all__ = ["EdwardsCurve", "MontgomeryCurve", "WeierstrassCurve", "sqrt_mod"]


def _inv(a: int, p: int) -> int:
    if a % p == 0:
        raise ZeroDivisionError("inverse of 0")
    return pow(a, -1, p)


def sqrt_mod(a: int, p: int) -> int | None:
    """A square root of a mod the odd prime p, or None for a non-square (the reference prime
    field's Tonelli-Shanks)."""
    root = PrimeField(p)(a)
    return int(root.sqrt()) if root.is_square() else None


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
        x3 = (x1 * y2 + y1 * x2) * _inv(1 + t, p) % p
        y3 = (y1 * y2 - self.a * x1 * x2) * _inv(1 - t, p) % p
        return x3, y3

    def mul(self, P: AffinePoint, k: int) -> AffinePoint:
        if k < 0:
            return self.mul(self.neg(P), -k)
        acc, base = self.identity, P
        while k:
            if k & 1:
                acc = self.add(acc, base)
            base, k = self.add(base, base), k >> 1
        return acc

    def lift_y(self, y: int) -> list[AffinePoint]:
        """The points with this y (x and -x), empty when there are none."""
        p = self.p
        num, den = (y * y - 1) % p, (self.d * y * y - self.a) % p
        if den == 0:
            return []
        x = sqrt_mod(num * _inv(den, p), p)
        if x is None:
            return []
        return sorted({(x, y), (-x % p, y)})

    def random_point(self, rng) -> AffinePoint:
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
        acc, base = None, P
        while k:
            if k & 1:
                acc = self.add(acc, base)
            base, k = self.add(base, base), k >> 1
        return acc


# -- hashing (RFC 9380 §6.7.1 Elligator 2, §6.8.2 rational map; written from the RFC's steps) --

def _sgn0(a: int) -> int:
    return a & 1


def elligator2_montgomery(p: int, J: int, K: int, Z: int, u: int) -> WPoint:
    """map_to_curve_elligator2(u) of RFC 9380 §6.7.1 onto K·t² = s³ + J·s² + s (as (s, t))."""
    F = PrimeField(p)
    c1, c2 = F(J) / F(K), F(1) / (F(K) * F(K))
    uu = F(u)
    tv1 = F(Z) * uu * uu
    e1 = tv1 == F(-1)
    x1 = -c1 / (F(1) if (e1 or tv1 + 1 == F(0)) else (tv1 + 1))
    gx1 = x1 * x1 * x1 + c1 * x1 * x1 + c2 * x1
    x2 = -x1 - c1
    gx2 = x2 * x2 * x2 + c1 * x2 * x2 + c2 * x2
    if gx1.is_square():
        x, y = x1, gx1.sqrt()
        want = 1
    else:
        x, y = x2, gx2.sqrt()
        want = 0
    if _sgn0(int(y)) != want:
        y = -y
    return int(x * F(K)) % p, int(y * F(K)) % p


def montgomery_to_edwards(p: int, st: WPoint) -> AffinePoint:
    """RFC 9380 appendix D.1: (v, w) = (s/t, (s−1)/(s+1)), the identity where t = 0 or s = −1."""
    if st is None:
        return (0, 1)
    s, t = st
    if t % p == 0 or (s + 1) % p == 0:
        return (0, 1)
    return s * pow(t, -1, p) % p, (s - 1) * pow(s + 1, -1, p) % p
