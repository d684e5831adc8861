"""The files of a curve's wasm32 build as an npm package (``gen-curve <curve> --target wasm32 --npm DIR``).

The package is the rendered ES module loader (``wasm/<pkg>.mjs``) and its TypeScript declarations
(``wasm/<pkg>.d.mts``, rendered from the loader's own context) as they are, the built ``.wasm``
beside them (the loader finds it there), package.json, a README with an example
(templates/npm/README.md.j2), and the licence texts. It has no dependencies: ``npm pack`` and
``npm install <tarball>`` work offline. package.json is written by ``json.dumps`` (JSON has no
comments to carry the banner, and no template escaping to get wrong).

Layer: emit. Imports protocols, derive, the curve files and the leaves; never the drivers, cli or
generator/reference.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePosixPath

from ..derive.edwards import EdwardsModel
from ..derive.model import CurveModel
from ..resources import LICENSE_FILES
from .context import LICENSE_SPDX, banner, source_path
from .render import render

SCOPE = "@pairforge"
# The oldest Node release the loaders run on (fetch, WebAssembly, top-level await, node:fs/promises).
NODE_MAJOR = 18
# A normalized PEP 440 version (importlib.metadata's): release, pre-release, post, dev, local.
_PEP440 = re.compile(r"(?P<release>\d+(?:\.\d+)*)(?:(?P<pre>a|b|rc)(?P<pre_n>\d+))?(?:\.post(?P<post>\d+))?"
                     r"(?:\.dev(?P<dev>\d+))?(?:\+(?P<local>[a-z0-9]+(?:\.[a-z0-9]+)*))?")
_PRE_NAMES = {"a": "alpha", "b": "beta", "rc": "rc"}


def npm_base_name(model: CurveModel | EdwardsModel) -> str:
    """The unscoped package name: the package name as users type the curve, ``bls12_381`` -> ``bls12-381``."""
    return model.package.lower().replace("_", "-")


def npm_name(model: CurveModel | EdwardsModel) -> str:
    """``@pairforge/<curve>``."""
    return f"{SCOPE}/{npm_base_name(model)}"


def npm_dir_name(model: CurveModel | EdwardsModel) -> str:
    """The folder gen-curve writes the package to: ``pairforge-<curve>``, the stem of ``npm pack``'s tarball."""
    return f"{SCOPE.lstrip('@')}-{npm_base_name(model)}"


def npm_version(version: str) -> str:
    """The generator's PEP 440 version as the semantic version npm requires: ``0.1.1.dev5+g1a2b``
    -> ``0.1.1-dev.5+g1a2b``. A pre-release and a dev release stay pre-releases (they sort before
    the release in both schemes); a post release and a local label go to the build metadata."""
    match = _PEP440.fullmatch(version)
    if match is None:
        raise ValueError(f"version {version!r} is not a normalized PEP 440 version")
    release = [int(x) for x in match["release"].split(".")]
    if len(release) > 3:
        raise ValueError(f"version {version!r} has more than three release numbers (npm takes major.minor.patch)")
    release += [0] * (3 - len(release))
    pre: list[str] = []
    if match["pre"]:
        pre += [_PRE_NAMES[match["pre"]], str(int(match["pre_n"]))]
    if match["dev"]:
        pre += ["dev", str(int(match["dev"]))]
    build: list[str] = []
    if match["post"]:
        build += ["post", str(int(match["post"]))]
    if match["local"]:
        build += match["local"].split(".")
    text = ".".join(map(str, release))
    if pre:
        text += "-" + ".".join(pre)
    if build:
        text += "+" + ".".join(build)
    return text


def _example(model: CurveModel | EdwardsModel) -> str:
    """Which example the README shows: the package's signature or VRF verification where it has
    one, else the group law (an Edwards curve) or bilinearity (a pairing curve)."""
    protocols = model.spec.protocols
    if isinstance(model, EdwardsModel):
        return "vrf" if "ecvrf" in protocols else "edwards"
    return "bls" if "bls_signatures" in protocols else "pairing"


def package_manifest(model: CurveModel | EdwardsModel, version: str, description: str, loader: str, types: str,
                     wasm: str) -> dict[str, object]:
    """package.json: an ES module package whose one entry point is the loader, its declarations
    under the ``types`` condition (and ``types`` for resolvers without ``exports``), the .wasm
    exported too (for bundlers that copy it), the files ``npm pack`` takes, and no dependencies."""
    return {
        "name": npm_name(model),
        "version": npm_version(version),
        "description": description,
        "license": LICENSE_SPDX,
        "type": "module",
        "exports": {
            ".": {"types": f"./{types}", "default": f"./{loader}"},
            f"./{wasm}": f"./{wasm}",
            "./package.json": "./package.json",
        },
        "main": f"./{loader}",
        "types": f"./{types}",
        "files": [loader, types, wasm, *(path.name for path in LICENSE_FILES)],
        "sideEffects": False,
        "engines": {"node": f">={NODE_MAJOR}"},
        "keywords": ["edwards" if isinstance(model, EdwardsModel) else "pairing", "elliptic-curve", "webassembly",
                     "cryptography"],
    }


def npm_files(model: CurveModel | EdwardsModel, files: dict[str, str | bytes], wasm: bytes,
              version: str) -> dict[str, str | bytes]:
    """The npm package of ``model``'s wasm32 build: ``files`` is the rendered package (path -> text;
    its loader and declarations are copied), ``wasm`` the built module, ``version`` the generator's."""
    stem = model.package
    loader, types = f"wasm/{stem}.mjs", f"wasm/{stem}.d.mts"
    for rel in (loader, types):
        if rel not in files:
            raise ValueError(f"{model.name}: the rendered package has no {rel}")
    if not wasm.startswith(b"\0asm"):
        raise ValueError(f"{model.name}: the module to package is not WebAssembly")
    shipped = [PurePosixPath(rel).name for rel in (loader, types)] + [f"{stem}.wasm"]
    description = model.spec.description or f"The {model.name} curve over WebAssembly."
    manifest = package_manifest(model, version, description, *shipped)
    readme = render("npm/README.md.j2", header=banner(model), name=model.name, npm_name=manifest["name"],
                    generator_version=version, description=description, source=source_path(model),
                    spdx=LICENSE_SPDX, loader=shipped[0], types=shipped[1], wasm=shipped[2], node_major=NODE_MAJOR,
                    example=_example(model))
    out: dict[str, str | bytes] = {
        "package.json": json.dumps(manifest, indent=2) + "\n",
        "README.md": readme,
        shipped[0]: files[loader],
        shipped[1]: files[types],
        shipped[2]: wasm,
    }
    for path in LICENSE_FILES:
        out[path.name] = path.read_text(encoding="utf-8")
    return out
