"""What the tests of the generated twisted Edwards packages share (tests/edwards/test_edwards.py,
test_edwards_sw_msm.py): a shipped package's derived model, and reference points made into the
package's Points without the subgroup check."""

from __future__ import annotations

import random
from functools import lru_cache
from types import ModuleType

from conftest import REPO_ROOT

from generator.derive.edwards import EdwardsModel, build_edwards_model
from generator.params import load_curve_file
from generator.reference.edwards import EdwardsCurve


@lru_cache(maxsize=None)
def model(pkg: str) -> EdwardsModel:
    """The model derived from the curve file of the shipped package ``pkg`` (once per process)."""
    for path in sorted((REPO_ROOT / "curves").glob("*.toml")):
        spec = load_curve_file(path)
        if spec.family == "TwistedEdwards" and spec.package == pkg:
            return build_edwards_model(spec)
    raise LookupError(pkg)


def outside(m: EdwardsModel, E: EdwardsCurve, seed: int) -> tuple[int, int]:
    """A random curve point, almost surely outside the subgroup."""
    return E.random_point(random.Random(seed))


def pt(C: ModuleType, P: tuple[int, int]):
    """The affine point P as a Point of module C, unchecked (it may lie outside the subgroup)."""
    return C.Point.from_affine(*P, check=False)
