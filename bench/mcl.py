"""Ours beside mcl (the mcl targets of docs/performance.md), built from source by the user and run side by side:

    python bench/mcl.py --mcl-dir ~/src/mcl [--rounds 3] [--msm 10,14] [--ops g1_msm_16384,pairing]

mcl is not on PyPI with BN254, BLS12-377 or a choice of curve, so this script compiles
bench/c/mcl_bench.cpp against an mcl checkout that was built with its default `make lib/libmcl.a`
(on x86-64 Linux that assembles mcl's LLVM-generated field code, src/asm/x86-64.S; do not set
MCL_USE_LLVM=0, which leaves mcl on its slower generic code; the directory may also come from
$MCL_DIR). Rows: the pairing, Miller loop and final exponentiation, constant-time G1 and G2
`P * k` (mcl's `mulCT`), variable-time G1 `P * k`, and single-threaded G1 MSM at the given
log2 sizes, on Ethereum's BN254 (mcl's `BN_SNARK1`), BLS12-381, BLS12-377, and mcl's own BN254,
whose low-weight seed x = -(2^62 + 2^55 + 1) we generate here from its seed alone
(`gen-curve --params`, into build/bench-curves/, brought up to date on each run). Both sides report process CPU time: the
fastest of 5 batches of about 50 ms. Each round times every operation twice in a row, mcl's
process and then ours, so that the two measurements of a pair see the same load (this host's
speed drifts by 20% over minutes, which made the best time of each side over a whole run
disagree between runs); the ratio column is the median of the rounds' ratios, with their range,
and the time columns give each side's best over the rounds.

With --fresh-copies, each round copies our package and mcl_bench to new files first (new
page-cache pages: bench/placement.py) and times our operations in a child process of that copy,
one per operation, right after mcl's: a build's speed depends on where its code lands in
physical memory, by a few per cent on the Miller loop, so one process draws one placement for a
whole run, and the rounds of this mode draw a new one each, for both sides.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from statistics import median
from time import process_time

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bench.placement import fresh_copy, import_copy  # noqa: E402
from bench.timing import calls_per_batch  # noqa: E402

HARNESS = REPO_ROOT / "bench" / "c" / "mcl_bench.cpp"
BUILD_DIR = REPO_ROOT / "build"
BENCH_CURVES = BUILD_DIR / "bench-curves"
# mcl's BN254 (its default curve): the seed -(2^62 + 2^55 + 1); everything else is derived
# mcl's BN254 from its seed, with mcl's GT convention and hard part: mcl's expHardPartBN
# (src/pairing_impl.hpp) is Fuentes-Castaneda, Knapp and Rodriguez-Henriquez's chain, which
# evaluates lambda = (1 + 6z + 12z^2 + 12z^3, 4z + 6z^2 + 12z^3, 6z + 6z^2 + 12z^3,
# -1 + 4z + 6z^2 + 12z^3) in base p, m Phi_12(p)/r for m = 2z(6z^2 + 3z + 1). curves/bn254.toml
# states that m and that chain (both hold for every BN seed), so they are taken from there: the
# rows then compare the same operation.
def _mcl_bn254_file() -> str:
    bn254 = tomllib.loads((REPO_ROOT / "curves" / "bn254.toml").read_text(encoding="utf-8"))
    return (
        'name = "BN254-mcl"\nfamily = "BN"\nx = "-0x4080000000000001"\n'
        f"gt_exponent = {json.dumps(bn254['gt_exponent'])}\n"
        f"hard_part = {json.dumps(bn254['hard_part'])}\n"
    )


# (row label, our package, mcl's curve name)
CURVES = (
    ("BN254 (Ethereum; mcl BN_SNARK1)", "bn254", "bn_snark1"),
    ("BLS12-381", "bls12_381", "bls12_381"),
    ("BLS12-377", "bls12_377", "bls12_377"),
    ("BN254, mcl's seed -(2^62 + 2^55 + 1)", "bn254_mcl", "bn254"),
)
OPS = ("pairing", "miller_loop", "final_exp", "g1_mul_ct", "g2_mul_ct", "g1_mul")


def cpu_seconds_per_call(fn: Callable[[], object], batches: int = 5, batch_s: float = 0.05) -> float:
    """Process CPU seconds per call, the fastest of ``batches`` batches (what mcl_bench reports)."""
    fn()
    calls = calls_per_batch(fn, batch_s)
    best = float("inf")
    for _ in range(batches):
        start = process_time()
        for _ in range(calls):
            fn()
        best = min(best, (process_time() - start) / calls)
    return best


def build_harness(mcl_dir: Path) -> Path:
    """Compile mcl_bench against mcl's headers and static library (again when either is newer)."""
    lib, exe = mcl_dir / "lib" / "libmcl.a", BUILD_DIR / "mcl_bench"
    if not lib.is_file():
        sys.exit(f"bench/mcl.py: {lib} is missing: build mcl first (cd {mcl_dir} && make lib/libmcl.a)")
    if not exe.is_file() or exe.stat().st_mtime < max(lib.stat().st_mtime, HARNESS.stat().st_mtime):
        BUILD_DIR.mkdir(exist_ok=True)
        cmd = ["g++", "-O2", "-std=c++17", f"-I{mcl_dir / 'include'}", str(HARNESS), str(lib), "-o", str(exe), "-lpthread"]
        subprocess.run(cmd, check=True)
    return exe


def load_package(package: str):
    """A shipped package from generated/, or mcl's BN254 generated from its seed on first use."""
    if package != "bn254_mcl":
        return importlib.import_module(f"generated.{package}")
    BENCH_CURVES.mkdir(parents=True, exist_ok=True)
    params = BENCH_CURVES / "bn254-mcl.toml"
    params.write_text(_mcl_bn254_file())
    # every run: gen-curve rewrites only what the current templates change and compiles only then
    print(f"generating mcl's BN254 from its seed into {BENCH_CURVES} (a minute when it changed) ...", flush=True)
    cmd = [sys.executable, "-m", "generator.cli", "--params", str(params), "--out", str(BENCH_CURVES)]
    subprocess.run(cmd, check=True, cwd=REPO_ROOT)
    sys.path.insert(0, str(BENCH_CURVES))
    return importlib.import_module(package)


def our_operations(curve, msm_logs: list[int], rng: random.Random) -> dict[str, Callable[[], object]]:
    """Our operations on random subgroup points and scalars, named as mcl_bench names them."""
    r = curve.R
    P = curve.G1.generator() * rng.randrange(1, r)
    Q = curve.G2.generator() * rng.randrange(1, r)
    k = rng.randrange(1, r)
    f = curve.miller_loop(P, Q)
    ops: dict[str, Callable[[], object]] = {
        "pairing": lambda: curve.pairing(P, Q),
        "miller_loop": lambda: curve.miller_loop(P, Q),
        "final_exp": lambda: curve.final_exponentiation(f),
        "g1_mul_ct": lambda: P * k,
        "g2_mul_ct": lambda: Q * k,
        "g1_mul": lambda: P.mul_vartime(k),
    }
    for log_n in msm_logs:
        n = 1 << log_n
        points = [P * rng.randrange(1, r) for _ in range(min(n, 64))]
        points = [points[i % len(points)] * (i + 1) for i in range(n)] if n > 64 else points
        scalars = [rng.randrange(r) for _ in range(n)]
        ops[f"g1_msm_{n}"] = lambda points=points, scalars=scalars: curve.G1.msm(points, scalars, threads=1)
    return ops


def run_mcl(exe: Path, mcl_curve: str, ops: list[str]) -> dict[str, float]:
    out = subprocess.run([str(exe), mcl_curve, *ops], check=True, capture_output=True, text=True).stdout
    return {name: float(value) for name, value in (line.split() for line in out.splitlines())}


def fresh_package_copy(package: str, root: Path) -> Path:
    """A new file copy of our package under root; returns the folder that imports it first."""
    if package == "bn254_mcl":
        root.mkdir(parents=True)
        shutil.copytree(BENCH_CURVES / package, root / package, ignore=shutil.ignore_patterns("build", "__pycache__"))
        return root
    return fresh_copy(REPO_ROOT / "generated", package, root)


def time_in_child(package: str, root: Path, name: str, msm_logs: list[int]) -> float:
    """Our CPU seconds per call of ``name``, timed in a new process that imports the copy at root."""
    cmd = [sys.executable, __file__, "--child", package, "--root", str(root), "--ops", name,
           "--msm", ",".join(str(v) for v in msm_logs)]
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
    if run.returncode != 0:
        sys.exit(f"bench/mcl.py: the child timing {package} {name} failed:\n{run.stderr}")
    return float(json.loads(run.stdout)[name])


def child_main(package: str, root: Path, names: list[str], msm_logs: list[int]) -> int:
    """--child: time ``names`` on the package copy at root and print them as JSON."""
    try:
        curve = import_copy(root, package if package == "bn254_mcl" else f"generated.{package}")
    except RuntimeError as err:
        sys.exit(f"bench/mcl.py: {err}")
    ops = our_operations(curve, [v for v in msm_logs if f"g1_msm_{1 << v}" in names], random.Random(16))
    print(json.dumps({name: cpu_seconds_per_call(ops[name]) for name in names}))
    return 0


def fmt(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} µs" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mcl-dir", type=Path, default=os.environ.get("MCL_DIR"), help="an mcl checkout, built")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--msm", default="10,14", help="log2 sizes of the G1 MSM rows (comma-separated; '' for none)")
    parser.add_argument("--curves", default=",".join(p for _, p, _ in CURVES), help="our package names to run")
    parser.add_argument("--ops", default="", help="only these operations (comma-separated, e.g. g1_msm_16384); "
                        "default: all")
    parser.add_argument("--fresh-copies", action="store_true",
                        help="each round: new file copies of our package and of mcl_bench, ours timed in a child")
    parser.add_argument("--child", metavar="PKG", help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)  # the child's package copy
    args = parser.parse_args(argv)
    msm_logs = [int(v) for v in args.msm.split(",") if v.strip()]
    only = {v.strip() for v in args.ops.split(",") if v.strip()}
    if args.child:
        return child_main(args.child, args.root, sorted(only), msm_logs)
    if args.mcl_dir is None:
        parser.error("give --mcl-dir or set MCL_DIR")
    exe = build_harness(args.mcl_dir.expanduser())
    wanted = set(args.curves.split(","))
    rng = random.Random(16)
    rows = [(label, pkg, mcl) for label, pkg, mcl in CURVES if pkg in wanted]
    ours_ops: dict[str, dict[str, Callable[[], object] | None]] = {}
    for _, pkg, _ in rows:
        curve = load_package(pkg)  # also brings mcl's BN254 up to date before it is copied
        if args.fresh_copies:  # timed by children, on copies: only the names are needed here
            ours_ops[pkg] = dict.fromkeys([*OPS, *(f"g1_msm_{1 << v}" for v in msm_logs)])
        else:
            ours_ops[pkg] = our_operations(curve, msm_logs, rng)
    if only:
        ours_ops = {pkg: {name: op for name, op in ops.items() if name in only} for pkg, ops in ours_ops.items()}
    best: dict[tuple[str, str, str], float] = {}
    ratios: dict[tuple[str, str], list[float]] = {}
    tmp = Path(tempfile.mkdtemp(prefix="pairforge-mcl-")) if args.fresh_copies else None
    try:
        for rnd in range(args.rounds):
            for _, pkg, mcl_curve in rows:
                mcl_exe, root = exe, None
                if tmp is not None:  # new files, so new physical pages, for both sides
                    root = fresh_package_copy(pkg, tmp / f"{rnd}-{pkg}")
                    mcl_exe = tmp / f"mcl_bench-{rnd}-{pkg}"
                    shutil.copy2(exe, mcl_exe)
                for name, ours_op in ours_ops[pkg].items():
                    theirs = run_mcl(mcl_exe, mcl_curve, [name])[name]
                    if ours_op is None:
                        ours = time_in_child(pkg, root, name, msm_logs)
                    else:
                        ours = cpu_seconds_per_call(ours_op)
                    best[(pkg, name, "mcl")] = min(best.get((pkg, name, "mcl"), theirs), theirs)
                    best[(pkg, name, "ours")] = min(best.get((pkg, name, "ours"), ours), ours)
                    ratios.setdefault((pkg, name), []).append(ours / theirs)
                if root is not None:  # 8 MB of mcl_bench and a package per round and curve
                    mcl_exe.unlink()
                    shutil.rmtree(root)
            print(f"round {rnd + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    print("| curve | operation | ours (best) | mcl (best) | ours / mcl (median of rounds) | range |")
    print("|---|---|---:|---:|---:|---:|")
    for label, pkg, _ in rows:
        for name in ours_ops[pkg]:
            ours, theirs = best[(pkg, name, "ours")], best[(pkg, name, "mcl")]
            r = ratios[(pkg, name)]
            print(f"| {label} | {name} | {fmt(ours)} | {fmt(theirs)} | {median(r):.2f}× | {min(r):.2f}–{max(r):.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
