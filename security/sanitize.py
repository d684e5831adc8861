"""Build every curve with AddressSanitizer + UndefinedBehaviorSanitizer and run the tests on it.

    python -m security.sanitize                       # build, then the whole suite
    python -m security.sanitize -- tests/test_api.py  # build, then these pytest arguments
    python -m security.sanitize --fuzz 60             # build, then the fuzzer for 60 s

The checkout is copied to build/sanitize/ (ignored by git) and the copy's generated/ packages are
compiled there with PAIRFORGE_CFLAGS (generator/build.py), so the normal modules of the checkout
are never replaced.  Python runs with the ASan runtime preloaded (CPython itself is not
instrumented), leak detection off (CPython leaks at exit by design) and every UBSan report fatal
(-fno-sanitize-recover=undefined, halt_on_error=1).

Tests that run valgrind (the constant-time checks) are deselected: valgrind cannot run a program
that has the ASan runtime preloaded.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SANITIZE_CFLAGS = "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
SKIP_COPY = shutil.ignore_patterns(
    ".git", "build", ".nox", ".ci-venv", "__pycache__", "*.so", "_core.c", ".hypothesis"
)
# Deselected under ASan (valgrind cannot run with the ASan runtime preloaded).
NOT_UNDER_ASAN = "not valgrind and not constant_time"


def runtime_env() -> dict[str, str]:
    """The environment of a Python process that loads sanitized modules."""
    libasan = subprocess.run(
        ["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True, check=True
    )
    path = libasan.stdout.strip()
    if not os.path.isabs(path):
        raise SystemExit("sanitize: gcc has no libasan.so (install libasan / gcc's sanitizer runtime)")
    return {
        "LD_PRELOAD": path,
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1:strict_string_checks=1",
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    }


def copy_checkout(dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(ROOT, dest, ignore=SKIP_COPY)


def build(dest: Path, jobs: int) -> None:
    """Compile every package of the copy with the sanitizer flags (jobs at a time)."""
    pkgs = sorted(p.parent for p in (dest / "generated").glob("*/_core.pyx"))
    env = {**os.environ, "PAIRFORGE_CFLAGS": SANITIZE_CFLAGS}
    code = "import sys; from generator.build import build_package; build_package(sys.argv[1])"

    def one(pkg: Path) -> None:
        subprocess.run([sys.executable, "-c", code, str(pkg)], cwd=dest, env=env, check=True)

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, pkgs))
    print(
        f"sanitize: built {len(pkgs)} packages with {SANITIZE_CFLAGS} in {time.monotonic() - start:.0f} s",
        flush=True,
    )


def vectors() -> str:
    env = os.environ.get("PAIRFORGE_VECTORS", "").strip()
    return env or str(ROOT.parent / "shared" / "vectors")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--dest", type=Path, default=ROOT / "build" / "sanitize", help="where the sanitized copy goes"
    )
    ap.add_argument("--no-build", action="store_true", help="reuse the sanitized copy built before")
    ap.add_argument("--jobs", type=int, default=2, help="packages compiled at once (default 2)")
    ap.add_argument(
        "--fuzz", type=int, default=None, metavar="SECONDS", help="run the fuzzer instead of pytest"
    )
    ap.add_argument("pytest_args", nargs="*", help="pytest arguments (after --); default: the whole suite")
    args = ap.parse_args(argv)
    dest = args.dest.resolve()
    if not args.no_build:
        copy_checkout(dest)
        build(dest, args.jobs)
    env = {**os.environ, **runtime_env(), "PAIRFORGE_VECTORS": vectors(), "PYTHONDONTWRITEBYTECODE": "1"}
    if args.fuzz is not None:
        cmd = [sys.executable, "-m", "security.fuzz", "--seconds", str(args.fuzz)]
    else:
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-k",
            NOT_UNDER_ASAN,
            *args.pytest_args,
        ]
    print(f"sanitize: {' '.join(cmd)} (in {dest}, LD_PRELOAD={env['LD_PRELOAD']})", flush=True)
    return subprocess.run(cmd, cwd=dest, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
