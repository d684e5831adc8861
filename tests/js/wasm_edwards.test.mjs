// Node tests of a twisted Edwards package's ES module loader (<pkg>/wasm/<pkg>.mjs): run by
// tests/wasm/test_wasm_edwards_node.py with `node --test`. The fixture file (PAIRFORGE_WASM_FIXTURE)
// names the loader and the .wasm and holds values made by the Python module, and ark-vrf's tiny
// vectors of the package's suites (none for a curve without the ecvrf protocol).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const fx = JSON.parse(readFileSync(process.env.PAIRFORGE_WASM_FIXTURE, 'utf8'));
const hex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const str = (b) => Buffer.from(b).toString('hex');
const loader = await import(fx.loader);
const { load, PairforgeError, NAME, PROFILES, DEFAULT_PROFILE } = loader;
const curve = await load(readFileSync(fx.wasm));
const code = (c) => (e) => e instanceof PairforgeError && e.code === c;

test('the module is the curve of the fixture', () => {
  assert.equal(NAME, fx.name);
  assert.deepEqual([...PROFILES], fx.profiles);
  assert.equal(DEFAULT_PROFILE, fx.default_profile);
  assert.equal(str(curve.generator()), fx.g);
});

test('points: add, mul, MSM, hash to curve, every profile, as the Python module', () => {
  assert.equal(str(curve.add(hex(fx.p), hex(fx.q))), fx.p_plus_q);
  assert.equal(str(curve.mul(hex(fx.p), hex(fx.k))), fx.p_times_k);
  assert.equal(str(curve.mulVartime(hex(fx.p), hex(fx.k))), fx.p_times_k);
  assert.equal(str(curve.msm(fx.msm_points.map(hex), fx.msm_scalars.map(hex))), fx.msm);
  assert.equal(str(curve.hashToCurve('abc', fx.dst)), fx.h2c);
  for (const [profile, encoding] of Object.entries(fx.p_in)) {
    assert.equal(str(curve.decode(hex(fx.p), { outProfile: profile })), encoding);
    assert.equal(str(curve.decode(hex(encoding), { profile })), encoding);
  }
  const [x, y] = curve.toAffine(hex(fx.p));
  assert.equal(str(x) + str(y), fx.p_xy);
  assert.equal(str(curve.fromAffine(x, y)), fx.p);
});

test('bad input is a PairforgeError with its code', () => {
  assert.throws(() => curve.add(hex(fx.p).slice(1), hex(fx.q)), code(1));
  assert.throws(() => curve.add(hex(fx.outside), hex(fx.q)), code(9));
  assert.throws(() => curve.mul(hex(fx.p), new Uint8Array(3)), code(1));
  assert.throws(() => curve.hashToCurve('abc', ''), code(11));
  assert.throws(() => curve.decode(hex(fx.p), { profile: 'no-such-profile' }), code(15));
});

test('ark-vrf tiny vectors through the loader', { skip: fx.vrf.length === 0 && 'no ecvrf protocol' }, () => {
  for (const v of fx.vrf) {
    const opts = { suite: v.suite };
    const [sk, alpha, ad] = [hex(v.sk), hex(v.alpha), hex(v.ad)];
    assert.equal(str(curve.vrfHashToCurve(alpha, opts)), v.h, v.comment);
    assert.equal(str(curve.vrfPublicKey(sk, opts)), v.pk, v.comment);
    assert.equal(str(curve.vrfOutput(sk, alpha, opts)), v.gamma, v.comment);
    const proof = curve.vrfProve(sk, alpha, ad, opts);
    assert.equal(str(proof), v.gamma + v.proof_c + v.proof_s, v.comment);
    assert.deepEqual(curve.vrfSplitProof(proof, opts).map(str), [v.gamma, v.proof_c, v.proof_s]);
    assert.equal(str(curve.vrfProofToHash(proof, opts)), v.beta, v.comment);
    assert.equal(curve.vrfVerify(hex(v.pk), alpha, ad, hex(v.gamma + v.proof_c + v.proof_s), opts), true, v.comment);
    // tampering: another message, a flipped challenge bit, a truncated proof (malformed: false)
    assert.equal(curve.vrfVerify(hex(v.pk), Uint8Array.of(...alpha, 1), ad, proof, opts), false);
    const flipped = proof.slice();
    flipped[hex(v.gamma).length] ^= 1;
    assert.equal(curve.vrfVerify(hex(v.pk), alpha, ad, flipped, opts), false);
    assert.equal(curve.vrfVerify(hex(v.pk), alpha, ad, proof.slice(1), opts), false);
    const thin = curve.vrfProveThin(sk, alpha, ad, opts);
    assert.equal(curve.vrfVerifyThin(hex(v.pk), alpha, ad, thin, opts), true);
    assert.equal(str(curve.vrfProofToHash(thin, opts)), v.beta);
  }
  assert.throws(() => curve.vrfPublicKey(hex(fx.vrf[0].sk), { suite: 'no-such-suite' }), code(15));
  assert.throws(() => curve.vrfPublicKey(new Uint8Array(hex(fx.vrf[0].sk).length), {}), code(13));
});
