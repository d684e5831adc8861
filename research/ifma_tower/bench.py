"""Interleaved timing of the study's harnesses (and, optionally, VROOM's own benchmark).

Each round runs every harness once (`harness bench 1`: 9 runs per kernel, kernels interleaved
inside the run) and then VROOM's Google Benchmark binary on its Fp12 and Fp kernels; all in
thread CPU time. Printed: per kernel the median over all runs of all rounds and the best run,
and the ratio of each Fp12 / Fp figure to the x86_64-adx one of the same harness binary.

    python bench.py HARNESS... [--rounds 5] [--vroom /path/to/VROOM]

VROOM (github.com/SimonLangowski/VROOM) stays outside the repository: build it in its own
checkout (`make -C blst CC=clang-19 && make -C src CXX=clang++-19 bench_bls12_381`) and pass
the checkout with --vroom.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

VROOM_FILTER = "BM_FP12_Mul_Matrix|BM_FP12_Sqr_Matrix|BM_ModMul_Matrix|BM_BatchModMul_Matrix(NoK)?_8$"


def run_harness(path: Path) -> dict[str, list[float]]:
    out = subprocess.run([str(path), "bench", "1"], capture_output=True, text=True, check=True).stdout
    res: dict[str, list[float]] = {}
    for line in out.splitlines():
        name, med, best, _ = line.split()
        res[name] = [float(med), float(best)]
    return res


def run_vroom(root: Path) -> dict[str, float]:
    exe = root / "src" / "bench_bls12_381"
    out = subprocess.run(
        [
            str(exe),
            f"--benchmark_filter={VROOM_FILTER}",
            "--benchmark_min_time=0.1",
            "--benchmark_format=json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    res = {}
    for b in json.loads(out)["benchmarks"]:
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6}[b["time_unit"]]
        res["vroom_" + b["name"].removeprefix("BM_")] = b["cpu_time"] * scale
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("harness", nargs="+", type=Path)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--vroom", type=Path)
    args = ap.parse_args(argv)
    meds: dict[tuple[str, str], list[float]] = {}
    bests: dict[tuple[str, str], list[float]] = {}
    for r in range(args.rounds):
        for h in args.harness:
            for name, (med, best) in run_harness(h).items():
                meds.setdefault((h.name, name), []).append(med)
                bests.setdefault((h.name, name), []).append(best)
        if args.vroom:
            for name, t in run_vroom(args.vroom).items():
                meds.setdefault(("vroom", name), []).append(t)
                bests.setdefault(("vroom", name), []).append(t)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    table = {k: (statistics.median(v), min(bests[k])) for k, v in meds.items()}
    print(f"{'binary':14} {'kernel':34} {'median ns':>10} {'best ns':>9} {'/ adx':>7}")
    for (binary, name), (med, best) in table.items():
        ratio = ""
        if binary != "vroom":
            ref = (
                name.replace("ifma52_", "adx_")
                .replace("8lanes_latency", "latency")
                .replace("4x8lanes", "4chains")
            )
            if ref != name and (binary, ref) in table:
                ratio = f"{med / table[(binary, ref)][0]:.3f}"
        print(f"{binary:14} {name:34} {med:10.1f} {best:9.1f} {ratio:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
