"""The test setup a new user meets: the README's test command installs through constraints.txt,
every test dependency is pinned there, and every nox session the README names exists and runs
in .ci/run (so a broken session fails CI)."""

from __future__ import annotations

import ast
import re
import tomllib

from conftest import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
CI_RUN = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
# Not run by CI on purpose: it tests against whatever the package index serves on the day.
NOT_IN_CI = {"latest"}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def readme_test_command() -> str:
    """The first line of the code block under '## Run the tests' (what .ci/run runs)."""
    section = README.split("\n## Run the tests", 1)[1]
    block = section.split("```sh\n", 1)[1]
    return block.splitlines()[0]


def test_the_readme_command_installs_through_the_constraints() -> None:
    command = readme_test_command()
    assert "pip install -c constraints.txt -e '.[test,distributed]'" in command
    assert "python -m pytest" in command and "-n auto" in command


def test_every_test_dependency_is_pinned() -> None:
    """Each package of the test, distributed and docs extras (and what dask's extra pulls in), and
    CI's own tools, has one exact version in constraints.txt."""
    pins = {}
    for line in (REPO_ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep and version, f"constraints.txt: {line!r} is not an exact pin"
            assert _canonical(name) not in pins, f"constraints.txt pins {name} twice"
            pins[_canonical(name)] = version
    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    wanted = {"nox", "ruff", "atheris", "matplotlib", "distributed", "dask"}
    for requirement in extras["test"] + extras["distributed"] + extras["docs"]:
        wanted.add(re.match(r"[A-Za-z0-9_.\-]+", requirement).group(0))
    missing = sorted(n for n in wanted if _canonical(n) not in pins)
    assert not missing, f"not pinned in constraints.txt: {missing}"
    # dask's distributed extra pairs the two releases; a mismatched pair does not import
    assert pins["dask"] == pins["distributed"]
    # the isolated build of `pip install` and `python -m build` takes the pinned Cython too
    build_requires = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    assert f"Cython=={pins['cython']}" in build_requires, build_requires


def _nox_sessions() -> set[str]:
    tree = ast.parse((REPO_ROOT / "noxfile.py").read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if isinstance(target, ast.Attribute) and target.attr == "session":
                    names.add(node.name)
    return names


def test_every_documented_nox_session_exists_and_runs_in_ci() -> None:
    sessions = _nox_sessions()
    named = set()  # `nox -s NAME [NAME ...]`: the first word always, the next ones while they are sessions
    for match in re.finditer(r"nox (?:--no-venv )?-s (\w+)((?: \w+)*)", README):
        named.add(match.group(1))
        for word in match.group(2).split():
            if word not in sessions:
                break
            named.add(word)
    assert {"tests", "regen", "cross", "wasm", "fuzz", "sanitize", "constant_time", "leaks", "bench"} <= named
    assert named <= sessions, f"the README names nox sessions that noxfile.py lacks: {sorted(named - sessions)}"
    in_ci = set(re.findall(r"^nox_session (\w+)", CI_RUN, flags=re.M))
    assert sessions - NOT_IN_CI <= in_ci, f"nox sessions .ci/run does not run: {sorted(sessions - NOT_IN_CI - in_ci)}"


def test_ci_makes_a_fresh_venv_and_runs_the_readme_command() -> None:
    assert 'rm -rf .ci-venv\n"$PYTHON" -m venv .ci-venv' in CI_RUN
    assert 'bash -c "$readme_command"' in CI_RUN
