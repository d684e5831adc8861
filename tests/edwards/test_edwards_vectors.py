"""Known answers for the twisted Edwards modules from tests/vectors/edwards_companions:
zkcrypto's Jubjub encodings and torsion points (ZIP-216), zcash Sapling keys, signatures and note
encryption points, circomlib's Baby Jubjub operations and packPoint, arkworks' fixed scalar
multiplications and ark-vrf's public keys and VRF output points (pk = sk·G, gamma = sk·H)."""

from __future__ import annotations

import pytest
from conftest import load_curve_module
from vectors_util import read_vector_json, vector_files

from generator.reference.edwards import EdwardsCurve, sqrt_mod

SET = "edwards_companions"  # tests/vectors/edwards_companions


def load(name: str):
    return read_vector_json(SET, name)


def le(hexstr: str) -> int:
    return int.from_bytes(bytes.fromhex(hexstr), "little")


# ---------------------------------------------------------------------------------------------
# Jubjub: zkcrypto and zcash


def test_zkcrypto_jubjub_encodings() -> None:
    J = load_curve_module("jubjub")
    v = load("jubjub_zkcrypto.json")
    G = J.Point.generator()
    full = J.Point.from_affine(int(v["FULL_GENERATOR"]["u"]), int(v["FULL_GENERATOR"]["v"]), check=False)
    assert full.clear_cofactor() == G and not full.in_subgroup()
    for i, encoding in enumerate(v["test_serialization_consistency"]["encodings_hex"], start=1):
        data = bytes.fromhex(encoding)
        assert (G * i).to_bytes(profile="zcash") == data
        assert J.Point.from_bytes(data, profile="zcash") == G * i
    torsion = [J.Point.from_affine(int(t["u"]), int(t["v"]), check=False) for t in v["EIGHT_TORSION"]["points"]]
    T = torsion[0]  # [r]FULL_GENERATOR, of order 8 (mul_vartime reduces its scalar mod r)
    assert full * 8 == G
    assert torsion[-1].is_identity()
    for i, point in enumerate(torsion, start=1):
        assert point == T.mul_vartime(i) and point.is_on_curve()
        assert (point * 8).is_identity() and point.in_subgroup() == point.is_identity()
        assert J.Point.from_bytes(point.to_bytes(profile="zcash"), check=False, profile="zcash") == point
    assert not T.double().double().is_identity() and T.double().double().double().is_identity()
    for encoding in v["test_zip_216"]["non_canonical_encodings_hex"]:
        data = bytes.fromhex(encoding)
        with pytest.raises(ValueError, match="sign bit is set but x = 0"):
            J.Point.from_bytes(data, check=False, profile="zcash")
        cleared = data[:-1] + bytes([data[-1] & 0x7F])
        assert J.Point.from_bytes(cleared, check=False, profile="zcash").to_affine()[0] == 0
    m = v["test_mul_consistency"]
    a, b, c = int(m["a"]), int(m["b"]), int(m["c"])
    assert J.Fr(a) * J.Fr(b) == J.Fr(c)
    p = J.Point.from_affine(int(m["point_before_cofactor"]["u"]), int(m["point_before_cofactor"]["v"]), check=False)
    p = p.clear_cofactor()
    assert p * c == (p * a) * b and p * J.Fr(c) == (p * b) * a


def rows(name: str) -> list[dict]:
    data = load(f"zcash_sapling/{name}.json")
    fields = [f.strip() for f in data[1][0].split(",")]
    return [dict(zip(fields, row, strict=True)) for row in data[2:]]


def test_zcash_sapling_points() -> None:
    J = load_curve_module("jubjub")
    P = lambda h: J.Point.from_bytes(bytes.fromhex(h), profile="zcash")  # noqa: E731
    gens = rows("sapling_generators")[0]
    skb, pkb, vcvb, vcrb = P(gens["skb"]), P(gens["pkb"]), P(gens["vcvb"]), P(gens["vcrb"])
    for key in gens:
        assert P(gens[key]).to_bytes() == bytes.fromhex(gens[key])
    keys = rows("sapling_key_components")
    assert len(keys) == 10
    for row in keys:
        assert (skb * le(row["ask"])).to_bytes() == bytes.fromhex(row["ak"])
        assert (pkb * le(row["nsk"])).to_bytes() == bytes.fromhex(row["nk"])
    sigs = rows("sapling_signatures")
    for row in sigs:
        vk = skb * le(row["sk"])
        assert vk.to_bytes() == bytes.fromhex(row["vk"])
        assert (vk + skb * le(row["alpha"])).to_bytes() == bytes.fromhex(row["rvk"])
        assert (J.Fr(le(row["sk"])) + le(row["alpha"])).to_bytes("zcash") == bytes.fromhex(row["rsk"])
    notes = rows("sapling_note_encryption")
    for row in notes:
        pk_d = P(row["default_pk_d"])
        assert (pk_d * (8 * le(row["esk"]))).to_bytes() == bytes.fromhex(row["shared_secret"])
        cv = J.Point.msm([vcvb, vcrb], [row["v"], le(row["rcm"])])
        assert cv.to_bytes() == bytes.fromhex(row["cv"])


# ---------------------------------------------------------------------------------------------
# Baby Jubjub: circomlib


def test_circomlib_babyjubjub() -> None:
    B = load_curve_module("babyjubjub")
    v = load("babyjub_circomlib.json")

    def pt(xy, check=False):
        if isinstance(xy, str):
            xy = v["curve"][xy]
        return B.Point.from_affine(int(xy[0]), int(xy[1]), check=check)

    assert pt("Base8", check=True) == B.Point.generator()
    assert pt("Generator") * 8 == B.Point.generator() and not pt("Generator").in_subgroup()
    for case in v["add"]:
        assert pt(case["p1"]) + pt(case["p2"]) == pt(case["expected"])
    for case in v["mul"]:
        P, want = pt(case["point"]), pt(case["expected"])
        assert P.mul_vartime(int(case["scalar"])) == want
        if P.in_subgroup():
            assert P * int(case["scalar"]) == want
    for case in v["in_curve"]:
        x, y = (int(c) for c in case["point"])
        try:
            B.Point.from_affine(x, y, check=False)
            on = True
        except ValueError:
            on = False
        assert on == case["expected"]
    for case in v["in_subgroup"]:
        assert pt(case["point"]).in_subgroup() == case["expected"]
    for case in v["pack"]:
        data = bytes.fromhex(case["packed_hex"])
        assert pt(case["point"]).to_bytes(profile="circom") == data
        assert B.Point.from_bytes(data, profile="circom", check=False) == pt(case["point"])
    for case in v["eddsa_signature_R8_packing"]:
        packed = bytes.fromhex(case["packed_signature_hex"])
        assert pt(case["R8"]).to_bytes(profile="circom") == packed[:32]
        assert B.Fr.from_bytes(packed[32:], "circom") == B.Fr(int(case["S"]))
    pub = v["eddsa_prv2pub"]["pubKey"]
    assert pt(pub).in_subgroup()


# ---------------------------------------------------------------------------------------------
# arkworks fixed vectors and ark-vrf (arkworks encodings)


class ArkworksBabyJubJub:
    """Baby Jubjub in arkworks' form (a = 1, d = 168696/168700) through our circom-form module:
    x_ark = x_circom·s with s² = 168700, y unchanged (either root: both are isomorphisms)."""

    def __init__(self, B) -> None:
        self.B, p = B, B.P
        self.s = sqrt_mod(B.A, p)
        self.E = EdwardsCurve(p, 1, B.D * pow(B.A, -1, p))

    def to_module(self, P: tuple[int, int]):
        x, y = P
        return self.B.Point.from_affine(x * pow(self.s, -1, self.B.P) % self.B.P, y)

    def from_module(self, Q) -> tuple[int, int]:
        x, y = Q.to_affine()
        return x * self.s % self.B.P, y

    def decode(self, data: bytes) -> tuple[int, int]:
        p = self.B.P
        y = int.from_bytes(data, "little") & ((1 << 255) - 1)
        x = sqrt_mod((y * y - 1) * pow(self.E.d * y * y - 1, -1, p), p)
        assert x is not None
        if (x > (p - 1) // 2) != bool(data[-1] >> 7):
            x = p - x
        return x, y

    def encode(self, P: tuple[int, int]) -> bytes:
        x, y = P
        return (y | (x > (self.B.P - 1) // 2) << 255).to_bytes(32, "little")


def test_arkworks_fixed_scalar_multiplications() -> None:
    v = load("arkworks_fixed_vectors.json")
    for case, pkg in zip(v["scalar_multiplication"], ("jubjub", "bandersnatch", "babyjubjub"), strict=True):
        C = load_curve_module(pkg)
        f1, f2 = int(case["f1"]), int(case["f2"])
        g, want = tuple(int(c) for c in case["g"]), tuple(int(c) for c in case["f1f2g"])
        if pkg == "babyjubjub":
            ark = ArkworksBabyJubJub(C)
            G = ark.to_module(g)
            assert ark.from_module((G * f1) * f2) == want and ark.from_module(G * C.Fr(f1 * f2)) == want
        else:
            G = C.Point.from_affine(*g)
            assert ((G * f1) * f2).to_affine() == want and (G * (f1 * f2)).to_affine() == want
    glv = v["bandersnatch_glv"]
    C = load_curve_module("bandersnatch")
    base = C.Point.from_affine(*(int(c) for c in glv["base_point"]))
    assert (base * int(glv["scalar"])).to_affine() == tuple(int(c) for c in glv["scalar_times_base"])
    psi = C.Point.from_affine(*(int(c) for c in glv["psi_point"]))
    lam = int(glv["lambda"].split()[0])
    assert base * lam == psi and (lam * lam + 2) % C.R == 0
    assert base * int(glv["k1"]) + psi * int(glv["k2"]) == base * int(glv["scalar"])


ARK_VRF = {  # suite file prefix -> (package, generator name)
    "bandersnatch_sha-512_ell2": ("bandersnatch", "arkworks"),
    "bandersnatch_shake128_ell2": ("bandersnatch", "arkworks"),
    "jubjub_sha-512_tai": ("jubjub", "arkworks"),
    "baby-jubjub_sha-512_tai": ("babyjubjub", None),
}


@pytest.mark.parametrize("suite", sorted(ARK_VRF))
def test_ark_vrf_keys_and_outputs(suite: str) -> None:
    pkg, gen = ARK_VRF[suite]
    C = load_curve_module(pkg)
    files = vector_files(SET, "ark-vrf", f"{suite}_*.json")
    assert len(files) >= 3
    count = 0
    if pkg == "babyjubjub":
        ark = ArkworksBabyJubJub(C)
        curves = load("curves.json")["curves"]["babyjubjub"]["forms"]
        G = ark.to_module(tuple(int(c) for c in curves["arkworks_a_1"]["generator"]["value"].values()))
    else:
        G = C.Point.from_affine(*C.GENERATORS[gen])
    for path in files:
        for case in load(path):
            sk = le(case["sk"])
            pk, h, gamma = (bytes.fromhex(case[k]) for k in ("pk", "h", "gamma"))
            if pkg == "babyjubjub":
                H = ark.to_module(ark.decode(h))
                assert ark.encode(ark.from_module(G * sk)) == pk
                assert ark.encode(ark.from_module(H * sk)) == gamma
            else:
                H = C.Point.from_bytes(h, profile="arkworks")
                assert (G * sk).to_bytes(profile="arkworks") == pk
                assert (H * sk).to_bytes(profile="arkworks") == gamma
                assert C.Point.from_bytes(pk, profile="arkworks") == G * sk
            count += 1
    assert count >= 21
