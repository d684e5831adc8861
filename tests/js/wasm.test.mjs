// Node tests of the ES module loader (generated/<pkg>/wasm/<pkg>.mjs), run by tests/wasm/test_wasm_node.py
// with `node --test`. The fixture file (PAIRFORGE_WASM_FIXTURE) names the .wasm to load and holds
// values made by the Python module: a BLS key, message and signature, and pairing-check points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const fx = JSON.parse(readFileSync(process.env.PAIRFORGE_WASM_FIXTURE, 'utf8'));
const hex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const { load, PairforgeError, BLS_DST_MINPK, EVM } = await import(fx.loader);
const curve = await load(readFileSync(fx.wasm));
const msg = new TextEncoder().encode(fx.message);

test('a BLS signature verifies (MinPk, the proof-of-possession ciphersuite)', () => {
  assert.equal(BLS_DST_MINPK, fx.dst);
  assert.equal(curve.verify(hex(fx.pk), msg, hex(fx.sig)), true);
});

test('a forged signature is rejected', () => {
  assert.equal(curve.verify(hex(fx.pk), new TextEncoder().encode(fx.message + '!'), hex(fx.sig)), false);
  assert.equal(curve.verify(hex(fx.other_pk), msg, hex(fx.sig)), false);
  assert.equal(curve.verify(hex(fx.pk), msg, hex(fx.forged_sig)), false);
  const flipped = hex(fx.sig);
  flipped[5] ^= 1;
  assert.equal(curve.verify(hex(fx.pk), msg, flipped), false);
});

test('an aggregate signature of one message (FastAggregateVerify)', () => {
  assert.equal(curve.fastAggregateVerify(fx.agg_pks.map(hex), msg, hex(fx.agg_sig)), true);
  assert.equal(curve.fastAggregateVerify([hex(fx.pk), hex(fx.pk)], msg, hex(fx.agg_sig)), false);
});

test('a pairing check', () => {
  assert.equal(curve.pairingCheck([hex(fx.p), hex(fx.neg_p)], [hex(fx.q), hex(fx.q)]), true);
  assert.equal(curve.pairingCheck([hex(fx.p), hex(fx.p)], [hex(fx.q), hex(fx.q)]), false);
  assert.equal(Buffer.from(curve.pairing(hex(fx.p), hex(fx.q))).toString('hex'), fx.gt);
});

test('bad input is a PairforgeError with its code', () => {
  assert.throws(() => curve.pairing(hex(fx.p).slice(1), hex(fx.q)), (e) => e instanceof PairforgeError && e.code === 1);
  assert.throws(() => curve.g1Add(hex(fx.p), hex(fx.outside_g1)), (e) => e instanceof PairforgeError && e.code === 9);
});

test('the protocol entry points: BLS sign, AggregateVerify, an EIP-2537 pairing check, Groth16', () => {
  const sig = curve.sign(hex(fx.sk), msg);
  assert.equal(Buffer.from(sig).toString('hex'), fx.sig);
  const msgs = fx.agg_msgs.map((m) => new TextEncoder().encode(m));
  assert.equal(curve.aggregateVerify(fx.agg_pks.map(hex), msgs, hex(fx.agg_distinct_sig)), true);
  assert.equal(curve.aggregateVerify(fx.agg_pks.map(hex), msgs.reverse(), hex(fx.agg_distinct_sig)), false);
  assert.throws(() => curve.sign(new Uint8Array(32), msg), (e) => e instanceof PairforgeError && e.code === 13);
  const out = curve.evm('eip2537', 'PAIRING_CHECK', hex(fx.eip2537_pairing));
  assert.equal(Buffer.from(out).toString('hex'), fx.eip2537_pairing_out);
  assert.deepEqual(curve.evm('eip2537', EVM.eip2537.PAIRING_CHECK, hex(fx.eip2537_pairing)), out);
  assert.throws(() => curve.evm('eip2537', 'G1ADD', new Uint8Array(5)), (e) => e instanceof PairforgeError && e.code === 1);
  const inputs = fx.groth16_inputs.map(hex);
  assert.equal(curve.groth16Verify(hex(fx.groth16_vk), hex(fx.groth16_proof), inputs), true);
  assert.equal(curve.groth16Verify(hex(fx.groth16_vk), hex(fx.groth16_tampered), inputs), false);
});
