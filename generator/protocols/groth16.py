"""Groth16 verification (``groth16.py``): any curve with a pairing can carry it.

The verifier needs only the curve's groups, its pairing and its serialization profiles, which
every generated package has, so no curve is refused.  The one piece of protocol data is snarkjs's
name for a curve (its ``"curve"`` field in ``verification_key.json`` / ``proof.json``).  snarkjs
(through ffjavascript's ``getCurveFromQ``) identifies its curves by the base-field modulus, and so
does this table: a curve whose p is not listed has no snarkjs form, and its ``from_snarkjs``
refuses with that reason.

snarkjs also writes ``vk_alphabeta_12`` = e(alpha, beta), a raw GT value.  It depends on the
multiple m of the final exponentiation (the GT convention), so the table records ffjavascript's m
as a polynomial in the seed, and ``to_snarkjs`` fills the field only where the curve's own m is the
same modulo r (with the same optimal ate Miller function); elsewhere the field is left out.

Layer: protocols. Imports derive, the curve files and the leaves; never emit or the layers above,
nor generator/reference.
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

# ffjavascript's GT convention per snarkjs curve: its final exponentiation computes f^(m Phi_k(p)/r)
# with this m(x).  bn128: Fuentes-Castaneda-Knapp-Rodriguez-Henriquez's hard part, 2x(6x^2+3x+1)
# (tests/derive/test_gt_convention.py holds a real snarkjs vk_alphabeta_12 to it).  bls12381: not
# established here, so no vk_alphabeta_12 is written for it.
SNARKJS_GT_EXPONENTS: dict[str, str | None] = {"bn128": "2*x*(6*x^2 + 3*x + 1)", "bls12381": None}


def snarkjs_gt_agrees(model: CurveModel, snarkjs_curve: str | None) -> bool:
    """True when the curve's GT values equal snarkjs's: the same final-exponentiation multiple m
    modulo r at the seed (both use the optimal ate Miller function)."""
    text = SNARKJS_GT_EXPONENTS.get(snarkjs_curve) if snarkjs_curve else None
    if text is None:
        return False
    from ..derive.families import X
    from ..params import parse_polynomial_in_x

    theirs = parse_polynomial_in_x(text, "snarkjs gt exponent", "generator/protocols/groth16.py")
    return int(theirs.subs(X, model.x)) % model.r == model.final_exp.m % model.r


def _context(model: CurveModel) -> dict[str, object]:
    """snarkjs's name of the curve (None: snarkjs has no such curve) and whether its GT convention
    is ours (then to_snarkjs writes vk_alphabeta_12)."""
    name, aliases = SNARKJS_CURVES.get(model.p, (None, ()))
    return {"snarkjs_curve": name, "snarkjs_aliases": list(aliases),
            "snarkjs_gt_agrees": snarkjs_gt_agrees(model, name)}


register(
    Protocol(
        name="groth16",
        summary="Groth16 proof verification (single, prepared key, batch) with snarkjs import",
        files={"groth16.py": "python/groth16.py.j2"},
        context=_context,
    )
)
