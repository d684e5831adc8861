"""The laws every generated pairing must obey, checked through a package's Python API; shared by
the tests of curves that are built in the tests (BLS24, BW6-633, the custom curves)."""

from __future__ import annotations

import random


def check_pairing_laws(C, r: int, rng: random.Random) -> None:
    """Non-degeneracy, e^r = 1, bilinearity, the identities, e(P, Q) e(-P, Q) = 1, multi-pairing
    equal to the product of pairings, and pairing_check, on C's generators and random multiples."""
    P, Q = C.G1.generator(), C.G2.generator()
    e = C.pairing(P, Q)
    assert not e.is_one() and (e**r).is_one()
    a, b = rng.randrange(1, r), rng.randrange(1, r)
    assert C.pairing(P * a, Q * b) == e ** (a * b % r)
    assert C.pairing(P * a, Q) == C.pairing(P, Q * a)
    assert C.pairing(C.G1.identity(), Q).is_one() and C.pairing(P, C.G2.identity()).is_one()
    assert (e * C.pairing(-P, Q)).is_one()
    Ps = [P * rng.randrange(1, r) for _ in range(3)]
    Qs = [Q * rng.randrange(1, r) for _ in range(3)]
    prod = C.pairing(Ps[0], Qs[0]) * C.pairing(Ps[1], Qs[1]) * C.pairing(Ps[2], Qs[2])
    assert C.multi_pairing(Ps, Qs) == prod
    assert C.pairing_check([P * a, -P], [Q, Q * a]) and not C.pairing_check([P * a, -P], [Q, Q * b])
