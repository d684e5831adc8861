"""The secret paths of every generated twisted Edwards curve are constant time under valgrind
memcheck (security/ct/ct_edwards.c, the method of tests/security/test_constant_time.py): [k]P, the unified
addition and doubling, SWPoint's [k]P, complete addition and maps where the curve has it, inversion and square roots, and the public-data operations that are
constant time all the same; te_mul_vartime, the negative control, must be flagged. Slow (about
5 s of CPU per curve and variant: 64- and 32-bit limbs, and the x86_64-adx kernels on x86-64): run with --runslow (CI runs it)."""

from __future__ import annotations

import pytest
from conftest import GENERATED_DIR, edwards_packages, skip_or_fail

from security.constant_time import build_ct, ct_variants, have_memcheck, list_checks, memcheck_checks, verdict

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("bits", ct_variants())
@pytest.mark.parametrize("pkg", edwards_packages() or ["none"])
def test_edwards_constant_time(tmp_path, pkg: str, bits: str) -> None:
    if not have_memcheck():
        skip_or_fail("needs valgrind and valgrind/memcheck.h")
    if not (GENERATED_DIR / pkg / "c" / "edwards_core.h").is_file():
        skip_or_fail(f"generated/{pkg} is not rendered")
    exe = tmp_path / f"ct_{pkg}_{bits}"
    proc = build_ct(GENERATED_DIR / pkg, bits, exe)
    log = proc.communicate()[0]
    assert proc.returncode == 0, f"ct_edwards.c does not compile against generated/{pkg}:\n{log}"
    checks = list_checks(exe)
    names = [n for n, _ in checks]
    for required in ("te_mul_ct", "te_add", "te_dbl", "fq_inv", "fr_inv", "fq_sqrt", "te_mul_vartime"):
        assert required in names
    assert ("te_mul_vartime", "vartime") in checks
    if "te_mul_glv_ct" in (GENERATED_DIR / pkg / "c" / "edwards.h").read_text():   # a derived endomorphism
        assert ("te_mul_glv_ct", "ct") in checks and ("te_mul_glv_vartime", "vartime") in checks
    if (GENERATED_DIR / pkg / "c" / "edwards_sw.h").is_file():   # SWPoint's C ([weierstrass] section)
        for name in ("sw_mul_subgroup_ct", "sw_mul_any_ct", "sw_mul_ct", "sw_add_ct", "sw_dbl", "te_from_sw", "sw_from_te",
                     "sw_clear_cofactor_ct"):
            assert (name, "ct") in checks
        assert ("sw_mul_subgroup_vartime", "vartime") in checks
    results = memcheck_checks(exe, names)
    problems = []
    for name, expect in checks:
        result = results[name]
        problem = verdict(expect, result)
        if problem:
            problems.append(f"{name} ({expect}): {problem}")
    assert not problems, "\n".join(problems)
