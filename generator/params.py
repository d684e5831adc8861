"""Curve parameter files: read ``curves/<name>.toml`` and hand its table to the loader of its family.

Only facts live in a curve file: the family and the seed, plus optional overrides that pick a
convention and published constants that are checked against the derived ones, never used instead
of them. This module is the thin dispatcher in front of one loader per family:

* generator/params_pairing.py: BN, BLS12, BLS24 and BW6 files, parsed into a ``CurveSpec``;
* generator/params_edwards.py: ``TwistedEdwards`` files, parsed into an ``EdwardsSpec``;
* generator/params_common.py: what both share (``CurveFileError``, reading a file and its TOML,
  integers, the polynomials in the seed x).

What it holds: ``load_curve_file`` and ``parse_curve_text``, and the names the rest of the
generator and the tests import from ``generator.params`` (re-exported from the three modules
above, which never import this one).

What it may import: those three modules; nothing downstream of the curve files.

Layer: curve files.
"""

from __future__ import annotations

from pathlib import Path

from .params_common import (
    EDWARDS_FAMILY,
    CurveFileError,
    X,
    parse_int,
    parse_polynomial_in_x,
    parse_toml,
    read_curve_text,
)
from .params_edwards import EdwardsSpec, parse_edwards
from .params_pairing import (
    FAMILIES,
    PROTOCOL_NAMES,
    CurveSpec,
    HashToCurveSpec,
    IsogenySpec,
    parse_pairing,
)

__all__ = [
    "EDWARDS_FAMILY", "FAMILIES", "PROTOCOL_NAMES", "CurveFileError", "CurveSpec", "EdwardsSpec",
    "HashToCurveSpec", "IsogenySpec", "X", "load_curve_file", "parse_curve_text", "parse_int",
    "parse_polynomial_in_x",
]


def parse_curve_text(text: str, source: str) -> CurveSpec | EdwardsSpec:
    """Parse and validate the text of a curve file; ``source`` names it in errors. A
    ``TwistedEdwards`` file gives an ``EdwardsSpec``, any other family a ``CurveSpec``."""
    data = parse_toml(text, source)
    if data.get("family") == EDWARDS_FAMILY:
        return parse_edwards(data, source)
    return parse_pairing(data, source)


def load_curve_file(path: Path) -> CurveSpec | EdwardsSpec:
    """Read and validate one curve file."""
    return parse_curve_text(read_curve_text(path), str(path))
