"""BW6-633 (gnark-crypto ecc/bw6-633, the BW6 curve over BLS24-315 in the trace case t mod r = 0),
the installed package generated/bw6_633 (curves/bw6-633.toml, over curves/bls24-315.toml): the 10-limb Fp, the
groups with their derived endomorphisms (cofactor clearing, subgroup tests), the pairing with the
case-0 loop pair (x^5 - x^4 - x, x + 1) and the hard part for gt_exponent = 3(x^5 - x^4 - x),
against generator.reference and gnark's published generators and byte layout.
"""

from __future__ import annotations

import random

import pytest
from bls24_util import CURVE_DIR, built
from hash_to_curve_util import check_against_reference
from pairing_laws import check_pairing_laws

from generator.derive.model import CurveModel
from generator.params import load_curve_file

CURVE_FILE, INNER_FILE = "bw6-633.toml", "bls24-315.toml"

pytestmark = pytest.mark.xdist_group("bw6-633")


@pytest.fixture(scope="module")
def bw6_633():
    return built("bw6-633")


def _g1(m: CurveModel, P) -> tuple[int, int] | None:
    return None if P is None else (P[0][0], P[1][0])


def test_model_is_the_case0_curve_over_bls24(bw6_633) -> None:
    """What makes BW6-633 different from BW6-761, as the model derived it (not as a name)."""
    C, m, _ = bw6_633
    inner = load_curve_file(CURVE_DIR / INNER_FILE)
    spec = load_curve_file(CURVE_DIR / CURVE_FILE)
    assert m.k == 6 and m.fq_degree == 1 and m.fp.limbs64 == 10 and m.fr.limbs64 == 5
    assert m.spec.inner_family == "BLS24" and m.r == spec.published["r"] and m.p == spec.published["p"]
    # the loop pair of the case t0(0) = 0: (x^5 - x^4 - x, x + 1), with c0 + p c1 = 0 mod r
    x = inner.x
    assert m.miller.signed_scalars == (x**5 - x**4 - x, x + 1)
    assert (m.miller.signed_scalars[0] + m.p * m.miller.signed_scalars[1]) % m.r == 0
    assert m.final_exp.m == 3 * (x**5 - x**4 - x)
    assert C.P == m.p and C.R == m.r and C.X == m.x


def test_fields(bw6_633) -> None:
    C, m, _ = bw6_633
    rng = random.Random(1)
    for a, b in [(m.p - 1, m.p - 1), (1, m.p - 1)] + [(rng.randrange(1, m.p), rng.randrange(m.p)) for _ in range(30)]:
        assert int(C.Fp(a) * C.Fp(b)) == a * b % m.p
        assert int(C.Fp(a) + C.Fp(b)) == (a + b) % m.p and int(C.Fp(a) - C.Fp(b)) == (a - b) % m.p
        assert int(C.Fp(a).square()) == a * a % m.p
        assert int(C.Fp(a).inverse()) == pow(a, -1, m.p)
        assert C.Fp(a).is_square() == (pow(a, (m.p - 1) // 2, m.p) == 1)
        if C.Fp(a).is_square():
            assert int(C.Fp(a).sqrt()) ** 2 % m.p == a
        c, d = rng.randrange(m.r), rng.randrange(1, m.r)
        assert int(C.Fr(c) * C.Fr(d)) == c * d % m.r and int(C.Fr(d).inverse()) == pow(d, -1, m.r)


def test_gnark_generators_decode_into_the_subgroups(bw6_633) -> None:
    """gnark's published generators (the curve file's g1, g2), encoded by hand in gnark's layout
    (marshal.go: big-endian x, 0x80 compressed and the smallest y, 0xa0 the largest), decode to the
    package's generators, which lie in the subgroups."""
    C, m, _ = bw6_633
    spec = load_curve_file(CURVE_DIR / CURVE_FILE)
    assert C.DEFAULT_PROFILE == "gnark"
    nbytes = (m.p.bit_length() + 7) // 8
    assert nbytes == 80
    for G, (gx, gy) in ((C.G1, spec.g1), (C.G2, (spec.g2[0][0], spec.g2[1][0]))):
        gen = G.generator()
        assert gen.to_affine() == (gx, gy)
        assert gen.is_on_curve() and gen.in_subgroup() and not gen.is_identity()
        flag = 0xA0 if gy > m.p - gy else 0x80
        compressed = bytes([flag | gx >> (8 * nbytes - 8)]) + (gx % (1 << (8 * nbytes - 8))).to_bytes(nbytes - 1, "big")
        assert gen.to_bytes(profile="gnark") == compressed
        assert G.from_bytes(compressed, profile="gnark") == gen
        raw = gx.to_bytes(nbytes, "big") + gy.to_bytes(nbytes, "big")
        assert gen.to_bytes(compressed=False, profile="gnark") == raw
        assert G.from_bytes(raw, profile="gnark") == gen
        assert G.identity().to_bytes(profile="gnark") == bytes([0xC0]) + bytes(nbytes - 1)


def test_group_arithmetic_and_serialization(bw6_633) -> None:
    C, m, _ = bw6_633
    rng = random.Random(2)
    for G, E, gen in ((C.G1, m.E1, m.g1_gen), (C.G2, m.E2, m.g2_gen)):
        g = G.generator()
        assert (g * m.r).is_identity() and g + g == g.double() and g - g == G.identity()
        for k in (rng.randrange(m.r), m.r - 1, rng.randrange(1 << 64)):
            want = _g1(m, E.mul(gen, k))
            assert (g * k).to_affine() == want and g.mul_vartime(k).to_affine() == want
        a, b = rng.randrange(m.r), rng.randrange(m.r)
        assert g * a + g * b == g * ((a + b) % m.r)
        round_trips = 0
        for profile in C.SERIALIZATION_PROFILES:
            for P in (g * a, -(g * b), G.identity()):
                for compressed in (True, False):
                    try:
                        data = P.to_bytes(compressed=compressed, profile=profile)
                    except ValueError as exc:   # the EIP profiles have no compressed form
                        assert compressed and "no compressed form" in str(exc)
                        continue
                    if profile in ("zcash", "gnark", "arkworks"):
                        assert len(data) == (80 if compressed else 160)   # 633 bits: 7 spare bits for the flags
                    assert G.from_bytes(data, profile=profile) == P
                    round_trips += 1
        assert round_trips == 3 * (2 * len(C.SERIALIZATION_PROFILES) - 2)


def test_endomorphisms_on_the_whole_curves(bw6_633) -> None:
    """Cofactor clearing equals [h_eff] and the subgroup tests answer [r]P == O, on random points of
    E(Fp) and E'(Fp), against the derivation's exact arithmetic."""
    C, m, _ = bw6_633
    rng = random.Random(5)
    for G, E, e in ((C.G1, m.E1, m.endo.g1), (C.G2, m.E2, m.endo.g2)):
        assert e.clear is not None and e.h_eff % m.r
        for _ in range(3):
            P = E.random_point(rng)
            Q = G.from_affine(*_g1(m, P), check=False)
            assert Q.is_on_curve() and not Q.in_subgroup() and E.mul(P, m.r) is not None
            cleared = Q.clear_cofactor()
            assert cleared.to_affine() == _g1(m, E.mul(P, e.h_eff))
            assert cleared.in_subgroup() and not cleared.is_identity()


def test_pairing_matches_reference(bw6_633) -> None:
    """The generated pairing equals the reference's (loop pair (x^5 - x^4 - x, x + 1), the full
    final exponentiation) raised to the model's gt_exponent, on the generators and on random points."""
    C, m, ref = bw6_633
    rng = random.Random(3)
    a, b = rng.randrange(1, m.r), rng.randrange(1, m.r)
    for ka, kb in ((1, 1), (a, b)):
        P, Q = m.E1.mul(m.g1_gen, ka), m.E2.mul(m.g2_gen, kb)
        e = C.pairing(C.G1.generator() * ka, C.G2.generator() * kb)
        expected = ref.pairing(_g1(m, P), _g1(m, Q))
        assert e.to_tuple() == ref.to_tower(expected ** m.final_exp.m)


def test_pairing_bilinear_nondegenerate_and_multi(bw6_633) -> None:
    C, m, _ = bw6_633
    check_pairing_laws(C, m.r, random.Random(4))


def test_hash_to_curve_svdw_matches_reference(bw6_633) -> None:
    """No suite is given for BW6-633: SVDW with the Z of RFC 9380 appendix H.1 on both groups,
    equal to the reference, in the subgroups (h_eff of the derived cofactor clearing)."""
    C, m, _ = bw6_633
    assert C.G1.HASH_MAP == C.G2.HASH_MAP == "svdw" and not C.G1.HASH_SUITE_IS_RFC
    check_against_reference(C, m, m.package, n_random=3, n_msgs=2)


@pytest.mark.parametrize("group", ["G1", "G2"])
def test_derivation_rejects_altered_clearing_formula(bw6_633, group, monkeypatch) -> None:
    """The cofactor clearing formula over BLS24 (El Housni–Guillevic's, at gnark's lift) is checked,
    not trusted: with one coefficient altered, derive_group does not take it (its h_eff no longer
    holds on random points) but the derived lattice combination, and refuses the curve when the
    altered formula is the only candidate."""
    from generator.derive import bw6_formulas, endomorphisms
    from generator.derive.checks import DerivationError
    from generator.derive.families import derive_family
    from generator.derive.model import bw6_data

    _, m, _ = bw6_633
    data = bw6_data(derive_family("BW6", m.x, "BW6-633", m.ht, m.hy, "BLS24"))
    assert data is not None
    family = endomorphisms.formula_family("BW6", "BLS24")
    coeffs, text = bw6_formulas.published_clearing(data)[group]
    # unaltered, the published formula is taken (with phi or phi^2, whichever acts as the formula's lam)
    assert getattr(m.endo, group.lower()).clear in (coeffs, endomorphisms.swap_phi(coeffs))
    altered = ((coeffs[0][0] + 1,) + coeffs[0][1:],) + coeffs[1:]
    E, gen, h = (m.E1, m.g1_gen, m.h1) if group == "G1" else (m.E2, m.g2_gen, m.h2)
    real = bw6_formulas.published_clearing
    monkeypatch.setattr(endomorphisms, "published_clearing", lambda d: {**real(d), group: (altered, text)})
    ge = endomorphisms.derive_group(family, group, E, gen, m.r, h, m.x, m.t, m.p, (), "BW6-633 (altered)", data)
    assert ge.clear not in (altered, endomorphisms.swap_phi(altered)) and "derived" in ge.clear_formula
    monkeypatch.setattr(endomorphisms, "_clearing_candidates", lambda *args: iter([(altered, text)]))
    with pytest.raises(DerivationError, match="cofactor clearing"):
        endomorphisms.derive_group(family, group, E, gen, m.r, h, m.x, m.t, m.p, (), "BW6-633 (altered)", data)


def test_gt_subgroup_test_is_proven(bw6_633) -> None:
    """GT membership by the derived formula f^(-x^5 + x^4 + x) (f^(p^4))^(x+1) == 1: its exponent is
    a multiple of r whose gcd with Phi_6(p) is r (so its kernel in the cyclotomic subgroup is GT)."""
    import math

    from generator.derive.endomorphisms import poly_value

    _, m, _ = bw6_633
    coeffs = m.endo.gt.coeffs
    assert coeffs is not None
    e = poly_value(coeffs, m.x, m.p)
    assert e % m.r == 0 and math.gcd(e, m.p * m.p - m.p + 1) == m.r


def test_g1_literature_test_accepts_3_torsion_and_the_package_does_not(bw6_633) -> None:
    """HGP 2022/352's G1 test [-x^5 + x^4 + x]P + phi([x+1]P) == O (gnark-crypto's IsInSubGroup,
    whose comment reads "3r P = ...") has 3-torsion of E(Fp) in its kernel: it accepts G + T with T of
    order 3. The derivation rejects it (gcd(N(alpha), h1) = 3) and uses a reduced lattice vector,
    proven injective on E(Fp)[3]; the package rejects G + T."""
    from generator.derive.endomorphisms import TESTS, Evaluator, formula_family, poly_value, swap_phi

    C, m, _ = bw6_633
    e = m.endo.g1
    assert e.test is None and e.test_vector is not None
    cand = TESTS[(formula_family("BW6", "BLS24"), "G1")][0][0]
    if poly_value(cand, m.x, e.lam) % m.r:
        cand = swap_phi(cand)
    ev = Evaluator(m.E1, "phi", e.zeta, (), m.x)
    assert ev.formula(cand, m.g1_gen) is None
    rng = random.Random(7)
    n = m.r * m.h1
    T = None
    while T is None:
        T = m.E1.mul(m.E1.random_point(rng), n // 3)
    P = m.E1.add(m.g1_gen, T)
    assert ev.formula(cand, P) is None, "the literature's formula accepts G + T"
    assert m.E1.mul(P, m.r) is not None
    Q = C.G1.from_affine(*_g1(m, P), check=False)
    assert Q.is_on_curve() and not Q.in_subgroup()
    with pytest.raises(ValueError):
        C.G1.from_affine(*_g1(m, P))
