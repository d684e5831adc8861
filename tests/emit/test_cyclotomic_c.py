"""The cyclotomic squarings of tower.h (Granger–Scott's, and Karabina's compressed one with its
batched decompression) against the general squaring in GT's field, in C.

For every generated pairing curve, tests/c_harness/cyclotomic.c is compiled against the package's
C headers with the tower's lazy reduction off and on (PF_TOWER_LAZY) and, on x86-64 CPUs with BMI2
and ADX, with the x86_64-adx kernels. This covers each form the template renders: the lazy
double-width pairs, the plain ones, and the product form of a tower whose xi is -r^2 for a small
integer r (tower.xi_neg_square_root, BW6-761), which the final exponentiation's squarings use.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from c_kernel_harness import ADX, PACKAGES, compile_harness, run_counts
from conftest import TESTS_DIR

from bench.cbench import curve_file
from generator.pipeline import derive_model

HARNESS = TESTS_DIR / "c_harness" / "cyclotomic.c"
BUILDS = [("portable", 0), ("portable", 1)] + ([("adx", 0), ("adx", 1)] if ADX else [])


@pytest.mark.parametrize("target,lazy", BUILDS, ids=[f"{t}-lazy{z}" for t, z in BUILDS])
@pytest.mark.parametrize("pkg", PACKAGES, ids=[p.name for p in PACKAGES])
def test_cyclotomic_squarings_match_sqr(pkg: Path, target: str, lazy: int):
    model = derive_model(curve_file(pkg))
    if lazy and not model.lazy.tower:
        pytest.skip("the tower has no lazy-reduction path for this curve")
    names = model.tower.names
    compressed = f"{names['fq6']}_cyclotomic_sqr_compressed(" in (pkg / "c" / "tower.h").read_text(encoding="utf-8")
    defines = (f"PF_TOWER_LAZY={lazy}", f"CYC_FK={names['fq6']}", f"CYC_FQ={names['fq']}", f"CYC_K={model.k}",
               f"CYC_COMPRESSED={int(compressed)}")
    exe = compile_harness(HARNESS, pkg, target, defines)  # once per content
    counts = run_counts(exe)
    assert counts == {"trials": "100", "sqr": "0", "sqr_in_place": "0", "compressed": "0"}, counts


@pytest.mark.slow  # derives every curve
def test_product_form_where_xi_is_minus_a_square():
    """BW6-761's xi = -4 = -2^2 takes the product form; BW6-633's xi = 2 and every curve over Fp2
    or Fp4 take the squarings (the form is chosen from the derived property, not the name)."""
    roots = {}
    for pkg in PACKAGES:
        model = derive_model(curve_file(pkg))
        root = roots[pkg.name] = model.tower.xi_neg_square_root
        text = (pkg / "c" / "tower.h").read_text(encoding="utf-8")
        if root:
            assert model.tower.fq.degree == 1
            assert (model.tower.xi[0] + root * root) % model.p == 0
            assert f"xi = -{root}^2: x^2 xi + y^2" in text
        else:
            assert "x^2 xi + y^2 = (y -" not in text
    assert roots.get("bw6_761", 2) == 2 and roots.get("bw6_633", 0) == 0
