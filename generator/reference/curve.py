"""Affine short Weierstrass curves y^2 = x^3 + b (a = 0) over any reference field.

Points are plain ``(x, y)`` tuples of field elements and the point at infinity is ``None``.
The group law is the textbook chord-and-tangent one, with every special case spelled out, so
that it can serve as the oracle for the generated projective/Jacobian code.

Layer: oracle. Imports only generator/reference's own modules; no module of the generator imports it
(the tests do).
"""

from __future__ import annotations

from typing import Any, Optional

from .fields import Field, FieldElement

__all__ = ["Point", "Curve"]

Point = Optional[tuple[FieldElement, FieldElement]]


class Curve:
    """E: y^2 = x^3 + b over ``field``; methods take and return affine points or None."""

    def __init__(self, field: Field, b: Any, name: str = "") -> None:
        self.field = field
        self.b = field(b)
        self.name = name or "E"

    def __repr__(self) -> str:
        return f"Curve({self.name}: y^2 = x^3 + {self.b!r} over {self.field!r})"

    # -- construction -----------------------------------------------------------------------
    def point(self, x: Any, y: Any) -> tuple[FieldElement, FieldElement]:
        """Coerce coordinates (ints, tuples of ints, elements) and check the point is on E."""
        P = (self.field(x), self.field(y))
        if not self.on_curve(P):
            raise ValueError(f"point is not on {self.name}")
        return P

    def coerce(self, P: Any) -> Point:
        """None stays None; any (x, y) pair is coerced into the field and checked on E."""
        if P is None:
            return None
        x, y = P
        return self.point(x, y)

    def lift_x(self, x: Any) -> Point:
        """A point with abscissa x (either root of y^2 = x^3 + b), or None if x^3 + b is not a
        square.  Useful for building random test points."""
        x = self.field(x)
        rhs = x * x * x + self.b
        if not rhs.is_square():
            return None
        return (x, rhs.sqrt())

    # -- predicates -------------------------------------------------------------------------
    def on_curve(self, P: Any) -> bool:
        """Infinity is on every curve; otherwise check the equation."""
        if P is None:
            return True
        x, y = self.field(P[0]), self.field(P[1])
        return y * y == x * x * x + self.b

    def eq(self, P: Any, Q: Any) -> bool:
        if P is None or Q is None:
            return P is None and Q is None
        return self.field(P[0]) == self.field(Q[0]) and self.field(P[1]) == self.field(Q[1])

    # -- group law --------------------------------------------------------------------------
    # Public methods coerce their inputs (ints, tuples, elements) and reject points off the
    # curve; the underscored ones assume coerced points and do the arithmetic.

    def neg(self, P: Any) -> Point:
        P = self.coerce(P)
        if P is None:
            return None
        return (P[0], -P[1])

    def double(self, P: Any) -> Point:
        return self._double(self.coerce(P))

    def add(self, P: Any, Q: Any) -> Point:
        return self._add(self.coerce(P), self.coerce(Q))

    def sub(self, P: Any, Q: Any) -> Point:
        return self._add(self.coerce(P), self.neg(Q))

    def mul(self, P: Any, n: int) -> Point:
        """[n]P by left-to-right double-and-add; [-n]P = [n](-P), [0]P = O."""
        n = int(n)
        P = self.neg(P) if n < 0 else self.coerce(P)
        R: Point = None
        for bit in bin(abs(n))[2:]:
            R = self._double(R)
            if bit == "1":
                R = self._add(R, P)
        return R

    def _double(self, P: Point) -> Point:
        """Tangent rule; a point with y = 0 has order 2 and doubles to infinity."""
        if P is None:
            return None
        x, y = P
        if y.is_zero():
            return None
        lam = (x * x * 3) / (y + y)
        x3 = lam * lam - x - x
        return (x3, lam * (x - x3) - y)

    def _add(self, P: Point, Q: Point) -> Point:
        """Chord rule, falling back to doubling for P = Q and to infinity for P = -Q."""
        if P is None:
            return Q
        if Q is None:
            return P
        x1, y1 = P
        x2, y2 = Q
        if x1 == x2:
            if y1 == y2:
                return self._double(P)
            return None  # y1 = -y2: vertical chord
        lam = (y2 - y1) / (x2 - x1)
        x3 = lam * lam - x1 - x2
        return (x3, lam * (x1 - x3) - y1)
