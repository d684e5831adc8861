"""Where the wasm32 module spends its time under Node: V8's sampling profiler (``node --cpu-prof``)
over repeated calls of one operation, summed per wasm function (for the WebAssembly speed targets).

    python research/wasm_profile.py [--curve bls12_381] [--op pairing] [--calls 300] [--top 25]

Builds the package's ABI module as generator/wasm.py does but keeps the function names (no
``-s``), calls the operation of bench/wasm.py (same inputs: decoding with subgroup checks
included) ``--calls`` times through the ES module loader, and prints each function's share of the
samples taken in it (self time), with the callers that account for most of it. Functions the
compiler inlined are counted in their caller: the table names the functions that stay calls in
the module (fp_mul, fp2_mul, fp6_mul, ...), which is the granularity the kernels work at.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import wasm as wasm_bench  # noqa: E402  (bench/wasm.py: the inputs and operations)
from generator import wasm  # noqa: E402

DRIVER = r"""
import { readFileSync } from 'node:fs';
const [wasmPath, loader, specPath] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specPath, 'utf8'));
const hex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const { load } = await import(loader);
const curve = await load(readFileSync(wasmPath));
const o = spec.ops;
const calls = {
  pairing: () => curve.pairing(hex(o.p), hex(o.q)),
  g1_mul: () => curve.g1Mul(hex(o.p), hex(o.k)),
  g1_msm: ((pts, ks) => () => curve.msm('g1', pts, ks))(o.msm_points.map(hex), o.msm_scalars.map(hex)),
};
const fn = calls[spec.op];
for (let i = 0; i < spec.calls; i++) fn();
"""


def build_named(pkg_dir: Path, out: Path) -> Path:
    """The ABI module with its name section (generator/wasm.py's command less ``-s``)."""
    tmp = out.parent
    cmd = [a for a in wasm.abi_command(pkg_dir, out, wasm._shim_dir(tmp)) if a != "-s"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise wasm.WasmBuildError(proc.stderr[-4000:])
    return out


def self_times(profile: dict) -> tuple[collections.Counter, dict[str, collections.Counter], int]:
    """Samples per function name (self time) and, per function, the samples by caller."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}
    name = lambda i: nodes[i]["callFrame"]["functionName"] or "(anonymous)"  # noqa: E731
    own: collections.Counter = collections.Counter()
    callers: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    samples = collections.Counter(profile["samples"])
    for nid, count in samples.items():
        own[name(nid)] += count
        if nid in parent:
            callers[name(nid)][name(parent[nid])] += count
    return own, callers, sum(samples.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--curve", default="bls12_381")
    ap.add_argument("--op", default="pairing", choices=wasm_bench.OPS)
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    node = shutil.which("node")
    if node is None:
        print("node is not installed", file=sys.stderr)
        return 1
    pkg_dir = ROOT / "generated" / args.curve
    ops = wasm_bench.inputs(importlib.import_module(f"generated.{args.curve}"), random.Random(15))
    with tempfile.TemporaryDirectory(prefix="pairforge-wasm-profile-") as tmp_name:
        tmp = Path(tmp_name)
        module = build_named(pkg_dir, tmp / f"{args.curve}.wasm")
        (tmp / "driver.mjs").write_text(DRIVER)
        (tmp / "spec.json").write_text(json.dumps({"op": args.op, "calls": args.calls, "ops": ops}))
        loader = (pkg_dir / "wasm" / f"{args.curve}.mjs").as_uri()
        subprocess.run([node, "--cpu-prof", f"--cpu-prof-dir={tmp / 'prof'}", str(tmp / "driver.mjs"), str(module),
                        loader, str(tmp / "spec.json")], check=True)
        (profile_path,) = (tmp / "prof").glob("*.cpuprofile")
        own, callers, total = self_times(json.loads(profile_path.read_text()))
    print(f"\n{args.curve} {args.op}, {args.calls} calls under Node {subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip()}: "
          f"{total} samples\n")
    print("| function | self time | main callers (share of its samples) |\n|---|---:|---|")
    for fn, count in own.most_common(args.top):
        by = callers.get(fn, collections.Counter())
        top = ", ".join(f"{c} {100 * k / count:.0f}%" for c, k in by.most_common(4))
        print(f"| {fn} | {100 * count / total:.1f}% | {top} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
