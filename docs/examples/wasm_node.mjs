// SPDX-License-Identifier: MIT OR Apache-2.0
// BLS12-381's WebAssembly module from Node (18 or newer), through the ES module that pairforge
// renders beside it (generated/bls12_381/wasm/bls12_381.mjs; no npm dependency).
//
//   node docs/examples/wasm_node.mjs [PATH.wasm] < input.json
//
// PATH.wasm: the module (default: bls12_381.wasm beside the .mjs, where
// `gen-curve bls12-381 --target wasm32` writes it). input.json, in hex: a secret key "sk", its
// public key "pk", a message "msg" and its signature "sig", and G1 points "p", "p5" = [5]p and
// a G2 point "q", all made by the Python module (docs/examples/wasm.py writes it). Prints what it
// computed as JSON; throws on a failed check.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';

import { load, BLS_DST_MINPK } from '../../generated/bls12_381/wasm/bls12_381.mjs';

const hex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const toHex = (b) => Buffer.from(b).toString('hex');

const curve = await load(process.argv[2] ? await readFile(process.argv[2]) : undefined);
const request = JSON.parse(await text(process.stdin));
const input = Object.fromEntries(Object.entries(request).map(([k, v]) => [k, hex(v)]));

// Verify Python's signature (MinPk, Ethereum's proof-of-possession ciphersuite by default) ...
assert.equal(BLS_DST_MINPK, 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_');
assert.equal(curve.verify(input.pk, input.msg, input.sig), true);
// ... and not a tampered one: bad input gives false, never a trap
const bad = input.sig.slice();
bad[bad.length - 1] ^= 1;
assert.equal(curve.verify(input.pk, input.msg, bad), false);

// Sign here: BLS signatures are deterministic, so these bytes must equal Python's
const sig = curve.sign(input.sk, input.msg);
assert.equal(toHex(sig), toHex(input.sig));

// Group arithmetic and a pairing check: e([5]p, q) * e([r - 5]p, q) = 1
const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;  // the group order
const scalar = (k) => hex(k.toString(16).padStart(2 * curve.sizes.scalar, '0'));  // big-endian bytes
const p5 = curve.g1Mul(input.p, scalar(5n));
assert.equal(toHex(p5), toHex(input.p5));
const minusP5 = curve.g1Mul(input.p, scalar(R - 5n));
assert.equal(curve.pairingCheck([p5, minusP5], [input.q, input.q]), true);
assert.equal(curve.pairingCheck([p5, p5], [input.q, input.q]), false);

console.log(JSON.stringify({ sig: toHex(sig), p5: toHex(p5) }));
