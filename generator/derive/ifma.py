"""Constants of the AVX-512 IFMA field kernel: Fp in 52-bit limbs, eight elements per vector.

The IFMA instructions (vpmadd52luq / vpmadd52huq) multiply the low 52 bits of each 64-bit lane,
so the bucket additions of the MSMs over a prime field (the pairing curves' G1, the Edwards
curves' short Weierstrass model) hold Fp in radix 2^52 with a Montgomery radix R52 = 2^(52 n) of
their own.  Values stay below 2p between operations; the Montgomery product of two of them is
(a b + m p) / R52 < 4p^2 / R52 + p, below 2p when 4p <= R52, which fixes the limb count.  Points
enter in the 64-bit Montgomery form of the rest of the library (x R64): one IFMA product by
R52^2 / R64 takes them to x R52, and one by R64 brings a result back.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

from dataclasses import dataclass

import gmpy2

from .checks import DerivationError, require

__all__ = ["LIMB_BITS", "DerivationError", "IfmaField", "derive_ifma_field", "ifma_constant", "limbs52"]

LIMB_BITS = 52
# Up to this many limbs the 8-lane product is inlined at every call: measured on Zen 4 with
# Bandersnatch's 5 limbs, the Edwards MSM of 2^14 points 4-5% faster than through a call; wider
# products stay out of line (at 15 limbs, a 761-bit p, inlining them took gcc a minute).
INLINE_PRODUCT_MAX_LIMBS = 5


@dataclass(frozen=True)
class IfmaField:
    """Fp in the IFMA kernel's radix; every constant is a tuple of 52-bit limbs, least first."""

    limbs: int
    modulus: tuple[int, ...]
    twice_modulus: tuple[int, ...]
    n0: int                   # -p^-1 mod 2^52
    one: tuple[int, ...]      # R52 mod p: 1 in the kernel's Montgomery form
    to_kernel: tuple[int, ...]    # R52^2 / R64 mod p: x R64 -> x R52 by one product
    from_kernel: tuple[int, ...]  # R64 mod p: x R52 -> x R64 by one product
    inline_product: bool          # the product is inlined (limbs <= INLINE_PRODUCT_MAX_LIMBS)


def limbs52(value: int, n: int) -> tuple[int, ...]:
    """value in n limbs of 52 bits, least first."""
    mask = (1 << LIMB_BITS) - 1
    return tuple((value >> (LIMB_BITS * i)) & mask for i in range(n))


def _from_limbs(limbs: tuple[int, ...]) -> int:
    return sum(v << (LIMB_BITS * i) for i, v in enumerate(limbs))


def derive_ifma_field(modulus: int, limbs64: int, curve: str) -> IfmaField:
    """The kernel's constants for the prime ``modulus`` whose 64-bit form has ``limbs64`` limbs."""
    n = -(-(modulus.bit_length() + 2) // LIMB_BITS)  # the least n with 4p <= 2^(52 n)
    r52 = 1 << (LIMB_BITS * n)
    r64 = 1 << (64 * limbs64)
    require(4 * modulus <= r52, curve, "IFMA: 4p <= R52 (products of values below 2p stay below 2p)")
    # column sums of a product: at most 4n terms below 2^52 each, plus the carry, inside 64 bits
    require(4 * n + 2 <= 1 << (64 - LIMB_BITS), curve, "IFMA: column sums fit 64-bit lanes")
    n0 = int(-gmpy2.invert(modulus, 1 << LIMB_BITS)) % (1 << LIMB_BITS)
    require(n0 * modulus % (1 << LIMB_BITS) == (1 << LIMB_BITS) - 1, curve, "IFMA: -p^-1 mod 2^52")
    r52_inv = int(gmpy2.invert(r52, modulus))
    to_kernel = r52 * r52 * int(gmpy2.invert(r64, modulus)) % modulus
    from_kernel = r64 % modulus
    # x R64 * to_kernel / R52 = x R52 and x R52 * from_kernel / R52 = x R64 (mod p)
    x = 0x1234567 % modulus
    require(x * r64 * to_kernel * r52_inv % modulus == x * r52 % modulus, curve, "IFMA: R52^2 / R64")
    require(x * r52 * from_kernel * r52_inv % modulus == x * r64 % modulus, curve, "IFMA: R64 mod p")
    field = IfmaField(
        limbs=n,
        modulus=limbs52(modulus, n),
        twice_modulus=limbs52(2 * modulus, n),
        n0=n0,
        one=limbs52(r52 % modulus, n),
        to_kernel=limbs52(to_kernel, n),
        from_kernel=limbs52(from_kernel, n),
        inline_product=n <= INLINE_PRODUCT_MAX_LIMBS,
    )
    require(_from_limbs(field.modulus) == modulus and _from_limbs(field.twice_modulus) == 2 * modulus, curve,
            "IFMA: p and 2p in 52-bit limbs")
    return field


def ifma_constant(field: IfmaField, value: int) -> tuple[int, ...]:
    """``value`` in the kernel's canonical form, value R52 mod p in 52-bit limbs: a curve constant
    the kernel multiplies by (the coefficient a of a short Weierstrass group with a != 0)."""
    modulus = _from_limbs(field.modulus)
    return limbs52(value * (1 << (LIMB_BITS * field.limbs)) % modulus, field.limbs)
