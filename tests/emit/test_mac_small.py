"""fp_mac_small and fpw_mac_small (templates/c/tower.h.j2: t = k a + b as a plain integer, the lazy
Fp2 square's and product's small factors of u^2) against Python integers, in portable C and, on
CPUs with BMI2 and ADX, with the x86_64-adx kernels pf_mac_small and pf_wide_mac_small (one MULX
per word, the product's carries in CF and b's in OF), for every generated curve whose lazy Fp2
takes them (m.lazy.beta_add or m.lazy.fp2_sqr_plain). Operands where every word carries in both
chains, the largest sums that fit, and random ones; also with t aliasing a and b."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from c_kernel_harness import PACKAGES, TARGETS, compile_harness
from conftest import TESTS_DIR

from bench.cbench import curve_file
from generator.pipeline import derive_model

HARNESS = TESTS_DIR / "c_harness" / "mac_small.c"


def small_factors(model) -> list[int]:
    """The factors the tower passes to fp_mac_small / fpw_mac_small, or [] where it has none."""
    lazy = model.lazy
    if not lazy.fp2_mul:
        return []
    if lazy.beta_add:
        return [lazy.beta_add]
    if lazy.fp2_sqr_plain:
        return [lazy.beta_k, lazy.beta_k - 1]
    return []


def cases_for(k: int, words: int, p: int, rng: random.Random) -> list[tuple[int, int]]:
    """(a, b) with k a + b < 2^(64 words)."""
    top = 2 ** (64 * words)
    ones = top - 1
    cases = [(0, 0), (0, ones), (ones // k, ones - k * (ones // k)), (ones // k, 0), (1, ones - k)]
    # k a with all-ones words up to a length (each word of the product and of the sum carries):
    # k a = -1 mod 2^(64 length) for an odd k, the largest multiple of k below 2^(64 length) else
    for length in range(1, words):
        if k % 2:
            a = -pow(k, -1, 2 ** (64 * length)) % 2 ** (64 * length)
        else:
            a = (2 ** (64 * length) - 1) // k
        a = min(a, ones // k)
        cases += [(a, min(ones - k * a, b)) for b in (ones, ones >> 64, (ones >> 1) // 3)]
    # the tower's operands: p - a1 with a0 below p, and double-width values below the p R bound
    cases += [(p, p - 1), (p - 1, p - 1), (1, p - 1)]
    for _ in range(300):
        a = rng.randrange(top // k)
        cases.append((a, rng.randrange(top - k * a)))
    for _ in range(100):
        a = rng.randrange(min(p, top // k))
        cases.append((a, rng.randrange(min(p, top - k * a))))
    return cases


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("pkg", PACKAGES, ids=[p.name for p in PACKAGES])
def test_mac_small_matches_integers(pkg: Path, target: str):
    model = derive_model(curve_file(pkg))
    factors = small_factors(model)
    if not factors:
        pytest.skip("the lazy Fp2 of this curve takes no small factor of u^2")
    n = model.fp.limbs64
    if target == "adx" and n <= 8:  # the kernels are in use: the header renders them up to 8 limbs
        text = (pkg / "c" / "asm_x86_64_adx.h").read_text(encoding="utf-8")
        assert all(f"#define PF_ASM_{name}_{n} 1" in text for name in ("MAC_SMALL", "WIDE_MAC_SMALL"))
    exe = compile_harness(HARNESS, pkg, target)
    rng = random.Random(20101526)
    cases = [(w, k, a, b) for k in factors for w in (1, 2) for a, b in cases_for(k, w * n, model.p, rng)]
    lines = []
    for w, k, a, b in cases:
        assert k * a + b < 2 ** (64 * w * n)
        words = [(v >> (64 * i)) & (2**64 - 1) for v in (a, b) for i in range(w * n)]
        lines.append(f"{w} {k} " + " ".join(f"{x:x}" for x in words))
    run = subprocess.run([str(exe)], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    outs = run.stdout.split("\n")
    assert len(outs) == 3 * len(cases) + 1 and outs[-1] == ""
    for j, (w, k, a, b) in enumerate(cases):
        for alias, line in zip(("none", "t = a", "t = b"), outs[3 * j : 3 * j + 3], strict=True):
            got = sum(int(x, 16) << (64 * i) for i, x in enumerate(line.split()))
            assert got == k * a + b, f"w={w} k={k} a={a:#x} b={b:#x} ({alias}): {got:#x} != {k * a + b:#x}"


def test_mac_small_somewhere():
    """Some generated curve takes a small factor of u^2 in its lazy Fp2, so the test above runs."""
    assert any(small_factors(derive_model(curve_file(p))) for p in PACKAGES)
