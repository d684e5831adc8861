"""The pairing of one curve package against another's, interleaved in one run (a loaded machine
slows both alike): pairing, Miller loop and final exponentiation, the median and best of each, and
the ratios of the first package to the second, in wall time and in this process's CPU time (which
leaves out the time other processes hold the core).

    python research/pairing_ratio.py DIR_A/pkg_a DIR_B/pkg_b [--rounds N]

e.g. ``python research/pairing_ratio.py /tmp/out/bw6_633 generated/bw6_761``: a test-only curve
built at the shipped flags with ``gen-curve --params FILE --out /tmp/out`` against a shipped one.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
from pathlib import Path
from time import perf_counter_ns, process_time_ns


def load(path: str):
    """Import the package at ``path`` (a folder holding ``<pkg>/__init__.py``)."""
    folder = Path(path).resolve()
    sys.path.insert(0, str(folder.parent))
    try:
        return importlib.import_module(folder.name)
    finally:
        sys.path.remove(str(folder.parent))


def operations(C) -> dict[str, callable]:
    P, Q = C.G1.generator() * 12345, C.G2.generator() * 67890
    f = C.miller_loop([P], [Q])
    return {
        "pairing": lambda: C.pairing(P, Q),
        "miller_loop": lambda: C.miller_loop([P], [Q]),
        "final_exponentiation": lambda: C.final_exponentiation(f),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--rounds", type=int, default=40, help="interleaved rounds (one call of each op per package)")
    args = ap.parse_args(argv)
    pkgs = [load(args.a), load(args.b)]
    ops = [operations(C) for C in pkgs]
    times: dict[tuple[int, str], list[int]] = {(i, name): [] for i in range(2) for name in ops[0]}
    cpu: dict[tuple[int, str], list[int]] = {(i, name): [] for i in range(2) for name in ops[0]}
    for name in ops[0]:                       # warm-up
        for i in range(2):
            ops[i][name]()
    for _ in range(args.rounds):
        for name in ops[0]:
            for i in range(2):
                start, start_cpu = perf_counter_ns(), process_time_ns()
                ops[i][name]()
                times[(i, name)].append(perf_counter_ns() - start)
                cpu[(i, name)].append(process_time_ns() - start_cpu)
    names = [getattr(C, "NAME", C.__name__) for C in pkgs]
    targets = [getattr(C, "TARGET", "?") for C in pkgs]
    print(f"{names[0]} ({targets[0]}) against {names[1]} ({targets[1]}), {args.rounds} interleaved rounds")
    for label, table in (("wall", times), ("CPU", cpu)):
        print(f"\n{label} time")
        print(f"| operation | {names[0]} median (best) µs | {names[1]} median (best) µs | ratio median | ratio best |")
        print("|---|---:|---:|---:|---:|")
        for name in ops[0]:
            med = [statistics.median(table[(i, name)]) / 1e3 for i in range(2)]
            best = [min(table[(i, name)]) / 1e3 for i in range(2)]
            print(f"| {name} | {med[0]:.0f} ({best[0]:.0f}) | {med[1]:.0f} ({best[1]:.0f}) | "
                  f"{med[0] / med[1]:.3f} | {best[0] / best[1]:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
