"""Shared test helpers: the known-answer vectors and the compiled curve modules.

The known-answer vectors ship with the tests, in tests/vectors/<set>/ (each set's README.md gives
its origin, licence and format). Tests read them through tests/vectors_util.py
(``read_vector_bytes`` / ``read_vector_text`` / ``read_vector_json``, which also open the
xz-compressed copy ``<name>.xz`` of a large file). A missing set or file is always a test failure
with its path, never a skip.

Fixtures:
  vector_file(set, relpath)  a path to a vector file's plain content, for code that wants a file
                             name (a compressed file is decompressed once per session into a
                             temporary folder), e.g. vector_file("eip4844_kzg", "trusted_setup.txt")
  curve_module(pkg)          the compiled package ``generated.<pkg>``, e.g. curve_module("bls12_381")
  curve                      parametrized over every curve package in generated/
  client                     a Dask client of a local cluster (two worker processes), per module
                             (tests/protocols/test_distributed.py, test_bls24_protocols.py)

An unbuilt curve module or a missing optional test dependency is a skip (with the reason) locally
and a failure when the environment variable CI is set, so CI never passes by skipping.

Tests marked ``@pytest.mark.slow`` run only with ``--runslow`` (or PAIRFORGE_RUNSLOW=1). In the
files of ONE_CASE_BY_DEFAULT (each case compiles something of its own) one case of each test
function runs by default (on BN254 where it has one); the others are marked slow.

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
import importlib.util
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import NoReturn

import pytest
from vectors_util import vector_on_disk

# The tests live in sub-folders of tests/ (one per layer or area); the paths they share start here.
TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
GENERATED_DIR = REPO_ROOT / "generated"
STANDARD_CURVES = ("bn254", "bls12_381", "bls12_377", "bw6_761")

# `import generated` and `import generator` from the checkout, however pytest was started.
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))
# The test files sit in sub-folders (derive/, emit/, targets/, wasm/, ...) and never import each
# other: what several of them share is a helper module here in tests/ (wasm_util.py, groth16_util.py,
# build_cache.py, ...), importable by its name because pytest puts this folder (conftest.py's, which
# has no __init__.py) on sys.path. (A test file's name is unique across the folders, which pytest's
# default import mode needs.)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def skip_or_fail(reason: str) -> NoReturn:
    """Skip locally; fail when CI is set (a CI run must not pass by skipping)."""
    if in_ci():
        pytest.fail(f"{reason} (this is a failure because CI is set)", pytrace=False)
    pytest.skip(reason)


def import_optional(name: str, hint: str) -> ModuleType:
    """Import an optional test dependency (a package of the test or distributed extra, or a peer).
    Only a package that is not installed at all is a skip (a failure under CI); one that is
    installed but does not import (a broken or mismatched install, e.g. a ``distributed`` too old
    for its ``dask``) raises, and the test fails with the import error."""
    top = name.partition(".")[0]
    if importlib.util.find_spec(top) is None:
        skip_or_fail(f"{top} is not installed ({hint})")
    return importlib.import_module(name)


# --------------------------------------------------------------------------------------------
# Known-answer vectors (tests/vectors; the readers are in tests/vectors_util.py)


@pytest.fixture(scope="session")
def vector_file(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], Path]:
    """A function: ``vector_file(set, relpath)`` is a path to the plain content of a vector file
    (the stored file, or, for one stored as ``<relpath>.xz``, a copy decompressed once per session
    into a temporary folder); a missing file fails the test."""
    scratch = tmp_path_factory.mktemp("vectors")
    return lambda set_name, relpath: vector_on_disk(set_name, relpath, scratch)


# --------------------------------------------------------------------------------------------
# A Dask cluster (the packages' distributed entry points)


@pytest.fixture(scope="module")
def client():
    """A client of a local cluster of two worker processes (one thread each) that import the
    checkout; closed after the module. Without dask and distributed: a skip (a failure under CI)."""
    import_optional("dask", "pip install -e '.[distributed]'")
    distributed = import_optional("distributed", "pip install -e '.[distributed]'")
    cluster = distributed.LocalCluster(
        processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None,
        env={"PYTHONPATH": os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")])},
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


# --------------------------------------------------------------------------------------------
# Compiled curve modules


def _covered_by_tests(pkg_dir: Path) -> bool:
    """Whether the tests cover a package: every package but the opt-in ones (the curve file's install =
    "opt-in"), and those too where PAIRFORGE_CURVES names them (or is "all"), as `pip install` does."""
    from generator import build

    if not build.is_opt_in(pkg_dir):
        return True
    names = os.environ.get(build.CURVES_ENV, "")
    return bool(names.strip()) and pkg_dir in build.installed_packages(GENERATED_DIR, names)


def generated_packages() -> list[str]:
    """Pairing-curve packages rendered into generated/ (whether built or not), sorted; an opt-in
    package only where PAIRFORGE_CURVES names it (_covered_by_tests)."""
    if not GENERATED_DIR.is_dir():
        return []
    return sorted(p.parent.name for p in GENERATED_DIR.glob("*/_core.pyx")
                  if (p.parent / "__init__.py").is_file() and not (p.parent / "c" / "edwards_core.h").is_file()
                  and _covered_by_tests(p.parent))


def packages_of_curve_file(curve_file: Path) -> list[str]:
    """The generated package of one curve file, as a list for ``params=``: empty where the tests do
    not cover it (an opt-in package that PAIRFORGE_CURVES does not name, or one not rendered)."""
    from generator.params import load_curve_file

    package = load_curve_file(curve_file).package
    return [p for p in generated_packages() if p == package]


def edwards_packages() -> list[str]:
    """Twisted Edwards companion-curve packages rendered into generated/, sorted (opt-in ones as in
    generated_packages)."""
    if not GENERATED_DIR.is_dir():
        return []
    return sorted(p.parent.parent.name for p in GENERATED_DIR.glob("*/c/edwards_core.h")
                  if (p.parent.parent / "__init__.py").is_file() and _covered_by_tests(p.parent.parent))


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
    _one_case_by_default(items)
    if config.getoption("--runslow") or os.environ.get("PAIRFORGE_RUNSLOW", "") not in ("", "0"):
        return
    skip_slow = pytest.mark.skip(reason="slow test: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


# Files whose every case compiles something of its own: a C harness, a WebAssembly module, a 32-bit
# or cross-target build, or a whole curve package rendered from a curve file. In the default run
# each of their test functions runs one case (one curve, one target, one form), so every such check
# still runs once; --runslow runs every case. The cases of the other files (the API, the
# derivations, the vectors, the protocols on every curve) all run by default.
ONE_CASE_BY_DEFAULT = frozenset({
    "test_bls24_package.py", "test_bls24_tower_c.py", "test_custom_curves.py", "test_cross.py",
    "test_cross_edwards.py", "test_cyclotomic_c.py", "test_edwards_generic32.py", "test_field_c.py",
    "test_fp2_sqrt.py", "test_fuzz_targets.py", "test_generic32.py", "test_group_c.py",
    "test_line_products.py", "test_mac_small.py", "test_targets.py", "test_vartime_names.py",
    "test_wasm.py", "test_wide_small.py", "test_host_calls.py", "test_core_emit.py", "test_wasm_node.py",
    "test_wasm_edwards.py",
})
# The case kept: the first one on this curve where a function has one (4 limbs, the quickest to
# compile, and one portable module shared by the files that compare targets), else the first case.
DEFAULT_CASE_CURVE = "bn254"


def _one_case_by_default(items: list[pytest.Item]) -> None:
    """Mark ``slow`` every case but one of each parametrized test function of the files in
    ONE_CASE_BY_DEFAULT (cases already marked slow are not candidates)."""
    cases: dict[tuple[str, str], list[pytest.Item]] = {}
    for item in items:
        if item.path.name in ONE_CASE_BY_DEFAULT and getattr(item, "callspec", None) is not None \
                and "slow" not in item.keywords:
            cases.setdefault((item.path.name, item.originalname), []).append(item)
    for group in cases.values():
        on_curve = [i for i in group if re.search(rf"(?<![a-z0-9]){DEFAULT_CASE_CURVE}(?![a-z0-9])", i.callspec.id)]
        kept = (on_curve or group)[0]
        for item in group:
            if item is not kept:
                item.add_marker(pytest.mark.slow)


def pytest_report_header(config: pytest.Config) -> list[str]:
    packages = generated_packages()
    return [
        f"pairforge: curve packages in generated/: {', '.join(packages) or 'none'}; CI={'yes' if in_ci() else 'no'}",
    ]


# --------------------------------------------------------------------------------------------
# Parallel runs


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


def _group_suffix(item: pytest.Item) -> str:
    """The ``@group`` suffix pytest-xdist's loadgroup scheduler reads from a worker's node id
    (its names sorted and joined by ``_``, as xdist writes them); empty without a group."""
    names = {str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
             for mark in item.iter_markers("xdist_group")}
    return f"@{'_'.join(sorted(names))}" if names else ""


def _set_nodeid(item: pytest.Item, nodeid: str) -> None:
    """Give ``item`` a new node id. pytest >= 9.2 keeps it as a structured ``NodeId`` in
    ``item._id`` and no longer reads ``item._nodeid``, which is where pytest-xdist (3.8) writes the
    group suffix; earlier pytest reads ``_nodeid``."""
    if hasattr(item, "_id"):
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse(nodeid)  # parse keeps the string exactly as given
    else:
        item._nodeid = nodeid


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's worker sends the collected ids to the controller
def pytest_collection_finish(session: pytest.Session) -> None:
    """On an xdist worker under loadgroup: make sure every grouped test's node id ends with its
    ``@group`` suffix. pytest-xdist adds it during collection, but with pytest >= 9.2 its write has no
    effect (``_set_nodeid``), and the controller would then spread a group over every worker, each
    building the group's shared fixture again."""
    config = session.config
    if getattr(config, "workerinput", None) is None or not getattr(config.option, "loadgroup", False):
        return
    for item in session.items:
        suffix = _group_suffix(item)
        if suffix and not item.nodeid.endswith(suffix):
            _set_nodeid(item, item.nodeid + suffix)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """pytest-xdist: pass the distribution chosen above to each worker."""
    if node.config.getvalue("dist") == "loadgroup":
        node.workerinput["pairforge_loadgroup"] = True
