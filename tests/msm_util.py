"""The known-log oracle of the MSM tests (tests/pairings/test_msm.py, tests/targets/test_msm_ifma.py):
points P_i = s_i G with known logs, so that sum [k_i] P_i = [sum k_i s_i mod r] G is one scalar
multiplication."""

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
