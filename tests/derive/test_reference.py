"""Tests for the pure-Python reference oracle (generator/reference).

The curve parameters are the published ones (gnark-crypto, arkworks, the EIPs); p and r are recomputed here from the family
polynomials of §4.1 and compared with the published hex values.  Pairing results are cached per
curve because every final exponentiation is a multi-thousand-bit plain power.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

import pytest

from generator.reference import Curve, ExtensionField, PrimeField, ReferencePairing

# ---------------------------------------------------------------------------------------------
# Family polynomials
# ---------------------------------------------------------------------------------------------


def bn_p(x: int) -> int:
    return 36 * x**4 + 36 * x**3 + 24 * x**2 + 6 * x + 1


def bn_r(x: int) -> int:
    return 36 * x**4 + 36 * x**3 + 18 * x**2 + 6 * x + 1


def bls12_p(x: int) -> int:
    num = (x - 1) ** 2 * (x**4 - x**2 + 1)
    assert num % 3 == 0
    return num // 3 + x


def bls12_r(x: int) -> int:
    return x**4 - x**2 + 1


def bw6_params(x: int, ht: int, hy: int) -> tuple[int, int, int]:
    """(p, r, t) of the BW6 curve over the BLS12 curve with seed x: r = p_BLS12(x)."""
    r = bls12_p(x)
    t0 = x**5 - 3 * x**4 + 3 * x**3 - x + 3
    assert t0 % 3 == 0
    t = t0 + ht * r
    y = t0 // 3 + hy * r
    assert (t * t + 3 * y * y) % 4 == 0
    return (t * t + 3 * y * y) // 4, r, t


# ---------------------------------------------------------------------------------------------
# Curves (published parameters)
# ---------------------------------------------------------------------------------------------

BN254_X = 0x44E992B44A6909F1
BLS12_381_X = -0xD201000000010000
BLS12_377_X = 0x8508C00000000001


@dataclass(frozen=True)
class CurveCase:
    name: str
    family: str
    x: int
    p: int
    r: int
    p_hex: int
    r_hex: int
    b: int
    twist: str
    beta: int | None
    xi: tuple[int, ...]
    g1: tuple[int, int]
    g2: tuple[Any, Any]
    b2_expected: Any  # b' written as an Fq value (int or (c0, c1)); checked against the twist rule


_BW6_P, _BW6_R, _BW6_T = bw6_params(BLS12_377_X, 13, 9)

CASES = {
    "BN254": CurveCase(
        name="BN254",
        family="BN",
        x=BN254_X,
        p=bn_p(BN254_X),
        r=bn_r(BN254_X),
        p_hex=0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47,
        r_hex=0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001,
        b=3,
        twist="D",
        beta=-1,
        xi=(9, 1),
        g1=(1, 2),
        g2=(
            (
                10857046999023057135944570762232829481370756359578518086990519993285655852781,
                11559732032986387107991004021392285783925812861821192530917403151452391805634,
            ),
            (
                8495653923123431417604973247489272438418190587263600148770280649306958101930,
                4082367875863433681332203403145435568316851327593401208105741076214120093531,
            ),
        ),
        b2_expected=None,  # 3/(9+u): checked in test_twist_coefficient
    ),
    "BLS12-381": CurveCase(
        name="BLS12-381",
        family="BLS12",
        x=BLS12_381_X,
        p=bls12_p(BLS12_381_X),
        r=bls12_r(BLS12_381_X),
        p_hex=0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB,
        r_hex=0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001,
        b=4,
        twist="M",
        beta=-1,
        xi=(1, 1),
        g1=(
            0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
            0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1,
        ),
        g2=(
            (
                0x024AA2B2F08F0A91260805272DC51051C6E47AD4FA403B02B4510B647AE3D1770BAC0326A805BBEFD48056C8C121BDB8,
                0x13E02B6052719F607DACD3A088274F65596BD0D09920B61AB5DA61BBDC7F5049334CF11213945D57E5AC7D055D042B7E,
            ),
            (
                0x0CE5D527727D6E118CC9CDC6DA2E351AADFD9BAA8CBDD3A76D429A695160D12C923AC9CC3BACA289E193548608B82801,
                0x0606C4A02EA734CC32ACD2B02BC28B99CB3E287E85A763AF267492AB572E99AB3F370D275CEC1DA1AAA9075FF05F79BE,
            ),
        ),
        b2_expected=(4, 4),  # 4(1+u)
    ),
    "BLS12-377": CurveCase(
        name="BLS12-377",
        family="BLS12",
        x=BLS12_377_X,
        p=bls12_p(BLS12_377_X),
        r=bls12_r(BLS12_377_X),
        p_hex=0x01AE3A4617C510EAC63B05C06CA1493B1A22D9F300F5138F1EF3622FBA094800170B5D44300000008508C00000000001,
        r_hex=0x12AB655E9A2CA55660B44D1E5C37B00159AA76FED00000010A11800000000001,
        b=1,
        twist="D",
        beta=-5,
        xi=(0, 1),
        g1=(
            0x008848DEFE740A67C8FC6225BF87FF5485951E2CAA9D41BB188282C8BD37CB5CD5481512FFCD394EEAB9B16EB21BE9EF,
            0x01914A69C5102EFF1F674F5D30AFEEC4BD7FB348CA3E52D96D182AD44FB82305C2FE3D3634A9591AFD82DE55559C8EA6,
        ),
        g2=(
            (
                0x018480BE71C785FEC89630A2A3841D01C565F071203E50317EA501F557DB6B9B71889F52BB53540274E3E48F7C005196,
                0x00EA6040E700403170DC5A51B1B140D5532777EE6651CECBE7223ECE0799C9DE5CF89984BFF76FE6B26BFEFA6EA16AFE,
            ),
            (
                0x00690D665D446F7BD960736BCBB2EFB4DE03ED7274B49A58E458C282F832D204F2CF88886D8C7C2EF094094409FD4DDF,
                0x00F8169FD28355189E549DA3151A70AA61EF11AC3D591BF12463B01ACEE304C24279B83F5E52270BD9A1CDD185EB8F93,
            ),
        ),
        b2_expected=None,  # 1/u: checked in test_twist_coefficient
    ),
    "BW6-761": CurveCase(
        name="BW6-761",
        family="BW6",
        x=BLS12_377_X,
        p=_BW6_P,
        r=_BW6_R,
        p_hex=0x122E824FB83CE0AD187C94004FAFF3EB926186A81D14688528275EF8087BE41707BA638E584E91903CEBAFF25B423048689C8ED12F9FD9071DCD3DC73EBFF2E98A116C25667A8F8160CF8AEEAF0A437E6913E6870000082F49D00000000008B,
        r_hex=0x01AE3A4617C510EAC63B05C06CA1493B1A22D9F300F5138F1EF3622FBA094800170B5D44300000008508C00000000001,
        b=-1,
        twist="M",
        beta=None,
        xi=(-4,),
        g1=(
            0x01075B020EA190C8B277CE98A477BEAEE6A0CFB7551B27F0EE05C54B85F56FC779017FFAC15520AC11DBFCD294C2E746A17A54CE47729B905BD71FA0C9EA097103758F9A280CA27F6750DD0356133E82055928ACA6AF603F4088F3AF66E5B43D,
            0x0058B84E0A6FC574E6FD637B45CC2A420F952589884C9EC61A7348D2A2E573A3265909F1AF7E0DBAC5B8FA1771B5B806CC685D31717A4C55BE3FB90B6FC2CDD49F9DF141B3053253B2B08119CAD0FB93AD1CB2BE0B20D2A1BAFC8F2DB4E95363,
        ),
        g2=(
            0x0110133241D9B816C852A82E69D660F9D61053AAC5A7115F4C06201013890F6D26B41C5DAB3DA268734EC3F1F09FEB58C5BBCAE9AC70E7C7963317A300E1B6BACE6948CB3CD208D700E96EFBC2AD54B06410CF4FE1BF995BA830C194CD025F1C,
            0x017C3357761369F8179EB10E4B6D2DC26B7CF9ACEC2181C81A78E2753FFE3160A1D86C80B95A59C94C97EB733293FEF64F293DBD2C712B88906C170FFA823003EA96FCD504AFFC758AA2D3A3C5A02A591EC0594F9EAC689EB70A16728C73B61,
        ),
        b2_expected=4,  # (-1)(-4)
    ),
}

BW6_T_HEX = 0x15D8F58F3501DBEC1AB2F9CB6145AEECB55FC0D440CB48F058490FB40986940170B5D44300000007467A800000000010

ALL = list(CASES)


@functools.lru_cache(maxsize=None)
def engine(name: str) -> ReferencePairing:
    c = CASES[name]
    return ReferencePairing(c.family, c.x, c.p, c.r, c.b, c.twist, c.beta, c.xi)


@functools.lru_cache(maxsize=None)
def scalars(name: str) -> tuple[int, int]:
    """Small random (a, b), fixed per curve so failures reproduce."""
    rng = random.Random(f"reference-{name}")
    return rng.randrange(2, 1 << 12), rng.randrange(2, 1 << 12)


@functools.lru_cache(maxsize=None)
def points(name: str) -> tuple[Any, Any, Any, Any]:
    """(G1, G2, [a]G1, [b]G2) as coerced points."""
    e, c = engine(name), CASES[name]
    a, b = scalars(name)
    P, Q = e.E1.coerce(c.g1), e.E2.coerce(c.g2)
    return P, Q, e.E1.mul(P, a), e.E2.mul(Q, b)


@functools.lru_cache(maxsize=None)
def base_pairing(name: str) -> Any:
    P, Q, _, _ = points(name)
    return engine(name).pairing(P, Q)


@functools.lru_cache(maxsize=None)
def scaled_pairing(name: str) -> Any:
    _, _, aP, bQ = points(name)
    return engine(name).pairing(aP, bQ)


# ---------------------------------------------------------------------------------------------
# Fields and curves on their own
# ---------------------------------------------------------------------------------------------


def test_prime_field_small_exhaustive() -> None:
    F = PrimeField(103)
    a = F(5)
    assert a + 1 == 6 and 1 + a == 6 and a - 7 == F(-2) and 7 - a == 2
    assert 3 * a == 15 and a * 3 == 15 and a / 5 == 1 and 10 / a == 2
    assert a * a.inverse() == 1 and a**-3 * a**3 == 1 and a**0 == 1
    assert -a == 98 and int(-a) == 98 and hash(F(7)) == hash(7)
    assert F.zero().is_zero() and F.one() == 1 and F(-1) == 102
    squares = {(v * v) % 103 for v in range(103)}
    for v in range(103):
        x = F(v)
        assert x.is_square() == (v in squares)
        if v in squares:
            assert x.sqrt() ** 2 == x
        else:
            with pytest.raises(ValueError):
                x.sqrt()
    with pytest.raises(ZeroDivisionError):
        F(0).inverse()


def test_prime_field_tonelli_shanks_high_two_adicity() -> None:
    F = PrimeField(CASES["BLS12-377"].r)  # 2-adicity 47
    rng = random.Random(7)
    for _ in range(5):
        x = F(rng.randrange(1, int(F.p)))
        s = (x * x).sqrt()
        assert s * s == x * x


def test_extension_field_small() -> None:
    """Fp2 = F103[u]/(u^2+1) and Fp3 = F103[t]/(t^3-2): exhaustive inverses/sqrt on Fp2."""
    F = PrimeField(103)  # 103 = 3 mod 4, so -1 is a non-square
    F2 = ExtensionField(F, 2, -1, "F2")
    for a0 in range(103):
        for a1 in range(0, 103, 7):
            z = F2((a0, a1))
            if not z.is_zero():
                assert z * z.inverse() == 1
            assert (z * z).sqrt() ** 2 == z * z
    u = F2.gen()
    assert u * u == -1 and u.conj() == -u and u.frobenius(1) == u.conj()
    assert F2((1, 2)) + 1 == F2((2, 2)) and 1 - F2((1, 2)) == F2((0, -2)) and F2((1, 2)) * 2 == (2, 4)
    # mixing tower levels promotes to the larger field, whichever side it is on
    F4 = ExtensionField(F2, 2, (1, 1), "F4")
    v = F4.gen()
    assert F2((1, 2)) * v == v * F2((1, 2)) == F4([0, (1, 2)])
    assert F(3) + v == F4([3, 1]) and F(3) - v == F4([3, -1]) and (F2((1, 2)) / v) * v == F2((1, 2))
    assert F4(3) == F(3) and F(3) == F4(3) and F4(3) == 3 and hash(F4(3)) == hash(3)
    non_squares = [z for z in (F2((a, 1)) for a in range(103)) if not z.is_square()]
    assert non_squares
    with pytest.raises(ValueError):
        non_squares[0].sqrt()
    # cubic extension: 2 is a non-cube mod 103 (103 = 1 mod 3) since 2^34 != 1
    assert pow(2, 34, 103) != 1
    F3 = ExtensionField(F, 3, 2, "F3")
    t = F3.gen()
    assert t**3 == 2 and t ** (103**3 - 1) == 1
    z = F3((5, 6, 7))
    assert z * z.inverse() == 1 and (z * z).sqrt() ** 2 == z * z
    assert z.frobenius(3) == z and z.frobenius(1) ** 103 == z.frobenius(2)


def test_extension_tower_large() -> None:
    """Fp12 over Fp2 over Fp (BLS12-381): inverse through two Euclid levels, conj = p^6 power."""
    e = engine("BLS12-381")
    rng = random.Random(1)
    p = e.p
    z = e.Fk([(rng.randrange(p), rng.randrange(p)) for _ in range(6)])
    y = e.Fk([(rng.randrange(p), rng.randrange(p)) for _ in range(6)])
    assert z * z.inverse() == 1 and (z * y) / y == z
    assert z.square() == z * z and z**3 == z * z * z
    assert z.frobenius(6) == z.conj()
    assert e.w**6 == e.xi and e.w**6 == e.Fq((1, 1))
    s = e.Fq((rng.randrange(p), rng.randrange(p))) ** 2
    assert s.sqrt() ** 2 == s
    F2_377 = engine("BLS12-377").Fq  # p = 1 mod 8: a long Tonelli-Shanks loop in Fp2
    s = F2_377((12345, 678)) ** 2
    assert s.sqrt() ** 2 == s


def test_curve_group_law_small() -> None:
    """y^2 = x^3 + 3 over F103: enumerate all points, check the group order and the law."""
    F = PrimeField(103)
    E = Curve(F, 3)
    pts: list[Any] = [None]
    for x in range(103):
        for y in range(103):
            if (y * y - x**3 - 3) % 103 == 0:
                pts.append(E.point(x, y))
    n = len(pts)
    for P in pts[:12]:
        assert E.mul(P, n) is None
        assert E.eq(E.add(P, E.neg(P)), None)
        assert E.eq(E.double(P), E.add(P, P))
        assert E.eq(E.mul(P, -5), E.neg(E.mul(P, 5)))
        for Q in pts[:12]:
            assert E.eq(E.add(P, Q), E.add(Q, P))
            assert E.on_curve(E.add(P, Q))
    P, Q, R = pts[1], pts[2], pts[5]
    assert E.eq(E.add(E.add(P, Q), R), E.add(P, E.add(Q, R)))
    with pytest.raises(ValueError):
        E.point(0, 1)


# ---------------------------------------------------------------------------------------------
# Curve parameters
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_family_polynomials_match_notes(name: str) -> None:
    c = CASES[name]
    assert c.p == c.p_hex
    assert c.r == c.r_hex
    if name == "BW6-761":
        assert _BW6_T == BW6_T_HEX
        assert c.r == CASES["BLS12-377"].p
        assert c.p.bit_length() == 761


@pytest.mark.parametrize("name", ALL)
def test_generators_on_curve_and_of_order_r(name: str) -> None:
    e, c = engine(name), CASES[name]
    assert e.E1.on_curve(c.g1) and e.E2.on_curve(c.g2)
    assert e.E1.mul(c.g1, c.r) is None and e.E2.mul(c.g2, c.r) is None
    assert e.E1.mul(c.g1, c.r - 1) == e.E1.neg(c.g1)
    Qk = e.untwist(c.g2)
    assert e.Ek.on_curve(Qk)


@pytest.mark.parametrize("name", ALL)
def test_frobenius_acts_as_p_on_untwisted_g2(name: str) -> None:
    """G2 untwisted is the p-eigenspace of Frobenius: pi(Q) = [p mod r]Q."""
    e, c = engine(name), CASES[name]
    Qk = e.untwist(c.g2)
    expected = e.untwist(e.E2.mul(c.g2, c.p % c.r))
    assert e.Ek.eq(e.frobenius_point(Qk), expected)


def test_twist_coefficient() -> None:
    bn, b381, b377, bw6 = (engine(n) for n in ALL)
    assert bn.b2 * bn.Fq((9, 1)) == 3
    assert b381.b2 == CASES["BLS12-381"].b2_expected
    assert b377.b2 * b377.Fq((0, 1)) == 1
    assert bw6.b2 == CASES["BW6-761"].b2_expected


@pytest.mark.parametrize("name", ["BN254", "BW6-761"])
def test_tower_layout_roundtrip(name: str) -> None:
    e = engine(name)
    w = e.w
    c = e.to_tower(w)
    zero = e._fq_to_ints(e.Fq.zero())
    one = e._fq_to_ints(e.Fq.one())
    assert c == ((zero, zero, zero), (one, zero, zero))  # w is slot a10
    assert e.to_tower(w**2)[0][1] == one and e.to_tower(w**5)[1][2] == one
    rng = random.Random(3)
    coeffs = [[rng.randrange(e.p) for _ in range(2)] if e.k == 12 else rng.randrange(e.p) for _ in range(6)]
    f = e.Fk([e.Fq(a) for a in coeffs])
    assert e.from_tower(e.to_tower(f)) == f
    # the documented meaning: a00 + a01 w^2 + a02 w^4 + a10 w + a11 w^3 + a12 w^5
    t = e.to_tower(f)
    expected = e.Fk.zero()
    for j in range(3):
        expected = expected + e.Fq(t[0][j]) * w ** (2 * j) + e.Fq(t[1][j]) * w ** (2 * j + 1)
    assert expected == f


def test_constructor_rejects_bad_parameters() -> None:
    c = CASES["BN254"]
    with pytest.raises(ValueError):
        ReferencePairing("BN", c.x, c.p, c.r + 2, c.b, "D", -1, (9, 1))  # r does not divide p^12-1
    with pytest.raises(ValueError):
        ReferencePairing("BN", c.x, c.p, c.r, c.b, "D", -1, (1, 0))  # xi = 1 is a square
    with pytest.raises(ValueError):
        ReferencePairing("KSS", c.x, c.p, c.r, c.b, "D", -1, (9, 1))
    with pytest.raises(ValueError):
        engine("BN254").miller_loop((1, 3), c.g2)  # P not on E


# ---------------------------------------------------------------------------------------------
# Pairing properties
# ---------------------------------------------------------------------------------------------

# The three tests of one curve share its cached pairings (base_pairing, scaled_pairing): one
# xdist worker per curve computes them once.
BY_CURVE = [pytest.param(name, marks=pytest.mark.xdist_group(f"reference-{name}")) for name in ALL]


@pytest.mark.parametrize("name", BY_CURVE)
def test_pairing_non_degenerate_and_of_order_r(name: str) -> None:
    e = engine(name)
    g = base_pairing(name)
    assert g != 1
    assert g**e.r == 1


@pytest.mark.parametrize("name", BY_CURVE)
def test_pairing_bilinear(name: str) -> None:
    a, b = scalars(name)
    assert scaled_pairing(name) == base_pairing(name) ** (a * b)


@pytest.mark.parametrize("name", BY_CURVE)
def test_miller_loop_product(name: str) -> None:
    """FE(ML(P, Q) * ML(aP, bQ)) = e(P, Q) * e(aP, bQ): the multi-pairing identity."""
    e = engine(name)
    P, Q, aP, bQ = points(name)
    f = e.miller_loop(P, Q) * e.miller_loop(aP, bQ)
    assert e.final_exponentiation(f) == base_pairing(name) * scaled_pairing(name)


def test_pairing_identity_inputs() -> None:
    e = engine("BN254")
    c = CASES["BN254"]
    assert e.pairing(None, c.g2) == 1
    assert e.pairing(c.g1, None) == 1
    assert e.miller_loop(None, None) == 1
