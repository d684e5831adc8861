"""Prime-field constants: Montgomery form, spare bits, square-root method and the fixed-exponent chains.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

from dataclasses import dataclass

import gmpy2

from .chains import Chain, chain_for
from .checks import require

# Divsteps in one batch of the constant-time inversion (field.h.j2's pf_divsteps_57: three blocks
# of PF_DIVSTEP_BLOCK = 19).
SAFEGCD_BATCH_DIVSTEPS = 57


@dataclass(frozen=True)
class SqrtModel:
    """How sqrt is computed in one prime field.

    p3mod4:          r = a^((p-3)/4) (``chain``), root = a r: one exponentiation serves the root and,
                     for the Fp2 square root and sqrt_ratio, the inverse root (a r^2 = a^((p-1)/2))
    atkin:           p = 5 mod 8; b = (2a)^((p-5)/8), i = 2a b^2, root = a b (i - 1)
    tonelli_shanks:  p - 1 = 2^e s; start from a^((s-1)/2) (``chain``), z = nonresidue, g = z^s
    """

    method: str
    exponent: int
    chain: Chain
    two_adicity: int
    odd_part: int
    nonresidue: int
    root_of_unity: int  # g = nonresidue^odd_part, a primitive 2^e-th root of unity (tonelli_shanks)


@dataclass(frozen=True)
class FieldModel:
    prefix: str
    modulus: int
    bits: int
    nbytes: int
    limbs64: int
    spare_bits: int
    r_mod: int
    r2_mod: int
    sqrt: SqrtModel
    inv_chain: Chain
    legendre_chain: Chain | None  # None for p = 3 mod 4 (the square root's chain serves)

    def top_limb(self, w: int) -> int:
        limbs = 64 * self.limbs64 // w
        return self.modulus >> (w * (limbs - 1))

    def no_carry(self, w: int = 64) -> bool:
        """El Housni–Botrel: CIOS needs no extra carry word when the top limb is <= 2^(w-1) - 2."""
        return self.top_limb(w) <= (1 << (w - 1)) - 2

    def no_carry_square(self, w: int = 64) -> bool:
        return self.top_limb(w) <= (1 << (w - 2)) - 1

    def n0(self, w: int = 64) -> int:
        """-p^-1 mod 2^w, the Montgomery reduction factor."""
        return int(-gmpy2.invert(self.modulus, 1 << w)) % (1 << w)

    def to_mont(self, value: int) -> int:
        return value * self.r_mod % self.modulus

    # Constants of the safegcd inversion (Bernstein–Yang, signed 62-bit limbs).
    @property
    def s62_limbs(self) -> int:
        """Signed 62-bit limbs holding values in (-2p, 2p)."""
        return (self.bits + 2 + 61) // 62

    @property
    def s62_modulus(self) -> tuple[int, ...]:
        """p in 62-bit limbs, least significant first (the top limb takes the rest)."""
        mask = (1 << 62) - 1
        n = self.s62_limbs
        return tuple((self.modulus >> (62 * i)) & mask if i < n - 1 else self.modulus >> (62 * i) for i in range(n))

    @property
    def s62_pinv(self) -> int:
        """p^-1 mod 2^62."""
        return int(gmpy2.invert(self.modulus, 1 << 62))

    @property
    def safegcd_batches(self) -> int:
        """Batches of SAFEGCD_BATCH_DIVSTEPS divsteps: Wuille's bound floor((45907 bits + 26313) /
        19929) on the divsteps any input needs, rounded up, plus one batch of margin (extra
        batches are harmless once g = 0)."""
        divsteps = (45907 * self.bits + 26313) // 19929
        return -(-divsteps // SAFEGCD_BATCH_DIVSTEPS) + 1

    @property
    def r3_mod(self) -> int:
        return self.r_mod * self.r2_mod % self.modulus

    @property
    def half(self) -> int:
        """(p - 1) / 2, the bound above which an element is "lexicographically largest"."""
        return (self.modulus - 1) // 2


def _legendre(a: int, p: int) -> int:
    return int(gmpy2.legendre(a, p))


def _sqrt_model(p: int, curve: str, prefix: str) -> SqrtModel:
    e = 0
    s = p - 1
    while s % 2 == 0:
        s //= 2
        e += 1
    z = 2
    while _legendre(z, p) != -1:
        z += 1
    g = pow(z, s, p)
    if p % 4 == 3:
        exponent = (p - 3) // 4
        model = SqrtModel("p3mod4", exponent, chain_for(exponent), e, s, z, g)
    elif p % 8 == 5:
        exponent = (p - 5) // 8
        model = SqrtModel("atkin", exponent, chain_for(exponent), e, s, z, g)
    else:
        exponent = (s - 1) // 2
        model = SqrtModel("tonelli_shanks", exponent, chain_for(exponent), e, s, z, g)
    model.chain.verify()
    require(pow(g, 1 << (e - 1), p) == p - 1, curve, f"{prefix}: g = z^s has order 2^{e}")
    # Prove the method on a few squares: the method's formula must give a root.
    for a in (4, 9, 2 * 2 * 7 * 7, 1234567 ** 2):
        a %= p
        require(_sqrt_by_model(a, p, model) ** 2 % p == a, curve, f"{prefix}: sqrt method {model.method}")
    return model


def _sqrt_by_model(a: int, p: int, m: SqrtModel) -> int:
    """The same algorithm the C template renders, on Python ints (used to check the constants)."""
    if m.method == "p3mod4":
        return a * pow(a, m.exponent, p) % p
    if m.method == "atkin":
        b = pow(2 * a, m.exponent, p)
        i = 2 * a * b * b % p
        return a * b * (i - 1) % p
    # Tonelli–Shanks, written like the constant-time C version.
    w = pow(a, m.exponent, p)
    x = a * w % p
    b = x * w % p
    z = m.root_of_unity
    v = m.two_adicity
    while b != 1:
        k = 0
        t = b
        while t != 1:
            t = t * t % p
            k += 1
        w = pow(z, 1 << (v - k - 1), p)
        z = w * w % p
        b = b * z % p
        x = x * w % p
        v = k
    return x


def derive_field(prefix: str, modulus: int, curve: str) -> FieldModel:
    """All constants of the prime field of ``modulus``, each checked."""
    require(gmpy2.is_prime(modulus, 50), curve, f"{prefix}: modulus is prime")
    bits = modulus.bit_length()
    limbs64 = (bits + 63) // 64
    R = 1 << (64 * limbs64)
    r_mod = R % modulus
    r2_mod = R * R % modulus
    require(r_mod * gmpy2.invert(R, modulus) % modulus == 1, curve, f"{prefix}: R mod p")
    inv_chain = chain_for(modulus - 2)
    inv_chain.verify()
    sqrt = _sqrt_model(modulus, curve, prefix)
    # p = 3 mod 4: a^((p-1)/2) = a (a^((p-3)/4))^2 reuses the square root's chain.
    legendre_chain = None if sqrt.method == "p3mod4" else chain_for((modulus - 1) // 2)
    if legendre_chain is not None:
        legendre_chain.verify()
    field = FieldModel(
        prefix=prefix,
        modulus=modulus,
        bits=bits,
        nbytes=(bits + 7) // 8,
        limbs64=limbs64,
        spare_bits=64 * limbs64 - bits,
        r_mod=r_mod,
        r2_mod=r2_mod,
        sqrt=sqrt,
        inv_chain=inv_chain,
        legendre_chain=legendre_chain,
    )
    for w in (32, 64):
        require(field.n0(w) * modulus % (1 << w) == (1 << w) - 1, curve, f"{prefix}: -p^-1 mod 2^{w}")
    return field
