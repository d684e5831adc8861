"""The test build cache (tests/build_cache.py) shares builds between tests: a second caller of the
same build gets the first caller's entry without compiling, and the test-only curves compile the
module their tests run (at -O1), and only that one. Fast: fake builds and a one-line C
program (about 2 s)."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import build_cache
import cross_kat
import pytest
from conftest import TESTS_DIR

from generator import build, cross_build

# The test files that run the native known-answer program
KAT_CALLERS = ("targets/test_cross.py", "edwards/test_cross_edwards.py", "wasm/test_wasm.py")
BN254N = 'name = "BN254N"\nfamily = "BN"\nx = "-0x4080000000000001"\n'


def takes_cached_kat_from_build_cache(path: Path) -> bool:
    """Whether a test file imports cached_kat from build_cache and defines or assigns no other."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = any(isinstance(node, ast.ImportFrom) and node.module == "build_cache"
                   and any(alias.name == "cached_kat" and alias.asname is None for alias in node.names)
                   for node in tree.body)
    own = any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "cached_kat"
              or isinstance(node, ast.Name) and node.id == "cached_kat" and isinstance(node.ctx, ast.Store)
              for node in ast.walk(tree))
    return imported and not own


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    """A private, empty cache root for one test."""
    root = tmp_path / "cache"
    monkeypatch.setenv(build_cache.CACHE_ENV, str(root))
    return root


def _counting(monkeypatch, owner, name: str) -> list:
    """Replace ``owner.name`` by a wrapper that records each call's arguments and calls it."""
    calls: list = []
    real = getattr(owner, name)

    def wrapper(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)
    return calls


def test_cross_and_wasm_share_the_native_known_answer_program(
    cache: Path, tmp_path: Path, monkeypatch
) -> None:
    """test_cross, test_cross_edwards and test_wasm take the native program from one cache entry
    (each takes cached_kat from build_cache and has none of its own): the first call compiles it,
    the next ones (any caller) hit the cache and compile nothing."""
    for caller in KAT_CALLERS:
        assert takes_cached_kat_from_build_cache(TESTS_DIR / caller), caller
    pkg = tmp_path / "pkg"
    (pkg / "c").mkdir(parents=True)
    (pkg / "c" / "kat_main.c").write_text('#include <stdio.h>\nint main(void) { puts("kat"); return 0; }\n')
    builds = _counting(monkeypatch, cross_build, "build_kat")
    first = build_cache.cached_kat(pkg, "native")
    assert len(builds) == 1 and cross_kat.run_kat(first, "native", "") == ["kat"]
    assert build_cache.cached_kat(pkg, "native") == first and len(builds) == 1  # a cache hit
    assert [p.name for p in cache.iterdir() if p.is_dir()] == [first.parent.name]
    # another content is another entry
    (pkg / "c" / "kat_main.c").write_text('#include <stdio.h>\nint main(void) { puts("other"); return 0; }\n')
    second = build_cache.cached_kat(pkg, "native")
    assert second != first and len(builds) == 2 and cross_kat.run_kat(second, "native", "") == ["other"]


def test_a_test_curve_is_built_once_per_content(cache: Path, monkeypatch) -> None:
    """Two fixtures naming the same curve file get one cache entry (one build); another text, or
    another module to run (PAIRFORGE_TARGET), is another entry."""
    calls: list = []

    def fake_build(params: Path, out: Path) -> Path:
        calls.append(params.read_text())
        (out / "pkg").mkdir(parents=True)
        return out / "pkg"

    monkeypatch.setattr(build_cache, "build_test_curve", fake_build)
    monkeypatch.delenv(build_cache.TARGET_ENV, raising=False)
    first = build_cache.cached_test_curve("custom curve", BN254N, "bn254n.toml")
    assert build_cache.cached_test_curve("custom curve", BN254N, "bn254n.toml") == first
    assert calls == [BN254N] and (first / "bn254n.toml").read_text() == BN254N
    other = build_cache.cached_test_curve("custom curve", BN254N + "# another\n", "bn254n.toml")
    assert other != first and len(calls) == 2
    monkeypatch.setenv(build_cache.TARGET_ENV, "generic64")
    assert build_cache.loaded_target() == "generic64"
    forced = build_cache.cached_test_curve("custom curve", BN254N, "bn254n.toml")
    assert forced not in (first, other) and len(calls) == 3


@pytest.mark.parametrize("forced", ["", "generic64"])
def test_a_test_curve_runs_its_o1_module(tmp_path: Path, monkeypatch, forced: str) -> None:
    """build_test_curve compiles only the module the package will import, with
    QUICK_BUILD_CFLAGS; the flags are gone from the environment afterwards (rendering for real,
    compiling faked)."""
    if forced:
        monkeypatch.setenv(build_cache.TARGET_ENV, forced)
    else:
        monkeypatch.delenv(build_cache.TARGET_ENV, raising=False)
    monkeypatch.setenv(build.CFLAGS_ENV, "-DPAIRFORGE_TEST_FLAG=1")
    compiled: dict[bool, list[str]] = {}

    def fake_module(pkg_dir, limb_bits=64, adx=False, *args, **kwargs):
        assert limb_bits == 64 and adx not in compiled
        compiled[adx] = build.compile_args()
        return build.module_target(pkg_dir, adx), True

    monkeypatch.setattr(build, "build_module", fake_module)
    params = tmp_path / "bn254n.toml"
    params.write_text(BN254N)
    pkg_dir = build_cache.build_test_curve(params, tmp_path / "out")
    assert pkg_dir == tmp_path / "out" / "bn254n" and (pkg_dir / "_core.pyx").is_file()
    assert os.environ[build.CFLAGS_ENV] == "-DPAIRFORGE_TEST_FLAG=1"

    def last_opt(args: list[str]) -> str:
        assert "-DPAIRFORGE_TEST_FLAG=1" in args
        return [a for a in args if a.startswith("-O")][-1]

    runs_adx = build_cache.loaded_target() == build_cache.ADX_TARGET
    assert runs_adx == bool(not forced and build.builds_adx(64) and build.cpu_runs_adx())
    assert list(compiled) == [runs_adx]
    assert last_opt(compiled[runs_adx]) == build_cache.QUICK_BUILD_CFLAGS, compiled


def test_import_checks_that_the_o1_module_runs(tmp_path: Path) -> None:
    """import_test_curve refuses a package whose module in use was not compiled with
    QUICK_BUILD_CFLAGS (here -O0: the tests would not run what build_test_curve built) and accepts
    the QUICK_BUILD_CFLAGS one."""
    import json

    for i, (opt, ok) in enumerate(
        (("-O0", False), (build_cache.QUICK_BUILD_CFLAGS, True))
    ):
        name = f"pf_fake_curve_{i}"
        pkg = tmp_path / name
        pkg.mkdir()
        (pkg / "__init__.py").write_text('TARGET = "generic64"\n')
        stamp = build.stamp_path(build.module_target(pkg, adx=False))
        stamp.write_text(json.dumps({"compile_args": ["-O3", "-g0", opt]}))
        if ok:
            assert build_cache.import_test_curve(tmp_path, name).TARGET == "generic64"
        else:
            with pytest.raises(AssertionError, match=f"runs its generic64 module, compiled with .*'{opt}'"):
                build_cache.import_test_curve(tmp_path, name)
