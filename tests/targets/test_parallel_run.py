"""The suite under pytest-xdist (the README's `-n auto`): the same tests as a serial run, grouped
by ``xdist_group`` under the default ``loadgroup`` distribution."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import REPO_ROOT

# Cheap files (no C to compile), so that this check stays in the default run.
FILES = ["tests/install/test_cli.py", "tests/project/test_ci_setup.py", "tests/pairings/test_vector_sets.py"]

pytest.importorskip("xdist")


def pytest_run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    return subprocess.run(cmd, cwd=REPO_ROOT, env={**os.environ, **(env or {})}, capture_output=True, text=True)


def collected(*args: str, env: dict[str, str] | None = None) -> list[str]:
    proc = pytest_run("--collect-only", "-q", *args, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return [line for line in proc.stdout.splitlines() if "::" in line]


@pytest.mark.slow  # collects the whole suite in subprocesses (about 8 s)
def test_xdist_runs_what_a_serial_run_collects() -> None:
    """Two workers run every test a serial run collects, each once."""
    env = {"CI": ""}
    serial = collected(*FILES, env=env)
    assert len(serial) > 10
    proc = pytest_run("-n", "2", *FILES, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "created: 2/2 workers" in proc.stdout
    counts = {kind: int(n) for n, kind in re.findall(r"(\d+) (passed|skipped|failed|error)", proc.stdout.splitlines()[-1])}
    assert sum(counts.values()) == len(serial), proc.stdout[-2000:]


@pytest.mark.slow  # collects the whole suite in subprocesses (about 11 s)
def test_every_worker_collects_the_same_suite() -> None:
    """xdist requires every worker to collect the same tests in the same order; workers are
    separate interpreters with their own hash seeds, so collect the whole suite under two seeds."""
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda seed: collected(env={"PYTHONHASHSEED": seed}), ["1", "2"]))
    assert runs[0] and runs[0] == runs[1]


def _run_on_two_workers(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess:
    """Write a test file and run it with this suite's conftest on two xdist workers (verbose);
    it must pass."""
    (tmp_path / name).write_text(text)
    env = {"PYTHONPATH": str(REPO_ROOT / "tests") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "conftest", "-n", "2", "-v", name]
    proc = subprocess.run(cmd, cwd=tmp_path, env={**os.environ, **env}, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    return proc


GROUPED = '''import pytest


@pytest.mark.xdist_group("shared-build")
@pytest.mark.parametrize("i", range(8))
def test_grouped(i):
    pass


@pytest.mark.parametrize("i", range(8))
def test_free(i):
    pass
'''


def test_a_group_runs_on_one_worker(tmp_path: Path) -> None:
    """Without --dist, `-n` runs use loadgroup (conftest.py): every test of an xdist_group goes to
    one worker, so a build its fixture shares is made once."""
    proc = _run_on_two_workers(tmp_path, "test_grouped.py", GROUPED)
    ran = re.findall(r"\[(gw\d)\].* PASSED test_grouped.py::(test_\w+)", proc.stdout)
    assert len(ran) == 16, proc.stdout[-3000:]
    assert len({worker for worker, name in ran if name == "test_grouped"}) == 1


SHARED_FIXTURE = '''import os

import pytest


@pytest.fixture(scope="module", params=["a", "b", "c"])
def value(request):
    return request.param


@pytest.mark.parametrize("i", range(4))
def test_uses_value(value, i):
    print(value, os.environ["PYTEST_XDIST_WORKER"])


@pytest.mark.parametrize("i", range(8))
def test_free(i):
    pass
'''


def test_a_shared_fixture_value_runs_on_one_worker(tmp_path: Path) -> None:
    """The tests that take one value of a parametrized module-scoped fixture form a group
    (conftest.py's _group_shared_fixtures), so one worker sets the value up; the others stay free."""
    proc = _run_on_two_workers(tmp_path, "test_shared.py", SHARED_FIXTURE)
    ran = re.findall(r"\[(gw\d)\].* PASSED test_shared.py::(test_\w+)\[([\w-]+)\](@\S+)?", proc.stdout)
    assert len(ran) == 20, proc.stdout[-3000:]
    for value in "abc":
        runs = [(worker, group) for worker, name, ids, group in ran if name == "test_uses_value" and value in ids.split("-")]
        assert len(runs) == 4 and len({worker for worker, _ in runs}) == 1, proc.stdout[-3000:]
        assert {group for _, group in runs} == {f"@test_shared.py:value={'abc'.index(value)}"}
    assert all(not group for _, name, _, group in ran if name == "test_free")
