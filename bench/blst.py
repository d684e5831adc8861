"""Ours beside blst in C (the blst targets of docs/performance.md), built from source by the user:

    python bench/blst.py --blst-dir ~/src/blst [--rounds 5] [--ops miller_loop,final_exp]

blspy, the blst on PyPI, pairs but exposes neither the Miller loop nor the final exponentiation
alone, nor a constant-time `P * k`. This script compiles bench/c/blst_bench.c against a blst
checkout built with its own `./build.sh` (libblst.a; the directory may also come from $BLST_DIR)
and times, on BLS12-381: the pairing (blst's Miller loop and final exponentiation on affine
points, as blspy pairs), the Miller loop, the final exponentiation, and constant-time G1 and G2
`P * k` (`blst_p1_mult`, `blst_p2_mult`, 255-bit scalars). Ours run through the Python API, as
bench/mcl.py times them (our pairing and Miller loop include the conversion of projective points to
affine). Both sides report process CPU time, the fastest of 5 batches of about 50 ms; each round
times every operation in blst's process and then ours, and the ratio column is the median of the
rounds' ratios, with their range; the time columns give each side's best over the rounds.

Layer: tools (bench/), above the generator: imports the generator's packages and bench's own
modules; the generator never imports it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import subprocess
import sys
from pathlib import Path
from statistics import median

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bench.mcl import cpu_seconds_per_call, fmt, our_operations  # noqa: E402

HARNESS = REPO_ROOT / "bench" / "c" / "blst_bench.c"
BUILD_DIR = REPO_ROOT / "build"
OPS = ("pairing", "miller_loop", "final_exp", "g1_mul_ct", "g2_mul_ct")


def build_harness(blst_dir: Path) -> Path:
    """Compile blst_bench against blst's header and static library (again when either is newer)."""
    lib, header, exe = blst_dir / "libblst.a", blst_dir / "bindings" / "blst.h", BUILD_DIR / "blst_bench"
    if not lib.is_file() or not header.is_file():
        sys.exit(f"bench/blst.py: {lib} or {header} is missing: build blst first (cd {blst_dir} && ./build.sh)")
    if not exe.is_file() or exe.stat().st_mtime < max(lib.stat().st_mtime, HARNESS.stat().st_mtime):
        BUILD_DIR.mkdir(exist_ok=True)
        cmd = ["gcc", "-O2", "-std=c99", f"-I{header.parent}", str(HARNESS), str(lib), "-o", str(exe)]
        subprocess.run(cmd, check=True)
    return exe


def run_blst(exe: Path, ops: list[str]) -> dict[str, float]:
    out = subprocess.run([str(exe), *ops], check=True, capture_output=True, text=True).stdout
    return {name: float(value) for name, value in (line.split() for line in out.splitlines())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blst-dir", type=Path, default=os.environ.get("BLST_DIR"), help="a blst checkout, built")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ops", default=",".join(OPS), help="the operations to time (comma-separated)")
    args = parser.parse_args(argv)
    if args.blst_dir is None:
        parser.error("give --blst-dir or set BLST_DIR")
    names = [v.strip() for v in args.ops.split(",") if v.strip()]
    unknown = sorted(set(names) - set(OPS))
    if unknown:
        parser.error(f"unknown operations {', '.join(unknown)} (known: {', '.join(OPS)})")
    exe = build_harness(args.blst_dir.expanduser())
    curve = importlib.import_module("generated.bls12_381")
    ours_ops = our_operations(curve, [], random.Random(16))
    best: dict[tuple[str, str], float] = {}
    ratios: dict[str, list[float]] = {}
    for rnd in range(args.rounds):
        for name in names:
            theirs = run_blst(exe, [name])[name]
            ours = cpu_seconds_per_call(ours_ops[name])
            best[(name, "blst")] = min(best.get((name, "blst"), theirs), theirs)
            best[(name, "ours")] = min(best.get((name, "ours"), ours), ours)
            ratios.setdefault(name, []).append(ours / theirs)
        print(f"round {rnd + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    print(f"# our module: {curve.TARGET}" + (", GT on AVX-512 IFMA" if curve._impl._tower_ifma() else ""))
    print("| BLS12-381 | ours (best) | blst (best) | ours / blst (median of rounds) | range |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        r = ratios[name]
        print(f"| {name} | {fmt(best[(name, 'ours')])} | {fmt(best[(name, 'blst')])} | {median(r):.2f}× "
              f"| {min(r):.2f}–{max(r):.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
