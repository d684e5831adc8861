"""From a curve file to the text of every generated file: derive the model, then render."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from .derive.edwards import EdwardsModel, build_edwards_model
from .derive.model import CurveModel, build_model
from .emit.context import package_files
from .emit.edwards_context import edwards_package_files
from .params import load_curve_file
from .params_edwards import EdwardsSpec

Progress = Callable[[str], None]

# Every target renders the same files (each package carries the kernel headers of every assembly
# target); the target decides how generator/cli.py builds them.
TARGETS = ("generic64", "generic32", "arm64", "arm32", "wasm32")


def unbuildable_reason(model: CurveModel | EdwardsModel, target: str) -> str | None:
    """Why ``model``'s package cannot be built for ``target``, or None when it can. Every target
    renders, but the wasm32 build compiles the byte ABI (c/wasm_abi.c), which only the pairing
    curves' packages have so far."""
    if target == "wasm32" and isinstance(model, EdwardsModel):
        return "twisted Edwards packages have no wasm32 byte ABI (c/wasm_abi.c) yet"
    return None


def derive_model(curve_file: Path, progress: Progress | None = None) -> CurveModel | EdwardsModel:
    """Parse the curve file and derive (and check) every constant (a pairing curve, or a twisted
    Edwards companion curve)."""
    spec = load_curve_file(curve_file)
    if isinstance(spec, EdwardsSpec):
        return build_edwards_model(spec, progress)
    return build_model(spec, progress)


def render_package(model: CurveModel | EdwardsModel, target: str = "generic64", progress: Progress | None = None) -> dict[str, str]:
    """Relative path inside the package directory -> file text."""
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r} (available: {', '.join(TARGETS)})")
    if isinstance(model, EdwardsModel):
        return edwards_package_files(model, target, progress)
    return package_files(model, target, progress)
