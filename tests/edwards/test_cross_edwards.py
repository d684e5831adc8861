"""Cross-target tests of the twisted Edwards packages (docs/targets.md; the twisted Edwards companion curves): the arm64, arm32
and generic32 builds of each package's known-answer program (generated/<pkg>/c/kat_main.c,
rendered from templates/c/edwards_kat_main.c.j2), run under qemu, print byte-identical results
to the native x86-64 build, and every result matches generator.reference
(tests/cross_kat_edwards.py): Fq and Fr arithmetic, inversion, square roots and decoding;
complete addition and doubling; constant-time and variable-time [k]P, and the GLV paths with
psi where the curve has the endomorphism; the on-curve and subgroup checks; cofactor clearing;
x from y and a sign (the compressed encodings); Pippenger's MSM with the batch conversion to
affine. The ARM binaries are disassembled to check that the field multiplications run the
assembly kernels.

Bandersnatch (GLV, 4 limbs) and ed_on_bw6_761 (6 limbs) run by default; the other companions are
marked slow (the same templates at 4 limbs).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cross_kat
import pytest
from build_cache import cached_kat
from conftest import REPO_ROOT, edwards_packages, skip_or_fail
from cross_kat_edwards import make_edwards_vectors

from generator import cross_build
from generator.emit.context import field_kernels
from generator.params import load_curve_file
from generator.pipeline import derive_model

TARGETS = ("native", "arm64", "arm32", "generic32")
ASM_TARGETS = ("arm64", "arm32")
DEFAULT = ("bandersnatch", "ed_on_bw6_761")  # GLV at 4 limbs; 6 limbs


def _require(targets: tuple[str, ...]) -> None:
    missing = sorted({tool for t in targets for tool in cross_build.TARGETS[t].missing_tools()})
    if missing:
        skip_or_fail(f"cross tools missing: {', '.join(missing)} (apt-get install gcc-aarch64-linux-gnu "
                     "gcc-arm-linux-gnueabihf qemu-user)")


def _curve_file(pkg: str) -> Path:
    for path in sorted((REPO_ROOT / "curves").glob("*.toml")):
        if load_curve_file(path).package == pkg:
            return path
    raise LookupError(f"no curve file for {pkg}")


def _params() -> list:
    packages = sorted(set(edwards_packages()) | set(DEFAULT))
    return [pytest.param(p, marks=[pytest.mark.xdist_group(f"cross-{p}"), *([] if p in DEFAULT else [pytest.mark.slow])])
            for p in packages]


@pytest.fixture(scope="module", params=_params())
def edwards_cross_run(request):
    """(model, vectors, binaries, outputs) of one Edwards curve on every target."""
    _require(TARGETS)
    pkg = request.param
    pkg_dir = REPO_ROOT / "generated" / pkg
    if not (pkg_dir / cross_build.KAT_SOURCE).is_file():
        skip_or_fail(f"generated/{pkg}/{cross_build.KAT_SOURCE} is missing (run `gen-curve --all`)")
    model = derive_model(_curve_file(pkg))
    with ThreadPoolExecutor(max_workers=2) as pool:
        builds = {t: pool.submit(cached_kat, pkg_dir, t) for t in TARGETS}
        vectors = make_edwards_vectors(model)
        binaries = {t: future.result() for t, future in builds.items()}
    requests = "".join(v.line() for v in vectors)
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {t: pool.submit(cross_kat.run_kat, binaries[t], t, requests) for t in TARGETS}
        outputs = {t: future.result() for t, future in runs.items()}
    return model, vectors, binaries, outputs


def test_every_target_matches_reference_and_native(edwards_cross_run) -> None:
    model, vectors, _, outputs = edwards_cross_run
    ops = {v.op for v in vectors}
    expected = {"fq_inv", "fq_sqrt", "fq_decode", "fr_mul", "fr_sqrt", "te_add", "te_dbl", "te_mul_ct",
                "te_mul_vartime", "te_check", "te_clear_cofactor", "te_recover_x", "te_msm"}
    if model.endo is not None:
        expected |= {"te_psi", "te_mul_glv_ct", "te_mul_glv_vartime"}
    assert expected <= ops, expected - ops
    # the checks see both answers: points in and outside the subgroup, and off the curve
    assert {v.expected for v in vectors if v.op == "te_check"} == {b"\x01\x01", b"\x01\x00", b"\x00\x00"}
    bad = cross_kat.compare(vectors, outputs)
    assert not bad, f"{model.name}: {len(bad)} mismatches, e.g.\n" + "\n".join(map(str, bad[:5]))


def test_a_wrong_answer_is_caught(edwards_cross_run) -> None:
    """The comparison is not vacuous: one flipped output bit on one target is reported."""
    model, vectors, _, outputs = edwards_cross_run
    i = next(k for k, v in enumerate(vectors) if v.op == "te_mul_ct")
    line = outputs["arm32"][i]
    altered = dict(outputs, arm32=[*outputs["arm32"][:i], f"{int(line[0], 16) ^ 1:x}{line[1:]}", *outputs["arm32"][i + 1:]])
    bad = cross_kat.compare(vectors, altered)
    assert [(b.target, b.vector.op) for b in bad] == [("arm32", "te_mul_ct")]


@pytest.mark.parametrize("target", ASM_TARGETS)
def test_field_multiplication_runs_the_assembly_kernels(edwards_cross_run, target) -> None:
    """The multiplication kernel of each field shape of the curve is linked in and uses the
    target's instruction; the portable 32-bit build has no kernel."""
    model, _, binaries, _ = edwards_cross_run
    found = cross_kat.kernel_instructions(binaries[target], target)
    bits = cross_build.TARGETS[target].limb_bits
    for shape in field_kernels(model):
        if shape.limb_bits != bits:
            continue
        name = f"pf_mul_mont_{shape.limbs}{'_nc' if shape.no_carry else ''}"
        copies = [counts for symbol, counts in found.items() if symbol == name or symbol.startswith(name + ".")]
        assert copies, f"{model.name} {target}: no {name} in the binary (the field code did not use the kernel)"
    instruction = cross_build.TARGETS[target].kernel_instruction
    for symbol, counts in found.items():
        assert counts[instruction] > 0, f"{model.name} {target}: {symbol} has no {instruction}"
    assert not cross_kat.kernel_instructions(binaries["generic32"], "arm32")
