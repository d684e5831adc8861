"""BLS signatures (generated.<curve>.bls, draft-irtf-cfrg-bls-signature-05).

* Every file of the Ethereum consensus test suite (ethereum/bls12-381-tests v0.1.2 and the
  unreleased master cases; MinPk, proof-of-possession ciphersuite) in
  tests/vectors/bls12381_sig_ethereum_bls12-381-tests_v0.1.2.
* Byte-for-byte interoperability with blspy (blst; its Basic/Aug/Pop SchemeMPL are MinPk): the
  same keys and signatures from the same secret key, and each side verifies the other's output.
* MinSig (no peer): round trips and the draft's rules; tampered inputs fail; bad bytes give False.
"""

from __future__ import annotations

import hashlib

import pytest
from bls_util import (
    SCHEMES,
    VARIANTS,
    check_bad_bytes_return_false,
    check_batch_verify_rejects_one_bad_signature,
    check_round_trip_and_tampering,
    flip,
    hex_bytes,
    keys,
)
from vectors_util import read_vector_json, vector_files

PKG = "bls12_381"
ETH = "bls12381_sig_ethereum_bls12-381-tests_v0.1.2"
HANDLERS = ("sign", "verify", "aggregate", "aggregate_verify", "fast_aggregate_verify", "batch_verify",
            "deserialization_G1", "deserialization_G2", "hash_to_G2")  # fmt: skip


@pytest.fixture(scope="module")
def C(curve_module):
    return curve_module(PKG)


@pytest.fixture(scope="module")
def bls(C):
    return C.bls


def _cases() -> list[tuple[str, str]]:
    """(handler, path in the set) of every case file."""
    out = [(h, p) for h in HANDLERS for p in vector_files(ETH, h, "*.json")]
    out += [(p.split("/")[-2], p) for p in vector_files(ETH, "unreleased_master_006855c", "*/*.json")]
    return out


def test_ethereum_vectors(C, bls) -> None:
    """Every case file of every handler, with the README's counts."""
    cases = _cases()
    counts: dict[str, int] = {}
    pop = bls.MinPk.Pop
    for handler, path in cases:
        doc = read_vector_json(ETH, path)
        inp, out = doc["input"], doc["output"]
        counts[handler] = counts.get(handler, 0) + 1
        where = f"{handler}/{path.rsplit('/', 1)[-1]}"
        if handler == "sign":
            sk = int.from_bytes(hex_bytes(inp["privkey"]), "big")
            if out is None:
                with pytest.raises(ValueError):
                    pop.sign(sk, hex_bytes(inp["message"]))
            else:
                sig = pop.sign(sk, hex_bytes(inp["message"]))
                assert sig == hex_bytes(out), where
                assert pop.verify(pop.sk_to_pk(sk), hex_bytes(inp["message"]), sig), where
        elif handler == "verify":
            assert pop.verify(hex_bytes(inp["pubkey"]), hex_bytes(inp["message"]), hex_bytes(inp["signature"])) is out, where
        elif handler == "aggregate":
            sigs = [hex_bytes(s) for s in inp]
            if out is None:
                with pytest.raises(ValueError):
                    pop.aggregate(sigs)
            else:
                assert pop.aggregate(sigs) == hex_bytes(out), where
        elif handler == "aggregate_verify":
            got = pop.aggregate_verify([hex_bytes(k) for k in inp["pubkeys"]], [hex_bytes(m) for m in inp["messages"]],
                                       hex_bytes(inp["signature"]))  # fmt: skip
            assert got is out, where
        elif handler == "fast_aggregate_verify":
            got = pop.fast_aggregate_verify([hex_bytes(k) for k in inp["pubkeys"]], hex_bytes(inp["message"]),
                                            hex_bytes(inp["signature"]))  # fmt: skip
            assert got is out, where
        elif handler == "batch_verify":
            args = ([hex_bytes(k) for k in inp["pubkeys"]], [hex_bytes(m) for m in inp["messages"]],
                    [hex_bytes(s) for s in inp["signatures"]])  # fmt: skip
            assert pop.batch_verify(*args) is out, where
            # the same answer as one verify per signature
            assert all(pop.verify(*t) for t in zip(*args, strict=True)) is out, where
        elif handler.startswith("deserialization_"):
            G, data = (C.G1, hex_bytes(inp["pubkey"])) if handler.endswith("G1") else (C.G2, hex_bytes(inp["signature"]))
            clen = len(G.generator().to_bytes())
            try:
                ok = len(data) == clen and G.from_bytes(data, check=True) is not None
            except ValueError:
                ok = False
            assert ok is out, where
            # KeyValidate / signature decoding agree, with the identity refused as a key
            if handler.endswith("G1"):
                ident = data == C.G1.identity().to_bytes()
                assert pop.key_validate(data) is (out and not ident), where
        elif handler == "hash_to_G2":
            dst = b"QUUX-V01-CS02-with-" + C.G2.HASH_SUITE.encode()
            x0, x1 = (int(v, 16) for v in out["x"].split(","))
            y0, y1 = (int(v, 16) for v in out["y"].split(","))
            assert C.G2.hash_to_curve(inp["msg"].encode(), dst).to_affine() == ((x0, x1), (y0, y1)), where
    assert counts == {"sign": 10, "verify": 29, "aggregate": 6, "aggregate_verify": 5, "fast_aggregate_verify": 12,
                      "batch_verify": 4, "deserialization_G1": 16, "deserialization_G2": 18, "hash_to_G2": 4}  # fmt: skip


def test_ciphersuite_ids(C, bls) -> None:
    """draft-05 section 4.2, built from the hash-to-curve suites of the signature groups."""
    base = {"MinPk": "BLS12381G2_XMD:SHA-256_SSWU_RO_", "MinSig": "BLS12381G1_XMD:SHA-256_SSWU_RO_"}
    for name, suite in base.items():
        v = getattr(bls, name)
        assert v.Basic.CIPHERSUITE == f"BLS_SIG_{suite}NUL_"
        assert v.Aug.CIPHERSUITE == f"BLS_SIG_{suite}AUG_"
        assert v.Pop.CIPHERSUITE == f"BLS_SIG_{suite}POP_"
        assert v.Pop.POP_DST == f"BLS_POP_{suite}POP_".encode()
    assert (bls.MinPk.Pop.PK_BYTES, bls.MinPk.Pop.SIG_BYTES, bls.MinSig.Pop.PK_BYTES) == (48, 96, 96)


def test_key_gen(C, bls) -> None:
    """KeyGen against HKDF (RFC 5869) written out here; the first salt hash gives a non-zero key."""
    import hmac

    def hkdf(salt: bytes, ikm: bytes, info: bytes, n: int) -> bytes:
        prk = hmac.new(salt, ikm, "sha256").digest()
        t, okm = b"", b""
        for i in range(1, 1 + -(-n // 32)):
            t = hmac.new(prk, t + info + bytes([i]), "sha256").digest()
            okm += t
        return okm[:n]

    for ikm, info in ((bytes(range(32)), b""), (b"\x07" * 64, b"key info")):
        salt = hashlib.sha256(b"BLS-SIG-KEYGEN-SALT-").digest()
        want = int.from_bytes(hkdf(salt, ikm + b"\x00", info + (48).to_bytes(2, "big"), 48), "big") % C.R
        assert bls.MinPk.Basic.key_gen(ikm, info) == want == bls.key_gen(ikm, info)
    with pytest.raises(ValueError):
        bls.key_gen(b"\x01" * 31)
    with pytest.raises(TypeError):
        bls.key_gen("x" * 40)


# ------------------------------------------------------------------------------------------------
# blspy (blst)


def _blspy():
    return pytest.importorskip("blspy", reason="blspy (test-only peer) is not installed")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_interop_blspy(bls, scheme) -> None:
    blspy = _blspy()
    peer = {"Basic": blspy.BasicSchemeMPL, "Aug": blspy.AugSchemeMPL, "Pop": blspy.PopSchemeMPL}[scheme]
    ours = getattr(bls.MinPk, scheme)
    sks, pks, msgs, sigs = [], [], [], []
    for i in range(3):
        seed = hashlib.sha256(b"interop %d" % i).digest()
        sk = ours.key_gen(seed)
        psk = blspy.PrivateKey.from_bytes(sk.to_bytes(32, "big"))
        pk = ours.sk_to_pk(sk)
        assert pk == bytes(psk.get_g1())
        msg = b"message %d for %s" % (i, scheme.encode())
        sig = ours.sign(sk, msg)
        psig = peer.sign(psk, msg)
        assert sig == bytes(psig)
        # each side verifies the other's signature (and refuses a wrong message)
        assert peer.verify(blspy.G1Element.from_bytes(pk), msg, blspy.G2Element.from_bytes(sig))
        assert ours.verify(bytes(psk.get_g1()), msg, bytes(psig))
        assert not peer.verify(blspy.G1Element.from_bytes(pk), msg + b"!", blspy.G2Element.from_bytes(sig))
        assert not ours.verify(pk, msg + b"!", sig)
        sks.append(sk), pks.append(pk), msgs.append(msg), sigs.append(sig)
    agg = ours.aggregate(sigs)
    assert agg == bytes(peer.aggregate([blspy.G2Element.from_bytes(s) for s in sigs]))
    ppks = [blspy.G1Element.from_bytes(pk) for pk in pks]
    assert ours.aggregate_verify(pks, msgs, agg)
    assert peer.aggregate_verify(ppks, msgs, blspy.G2Element.from_bytes(agg))
    assert not ours.aggregate_verify(pks, msgs[::-1], agg)
    assert ours.batch_verify(pks, msgs, sigs)
    if scheme == "Pop":
        for sk, pk in zip(sks, pks, strict=True):
            proof = ours.pop_prove(sk)
            assert proof == bytes(peer.pop_prove(blspy.PrivateKey.from_bytes(sk.to_bytes(32, "big"))))
            assert peer.pop_verify(blspy.G1Element.from_bytes(pk), blspy.G2Element.from_bytes(proof))
            assert ours.pop_verify(pk, proof)
        msg = b"one message for all"
        agg1 = ours.aggregate([ours.sign(sk, msg) for sk in sks])
        assert ours.fast_aggregate_verify(pks, msg, agg1)
        assert peer.fast_aggregate_verify(ppks, msg, blspy.G2Element.from_bytes(agg1))
        assert not ours.fast_aggregate_verify(pks[:2], msg, agg1)


def test_blspy_key_gen_and_eip2333(bls, C) -> None:
    """blspy implements KeyGen (and EIP-2333's HKDF_mod_r) as in draft-02, where the salt is not
    hashed; draft-05 and the final EIP-2333 hash it first.  With that one difference written out
    here, blspy's key_gen equals ours, and its derive_child_sk equals ours on our Lamport key (an
    independent check of the Lamport part)."""
    import hmac

    blspy = _blspy()

    def hkdf_mod_r_draft02(ikm: bytes) -> int:
        prk = hmac.new(b"BLS-SIG-KEYGEN-SALT-", ikm + b"\x00", "sha256").digest()
        t, okm = b"", b""
        for i in (1, 2):
            t = hmac.new(prk, t + (48).to_bytes(2, "big") + bytes([i]), "sha256").digest()
            okm += t
        return int.from_bytes(okm[:48], "big") % C.R

    e = C.eip2333
    for i in range(3):
        seed = hashlib.sha256(b"blspy seed %d" % i).digest()
        theirs = int.from_bytes(bytes(blspy.AugSchemeMPL.key_gen(seed)), "big")
        assert theirs == hkdf_mod_r_draft02(seed)
        assert bls.key_gen(seed) == e.derive_master_SK(seed) != theirs
        sk = e.derive_master_SK(seed)
        child = blspy.AugSchemeMPL.derive_child_sk(blspy.PrivateKey.from_bytes(sk.to_bytes(32, "big")), 7 + i)
        assert int.from_bytes(bytes(child), "big") == hkdf_mod_r_draft02(e.parent_SK_to_lamport_PK(sk, 7 + i))


# ------------------------------------------------------------------------------------------------
# The draft's rules, both variants


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_round_trip_and_tampering(C, bls, variant, scheme) -> None:
    check_round_trip_and_tampering(C, bls, variant, scheme)


@pytest.mark.parametrize("variant", VARIANTS)
def test_batch_verify_rejects_one_bad_signature(bls, variant) -> None:
    check_batch_verify_rejects_one_bad_signature(bls, variant)


@pytest.mark.parametrize("variant", VARIANTS)
def test_batch_verify_threads(bls, variant) -> None:
    """The work of a batch of 24 shared among 1, 2 and 3 threads (signatures decoded, messages
    hashed and Miller loops run in parts): the same answers, with a bad signature in any part."""
    v = getattr(bls, variant)
    s = v.Pop
    sks, pks = keys(s, 24, b"threads" + variant.encode())
    msgs = [b"threaded %d" % (i % 20) for i in range(24)]  # 4 messages signed twice
    sigs = [s.sign(sk, m) for sk, m in zip(sks, msgs, strict=True)]
    for threads in (1, 2, 3, None):
        assert s.batch_verify(pks, msgs, sigs, threads=threads)
        for j in (0, 11, 23):
            broken = list(sigs)
            broken[j] = s.sign(sks[j], b"not this")
            assert not s.batch_verify(pks, msgs, broken, threads=threads), (threads, j)
        undecodable = list(sigs)
        undecodable[17] = flip(sigs[17])
        assert not s.batch_verify(pks, msgs, undecodable, threads=threads)
    for bad in (0, -2):
        with pytest.raises(ValueError, match="threads"):
            s.batch_verify(pks, msgs, sigs, threads=bad)
    for bad in ("2", 2.0, True):
        with pytest.raises(TypeError, match="threads"):
            s.batch_verify(pks, msgs, sigs, threads=bad)


@pytest.mark.parametrize("variant", VARIANTS)
def test_bad_bytes_return_false(C, bls, variant) -> None:
    check_bad_bytes_return_false(C, bls, variant)


def test_eip2333_vectors(C) -> None:
    doc = read_vector_json("eip2333_bls_keygen", "eip2333_vectors.json")
    e = C.eip2333
    assert len(doc["cases"]) == 5
    for case in doc["cases"]:
        seed = hex_bytes(case["seed"])
        master = e.derive_master_SK(seed)
        assert master == int(case["master_SK"]), case["name"]
        child = e.derive_child_SK(master, case["child_index"])
        assert child == int(case["child_SK"]), case["name"]
        if "compressed_lamport_PK" in case:
            assert e.parent_SK_to_lamport_PK(master, case["child_index"]) == hex_bytes(case["compressed_lamport_PK"])
            salt = case["child_index"].to_bytes(4, "big")
            ikm = master.to_bytes(32, "big")
            assert e._ikm_to_lamport_sk(ikm, salt) == [hex_bytes(x) for x in case["lamport_0"]]
            assert e._ikm_to_lamport_sk(bytes(b ^ 0xFF for b in ikm), salt) == [hex_bytes(x) for x in case["lamport_1"]]
        if "bip39_mnemonic" in case:
            bip39 = hashlib.pbkdf2_hmac("sha512", case["bip39_mnemonic"].encode(),
                                        b"mnemonic" + case["bip39_passphrase"].encode(), 2048)  # fmt: skip
            assert bip39 == seed
        # EIP-2334 paths
        assert e.derive_path(seed, "m") == master
        assert e.derive_path(seed, f"m/{case['child_index']}") == child


def test_eip2333_paths_and_errors(C) -> None:
    e = C.eip2333
    seed = bytes(range(32))
    want = e.derive_master_SK(seed)
    for i in (12381, 3600, 0, 0):
        want = e.derive_child_SK(want, i)
    assert e.derive_path(seed, "m/12381/3600/0/0") == want
    for bad in ("", "n/0", "m/", "m/-1", "m/x", "m/4294967296", "m/1/ 2", "m//0"):
        with pytest.raises(ValueError):
            e.derive_path(seed, bad)
    with pytest.raises(ValueError):
        e.derive_master_SK(b"\x00" * 31)
    with pytest.raises(ValueError):
        e.derive_child_SK(C.R, 0)
    with pytest.raises(ValueError):
        e.derive_child_SK(1, 1 << 32)
    assert e.derive_path(seed, "m/4294967295") == e.derive_child_SK(e.derive_master_SK(seed), 2**32 - 1)
