"""The generator's import contracts hold: its layers, no import circles, an independent test oracle.

The contracts live in pyproject.toml ([tool.importlinter]; docs/architecture.md, "Layers and their
rules", says what each protects) and are checked by import-linter's ``lint-imports`` on the real
import graph of the checkout's ``generator`` package, imports placed inside functions included.
A second run on a copy of the package with three planted imports shows that a broken contract
fails the check, with the contract named.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import REPO_ROOT

pytest.importorskip("importlinter", reason="import-linter is not installed (pip install -c constraints.txt -e '.[test]')")

CONTRACTS = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports, by this interpreter, in ``cwd``: the contracts of ``cwd``/pyproject.toml on the
    ``generator`` package under ``cwd`` (lint-imports puts its working directory first on sys.path),
    no cache written."""
    script = Path(sys.executable).with_name("lint-imports")
    if script.is_file():
        command = [sys.executable, str(script)]
    else:  # importlinter.cli has no __main__ (python -m would do nothing): call its entry point
        command = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                   "sys.exit(lint_imports_command())"]
    env = {**os.environ, "COLUMNS": "200"}   # rich wraps its report at the terminal's width
    return subprocess.run([*command, "--no-cache"], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_the_import_contracts_hold() -> None:
    run = lint_imports(REPO_ROOT)
    output = run.stdout + run.stderr
    assert run.returncode == 0, f"lint-imports: a contract of pyproject.toml is broken\n{output[-6000:]}"
    kept = re.search(r"Contracts: (\d+) kept, 0 broken", output)
    assert kept and int(kept.group(1)) == len(CONTRACTS), output[-2000:]


def test_a_broken_contract_fails_the_check(tmp_path: Path) -> None:
    """A cycle between two derive modules, derive importing the oracle, derive importing emit (a
    lower layer importing a higher one) and one family's template context importing the other's:
    each breaks its contract, and lint-imports fails."""
    shutil.copytree(REPO_ROOT / "generator", tmp_path / "generator",
                    ignore=shutil.ignore_patterns("__pycache__", "*_cache", "_data", "*.so"))
    shutil.copy(REPO_ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    derive = tmp_path / "generator" / "derive"
    (derive / "probe_a.py").write_text("from . import probe_b  # noqa\n")
    (derive / "probe_b.py").write_text("def f():\n    from . import probe_a  # noqa\n")
    (derive / "probe_c.py").write_text("from ..reference import fields  # noqa\nfrom ..emit import render  # noqa\n")
    edwards_context = tmp_path / "generator" / "emit" / "context_edwards.py"
    edwards_context.write_text(edwards_context.read_text() + "\nfrom . import context_pairing  # noqa\n")
    run = lint_imports(tmp_path)
    output = run.stdout + run.stderr
    assert run.returncode == 1, output[-4000:]
    names = {c["id"]: c["name"] for c in CONTRACTS}
    for contract in ("layers", "acyclic", "oracle-independent", "oracle-not-generating", "family-contexts"):
        assert re.search(re.escape(names[contract]).replace(r"\ ", r"\s+") + r"\s+BROKEN", output), (contract, output[-4000:])
    assert ".probe_b -> .probe_a" in output or ".probe_a -> .probe_b" in output
