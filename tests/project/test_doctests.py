"""The docstring examples of every generated package run, and hold, on their curve.

The stubs' examples (``_core.pyi``, not importable: parsed with ``doctest.DocTestParser``) run
with the package's namespace as globals; the Python modules' examples (the protocol modules and
``distributed``) with their module's.  The examples that start a Dask client run only where the
``distributed`` extra is installed (a failure under CI without it).  README.md's ``python`` /
``pycon`` code blocks that are doctest-style (``>>>``) run too.
"""

from __future__ import annotations

import doctest
import re
import subprocess
import sys

import pytest
from api_docs import module_doctests, python_modules, stub_doctests
from conftest import (
    REPO_ROOT,
    TESTS_DIR,
    edwards_packages,
    generated_packages,
    import_optional,
    load_curve_module,
)

PACKAGES = generated_packages() + edwards_packages()
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _needs_dask(test: doctest.DocTest) -> bool:
    return any("from distributed import" in example.source for example in test.examples)


def _run(tests: list[doctest.DocTest]) -> None:
    """Run every test; fail with doctest's report of each failing example."""
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in tests:
        runner.run(test, out=report.append)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples failed:\n" + "".join(report)


def _package_tests(pkg: str) -> list[doctest.DocTest]:
    package = load_curve_module(pkg)
    tests = stub_doctests(package)
    for module in python_modules(package):
        tests += module_doctests(module, package)
    return tests


@pytest.mark.parametrize("pkg", PACKAGES)
def test_docstring_examples(pkg: str) -> None:
    """Every example of the package's stub and Python modules, except those that start a Dask
    client (below)."""
    tests = [test for test in _package_tests(pkg) if not _needs_dask(test)]
    assert tests, f"generated.{pkg} has no docstring examples"
    _run(tests)


@pytest.mark.parametrize("pkg", [pkg for pkg in generated_packages()])
def test_dask_docstring_examples(pkg: str) -> None:
    """The examples of ``distributed`` that start a local Dask client (in this process)."""
    import_optional("distributed", "pip install -c constraints.txt -e '.[distributed]'")
    tests = [test for test in _package_tests(pkg) if _needs_dask(test)]
    assert tests, f"generated.{pkg}.distributed has no Dask examples"
    _run(tests)


def test_readme_python_blocks() -> None:
    """README.md's ``python``/``pycon`` blocks run: those written as doctests (``>>>``) as doctests,
    the others as programs, in the folder of the snarkjs vectors (the tour reads
    verification_key.json, proof.json and public.json by those names)."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:python|pycon)\n(.*?)```", text, flags=re.S)
    assert blocks, "README.md has no python code blocks"
    parser = doctest.DocTestParser()
    tests = [parser.get_doctest(block, {}, f"README.md block {i}", str(REPO_ROOT / "README.md"), 0)
             for i, block in enumerate(blocks) if ">>>" in block]
    _run(tests)
    programs = [block for block in blocks if ">>>" not in block]
    snarkjs = TESTS_DIR / "vectors" / "snarkjs_groth16_bn254"
    for i, program in enumerate(programs):
        out = subprocess.run([sys.executable, "-c", program], cwd=snarkjs, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, f"README.md python block {i} failed:\n{program}\n{out.stderr[-3000:]}"
