"""RFC 9380 hash to curve, written the plain way, as the oracle for the generated code.

expand_message_xmd (section 5.3.1) with SHA-256, hash_to_field (5.2), sgn0 (4.1), simplified SWU
by its plain description (6.6.2, with one inversion, is_square and sqrt: not the straight-line
sqrt_ratio form the C uses), Shallue-van de Woestijne by its plain description (6.6.1), the
rational isogeny map, and cofactor clearing by [h_eff].  The suite parameters (Z, the isogeny,
h_eff) are inputs: the RFC's and the other libraries' vectors check them.

Layer: oracle. Imports only generator/reference's own modules; no module of the generator imports it
(the tests do).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Sequence

from .curve import Point
from .fields import Field, FieldElement

__all__ = ["expand_message_xmd", "hash_to_field", "from_flat", "sgn0", "MapParams", "map_to_curve", "hash_to_curve",
           "encode_to_curve"]


def expand_message_xmd(msg: bytes, dst: bytes, length: int, hash_name: str = "sha256") -> bytes:
    """RFC 9380 section 5.3.1 (and 5.3.3 for a DST over 255 bytes) with SHA-256 or SHA-512."""
    H = getattr(hashlib, hash_name)
    b_in_bytes, s_in_bytes = H().digest_size, H().block_size
    if len(dst) > 255:
        dst = H(b"H2C-OVERSIZE-DST-" + dst).digest()
    ell = -(-length // b_in_bytes)
    if ell > 255 or length > 65535:
        raise ValueError("expand_message_xmd: len_in_bytes too large")
    dst_prime = dst + bytes([len(dst)])
    msg_prime = bytes(s_in_bytes) + msg + length.to_bytes(2, "big") + b"\x00" + dst_prime
    b0 = H(msg_prime).digest()
    blocks = [H(b0 + b"\x01" + dst_prime).digest()]
    for i in range(2, ell + 1):
        mixed = bytes(x ^ y for x, y in zip(b0, blocks[-1], strict=True))
        blocks.append(H(mixed + bytes([i]) + dst_prime).digest())
    return b"".join(blocks)[:length]


def hash_to_field(field: Field, msg: bytes, dst: bytes, count: int, L: int,
                  hash_name: str = "sha256") -> list[FieldElement]:
    """RFC 9380 section 5.2: count elements of ``field`` (degree m over Fp), L bytes per coefficient."""
    p = int(field.characteristic)
    m = field.degree
    data = expand_message_xmd(msg, dst, count * m * L, hash_name)
    out = []
    for i in range(count):
        coeffs = [int.from_bytes(data[L * (j + i * m): L * (j + 1 + i * m)], "big") % p for j in range(m)]
        out.append(from_flat(field, coeffs))
    return out


def from_flat(field: Field, coeffs: Sequence[int]) -> FieldElement:
    """The element whose coefficients over Fp, flattened c0 first through the tower (the order
    sgn0 reads: (c0.c0, c0.c1, c1.c0, c1.c1) in Fp4 = Fp2[v]), are ``coeffs``."""
    if field.degree == 1:
        return field(coeffs[0])
    base = field.base
    size = base.degree
    return field(tuple(from_flat(base, coeffs[i * size:(i + 1) * size]) for i in range(field.n)))


def _coeffs(a: FieldElement) -> list[int]:
    if hasattr(a, "coeffs"):
        return [c for x in a.coeffs for c in _coeffs(x)]
    return [int(a)]


def sgn0(a: FieldElement) -> int:
    """Section 4.1: the sign of the first non-zero coefficient (c0 first); 0 for 0."""
    for c in _coeffs(a):
        if c:
            return c & 1
    return 0


@dataclass(frozen=True)
class MapParams:
    """One suite's map: the curve E: y^2 = x^3 + b, the method and its parameters.

    For "sswu", (a, b_iso) is the isogenous curve E' and iso = (x_num, x_den, y_num, y_den) with
    coefficients from degree 0 up; for "svdw", a and iso are unused (E has a = 0)."""

    field: Field
    b: Any
    method: str
    z: Any
    h_eff: int
    L: int
    a_iso: Any = None
    hash_name: str = "sha256"  # expand_message_xmd's hash
    b_iso: Any = None
    iso: tuple[Sequence[Any], Sequence[Any], Sequence[Any], Sequence[Any]] | None = None


def _inv0(x: FieldElement) -> FieldElement:
    return x if x.is_zero() else x.inverse()


def _sswu(P: MapParams, u: FieldElement) -> tuple[FieldElement, FieldElement]:
    """Section 6.6.2, the plain steps 1-9, on E': y^2 = x^3 + A x + B."""
    F = P.field
    A, B, Z = F(P.a_iso), F(P.b_iso), F(P.z)
    tv1 = _inv0(Z * Z * u ** 4 + Z * u * u)
    x1 = (-B / A) * (1 + tv1)
    if tv1.is_zero():
        x1 = B / (Z * A)
    gx1 = x1 ** 3 + A * x1 + B
    x2 = Z * u * u * x1
    gx2 = x2 ** 3 + A * x2 + B
    if gx1.is_square():
        x, y = x1, gx1.sqrt()
    else:
        x, y = x2, gx2.sqrt()
    if sgn0(u) != sgn0(y):
        y = -y
    return x, y


def _iso_map(P: MapParams, x: FieldElement, y: FieldElement) -> Point:
    F = P.field

    def ev(poly: Sequence[Any]) -> FieldElement:
        acc = F(0)
        for c in reversed(poly):
            acc = acc * x + F(c)
        return acc

    x_num, x_den, y_num, y_den = P.iso
    xd, yd = ev(x_den), ev(y_den)
    if xd.is_zero() or yd.is_zero():
        return None  # a kernel point of the isogeny
    return (ev(x_num) / xd, y * ev(y_num) / yd)


def _svdw(P: MapParams, u: FieldElement) -> tuple[FieldElement, FieldElement]:
    """Section 6.6.1, the plain steps, on E: y^2 = x^3 + B (A = 0)."""
    F = P.field
    B, Z = F(P.b), F(P.z)

    def g(x: FieldElement) -> FieldElement:
        return x ** 3 + B

    gz = g(Z)
    tv1 = u * u * gz
    tv2 = 1 + tv1
    tv1 = 1 - tv1
    tv3 = _inv0(tv1 * tv2)
    c3 = (-gz * (3 * Z * Z)).sqrt()
    if sgn0(c3):
        c3 = -c3
    tv4 = u * tv1 * tv3 * c3
    x1 = -Z / 2 - tv4
    x2 = -Z / 2 + tv4
    x3 = Z + (-4 * gz / (3 * Z * Z)) * (tv2 * tv2 * tv3) ** 2
    if g(x1).is_square():
        x = x1
    elif g(x2).is_square():
        x = x2
    else:
        x = x3
    y = g(x).sqrt()
    if sgn0(u) != sgn0(y):
        y = -y
    return x, y


def map_to_curve(P: MapParams, u: FieldElement) -> Point:
    """map_to_curve of the suite: a point of E (before cofactor clearing)."""
    if P.method == "sswu":
        return _iso_map(P, *_sswu(P, u))
    return _svdw(P, u)


def hash_to_curve(P: MapParams, E: Any, msg: bytes, dst: bytes) -> tuple[list[FieldElement], Point, Point, Point]:
    """The random-oracle encoding: (u, Q0, Q1, P) with P = [h_eff](Q0 + Q1)."""
    u = hash_to_field(P.field, msg, dst, 2, P.L, P.hash_name)
    Q0, Q1 = map_to_curve(P, u[0]), map_to_curve(P, u[1])
    return u, Q0, Q1, E.mul(E.add(Q0, Q1), P.h_eff)


def encode_to_curve(P: MapParams, E: Any, msg: bytes, dst: bytes) -> tuple[list[FieldElement], Point, Point]:
    """The non-uniform encoding: (u, Q, P) with P = [h_eff] Q."""
    u = hash_to_field(P.field, msg, dst, 1, P.L, P.hash_name)
    Q = map_to_curve(P, u[0])
    return u, Q, E.mul(Q, P.h_eff)
