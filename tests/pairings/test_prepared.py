"""G2Prepared: pairings against a G2 point whose Miller-loop lines were precomputed must equal the
pairings against the point itself, alone, mixed with unprepared pairs, and for the identity."""

from __future__ import annotations

import pickle
import random

import pytest


def _points(C, rng: random.Random, n: int):
    g1, g2 = C.G1.generator(), C.G2.generator()
    return [g1 * rng.randrange(1, C.R) for _ in range(n)], [g2 * rng.randrange(1, C.R) for _ in range(n)]


def test_prepared_pairing_equals_pairing(curve):
    rng = random.Random(f"prepared-{curve.NAME}")
    Ps, Qs = _points(curve, rng, 3)
    for P, Q in zip(Ps, Qs, strict=True):
        Qp = curve.G2Prepared(Q)
        assert Qp.point == Q
        assert curve.pairing(P, Qp) == curve.pairing(P, Q)
        assert curve.miller_loop(P, Qp) == curve.miller_loop(P, Q)
        # bilinearity through the prepared point: e(aP, Q) = e(P, Q)^a
        a = rng.randrange(1, curve.R)
        assert curve.pairing(P * a, Qp) == curve.pairing(P, Q) ** a


def test_prepared_mixed_multi_pairing(curve):
    rng = random.Random(f"prepared-mixed-{curve.NAME}")
    Ps, Qs = _points(curve, rng, 4)
    mixed = [curve.G2Prepared(Qs[0]), Qs[1], curve.G2Prepared(Qs[2]), Qs[3]]
    expected = curve.multi_pairing(Ps, Qs)
    assert curve.multi_pairing(Ps, mixed) == expected
    assert curve.miller_loop(Ps, mixed) == curve.miller_loop(Ps, Qs)
    # e(P, Q) e(-P, Q) = 1 with Q prepared on one side only
    assert curve.pairing_check([Ps[0], -Ps[0]], [mixed[0], Qs[0]])
    assert not curve.pairing_check([Ps[0], Ps[1]], [mixed[0], Qs[0]])


def test_prepared_identity_and_identity_p(curve):
    rng = random.Random(f"prepared-identity-{curve.NAME}")
    Ps, Qs = _points(curve, rng, 1)
    O2 = curve.G2Prepared(curve.G2.identity())
    assert curve.pairing(Ps[0], O2).is_one()
    assert curve.pairing(curve.G1.identity(), curve.G2Prepared(Qs[0])).is_one()
    assert curve.multi_pairing([Ps[0], Ps[0]], [O2, Qs[0]]) == curve.pairing(Ps[0], Qs[0])


def test_prepared_rejects_and_pickles(curve):
    with pytest.raises(TypeError):
        curve.G2Prepared(curve.G1.generator())
    with pytest.raises(TypeError):
        curve.pairing(curve.G1.generator(), curve.G1.generator())
    Qp = curve.G2Prepared(curve.G2.generator() * 5)
    again = pickle.loads(pickle.dumps(Qp))
    assert again.point == Qp.point
    P = curve.G1.generator()
    assert curve.pairing(P, again) == curve.pairing(P, Qp)
