# SPDX-License-Identifier: MIT OR Apache-2.0
"""BLS signatures on BLS12-381: the three schemes of draft-irtf-cfrg-bls-signature-05 (basic,
message augmentation, proof of possession), aggregation, and the same bytes as py_ecc (and blspy,
where it is installed).

Run from the repository root: python docs/examples/bls_signatures.py
Needs: py_ecc (in the test extra). blspy (in the bench extra) is compared too when installed.
"""

import hashlib

from py_ecc.bls import G2Basic, G2MessageAugmentation, G2ProofOfPossession

from generated.bls12_381 import bls

# MinPk: public keys in G1 (48 bytes), signatures in G2 (96 bytes), as Ethereum uses them.
# (bls.MinSig is the other way round, with the same methods.)
basic, aug, pop = bls.MinPk.Basic, bls.MinPk.Aug, bls.MinPk.Pop
assert pop.CIPHERSUITE == "BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"  # Ethereum's

# Keys: KeyGen from 32 bytes of secret input keying material (fixed here, so the run repeats;
# use secrets.token_bytes(32) for real keys). The secret key is an int in [1, r).
ikms = [hashlib.sha256(b"recipe key %d" % i).digest() for i in range(3)]
sks = [bls.key_gen(ikm) for ikm in ikms]
pks = [pop.sk_to_pk(sk) for sk in sks]  # the same public key for every scheme of MinPk
assert all(len(pk) == 48 for pk in pks)

# --- The three schemes ---------------------------------------------------------------------------
msg = b"attestation for slot 1234"
for scheme in (basic, aug, pop):
    sig = scheme.sign(sks[0], msg)
    assert len(sig) == 96
    assert scheme.verify(pks[0], msg, sig)
    assert not scheme.verify(pks[0], msg + b"!", sig)  # another message
    assert not scheme.verify(pks[1], msg, sig)          # another key
    tampered = bytearray(sig)
    tampered[-1] ^= 1                                   # a flipped bit: not a valid point any more
    assert not scheme.verify(pks[0], msg, bytes(tampered))

# Each scheme has its own domain separation tag: a signature of one does not verify in another.
assert not pop.verify(pks[0], msg, basic.sign(sks[0], msg))
assert not aug.verify(pks[0], msg, pop.sign(sks[0], msg))

# --- Aggregation ---------------------------------------------------------------------------------
# Basic: AggregateVerify needs distinct messages (else it returns False).
msgs = [b"block 1", b"block 2", b"block 3"]
agg = basic.aggregate([basic.sign(sk, m) for sk, m in zip(sks, msgs, strict=True)])
assert basic.aggregate_verify(pks, msgs, agg)
same_msg = basic.aggregate([basic.sign(sk, msgs[0]) for sk in sks])
assert not basic.aggregate_verify(pks, [msgs[0]] * 3, same_msg)

# Message augmentation: each signature covers pk || msg, so the messages may repeat.
agg = aug.aggregate([aug.sign(sk, msg) for sk in sks])
assert aug.aggregate_verify(pks, [msg] * 3, agg)
assert not aug.aggregate_verify(pks, [msg, msg, b"other"], agg)

# Proof of possession: once each key has proved possession of its secret (against rogue-key
# attacks), the signatures of one message are checked by FastAggregateVerify: one pairing check
# against the sum of the keys.
proofs = [pop.pop_prove(sk) for sk in sks]
assert all(pop.pop_verify(pk, proof) for pk, proof in zip(pks, proofs, strict=True))
assert not pop.pop_verify(pks[0], proofs[1])
agg = pop.aggregate([pop.sign(sk, msg) for sk in sks])
assert pop.fast_aggregate_verify(pks, msg, agg)
assert not pop.fast_aggregate_verify(pks[:2], msg, agg)  # a signer left out

# batch_verify: n signatures of n messages with one pairing check of n + 1 pairs (random weights)
sigs = [pop.sign(sk, m) for sk, m in zip(sks, msgs, strict=True)]
assert pop.batch_verify(pks, msgs, sigs)
assert not pop.batch_verify(pks, msgs, [sigs[1], sigs[0], sigs[2]])

# --- The same bytes as py_ecc (the Ethereum Foundation's pure-Python implementation) -------------
# py_ecc is slow (about a second per pairing), so it checks a few values only.
assert G2ProofOfPossession.KeyGen(ikms[0]) == sks[0]
assert G2ProofOfPossession.SkToPk(sks[0]) == pks[0]
for ours, theirs in ((basic, G2Basic), (aug, G2MessageAugmentation), (pop, G2ProofOfPossession)):
    assert ours.DST == theirs.DST
    assert ours.sign(sks[0], msg) == theirs.Sign(sks[0], msg)  # byte for byte
assert G2ProofOfPossession.PopProve(sks[1]) == proofs[1]
assert G2ProofOfPossession.FastAggregateVerify(pks, msg, agg)  # py_ecc accepts our aggregate

# --- blspy (Chia's BLS library, in the bench extra), when it is installed -------------------------
try:
    import blspy
except ImportError:
    print("blspy is not installed: its comparison is skipped (pip install blspy)")
else:
    sk_b = blspy.PrivateKey.from_bytes(sks[0].to_bytes(32, "big"))
    assert bytes(sk_b.get_g1()) == pks[0]
    assert bytes(blspy.PopSchemeMPL.sign(sk_b, msg)) == pop.sign(sks[0], msg)
    assert bytes(blspy.AugSchemeMPL.sign(sk_b, msg)) == aug.sign(sks[0], msg)
    assert bytes(blspy.BasicSchemeMPL.sign(sk_b, msg)) == basic.sign(sks[0], msg)
    assert blspy.PopSchemeMPL.fast_aggregate_verify(
        [blspy.G1Element.from_bytes(pk) for pk in pks], msg, blspy.G2Element.from_bytes(agg))
    print("blspy: the same keys and signatures")

print("BLS signatures: three schemes, aggregation, py_ecc's bytes: OK")
