"""From a curve file to the text of every generated file: derive the model, then render."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from .derive.model import CurveModel, build_model
from .emit.context import package_files
from .params import load_curve_file

Progress = Callable[[str], None]

# Every target renders the same files (each package carries the kernel headers of every assembly
# target); the target decides how generator/cli.py builds them.
TARGETS = ("generic64", "generic32", "arm64", "arm32", "wasm32")


def derive_model(curve_file: Path, progress: Progress | None = None) -> CurveModel:
    """Parse the curve file and derive (and check) every constant."""
    spec = load_curve_file(curve_file)
    return build_model(spec, progress)


def render_package(model: CurveModel, target: str = "generic64", progress: Progress | None = None) -> dict[str, str]:
    """Relative path inside the package directory -> file text."""
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r} (available: {', '.join(TARGETS)})")
    return package_files(model, target, progress)
