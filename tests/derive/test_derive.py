"""Derived constants of the four standard curves against their published values, and the
derivation checks on custom curves (BN462, BLS12-461, a BN curve with a negative seed)."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from conftest import REPO_ROOT

from generator.derive.checks import DerivationError
from generator.derive.families import BLS12_P, BLS12_R, BN_P, BN_R, X, cyclotomic, derive_family
from generator.derive.final_exponentiation import _build_program, derive_final_exponentiation, factored_forms
from generator.derive.gt_program import (
    Conj,
    ExpByX,
    Frob,
    MulGT,
    PowKarabina,
    PowSmall,
    Program,
    allocate_registers,
    column_scales,
    exp_by_x_cost,
    naf,
    program_cost,
    track_exponent,
)
from generator.derive.model import CurveModel, build_model, xi_small_factors
from generator.params import CurveFileError, parse_curve_text, parse_polynomial_in_x
from generator.pipeline import derive_model

CURVES = REPO_ROOT / "curves"


@lru_cache(maxsize=None)
def model(name: str) -> CurveModel:
    return derive_model(CURVES / f"{name}.toml")


def custom(text: str) -> CurveModel:
    return build_model(parse_curve_text(text, "custom.toml"))


# Published values (gnark-crypto, arkworks, the EIPs).
PUBLISHED = {
    "bn254": {
        "twist": "D",
        "b_twist": None,
        "h1": 1,
        "psi": (
            (21575463638280843010398324269430826099269044274347216827212613867836435027261,
             10307601595873709700152284273816112264069230130616436755625194854815875713954),
            (2821565182194536844548159561693502659359617185244120367078079554186484126554,
             3505843767911556378687030309984248845540243509899259641013678093033130930403),
        ),
        "m": 2 * 0x44E992B44A6909F1 * (6 * 0x44E992B44A6909F1**2 + 3 * 0x44E992B44A6909F1 + 1),  # FKR, as snarkjs / arkworks
    },
    "bls12-381": {
        "twist": "M",
        "b_twist": (4, 4),
        "h1": 0x396C8C005555E1568C00AAAB0000AAAB,
        "h2": 0x5D543A95414E7F1091D50792876A202CD91DE4547085ABAA68A205B2E5A7DDFA628F1CB4D9E82EF21537E293A6691AE1616EC6E786F0C70CF1C38E31C7238E5,
        "psi": (
            (0, 4002409555221667392624310435006688643935503118305586438271171395842971157480381377015405980053539358417135540939437),
            (2973677408986561043442465346520108879172042883009249989176415018091420807192182638567116318576472649347015917690530,
             1028732146235106349975324479215795277384839936929757896155643118032610843298655225875571310552543014690878354869257),
        ),
        "m": 3,
    },
    "bls12-377": {
        "twist": "D",
        "b_twist": None,
        "h1": 0x170B5D44300000000000000000000000,
        "h2": 0x26BA558AE9562ADDD88D99A6F6A829FBB36B00E1DCC40C8C505634FAE2E189D693E8C36676BD09A0F3622FBA094800452217CC900000000000000000000001,
        "psi": (
            (80949648264912719408558363140637477264845294720710499478137287262712535938301461879813459410946, 0),
            (216465761340224619389371505802605247630151569547285782856803747159100223055385581585702401816380679166954762214499, 0),
        ),
        "m": 3,
    },
    "bw6-761": {
        "twist": "M",
        "b_twist": (4,),
        "h1": 0xAD1972339049CE762C77D5AC34CB12EFC856A0853C9DB94CC61C554757551C0C832BA4061000003B3DE580000000007C,
        "h2": 0xAD1972339049CE762C77D5AC34CB12EFC856A0853C9DB94CC61C554757551C0C832BA4061000003B3DE580000000007C - 7,
        "t": 0x15D8F58F3501DBEC1AB2F9CB6145AEECB55FC0D440CB48F058490FB40986940170B5D44300000007467A800000000010,
        "m": 3 * (0x8508C00000000001**3 - 0x8508C00000000001**2 + 1),  # HG20 Alg. 6, as arkworks
    },
}

# Spare bits, no-carry flags and -p^-1 mod 2^64.
FIELD_TABLE = {
    ("bn254", "fp"): (4, 2, True, True, 0x87D20782E4866389),
    ("bn254", "fr"): (4, 2, True, True, 0xC2E1F593EFFFFFFF),
    ("bls12-381", "fp"): (6, 3, True, True, 0x89F3FFFCFFFCFFFD),
    ("bls12-381", "fr"): (4, 1, True, False, 0xFFFFFFFEFFFFFFFF),
    ("bls12-377", "fp"): (6, 7, True, True, 0x8508BFFFFFFFFFFF),
    ("bls12-377", "fr"): (4, 3, True, True, 0x0A117FFFFFFFFFFF),
    ("bw6-761", "fp"): (12, 7, True, True, 0x0A5593568FA798DD),
}

STANDARD = sorted(PUBLISHED)


@pytest.mark.parametrize("name", STANDARD)
def test_family_values_match_published(name: str) -> None:
    m = model(name)
    pub = PUBLISHED[name]
    assert m.p == m.spec.published["p"] and m.r == m.spec.published["r"]
    assert m.twist.kind == pub["twist"]
    assert m.h1 == pub["h1"]
    if "h2" in pub:
        assert m.h2 == pub["h2"]
    if "t" in pub:
        assert m.t == pub["t"]
    if pub["b_twist"] is not None:
        assert m.twist.b == pub["b_twist"]
    assert (m.p + 1 - m.t) == m.h1 * m.r
    assert m.twist.order == m.h2 * m.r


def test_bn254_h2_is_2p_minus_r() -> None:
    m = model("bn254")
    assert m.h2 == 2 * m.p - m.r


@pytest.mark.parametrize("name", ["bn254", "bls12-381", "bls12-377"])
def test_psi_coefficients_match_published(name: str) -> None:
    m = model(name)
    assert m.miller.psi[1] == PUBLISHED[name]["psi"]


@pytest.mark.parametrize("key", sorted(FIELD_TABLE))
def test_field_constants(key: tuple[str, str]) -> None:
    m = model(key[0])
    field = getattr(m, key[1])
    limbs, spare, no_carry, no_carry_sqr, n0 = FIELD_TABLE[key]
    assert (field.limbs64, field.spare_bits, field.no_carry(64), field.no_carry_square(64)) == (
        limbs, spare, no_carry, no_carry_sqr)
    assert field.n0(64) == n0
    assert field.n0(32) == n0 & 0xFFFFFFFF
    assert field.r_mod == (1 << (64 * limbs)) % field.modulus


def test_square_root_methods() -> None:
    assert model("bn254").fp.sqrt.method == "p3mod4"
    assert model("bls12-381").fp.sqrt.method == "p3mod4"
    assert model("bls12-377").fp.sqrt.method == "tonelli_shanks"
    assert model("bls12-377").fp.sqrt.two_adicity == 46
    assert model("bls12-377").fr.sqrt.two_adicity == 47
    assert model("bw6-761").fp.sqrt.method == "p3mod4"


@pytest.mark.parametrize("name", STANDARD)
def test_generators_are_the_published_ones(name: str) -> None:
    m = model(name)
    assert m.g1_gen == (tuple(v % m.p for v in (m.spec.g1[0],)), tuple(v % m.p for v in (m.spec.g1[1],)))
    g2 = m.spec.g2
    assert m.g2_gen == (tuple(c % m.p for c in g2[0]), tuple(c % m.p for c in g2[1]))
    assert m.E1.mul(m.g1_gen, m.r) is None and m.E2.mul(m.g2_gen, m.r) is None


@pytest.mark.parametrize("name", STANDARD)
def test_tower_non_residues_and_frobenius(name: str) -> None:
    m = model(name)
    F = m.tower.fq
    assert not F.is_square(m.tower.xi)
    assert F.pow(m.tower.xi, (F.order - 1) // 3) != F.one
    for n in range(4):
        for i in range(6):
            assert m.tower.gamma[n][i] == F.pow(m.tower.xi, i * (m.p**n - 1) // 6)
    if m.k == 12:
        # gamma[2][i] lies in Fp (a norm), as the notes state.
        assert all(g[1] == 0 for g in m.tower.gamma[2])


def test_bn254_gamma2_values() -> None:
    m = model("bn254")
    g2 = [g[0] for g in m.tower.gamma[2]]
    assert g2[3] == m.p - 1
    assert str(g2[1]).endswith("556617") and str(g2[2]).endswith("556616")


@pytest.mark.parametrize("name", STANDARD)
def test_final_exponentiation_exponent_tracking(name: str) -> None:
    """The rendered program computes f^(m Phi_k(p)/r) with the documented m, gcd(m, r) = 1."""
    m = model(name)
    fe = m.final_exp
    phi = cyclotomic(m.k, m.p)
    tracked = track_exponent(fe.ops, fe.nregs, fe.result, m.x, m.p, phi)
    assert tracked == fe.m * (phi // m.r) % phi
    assert fe.m == PUBLISHED[name]["m"]
    # A program that forgets one multiplication must fail the proof.
    broken = fe.ops[:-1]
    assert track_exponent(broken, fe.nregs, fe.ops[-1].dst if broken else 0, m.x, m.p, phi) != tracked


def test_bn_hard_part_is_the_fkr_decomposition() -> None:
    """BN254's gt_exponent 2x(6x^2 + 3x + 1) gives Fuentes-Castaneda-Knapp-Rodriguez-Henriquez's
    lambdas (as arkworks' comment writes them). Derived, the bases f^(2x), f^(6x^2), f^(12x^3)
    carry the common factors, so the coefficients left are at most 3; the curve file's stated FKR
    chain (its hard_part: 3 exponentiations, 3 squarings, 10 multiplications) computes the same
    power and costs less, so the rendered program is the stated one."""
    m = model("bn254")
    fe = m.final_exp
    assert fe.lambdas == ((1, 6, 12, 12), (0, 4, 6, 12), (0, 6, 6, 12), (-1, 4, 6, 12))
    assert fe.exp_by_x_count == 3 and fe.m_poly == "2*x*(6*x^2 + 3*x + 1)"
    assert column_scales([list(c) for c in fe.lambdas]) == (
        [1, 2, 3, 2], [[1, 3, 2, 1], [0, 2, 1, 1], [0, 3, 1, 1], [-1, 2, 1, 1]])
    assert fe.form.startswith("the curve file's hard_part program")
    assert sum(isinstance(op, MulGT) for op in fe.ops) == 10
    derived = derive_final_exponentiation(BN_P, BN_R, 12, m.x, m.p, m.r, "bn254", parse_polynomial_in_x(
        "2*x*(6*x^2 + 3*x + 1)", "gt_exponent", "bn254"))
    assert "f^(S_j x^j)" in derived.form and derived.m == fe.m
    assert _gt_multiplications(fe.ops) < _gt_multiplications(derived.ops)
    # Without the key the cheapest m is 1 (Scott et al.'s decomposition).
    m = model("bn254")
    natural = derive_final_exponentiation(BN_P, BN_R, 12, m.x, m.p, m.r, "bn254")
    assert natural.m == 1 and natural.m_poly == "1"
    assert natural.lambdas == ((-2, -18, -30, -36), (1, -12, -18, -36), (1, 0, 6), (1,))


def _gt_multiplications(ops) -> int:
    return sum(1 for op in ops if isinstance(op, MulGT)) + sum(
        op.chain.multiplications for op in ops if isinstance(op, PowSmall))


@pytest.mark.parametrize("name", ["bls12-381", "bls12-377"])
def test_bls12_hard_part_is_the_factored_form(name: str) -> None:
    """The search finds Hayashida–Hayasaka–Teruya's 3 Phi_12(p)/r = 3 + (x - 1)^2 (x + p)
    (x^2 + p^2 - 1) and the cost model prefers it: five exponentiations by x as before, 7
    multiplications and 1 squaring in GT instead of 15 and 5, two Frobenius powers. On BLS12-377
    each factor x - 1 is one Karabina power by |x - 1| = 0x8508c00000000000 (6 signed digits
    against x's 7: PowKarabina), which saves its two multiplications: 3 exponentiations by x, 5
    multiplications."""
    m = model(name)
    fe = m.final_exp
    karabina = [op for op in fe.ops if isinstance(op, PowKarabina)]
    assert fe.exp_by_x_count + len(karabina) == 5
    assert fe.form == "3 + (-1 + x) (-1 + x) (x + p) (-1 + x^2 + p^2)"
    if name == "bls12-377":
        assert [op.exponent for op in karabina] == [m.x - 1] * 2 and len(karabina[0].digits) == 6
        assert _gt_multiplications(fe.ops) == 5
    else:
        assert not karabina and _gt_multiplications(fe.ops) == 7
    assert sum(op.chain.squarings for op in fe.ops if isinstance(op, PowSmall)) == 1
    assert sorted(op.n for op in fe.ops if isinstance(op, Frob)) == [1, 2]
    # Cheaper than the base-p program of the lambdas, by the model's own weights.
    cost = exp_by_x_cost(fe.exp_by_x_chain, fe.exp_by_x_compressed, m.k)
    lambda_ops, _, _ = _build_program([list(c) for c in fe.lambdas])
    assert _gt_multiplications(lambda_ops) == 15
    assert program_cost(fe.ops, cost) < program_cost(lambda_ops, cost) - 8


def test_factored_forms_are_identities() -> None:
    """Every form the search returns is m Phi_k(p)/r = c + prod F_i at the seeds of the standard
    curves (the forms are polynomial identities; checked here on integers, independently of
    the search's own algebra)."""
    for name, fam_p, fam_r in (("bls12-381", BLS12_P, BLS12_R), ("bn254", BN_P, BN_R)):
        m = model(name)
        target = m.final_exp.m * (cyclotomic(m.k, m.p) // m.r)
        m_poly = parse_polynomial_in_x(m.final_exp.m_poly, "gt_exponent", name)
        forms = factored_forms(fam_p, fam_r, m.k, m_poly, 12)
        if name == "bls12-381":
            assert forms
        for c, lambdas in forms:
            product = 1
            for factor in lambdas:
                product *= sum(sum(a * m.x**j for j, a in enumerate(coeffs)) * m.p**i
                               for i, coeffs in enumerate(factor))
            assert c + product == target


def test_bw6_hard_part_is_one_multi_exponentiation() -> None:
    """BW6-761's gt_exponent 3(x^3 - x^2 + 1) (arkworks') gives El Housni-Guillevic's Alg. 6
    expansion R0(x) + p R1(x), 9 exponentiations by x (the cheapest m, 3, needs 11); its 18
    coefficients are large (up to 492) and of similar size: one Bos–Coster multi-exponentiation
    over all the B_j and frob(B_j) needs 51 multiplications and no squaring, against Straus's 61
    and 9 (one run of squarings, a multiplication per NAF digit), and both beat a chain per
    coefficient, by the cost model and in multiplications. (The curve file's stated hard_part is
    cheaper still and is what renders: tests/derive/test_hard_part_program.py; here the derived program.)"""
    m = model("bw6-761")
    spec = m.spec
    fam = derive_family(spec.family, spec.x, "bw6-761", spec.ht, spec.hy, spec.inner_family, spec.trace_case)
    fe = derive_final_exponentiation(fam.p_poly, fam.r_poly, m.k, m.x, m.p, m.r, "bw6-761",
                                     parse_polynomial_in_x(spec.gt_exponent, "gt_exponent", "bw6-761"))
    assert fe.lambdas == ((-220, -263, -73, -314, -197, 269, 70, -103),
                          (229, 34, -181, 452, -65, -445, 492, 77, -276, 103))
    assert fe.exp_by_x_count == 9 and "multi-exponentiation (Bos–Coster)" in fe.form
    cost = exp_by_x_cost(fe.exp_by_x_chain, fe.exp_by_x_compressed, m.k)
    lambdas = [list(c) for c in fe.lambdas]
    separate, _, _ = _build_program(lambdas)
    straus, _, _ = _build_program(lambdas, joint=True)
    assert program_cost(fe.ops, cost) < program_cost(separate, cost) - 40
    assert program_cost(fe.ops, cost) < program_cost(straus, cost) - 10
    assert _gt_multiplications(fe.ops) == 51 and _gt_multiplications(straus) == 61
    assert not any(isinstance(op, PowSmall) for op in fe.ops)
    assert sum(op.chain.squarings for op in straus if isinstance(op, PowSmall)) == max(
        naf(abs(c))[-1][0] for lam in fe.lambdas for c in lam if c)
    # Each conjugated base is conjugated once: 10 of the 18 coefficients are negative.
    assert sum(1 for op in fe.ops if isinstance(op, Conj)) == 10


def test_bos_coster_power_on_integers() -> None:
    """prod B_j^c_j by Bos–Coster: exponent tracking on random small exponents, with negative
    ones (conjugations), equal ones and a register met twice; the bases are f^(x^j) for a random
    x modulo a prime, so changing any one multiplication of two different values into a squaring
    of one operand breaks it."""
    rng = random.Random(7)
    modulus = 2**127 - 1
    for _ in range(60):
        x = rng.randrange(2, modulus)
        program = Program(joint=True, method="bos_coster")
        bases = [0]
        for _ in range(5):
            bases.append(program.new_register())
            program.ops.append(ExpByX(bases[-1], bases[-2]))    # f^(x^j)
        terms = [(rng.choice(bases), rng.choice([-1, 1]) * rng.randrange(1, 600)) for _ in range(rng.randrange(1, 20))]
        if len(terms) > 2:
            terms.append((rng.choice(bases), terms[1][1]))    # an exponent met twice
        start = len(program.ops)
        result = program.bos_coster_power(terms)
        want = sum(pow(x, bases.index(reg), modulus) * c for reg, c in terms) % modulus
        assert track_exponent(tuple(program.ops), program.nregs, result, x, 0, modulus) == want
        for k in range(start, len(program.ops)):
            op = program.ops[k]
            if not isinstance(op, MulGT):
                continue
            before = tuple(program.ops[:k])
            a, b = (track_exponent(before, program.nregs, reg, x, 0, modulus) for reg in (op.a, op.b))
            if a != b:
                broken = program.ops[:k] + [MulGT(op.dst, op.a, op.a)] + program.ops[k + 1:]
                assert track_exponent(tuple(broken), program.nregs, result, x, 0, modulus) != want


def test_bw6_bos_coster_program_fails_when_changed() -> None:
    """The rendered BW6-761 hard part with any one multiplication of its Bos–Coster tail turned
    into a copy of one operand computes another exponent: the proof sees every step."""
    m = model("bw6-761")
    fe = m.final_exp
    phi = cyclotomic(m.k, m.p)
    want = fe.m * (phi // m.r) % phi
    assert track_exponent(fe.ops, fe.nregs, fe.result, m.x, m.p, phi) == want
    muls = [k for k, op in enumerate(fe.ops) if isinstance(op, MulGT)]
    for k in muls[::5]:
        op = fe.ops[k]
        changed = fe.ops[:k] + (Frob(op.dst, op.a, 3),) + fe.ops[k + 1:]
        assert track_exponent(changed, fe.nregs, fe.result, m.x, m.p, phi) != want


def test_joint_power_on_integers() -> None:
    """prod B_j^c_j from one run of squarings: exponent tracking on random small exponents,
    with negative ones (conjugations) and a shared register."""
    rng = random.Random(5)
    for _ in range(50):
        program = Program(joint=True)
        bases = [0]
        for _ in range(3):
            bases.append(program.mul(bases[-1], 0))        # registers holding f^2, f^3, f^4
        terms = [(rng.choice(bases), rng.choice([-1, 1]) * rng.randrange(1, 3000)) for _ in range(rng.randrange(1, 6))]
        result = program.joint_power(terms)
        want = sum((bases.index(reg) + 1) * c for reg, c in terms)
        modulus = 2**64
        assert track_exponent(tuple(program.ops), program.nregs, result, 0, 0, modulus) == want % modulus


def test_register_allocation_keeps_the_program() -> None:
    """The allocated program computes the same exponent on far fewer registers, and no op
    writes a register it reads."""
    m = model("bw6-761")
    lambdas = [list(c) for c in m.final_exp.lambdas]
    ops, nregs, result = _build_program(lambdas, joint=True)
    phi = cyclotomic(m.k, m.p)
    want = track_exponent(tuple(ops), nregs, result, m.x, m.p, phi)
    packed, packed_regs, packed_result = allocate_registers(ops, result)
    assert track_exponent(tuple(packed), packed_regs, packed_result, m.x, m.p, phi) == want
    assert packed_regs < nregs // 3
    for op in packed:
        reads = (op.a, op.b) if isinstance(op, MulGT) else (op.src,)
        assert op.dst not in reads
    assert any(isinstance(op, Conj) for op in packed)


def test_exponent_tracking_rejects_a_changed_factored_program() -> None:
    """Swapping one exponentiation by x for a Frobenius power in the factored program breaks the proof."""
    m = model("bls12-381")
    fe = m.final_exp
    phi = cyclotomic(m.k, m.p)
    k = next(i for i, op in enumerate(fe.ops) if isinstance(op, ExpByX))
    changed = list(fe.ops)
    changed[k] = Frob(fe.ops[k].dst, fe.ops[k].src, 1)
    assert track_exponent(tuple(changed), fe.nregs, fe.result, m.x, m.p, phi) != fe.m * (phi // m.r) % phi


def test_miller_loop_digits() -> None:
    bn = model("bn254").miller
    assert len(bn.terms) == 1 and bn.frobenius_corrections and not bn.negative
    digits = bn.terms[0].digits
    assert len(digits) == 66 and sum(1 for d in digits if d) == 22
    bls = model("bls12-381").miller
    assert bls.negative and sum(1 for d in bls.terms[0].digits if d) == 6
    bw6 = model("bw6-761").miller
    assert [t.scalar for t in bw6.terms] == [0x8508C00000000001 + 1, 0x8508C00000000001**3 - 0x8508C00000000001**2 - 0x8508C00000000001]
    # The second BW6 term runs on [p]Q, which the derivation identified as an automorphism image.
    m = model("bw6-761")
    term = bw6.terms[1]
    Q = m.g2_gen
    F = m.E2.F
    image = (F.mul(term.zeta, Q[0]), Q[1] if term.sign == 1 else F.neg(Q[1]))
    assert image == m.E2.mul(Q, m.p % m.r)


def test_twist_is_confirmed_on_random_points() -> None:
    m = model("bls12-381")
    rng = random.Random(7)
    for _ in range(2):
        R = m.E2.random_point(rng)
        assert m.E2.mul(R, m.twist.order) is None
    # The trivial twist order p^2 + 1 - t2 is divisible by r but is not the order of E'.
    t2 = m.t * m.t - 2 * m.p
    trivial = m.p**2 + 1 - t2
    assert trivial % m.r == 0 and trivial != m.twist.order


# ------------------------------------------------------------------------------------------
# Custom curves from the minimal form only.

BN462 = 'name = "BN462"\nfamily = "BN"\nx = "0x4001fffffffffffffffffffffbfff"\n'
BLS12_461 = 'name = "BLS12-461"\nfamily = "BLS12"\nx = "-0x1ffffffbfffe00000000"\n'
BN_NEGATIVE = 'name = "BN254N"\nfamily = "BN"\nx = "-0x4080000000000001"\n'


@pytest.mark.parametrize("text", [BN462, BLS12_461, BN_NEGATIVE], ids=["bn462", "bls12-461", "bn-negative"])
def test_custom_curves_derive(text: str) -> None:
    m = custom(text)
    assert m.E1.on_curve(m.g1_gen) and m.E1.mul(m.g1_gen, m.r) is None
    assert m.E2.on_curve(m.g2_gen) and m.E2.mul(m.g2_gen, m.r) is None
    phi = cyclotomic(m.k, m.p)
    fe = m.final_exp
    assert track_exponent(fe.ops, fe.nregs, fe.result, m.x, m.p, phi) == fe.m * (phi // m.r) % phi
    assert m.b != 0


def test_bls12_461_parameters() -> None:
    m = custom(BLS12_461)
    assert m.p.bit_length() == 461 and m.fp.limbs64 == 8
    assert m.miller.negative


def test_negative_bn_seed_conjugates() -> None:
    m = custom(BN_NEGATIVE)
    assert m.p.bit_length() == 254 and m.miller.negative and m.miller.frobenius_corrections


# ------------------------------------------------------------------------------------------
# Bad curve files and failed derivations.

@pytest.mark.parametrize(
    "text, fragment",
    [
        ('family = "BN"\nx = 1\n', "missing required key 'name'"),
        ('name = "A"\nfamily = "MNT4"\nx = 1\n', "key 'family'"),
        ('name = "A"\nfamily = "BN"\nx = "zz"\n', "key 'x'"),
        ('name = "A"\nfamily = "BN"\nx = 1\ncolour = 1\n', "unknown key 'colour'"),
        ('name = "A"\nfamily = "BN"\nx = 1\nalpha = 2\n', "BW6 family only"),
        ('name = "A"\nfamily = "BN"\nx = 1\nxi = [1]\n', "key 'xi'"),
        ('name = "A"\nfamily = "BW6"\nx = 1\nht = 1\n', "'ht' and 'hy'"),
        ('name = "A"\nfamily = "BN"\nx = 0\n', "non-zero"),
        ('name = "A" family', "not valid TOML"),
        ('name = "A"\nfamily = "BN"\nx = 1\nprotocols = "groth16"\n', "list of strings"),
        ('name = "A"\nfamily = "BN"\nx = 1\nprotocols = ["zzz"]\n', "unknown protocol 'zzz'"),
        ('name = "A"\nfamily = "BN"\nx = 1\ngt_exponent = 3\n', "key 'gt_exponent' must be a polynomial in x"),
        ('name = "A"\nfamily = "BN"\nx = 1\ngt_exponent = "1/x"\n', "polynomial in x (no division by x"),
        ('name = "A"\nfamily = "BN"\nx = 1\ngt_exponent = "y + 1"\n', "written with digits, x"),
        ('name = "A"\nfamily = "BN"\nx = 1\ngt_exponent = "__import__(0)"\n', "written with digits, x"),
        ('name = "A"\nfamily = "BN"\nx = 1\ngt_exponent = "2x"\n', "not a valid expression"),
        ('name = "A"\nfamily = "BN"\nx = 1\ngt_exponent = "(x + 1"\n', "not a valid expression"),
        ('name = "A"\nfamily = "BN"\nx = 1\ngt_exponent = "x - x"\n', "zero polynomial"),
        ('name = "A"\nfamily = "BN"\nx = 1\ngt_exponent = "x^1000"\n', "powers above 99"),
    ],
)
def test_bad_curve_files(text: str, fragment: str) -> None:
    with pytest.raises(CurveFileError, match=fragment.replace("(", r"\(")):
        parse_curve_text(text, "bad.toml")


def test_params_imports_nothing_downstream() -> None:
    """Data flows one way, params -> derive -> emit: parsing a curve file imports neither the
    derivations nor the protocol registry, and the protocol names params accepts are exactly the
    registered protocols (resolved when a package is rendered)."""
    import subprocess
    import sys

    code = ("import sys, generator.params\n"
            "print(sorted(m for m in sys.modules if m.startswith(('generator.protocols', 'generator.derive', 'generator.emit'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True,
                         text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"
    from generator.params import PROTOCOL_NAMES
    from generator.protocols import PROTOCOLS

    assert sorted(PROTOCOL_NAMES) == sorted(PROTOCOLS)


@pytest.mark.parametrize(
    "gt_exponent, fragment",
    [
        ("3*(x^4 - x^2 + 1)", r"gcd\(m, r\) = 1"),           # 3 r(x): m is a multiple of r
        ("1", "integer coefficients"),                          # BLS12 needs a multiple of 3
        ("x/2", "integer coefficients"),
    ],
)
def test_wrong_gt_exponent_is_rejected(gt_exponent: str, fragment: str) -> None:
    """A gt_exponent that would make the pairing degenerate, or that no integer program reaches,
    stops the derivation with the curve and the reason."""
    m = model("bls12-381")
    m_poly = parse_polynomial_in_x(gt_exponent, "gt_exponent", "bls12-381.toml")
    with pytest.raises(DerivationError, match=fragment):
        derive_final_exponentiation(BLS12_P, BLS12_R, 12, m.x, m.p, m.r, "bls12-381.toml", m_poly)


@pytest.mark.parametrize("gt_exponent", ["3", "3*x", "6*x^2 - 3", "-3*(x - 1)"])
def test_required_gt_exponent_is_proved(gt_exponent: str) -> None:
    """Any admissible m(x) gives a program that exponent tracking proves to compute
    f^(m Phi_k(p)/r) with that m; dropping its last operation breaks the proof."""
    m = model("bls12-381")
    m_poly = parse_polynomial_in_x(gt_exponent, "gt_exponent", "test")
    fe = derive_final_exponentiation(BLS12_P, BLS12_R, 12, m.x, m.p, m.r, "test", m_poly)
    value = int(m_poly.subs(X, m.x))
    phi = cyclotomic(12, m.p)
    assert fe.m == value
    assert track_exponent(fe.ops, fe.nregs, fe.result, m.x, m.p, phi) == value * (phi // m.r) % phi
    broken = fe.ops[:-1]
    assert track_exponent(broken, fe.nregs, fe.ops[-1].dst, m.x, m.p, phi) != value * (phi // m.r) % phi


def test_failed_derivation_names_curve_and_check() -> None:
    # x = 2 is not 1 mod 3: no BLS12 curve.
    with pytest.raises(DerivationError, match="BLS12 seed satisfies x = 1 mod 3"):
        custom('name = "Bad"\nfamily = "BLS12"\nx = 2\n')
    # A published p that does not match.
    text = 'name = "BN254"\nfamily = "BN"\nx = "0x44e992b44a6909f1"\n[published]\np = 7\n'
    with pytest.raises(DerivationError, match="published p"):
        custom(text)
    # A wrong generator.
    text = 'name = "BN254"\nfamily = "BN"\nx = "0x44e992b44a6909f1"\nb = 3\ng1 = [1, 3]\n'
    with pytest.raises(DerivationError, match="G1 generator is on the curve"):
        custom(text)
    # A b of the wrong order.
    with pytest.raises(DerivationError, match="random points"):
        custom('name = "BN254"\nfamily = "BN"\nx = "0x44e992b44a6909f1"\nb = 5\n')


@pytest.mark.parametrize("name", STANDARD)
def test_lazy_reduction_bounds(name: str) -> None:
    """The derived lazy-reduction flags hold exactly when their bounds below p R do."""
    m = model(name)
    R = 2 ** (64 * m.fp.limbs64)
    assert m.lazy.headroom == R // m.p
    if m.k == 12:
        k = -m.tower.beta
        assert m.lazy.fp2_mul == (m.tower.beta < 0 and k <= 16 and max(4, k) * m.p < R)
        assert m.lazy.beta_k == (k if m.lazy.fp2_mul else None)
        assert m.lazy.tower == (m.lazy.fp2_mul and 2 * m.p < R)
        assert m.lazy.fp2_sqr_plain == (m.lazy.fp2_mul and k > 1 and (3 * k + 1) * m.p <= R)
    else:
        assert not m.lazy.fp2_mul and m.lazy.tower == (2 * m.p < R)
        assert not m.lazy.fp2_sqr_plain
    # the plain sums of the cubic level over Fp: k = 6 only, exactly when 16 p <= R
    assert m.lazy.fp3_plain_sums == (m.k == 6 and m.lazy.tower and 16 * m.p <= R)
    # fp2w_mul on unreduced operand sums: k = 12 with u^2 = -k, exactly when 4k p <= R
    assert m.lazy.fp2_operand_sums == (m.k == 12 and m.lazy.tower and m.lazy.beta_k is not None
                                       and 4 * m.lazy.beta_k * m.p <= R)
    # the factors of xi taken in one pass are every k >= 3 (below the word bound; 2 is a modular
    # sum); the high half takes one more word exactly when some k has k p >= R
    from generator.derive.lazy_reduction import WIDE_SMALL_BOUND

    factors = {abs(f) for f in xi_small_factors(m.p, m.k, m.tower) if abs(f) >= 3}
    assert set(m.lazy.wide_small) == {f for f in factors if f < WIDE_SMALL_BOUND}
    assert m.lazy.wide_small_top == any(f * m.p >= R for f in m.lazy.wide_small)
    # the four curves of the project have the room
    assert m.lazy.tower


def test_lazy_reduction_refused_without_room() -> None:
    """A p with a single spare bit leaves no room for the unreduced Fp2 sums: no lazy tower."""
    from generator.derive.lazy_reduction import derive_lazy_reduction

    p = (1 << 383) + 187  # any odd number of 384 bits: only its size matters here
    lazy = derive_lazy_reduction(p, 6, 12, -1, "test")
    assert not lazy.fp2_mul and not lazy.tower and lazy.headroom == 1
    assert derive_lazy_reduction(p, 6, 6, None, "test").tower is False
    small = (1 << 380) + 1
    assert derive_lazy_reduction(small, 6, 12, -1, "test").tower
    assert derive_lazy_reduction(small, 6, 12, -17, "test").fp2_mul is False


def test_lazy_reduction_small_factors_need_room() -> None:
    """The two-product Fp2 square is chosen exactly when its bound holds, at the edge of
    (3k + 1) p <= R; the one-pass multiplication by a factor of xi takes one more word for the high
    half exactly when k p >= R."""
    from generator.derive.lazy_reduction import derive_lazy_reduction

    R = 2 ** 384
    roomy = R // 16 - 1  # 16 p < R: k = 5 fits both bounds
    lazy = derive_lazy_reduction(roomy, 6, 12, -5, "test", (0, 1, -5))
    assert lazy.fp2_sqr_plain and lazy.wide_small == (5,) and not lazy.wide_small_top
    tight = R // 15 - 1  # 15 p < R < 16 p: the square takes three products, 5 a still one pass
    lazy = derive_lazy_reduction(tight, 6, 12, -5, "test", (0, 1, -5))
    assert lazy.fp2_mul and not lazy.fp2_sqr_plain and lazy.wide_small == (5,) and not lazy.wide_small_top
    # 9 p > R: the factor 9 of xi = 9 + u takes the extra word, the factor 1 needs nothing
    lazy = derive_lazy_reduction(R // 5 - 1, 6, 12, -1, "test", (9, 1, -1))
    assert lazy.tower and lazy.wide_small == (9,) and lazy.wide_small_top and not lazy.fp2_sqr_plain
    # at the edge: 9 p < R needs no extra word, 9 p >= R does
    assert not derive_lazy_reduction(R // 9 - 1, 6, 12, -1, "test", (9, 1, -1)).wide_small_top
    assert derive_lazy_reduction(R // 9 + 1, 6, 12, -1, "test", (9, 1, -1)).wide_small_top


def test_fp3_plain_sums_need_room() -> None:
    """k = 6 takes the plain operand sums and differences of Fp3 and Fp6 exactly when 16 p <= R
    (at the edge both ways), never at k = 12; and the check itself refuses a bound that is off."""
    from generator.derive import lazy_reduction
    from generator.derive.checks import DerivationError

    R = 2 ** 640
    assert lazy_reduction.derive_lazy_reduction(R // 16, 10, 6, None, "test").fp3_plain_sums
    edge = lazy_reduction.derive_lazy_reduction(R // 16 + 1, 10, 6, None, "test")
    assert edge.tower and not edge.fp3_plain_sums
    assert not lazy_reduction.derive_lazy_reduction(2 ** 377 + 1, 6, 12, -5, "test", (0, 1, -5)).fp3_plain_sums
    # a p with 16 p > R fails the sampled bounds (the sums of two operands below 2p pass 4p)
    with pytest.raises(DerivationError):
        lazy_reduction._check_fp3_plain_sums(R // 15, R, "test")


def test_fp2_operand_sums_need_room() -> None:
    """k = 12 passes unreduced Fp2 operand sums to fp2w_mul exactly when 4k p <= R (u^2 = -k):
    BLS12-377's room (k = 5, R / p = 152), BLS12-381's (k = 1, R / p = 9) and BN254's (k = 1,
    R / p = 5, where the c1 of such a product, below 8 p^2, passes p R), but not a p with
    19 p < R < 20 p at k = 5, nor one with 3 p < R < 4 p at k = 1."""
    from generator.derive import lazy_reduction
    from generator.derive.checks import DerivationError

    R = 2 ** 384
    assert lazy_reduction.derive_lazy_reduction(R // 20, 6, 12, -5, "test", (0, 1, -5)).fp2_operand_sums
    assert not lazy_reduction.derive_lazy_reduction(R // 19, 6, 12, -5, "test", (0, 1, -5)).fp2_operand_sums
    assert lazy_reduction.derive_lazy_reduction(R // 4 - 1, 6, 12, -1, "test").fp2_operand_sums
    assert lazy_reduction.derive_lazy_reduction(R // 5, 6, 12, -1, "test").fp2_operand_sums
    assert not lazy_reduction.derive_lazy_reduction(R // 3, 6, 12, -1, "test").fp2_operand_sums
    with pytest.raises(DerivationError):
        lazy_reduction._check_fp2_operand_sums(R // 19, R, 5, "test")
    with pytest.raises(DerivationError):
        lazy_reduction._check_fp2_operand_sums(R // 3, R, 1, "test")
    # the cross difference is checked against p R: it reaches 4 (p - 1)^2 > p R when R < 4p
    with pytest.raises(DerivationError):
        lazy_reduction._check_fp2_cross_differences(2**127 - 1, 2**128, "test")


def test_wide_quotient_from_three_subtractions(monkeypatch) -> None:
    """The quotient estimate replaces the subtractions of 2^j p exactly where they would number 3
    or more (BN254's 9, BLS12-377's 5, BW6-761's 4; not BW6-633's 2); its constants give q' in
    [q - 1, q] for every high half below (k + 1) p, which the derivation proves and samples, and an
    estimate that is off stops it."""
    from generator.derive import lazy_reduction

    R = 2 ** 256
    for name in STANDARD:
        lazy = model(name).lazy
        steps = max((lazy_reduction.wide_small_steps(k, True) for k in lazy.wide_small), default=0)
        assert (lazy.wide_quotient is not None) == (steps >= 3), name
    assert [model(n).lazy.wide_quotient is not None for n in ("bn254", "bls12-377", "bw6-761", "bls12-381")] == [
        True, True, True, False]
    p = model("bn254").p
    s, mul = model("bn254").lazy.wide_quotient
    assert (s, mul) == lazy_reduction.wide_quotient_constants(p, 10 * p)
    rng = random.Random(9)
    for h in [10 * p - 1, 9 * p, 9 * p - 1, p, p - 1] + [rng.randrange(10 * p) for _ in range(2000)]:
        assert h // p - 1 <= lazy_reduction.wide_quotient_estimate(h, s, mul) <= h // p
    # from p alone: 9 and 4 take it on either side of R / 9, 2 (two subtractions at most) never
    assert lazy_reduction.derive_lazy_reduction(R // 9 - 1, 4, 12, -1, "test", (9, 1, -1)).wide_quotient
    assert lazy_reduction.derive_lazy_reduction(R // 9 + 1, 4, 12, -1, "test", (9, 1, -1)).wide_quotient
    assert lazy_reduction.derive_lazy_reduction(R // 16, 4, 6, None, "test", (-4,)).wide_quotient
    assert lazy_reduction.derive_lazy_reduction(R // 16, 4, 6, None, "test", (2,)).wide_quotient is None
    # M one too large overshoots q near the multiples of p; M far too small falls two short
    good = lazy_reduction.wide_quotient_constants
    for change in (lambda m: m + 1, lambda m: m // 2):
        monkeypatch.setattr(lazy_reduction, "wide_quotient_constants",
                            lambda p, b, change=change: (good(p, b)[0], change(good(p, b)[1])))
        with pytest.raises(DerivationError):
            lazy_reduction._check_wide_quotient(p, R, 9, "test")


@pytest.mark.parametrize("k", [2, 3, 4, 5, 9])
def test_wide_small_steps_cover_the_product(k: int) -> None:
    """fpw_mul_small_mod's subtractions of 2^j p reach every high half k a (k (p R - a)) can take."""
    from generator.derive.lazy_reduction import wide_small_steps

    assert (1 << wide_small_steps(k, False)) >= k and (1 << wide_small_steps(k, False) - 1) < k
    assert (1 << wide_small_steps(k, True)) > k and (1 << wide_small_steps(k, True) - 1) <= k


def test_small_twist_coefficient() -> None:
    """3 b' as small integers where it is one (the doubling step then uses additions)."""
    found = 0
    for name in STANDARD:
        m = model(name)
        small = m.twist.b3_small
        if small is None:
            continue
        found += 1
        g, ks = small
        p = m.p
        assert tuple(g * k % p for k in ks) == tuple(3 * c % p for c in m.twist.b)
    assert found  # BLS12-381: b' = 4 (1 + u); BW6-761: b' = 4


@pytest.mark.parametrize("name, general", [("bls12-377", 1), ("bls24-315", 1), ("bn254", None), ("bls24-317", None)])
def test_twist_coefficient_monomial(name: str, general: int | None) -> None:
    """3 b' as a multiple of one basis monomial (BLS12-377's 3/u, BLS24-315's 3/v): the permutation
    with factors that b3_monomial gives is multiplication by 3 b' on random elements of Fq, with
    one general constant (one Fp multiplication) and the rest small; BN254's 3/(9 + u) and
    BLS24-317 (v^2 = 1 + u, no monomial basis products) have none."""
    m = model(name)
    rows = m.twist.b3_monomial
    if general is None:
        assert rows is None
        return
    F, p = m.twist.curve.F, m.p
    b3 = F.scale(m.twist.b, 3)
    assert sorted(j for j, _, _ in rows) == list(range(F.degree))
    assert sum(1 for _, _, small in rows if not small) == general
    rng = random.Random(5)
    for _ in range(20):
        a = F.elem(*(rng.randrange(p) for _ in range(F.degree)))
        assert tuple(k * a[j] % p for j, k, _ in rows) == F.mul(a, b3)


def test_bw6_alg_4_4_computes_another_multiple() -> None:
    """El Housni–Guillevic's Alg. 4.4 (gnark's and arkworks' generic BW6 hard part, t mod r != 0),
    run on exponents as polynomials in x modulo Phi_6(p(x)), computes (x + 1) Phi_6(p)/r, not
    BW6-761's required 3(x^3 - x^2 + 1) Phi_6(p)/r; the quotient of the two modulo r(x) has
    degree 5, so reaching arkworks' GT from it costs more exponentiations than it saves (it takes
    9 itself: 2 + 1 + 1 + 1 + 2 + 1 + 1). Its companion variant with the Frobenius on the other
    side computes (x^3 - x^2 + 1) Phi_6(p)/r, a third of the required m: that one, cubed, is the
    curve file's hard_part, and it renders (tests/derive/test_hard_part_program.py)."""
    import sympy

    from generator.derive.families import bw6_polynomials

    ht, hy = 13, 9
    p_x, r_x, _ = bw6_polynomials(ht, hy)
    P, R = sympy.Poly(p_x, X, domain="QQ"), sympy.Poly(r_x, X, domain="QQ")
    phi = P**2 - P + 1
    quotient, rest = phi.div(R)
    assert rest.is_zero

    def poly(e: sympy.Expr) -> sympy.Poly:
        return sympy.Poly(e, X, domain="QQ")

    def red(e: sympy.Poly) -> sympy.Poly:
        return e.rem(phi)

    x_minus_1, x_plus_1, third = poly(X - 1), poly(X + 1), poly((X - 1) / 3)
    one = poly(1)
    exps = 0

    def exp(e: sympy.Poly, by: sympy.Poly) -> sympy.Poly:
        nonlocal exps
        exps += 1
        return red(e * by)

    a = exp(exp(one, x_minus_1), x_minus_1)
    a = red(a + P)                                  # A * frob(m)
    b = red(exp(a, x_plus_1) - one)                 # A^(x+1) * conj(m)
    a = red(3 * a)
    c = exp(b, third)
    d = exp(c, x_minus_1)
    e = red(exp(exp(d, x_minus_1), x_minus_1) + d)
    d = red(-d)
    fc = red(d + b)
    g = red(exp(e, x_plus_1) + fc)
    h = red(g + c)
    i = red(exp(red(g + d), x_plus_1) - fc)
    j = red(h * ((ht + hy) // 2) + e)
    k = red(3 * j + b + i * ((ht * ht + 3 * hy * hy) // 4))
    result = red(a + k)
    assert exps == 9
    assert red(result - x_plus_1 * quotient).is_zero
    m_required = poly(3 * (X**3 - X**2 + 1))
    assert not red(result - m_required * quotient).is_zero
    ratio = (m_required * sympy.invert(x_plus_1, R)).rem(R)
    assert ratio.degree() == 5
    bw6 = model("bw6-761")
    fe = bw6.final_exp
    assert fe.form.startswith("the curve file's hard_part program")
    # the same 9 exponentiations, each a Karabina power by x - 1, x + 1 or (x - 1)/3
    assert fe.exp_by_x_count == 0 and fe.karabina_count == 9
    assert [e for e, _ in fe.karabina_powers] == sorted([(bw6.x - 1) // 3, bw6.x - 1, bw6.x + 1])
    assert [c.exponent for c in fe.small_power_chains] == [3, 11, 103]
