"""The twisted Edwards MSM's AVX-512 IFMA bucket kernel (templates/c/msm/_ifma.j2, rendered for the
short Weierstrass group of sw_msm.h) against the same MSM with the kernel switched off (the
portable batch-affine buckets, what a CPU without IFMA runs) and against a known-log oracle, on
every shipped Edwards curve.

The kernel runs in the x86_64-adx module where the CPU reports AVX-512F and IFMA, from 1024 points
in one bucket run (SW_MSM_IFMA_MIN_POINTS), on the Weierstrass path (from
generator.emit.context_edwards.sw_msm_min_n points).  Sizes below both, at them and above them
are checked, with the identity, the point (0, -1) of order 2, a point outside the subgroup,
repeated and opposite points and zero scalars.  On a CPU without IFMA the comparisons skip with
that reason (test_edwards_sw_msm.py then covers the portable method); the switch test runs
everywhere.

Layer: tests (tests/edwards). Imports the generated packages, tests' conftest.py and
edwards_util.py, and the generator's emit context (the Weierstrass threshold).
"""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from conftest import edwards_packages, load_curve_module
from edwards_util import model, outside, pt
from msm_util import assert_ifma_switch_follows_the_cpu, logs_points

from generator.emit.context_edwards import sw_msm_min_n
from generator.reference.edwards import EdwardsCurve

PACKAGES = edwards_packages()
# SW_MSM_IFMA_MIN_POINTS of _ifma_buckets.j2: the fewest points the kernel takes
IFMA_MIN_POINTS = 1024


@pytest.fixture(scope="module", params=PACKAGES or [None])
def C(request) -> ModuleType:
    if request.param is None:
        pytest.skip("no twisted Edwards packages in generated/")
    C = load_curve_module(request.param)
    if not C._impl._msm_ifma():
        pytest.skip(f"{C.NAME}: the {C.TARGET} module on this CPU has no AVX-512 IFMA kernel")
    yield C
    C._impl._msm_ifma(True)


def inputs(C: ModuleType, n: int, rng: random.Random):
    """n points and scalars with the expected sum: subgroup points a_i G (known logs) and, spread
    over the eight lanes' slices, repeated and opposite points with equal scalars, the identity,
    (0, -1), a point outside the subgroup, zero scalars and scalars >= r."""
    m = model(C.__name__.rpartition(".")[2])
    G = C.Point.generator()
    logs, pts = logs_points(C.Point, C, n, rng)
    ks = [rng.randrange(C.R) for _ in range(n)]
    extra = C.Point.identity()                # the part of the sum outside the known logs
    Q = pt(C, outside(m, EdwardsCurve(m.p, m.a, m.d), 11))
    T = pt(C, (0, m.p - 1))
    for j in range(0, n - 8, max(n // 16, 8)):
        k = rng.randrange(C.R)
        pts[j + 1], logs[j + 1], ks[j], ks[j + 1] = pts[j], logs[j], k, k
        pts[j + 2], logs[j + 2], ks[j + 2] = -pts[j], (-logs[j]) % C.R, k
        pts[j + 3], logs[j + 3] = C.Point.identity(), 0
        ks[j + 4] = 0
        ks[j + 5] = C.R + 3
        pts[j + 6], logs[j + 6] = T, 0
        pts[j + 7], logs[j + 7] = Q, 0
        extra = extra + T * ks[j + 6] + Q * ks[j + 7]
    want = G * (sum(k * a for k, a in zip(ks, logs, strict=True)) % C.R) + extra
    return pts, ks, want


def sizes(C: ModuleType) -> list[int]:
    t = sw_msm_min_n(model(C.__name__.rpartition(".")[2]))
    assert t is not None
    return sorted({0, 1, 2, 17, IFMA_MIN_POINTS - 1, IFMA_MIN_POINTS, t - 1, t, t + 1, 2 * t + 37, 5000})


def test_ifma_matches_fallback_and_oracle(C) -> None:
    rng = random.Random(f"{C.NAME}-ifma")
    for n in sizes(C):
        pts, ks, want = inputs(C, n, rng)
        assert C._impl._msm_ifma() is True
        for threads in (1, 2):
            assert C.Point.msm(pts, ks, threads=threads) == want, (n, threads)
        assert C._impl._msm_ifma(False) is False
        assert C.Point.msm(pts, ks, threads=1) == want, n
        assert C._impl._msm_ifma(True) is True


@pytest.mark.parametrize("slices", (1, 2, 4, 8))
def test_ifma_every_layout(C, slices: int) -> None:
    """Every layout of the kernel's rounds, forced through its test hook (eight slices of one window
    per round, one whole window per lane with the top window's spread buckets in one lane, and
    between), on one to three threads."""
    rng = random.Random(f"{C.NAME}-layout-{slices}")
    pts, ks, want = inputs(C, 5000, rng)
    assert C._impl._msm_ifma_slices(slices) == slices
    try:
        for threads in (1, 2, 3):
            assert C.Point.msm(pts, ks, threads=threads) == want, threads
    finally:
        assert C._impl._msm_ifma_slices(0) == 0


def test_ifma_degenerate_runs(C) -> None:
    """Every point the same, every scalar the same, and pairs that cancel: buckets that double,
    empty out and refill inside one lane (the kernel's XYZZ doubling, with a != 0 where the
    Weierstrass model has it)."""
    P = C.Point.generator() * 12345
    n = 4100
    assert C.Point.msm([P] * n, [7] * n) == P * (7 * n)
    assert C.Point.msm([P, -P] * (n // 2), [9] * n).is_identity()
    k = random.Random(f"{C.NAME}-deg").randrange(C.R)
    assert C.Point.msm([P] * n, [k] * n) == P * (k * n % C.R)
    C._impl._msm_ifma(False)
    assert C.Point.msm([P] * n, [k] * n) == P * (k * n % C.R)
    C._impl._msm_ifma(True)


@pytest.mark.parametrize("name", PACKAGES)
def test_ifma_switch_follows_the_cpu(name: str) -> None:
    """The IFMA switch follows the CPU flags (msm_util.assert_ifma_switch_follows_the_cpu)."""
    assert_ifma_switch_follows_the_cpu(load_curve_module(name))
