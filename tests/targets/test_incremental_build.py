"""Incremental builds (generator/build.py): a module is compiled again only when its build key
(sources, flags, toolchain) changed, and the stamp beside it says so. Checked on a small mock
package (one header, one function) built with the same build_package as the curves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from generator import build
from generator.build import build_module, build_package, is_up_to_date, module_target, stamp_path

PYX = """# cython: language_level=3
cdef extern from "mock.h":
    int PF_LIMB_BITS
    int mock_value()

LIMB_BITS = PF_LIMB_BITS


def value():
    return mock_value()
"""


def mock_package(root: Path, value: int = 42) -> Path:
    pkg = root / "mockcurve"
    (pkg / "c").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "_core.pyx").write_text(PYX)
    set_value(pkg, value)
    return pkg


def set_value(pkg: Path, value: int) -> None:
    (pkg / "c" / "mock.h").write_text(f"static int mock_value(void) {{ return {value}; }}\n")


def imported_value(pkg: Path) -> tuple[int, int]:
    """(value(), LIMB_BITS) of the built module, in a fresh interpreter."""
    code = "import mockcurve._core as m; print(m.value(), m.LIMB_BITS)"
    out = subprocess.run([sys.executable, "-c", code], cwd=pkg.parent, capture_output=True, text=True, check=True)
    value, bits = out.stdout.split()
    return int(value), int(bits)


def test_second_build_compiles_nothing(tmp_path: Path) -> None:
    pkg = mock_package(tmp_path)
    lines: list[str] = []
    target = build_package(pkg, adx=False, progress=lines.append)
    assert target == module_target(pkg) and target.is_file()
    assert lines == ["compiling mockcurve._core (64-bit limbs)"]
    stamp = json.loads(stamp_path(target).read_text())
    assert stamp["key"] == build.build_key(pkg) and stamp["target"] == "generic64"
    assert stamp["cpu_seconds"] > 0 and stamp["seconds"] > 0
    before = target.stat()

    lines.clear()
    assert build_package(pkg, adx=False, progress=lines.append) == target
    assert lines == ["mockcurve._core is up to date"]
    after = target.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert build.package_up_to_date(pkg, adx=False)
    assert imported_value(pkg) == (42, 64)


def test_a_change_of_source_flags_or_module_compiles_again(tmp_path: Path, monkeypatch) -> None:
    pkg = mock_package(tmp_path)
    target, compiled = build_module(pkg)
    assert compiled and is_up_to_date(pkg)

    set_value(pkg, 43)  # a header changed
    assert not is_up_to_date(pkg)
    assert build_module(pkg)[1] and imported_value(pkg) == (43, 64)
    assert not build_module(pkg)[1]

    monkeypatch.setenv(build.CFLAGS_ENV, "-DPAIRFORGE_TEST_FLAG=1")  # other flags
    assert not is_up_to_date(pkg)
    assert build_module(pkg)[1] and is_up_to_date(pkg)
    monkeypatch.delenv(build.CFLAGS_ENV)
    assert not is_up_to_date(pkg)  # the stamp is the flagged build's
    assert not is_up_to_date(pkg, limb_bits=32)  # another limb width
    monkeypatch.setenv(build.CFLAGS_ENV, "-DPAIRFORGE_TEST_FLAG=1")

    target.write_bytes(target.read_bytes() + b"\0")  # a module that is not the one stamped
    assert not is_up_to_date(pkg)
    stamp_path(target).unlink()  # a module without a stamp (e.g. copied from elsewhere)
    assert not is_up_to_date(pkg)
    assert build_module(pkg)[1] and is_up_to_date(pkg) and imported_value(pkg) == (43, 64)


def test_quick_build_flags_reach_the_compiler_and_the_key(tmp_path: Path, monkeypatch) -> None:
    """Test-only curve builds (tests/build_cache.py) add -O1 after the build's -O3 (the last -O
    wins), within the block only, and the cache key of such a build differs from a normal one."""
    from build_cache import (
        QUICK_BUILD_CFLAGS,
        content_key,
        generator_key,
        quick_build_flags,
        quick_package_key,
        toolchain_key,
    )

    monkeypatch.setenv(build.CFLAGS_ENV, "-DPAIRFORGE_TEST_FLAG=1")
    pkg = mock_package(tmp_path)
    with quick_build_flags() as flags:
        assert flags == f"-DPAIRFORGE_TEST_FLAG=1 {QUICK_BUILD_CFLAGS}"
        target, compiled = build_module(pkg)
    assert compiled and imported_value(pkg) == (42, 64)
    args = json.loads(stamp_path(target).read_text())["compile_args"]
    assert args[-2:] == ["-DPAIRFORGE_TEST_FLAG=1", QUICK_BUILD_CFLAGS] and args.index("-O3") < args.index(QUICK_BUILD_CFLAGS)
    assert os.environ[build.CFLAGS_ENV] == "-DPAIRFORGE_TEST_FLAG=1"  # restored
    assert not is_up_to_date(pkg)  # the quick build's stamp is not a normal build's
    monkeypatch.delenv(build.CFLAGS_ENV)
    with quick_build_flags():
        pass
    assert build.CFLAGS_ENV not in os.environ
    assert quick_package_key("x") != content_key("x", generator_key(), toolchain_key())


def test_stamps_are_build_artefacts() -> None:
    """The regen check and gen-curve's stale-file removal leave stamps alone, and git ignores them."""
    name = f"_core{build.extension_suffix()}{build.STAMP_SUFFIX}"
    assert build.is_build_artefact(name)
    ignored = subprocess.run(["git", "check-ignore", "-q", f"generated/bn254/{name}"], cwd=REPO_ROOT)
    if ignored.returncode == 128:
        pytest.skip("not a git checkout")
    assert ignored.returncode == 0


def test_select_packages(tmp_path: Path, monkeypatch) -> None:
    pkgs = [tmp_path / n for n in ("bls12_377", "bls12_381", "bn254")]
    assert build.select_packages(pkgs, "") == pkgs
    assert build.select_packages(pkgs, "bn254, BLS12-381,bn254") == [pkgs[2], pkgs[1]]
    with pytest.raises(build.BuildError, match=r"no package bw6_7610 .*available: bls12_377, bls12_381, bn254"):
        build.select_packages(pkgs, "bw6_7610")
    monkeypatch.setenv(build.CURVES_ENV, "bls12_377")
    assert build.select_packages(pkgs) == [pkgs[0]]
    monkeypatch.delenv(build.CURVES_ENV)
    assert build.select_packages(pkgs) == pkgs


def test_opt_in_packages_are_built_only_when_named(tmp_path: Path, monkeypatch) -> None:
    """A package with the opt-in marker is left out of the default selection, in when named or 'all'."""
    pkgs = [tmp_path / n for n in ("bls12_381", "bls48_581", "bn254")]
    for pkg in pkgs:
        pkg.mkdir()
    (pkgs[1] / build.OPT_IN_FILE).write_text("opt-in\n")
    monkeypatch.delenv(build.CURVES_ENV, raising=False)
    assert build.select_packages(pkgs) == [pkgs[0], pkgs[2]]
    assert build.select_packages(pkgs, "bls48-581") == [pkgs[1]]
    assert build.select_packages(pkgs, "bn254,bls48_581") == [pkgs[2], pkgs[1]]
    assert build.select_packages(pkgs, "ALL") == pkgs
    with pytest.raises(build.BuildError, match=r"no package all2 .*or 'all'"):
        build.select_packages(pkgs, "all2")


def test_setup_py_builds_only_the_selected_curves() -> None:
    """setup.py's extension list follows PAIRFORGE_CURVES (nothing is compiled: --name only)."""
    code = (
        "import runpy, sys; sys.argv = ['setup.py', '--name']; "
        "import setuptools; calls = []; setuptools.setup = lambda **kw: calls.append(kw); "
        "ns = runpy.run_path('setup.py'); print(' '.join(e.name for e in calls[0]['ext_modules']))"
    )
    env = {**os.environ, build.CURVES_ENV: "bn254", build.LIMB_BITS_ENV: "32"}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["generated.bn254._core"]


def test_setup_py_builds_in_parallel_then_compiles_nothing(tmp_path: Path) -> None:
    """setup.py (what `pip install -e .` runs) on a checkout holding one mock package: the first
    build_ext compiles its modules, the second finds them up to date and compiles nothing."""
    (tmp_path / "generator").mkdir()
    for rel in ("setup.py", "generator/build.py"):
        (tmp_path / rel).write_text((REPO_ROOT / rel).read_text())
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "__init__.py").write_text("")
    pkg = mock_package(tmp_path / "generated")
    (pkg / f"{build.ADX_STEM}.pyx").write_text('include "_core.pyx"\n')
    # both targets, as CI installs (tests/targets/test_install_targets.py: the default, one per CPU)
    env = {**os.environ, "PAIRFORGE_BUILD_JOBS": "2", build.BUILD_TARGETS_ENV: "all"}
    env.pop(build.CURVES_ENV, None)
    env.pop(build.LIMB_BITS_ENV, None)
    modules = 2 if build.builds_adx(64) else 1

    def build_ext() -> str:
        cmd = [sys.executable, "setup.py", "-q", "build_ext", "--inplace"]
        proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        return proc.stdout

    first = build_ext()
    assert f"pairforge: {modules} of {modules} modules compiled (2 at a time)" in first
    assert "generated.mockcurve._core: compiled in " in first
    second = build_ext()
    assert f"pairforge: 0 of {modules} modules compiled" in second
    assert second.count("generated.mockcurve._core is up to date") == 1  # said once, not twice
    code = "import generated.mockcurve._core as m; print(m.value())"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["42"]
