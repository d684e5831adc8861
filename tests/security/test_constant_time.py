"""The secret paths of every generated curve are constant time, checked with valgrind memcheck
(security/ct/ct_curve.c, security/constant_time.py): constant-time scalar multiplication in G1
and G2, complete addition, GT exponentiation, inversion and square root in Fp, Fr and Fp2, with
64- and 32-bit limbs (safegcd and Fermat inversion) and, on x86-64, the x86_64-adx field kernels
that the default module runs, signing and SkToPk, and the public-data
operations that are constant time all the same: every checked function whose name does not end in
_vartime must be clean.  The negative controls (variable-time multiplications, addition, the
multi-pair Miller loop) must be flagged, so a clean result means something.  Slow (about 20 s of CPU per curve and limb width):
run with --runslow, or `nox -s constant_time` (CI runs it).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import GENERATED_DIR, generated_packages, skip_or_fail

from security.constant_time import build_ct, ct_variants, have_memcheck, list_checks, memcheck, verdict

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def binaries(tmp_path_factory):
    """Compile every (curve, variant) harness at once; they build in parallel."""
    if not have_memcheck():
        skip_or_fail("needs valgrind and valgrind/memcheck.h")
    tmp = tmp_path_factory.mktemp("ct")
    jobs = {}
    for pkg in generated_packages():
        for bits in ct_variants():
            exe = tmp / f"ct_{pkg}_{bits}"
            jobs[(pkg, bits)] = (exe, build_ct(GENERATED_DIR / pkg, bits, exe))
    return jobs


def built(binaries, pkg: str, bits: str) -> Path:
    if (pkg, bits) not in binaries:
        skip_or_fail(f"generated/{pkg} is not rendered")
    exe, proc = binaries[(pkg, bits)]
    log = proc.communicate()[0] if proc.returncode is None else ""
    assert proc.returncode == 0, f"ct_curve.c does not compile against generated/{pkg}:\n{log}"
    return exe


@pytest.mark.parametrize("bits", ct_variants())
@pytest.mark.parametrize("pkg", generated_packages() or ["none"])
def test_constant_time(binaries, pkg: str, bits: str) -> None:
    exe = built(binaries, pkg, bits)
    checks = list_checks(exe)
    expects = {e for _, e in checks}
    assert {"ct", "vartime"} <= expects, checks
    names = [n for n, _ in checks]
    for required in ("g1_mul_ct", "g2_mul_ct", "fp_inv", "fr_inv", "fp_sqrt", "g1_mul_vartime"):
        assert required in names
    assert all((e == "ct") != n.endswith("_vartime") for n, e in checks), checks
    required = checks
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda check: memcheck([str(exe), check[0]]), required))
    problems = []
    for (name, expect), result in zip(required, results, strict=True):
        problem = verdict(expect, result)
        if problem:
            problems.append(f"{name} ({expect}): {problem}\n{result.log[-3000:]}")
    assert not problems, "\n\n".join(problems)
