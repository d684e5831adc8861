"""Which modules an install compiles (generator/build.py's host_modules, setup.py): on a CPU with
BMI2 and ADX only the x86_64-adx module, and the package compiles its portable module on first
use, once, through the same content-keyed build (the rendered `_target`). Checked on a mock
checkout (setup.py, generator/build.py and one small package using a committed `_target.py`),
so that each build takes seconds."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from generator import build

# The same names as a curve module: _TARGET and _cpu_supports_adx (the CPUID check).
PYX = '''# cython: language_level=3
cdef extern from "mock.h":
    int mock_value()

cdef extern from *:
    """
    #if defined(PF_TARGET_X86_64_ADX)
    #define MOCK_TARGET "x86_64-adx"
    #elif PF_LIMB_BITS == 32
    #define MOCK_TARGET "generic32"
    #else
    #define MOCK_TARGET "generic64"
    #endif
    static int mock_cpu_supports_adx(void)
    {
    #if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        __builtin_cpu_init();
        return __builtin_cpu_supports("adx") && __builtin_cpu_supports("bmi2");
    #else
        return 0;
    #endif
    }
    """
    const char *MOCK_TARGET
    int mock_cpu_supports_adx()

_TARGET = MOCK_TARGET.decode()


def _cpu_supports_adx():
    return bool(mock_cpu_supports_adx())


def value():
    return mock_value()
'''

INIT = """from . import _target

_impl = _target.load(__name__, __path__[0])
TARGET = _impl._TARGET
value = _impl.value
"""


def mock_checkout(root: Path) -> Path:
    """A checkout with setup.py, generator/build.py and generated/mockcurve (portable and ADX)."""
    (root / "generator").mkdir(parents=True)
    for rel in ("setup.py", "generator/build.py"):
        (root / rel).write_text((REPO_ROOT / rel).read_text())
    (root / "generated").mkdir()
    (root / "generated" / "__init__.py").write_text("")
    pkg = root / "generated" / "mockcurve"
    (pkg / "c").mkdir(parents=True)
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "_target.py").write_text((REPO_ROOT / "generated" / "jubjub" / "_target.py").read_text())
    (pkg / "_core.pyx").write_text(PYX)
    (pkg / f"{build.ADX_STEM}.pyx").write_text('include "_core.pyx"\n')
    set_value(pkg, 42)
    return root


def set_value(pkg: Path, value: int) -> None:
    (pkg / "c" / "mock.h").write_text(f"static int mock_value(void) {{ return {value}; }}\n")


def _env(**extra: str) -> dict[str, str]:
    names = (build.CURVES_ENV, build.LIMB_BITS_ENV, build.BUILD_TARGETS_ENV, build.TARGET_ENV, "PYTHONPATH")
    env = {k: v for k, v in os.environ.items() if k not in names}
    return {**env, "PAIRFORGE_BUILD_JOBS": "1", **extra}


def setup_py(root: Path, **extra: str) -> str:
    cmd = [sys.executable, "setup.py", "-q", "build_ext", "--inplace"]
    proc = subprocess.run(cmd, cwd=root, env=_env(**extra), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout


def imported(root: Path, **extra: str) -> subprocess.CompletedProcess:
    code = "import generated.mockcurve as m; print(m.TARGET, m.value())"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=_env(**extra), capture_output=True, text=True, timeout=300
    )


def modules_of(root: Path) -> set[str]:
    pkg = root / "generated" / "mockcurve"
    return {name for adx, name in ((False, "_core"), (True, "_core_adx")) if build.module_target(pkg, adx).is_file()}


def test_cpu_check_agrees_with_cpuid() -> None:
    """The OS's view of BMI2 and ADX (build.py at install, `_target` at import) agrees with
    the CPUID check compiled into the modules."""
    from generated.jubjub import _target

    module = importlib.import_module(f"generated.jubjub.{'_core_adx' if build.cpu_runs_adx() else '_core'}")
    cpuid = module._cpu_supports_adx()
    assert build.cpu_runs_adx() == _target.cpu_supports_adx()
    assert build.cpu_runs_adx() in (cpuid, None)


def test_host_modules_follow_the_cpu_and_the_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(build.BUILD_TARGETS_ENV, raising=False)
    monkeypatch.delenv(build.TARGET_ENV, raising=False)
    for cpu, expected in ((True, (True,)), (False, (False,)), (None, (False, True))):
        monkeypatch.setattr(build, "cpu_runs_adx", lambda cpu=cpu: cpu)
        monkeypatch.setattr(build, "builds_adx", lambda limb_bits=64: limb_bits == 64)
        assert build.host_modules(64) == expected
        assert build.host_modules(32) == (False,)
        monkeypatch.setenv(build.BUILD_TARGETS_ENV, "all")
        assert build.host_modules(64) == (False, True)
        monkeypatch.setenv(build.BUILD_TARGETS_ENV, "host")
        monkeypatch.setenv(build.TARGET_ENV, "generic64")
        assert False in build.host_modules(64)
        monkeypatch.setenv(build.TARGET_ENV, "x86_64-adx")
        assert True in build.host_modules(64)
        monkeypatch.delenv(build.TARGET_ENV)
    monkeypatch.setenv(build.BUILD_TARGETS_ENV, "every")
    with pytest.raises(build.BuildError, match="PAIRFORGE_BUILD_TARGETS='every'"):
        build.host_modules(64)
    monkeypatch.setattr(build, "builds_adx", lambda limb_bits=64: False)  # arm64, ...
    monkeypatch.setenv(build.BUILD_TARGETS_ENV, "all")
    assert build.host_modules(64) == (False,)


def test_install_builds_the_host_module_and_the_portable_one_on_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the build below runs without the build-target variables (_env): so must the expectation
    monkeypatch.delenv(build.BUILD_TARGETS_ENV, raising=False)
    monkeypatch.delenv(build.TARGET_ENV, raising=False)
    root = mock_checkout(tmp_path)
    pkg = root / "generated" / "mockcurve"
    host = build.host_modules(64)
    expected = {"_core_adx" if adx else "_core" for adx in host}
    out = setup_py(root)
    assert f"pairforge: {len(host)} of {len(host)} modules compiled" in out
    assert modules_of(root) == expected
    if host == (True,):  # a CPU with BMI2 and ADX: the x86_64-adx module alone, and the default loads it
        assert "compiling those only" in out
        proc = imported(root)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.split() == ["x86_64-adx", "42"]
        assert "building it now" not in proc.stderr

    # the portable module, wanted and not built: compiled on first import, once, with a progress line
    build.module_target(pkg).unlink(missing_ok=True)
    first = imported(root, PAIRFORGE_TARGET="generic64")
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["generic64", "42"]
    assert "pairforge: generated.mockcurve._core is not built (PAIRFORGE_TARGET=generic64): building it now" in first.stderr
    assert "generated.mockcurve._core: compiled in" in first.stderr
    assert build.is_up_to_date(pkg, 64, False)
    second = imported(root, PAIRFORGE_TARGET="generic64")
    assert second.returncode == 0 and second.stdout.split() == ["generic64", "42"]
    assert "pairforge" not in second.stderr

    # a second install compiles nothing and keeps the up-to-date portable module
    again = setup_py(root)
    assert f"pairforge: 0 of {len(host)} modules compiled" in again
    assert "_core" in modules_of(root)


@pytest.mark.slow
def test_install_prunes_a_stale_portable_module(tmp_path: Path) -> None:
    """Sources changed since the portable module was compiled on first use: the install removes
    it (the package would load old code), and the next request compiles the new sources; with
    PAIRFORGE_BUILD_TARGETS=all the install compiles only what is missing."""
    root = mock_checkout(tmp_path)
    pkg = root / "generated" / "mockcurve"
    host = build.host_modules(64)
    setup_py(root)
    assert imported(root, PAIRFORGE_TARGET="generic64").stdout.split() == ["generic64", "42"]

    # changed sources: the install rebuilds its module and removes the stale portable one, which
    # the next request compiles again from the new sources
    set_value(pkg, 43)
    changed = setup_py(root)
    assert f"pairforge: {len(host)} of {len(host)} modules compiled" in changed
    if host == (True,):
        assert "removed generated/mockcurve/_core" in changed and modules_of(root) == {"_core_adx"}
    rebuilt = imported(root, PAIRFORGE_TARGET="generic64")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert rebuilt.stdout.split() == ["generic64", "43"]

    # PAIRFORGE_BUILD_TARGETS=all (as CI installs): both modules; the portable one compiled on
    # first use has the install's build key, so only a missing one is compiled
    modules = 2 if build.builds_adx(64) else 1
    missing = modules - len(modules_of(root))
    both = setup_py(root, PAIRFORGE_BUILD_TARGETS="all")
    assert f"pairforge: {missing} of {modules} modules compiled" in both
    assert modules_of(root) == ({"_core", "_core_adx"} if build.builds_adx(64) else {"_core"})


def test_no_silent_fallback_without_the_generator(tmp_path: Path) -> None:
    """A portable module that is wanted, not built and cannot be built is an ImportError that
    says how to build it, never another module."""
    root = mock_checkout(tmp_path)  # nothing built: _core is missing
    pkg = root / "generated" / "mockcurve"
    (root / "generator" / "build.py").unlink()
    (root / "generator").rmdir()
    # -S: no site-packages, so no installed pairforge generator either
    code = "import generated.mockcurve as m; print(m.TARGET)"
    proc = subprocess.run(
        [sys.executable, "-S", "-c", code],
        cwd=root,
        env=_env(PAIRFORGE_TARGET="generic64"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0 and proc.stdout == ""
    assert "ImportError: generated.mockcurve._core is not built (PAIRFORGE_TARGET=generic64)" in proc.stderr
    assert "PAIRFORGE_BUILD_TARGETS=all pip install -e ." in proc.stderr
    assert not build.module_target(pkg).exists()


def test_selection_without_an_os_answer_asks_cpuid(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the OS does not report the CPU's features, the portable module's CPUID check
    decides; where it reports no ADX, the portable module is loaded although `_core_adx` is built."""
    import generated.jubjub as C
    from generated.jubjub import _target

    monkeypatch.delenv(build.TARGET_ENV, raising=False)
    path = str(Path(C.__file__).parent)
    portable = _target.portable(C.__name__, path, "test")
    adx_built = importlib.util.find_spec(f"{C.__name__}._core_adx") is not None
    monkeypatch.setattr(_target, "cpu_supports_adx", lambda: None)
    chosen = _target.load(C.__name__, path)
    expected = "x86_64-adx" if adx_built and portable._cpu_supports_adx() else portable._TARGET
    assert chosen._TARGET == expected
    monkeypatch.setattr(_target, "cpu_supports_adx", lambda: False)
    assert _target.load(C.__name__, path) is portable
    monkeypatch.setenv(build.TARGET_ENV, "x86_64-adx")
    with pytest.raises(ImportError, match="lacks BMI2 or ADX" if adx_built else "not built"):
        _target.load(C.__name__, path)
