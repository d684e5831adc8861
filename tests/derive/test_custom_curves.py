"""New curves from the minimal parameter file (name, family, x): `gen-curve --params FILE --out DIR`
renders and builds them, and the built modules have working fields, groups and a bilinear,
non-degenerate pairing that agrees with the reference implementation."""

from __future__ import annotations

import random

import pytest
from build_cache import cached_test_curve, import_test_curve
from hash_to_curve_util import check_against_reference

from generator.derive.model import build_model
from generator.params import parse_curve_text
from generator.reference import ReferencePairing

CUSTOM = {
    # BLS12 with a negative seed and 8 limbs (461 bits).
    "bls12_461": 'name = "BLS12-461"\nfamily = "BLS12"\nx = "-0x1ffffffbfffe00000000"\n',
    # BN with a negative seed: conjugation and T negation before the correction lines.
    "bn254n": 'name = "BN254N"\nfamily = "BN"\nx = "-0x4080000000000001"\n',
    # BN with an even seed: p = 5 mod 8 (Atkin square roots in Fp and Fr), u^2 = -2 (lazy Fp2
    # multiplication with k = 2), xi = 3 + u, b = 5 and an M-twist.
    "bn254a": 'name = "BN254A"\nfamily = "BN"\nx = "0x4000000000002966"\n',
}
# protocol modules asked for by some custom curves (SVDW hash suites, 8 limbs, the gnark profile)
CUSTOM_PROTOCOLS = {"bls12_461": 'protocols = ["bls_signatures", "eip2333"]\n', "bn254n": 'protocols = ["bls_signatures"]\n'}


# one worker per custom curve under xdist (its build is shared by the tests of that curve)
@pytest.fixture(scope="module", params=[pytest.param(p, marks=pytest.mark.xdist_group(f"custom-{p}")) for p in sorted(CUSTOM)])
def custom(request):
    """(module, model) of a custom curve built by the CLI into a temporary folder."""
    pkg = request.param
    text = CUSTOM[pkg] + CUSTOM_PROTOCOLS.get(pkg, "")

    # built once per content of the curve file, the generator and the toolchain (all workers, all runs);
    # only the module the tests run, at -O1
    root = cached_test_curve("custom curve", text, f"{pkg}.toml")
    params = root / f"{pkg}.toml"
    module = import_test_curve(root / "out", pkg)
    model = build_model(parse_curve_text(CUSTOM[pkg], str(params)))
    return module, model


def test_fields(custom) -> None:
    C, m = custom
    rng = random.Random(1)
    assert C.P == m.p and C.R == m.r and C.X == m.x
    for _ in range(20):
        a, b = rng.randrange(1, m.p), rng.randrange(m.p)
        assert int(C.Fp(a) * C.Fp(b)) == a * b % m.p
        assert int(C.Fp(a).inverse()) == pow(a, -1, m.p)
        assert int(C.Fp(a) - C.Fp(b)) == (a - b) % m.p
        if C.Fp(a).is_square():
            assert int(C.Fp(a).sqrt()) ** 2 % m.p == a
        c = rng.randrange(m.r)
        assert int(C.Fr(c) * C.Fr(b % m.r)) == c * (b % m.r) % m.r


def test_groups(custom) -> None:
    C, m = custom
    G1, G2 = C.G1.generator(), C.G2.generator()
    assert G1.is_on_curve() and G1.in_subgroup() and G2.is_on_curve() and G2.in_subgroup()
    assert (G1 * m.r).is_identity() and (G2 * m.r).is_identity()
    # Against the derivation's own exact arithmetic.
    k = 0x1234567890ABCDEF1234567
    x, y = (G1 * k).to_affine()
    expected = m.E1.mul(m.g1_gen, k)
    assert (x, y) == (expected[0][0], expected[1][0])
    x2, y2 = (G2 * k).to_affine()
    expected2 = m.E2.mul(m.g2_gen, k)
    assert (tuple(x2), tuple(y2)) == expected2
    assert G1 + G1 == G1.double() and G2 - G2 == C.G2.identity()
    for P in (G1 * 5, G2 * 7):
        assert type(P).from_bytes(P.to_bytes()) == P
        assert type(P).from_bytes(P.to_bytes(compressed=False)) == P


def test_pairing_bilinear_and_matches_reference(custom) -> None:
    C, m = custom
    P, Q = C.G1.generator(), C.G2.generator()
    e = C.pairing(P, Q)
    assert not e.is_one() and (e ** m.r).is_one()
    a, b = 1234567, 7654321
    assert C.pairing(P * a, Q * b) == e ** (a * b)
    assert C.pairing_check([P * a, -P], [Q, Q * a])
    ref = ReferencePairing(m.family, m.x, m.p, m.r, m.b, m.twist.kind, m.tower.beta, m.tower.xi)
    expected = ref.pairing((m.g1_gen[0][0], m.g1_gen[1][0]), (tuple(m.g2_gen[0]), tuple(m.g2_gen[1])))
    assert e.to_tuple() == ref.to_tower(expected ** m.final_exp.m)


def test_endomorphisms(custom) -> None:
    """GLV/GLS multiplication, cofactor clearing ([h_eff]P) and the subgroup tests ([r]P == O) on
    random points of the whole curves, against the derivation's exact arithmetic."""
    C, m = custom
    rng = random.Random(5)

    def aff(P, deg):
        return None if P is None else ((P[0][0], P[1][0]) if deg == 1 else (tuple(P[0]), tuple(P[1])))

    for G, E, gen, e, deg in ((C.G1, m.E1, m.g1_gen, m.endo.g1, 1), (C.G2, m.E2, m.g2_gen, m.endo.g2, m.fq_degree)):
        for k in (rng.randrange(m.r), m.r - 1, rng.randrange(1 << 64)):
            want = aff(E.mul(gen, k), deg)
            assert (G.generator() * k).to_affine() == want
            assert G.generator().mul_vartime(k).to_affine() == want
        for _ in range(2):
            P = E.random_point(rng)
            Q = G.from_affine(*aff(P, deg), check=False)
            assert Q.in_subgroup() == (E.mul(P, m.r) is None)
            assert Q.clear_cofactor().to_affine() == aff(E.mul(P, e.h_eff), deg)
            assert Q.clear_cofactor().in_subgroup()


def test_hash_to_curve_svdw_matches_reference(custom) -> None:
    """A curve file without a hash-to-curve suite gets Shallue-van de Woestijne with the Z of
    RFC 9380 appendix H.1 on both groups: outputs on the curve, in the subgroup, equal to the
    reference (tests/hash_to_curve_util.py), and never labelled an RFC suite."""
    C, m = custom
    assert C.G1.HASH_MAP == C.G2.HASH_MAP == "svdw"
    assert not C.G1.HASH_SUITE_IS_RFC and not C.G2.HASH_SUITE_IS_RFC
    check_against_reference(C, m, m.package, n_random=4, n_msgs=2)


def test_protocols_bls_signatures(custom) -> None:
    """BLS signatures and EIP-2333 on curves other than the standard's: the ciphersuite IDs come
    from the curve's own hash suites, and sign/verify/aggregate/batch work in both variants."""
    C, m = custom
    if "bls_signatures" not in C.PROTOCOLS:
        assert not hasattr(C, "bls")
        return
    for variant, sig_group in ((C.bls.MinPk, C.G2), (C.bls.MinSig, C.G1)):
        s = variant.Pop
        assert s.CIPHERSUITE == f"BLS_SIG_{sig_group.HASH_SUITE}POP_"
        sks = [s.key_gen(bytes([i]) * 32) for i in range(1, 4)]
        pks = [s.sk_to_pk(sk) for sk in sks]
        sigs = [s.sign(sk, b"custom %d" % i) for i, sk in enumerate(sks)]
        msgs = [b"custom %d" % i for i in range(3)]
        assert all(s.verify(*t) for t in zip(pks, msgs, sigs, strict=True))
        assert not s.verify(pks[0], msgs[1], sigs[0])
        assert s.aggregate_verify(pks, msgs, s.aggregate(sigs))
        assert s.batch_verify(pks, msgs, sigs) and not s.batch_verify(pks, msgs, sigs[::-1])
        assert s.pop_verify(pks[1], s.pop_prove(sks[1]))
    if "eip2333" in C.PROTOCOLS:
        seed = bytes(range(40))
        sk = C.eip2333.derive_path(seed, "m/1/2")
        assert 0 < sk < m.r and C.eip2333.derive_master_SK(seed) == C.bls.key_gen(seed)
