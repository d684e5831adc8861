"""The BLS48 family (k = 48) in generator/derive and in the reference oracle, on BLS48-581 of the IRTF
pairing-friendly-curves draft: family values and cofactor polynomials, the tower Fp2 -> Fp4 -> Fp8 ->
Fp24 -> Fp48 with the draft's non-residues, the D-type sextic twist over Fp8, the draft's generators,
its point encodings and its pairing value; the derived Miller loop, final exponentiation,
endomorphisms (cofactor clearing, subgroup tests, GLV/GLS) and serialization; and the package
generated/bls48_581 (tower Fp8 = Fp4[w]/(w^2 - omega) in C), whose pairing is the draft's value.

The curve file is curves/bls48-581.toml; the draft's numbers are in tests/vectors/bls48_581_irtf/.
The package is opt-in (install = "opt-in"): the tests of the compiled package run where
PAIRFORGE_CURVES names bls48_581 (CI's opt-in stage), as every other per-curve test of it does. One reference pairing at k = 48 takes about 15 s here
(a Miller loop in Fp48, the easy part, the BLS hard part and a power 3^-1 mod r), so the pairings
are cached per session and the tests that need one are marked slow.

The derived pairing core (generator.derive.model.derive_core: the optimal ate loop on |x|, psi over
Fp8, the easy part and the hard-part program proved by exponent tracking) is run here on numbers,
its program step by step in the reference's Fp48 (``model_pairing``), against the reference pairing
and the draft's printed value; the core takes about 25 s (the degree-272 factorizations of the
hard-part search come from generator/derive/poly_factor_cache/), so those tests are slow too.

Basis map for the draft's pairing value: the draft writes Fp48 = Fp24[s]/(s^2 + z), Fp24 =
Fp8[z]/(z^3 + w); the reference writes Fp48 = Fp8[W]/(W^6 - xi) with xi = -w and W = u s (the
draft's untwisting element), so z = W^2 and s = -u W, and the draft's coefficient E_(j,k) of z^k s^j
(e_(24 j + 8 k) .. e_(24 j + 8 k + 7), an Fp8 element in the order c0 + c1 u + c2 v + c3 u v + c4 w
+ ...) is the reference's coefficient of W^(2 k + j) after multiplication by (-u)^j.
"""

from __future__ import annotations

import functools
import random
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_ROOT, load_curve_module, packages_of_curve_file
from vectors_util import load_json

from generator.derive.algebra import Curve, Elem, Fq, Point, lex_largest
from generator.derive.checks import DerivationError
from generator.derive.endomorphisms import CLEAR, EndomorphismModel, Evaluator, derive_endomorphisms
from generator.derive.families import _eval, derive_family
from generator.derive.fields import derive_field
from generator.derive.final_exponentiation import derive_easy_part, derive_final_exponentiation
from generator.derive.gt_program import Conj, ExpByX, Frob, MulGT, PowKarabina, PowSmall, track_exponent
from generator.derive.lazy_reduction import derive_lazy_reduction
from generator.derive.miller_loop import apply_psi, derive_miller_loop
from generator.derive.model import PairingCore, derive_core, fp4_shift_xi, xi_small_factors
from generator.derive.psi_clearing import find_psi_clearing, psi_formula_equals, psi_formula_scalar
from generator.derive.serialization import INF, LARGE, SMALL, derive_serialization
from generator.derive.tower import TowerModel, derive_tower
from generator.derive.twist import TwistModel, check_b, derive_generator, derive_twist
from generator.params import CurveSpec, load_curve_file, parse_curve_text
from generator.reference import ReferencePairing

CURVE_FILE = REPO_ROOT / "curves" / "bls48-581.toml"
VECTORS = ("bls48_581_irtf", "bls48_581.json")


def vectors() -> Any:
    return load_json(*VECTORS)


def ints(values: list[str]) -> list[int]:
    return [int(v, 16) for v in values]


@functools.lru_cache(maxsize=None)
def spec() -> CurveSpec:
    loaded = load_curve_file(CURVE_FILE)
    assert isinstance(loaded, CurveSpec)
    return loaded


@functools.lru_cache(maxsize=None)
def tower() -> TowerModel:
    s, fam = spec(), derive_family("BLS48", spec().x, "BLS48-581")
    return derive_tower(48, fam.p, "BLS48-581", s.beta, s.xi, s.alpha, s.nu, s.omega)


@functools.lru_cache(maxsize=None)
def twist() -> TwistModel:
    fam = derive_family("BLS48", spec().x, "BLS48-581")
    return derive_twist(tower(), fam.p, fam.t, fam.r, 1, "BLS48-581")


def fp8_nested(c: list[int] | tuple[int, ...]) -> tuple:
    """Eight Fp coefficients (c0 + c1 u + c2 v + ... + c7 u v w) as the reference's nested Fp8 tuple."""
    return (((c[0], c[1]), (c[2], c[3])), ((c[4], c[5]), (c[6], c[7])))


@functools.lru_cache(maxsize=None)
def reference() -> ReferencePairing:
    s, fam = spec(), derive_family("BLS48", spec().x, "BLS48-581")
    assert s.xi is not None and s.nu is not None and s.omega is not None and s.beta is not None
    return ReferencePairing("BLS48", s.x, fam.p, fam.r, 1, "D", s.beta, fp8_nested(s.xi), nu=s.nu,
                            omega=(s.omega[:2], s.omega[2:]))


def points() -> tuple[tuple[int, int], tuple]:
    v = vectors()
    P = (int(v["P"]["x"], 16), int(v["P"]["y"], 16))
    Q = (fp8_nested(ints(v["Q"]["x"])), fp8_nested(ints(v["Q"]["y"])))
    return P, Q


@functools.lru_cache(maxsize=None)
def base_pairing() -> Any:
    P, Q = points()
    return reference().pairing(P, Q)


def from_draft_basis(R: ReferencePairing, e: list[int]) -> Any:
    """The draft's e_0 .. e_47 as an element of the reference's Fp48 (module docstring)."""
    u = R.Fq(fp8_nested([0, 1, 0, 0, 0, 0, 0, 0]))
    coeffs: list[Any] = [None] * 6
    for j in range(2):
        for k in range(3):
            E = R.Fq(fp8_nested(e[24 * j + 8 * k: 24 * j + 8 * k + 8]))
            coeffs[2 * k + j] = E * (-u) ** j
    return R.Fk(coeffs)


# ------------------------------------------------------------------------------------------------
# The family, the tower and the twist (derive)


def test_family_values_are_the_drafts() -> None:
    s = spec()
    fam = derive_family("BLS48", s.x, "BLS48-581")
    x, p, r = s.x, fam.p, fam.r
    assert s.x == -1 + 2**7 - 2**10 - 2**30 - 2**32
    assert (fam.k, fam.t) == (48, x + 1)
    assert (p, r) == (s.published["p"], s.published["r"])
    assert r == x**16 - x**8 + 1 and 3 * (p - x) == (x - 1) ** 2 * r
    assert (p.bit_length(), r.bit_length()) == (581, 518)
    assert pow(p, 48, r) == 1 and pow(p, 24, r) == r - 1 and pow(p, 16, r) != 1
    assert fam.h1 == _eval(fam.h1_poly, x) == int(vectors()["h"], 16)
    assert fam.h1 * r == p + 1 - fam.t


@pytest.mark.slow  # derives curve models of its own (5 to 16 s each)
def test_h2_polynomial_is_the_twist_order_and_the_drafts() -> None:
    """h2(x), derived from the family polynomials alone, equals #E'(Fp8)/r found on points of the
    twist (twist.py) and the draft's h'."""
    fam = derive_family("BLS48", spec().x, "BLS48-581")
    h2 = _eval(fam.h2_poly, spec().x)
    assert h2 == int(vectors()["h_prime"], 16)
    assert twist().cofactor == h2 and twist().order == h2 * fam.r


@pytest.mark.parametrize("x, fragment", [
    (-1 + 2**7 - 2**10 - 2**30 - 2**32 + 1, "x = 1 mod 3"),
    (-1 + 2**7 - 2**10 - 2**30 - 2**32 + 3, "is prime"),
])
def test_altered_seed_fails(x: int, fragment: str) -> None:
    with pytest.raises(DerivationError, match=fragment):
        derive_family("BLS48", x, "altered")


def test_altered_published_p_or_generator_fails() -> None:
    text = CURVE_FILE.read_text()
    altered = parse_curve_text(text.replace('p = "0x1280f', 'p = "0x1281f', 1), "altered")
    fam = derive_family("BLS48", altered.x, "altered")
    assert altered.published["p"] != fam.p
    E1 = Curve(Fq(fam.p, 1), (1,))
    g1 = spec().g1
    assert g1 is not None
    with pytest.raises(DerivationError, match="on the curve"):
        derive_generator(E1, fam.h1, fam.r, ((g1[0],), (g1[1] + 1,)), "altered", "G1")
    with pytest.raises(DerivationError, match="random points of y\\^2 = x\\^3 \\+ 2"):
        check_b(fam.p, 2, fam.p + 1 - fam.t, "altered")


def test_install_and_security_keys() -> None:
    """The curve file makes an opt-in package hashed at the 256-bit level; other values are refused."""
    from generator.params import CurveFileError

    text = CURVE_FILE.read_text()
    assert (spec().install, spec().security_bits) == ("opt-in", 256)
    for old, new, fragment in (('install = "opt-in"', 'install = "sometimes"', "key 'install' must be one of"),
                               ("security_bits = 256", "security_bits = 192", "key 'security_bits' must be one of")):
        assert old in text
        with pytest.raises(CurveFileError, match=fragment):
            parse_curve_text(text.replace(old, new, 1), "altered")


@pytest.mark.parametrize("security_bits, hash_name, L", [(128, "sha256", 89), (256, "sha512", 105)])
def test_derived_suite_follows_the_security_level(security_bits: int, hash_name: str, L: int) -> None:
    """RFC 9380's k sets the derived suite's hash (b >= 2k) and L = ceil((581 + k) / 8); a recorded
    SHA-256 suite at k = 256 is refused."""
    from generator.derive.hash_to_curve import derive_hash_to_curve
    from generator.params_pairing import HashToCurveSpec

    fam = derive_family("BLS48", spec().x, "BLS48-581")
    E1 = Curve(Fq(fam.p, 1), (1,))
    h = derive_hash_to_curve("g1", "BLS48-581", E1, fam.p + 1 - fam.t, fam.h1, fam.r, None, "BLS48-581",
                             endo_h_eff=1 - spec().x, security_bits=security_bits)
    assert (h.hash, h.L, h.suite_ro) == (hash_name, L, f"BLS48581G1_XMD:SHA-{hash_name[3:]}_SVDW_RO_")
    recorded = HashToCurveSpec(suite="BLS48581G1_XMD:SHA-256_SVDW_RO_")
    with pytest.raises(DerivationError, match="below 2k = 512"):
        derive_hash_to_curve("g1", "BLS48-581", E1, fam.p + 1 - fam.t, fam.h1, fam.r, recorded, "BLS48-581",
                             endo_h_eff=1 - spec().x, security_bits=256)


def test_tower_is_the_drafts() -> None:
    """u^2 = -1, v^2 = -(1 + u), w^2 = -v, z^3 = -w: each a non-residue of its level (checked by
    derive_tower); the generator's own search takes their negatives."""
    T = tower()
    p = T.fq.p
    assert (T.k, T.beta, T.nu, T.omega, T.xi) == (48, -1, (p - 1, p - 1), (0, 0, p - 1, 0), (0, 0, 0, 0, p - 1, 0, 0, 0))
    assert T.names == {"fq": "fp8", "fq3": "fp24", "fq6": "fp48"}
    assert len(T.gamma) == 24 and len(T.nu_gamma) == 8 and len(T.omega_gamma) == 8
    searched = derive_tower(48, p, "searched", None, None, None)
    assert (searched.nu, searched.omega, searched.xi) == ((1, 1), (0, 0, 1, 0), (0, 0, 0, 0, 1, 0, 0, 0))


def test_lazy_tower_where_every_non_residue_is_a_shift() -> None:
    """tower.h's double-width levels (the Fp8 one in templates/c/tower/_octic_wide.j2) are taken at
    k = 48 where every product by a non-residue is a shift over a small nu: the draft's omega = -v and
    xi = -w, the searched tower's +v and +w; not where omega or xi is another element (the flags
    derive_lazy_reduction takes then leave the tower's values reduced per product)."""
    T = tower()
    p = T.fq.p
    searched = derive_tower(48, p, "searched", None, None, None)
    assert fp4_shift_xi(p, 48, T) and fp4_shift_xi(p, 48, searched)
    for altered in (replace(T, xi=(0, 0, 0, 0, 2, 0, 0, 0)), replace(T, xi=(1, 0, 0, 0, p - 1, 0, 0, 0)),
                    replace(T, omega=(0, 0, 2, 0)), replace(T, omega=(1, 0, 1, 0)), replace(T, nu=(p - 100, p - 1))):
        assert not fp4_shift_xi(p, 48, altered), altered
    limbs64 = (p.bit_length() + 63) // 64
    lazy = derive_lazy_reduction(p, limbs64, 48, T.beta, "test", xi_small_factors(p, 48, T), True)
    assert lazy.tower and lazy.fp2_mul and lazy.beta_k == 1 and lazy.wide_small == ()
    assert not derive_lazy_reduction(p, limbs64, 48, T.beta, "test", xi_small_factors(p, 48, T), False).tower


@pytest.mark.parametrize("nu, omega, xi, fragment", [
    ((1, 0), (0, 0, -1, 0), (0, 0, 0, 0, -1, 0, 0, 0), r"nu = .* non-square in Fp2"),
    ((-1, -1), (1, 0, 0, 0), (0, 0, 0, 0, -1, 0, 0, 0), r"omega = .* non-square in Fp4"),
    ((-1, -1), (0, 0, -1, 0), (4, 0, 0, 0, 0, 0, 0, 0), r"xi = .* non-square in Fp8"),
    ((-1, -1), (0, 0, -1, 0), (0, 0, 0, 0, 0, 0, 0, 0), r"xi = .* non-square in Fp8"),
])
def test_altered_tower_fails(nu: tuple[int, ...], omega: tuple[int, ...], xi: tuple[int, ...], fragment: str) -> None:
    p = derive_family("BLS48", spec().x, "BLS48-581").p
    with pytest.raises(DerivationError, match=fragment):
        derive_tower(48, p, "altered", -1, xi, None, nu, omega)


def test_xi_that_is_a_cube_fails() -> None:
    """xi = w^3 is a non-square (w is one: its norm to Fp4 is v) but a cube, so z^3 - xi splits."""
    p = derive_family("BLS48", spec().x, "BLS48-581").p
    F = tower().fq
    c = F.elem(0, 0, 0, 0, 1)                  # w, a non-square in Fp8
    cube = F.mul(F.mul(c, c), c)               # w^3: a non-square (odd power) and a cube
    assert not F.is_square(cube)
    with pytest.raises(DerivationError, match=r"non-cube in Fp8"):
        derive_tower(48, p, "altered", -1, cube, None, (-1, -1), (0, 0, -1, 0))


def test_frobenius_coefficients_against_the_reference() -> None:
    """gamma[n][1] = W^(p^n - 1), nu_gamma and omega_gamma checked in the reference's own Fp48."""
    T, R = tower(), reference()
    assert R.Fp4 is not None and R.Fp8 is not None and R.Fp2 is not None
    for n in (1, 2, 3, 4, 8, 12, 23):
        assert R.w.frobenius(n) == R.w * R.Fq(fp8_nested(T.gamma[n][1]))
        for i in range(6):
            assert T.gamma[n][i] == T.fq.pow(T.gamma[n][1], i)
    v, w = R.Fp4.gen(), R.Fp8.gen()
    for n in range(8):
        assert v.frobenius(n) == v * R.Fp2(T.nu_gamma[n])
        assert w.frobenius(n) == w * R.Fp4([T.omega_gamma[n][:2], T.omega_gamma[n][2:]])


@pytest.mark.slow  # derives curve models of its own (5 to 16 s each)
def test_twist_is_the_drafts_d_type() -> None:
    """E': y^2 = x^3 - 1/w over Fp8, the D-type twist (b' = b / xi, xi = -w), and its order is the
    one r divides; the draft's BP' lies on it with order r."""
    tw, F = twist(), tower().fq
    assert tw.kind == "D" and tw.b == F.neg(F.inv(F.elem(0, 0, 0, 0, 1)))
    P, Q = points()
    fam = derive_family("BLS48", spec().x, "BLS48-581")
    g2 = spec().g2
    assert g2 is not None
    G2 = derive_generator(tw.curve, tw.cofactor, fam.r, g2, "BLS48-581", "G2")
    assert G2 == (tuple(ints(vectors()["Q"]["x"])), tuple(ints(vectors()["Q"]["y"])))


# ------------------------------------------------------------------------------------------------
# The draft's generators, encodings and pairing (reference)


def test_generators_lie_on_the_curves_with_order_r() -> None:
    R = reference()
    P, Q = points()
    assert R.E1.on_curve(P) and R.E2.on_curve(Q)
    assert R.E1.mul(P, R.r) is None and R.E1.mul(P, R.r - 1) is not None
    assert R.E2.mul(Q, R.r) is None and R.E2.mul(Q, R.r - 1) is not None
    assert R.E2.b == R.Fq(-1) / R.Fq(fp8_nested([0, 0, 0, 0, 1, 0, 0, 0]))     # b' = -1/w


def _compressed(p: int, x: list[int], y: list[int]) -> bytes:
    """The draft's compressed encoding: the coefficients of x from the highest down, each in
    ceil(bits(p)/8) bytes big-endian, with C (0x80) and S (0x20, y's highest non-zero coefficient
    above (p - 1)/2) in the first byte."""
    size = (p.bit_length() + 7) // 8
    out = bytearray(b"".join(c.to_bytes(size, "big") for c in reversed(x)))
    out[0] |= 0x80 | (0x20 if lex_largest(Fq(p, len(y)), tuple(y)) else 0)
    return bytes(out)


def test_derived_serialization_gives_the_drafts_encodings() -> None:
    """The default profile derived from Fp and Fr (581 bits in 73 bytes: three spare bits, so the
    zcash flags fit in byte 0) writes the draft's compressed BP and BP' and its identities: G1 in
    73 bytes, G2 (eight Fp coefficients, the highest first) in 584."""
    fam = derive_family("BLS48", spec().x, "BLS48-581")
    ser = derive_serialization(derive_field("fp", fam.p, "BLS48-581"), derive_field("fr", fam.r, "BLS48-581"))
    prof = ser.default_profile
    assert prof.name == "zcash" and prof.usable and not prof.little and prof.high_first
    assert (prof.width, prof.pad, prof.flagged_width) == (73, 0, 73)
    v = vectors()

    def compressed(x: tuple[int, ...], y: tuple[int, ...]) -> bytes:
        coeffs = reversed(x) if prof.high_first else iter(x)
        out = bytearray(b"".join(c.to_bytes(prof.width, "big") for c in coeffs))
        sign = LARGE if lex_largest(Fq(fam.p, len(y)), y) else SMALL
        out[0] |= prof.code_for(sign, True) << prof.flag_shift
        return bytes(out)

    def identity(n: int) -> bytes:
        return bytes([prof.code_for(INF, True) << prof.flag_shift]) + bytes(n * prof.width - 1)

    P, Q = (int(v["P"]["x"], 16), int(v["P"]["y"], 16)), (tuple(ints(v["Q"]["x"])), tuple(ints(v["Q"]["y"])))
    g1, g2 = compressed((P[0],), (P[1],)), compressed(Q[0], Q[1])
    assert (len(g1), len(g2)) == (73, 584)
    assert (g1.hex(), g2.hex()) == (v["serialization"]["g1_compressed"], v["serialization"]["g2_compressed"])
    assert identity(1).hex() == v["serialization"]["g1_identity_compressed"]
    assert identity(8).hex() == v["serialization"]["g2_identity_compressed"]


def test_point_encodings_are_the_drafts() -> None:
    v, p = vectors(), reference().p
    P, _ = points()
    assert _compressed(p, [P[0]], [P[1]]).hex() == v["serialization"]["g1_compressed"]
    assert _compressed(p, ints(v["Q"]["x"]), ints(v["Q"]["y"])).hex() == v["serialization"]["g2_compressed"]
    size = (p.bit_length() + 7) // 8
    assert (len(bytes.fromhex(v["serialization"]["g1_identity_compressed"])),
            len(bytes.fromhex(v["serialization"]["g2_identity_compressed"]))) == (size, 8 * size) == (73, 584)


@pytest.mark.slow
def test_pairing_equals_the_drafts_value() -> None:
    """e(BP, BP') against both published versions of the draft's value, through the basis map of the
    module docstring: the current draft prints e^3 (its BLS hard part, multiple 3, is not undone) and
    draft -11 printed e^-1 (f_{|x|} for the negative seed x); e itself has order r and is not 1."""
    R, e = reference(), base_pairing()
    v = vectors()
    assert not e.is_one() and (e ** R.r).is_one()
    master = from_draft_basis(R, ints(v["pairing"]["master"]))
    draft_11 = from_draft_basis(R, ints(v["pairing"]["draft_11"]))
    assert master == e * e * e and master != e
    assert draft_11 * e == R.Fk.one() and draft_11 != e


@pytest.mark.slow
def test_pairing_is_bilinear() -> None:
    """e(aP, bQ) = e(P, Q)^(ab) for one small random pair (a, b)."""
    R, e = reference(), base_pairing()
    rng = random.Random(48)
    a, b = rng.randrange(2, 2**16), rng.randrange(2, 2**16)
    P, Q = points()
    assert R.pairing(R.E1.mul(P, a), R.E2.mul(Q, b)) == e ** (a * b)


# ------------------------------------------------------------------------------------------------
# The derived Miller loop and final exponentiation, run on numbers


@functools.lru_cache(maxsize=None)
def core() -> PairingCore:
    return derive_core(spec())


def _fk(R: ReferencePairing, coeffs: dict[int, Elem]) -> Any:
    """sum c_i W^i in the reference's Fp48 from flat Fp8 tuples (the derive side's elements)."""
    return R.Fk([R.Fq(fp8_nested(coeffs[i])) if i in coeffs else R.Fq(0) for i in range(6)])


def _line(E2: Curve, T: Point, S: Point, P: tuple[int, int], R: ReferencePairing) -> tuple[Any, Point]:
    """(l_{T,S}(P), T + S) for T, S on the D-type twist, the line in its sparse form
    y_P - lambda' x_P W + (lambda' x_T - y_T) W^3 (lambda' the slope on the twist; untwisting by
    (x W^2, y W^3) turns it into the line through the untwisted points, slope lambda' W)."""
    F = E2.F
    assert T is not None and S is not None
    if T == S:
        lam = F.mul(F.scale(F.mul(T[0], T[0]), 3), F.inv(F.scale(T[1], 2)))
    else:
        lam = F.mul(F.sub(S[1], T[1]), F.inv(F.sub(S[0], T[0])))
    line = {0: F.elem(P[1]), 1: F.neg(F.scale(lam, P[0])), 3: F.sub(F.mul(lam, T[0]), T[1])}
    return _fk(R, line), E2.add(T, S)


def model_miller_loop(c: PairingCore, P: tuple[int, int], Q: Point, R: ReferencePairing) -> Any:
    """The derived loop: one term, its digits most significant first; f conjugated (f^(p^24)) when
    the loop scalar is negative."""
    ml, E2 = c.miller, c.twist.curve
    assert not ml.frobenius_corrections and len(ml.terms) == 1 and ml.terms[0].zeta is None
    f, T = R.Fk.one(), Q
    for digit in ml.terms[0].digits[1:]:
        line, T = _line(E2, T, T, P, R)
        f = f.square() * line
        if digit:
            line, T = _line(E2, T, Q if digit == 1 else E2.neg(Q), P, R)
            f = f * line
    return f.frobenius(c.tower.k // 2) if ml.negative else f


def model_final_exponentiation(c: PairingCore, f: Any) -> Any:
    """The derived easy part, then the hard-part program op by op (conj = f^(p^(k/2)))."""
    fe, half = c.final_exp, c.tower.k // 2
    g = f.frobenius(half) / f
    g = g.frobenius(fe.easy_frobenius) * g
    regs: list[Any] = [None] * fe.nregs
    regs[0] = g
    x = spec().x
    for op in fe.ops:
        if isinstance(op, ExpByX):
            a = regs[op.src] ** abs(x)
            regs[op.dst] = a.frobenius(half) if fe.x_negative else a
        elif isinstance(op, PowSmall):
            regs[op.dst] = regs[op.src] ** op.chain.exponent
        elif isinstance(op, PowKarabina):
            a = regs[op.src] ** abs(op.exponent)
            regs[op.dst] = a.frobenius(half) if op.exponent < 0 else a
        elif isinstance(op, Conj):
            regs[op.dst] = regs[op.src].frobenius(half)
        elif isinstance(op, MulGT):
            regs[op.dst] = regs[op.a] * regs[op.b]
        else:
            assert isinstance(op, Frob)
            regs[op.dst] = regs[op.src].frobenius(op.n)
    return regs[fe.result]


@pytest.mark.slow  # the derived core: about 25 s, once per session
def test_derived_miller_loop_and_psi() -> None:
    """One term on |x| (x = p mod r), binary or NAF digits of |x|, negative; psi^n acts on G2 as
    [p^n mod r] for n = 0..15 (p has order 48 mod r: psi^16 is not [1]); an altered seed fails."""
    c, s = core(), spec()
    ml, fam = c.miller, c.family
    assert ml.negative and len(ml.terms) == 1 and not ml.frobenius_corrections
    value = 0
    for d in ml.terms[0].digits:
        value = 2 * value + d
    assert value == abs(s.x) == ml.terms[0].scalar
    assert sum(1 for d in ml.terms[0].digits if d) == 5         # -1 + 2^7 - 2^10 - 2^30 - 2^32
    E2 = c.twist.curve
    assert len(ml.psi) == 16
    for n in (1, 2, 3, 8, 15):
        assert apply_psi(E2, ml.psi, c.g2, n) == E2.mul(c.g2, pow(fam.p, n, fam.r))
    assert pow(fam.p, 16, fam.r) != 1 and pow(fam.p, 24, fam.r) == fam.r - 1
    with pytest.raises(DerivationError, match="x = p mod r"):
        derive_miller_loop("BLS48", s.x + 3, fam.p, fam.r, c.tower, c.twist.kind, E2, c.g2, "altered")


@pytest.mark.slow  # the derived core: about 25 s, once per session
def test_altered_psi_coefficient_fails() -> None:
    """A psi coefficient doubled no longer acts as [p] on G2 (the check derive_miller_loop makes)."""
    c = core()
    psi = list(c.miller.psi)
    F = c.twist.curve.F
    psi[1] = (F.mul(psi[1][0], F.elem(2)), psi[1][1])
    assert apply_psi(c.twist.curve, tuple(psi), c.g2, 1) != c.twist.curve.mul(c.g2, c.family.p % c.family.r)


@pytest.mark.slow  # the derived core: about 25 s, once per session
def test_derived_final_exponentiation() -> None:
    """Easy part (p^24 - 1)(p^8 + 1), m = 3 and the factored BLS form
    3 + (x - 1)^2 (x + p)(x^2 + p^2)(x^4 + p^4)(x^8 + p^8 - 1) = 3 Phi_48(p)/r (the k = 48 analogue
    of BLS12's and BLS24's), 17 exponentiations by x (or by x - 1), proved again by exponent tracking; a changed
    program and a changed easy part are refused."""
    c, s = core(), spec()
    fe, fam = c.final_exp, c.family
    x, p, r = s.x, fam.p, fam.r
    phi = p**16 - p**8 + 1
    assert fe.easy_frobenius == 8 == derive_easy_part(48, p, r, "BLS48-581")
    assert (p**24 - 1) * (p**8 + 1) * phi == p**48 - 1
    assert fe.m == 3 and fe.exp_by_x_count + fe.karabina_count == 17
    assert 3 + (x - 1) ** 2 * (x + p) * (x**2 + p**2) * (x**4 + p**4) * (x**8 + p**8 - 1) == 3 * (phi // r)
    assert fe.form.startswith("3 + ")
    for factor in ("(x + p)", "(x^2 + p^2)", "(x^4 + p^4)", "(-1 + x^8 + p^8)"):
        assert factor in fe.form
    assert track_exponent(fe.ops, fe.nregs, fe.result, x, p, phi) == 3 * (phi // r) % phi
    k = next(i for i, op in enumerate(fe.ops) if isinstance(op, MulGT))
    changed = fe.ops[:k] + (replace(fe.ops[k], b=fe.ops[k].a),) + fe.ops[k + 1:]
    assert track_exponent(changed, fe.nregs, fe.result, x, p, phi) != 3 * (phi // r) % phi
    with pytest.raises(DerivationError, match="easy part"):
        derive_easy_part(48, p, (p**8 + 1) // 2, "altered")


@pytest.mark.slow
def test_stated_hard_part_with_a_wrong_factor_fails() -> None:
    """A hard_part program in the curve file is proved before use: the BLS form with x^8 + p^8 + 1
    in place of x^8 + p^8 - 1 is refused."""
    fam, s = derive_family("BLS48", spec().x, "BLS48-581"), spec()
    wrong = "\n".join([
        "a = (f ** (x - 1)) ** (x - 1)",
        "a = a ** x * frob(a, 1)",
        "a = (a ** x) ** x * frob(a, 2)",
        "a = (((a ** x) ** x) ** x) ** x * frob(a, 4)",
        "b = (((((((a ** x) ** x) ** x) ** x) ** x) ** x) ** x) ** x * frob(a, 8) * a",
        "out = b * f * f * f",
    ])
    with pytest.raises(DerivationError, match="hard_part computes"):
        derive_final_exponentiation(fam.p_poly, fam.r_poly, 48, s.x, fam.p, fam.r, "altered", hard_part=wrong)


@pytest.mark.slow
def test_derived_pairing_is_the_reference_and_the_drafts() -> None:
    """The derived Miller loop and final exponentiation on BP, BP', run in Fp48, give e^3 (m = 3):
    the reference pairing cubed and the draft's printed value itself."""
    c, R, e = core(), reference(), base_pairing()
    P, Q = points()
    g2 = spec().g2
    assert g2 is not None and c.g2 == g2
    value = model_final_exponentiation(c, model_miller_loop(c, P, c.g2, R))
    assert value == e * e * e and value != e
    assert value == from_draft_basis(R, ints(vectors()["pairing"]["master"]))


@pytest.mark.slow
def test_altered_loop_digit_changes_the_pairing() -> None:
    """A flipped digit of the derived loop no longer gives a value the final exponentiation maps to
    the reference's: the loop digits are what the agreement above rests on."""
    c, R, e = core(), reference(), base_pairing()
    P, _ = points()
    ml = c.miller
    digits = list(ml.terms[0].digits)
    i = digits.index(0, 1)
    digits[i] = 1
    altered = replace(c, miller=replace(ml, terms=(replace(ml.terms[0], digits=tuple(digits)),)))
    assert model_final_exponentiation(altered, model_miller_loop(altered, P, c.g2, R)) != e * e * e


# ------------------------------------------------------------------------------------------------
# Endomorphisms: cofactor clearing, subgroup tests, GLV on G1 and GLS on G2


@functools.lru_cache(maxsize=None)
def endo() -> EndomorphismModel:
    c, s = core(), spec()
    fam = c.family
    return derive_endomorphisms(dict(family="BLS48", x=s.x, p=fam.p, r=fam.r, t=fam.t, k=48, h1=fam.h1,
                                     h2=c.twist.cofactor, E1=c.E1, E2=c.twist.curve, g1=c.g1, g2=c.g2,
                                     psi=c.miller.psi), "BLS48-581")


@pytest.mark.slow  # the derived core and its endomorphisms: about 30 s
def test_derived_endomorphisms() -> None:
    """G1: [1 - x] clears (h_eff = 1 - x), phi(P) == [x^8 - 1] P tests, proven; G2: the k = 48
    psi formula clears with h_eff = 3 (x^8 - 1) h2, the scalar it is proven to equal in Z[psi],
    psi(P) == [x] P tests; GT: f^p == f^x; GLV of dimension 2, GLS and the GT split of dimension
    phi(48) = 16."""
    e, c, x = endo(), core(), spec().x
    g1, g2 = e.g1, e.g2
    assert (g1.kind, g1.clear, g1.h_eff) == ("phi", ((1, -1),), 1 - x)
    assert g1.test is not None and "x^8 - 1" in g1.test_note and "proven" in g1.test_note
    assert g2.kind == "psi" and g2.clear == CLEAR[("BLS48", "G2")][0]
    assert g2.h_eff == 3 * (x**8 - 1) * c.twist.cofactor
    assert g2.test == ((0, -1), (1,)) and "proven" in g2.test_note
    assert e.gt.coeffs == ((0, -1), (1,)) and "proven" in e.gt.note
    assert (g1.glv.dim, g2.glv.dim, e.gt_glv.dim) == (2, 16, 16)
    assert g2.glv.bits <= (c.family.r.bit_length() + 15) // 16 + 4
    rng = random.Random(481)
    E2 = c.twist.curve
    P = E2.random_point(rng)
    Q = Evaluator(E2, "psi", None, c.miller.psi, x).formula(g2.clear, P)
    assert Q == E2.mul(P, g2.h_eff) and Q is not None and E2.mul(Q, c.family.r) is None


@pytest.mark.slow
def test_altered_g2_clearing_is_refused() -> None:
    """The proof in Z[psi] / (Phi_48(psi), #E'(Fp8)) rejects another h_eff and a changed formula."""
    e, c, s = endo(), core(), spec()
    fam, x = c.family, s.x
    n = c.twist.order
    g2 = e.g2
    assert g2.clear is not None and g2.h_eff is not None
    assert psi_formula_equals(g2.clear, x, 48, fam.t, fam.p, n, g2.h_eff)
    assert not psi_formula_equals(g2.clear, x, 48, fam.t, fam.p, n, g2.h_eff + c.twist.cofactor)
    changed = g2.clear[:-1] + ((3,),)
    assert psi_formula_scalar(changed, x, 48, fam.t, fam.p, fam.r, c.twist.cofactor) != g2.h_eff


@pytest.mark.slow  # the weak Popov reduction of a 16 x 16 lattice over Q[x]: about two minutes
def test_search_finds_the_g2_clearing_formula() -> None:
    """From p(x), t(x) and the family's h2(x) alone the psi search (psi_clearing.py) finds the
    formula endomorphisms.CLEAR holds for BLS48 G2."""
    fam = derive_family("BLS48", spec().x, "BLS48-581")
    assert fam.h2_poly is not None and fam.t_poly is not None
    assert find_psi_clearing(fam.p_poly, fam.t_poly, fam.h2_poly, 48) == CLEAR[("BLS48", "G2")][0]


# ------------------------------------------------------------------------------------------------
# The package (generated/bls48_581, built where PAIRFORGE_CURVES names it)


@pytest.fixture(scope="module", params=packages_of_curve_file(CURVE_FILE))
def package(request):
    """The compiled generated/bls48_581 (built by `PAIRFORGE_CURVES=bls48_581 pip install -e .`)."""
    return load_curve_module(request.param)


def searched_tower_text() -> str:
    """The test curve file without the draft's tower (nu, omega, xi) and its G2 generator, under a
    name of its own: the generator's search then takes nu = 1 + u, omega = v and xi = w
    (test_tower_is_the_drafts) and derives G2's generator in that basis."""
    kept, inside_g2 = [], False
    for line in CURVE_FILE.read_text().splitlines():
        inside_g2 = inside_g2 or line.startswith("g2 = [")
        if not inside_g2 and not line.startswith(("name =", "nu =", "omega =", "xi =")):
            kept.append(line)
        inside_g2 = inside_g2 and line != "]"
    return 'name = "BLS48-581-searched"\n' + "\n".join(kept) + "\n"


@pytest.fixture(scope="module")
def searched_tower_package():
    """The compiled module of searched_tower_text(): its products by omega and xi are shifts with a
    plus sign, the other branch of tower.h's Fp8 levels (the draft's tower has omega = -v, xi = -w)."""
    from build_cache import cached_test_curve, import_test_curve

    text = searched_tower_text()
    root = cached_test_curve("BLS48-581, searched tower (k = 48)", text, "bls48-581-searched.toml")
    (pkg,) = [d.name for d in (root / "out").iterdir() if (d / "__init__.py").is_file()]
    return import_test_curve(root / "out", pkg)


def _flat8(a: Any) -> tuple[int, ...]:
    """The reference's nested Fp8 tuple as the package's flat coordinate (c0 + c1 u + ... + c7 u v w)."""
    return tuple(c for half in a for pair in half for c in pair)


@pytest.mark.slow  # one reference pairing (15 s)
def test_package_pairing_is_the_reference_and_the_drafts(package) -> None:
    """The compiled pairing on the draft's generators BP, BP' equals the draft's printed value (the
    module docstring's basis map) and the reference pairing cubed, as tuples of the tower's Fp
    coefficients; it is not the reference pairing itself (m = 3 is not undone)."""
    C, R, e = package, reference(), base_pairing()
    P, Q = points()
    assert C.G1.generator().to_affine() == P
    assert C.G2.generator().to_affine() == (_flat8(Q[0]), _flat8(Q[1]))
    value = C.pairing(C.G1.generator(), C.G2.generator()).to_tuple()
    assert value == R.to_tower(from_draft_basis(R, ints(vectors()["pairing"]["master"])))
    assert value == R.to_tower(e * e * e) and value != R.to_tower(e)


def test_package_pairing_laws(package) -> None:
    """Bilinearity, non-degeneracy, e^r = 1, the identities and the multi-pairing of the compiled
    module (tests/pairing_laws.py), on random multiples of the generators."""
    from pairing_laws import check_pairing_laws

    check_pairing_laws(package, reference().r, random.Random(4848))


@pytest.mark.slow  # builds a second package (a few minutes the first time)
def test_searched_tower_package_pairing_laws(searched_tower_package) -> None:
    """The pairing laws on the package of the searched tower (nu = 1 + u, omega = v, xi = w), whose
    G2 generator the generator derived in that basis: not the draft's coordinates."""
    from pairing_laws import check_pairing_laws

    C = searched_tower_package
    assert C.NAME == "BLS48-581-searched"
    draft_q = points()[1]
    assert C.G2.generator().to_affine() != (_flat8(draft_q[0]), _flat8(draft_q[1]))
    check_pairing_laws(C, reference().r, random.Random(4849))


MIRACL_H2C = ("bls48_581_miracl_h2c", "h2c_vectors.json")
MIRACL_L = 105  # MIRACL's L = ceil((581 + 256) / 8): its BLS48-581 hashes at the 256-bit level


@pytest.mark.parametrize("group, cases", [("G1", 6), ("G2", 3)])
def test_package_map_and_clearing_are_miracl_cores(package, group: str, cases: int) -> None:
    """MIRACL core's hash to BLS48-581's G1 and G2 (tests/vectors/bls48_581_miracl_h2c): its u are RFC
    9380's hash_to_field with SHA-512 and L = 105 (checked here from the package's expand_message_xmd);
    the package's SVDW map sends each u to MIRACL's Q0 and Q1, and its cofactor clearing sends Q0 + Q1
    to MIRACL's point (G1: [1 - x]; G2: Budroni-Pintore's h(psi), MIRACL's ECP8_cfp)."""
    C = package
    G = getattr(C, group)
    m = 1 if group == "G1" else 8
    chosen = [case for case in load_json(*MIRACL_H2C)["vectors"] if case["group"] == group]
    assert len(chosen) == cases

    def coords(point: list[list[str]]) -> tuple:
        x, y = (tuple(int(c, 16) for c in coord) for coord in point)
        return (x[0], y[0]) if m == 1 else (x, y)

    for case in chosen:
        uniform = C.expand_message_xmd(case["msg"].encode(), case["dst"].encode(), 2 * m * MIRACL_L, hash="sha512")
        e = [int.from_bytes(uniform[MIRACL_L * j : MIRACL_L * (j + 1)], "big") % C.P for j in range(2 * m)]
        assert [e[:m], e[m:]] == [[int(c, 16) for c in u] for u in case["u"]], case["msg"]
        mapped = [G.map_to_curve(u[0] if m == 1 else tuple(u)) for u in (e[:m], e[m:])]
        assert [Q.to_affine() for Q in mapped] == [coords(case["q0"]), coords(case["q1"])], case["msg"]
        P = (mapped[0] + mapped[1]).clear_cofactor()
        assert P.to_affine() == coords(case["p"]) and P.in_subgroup(), case["msg"]


def test_package_hash_to_curve_is_miracl_cores(package) -> None:
    """The curve file's security_bits = 256 makes the suites XMD:SHA-512 with L = 105: G1's
    hash_to_curve gives MIRACL core's points for its own BLS signature DST and for the QUUX DST, G2's
    the points of MIRACL's map and clearing on RFC 9380's hash_to_field (the vector set's README)."""
    C = package
    assert [G.HASH_SUITE for G in (C.G1, C.G2)] == ["BLS48581G1_XMD:SHA-512_SVDW_RO_", "BLS48581G2_XMD:SHA-512_SVDW_RO_"]
    cases = load_json(*MIRACL_H2C)["vectors"]
    assert len(cases) == 9
    for case in cases:
        G = getattr(C, case["group"])
        msg, dst = case["msg"].encode(), case["dst"].encode()
        x, y = (tuple(int(c, 16) for c in coord) for coord in case["p"])
        want = (x[0], y[0]) if case["group"] == "G1" else (x, y)
        assert G.hash_to_curve(msg, dst).to_affine() == want, (case["group"], case["dst"], case["msg"])
        u = [tuple(int(c, 16) for c in e) for e in case["u"]]
        assert G.hash_to_field(msg, dst) == ([e[0] for e in u] if case["group"] == "G1" else u)


def _flatten(x: Any) -> list[int]:
    return [x] if isinstance(x, int) else [c for part in x for c in _flatten(part)]


@pytest.mark.slow  # builds six known-answer programs
def test_package_kat_program_every_target(package, tmp_path) -> None:
    """The package's known-answer program (c/kat_main.c) answers the pairing, the Miller loop and Fp8
    products, inverses and square roots with the same bytes on every C target: compiled here with
    64-bit and with 32-bit limbs (the portable C of generic64 and of generic32: the same rendered
    files), by generator/cross_build.py for arm64 (MUL/UMULH kernels), arm32 (UMAAL kernels) and
    generic32, run under qemu, and by generator/wasm.py for wasm32-wasi, run under wasmtime; its
    pairing of BP, BP' is the draft's printed value."""
    import cross_kat
    from build_cache import cached_kat, compiled
    from conftest import skip_or_fail
    from wasm_util import require_wasm, run_wasi

    from generator import cross_build, wasm

    R, (P, Q) = reference(), points()
    pkg_c = Path(package.__file__).parent / "c"
    cc = shutil.which("gcc") or shutil.which("cc")
    assert cc is not None
    nbytes = (R.p.bit_length() + 7) // 8

    def hx(values: list[int]) -> str:
        return "".join(v.to_bytes(nbytes, "big").hex() for v in values)

    rng = random.Random(4832)
    pair = hx([*P, *_flat8(Q[0]), *_flat8(Q[1])])
    fq = [hx([rng.randrange(R.p) for _ in range(8)]) for _ in range(3)]
    requests = [f"pairing {pair}", f"miller_loop {pair}", f"fq_mul {fq[0]}{fq[1]}", f"fq_inv {fq[2]}",
                f"fq_sqrt {fq[0]}", f"fq_sqr {fq[1]}"]
    answers = {}
    for bits in (64, 32):
        exe = compiled([cc, "-std=c99", "-O1", "-Wall", "-Wno-unused-function", f"-DPF_LIMB_BITS={bits}",
                        f"-I{pkg_c}", str(pkg_c / "kat_main.c")], inputs=[pkg_c], name=f"kat{bits}")
        run = subprocess.run([str(exe)], input="\n".join(requests) + "\n", capture_output=True, text=True, check=True)
        answers[f"gcc, {bits}-bit limbs"] = run.stdout.split()
    cross = ("arm64", "arm32", "generic32")
    missing = sorted({tool for t in cross for tool in cross_build.TARGETS[t].missing_tools()})
    if missing:
        skip_or_fail(f"cross tools missing: {', '.join(missing)} (apt-get install gcc-aarch64-linux-gnu "
                     "gcc-arm-linux-gnueabihf qemu-user)")
    for target in cross:
        binary = cached_kat(pkg_c.parent, target)
        answers[target] = " ".join(cross_kat.run_kat(binary, target, "\n".join(requests) + "\n")).split()
        instruction = cross_build.TARGETS[target].kernel_instruction
        if instruction is not None:     # the field multiplications run the target's assembly kernels
            kernels = cross_kat.kernel_instructions(binary, target)
            assert any(counts[instruction] for counts in kernels.values()), (target, sorted(kernels))
    require_wasm()
    kat_wasm = wasm.build_kat_wasm(pkg_c.parent, tmp_path, wasm.DEFAULT_LIMB_BITS)
    answers["wasm32"] = " ".join(run_wasi(kat_wasm, "\n".join(requests) + "\n")).split()
    first = answers["gcc, 64-bit limbs"]
    assert len(first) == len(requests)
    for name, got in answers.items():
        assert got == first, name
    master = R.to_tower(from_draft_basis(R, ints(vectors()["pairing"]["master"])))
    assert first[0] == hx(_flatten(master))


@pytest.mark.slow  # builds its WebAssembly module
def test_package_wasm_module_pairing(package) -> None:
    """The package's wasm32 module (c/wasm_abi.c built by generator/wasm.py, the module gen-curve
    --target wasm32 writes) decodes the generators from the compiled module's encodings and gives
    the same pairing bytes, and its pairing check accepts e(aP, Q) e(-P, aQ) = 1."""
    from wasm_util import cached_wasm

    from generator.wasm_loader import WasmCurve

    C = package
    P, Q = C.G1.generator(), C.G2.generator()
    module = WasmCurve(cached_wasm(Path(C.__file__).parent))
    assert module.pairing(P.to_bytes(), Q.to_bytes()) == C.pairing(P, Q).to_bytes()
    a = random.Random(4849).randrange(1, C.R)
    assert module.pairing_check([(P * a).to_bytes(), (-P).to_bytes()], [Q.to_bytes(), (Q * a).to_bytes()])
    assert not module.pairing_check([(P * a).to_bytes(), (-P).to_bytes()], [Q.to_bytes(), (Q * (a + 1)).to_bytes()])
