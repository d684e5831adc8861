"""Benchmark every curve module importable from `generated` beside the installed peers.

    python bench/run.py                      all curves in generated/ and the four standard ones
    python bench/run.py --curves bls12-381,bn254 --quick
    python bench/run.py --no-peers --no-c    our Python API only
    python bench/run.py --c-targets generic64

Three levels, one run: every operation of the Python API beside the same operation
in the installed peers (bench/peers.py, their semantics checked by bench/check_peers.py); the C
kernels without Python (bench/cbench.py: times per target, and instruction counts under
valgrind); the Python overhead of a G1 addition over its C kernel. Writes
bench/results/bench.json (everything), bench.md (tables) and bench.png (chart).
Operations a module lacks, and curves that are not built, are reported as n/a.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import sys
import time
from importlib import metadata
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bench import cbench, check_peers, ours, peers, report  # noqa: E402
from bench.ops import STANDARD_CURVES, package_name  # noqa: E402
from bench.timing import Timing, format_ns, measure  # noqa: E402
from generator import build  # noqa: E402

RESULTS_DIR = REPO_ROOT / "bench" / "results"
VERSIONED = ("pairforge", "Cython", "blspy", "chia_rs", "pymcl", "py_arkworks_bls12381", "zksnake", "py_ecc")
try:
    _LOAD_AT_START = list(os.getloadavg())
except OSError:
    _LOAD_AT_START = None


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _curves(arg: str | None) -> list[str]:
    if arg:
        return list(dict.fromkeys(package_name(c) for c in arg.split(",") if c.strip()))
    # the packages an install builds (PAIRFORGE_CURVES's, or every one but the opt-in ones)
    found = [p.name for p in build.installed_packages(REPO_ROOT / "generated")]
    return list(dict.fromkeys([*STANDARD_CURVES, *found]))


def _time(setup, target_s: float, samples: int, max_calls: int | None = None) -> tuple[Timing | None, str]:
    try:
        fn = setup()
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}"
    try:
        return measure(fn, target_s=target_s, samples=samples, max_calls=max_calls), ""
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}"


def run(args: argparse.Namespace) -> tuple[dict, list[dict], dict]:
    target_s = 0.02 if args.quick else args.target
    samples = 3 if args.quick else 7
    log = (lambda *a: None) if args.silent else (lambda *a: print(*a, file=sys.stderr, flush=True))
    c_targets = cbench.supported_targets() if args.c_targets is None else args.c_targets.split(",")
    unknown = [t for t in c_targets if t not in cbench.TARGETS]
    if unknown:
        raise SystemExit(f"bench/run.py: unknown C target(s) {unknown}; known: {sorted(cbench.TARGETS)}")

    peer_checks = {} if args.no_peers else check_peers.checks()
    for name, result in peer_checks.items():
        if result != "ok":
            log(f"peer check: {name}: {result}")
    peer_ops: dict[str, dict[str, list]] = {}
    peers_missing: dict[str, str] = {}
    rows: list[dict] = []
    levels: dict[str, dict] = {}  # per curve: the C microbenchmark and the Python overhead
    module_targets: dict[str, str] = {}
    for package in _curves(args.curves):
        module, why = ours.load(package)
        display = getattr(module, "NAME", None) or STANDARD_CURVES.get(package, package)
        if module is not None and not hasattr(module, "miller_loop"):
            # a twisted Edwards curve: no pairing or tower to time here; bench/edwards.py has its suite
            log(f"[{display}] no pairing: skipped (python bench/edwards.py measures this curve)")
            continue
        if module is not None:
            module_targets[display] = getattr(module, "TARGET", "generic64, no TARGET attribute")
            log(f"[{display}] Python module target: {module_targets[display]}")
        our_setups: dict = {}
        if module is not None:
            try:
                our_setups = ours.setups(module)
            except Exception as exc:
                module, why = None, f"setup failed: {type(exc).__name__}: {exc}"
        if module is None:
            log(f"[{display}] ours: n/a ({why})")
        available: dict[str, dict] = {}
        if not args.no_peers:
            for name, provider in peers.PEERS.items():
                try:
                    available[name] = provider(package)
                except ImportError as exc:
                    peers_missing[name] = str(exc)
                except Exception as exc:  # a broken peer must not stop the run
                    peers_missing[name] = f"{type(exc).__name__}: {exc}"
        peer_ops[package] = {name: sorted(ops) for name, ops in available.items() if ops}
        op_names = list(dict.fromkeys([*our_setups, *(op for ops in available.values() for op in ops)]))

        for op in op_names:
            row: dict = {"curve": display, "package": package, "op": op, "ours": None, "peers": {}}
            if module is None:
                row["ours_error"] = why
            elif op not in our_setups:
                row["ours_error"] = "not measured for this module"
            else:
                timing, error = _time(our_setups[op], target_s, samples)
                if timing is not None:
                    row["ours"] = timing.as_dict()
                else:
                    row["ours_error"] = f"{op}: {error}"
            for name, ops in available.items():
                if op not in ops:
                    continue
                peer_op = ops[op]
                max_calls = peer_op.max_calls
                if args.quick and max_calls is not None:
                    max_calls = 1
                timing, error = _time(peer_op.setup, target_s, samples, max_calls)
                entry = {"median_ns": None, "note": peer_op.note}
                if timing is not None:
                    entry.update(timing.as_dict())
                else:
                    entry["error"] = error
                row["peers"][name] = entry
            timed = {n: e["median_ns"] for n, e in row["peers"].items() if e.get("median_ns")}
            if timed:
                best = min(timed, key=timed.get)
                row["best_peer"], row["best_peer_ns"] = best, timed[best]
                if row["ours"]:
                    row["ratio"] = row["ours"]["median_ns"] / timed[best]
            rows.append(row)
            ours_text = format_ns(row["ours"]["median_ns"]) if row["ours"] else "n/a"
            peer_text = ", ".join(f"{n} {format_ns(t)}" for n, t in timed.items())
            if row["ours"] or timed:
                log(f"[{display}] {op:<40} ours {ours_text:>10}" + (f"   {peer_text}" if peer_text else ""))

        level: dict = {}
        package_dir = REPO_ROOT / "generated" / package
        if not args.no_c and (package_dir / "c" / "pairforge.h").is_file():
            try:
                level["c"] = cbench.run_curve(
                    package_dir,
                    c_targets,
                    quick=args.quick,
                    instructions=not (args.no_instructions or args.quick),
                    log=log,
                    overhead_module=module,
                )
            except Exception as exc:
                level["c_error"] = f"{type(exc).__name__}: {exc}"
                log(f"[{display}] C microbenchmark failed: {level['c_error']}")
        overhead = next((r["python_overhead"] for r in level.get("c", {}).values() if "python_overhead" in r), None)
        if overhead:
            level["python_overhead"] = overhead
            if overhead.get("overhead_ns") is not None:
                log(
                    f"[{display}] G1 add: Python P + Q {overhead['python_ns']:.0f} ns, C g1_add "
                    f"{overhead['c_ns']:.0f} ns, overhead {overhead['overhead_ns']:.0f} ns "
                    f"(fastest runs: {overhead['overhead_min_ns']:.0f} ns)"
                )
        if level:
            levels[display] = level

    meta = {
        "date": dt.datetime.now().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": _cpu(),
        "cpu_count": os.cpu_count(),
        "load_average_at_start": _LOAD_AT_START,
        "quick": bool(args.quick),
        "target_s_per_op": target_s,
        "samples": samples,
        "module_targets": module_targets,
        "c_targets": c_targets,
        "versions": {d: _version(d) for d in VERSIONED},
        "peers_missing": peers_missing,
        "peer_ops": peer_ops,
        "peer_checks": peer_checks,
    }
    return meta, rows, levels


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--curves", help="comma-separated curve names (default: generated/ and the standard four)")
    parser.add_argument("--quick", action="store_true", help="short runs (~0.02 s per op), slow peers once")
    parser.add_argument("--target", type=float, default=0.2, help="seconds per operation (default 0.2)")
    parser.add_argument("--no-peers", action="store_true", help="measure only our modules")
    parser.add_argument("--no-c", action="store_true", help="skip the C-level microbenchmark")
    parser.add_argument(
        "--no-instructions", action="store_true", help="skip the instruction counts (valgrind) of the C kernels (--quick skips them too)"
    )
    parser.add_argument(
        "--c-targets",
        help="comma-separated targets of the C microbenchmark: generic64, x86_64-adx, x86_64-adx-limbs "
        "(x86_64-adx without the GT field's AVX-512 IFMA kernels; default: those this CPU supports)",
    )
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="results folder (default bench/results)")
    parser.add_argument("--silent", action="store_true", help="no progress lines")
    parser.add_argument(
        "--from-json", type=Path, help="measure nothing: redraw bench.md and bench.png from this bench.json"
    )
    args = parser.parse_args(argv)

    args.out.mkdir(parents=True, exist_ok=True)
    if args.from_json:
        data = json.loads(args.from_json.read_text(encoding="utf-8"))
        meta, rows, levels = data["meta"], data["results"], data.get("c_and_overhead", {})
    else:
        started = time.perf_counter()
        meta, rows, levels = run(args)
        meta["duration_s"] = round(time.perf_counter() - started, 1)
        report.write_json(args.out / "bench.json", meta, rows, levels)
    report.write_markdown(args.out / "bench.md", meta, rows, levels)
    report.write_chart(args.out / "bench.png", meta, rows, levels)
    measured = sum(1 for r in rows if r["ours"])
    print(
        f"bench: {measured} of {len(rows)} operations measured for pairforge; results in "
        f"{args.out}/bench.json, bench.md, bench.png"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
