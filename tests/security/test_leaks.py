"""Repeated calls leave the process's memory flat: 10^5 small operations (field arithmetic,
encodings, decodings that succeed and decodings that raise) and 10^3 MSMs per curve.

The resident set size is read from /proc/self/statm after a warm-up (which fills the
interpreter's free lists and arenas) and after the run; it may grow by at most TOLERANCE.  A
control leaks 48 bytes per operation on purpose and must exceed it, so a flat result means
something.  Slow (about a minute): run with --runslow; CI runs it (.ci/run, `nox -s leaks`).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from conftest import STANDARD_CURVES, skip_or_fail

pytestmark = pytest.mark.slow

SMALL_OPS = 100_000
MSMS = 1_000
TOLERANCE = 2 << 20  # bytes: below 21 bytes per small operation, 2 KiB per MSM round
STATM = Path("/proc/self/statm")


def rss() -> int:
    if not STATM.exists():
        skip_or_fail("needs /proc/self/statm (Linux)")
    gc.collect()
    return int(STATM.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def growth(step: Callable[[int], object], n: int) -> int:
    """RSS growth over n calls of step, after a warm-up of n // 10 calls."""
    for i in range(n // 10):
        step(i)
    before = rss()
    for i in range(n):
        step(i)
    return rss() - before


def small_step(C: ModuleType) -> Callable[[int], object]:
    """One small operation, in turn: field arithmetic and inverse, encodings, a good decoding and
    decodings that raise (wrong length, bad flags, non-canonical field element)."""
    a = C.Fp(12345)
    G = C.G1.generator()
    good = G.to_bytes(False)
    bad = (good[:-1], bytes(len(good)), b"\xff" * len(C.Fp(1).to_bytes()))

    def step(i: int) -> object:
        op = i % 6
        if op == 0:
            return (a + i).inverse() * a
        if op == 1:
            return C.Fp.from_bytes((a + i).to_bytes())
        if op == 2:
            return C.G1.from_bytes(good, check=False)
        if op == 3:
            return (G + G).to_bytes(False)
        try:
            (C.G1.from_bytes if op < 5 else C.Fp.from_bytes)(bad[i % 2] if op < 5 else bad[2])
        except ValueError:
            return None
        raise AssertionError("a bad encoding was accepted")

    return step


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_small_operations_do_not_leak(curve_module, pkg: str) -> None:
    grew = growth(small_step(curve_module(pkg)), SMALL_OPS)
    assert grew <= TOLERANCE, f"RSS grew by {grew} bytes over {SMALL_OPS} operations"


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_msm_does_not_leak(curve_module, pkg: str) -> None:
    C = curve_module(pkg)
    pts1 = [C.G1.generator() * (i + 2) for i in range(16)]
    pts2 = [C.G2.generator() * (i + 2) for i in range(8)]
    ks = [(0x9E3779B97F4A7C15 * (i + 1)) ** 3 % C.R for i in range(16)]

    def step(i: int) -> object:
        C.G1.msm(pts1, ks)
        if i % 10 == 0:
            C.G2.msm(pts2, ks[:8])
        try:
            C.G1.msm(pts1, ks[:-1])  # the error path frees its scratch too
        except ValueError:
            pass
        return None

    grew = growth(step, MSMS)
    assert grew <= TOLERANCE, f"RSS grew by {grew} bytes over {MSMS} MSMs"


def test_the_measurement_sees_a_leak() -> None:
    """Control: 48 bytes kept per operation (4.8 MB over 10^5) must show."""
    kept: list[bytes] = []
    grew = growth(lambda i: kept.append(i.to_bytes(8, "big") * 2), SMALL_OPS)
    assert grew > TOLERANCE, f"a deliberate leak of {SMALL_OPS} objects grew RSS by only {grew} bytes"
