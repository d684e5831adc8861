"""How much one build's speed depends on the physical pages its module is loaded from.

    python bench/placement.py [--curves bls12_381,bn254] [--copies 8] [--generated DIR ...]
                              [--ops pairing,miller_loop,final_exp,g1_mul,g2_mul]

Byte-identical module files do not always run at the same speed. On the Zen 5 host of
2026-12-05 eight copies of BW6-761's module ran its final exponentiation in 519–557 µs, one of eight
copies of BN254's ran its Miller loop 87% slower than the others, and a C benchmark binary that
ran 35% slower under one file name ran at the usual speed once the page cache was dropped (the
same bytes, new physical pages). A
figure measured on one build is therefore one draw from a spread. This script copies each package
``--copies`` times (every copy a new file, so new page-cache pages), times each copy in a fresh
process and prints the fastest, median and slowest copy per operation, so that a change can be
judged against the spread rather than against one draw. With several ``--generated`` folders
(builds of two versions, e.g. ``gen-curve NAME --out DIR``) the copies of the builds alternate.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bench.timing import measure  # noqa: E402

GENERATED = REPO_ROOT / "generated"
DEFAULT_OPERATIONS = ("pairing", "miller_loop", "final_exp")
OPERATIONS = (*DEFAULT_OPERATIONS, "g1_mul", "g2_mul")  # what --ops may name


def import_copy(root: Path, module: str):
    """Import the curve package ``module`` from the copy under root, and refuse any other: the copy
    goes ahead of the repository (sys.path[0] above) and of the editable install, whose
    generated/ would otherwise be imported in its place."""
    import importlib

    sys.path.insert(0, str(root))
    curve = importlib.import_module(module)
    loaded = Path(curve._impl.__file__).resolve()  # the compiled module the package loaded
    if not loaded.is_relative_to(root.resolve()):
        raise RuntimeError(f"imported {loaded}, not the copy under {root}")
    return curve


def time_copy(root: Path, pkg: str, names: list[str]) -> dict[str, float]:
    """Microseconds per call of the operations ``names`` of the copy ``root/generated/<pkg>``,
    fastest sample of each. ``g1_mul`` and ``g2_mul`` are the constant-time ``P * k`` with a
    full-size k."""
    import random

    curve = import_copy(root, f"generated.{pkg}")
    rng = random.Random(1)
    P = curve.G1.generator() * rng.randrange(1, curve.R)
    Q = curve.G2.generator() * rng.randrange(1, curve.R)
    f = curve.miller_loop(P, Q)
    k = rng.randrange(1, curve.R)
    ops = {
        "pairing": lambda: curve.pairing(P, Q),
        "miller_loop": lambda: curve.miller_loop(P, Q),
        "final_exp": lambda: curve.final_exponentiation(f),
        "g1_mul": lambda: P * k,
        "g2_mul": lambda: Q * k,
    }
    return {name: measure(ops[name], target_s=0.3).min_ns / 1e3 for name in names}


def comma_list(text: str) -> list[str]:
    """The non-empty names of a comma-separated option (--curves, --ops)."""
    return [name.strip() for name in text.split(",") if name.strip()]


def fresh_copy(generated: Path, pkg: str, root: Path) -> Path:
    """A new file copy of <generated>/<pkg> (sources and modules) under root/generated; returns
    root."""
    target = root / "generated"
    target.mkdir(parents=True)
    shutil.copy2(generated / "__init__.py", target / "__init__.py")
    shutil.copytree(generated / pkg, target / pkg, ignore=shutil.ignore_patterns("build", "__pycache__"))
    return root


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--curves", default="bls12_381,bn254", help="packages in generated/, comma-separated")
    parser.add_argument("--copies", type=int, default=8, help="fresh copies of each package (default 8)")
    parser.add_argument(
        "--generated",
        type=Path,
        action="append",
        metavar="DIR",
        help="a generated/ folder to copy from (repeatable; default the repository's)",
    )
    parser.add_argument(
        "--ops",
        default=",".join(DEFAULT_OPERATIONS),
        help=f"operations to time, comma-separated, from {', '.join(OPERATIONS)} (default: %(default)s)",
    )
    parser.add_argument("--child", metavar="PKG", help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)  # the child's copy
    args = parser.parse_args()
    names = comma_list(args.ops)
    unknown = sorted(set(names) - set(OPERATIONS))
    if unknown or not names:
        parser.error(f"--ops: unknown {', '.join(unknown)}" if unknown else "--ops: nothing to time")
    if args.child:
        print(json.dumps(time_copy(args.root, args.child, names)))
        return 0
    if args.copies < 2:
        parser.error("--copies must be at least 2")
    pkgs = comma_list(args.curves)
    builds = [folder.resolve() for folder in (args.generated or [GENERATED])]
    missing = [
        f"{build}/{pkg}" for build in builds for pkg in pkgs if not (build / pkg / "__init__.py").is_file()
    ]
    if missing:
        parser.error(f"no package at {', '.join(missing)} (run gen-curve first)")
    results: dict[tuple[Path, str], list[dict[str, float]]] = {(b, pkg): [] for b in builds for pkg in pkgs}
    with tempfile.TemporaryDirectory(prefix="pairforge-placement-") as tmp:
        for k in range(args.copies):
            for index, build in enumerate(builds):  # interleaved, so that every one sees the same load
                for pkg in pkgs:
                    root = fresh_copy(build, pkg, Path(tmp) / f"{index}-{pkg}-{k}")
                    run = subprocess.run(
                        [sys.executable, __file__, "--child", pkg, "--root", str(root), "--ops", ",".join(names)],
                        cwd=tmp,
                        capture_output=True,
                        text=True,
                    )
                    if run.returncode != 0:
                        print(run.stderr, file=sys.stderr)
                        return 1
                    times = json.loads(run.stdout)
                    results[build, pkg].append(times)
                    print(
                        f"copy {k + 1}/{args.copies} {build} {pkg}: "
                        + ", ".join(f"{op} {times[op]:.1f} us" for op in names),
                        flush=True,
                    )
    print(
        f"\n{'build':4} {'package':12} {'operation':12} {'fastest':>9} {'median':>9} {'slowest':>9} {'spread':>7}"
    )
    for index, build in enumerate(builds):
        for pkg in pkgs:
            for op in names:
                times = sorted(copy[op] for copy in results[build, pkg])
                print(
                    f"{index:<4} {pkg:12} {op:12} {times[0]:9.1f} {statistics.median(times):9.1f}"
                    f" {times[-1]:9.1f} {times[-1] / times[0] - 1:6.1%}"
                )
    for index, build in enumerate(builds):
        print(f"build {index}: {build}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
