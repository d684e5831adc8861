"""BLS24-317 (M-twist, u^2 = -1) and BLS24-315 (D-twist, x < 0): the k = 24 Python packages
generated/bls24_317 and generated/bls24_315 (from curves/, built by the install), against generator.reference and gnark-crypto's
published generators and byte layout. G2 lives over Fp4 = Fp2[v]/(v^2 - nu); its coordinates are
flat tuples (c0.c0, c0.c1, c1.c0, c1.c1), gnark's (B0.A0, B0.A1, B1.A0, B1.A1).

The C tower and pairing are checked operation by operation in tests/emit/test_bls24_tower_c.py; here the
package: groups, endomorphisms, serialization, hash to curve and the pairing as Python sees them.
Under xdist each curve is one group (tests/bls24_util.py's CURVE_PARAMS, which
tests/protocols/test_bls24_protocols.py joins), so its model is derived once, on one worker.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from bls24_util import CURVE_DIR, CURVE_PARAMS, built
from build_cache import compiled
from conftest import GENERATED_DIR, TESTS_DIR
from pairing_laws import check_pairing_laws

from generator.derive.model import CurveModel
from generator.params import load_curve_file
from generator.reference import ReferencePairing
from generator.reference import hash_to_curve as ref_h2c

SQRT_RATIO_HARNESS = TESTS_DIR / "c_harness" / "sqrt_ratio_fp4.c"
CC = shutil.which("gcc") or shutil.which("cc")
CFLAGS = ["-std=c99", "-O1", "-Wall", "-Wextra", "-Wshadow", "-Werror", "-Wno-unused-function"]

# gnark-crypto's generators (ecc/bls24-317/bls24-317.go and ecc/bls24-315/bls24-315.go, init():
# g1Gen.X/Y, g2Gen.X.B0/B1 and g2Gen.Y.B0/B1, each E2 as (A0, A1)), copied here as published so
# that the curve files and the packages are checked against them, not against themselves.
GNARK_GENERATORS = {
    "bls24-317": (
        (26261810162995192444253184251590159762050205376519976412461726336843100448942248976252388876791,
         26146603602820658047261036676090398397874822703333117264049387703172159980214065566219085800243),
        ((28498404142312365002533744693556861244212064443103687717510540998257508853975496760832205123607,
          104881342316154169720140745551267577558255475983798552134082689646705436288255501236462500135051,
          134208762611471838850128095341317427866582025424914361408168906642550705688378271974920859507485,
          47807860684290705153036437491997319116342330273104493957877398921782737166446662055996604784294),
         (91516448788529060702418635560646746547369142933278847722177434542449427480796649633689953798948,
          13448671391015186163413673966297442264556781166352891049005282051703895543542296449974630011689,
          1980905665816458576882252418967038151483710575831277397652951146268622037800272983431026055487,
          134363379072057086809745572347104070037544575425956896869689256737197090432635401300100624083192)),
    ),
    "bls24-315": (
        (34223510504517033132712852754388476272837911830964394866541204856091481856889569724484362330263,
         24215295174889464585413596429561903295150472552154479431771837786124301185073987899223459122783),
        ((24614737899199071964341749845083777103809664018538138889239909664991294445469052467064654073699,
          17049297748993841127032249156255993089778266476087413538366212660716380683149731996715975282972,
          11950668649125904104557740112865942804623051114821811669564995102755430514441092495782202668342,
          3603055379462539802413979855826194299714805833759849528529386570240639115620788686893505938793),
         (31740092748246070457677943092194030978994615503726570180895475408200863271773078192139722193079,
          30261413948955264769241509843031153941332801192447678605718183215275065425758214858190865971597,
          14195825602561496219090410113749222574308144851497375443809100117082380611212823440674391088885,
          2391152940984805871402135750194189812615420966694899795235607856168224901793030297133493038211)),
    ),
}


def _package_c(package: str) -> Path:
    """The C headers of the installed package (generated/<package>/c)."""
    return GENERATED_DIR / package / "c"


@pytest.fixture(scope="module", params=CURVE_PARAMS)
def bls24(request):
    return built(request.param)


def _g1(P) -> tuple[int, int] | None:
    return None if P is None else (P[0][0], P[1][0])


def _ref_q(ref: ReferencePairing, Q):
    """A flat Fp4 point (4 ints per coordinate) as the reference's E2 point."""
    return tuple(ref.Fp4([ref.Fp2((c[0], c[1])), ref.Fp2((c[2], c[3]))]) for c in Q)


def test_model_shape_and_gnark_generators(bls24) -> None:
    """The curve file's generators are gnark's, and the package's generators are those points, in
    the subgroups; the derived properties that make these curves k = 24."""
    C, m, _ = bls24
    name = m.name.lower()
    assert (m.k, m.fq_degree, m.fp.limbs64, m.fr.limbs64) == (24, 4, 5, 4)
    assert C.P == m.p and C.R == m.r and C.X == m.x and C.DEFAULT_PROFILE == "gnark"
    spec = load_curve_file(CURVE_DIR / f"{name}.toml")
    g1, g2 = GNARK_GENERATORS[name]
    assert tuple(spec.g1) == g1 and (tuple(spec.g2[0]), tuple(spec.g2[1])) == g2
    assert C.G1.generator().to_affine() == g1 and C.G2.generator().to_affine() == g2
    for G in (C.G1, C.G2):
        gen = G.generator()
        assert gen.is_on_curve() and gen.in_subgroup() and not gen.is_identity() and (gen * m.r).is_identity()
    assert sorted(c.__name__ for c in (C.Fp2, C.Fp4, C.Fp12, C.Fp24)) == ["Fp12", "Fp2", "Fp24", "Fp4"]


def test_fp4_field(bls24) -> None:
    """Fp4 arithmetic against the reference field, its square roots and gnark's sign."""
    C, _, ref = bls24
    rng = random.Random(24)
    for _ in range(20):
        a = tuple(rng.randrange(C.P) for _ in range(4))
        b = tuple(rng.randrange(C.P) for _ in range(4))
        A, B = C.Fp4(a[:2], a[2:]), C.Fp4(b[:2], b[2:])
        ra, rb = _ref_q(ref, (a, b))
        assert (A * B).to_tuple() == (ra * rb).to_ints() and (A + B).to_tuple() == (ra + rb).to_ints()
        assert A.inverse().to_tuple() == (1 / ra).to_ints()
        assert (A * B) / B == A and A.inverse() * A == C.Fp4.one() and A.square() == A * A
        assert A.frobenius(4) == A and A.frobenius(2) == A.conjugate()
        S = A.square()
        assert S.is_square()
        root = S.sqrt()
        assert root * root == S
        assert (root.is_lex_largest() != (-root).is_lex_largest())
        if not A.is_square():
            with pytest.raises(ValueError):
                A.sqrt()


def test_group_arithmetic_against_reference(bls24) -> None:
    """P * k (the GLV/GLS constant-time path on subgroup points, fixed windows otherwise, and the
    variable-time one) against the reference curves; the group law."""
    C, m, _ = bls24
    rng = random.Random(1)
    for G, E, gen, conv in ((C.G1, m.E1, m.g1_gen, _g1), (C.G2, m.E2, m.g2_gen, lambda P: P)):
        g = G.generator()
        assert g + g == g.double() and g - g == G.identity() and (g + (-g)).is_identity()
        for k in (rng.randrange(m.r), m.r - 1, rng.randrange(1 << 64), 0, 1):
            want = conv(E.mul(gen, k))
            assert (g * k).to_affine() == want and g.mul_vartime(k).to_affine() == want
        a, b = rng.randrange(m.r), rng.randrange(m.r)
        assert g * a + g * b == g * ((a + b) % m.r) and (g * a) * b == g * (a * b % m.r)
        # a point not marked as in the subgroup (from_affine) takes the generic multiplication
        P = G.from_affine(*(g * a).to_affine())
        assert (P * b).to_affine() == conv(E.mul(E.mul(gen, a), b))
        pts = [g * rng.randrange(m.r) for _ in range(5)]
        ks = [rng.randrange(m.r) for _ in range(5)]
        acc = G.identity()
        for P, k in zip(pts, ks, strict=True):
            acc = acc + P * k
        assert G.msm(pts, ks) == acc


def test_endomorphisms_on_the_whole_curves(bls24) -> None:
    """Cofactor clearing equals [h_eff] and the subgroup tests answer [r]P == O, on random points
    of E(Fp) and E'(Fp4), against the derivation's exact arithmetic."""
    C, m, _ = bls24
    rng = random.Random(5)
    for G, E, e, conv in ((C.G1, m.E1, m.endo.g1, _g1), (C.G2, m.E2, m.endo.g2, lambda P: P)):
        for _ in range(2):
            P = E.random_point(rng)
            Q = G.from_affine(*conv(P), check=False)
            assert Q.is_on_curve() and not Q.in_subgroup() and E.mul(P, m.r) is not None
            with pytest.raises(ValueError):
                G.from_affine(*conv(P))
            cleared = Q.clear_cofactor()
            assert cleared.to_affine() == conv(E.mul(P, e.h_eff))
            assert cleared.in_subgroup() and not cleared.is_identity()


def _gnark_bytes(m: CurveModel, coords: list[int], y_largest: bool | None) -> bytes:
    """gnark's encoding written by hand (marshal.go): big-endian, most significant coefficient
    first (B1.A1 | B1.A0 | B0.A1 | B0.A0); with 3 or more spare bits (317 and 315 bits in 40 bytes)
    the mask 0b111 << 5: 0x80 compressed with the smallest y, 0xa0 the largest, 0xc0 the compressed
    identity (y_largest None: uncompressed, no flag)."""
    nb = m.fp.nbytes
    data = b"".join(c.to_bytes(nb, "big") for c in coords)
    if y_largest is None:
        return data
    return bytes([data[0] | (0xA0 if y_largest else 0x80)]) + data[1:]


def _lex_largest_fp4(m: CurveModel, y: tuple[int, ...]) -> bool:
    """gnark's E4 LexicographicallyLargest: B1 decides, B0 when B1 = 0; E2: A1, A0 when A1 = 0."""
    half = (m.p - 1) // 2

    def e2(a0: int, a1: int) -> bool:
        return a1 > half if a1 else a0 > half

    return e2(y[2], y[3]) if (y[2], y[3]) != (0, 0) else e2(y[0], y[1])


def test_gnark_layout(bls24) -> None:
    """G1 and G2 (40-byte Fp, G2 as 4 x 40 bytes in gnark's order) encoded by hand in gnark's
    layout equal the package's encodings and decode back."""
    C, m, _ = bls24
    rng = random.Random(3)
    assert m.fp.nbytes == 40
    for P in (C.G2.generator(), C.G2.generator() * rng.randrange(m.r)):
        x, y = P.to_affine()
        comp = _gnark_bytes(m, list(reversed(x)), _lex_largest_fp4(m, y))
        raw = _gnark_bytes(m, list(reversed(x)) + list(reversed(y)), None)
        assert len(comp) == 160 and len(raw) == 320
        assert P.to_bytes(profile="gnark") == comp and C.G2.from_bytes(comp, profile="gnark") == P
        assert P.to_bytes(compressed=False, profile="gnark") == raw and C.G2.from_bytes(raw, profile="gnark") == P
    for P in (C.G1.generator(), C.G1.generator() * rng.randrange(m.r)):
        x, y = P.to_affine()
        comp = _gnark_bytes(m, [x], y > m.p - y)
        assert P.to_bytes() == comp and C.G1.from_bytes(comp) == P
    assert C.G2.identity().to_bytes() == bytes([0xC0]) + bytes(159)
    assert C.G2.from_bytes(bytes([0xC0]) + bytes(159)).is_identity()


def test_serialization_round_trips_and_bad_input(bls24) -> None:
    """Every profile round-trips both groups; wrong lengths, a coordinate >= p, an x off the curve
    and a point outside the subgroup are refused (the subgroup check only with check=True)."""
    C, m, _ = bls24
    rng = random.Random(2)
    round_trips = 0
    for G in (C.G1, C.G2):
        g = G.generator()
        for profile in C.SERIALIZATION_PROFILES:
            for P in (g * rng.randrange(m.r), -(g * rng.randrange(m.r)), G.identity()):
                for compressed in (True, False):
                    try:
                        data = P.to_bytes(compressed=compressed, profile=profile)
                    except ValueError as exc:  # the EIP profiles have no compressed form
                        assert compressed and "no compressed form" in str(exc)
                        continue
                    assert G.from_bytes(data, profile=profile) == P
                    round_trips += 1
                    with pytest.raises(ValueError):
                        G.from_bytes(data[:-1], profile=profile)
    assert round_trips >= 2 * 3 * 3
    nb = m.fp.nbytes
    good = C.G2.generator().to_bytes()
    # a coordinate >= p in the least significant coefficient (the last 40 bytes of x)
    bad = good[:3 * nb] + m.p.to_bytes(nb, "big")
    with pytest.raises(ValueError):
        C.G2.from_bytes(bad)
    # an x with no point: x^3 + b' a non-square in Fp4
    x = 1
    while True:
        X = C.Fp4((x, 0), (0, 0))
        if not (X * X * X + C.Fp4(*_fp4_pair(m.twist.b))).is_square():
            break
        x += 1
    with pytest.raises(ValueError):
        C.G2.from_bytes(_gnark_bytes(m, [0, 0, 0, x], False))
    # on E'(Fp4) but outside the subgroup
    P = m.E2.random_point(random.Random(8))
    Q = C.G2.from_affine(*P, check=False)
    assert not Q.in_subgroup()
    for compressed in (True, False):
        data = Q.to_bytes(compressed=compressed)
        with pytest.raises(ValueError):
            C.G2.from_bytes(data)
        assert C.G2.from_bytes(data, check=False) == Q


def _fp4_pair(b) -> tuple[tuple[int, int], tuple[int, int]]:
    return (b[0], b[1]), (b[2], b[3])


def test_pairing_matches_reference(bls24) -> None:
    """The package's pairing equals the reference's (untwisted Miller loop, full final
    exponentiation) raised to the model's m = 3, on random multiples of the generators (one pair:
    the reference's Fp24 pairing takes about 10 s; bilinearity below relates the others)."""
    C, m, ref = bls24
    assert m.final_exp.m == 3
    rng = random.Random(4)
    for ka, kb in ((rng.randrange(1, m.r), rng.randrange(1, m.r)),):
        P, Q = m.E1.mul(m.g1_gen, ka), m.E2.mul(m.g2_gen, kb)
        e = C.pairing(C.G1.generator() * ka, C.G2.generator() * kb)
        want = ref.pairing(_g1(P), _ref_q(ref, Q)) ** m.final_exp.m
        assert e.to_tuple() == ref.to_tower(want)


def test_pairing_bilinear_nondegenerate_and_multi(bls24) -> None:
    C, m, _ = bls24
    rng = random.Random(6)
    check_pairing_laws(C, m.r, rng)
    P, Q = C.G1.generator(), C.G2.generator()
    Ps = [P * rng.randrange(1, m.r) for _ in range(3)]
    Qs = [Q * rng.randrange(1, m.r) for _ in range(3)]
    prod = C.pairing(Ps[0], Qs[0]) * C.pairing(Ps[1], Qs[1]) * C.pairing(Ps[2], Qs[2])
    prepared = C.G2Prepared(Qs[0])
    assert C.pairing(Ps[0], prepared) == C.pairing(Ps[0], Qs[0])
    assert C.multi_pairing(Ps, [prepared, Qs[1], Qs[2]]) == prod
    assert C.G2Prepared.from_bytes(prepared.to_bytes()).point == Qs[0]


def test_pickling(bls24) -> None:
    """Points, Fp4 and GT values survive pickling (their state is bytes of the flat coordinates)."""
    import pickle

    C, m, _ = bls24
    Q = C.G2.generator() * 12345
    e = C.pairing(C.G1.generator(), Q)
    x = Q.to_affine()[0]
    for obj in (Q, C.G2.identity(), C.G1.generator() * 7, e, C.Fp4(x[:2], x[2:])):
        assert pickle.loads(pickle.dumps(obj)) == obj


def _flat(a) -> int | tuple[int, ...]:
    """A reference field element as the package's coordinate: an int, or its flat Fp coefficients."""
    if not hasattr(a, "coeffs"):
        return int(a)

    def walk(e):
        return [c for part in e.coeffs for c in walk(part)] if hasattr(e, "coeffs") else [int(e)]

    return tuple(walk(a))


def _flat_point(P):
    return None if P is None else (_flat(P[0]), _flat(P[1]))


def test_hash_to_curve_matches_reference(bls24) -> None:
    """SVDW on both groups (no isogeny is published for BLS24): map_to_curve, hash_to_curve and
    encode_to_curve equal the reference; G2's runs sqrt_ratio, sgn0 and is_square over Fp4."""
    C, m, ref = bls24
    assert C.G1.HASH_MAP == C.G2.HASH_MAP == "svdw"
    rng = random.Random(m.name)
    for group, G, deg in (("g1", C.G1, 1), ("g2", C.G2, 4)):
        h = m.h2c[group]
        field, E = (ref.Fp, ref.E1) if group == "g1" else (ref.Fq, ref.E2)
        params = ref_h2c.MapParams(field=field, b=E.b, method=h.method, z=ref_h2c.from_flat(field, h.z),
                                   h_eff=h.h_eff, L=h.L)
        # edge values (u = 0 takes inv0's exceptional case) and random ones; few over Fp4, where each
        # reference map takes about a second
        us = [(v,) + (0,) * (deg - 1) for v in (0, 1, m.p - 1)] + ([] if deg == 1 else [(0, 0, 0, 1)])
        us += [tuple(rng.randrange(m.p) for _ in range(deg)) for _ in range(4 if deg == 1 else 2)]
        for u in us:
            Q = G.map_to_curve(u[0] if deg == 1 else u)
            assert Q.is_on_curve()
            assert Q.to_affine() == _flat_point(ref_h2c.map_to_curve(params, ref_h2c.from_flat(field, u)))
        dst = f"PAIRFORGE-TEST-{m.package}-{group}".encode()
        for msg in (b"", b"abc"):
            # hash_to_field against the reference, then the encodings from the package's own
            # map_to_curve (checked above) and clear_cofactor (= [h_eff]: test_endomorphisms_...);
            # the reference's [h_eff] over Fp4 would take most of this file's time
            us = G.hash_to_field(msg, dst, 2)
            assert [u if deg == 1 else tuple(u) for u in us] == [
                _flat(u) for u in ref_h2c.hash_to_field(field, msg, dst, 2, h.L)]
            H = G.hash_to_curve(msg, dst)
            assert H.in_subgroup() and not H.is_identity()
            assert H == (G.map_to_curve(us[0]) + G.map_to_curve(us[1])).clear_cofactor()
            assert G.encode_to_curve(msg, dst) == G.map_to_curve(G.hash_to_field(msg, dst, 1)[0]).clear_cofactor()
        if deg == 1:  # and the whole encoding against the reference, where it is cheap
            _, _, _, P = ref_h2c.hash_to_curve(params, E, b"abc", dst)
            assert G.hash_to_curve(b"abc", dst).to_affine() == _flat_point(P)


def test_gt_serialization_and_membership(bls24) -> None:
    C, m, _ = bls24
    e = C.pairing(C.G1.generator(), C.G2.generator())
    for profile in (None, "gnark"):
        assert C.GT.from_bytes(e.to_bytes(profile=profile), profile=profile) == e
    assert len(e.to_bytes()) == 24 * m.fp.nbytes
    with pytest.raises(ValueError):
        C.GT(C.Fp24.one() + C.Fp24.one())


# gnark-crypto's towers for these curves (ecc/bls24-*/internal/fptower): E2.MulByNonResidue multiplies
# by u on bls24-315 and by 1 + u on bls24-317 (nu, as (c0, c1)); E4's by its generator (our xi = v,
# flat (0, 0, 1, 0)), E12's by its v (our w^2 = v). With the same non-residues, an element has the
# same coefficients in both, so gnark's byte layout can be built from ours.
GNARK_NU = {"bls24-317": (1, 1), "bls24-315": (0, 1)}


def test_gt_bytes_in_gnark_e24_order(bls24) -> None:
    """GT.to_bytes(profile="gnark") is gnark's E24 `Bytes()` (e24.go): 24 big-endian Fp elements,
    c0 first at every level, D0.C0.B0.A0, D0.C0.B0.A1, D0.C0.B1.A0, ..., D1.C2.B1.A1 (unlike its
    E12 and E6, most significant first). Built here by hand from the pairing value's coefficients
    (to_tuple, which test_pairing_matches_reference checks against the reference)."""
    C, m, _ = bls24
    assert tuple(m.tower.nu) == GNARK_NU[m.name.lower()] and tuple(m.tower.xi) == (0, 0, 1, 0)
    rng = random.Random(24)
    e = C.pairing(C.G1.generator() * rng.randrange(1, m.r), C.G2.generator() * rng.randrange(1, m.r))
    t = e.to_tuple()  # (D0, D1), each (C0, C1, C2), each Fp4 ((B0.A0, B0.A1), (B1.A0, B1.A1))
    nb = m.fp.nbytes
    want = b"".join(t[d][c][b][a].to_bytes(nb, "big") for d in range(2) for c in range(3) for b in range(2)
                    for a in range(2))
    got = e.to_bytes(profile="gnark")
    assert len(got) == 24 * nb == 960
    assert got == want
    assert C.GT.from_bytes(want, profile="gnark") == e
    # the most-significant-first order of gnark's E12 is not this layout
    flipped = b"".join(want[i:i + nb] for i in range(len(want) - nb, -1, -nb))
    try:
        assert C.GT.from_bytes(flipped, profile="gnark") != e
    except ValueError:
        pass  # not in GT, or a coefficient >= p


def test_sqrt_ratio_fp4_in_c(bls24) -> None:
    """The generated g2_sqrt_ratio over Fp4 (RFC 9380's contract: 1 and sqrt(u/v) when u/v is a
    square, else 0 and sqrt(z u/v) for the model's non-square z), compiled against the package's headers: SVDW calls it on
    squares only, so its non-square branch is checked here, on squares, non-squares and u = 0."""
    if CC is None:
        pytest.skip("no C compiler")
    C, m, _ = bls24
    pkg_c = _package_c(m.package)
    exe = compiled([CC, *CFLAGS, f"-I{pkg_c}", str(SQRT_RATIO_HARNESS)], inputs=[SQRT_RATIO_HARNESS, pkg_c],
                   name="sqrt_ratio_fp4")
    sr_z = m.h2c["g2"].sqrt_ratio.z  # sqrt_ratio's non-square, not SVDW's Z (1 or 5, a square in Fp4)
    z = C.Fp4(sr_z[:2], sr_z[2:])
    assert not z.is_square()
    rng = random.Random(9380)

    def rand4():
        return C.Fp4(*((rng.randrange(m.p), rng.randrange(m.p)) for _ in range(2)))

    cases = [(rand4(), rand4()) for _ in range(12)]
    cases += [(a * a * b, b) for a, b in cases[:4]]  # u/v a square
    cases += [(z * a * a * b, b) for a, b in cases[:4]]  # u/v a non-square
    cases += [(C.Fp4.zero(), rand4()), (C.Fp4((0, 0), (0, 1)), C.Fp4.one()), (C.Fp4(z), C.Fp4.one())]

    def flat(a) -> list[int]:
        return [c for part in a.to_tuple() for c in part]

    lines = "".join(" ".join(f"{c:0{2 * m.fp.nbytes}x}" for c in flat(u) + flat(v)) + "\n" for u, v in cases)
    out = subprocess.run([str(exe)], input=lines, capture_output=True, text=True, check=True, timeout=120)
    rows = out.stdout.split("\n")[:-1]
    assert len(rows) == len(cases)
    squares = 0
    for (u, v), row in zip(cases, rows, strict=True):
        qr, *ys = row.split()
        y = C.Fp4(*((int(ys[0], 16), int(ys[1], 16)), (int(ys[2], 16), int(ys[3], 16))))
        ratio = u / v
        if ratio.is_zero():
            assert y.is_zero()
            continue
        assert (qr == "1") == ratio.is_square()
        assert y * y == (ratio if qr == "1" else z * ratio)
        squares += qr == "1"
    assert 0 < squares < len(cases) - 1


def test_sqrt_ratio_fp4_constant_time(bls24) -> None:
    """g2_sqrt_ratio over Fp4 (the one hash-to-curve step new at k = 24) under valgrind's memcheck
    with u and v marked secret: no branch or memory index depends on them (the -O1 portable build of the package's headers;
    tests/security/test_constant_time.py's harness covers the shipped curves' maps)."""
    if CC is None or shutil.which("valgrind") is None or not Path("/usr/include/valgrind/memcheck.h").is_file():
        pytest.skip("needs a C compiler and valgrind with valgrind/memcheck.h")
    C, m, _ = bls24
    pkg_c = _package_c(m.package)
    exe = compiled([CC, *CFLAGS, "-DPF_CT_CHECK", f"-I{pkg_c}", str(SQRT_RATIO_HARNESS)],
                   inputs=[SQRT_RATIO_HARNESS, pkg_c], name="sqrt_ratio_fp4_ct")
    rng = random.Random(17)
    lines = "".join(" ".join(f"{rng.randrange(m.p):0{2 * m.fp.nbytes}x}" for _ in range(8)) + "\n" for _ in range(3))
    run = subprocess.run(["valgrind", "--error-exitcode=99", "--tool=memcheck", str(exe)], input=lines,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "ERROR SUMMARY: 0 errors" in run.stderr and len(run.stdout.splitlines()) == 3
