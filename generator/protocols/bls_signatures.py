"""BLS signatures (draft-irtf-cfrg-bls-signature-05) as a protocol module: ``bls.py``.

The ciphersuite IDs are the standard's data, built here from the curve's hash-to-curve suite IDs
(section 4.2 of the draft: ``BLS_SIG_`` || H2C_SUITE_ID || SC_TAG || ``_``, with SC_TAG ``NUL``,
``AUG`` or ``POP``, and ``BLS_POP_`` || H2C_SUITE_ID || ``POP_`` for proofs of possession).  A
curve carries the protocol when both groups have a hash-to-curve suite (the signature group of
each variant hashes) and its default serialization profile has a compressed point form (the
draft's point_to_octets).

Layer: protocols. Imports derive, the curve files and the leaves; never emit or the layers above,
nor generator/reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..derive.serialization import derive_serialization
from . import Protocol, register

if TYPE_CHECKING:
    from ..derive.model import CurveModel

# draft-irtf-cfrg-bls-signature-05, section 4.2: the scheme tags of the three schemes
SCHEME_TAGS = {"Basic": "NUL", "Aug": "AUG", "Pop": "POP"}


def ciphersuites(model: CurveModel) -> dict[str, dict[str, str]]:
    """{variant: {scheme: ciphersuite ID, "pop_tag": the PoP tag, "pk": group, "sig": group}} for the
    minimal-pubkey-size (MinPk: keys in G1, signatures in G2) and minimal-signature-size (MinSig)
    variants.  The hash-to-curve suite of the signature group names the suite (draft 4.2.1/4.2.2)."""
    out: dict[str, dict[str, str]] = {}
    for variant, pk, sig in (("MinPk", "G1", "G2"), ("MinSig", "G2", "G1")):
        h2c = model.h2c[sig.lower()].suite_ro
        ids = {scheme: f"BLS_SIG_{h2c}{tag}_" for scheme, tag in SCHEME_TAGS.items()}
        out[variant] = {**ids, "pop_tag": f"BLS_POP_{h2c}POP_", "h2c": h2c, "pk": pk, "sig": sig}
    return out


def unsupported(model: CurveModel) -> str | None:
    """Why the curve cannot carry BLS signatures, or None."""
    missing = [g.upper() for g in ("g1", "g2") if g not in model.h2c]
    if missing:
        return f"no hash-to-curve suite for {' and '.join(missing)} (signatures hash messages into both groups)"
    ser = derive_serialization(model.fp, model.fr, model.spec.serialization, model.name)
    default = next(p for p in ser.profiles if p.name == ser.default)
    if not default.has_compressed:
        return f"the default serialization profile {ser.default!r} has no compressed point form"
    return None


def context(model: CurveModel) -> dict[str, object]:
    """The ciphersuite IDs, and the KeyGen output length L = ceil(3 * ceil(log2(r)) / 16) (draft 2.3)."""
    return {"suites": ciphersuites(model), "keygen_L": -(-3 * (model.r - 1).bit_length() // 16)}


BLS_SIGNATURES = register(
    Protocol(
        name="bls_signatures",
        summary="BLS signatures, draft-irtf-cfrg-bls-signature-05: Basic, Aug and Pop schemes, MinPk and MinSig",
        files={"bls.py": "python/bls.py.j2"},
        unsupported=unsupported,
        context=context,
    )
)
