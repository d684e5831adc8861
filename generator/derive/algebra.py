"""Small exact arithmetic for the derivations: Fp, its extensions of degree 2, 4 and 8, curve points.

Derivations check themselves on numbers (random twist points, Frobenius constants, endomorphism
eigenvalues); this module is the arithmetic they use. It is kept apart from
``generator/reference`` on purpose: the reference is the independent test oracle.

Elements of Fq are tuples of ints: length 1 for Fp, length 2 for Fp[u]/(u^2 - beta), length 4 for
Fp4 = Fp2[v]/(v^2 - nu), nu in Fp2, written (a0, a1, a2, a3) = (a0 + a1 u) + (a2 + a3 u) v, length 8
for Fp8 = Fp4[w]/(w^2 - omega), omega in Fp4, written (a0..a3) + (a4..a7) w: each level above Fp2
is quadratic over the one below, so one set of formulas serves both.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

import gmpy2

Elem = tuple[int, ...]
Point = tuple[Elem, Elem] | None  # affine; None is the point at infinity


def sqrt_fp(a: int, p: int) -> int | None:
    """A square root of a mod p (Tonelli–Shanks), or None."""
    a %= p
    if a == 0:
        return 0
    if gmpy2.legendre(a, p) != 1:
        return None
    if p % 4 == 3:
        return pow(a, (p + 1) // 4, p)
    s, e = p - 1, 0
    while s % 2 == 0:
        s, e = s // 2, e + 1
    z = 2
    while gmpy2.legendre(z, p) != -1:
        z += 1
    m, c, t, root = e, pow(z, s, p), pow(a, s, p), pow(a, (s + 1) // 2, p)
    while t != 1:
        i, t2 = 0, t
        while t2 != 1:
            t2, i = t2 * t2 % p, i + 1
        b = pow(c, 1 << (m - i - 1), p)
        m, c = i, b * b % p
        t, root = t * c % p, root * b % p
    return root


@dataclass(frozen=True)
class Fq:
    """Fp (degree 1), Fp2 = Fp[u]/(u^2 - beta) (degree 2), Fp4 = Fp2[v]/(v^2 - nu) (degree 4) or
    Fp8 = Fp4[w]/(w^2 - omega) (degree 8)."""

    p: int
    degree: int
    beta: int = 0
    nu: Elem = (0, 0)
    omega: Elem = (0, 0, 0, 0)

    # cached: the derivations ask for them on every operation of the levels above
    @cached_property
    def fp2(self) -> "Fq":
        """The quadratic subfield Fp2 under Fp4."""
        return Fq(self.p, 2, self.beta)

    @cached_property
    def subfield(self) -> "Fq":
        """The field this one is quadratic over (degree 4 and 8): Fp2 under Fp4, Fp4 under Fp8."""
        return Fq(self.p, self.degree // 2, self.beta, self.nu)

    @property
    def non_residue(self) -> Elem:
        """The square of the adjoined root over ``subfield``: nu (Fp4) or omega (Fp8)."""
        return self.nu if self.degree == 4 else self.omega

    def _halves(self, a: Elem) -> tuple[Elem, Elem]:
        half = self.degree // 2
        return a[:half], a[half:]

    def elem(self, *coeffs: int) -> Elem:
        values = [c % self.p for c in coeffs] + [0] * (self.degree - len(coeffs))
        return tuple(values[: self.degree])

    @property
    def zero(self) -> Elem:
        return (0,) * self.degree

    @property
    def one(self) -> Elem:
        return self.elem(1)

    @property
    def order(self) -> int:
        return self.p**self.degree

    def add(self, a: Elem, b: Elem) -> Elem:
        return tuple((x + y) % self.p for x, y in zip(a, b, strict=True))

    def sub(self, a: Elem, b: Elem) -> Elem:
        return tuple((x - y) % self.p for x, y in zip(a, b, strict=True))

    def neg(self, a: Elem) -> Elem:
        return tuple(-x % self.p for x in a)

    def mul(self, a: Elem, b: Elem) -> Elem:
        p = self.p
        if self.degree == 1:
            return (a[0] * b[0] % p,)
        return tuple(c % p for c in self._mul_unreduced(a, b))

    def _mul_unreduced(self, a: Elem, b: Elem) -> Elem:
        """a b with integer coefficients congruent to the product's, reduced by the caller: one
        reduction per coefficient instead of one per level, and Karatsuba at each quadratic level
        (the derivations of the k = 48 family spend most of their time here)."""
        if self.degree == 2:
            p0, p1 = a[0] * b[0], a[1] * b[1]
            return (p0 + self.beta * p1, (a[0] + a[1]) * (b[0] + b[1]) - p0 - p1)
        S, half = self.subfield, self.degree // 2
        a0, a1, b0, b1 = a[:half], a[half:], b[:half], b[half:]
        t0, t1 = S._mul_unreduced(a0, b0), S._mul_unreduced(a1, b1)
        t2 = S._mul_unreduced(tuple(x + y for x, y in zip(a0, a1, strict=True)),
                              tuple(x + y for x, y in zip(b0, b1, strict=True)))
        nr_t1 = S._mul_unreduced(self.non_residue, tuple(x % self.p for x in t1))
        return (tuple(x + y for x, y in zip(t0, nr_t1, strict=True))
                + tuple(z - x - y for x, y, z in zip(t0, t1, t2, strict=True)))

    def scale(self, a: Elem, k: int) -> Elem:
        return tuple(x * k % self.p for x in a)

    def pow(self, a: Elem, e: int) -> Elem:
        if e < 0:
            return self.pow(self.inv(a), -e)
        result, base = self.one, a
        while e:
            if e & 1:
                result = self.mul(result, base)
            base = self.mul(base, base)
            e >>= 1
        return result

    def inv(self, a: Elem) -> Elem:
        p = self.p
        if self.degree == 1:
            return (int(gmpy2.invert(a[0], p)),)
        if self.degree in (4, 8):
            S = self.subfield
            a0, a1 = self._halves(a)
            n_inv = S.inv(self.norm(a))
            return S.mul(a0, n_inv) + S.neg(S.mul(a1, n_inv))
        inverse = int(gmpy2.invert(self.norm(a)[0], p))
        return (a[0] * inverse % p, -a[1] * inverse % p)

    def conj(self, a: Elem) -> Elem:
        """The p-power Frobenius: identity on Fp, u -> -u on Fp2 (for Fp4 and Fp8 use frobenius)."""
        if self.degree in (4, 8):
            return self.frobenius(a, 1)
        return a if self.degree == 1 else (a[0], -a[1] % self.p)

    def frobenius(self, a: Elem, n: int) -> Elem:
        """a^(p^n); on Fp4, (a0 + a1 v)^(p^n) = frob^n(a0) + frob^n(a1) nu^((p^n - 1)/2) v, and
        the same one level up on Fp8 with omega."""
        if self.degree in (4, 8):
            S = self.subfield
            a0, a1 = self._halves(a)
            return S.frobenius(a0, n) + S.mul(S.frobenius(a1, n), self._frobenius_gamma(n))
        return self.conj(a) if n % 2 else a

    @cached_property
    def _gammas(self) -> dict[int, Elem]:
        """_frobenius_gamma's values by n mod degree."""
        return {}

    def _frobenius_gamma(self, n: int) -> Elem:
        """non_residue^((p^n - 1) / 2), the constant of frobenius(., n) on degrees 4 and 8 (cached:
        an exponentiation with an exponent of degree times p's size)."""
        n %= self.degree
        if n not in self._gammas:
            S = self.subfield
            self._gammas[n] = S.pow(self.non_residue, (self.p**n - 1) // 2 % (S.order - 1))
        return self._gammas[n]

    def norm(self, a: Elem) -> Elem:
        """The norm to the subfield this one is quadratic over (a times its conjugate): a0^2 - nr a1^2
        in Fp for Fp2, in ``subfield`` for degrees 4 and 8."""
        if self.degree == 2:
            return ((a[0] * a[0] - self.beta * a[1] * a[1]) % self.p,)
        S = self.subfield
        a0, a1 = self._halves(a)
        return S.sub(S.mul(a0, a0), S.mul(self.non_residue, S.mul(a1, a1)))

    def is_square(self, a: Elem) -> bool:
        """Euler's criterion through the norms: for a quadratic extension L of K with |K| = q,
        a^((q^2 - 1)/2) = (a^(q + 1))^((q - 1)/2) = N(a)^((q - 1)/2), so a is a square in L exactly when
        its norm is one in K, down to Legendre's symbol in Fp."""
        if a == self.zero:
            return True
        if self.degree == 1:
            return gmpy2.legendre(a[0], self.p) == 1
        if self.degree == 2:
            return gmpy2.legendre(self.norm(a)[0], self.p) == 1
        return self.subfield.is_square(self.norm(a))

    def sqrt(self, a: Elem) -> Elem | None:
        """A square root in Fq, or None (the complex method for degree 2)."""
        p = self.p
        if self.degree == 1:
            root = sqrt_fp(a[0], p)
            return None if root is None else (root,)
        if self.degree in (4, 8):
            return self._sqrt_quadratic_over_sub(a)
        if a[1] == 0:
            root = sqrt_fp(a[0], p)
            if root is not None:
                return (root, 0)
            root = sqrt_fp(a[0] * int(gmpy2.invert(self.beta, p)), p)
            return None if root is None else (0, root)
        alpha = sqrt_fp(a[0] * a[0] - self.beta * a[1] * a[1], p)
        if alpha is None:
            return None
        half = int(gmpy2.invert(2, p))
        for delta in ((a[0] + alpha) * half % p, (a[0] - alpha) * half % p):
            x0 = sqrt_fp(delta, p)
            if x0:
                x1 = a[1] * int(gmpy2.invert(2 * x0, p)) % p
                candidate = (x0, x1)
                if self.mul(candidate, candidate) == a:
                    return candidate
        return None

    def _sqrt_quadratic_over_sub(self, a: Elem) -> Elem | None:
        """The complex method one level up: a = a0 + a1 v, alpha^2 = a0^2 - nu a1^2 in the
        subfield (nu: the level's non-residue), x0^2 = (a0 +- alpha)/2, x1 = a1 / (2 x0); each
        candidate is squared to confirm."""
        S, nr = self.subfield, self.non_residue
        a0, a1 = self._halves(a)
        if a1 == S.zero:
            root = S.sqrt(a0)
            if root is not None:
                return root + S.zero
            root = S.sqrt(S.mul(a0, S.inv(nr)))
            return None if root is None else S.zero + root
        alpha = S.sqrt(S.sub(S.mul(a0, a0), S.mul(nr, S.mul(a1, a1))))
        if alpha is None:
            return None
        half = S.elem(int(gmpy2.invert(2, self.p)))
        for delta in (S.mul(S.add(a0, alpha), half), S.mul(S.sub(a0, alpha), half)):
            x0 = S.sqrt(delta)
            if x0 is None or x0 == S.zero:
                continue
            candidate = x0 + S.mul(a1, S.inv(S.scale(x0, 2)))
            if self.mul(candidate, candidate) == a:
                return candidate
        return None

    def random(self, rng: random.Random) -> Elem:
        return tuple(rng.randrange(self.p) for _ in range(self.degree))


@dataclass(frozen=True)
class Curve:
    """y^2 = x^3 + b over Fq, affine arithmetic."""

    F: Fq
    b: Elem

    def on_curve(self, P: Point) -> bool:
        if P is None:
            return True
        x, y = P
        F = self.F
        return F.mul(y, y) == F.add(F.mul(F.mul(x, x), x), self.b)

    def neg(self, P: Point) -> Point:
        return None if P is None else (P[0], self.F.neg(P[1]))

    def add(self, P: Point, Q: Point) -> Point:
        F = self.F
        if P is None:
            return Q
        if Q is None:
            return P
        if P[0] == Q[0]:
            if P[1] != Q[1] or P[1] == F.zero:
                return None
            lam = F.mul(F.scale(F.mul(P[0], P[0]), 3), F.inv(F.scale(P[1], 2)))
        else:
            lam = F.mul(F.sub(Q[1], P[1]), F.inv(F.sub(Q[0], P[0])))
        x3 = F.sub(F.sub(F.mul(lam, lam), P[0]), Q[0])
        y3 = F.sub(F.mul(lam, F.sub(P[0], x3)), P[1])
        return (x3, y3)

    def mul(self, P: Point, k: int) -> Point:
        if k < 0:
            return self.mul(self.neg(P), -k)
        result: Point = None
        while k:
            if k & 1:
                result = self.add(result, P)
            P = self.add(P, P)
            k >>= 1
        return result

    def lift_x(self, x: Elem) -> Point:
        """The point with this x and the smaller (not lexicographically largest) y, or None."""
        F = self.F
        rhs = F.add(F.mul(F.mul(x, x), x), self.b)
        y = F.sqrt(rhs)
        if y is None:
            return None
        if lex_largest(F, y):
            y = F.neg(y)
        return (x, y)

    def random_point(self, rng: random.Random) -> Point:
        while True:
            P = self.lift_x(self.F.random(rng))
            if P is not None:
                return P


def lex_largest(F: Fq, a: Elem) -> bool:
    """The zcash / gnark sign: compare the highest non-zero coefficient with (p-1)/2."""
    for coeff in reversed(a):
        if coeff:
            return coeff > (F.p - 1) // 2
    return False
