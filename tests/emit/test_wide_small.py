"""fpw_mul_small_mod (templates/c/tower.h.j2: a small factor of xi in double width) against Python
integers, in portable C and, on CPUs with BMI2 and ADX, with the x86_64-adx kernels
(pf_wide_neg, pf_wide_mul_small, pf_csub), for every generated curve whose lazy tower takes such
a factor (model.lazy.wide_small). The result must be exactly (+-k a) mod p R, in [0, p R), on edge
values of [0, p R) and on random ones, for both signs. Where the tower takes the quotient estimate
(model.lazy.wide_quotient), fpw_mul_small_add_mod too: (+-k a +- b) mod p R with and without b,
b aliasing the output, on the same values and on sums whose high half sits at and next to every
multiple of p the estimate must tell apart."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from c_kernel_harness import PACKAGES, TARGETS, compile_harness
from conftest import TESTS_DIR

from bench.cbench import curve_file
from generator.derive.lazy_reduction import wide_small_steps
from generator.pipeline import derive_model

HARNESS = TESTS_DIR / "c_harness" / "wide_small.c"


def top_carries(k: int, n: int, pR: int, w: int) -> list[int]:
    """Multiplicands v < p R whose top word's addition carries out (k v's word above 2n words then
    exceeds the high part of k times v's top word): a top word x with k x = -c mod 2^64 (x = c w),
    below it an all-ones word whose high part is k - 1."""
    found = []
    for c in range(1, k):
        x = c * w % 2**64
        v = (x << (64 * (2 * n - 1))) | ((2**64 - 1) << (64 * (2 * n - 2)))
        if v < pR and (k * v) >> (128 * n) > (k * x) >> 64:
            found.append(v)
    return found


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("pkg", PACKAGES, ids=[p.name for p in PACKAGES])
def test_wide_small_matches_integers(pkg: Path, target: str):
    model = derive_model(curve_file(pkg))
    if not model.lazy.wide_small:
        pytest.skip("the lazy tower takes no small factor of xi in double width for this curve")
    n = model.fp.limbs64
    R = 2 ** (64 * n)
    pR = model.p * R
    if target == "adx" and n <= 12:  # the kernels are in use: the header renders them up to 12 limbs
        text = (pkg / "c" / "asm_x86_64_adx.h").read_text(encoding="utf-8")
        assert all(f"#define PF_ASM_{name}_{n} 1" in text for name in ("WIDE_MUL_SMALL", "WIDE_NEG", "CSUB"))
    if target == "adx" and model.lazy.wide_quotient and n <= 12:
        assert all(f"#define PF_ASM_{name}_{n} 1" in text for name in ("WIDE_MULADD_SMALL", "SUBMUL_TOP", "CSUB"))
    exe = compile_harness(HARNESS, pkg, target, ("FPW_HAS_MUL_SMALL_ADD",) if model.lazy.wide_quotient else ())
    rng = random.Random(20101526)
    edges = [0, 1, 2, R - 1, R, R + 1, pR // 2, pR - R, pR - R - 1, pR - 2, pR - 1]
    edges += [j * R + lo for j in (model.p // 2, model.p - 1) for lo in (0, R - 1)]
    cases = []
    for k in model.lazy.wide_small:
        # high halves at and next to each multiple j p the subtractions compare with
        crafted = [j * pR // k + d for j in range(1, k + 1) for d in (-1, 0, 1)]
        if k % 2:  # every word of k a (of k (p R - a)) carries into the next: k w = -1 mod 2^64
            w = -pow(k, -1, 2**64) % 2**64
            full = sum(w << (64 * i) for i in range(2 * n - 1))
            crafted += [full, pR - full]
            crafted += [v for v in top_carries(k, n, pR, w)] + [pR - v for v in top_carries(k, n, pR, w)]
        values = [a for a in edges + crafted if 0 <= a < pR] + [rng.randrange(pR) for _ in range(300)]
        cases += [(k, neg, a) for neg in (0, 1) for a in values]
    # (k, neg, a, form, bneg, b): form 0 fpw_mul_small_mod, 1 fpw_mul_small_add_mod without b, 2 with
    # b, 3 with b aliasing the output
    full = [(k, neg, a, 0, 0, 0) for k, neg, a in cases]
    if model.lazy.wide_quotient:
        full += [(k, neg, a, 1, 0, 0) for k, neg, a in cases]
        bs = [0, 1, R - 1, pR - R, pR - 1] + [rng.randrange(pR) for _ in range(4)]
        full += [(k, neg, a, 2 + (j % 2), j % 3 == 0, bs[j % len(bs)]) for j, (k, neg, a) in enumerate(cases)]
        for k in model.lazy.wide_small:
            # high halves of k a' + b' at and next to every multiple j p: a' = floor(j p R / k)
            # and b' making up the rest, both signs
            for j in range(1, k + 2):
                for d in (-2 * R, -R - 1, -1, 0, 1, R, R + 1):
                    t = j * pR + d
                    a1 = min(t // k, pR - 1)
                    b1 = t - k * a1
                    if 0 <= b1 < pR:
                        for neg in (0, 1):
                            for bneg in (0, 1):
                                full.append((k, neg, (pR - a1) % pR if neg else a1, 2, bneg, (pR - b1) % pR if bneg else b1))
    lines = []
    for k, neg, a, form, bneg, b in full:
        limbs = " ".join(f"{(v >> (64 * i)) & (2**64 - 1):x}" for v in (a, b) for i in range(2 * n))
        lines.append(f"{k} {neg} {wide_small_steps(k, bool(neg))} {form} {int(bneg)} {limbs}")
    run = subprocess.run([str(exe)], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    outs = run.stdout.split("\n")
    assert len(outs) == len(full) + 1 and outs[-1] == ""
    for (k, neg, a, form, bneg, b), line in zip(full, outs, strict=False):
        got = sum(int(w, 16) << (64 * i) for i, w in enumerate(line.split()))
        want = (-k * a if neg else k * a) + ((-b if bneg else b) if form >= 2 else 0)
        assert got == want % pR, f"k={k} neg={neg} a={a:#x} form={form} bneg={bneg} b={b:#x}: {got:#x} != {want % pR:#x}"


@pytest.mark.slow  # derives every curve
def test_wide_small_somewhere():
    """Some generated curve takes a small factor in double width, and one the quotient estimate, so
    the test above runs both."""
    models = [derive_model(curve_file(p)) for p in PACKAGES]
    assert any(m.lazy.wide_small for m in models)
    assert any(m.lazy.wide_quotient for m in models)
