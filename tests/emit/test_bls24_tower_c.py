"""The rendered k = 24 tower (templates/c/tower.h.j2 with a degree-4 twist field) and pairing
(templates/c/pairing.h.j2) against the reference.

For BLS24-317 (u^2 = -1, nu = 1 + u, M-twist) and BLS24-315 (u^2 = 13, D-twist), the model is
built by build_model, tower.h is rendered with the fields under it, and
tests/c_harness/tower_harness.c is compiled against them for 64- and 32-bit limbs (and with the
x86_64-adx kernels where the CPU has them, which take the lazy Fp2 product). Every operation
of Fp4 = Fp2[v]/(v^2 - nu), Fp12 = Fp4[w]/(w^3 - xi) and Fp24 = Fp12[z]/(z^2 - w) that the levels
above and the pairing use is fed random inputs and compared with the reference
(generator/reference/fields.py): Fp4 as the reference's Fp2[v]/(v^2 - nu), Fp12 as Fp4[w]/(w^3 - xi),
and Fp24 as the reference pairing's own Fp24 = Fp4[z]/(z^6 - xi), whose Frobenius maps the
reference computes from its own constants. The cyclotomic squaring, the exponentiation by x and the
GT subgroup tests are run on elements after the easy part (p^12 - 1)(p^4 + 1).

The pairing (pairing.h, with g1.h, g2.h and endomorphism.h under it) is checked on the generators
and random multiples: the Miller loop against ReferencePairing's untwisted one after the easy part
(which kills the factors in proper subfields by which the two may differ), the final
exponentiation against f^((p^12 - 1)(p^4 + 1) m Phi_24(p) / r) with m = 3 evaluated in the
reference as 3 + (x - 1)^2 (x + p)(x^2 + p^2)(x^4 + p^4 - 1) (a plain 2270-bit power takes
about half a minute there), and bilinearity, non-degeneracy and e^r = 1 in C.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest
from build_cache import compiled
from conftest import REPO_ROOT, TESTS_DIR, skip_or_fail

from bench.cbench import cpu_flags
from generator import build
from generator.derive.model import CurveModel, build_model
from generator.emit.context import ASM_TARGETS, field_kernels
from generator.emit.context_pairing import Literals
from generator.emit.render import render
from generator.params import load_curve_file
from generator.reference import ReferencePairing, reference_for_model
from generator.reference.fields import ExtensionField, PrimeField

HARNESS = TESTS_DIR / "c_harness" / "tower_harness.c"
CURVE_DIR = REPO_ROOT / "curves"
CC = shutil.which("gcc") or shutil.which("cc")
CFLAGS = ["-std=c99", "-O1", "-Wall", "-Wextra", "-Wshadow", "-Werror", "-Wno-unused-function"]
CURVES = ("bls24-317", "bls24-315")
# 64- and 32-bit portable limbs, and the x86_64-adx kernels where the CPU has them: with those
# (FP_WIDE_KERNELS) the 5-limb Fp2 product and square take the lazy (double-width) path.
BUILDS = ("64", "32") + (("64-adx",) if {"adx", "bmi2"} <= cpu_flags() else ())
TRIALS = 12


@lru_cache(maxsize=None)
def model_of(name: str) -> CurveModel:
    return build_model(load_curve_file(CURVE_DIR / f"{name}.toml"))


def render_tower(m: CurveModel, out: Path) -> None:
    """limbs.h, the kernels it includes, fp.h, fr.h, tower.h, the groups and pairing.h of ``m``
    into ``out`` (as generator/emit/context_pairing.pairing_package_files renders them)."""
    lit, names = Literals(m), m.tower.names
    common = {"header": "test render", "m": m, "lit": lit, "names": names, "target": "generic64"}
    (out / "limbs.h").write_text(render("c/limbs.h.j2", **common))
    for asm in ASM_TARGETS:
        (out / f"asm_{asm}.h").write_text(render(f"asm/{asm}/kernels.h.j2", kernels=field_kernels(m), **common))
    (out / "fp.h").write_text(render("c/field.h.j2", field=m.fp, **common))
    (out / "fr.h").write_text(render("c/field.h.j2", field=m.fr, **common))
    (out / "tower.h").write_text(render("c/tower.h.j2", **common))
    group = {"order_limbs": lit.fr_int(m.r), "order_bits": m.r.bit_length(), **common}
    (out / "g1.h").write_text(render("c/group.h.j2", g="g1", F="fp", b_init=lit.fp(m.b), **group))
    (out / "g2.h").write_text(render("c/group.h.j2", g="g2", F=names["fq"], b_init=lit.fq(m.twist.b), **group))
    (out / "endomorphism.h").write_text(render("c/endomorphism.h.j2", **common))
    (out / "pairing.h").write_text(render("c/pairing.h.j2", **common))


class Tower:
    """The reference fields of one curve and the compiled harness, with flat conversions."""

    def __init__(self, m: CurveModel, exe: Path) -> None:
        self.m, self.exe, self.p = m, exe, m.p
        t = m.tower
        self.Fp = PrimeField(m.p)
        self.F2 = ExtensionField(self.Fp, 2, t.beta, "Fp2")
        self.F4 = ExtensionField(self.F2, 2, self.F2(tuple(t.nu)), "Fp4")
        self.xi = self.F4([self.F2(tuple(t.xi[:2])), self.F2(tuple(t.xi[2:]))])
        self.F12 = ExtensionField(self.F4, 3, self.xi, "Fp12")
        self.F24 = ExtensionField(self.F4, 6, self.xi, "Fp24")  # the reference pairing's tower
        self.rng = random.Random(f"{m.name} tower")

    # flat coefficient lists (memory order of the C types) <-> reference elements
    def f2(self, c):
        return self.F2((c[0], c[1]))

    def f4(self, c):
        return self.F4([self.f2(c[0:2]), self.f2(c[2:4])])

    def f12(self, c):
        return self.F12([self.f4(c[4 * i:4 * i + 4]) for i in range(3)])

    def f24(self, c):
        # C: c0 = (z^0, z^2, z^4), c1 = (z^1, z^3, z^5), each an Fp4 of four Fp
        coeffs = [None] * 6
        for half in range(2):
            for i in range(3):
                coeffs[2 * i + half] = self.f4(c[12 * half + 4 * i:12 * half + 4 * i + 4])
        return self.F24(coeffs)

    def rand(self, n: int) -> list[int]:
        return [self.rng.randrange(self.p) for _ in range(n)]

    def run(self, lines: list[str]) -> list[list[int]]:
        proc = subprocess.run([str(self.exe)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout.splitlines()
        assert len(out) == len(lines), proc.stdout[-2000:]
        assert "alias-mismatch" not in out
        return [[int(v, 16) for v in row.split()] for row in out]

    def line(self, op: str, n: int, *operands: list[int]) -> str:
        return " ".join([op, str(n)] + [f"{v:x}" for c in operands for v in c])

    def cyclotomic(self) -> list[int]:
        """A random flat element of the cyclotomic subgroup: f^((p^12 - 1)(p^4 + 1)) in the reference."""
        f = self.f24(self.rand(24))
        g = f.frobenius(12) * f.inverse()
        g = g.frobenius(4) * g
        return self.flat24(g)

    def flat24(self, e) -> list[int]:
        out = [0] * 24
        for j, c4 in enumerate(e.coeffs):
            half, i = j % 2, j // 2
            flat = [int(v) for c2 in c4.coeffs for v in c2.coeffs]
            out[12 * half + 4 * i:12 * half + 4 * i + 4] = flat
        return out


@pytest.fixture(scope="module", params=[(c, w) for c in CURVES for w in BUILDS],
                ids=[f"{c}-{w}" for c in CURVES for w in BUILDS])
def tower(request, tmp_path_factory) -> Tower:
    if CC is None:
        skip_or_fail("no C compiler")
    name, width = request.param
    m = model_of(name)
    out = tmp_path_factory.mktemp(f"tower-{name}-{width}")
    render_tower(m, out)
    bits, _, target = width.partition("-")
    adx = (f"-D{build.ADX_DEFINE}", *build.ADX_COMPILE_ARGS) if target == "adx" else ()
    exe = compiled([CC, *CFLAGS, f"-DPF_LIMB_BITS={bits}", *adx, f"-I{out}", str(HARNESS)],
                   inputs=[HARNESS, out], name="tower_harness")
    return Tower(m, exe)


def test_model_shape() -> None:
    """What the k = 24 templates assume of the model: twist field Fp4, the lazy Fp2 product (u^2 = -1
    on BLS24-317, u^2 = 13 as plain double-width sums on BLS24-315) and the lazy tower above it
    (xi = v, nu small: the double-width Fp4 level multiplies by nu with sums, by 13 in one pass on
    BLS24-315), and the rows of gamma the Frobenius maps take (n = 0..4)."""
    for name in CURVES:
        m = model_of(name)
        assert (m.k, m.fq_degree, m.tower.names["fq"]) == (24, 4, "fp4")
        assert m.lazy.fp2_mul and m.lazy.tower
        assert (m.lazy.beta_k, m.lazy.beta_add, m.lazy.wide_small, m.lazy.fp4_nu_plain,
                m.lazy.fp4_plain_karatsuba) == (
            (1, None, (), False, False) if m.tower.beta == -1 else (None, 13, (13,), True, True))
        assert len(m.tower.gamma) == 12 and len(m.tower.nu_gamma) == 4


def test_fp4(tower: Tower) -> None:
    T = tower
    ops = []
    for _ in range(TRIALS):
        a, b, s, s2 = T.rand(4), T.rand(4), T.rand(1), T.rand(2)
        n = T.rng.randrange(1, 8)
        ops += [("fp4_add", 0, a, b), ("fp4_sub", 0, a, b), ("fp4_neg", 0, a), ("fp4_dbl", 0, a),
                ("fp4_mul", 0, a, b), ("fp4_sqr", 0, a), ("fp4_inv", 0, a), ("fp4_conj", 0, a),
                ("fp4_mul_by_xi", 0, a), ("fp4_mul_by_fp", 0, a, s), ("fp4_mul_by_fp2", 0, a, s2),
                ("fp4_frobenius", n, a), ("fp2_mul", 0, a[:2], b[:2]), ("fp2_sqr", 0, a[:2]),
                ("fp2_mul_by_nu", 0, a[:2])]
    ops.append(("fp4_inv", 0, [0, 0, 0, 0]))
    # the extremes of the lazy Fp2 product and square's bounds (generator/derive/lazy_reduction.py)
    top = T.p - 1
    for a2 in ([top, top], [0, top], [top, 0], [1, top], [top, 1]):
        ops += [("fp2_mul", 0, a2, [top, top]), ("fp2_mul", 0, [top, top], a2), ("fp2_sqr", 0, a2)]
    # and of the double-width Fp4 level (fp4w_mul, fp4w_sqr, with nu and its factors)
    for a4 in ([top] * 4, [0, 0, top, top], [top, top, 0, 0], [top, 0, 0, top], [0, top, top, 0]):
        ops += [("fp4_mul", 0, a4, [top] * 4), ("fp4_mul", 0, [top] * 4, a4), ("fp4_sqr", 0, a4),
                ("fp4_mul_by_xi", 0, a4)]
    got = T.run([T.line(op, n, *xs) for op, n, *xs in ops])
    nu = T.F2(tuple(T.m.tower.nu))

    def expected(op, n, a, xs):
        """The reference value of one line of ops."""
        return {
            "fp2_mul": lambda: a * T.f2(xs[1]), "fp2_sqr": lambda: a * a, "fp2_mul_by_nu": lambda: a * nu,
            "fp4_add": lambda: a + T.f4(xs[1]), "fp4_sub": lambda: a - T.f4(xs[1]), "fp4_neg": lambda: -a,
            "fp4_dbl": lambda: a + a, "fp4_mul": lambda: a * T.f4(xs[1]), "fp4_sqr": lambda: a * a,
            "fp4_inv": lambda: a.inverse() if not a.is_zero() else a, "fp4_conj": lambda: a.frobenius(2),
            "fp4_mul_by_xi": lambda: a * T.xi, "fp4_mul_by_fp": lambda: a * T.Fp(xs[1][0]),
            "fp4_mul_by_fp2": lambda: a * T.f2(xs[1]), "fp4_frobenius": lambda: a.frobenius(n),
        }[op]()

    for (op, n, *xs), res in zip(ops, got, strict=True):
        if op.startswith("fp2_"):
            assert T.f2(res) == expected(op, n, T.f2(xs[0]), xs), op
            continue
        assert T.f4(res) == expected(op, n, T.f4(xs[0]), xs), (op, n)


def _sign(T: Tower, flat: list[int]) -> bool:
    """gnark's LexicographicallyLargest on flat Fp4 coefficients: the highest non-zero Fp2 half
    decides, within it c1 (c0 when c1 = 0), an Fp coefficient being large when above (p - 1)/2."""
    def fp2(c0: int, c1: int) -> bool:
        return c1 > (T.p - 1) // 2 if c1 else c0 > (T.p - 1) // 2
    return fp2(*flat[2:]) if any(flat[2:]) else fp2(*flat[:2])


def test_fp4_sqrt(tower: Tower) -> None:
    """fp4_sqrt and fp4_sqrt_vartime on squares, non-squares and elements of Fp2 (a1 = 0, square or
    not in Fp2: every element of Fp2 is a square in Fp4), fp4_is_square and the serialization sign
    against the reference."""
    T = tower
    cases = []
    for _ in range(TRIALS):
        b = T.f4(T.rand(4))
        cases.append(b * b)                              # a square
        cases.append(T.f4(T.rand(4)))                    # either, about half each
        c = T.f2(T.rand(2))
        cases.append(T.F4([c * c, 0]))                   # a1 = 0, a0 a square in Fp2
        cases.append(T.F4([c * c * T.F2(tuple(T.m.tower.nu)), 0]))  # a1 = 0, a0 / nu a square
    cases += [T.F4(0), T.F4(1), -T.F4(1)]
    flats = [[int(v) for c2 in a.coeffs for v in c2.coeffs] for a in cases]
    ops = [T.line(op, 0, f) for f in flats for op in ("fp4_sqrt", "fp4_sqrt_vartime", "fp4_predicates")]
    got = T.run(ops)
    squares = 0
    for i, (a, flat) in enumerate(zip(cases, flats, strict=True)):
        ct, vt, (is_sq, large) = got[3 * i:3 * i + 3]
        want_sq = a.is_square()
        squares += want_sq
        assert (is_sq, large) == (int(want_sq), int(_sign(T, flat)))
        for res in (ct, vt):
            assert res[4] == int(want_sq)
            if want_sq:
                root = T.f4(res[:4])
                assert root * root == a
            elif res is ct:
                assert res[:4] == [0, 0, 0, 0]
    assert 0 < squares < len(cases)


def test_fp12(tower: Tower) -> None:
    T = tower
    ops = []
    for _ in range(TRIALS // 2):
        a, b = T.rand(12), T.rand(12)
        ops += [("fp12_mul", 0, a, b), ("fp12_sqr", 0, a), ("fp12_inv", 0, a), ("fp12_mul_by_v", 0, a),
                ("fp12_mul_by_01", 0, a, b[:8]), ("fp12_mul_by_1", 0, a, b[:4]),
                ("fp12_frobenius", T.rng.randrange(1, 12), a)]
    got = T.run([T.line(op, n, *xs) for op, n, *xs in ops])
    w = T.F12([0, 1])
    def expected(op, n, a, xs):
        """The reference value of one line of ops."""
        return {
            "fp12_mul": lambda: a * T.f12(xs[1]), "fp12_sqr": lambda: a * a, "fp12_inv": lambda: a.inverse(),
            "fp12_mul_by_v": lambda: a * w,
            "fp12_mul_by_01": lambda: a * T.F12([T.f4(xs[1][:4]), T.f4(xs[1][4:])]),
            "fp12_mul_by_1": lambda: a * T.F12([0, T.f4(xs[1])]),
            "fp12_frobenius": lambda: a.frobenius(n),
        }[op]()

    for (op, n, *xs), res in zip(ops, got, strict=True):
        a = T.f12(xs[0])
        want = expected(op, n, a, xs)
        assert T.f12(res) == want, (op, n)


def test_fp24(tower: Tower) -> None:
    T = tower
    ops = []
    # the Frobenius powers of the easy part (4), the hard part (1, 2, 4), the GT test (8) and others
    powers = [1, 2, 3, 4, 5, 8, 11, 12]
    for i in range(TRIALS // 2):
        a, b = T.rand(24), T.rand(24)
        e = T.rng.getrandbits(64)
        ops += [("fp24_mul", 0, a, b), ("fp24_sqr", 0, a), ("fp24_inv", 0, a), ("fp24_conj", 0, a),
                ("fp24_frobenius", powers[i % len(powers)], a), ("fp24_frobenius", powers[-1 - i % len(powers)], a),
                ("fp24_pow", 0, a, [e])]
    got = T.run([T.line(op, n, *xs) for op, n, *xs in ops])
    def expected(op, n, a, xs):
        """The reference value of one line of ops."""
        return {
            "fp24_mul": lambda: a * T.f24(xs[1]), "fp24_sqr": lambda: a * a, "fp24_inv": lambda: a.inverse(),
            "fp24_conj": lambda: a.frobenius(12), "fp24_frobenius": lambda: a.frobenius(n),
            "fp24_pow": lambda: a ** xs[1][0],
        }[op]()

    for (op, n, *xs), res in zip(ops, got, strict=True):
        a = T.f24(xs[0])
        want = expected(op, n, a, xs)
        assert T.f24(res) == want, (op, n)


def test_cyclotomic(tower: Tower) -> None:
    """Granger–Scott squaring, the exponentiation by x (Karabina's compressed squarings or a chain,
    as the model chose), the windowed constant-time power and the inverse as conjugation, on elements
    after the easy part."""
    T = tower
    x, r = T.m.x, T.m.r
    gs = [T.cyclotomic() for _ in range(3)]
    ks = [T.rng.randrange(r) for _ in gs]
    ops = []
    for g, k in zip(gs, ks, strict=True):
        ops += [("fp24_cyclotomic_sqr", 0, g), ("gt_exp_by_x", 0, g), ("gt_pow_ct", 0, g, [k]), ("fp24_conj", 0, g)]
    got = T.run([T.line(op, n, *xs) for op, n, *xs in ops])
    def expected(op, n, a, xs):
        """The reference value of one line of ops."""
        return {
            "fp24_cyclotomic_sqr": lambda: a * a, "gt_exp_by_x": lambda: a ** x, "gt_pow_ct": lambda: a ** xs[1][0],
            "fp24_conj": lambda: a.inverse(),
        }[op]()

    for (op, n, *xs), res in zip(ops, got, strict=True):
        a = T.f24(xs[0])
        want = expected(op, n, a, xs)
        assert T.f24(res) == want, op


def test_gt_subgroup(tower: Tower) -> None:
    """gt_in_subgroup_vartime (the derived Frobenius/x test) agrees with the plain a^r = 1 on elements
    of order r (a cyclotomic element raised to Phi_24(p)/r, with fp24_pow checked above) and on
    cyclotomic elements outside GT, and rejects 0 and non-cyclotomic elements."""
    T = tower
    p, r = T.p, T.m.r
    cofactor = (p**8 - p**4 + 1) // r
    g = T.cyclotomic()
    # the C power takes FP_NLIMBS limbs of exponent: raise to the cofactor in base-p digits' powers
    a = g
    digits = []
    c = cofactor
    while c:
        digits.append(c % p)
        c //= p
    # a^cofactor = prod_i (a^(p^i))^(d_i), with a^(p^i) by the Frobenius of the C tower
    lines = [T.line("fp24_frobenius", i, a) for i in range(len(digits))]
    frobs = T.run(lines)
    pw = T.run([T.line("fp24_pow", 0, f, [d]) for f, d in zip(frobs, digits, strict=True)])
    y = pw[0]
    for z in pw[1:]:
        y = T.run([T.line("fp24_mul", 0, y, z)])[0]
    assert T.f24(y) != T.F24.one()
    outside = T.run([T.line("fp24_mul", 0, y, g)])[0]
    non_cyclotomic = T.rand(24)
    cases = [(y, True), (g, False), (outside, False), (non_cyclotomic, False), ([0] * 24, False)]
    got = T.run([T.line(op, 0, c) for c, _ in cases for op in ("gt_in_subgroup", "gt_in_subgroup_by_order")])
    assert [row[0] for row in got] == [int(want) for _, want in cases for _ in range(2)]


@lru_cache(maxsize=None)
def reference_of(name: str) -> ReferencePairing:
    return reference_for_model(model_of(name))


def easy_part(f):
    f = f.frobenius(12) * f.inverse()
    return f.frobenius(4) * f


@lru_cache(maxsize=None)
def expected_final_exp(name: str, flat: tuple[int, ...]):
    """f^((p^12 - 1)(p^4 + 1) 3 Phi_24(p)/r) in the reference, the hard part evaluated as
    3 + (x - 1)^2 (x + p)(x^2 + p^2)(x^4 + p^4 - 1) (equal to 3 Phi_24(p)/r: test_bls24_derive)."""
    m, R = model_of(name), reference_of(name)
    x, p = m.x, m.p
    assert 3 + (x - 1) ** 2 * (x + p) * (x**2 + p**2) * (x**4 + p**4 - 1) == 3 * ((p**8 - p**4 + 1) // m.r)
    y = easy_part(R.Fk(flat_to_fk(R, flat)))
    a = y ** (x - 1)
    a = a ** (x - 1)
    b = a ** x * a.frobenius(1)
    c = b ** (x**2) * b.frobenius(2)
    d = c ** (x**4) * c.frobenius(4) * c.inverse()
    return d * y * y * y


def flat_to_fk(R: ReferencePairing, c) -> list:
    """The flat C layout of an Fp24 element -> the reference's coefficients of z^0..z^5."""
    f4 = lambda q: R.Fp4([R.Fp2((q[0], q[1])), R.Fp2((q[2], q[3]))])  # noqa: E731
    coeffs = [None] * 6
    for half in range(2):
        for i in range(3):
            coeffs[2 * i + half] = f4(c[12 * half + 4 * i:12 * half + 4 * i + 4])
    return coeffs


def points(m: CurveModel, rng: random.Random, count: int) -> list[tuple[list[int], list[int], int, int]]:
    """(P, Q) flat for the C harness, with their scalars: the generators, then [a]G1 and [b]G2."""
    out = []
    for i in range(count):
        a, b = (1, 1) if i == 0 else (rng.randrange(1, m.r), rng.randrange(1, m.r))
        P, Q = m.E1.mul(m.g1_gen, a), m.E2.mul(m.g2_gen, b)
        out.append(([P[0][0], P[1][0]], [*Q[0], *Q[1]], a, b))
    return out


def test_pairing_against_reference(tower: Tower) -> None:
    """miller_loop after the easy part, and the final exponentiation, against the reference."""
    T, name = tower, tower.m.name.lower()
    R = reference_of(name)
    pts = points(T.m, random.Random(f"{name} pairing"), 2)
    fs = T.run([T.line("miller", 0, P, Q) for P, Q, _, _ in pts])
    for (P, Q, _, _), f in zip(pts, fs, strict=True):
        Qr = tuple(R.Fp4([R.Fp2((c[0], c[1])), R.Fp2((c[2], c[3]))]) for c in (Q[:4], Q[4:]))
        want = easy_part(R.miller_loop((P[0], P[1]), Qr))
        assert easy_part(R.Fk(flat_to_fk(R, f))) == want
    e = T.run([T.line("final_exp", 0, fs[0])])[0]
    assert R.Fk(flat_to_fk(R, e)) == expected_final_exp(name, tuple(fs[0]))


def test_pairing_bilinear(tower: Tower) -> None:
    """e([a]G1, [b]G2) = e(G1, G2)^(ab), e != 1, e^r = 1 (the plain power and the derived test)."""
    T = tower
    m = T.m
    pts = points(m, random.Random(f"{m.name} bilinear"), 4)
    fs = T.run([T.line("miller", 0, P, Q) for P, Q, _, _ in pts])
    es = T.run([T.line("final_exp", 0, f) for f in fs])
    e1 = es[0]
    assert e1 != [1] + [0] * 23
    powers = T.run([T.line("gt_pow_ct", 0, e1, [a * b % m.r]) for _, _, a, b in pts[1:]])
    assert powers == es[1:]
    checks = T.run([T.line(op, 0, e) for e in es for op in ("gt_in_subgroup", "gt_in_subgroup_by_order")])
    assert [row[0] for row in checks] == [1] * (2 * len(es))


def test_multi_pairing(tower: Tower) -> None:
    """The two-pair Miller loop then one final exponentiation equals the product of the pairings;
    a pair with the identity of G1 (0, 0) contributes 1; e(P, Q) e(-P, Q) = 1."""
    T = tower
    m = T.m
    (P1, Q1, _, _), (P2, Q2, _, _) = points(m, random.Random(f"{m.name} multi"), 2)
    nP1 = [P1[0], (-P1[1]) % m.p]
    zero = [0, 0]
    fs = T.run([T.line("miller", 0, P1, Q1), T.line("miller", 0, P2, Q2), T.line("miller2", 0, P1, Q1, P2, Q2),
                T.line("miller2", 0, zero, Q1, P2, Q2), T.line("miller2", 0, P1, Q1, nP1, Q1)])
    es = T.run([T.line("final_exp", 0, f) for f in fs])
    product = T.run([T.line("fp24_mul", 0, es[0], es[1])])[0]
    one = [1] + [0] * 23
    assert es[2] == product and es[2] != one
    assert es[3] == es[1]
    assert es[4] == one


def test_lazy_fp2_positive_beta_needs_room() -> None:
    """The lazy Fp2 product for u^2 = k > 0 (k = 24) is chosen exactly when 2 (k + 1) p <= R (the
    square's (a0 + a1)(a0 + k a1) below p R), with a negative beta it is the k = 12 product, and
    neither turns on the double-width tower above Fp2 unless the Fp4 level's shape allows it."""
    from generator.derive.lazy_reduction import derive_lazy_reduction

    R = 1 << 320
    edge = R // 28                      # 2 (13 + 1) p <= R holds exactly up to here
    fits = derive_lazy_reduction(edge - (1 - edge % 2), 5, 24, 13, "test")
    assert fits.fp2_mul and fits.beta_add == 13 and fits.beta_k is None and not fits.tower
    assert not derive_lazy_reduction(edge + 1 + edge % 2, 5, 24, 13, "test").fp2_mul
    neg = derive_lazy_reduction(edge, 5, 24, -1, "test")
    assert neg.fp2_mul and neg.beta_k == 1 and neg.beta_add is None and not neg.tower
    assert derive_lazy_reduction(edge, 5, 12, 13, "test").fp2_mul is False  # k = 12: negative beta only
    # the double-width Fp4 level above it needs xi = v and a small nu (fp4_shift_xi) and 2p < R
    assert derive_lazy_reduction(edge - (1 - edge % 2), 5, 24, 13, "test", (0, 1, 13), True).tower
    assert derive_lazy_reduction(edge, 5, 24, -1, "test", (1, 1, -1), True).tower
    assert not derive_lazy_reduction(edge + 1 + edge % 2, 5, 24, 13, "test", (0, 1, 13), True).tower


def test_lazy_fp2_positive_beta_check_fails_without_room() -> None:
    """The operand check behind the positive-beta product rejects a p without the room (so it can
    fail): with 2 (k + 1) p > R the square's first product leaves [0, p R)."""
    from generator.derive.checks import DerivationError
    from generator.derive.lazy_reduction import _check_fp2_products_positive

    R = 1 << 320
    _check_fp2_products_positive(R // 28 - 1, R, 13, "test")
    with pytest.raises(DerivationError):
        _check_fp2_products_positive(R // 20 + 1, R, 13, "test")


def test_fp4_plain_karatsuba_needs_room() -> None:
    """The Fp4 Karatsuba on unreduced operand sums with plain differences (u^2 = 13: the cross
    terms of c0 below 28 p^2) comes with the double-width tower exactly when 28 p <= R, never for a
    negative beta, and its operand check rejects a p without that room (so it can fail)."""
    from generator.derive.checks import DerivationError
    from generator.derive.lazy_reduction import _check_fp4_plain_karatsuba, derive_lazy_reduction

    R = 1 << 320
    edge = R // 28
    assert derive_lazy_reduction(edge - (1 - edge % 2), 5, 24, 13, "test", (0, 1, 13), True, (0, 1)).fp4_plain_karatsuba
    assert not derive_lazy_reduction(edge + 1 + edge % 2, 5, 24, 13, "test", (0, 1, 13), True, (0, 1)).fp4_plain_karatsuba
    assert not derive_lazy_reduction(R // 64 + 1, 5, 24, -1, "test", (1, 1, -1), True, (1, 1)).fp4_plain_karatsuba
    _check_fp4_plain_karatsuba(edge - (1 - edge % 2), R, 13, "test")
    with pytest.raises(DerivationError):
        _check_fp4_plain_karatsuba(R // 26 + 1, R, 13, "test")


def test_fp4_nu_plain_needs_room() -> None:
    """The Fp4 product's v0 + nu v1 as plain sums (u^2 = 13, nu = u: c0 below 14 p^2 + 13 * 2 p^2 =
    40 p^2) is chosen exactly when 40 p <= R, and never for a negative nu coefficient."""
    from generator.derive.lazy_reduction import derive_lazy_reduction

    R = 1 << 320
    edge = R // 40

    def lazy(p: int, nu: tuple[int, int]):
        return derive_lazy_reduction(p, 5, 24, 13, "test", (nu[0], nu[1], 13 * nu[1]), True, nu)

    assert lazy(edge - (1 - edge % 2), (0, 1)).fp4_nu_plain
    below = lazy(edge + 1 + edge % 2, (0, 1))
    assert below.tower and not below.fp4_nu_plain
    assert not lazy(R // 64, (-1, 1)).fp4_nu_plain
