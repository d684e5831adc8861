"""The secret paths of every generated curve are constant time, checked with valgrind memcheck
(security/ct/ct_curve.c, security/constant_time.py): constant-time scalar multiplication in G1
and G2, complete addition, GT exponentiation, inversion and square root in Fp, Fr and Fp2, with
64- and 32-bit limbs (safegcd and Fermat inversion) and, on x86-64, the x86_64-adx field kernels
that the default module runs, signing and SkToPk, and the public-data
operations that are constant time all the same: every checked function whose name does not end in
_vartime must be clean.  The negative controls (variable-time multiplications, addition, the
multi-pair Miller loop) must be flagged, so a clean result means something.  The checks of one
binary share one valgrind process per CPU (security.constant_time.memcheck_checks).  Slow (about 10 s of
CPU per curve and limb width, most of it compiling): run with --runslow, or `nox -s constant_time` (CI runs it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GENERATED_DIR, generated_packages, skip_or_fail

from security.constant_time import (
    build_ct,
    ct_variants,
    have_memcheck,
    list_checks,
    memcheck,
    memcheck_checks,
    verdict,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def binaries(request, tmp_path_factory):
    """Compile the (curve, variant) harnesses this run's tests need at once; they build in parallel
    (`-k bls48_581` builds BLS48-581's three, not every curve's)."""
    if not have_memcheck():
        skip_or_fail("needs valgrind and valgrind/memcheck.h")
    wanted = {(item.callspec.params["pkg"], item.callspec.params["bits"]) for item in request.session.items
              if item.originalname == "test_constant_time" and hasattr(item, "callspec")}
    tmp = tmp_path_factory.mktemp("ct")
    jobs = {}
    for pkg, bits in sorted(wanted):
        if pkg in generated_packages():
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
    results = memcheck_checks(exe, names)
    problems = []
    for name, expect in checks:
        result = results[name]
        problem = verdict(expect, result)
        if problem:
            problems.append(f"{name} ({expect}): {problem}\n{result.log[-3000:]}")
    assert not problems, "\n\n".join(problems)


def test_shared_process_attributes_each_report_to_its_check(tmp_path) -> None:
    """Checks run in one valgrind process report what each would alone: a flagged control, a check
    that may branch, then clean ones, in that order in one process (so a report carried over
    from an earlier check would show up), against one process per check."""
    if not have_memcheck():
        skip_or_fail("needs valgrind and valgrind/memcheck.h")
    pkg = next(iter(generated_packages()), None)
    if pkg is None:
        skip_or_fail("no generated pairing package")
    exe = tmp_path / "ct"
    proc = build_ct(GENERATED_DIR / pkg, "64", exe)
    log = proc.communicate()[0]
    assert proc.returncode == 0, f"ct_curve.c does not compile against generated/{pkg}:\n{log}"
    names = ["g1_mul_vartime", "g1_add_vartime", "fp_inv", "g1_mul_ct", "pf_final_exp"]
    shared = memcheck_checks(exe, names, jobs=1)
    for name in names:
        alone = memcheck([str(exe), name])
        assert (shared[name].returncode, shared[name].leaks > 0) == (alone.returncode, alone.leaks > 0), name
    assert shared["g1_mul_vartime"].returncode == 99 and shared["g1_mul_vartime"].leaks > 0
    assert all(shared[name].clean for name in ("fp_inv", "g1_mul_ct", "pf_final_exp"))
