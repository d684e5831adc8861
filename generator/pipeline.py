"""From a curve file to the text of every generated file: derive the model, then render.

Layer: drivers. Imports emit, protocols, derive, the curve files and the leaves; never cli or
generator/reference.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from .derive.edwards import EdwardsModel, build_edwards_model
from .derive.model import CurveModel, build_model
from .emit.context_edwards import edwards_package_files
from .emit.context_pairing import pairing_package_files
from .emit.npm import npm_files
from .emit.project import project_files
from .params import load_curve_file
from .params_edwards import EdwardsSpec

Progress = Callable[[str], None]

# Every target renders the same files (each package carries the kernel headers of every assembly
# target); the target decides how generator/cli.py builds them.
TARGETS = ("generic64", "generic32", "arm64", "arm32", "wasm32")


def unbuildable_reason(model: CurveModel | EdwardsModel, target: str) -> str | None:
    """Why ``model``'s package cannot be built for ``target``, or None when it can. Every target
    renders, and every package builds for every target: the wasm32 build compiles the byte ABI
    (c/wasm_abi.c), which the pairing curves' packages (templates/c/wasm_abi.c.j2) and the twisted
    Edwards packages (templates/c/edwards_wasm_abi.c.j2) both have. generator/cli.py keeps asking,
    so that a target a package cannot take is refused in one line, with the reason."""
    del model, target
    return None


def derive_model(curve_file: Path, progress: Progress | None = None) -> CurveModel | EdwardsModel:
    """Parse the curve file and derive (and check) every constant (a pairing curve, or a twisted
    Edwards companion curve)."""
    spec = load_curve_file(curve_file)
    if isinstance(spec, EdwardsSpec):
        return build_edwards_model(spec, progress)
    return build_model(spec, progress)


def render_package(model: CurveModel | EdwardsModel, target: str = "generic64", progress: Progress | None = None) -> dict[str, str | bytes]:
    """Relative path inside the package directory -> file text."""
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r} (available: {', '.join(TARGETS)})")
    if isinstance(model, EdwardsModel):
        return edwards_package_files(model, target, progress)
    return pairing_package_files(model, target, progress)


def render_distribution(model: CurveModel | EdwardsModel, import_name: str, version: str, files: dict[str, str | bytes]) -> dict[str, str]:
    """The project files (pyproject.toml, setup.py, README.md, licences) that make the rendered
    package ``files`` a distribution of its own, imported as ``import_name``."""
    return project_files(model, import_name, version, files)


def render_npm(model: CurveModel | EdwardsModel, files: dict[str, str | bytes], wasm: bytes, version: str) -> dict[str, str | bytes]:
    """The npm package (package.json, the loader and its declarations, the ``wasm`` module, README,
    licences) of ``model``'s rendered package ``files`` and its built WebAssembly module."""
    return npm_files(model, files, wasm, version)
