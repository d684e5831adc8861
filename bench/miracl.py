"""Ours beside MIRACL core on BLS48-581 (BLS12-381 for scale), built from source by the user:

    python bench/miracl.py --miracl-dir ~/src/miracl-core [--rounds 3]

MIRACL core (github.com/miracl/core, Apache-2.0) is one of the two libraries with BLS48-581 (the
other is RELIC) and is not on PyPI. This script copies the c/ folder of a checkout into
build/miracl/, builds its library there for BLS12381 and BLS48581 with its own c/config64.py
(gcc -O3; the menu numbers are read from that script), compiles bench/c/miracl_bench.c against it,
and times, round after round, MIRACL's Miller loop (PAIR_ate), final exponentiation (PAIR_fexp)
and pairing, then ours: the medians of 31 calls on BLS48-581 and 201 on BLS12-381, wall clock, on
random multiples of the generators. BLS48-581 is an opt-in package: build it first with
`PAIRFORGE_CURVES=bls48_581 pip install -e .`. The table gives each side's median over the rounds
and ours / MIRACL per round (median and range), and each library's BLS48-581 / BLS12-381 ratio.

Layer: tools (bench/), above the generator: imports the generated packages; the generator never
imports it.
"""

from __future__ import annotations

import argparse
import importlib
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from statistics import median

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

HARNESS = REPO_ROOT / "bench" / "c" / "miracl_bench.c"
BUILD_DIR = REPO_ROOT / "build" / "miracl"
# (row label, our package, MIRACL's curve name in config64.py); calls per median
CURVES = (("BLS48-581", "bls48_581", "BLS48581", 31), ("BLS12-381", "bls12_381", "BLS12381", 201))
OPS = ("miller", "fexp", "pairing")
# A curve row of config64.py's tables: ( "bits", "FIELD", "CURVE", ...; the menu numbers them from 1
CURVE_ROW = re.compile(r'^\s*\(\s*"\d+",\s*"[A-Z0-9]+",\s*"([A-Za-z0-9]+)",', re.M)


def menu_numbers(config: Path, names: list[str]) -> list[int]:
    """config64.py's menu numbers of the curves ``names`` (its curve tables, in order, from 1)."""
    rows = CURVE_ROW.findall(config.read_text(encoding="utf-8"))
    missing = [n for n in names if n not in rows]
    if missing:
        sys.exit(f"bench/miracl.py: {config} has no curve {', '.join(missing)}")
    return [rows.index(n) + 1 for n in names]


def build_library(miracl_dir: Path) -> Path:
    """MIRACL's core.a for the two curves, in a copy of its c/ folder (config64.py edits its files)."""
    source = miracl_dir / "c" / "config64.py"
    if not source.is_file():
        sys.exit(f"bench/miracl.py: {source} is missing: --miracl-dir must be a MIRACL core checkout")
    lib = BUILD_DIR / "core.a"
    stamp = BUILD_DIR / "source"
    if lib.is_file() and stamp.is_file() and stamp.read_text() == str(miracl_dir.resolve()):
        return BUILD_DIR
    shutil.rmtree(BUILD_DIR, ignore_errors=True)
    shutil.copytree(miracl_dir / "c", BUILD_DIR)
    options = [arg for n in menu_numbers(BUILD_DIR / "config64.py", [c[2] for c in CURVES]) for arg in ("-o", str(n))]
    print(f"building MIRACL core ({' '.join(options)}) in {BUILD_DIR} (a few minutes) ...", flush=True)
    subprocess.run([sys.executable, "config64.py", *options], cwd=BUILD_DIR, check=True, stdout=subprocess.DEVNULL)
    if not lib.is_file():
        sys.exit(f"bench/miracl.py: config64.py did not make {lib}")
    stamp.write_text(str(miracl_dir.resolve()))
    return BUILD_DIR


def build_harness(lib_dir: Path) -> Path:
    exe = lib_dir / "miracl_bench"
    cmd = ["gcc", "-std=c99", "-O3", f"-I{lib_dir}", str(HARNESS), str(lib_dir / "core.a"), "-o", str(exe)]
    subprocess.run(cmd, check=True)
    return exe


def time_miracl(exe: Path) -> dict[str, dict[str, float]]:
    """{curve label: {op: ms}} from one run of the harness."""
    out = subprocess.run([str(exe), *(str(c[3]) for c in CURVES)], capture_output=True, text=True, check=True).stdout
    times = {}
    for line in out.splitlines():
        label, *fields = line.split()
        times[label] = {fields[i]: float(fields[i + 1]) for i in range(0, len(fields), 2)}
    return times


def median_ms(fn, calls: int) -> float:
    fn()
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return median(samples) * 1e3


def time_ours(curve, calls: int, rng: random.Random) -> dict[str, float]:
    P = curve.G1.generator() * rng.randrange(1, curve.R)
    Q = curve.G2.generator() * rng.randrange(1, curve.R)
    f = curve.miller_loop([P], [Q])
    return {
        "miller": median_ms(lambda: curve.miller_loop([P], [Q]), calls),
        "fexp": median_ms(lambda: curve.final_exponentiation(f), calls),
        "pairing": median_ms(lambda: curve.pairing(P, Q), calls),
    }


def load(package: str):
    try:
        return importlib.import_module(f"generated.{package}")
    except ImportError as exc:
        sys.exit(f"bench/miracl.py: generated.{package} is not built ({exc}); "
                 f"run `PAIRFORGE_CURVES={package} pip install -e .`")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--miracl-dir", type=Path, required=True, help="a MIRACL core checkout (github.com/miracl/core)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    args = ap.parse_args(argv)
    packages = {label: load(package) for label, package, _, _ in CURVES}
    exe = build_harness(build_library(args.miracl_dir.expanduser()))
    rng = random.Random(48)
    theirs: list[dict[str, dict[str, float]]] = []
    ours: list[dict[str, dict[str, float]]] = []
    for round_ in range(args.rounds):
        theirs.append(time_miracl(exe))
        ours.append({label: time_ours(packages[label], calls, rng) for label, _, _, calls in CURVES})
        print(f"round {round_ + 1} of {args.rounds} done", flush=True)
    print(f"\nours: {', '.join(f'{label} {packages[label].TARGET}' for label in packages)}; MIRACL core: gcc -O3")
    print(f"{'curve':<10} {'operation':<8} {'ours ms':>9} {'MIRACL ms':>10} {'ours / MIRACL':>22}")
    for label, *_ in CURVES:
        for op in OPS:
            ratios = [o[label][op] / t[label][op] for o, t in zip(ours, theirs, strict=True)]
            mine, other = median(o[label][op] for o in ours), median(t[label][op] for t in theirs)
            print(f"{label:<10} {op:<8} {mine:9.3f} {other:10.3f} {median(ratios):8.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
    for name, runs in (("ours", ours), ("MIRACL", theirs)):
        k48, k12 = (median(r[label]["pairing"] for r in runs) for label, *_ in CURVES)
        print(f"{name}: BLS48-581 / BLS12-381 pairing = {k48 / k12:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
