"""The templates only lay out code: none is longer than 800 lines or builds C text in a list
(``lines.append``), partials (the templates generator/ does not render) are named with a leading
underscore, no template branches on a curve's name, and the C that is computed from the curve
comes ready from generator/emit (tower.py, pairing.py), whose helpers are tested here: their
statements are run by a small interpreter over integers modulo p (or p R) and checked against the
arithmetic they stand for."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import jinja2
import pytest
from conftest import REPO_ROOT

from generator.derive.lazy_reduction import LazyReductionModel, wide_small_steps
from generator.derive.model import CurveModel, build_model
from generator.emit import pairing, tower
from generator.emit.context_pairing import Literals
from generator.emit.render import c_limbs, render
from generator.params import load_curve_file

TEMPLATES = REPO_ROOT / "templates"
MAX_LINES = 800
INCLUDE = re.compile(r"""\{%-?\s*(?:include|import|from)\s+["']([^"']+)["']""")


def template_files() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*.j2") if p.is_file())


def rel(path: Path) -> str:
    return path.relative_to(TEMPLATES).as_posix()


def test_no_template_over_the_line_limit() -> None:
    long = {rel(p): n for p in template_files() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"templates over {MAX_LINES} lines (split them into partials): {long}"


def test_no_template_builds_lines_in_a_list() -> None:
    offenders = [rel(p) for p in template_files() if "lines.append" in p.read_text(encoding="utf-8")]
    assert not offenders, f"C text built with lines.append (write it in generator/emit): {offenders}"


# A template name in generator/ (a quoted "<folder>/...j2"; {...} stands for a part of the name that
# the generator fills in, as asm/{asm}/kernels.h.j2).
RENDER_NAME = re.compile(r"""["']((?:c|asm|cython|python|js|npm|project)/[\w./{}-]+\.j2)["']""")


def rendered_templates() -> set[str]:
    """The templates generator/ renders into a package's files: every one its code names."""
    code = "\n".join(p.read_text(encoding="utf-8") for p in (REPO_ROOT / "generator").rglob("*.py"))
    names = {rel(p) for p in template_files()}
    rendered = set()
    for named in set(RENDER_NAME.findall(code)):
        pattern = re.compile(re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(named)))
        matches = {name for name in names if pattern.fullmatch(name)}
        assert matches, f"generator/ renders {named}, which is not a template"
        rendered |= matches
    return rendered


def test_partials_are_underscored() -> None:
    """A template that generator/ does not render is a partial: other templates include or import
    it, and its name starts with an underscore. A rendered one is included by no other template,
    and carries a leading underscore only where its output file does (a private module such as
    _core.pyx), so that the name says which templates make a file."""
    code = "\n".join(p.read_text(encoding="utf-8") for p in (REPO_ROOT / "generator").rglob("*.py"))
    included = {name for p in template_files() for name in INCLUDE.findall(p.read_text(encoding="utf-8"))}
    rendered = rendered_templates()
    assert {"c/tower.h.j2", "cython/_core.pyx.j2", "python/kzg.py.j2", "asm/arm64/kernels.h.j2"} <= rendered
    for name in included:
        assert (TEMPLATES / name).is_file(), f"{name} is included but missing"
    for p in template_files():
        name, base = rel(p), p.name
        if name in rendered:
            assert name not in included, f"{name} is rendered by the generator and included by a template"
            if base.startswith("_"):
                assert f'"{base[: -len(".j2")]}"' in code, f"{name} is rendered: name it without a leading underscore"
        else:
            assert base.startswith("_"), f"{name} is a partial (generator/ does not render it): name it _{base}"
            assert name in included, f"{name} is a partial that nothing includes"


def test_no_template_branches_on_a_curve_name() -> None:
    """Adding a curve never needs a template edit: no statement tag names a curve or reads its name."""
    names = set()
    for curve in (REPO_ROOT / "curves").glob("*.toml"):
        match = re.search(r'^name = "([^"]+)"', curve.read_text(encoding="utf-8"), re.M)
        if match:
            names |= {match.group(1), match.group(1).lower(), match.group(1).lower().replace("-", "_")}
    tag = re.compile(r"\{%.*?%\}", re.S)
    for p in template_files():
        for statement in tag.findall(p.read_text(encoding="utf-8")):
            assert not re.search(r"\bm\.(name|package)\b", statement), f"{rel(p)}: {statement}"
            assert not any(re.search(rf"['\"]{re.escape(n)}['\"]", statement) for n in names), f"{rel(p)}: {statement}"


# ---------------------------------------------------------------------------------------------
# A small interpreter of the statements the helpers write
# ---------------------------------------------------------------------------------------------

CALL = re.compile(r"^(?:\(void\))?(\w+)\((.*)\);$")


def _name(expr: str) -> str:
    return expr.strip().lstrip("*&")


def run(text: str, env: dict[str, int], modulus: int) -> dict[str, int]:
    """Run fp_* / fpw_* statements (values modulo ``modulus``): variables are named by their C
    expressions without * and &."""
    env = dict(env)
    for raw in text.split("\n"):
        line = raw.strip()
        if line in ("{", "}") or re.fullmatch(r"fpw?_t \w+;", line):
            continue
        if m := re.fullmatch(r"fpw?_t (\w+) = (.+);", line):
            env[m.group(1)] = env[_name(m.group(2))]
            continue
        if m := re.fullmatch(r"(\S+) = (\S+);", line):
            env[_name(m.group(1))] = env[_name(m.group(2))]
            continue
        m = CALL.match(line)
        assert m, f"cannot run {line!r}"
        fn, args = m.group(1), [a.strip() for a in m.group(2).split(",")]
        v = [env.get(_name(a)) for a in args]
        if fn in ("fp_set_zero",):
            env[_name(args[0])] = 0
        elif fn == "memset":
            env[_name(args[0])] = 0
        elif fn in ("fp_dbl",):
            env[_name(args[0])] = 2 * v[1] % modulus
        elif fn in ("fp_add", "fpw_add"):
            env[_name(args[0])] = (v[1] + v[2]) % modulus
        elif fn in ("fp_sub", "fpw_sub"):
            env[_name(args[0])] = (v[1] - v[2]) % modulus
        elif fn in ("fp_neg", "fpw_neg"):
            env[_name(args[0])] = -v[1] % modulus
        elif fn == "fpw_mul_small_mod":
            k, neg, steps = int(args[2]), int(args[3]), int(args[4])
            assert steps == wide_small_steps(k, bool(neg))
            env[_name(args[0])] = (-k if neg else k) * v[1] % modulus
        elif fn == "fpw_mul_small_add_mod":
            k, neg, steps, bneg = int(args[2]), int(args[3]), int(args[4]), int(args[6])
            assert steps == wide_small_steps(k, bool(neg))
            b = 0 if args[5] == "NULL" else (-v[5] if bneg else v[5])
            env[_name(args[0])] = ((-k if neg else k) * v[1] + b) % modulus
        else:
            raise AssertionError(f"unknown call {fn} in {line!r}")
    return env


P = (1 << 61) - 1
SMALL = range(-13, 14)


def lazy_model(**kw) -> LazyReductionModel:
    return replace(LazyReductionModel(fp2_mul=True, beta_k=1, tower=True, headroom=5), **kw)


@pytest.mark.parametrize("short_double", [True, False])
def test_fp_times_computes_k_a(short_double: bool) -> None:
    for k in SMALL:
        text = tower.fp_times("out", "a", k, short_double)
        assert all(line.startswith("    ") for line in text.split("\n")) and not text.endswith("\n")
        assert run(text, {"a": 5}, P)["out"] == 5 * k % P, (k, text)
    assert tower.fp_times("out", "a", 2) == "    fp_dbl(out, a);"
    assert tower.fp_times("&r", "&x", -2, short_double=False) == (
        "    {\n        fp_t acc_ = *&x;\n        fp_dbl(&acc_, &acc_);\n        *&r = acc_;\n    }\n    fp_neg(&r, &r);")


def test_fp_lincomb_computes_ka_a_plus_kb_b() -> None:
    for ka in range(-5, 6):
        for kb in range(-5, 6):
            text = tower.fp_lincomb("&t", "&x", ka, "&y", kb)
            assert run(text, {"x": 3, "y": 7}, P)["t"] == (3 * ka + 7 * kb) % P, (ka, kb, text)
    assert tower.fp_lincomb("&t", "&x", 1, "&y", -1) == "    fp_sub(&t, &x, &y);"


def test_indent_rest_is_jinjas_indent() -> None:
    indent = jinja2.Environment().filters["indent"]
    for text in ("a", "a\nb", "  a\n\n  b", "a\n"):
        assert tower.indent_rest(text) == indent(text, 4)


@pytest.mark.parametrize("quotient", [None, (194, 21)])
def test_wide_times_and_lincomb(quotient) -> None:
    lazy = lazy_model(wide_small=(3, 9), wide_quotient=quotient)
    for k in SMALL:
        text = tower.wide_times(lazy, "out", "a", k)
        assert run(text, {"a": 11}, P)["out"] == 11 * k % P, (k, text)
        one_pass = abs(k) in (3, 9)
        assert ("fpw_mul_small" in text) == one_pass
        assert ("fpw_mul_small_add_mod" in text) == (one_pass and quotient is not None)
    for ka in range(-9, 10):
        for kb in (-9, -3, -1, 0, 1, 2, 3):
            text = tower.wide_lincomb(lazy, "&t", "&x", ka, "&y", kb)
            assert run(text, {"x": 3, "y": 7}, P)["t"] == (3 * ka + 7 * kb) % P, (ka, kb, text)
    fused = tower.wide_lincomb(lazy, "&out->c0", "&a->c1", -9, "&b->c0", 1)
    assert (fused.count("\n") == 0) == (quotient is not None)


def test_wide_steps_is_the_derivations_count() -> None:
    for k in range(-40, 41):
        if k:
            old = (-k).bit_length() if k < 0 else (k - 1).bit_length()  # the formula tower.h.j2 had
            assert tower.wide_steps(k) == old == wide_small_steps(abs(k), k < 0)
    assert tower.mul_small_add(-4, "a", "NULL", "a") == "fpw_mul_small_add_mod(a, a, 4, 1, 3, NULL, 0);"


def test_lazy_sums_follow_the_bounds() -> None:
    plain, sums, neither = lazy_model(fp3_plain_sums=True), lazy_model(fp2_operand_sums=True), lazy_model()
    assert tower.operand_sum(plain, "fp", "s", "&a", "&b") == "fp_add_unreduced(s.l, &a, &b);"
    assert tower.operand_sum(sums, "fp2", "s", "&a", "&b") == "fp2_add_unreduced(&s, &a, &b);"
    assert tower.operand_sum(neither, "fp4", "s", "&a", "&b") == "fp4_add(&s, &a, &b);"
    assert tower.exact_sub(plain, "fp", "x", "x", "t") == "(void)fp_wide_sub(x.l, x.l, t.l);"
    assert tower.cross_sub(sums, "fp2", "x", "x", "t") == "fp2w_sub_cross(&x, &x, &t);"
    assert tower.cross_sub(neither, "fp4", "o", "x", "t") == "fp4w_sub(&o, &x, &t);"
    text = tower.karatsuba_cross(neither, "fp4", ("&a->c0", "&a->c1"), ("b0", "b1"), ("t0", "t1"), "out->c1")
    assert text.split("\n") == ["    fp4_add(&s, &a->c0, &a->c1);", "    fp4_add(&u, b0, b1);",
                                "    fp4w_mul(&x, &s, &u);", "    fp4w_sub(&x, &x, &t0);",
                                "    fp4w_sub(&out->c1, &x, &t1);"]


def test_karabina_power_record() -> None:
    k = tower.KarabinaPower("gt_exp_by_x", "a^x:", ((0, 1), (3, -1), (5, 1)), True)
    assert k.formula == "2^0 - 2^3 + 2^5"
    assert (k.uncompressed, k.count, k.compressed, k.squarings) == (1, 3, 2, 5)
    assert k.steps == ((0, 0, 0), (3, 1, 3), (2, 2, 5)) and k.conjugated == (1,)
    assert tower.KarabinaPower("f", "", ((2, 1), (4, 1)), False).uncompressed == 0


def test_line_slots() -> None:
    d, m = pairing.line_slots("D"), pairing.line_slots("M")
    assert (d.a, d.c, d.ab, d.bb, d.bc, d.zero) == ("y", "c", "c1.c0", "c0.c1", "c0.c2", "c1.c2")
    assert (m.a, m.c, m.ab, m.bb, m.bc, m.zero) == ("c", "y", "c0.c1", "c0.c2", "c1.c2", "c1.c0")


# ---------------------------------------------------------------------------------------------
# The helpers on shipped curves
# ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def model(name: str) -> CurveModel:
    return build_model(load_curve_file(REPO_ROOT / "curves" / f"{name}.toml"))


def test_tower_emit_k12() -> None:
    m = model("bn254")
    tw = tower.tower_emit(m)
    assert (tw.fq, tw.fq3, tw.fq6, tw.fq_title) == ("fp2", "fp6", "fp12", "Fp2")
    assert tw.xi_pair == (9, 1) and tw.xi_factors == (9, 1, m.tower.beta)
    ws = tw.wide_small
    assert ws.rows == wide_small_steps(9, True) and ws.last_row == ws.rows - 1 and len(ws.multiples) == ws.rows
    assert ws.multiples[-1] == c_limbs(m.p, m.fp.limbs64 + (1 if ws.top else 0))
    shift, mult = m.lazy.wide_quotient
    assert f"* {mult}u) >> 64);" in ws.quotient_statement and ws.quotient_statement.startswith("q = (limb_t)")
    assert tw.gamma_rows == 4 and tw.gamma_step == 3 and len(tw.gamma_table) == 4
    # (xi0 + xi1 u) a, both coefficients, against the arithmetic of Fp2
    a0, a1, beta = 5, 7, m.tower.beta
    env = run(tw.quadratic_by_small(9, 1, False), {"a->c0": a0, "a->c1": a1}, m.p)
    assert (env["r.c0"], env["r.c1"]) == ((9 * a0 + beta * a1) % m.p, (a0 + 9 * a1) % m.p)
    env = run(tw.xi_parts.split("\n", 1)[1], {"a->c0": a0, "a->c1": a1}, m.p)
    assert (env["t0"], env["t1"]) == ((9 * a0 + beta * a1) % m.p, (a0 + 9 * a1) % m.p)
    assert tw.fp2_level.norm.count("\n") == 3 and tw.fp4_level.norm == "    fp4_norm(&n, a);"
    L = tw.fp2_lazy
    assert (L.beta_k, L.sub_room, L.cross, L.half) == (1, 4, 0, True)
    gm = tw.gt_membership
    assert gm.powers == tuple((j, j - 1) for j in range(1, gm.nx)) and all(terms for _, terms in gm.rows)


def test_tower_emit_k24_and_k6() -> None:
    m = model("bls24-315")
    tw = tower.tower_emit(m)
    assert tw.fq == "fp4" and tw.xi_is_v and tw.nu_pair == (0, 1) and tw.nu_small and tw.gamma_rows == 5
    L = tw.fp2_lazy
    assert (L.beta_add, L.add_bound, L.add_room, L.cross, L.half, L.factor) == (13, 14, 28, 14, True, 7)
    assert tw.nu_plain.split("\n") == ["    fpw_mac_small(out->c0.l, b->c1.l, 13, a->c0.l);",
                                       "    (void)fp_wide_add(out->c1.l, a->c1.l, b->c0.l);"]
    assert tw.fp4_karatsuba_sub == "sub_plain" and tw.beta_nu1 == 13
    m6 = model("bw6-761")
    t6 = tower.tower_emit(m6)
    assert (t6.fq, t6.fp_xi, t6.xi_root, t6.fq_title, t6.frob_third, t6.frob_sixth) == ("fp", -4, 2, "Fp", 2, 1)
    assert t6.xi_small_add("a", "a", "NULL") == "fpw_mul_small_add_mod(a, a, 4, 1, 3, NULL, 0);"
    assert t6.cubic_operand_add == "fp3_add_unreduced"
    assert [k.name for k in t6.karabina_powers] == [f"gt_pow_karabina_{e}" for e, _ in m6.final_exp.karabina_powers]


def test_tower_emit_k48_shifts() -> None:
    """The Fp8 level (k = 48) multiplies by omega and xi with shifts exactly where the tower gives
    omega = +-v and xi = +-w (the other values take a product by the constant), read from a
    stand-in of the model's tower: deriving a k = 48 model takes minutes."""
    from types import SimpleNamespace

    from generator.emit.core import _nested

    p = 101

    def emit(omega: tuple[int, ...], xi: tuple[int, ...]) -> tower.TowerEmit:
        t = SimpleNamespace(names={"fq": "fp8", "fq3": "fp24", "fq6": "fp48"}, omega=omega, xi=xi)
        return tower.TowerEmit(SimpleNamespace(p=p, lazy=None, tower=t, fq_degree=8))  # type: ignore[arg-type]

    w = (0, 0, 0, 0, 1, 0, 0, 0)
    assert (emit((0, 0, p - 1, 0), tuple(-c % p for c in w)).omega_v_sign, emit((0, 0, p - 1, 0), w).xi_w_sign) == (-1, 1)
    assert emit((0, 0, 1, 0), w).omega_v_sign == 1 and emit((0, 0, 2, 0), w).omega_v_sign == 0
    assert emit((1, 0, 1, 0), w).omega_v_sign == 0 and emit((0, 0, 1, 0), (0, 0, 0, 0, 1, 1, 0, 0)).xi_w_sign == 0
    assert tower.TowerEmit(model("bls24-315")).xi_w_sign == 0
    assert _nested([0, 0, -1, 0], "uv") == "(0 + 0 u) + (-1 + 0 u) v"
    assert _nested(list(range(8)), "uvw") == "((0 + 1 u) + (2 + 3 u) v) + ((4 + 5 u) + (6 + 7 u) v) w"


def test_pairing_twist_b3() -> None:
    for name in ("bls12-381", "bw6-761"):
        m = model(name)
        b3 = pairing.twist_b3_small(m)
        assert b3 is not None and "fp_dbl(out" not in b3.statements  # pairing.h writes 2 a as a chain
        if m.fq_degree == 2:
            env = run(b3.statements, {"a->c0": 3, "a->c1": 5}, m.p)
            k0, k1 = b3.ks
            t0, t1 = (k0 * 3 + m.tower.beta * k1 * 5), (k1 * 3 + k0 * 5)
            assert (env["out->c0"], env["out->c1"]) == (b3.g * t0 % m.p, b3.g * t1 % m.p)
        else:
            assert run(b3.statements, {"a": 3}, m.p)["out"] == 3 * b3.g * b3.ks[0] % m.p
    m = model("bls24-315")
    mono = pairing.twist_b3_monomial(m)
    assert mono is not None and pairing.twist_b3_small(m) is None
    for i, (_j, k, small) in enumerate(m.twist.b3_monomial):
        target = pairing.FQ_COEFFICIENTS[4][i]
        assert f"r.{target}" in mono.statements and ((i, k) in mono.constants) == (not small)
    assert pairing.pairing_emit(m).line_crosses[1][1] == "c1.c1"


def test_tower_renders_per_level() -> None:
    """tower.h.j2 is the entry of the parts under templates/c/tower/, and renders from the model
    alone (the tests render it with the common context only)."""
    text = (TEMPLATES / "c" / "tower.h.j2").read_text(encoding="utf-8")
    parts = INCLUDE.findall(text)
    assert parts and all(part.startswith("c/tower/_") for part in parts)
    m = model("bn254")
    out = render("c/tower.h.j2", header="h", m=m, lit=Literals(m), names=m.tower.names, target="generic64")
    assert out.startswith("/* h */") and out.rstrip().endswith("#endif /* PF_TOWER_H */")
    assert "fp2_sqrt_vartime" in out and "fp12_cyclotomic_sqr" in out and "gt_in_subgroup_vartime" in out
