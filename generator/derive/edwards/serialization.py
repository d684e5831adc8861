"""Point encodings of twisted Edwards curves, as data the Cython template renders.

Every profile writes a compressed point as y little-endian in ``nbytes`` bytes with a sign bit
of x in bit 7 of the last byte; they differ in what the sign bit means:

* ``arkworks`` (ark-serialize, ark-vrf): set when x > (p − 1)/2; uncompressed: x ‖ y, both
  little-endian, no flags;
* ``gnark`` (gnark-crypto's twistededwards ``PointAffine.Bytes()`` / ``SetBytes``): the arkworks
  compressed layout (y's big-endian bytes with 0x80 or-ed into the first when x is
  lexicographically largest, then reversed); no uncompressed form;
* ``circom`` (circomlibjs ``packPoint``): the arkworks compressed layout, under its own name;
* ``zcash`` (zkcrypto/jubjub, ZIP-216): set when x is odd; no uncompressed form.

Decoding is strict: a y ≥ p, a y without a point, or a sign bit set on x = 0 (which has no sign:
ZIP-216's non-canonical encodings) is refused.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..checks import require
from ..fields import FieldModel


@dataclass(frozen=True)
class EdwardsProfile:
    name: str
    summary: str
    sign: str  # "lex": x > (p - 1)/2;  "parity": x odd
    uncompressed: bool
    nbytes: int

    @property
    def sign_parity(self) -> bool:
        return self.sign == "parity"


_PROFILES = (
    ("arkworks", "y little-endian, bit 7 of the last byte set when x > (p-1)/2; uncompressed x || y (LE)", "lex", True),
    ("circom", "circomlibjs packPoint: y little-endian, bit 7 of the last byte set when x > (p-1)/2", "lex", False),
    ("gnark", "gnark-crypto twistededwards Bytes(): y little-endian, bit 7 of the last byte set when x is "
              "lexicographically largest (x > (p-1)/2)", "lex", False),
    ("zcash", "zkcrypto/ZIP-216: y little-endian, bit 7 of the last byte = x mod 2", "parity", False),
)


def derive_edwards_profiles(fq: FieldModel, curve: str) -> tuple[EdwardsProfile, ...]:
    """The profiles above for this base field: each needs bit 7 of the last byte free."""
    require(fq.bits <= 8 * fq.nbytes - 1, curve, "the top bit of a little-endian coordinate is free for the sign of x")
    return tuple(EdwardsProfile(name, summary, sign, unc, fq.nbytes) for name, summary, sign, unc in _PROFILES)
