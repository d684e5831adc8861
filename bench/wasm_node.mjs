// One round of bench/wasm.py under Node: `node bench/wasm_node.mjs INPUT.json` times each
// (module, operation) of the input file and prints {"<module> <op>": seconds per call, ...}:
// the fastest of a few batches of about batch_s each (the same rule as bench/wasm.py in Python).
import { readFileSync } from 'node:fs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const hex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const out = {};
for (const mod of spec.modules) {
  const { load } = await import(mod.loader);
  const curve = await load(readFileSync(mod.wasm));
  const ops = spec.ops[mod.curve];
  const calls = {
    pairing: () => curve.pairing(hex(ops.p), hex(ops.q)),
    g1_mul: () => curve.g1Mul(hex(ops.p), hex(ops.k)),
    g1_msm: ((pts, ks) => () => curve.msm('g1', pts, ks))(ops.msm_points.map(hex), ops.msm_scalars.map(hex)),
  };
  for (const [name, fn] of Object.entries(calls)) {
    fn();
    let t = performance.now();
    fn();
    const once = (performance.now() - t) / 1e3;
    const n = Math.max(1, Math.floor(spec.batch_s / Math.max(once, 1e-7)));
    let best = Infinity;
    for (let b = 0; b < spec.batches; b++) {
      t = performance.now();
      for (let i = 0; i < n; i++) fn();
      best = Math.min(best, (performance.now() - t) / 1e3 / n);
    }
    out[`${mod.label} ${name}`] = best;
  }
}
console.log(JSON.stringify(out));
