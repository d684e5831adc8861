"""The twisted Edwards MSM on the short Weierstrass model (c/edwards_msm.h: batch-affine buckets
from msm.h.j2 on sw.h, from generator.emit.context_edwards.sw_msm_min_n points on), on every
shipped Edwards curve, below and above that size and across window widths, against an
independent reference: the sum computed in the pure-Python Weierstrass model
(generator/reference/edwards.py) through the derived maps. Inputs include the identity, the
point (0, -1) of order 2, other points outside the subgroup, repeated points, P and -P, zero
scalars and scalars >= r; sums that pass through points at infinity of the Edwards model."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from conftest import edwards_packages, load_curve_module
from edwards_util import model, outside, pt

from generator.derive.edwards import EdwardsModel
from generator.derive.edwards.algebra import to_weierstrass
from generator.emit.context_edwards import sw_msm_min_n
from generator.reference.edwards import EdwardsCurve, WeierstrassCurve, sqrt_mod

PACKAGES = edwards_packages()


@pytest.fixture(scope="module", params=PACKAGES or [None])
def ctx(request) -> tuple[ModuleType, EdwardsModel]:
    if request.param is None:
        pytest.skip("no twisted Edwards packages in generated/")
    return load_curve_module(request.param), model(request.param)


def weierstrass(m: EdwardsModel) -> WeierstrassCurve:
    return WeierstrassCurve(m.p, m.weierstrass.a, m.weierstrass.b)


def to_sw(m: EdwardsModel, P: tuple[int, int]) -> tuple[int, int] | None:
    """The Weierstrass image of a finite Edwards point (None: the identity)."""
    if P == (0, m.p - 1):   # Montgomery (0, 0): x_w = A / (3B)
        A, B = m.montgomery
        return A * pow(3 * B, -1, m.p) % m.p, 0
    return to_weierstrass(m.curve, m.montgomery, 1, P)


def to_edwards(m: EdwardsModel, W: tuple[int, int] | None) -> tuple[int, int] | None:
    """The Edwards image of a Weierstrass point; None where it lies at infinity."""
    p, (A, B) = m.p, m.montgomery
    if W is None:
        return (0, 1)
    u, v = (B * W[0] - A * pow(3, -1, p)) % p, B * W[1] % p
    if u == 0 and v == 0:
        return (0, p - 1)
    if v == 0 or (u + 1) % p == 0:
        return None
    return u * pow(v, -1, p) % p, (u - 1) * pow(u + 1, -1, p) % p


def reference(m: EdwardsModel, points: list[tuple[int, int]], scalars: list[int]):
    """sum [k_i mod r] P_i in the Weierstrass reference (its law is complete on the whole curve)."""
    W = weierstrass(m)
    acc = None
    for P, k in zip(points, scalars, strict=True):
        acc = W.add(acc, W.mul(to_sw(m, P), k % m.r))
    return acc


def subgroup_run(C: ModuleType, m: EdwardsModel, n: int, rng: random.Random):
    """n subgroup points a_i G (a_i = a0 + i step: consecutive additions, cheap) with their a_i."""
    G = C.Point.generator()
    a0, step = rng.randrange(1, m.r), rng.randrange(1, m.r)
    P, S = G * a0, G * step
    pts, logs = [], []
    for i in range(n):
        pts.append(P)
        logs.append((a0 + i * step) % m.r)
        P = P + S
    return pts, logs


def check(C: ModuleType, m: EdwardsModel, n: int, special: list[tuple[int, int]], special_k: list[int],
          seed: int, threads=(1, 2)) -> None:
    """msm on n points: the special ones (with their scalars) and subgroup points a_i G, the sum
    compared with the reference (a_i G's part as [sum k_i a_i] G, mapped to the Weierstrass model)."""
    rng = random.Random(seed)
    pts, logs = subgroup_run(C, m, n - len(special), rng)
    ks = [rng.randrange(m.r) for _ in pts]
    s = sum(k * a for k, a in zip(ks, logs, strict=True)) % m.r
    W = weierstrass(m)
    expected_w = W.add(reference(m, special, special_k), W.mul(m.weierstrass.generator, s))
    expected = to_edwards(m, expected_w)
    points = [pt(C, P) for P in special] + pts
    scalars = list(special_k) + ks
    for t in threads:
        got = C.Point.msm(points, scalars, threads=t)
        if expected is None:
            with pytest.raises(ValueError):
                got.to_affine()
        else:
            assert got.to_affine() == expected, (n, t)


def sizes(m: EdwardsModel) -> list[int]:
    """Below and at the Weierstrass threshold, and above it across window widths."""
    t = sw_msm_min_n(m)
    assert t is not None, "every shipped Edwards curve has a Weierstrass model with b != 0"
    return [t - 1, t, t + 1, 2 * t + 37, 4 * t + 5]


def test_threshold_is_derived(ctx) -> None:
    C, m = ctx
    t = sw_msm_min_n(m)
    assert t == (2048 if m.a_is_minus_one else 1024)
    with open(C.__file__.rsplit("/", 1)[0] + "/c/edwards_msm.h") as f:
        assert f"#define TE_MSM_SW_MIN_N {t}\n" in f.read()


def test_random_subgroup(ctx) -> None:
    C, m = ctx
    for i, n in enumerate(sizes(m)):
        check(C, m, n, [], [], seed=100 + i)


def test_exceptional_inputs(ctx) -> None:
    C, m = ctx
    p, r = m.p, m.r
    G = m.generator
    E = EdwardsCurve(m.p, m.a, m.d)
    Q = outside(m, E, 7)
    negG = E.neg(G)
    special = [
        (0, 1), (0, 1),                 # the identity
        (0, p - 1), (0, p - 1),         # the point of order 2, twice (their sum is the identity)
        G, negG,                        # P and -P with equal scalars: they cancel in every bucket
        G, G, G,                        # repeated points (doublings in the batch-affine buckets)
        Q, E.neg(Q), Q,                 # outside the subgroup, with its negative
        G,                              # a zero scalar
        G,                              # scalars >= r
    ]
    special_k = [5, 0, 3, 3, 12345, 12345, 77, 77, 77, 9, 9, 2, 0, r + 3]
    for n in (len(special), sizes(m)[1], sizes(m)[3]):
        check(C, m, n, special, special_k, seed=n)
    # a window where only the special points have non-zero digits
    check(C, m, sizes(m)[1], special, [r - 1] * len(special), seed=3)


def test_sums_through_edwards_infinity(ctx) -> None:
    """Inputs whose partial sums (and the total) lie at infinity of the Edwards model, where only
    the Weierstrass model's law is exact: Q and T - Q for a point T of order 2 at infinity."""
    C, m = ctx
    W = weierstrass(m)
    A, B = m.montgomery
    # the 2-torsion of the Montgomery model other than (0, 0): u^2 + A u + 1 = 0
    root = sqrt_mod((A * A - 4) % m.p, m.p)
    if root is None:
        pytest.skip("no rational point of order 2 at Edwards infinity on this curve")
    u = (-A + root) * pow(2, -1, m.p) % m.p
    T = ((u * pow(B, -1, m.p) + A * pow(3 * B, -1, m.p)) % m.p, 0)
    assert W.on_curve(T) and to_edwards(m, T) is None
    rng = random.Random(11)
    found = []
    while len(found) < 2:
        Q = outside(m, EdwardsCurve(m.p, m.a, m.d), rng.randrange(1 << 30))
        x, y = to_sw(m, Q)
        other = to_edwards(m, W.add(T, (x, -y % m.p)))      # T - Q
        if other is not None:
            found.append((Q, other))
    (Q1, R1), (Q2, R2) = found
    # Q1 + R1 = T (infinity): alone, and with the subgroup points of a Weierstrass-path run
    check(C, m, 2, [Q1, R1], [1, 1], seed=21, threads=(1,))
    check(C, m, sizes(m)[1], [Q1, R1], [1, 1], seed=22)
    # T + T = O from two such pairs; and T plus a finite point
    check(C, m, sizes(m)[1], [Q1, R1, Q2, R2], [1, 1, 1, 1], seed=23)
    check(C, m, sizes(m)[1] + 3, [Q1, R1, Q2], [1, 1, 1], seed=24)


def test_projective_inputs_and_scalar_forms(ctx) -> None:
    """Point.msm hands the points' extended coordinates (Z != 1) straight to the map to the
    Weierstrass model, and its scalars through the shared fast path for ints in [0, r) (others
    reduced mod r, Fr converted): the identity and (0, -1) with Z != 1, negative and oversized ints
    and Fr, against sums of mul_vartime and against msm_bytes (affine inputs)."""
    C, m = ctx
    rng = random.Random(21)
    G = C.Point.generator()
    T = pt(C, (0, m.p - 1))
    P = G * rng.randrange(1, m.r)
    identity = P + (-P)                 # (0 : Z : Z), Z != 1 in general
    order2 = (T + P) - P                # (0 : -Z : Z)
    assert identity == C.Point.identity() and order2 == T
    n = sw_msm_min_n(m) + 3
    pts, _ = subgroup_run(C, m, n - 4, rng)
    points = [identity, order2, T, P] + pts
    scalars = [rng.randrange(m.r) for _ in points]
    forms = [lambda k: k, lambda k: k - m.r, lambda k: k + 5 * m.r, lambda k: C.Fr(k), lambda k: -k]
    mixed = [forms[i % len(forms)](k) for i, k in enumerate(scalars)]
    expected = C.Point.identity()
    for Q, k in zip(points, mixed, strict=True):
        expected = expected + Q.mul_vartime(int(k) % m.r)
    got = C.Point.msm(points, mixed, threads=2)
    assert got == expected
    data = b"".join(Q.to_bytes(False, profile="arkworks") for Q in points)
    scalar_bytes = b"".join((int(k) % m.r).to_bytes(m.fr.nbytes, "little") for k in mixed)
    assert C.Point.msm_bytes(data, scalar_bytes, profile="arkworks") == expected
    # the result of subgroup points is known to lie in the subgroup: P * k takes the GLV path
    # where the curve has one; it must agree with the variable-time multiplication
    sub_sum = C.Point.msm(pts, scalars[4:], threads=1)
    k = rng.randrange(m.r)
    assert sub_sum * k == sub_sum.mul_vartime(k) and sub_sum.in_subgroup()
