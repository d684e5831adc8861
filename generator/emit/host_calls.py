"""The context of the wasm32 host-call build (docs/host-calls.md): the layout of the bytes that
cross the boundary, as arkworks serializes them (Substrate's sp-crypto-ec-utils host functions),
and the names of the imports.  The guest's C (templates/c/wasm/_host_calls.j2,
templates/c/_edwards_wasm_host_calls.j2) and the host's Python (templates/python/wasm_host.py.j2,
edwards_wasm_host.py.j2) render from the same numbers, so that the two sides cannot disagree.

Layer: emit. Imports protocols, derive, the curve files and the leaves; never the drivers, cli or
generator/reference.
"""

from __future__ import annotations

from ..derive.checks import require
from ..derive.edwards import EdwardsModel
from ..derive.model import CurveModel
from ..derive.serialization import SerializationModel


def _class_name(c_name: str) -> str:
    """The Python class of a C field name (fp2 -> Fp2)."""
    return c_name[:1].upper() + c_name[1:]


def pairing_host_context(model: CurveModel, ser: SerializationModel) -> dict[str, object]:
    """hp: the profile arkworks writes G1 and G2 points in (the curve file's arkworks_points, usable
    for this field); host_prefix: the imports' name prefix (the package name); py: the names the
    host takes from the compiled module (classes, functions, p and r); sizes: the bytes of each item at the boundary (arkworks' Fp is its
    plain byte width, GT k of them, Fr its own width)."""
    profiles = {p.name: p for p in ser.profiles}
    hp = profiles.get(model.spec.arkworks_points)
    require(hp is not None and hp.usable, f"{model.name} ({model.source})",
            f"arkworks_points names a usable serialization profile (got {model.spec.arkworks_points!r})")
    d2 = model.fq_degree
    fp = model.fp.nbytes
    names = model.tower.names
    g2_field, gt_field = _class_name(names["fq"]), _class_name(names["fq6"])
    imports = sorted({"P", "R", "G1", "G2", "Fp", g2_field, gt_field, "final_exponentiation", "miller_loop"})
    sizes = {"g1": hp.width + hp.flagged_width, "g2": (2 * d2 - 1) * hp.width + hp.flagged_width, "fp": fp,
             "fq": d2 * fp, "fr": model.fr.nbytes, "gt": model.k * fp}
    return {"hp": hp, "host_prefix": model.package, "sizes": sizes,
            "py": {"g2_field": g2_field, "gt_field": gt_field, "imports": imports}}


def edwards_host_context(model: EdwardsModel) -> dict[str, object]:
    """host_prefix and sizes (the Edwards points x || y, the Weierstrass ones with arkworks' flag
    byte where the field leaves no two spare bits) for the Edwards host."""
    fq = model.fq.nbytes
    sw_flagged = model.sw_compressed_bytes
    return {"host_prefix": model.package,
            "sizes": {"fq": fq, "fr": model.fr.nbytes, "te": 2 * fq, "sw": fq + sw_flagged}}
