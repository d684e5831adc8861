"""generator/emit/core.py: the tower levels the Python layer (_core.pyx, _core.pyi, __init__) lays
out, checked against the curve model: the chain of levels, their degrees and tuple shapes, and the
numbers of each defining relation read back from its text."""

from __future__ import annotations

import re
from functools import lru_cache
from math import prod

import pytest
from conftest import REPO_ROOT

from generator.derive.model import CurveModel, build_model
from generator.derive.serialization import derive_serialization
from generator.emit.core import class_name, core_emit, extension_levels
from generator.params import load_curve_file


@lru_cache(maxsize=None)
def model(name: str) -> CurveModel:
    return build_model(load_curve_file(REPO_ROOT / "curves" / f"{name}.toml"))


def numbers(relation: str) -> list[int]:
    """The integers of a relation's right-hand side ("v^3 = xi = 9 + 1 u": [9, 1])."""
    return [int(v) for v in re.findall(r"-?\d+", relation.rsplit("=", 1)[1])]


@pytest.mark.parametrize("name", ["bn254", "bls24-315", "bw6-761"])
def test_levels_follow_the_tower(name: str) -> None:
    m = model(name)
    levels = extension_levels(m)
    names = m.tower.names
    assert levels[-1].c == names["fq6"] and levels[-1].deg == m.k
    assert any(lv.c == names["fq"] for lv in levels) == (m.fq_degree > 1)
    sub, below = "fp", ("Fp",)
    for lv in levels:
        assert lv.sub == sub and lv.below == below and lv.sub_cls == class_name(sub)
        assert prod(lv.shape) == lv.deg and lv.shape[0] == lv.n and lv.sub_deg * lv.n == lv.deg
        assert lv.coeffs == tuple(f"c{i}" for i in range(lv.n)) and lv.cls == class_name(lv.c)
        assert lv.quadratic == (lv.n == 2 and lv.c != names["fq6"])
        sub, below = lv.c, (lv.cls, *below)
    # the relations' numbers are the model's (as residues mod p)
    p, tw = m.p, m.tower
    for lv in levels:
        values = numbers(lv.rel)
        if lv.rel.startswith("u^2"):
            assert values == [tw.beta]
        elif "xi" in lv.rel or "alpha" in lv.rel:
            assert [v % p for v in values] == list(tw.xi) and all(abs(v) <= p // 2 for v in values)
        elif "nu" in lv.rel:
            assert [v % p for v in values] == list(tw.nu)
        else:  # the top: the square of the new variable is the one below
            assert re.fullmatch(r"\w\^2 = \w", lv.rel) and lv.rel[-1] == levels[-2].var


@pytest.mark.slow  # derives curve models of its own (5 to 16 s each)
def test_gt_flip_is_gnarks_e24_only() -> None:
    for name, flipped in (("bls24-315", ["gnark"]), ("bls12-381", []), ("bw6-761", [])):
        m = model(name)
        ser = derive_serialization(m.fp, m.fr, m.spec.serialization, name)
        core = core_emit(m, ser)
        assert [p.name for p in core.gt_flip] == flipped
        assert core.fq_cls == class_name(m.tower.names["fq"]) and core.fq6_cls == core.levels[-1].cls
