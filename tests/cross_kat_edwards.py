"""Known answers for the test program of a twisted Edwards package (``c/kat_main.c``, rendered
from templates/c/edwards_kat_main.c.j2), from generator.reference: the cross-target tests build
it for every target of generator/cross_build.py and compare each output with these answers and
with the native x86-64 build (``cross_kat.compare``).

The operations: Fq and Fr arithmetic, inversion, square root and decoding; complete addition
and doubling; constant-time and variable-time ``[k]P`` (and the GLV paths with ``psi`` where the
curve has the endomorphism); the on-curve and subgroup checks; cofactor clearing; the recovery of
x from y and a sign (the compressed encodings); Pippenger's MSM with the batch conversion to
affine.
"""

from __future__ import annotations

import random

from cross_kat import Vector, field_vectors

from generator.derive.edwards import EdwardsModel
from generator.reference.edwards import AffinePoint, EdwardsCurve

MSM_SIZES = (1, 7, 40)  # the test program takes up to 64 terms


class EdwardsOracle:
    """Encodings of the Edwards test program: big-endian Fq/Fr, affine points x then y."""

    def __init__(self, model: EdwardsModel) -> None:
        self.m = model
        self.E = EdwardsCurve(model.p, model.a, model.d)   # the reference's curve, not derive's
        self.nb = model.fq.nbytes
        self.rb = model.fr.nbytes

    def fq(self, v: int) -> bytes:
        return v.to_bytes(self.nb, "big")

    def scalar(self, k: int) -> bytes:
        return k.to_bytes(self.rb, "big")

    def point(self, P: AffinePoint) -> bytes:
        return self.fq(P[0]) + self.fq(P[1])

    def lex_largest(self, x: int) -> bool:
        return x > (self.m.p - 1) // 2

    def subgroup_point(self, rng: random.Random) -> AffinePoint:
        return self.E.mul(self.m.generator, rng.randrange(1, self.m.r))

    def outside_point(self, rng: random.Random) -> AffinePoint:
        """P + (0, -1) for a random P of the subgroup: a point of order 2r outside it whose
        multiples all stay affine (on curves whose points of order 4 lie at infinity, a random
        point of the whole group would take the affine reference formulas there)."""
        return self.E.add(self.subgroup_point(rng), (0, self.m.p - 1))


def _sqrt_or_none(E: EdwardsCurve, y: int) -> list[AffinePoint]:
    try:
        return E.lift_y(y)
    except (ValueError, ZeroDivisionError):
        return []


def make_edwards_vectors(model: EdwardsModel, count: int = 4, seed: int = 1) -> list[Vector]:
    """Known answers for every operation of the Edwards test program (``count`` random values
    per field operation besides the edge cases; a few points and scalars per group operation)."""
    o = EdwardsOracle(model)
    E, m = o.E, model
    r, h, p = m.r, m.h, m.p
    rng = random.Random(f"{m.package}:edwards:{seed}")
    vectors = field_vectors("fq", p, o.nb, rng, count) + field_vectors("fr", r, o.rb, rng, count)

    ID = E.identity
    T2 = (0, p - 1)  # the point of order 2
    P, Q = o.subgroup_point(rng), o.subgroup_point(rng)
    R = o.outside_point(rng)
    assert E.on_curve(T2) and E.add(T2, T2) == ID

    for A, B in ((P, Q), (P, P), (P, E.neg(P)), (ID, Q), (P, ID), (P, T2), (T2, T2), (R, P), (R, R)):
        vectors.append(Vector("te_add", o.point(A) + o.point(B), o.point(E.add(A, B))))
    for A in (P, Q, ID, T2, R):
        vectors.append(Vector("te_dbl", o.point(A), o.point(E.add(A, A))))

    full = (1 << (8 * o.rb)) - 1
    scalars = [0, 1, 2, 15, 16, r - 1, r, r + 1, full] + [rng.randrange(r) for _ in range(2)]
    cases = [(P, k) for k in scalars] + [(R, k) for k in (h * r, r, rng.randrange(h * r), full) if k <= full] + [(ID, 5), (T2, 3)]
    for A, k in cases:
        expected = o.point(E.mul(A, k))
        for op in ("te_mul_ct", "te_mul_vartime"):
            vectors.append(Vector(op, o.point(A) + o.scalar(k), expected))
    if m.endo is not None:
        # psi = [lam] on the subgroup; the GLV paths take a subgroup point and k < 2^(bits of r)
        for A in (P, Q, ID):
            vectors.append(Vector("te_psi", o.point(A), o.point(E.mul(A, m.endo.lam))))
        top = (1 << r.bit_length()) - 1
        for k in [0, 1, 2, m.endo.lam, r - m.endo.lam, r - 1, r, r + 1, top] + [rng.randrange(r) for _ in range(3)]:
            for A in (P, Q):
                expected = o.point(E.mul(A, k))
                for op in ("te_mul_glv_ct", "te_mul_glv_vartime"):
                    vectors.append(Vector(op, o.point(A) + o.scalar(k), expected))

    off_curve = (P[0], (P[1] + 1) % p)
    for A in (P, ID, T2, R, E.mul(R, r), off_curve):
        on = E.on_curve(A)
        sub = on and E.mul(A, r) == ID
        vectors.append(Vector("te_check", o.point(A), bytes([on, sub])))
    for A in (P, R, T2, ID):
        vectors.append(Vector("te_clear_cofactor", o.point(A), o.point(E.mul(A, h))))

    # x from y and the sign: both signs of liftable y (1 included: x = 0), and y without a point
    liftable, unliftable = [1], []
    while len(liftable) < 4 or len(unliftable) < 2:
        y = rng.randrange(p)
        (liftable if _sqrt_or_none(E, y) else unliftable).append(y)
    for y in liftable:
        xs = [pt[0] for pt in E.lift_y(y)]
        for sign in (False, True):
            x = next((v for v in xs if o.lex_largest(v) == sign), 0)
            vectors.append(Vector("te_recover_x", o.fq(y) + bytes([sign]), b"\x01" + o.fq(x)))
    for y in unliftable[:2]:
        vectors.append(Vector("te_recover_x", o.fq(y) + b"\x01", bytes(1 + o.nb)))

    # MSM: the sum, then every [k_i]p_i in affine (batch conversion); edge scalars included
    for n in MSM_SIZES:
        pts = [o.subgroup_point(rng) if i % 5 else ID for i in range(n)]
        ks = [rng.randrange(r) for _ in range(n)]
        for i, k in zip(range(1, n, 3), (0, 1, r - 1), strict=False):
            ks[i] = k
        terms = [E.mul(A, k) for A, k in zip(pts, ks, strict=True)]
        total = ID
        for t in terms:
            total = E.add(total, t)
        data = b"".join(o.point(A) + o.scalar(k) for A, k in zip(pts, ks, strict=True))
        vectors.append(Vector("te_msm", data, o.point(total) + b"".join(o.point(t) for t in terms)))
    return vectors

