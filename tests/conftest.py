"""Shared test helpers: where the known-answer vectors are, and the compiled curve modules.

Fixtures:
  vectors_dir          the shared vectors folder (PAIRFORGE_VECTORS, else <repo>/../shared/vectors)
  vectors_subdir(name) one folder in it, e.g. vectors_subdir("eip196_197_bn254_precompiles_geth")
  curve_module(pkg)    the compiled package ``generated.<pkg>``, e.g. curve_module("bls12_381")
  curve                parametrized over every curve package in generated/

A missing vectors folder or an unbuilt curve module is a skip (with the reason) locally and a
failure when the environment variable CI is set, so CI never passes by skipping.

Tests marked ``@pytest.mark.slow`` run only with ``--runslow`` (or PAIRFORGE_RUNSLOW=1).
When known-answer tests were skipped for want of their vectors, the run ends with one line that
counts them and says how to get them (``pytest_terminal_summary``; it works under xdist too).

Parallel runs (pytest-xdist, ``-n auto``) and the build cache. Each worker is a separate process
with its own session: session- and module-scoped fixtures and module-level caches run once per
worker, and any test may run beside any other. A test is xdist-safe when it writes only below
``tmp_path`` / ``tmp_path_factory`` (never to a fixed path in the checkout) and everything it
builds goes through tests/build_cache.py: ``compiled(cmd, inputs=[sources, include dirs])`` for a
C program, ``cached_dir(content_key(...), make)`` for a curve package or anything else expensive
(key it on what it is made from: the curve file's text, ``generator_key()``,
``toolchain_key()``). Such builds are made once per content, whatever the worker or the run, in
``build/test-cache/`` (a file lock makes the other workers wait and reuse it). Tests that share an
expensive fixture should also carry ``pytest.mark.xdist_group(NAME)`` (e.g. on the fixture's
params): unless ``--dist`` is given, ``-n`` runs use ``--dist loadgroup``, which keeps a group on
one worker, so the fixture is set up once. Tests that take a parametrized module- or
session-scoped fixture get such a group automatically (one per file and parameter of the first such
fixture they ask for; ``_group_shared_fixtures``).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import NoReturn

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
GENERATED_DIR = REPO_ROOT / "generated"
STANDARD_CURVES = ("bn254", "bls12_381", "bls12_377", "bw6_761")
# Every skip reason about missing vectors starts with this (pytest_terminal_summary counts them).
VECTORS_MISSING = "known-answer vectors not found"

# `import generated` and `import generator` from the checkout, however pytest was started.
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def skip_or_fail(reason: str) -> NoReturn:
    """Skip locally; fail when CI is set (a CI run must not pass by skipping)."""
    if in_ci():
        pytest.fail(f"{reason} (this is a failure because CI is set)", pytrace=False)
    pytest.skip(reason)


# --------------------------------------------------------------------------------------------
# Known-answer vectors


def find_vectors_dir() -> tuple[Path | None, str]:
    """(folder, how it was looked for). The folder is None when it does not exist."""
    env = os.environ.get("PAIRFORGE_VECTORS", "").strip()
    if env:
        path = Path(env).expanduser()
        return (path if path.is_dir() else None), f"PAIRFORGE_VECTORS={env}"
    path = (REPO_ROOT.parent / "shared" / "vectors").resolve()
    return (path if path.is_dir() else None), f"{path} (set PAIRFORGE_VECTORS to use another folder)"


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    path, where = find_vectors_dir()
    if path is None:
        skip_or_fail(f"{VECTORS_MISSING}: {where}")
    return path


@pytest.fixture(scope="session")
def vectors_subdir(vectors_dir: Path) -> Callable[[str], Path]:
    def get(name: str) -> Path:
        path = vectors_dir / name
        if not path.is_dir():
            skip_or_fail(f"{VECTORS_MISSING}: folder {name!r} is not in {vectors_dir}")
        return path

    return get


# --------------------------------------------------------------------------------------------
# Compiled curve modules


def generated_packages() -> list[str]:
    """Pairing-curve packages rendered into generated/ (whether built or not), sorted."""
    if not GENERATED_DIR.is_dir():
        return []
    return sorted(p.parent.name for p in GENERATED_DIR.glob("*/_core.pyx")
                  if (p.parent / "__init__.py").is_file() and not (p.parent / "c" / "edwards_core.h").is_file())


def byte_abi_packages() -> list[str]:
    """Pairing-curve packages whose byte-level programs are rendered (c/kat_main.c, the known-answer
    program of the cross-target and wasm tests, and c/wasm_abi.c), sorted. The generator decides
    this from the model (generator/emit/context.py, byte_abi_unsupported: the twist field's
    degree) and writes the files of the others as one #error line giving the reason; this reads
    what it wrote, so a curve joins these tests as soon as its programs are rendered."""
    def rendered(pkg: str) -> bool:
        lines = (GENERATED_DIR / pkg / "c" / "kat_main.c").read_text().splitlines()
        code = [line for line in lines if line.strip() and not line.lstrip().startswith(("/*", "*", "//"))]
        return bool(code) and not code[0].startswith("#error")

    return [pkg for pkg in generated_packages() if rendered(pkg)]


def edwards_packages() -> list[str]:
    """Twisted Edwards companion-curve packages rendered into generated/, sorted."""
    if not GENERATED_DIR.is_dir():
        return []
    return sorted(p.parent.parent.name for p in GENERATED_DIR.glob("*/c/edwards_core.h")
                  if (p.parent.parent / "__init__.py").is_file())


_modules: dict[str, ModuleType | str] = {}


def load_curve_module(pkg: str) -> ModuleType:
    """``generated.<pkg>``, imported once; skips (fails under CI) with the reason if unavailable."""
    if pkg not in _modules:
        if not (GENERATED_DIR / pkg / "__init__.py").is_file():
            _modules[pkg] = f"generated/{pkg}/ does not exist (render it with `gen-curve {pkg}`)"
        else:
            try:
                _modules[pkg] = importlib.import_module(f"generated.{pkg}")
            except ImportError as exc:
                _modules[pkg] = (
                    f"generated.{pkg} is not built ({exc}); run `pip install -e .` or `gen-curve {pkg}`"
                )
    result = _modules[pkg]
    if isinstance(result, str):
        skip_or_fail(result)
    return result


def check_stub(core: ModuleType, stub_path: Path) -> set[str]:
    """The .pyi stub against the compiled module ``core``: every class, method and attribute the
    stub declares exists in the module, every public member of each class is in the stub, and each
    top-level function is callable.  Returns the stub's top-level names (for the caller's
    ``__all__`` checks)."""
    import ast

    names = set()
    for node in ast.parse(stub_path.read_text()).body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            cls = getattr(core, node.name)
            members = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            members |= {n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
            for member in members:
                assert hasattr(cls, member), f"{node.name}.{member} is in the stub but not the module"
            public = {n for n in vars(cls) if not n.startswith("_")}
            assert public <= members, f"{node.name}: {sorted(public - members)} missing from the stub"
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
            assert callable(getattr(core, node.name)), f"{node.name} is in the stub but not callable in the module"
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


@pytest.fixture(scope="session")
def curve_module() -> Callable[[str], ModuleType]:
    """A function: ``curve_module("bls12_381")`` returns the compiled ``generated.bls12_381``."""
    return load_curve_module


@pytest.fixture(scope="session", params=generated_packages() or [None], ids=lambda p: p or "no-curves")
def curve(request: pytest.FixtureRequest) -> ModuleType:
    """Each curve package in generated/, in turn."""
    if request.param is None:
        skip_or_fail("no curve packages in generated/ (run `gen-curve --all`)")
    return load_curve_module(request.param)


# --------------------------------------------------------------------------------------------
# Options, markers, hypothesis profiles


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="also run tests marked slow")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long-running test, run only with --runslow")
    # registered by pytest-xdist too; here so that a run without xdist does not warn
    config.addinivalue_line("markers", "xdist_group(name): tests run on one xdist worker (--dist loadgroup)")
    _group_under_xdist(config)
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:  # pragma: no cover
        return
    # Shared machines are noisy: no per-example deadline. CI runs a fixed, reproducible sample.
    settings.register_profile("default", deadline=None)
    settings.register_profile(
        "ci", deadline=None, derandomize=True, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
    )
    settings.register_profile("dev", deadline=None, max_examples=20)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if in_ci() else "default"))


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's worker adds the groups to the node ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _group_shared_fixtures(config, items)
    if config.getoption("--runslow") or os.environ.get("PAIRFORGE_RUNSLOW", "") not in ("", "0"):
        return
    skip_slow = pytest.mark.skip(reason="slow test: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


def pytest_report_header(config: pytest.Config) -> list[str]:
    path, where = find_vectors_dir()
    packages = generated_packages()
    return [
        f"pairforge: vectors {'at ' + str(path) if path else 'missing: ' + where}",
        f"pairforge: curve packages in generated/: {', '.join(packages) or 'none'}; CI={'yes' if in_ci() else 'no'}",
    ]


# --------------------------------------------------------------------------------------------
# Parallel runs and the end-of-run summary


def _group_under_xdist(config: pytest.Config) -> None:
    """Under ``-n``, distribute with ``loadgroup`` unless ``--dist`` was given: tests marked with
    the same ``xdist_group`` (those sharing an expensive build) then run on one worker."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:  # a worker parses the command line again: tell it (it adds @group to node ids)
        if workerinput.get("pairforge_loadgroup"):
            config.option.loadgroup = True
        return
    if getattr(config.option, "dist", "no") != "load" or not getattr(config.option, "numprocesses", None):
        return
    if any(arg == "--dist" or arg.startswith("--dist=") for arg in config.invocation_params.args):
        return
    config.option.dist = "loadgroup"


_SHARED_SCOPES = ("module", "package", "session")


def _shared_fixture_group(item: pytest.Item) -> str | None:
    """The xdist group of a test that takes a parametrized module- or session-scoped fixture: its
    file and the parameter of the first such fixture it asks for (e.g. ``test_api.py:ctx=1``; a
    later one, like test_api's ``group``, only splits the same setup over more groups). None for
    other tests."""
    callspec = getattr(item, "callspec", None)
    fixtureinfo = getattr(item, "_fixtureinfo", None)
    if callspec is None or fixtureinfo is None:
        return None
    for argname in fixtureinfo.names_closure:
        defs = fixtureinfo.name2fixturedefs.get(argname)
        if argname in callspec.indices and defs and defs[-1].params is not None and defs[-1].scope in _SHARED_SCOPES:
            return f"{item.path.name}:{argname}={callspec.indices[argname]}"
    return None


def _group_shared_fixtures(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup`` (before xdist names the groups in the node ids): the tests of one
    file that share a parametrized module- or session-scoped fixture value (a curve's derived
    model, its reference values, a loaded .wasm) form one group, so one worker sets that value up
    instead of both (test_api's per-curve setup was about a third of its time). Tests marked with
    their own ``xdist_group`` keep it."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        if any(item.iter_markers("xdist_group")):
            continue
        group = _shared_fixture_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """pytest-xdist: pass the distribution chosen above to each worker."""
    if node.config.getvalue("dist") == "loadgroup":
        node.workerinput["pairforge_loadgroup"] = True


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # (path, line, "Skipped: reason")
        return str(longrepr[2])
    return str(longrepr or "")


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """One line when known-answer tests were skipped because their vectors are missing (reports
    come back from xdist workers with their reasons, so this counts every worker's skips)."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if VECTORS_MISSING in _skip_reason(r)]
    if not skipped:
        return
    path, _ = find_vectors_dir()
    looked = f"{path} lacks some folders" if path else f"looked in {os.environ.get('PAIRFORGE_VECTORS') or REPO_ROOT.parent / 'shared' / 'vectors'}"
    terminalreporter.write_line(
        f"pairforge: {len(skipped)} known-answer vector tests skipped, their vectors are missing ({looked}); "
        "to run them set PAIRFORGE_VECTORS=/path/to/vectors (the project's shared vectors folder) "
        "or put that folder at ../shared/vectors; with CI set they fail",
        yellow=True,
        bold=True,
    )
