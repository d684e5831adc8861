// One round of bench/wasm.py under Node: `node bench/wasm_node.mjs INPUT.json` times each
// (module, operation) of the input file and prints {"<module> <op>": seconds per call, ...}:
// the fastest of a few batches of about batch_s each (the same rule as bench/wasm.py in Python).
// Every module is loaded and warmed up before any is timed, and the batches go round robin over
// the modules, so that V8's background tier-up and changes in the machine's load reach all of them
// alike. On a loaded machine that is not enough: two byte-identical modules gave 7.96 and 4.70 ms
// (timed one after the other) and 4.08 and 5.60 ms (round robin) for the same pairing; compare
// wasm instruction counts (--fuel) or many interleaved CPU-time batches there.
import { readFileSync } from 'node:fs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const hex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const runs = [];
for (const mod of spec.modules) {
  const { load } = await import(mod.loader);
  const curve = await load(readFileSync(mod.wasm));
  const ops = spec.ops[mod.curve];
  const calls = {
    pairing: () => curve.pairing(hex(ops.p), hex(ops.q)),
    g1_mul: () => curve.g1Mul(hex(ops.p), hex(ops.k)),
    g1_msm: ((pts, ks) => () => curve.msm('g1', pts, ks))(ops.msm_points.map(hex), ops.msm_scalars.map(hex)),
  };
  for (const [name, fn] of Object.entries(calls)) runs.push({ key: `${mod.label} ${name}`, fn });
}
for (const run of runs) {  // warm up (tier-up to the optimizing compiler), then size the batches
  run.fn();
  const t = performance.now();
  run.fn();
  const once = (performance.now() - t) / 1e3;
  run.n = Math.max(1, Math.floor(spec.batch_s / Math.max(once, 1e-7)));
  for (let i = 0; i < run.n; i++) run.fn();
}
const out = {};
for (let b = 0; b < spec.batches; b++) {
  for (const run of runs) {
    const t = performance.now();
    for (let i = 0; i < run.n; i++) run.fn();
    out[run.key] = Math.min(out[run.key] ?? Infinity, (performance.now() - t) / 1e3 / run.n);
  }
}
console.log(JSON.stringify(out));
