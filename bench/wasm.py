"""The wasm32 target against native, in one run (the WebAssembly speed targets, docs/performance.md).

    python bench/wasm.py [--rounds 3] [--curves bls12_381 bn254] [--widths 64 32] [--baseline DIR]

For BLS12-381 and BN254: the pairing, G1 scalar multiplication (constant time, P * k) and G1 MSM
of 1024 points, each with its byte decoding of the inputs (subgroup checks included, as the
WebAssembly ABI always does them: the native rows decode too), measured

* natively: the x86_64-adx module and the generic64 module of the Python package,
* under wasmtime (the Python loader, generator/wasm_loader.py) and under Node (the ES module),
  for both limb widths of the wasm32 build (64-bit limbs, the default, and 32-bit limbs), and,
  with --baseline DIR, for the 64-bit build of an earlier rendering (DIR/<pkg>/c, e.g. the
  generated/ folder of another checkout): before and after a kernel change in one run.

Round after round the native modules, wasmtime and a Node process take turns, so all see the same
load; each cell is the fastest batch of all rounds. Prints a table with the ratios to x86_64-adx
and the size of each .wasm; the modules are built (once per content hash) into build/wasm-cache.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.timing import fastest  # noqa: E402
from generator import wasm  # noqa: E402
from generator.wasm_loader import WasmCurve  # noqa: E402

CACHE = ROOT / "build" / "wasm-cache"
MSM_N = 1024
OPS = ("pairing", "g1_mul", "g1_msm")


def cached(pkg: str, limb_bits: int, generated: Path = ROOT / "generated") -> Path:
    pkg_dir = generated / pkg
    path = CACHE / f"{pkg}-{limb_bits}-{wasm.source_digest(pkg_dir, limb_bits)}.wasm"
    if not path.is_file():
        print(f"building {path.name} ...", file=sys.stderr, flush=True)
        wasm.build_wasm(pkg_dir, path, limb_bits)
    return path


def inputs(C, rng: random.Random) -> dict:
    P = C.G1.generator() * rng.randrange(1, C.R)
    Q = C.G2.generator() * rng.randrange(1, C.R)
    nb = len(C.Fr(0).to_bytes())
    pts = [C.G1.generator() * rng.randrange(1, C.R) for _ in range(MSM_N)]
    ks = [rng.randrange(C.R) for _ in range(MSM_N)]
    return {"p": P.to_bytes().hex(), "q": Q.to_bytes().hex(), "k": rng.randrange(C.R).to_bytes(nb, "big").hex(),
            "msm_points": [p.to_bytes().hex() for p in pts], "msm_scalars": [k.to_bytes(nb, "big").hex() for k in ks]}


def native_calls(mod, ops: dict) -> dict[str, Callable[[], object]]:
    """The same work as the ABI: decode (subgroup checked), compute, encode."""
    p, q, k = bytes.fromhex(ops["p"]), bytes.fromhex(ops["q"]), int(ops["k"], 16)
    pts = [bytes.fromhex(x) for x in ops["msm_points"]]
    ks = [int(x, 16) for x in ops["msm_scalars"]]
    G1, G2 = mod.G1, mod.G2
    return {
        "pairing": lambda: mod.pairing(G1.from_bytes(p), G2.from_bytes(q)).to_bytes(),
        "g1_mul": lambda: (G1.from_bytes(p) * k).to_bytes(),
        "g1_msm": lambda: G1.msm(G1.batch_from_bytes(pts), ks, threads=1).to_bytes(),
    }


def wasmtime_calls(w: WasmCurve, ops: dict) -> dict[str, Callable[[], object]]:
    p, q, k = bytes.fromhex(ops["p"]), bytes.fromhex(ops["q"]), bytes.fromhex(ops["k"])
    pts = [bytes.fromhex(x) for x in ops["msm_points"]]
    ks = [bytes.fromhex(x) for x in ops["msm_scalars"]]
    return {"pairing": lambda: w.pairing(p, q), "g1_mul": lambda: w.mul(1, p, k), "g1_msm": lambda: w.msm(1, pts, ks)}


def fmt(s: float | None) -> str:
    if s is None:
        return "—"
    return f"{s * 1e3:.2f} ms" if s >= 1e-3 else f"{s * 1e6:.0f} µs"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--curves", nargs="+", default=["bls12_381", "bn254"])
    ap.add_argument("--widths", nargs="+", default=["64", "32"], choices=["64", "32"], help="limb widths of the wasm32 builds")
    ap.add_argument("--fuel", action="store_true", help="also count the wasm instructions of one call of each "
                    "operation (wasmtime's fuel: independent of the machine's load)")
    ap.add_argument("--baseline", type=Path, help="an earlier generated/ folder: its 64-bit build in the columns 'base'")
    args = ap.parse_args(argv)
    builds = [(w, int(w), ROOT / "generated") for w in args.widths]
    if args.baseline:
        builds.append(("base", 64, args.baseline.resolve()))
    node = shutil.which("node")
    rng = random.Random(15)
    best: dict[tuple[str, str, str], float] = {}
    spec = {"modules": [], "ops": {}, "batches": 3, "batch_s": 0.15}
    py_calls: dict[tuple[str, str], dict[str, Callable[[], object]]] = {}
    sizes: dict[tuple[str, str], int] = {}
    fuel: dict[tuple[str, str, str], int] = {}
    for pkg in args.curves:
        package = importlib.import_module(f"generated.{pkg}")
        ops = inputs(package, rng)
        spec["ops"][pkg] = ops
        py_calls[pkg, "x86_64-adx"] = native_calls(importlib.import_module(f"generated.{pkg}._core_adx"), ops)
        py_calls[pkg, "generic64"] = native_calls(package._portable, ops)
        for tag, bits, generated in builds:
            path = cached(pkg, bits, generated)
            sizes[pkg, tag] = path.stat().st_size
            if args.fuel:
                metered = WasmCurve(path, fuel=2**62)
                for op, fn in wasmtime_calls(metered, ops).items():
                    before = metered.fuel_used()
                    fn()
                    fuel[pkg, tag, op] = metered.fuel_used() - before
            py_calls[pkg, f"wasmtime {tag}"] = wasmtime_calls(WasmCurve(path), ops)
            spec["modules"].append({"curve": pkg, "label": f"{pkg} node {tag}", "wasm": str(path),
                                    "loader": (ROOT / "generated" / pkg / "wasm" / f"{pkg}.mjs").as_uri()})
    with tempfile.TemporaryDirectory() as tmp:
        spec_path = Path(tmp) / "spec.json"
        spec_path.write_text(json.dumps(spec))
        for r in range(args.rounds):
            print(f"round {r + 1}/{args.rounds}", file=sys.stderr, flush=True)
            for (pkg, impl), calls in py_calls.items():
                for op, fn in calls.items():
                    t = fastest(fn)
                    best[pkg, impl, op] = min(best.get((pkg, impl, op), t), t)
            if node:
                proc = subprocess.run([node, str(ROOT / "bench" / "wasm_node.mjs"), str(spec_path)],
                                      capture_output=True, text=True, check=True)
                for key, t in json.loads(proc.stdout).items():
                    pkg, _, bits, op = key.split(" ")
                    cell = (pkg, f"node {bits}", op)
                    best[cell] = min(best.get(cell, t), t)
    tags = [tag for tag, _, _ in builds]
    impls = ["x86_64-adx", "generic64", *(f"wasmtime {t}" for t in tags), *(f"node {t}" for t in tags)]
    ratio_impls = [f"{rt} {t}" for rt in ("node", "wasmtime") for t in tags if t != "32"]
    print("\n| curve | operation | " + " | ".join(impls) + " | " + " | ".join(f"{i} / adx" for i in ratio_impls) + " |")
    print("|---|---|" + "---:|" * (len(impls) + len(ratio_impls)))
    for pkg in args.curves:
        for op in OPS:
            cells = [best.get((pkg, i, op)) for i in impls]
            adx = best.get((pkg, "x86_64-adx", op))
            ratios = [f"{best[pkg, i, op] / adx:.2f}×" if adx and (pkg, i, op) in best else "—"
                      for i in ratio_impls]
            print(f"| {pkg} | {op} | " + " | ".join(fmt(c) for c in cells) + " | " + " | ".join(ratios) + " |")
    print("\n| curve | " + " | ".join(f".wasm {t}" for t in tags) + " |\n|---|" + "---:|" * len(tags))
    for pkg in args.curves:
        print(f"| {pkg} | " + " | ".join(f"{sizes[pkg, t] / 1024:.0f} KB" for t in tags) + " |")
    if fuel:
        print("\n| curve | operation | " + " | ".join(f"wasm instructions, {t}" for t in tags) + " |\n|---|---|"
              + "---:|" * len(tags))
        for pkg in args.curves:
            for op in OPS:
                print(f"| {pkg} | {op} | " + " | ".join(f"{fuel[pkg, t, op] / 1e6:.2f} M" for t in tags) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
