"""The BLS24 family in generator/derive (k = 24): family values, tower, twist, generators, Miller
loop, psi, the final exponentiation's hard part, GLV on G1 and GLS on G2, on BLS24-315 and BLS24-317.

The curve files are curves/bls24-315.toml and curves/bls24-317.toml. Published values are gnark-crypto's (ecc/bls24-315, ecc/bls24-317).
Each derivation is run once per session (about 10 s per curve; the final exponentiation's
factorizations come from generator/derive/poly_factor_cache/).
"""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest
from bls24_util import CURVE_DIR, NAMES, core_of, endo_of, spec_of

from generator.derive.algebra import Curve, Fq
from generator.derive.checks import DerivationError
from generator.derive.endomorphisms import (
    check_split,
    derive_decomposition,
    derive_scalar_splits,
    euler_phi,
    poly_value,
    swap_phi,
)
from generator.derive.families import derive_family
from generator.derive.gt_program import MulGT, track_exponent
from generator.derive.miller_loop import apply_psi
from generator.derive.model import build_model, derive_core
from generator.derive.tower import derive_tower
from generator.derive.twist import derive_generator, derive_twist, trace_over_extension
from generator.params import CurveFileError, CurveSpec, parse_curve_text
from generator.pipeline import render_package
from generator.reference import ReferencePairing


@pytest.mark.parametrize("name", NAMES)
def test_family_values(name: str) -> None:
    core, spec = core_of(name), spec_of(name)
    fam = core.family
    assert fam.k == 24 and fam.t == spec.x + 1
    assert fam.p == spec.published["p"] and fam.r == spec.published["r"]
    assert fam.r == spec.x**8 - spec.x**4 + 1
    assert (fam.p + 1 - fam.t) == fam.h1 * fam.r
    assert fam.p.bit_length() == int(name[-3:]) and fam.p % 3 == 1


def test_tower_non_residues_are_gnarks() -> None:
    t315, t317 = core_of("bls24-315").tower, core_of("bls24-317").tower
    # BLS24-315: u^2 = 13 (given), v^2 = u, xi = v (derived); BLS24-317: u^2 = -1, v^2 = 1 + u, xi = v.
    assert (t315.beta, t315.nu, t315.xi) == (13, (0, 1), (0, 0, 1, 0))
    assert (t317.beta, t317.nu, t317.xi) == (-1, (1, 1), (0, 0, 1, 0))
    assert t315.names == {"fq": "fp4", "fq3": "fp12", "fq6": "fp24"}


@pytest.mark.parametrize("name", NAMES)
def test_frobenius_coefficients_against_the_reference(name: str) -> None:
    """gamma[n][i] = xi^(i (p^n - 1)/6) and nu_gamma[n] = nu^((p^n - 1)/2), checked in the
    reference's own Fp24: W^(p^n) = gamma[n][1] W and v^(p^n) = nu_gamma[n] v."""
    core = core_of(name)
    tower, fam = core.tower, core.family
    R = ReferencePairing("BLS24", spec_of(name).x, fam.p, fam.r, core.b,
                         core.twist.kind, tower.beta, (tower.xi[:2], tower.xi[2:]), tower.nu)
    assert len(tower.gamma) == 12 and len(tower.nu_gamma) == 4
    to_fp4 = lambda e: R.Fp4([e[:2], e[2:]])  # noqa: E731
    for n, row in enumerate(tower.gamma):
        assert R.w.frobenius(n) == R.w * to_fp4(row[1])
        for i in range(6):
            assert to_fp4(row[i]) == to_fp4(row[1]) ** i
    v = R.Fp4.gen()
    for n, g in enumerate(tower.nu_gamma):
        assert v.frobenius(n) == v * R.Fp2(g)


def test_twist_types_are_gnarks() -> None:
    t315, t317 = core_of("bls24-315").twist, core_of("bls24-317").twist
    F = t315.curve.F
    assert t315.kind == "D" and t315.b == F.inv(F.elem(0, 0, 1, 0))          # y^2 = x^3 + 1/v
    assert t317.kind == "M" and t317.b == (0, 0, 4, 0)                       # y^2 = x^3 + 4v


@pytest.mark.parametrize("name", NAMES)
def test_twist_order(name: str) -> None:
    core = core_of(name)
    fam, tw = core.family, core.twist
    q = fam.p**4
    assert tw.order % fam.r == 0 and tw.order == tw.cofactor * fam.r
    assert tw.order != q + 1 - trace_over_extension(fam.t, fam.p, 4)      # not E(Fp4) itself
    assert trace_over_extension(fam.t, fam.p, 2) == fam.t**2 - 2 * fam.p


@pytest.mark.parametrize("name", NAMES)
def test_derived_generators_are_the_published_ones(name: str) -> None:
    """Without g1/g2 in the file the generator derives gnark's points: [h1](1, y), [h2](x0, y)."""
    core, spec = core_of(name), spec_of(name)
    G1 = derive_generator(core.E1, core.family.h1, core.family.r, None, name, "G1")
    G2 = derive_generator(core.twist.curve, core.twist.cofactor, core.family.r, None, name, "G2")
    assert G1 == ((spec.g1[0],), (spec.g1[1],)) == core.g1
    assert G2 == spec.g2 == core.g2


@pytest.mark.parametrize("name", NAMES)
def test_miller_loop_and_psi(name: str) -> None:
    core, spec = core_of(name), spec_of(name)
    ml, fam = core.miller, core.family
    assert ml.negative == (spec.x < 0) and len(ml.terms) == 1
    value = 0
    for d in ml.terms[0].digits:
        value = 2 * value + d
    assert value == abs(spec.x)
    E2 = core.twist.curve
    assert len(ml.psi) == 8
    for n in range(8):      # psi^n acts on G2 as [p^n mod r]; p has order 24 mod r, psi^8 is not [1]
        assert apply_psi(E2, ml.psi, core.g2, n) == E2.mul(core.g2, pow(fam.p, n, fam.r))
    assert pow(fam.p, 8, fam.r) != 1 and pow(fam.p, 12, fam.r) == fam.r - 1


@pytest.mark.parametrize("name", NAMES)
def test_final_exponentiation_hard_part(name: str) -> None:
    """m = 3 and 3 + (x - 1)^2 (x + p) (x^2 + p^2) (x^4 + p^4 - 1) = 3 Phi_24(p)/r (9 exponentiations
    by x, or by |x - 1| where that has fewer signed digits: BLS24-315's x - 1 = -0xbfd00000 has 4
    against x's 5, and each factor x - 1 is then one Karabina power, conjugated); the program is
    proved again by exponent tracking, and a changed program is refused."""
    core, spec = core_of(name), spec_of(name)
    fe, fam = core.final_exp, core.family
    x, p, r = spec.x, fam.p, fam.r
    phi = p**8 - p**4 + 1
    assert fe.m == 3 and fe.exp_by_x_count + fe.karabina_count == 9
    if name == "bls24-315":
        assert fe.karabina_powers == ((abs(x - 1), ((20, 1), (22, -1), (30, -1), (32, 1))),)
        assert fe.karabina_count == 2
    assert 3 + (x - 1) ** 2 * (x + p) * (x**2 + p**2) * (x**4 + p**4 - 1) == 3 * (phi // r)
    assert fe.form.startswith("3 + (-1 + x) (-1 + x) (x + p) (x^2 + p^2) (-1 + x^4 + p^4)")
    assert track_exponent(fe.ops, fe.nregs, fe.result, x, p, phi) == 3 * (phi // r) % phi
    k = next(i for i, op in enumerate(fe.ops) if isinstance(op, MulGT))
    changed = fe.ops[:k] + (replace(fe.ops[k], b=fe.ops[k].a),) + fe.ops[k + 1:]
    assert track_exponent(changed, fe.nregs, fe.result, x, p, phi) != 3 * (phi // r) % phi


def test_k24_package_renders_with_the_byte_level_programs() -> None:
    """build_model gives k = 24 a full model and its package renders (built and run in
    tests/pairings/test_bls24_package.py), the known-answer program and the WebAssembly ABI with G2
    coordinates as four Fp (run in tests/targets/test_cross.py and tests/wasm/test_wasm*.py), and the protocols
    (tests/protocols/test_bls24_protocols.py runs them); one its definition excludes is refused."""
    model = build_model(spec_of("bls24-317"))
    assert (model.k, model.fq_degree) == (24, 4)
    files = render_package(model)
    for path in ("c/kat_main.c", "c/wasm_abi.c"):
        assert "#error" not in files[path] and "&out->c1.c1" in files[path]
    assert "throw new Error(" not in files["wasm/bls24_317.mjs"]
    assert "fp4_sqrt(y, &a)" in files["c/hash_to_curve.h"] and "Fp4" in files["__init__.py"]
    with pytest.raises(CurveFileError, match="cannot carry 'eip2537'.*BLS12 family"):
        render_package(replace(model, spec=replace(model.spec, protocols=("eip2537",))))


# ------------------------------------------------------------------------------------------------
# Each derivation fails when a constant is altered


def _altered(name: str, old: str, new: str) -> CurveSpec:
    text = (CURVE_DIR / f"{name}.toml").read_text()
    assert old in text
    return parse_curve_text(text.replace(old, new, 1), f"altered {name}")


def test_altered_published_p_fails() -> None:
    spec = _altered("bls24-315", 'p = "0x4c23', 'p = "0x4c24')
    with pytest.raises(DerivationError, match="published p"):
        derive_core(spec)


def test_altered_seed_fails() -> None:
    with pytest.raises(DerivationError, match="x = 1 mod 3"):
        derive_family("BLS24", 0xD9018001, "altered")


def test_altered_b_fails() -> None:
    spec = _altered("bls24-317", 'x = "0xd9018000"', 'x = "0xd9018000"\nb = 5')
    with pytest.raises(DerivationError, match="random points of y\\^2 = x\\^3 \\+ 5"):
        derive_core(spec)


@pytest.mark.parametrize("beta, nu, xi, fragment", [
    (4, None, None, "beta = 4 is a non-square"),
    (13, (4, 0), None, r"nu = .* non-square in Fp2"),          # 4 is a square in Fp
    (13, (0, 1), (1, 0, 0, 0), "non-square in Fq"),
    (13, (0, 1), (0, 1, 0, 0), "non-square in Fq"),        # u = v^2 is a square in Fp4
])
def test_altered_tower_fails(beta: int, nu: tuple | None, xi: tuple | None, fragment: str) -> None:
    p = core_of("bls24-315").family.p
    with pytest.raises(DerivationError, match=fragment):
        derive_tower(24, p, "altered", beta, xi, None, nu)


def test_altered_twist_fails() -> None:
    """With b' of the other twist type (b = 1 on BLS24-317 instead of 4) no twist order divides."""
    core = core_of("bls24-317")
    fam = core.family
    with pytest.raises(DerivationError, match="no twist type"):
        derive_twist(core.tower, fam.p, fam.t, fam.r, 3, "altered")


@pytest.mark.parametrize("group", ["g1", "g2"])
def test_altered_generator_fails(group: str) -> None:
    core = core_of("bls24-315")
    fam = core.family
    if group == "g1":
        G = core.g1
        E, h = core.E1, fam.h1
        y = ((G[1][0] + 1) % fam.p,)
    else:
        G = core.g2
        E, h = core.twist.curve, core.twist.cofactor
        y = ((G[1][0] + 1) % fam.p,) + G[1][1:]
    with pytest.raises(DerivationError, match="generator is on the curve"):
        derive_generator(E, h, fam.r, (G[0], y), "altered", group.upper())
    # a point on the curve outside G (not multiplied by the cofactor) fails the order check
    P = E.lift_x(E.F.elem(1) if E.F.degree == 1 else E.F.elem(5))
    assert P is not None
    with pytest.raises(DerivationError, match="has order r"):
        derive_generator(E, h, fam.r, P, "altered", group.upper())


def test_altered_psi_coefficient_fails() -> None:
    core = core_of("bls24-317")
    psi = list(core.miller.psi)
    F = core.twist.curve.F
    psi[1] = (F.mul(psi[1][0], F.elem(2)), psi[1][1])
    E2, fam = core.twist.curve, core.family
    assert apply_psi(E2, tuple(psi), core.g2, 1) != E2.mul(core.g2, fam.p % fam.r)


def test_curve_file_keys_for_bls24() -> None:
    with pytest.raises(CurveFileError, match="key 'nu'"):
        parse_curve_text('name = "A"\nfamily = "BLS12"\nx = 1\nnu = [0, 1]\n', "bad.toml")
    with pytest.raises(CurveFileError, match="key 'xi'"):
        parse_curve_text('name = "A"\nfamily = "BLS24"\nx = 1\nxi = [0, 1]\n', "bad.toml")
    spec = parse_curve_text('name = "A"\nfamily = "BLS24"\nx = 1\nnu = [1, 1]\nxi = [0, 0, 1, 0]\n', "ok.toml")
    assert spec.nu == (1, 1) and spec.xi == (0, 0, 1, 0)


def test_fp4_arithmetic_identities() -> None:
    import random
    p = core_of("bls24-317").family.p
    F = Fq(p, 4, p - 1, (1, 1))
    rng = random.Random(4)
    for _ in range(10):
        a, b = F.random(rng), F.random(rng)
        assert F.mul(a, F.inv(a)) == F.one
        assert F.frobenius(a, 1) == F.pow(a, p)
        assert F.frobenius(F.mul(a, b), 2) == F.mul(F.frobenius(a, 2), F.frobenius(b, 2))
        s = F.mul(a, a)
        root = F.sqrt(s)
        assert root is not None and F.mul(root, root) == s
    assert Curve(F, (0, 0, 4, 0)).on_curve(core_of("bls24-317").g2)


# ------------------------------------------------------------------------------------------------
# GLV on G1 and GLS on G2 (psi, 8 dimensions)

# gnark-crypto's thirdRootOneG1 and lambdaGLV (ecc/bls24-315/bls24-315.go, ecc/bls24-317/bls24-317.go)
GNARK_GLV = {
    "bls24-315": (39705142672498995661671850106945620852186608752525090699191017895721506694646055668218723303426,
                  11502027791375260645628074404575422496066855707288983427913398978447461580801),
    "bls24-317": (112388585831426139305998878408983604164339968939599860577886592073045019257058155724801,
                  30869589236456844204538189757527902584770424025911415822847175497150445387776),
}


@functools.lru_cache(maxsize=None)
def splits_of(name: str) -> tuple:
    core = core_of(name)
    fam = core.family
    return derive_scalar_splits(24, fam.p, fam.r, fam.t, core.E1, core.g1, core.twist.curve, core.g2,
                                core.miller.psi, name)


@pytest.mark.parametrize("name", NAMES)
def test_glv_and_gls(name: str) -> None:
    core = core_of(name)
    fam = core.family
    g1, g2 = splits_of(name)
    assert g1.decomposition.dim == 2 and g2.decomposition.dim == 8 == euler_phi(24)
    assert g2.lam == fam.p % fam.r
    assert g1.decomposition.bits <= fam.r.bit_length() // 2 + 4
    assert g2.decomposition.bits <= fam.r.bit_length() // 8 + 4        # 31 bits: |x| is 32 bits
    for row in g2.decomposition.basis:
        assert sum(b * pow(g2.lam, i, fam.r) for i, b in enumerate(row)) % fam.r == 0
    # gnark's (thirdRootOneG1, lambdaGLV) describe the same endomorphism ring: phi with gnark's
    # root (or its square) acts on our generator as [lambdaGLV]
    zeta, lam = GNARK_GLV[name]
    x, y = core.g1[0][0], core.g1[1][0]
    target = core.E1.mul(core.g1, lam)
    assert target in (((zeta * x % fam.p,), (y,)), ((zeta * zeta * x % fam.p,), (y,)))
    assert g1.zeta[0] in (zeta, zeta * zeta % fam.p)


def test_altered_glv_eigenvalue_fails() -> None:
    core = core_of("bls24-317")
    fam = core.family
    g1, g2 = splits_of("bls24-317")
    F = core.E1.F
    endo1 = lambda P, i: P if i == 0 or P is None else (F.mul(F.pow(g1.zeta, i), P[0]), P[1])  # noqa: E731
    check_split(core.E1, core.g1, endo1, g1.decomposition, fam.r, "bls24-317", "G1")   # the derived one holds
    wrong = derive_decomposition((g1.lam * g1.lam) % fam.r, fam.r, 2, "altered", "G1")  # the other root
    with pytest.raises(DerivationError, match="sum \\[k_i\\] e\\^i"):
        check_split(core.E1, core.g1, endo1, wrong, fam.r, "altered", "G1")
    wrong2 = derive_decomposition((fam.p + 1) % fam.r, fam.r, 8, "altered", "G2")
    endo2 = lambda P, i: apply_psi(core.twist.curve, core.miller.psi, P, i)  # noqa: E731
    with pytest.raises(DerivationError, match="sum \\[k_i\\] e\\^i"):
        check_split(core.twist.curve, core.g2, endo2, wrong2, fam.r, "altered", "G2")


# ------------------------------------------------------------------------------------------------
# Subgroup tests and cofactor clearing (derive_endomorphisms, where the existing formulas generalize)


@pytest.mark.parametrize("name", NAMES)
def test_subgroup_tests_and_cofactor_clearing(name: str) -> None:
    endo, core, x = endo_of(name), core_of(name), spec_of(name).x
    fam = core.family
    assert endo.g1.clear == ((1, -1),) and endo.g1.h_eff == 1 - x          # [1 - x], checked on random points
    assert endo.g1.test is not None and "proven" in endo.g1.test_note      # phi(P) == [x^4 - 1] P (or phi^2)
    assert endo.g2.test == ((0, -1), (1,)) and "proven" in endo.g2.test_note  # psi(P) == [x] P
    # G2: Budroni–Pintore for k = 24 (tests/derive/test_psi_clearing.py), equal to [3 (x^4 - 1) h2]
    assert endo.g2.clear == ((-1, 0, 0, -1, 1), (0, 0, -1, 1), (0, -1, 1), (-1, 1), (2,))
    assert endo.g2.h_eff == 3 * (x**4 - 1) * core.twist.cofactor
    assert endo.gt.coeffs == ((0, -1), (1,)) and endo.gt_glv.dim == 8
    # the G2 test rejects a point of the twist outside G2 and accepts the generator
    E2 = core.twist.curve
    outside = next(P for P in (E2.lift_x(E2.F.elem(i)) for i in range(1, 50)) if P is not None)
    assert E2.mul(outside, fam.r) is not None
    psi_x = lambda P: E2.add(apply_psi(E2, core.miller.psi, P, 1), E2.neg(E2.mul(P, x)))  # noqa: E731
    assert psi_x(core.g2) is None and psi_x(outside) is not None


def test_altered_g1_subgroup_formula_is_refused() -> None:
    """phi(P) == [x^4 + 1] P: lam is not a root of it mod r, so it does not hold on G1."""
    core, x = core_of("bls24-315"), spec_of("bls24-315").x
    endo = endo_of("bls24-315")
    lam = endo.g1.lam
    formula = ((1, 0, 0, 0, -1), (1,))
    assert any(poly_value(f, x, lam) % core.family.r == 0 for f in (formula, swap_phi(formula)))
    assert poly_value(((-1, 0, 0, 0, -1), (1,)), x, lam) % core.family.r != 0
    assert poly_value(swap_phi(((-1, 0, 0, 0, -1), (1,))), x, lam) % core.family.r != 0
