"""The checks of a package's BLS signature module (draft-irtf-cfrg-bls-signature-05: the MinPk
and MinSig variants, the Basic, Aug and Pop schemes) that need no vectors: round trips,
tampering, aggregates, batches and bad bytes, with keys from fixed seeds. Run by
tests/protocols/test_bls_signatures.py on BLS12-381 and by tests/protocols/test_bls24_protocols.py
on the BLS24 curves."""

from __future__ import annotations

import hashlib

import pytest

SCHEMES = ("Basic", "Aug", "Pop")
def hex_bytes(s: str) -> bytes:
    """The bytes of a hex string, with or without 0x."""
    return bytes.fromhex(s[2:] if s.startswith("0x") else s)


VARIANTS = ("MinPk", "MinSig")


def keys(scheme, n: int, tag: bytes = b"") -> tuple[list[int], list[bytes]]:
    """n secret keys of ``scheme`` from fixed seeds (``tag`` and the index), and their public keys."""
    sks = [scheme.key_gen(hashlib.sha256(tag + bytes([i])).digest()) for i in range(n)]
    return sks, [scheme.sk_to_pk(sk) for sk in sks]


def flip(data: bytes, i: int = -1) -> bytes:
    """data with the low bit of byte i flipped."""
    b = bytearray(data)
    b[i] ^= 1
    return bytes(b)


def check_round_trip_and_tampering(C, bls, variant, scheme) -> None:
    v = getattr(bls, variant)
    s = getattr(v, scheme)
    sks, pks = keys(s, 3, variant.encode() + scheme.encode())
    PK = v.PK_GROUP
    for sk, pk in zip(sks, pks, strict=True):
        assert PK.from_bytes(pk) == PK.generator() * sk
        assert s.key_validate(pk)
    msgs = [b"m0", b"m1", b""]
    sigs = [s.sign(sk, m) for sk, m in zip(sks, msgs, strict=True)]
    # the signature is [sk] H(m) (Aug: H(PK || m)) under the scheme's DST
    H = v.SIG_GROUP.hash_to_curve((pks[0] if scheme == "Aug" else b"") + msgs[0], s.DST)
    assert sigs[0] == (H * sks[0]).to_bytes()
    for pk, m, sig in zip(pks, msgs, sigs, strict=True):
        assert s.verify(pk, m, sig)
        assert s.verify(bytearray(pk), memoryview(m), bytearray(sig))
        assert not s.verify(pk, m + b"x", sig)
        assert not s.verify(pks[(pks.index(pk) + 1) % 3], m, sig)
        assert not s.verify(pk, m, flip(sig))
        assert not s.verify(flip(pk), m, sig)
    # a signature of another scheme (other DST) does not verify
    other = getattr(v, "Basic" if scheme != "Basic" else "Pop")
    assert not s.verify(pks[0], msgs[0], other.sign(sks[0], msgs[0]))
    agg = s.aggregate(sigs)
    assert s.aggregate_verify(pks, msgs, agg)
    assert not s.aggregate_verify(pks, [msgs[0], msgs[1], b"z"], agg)
    assert not s.aggregate_verify(pks[:2], msgs[:2], agg)
    assert not s.aggregate_verify([], [], agg)
    assert s.batch_verify(pks, msgs, sigs)
    assert not s.batch_verify(pks, msgs, [sigs[0], sigs[2], sigs[1]])
    assert not s.batch_verify([], [], [])
    assert not s.batch_verify(pks, msgs[:2], sigs)
    # the same message twice: only Basic refuses it in an aggregate
    dup = [s.sign(sk, b"same") for sk in sks[:2]]
    assert s.aggregate_verify(pks[:2], [b"same", b"same"], s.aggregate(dup)) is (scheme != "Basic")
    if scheme == "Pop":
        for sk, pk in zip(sks, pks, strict=True):
            proof = s.pop_prove(sk)
            assert s.pop_verify(pk, proof)
            assert not s.pop_verify(pks[(pks.index(pk) + 1) % 3], proof)
            assert not s.verify(pk, pk, proof)  # the PoP tag separates proofs from signatures
        common = s.aggregate([s.sign(sk, b"common") for sk in sks])
        assert s.fast_aggregate_verify(pks, b"common", common)
        assert not s.fast_aggregate_verify(pks, b"other", common)
        assert not s.fast_aggregate_verify([], b"common", common)
        # keys summing to the identity fail CoreVerify's KeyValidate on the aggregate key
        neg = (-PK.from_bytes(pks[0])).to_bytes()
        assert not s.fast_aggregate_verify([pks[0], neg], b"common", v.SIG_GROUP.identity().to_bytes())


def check_batch_verify_rejects_one_bad_signature(bls, variant) -> None:
    """Batch of 8: any one invalid signature (wrong message, wrong key, tampered, another
    signature's bytes, the identity) makes the whole batch fail; the valid batch passes."""
    v = getattr(bls, variant)
    s = v.Pop
    sks, pks = keys(s, 8, b"batch" + variant.encode())
    msgs = [b"batch message %d" % i for i in range(8)]
    sigs = [s.sign(sk, m) for sk, m in zip(sks, msgs, strict=True)]
    assert s.batch_verify(pks, msgs, sigs)
    ident = v.SIG_GROUP.identity().to_bytes()
    for i, bad in enumerate((s.sign(sks[3], b"other"), s.sign(sks[4], msgs[3]), flip(sigs[3]), sigs[4], ident)):
        broken = list(sigs)
        broken[3] = bad
        assert not s.batch_verify(pks, msgs, broken), i
    # two bad signatures whose errors cancel in a plain sum: the random combination still fails
    S3, S4 = v.SIG_GROUP.from_bytes(sigs[3]), v.SIG_GROUP.from_bytes(sigs[4])
    T = v.SIG_GROUP.generator()
    swapped = list(sigs)
    swapped[3], swapped[4] = (S3 + T).to_bytes(), (S4 - T).to_bytes()
    assert s.aggregate(swapped) == s.aggregate(sigs)
    assert not s.batch_verify(pks, msgs, swapped)
    assert not s.batch_verify(pks[:3] + [flip(pks[3])] + pks[4:], msgs, sigs)
    # repeated messages (one hash and an MSM of keys per message): valid, then one bad in a group
    shared = [b"slot %d" % (i % 3) for i in range(8)]
    ssigs = [s.sign(sk, m) for sk, m in zip(sks, shared, strict=True)]
    assert s.batch_verify(pks, shared, ssigs)
    for j in (0, 3, 7):
        for bad in (s.sign(sks[j], b"slot 9"), ssigs[(j + 3) % 8], flip(ssigs[j])):
            broken = list(ssigs)
            broken[j] = bad
            assert not s.batch_verify(pks, shared, broken), (j, bad.hex())
    # the same key twice under one message, and signatures swapped within a message group
    assert s.batch_verify([pks[0], pks[0]], [b"x", b"x"], [s.sign(sks[0], b"x")] * 2)
    assert not s.batch_verify(pks[:2], [b"x", b"x"], [s.sign(sks[1], b"x"), s.sign(sks[0], b"x")])


def check_bad_bytes_return_false(C, bls, variant) -> None:
    v = getattr(bls, variant)
    s = v.Pop
    sk = s.key_gen(b"\x42" * 32)
    pk, sig = s.sk_to_pk(sk), s.sign(sk, b"m")
    # a point on the curve outside the subgroup, in compressed encoding
    off = None
    template = v.SIG_GROUP.generator().to_bytes()
    for i in range(1, 50):
        data = bytearray(template)
        data[1:] = i.to_bytes(len(template), "big")[1:]
        try:
            P = v.SIG_GROUP.from_bytes(bytes(data), check=False)
        except ValueError:
            continue
        if not P.in_subgroup():
            off = bytes(data)
            break
    assert off is not None
    bad_sigs = [b"", sig[:-1], sig + b"\x00", bytes(len(sig)), b"\xff" * len(sig), flip(sig, 0), off,
                v.SIG_GROUP.generator().to_bytes(False)]  # fmt: skip
    bad_pks = [b"", pk[:-1], bytes(len(pk)), b"\xff" * len(pk), v.PK_GROUP.identity().to_bytes(),
               v.PK_GROUP.generator().to_bytes(False), flip(pk, 0)]  # fmt: skip
    for bad in bad_sigs:
        assert s.verify(pk, b"m", bad) is False
        assert s.aggregate_verify([pk], [b"m"], bad) is False
        assert s.fast_aggregate_verify([pk], b"m", bad) is False
        assert s.pop_verify(pk, bad) is False
        assert s.batch_verify([pk], [b"m"], [bad]) is False
        with pytest.raises(ValueError):
            s.aggregate([sig, bad])
    for bad in bad_pks:
        assert s.key_validate(bad) is False
        assert s.verify(bad, b"m", sig) is False
        assert s.aggregate_verify([bad], [b"m"], sig) is False
        assert s.fast_aggregate_verify([pk, bad], b"m", sig) is False
        assert s.pop_verify(bad, s.pop_prove(sk)) is False
        assert s.batch_verify([bad], [b"m"], [sig]) is False
    with pytest.raises(TypeError):
        s.verify("not bytes", b"m", sig)
    with pytest.raises(TypeError):
        s.verify(pk, 5, sig)
    for bad_sk in (0, C.R, -1):
        with pytest.raises(ValueError):
            s.sign(bad_sk, b"m")
    with pytest.raises(TypeError):
        s.sign(1.5, b"m")
    with pytest.raises(ValueError):
        s.aggregate([])
