"""The curves whose G2 lies over Fp4 (BLS24), for the tests of the byte-level programs
(c/kat_main.c in tests/test_cross.py, c/wasm_abi.c and the ES loader in tests/test_wasm*.py).

One place selects them: ``fq4_curve_files`` reads the BLS24 curve files of ``CURVE_DIRS``
(curves/ first, so a shipped file wins over a test-only one of the same package). Today they are
test-only files in tests/data/curves/; when they ship, the standard-curve parametrizations cover
them and this list can shrink to what those miss. Packages are rendered or built once per content
(tests/build_cache.py): ``rendered_package`` without compiling (the C programs only),
``built_package`` with the Python module, sharing the cache of tests/test_bls24_package.py.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from build_cache import cached_dir, cached_test_curve, content_key, generator_key, import_test_curve

from generator.params import load_curve_file

REPO_ROOT = Path(__file__).resolve().parents[1]
CURVE_DIRS = (REPO_ROOT / "curves", REPO_ROOT / "tests" / "data" / "curves")


@lru_cache(maxsize=None)
def fq4_curve_files() -> dict[str, Path]:
    """package name -> curve file, for every BLS24 curve file of CURVE_DIRS."""
    found: dict[str, Path] = {}
    for directory in CURVE_DIRS:
        for path in sorted(directory.glob("*.toml")):
            spec = load_curve_file(path)
            if spec.family == "BLS24":
                found.setdefault(spec.package, path)
    return found


def rendered_package(pkg: str) -> Path:
    """``<cache>/<pkg>/``: the package of ``pkg`` rendered (``gen-curve --no-build``), not compiled."""
    from generator import cli

    path = fq4_curve_files()[pkg]

    def make(root: Path) -> None:
        assert cli.main(["--params", str(path), "--out", str(root), "--no-build"]) == 0

    return cached_dir(content_key("rendered fq4 package", path, generator_key()), make) / pkg


def built_package(pkg: str) -> tuple[Path, object]:
    """(the package directory, the imported module) of ``pkg``, built as tests/test_bls24_package.py
    builds it (same cache entry)."""
    path = fq4_curve_files()[pkg]
    root = cached_test_curve(f"{path.stem} package", path.read_text(), path.name)
    return root / "out" / pkg, import_test_curve(root / "out", pkg)
