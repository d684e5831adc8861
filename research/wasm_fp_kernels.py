"""Montgomery multiplication kernels for wasm32, measured one against another (WebAssembly targets).

    python research/wasm_fp_kernels.py [--curve bls12_381] [--rounds 5] [--checks 2000]

Builds research/c/wasm_fp_kernels.c (the variants are described there) for the Fp of a curve with
zig cc, the flags of generator/wasm.py, twice: without SIMD and with ``-msimd128`` (for the SIMD
variant). Each kernel is checked against Python's integers on random inputs (and on p - 1) under
wasmtime, then timed under Node (a chain of n dependent calls, best of the rounds) and under
wasmtime; prints ns per call and the speed-up against the current kernel (a). wasmtime's fuel
(one unit per executed wasm instruction) gives a load-independent instruction count per call.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator import wasm  # noqa: E402

SOURCE = ROOT / "research" / "c" / "wasm_fp_kernels.c"
MULS = ("a", "b", "c")
SQRS = ("a", "c")
CHAIN = 2000

NODE_TIMER = r"""
const [wasmPath, specJson] = process.argv.slice(1);
const fs = await import('node:fs');
const spec = JSON.parse(specJson);
const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath));
const e = instance.exports;
const buf = e.buffer();
const runs = {};
for (const name of spec.names) {
  const f = e['chain_' + name];
  const isSqr = name.startsWith('sqr');
  const words = new BigUint64Array(e.memory.buffer, buf, 2 * spec.nl);
  runs[name] = (n) => { words.set(spec.x.map(BigInt), 0); words.set(spec.y.map(BigInt), spec.nl);
                        return isSqr ? f(buf, n) : f(buf, buf + 8 * spec.nl, n); };
  for (let w = 0; w < 20; w++) runs[name](spec.n);  // warm up (tier-up to the optimizing compiler)
}
const out = {};
for (let r = 0; r < spec.reps; r++) {  // round robin: every kernel sees the same load
  for (const name of spec.names) {
    const t0 = process.hrtime.bigint(); runs[name](spec.n); const t1 = process.hrtime.bigint();
    out[name] = Math.min(out[name] ?? Infinity, Number(t1 - t0) / spec.n);
  }
}
console.log(JSON.stringify(out));
"""


def field_header(p: int, nl: int) -> str:
    limbs = ", ".join(f"UINT64_C({(p >> (64 * i)) & (2**64 - 1):#018x})" for i in range(nl))
    n0 = (-pow(p, -1, 2**64)) % 2**64
    return (f"#define NL {nl}\nstatic const uint64_t FP_P[NL] = {{{limbs}}};\n"
            f"static const uint64_t FP_N0 = UINT64_C({n0:#018x});\n")


def build(tmp: Path, p: int, nl: int, simd: bool) -> Path:
    (tmp / "wasm_fp_field.h").write_text(field_header(p, nl))
    out = tmp / f"kernels{'-simd' if simd else ''}.wasm"
    cmd = [*wasm.zig_command(), "cc", "-target", "wasm32-freestanding", *wasm.COMMON_ARGS,
           *(["-msimd128"] if simd else []), "-I", str(tmp), "-Wl,--no-entry", "-s", str(SOURCE), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(proc.stderr)
    return out


class Module:
    """One build under wasmtime, with fuel metering for instruction counts."""

    def __init__(self, path: Path, nl: int, fuel: bool = False):
        import wasmtime

        cfg = wasmtime.Config()
        cfg.consume_fuel = fuel  # metering slows the code down: time without it
        self.store = wasmtime.Store(wasmtime.Engine(cfg))
        self.fuel = fuel
        if fuel:
            self.store.set_fuel(2**62)
        inst = wasmtime.Instance(self.store, wasmtime.Module.from_file(self.store.engine, str(path)), [])
        self.ex = inst.exports(self.store)
        self.mem = self.ex["memory"]
        self.buf = self.ex["buffer"](self.store)
        self.nl = nl

    def names(self) -> list[str]:
        return [n for n in self.ex if n.startswith(("mul_", "sqr_"))]

    def _put(self, slot: int, x: int) -> int:
        addr = self.buf + 8 * self.nl * slot
        self.mem.write(self.store, x.to_bytes(8 * self.nl, "little"), addr)
        return addr

    def _get(self, slot: int) -> int:
        addr = self.buf + 8 * self.nl * slot
        return int.from_bytes(self.mem.read(self.store, addr, addr + 8 * self.nl), "little")

    def call(self, name: str, a: int, b: int) -> int:
        o, pa, pb = self._put(2, 0), self._put(0, a), self._put(1, b)
        self.ex[name](self.store, o, pa, *([pb] if name.startswith("mul") else []))
        return self._get(2)

    def chain(self, name: str, x: int, y: int, n: int) -> tuple[float, float]:
        """(seconds per call, fuel per call) of a chain of n calls."""
        px, py = self._put(0, x), self._put(1, y)
        f = self.ex["chain_" + name]
        args = [px, py, n] if name.startswith("mul") else [px, n]
        fuel0 = self.store.get_fuel() if self.fuel else 0
        t0 = time.perf_counter()
        f(self.store, *args)
        dt = time.perf_counter() - t0
        return dt / n, ((fuel0 - self.store.get_fuel()) / n if self.fuel else float("nan"))


def check(mod: Module, p: int, nl: int, n: int, rng: random.Random) -> int:
    """Each kernel against Python's integers; returns the number of products checked."""
    rinv = pow(2 ** (64 * nl), -1, p)
    cases = [(p - 1, p - 1), (0, p - 1), (1, 1)] + [(rng.randrange(p), rng.randrange(p)) for _ in range(n)]
    for name in mod.names():
        for a, b in cases:
            if name.startswith("sqr"):
                b = a
            got = mod.call(name, a, b)
            if got != a * b * rinv % p:
                raise SystemExit(f"{name}({a:#x}, {b:#x}) = {got:#x}, expected {a * b * rinv % p:#x}")
    return len(cases) * len(mod.names())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--curve", default="bls12_381")
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--checks", type=int, default=2000)
    args = ap.parse_args(argv)
    p = importlib.import_module(f"generated.{args.curve}").P
    nl = (p.bit_length() + 63) // 64
    rng = random.Random(15)
    x, y = rng.randrange(p), rng.randrange(p)
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for simd in (False, True):
            path = build(Path(tmp), p, nl, simd)
            mod, metered = Module(path, nl), Module(path, nl, fuel=True)
            checked = check(mod, p, nl, args.checks, rng)
            tag = " (simd128 build)" if simd else ""
            print(f"{path.name}: {path.stat().st_size} bytes, {checked} products checked{tag}", file=sys.stderr)
            names = mod.names()
            for _ in range(args.rounds):  # round robin, the fastest chain of each kernel
                for name in names:
                    key = name + (" simd" if simd else "")
                    t = mod.chain(name, x, y, CHAIN)[0] * 1e9
                    cell = results.setdefault(key, {"wasmtime_ns": t, "fuel": metered.chain(name, x, y, 100)[1]})
                    cell["wasmtime_ns"] = min(cell["wasmtime_ns"], t)
            spec = {"names": names, "nl": nl, "n": CHAIN, "reps": args.rounds,
                    "x": [str((x >> (64 * i)) & (2**64 - 1)) for i in range(nl)],
                    "y": [str((y >> (64 * i)) & (2**64 - 1)) for i in range(nl)]}
            proc = subprocess.run(["node", "--input-type=module", "-e", NODE_TIMER, str(path), json.dumps(spec)],
                                  capture_output=True, text=True, check=True)
            for name, ns in json.loads(proc.stdout).items():
                results[name + (" simd" if simd else "")]["node_ns"] = ns
    print(f"\nFp of {args.curve} ({p.bit_length()} bits, {nl} x 64-bit limbs), ns per call, fastest chain of {CHAIN} calls in {args.rounds} rounds:\n")
    print("| kernel | Node | wasmtime | wasm instructions (fuel) | Node speed-up vs a | wasmtime speed-up vs a |")
    print("|---|---:|---:|---:|---:|---:|")
    for key, r in results.items():
        base = results[("mul_a" if key.startswith("mul") else "sqr_a") + (" simd" if key.endswith("simd") else "")]
        print(f"| {key} | {r['node_ns']:.0f} | {r['wasmtime_ns']:.0f} | {r['fuel']:.0f} | "
              f"{base['node_ns'] / r['node_ns']:.2f}x | {base['wasmtime_ns'] / r['wasmtime_ns']:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
