"""Cross-build the known-answer test program of a package (``c/kat_main.c``) for a code target:
``gen-curve NAME --target arm64`` (or ``arm32``) writes it to ``<pkg>/build/kat-<target>``, and the
cross-target tests build it for every target here, run it (under qemu for ARM) and compare its
answers with generator.reference's (tests/cross_kat.py).

The targets (docs/targets.md, "Curves and targets"): ``native`` (the host compiler, 64-bit limbs, portable C), ``arm64``
(MUL/UMULH kernels), ``arm32`` (UMAAL kernels, 32-bit limbs) and ``generic32`` (32-bit limbs,
portable C, ARMv7-A). The ARM programs are static, so qemu-user needs no sysroot. Imports only
generator/build.py (the compile flags).

Layer: drivers.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from .build import BASE_COMPILE_ARGS

KAT_SOURCE = "c/kat_main.c"


@dataclass(frozen=True)
class CrossTarget:
    """How to build and run the test program for one target."""

    name: str
    compiler: str
    flags: tuple[str, ...]
    runner: tuple[str, ...]  # empty: run natively
    limb_bits: int
    objdump: Optional[str] = None
    kernel_instruction: Optional[str] = None  # must appear in the multiplication kernels

    def missing_tools(self) -> list[str]:
        """Executables this target needs that are not on PATH."""
        tools = [self.compiler, *self.runner[:1], *([self.objdump] if self.objdump else [])]
        return [tool for tool in tools if shutil.which(tool) is None]


_ARMV7 = ("-static", "-march=armv7-a+fp", "-DPF_LIMB_BITS=32")
TARGETS: dict[str, CrossTarget] = {
    "native": CrossTarget("native", "gcc", (), (), 64),
    "arm64": CrossTarget(
        "arm64", "aarch64-linux-gnu-gcc", ("-static", "-DPF_TARGET_ARM64"), ("qemu-aarch64",), 64,
        "aarch64-linux-gnu-objdump", "umulh",
    ),
    "arm32": CrossTarget(
        "arm32", "arm-linux-gnueabihf-gcc", (*_ARMV7, "-DPF_TARGET_ARM32"), ("qemu-arm",), 32,
        "arm-linux-gnueabihf-objdump", "umaal",
    ),
    "generic32": CrossTarget("generic32", "arm-linux-gnueabihf-gcc", _ARMV7, ("qemu-arm",), 32),
}


class CrossError(RuntimeError):
    """A build or a run of the test program failed."""


# --------------------------------------------------------------------------------------------
# Building and running


def build_kat(pkg_dir: Path, target: str, out_dir: Path, extra_flags: tuple[str, ...] = ()) -> Path:
    """Compile ``<pkg_dir>/c/kat_main.c`` for ``target`` into ``out_dir/kat-<target>``, with the
    optimisation flags of generator/build.py, then ``extra_flags`` (a later -O wins)."""
    spec = TARGETS[target]
    missing = spec.missing_tools()
    if missing:
        raise CrossError(f"target {target} needs {', '.join(missing)} (apt-get install "
                         "gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf qemu-user binutils-multiarch)")
    c_dir = Path(pkg_dir) / "c"
    out_dir.mkdir(parents=True, exist_ok=True)
    binary = out_dir / f"kat-{target}"
    cmd = [spec.compiler, *BASE_COMPILE_ARGS, *extra_flags, "-Wall", *spec.flags, "-I", str(c_dir),
           str(c_dir / "kat_main.c"), "-o", str(binary)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CrossError(f"{' '.join(cmd)} failed:\n{proc.stderr[-4000:]}")
    return binary
