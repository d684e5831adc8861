"""Slow, plainly-correct finite fields for the test oracle.

Two constructions cover every field the generator targets:

* ``PrimeField(p)``: integers mod p (values are gmpy2 ``mpz``).
* ``ExtensionField(base, n, c)``: ``base[X]/(X^n - c)``, with ``base`` a prime field or another
  extension field, so towers such as Fp12 = Fp2[w]/(w^6 - xi) are built by nesting.

Everything is written for obvious correctness: multiplication is schoolbook followed by the
reduction ``X^n = c``, inversion is the polynomial extended Euclid algorithm, square roots are
generic Tonelli-Shanks, Frobenius is a plain power.  Nothing here is constant time or fast.

Integers (and elements of subfields lower in the same tower) are accepted on either side of
``+ - * /`` and ``==``, so test code can write ``x * 3 + 1`` or ``fp2_elem * fp12_elem``.
A list or tuple passed to an extension field is read as its coefficient vector, low to high.

Layer: oracle. Imports only generator/reference's own modules; no module of the generator imports it
(the tests do).
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import gmpy2
from gmpy2 import mpz

__all__ = [
    "Field",
    "FieldElement",
    "PrimeField",
    "PrimeFieldElement",
    "ExtensionField",
    "ExtensionFieldElement",
]


class Field:
    """Behaviour shared by both field kinds; subclasses define ``order`` and element coercion."""

    characteristic: mpz
    order: mpz
    degree: int  # absolute degree over the prime field

    def __call__(self, value: Any) -> "FieldElement":  # pragma: no cover - abstract
        raise NotImplementedError

    def zero(self) -> "FieldElement":
        return self(0)

    def one(self) -> "FieldElement":
        return self(1)

    def _find_nonresidue(self) -> "FieldElement":  # pragma: no cover - abstract
        raise NotImplementedError

    def nonresidue(self) -> "FieldElement":
        """A fixed quadratic non-residue, found by deterministic search and cached (for sqrt)."""
        cached = getattr(self, "_nonresidue_cache", None)
        if cached is None:
            cached = self._find_nonresidue()
            self._nonresidue_cache = cached
        return cached


class FieldElement:
    """Arithmetic shared by both element kinds, written in terms of a few primitives.

    Subclasses provide ``field``, ``_add``, ``_sub``, ``_mul``, ``_neg``, ``_same``,
    ``inverse``, ``is_zero``, ``__eq__`` and ``__hash__``.  Binary operators first move both
    operands into one field (``_promote``): ints and subfield elements are accepted either side.
    """

    __slots__ = ()
    field: Field

    # -- primitives (subclass) -------------------------------------------------------------
    def _add(self, other: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _sub(self, other: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _mul(self, other: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _neg(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def inverse(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def is_zero(self) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def square(self) -> Any:
        return self._mul(self)

    # -- coercion ---------------------------------------------------------------------------
    def _coerce(self, other: Any) -> Any:
        """Bring ``other`` into this element's field, or return None when that is impossible."""
        if isinstance(other, FieldElement) and other.field is self.field:
            return other
        try:
            return self.field(other)
        except (TypeError, ValueError):
            return None

    def _promote(self, other: Any) -> Any:
        """(self, other) moved into one common field, or None.

        The common field is self's when ``other`` coerces into it (ints, subfield elements);
        otherwise other's when self is a subfield element of other's field.  Both element
        classes are shared by every field, so Python never tries the reflected operator for
        us: e.g. Fp2 * Fp12 has to be routed to the Fp12 multiplication here.
        """
        o = self._coerce(other)
        if o is not None:
            return self, o
        if isinstance(other, FieldElement):
            s = other._coerce(self)
            if s is not None:
                return s, other
        return None

    # -- operators --------------------------------------------------------------------------
    def __add__(self, other: Any) -> Any:
        ab = self._promote(other)
        return NotImplemented if ab is None else ab[0]._add(ab[1])

    def __radd__(self, other: Any) -> Any:
        ab = self._promote(other)
        return NotImplemented if ab is None else ab[1]._add(ab[0])

    def __sub__(self, other: Any) -> Any:
        ab = self._promote(other)
        return NotImplemented if ab is None else ab[0]._sub(ab[1])

    def __rsub__(self, other: Any) -> Any:
        ab = self._promote(other)
        return NotImplemented if ab is None else ab[1]._sub(ab[0])

    def __mul__(self, other: Any) -> Any:
        ab = self._promote(other)
        return NotImplemented if ab is None else ab[0]._mul(ab[1])

    def __rmul__(self, other: Any) -> Any:
        ab = self._promote(other)
        return NotImplemented if ab is None else ab[1]._mul(ab[0])

    def __truediv__(self, other: Any) -> Any:
        ab = self._promote(other)
        return NotImplemented if ab is None else ab[0]._mul(ab[1].inverse())

    def __rtruediv__(self, other: Any) -> Any:
        ab = self._promote(other)
        return NotImplemented if ab is None else ab[1]._mul(ab[0].inverse())

    def _equal(self, other: Any) -> bool:
        """== after promotion to a common field; objects with no common field are unequal."""
        ab = self._promote(other)
        return ab is not None and ab[0]._same(ab[1])

    def _same(self, other: Any) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def __neg__(self) -> Any:
        return self._neg()

    def __pos__(self) -> Any:
        return self

    def __pow__(self, e: int) -> Any:
        """Left-to-right square-and-multiply; negative exponents invert first.

        For a nonzero element the exponent is reduced mod (q - 1) (Lagrange), which makes
        ``frobenius(k)`` for k >= degree and other huge exponents cheap without changing results.
        """
        e = int(e)
        if e < 0:
            return self.inverse() ** (-e)
        if self.is_zero():
            return self.field.one() if e == 0 else self
        if self.is_one():
            return self  # saves a full power when, e.g., exponentiating the identity of GT
        e %= int(self.field.order) - 1
        result = self.field.one()
        for bit in bin(e)[2:]:
            result = result.square()
            if bit == "1":
                result = result._mul(self)
        return result

    # -- derived operations -----------------------------------------------------------------
    def is_one(self) -> bool:
        return self == self.field.one()

    def is_square(self) -> bool:
        """Euler's criterion: a is a square iff a = 0 or a^((q-1)/2) = 1."""
        if self.is_zero():
            return True
        return (self ** ((int(self.field.order) - 1) // 2)).is_one()

    def sqrt(self) -> Any:
        """One square root (Tonelli-Shanks in the cyclic group of order q - 1), else ValueError."""
        return _tonelli_shanks(self)

    def frobenius(self, k: int = 1) -> Any:
        """The p^k-power map, computed as a plain power (p = the characteristic)."""
        return self ** (int(self.field.characteristic) ** k)


def _tonelli_shanks(a: FieldElement) -> FieldElement:
    """Generic Tonelli-Shanks over any finite field of odd order q.

    Write q - 1 = 2^s * m with m odd.  With z a non-residue, c = z^m generates the 2-Sylow
    subgroup; the loop fixes up t = a^m into that subgroup one power of two at a time.
    """
    field = a.field
    if a.is_zero():
        return a
    if not a.is_square():
        raise ValueError("not a square")
    q = int(field.order)
    m, s = q - 1, 0
    while m % 2 == 0:
        m //= 2
        s += 1
    z = field.nonresidue()
    c = z ** m
    t = a ** m
    root = a ** ((m + 1) // 2)
    big_m = s
    while not t.is_one():
        # least i with t^(2^i) = 1; i < big_m because t lies in a subgroup of order 2^(big_m-1)
        i, t2 = 0, t
        while not t2.is_one():
            t2 = t2.square()
            i += 1
        b = c
        for _ in range(big_m - i - 1):
            b = b.square()
        root = root * b
        c = b.square()
        t = t * c
        big_m = i
    assert root.square() == a
    return root


# ======================================================================================
# Prime fields
# ======================================================================================


class PrimeField(Field):
    """The field of integers mod an odd prime p (primality is the caller's responsibility)."""

    def __init__(self, p: int) -> None:
        p = mpz(p)
        if p < 3 or p % 2 == 0:
            raise ValueError("PrimeField needs an odd prime")
        self.p = p
        self.characteristic = p
        self.order = p
        self.degree = 1

    def __repr__(self) -> str:
        return f"PrimeField({hex(self.p)})"

    def __call__(self, value: Any) -> "PrimeFieldElement":
        """Coerce an int (any sign) or an element of this field; anything else is a TypeError."""
        if isinstance(value, PrimeFieldElement):
            if value.field is self or value.field.p == self.p:
                return value if value.field is self else PrimeFieldElement(self, value.v)
            raise TypeError("element of a different prime field")
        if isinstance(value, FieldElement):
            raise TypeError(f"cannot coerce {value.field!r} element into {self!r}")
        if isinstance(value, bool) or not isinstance(value, (int, type(mpz(0)))):
            raise TypeError(f"cannot coerce {type(value).__name__} into {self!r}")
        return PrimeFieldElement(self, mpz(value) % self.p)

    def _find_nonresidue(self) -> "PrimeFieldElement":
        z = 2
        while gmpy2.legendre(z, self.p) != -1:
            z += 1
        return self(z)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PrimeField) and other.p == self.p

    def __hash__(self) -> int:
        return hash(("PrimeField", int(self.p)))


class PrimeFieldElement(FieldElement):
    """An element of a PrimeField, held as the reduced mpz ``v`` in [0, p)."""

    __slots__ = ("field", "v")

    def __init__(self, field: PrimeField, v: mpz) -> None:
        self.field = field
        self.v = v

    def _add(self, o: "PrimeFieldElement") -> "PrimeFieldElement":
        return PrimeFieldElement(self.field, (self.v + o.v) % self.field.p)

    def _sub(self, o: "PrimeFieldElement") -> "PrimeFieldElement":
        return PrimeFieldElement(self.field, (self.v - o.v) % self.field.p)

    def _mul(self, o: "PrimeFieldElement") -> "PrimeFieldElement":
        return PrimeFieldElement(self.field, (self.v * o.v) % self.field.p)

    def _neg(self) -> "PrimeFieldElement":
        return PrimeFieldElement(self.field, (-self.v) % self.field.p)

    def inverse(self) -> "PrimeFieldElement":
        if self.v == 0:
            raise ZeroDivisionError("inverse of zero")
        return PrimeFieldElement(self.field, gmpy2.invert(self.v, self.field.p))

    def __pow__(self, e: int) -> "PrimeFieldElement":
        """gmpy2's powmod is the same plain power, just without Python overhead."""
        e = int(e)
        if e < 0:
            return self.inverse() ** (-e)
        return PrimeFieldElement(self.field, gmpy2.powmod(self.v, e, self.field.p))

    def is_zero(self) -> bool:
        return self.v == 0

    def frobenius(self, k: int = 1) -> "PrimeFieldElement":
        """a^(p^k) = a on Fp (Fermat)."""
        return self

    def is_square(self) -> bool:
        """Euler's criterion a^((p-1)/2) in {0, 1}."""
        return gmpy2.powmod(self.v, (self.field.p - 1) // 2, self.field.p) != self.field.p - 1

    def __int__(self) -> int:
        return int(self.v)

    def __index__(self) -> int:
        return int(self.v)

    def _same(self, o: "PrimeFieldElement") -> bool:
        return o.v == self.v

    def __eq__(self, other: object) -> bool:
        return self._equal(other)

    def __hash__(self) -> int:
        return hash(int(self.v))

    def __repr__(self) -> str:
        return f"Fp({hex(self.v)})"


# ======================================================================================
# Extension fields
# ======================================================================================


def _trim(poly: list[FieldElement]) -> list[FieldElement]:
    """Drop high zero coefficients (the zero polynomial becomes [])."""
    while poly and poly[-1].is_zero():
        poly.pop()
    return poly


def _poly_divmod(
    num: Sequence[FieldElement], den: Sequence[FieldElement]
) -> tuple[list[FieldElement], list[FieldElement]]:
    """Schoolbook long division of polynomials over a field (den must be nonzero, trimmed)."""
    rem = list(num)
    _trim(rem)
    base = den[-1].field
    quo = [base.zero()] * max(len(rem) - len(den) + 1, 0)
    lead_inv = den[-1].inverse()
    while len(rem) >= len(den):
        shift = len(rem) - len(den)
        coef = rem[-1] * lead_inv
        quo[shift] = coef
        for i, d in enumerate(den):
            rem[shift + i] = rem[shift + i] - coef * d
        rem.pop()  # leading term is now zero by construction
        _trim(rem)
    return quo, rem


def _poly_sub_mul(a: list[FieldElement], q: list[FieldElement], b: list[FieldElement]) -> list[FieldElement]:
    """a - q*b for polynomials."""
    base = (a or q or b)[0].field
    out = list(a) + [base.zero()] * max(len(q) + len(b) - 1 - len(a), 0)
    for i, qi in enumerate(q):
        for j, bj in enumerate(b):
            out[i + j] = out[i + j] - qi * bj
    return _trim(out)


class ExtensionField(Field):
    """base[X]/(X^n - c); the caller guarantees X^n - c is irreducible over base.

    Elements are tuples of n base elements, coefficients low to high.
    """

    def __init__(self, base: Field, degree: int, nonresidue: Any, name: str = "") -> None:
        if degree < 2:
            raise ValueError("extension degree must be >= 2")
        self.base = base
        self.n = degree
        self.c = base(nonresidue)
        self.characteristic = base.characteristic
        self.order = base.order ** degree
        self.degree = base.degree * degree
        self.name = name or f"Ext{self.degree}"

    def __repr__(self) -> str:
        return f"ExtensionField({self.name}: {self.base!r}[X]/(X^{self.n} - {self.c!r}))"

    def __call__(self, value: Any) -> "ExtensionFieldElement":
        """Coerce: an element of this field; a sequence of <= n base-coercible coefficients;
        or anything the base accepts (ints, subfield elements), embedded as a constant."""
        if isinstance(value, ExtensionFieldElement) and value.field is self:
            return value
        if isinstance(value, ExtensionFieldElement) and value.field == self:
            value = list(value.coeffs)  # an equal field built separately: rebuild coefficientwise
        if isinstance(value, (tuple, list)):
            if len(value) > self.n:
                raise ValueError(f"{len(value)} coefficients for a degree-{self.n} extension")
            coeffs = [self.base(v) for v in value]
            coeffs += [self.base.zero()] * (self.n - len(coeffs))
            return ExtensionFieldElement(self, tuple(coeffs))
        constant = self.base(value)  # raises TypeError for unrelated objects
        return ExtensionFieldElement(self, (constant,) + (self.base.zero(),) * (self.n - 1))

    def gen(self) -> "ExtensionFieldElement":
        """X, the adjoined root of X^n = c."""
        return self([0, 1])

    def _find_nonresidue(self) -> "ExtensionFieldElement":
        """Deterministic search X^i + k; about half of all elements are non-residues."""
        for i in range(1, self.n):
            for k in range(0, 64):
                coeffs = [0] * self.n
                coeffs[0], coeffs[i] = k, 1
                z = self(coeffs)
                if not z.is_square():
                    return z
        raise ValueError("no quadratic non-residue found")  # pragma: no cover

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ExtensionField)
            and other.n == self.n
            and other.base == self.base
            and other.c == self.c
        )

    def __hash__(self) -> int:
        return hash(("ExtensionField", self.n, self.base, self.c))


class ExtensionFieldElement(FieldElement):
    """An element of ExtensionField, held as ``coeffs``: n base elements, low to high."""

    __slots__ = ("field", "coeffs")

    def __init__(self, field: ExtensionField, coeffs: tuple[FieldElement, ...]) -> None:
        self.field = field
        self.coeffs = coeffs

    def __iter__(self) -> Iterator[FieldElement]:
        return iter(self.coeffs)

    def __getitem__(self, i: int) -> FieldElement:
        return self.coeffs[i]

    def __len__(self) -> int:
        return len(self.coeffs)

    def _add(self, o: "ExtensionFieldElement") -> "ExtensionFieldElement":
        return ExtensionFieldElement(self.field, tuple(a._add(b) for a, b in zip(self.coeffs, o.coeffs, strict=True)))

    def _sub(self, o: "ExtensionFieldElement") -> "ExtensionFieldElement":
        return ExtensionFieldElement(self.field, tuple(a._sub(b) for a, b in zip(self.coeffs, o.coeffs, strict=True)))

    def _neg(self) -> "ExtensionFieldElement":
        return ExtensionFieldElement(self.field, tuple(a._neg() for a in self.coeffs))

    def _reduce(self, prod: list[FieldElement]) -> "ExtensionFieldElement":
        """Fold a product of degree <= 2n-2 back with X^n = c: coefficient n+i goes to i times c."""
        n, c = self.field.n, self.field.c
        out = prod[:n]
        for i in range(n, len(prod)):
            out[i - n] = out[i - n]._add(c._mul(prod[i]))
        return ExtensionFieldElement(self.field, tuple(out))

    # The internal loops call _add/_mul directly: both operands are already in the base field,
    # so the operator-level coercion would only cost time.

    def _mul(self, o: "ExtensionFieldElement") -> "ExtensionFieldElement":
        """Schoolbook product of the two polynomials, then reduce."""
        n = self.field.n
        if isinstance(self.field.base, PrimeField):
            return self._mul_over_fp(o.coeffs)
        zero = self.field.base.zero()
        prod = [zero] * (2 * n - 1)
        for i, a in enumerate(self.coeffs):
            if a.is_zero():
                continue
            for j, b in enumerate(o.coeffs):
                prod[i + j] = prod[i + j]._add(a._mul(b))
        return self._reduce(prod)

    def _mul_over_fp(self, other: tuple[FieldElement, ...]) -> "ExtensionFieldElement":
        """The same schoolbook product and reduction when the base is Fp, on the integers
        themselves (one reduction mod p per coefficient instead of one per product)."""
        field = self.field
        base, n, c, p = field.base, field.n, field.c.v, field.base.p
        a = [e.v for e in self.coeffs]
        b = [e.v for e in other]
        prod = [0] * (2 * n - 1)
        for i in range(n):
            if a[i]:
                for j in range(n):
                    prod[i + j] += a[i] * b[j]
        out = [prod[i] + (c * prod[i + n] if i + n < 2 * n - 1 else 0) for i in range(n)]
        return ExtensionFieldElement(field, tuple(PrimeFieldElement(base, v % p) for v in out))

    def frobenius(self, k: int = 1) -> "ExtensionFieldElement":
        """The p^k-power map of base[X]/(X^n - c), when n divides p^k - 1:
        (sum a_i X^i)^(p^k) = sum a_i^(p^k) gamma^i X^i with gamma = X^(p^k - 1) = c^((p^k - 1)/n).
        Otherwise the plain power."""
        field = self.field
        q = int(field.characteristic) ** k
        if (q - 1) % field.n:
            return super().frobenius(k)
        cache = field.__dict__.setdefault("_frobenius_gamma", {})
        if k not in cache:
            cache[k] = field.c ** ((q - 1) // field.n)
        gamma = cache[k]
        out, power = [], field.base.one()
        for a in self.coeffs:
            out.append(a.frobenius(k) * power)
            power = power * gamma
        return ExtensionFieldElement(field, tuple(out))

    def square(self) -> "ExtensionFieldElement":
        """Schoolbook square using the symmetry a_i a_j = a_j a_i (about half the products)."""
        n = self.field.n
        if isinstance(self.field.base, PrimeField):
            return self._mul_over_fp(self.coeffs)
        a = self.coeffs
        zero = self.field.base.zero()
        prod = [zero] * (2 * n - 1)
        for i in range(n):
            if a[i].is_zero():
                continue
            prod[2 * i] = prod[2 * i]._add(a[i].square())
            twice = a[i]._add(a[i])
            for j in range(i + 1, n):
                prod[i + j] = prod[i + j]._add(twice._mul(a[j]))
        return self._reduce(prod)

    def inverse(self) -> "ExtensionFieldElement":
        """Polynomial extended Euclid: find s with s*a + t*(X^n - c) = const != 0 over base."""
        if self.is_zero():
            raise ZeroDivisionError("inverse of zero")
        base = self.field.base
        modulus = [-self.field.c] + [base.zero()] * (self.field.n - 1) + [base.one()]
        r0, r1 = modulus, _trim(list(self.coeffs))
        s0, s1 = [], [base.one()]
        while len(r1) > 1:
            q, rem = _poly_divmod(r0, r1)
            r0, r1 = r1, rem
            s0, s1 = s1, _poly_sub_mul(s0, q, s1)
        if not r1:
            raise ZeroDivisionError("modulus is reducible: element shares a factor with it")
        inv_const = r1[0].inverse()
        return self.field([s * inv_const for s in s1])

    def is_zero(self) -> bool:
        return all(a.is_zero() for a in self.coeffs)

    def conj(self) -> "ExtensionFieldElement":
        """X -> -X (n even): the automorphism fixing the subfield base[X^2]."""
        if self.field.n % 2:
            raise ValueError("conj needs an even extension degree")
        return ExtensionFieldElement(
            self.field, tuple(a if i % 2 == 0 else -a for i, a in enumerate(self.coeffs))
        )

    def __int__(self) -> int:
        """Only for elements lying in the prime field (all higher coefficients zero)."""
        if any(not a.is_zero() for a in self.coeffs[1:]):
            raise ValueError("element is not in the prime field")
        return int(self.coeffs[0])

    def to_ints(self) -> tuple:
        """Nested tuples of ints mirroring the tower (for printing and serialising)."""
        return tuple(a.to_ints() if isinstance(a, ExtensionFieldElement) else int(a) for a in self.coeffs)

    def _same(self, o: "ExtensionFieldElement") -> bool:
        return all(a._same(b) for a, b in zip(self.coeffs, o.coeffs, strict=True))

    def __eq__(self, other: object) -> bool:
        return self._equal(other)

    def __hash__(self) -> int:
        """Consistent with == against subfield elements and ints: constants hash as their value."""
        if all(a.is_zero() for a in self.coeffs[1:]):
            return hash(self.coeffs[0])
        return hash(self.coeffs)

    def __repr__(self) -> str:
        return f"{self.field.name}{self.coeffs!r}"
