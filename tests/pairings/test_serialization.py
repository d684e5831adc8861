"""Serialization profiles: zcash, gnark, arkworks, eip197, eip2537 (generator/derive/serialization.py).

Each point encoding is compared with an encoder written here from the libraries' and standards'
own descriptions (not from the module's output), on random points of every curve, in both forms;
then the zcash vectors byte for byte, py_arkworks_bls12381 in both directions, the EIP-2537 /
EIP-2539 / EIP-3026 / EIP-196 precompile vectors through the matching profile, malformed input,
batch decoding, and the field and GT layouts.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import REPO_ROOT, import_optional
from vectors_util import read_vector_bytes, read_vector_json

PROFILES = ("zcash", "gnark", "arkworks", "eip197", "eip2537")


# --------------------------------------------------------------------------------------------
# An independent encoder, written from each format's description


class Layout:
    """Byte layout of one profile for one curve, from the format descriptions:
    zcash (zkcrypto notes): big-endian, Fp2 c1||c0 (Fp8: c7 .. c0), byte 0 bits 7/6/5 =
      compressed/infinity/sign.
    gnark (marshal.go): zcash when the top byte has 3 spare bits, else 2 bits 10/11/01/00.
    arkworks (ark-serialize): little-endian, c0||c1, last byte bit 7 = y > -y, bit 6 = infinity,
      a flagged element takes ceil((bits + 2) / 8) bytes.
    eip197: big-endian, c1||c0, infinity (0, 0), uncompressed only.
    eip2537: big-endian, elements zero-padded to 32-byte words, c0||c1, infinity zeros, uncompressed only.
    """

    def __init__(self, C, name: str):
        p = C.P
        self.p = p
        self.bits = p.bit_length()
        self.nb = (self.bits + 7) // 8
        spare = 8 * self.nb - self.bits
        self.name = name
        self.little = name == "arkworks"
        self.width = -(-self.nb // 32) * 32 if name == "eip2537" else self.nb
        self.high_first = name in ("zcash", "gnark", "eip197")
        self.flagged_width = -(-(self.bits + 2) // 8) if name == "arkworks" else self.width
        if name == "zcash" or (name == "gnark" and spare >= 3):
            self.flags = "zcash"
        elif name == "gnark":
            self.flags = "gnark2"
        elif name == "arkworks":
            self.flags = "arkworks"
        else:
            self.flags = None
        self.compressed = self.flags is not None

    def elem(self, v: int, w: int) -> bytes:
        return v.to_bytes(w, "little" if self.little else "big")

    def coord(self, c) -> list[int]:
        """The coefficients of a coordinate (c0, c1, ...) in the order written: highest first in
        the big-endian formats (Fp2 c1||c0; Fp8 c7 .. c0 as the IRTF draft writes BLS48-581's)."""
        vals = list(c) if isinstance(c, tuple) else [c]
        return vals[::-1] if self.high_first else vals

    def lex_largest(self, y) -> bool:
        """y > -y: the highest non-zero coefficient decides (Fp2: c1, else c0)."""
        half = (self.p - 1) // 2
        vals = list(y) if isinstance(y, tuple) else [y]
        top = next((v for v in reversed(vals) if v), 0)
        return top > half

    def encode(self, affine, degree: int, compressed: bool) -> bytes:
        """The encoding of an affine point (None: infinity); coordinates may be >= p on purpose."""
        m = degree if compressed else 2 * degree
        if affine is None:
            vals = [0] * m
            largest = False
        else:
            x, y = affine
            vals = self.coord(x) + ([] if compressed else self.coord(y))
            largest = self.lex_largest(y)
        flagged = m - 1 if self.flags == "arkworks" else 0
        out = bytearray(b"".join(self.elem(v, self.flagged_width if j == flagged else self.width)
                                 for j, v in enumerate(vals)))
        inf = affine is None
        if self.flags == "zcash":
            out[0] |= (0x80 if compressed else 0) | (0x40 if inf else 0) | (0x20 if compressed and largest and not inf else 0)
        elif self.flags == "gnark2":
            if compressed:
                out[0] |= 0x40 if inf else (0xC0 if largest else 0x80)
        elif self.flags == "arkworks":
            out[-1] |= 0x40 if inf else (0x80 if largest else 0)
        return bytes(out)

    def lengths(self, degree: int) -> tuple[int, int]:
        extra = self.flagged_width - self.width
        return degree * self.width + extra, 2 * degree * self.width + extra


def usable(C) -> list[str]:
    return [p for p in PROFILES if p in C.SERIALIZATION_PROFILES]


def degree(C, group: int) -> int:
    if group == 1:
        return 1
    x = C.G2.generator().to_affine()[0]
    return len(x) if isinstance(x, tuple) else 1


def declared_profile(C) -> str | None:
    """The `serialization` key of the curve file in curves/ named C.NAME (None when absent)."""
    import tomllib

    for path in sorted((REPO_ROOT / "curves").glob("*.toml")):
        data = tomllib.loads(path.read_text())
        if data.get("name") == C.NAME:
            return data.get("serialization")
    raise LookupError(f"no curve file for {C.NAME}")


def G(C, group: int):
    return C.G1 if group == 1 else C.G2


def random_points(C, group: int, n: int, seed: str):
    rng = random.Random(f"{C.NAME}-{group}-{seed}")
    g = G(C, group).generator()
    return [G(C, group).identity(), g, -g] + [g * rng.randrange(1, C.R) for _ in range(n)]


# --------------------------------------------------------------------------------------------
# Profiles of each curve


def test_profiles_of_each_curve(curve):
    C = curve
    spare = 8 * ((C.P.bit_length() + 7) // 8) - C.P.bit_length()
    # the curve file's `serialization` key, or else the rule: zcash's layout where 3 flag bits fit,
    # gnark's where 2 do, else arkworks' (its extra flag byte)
    assert C.DEFAULT_PROFILE == (declared_profile(C) or ("zcash" if spare >= 3 else "gnark" if spare >= 2 else "arkworks"))
    expected = [p for p in PROFILES if (p != "zcash" or spare >= 3) and (p != "gnark" or spare >= 2)]
    assert list(C.SERIALIZATION_PROFILES) == expected
    for cls in (C.G1, C.G2):
        P = cls.generator() * 3
        assert P.to_bytes() == P.to_bytes(profile=C.DEFAULT_PROFILE)
        assert P.to_bytes(False) == P.to_bytes(False, profile=None) == P.to_bytes(False, profile=C.DEFAULT_PROFILE)
        with pytest.raises(ValueError, match="unknown serialization profile 'blst'"):
            P.to_bytes(profile="blst")
        with pytest.raises(ValueError, match="unknown serialization profile"):
            cls.from_bytes(P.to_bytes(), profile="ZCASH")
        with pytest.raises(TypeError):
            P.to_bytes(profile=1)
        if spare < 3:
            with pytest.raises(ValueError, match=rf"zcash profile needs 3 spare bits .* \({spare} spare\)"):
                P.to_bytes(profile="zcash")
            with pytest.raises(ValueError, match="spare bits"):
                cls.from_bytes(P.to_bytes(), profile="zcash")
            with pytest.raises(ValueError, match="spare bits"):
                C.Fp(1).to_bytes(profile="zcash")
        for name in ("eip197", "eip2537"):
            with pytest.raises(ValueError, match=f"the {name} profile has no compressed form"):
                P.to_bytes(True, profile=name)
    # the module docstring of _core.pyx (the portable module's __doc__; _core_adx includes the same source)
    assert "Serialization profiles" in Path(C.__file__).with_name("_core.pyx").read_text().split('"""', 2)[1]


@pytest.mark.parametrize("group", [1, 2])
def test_round_trips_match_the_format_descriptions(curve, group):
    check_round_trips(curve, group)


def check_round_trips(C, group: int) -> None:
    cls = G(C, group)
    d = degree(C, group)
    pts = random_points(C, group, 8, "rt")
    for name in usable(C):
        lay = Layout(C, name)
        clen, ulen = lay.lengths(d)
        for compressed in ((True, False) if lay.compressed else (False,)):
            encs = []
            for P in pts:
                raw = P.to_bytes(compressed, profile=name)
                assert len(raw) == (clen if compressed else ulen)
                assert raw == lay.encode(P.to_affine(), d, compressed), (name, compressed, P)
                assert cls.from_bytes(raw, profile=name) == P
                assert cls.from_bytes(raw, check=False, profile=name) == P
                assert cls.from_bytes(bytearray(raw), True, name) == P
                encs.append(raw)
            # batch decoding equals per-point decoding, as a list and as one packed object
            assert cls.batch_from_bytes(encs, profile=name) == pts
            assert cls.batch_from_bytes(b"".join(encs), profile=name, compressed=compressed) == pts
            assert cls.batch_from_bytes(memoryview(b"".join(encs)), check=False, profile=name,
                                        compressed=compressed) == pts


# --------------------------------------------------------------------------------------------
# zcash vectors (zkcrypto/bls12_381): [i]G, i = 0..999


ZCASH = [(1, True, "g1_compressed_valid_test_vectors.dat"), (1, False, "g1_uncompressed_valid_test_vectors.dat"),
         (2, True, "g2_compressed_valid_test_vectors.dat"), (2, False, "g2_uncompressed_valid_test_vectors.dat")]


@pytest.mark.parametrize("group,compressed,filename", ZCASH)
def test_zcash_vectors_in_zcash_and_gnark_profiles(group, compressed, filename, curve_module):
    C = curve_module("bls12_381")
    cls = G(C, group)
    data = read_vector_bytes("bls12381_serialization_zkcrypto", filename)
    size = len(data) // 1000
    g = cls.generator()
    pts = [cls.identity()]
    for _ in range(999):
        pts.append(pts[-1] + g)
    records = [data[i * size:(i + 1) * size] for i in range(1000)]
    for name in ("zcash", "gnark"):  # gnark uses the zcash layout when 3 flag bits fit
        out = [P.to_bytes(compressed, profile=name) for P in pts]
        bad = [i for i in range(1000) if out[i] != records[i]]
        assert not bad, f"{name}: [{bad[0]}]G encodes to {out[bad[0]].hex()}, vector {records[bad[0]].hex()}"
        # the whole file as one packed object, and as a list
        assert cls.batch_from_bytes(data, profile=name, compressed=compressed) == pts
        assert cls.batch_from_bytes(records[:50], profile=name) == pts[:50]


# --------------------------------------------------------------------------------------------
# py_arkworks_bls12381 (arkworks 0.5 through Python), BLS12-381


@pytest.mark.parametrize("group", [1, 2])
def test_py_arkworks_both_directions(group, curve_module):
    ark = import_optional("py_arkworks_bls12381", "a test-only peer, in the test extra")
    C = curve_module("bls12_381")
    cls = G(C, group)
    acls = ark.G1Point if group == 1 else ark.G2Point
    rng = random.Random(f"ark{group}")
    ks = [1, 2, 3, C.R - 1] + [rng.randrange(1, C.R) for _ in range(12)]
    signs = set()
    for k in ks:
        P = cls.generator() * k
        A = acls() * ark.Scalar(k)
        # arkworks' BLS12-381 crate overrides CanonicalSerialize with the zcash format
        # (ark-bls12-381 curves/util.rs): its compressed bytes are our zcash bytes, both ways
        theirs = bytes(A.to_compressed_bytes())
        assert theirs == P.to_bytes(True, profile="zcash")
        assert cls.from_bytes(theirs, profile="zcash") == P
        assert acls.from_compressed_bytes(P.to_bytes(True, profile="zcash")) == A
        # their little-endian x || y (c0 first) is the arkworks uncompressed layout without the
        # informative "y negative" flag: it decodes in our arkworks profile to the same point as
        # the zcash decoding of their compressed bytes
        xy = bytes(A.to_xy_bytes_le())
        assert cls.from_bytes(xy, profile="arkworks") == cls.from_bytes(theirs, profile="zcash") == P
        ours = P.to_bytes(False, profile="arkworks")
        negative = bool(ours[-1] & 0x80)
        signs.add(negative)
        y = P.to_affine()[1]
        ylast = y[1] if isinstance(y, tuple) else y
        assert negative == Layout(C, "arkworks").lex_largest(y), ylast
        assert ours[:-1] == xy[:-1] and (ours[-1] & 0x3F) == xy[-1]
        assert acls.from_xy_bytes_le(ours[:-1] + bytes([ours[-1] & 0x3F])) == A
        # and the round trip through arkworks, both forms of our arkworks profile
        assert cls.from_bytes(ours, profile="arkworks") == P
        assert cls.from_bytes(P.to_bytes(True, profile="arkworks"), profile="arkworks") == P
        # big-endian x || y of py_arkworks: the eip197 layout for G1 (no flags, no padding)
        if group == 1:
            assert bytes(A.to_xy_bytes_be()) == P.to_bytes(False, profile="eip197")
    assert signs == {True, False}, "both signs of y were exercised"
    # scalars: arkworks Fr is little-endian
    for k in ks:
        assert bytes(ark.Scalar(k).to_le_bytes()) == C.Fr(k).to_bytes(profile="arkworks")
        assert C.Fr.from_bytes(bytes(ark.Scalar(k).to_le_bytes()), profile="arkworks") == C.Fr(k)


# --------------------------------------------------------------------------------------------
# Precompile vectors through the matching profile


def _load(folder: str, filename: str) -> list[dict]:
    cases = read_vector_json(folder, filename)
    return [({k.lower(): v for k, v in c.items()}) for c in cases]


EIP2537_ADD = [
    ("bls12_381", "eip2537_bls12381_precompiles_eips_assets", "add_G1_bls.json", 1),
    ("bls12_381", "eip2537_bls12381_precompiles_eips_assets", "add_G2_bls.json", 2),
    ("bls12_377", "bls12377_bw6761_precompiles_celo", "bls12_377/bls12377G1Add_matter.json", 1),
    ("bls12_377", "bls12377_bw6761_precompiles_celo", "bls12_377/bls12377G2Add_matter.json", 2),
    ("bw6_761", "bls12377_bw6761_precompiles_celo", "bw6_761/bw6G1Add_zexe.json", 1),
    ("bw6_761", "bls12377_bw6761_precompiles_celo", "bw6_761/bw6G2Add_zexe.json", 2),
]


@pytest.mark.parametrize("pkg,folder,filename,group", EIP2537_ADD, ids=[f"{a}-{c}" for a, _, c, _ in EIP2537_ADD])
def test_eip2537_profile_on_precompile_add_vectors(pkg, folder, filename, group, curve_module):
    """EIP-2537 (BLS12-381), EIP-2539 (BLS12-377) and EIP-3026 (BW6-761) share the layout of the
    eip2537 profile: each input is two points back to back, the output their sum."""
    C = curve_module(pkg)
    cls = G(C, group)
    for case in _load(folder, filename):
        data = bytes.fromhex(case["input"])
        a, b = cls.batch_from_bytes(data, check=False, profile="eip2537")
        assert [a, b] == [cls.from_bytes(data[:len(data) // 2], check=False, profile="eip2537"),
                          cls.from_bytes(data[len(data) // 2:], check=False, profile="eip2537")]
        assert (a + b).to_bytes(False, profile="eip2537").hex() == case["expected"], case.get("name")


EIP2537_FAIL = [
    ("bls12_381", "eip2537_bls12381_precompiles_eips_assets", "fail-add_G1_bls.json", 1),
    ("bls12_381", "eip2537_bls12381_precompiles_eips_assets", "fail-add_G2_bls.json", 2),
    ("bls12_377", "bls12377_bw6761_precompiles_celo", "bls12_377/fail-bls12377G1Add.json", 1),
    ("bls12_377", "bls12377_bw6761_precompiles_celo", "bls12_377/fail-bls12377G2Add.json", 2),
    ("bw6_761", "bls12377_bw6761_precompiles_celo", "bw6_761/fail-bw6G1Add.json", 1),
    ("bw6_761", "bls12377_bw6761_precompiles_celo", "bw6_761/fail-bw6G2Add.json", 2),
]


@pytest.mark.parametrize("pkg,folder,filename,group", EIP2537_FAIL, ids=[f"{a}-{c}" for a, _, c, _ in EIP2537_FAIL])
def test_eip2537_profile_rejects_precompile_failure_vectors(pkg, folder, filename, group, curve_module):
    C = curve_module(pkg)
    cls = G(C, group)
    reasons = {"not on curve": "not on the curve", "fp.element encoding": "not canonical",
               "less than modulus": "not canonical", "top bytes": "padding"}
    for case in _load(folder, filename):
        data = bytes.fromhex(case["input"])
        error = case.get("expectederror", "").lower()
        if "length" in error:  # the precompile wants exactly two points
            ok = len(data) % (2 * Layout(C, "eip2537").width * degree(C, group)) == 0
            assert not ok or len(cls.batch_from_bytes(data, False, "eip2537")) != 2, case["name"]
            continue
        match = next(v for k, v in reasons.items() if k in error)
        with pytest.raises(ValueError, match=match):
            cls.batch_from_bytes(data, check=False, profile="eip2537")


def test_eip197_profile_on_bn254_vectors(curve_module):
    C = curve_module("bn254")
    folder = "eip196_197_bn254_precompiles_geth"
    n = 0
    for case in _load(folder, "bn256Add.json"):
        data = bytes.fromhex(case["input"])
        if len(data) != 128:
            continue  # the precompile pads short input; a profile does not
        a, b = C.G1.batch_from_bytes(data, profile="eip197")
        assert (a + b).to_bytes(False, profile="eip197").hex() == case["expected"]
        n += 1
    assert n >= 5
    for case in _load(folder, "bn256Pairing.json"):
        data = bytes.fromhex(case["input"])
        recs = [data[i:i + 192] for i in range(0, len(data), 192)]
        Ps = C.G1.batch_from_bytes([r[:64] for r in recs], profile="eip197")
        Qs = C.G2.batch_from_bytes([r[64:] for r in recs], profile="eip197")
        assert C.pairing_check(Ps, Qs) == (case["expected"][-1] == "1"), case["name"]


# --------------------------------------------------------------------------------------------
# Malformed input


def _point_outside_subgroup(C, group: int):
    """A point on the curve, not of order r (a lifted x without cofactor clearing), or None."""
    cls = G(C, group)
    d = degree(C, group)
    F, gx, gy = _coordinate_field(C, group)
    B = gy * gy - gx * gx * gx
    for i in range(1, 300):
        x = F(i) if d == 1 else F(i, 1)
        rhs = x * x * x + B
        if not rhs.is_square():
            continue
        y = rhs.sqrt()
        P = cls.from_affine(_affine_coordinate(x), _affine_coordinate(y), check=False)
        if not P.in_subgroup():
            return P
    return None


def _off_curve_x(C, group: int):
    d = degree(C, group)
    F, gx, gy = _coordinate_field(C, group)
    B = gy * gy - gx * gx * gx
    for i in range(1, 300):
        x = F(i) if d == 1 else F(i, 1)
        if not (x * x * x + B).is_square():
            return _affine_coordinate(x)
    raise AssertionError("no x off the curve")


def _coordinate_field(C, group: int):
    """(F, gx, gy): the field class of the group's coordinates (Fp, Fp2, Fp4 or Fp8) and the
    generator's coordinates in it (security/fuzz_targets.py's coord_field)."""
    from security.fuzz_targets import coord_field

    d = degree(C, group)
    gx, gy = (coord_field(C, c) for c in G(C, group).generator().to_affine())
    return (C.Fp if d == 1 else getattr(C, f"Fp{d}")), gx, gy


def _affine_coordinate(v):
    """A field element as from_affine takes it: an int, or its Fp coefficients, c0 first."""
    return int(v) if not hasattr(v, "to_tuple") else tuple(int(c) for c in _flat(v.to_tuple()))


@pytest.mark.parametrize("group", [1, 2])
def test_malformed_input_is_rejected_with_a_reason(curve, group):
    check_malformed(curve, group)


def check_malformed(C, group: int) -> None:
    cls = G(C, group)
    d = degree(C, group)
    P = cls.generator() * 1234567
    x, y = P.to_affine()
    outside = _point_outside_subgroup(C, group)
    for name in usable(C):
        lay = Layout(C, name)
        clen, ulen = lay.lengths(d)
        forms = (True, False) if lay.compressed else (False,)

        def bad(data, match, check=True, name=name):
            with pytest.raises(ValueError, match=match):
                cls.from_bytes(data, check=check, profile=name)
            with pytest.raises(ValueError, match=match):
                cls.batch_from_bytes([P.to_bytes(False, profile=name), data], check=check, profile=name)

        # lengths
        for n in {0, 1, clen - 1, clen + 1, ulen - 1, ulen + 1, 2 * ulen} | (set() if lay.compressed else {clen}):
            bad(bytes(n), "expected")
        with pytest.raises(TypeError):
            cls.from_bytes(P.to_bytes(False, profile=name).hex(), profile=name)
        fb = -1 if lay.flags == "arkworks" else 0
        for compressed in forms:
            enc = P.to_bytes(compressed, profile=name)
            # every flag code: either accepted as this point's form, or rejected with a reason
            if lay.flags:
                bits = 3 if lay.flags == "zcash" else 2
                point_codes = {  # the codes of a finite point, from the format descriptions
                    ("zcash", True): {0b100, 0b101}, ("zcash", False): {0b000},
                    ("gnark2", True): {0b10, 0b11}, ("gnark2", False): {0b00},
                    ("arkworks", True): {0b00, 0b10}, ("arkworks", False): {0b00, 0b10},
                }[lay.flags, compressed]
                accepted = set()
                for code in range(1 << bits):
                    e = bytearray(enc)
                    e[fb] = (e[fb] & (0xFF >> bits)) | (code << (8 - bits))
                    try:
                        Q = cls.from_bytes(bytes(e), profile=name)
                    except ValueError as exc:
                        assert str(exc).startswith(f"{cls.__name__}.from_bytes: ")
                        continue
                    # accepted: the same point, or its negative when only the sign changed
                    accepted.add(code)
                    assert Q in (P, -P), (name, compressed, code)
                    if lay.flags == "arkworks" and not compressed:
                        assert Q == P  # the uncompressed sign flag is informative only
                assert accepted == point_codes, (name, compressed, accepted)
                if lay.flags == "zcash":
                    bad(bytes([0xE0]) + bytes(clen - 1), "infinity must not have the sign flag")
                    bad(bytes([0x60]) + bytes(ulen - 1), "infinity must not have the sign flag")
                    bad(bytes([enc[0] | 0x20 if not compressed else enc[0] & 0x7F]) + enc[1:],
                        "sign flag" if not compressed else "compression flag")
                if lay.flags == "arkworks":
                    bad(enc[:-1] + bytes([enc[-1] | 0xC0]), "must not both be set")
            if lay.flags and not (lay.flags == "gnark2" and not compressed):
                # infinity (a flag code) with junk
                inf = bytearray(cls.identity().to_bytes(compressed, profile=name))
                inf[len(inf) // 2] = 1
                bad(bytes(inf), "infinity")
            # x >= p in each Fp element of x (the value p itself; flags as for the point)
            for j in range(d):
                xj = C.P if d == 1 else tuple(C.P if i == j else x[i] for i in range(d))
                bad(lay.encode((xj, y), d, compressed), "x coordinate is not canonical")
            # padding: the first byte of x, and the first byte of the second element
            if lay.width > lay.nb:
                for at in (0, lay.width):
                    e = bytearray(enc)
                    e[at] = 1
                    bad(bytes(e), "padding")
        # y >= p (each Fp element), off the curve, compressed x off the curve
        for j in range(d):
            yj = C.P if d == 1 else tuple(C.P if i == j else y[i] for i in range(d))
            bad(lay.encode((x, yj), d, False), "y coordinate is not canonical")
        y1 = ((y[0] + 1) % C.P, *y[1:]) if d > 1 else (y + 1) % C.P
        bad(lay.encode((x, y1), d, False), "not on the curve", check=False)
        zero = (0,) * d if d > 1 else 0
        if lay.flags in ("zcash", "arkworks"):  # (0, 0) is not infinity there
            bad(lay.encode((zero, zero), d, False), "not on the curve")
        else:
            assert cls.from_bytes(bytes(ulen), profile=name).is_identity()
        if lay.compressed:
            bad(lay.encode((_off_curve_x(C, group), y), d, True), "not a square", check=False)
        # the subgroup check
        if outside is not None:
            for compressed in forms:
                raw = outside.to_bytes(compressed, profile=name)
                bad(raw, "not in the subgroup")
                assert cls.from_bytes(raw, check=False, profile=name) == outside
                assert cls.batch_from_bytes([raw], check=False, profile=name) == [outside]


def test_batch_decoding_errors_and_types(curve):
    C = curve
    g = C.G1.generator()
    encs = [(g * k).to_bytes() for k in range(1, 6)]
    broken = bytearray(encs[3])
    broken[-1] ^= 1
    with pytest.raises(ValueError, match=r"item 3: "):
        C.G1.batch_from_bytes(encs[:3] + [bytes(broken)] + encs[4:])
    with pytest.raises(ValueError, match="not a whole number"):
        C.G1.batch_from_bytes(b"".join(encs) + b"\x00")
    with pytest.raises(ValueError, match="item 1: expected"):
        C.G1.batch_from_bytes([encs[0], (g * 2).to_bytes(False)], compressed=True)
    with pytest.raises(TypeError, match="item 1"):
        C.G1.batch_from_bytes([encs[0], "00"])
    with pytest.raises(TypeError):
        C.G1.batch_from_bytes(7)
    with pytest.raises(ValueError, match="no compressed form"):
        C.G1.batch_from_bytes(b"", profile="eip197", compressed=True)
    assert C.G1.batch_from_bytes([]) == [] and C.G1.batch_from_bytes(b"") == []
    mixed = [encs[0], (g * 2).to_bytes(False), C.G1.identity().to_bytes()]
    assert C.G1.batch_from_bytes(mixed) == [g, g * 2, C.G1.identity()]
    assert C.G1.batch_from_bytes(iter(mixed)) == [g, g * 2, C.G1.identity()]


# --------------------------------------------------------------------------------------------
# Field elements and GT


def _flat(t):
    return [v for c in t for v in _flat(c)] if isinstance(t, tuple) else [t]


def test_field_layouts(curve):
    C = curve
    rng = random.Random(C.NAME + "fields")
    levels = [c for c in (getattr(C, n, None) for n in ("Fp2", "Fp3", "Fp6", "Fp12")) if c is not None]
    for name in usable(C):
        lay = Layout(C, name)
        fr_bytes = (C.R.bit_length() + 7) // 8
        fr_width = -(-fr_bytes // 32) * 32 if name == "eip2537" else fr_bytes
        fr_order = "little" if name in ("zcash", "arkworks") else "big"
        for v in (0, 1, C.P - 1, rng.randrange(C.P)):
            raw = C.Fp(v).to_bytes(profile=name)
            assert raw == lay.elem(v, lay.width)
            assert C.Fp.from_bytes(raw, profile=name) == C.Fp(v)
        for v in (0, 1, C.R - 1, rng.randrange(C.R)):
            raw = C.Fr(v).to_bytes(profile=name)
            assert raw == v.to_bytes(fr_width, fr_order)
            assert C.Fr.from_bytes(raw, profile=name) == C.Fr(v)
        with pytest.raises(ValueError, match="not canonical"):
            C.Fp.from_bytes(lay.elem(C.P, lay.width), profile=name)
        with pytest.raises(ValueError, match="not canonical"):
            C.Fr.from_bytes(C.R.to_bytes(fr_width, fr_order), profile=name)
        with pytest.raises(ValueError, match="expected"):
            C.Fp.from_bytes(bytes(lay.width + 1), profile=name)
        if lay.width > lay.nb:
            with pytest.raises(ValueError, match="padding"):
                C.Fp.from_bytes(b"\x01" + bytes(lay.width - 1), profile=name)
        for cls in levels:
            flat_len = len(_flat(cls.one().to_tuple()))
            vals = [rng.randrange(C.P) for _ in range(flat_len)]
            # build an element from its flat coefficients through the native layout
            a = cls.from_bytes(b"".join(v.to_bytes(lay.nb, "big") for v in vals))
            order = vals[::-1] if lay.high_first else vals
            raw = a.to_bytes(profile=name)
            assert raw == b"".join(lay.elem(v, lay.width) for v in order)
            assert cls.from_bytes(raw, profile=name) == a
            bad = bytearray(raw)
            bad[:lay.width] = lay.elem(C.P, lay.width)
            with pytest.raises(ValueError, match="not canonical"):
                cls.from_bytes(bytes(bad), profile=name)
    # zcash and EIP-197 write Fp2 as c1 || c0, like their G2 coordinates
    if hasattr(C, "Fp2"):
        for name in {"gnark", "eip197"} & set(usable(C)):
            assert C.Fp2(1, 2).to_bytes(profile=name) == Layout(C, name).elem(2, Layout(C, name).width) + \
                Layout(C, name).elem(1, Layout(C, name).width)


def test_gt_layouts(curve):
    C = curve
    f = C.pairing(C.G1.generator() * 5, C.G2.generator())
    flat = _flat(f.to_tuple())
    nb = (C.P.bit_length() + 7) // 8
    # gnark: big-endian; E12 and E6 Bytes() write the most significant coefficient first, E24's
    # (e24.go) c0 first at every level (test_bls24_package checks that order coefficient by coefficient)
    if "gnark" in usable(C):
        raw = f.to_bytes(profile="gnark")
        gnark_order = flat if len(flat) == 24 else list(reversed(flat))
        assert raw == b"".join(v.to_bytes(nb, "big") for v in gnark_order)
        assert C.GT.from_bytes(raw, profile="gnark") == f
        # the full field's class writes the same element in the same layout (gnark's one type, E12
        # or E24), and reads it back
        full = f.value()
        assert full.to_bytes(profile="gnark") == raw and type(full).from_bytes(raw, profile="gnark") == full
    # arkworks (PairingOutput CanonicalSerialize): little-endian, c0 first
    raw = f.to_bytes(profile="arkworks")
    assert raw == b"".join(v.to_bytes(nb, "little") for v in flat)
    assert C.GT.from_bytes(raw, profile="arkworks") == f
    assert f.value().to_bytes(profile="arkworks") == raw
    for name in ("eip197", "eip2537") + (("zcash",) if "zcash" in C.SERIALIZATION_PROFILES else ()):
        with pytest.raises(ValueError, match="defines no encoding of GT"):
            f.to_bytes(profile=name)
        with pytest.raises(ValueError, match="defines no encoding of GT"):
            C.GT.from_bytes(f.to_bytes(), profile=name)
    # an element of Fp12 outside GT is rejected in every layout
    one_plus = C.GT.one().to_tuple()
    g = _flat(one_plus)
    g[1] = 1
    with pytest.raises(ValueError, match="not in GT"):
        C.GT.from_bytes(b"".join(v.to_bytes(nb, "little") for v in g), profile="arkworks")


# --------------------------------------------------------------------------------------------
# A field with one spare bit: zcash and gnark cannot flag it, arkworks adds a byte


ONE_SPARE_BIT = 'name = "BLS12-383S"\nfamily = "BLS12"\nx = "-0xffe0200000000400"\n'  # p: 383 bits in 48 bytes


@pytest.fixture(scope="module")
def one_spare_bit():
    from build_cache import cached_test_curve, import_test_curve

    # built once per content of the curve file, the generator and the toolchain (all workers, all runs)
    root = cached_test_curve("custom curve", ONE_SPARE_BIT, "bls12_383s.toml")
    return import_test_curve(root / "out", "bls12_383s")


@pytest.mark.slow  # derives and builds a curve of its own (about 20 s)
def test_one_spare_bit_profiles(one_spare_bit):
    C = one_spare_bit
    assert C.P.bit_length() == 383
    assert C.DEFAULT_PROFILE == "arkworks"
    assert C.SERIALIZATION_PROFILES == ("arkworks", "eip197", "eip2537")
    P = C.G1.generator() * 5
    with pytest.raises(ValueError, match=r"zcash profile needs 3 spare bits .* 383 bits in 48 bytes \(1 spare\)"):
        P.to_bytes(profile="zcash")
    with pytest.raises(ValueError, match=r"gnark profile needs 2 spare bits"):
        C.G2.from_bytes(bytes(96), profile="gnark")
    # arkworks: the flagged element takes 49 bytes, the others 48
    assert len(P.to_bytes()) == 49 and len(P.to_bytes(False)) == 97
    assert len(C.G2.generator().to_bytes()) == 97 and len(C.G2.generator().to_bytes(False)) == 193
    # the extra byte holds only the flags
    enc = bytearray(P.to_bytes())
    enc[-1] |= 0x01
    with pytest.raises(ValueError, match="x coordinate is not canonical"):
        C.G1.from_bytes(bytes(enc))
    for group in (1, 2):
        check_round_trips(C, group)
        check_malformed(C, group)
    test_field_layouts(C)
    test_gt_layouts(C)
    test_batch_decoding_errors_and_types(C)


# --------------------------------------------------------------------------------------------
# The generator's resolution of profiles (generator/derive/serialization.py)


def test_profile_resolution():
    from types import SimpleNamespace

    from generator.derive.checks import DerivationError
    from generator.derive.serialization import derive_serialization

    def field(bits):
        return SimpleNamespace(bits=bits, nbytes=(bits + 7) // 8)

    fr = field(255)
    cases = {  # p bits -> (default, usable profiles, arkworks flagged width)
        381: ("zcash", {"zcash", "gnark", "arkworks", "eip197", "eip2537"}, 48),
        254: ("gnark", {"gnark", "arkworks", "eip197", "eip2537"}, 32),
        255: ("arkworks", {"arkworks", "eip197", "eip2537"}, 33),
        256: ("arkworks", {"arkworks", "eip197", "eip2537"}, 33),
        761: ("zcash", {"zcash", "gnark", "arkworks", "eip197", "eip2537"}, 96),
    }
    for bits, (default, names, flagged) in cases.items():
        ser = derive_serialization(field(bits), fr)
        by = {p.name: p for p in ser.profiles}
        assert ser.default == default
        assert {p.name for p in ser.profiles if p.usable} == names
        assert by["arkworks"].flagged_width == flagged and by["arkworks"].width == (bits + 7) // 8
        assert by["eip2537"].width == -(-((bits + 7) // 8) // 32) * 32
        if by["gnark"].usable:
            assert by["gnark"].flags.bits == (3 if by["zcash"].usable else 2)
    # the declared profile becomes the default; it needs a compressed form
    assert derive_serialization(field(381), fr, "arkworks", "BLS-test").default == "arkworks"
    assert derive_serialization(field(381), fr, "gnark", "BLS-test").default == "gnark"
    with pytest.raises(DerivationError, match="has a compressed form"):
        derive_serialization(field(254), fr, "eip197", "BN-test")
    with pytest.raises(DerivationError, match="needs 3 spare bits"):
        derive_serialization(field(254), fr, "zcash", "BN-test")
    with pytest.raises(DerivationError, match="names a profile"):
        derive_serialization(field(381), fr, "blst", "BLS-test")
