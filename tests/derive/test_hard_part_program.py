"""A hard-part program stated in a curve file (generator/derive/hard_part_program.py): the two BW6
files' El Housni–Guillevic chains are proved by exponent tracking, independently of the
derivation's own check, and chosen by the cost model; an altered chain, a chain the model rates
dearer and malformed texts are handled as they should be."""

from __future__ import annotations

import pytest
from conftest import REPO_ROOT

from generator.derive.checks import DerivationError
from generator.derive.families import X, cyclotomic, derive_family
from generator.derive.final_exponentiation import derive_final_exponentiation
from generator.derive.gt_program import (
    Conj,
    ExpByX,
    MulGT,
    PowKarabina,
    PowSmall,
    exp_by_x_cost,
    program_cost,
    track_exponent,
)
from generator.derive.hard_part_program import HardPartSyntaxError, compile_hard_part
from generator.derive.model import derive_core
from generator.params import CurveFileError, load_curve_file, parse_curve_text, parse_polynomial_in_x

CURVES = REPO_ROOT / "curves"


def _setting(name: str):
    spec = load_curve_file(CURVES / f"{name}.toml")
    fam = derive_family(spec.family, spec.x, name, spec.ht, spec.hy, spec.inner_family, spec.trace_case)
    m_poly = parse_polynomial_in_x(spec.gt_exponent, "gt_exponent", name) if spec.gt_exponent else None
    return spec, fam, m_poly


def _derived(name: str, hard_part: str | None = None):
    spec, fam, m_poly = _setting(name)
    return derive_final_exponentiation(fam.p_poly, fam.r_poly, fam.k, spec.x, fam.p, fam.r, name, m_poly, hard_part)


@pytest.mark.parametrize("name", ["bw6-633", "bw6-761"])
def test_stated_bw6_chain_is_proved_and_chosen(name: str) -> None:
    """The file's chain computes f^(m Phi_6(p)/r) for the file's m (tracked here on integers, not
    through the derivation), and the cost model prefers it to the derived base-p program."""
    spec, fam, m_poly = _setting(name)
    base = _derived(name)
    chosen = _derived(name, spec.hard_part)
    cost = exp_by_x_cost(base.exp_by_x_chain, base.exp_by_x_compressed, 6)
    ops, nregs, result = compile_hard_part(spec.hard_part, spec.x, 6, name, cost)
    phi = cyclotomic(6, fam.p)
    m = int(m_poly.subs(X, spec.x))
    assert m == base.m == chosen.m and track_exponent(tuple(ops), nregs, result, spec.x, fam.p, phi) == m * (phi // fam.r) % phi
    assert chosen.form.startswith("the curve file's hard_part program")
    assert program_cost(chosen.ops, cost) == pytest.approx(program_cost(ops, cost))
    # the chains replace the base-p multi-exponentiation's 50-odd multiplications by about 20
    assert program_cost(chosen.ops, cost) < program_cost(base.ops, cost) - 10
    assert sum(isinstance(op, MulGT) for op in ops) <= 21 < sum(isinstance(op, MulGT) for op in base.ops)
    # the rendered model is the stated program
    assert derive_core(spec).final_exp.form == chosen.form


def test_powers_follow_the_cost_model() -> None:
    """a ** (x - 1): one chain on |x - 1| where exponentiations by x are chains (BW6-633's 32-bit
    x, where an Fp inversion weighs 6 multiplications in GT), one Karabina power by x - 1 where
    they are compressed (BW6-761's 64-bit x: 6 signed digits against x's 7, so one product fewer
    than a^x times conj(a)); a ** x is always the exponentiation by x."""
    for name, compressed in (("bw6-633", False), ("bw6-761", True)):
        spec, fam, _ = _setting(name)
        base = _derived(name)
        assert (base.exp_by_x_compressed is not None) == compressed
        cost = exp_by_x_cost(base.exp_by_x_chain, base.exp_by_x_compressed, 6)
        ops, _, _ = compile_hard_part("out = f ** (x - 1)", spec.x, 6, name, cost)
        if compressed:
            assert [type(op) for op in ops] == [PowKarabina] and ops[0].exponent == spec.x - 1
            assert len(ops[0].digits) < len(base.exp_by_x_compressed)
        else:
            assert [type(op) for op in ops] == [PowSmall, Conj] and ops[0].chain.exponent == abs(spec.x - 1)
        ops, _, _ = compile_hard_part("out = f ** x", spec.x, 6, name, cost)
        assert [type(op) for op in ops] == [ExpByX]


def test_altered_chain_is_refused() -> None:
    """Changing one small constant (d2 = 13 into 12) or dropping the final cube breaks the proof."""
    spec, _, _ = _setting("bw6-633")
    for altered in (spec.hard_part.replace("h ** 13", "h ** 12"),
                    spec.hard_part.replace("out = (a * i) ** 3", "out = a * i")):
        assert altered != spec.hard_part
        with pytest.raises(DerivationError, match="hard_part computes"):
            _derived("bw6-633", altered)


def test_dearer_chain_is_proved_but_not_chosen() -> None:
    """Hayashida–Hayasaka–Teruya's BLS12 hard part 3 + (x - 1)^2 (x + p)(x^2 + p^2 - 1), written
    as a chain with one wasted multiplication pair: exponent tracking accepts it, and the derived
    factored program (the same form, without the waste) is kept."""
    text = """
a = f ** (x - 1)
a = a ** (x - 1)
b = a ** x * frob(a, 1)
c = (b ** x) ** x * frob(b, 2) * conj(b)
out = c * f ** 3 * f * conj(f)
"""
    base = _derived("bls12-381")
    chosen = _derived("bls12-381", text)
    assert chosen.form == base.form and chosen.ops == base.ops
    spec, fam, _ = _setting("bls12-381")
    ops, nregs, result = compile_hard_part(text, spec.x, 12, "bls12-381", 20.0)
    phi = cyclotomic(12, fam.p)
    assert track_exponent(tuple(ops), nregs, result, spec.x, fam.p, phi) == 3 * (phi // fam.r) % phi


@pytest.mark.parametrize("text, message", [
    ("out = f + f", "not a GT expression"),
    ("out = g * f", "used before it is assigned"),
    ("a = f ** x", "never assigns 'out'"),
    ("out = frob(f, 6)", "0 < n < 6"),
    ("out = f ** (x / 2)", "not a non-zero integer"),
    ("out = f ** (x - x)", "zero polynomial"),
    ("f = f ** x\nout = f", "reserved"),
    ("out = f ** y", "polynomial in x"),
    ("out = f **", "line 1"),
    ("out, g = f, f", "assign one name"),
    ("out = __import__('os')", "not a GT expression"),
    ("out = f ** (x^40)", "more than 1024 bits"),
])
def test_malformed_programs_are_refused(text: str, message: str) -> None:
    spec, _, _ = _setting("bw6-633")
    with pytest.raises(HardPartSyntaxError, match=message):
        compile_hard_part(text, spec.x, 6, "bw6-633", 20.0)


def test_curve_file_key_must_be_text() -> None:
    with pytest.raises(CurveFileError, match="hard_part"):
        parse_curve_text('name = "A"\nfamily = "BN"\nx = 1\nhard_part = 5\n', "a.toml")
