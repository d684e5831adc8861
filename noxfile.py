"""nox sessions: tests, regen (the regen check), bench, cross, lint.

    nox -s tests               fresh venv: pip install -e .[test] (builds every curve), pytest
    nox -s regen               gen-curve --all --check
    nox -s bench -- --quick    the benchmark suite (bench/run.py), arguments after --
    nox -s cross               arm64 / arm32 / generic32 under qemu against the reference and x86-64
    nox -s lint                ruff
    nox --no-venv -s tests     the same in the current interpreter (nothing installed)
"""

import shutil

import nox
from nox.virtualenv import PassthroughEnv

nox.options.default_venv_backend = "venv"
nox.options.sessions = ["tests", "regen"]
nox.options.reuse_existing_virtualenvs = True

TEST_COMMAND = ("python", "-m", "pytest", "-q", "-p", "no:cacheprovider")


def _install(session: nox.Session, *args: str) -> None:
    """pip install into the session's venv; with --no-venv use what the interpreter has."""
    if isinstance(session.virtualenv, PassthroughEnv):
        session.log(f"--no-venv: not installing {' '.join(args)}")
        return
    session.install(*args)


@nox.session
def tests(session: nox.Session) -> None:
    _install(session, "-e", ".[test]")
    session.run(*TEST_COMMAND, *session.posargs)


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
    session.run(*TEST_COMMAND, "tests/test_cross.py", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    if isinstance(session.virtualenv, PassthroughEnv):
        if shutil.which("ruff") is None:
            session.skip("ruff is not installed")
    else:
        session.install("ruff")
    session.run("ruff", "check", "generator", "bench", "tests", "noxfile.py", "setup.py", *session.posargs)
