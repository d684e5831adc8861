"""The reference oracle at k = 24 (BLS24-315 and BLS24-317): the tower Fp2 -> Fp4 -> Fp24, the
untwisted optimal ate pairing in the full field, its final exponentiation.

The curve facts (seeds, towers, twists, generators) are gnark-crypto's published ones
(ecc/bls24-315/bls24-315.go, ecc/bls24-317/bls24-317.go); p and r are recomputed from the BLS24
family polynomials and compared with the published values. One final exponentiation at k = 24 is
a 2270-bit plain power in Fp24 (about 20 s here), so the pairings are cached per session and
each test needs at most one new final exponentiation.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

import pytest

from generator.reference import ReferencePairing


def bls24_r(x: int) -> int:
    return x**8 - x**4 + 1


def bls24_p(x: int) -> int:
    num = (x - 1) ** 2 * bls24_r(x)
    assert num % 3 == 0
    return num // 3 + x


@dataclass(frozen=True)
class Bls24Curve:
    x: int
    p: int
    r: int
    b: int
    twist: str
    beta: int
    nu: tuple[int, int]
    xi: tuple[tuple[int, int], tuple[int, int]]
    g1: tuple[int, int]
    g2: tuple  # ((x0, x1), (x2, x3)) coordinates over Fp4 = Fp2 + Fp2 v


CURVES = {
    "BLS24-315": Bls24Curve(
        x=-0xBFCFFFFF,
        p=0x4C23A02B586D650D3F7498BE97C5EAFDEC1D01AA27A1AE0421EE5DA52BDE5026FE802FF40300001,
        r=0x196DEAC24A9DA12B25FC7EC9CF927A98C8C480ECE644E36419D0C5FD00C00001,
        b=1, twist="D", beta=13, nu=(0, 1), xi=((0, 0), (1, 0)),
        g1=(34223510504517033132712852754388476272837911830964394866541204856091481856889569724484362330263,
            24215295174889464585413596429561903295150472552154479431771837786124301185073987899223459122783),
        g2=(((24614737899199071964341749845083777103809664018538138889239909664991294445469052467064654073699,
              17049297748993841127032249156255993089778266476087413538366212660716380683149731996715975282972),
             (11950668649125904104557740112865942804623051114821811669564995102755430514441092495782202668342,
              3603055379462539802413979855826194299714805833759849528529386570240639115620788686893505938793)),
            ((31740092748246070457677943092194030978994615503726570180895475408200863271773078192139722193079,
              30261413948955264769241509843031153941332801192447678605718183215275065425758214858190865971597),
             (14195825602561496219090410113749222574308144851497375443809100117082380611212823440674391088885,
              2391152940984805871402135750194189812615420966694899795235607856168224901793030297133493038211))),
    ),
    "BLS24-317": Bls24Curve(
        x=0xD9018000,
        p=136393071104295911515099765908274057061945112121419593977210139303905973197232025618026156731051,
        r=30869589236456844204538189757527902584594726589286811523515204428962673459201,
        b=4, twist="M", beta=-1, nu=(1, 1), xi=((0, 0), (1, 0)),
        g1=(26261810162995192444253184251590159762050205376519976412461726336843100448942248976252388876791,
            26146603602820658047261036676090398397874822703333117264049387703172159980214065566219085800243),
        g2=(((28498404142312365002533744693556861244212064443103687717510540998257508853975496760832205123607,
              104881342316154169720140745551267577558255475983798552134082689646705436288255501236462500135051),
             (134208762611471838850128095341317427866582025424914361408168906642550705688378271974920859507485,
              47807860684290705153036437491997319116342330273104493957877398921782737166446662055996604784294)),
            ((91516448788529060702418635560646746547369142933278847722177434542449427480796649633689953798948,
              13448671391015186163413673966297442264556781166352891049005282051703895543542296449974630011689),
             (1980905665816458576882252418967038151483710575831277397652951146268622037800272983431026055487,
              134363379072057086809745572347104070037544575425956896869689256737197090432635401300100624083192))),
    ),
}
NAMES = sorted(CURVES)


@functools.lru_cache(maxsize=None)
def pairing_of(name: str) -> ReferencePairing:
    c = CURVES[name]
    return ReferencePairing("BLS24", c.x, c.p, c.r, c.b, c.twist, c.beta, c.xi, c.nu)


@functools.lru_cache(maxsize=None)
def gt_generator(name: str):
    """e(G1, G2), one final exponentiation, cached for the session."""
    R = pairing_of(name)
    c = CURVES[name]
    return R.pairing(c.g1, c.g2)


@pytest.mark.parametrize("name", NAMES)
def test_family_polynomials_give_the_published_p_and_r(name: str) -> None:
    c = CURVES[name]
    assert bls24_p(c.x) == c.p and bls24_r(c.x) == c.r
    assert (c.p + 1 - (c.x + 1)) % c.r == 0          # t = x + 1
    assert (c.p**8 - c.p**4 + 1) % c.r == 0          # r | Phi_24(p)


@pytest.mark.parametrize("name", NAMES)
def test_generators_on_curve_and_of_order_r(name: str) -> None:
    R, c = pairing_of(name), CURVES[name]
    assert R.E1.on_curve(c.g1) and R.E2.on_curve(c.g2)
    assert R.E1.mul(c.g1, c.r) is None and R.E1.mul(c.g1, c.r - 1) is not None
    assert R.E2.mul(c.g2, c.r) is None
    Qk = R.untwist(c.g2)
    assert R.Ek.on_curve(Qk)
    # G2 is the trace-zero subgroup: Frobenius acts on the untwisted points as [p] = [x]
    assert R.frobenius_point(Qk, 1) == R.Ek.mul(Qk, c.p % c.r)


@pytest.mark.parametrize("name", NAMES)
def test_fast_frobenius_is_the_plain_power(name: str) -> None:
    R = pairing_of(name)
    rng = random.Random(24)
    a4 = R.Fp4([(rng.randrange(R.p), rng.randrange(R.p)) for _ in range(2)])
    for k in range(1, 5):
        assert a4.frobenius(k) == a4 ** (R.p**k)
    a = R.Fk([[(rng.randrange(R.p), rng.randrange(R.p)) for _ in range(2)] for _ in range(6)])
    assert a.frobenius(1) == a ** R.p
    assert a.frobenius(12) == a.conj()                     # p^12 fixes Fp12 = Fp4(w^2): w -> -w
    assert a.frobenius(24) == a


def test_tower_rejects_a_square_nu() -> None:
    c = CURVES["BLS24-317"]
    # 1 + u is the Fp4 non-residue of BLS24-317: u itself is a square in its Fp2
    with pytest.raises(ValueError, match="nu must be a non-square"):
        ReferencePairing("BLS24", c.x, c.p, c.r, c.b, c.twist, c.beta, c.xi, (0, 1))
    with pytest.raises(ValueError, match="xi must be a sextic non-residue"):
        ReferencePairing("BLS24", c.x, c.p, c.r, c.b, c.twist, c.beta, ((1, 0), (0, 0)), c.nu)


@pytest.mark.parametrize("name", NAMES)
def test_pairing_non_degenerate_and_of_order_r(name: str) -> None:
    e = gt_generator(name)
    assert e != 1
    assert (e ** CURVES[name].r) == 1


def test_pairing_bilinear_bls24_315() -> None:
    _bilinear("BLS24-315")


@pytest.mark.slow
def test_pairing_bilinear_bls24_317() -> None:
    _bilinear("BLS24-317")


def _bilinear(name: str) -> None:
    R, c = pairing_of(name), CURVES[name]
    rng = random.Random(name)
    a, b = rng.randrange(1, c.r), rng.randrange(1, c.r)
    aP = R.E1.mul(c.g1, a)
    bQ = R.E2.mul(c.g2, b)
    assert R.pairing(aP, bQ) == gt_generator(name) ** (a * b % c.r)


@pytest.mark.slow
def test_negative_seed_loop_is_the_inverse_after_final_exponentiation() -> None:
    """For x < 0 (BLS24-315) the generated loop runs over |x| and conjugates (f^(p^12)); after the
    final exponentiation that equals the reference's 1/f_{|x|}: p^12 = -1 mod r."""
    R, c = pairing_of("BLS24-315"), CURVES["BLS24-315"]
    assert c.x < 0 and pow(c.p, 12, c.r) == c.r - 1
    Pk, Qk = R._embed_P(c.g1), R.untwist(c.g2)
    f_abs, _ = R._miller(-c.x, Qk, Pk)
    assert R.final_exponentiation(f_abs.conj()) == gt_generator("BLS24-315")
