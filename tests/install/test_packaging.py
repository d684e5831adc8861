"""What installs and what ships: where the generator finds its data in a checkout and in an
install, the project files of a standalone curve package (gen-curve --out / --wheel, --package),
the curve packages' independence from the generator's dependencies, the rule that an installed
package never compiles, and the packages' self-test. The wheels themselves are built and
installed by `nox -s wheel` (packaging/wheel_smoke.py), which CI runs."""

from __future__ import annotations

import importlib
import importlib.util
import os
import py_compile
import shutil
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest
from conftest import REPO_ROOT, edwards_packages, generated_packages

from generator import resources
from generator.build import extension_suffix
from generator.cli import main as gen_curve


def test_a_checkout_uses_its_own_templates_and_curves() -> None:
    assert resources.REPO_ROOT == REPO_ROOT
    assert resources.TEMPLATES_DIR == REPO_ROOT / "templates"
    assert resources.CURVES_DIR == REPO_ROOT / "curves"
    assert resources.GENERATED_DIR == REPO_ROOT / "generated"
    assert [p.name for p in resources.LICENSE_FILES] == ["LICENSE-MIT", "LICENSE-APACHE"]


def test_an_install_uses_the_packaged_copies(tmp_path: Path) -> None:
    """In site-packages there is no checkout around the package: the wheel's generator/_data."""
    site = tmp_path / "site-packages" / "generator"
    site.mkdir(parents=True)
    shutil.copy2(REPO_ROOT / "generator" / "resources.py", site / "resources.py")
    spec = importlib.util.spec_from_file_location("installed_resources", site / "resources.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.REPO_ROOT is None and module.GENERATED_DIR is None
    assert module.TEMPLATES_DIR == site.resolve() / "_data" / "templates"
    assert module.CURVES_DIR == site.resolve() / "_data" / "curves"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["bn254", "--package", "x"], "--package names the package of --out or --wheel"),
        (["--all", "--out", "D", "--package", "x"], "one curve"),
        (["bn254", "bls12-381", "--out", "D", "--package", "x"], "one curve"),
        (["bn254", "--out", "D", "--package", "not-an-identifier"], "not a Python identifier"),
        (["bn254", "--wheel", "D", "--no-build"], "does not go with --check or --no-build"),
        (["bn254", "--wheel", "D", "--check"], "does not go with --check or --no-build"),
        (["bn254", "--wheel", "D", "--target", "generic32"], "does not go with --target"),
        (["bn254", "--wheel", "D", "--out", "E"], "not both"),
        (["--params", "x.toml"], "--params needs --out DIR"),
    ],
)
def test_wheel_and_package_usage_errors(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert gen_curve(argv) == 2
    assert words in capsys.readouterr().err


def test_out_writes_a_project_pip_can_build(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--out DIR --package NAME: DIR/NAME is the package and its project root."""
    assert gen_curve(["bn254", "--out", str(tmp_path), "--package", "my_bn", "--no-build"]) == 0
    project = tmp_path / "my_bn"
    meta = tomllib.loads((project / "pyproject.toml").read_text())
    assert meta["project"]["name"] == "my-bn"
    assert meta["project"]["dependencies"] == []
    assert meta["project"]["license"] == "MIT OR Apache-2.0"
    assert meta["tool"]["setuptools"]["package-dir"] == {"my_bn": "."}
    assert meta["tool"]["setuptools"]["packages"] == ["my_bn"]
    data = meta["tool"]["setuptools"]["package-data"]["my_bn"]
    assert "_core.pyi" in data
    assert not [name for name in data if name.endswith((".pyx", ".py")) or name.startswith(("c/", "wasm/"))]
    for name in data:
        assert (project / name).is_file(), name
    assert "distributed" in meta["project"]["optional-dependencies"]
    # setup.py compiles, and names the arithmetic units that were rendered
    py_compile.compile(str(project / "setup.py"), doraise=True)
    setup_text = (project / "setup.py").read_text()
    api_units = sorted(p.relative_to(project).as_posix() for p in (project / "c").glob("api*.c"))
    assert api_units and all(f'"{unit}"' in setup_text for unit in api_units)
    assert 'PACKAGE = "my_bn"' in setup_text
    for name in ("LICENSE-MIT", "LICENSE-APACHE"):
        assert (project / name).read_bytes() == (REPO_ROOT / name).read_bytes()
    assert "python -m my_bn.selftest" in (project / "README.md").read_text()
    # the regen check sees the project files as part of the rendering
    capsys.readouterr()
    assert gen_curve(["bn254", "--out", str(tmp_path), "--package", "my_bn", "--check"]) == 0
    (project / "setup.py").write_text(setup_text + "# edited\n")
    assert gen_curve(["bn254", "--out", str(tmp_path), "--package", "my_bn", "--check"]) == 1
    assert "stale:   " in capsys.readouterr().out


def test_generated_has_no_project_files() -> None:
    """The packages in generated/ ship inside pairforge's own distribution."""
    for name in ("pyproject.toml", "setup.py", "LICENSE-MIT"):
        assert not list((REPO_ROOT / "generated").glob(f"*/{name}")), name


def test_the_curve_packages_import_without_the_generators_dependencies() -> None:
    """Importing every curve an install builds (and running its self-test) needs none of sympy,
    gmpy2, jinja2, Cython, rich or setuptools: they are blocked in a fresh interpreter."""
    blocked = ["sympy", "gmpy2", "jinja2", "Cython", "rich", "setuptools", "generator"]
    packages = sorted(generated_packages() + edwards_packages())  # the opt-in ones where built
    assert len(packages) >= 12, packages
    code = (
        "import importlib, sys\n"
        f"for name in {blocked!r}: sys.modules[name] = None\n"
        f"for pkg in {packages!r}:\n"
        "    importlib.import_module(f'generated.{pkg}.selftest').run(say=lambda line: None)\n"
        "print('imported', len(sys.modules))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PAIRFORGE_TARGET"}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.startswith("imported")


def test_an_installed_package_never_compiles(tmp_path: Path) -> None:
    """A package without its sources (as in a wheel) and without a wanted module fails to import
    with a message that says how to get it, instead of compiling."""
    source = REPO_ROOT / "generated" / "bn254"
    adx_module = source / f"_core_adx{extension_suffix()}"
    if not adx_module.is_file():
        pytest.fail(f"{adx_module} is not built (the install builds it on x86-64 hosts)")
    installed = tmp_path / "site" / "bn_wheel"
    installed.mkdir(parents=True)
    for path in source.iterdir():
        if path.suffix in (".py", ".pyi"):
            shutil.copy2(path, installed / path.name)
    shutil.copy2(adx_module, installed / adx_module.name)  # the wheel's other module is "lost"
    env = {**os.environ, "PYTHONPATH": str(installed.parent), "PAIRFORGE_TARGET": "generic64"}
    out = subprocess.run([sys.executable, "-c", "import bn_wheel"], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert "bn_wheel._core is not in this installation" in out.stderr
    assert "holds no sources" in out.stderr and "compil" not in out.stderr.split("ImportError")[0]
    assert not list(installed.glob(f"_core{extension_suffix()}")), "a module was compiled"


def test_selftest_passes_and_catches_a_wrong_pairing(curve_module) -> None:
    package = curve_module("bn254")
    selftest = importlib.import_module(f"{package.__name__}.selftest")
    lines: list[str] = []
    selftest.run(say=lines.append)
    assert lines[-1].endswith("all checks passed")
    assert any(f": {package.TARGET}: ok" in line for line in lines)

    core = selftest.modules()[package.TARGET]
    g1, g2 = core.G1.generator(), core.G2.generator()
    broken = types.SimpleNamespace(**{name: getattr(core, name) for name in dir(core) if not name.startswith("__")})
    broken.pairing = lambda p, q: core.pairing(p, q) * core.pairing(g1, g2)  # no longer bilinear
    with pytest.raises(selftest.SelfTestError, match="pairing"):
        selftest.check_module(broken)



@pytest.mark.parametrize(
    ("machine", "limb_bits", "macros"),
    [
        ("aarch64", 64, [("PF_TARGET_ARM64", "1")]),
        ("arm64", 64, [("PF_TARGET_ARM64", "1")]),
        ("aarch64", 32, []),
        ("armv7l", 32, [("PF_TARGET_ARM32", "1")]),
        ("armv7l", 64, []),
        ("x86_64", 64, []),
        ("riscv64", 64, []),
    ],
)
def test_an_arm_host_builds_its_kernels_into_the_portable_module(monkeypatch, machine, limb_bits, macros) -> None:
    """No flag needed on ARM: the portable module's macros name the host's assembly target."""
    from generator import build

    monkeypatch.setattr(build.platform, "machine", lambda: machine)
    options = build.extension_options(REPO_ROOT / "generated" / "bn254", limb_bits)
    assert options["define_macros"] == [("PF_LIMB_BITS", str(limb_bits)), *macros]
