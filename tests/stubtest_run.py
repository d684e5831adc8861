"""mypy.stubtest of every compiled curve module against its package's _core.pyi.

Both code targets of a package (``_core``, the portable build, and ``_core_adx``) are checked
against the same stub: it is copied, under both names, into a scratch tree of stub-only packages
(``generated/__init__.pyi``, ``generated/<pkg>/__init__.pyi``) that is put first on mypy's path, so
that stubtest reads nothing else of the package (its Python modules are not what is checked here).
Entries of tests/stubtest_allowlist.txt are what stubtest cannot see of a Cython module; each has
its reason beside it.

    python tests/stubtest_run.py                 every package an install builds, every compiled module it has
    python tests/stubtest_run.py bn254 jubjub    some packages
    python tests/stubtest_run.py --all-targets   fail when a module is not built (CI, nox -s stubtest)

Exit status: stubtest's (0 when the stubs match), 2 when nothing could be checked.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
GENERATED = REPO_ROOT / "generated"
ALLOWLIST = Path(__file__).with_name("stubtest_allowlist.txt")
MODULES = ("_core", "_core_adx")


def packages() -> list[str]:
    """Every rendered package with a stub that an install builds (PAIRFORGE_CURVES's, or all but the
    opt-in ones: generator/build.py's select_packages), sorted."""
    sys.path.insert(0, str(REPO_ROOT))
    from generator import build

    selected = {p.name for p in build.installed_packages(GENERATED)}
    return sorted(p.parent.name for p in GENERATED.glob("*/_core.pyi")
                  if (p.parent / "__init__.py").is_file() and p.parent.name in selected)


def built(pkg: str, module: str) -> bool:
    """Whether the extension module is compiled for this interpreter (not compiled on demand here)."""
    import importlib.machinery

    return any((GENERATED / pkg / f"{module}{suffix}").is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def stub_tree(root: Path, pkgs: list[str]) -> None:
    """generated/<pkg>/{_core,_core_adx}.pyi under root, with empty package stubs above them."""
    (root / "generated").mkdir(parents=True)
    (root / "generated" / "__init__.pyi").write_text("")
    for pkg in pkgs:
        target = root / "generated" / pkg
        target.mkdir()
        (target / "__init__.pyi").write_text("")
        for module in MODULES:
            shutil.copyfile(GENERATED / pkg / "_core.pyi", target / f"{module}.pyi")


def run(pkgs: list[str], all_targets: bool = False, extra: list[str] | None = None) -> tuple[int, str]:
    """stubtest over the built modules of pkgs; (exit status, output)."""
    modules, missing = [], []
    for pkg in pkgs:
        for module in MODULES:
            (modules if built(pkg, module) else missing).append(f"generated.{pkg}.{module}")
    if missing and all_targets:
        return 2, "not built: " + ", ".join(missing) + " (PAIRFORGE_BUILD_TARGETS=all pip install -e .)"
    if not modules:
        return 2, "no compiled curve module to check"
    with tempfile.TemporaryDirectory(prefix="pairforge-stubtest-") as tmp:
        stubs = Path(tmp) / "stubs"
        stub_tree(stubs, pkgs)
        config = Path(tmp) / "mypy.ini"
        # the scratch stubs first; no cache (a fresh tree each run); Python 3.11 semantics
        config.write_text(f"[mypy]\nmypy_path = {stubs}\ncache_dir = {Path(tmp) / 'cache'}\npython_version = 3.11\n")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
        env.pop("MYPYPATH", None)
        command = [sys.executable, "-m", "mypy.stubtest", "--mypy-config-file", str(config), "--allowlist", str(ALLOWLIST),
                   "--concise", *(extra or []), *modules]
        # run outside the checkout, so that mypy finds the stubs of the scratch tree, not the package's .py files
        done = subprocess.run(command, cwd=tmp, env=env, capture_output=True, text=True)
    report = (done.stdout + done.stderr).strip() or f"stubtest: {len(modules)} compiled modules match their stubs"
    skipped = f"\n(not built, not checked: {', '.join(missing)})" if missing else ""
    return done.returncode, report + skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", help="packages of generated/ (default: those an install builds)")
    parser.add_argument("--all-targets", action="store_true", help="fail when a compiled module is missing")
    args = parser.parse_args(argv)
    status, output = run(args.packages or packages(), args.all_targets)
    print(output)
    return status


if __name__ == "__main__":
    sys.exit(main())
