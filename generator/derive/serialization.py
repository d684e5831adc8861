"""Serialization profiles as data, and what each one means for a given curve.

A profile describes one library's or standard's byte layout of field elements and points: byte
order, element width (padding), the order of tower coefficients, where the flag bits sit and what
each flag code means, and how the point at infinity is written. The templates render the resolved
profiles of a curve into tables; they never test a profile's name or a curve's name.

Sources of the facts (checked against each library's code or spec):
  zcash     zkcrypto/bls12_381 `notes/serialization.md`: big-endian, Fp2 as c1 || c0, the top 3
            bits of byte 0 are compressed (0x80), infinity (0x40), y lexicographically largest
            (0x20); scalars little-endian (`Scalar::to_bytes`).
  gnark     gnark-crypto `ecc/*/marshal.go`: big-endian, A1 || A0; the zcash codes when the top byte
            has 3 spare bits, else 2 bits: 10 smallest, 11 largest, 01 compressed infinity, 00
            uncompressed (infinity = all zeros). GT/E12/E6 `Bytes()`: every Fp coefficient
            big-endian, the most significant coefficient first at every level; but E24 `Bytes()`
            (k = 24: ecc/bls24-315, ecc/bls24-317 `internal/fptower/e24.go`) writes c0 first at
            every level, D0.C0.B0.A0 to D1.C2.B1.A1.
  arkworks  ark-ec `short_weierstrass` + ark-ff `serialize_with_flags`: little-endian, c0 || c1,
            SWFlags in the top bits of the last byte of the flagged element (x compressed, y
            uncompressed): 0x80 y negative (y > -y), 0x40 infinity, both invalid; a flagged element
            takes ceil((bits + 2) / 8) bytes. GT: the Fp12/Fp6 element, c0 first, little-endian.
  eip197    EIP-196/197: big-endian 32-byte words, an Fp2 element a*i + b written (a, b),
            (0, 0) is infinity, no compressed form.
  eip2537   EIP-2537 (and EIP-2539 / EIP-3026 for the other curves): big-endian, each element
            zero-padded to a multiple of 32 bytes (64 for a 48-byte field, 96 for a 96-byte one,
            scalars 32 or 64), Fp2 as c0 || c1, infinity all zeros, no compressed form.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

from dataclasses import dataclass

from .checks import require
from .fields import FieldModel

# Meanings of a flag code. Compressed: which root y is. Uncompressed: SMALL/LARGE are informative
# only (arkworks writes them, arkworks readers ignore them), ANY carries no sign.
SMALL, LARGE, ANY, INF = "small", "large", "any", "inf"


@dataclass(frozen=True)
class FlagScheme:
    """The flag codes in the top ``bits`` bits of one byte. Codes absent from a table are invalid;
    ``errors`` says why (code -> message, per form). ``zero_is_infinity``: an uncompressed
    encoding whose bytes are all zero is the point at infinity (the ANY code is 0)."""

    bits: int
    compressed: dict[int, str]
    uncompressed: dict[int, str]
    errors_compressed: dict[int, str]
    errors_uncompressed: dict[int, str]
    zero_is_infinity: bool


ZCASH_FLAGS = FlagScheme(
    bits=3,
    compressed={0b100: SMALL, 0b101: LARGE, 0b110: INF},
    uncompressed={0b000: ANY, 0b010: INF},
    errors_compressed={
        **{c: "a {clen}-byte encoding must have the compression flag (0x80)" for c in range(4)},
        0b111: "the point at infinity must not have the sign flag (0x20)",
    },
    errors_uncompressed={
        **{c: "a {ulen}-byte (uncompressed) encoding must not have the compression flag (0x80)" for c in range(4, 8)},
        0b001: "an uncompressed encoding must not have the sign flag (0x20)",
        0b011: "the point at infinity must not have the sign flag (0x20)",
    },
    zero_is_infinity=False,
)

GNARK2_FLAGS = FlagScheme(
    bits=2,
    compressed={0b10: SMALL, 0b11: LARGE, 0b01: INF},
    uncompressed={0b00: ANY},
    errors_compressed={0b00: "a {clen}-byte encoding must have compression flags (top two bits 10, 11 or 01)"},
    errors_uncompressed={c: "a {ulen}-byte (uncompressed) encoding must have its top two bits zero" for c in (1, 2, 3)},
    zero_is_infinity=True,
)

ARKWORKS_FLAGS = FlagScheme(
    bits=2,
    compressed={0b00: SMALL, 0b10: LARGE, 0b01: INF},
    uncompressed={0b00: SMALL, 0b10: LARGE, 0b01: INF},
    errors_compressed={0b11: "the flags 'y negative' (0x80) and 'infinity' (0x40) must not both be set"},
    errors_uncompressed={0b11: "the flags 'y negative' (0x80) and 'infinity' (0x40) must not both be set"},
    zero_is_infinity=False,
)

NO_FLAGS = FlagScheme(bits=0, compressed={}, uncompressed={0: ANY}, errors_compressed={},
                      errors_uncompressed={}, zero_is_infinity=True)


@dataclass(frozen=True)
class ElementLayout:
    """One prime-field element: byte order and the width rounded up to a multiple of ``word``
    bytes (the extra bytes are zero padding on the most significant side)."""

    byteorder: str  # "big" | "little"
    word: int = 1

    def width(self, nbytes: int) -> int:
        return -(-nbytes // self.word) * self.word


@dataclass(frozen=True)
class Profile:
    name: str
    summary: str
    base: ElementLayout        # Fp and every tower level above it
    scalar: ElementLayout      # Fr
    high_first: bool           # tower coefficients: most significant first (c1 || c0) or c0 first
    flag_schemes: tuple[FlagScheme, ...]  # the first whose bits fit is used
    flags_at_end: bool         # flags in the last byte of the encoding (else in byte 0)
    extra_flag_byte: bool      # a flagged element may take one more byte when the flags do not fit
    gt: bool                   # the profile defines an encoding of GT
    gt_c0_first_k: tuple[int, ...] = ()  # embedding degrees whose GT is written c0 first (not high_first)


PROFILES: tuple[Profile, ...] = (
    Profile("zcash", "zkcrypto / blst / IETF: big-endian, Fp2 as c1||c0, 3 flag bits in byte 0",
            ElementLayout("big"), ElementLayout("little"), True, (ZCASH_FLAGS,), False, False, False),
    Profile("gnark", "gnark-crypto: big-endian, Fp2 as A1||A0, zcash flags with 3 spare bits, else 2",
            ElementLayout("big"), ElementLayout("big"), True, (ZCASH_FLAGS, GNARK2_FLAGS), False, False, True, (24,)),
    Profile("arkworks", "arkworks CanonicalSerialize: little-endian, c0||c1, flags in the last byte",
            ElementLayout("little"), ElementLayout("little"), False, (ARKWORKS_FLAGS,), True, True, True),
    Profile("eip197", "EIP-196/197: big-endian, Fp2 as (imaginary, real), (0, 0) is infinity, uncompressed",
            ElementLayout("big"), ElementLayout("big"), True, (NO_FLAGS,), False, False, False),
    Profile("eip2537", "EIP-2537/2539/3026: big-endian, zero-padded to 32-byte words, c0||c1, uncompressed",
            ElementLayout("big", 32), ElementLayout("big", 32), False, (NO_FLAGS,), False, False, False),
)

PROFILE_NAMES = tuple(p.name for p in PROFILES)


@dataclass(frozen=True)
class ResolvedProfile:
    """A profile applied to one curve: byte widths and the flag scheme that fits, or why none does."""

    name: str
    summary: str
    index: int
    reason: str | None          # None when usable
    little: bool
    width: int                  # bytes of one plain Fp element (padding included)
    pad: int                    # zero padding bytes in ``width``
    flagged_width: int          # bytes of the Fp element that carries the flags
    scalar_little: bool
    scalar_width: int
    scalar_pad: int
    high_first: bool
    flags: FlagScheme | None
    flags_at_end: bool
    gt: bool
    gt_c0_first_k: tuple[int, ...] = ()

    def gt_high_first(self, k: int) -> bool:
        """Whether GT (embedding degree ``k``) is written most significant coefficient first."""
        return self.high_first and k not in self.gt_c0_first_k

    @property
    def usable(self) -> bool:
        return self.reason is None

    @property
    def has_compressed(self) -> bool:
        return self.flags is not None and bool(self.flags.compressed)

    @property
    def flag_shift(self) -> int:
        return 8 - self.flags.bits if self.flags and self.flags.bits else 0

    def codes(self, compressed: bool) -> list[str | None]:
        """Meaning of each flag code (None: invalid), indexed by code."""
        table = self.flags.compressed if compressed else self.flags.uncompressed
        return [table.get(c) for c in range(1 << self.flags.bits)]

    def code_errors(self, compressed: bool) -> list[str]:
        errors = self.flags.errors_compressed if compressed else self.flags.errors_uncompressed
        table = self.flags.compressed if compressed else self.flags.uncompressed
        out = []
        for c in range(1 << self.flags.bits):
            default = f"the flag code {c:0{self.flags.bits}b} is not valid"
            out.append("" if c in table else errors.get(c, default))
        return out

    def code_for(self, meaning: str, compressed: bool) -> int:
        table = self.flags.compressed if compressed else self.flags.uncompressed
        codes = [c for c, m in table.items() if m == meaning]
        return codes[0] if codes else -1


def resolve(profile: Profile, index: int, fp: FieldModel, fr: FieldModel) -> ResolvedProfile:
    """``profile`` for a curve with base field ``fp`` and scalar field ``fr``."""
    spare = 8 * fp.nbytes - fp.bits
    width = profile.base.width(fp.nbytes)
    reason = None
    flags = None
    flagged = width
    for scheme in profile.flag_schemes:
        if scheme.bits <= spare or width > fp.nbytes:
            flags = scheme
            break
    if flags is None and profile.extra_flag_byte:
        flags = profile.flag_schemes[0]
        flagged = -(-(fp.bits + flags.bits) // 8)
    if flags is None:
        need = min(s.bits for s in profile.flag_schemes)
        reason = (f"the {profile.name} profile needs {need} spare bits in the top byte of an Fp element "
                  f"for its flags, and p has {fp.bits} bits in {fp.nbytes} bytes ({spare} spare)")
    return ResolvedProfile(
        name=profile.name, summary=profile.summary, index=index, reason=reason,
        little=profile.base.byteorder == "little", width=width, pad=width - fp.nbytes, flagged_width=flagged,
        scalar_little=profile.scalar.byteorder == "little", scalar_width=profile.scalar.width(fr.nbytes),
        scalar_pad=profile.scalar.width(fr.nbytes) - fr.nbytes, high_first=profile.high_first,
        flags=flags, flags_at_end=profile.flags_at_end, gt=profile.gt, gt_c0_first_k=profile.gt_c0_first_k,
    )


@dataclass(frozen=True)
class SerializationModel:
    profiles: tuple[ResolvedProfile, ...]
    default: str

    @property
    def default_profile(self) -> ResolvedProfile:
        return next(p for p in self.profiles if p.name == self.default)


# The default point encoding: the first of these whose flags fit (arkworks always fits: its flags
# may take one more byte). Three spare bits give zcash, two give gnark's compressed form.
DEFAULT_ORDER = ("zcash", "gnark", "arkworks")


def derive_serialization(fp: FieldModel, fr: FieldModel, declared: str | None = None,
                         curve: str = "the curve") -> SerializationModel:
    """Every profile resolved for the curve, and the default.  ``declared`` (the curve file's
    `serialization` key: the profile its ecosystem uses) is the default when given; it must name a
    usable profile with a compressed form (``to_bytes()`` compresses by default).  Without it, the
    first usable profile of DEFAULT_ORDER is the default."""
    profiles = tuple(resolve(p, i, fp, fr) for i, p in enumerate(PROFILES))
    by_name = {p.name: p for p in profiles}
    if declared is not None:
        require(declared in by_name, curve,
                f"serialization = {declared!r} names a profile ({', '.join(PROFILE_NAMES)})")
        require(by_name[declared].usable, curve, f"serialization = {declared!r} fits: {by_name[declared].reason}")
        require(by_name[declared].has_compressed, curve,
                f"serialization = {declared!r} (the default profile) has a compressed form")
        return SerializationModel(profiles, declared)
    default = next(name for name in DEFAULT_ORDER if by_name[name].usable)
    return SerializationModel(profiles, default)
