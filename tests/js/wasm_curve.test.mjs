// Node tests of the ES module loader (<pkg>/wasm/<pkg>.mjs) on what every curve has, without the
// protocol entry points: run by tests/wasm/test_wasm_node.py (the curves with G2 over Fp4) with
// `node --test`. The fixture file (PAIRFORGE_WASM_FIXTURE) names the loader and the .wasm and holds
// values made by the Python module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const fx = JSON.parse(readFileSync(process.env.PAIRFORGE_WASM_FIXTURE, 'utf8'));
const hex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const str = (b) => Buffer.from(b).toString('hex');
const { load, PairforgeError, NAME } = await import(fx.loader);
const curve = await load(readFileSync(fx.wasm));

test('the module is the curve of the fixture', () => {
  assert.equal(NAME, fx.name);
});

test('G2 over the loader: add, mul, decode, hash to curve, as the Python module', () => {
  assert.equal(str(curve.add('g2', hex(fx.q), hex(fx.q2))), fx.q_plus_q2);
  assert.equal(str(curve.mul('g2', hex(fx.q), hex(fx.k))), fx.q_times_k);
  assert.equal(str(curve.decode('g2', hex(fx.q))), fx.q_uncompressed);
  assert.equal(str(curve.hashToCurve('g2', new TextEncoder().encode('abc'), new TextEncoder().encode(fx.dst))), fx.h2c);
});

test('a pairing and a pairing check', () => {
  assert.equal(str(curve.pairing(hex(fx.p), hex(fx.q))), fx.gt);
  assert.equal(curve.pairingCheck([hex(fx.p), hex(fx.neg_p)], [hex(fx.q), hex(fx.q)]), true);
  assert.equal(curve.pairingCheck([hex(fx.p), hex(fx.p)], [hex(fx.q), hex(fx.q)]), false);
});

test('bad input is a PairforgeError with its code', () => {
  assert.throws(() => curve.pairing(hex(fx.p), hex(fx.q).slice(1)), (e) => e instanceof PairforgeError && e.code === 1);
  assert.throws(() => curve.add('g2', hex(fx.outside_g2), hex(fx.q)), (e) => e instanceof PairforgeError && e.code === 9);
});
