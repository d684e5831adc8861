"""A content-addressed cache for what tests compile: C harness executables and curve packages.

A test run compiles the same harnesses and custom curve packages every time, and under
pytest-xdist every worker that needs one would compile it again. Here each build is keyed on a
hash of everything it is made from (the command line, the bytes of its sources and of every file
in its include directories, the compiler's version) and kept in ``build/test-cache/<key>/``
(``PAIRFORGE_TEST_CACHE`` moves it), so it is built once per content, whatever the worker or the
run:

* ``cached_dir(key, make)`` returns the finished directory for ``key``; the first caller runs
  ``make(tmp)`` in a private directory under a file lock and renames it into place, the others
  wait on the lock and reuse it. A failed ``make`` leaves nothing behind.
* ``compiled(cmd, inputs=..., name=...)`` compiles ``cmd + ["-o", <cached path>]`` once per content.
* ``content_key(...)`` hashes strings, bytes and files or directories (recursively) for a key.

Stale entries are never reused (another content has another key); ``rm -rf build/test-cache``
empties the cache.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from generator import build  # the checkout's (tests/conftest.py puts it first on sys.path)

REPO_ROOT = Path(__file__).resolve().parents[1]
CACHE_ENV = "PAIRFORGE_TEST_CACHE"
_DONE = ".complete"


def cache_root() -> Path:
    env = os.environ.get(CACHE_ENV, "").strip()
    root = Path(env).expanduser() if env else REPO_ROOT / "build" / "test-cache"
    root.mkdir(parents=True, exist_ok=True)
    return root


def content_key(*parts: str | bytes | Path | Iterable[Path]) -> str:
    """A sha256 of the parts: strings and bytes as they are, a file by its bytes, a directory by
    the names and bytes of every file below it, an iterable of paths each in turn."""
    digest = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)

    def add_path(path: Path) -> None:
        if path.is_dir():
            for sub in sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
                add(f"file {sub.relative_to(path).as_posix()}", sub.read_bytes())
        elif path.is_file():
            add(f"file {path.name}", path.read_bytes())
        else:
            add("missing", str(path).encode())

    for part in parts:
        if isinstance(part, bytes):
            add("bytes", part)
        elif isinstance(part, str):
            add("str", part.encode())
        elif isinstance(part, Path):
            add_path(part)
        else:
            for path in part:
                add_path(Path(path))
    return digest.hexdigest()[:32]


@contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on the file ``path`` (created if missing) for the block: other processes
    (pytest-xdist workers) that ask for it wait."""
    with open(path, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def cached_dir(key: str, make: Callable[[Path], None]) -> Path:
    """``cache_root()/key``, made once by ``make(directory)`` (safe under concurrent workers)."""
    root = cache_root()
    final = root / key
    if (final / _DONE).is_file():
        return final
    with file_lock(root / f"{key}.lock"):
        if (final / _DONE).is_file():  # another worker made it while this one waited
            return final
        shutil.rmtree(final, ignore_errors=True)  # an unfinished entry of a killed run
        work = Path(tempfile.mkdtemp(prefix=f".{key}.tmp-", dir=root))
        try:
            make(work)
            (work / _DONE).write_text("")
            os.replace(work, final)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return final


@functools.lru_cache(maxsize=None)
def compiler_version(cc: str) -> str:
    """The first line of ``cc --version`` (part of every compiled key)."""
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.splitlines()[0] if out else ""


def toolchain_key() -> str:
    """The compiler, flags and interpreter a curve package is built with (for package keys)."""
    import json


    return json.dumps([build._toolchain(), build.compile_args(), build.BUILD_KEY_VERSION])


# Curve packages that only tests build (custom curves, generic32 twins) are compiled at -O1: they
# check results, not speed, and -O1 compiles the large single translation unit several times
# faster than the installed modules' -O3 (later flags win over BASE_COMPILE_ARGS' -O3).
QUICK_BUILD_CFLAGS = "-O1"
# and their Cython wrapper (generator/build.py: a unit of its own, with no arithmetic loop) at -O0
QUICK_WRAPPER_CFLAGS = "-O0"


@contextmanager
def _extra_cflags(flags: str, env: str = build.CFLAGS_ENV) -> Iterator[None]:

    before = os.environ.get(env)
    os.environ[env] = f"{before or ''} {flags}".strip()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(env, None)
        else:
            os.environ[env] = before


@contextmanager
def _quick_flags() -> Iterator[None]:
    """QUICK_BUILD_CFLAGS for both units of a module, QUICK_WRAPPER_CFLAGS for the wrapper."""
    with _extra_cflags(QUICK_BUILD_CFLAGS), _extra_cflags(QUICK_WRAPPER_CFLAGS, build.WRAPPER_CFLAGS_ENV):
        yield


@contextmanager
def quick_build_flags() -> Iterator[str]:
    """Within the block, package builds (``build_package``, ``gen-curve``) add QUICK_BUILD_CFLAGS to
    PAIRFORGE_CFLAGS and QUICK_WRAPPER_CFLAGS to PAIRFORGE_WRAPPER_CFLAGS; yields the former, for
    the build's cache key. Use it inside a ``make``."""

    with _quick_flags():
        yield os.environ[build.CFLAGS_ENV]


def quick_package_key(*parts: str | bytes | Path | Iterable[Path]) -> str:
    """The cache key of a curve package built by a test under ``quick_build_flags``: the parts,
    the generator, the toolchain and the test build flags."""
    return content_key(*parts, generator_key(), toolchain_key(), "test cflags", QUICK_BUILD_CFLAGS, QUICK_WRAPPER_CFLAGS)


# A test-only curve package holds up to two modules on x86-64 (portable and x86_64-adx), but its
# tests run only the one the package picks at import, and the package's _target module chooses
# without loading the other (it compiles a missing one only when asked for it). So only the module
# that runs is compiled, with QUICK_BUILD_CFLAGS: the one-spare-bit curve's unused portable module
# was 39.7 CPU s at -O1 and 20.6 at -O0, now nothing.
TARGET_ENV = build.TARGET_ENV  # the packages' own override (templates/python/_target.py.j2)
ADX_TARGET = build.ADX_TARGET


def loaded_target() -> str:
    """The module a test-only curve package built here will import: PAIRFORGE_TARGET when set,
    else x86_64-adx where it is built and the CPU has BMI2 and ADX (as the packages' _target reads
    it), else generic64."""

    want = os.environ.get(TARGET_ENV, "").strip()
    if want:
        return want
    return ADX_TARGET if build.builds_adx(64) and build.cpu_runs_adx() else "generic64"


def build_test_curve(params: Path, out: Path) -> Path:
    """Render the curve file ``params`` into ``out/<package>/`` and compile, with
    QUICK_BUILD_CFLAGS, only the module the package will import (``loaded_target()``); the
    package never loads the other one unless asked. Returns the package directory."""
    from generator.cli import main as gen_curve

    assert gen_curve(["--params", str(params), "--out", str(out), "--no-build"]) == 0
    (pkg_dir,) = [d for d in out.iterdir() if (d / f"{build.EXTENSION_STEM}.pyx").is_file()]
    adx = (
        loaded_target() == ADX_TARGET
        and build.builds_adx(64)
        and (pkg_dir / f"{build.ADX_STEM}.pyx").is_file()
    )
    with _quick_flags():
        build.build_module(pkg_dir, 64, adx=adx)
    return pkg_dir


def with_protocols(text: str, protocols: Iterable[str]) -> str:
    """A curve file's text with ``protocols = [...]`` added, unless it lists protocols of its own
    (a test-only curve's file carries none: the tests that build it name those they run)."""
    if re.search(r"(?m)^protocols\s*=", text):
        return text
    return f"protocols = {json.dumps(list(protocols))}\n{text}"


def cached_test_curve(label: str, text: str, filename: str, beside: dict[str, str] | None = None) -> Path:
    """The cache directory of a test-only curve file: ``filename`` (holding ``text``) and
    ``out/<package>/`` built by ``build_test_curve``, made once per content of the file, the
    generator, the toolchain, the flags and the module the package will import. ``beside``: other
    files the curve file reads (name -> text), written next to it and part of the key (a BW6
    file's ``inner`` curve file)."""
    beside = beside or {}

    def make(root: Path) -> None:
        for name, content in beside.items():
            (root / name).write_text(content)
        (root / filename).write_text(text)
        build_test_curve(root / filename, root / "out")

    extra = [f"{name}\n{content}" for name, content in sorted(beside.items())]
    key = quick_package_key(label, text, *extra, "test curve", "loaded module only", loaded_target())
    return cached_dir(key, make)


def import_test_curve(out: Path, name: str):
    """Import the package ``name`` from ``out`` and check that the module it picked is the one
    compiled with QUICK_BUILD_CFLAGS (its stamp's flags), not another build of it."""
    import importlib
    import json
    import sys


    sys.path.insert(0, str(out))
    try:
        module = importlib.import_module(name)
    finally:
        sys.path.remove(str(out))
    picked = build.module_target(out / name, adx=module.TARGET == ADX_TARGET)  # TARGET: the module in use
    args = json.loads(build.stamp_path(picked).read_text())["compile_args"]
    assert [a for a in args if a.startswith("-O")][-1] == QUICK_BUILD_CFLAGS, (
        f"{name} runs its {module.TARGET} module, compiled with {args}, not the {QUICK_BUILD_CFLAGS} one "
        f"(build_test_curve compiles {loaded_target()} with {QUICK_BUILD_CFLAGS} in this environment)"
    )
    return module


def generator_key() -> str:
    """The generator's code and templates: every rendering depends on them (not the chain cache
    in generator/derive/chain_cache/, which holds derived results and grows as tests run)."""
    files = [
        p for p in sorted((REPO_ROOT / "generator").rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and "chain_cache" not in p.parts
    ]  # fmt: skip
    return content_key(files, REPO_ROOT / "templates")


def compiled(cmd: list[str], *, inputs: Iterable[Path], name: str = "a.out") -> Path:
    """Run the compile command ``cmd + ["-o", PATH]`` once per content and return PATH.

    ``inputs`` are the files and directories the output depends on (sources, include
    directories); they and the command line make the key. A failing compile raises
    ``AssertionError`` with the command and the compiler's messages (nothing is cached).
    """
    cmd = [str(c) for c in cmd]
    inputs = [Path(p) for p in inputs]
    # The key holds the inputs' contents, not where they are: a harness rendered into a new
    # temporary directory each run still hits the cache.
    shown = "\0".join(cmd)
    for i, path in sorted(enumerate(inputs), key=lambda item: -len(str(item[1]))):
        shown = shown.replace(str(path), f"<input {i}>")
    key = content_key("compile", compiler_version(cmd[0]), shown, inputs)

    def make(directory: Path) -> None:
        proc = subprocess.run([*cmd, "-o", str(directory / name)], capture_output=True, text=True)
        assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stderr[-4000:]}"

    return cached_dir(key, make) / name


# The native known-answer program is the reference the cross targets are compared with (and
# generator.reference checks it too); its C at the shipped -O3 is the generic64 module that
# test_targets and the rest of the suite run. So it compiles at -O1 (bn254: 5.5 -> 3.3 CPU s); the
# targets under test (arm64, arm32, generic32) keep the shipped flags.
KAT_EXTRA_FLAGS = {"native": ("-O1",)}


def cached_kat(pkg_dir: Path, target: str) -> Path:
    """The known-answer program of a package (``c/kat_main.c``) for a cross target, compiled by
    generator/cross_build.py once per content of the package's C, the flags (generator/cross_build.py,
    generator/build.py, KAT_EXTRA_FLAGS) and the compiler: test_cross, test_cross_edwards and
    test_wasm (its native reference) share each build."""
    from generator import cross_build

    spec = cross_build.TARGETS[target]
    extra = KAT_EXTRA_FLAGS.get(target, ())
    sources = [Path(pkg_dir) / "c", REPO_ROOT / "generator" / "cross_build.py", REPO_ROOT / "generator" / "build.py"]
    key = content_key("kat", target, sources, compiler_version(spec.compiler), *extra)
    return cached_dir(key, lambda directory: cross_build.build_kat(Path(pkg_dir), target, directory, extra)) / f"kat-{target}"
