"""What the C-kernel tests share (tests/emit/test_line_products.py, test_wide_small.py,
test_mac_small.py): the pairing packages, the compiler, the builds this CPU runs, and one harness
compiled against a package's headers with the shipped flags (portable, or with the x86_64-adx
kernels), once per content (tests/build_cache.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from build_cache import compiled
from conftest import GENERATED_DIR, generated_packages, skip_or_fail

from bench.cbench import cpu_flags
from generator import build

CC = shutil.which("gcc") or shutil.which("cc")
# The pairing curves only: the Edwards companion packages have no tower.
PACKAGES = [GENERATED_DIR / name for name in generated_packages()]
ADX = {"adx", "bmi2"} <= cpu_flags()
TARGETS = ["portable"] + (["adx"] if ADX else [])


def compile_harness(harness: Path, pkg: Path, target: str, defines: tuple[str, ...] = ()) -> Path:
    """The executable of ``harness`` built against ``pkg``'s C headers for ``target`` ("portable"
    or "adx"), with 64-bit limbs and warnings as errors; ``defines`` are extra -D flags."""
    if CC is None:
        skip_or_fail("no C compiler")
    cmd = [
        CC,
        *build.compile_args(),
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-DPF_LIMB_BITS=64",
        *(f"-D{d}" for d in defines),
        *((f"-D{build.ADX_DEFINE}", *build.ADX_COMPILE_ARGS) if target == "adx" else ()),
        f"-I{pkg / 'c'}",
        str(harness),
    ]
    return compiled(cmd, inputs=[harness.parent, pkg / "c"], name=harness.stem)


def run_counts(exe: Path) -> dict[str, str]:
    """Run a harness that prints "name count" lines (trials, mismatches per check) and return them;
    the harness must exit 0."""
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return dict(re.findall(r"(\w+) (\d+)", run.stdout))
