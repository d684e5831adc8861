"""Cross-target tests (docs/targets.md, "Curves and targets"): the arm64, arm32 and generic32 builds, run under qemu,
give byte-identical results to the native x86-64 build, and every result matches generator.reference.

Each curve's committed test program (generated/<pkg>/c/kat_main.c, rendered from
templates/c/kat_main.c.j2) is built once per target by generator/cross_build.py with the flags of
generator/build.py and fed the same known-answer vectors (tests/cross_kat.py): field operations of Fp and Fr
(inversion, square root and decoding included), the twist field, the cubic level and GT, G1/G2
addition, doubling, scalar multiplication, decoding checks and decompression, the Miller loop, the
final exponentiation and the pairing, on every pairing curve (G2 over Fp, Fp2 or Fp4). The ARM objects are disassembled to check that the field
multiplications really run the assembly kernels (UMULH on arm64, UMAAL on arm32), and the
kernels themselves are checked against Python integers in both their textbook and no-carry forms
at every limb count the curves (custom ones included) need.

The cross compilers and qemu come from Debian (gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf
qemu-user); without them these tests skip locally and fail under CI.
"""

from __future__ import annotations

import random
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cross_kat
import pytest
from build_cache import cached_kat
from conftest import REPO_ROOT, TESTS_DIR, generated_packages, skip_or_fail

from generator import cross_build
from generator.build import BASE_COMPILE_ARGS
from generator.emit.context import Kernel, field_kernels
from generator.emit.render import render
from generator.params import load_curve_file
from generator.pipeline import derive_model

TARGETS = ("native", "arm64", "arm32", "generic32")
ASM_TARGETS = ("arm64", "arm32")
KERNEL_HARNESS = TESTS_DIR / "c_harness" / "kernel_main.c"


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


# one worker per curve under xdist (its cross builds and runs are shared by the tests of that curve);
# every pairing curve (G2 over Fp, Fp2 or Fp4)
@pytest.fixture(scope="module", params=[pytest.param(p, marks=pytest.mark.xdist_group(f"cross-{p}")) for p in generated_packages()])
def cross_run(request):
    """(model, vectors, binaries, outputs) of one curve on every target."""
    _require(TARGETS)
    pkg = request.param
    pkg_dir = REPO_ROOT / "generated" / pkg
    if not (pkg_dir / cross_build.KAT_SOURCE).is_file():
        skip_or_fail(f"generated/{pkg}/{cross_build.KAT_SOURCE} is missing (run `gen-curve --all`)")
    model = derive_model(_curve_file(pkg))
    with ThreadPoolExecutor(max_workers=2) as pool:
        builds = {t: pool.submit(cached_kat, pkg_dir, t) for t in TARGETS}
        vectors = cross_kat.make_vectors(model)
        binaries = {t: future.result() for t, future in builds.items()}
    requests = "".join(v.line() for v in vectors)
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {t: pool.submit(cross_kat.run_kat, binaries[t], t, requests) for t in TARGETS}
        outputs = {t: future.result() for t, future in runs.items()}
    return model, vectors, binaries, outputs


def test_every_target_matches_reference_and_native(cross_run) -> None:
    model, vectors, _, outputs = cross_run
    ops = {v.op for v in vectors}
    # the program covers what the issue lists: fields, tower, groups, pairing, serialization
    for op in ("fp_inv", "fp_sqrt", "fr_mul", "fq_sqrt", "cubic_inv", "gt_frobenius", "g1_mul", "g2_mul",
               "g2_decompress", "g1_check", "fp_decode", "miller_loop", "final_exp", "pairing"):
        assert op in ops
    bad = cross_kat.compare(vectors, outputs)
    assert not bad, f"{model.name}: {len(bad)} mismatches, e.g.\n" + "\n".join(map(str, bad[:5]))


@pytest.mark.parametrize("target", ASM_TARGETS)
def test_field_multiplication_runs_the_assembly_kernels(cross_run, target) -> None:
    """The multiplication kernel of every shape the curve needs is linked in (so field.h calls it:
    a fallback to C would leave the unused static kernel out) and uses the target's instruction
    (2 n^2 UMULH in the unrolled arm64 kernel, 2 n UMAAL per row of the arm32 one)."""
    model, _, binaries, _ = cross_run
    found = cross_kat.kernel_instructions(binaries[target], target)
    bits = cross_build.TARGETS[target].limb_bits
    for shape in field_kernels(model):
        if shape.limb_bits != bits:
            continue
        name = f"pf_mul_mont_{shape.limbs}{'_nc' if shape.no_carry else ''}"
        copies = [counts for symbol, counts in found.items() if symbol == name or symbol.startswith(name + ".")]
        assert copies, f"{model.name} {target}: no {name} in the binary (the field code did not use the kernel)"
        n = shape.limbs
        for counts in copies:
            if target == "arm64":
                assert counts["umulh"] == 2 * n * n and counts["adcs"] >= 2 * n * (n - 2), counts
            else:
                assert counts["umaal"] >= 2 * n and counts["umaal"] % (2 * n) == 0, counts
    # every kernel linked in (squaring, double-width product, reduction) uses the instruction
    instruction = cross_build.TARGETS[target].kernel_instruction
    for symbol, counts in found.items():
        assert counts[instruction] > 0, f"{model.name} {target}: {symbol} has no {instruction}"
    # and the portable 32-bit build has no kernel at all
    assert not cross_kat.kernel_instructions(binaries["generic32"], "arm32")


# --------------------------------------------------------------------------------------------
# The kernels alone, in both forms, at every limb count


def _moduli(w: int, n: int, no_carry: bool, rng: random.Random) -> list[int]:
    """Odd moduli of n limbs: for the no-carry form with the top limb at the bound
    2^(w-1) - 2 and below it; for the textbook form with a full top limb, one just below
    2^(w n) (where the running sum reaches its extra words) and one just above the no-carry
    bound."""
    low = 1 << (w * (n - 1))
    if no_carry:
        tops = [(1 << (w - 1)) - 2, rng.randrange(1, (1 << (w - 1)) - 2)]
        return [top * low + (rng.randrange(low) | 1) for top in tops]
    near = (1 << (w * n)) - 2 * rng.randrange(1 << (w // 2)) - 1
    return [near] + [top * low + (rng.randrange(low) | 1) for top in ((1 << w) - 1, (1 << (w - 1)) - 1)]


@pytest.mark.parametrize("target", ASM_TARGETS)
def test_kernels_against_python_integers(target, tmp_path) -> None:
    _require((target,))
    spec = cross_build.TARGETS[target]
    w = spec.limb_bits
    counts = (4, 6, 8, 12) if w == 64 else (8, 12, 16, 24)
    shapes = [Kernel(w, n, nc) for n in counts for nc in (False, True)]
    header = "generated by tests/targets/test_cross.py - do not edit"
    (tmp_path / "limbs.h").write_text(render("c/limbs.h.j2", header=header))
    kernel_header = render(f"asm/{target}/kernels.h.j2", header=header, kernels=shapes)
    (tmp_path / f"asm_{target}.h").write_text(kernel_header)
    table = " ".join(f"X({k.limbs}, {int(k.no_carry)})" for k in shapes)
    # the double-width kernels the template provides (not every limb count has them)
    wide = sorted({int(n) for n in re.findall(r"#define PF_ASM_MUL_WIDE_(\d+) ", kernel_header)})
    assert wide == sorted({int(n) for n in re.findall(r"#define PF_ASM_REDC_MONT_(\d+) ", kernel_header)})
    wide_table = " ".join(f"Y({n})" for n in wide)
    (tmp_path / "kernel_table.h").write_text(f"#define KERNELS {table}\n#define WIDE_KERNELS {wide_table}\n")
    binary = tmp_path / "kernels"
    subprocess.run(
        [spec.compiler, *BASE_COMPILE_ARGS, "-Wall", "-Werror", *spec.flags, "-I", str(tmp_path),
         str(KERNEL_HARNESS), "-o", str(binary)],
        check=True, capture_output=True, text=True,
    )
    rng = random.Random(f"kernels-{target}")
    lines, expected = [], []
    for k in shapes:
        n = k.limbs
        for p in _moduli(w, n, k.no_carry, rng):
            n0 = -pow(p, -1, 1 << w) % (1 << w)
            r_inv = pow(1 << (w * n), -1, p)
            values = [0, 1, p - 1, p - 2, p - 1] + [rng.randrange(p) for _ in range(6)] + [p - 3, p - 1]
            for a, b in zip(values, reversed(values), strict=True):
                for op in ("mul", "sqr"):
                    hexes = [f"{v:0{n * w // 4}x}" for v in (a, b, p)]
                    lines.append(f"{n} {int(k.no_carry)} {op} {' '.join(hexes)} {n0:0{w // 4}x}\n")
                    product = a * (a if op == "sqr" else b)
                    expected.append(f"{product * r_inv % p:0{n * w // 4}x}")
                if n in wide and not k.no_carry:
                    # t = a b + c p below p 2^(w n), the largest t included
                    c = (1 << (w * n)) - 1 if a == p - 1 else rng.randrange(1 << (w * n))
                    t = min(a * b + c * p, p * (1 << (w * n)) - 1)
                    mask = (1 << (w * n)) - 1
                    hexes = [f"{v:0{n * w // 4}x}" for v in (t & mask, t >> (w * n), p)]
                    lines.append(f"{n} 0 redc {' '.join(hexes)} {n0:0{w // 4}x}\n")
                    expected.append(f"{t * r_inv % p:0{n * w // 4}x}")
                    hexes = [f"{v:0{n * w // 4}x}" for v in (a, b, p)]
                    lines.append(f"{n} 0 wide {' '.join(hexes)} {n0:0{w // 4}x}\n")
                    expected.append(f"{a * b:0{n * w // 2}x}")
        if k.no_carry and k.limbs in wide:
            # products of any limbs, not only reduced ones (mul_wide takes a, b < 2^(w n))
            top = (1 << (w * n)) - 1
            for a, b in ((top, top), (top, 1), (rng.randrange(top), rng.randrange(top))):
                hexes = [f"{v:0{n * w // 4}x}" for v in (a, b, p)]
                lines.append(f"{n} 0 wide {' '.join(hexes)} {n0:0{w // 4}x}\n")
                expected.append(f"{a * b:0{n * w // 2}x}")
    got = cross_kat.run_kat(binary, target, "".join(lines))
    assert len(got) == len(expected)
    wrong = [(line, g, e) for line, g, e in zip(lines, got, expected, strict=True) if g != e]
    assert not wrong, f"{len(wrong)} wrong results, e.g. {wrong[0]}"
