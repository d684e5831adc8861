"""The wasm32 target: build a rendered package's C into WebAssembly with zig cc (the ``ziglang``
PyPI package), with no libc and no allocator.

Two products, both build outputs (gitignored, never committed; their sources are the rendered
``c/`` files the regen check covers):

* ``<pkg>/wasm/<pkg>.wasm``: the byte-level ABI of ``c/wasm_abi.c`` (templates/c/wasm_abi.c.j2 for
  a pairing curve, templates/c/edwards_wasm_abi.c.j2 for a twisted Edwards package), built for
  ``wasm32-freestanding``.  No libc is linked and none of its headers is on the include
  path: the few it names (``string.h``, ``stdlib.h``) are shims that map ``memcpy``/``memset`` to
  compiler builtins, lowered to the bulk-memory instructions; any other libc call would be an
  undefined symbol and fail the link.  The module imports nothing and exports its memory, its
  functions and ``__heap_base`` (where a loader may start placing buffers; the module keeps no
  heap of its own).
* ``<pkg>/wasm/<pkg>_host_calls.wasm`` (``host_calls=True``, gen-curve's ``--host-calls``): the same
  ABI built with ``-DPF_HOST_CALLS=1``, where the pairing's Miller loop and final exponentiation,
  MSM and scalar multiplication are imports of the module "pairforge_host" (docs/host-calls.md),
  answered by ``generated.<pkg>.wasm_host``; the module imports those functions and nothing else.
* ``kat-wasm32-<limb bits>.wasm``: the known-answer test program ``c/kat_main.c`` for
  ``wasm32-wasi`` (it reads stdin and prints with wasi-libc), run by tests/wasm/test_wasm.py (and
  tests/wasm/test_wasm_edwards.py for the twisted Edwards packages) under wasmtime beside the native
  build, as generator/cross_build.py does for ARM.

Limb width: 64-bit limbs, measured faster than 32-bit limbs (generic32, where a 32 x 32 -> 64-bit
product is one i64.mul) by bench/wasm.py (docs/targets.md, "WebAssembly"): wasm32 has no 64 x 64 -> 128-bit
product, so limbs.h builds pf_mac from four i64.mul inline (an unsigned __int128 product would be a
call to compiler-rt's __multi3 through memory), and the half as many limbs still win.

Layer: drivers. Imports emit, protocols, derive, the curve files and the leaves; never cli or
generator/reference.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .build import BASE_COMPILE_ARGS

ABI_SOURCE = "c/wasm_abi.c"
KAT_SOURCE = "c/kat_main.c"
DEFAULT_LIMB_BITS = 64
STACK_BYTES = 1 << 20
# generator/build.py's flags less -pthread (one thread) and gcc's -fno-tree-vectorize, whose clang
# spellings follow: no auto-vectorization and no SIMD128 (docs/targets.md, "WebAssembly": no gain measured).
OPT_ARGS = tuple(a for a in BASE_COMPILE_ARGS if a not in ("-pthread", "-fno-tree-vectorize"))
COMMON_ARGS = (*OPT_ARGS, "-fno-vectorize", "-fno-slp-vectorize", "-DPF_MSM_NO_THREADS", "-mbulk-memory",
               "-Wno-bitwise-instead-of-logical")
# The libc headers the portable C names, as shims over compiler builtins (no libc is linked).
SHIM_HEADERS = {
    "string.h": "#pragma once\n#include <stddef.h>\n#define memcpy __builtin_memcpy\n#define memset __builtin_memset\n"
                "#define memmove __builtin_memmove\n#define memcmp __builtin_memcmp\n",
    "stdlib.h": "#pragma once\n#include <stddef.h>\n",
}


class WasmBuildError(RuntimeError):
    """zig cc failed (or is not installed)."""


def zig_command() -> list[str]:
    """``python -m ziglang`` of this interpreter; WasmBuildError when ziglang is not installed."""
    try:
        import ziglang  # noqa: F401
    except ImportError as exc:
        raise WasmBuildError("the wasm32 target needs the ziglang package (pip install ziglang)") from exc
    return [sys.executable, "-m", "ziglang"]


def _run(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise WasmBuildError(f"{' '.join(cmd)} failed:\n{proc.stderr[-4000:]}")


def _shim_dir(root: Path) -> Path:
    shim = root / "wasm-shim"
    shim.mkdir(parents=True, exist_ok=True)
    for name, text in SHIM_HEADERS.items():
        (shim / name).write_text(text)
    return shim


def abi_command(pkg_dir: Path, out: Path, shim: Path, limb_bits: int = DEFAULT_LIMB_BITS,
                host_calls: bool = False) -> list[str]:
    """The zig cc command line that builds the ABI module of a package (with host_calls, the
    host-call build: its heavy operations imported)."""
    c_dir = Path(pkg_dir) / "c"
    return [
        *zig_command(), "cc", "-target", "wasm32-freestanding", *COMMON_ARGS, f"-DPF_LIMB_BITS={limb_bits}",
        f"-DPF_HOST_CALLS={int(host_calls)}",
        "-isystem", str(shim), "-I", str(c_dir),
        "-Wl,--no-entry", "-Wl,--export=__heap_base", f"-Wl,-z,stack-size={STACK_BYTES}", "-s",
        str(c_dir / "wasm_abi.c"), "-o", str(out),
    ]


def wasm_name(pkg_dir: Path, host_calls: bool = False) -> str:
    """The file name of a package's module: ``<pkg>.wasm``, or ``<pkg>_host_calls.wasm``."""
    return f"{Path(pkg_dir).name}{'_host_calls' if host_calls else ''}.wasm"


def build_wasm(pkg_dir: Path, out: Path | None = None, limb_bits: int = DEFAULT_LIMB_BITS,
               host_calls: bool = False) -> Path:
    """Build ``<pkg_dir>/wasm/<pkg>.wasm`` (with host_calls ``<pkg>_host_calls.wasm``; or ``out``)
    from ``c/wasm_abi.c``; returns its path.

    The file is replaced atomically, so a reader never sees half a module."""
    pkg_dir = Path(pkg_dir).resolve()
    if not (pkg_dir / ABI_SOURCE).is_file():
        raise WasmBuildError(f"{pkg_dir / ABI_SOURCE} does not exist (render the package first)")
    out = Path(out) if out is not None else pkg_dir / "wasm" / wasm_name(pkg_dir, host_calls)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pairforge-wasm-") as tmp:
        staged = Path(tmp) / out.name
        _run(abi_command(pkg_dir, staged, _shim_dir(Path(tmp)), limb_bits, host_calls))
        partial = out.with_name(f".{out.name}.pf-tmp-{os.getpid()}")
        shutil.copyfile(staged, partial)
        os.replace(partial, out)
    return out


def build_kat_wasm(pkg_dir: Path, out_dir: Path, limb_bits: int = DEFAULT_LIMB_BITS) -> Path:
    """Build the known-answer test program ``c/kat_main.c`` for wasm32-wasi (a WASI command)."""
    c_dir = Path(pkg_dir) / "c"
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"kat-wasm32-{limb_bits}.wasm"
    _run([*zig_command(), "cc", "-target", "wasm32-wasi", *COMMON_ARGS, f"-DPF_LIMB_BITS={limb_bits}",
          "-I", str(c_dir), "-s", str(c_dir / "kat_main.c"), "-o", str(out)])
    return out


def source_digest(pkg_dir: Path, limb_bits: int = DEFAULT_LIMB_BITS, host_calls: bool = False) -> str:
    """A hash of everything a build of the package's ABI module reads: its C sources, the zig
    command line (flags, limb width) and the ziglang version; a cache key for tests and benches."""
    import importlib.metadata

    c_dir = Path(pkg_dir) / "c"
    h = hashlib.sha256()
    for path in sorted(c_dir.glob("*")):
        if path.is_file():
            h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    h.update(repr((COMMON_ARGS, SHIM_HEADERS, limb_bits, STACK_BYTES) + ((True,) if host_calls else ())).encode())
    try:
        h.update(importlib.metadata.version("ziglang").encode())
    except importlib.metadata.PackageNotFoundError:
        pass
    return h.hexdigest()[:16]
