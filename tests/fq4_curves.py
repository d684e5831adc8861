"""The shipped curves whose G2 lies over Fp4 (BLS24), for the tests that treat them apart: the
wasm32 module's size bound, the slow wasm32 known-answer run and the Node loader test over Fp4
(tests/test_wasm.py, tests/test_wasm_node.py). Chosen from the curve files' family (k = 24 gives
the twist field Fp4), never by name."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from generator.params import load_curve_file

CURVE_DIR = Path(__file__).resolve().parents[1] / "curves"
FQ4_FAMILIES = ("BLS24",)  # embedding degree 24: the sextic twist lies over Fp4


@lru_cache(maxsize=None)
def fq4_packages() -> tuple[str, ...]:
    """The packages of the curves/ files whose G2 lies over Fp4, sorted."""
    return tuple(sorted(spec.package for spec in map(load_curve_file, CURVE_DIR.glob("*.toml"))
                        if spec.family in FQ4_FAMILIES))
