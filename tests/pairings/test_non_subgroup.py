"""Scalar multiplication of points outside the subgroup of order r.

The endomorphism (GLV/GLS) multiplications compute [k]P only for P in the subgroup; the point
classes use them only for points known to be there, and the exact window methods otherwise. These
tests take points of the curve outside the subgroup (map_to_curve outputs, decodings with
check=False, sums with them) and compare `P * k` and `P.mul_vartime(k)` with double-and-add.
"""

from __future__ import annotations

import random

import pytest


def _double_and_add(P, k: int):
    acc = type(P).identity()
    for bit in bin(k)[2:]:
        acc = acc.double()
        if bit == "1":
            acc = acc + P
    return acc


def _outside_points(G, rng: random.Random, dF: int, count: int = 2) -> list:
    found = []
    for _ in range(200):
        u = rng.randrange(1, 1 << 64) if dF == 1 else tuple(rng.randrange(1, 1 << 64) for _ in range(dF))
        Q = G.map_to_curve(u)
        if not Q.is_identity() and not Q.in_subgroup():
            found.append(Q)
            if len(found) == count:
                break
    return found


@pytest.mark.parametrize("group", ["G1", "G2"])
def test_multiplication_outside_the_subgroup_is_exact(curve, group):
    G = getattr(curve, group)
    dF = len(G.generator().to_affine()[0]) if isinstance(G.generator().to_affine()[0], tuple) else 1
    rng = random.Random(f"outside-{curve.NAME}-{group}")
    points = _outside_points(G, rng, dF)
    cofactor = curve.H1 if group == "G1" else curve.H2
    if cofactor == 1:
        # every point of the curve is in the subgroup (e.g. BN254 G1)
        assert not points
        return
    assert points
    for Q in points:
        # the same point decoded without the subgroup check, and a sum with a subgroup point
        decoded = G.from_bytes(Q.to_bytes(False), check=False)
        mixed = Q + G.generator()
        for P in (Q, decoded, mixed, -Q, Q.double()):
            assert not P.in_subgroup()
            for k in (2, 3, rng.randrange(1, curve.R), curve.R - 1):
                expected = _double_and_add(P, k)
                assert P * k == expected
                assert P.mul_vartime(k) == expected
        # cleared, the point is in the subgroup and both paths agree again
        C = Q.clear_cofactor()
        k = rng.randrange(1, curve.R)
        assert C.in_subgroup() and C * k == C.mul_vartime(k) == _double_and_add(C, k)
