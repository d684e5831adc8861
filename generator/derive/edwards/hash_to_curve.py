"""Elligator 2 hashing constants of a twisted Edwards curve, each checked as it is derived.

RFC 9380 §6.7.1 maps a field element to the Montgomery model K·t² = s³ + J·s² + s with
J = 2(a+d)/(a−d), K = 4/(a−d) (the model generator/derive/edwards/model.py derives), and §6.8.2 /
appendix D carries (s, t) to the Edwards curve by v = s/t, w = (s−1)/(s+1). Z is the
non-square of appendix H.3 (the first of 1, −1, 2, −2, ... that is not a square).

The RFC's precondition also asks (J² − 4)/K² = a·d to be a non-square. Where a·d is a square
(Bandersnatch: a = −5 and d are both non-squares) the curve has its full 2-torsion over F_p and
gx1 may be 0 for some u; the steps still return a point of the curve (y = 0 is a square root of
0), which is what arkworks' Elligator2Map and ark-vrf's Bandersnatch suites compute. The model
records which case holds (``rfc_precondition``); the map is checked on random inputs either way.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..checks import require
from .algebra import EdwardsCurve, MontgomeryCurve, elligator2_montgomery, montgomery_to_edwards

SAMPLES = 8
# hash_to_field: expand_message_xmd with SHA-512 (the hash of RFC 9380's Edwards suites) and
# k = 128 bits of security: L = ceil((ceil(log2 p) + k) / 8) bytes per element.
SECURITY_BITS = 128


@dataclass(frozen=True)
class Elligator2Model:
    """The Montgomery model K·t² = s³ + J·s² + s of the curve and the map's constants."""

    J: int
    K: int
    Z: int  # as an integer in (−p/2, p/2): the value appendix H.3 picks
    L: int  # bytes per field element in hash_to_field
    suite_ro: str
    suite_nu: str
    rfc_precondition: bool  # a·d is a non-square (RFC 9380 §6.7.1's precondition)


def _is_square(a: int, p: int) -> bool:
    return a % p == 0 or pow(a, (p - 1) // 2, p) == 1


def find_z_ell2(p: int) -> int:
    """RFC 9380 appendix H.3: the non-square of smallest absolute value, the positive one first."""
    ctr = 1
    while True:
        for z in (ctr, -ctr):
            if not _is_square(z, p):
                return z
        ctr += 1


def derive_elligator2(p: int, a: int, d: int, name: str, curve: str) -> Elligator2Model:
    """The Elligator 2 constants of a·x² + y² = 1 + d·x²·y² over F_p; the map is checked to land
    on the Montgomery and Edwards curves on edge and random inputs."""
    inv = pow(a - d, -1, p)
    J, K = 2 * (a + d) * inv % p, 4 * inv % p
    require(J != 0 and K != 0, curve, "Elligator 2: the Montgomery model has J ≠ 0 and K ≠ 0")
    require((J * J - 4) * pow(K * K, -1, p) % p == a * d % p, curve, "Elligator 2: (J² − 4)/K² = a·d")
    Z = find_z_ell2(p)
    require(not _is_square(Z, p), curve, "Elligator 2: Z is a non-square")
    E, M = EdwardsCurve(p, a, d), MontgomeryCurve(p, J, K)
    rng = random.Random(f"pairforge-elligator2-{p}-{a}-{d}")
    for u in [0, 1, p - 1] + [rng.randrange(p) for _ in range(SAMPLES)]:
        st = elligator2_montgomery(p, J, K, Z, u)
        require(M.on_curve(st), curve, "Elligator 2 maps to K·t² = s³ + J·s² + s")
        require(E.on_curve(montgomery_to_edwards(p, st)), curve, "the rational map lands on the Edwards curve")
    L = (p.bit_length() + SECURITY_BITS + 7) // 8
    tag = name.upper().replace("-", "").replace(" ", "")
    return Elligator2Model(J=J, K=K, Z=Z, L=L, suite_ro=f"{tag}_XMD:SHA-512_ELL2_RO_",
                           suite_nu=f"{tag}_XMD:SHA-512_ELL2_NU_",
                           rfc_precondition=not _is_square(a * d, p))
