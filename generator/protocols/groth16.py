"""Groth16 verification (``groth16.py``): any curve with a pairing can carry it.

The verifier needs only the curve's groups, its pairing and its serialization profiles, which
every generated package has, so no curve is refused.  The one piece of protocol data is snarkjs's
name for a curve (its ``"curve"`` field in ``verification_key.json`` / ``proof.json``).  snarkjs
(through ffjavascript's ``getCurveFromQ``) identifies its curves by the base-field modulus, and so
does this table: a curve whose p is not listed has no snarkjs form, and its ``from_snarkjs``
refuses with that reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Protocol, register

if TYPE_CHECKING:
    from ..derive.model import CurveModel

# ffjavascript `src/curves.js` (getCurveFromQ / getCurveFromName): p -> snarkjs's curve name and
# the aliases its name lookup accepts (names are compared upper-cased, letters and digits only).
SNARKJS_CURVES: dict[int, tuple[str, tuple[str, ...]]] = {
    0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47: ("bn128", ("BN128", "BN254", "ALTBN128")),
    0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB:
        ("bls12381", ("BLS12381",)),
}


def _context(model: CurveModel) -> dict[str, object]:
    """snarkjs's name of the curve (None: snarkjs has no such curve)."""
    name, aliases = SNARKJS_CURVES.get(model.p, (None, ()))
    return {"snarkjs_curve": name, "snarkjs_aliases": list(aliases)}


register(
    Protocol(
        name="groth16",
        summary="Groth16 proof verification (single, prepared key, batch) with snarkjs import",
        files={"groth16.py": "python/groth16.py.j2"},
        context=_context,
    )
)
