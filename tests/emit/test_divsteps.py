"""The constant-time inversion's batch of divsteps (templates/c/field.h.j2, pf_divsteps_57: three
blocks of 19 on packed words, the x86_64-adx target's block in CMOV assembly) against Bernstein–Yang
divsteps on Python integers, one at a time, in portable C and, on CPUs with BMI2 and ADX, with the
kernels. The matrix of 57 divsteps depends only on zeta and the low 57 bits of f and g, so the
words are given whole: random ones, and those at the edges of the packed fields (g = 0, all ones,
runs that swap at every step or never, |zeta| large)."""

from __future__ import annotations

import random
import subprocess

import pytest
from c_kernel_harness import PACKAGES, TARGETS, compile_harness
from conftest import TESTS_DIR

HARNESS = TESTS_DIR / "c_harness" / "divsteps.c"
STEPS = 57
SCALE = 62  # the updates take the matrix scaled by 2^62


def divsteps(zeta: int, f: int, g: int) -> tuple[int, int, int, int, int]:
    """zeta and the matrix (u, v; q, r) after STEPS divsteps, with 2^STEPS (f', g') = (u f + v g,
    q f + r g), scaled by 2^(SCALE - STEPS); zeta = -(delta + 1/2) as in libsecp256k1."""
    u, v, q, r = 1, 0, 0, 1
    for _ in range(STEPS):
        if g & 1:
            if zeta < 0:  # delta > 0: swap, and g - f
                f, g, u, v, q, r = g, g - f, q, r, q - u, r - v
                zeta = -zeta - 2
            else:
                g, q, r = g + f, q + u, r + v
                zeta -= 1
        else:
            zeta -= 1
        g >>= 1
        u, v = 2 * u, 2 * v
    s = 1 << (SCALE - STEPS)
    return zeta, u * s, v * s, q * s, r * s


def cases() -> list[tuple[int, int, int]]:
    rng = random.Random(20261205)
    mask = (1 << 64) - 1
    out = [(-1, 1, 0), (-1, 1, mask), (-1, mask, mask), (0, 1, 1), (-1, 1, 1), (5000, mask, 1),
           (-5000, 1, mask), (-1, (1 << 63) | 1, 1 << 63), (-1, 0x5555555555555555, 0xAAAAAAAAAAAAAAAA)]
    for _ in range(3000):
        zeta = rng.choice([-1, -1, rng.randrange(-60, 60), rng.randrange(-3000, 3000)])
        f = rng.getrandbits(64) | 1
        g = rng.choice([rng.getrandbits(64), rng.getrandbits(8), mask - rng.getrandbits(8)])
        out.append((zeta, f, g))
    return out


@pytest.mark.parametrize("target", TARGETS)
def test_divsteps_batch_matches_one_at_a_time(target: str):
    exe = compile_harness(HARNESS, PACKAGES[0], target)
    inputs = cases()
    text = "".join(f"{z} {f:x} {g:x}\n" for z, f, g in inputs)
    run = subprocess.run([str(exe)], input=text, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(inputs)
    for (z, f, g), line in zip(inputs, lines, strict=True):
        assert tuple(int(x) for x in line.split()) == divsteps(z, f, g), (z, hex(f), hex(g))


def test_reference_divsteps_invert():
    """The reference itself: batches of its matrix drive g to 0 and f to +-1 for an odd modulus and
    give the inverse (Bernstein–Yang: d = u / f after enough divsteps)."""
    p = (1 << 255) - 19
    x = 1234567
    f, g, zeta, d, e = p, x, -1, 0, 1
    for _ in range(12):
        zeta, u, v, q, r = divsteps(zeta, f % (1 << 64), g % (1 << 64))
        f, g = (u * f + v * g) >> SCALE, (q * f + r * g) >> SCALE
        d, e = (u * d + v * e) * pow(2, -SCALE, p) % p, (q * d + r * e) * pow(2, -SCALE, p) % p
    assert g == 0 and abs(f) == 1
    assert d * f * x % p == 1
