"""The files that make one rendered curve package a distribution of its own.

``gen-curve --out DIR`` and ``--wheel DIR`` write them beside the package's files: the package
directory is the project root (pyproject.toml maps the import name to it), so that
``pip install DIR/<package>`` and ``pip wheel DIR/<package>`` work with no pairforge installed.
The build flags come from generator/build.py, so the distribution compiles as gen-curve does.

Layer: emit. Imports protocols, derive, the curve files and the leaves; never the drivers, cli or
generator/reference.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from .. import build
from ..derive.edwards import EdwardsModel
from ..derive.model import CurveModel
from ..resources import LICENSE_FILES
from .context import LICENSE_SPDX, banner, source_path
from .render import render

# Files of a rendered package that only its build reads; everything else not Python is package data.
BUILD_ONLY_SUFFIXES = (".pyx", ".pxd")
BUILD_ONLY_DIRS = ("c", "wasm")


def distribution_name(import_name: str) -> str:
    """The project name of a package on an index: ``pairforge_bls12_381`` -> ``pairforge-bls12-381``."""
    return re.sub(r"[-_.]+", "-", import_name).lower()


def package_data(files: dict[str, str | bytes]) -> list[str]:
    """The files of the package that a wheel carries besides its Python modules."""
    data = []
    for rel in sorted(files):
        path = PurePosixPath(rel)
        if path.suffix in (".py", *BUILD_ONLY_SUFFIXES) or path.parts[0] in BUILD_ONLY_DIRS:
            continue
        data.append(rel)
    return data


def _facts(model: CurveModel | EdwardsModel) -> str:
    if isinstance(model, EdwardsModel):
        over = f", the scalar field of {model.over}" if model.over else ""
        return (f"Twisted Edwards curve over a {model.p.bit_length()}-bit field{over}; subgroup order of "
                f"{model.r.bit_length()} bits, cofactor {model.h}. Classes: Fq, Fr, Point.")
    return (f"Family {model.family}, embedding degree {model.k}: p has {model.p.bit_length()} bits, r has "
            f"{model.r.bit_length()} bits. Classes: Fp, Fr, the extension fields, G1, G2, GT; "
            "pairing, multi_pairing, pairing_check.")


def project_files(model: CurveModel | EdwardsModel, import_name: str, version: str, files: dict[str, str | bytes]) -> dict[str, str]:
    """pyproject.toml, setup.py, README.md and the licence texts of ``model``'s package, whose
    rendered ``files`` (path -> text) are imported as ``import_name``."""
    if not import_name.isidentifier():
        raise ValueError(f"package name {import_name!r} is not a Python identifier")
    api_sources = [rel for rel in sorted(files) if rel == build.API_SOURCE]
    api_sources += [rel for rel in sorted(files) if PurePosixPath(rel).match(build.API_UNIT_GLOB)]
    has_api = bool(api_sources)
    pairing = isinstance(model, CurveModel)
    modules = sorted(rel[:-3] for rel in files if rel.endswith(".py") and "/" not in rel and not rel.startswith("_"))
    context = {
        "header": banner(model),
        "name": model.name,
        "family": model.family,
        "description": model.spec.description or f"The {model.name} curve.",
        "facts": _facts(model),
        "source": source_path(model),
        "pairing": pairing,
        "protocols": list(model.spec.protocols),
        "protocol_modules": modules,
        "distributed": "distributed.py" in files,
        "import_name": import_name,
        "dist_name": distribution_name(import_name),
        "version": version,
        "spdx": LICENSE_SPDX,
        "package_data": package_data(files),
        "api_sources": api_sources,
        "api_args": [*build.BASE_COMPILE_ARGS, *build.NO_DEBUG_ARGS] if has_api else [],
        "wrapper_args": [*(build.WRAPPER_OPT_ARGS if has_api else build.BASE_COMPILE_ARGS), *build.NO_DEBUG_ARGS],
        "adx_args": list(build.ADX_COMPILE_ARGS),
        "adx_define": build.ADX_DEFINE,
        "has_adx": f"{build.ADX_STEM}.pyx" in files,
        "link_args": list(build.THREAD_ARGS),
        "cython_directives": dict(build.CYTHON_DIRECTIVES),
        "native_arm_targets": [list(target) for target in build.NATIVE_ARM_TARGETS],
    }
    out = {
        "pyproject.toml": render("project/pyproject.toml.j2", **context),
        "setup.py": render("project/setup.py.j2", **context),
        "README.md": render("project/README.md.j2", **context),
    }
    for path in LICENSE_FILES:
        out[path.name] = path.read_text(encoding="utf-8")
    return out
