"""The line-by-line products of the Miller loop (templates/c/pairing.h.j2) against the plain
multiplication in GT.

For every generated curve, tests/c_harness/line_products.c is compiled against the package's C
headers, with the tower's lazy reduction off and on (PF_TOWER_LAZY) and, on x86-64 CPUs with BMI2
and ADX, with the x86_64-adx kernels; it multiplies random lines and random elements of GT with
pf_line_mul, pf_mul_by_line_product and pf_mul_by_line and with the general fk_mul, and every
result must agree; pf_line_to_gt (the first line of the Miller loop, which becomes f) must give the
line written out slot by slot.  The twist type (which slots a line fills) comes from the curve's model.  Curves
whose pairing.h leaves line-by-line products off (PF_LINE_BY_LINE 0: 4-limb fields) check
pf_mul_by_line alone. Where the x86_64-adx build has the doubling step's AVX-512 IFMA kernel, the
harness also compares pf_line_dbl (the kernel, where the CPU runs it) with the limb version on
points at the edges and at random.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from c_kernel_harness import ADX, PACKAGES, compile_harness, run_counts
from conftest import TESTS_DIR

from bench.cbench import cpu_flags, curve_file
from generator.emit.tower import tower_emit
from generator.pipeline import derive_model

HARNESS = TESTS_DIR / "c_harness" / "line_products.c"
BUILDS = [("portable", 0), ("portable", 1)] + ([("adx", 0), ("adx", 1)] if ADX else [])


@pytest.mark.parametrize("target,lazy", BUILDS, ids=[f"{t}-lazy{z}" for t, z in BUILDS])
@pytest.mark.parametrize("pkg", PACKAGES, ids=[p.name for p in PACKAGES])
def test_line_products_match_gt_mul(pkg: Path, target: str, lazy: int):
    model = derive_model(curve_file(pkg))
    if lazy and not model.lazy.tower:
        pytest.skip("the tower has no lazy-reduction path for this curve")
    names = model.tower.names
    defines = (f"PF_TOWER_LAZY={lazy}", f"LINE_FQ={names['fq']}", f"LINE_FK={names['fq6']}",
               f"LINE_TWIST_D={int(model.twist.kind == 'D')}")
    exe = compile_harness(HARNESS, pkg, target, defines)  # once per content
    counts = run_counts(exe)
    expected = {
        "trials": "200",
        "line_by_line": str(int(line_by_line(pkg))),
        "line_mul": "0",
        "mul_by_line_product": "0",
        "mul_by_line": "0",
        "line_to_gt": "0",
    }
    # the doubling step's IFMA kernel is compiled into the x86_64-adx build where the curve has one
    # (3 b' with small coefficients), and runs where the CPU has AVX-512 IFMA
    kernels = tower_emit(model).ifma
    if target == "adx" and kernels is not None and kernels.line_dbl is not None:
        ifma = {"avx512f", "avx512dq", "avx512vl", "avx512ifma"} <= cpu_flags()
        expected |= {"line_dbl_trials": str(729 + 200), "line_dbl_ifma": str(int(ifma)), "line_dbl": "0"}
    assert counts == expected, counts


def line_by_line(pkg: Path) -> bool:
    text = (pkg / "c" / "pairing.h").read_text(encoding="utf-8")
    match = re.search(r"^#define PF_LINE_BY_LINE ([01])$", text, re.M)
    assert match, f"{pkg.name}: pairing.h does not define PF_LINE_BY_LINE"
    return match.group(1) == "1"


@pytest.mark.slow  # derives every curve
def test_line_by_line_somewhere():
    """Both twist types' line products are exercised by some generated curve."""
    kinds = {derive_model(curve_file(p)).twist.kind for p in PACKAGES if line_by_line(p)}
    assert kinds == {"D", "M"}
