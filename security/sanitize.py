"""Build every curve with AddressSanitizer + UndefinedBehaviorSanitizer and run the tests on it.

    python -m security.sanitize                       # build, then the whole suite
    python -m security.sanitize -- tests/pairings/test_api.py  # build, then these pytest arguments
    python -m security.sanitize --fuzz 60             # build, then the fuzzer for 60 s
    python -m security.sanitize --curves bn254 -- tests/pairings/test_api.py   # one curve
    python -m security.sanitize --adx-curves bn254 -- tests/pairings/test_api.py  # every curve, the
                                                      # x86_64-adx module of bn254 only

The checkout is copied to build/sanitize/ (ignored by git) and the copy's generated/ packages are
compiled there with PAIRFORGE_CFLAGS (generator/build.py), so the normal modules of the checkout
are never replaced.  Python runs with the ASan runtime preloaded (CPython itself is not
instrumented), leak detection off (CPython leaks at exit by design) and every UBSan report fatal
(-fno-sanitize-recover=undefined, halt_on_error=1).

Tests that run valgrind (the constant-time checks) are deselected: valgrind cannot run a program
that has the ASan runtime preloaded.

Layer: tools (security/), above the generator: imports the generator, the generated packages and
security's own modules; the generator never imports it.
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
# -O0 (after the build's -O3, so it wins): nothing optimized away from the checks, and a quarter of
# the compile time of -O1 (bls12_381's portable module instrumented: 33 s against 126 s of CPU with
# gcc 12); the tests run slower, but they are the smaller part.
SANITIZE_CFLAGS = (
    "-O0 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
)
# The link must name the sanitizers too, or the UBSan runtime is missing at import.  distutils adds
# $LDFLAGS to its shared-library link command.
SANITIZE_LDFLAGS = "-fsanitize=address,undefined"
# What the copy leaves out (names matched at every depth).  tests/vectors (the known-answer vectors,
# read by the tests and the fuzz seeds) must stay in: copy_checkout checks it.
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
    if not (dest / "tests" / "vectors").is_dir():
        raise SystemExit(f"sanitize: the copy in {dest} lacks tests/vectors (check SKIP_COPY)")


def build(dest: Path, jobs: int, curves: list[str] | None, adx_curves: list[str] | None = None) -> None:
    """Compile the packages of the copy with the sanitizer flags (jobs at a time).  With curves,
    the other packages are removed from the copy (their tests then skip: CI is unset there).  With
    adx_curves, only those packages get their x86_64-adx module too; the others run the portable
    one (half the compile time)."""
    pkgs = sorted(p.parent for p in (dest / "generated").glob("*/_core.pyx"))
    if curves:
        unknown = set(curves) - {p.name for p in pkgs}
        if unknown:
            raise SystemExit(f"sanitize: no such curve package: {', '.join(sorted(unknown))}")
        for pkg in pkgs:
            if pkg.name not in curves:
                shutil.rmtree(pkg)
        pkgs = [p for p in pkgs if p.name in curves]
    env = {**os.environ, "PAIRFORGE_CFLAGS": SANITIZE_CFLAGS, "LDFLAGS": SANITIZE_LDFLAGS}
    code = "import sys; from generator.build import build_package; build_package(sys.argv[1], adx=sys.argv[2] == '1')"

    def one(pkg: Path) -> None:
        adx = adx_curves is None or pkg.name in adx_curves
        subprocess.run([sys.executable, "-c", code, str(pkg), "1" if adx else "0"], cwd=dest, env=env, check=True)

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, pkgs))
    print(
        f"sanitize: built {len(pkgs)} packages with {SANITIZE_CFLAGS} in {time.monotonic() - start:.0f} s",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--dest", type=Path, default=ROOT / "build" / "sanitize", help="where the sanitized copy goes"
    )
    ap.add_argument("--no-build", action="store_true", help="reuse the sanitized copy built before")
    ap.add_argument(
        "--curves", nargs="+", default=None, help="build and test only these packages (CI's subset)"
    )
    ap.add_argument(
        "--adx-curves", nargs="*", default=None,
        help="build the x86_64-adx module only for these packages (default: every package)",
    )
    ap.add_argument("--jobs", type=int, default=2, help="packages compiled at once (default 2)")
    ap.add_argument(
        "--fuzz", type=int, default=None, metavar="SECONDS", help="run the fuzzer instead of pytest"
    )
    ap.add_argument("pytest_args", nargs="*", help="pytest arguments (after --); default: the whole suite")
    args = ap.parse_args(argv)
    dest = args.dest.resolve()
    if not args.no_build:
        copy_checkout(dest)
        build(dest, args.jobs, args.curves, args.adx_curves)
    env = {**os.environ, **runtime_env(), "PYTHONDONTWRITEBYTECODE": "1"}
    # every sanitized module must import (a missing runtime symbol would otherwise be a skip)
    pkgs = sorted(p.parent.name for p in (dest / "generated").glob("*/_core.pyx"))
    probe = "import importlib, sys; [importlib.import_module(f'generated.{p}._core') for p in sys.argv[1:]]"
    subprocess.run([sys.executable, "-c", probe, *pkgs], cwd=dest, env=env, check=True)
    print(f"sanitize: {', '.join(pkgs)} import with the sanitizer runtime", flush=True)
    # the tests cover every package built here, the opt-in ones included (tests/conftest.py)
    env["PAIRFORGE_CURVES"] = ",".join(pkgs)
    if args.curves or args.adx_curves is not None:
        # the packages or x86_64-adx modules left out are missing on purpose: their tests skip
        # (every package that was built imports, checked above)
        env["CI"] = ""
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
