"""Compile a rendered curve package (``generated/<pkg>/``) into an importable extension module.

A rendered package holds ``_core.pyx``, which calls the header-only C of ``c/pairforge.h`` through
``c/api.h``: ``c/api.c`` and the ``c/api_<unit>.c`` files (generator/emit/api.py) compile that C
at ``-O3``, each in a unit of its own, the Cython wrapper at ``-O1`` (``WRAPPER_OPT_ARGS``), and
all link into one module.
``build_package`` cythonizes and compiles it into ``<pkg_dir>/_core<EXT_SUFFIX>``, so that
``generated.<pkg>._core`` (or ``<pkg>._core`` for a standalone ``--out`` directory) imports.
On x86-64 hosts ``_core_adx.pyx`` (the same source) compiles with the x86_64-adx field kernels
into ``_core_adx<EXT_SUFFIX>``; the package's ``_target`` picks one at import time. By default
(``host_modules``) only the module this CPU loads is compiled: on a CPU with BMI2 and ADX
``_core_adx`` alone, and the package compiles ``_core`` on first use if it is ever wanted
(``PAIRFORGE_TARGET=generic64``); ``PAIRFORGE_BUILD_TARGETS=all`` compiles both.

The compilation runs in a child Python process (setuptools' distutils keeps global state and
prints straight to the file descriptors), in a temporary build directory; the finished module
is then moved into the package atomically, so a process that has the old module loaded is not
disturbed.

Builds are incremental: beside each module a stamp file (``<module file>.stamp``) records the
build key, a hash of everything the module is made from (the ``.pyx``, every header under
``c/``, the flags, the limb width, the compiler and Cython versions, the interpreter's ABI) and
the hash of the module it produced. A module whose stamp matches is not compiled again, so a
second ``pip install -e .`` or a ``gen-curve`` that changed nothing compiles nothing.

``setup.py`` loads this file by path (it must not import the rest of ``generator``), so this
module imports only the standard library at module level; setuptools and Cython are imported
where they are used.

Layer: leaf.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path, PurePosixPath

LIMB_BITS = (64, 32)
EXTENSION_STEM = "_core"
# The x86_64-adx build of the same module: MULX/ADCX/ADOX field kernels (c/asm_x86_64_adx.h).
ADX_STEM = "_core_adx"
ADX_DEFINE = "PF_TARGET_X86_64_ADX"
ADX_COMPILE_ARGS = ("-mbmi2", "-madx")
# Portable: no -march. Later flags win over the interpreter's CFLAGS (which carry -O2).
# -fno-tree-vectorize: gcc 12 vectorises the short limb loops of the field arithmetic into SSE
# shuffles that cost more than they save; without it the BLS12-381 pairing takes 1.4x longer
# (1.62 ms against 1.14 ms on the CI machine, measured with the C-level timing harness).
BASE_COMPILE_ARGS = ("-O3", "-fno-tree-vectorize", "-Wno-unused-function", "-pthread")
# The interpreter's CFLAGS carry -g: debug information for the ~5 MB translation unit of a curve
# module cost a quarter of gcc's time (bn254's portable module: 88 s of CPU with -g, 68 s without,
# gcc 12) and changes no machine code, so the modules are built without it. A later -g
# (PAIRFORGE_CFLAGS, e.g. the sanitizer builds) wins.
NO_DEBUG_ARGS = ("-g0",)
# A rendered package compiles in two kinds of translation units (generator/emit/api.py): c/api.c
# and c/api_<unit>.c, every function the Cython wrapper calls with the static arithmetic inlined
# into it, at the shipped BASE_COMPILE_ARGS; and the Cython wrapper (about 4.6 MB of C that only
# converts Python objects and calls c/api.c), at WRAPPER_OPT_ARGS: no arithmetic loop runs in it, and it is most of the
# compiler's work (bn254's x86_64-adx wrapper, gcc 12: 34.5 CPU s at -O2, 17.6 at -O1, 9.0 at -O0;
# c/api.c 7.3 at -O3); at -O0 a small call from Python (Fp a * b) took about 1.6x as long.
# A package without c/api.c (an older rendering, a test's mock) compiles as one unit.
API_SOURCE = "c/api.c"
# The entry points the wrapper tags compile in units of their own, c/api_<unit>.c beside c/api.c,
# each at the same flags (gcc's inlining budget is per unit: generator/emit/api.py). gen-curve removes the
# files a rendering no longer has, so the files present are the package's units.
API_UNIT_GLOB = "c/api_*.c"
WRAPPER_OPT_ARGS = ("-O1", "-Wno-unused-function", "-pthread")
THREAD_ARGS = ("-pthread",)
CYTHON_DIRECTIVES = {"language_level": "3"}
# Extra compiler flags for every build (e.g. sanitizers): PAIRFORGE_CFLAGS="-fsanitize=address".
CFLAGS_ENV = "PAIRFORGE_CFLAGS"
# Extra flags for the Cython wrapper alone, after PAIRFORGE_CFLAGS (where c/api.c is a unit of its
# own): the test-only curves of tests/build_cache.py compile their wrapper at -O0.
WRAPPER_CFLAGS_ENV = "PAIRFORGE_WRAPPER_CFLAGS"
# Limb width for `pip install -e .` / `setup.py build_ext`: PAIRFORGE_LIMB_BITS=32 forces generic32.
LIMB_BITS_ENV = "PAIRFORGE_LIMB_BITS"

# Limit `pip install -e .` / `setup.py build_ext` to some packages: PAIRFORGE_CURVES=bls12_381,bn254.
# Unset, it selects every package but the opt-in ones; ALL_CURVES selects every package.
CURVES_ENV = "PAIRFORGE_CURVES"
ALL_CURVES = "all"
# The file a rendered package carries when its curve file says install = "opt-in".
OPT_IN_FILE = "opt-in.txt"
# Which modules of each package an install or gen-curve compiles on x86-64 (see host_modules):
# "host" (default) the one this CPU loads, "all" the portable and the x86_64-adx module.
BUILD_TARGETS_ENV = "PAIRFORGE_BUILD_TARGETS"
BUILD_TARGETS = ("host", "all")
# The variable the packages read to force a code target, and the name of the x86_64-adx one.
TARGET_ENV = "PAIRFORGE_TARGET"
ADX_TARGET = "x86_64-adx"
# The stamp beside a compiled module: <module file name> + STAMP_SUFFIX (see ``build_key``).
STAMP_SUFFIX = ".stamp"
# Bump when the way a module is built changes in a way the build key does not see.
BUILD_KEY_VERSION = 2  # 2: c/api.c compiled apart from the wrapper

_ARTEFACT_SUFFIXES = (".so", ".pyd", ".dll", ".dylib", ".o", ".obj", ".pyc", ".pyo", STAMP_SUFFIX, ".wasm")
_ARTEFACT_DIRS = ("__pycache__", "build", ".pytest_cache", ".hypothesis")
_TAIL_LINES = 30


class BuildError(RuntimeError):
    """A build failed. ``summary`` is one line; ``log_tail`` holds the compiler's last lines."""

    def __init__(self, summary: str, log_tail: str = "", log_path: Path | None = None):
        self.summary = summary
        self.log_tail = log_tail
        self.log_path = log_path
        text = summary if not log_tail else f"{summary}\n{log_tail}"
        super().__init__(text)


# --------------------------------------------------------------------------------------------
# Names and paths


def extension_suffix() -> str:
    """The file suffix of an extension module for this interpreter (e.g. ``.cpython-311-x86_64-linux-gnu.so``)."""
    return sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def module_name(pkg_dir: Path, stem: str = EXTENSION_STEM) -> tuple[Path, str]:
    """``(root, dotted name of the extension)`` for a package directory.

    Parent directories that hold an ``__init__.py`` are parent packages: ``generated/bls12_381``
    gives ``generated.bls12_381._core`` with the repository as root; a standalone ``DIR/mycurve``
    (DIR without ``__init__.py``) gives ``mycurve._core`` with DIR as root.
    """
    pkg_dir = Path(pkg_dir).resolve()
    parts = [pkg_dir.name]
    parent = pkg_dir.parent
    while (parent / "__init__.py").is_file() and parent != parent.parent:
        parts.insert(0, parent.name)
        parent = parent.parent
    for part in parts:
        if not part.isidentifier():
            raise BuildError(f"{pkg_dir}: {part!r} is not a valid Python package name")
    return parent, ".".join([*parts, stem])


def is_build_artefact(relpath: str | PurePosixPath) -> bool:
    """Whether a path inside a package directory is a build product rather than a rendered file.

    Build products are never compared by the regen check and never removed as stale: compiled
    modules and objects, caches, and the C file Cython writes beside a ``.pyx`` when someone
    cythonizes in place (``_core.c``; rendered C lives in ``c/``).
    """
    path = PurePosixPath(relpath)
    if any(part in _ARTEFACT_DIRS or part.endswith(".egg-info") for part in path.parts):
        return True
    if path.suffix in _ARTEFACT_SUFFIXES:
        return True
    if ".pf-tmp-" in path.name:  # an interrupted atomic write
        return True
    return len(path.parts) == 1 and path.stem in (EXTENSION_STEM, ADX_STEM) and path.suffix in (".c", ".cpp", ".html")


def discover_packages(generated_dir: Path) -> list[Path]:
    """Rendered packages under ``generated_dir``: sub-directories holding ``_core.pyx``, sorted."""
    generated_dir = Path(generated_dir)
    if not generated_dir.is_dir():
        return []
    return sorted(p.parent for p in generated_dir.glob(f"*/{EXTENSION_STEM}.pyx"))


def is_opt_in(pkg_dir: Path) -> bool:
    """Whether a rendered package is built only when named (its curve file's install = "opt-in")."""
    return (Path(pkg_dir) / OPT_IN_FILE).is_file()


def select_packages(packages: list[Path], names: str | None = None) -> list[Path]:
    """The packages named in ``names`` (default: the ``PAIRFORGE_CURVES`` variable), in order.

    Names are package names (``bls12_381``) or curve names (``bls12-381``), comma separated; an
    empty or unset value selects every package but the opt-in ones (``is_opt_in``), ``all`` every
    package. An unknown name is an error naming the known ones.
    """
    value = os.environ.get(CURVES_ENV, "") if names is None else names
    wanted = [n.strip().lower().replace("-", "_") for n in value.split(",") if n.strip()]
    if not wanted:
        return [p for p in packages if not is_opt_in(p)]
    if wanted == [ALL_CURVES]:
        return list(packages)
    known = {p.name: p for p in packages}
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise BuildError(
            f"{CURVES_ENV}={value!r}: no package {', '.join(unknown)} in generated/ "
            f"(available: {', '.join(sorted(known)) or 'none'}, or {ALL_CURVES!r})"
        )
    return [known[n] for n in dict.fromkeys(wanted)]


def installed_packages(generated_dir: Path, names: str | None = None) -> list[Path]:
    """The rendered packages under ``generated_dir`` that an install builds: select_packages of
    discover_packages (PAIRFORGE_CURVES's, or every one but the opt-in ones)."""
    return select_packages(discover_packages(generated_dir), names)


def limb_bits_from_env(default: int = 64) -> int:
    value = os.environ.get(LIMB_BITS_ENV, "").strip()
    if not value:
        return default
    if value not in {str(b) for b in LIMB_BITS}:
        raise BuildError(f"{LIMB_BITS_ENV}={value!r}: expected 64 or 32")
    return int(value)


# The assembly kernels a native build on an ARM host compiles into the portable module, chosen by
# the host (platform.machine) and the limb width: AArch64 with 64-bit limbs, ARMv7 with 32-bit.
NATIVE_ARM_TARGETS = (("PF_TARGET_ARM64", ("aarch64", "arm64"), 64), ("PF_TARGET_ARM32", ("armv7l", "armv7", "armv8l"), 32))


def native_target_macros(limb_bits: int = 64) -> list[tuple[str, str]]:
    """The target macro of the portable module on this host: an ARM host gets its kernels
    (c/asm_arm64.h, c/asm_arm32.h) without a flag; elsewhere none (the C kernels)."""
    machine = platform.machine().lower()
    return [(macro, "1") for macro, machines, bits in NATIVE_ARM_TARGETS if machine in machines and limb_bits == bits]


def builds_adx(limb_bits: int = 64) -> bool:
    """Whether builds on this host include the x86_64-adx module: x86-64 and 64-bit limbs.

    Only building needs this; the package imports the module only on CPUs with BMI2 and ADX.
    """
    return limb_bits == 64 and platform.machine().lower() in ("x86_64", "amd64")


def cpu_runs_adx() -> bool | None:
    """Whether this CPU has BMI2 and ADX (runs the x86_64-adx module), as the operating system
    reports it; None where it cannot tell. The same reading as the rendered packages' ``_target``
    (which must choose a module without loading one); tests check both against CPUID."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/cpuinfo", encoding="ascii", errors="replace") as cpuinfo:
                for line in cpuinfo:
                    if line.startswith("flags"):
                        flags = line.partition(":")[2].split()
                        return "bmi2" in flags and "adx" in flags
        except OSError:
            return None
        return None
    if sys.platform == "darwin":
        try:
            out = subprocess.run(["sysctl", "-n", "machdep.cpu.leaf7_features"], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return None
        features = out.stdout.upper().split()
        return ("BMI2" in features and "ADX" in features) if out.returncode == 0 and features else None
    return None


def build_targets_from_env() -> str:
    """``PAIRFORGE_BUILD_TARGETS``: ``host`` (default) or ``all`` (see ``host_modules``)."""
    value = os.environ.get(BUILD_TARGETS_ENV, "").strip().lower() or "host"
    if value not in BUILD_TARGETS:
        raise BuildError(f"{BUILD_TARGETS_ENV}={value!r}: expected {' or '.join(BUILD_TARGETS)}")
    return value


def host_modules(limb_bits: int = 64) -> tuple[bool, ...]:
    """The modules an install or ``gen-curve`` compiles, as ``adx`` flags (False: ``_core``).

    Where ``builds_adx``: with ``PAIRFORGE_BUILD_TARGETS=all`` both; else the one this CPU loads
    (``_core_adx`` on a CPU with BMI2 and ADX, ``_core`` without), plus the one that
    ``PAIRFORGE_TARGET`` asks for, and both where the CPU's features are unknown. The package
    compiles a missing ``_core`` on first use (its ``_target`` module). Elsewhere ``_core`` only.
    """
    if not builds_adx(limb_bits):
        return (False,)
    if build_targets_from_env() == "all":
        return (False, True)
    cpu = cpu_runs_adx()
    if cpu is None:
        return (False, True)
    wanted = {cpu}
    forced = os.environ.get(TARGET_ENV, "").strip()
    if forced == ADX_TARGET:
        wanted.add(True)
    elif forced in ("generic64", "generic32"):
        wanted.add(False)
    return tuple(sorted(wanted))


def package_modules(pkg_dir: Path, limb_bits: int = 64, adx: bool | None = None) -> tuple[bool, ...]:
    """The modules of one package to compile, as ``adx`` flags: ``adx=None`` those of
    ``host_modules``, True both (where ``builds_adx``), False ``_core`` alone. A package without
    ``_core_adx.pyx`` has ``_core`` alone."""
    has_adx = builds_adx(limb_bits) and (Path(pkg_dir) / f"{ADX_STEM}.pyx").is_file()
    if adx is None:
        modules = tuple(m for m in host_modules(limb_bits) if not m or has_adx)
        return modules or (False,)
    return (False, True) if adx and has_adx else (False,)


def prune_unbuilt(pkg_dir: Path, limb_bits: int, modules: tuple[bool, ...]) -> list[Path]:
    """Remove what must not outlive a build of ``modules``: a ``_core_adx`` that is not among
    them (the package would pick it over the build asked for), and a ``_core`` that is not among
    them and not up to date (the package would load stale code instead of compiling it on first
    use). An up-to-date ``_core`` stays. Returns the removed modules."""
    removed = []
    for adx in (False, True):
        target = module_target(pkg_dir, adx)
        if adx in modules or not target.exists():
            continue
        if not adx and is_up_to_date(pkg_dir, limb_bits, False):
            continue
        target.unlink(missing_ok=True)
        stamp_path(target).unlink(missing_ok=True)
        removed.append(target)
    return removed


def compile_args() -> list[str]:
    """The flags of the arithmetic (c/api.c, or the whole module where it is one unit)."""
    return [*BASE_COMPILE_ARGS, *NO_DEBUG_ARGS, *shlex.split(os.environ.get(CFLAGS_ENV, ""))]


def wrapper_compile_args() -> list[str]:
    """The flags of the Cython wrapper where the package has c/api.c: ``PAIRFORGE_CFLAGS`` (a
    sanitizer or a test's -O level applies to both units), then ``PAIRFORGE_WRAPPER_CFLAGS``."""
    extra = [*shlex.split(os.environ.get(CFLAGS_ENV, "")), *shlex.split(os.environ.get(WRAPPER_CFLAGS_ENV, ""))]
    return [*WRAPPER_OPT_ARGS, *NO_DEBUG_ARGS, *extra]


def has_api_unit(pkg_dir: Path) -> bool:
    """Whether the package compiles its arithmetic apart from the wrapper (it has c/api.c)."""
    return (Path(pkg_dir) / API_SOURCE).is_file()


def api_sources(pkg_dir: Path) -> list[Path]:
    """The api units of a package: c/api.c, then its c/api_<unit>.c files in name order."""
    pkg_dir = Path(pkg_dir)
    return [pkg_dir / API_SOURCE, *sorted(pkg_dir.glob(API_UNIT_GLOB))]


def api_compile_args(pkg_dir: Path, adx: bool = False) -> list[str] | None:
    """The flags of c/api.c (the target's too), or None for a package compiled as one unit."""
    if not has_api_unit(pkg_dir):
        return None
    return compile_args() + (list(ADX_COMPILE_ARGS) if adx else [])


def extension_options(pkg_dir: Path, limb_bits: int = 64, relative_to: Path | None = None, adx: bool = False) -> dict:
    """Keyword arguments for ``setuptools.Extension`` (shared by ``setup.py`` and ``build_package``).

    With ``relative_to``, paths are made relative to it (setup.py wants relative paths).
    ``adx`` gives the x86_64-adx module (``_core_adx.pyx``, 64-bit limbs only).
    """
    if limb_bits not in LIMB_BITS:
        raise BuildError(f"limb_bits must be 64 or 32, not {limb_bits!r}")
    if adx and limb_bits != 64:
        raise BuildError("the x86_64-adx module needs 64-bit limbs")
    pkg_dir = Path(pkg_dir).resolve()
    c_dir = pkg_dir / "c"
    depends = sorted(p for p in c_dir.rglob("*") if p.is_file()) if c_dir.is_dir() else []

    def rel(path: Path) -> str:
        return os.path.relpath(path, relative_to) if relative_to is not None else str(path)

    stem = ADX_STEM if adx else EXTENSION_STEM
    pyx = [pkg_dir / f"{stem}.pyx"] + ([pkg_dir / f"{EXTENSION_STEM}.pyx"] if adx else [])
    return {
        "sources": [rel(pkg_dir / f"{stem}.pyx")],
        "include_dirs": [rel(pkg_dir), rel(c_dir)],
        "depends": [rel(p) for p in depends + pyx[1:]],
        "define_macros": [("PF_LIMB_BITS", str(limb_bits))] + ([(ADX_DEFINE, "1")] if adx else native_target_macros(limb_bits)),
        # the wrapper's flags where c/api.c holds the arithmetic (api_compile_args), else all of it
        "extra_compile_args": (wrapper_compile_args() if has_api_unit(pkg_dir) else compile_args())
        + (list(ADX_COMPILE_ARGS) if adx else []),
        # the multi-scalar multiplication (c/msm.h) splits its windows across POSIX threads
        "extra_link_args": list(THREAD_ARGS),
    }


def make_extension(pkg_dir: Path, limb_bits: int = 64, relative_to: Path | None = None, adx: bool = False):
    """A ``setuptools.Extension`` for one rendered package (not yet cythonized)."""
    from setuptools import Extension

    _, name = module_name(pkg_dir, ADX_STEM if adx else EXTENSION_STEM)
    return Extension(name, **extension_options(pkg_dir, limb_bits, relative_to, adx))


# --------------------------------------------------------------------------------------------
# Build keys: what a compiled module is made from


def module_target(pkg_dir: Path, adx: bool = False) -> Path:
    """The compiled module's path: ``<pkg_dir>/_core<EXT_SUFFIX>`` (``_core_adx`` with ``adx``)."""
    return Path(pkg_dir).resolve() / f"{ADX_STEM if adx else EXTENSION_STEM}{extension_suffix()}"


def stamp_path(target: Path) -> Path:
    return Path(target).with_name(Path(target).name + STAMP_SUFFIX)


def _source_files(pkg_dir: Path) -> list[Path]:
    """Every rendered file a module of the package can be compiled from: the Cython sources and
    everything under ``c/`` (headers, the assembly kernels)."""
    cython = [p for p in pkg_dir.iterdir() if p.is_file() and p.suffix in (".pyx", ".pxd", ".pxi")]
    c_dir = pkg_dir / "c"
    c_files = [p for p in c_dir.rglob("*") if p.is_file()] if c_dir.is_dir() else []
    return sorted(cython + c_files)


@functools.lru_cache(maxsize=None)
def _first_line_of(command: tuple[str, ...]) -> str:
    try:
        out = subprocess.run(list(command), capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.splitlines()[0] if out else ""


def _toolchain() -> list[tuple[str, str]]:
    """What else decides the bytes of a module: the compiler (and its version), the flags the
    interpreter and the environment add, Cython's version and the interpreter's ABI."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    try:
        from importlib.metadata import version as dist_version

        cython = dist_version("Cython")
    except Exception:  # noqa: BLE001 - no Cython: the build fails later with its own message
        cython = "none"
    items = {
        "cc": cc,
        "cc --version": _first_line_of((*shlex.split(cc), "--version")),
        "cython": cython,
        "ext_suffix": extension_suffix(),
        "machine": platform.machine(),
        "python cflags": sysconfig.get_config_var("CFLAGS") or "",
    }
    for name in ("CFLAGS", "CPPFLAGS", "LDFLAGS", "LDSHARED"):
        items[f"env {name}"] = os.environ.get(name, "")
    return sorted(items.items())


def build_key(pkg_dir: Path, limb_bits: int = 64, adx: bool = False) -> str:
    """A sha256 of everything one compiled module is made from: the module's name, the rendered
    sources (file names and bytes), the extension's macros and flags (``PAIRFORGE_CFLAGS``
    included), the limb width and target, and ``_toolchain()``. Equal keys give the same module."""
    pkg_dir = Path(pkg_dir).resolve()
    options = extension_options(pkg_dir, limb_bits, adx=adx)
    digest = hashlib.sha256()

    def add(label: str, value: str | bytes) -> None:
        data = value if isinstance(value, bytes) else value.encode()
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)

    add("version", str(BUILD_KEY_VERSION))
    add("module", module_name(pkg_dir, ADX_STEM if adx else EXTENSION_STEM)[1])
    add("limb_bits", str(limb_bits))
    add("adx", str(adx))
    for key in ("define_macros", "extra_compile_args", "extra_link_args"):
        add(key, json.dumps(options[key]))
    add("api_compile_args", json.dumps(api_compile_args(pkg_dir, adx)))
    for name, value in _toolchain():
        add(name, value)
    for path in _source_files(pkg_dir):
        add(f"file {path.relative_to(pkg_dir).as_posix()}", path.read_bytes())
    return digest.hexdigest()


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def is_up_to_date(pkg_dir: Path, limb_bits: int = 64, adx: bool = False, key: str | None = None) -> bool:
    """Whether the module exists and its stamp holds this build key and the module's own hash
    (a module copied over, or built with other flags, is not up to date)."""
    target = module_target(pkg_dir, adx)
    try:
        stamp = json.loads(stamp_path(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(stamp, dict) or not target.is_file():
        return False
    key = key or build_key(pkg_dir, limb_bits, adx)
    return stamp.get("key") == key and stamp.get("module_sha256") == _file_sha256(target)


def _write_stamp(target: Path, key: str, limb_bits: int, adx: bool, cost: dict[str, float]) -> None:
    stamp = {
        **cost,  # what the build took: seconds (wall clock) and cpu_seconds (Cython and the compiler)
        "key": key,
        "module_sha256": _file_sha256(target),
        "limb_bits": limb_bits,
        "target": "x86_64-adx" if adx else f"generic{limb_bits}",
        "compile_args": compile_args() + (list(ADX_COMPILE_ARGS) if adx else []),
    }
    if has_api_unit(target.parent):  # compile_args: c/api.c's flags; the wrapper's here
        stamp["wrapper_compile_args"] = wrapper_compile_args() + (list(ADX_COMPILE_ARGS) if adx else [])
    path = stamp_path(target)
    staging = path.with_name(f".{path.name}.pf-tmp-{os.getpid()}-{threading.get_ident()}")
    staging.write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
    os.replace(staging, path)


def package_up_to_date(pkg_dir: Path, limb_bits: int = 64, adx: bool | None = None) -> bool:
    """Whether ``build_package`` with these arguments would compile nothing."""
    pkg_dir = Path(pkg_dir).resolve()
    return all(is_up_to_date(pkg_dir, limb_bits, m) for m in package_modules(pkg_dir, limb_bits, adx))


# --------------------------------------------------------------------------------------------
# Building


def build_package(
    pkg_dir: Path,
    limb_bits: int = 64,
    verbose: bool = False,
    *,
    progress: Callable[[str], None] | None = None,
    adx: bool | None = None,
    force: bool = False,
) -> Path:
    """Compile the modules of a rendered package; returns the path of ``_core_adx`` where it is
    among them, else of ``_core``.

    ``limb_bits`` is 64 (generic64) or 32 (generic32): it becomes ``-DPF_LIMB_BITS``.
    ``adx`` chooses the modules (``package_modules``): None those of ``host_modules`` (on a CPU
    with BMI2 and ADX ``_core_adx.pyx`` alone, compiled into ``_core_adx<EXT_SUFFIX>``; the
    package compiles ``_core`` on first use when it is wanted), True ``_core`` and ``_core_adx``,
    False ``_core`` alone (as the sanitizer's quick run in CI builds it). Modules not compiled
    are pruned (``prune_unbuilt``), so the package cannot pick a module of another build.
    A module whose stamp matches its build key is left as it is (``force`` compiles it anyway).
    Unless ``verbose``, nothing but one progress line is shown (through ``progress`` when given,
    else on stderr); with ``verbose`` the output of Cython and the compiler is shown as it comes.
    Raises ``BuildError`` with the compiler's last lines on failure.
    """
    pkg_dir = Path(pkg_dir).resolve()
    pyx = pkg_dir / f"{EXTENSION_STEM}.pyx"
    if not pyx.is_file():
        raise BuildError(f"{pyx} does not exist (render the package first)")
    if limb_bits not in LIMB_BITS:
        raise BuildError(f"limb_bits must be 64 or 32, not {limb_bits!r}")
    modules = package_modules(pkg_dir, limb_bits, adx)
    for module in modules:
        target, _ = build_module(pkg_dir, limb_bits, module, verbose, progress=progress, force=force)
    prune_unbuilt(pkg_dir, limb_bits, modules)
    return target


def build_module(
    pkg_dir: Path,
    limb_bits: int = 64,
    adx: bool = False,
    verbose: bool = False,
    *,
    progress: Callable[[str], None] | None = None,
    force: bool = False,
) -> tuple[Path, bool]:
    """Compile one module of the package (``_core``, or ``_core_adx`` with ``adx``) unless its
    stamp says it is up to date; returns ``(module path, whether it was compiled)``."""
    pkg_dir = Path(pkg_dir).resolve()
    key = build_key(pkg_dir, limb_bits, adx)
    target = module_target(pkg_dir, adx)
    if not force and is_up_to_date(pkg_dir, limb_bits, adx, key):
        line = f"{module_name(pkg_dir, ADX_STEM if adx else EXTENSION_STEM)[1]} is up to date"
        if progress is not None:
            progress(line)
        elif verbose:
            print(line, flush=True)
        return target, False
    stamp_path(target).unlink(missing_ok=True)  # the module is about to change
    _, cost = _build_one(pkg_dir, limb_bits, adx, verbose, progress)
    _write_stamp(target, key, limb_bits, adx, cost)
    return target, True


def _build_one(
    pkg_dir: Path, limb_bits: int, adx: bool, verbose: bool, progress: Callable[[str], None] | None
) -> tuple[Path, dict[str, float]]:
    """Compile one extension module of the package (``_core``, or ``_core_adx`` with ``adx``);
    returns its path and what it cost (wall-clock and CPU seconds, for the stamp)."""
    stem = ADX_STEM if adx else EXTENSION_STEM
    root, dotted = module_name(pkg_dir, stem)
    target = pkg_dir / f"{stem}{extension_suffix()}"

    line = f"compiling {dotted} ({'x86_64-adx' if adx else f'{limb_bits}-bit limbs'})"
    if progress is not None:
        progress(line)
    elif not verbose:
        print(f"{line} ...", end="", file=sys.stderr, flush=True)

    start = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix=f"pairforge-build-{pkg_dir.name}-"))
    ok = False
    try:
        request = {
            "name": dotted,
            "pkg_dir": str(pkg_dir),
            "root": str(root),
            "limb_bits": limb_bits,
            "adx": adx,
            "workdir": str(workdir),
            "verbose": verbose,
        }
        loader = (
            "import importlib.util, sys; "
            "s = importlib.util.spec_from_file_location('_pairforge_build', sys.argv[1]); "
            "m = importlib.util.module_from_spec(s); s.loader.exec_module(m); "
            "sys.exit(m._worker(sys.argv[2]))"
        )
        cmd = [sys.executable, "-c", loader, str(Path(__file__).resolve()), json.dumps(request)]
        tail: deque[str] = deque(maxlen=400)
        log_path = workdir / "build.log"
        with open(log_path, "w", encoding="utf-8") as log:
            proc = subprocess.Popen(
                cmd,
                cwd=workdir,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
            assert proc.stdout is not None
            for out_line in proc.stdout:
                log.write(out_line)
                tail.append(out_line.rstrip("\n"))
                if verbose:
                    print(out_line, end="", flush=True)
            # wait4: the child's CPU time, the compiler processes it waited for included
            _, status, usage = os.wait4(proc.pid, 0)
            rc = proc.returncode = os.waitstatus_to_exitcode(status)
            cost = {"seconds": round(time.monotonic() - start, 1), "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1)}
        built = workdir / "lib" / Path(*dotted.split(".")[:-1]) / f"{stem}{extension_suffix()}"
        if rc != 0 or not built.is_file():
            kept = _keep_log(log_path, pkg_dir.name)
            reason = _first_error(list(tail)) or (f"exit status {rc}" if rc else "no module was produced")
            lines = list(tail)[-_TAIL_LINES:]
            raise BuildError(
                f"building {dotted} failed: {reason} (full log: {kept})",
                "\n".join(lines),
                kept,
            )
        # Move into place atomically (copy next to the target first: /tmp may be another filesystem).
        staging = target.with_name(f".{target.name}.pf-tmp-{os.getpid()}")
        shutil.copy2(built, staging)
        os.replace(staging, target)
        ok = True
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        if progress is None and not verbose:
            status = f" done ({time.monotonic() - start:.1f} s)" if ok else " failed"
            print(status, file=sys.stderr, flush=True)
    return target, cost


def _keep_log(log_path: Path, stem: str) -> Path:
    fd, kept = tempfile.mkstemp(prefix=f"pairforge-build-{stem}-", suffix=".log")
    os.close(fd)
    shutil.copyfile(log_path, kept)
    return Path(kept)


_ERROR_PATTERNS = (
    re.compile(r":\d+(:\d+)?: (fatal )?error: "),  # gcc / clang
    re.compile(r"\.(pyx|pxd|pxi):\d+:\d+: "),  # Cython
    re.compile(r"\b(Error|error)\b"),
)


def _first_error(lines: list[str]) -> str:
    for pattern in _ERROR_PATTERNS:
        for line in lines:
            if pattern.search(line):
                text = line.strip()
                return text if len(text) <= 300 else text[:297] + "..."
    return ""


def _worker(request_json: str) -> int:
    """Runs in the child process: cythonize and compile one extension into ``workdir/lib``."""
    request = json.loads(request_json)
    import setuptools  # noqa: F401  (installs setuptools' distutils before Cython imports it)
    from Cython.Build import cythonize
    from setuptools import Distribution

    if request["verbose"]:
        import logging

        logging.basicConfig(level=logging.INFO, format="%(message)s")
        try:
            from distutils import log as distutils_log

            distutils_log.set_verbosity(1)
        except Exception:  # pragma: no cover - depends on the setuptools version
            pass
    pkg_dir = Path(request["pkg_dir"])
    root = Path(request["root"])
    workdir = Path(request["workdir"])
    verbose = bool(request["verbose"])
    ext = make_extension(pkg_dir, int(request["limb_bits"]), adx=bool(request["adx"]))
    if ext.name != request["name"]:
        print(f"module name mismatch: {ext.name} != {request['name']}")
        return 1
    try:
        (ext,) = cythonize(
            [ext],
            build_dir=str(workdir / "cython"),
            include_path=[str(root)],
            compiler_directives=dict(CYTHON_DIRECTIVES),
            quiet=not verbose,
            force=True,
        )
    except Exception as exc:  # Cython has already printed the details
        print(f"Cython failed: {exc}")
        return 1
    dist = Distribution({"name": "pairforge-build", "ext_modules": [ext], "script_name": "setup.py"})
    dist.verbose = 1 if verbose else 0
    api_args = api_compile_args(pkg_dir, bool(request["adx"]))
    if api_args is not None:
        dist.cmdclass["build_ext"] = _build_ext_with_api([str(p) for p in api_sources(pkg_dir)], api_args)
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = False
    cmd.force = True
    cmd.build_lib = str(workdir / "lib")
    cmd.build_temp = str(workdir / "temp")
    try:
        dist.run_command("build_ext")
    except BaseException as exc:  # distutils raises CompileError / LinkError / SystemExit
        print(f"error: {type(exc).__name__}: {exc}")
        return 1
    return 0


def _build_ext_with_api(api_sources: list[str], api_args: list[str]):
    """A ``build_ext`` that compiles ``api_sources`` (c/api.c and the c/api_<unit>.c files) with
    ``api_args`` (the shipped -O3) into objects of their own and links them into the module,
    whose wrapper source compiles with the extension's own (lower) flags."""
    from setuptools.command.build_ext import build_ext

    class BuildExtWithApi(build_ext):
        def build_extension(self, ext):
            objects = self.compiler.compile(
                list(api_sources),
                output_dir=str(Path(self.build_temp) / "api"),
                macros=ext.define_macros,
                include_dirs=ext.include_dirs,
                debug=self.debug,
                extra_postargs=api_args,
            )
            ext.extra_objects = [*(ext.extra_objects or []), *objects]
            super().build_extension(ext)

    return BuildExtWithApi
