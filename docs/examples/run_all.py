# SPDX-License-Identifier: MIT OR Apache-2.0
"""Run every recipe of docs/examples (the scripts docs/recipes.md shows), each in its own Python
process with a timeout, and report each one's time.

    python docs/examples/run_all.py                  # all of them
    python docs/examples/run_all.py bls_signatures   # some of them (names without .py)

Each recipe asserts its own results: exit status 0 is a pass. A recipe whose optional tool or
package is missing (status 77, or an ImportError of a package outside the core install) is
skipped locally and fails when CI is set, as the test suite's optional dependencies do. `nox -s
docs` runs this after `mkdocs build --strict`; the exit status is 1 when a recipe failed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# (script, timeout in seconds), in the order of docs/recipes.md
RECIPES = [
    ("bls_signatures.py", 120),
    ("groth16_snarkjs.py", 60),
    ("eip4844_ckzg.py", 180),
    ("evm_precompiles.py", 60),
    ("ecvrf_bandersnatch.py", 60),
    ("kzg_ptau_bn254.py", 60),
    ("dask_cluster.py", 180),
    ("wasm.py", 180),
    ("custom_curve.py", 300),
]
SKIPPED = 77  # a recipe's own "skipped" status (automake's convention)
# Packages of the test, distributed and wasm extras: a recipe that cannot import one is skipped
OPTIONAL = {"py_ecc", "ckzg", "dask", "distributed", "wasmtime", "ziglang", "blspy"}
MISSING = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def run(script: str, timeout: float) -> tuple[str, float, str]:
    """(status, seconds, output) of one recipe: status PASS, FAIL, SKIP or TIMEOUT."""
    env = dict(os.environ)
    # the checkout first on the path, so that a bare checkout (not pip-installed) runs the recipes
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    start = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, str(HERE / script)], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return "TIMEOUT", time.perf_counter() - start, f"{out}\n(killed after {timeout:.0f} s)"
    seconds = time.perf_counter() - start
    output = proc.stdout + proc.stderr
    if proc.returncode == 0:
        return "PASS", seconds, output
    missing = MISSING.search(proc.stderr)
    if proc.returncode == SKIPPED or (missing and missing.group(1).partition(".")[0] in OPTIONAL):
        return "SKIP", seconds, output
    return "FAIL", seconds, output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="recipes to run (default: all), e.g. bls_signatures")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every recipe's output")
    args = parser.parse_args(argv)
    known = {Path(script).stem: (script, timeout) for script, timeout in RECIPES}
    unknown = [n for n in args.names if Path(n).stem not in known]
    if unknown:
        parser.error(f"no such recipe: {', '.join(unknown)} (known: {', '.join(known)})")
    chosen = [known[Path(n).stem] for n in args.names] if args.names else RECIPES

    results, started = [], time.perf_counter()
    for script, timeout in chosen:
        status, seconds, output = run(script, timeout)
        results.append((script, status, seconds))
        print(f"{status:8} {seconds:7.1f} s  {script}", flush=True)
        if status != "PASS" or args.verbose:
            print("\n".join(f"    {line}" for line in output.rstrip().splitlines()[-40:]), flush=True)
    total = time.perf_counter() - started

    failed = [s for s, status, _ in results if status in ("FAIL", "TIMEOUT")]
    skipped = [s for s, status, _ in results if status == "SKIP"]
    passed = len(results) - len(failed) - len(skipped)
    print(f"recipes: {passed} passed, {len(failed)} failed, {len(skipped)} skipped in {total:.1f} s")
    if skipped and in_ci():
        print(f"skipped recipes fail under CI: {', '.join(skipped)}")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
