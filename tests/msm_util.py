"""The known-log oracle of the MSM tests (tests/pairings/test_msm.py, tests/targets/test_msm_ifma.py,
tests/edwards/test_edwards_msm_ifma.py):
points P_i = s_i G with known logs, so that sum [k_i] P_i = [sum k_i s_i mod r] G is one scalar
multiplication; and the check that a module's AVX-512 IFMA MSM switch follows the CPU
(tests/targets/test_msm_ifma.py, tests/edwards/test_edwards_msm_ifma.py)."""

from __future__ import annotations

import random


def logs_points(G, C, n: int, rng: random.Random, step: bool = True):
    """n points with their logs: random logs for small n, an arithmetic progression (one addition
    per point) when step and n is large."""
    g = G.generator()
    if not step or n <= 64:
        logs = [rng.randrange(1, C.R) for _ in range(n)]
        return logs, [g * s for s in logs]
    a, b = rng.randrange(1, C.R), rng.randrange(1, C.R)
    P, B = g * a, g * b
    logs, pts = [], []
    for i in range(n):
        logs.append((a + i * b) % C.R)
        pts.append(P)
        P = P + B
    return logs, pts


def expected(G, C, logs, scalars):
    return G.generator() * (sum(int(k) * s for k, s in zip(scalars, logs, strict=True)) % C.R)


def assert_ifma_switch_follows_the_cpu(C) -> None:
    """The kernel is on exactly where the x86_64-adx module runs on a CPU whose flags (Linux's
    /proc/cpuinfo) include avx512f and avx512ifma; off turns it off, on turns it back on only there."""
    import pytest

    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            flags = next(line for line in f if line.startswith("flags")).split()
    except (OSError, StopIteration):
        pytest.skip("no /proc/cpuinfo flags to compare with")
    runs = C.TARGET == "x86_64-adx" and "avx512f" in flags and "avx512ifma" in flags
    assert C._impl._msm_ifma() is runs
    assert C._impl._msm_ifma(False) is False
    assert C._impl._msm_ifma() is False
    assert C._impl._msm_ifma(True) is runs
