"""Multi-scalar multiplication (templates/c/msm.h.j2 through G1.msm / G2.msm / msm_bytes).

The oracle (tests/msm_util.py): points with known discrete logs, P_i = s_i G, so that sum [k_i] P_i
= [sum k_i s_i mod r] G is one constant-time scalar multiplication (checked against
generator/reference in test_api.py); small cases are also checked against the sum of the scalar
multiplications [k_i] P_i. Sizes cover the direct method, Jacobian buckets and batch-affine buckets
(a few hundred points for G2, from about 512 for G1, and one MSM of 2^12 points per group), with the
affine special cases (a bucket plus the same point, plus its negative, many equal digits) placed
inside batches.
"""

from __future__ import annotations

import random

import pytest
from conftest import STANDARD_CURVES
from msm_util import expected, logs_points


@pytest.fixture(params=STANDARD_CURVES)
def C(request, curve_module):
    return curve_module(request.param)


@pytest.fixture(params=["G1", "G2"])
def G(request, C):
    return getattr(C, request.param)


def nbr(C) -> int:
    return (C.R.bit_length() + 7) // 8


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 40, 300])
def test_msm_small(G, C, n):
    rng = random.Random(f"{C.NAME}-{G.__name__}-{n}")
    logs, pts = logs_points(G, C, n, rng, step=False)
    ks = [rng.randrange(C.R) for _ in range(n)]
    want = expected(G, C, logs, ks)
    assert G.msm(pts, ks) == want
    if n <= 7:
        acc = G.identity()
        for P, k in zip(pts, ks, strict=True):
            acc = acc + P * k
        assert acc == want
    assert G.msm(tuple(pts), iter(ks), threads=1) == want


@pytest.mark.parametrize("n", [600, 1 << 12])
def test_msm_large_threads(G, C, n):
    """Batch-affine buckets and wide windows; threads = 1, 2, 4 give identical points."""
    rng = random.Random(f"{C.NAME}-{G.__name__}-{n}")
    logs, pts = logs_points(G, C, n, rng)
    ks = [rng.randrange(C.R) for _ in range(n)]
    want = expected(G, C, logs, ks)
    outs = [G.msm(pts, ks, threads=t) for t in (1, 2, 4)]
    assert outs[0] == want
    assert all(o.to_bytes(False) == outs[0].to_bytes(False) for o in outs[1:])


@pytest.mark.parametrize("n, width", [(64, 64), (600, 64), (1 << 12, 20), (300, 1)])
def test_msm_short_scalars(G, C, n, width):
    """Scalars far below r (batch verification's 64-bit multipliers): the windows cover only the
    longest scalar, with and without the GLV/GLS split, lists and packed bytes, 1 and 3 threads."""
    rng = random.Random(f"{C.NAME}-{G.__name__}-short-{n}-{width}")
    logs, pts = logs_points(G, C, n, rng)
    ks = [rng.randrange(1 << width) for _ in range(n)]
    ks[n // 3] = (1 << width) - 1
    want = expected(G, C, logs, ks)
    assert G.msm(pts, ks, threads=1) == want
    assert G.msm(pts, ks, threads=3) == want
    packed = b"".join(P.to_bytes(compressed=False) for P in pts)
    scalars = b"".join(k.to_bytes(nbr(C), "little") for k in ks)
    assert G.msm_bytes(packed, scalars, threads=2) == want
    # all zero, and zero but for one scalar: no window at all, then one bit
    assert G.msm(pts, [0] * n).is_identity()
    assert G.msm(pts, [0] * (n - 1) + [1]) == pts[-1]


def test_msm_glv_passes(C):
    """Points known to be in the subgroup take the GLV/GLS split in passes of 2^16 points (the
    cost model takes it for 2^16 + 37 points): a second, short pass; and the same sum as for the
    same points not known to be in it (the plain bucket method)."""
    G = C.G1
    rng = random.Random(f"{C.NAME}-glv-passes")
    n = (1 << 16) + 37
    logs, pts = logs_points(G, C, n, rng)
    ks = [rng.randrange(C.R) for _ in range(n)]
    ks[-1] = (1 << C.R.bit_length()) - 1  # the largest scalar in the last pass
    want = expected(G, C, logs, ks)
    assert G.msm(pts, ks) == want
    unknown = [G.from_bytes(P.to_bytes(), check=False) for P in pts[-600:]]
    assert G.msm(unknown, ks[-600:]) == G.msm(pts[-600:], ks[-600:])


def test_msm_special_cases(G, C):
    """Identities, zero scalars, P + P, P + (-P) and equal digits inside batch-affine windows."""
    rng = random.Random(f"{C.NAME}-{G.__name__}-special")
    n = 700
    logs, pts = logs_points(G, C, n, rng)
    ks = [rng.randrange(C.R) for _ in range(n)]
    # repeated points with repeated scalars: every window sees the same digit twice (a doubling in
    # the bucket), then the negative with the same scalar (an addition of -P: back to P), and a
    # pair (Q, -Q) with equal scalars (the bucket empties)
    for j in range(0, 120, 6):
        k = rng.randrange(C.R)
        pts[j + 1], logs[j + 1], ks[j], ks[j + 1] = pts[j], logs[j], k, k
        pts[j + 2], logs[j + 2], ks[j + 2] = -pts[j], (-logs[j]) % C.R, k
        pts[j + 4], logs[j + 4], ks[j + 3], ks[j + 4] = -pts[j + 3], (-logs[j + 3]) % C.R, k, k
    for j in range(120, 160):
        pts[j], logs[j] = G.identity(), 0  # identity points
    for j in range(160, 200):
        ks[j] = 0  # zero scalars
    for j in range(200, 260):
        ks[j] = 1  # the same small digit many times: the queue overflows
    ks[260], ks[261], ks[262] = C.R - 1, C.R, (1 << C.R.bit_length()) - 1
    want = expected(G, C, logs, ks)
    for t in (1, 3):
        assert G.msm(pts, ks, threads=t) == want
    # all scalars equal: one bucket per window takes everything
    same = [5] * n
    assert G.msm(pts, same) == expected(G, C, logs, same)
    # n copies of one point with one scalar, and P, -P cancelling throughout
    P = pts[0]
    assert G.msm([P] * 520, [7] * 520) == P * (7 * 520)
    assert G.msm([P, -P] * 300, [9] * 600).is_identity()
    assert G.msm([G.identity()] * 600, ks[:600]).is_identity()
    assert G.msm(pts[:600], [0] * 600).is_identity()


def test_msm_scalar_forms(G, C):
    """ints >= r and negative are reduced mod r; Fr elements are accepted."""
    rng = random.Random(f"{C.NAME}-{G.__name__}-forms")
    logs, pts = logs_points(G, C, 20, rng)
    ks = [rng.randrange(C.R) for _ in range(20)]
    want = expected(G, C, logs, ks)
    shifted = [
        k + rng.randrange(1, 1 << 300) * C.R if i % 2 else k - rng.randrange(1, 4) * C.R
        for i, k in enumerate(ks)
    ]
    assert G.msm(pts, shifted) == want
    assert G.msm(pts, [C.Fr(k) for k in ks]) == want
    assert G.msm(pts, [-k for k in ks]) == -want
    mixed = [C.Fr(k) if i % 3 == 0 else k for i, k in enumerate(ks)]
    assert G.msm(pts, mixed) == want


def test_msm_bytes(G, C):
    rng = random.Random(f"{C.NAME}-{G.__name__}-bytes")
    n = 600
    logs, pts = logs_points(G, C, n, rng)
    ks = [rng.randrange(C.R) for _ in range(n)]
    pts[3], logs[3] = G.identity(), 0
    w = nbr(C)
    ks[5] = (1 << (8 * w)) - 1  # >= r: reduced
    want = expected(G, C, logs, ks)
    packed = b"".join(P.to_bytes(False) for P in pts)
    for endian in ("little", "big"):
        sc = b"".join(k.to_bytes(w, endian) for k in ks)
        got = G.msm_bytes(packed, sc, endian=endian, threads=2)
        assert got == want
        assert G.msm_bytes(bytearray(packed), memoryview(sc), endian) == want
    assert G.msm_bytes(packed, b"".join(k.to_bytes(w, "little") for k in ks)) == want  # little by default
    assert G.msm_bytes(
        packed[: 2 * len(packed) // n], b"".join(k.to_bytes(w, "little") for k in ks[:2]), check=True
    ) == (pts[0] * ks[0] + pts[1] * ks[1])
    assert G.msm_bytes(b"", b"").is_identity()


def test_msm_errors(G, C):
    g = G.generator()
    other = C.G2 if G is C.G1 else C.G1
    with pytest.raises(ValueError, match="2 points but 1 scalars"):
        G.msm([g, g], [1])
    with pytest.raises(TypeError, match=r"points\[1\]"):
        G.msm([g, other.generator()], [1, 2])
    with pytest.raises(TypeError, match=r"scalars\[0\]"):
        G.msm([g], [1.5])
    with pytest.raises(TypeError):
        G.msm([g], [True])
    with pytest.raises(ValueError, match="threads"):
        G.msm([g], [1], threads=0)
    with pytest.raises(TypeError, match="threads"):
        G.msm([g], [1], threads="2")
    assert G.msm([], []).is_identity()
    w, u = nbr(C), len(g.to_bytes(False))
    enc = g.to_bytes(False)
    one = (1).to_bytes(w, "little")
    assert G.msm_bytes(enc, one) == g
    with pytest.raises(ValueError, match="multiple of"):
        G.msm_bytes(enc[:-1], one)
    with pytest.raises(ValueError, match="multiple of"):
        G.msm_bytes(enc, one + b"\0")
    with pytest.raises(ValueError, match="1 points but 2 scalars"):
        G.msm_bytes(enc, one * 2)
    with pytest.raises(ValueError, match="endian"):
        G.msm_bytes(enc, one, endian="middle")
    with pytest.raises(TypeError, match="bytes-like"):
        G.msm_bytes([g], one)
    with pytest.raises(TypeError, match="bytes-like"):
        G.msm_bytes(enc, 1)
    # off the curve: change the last byte of y
    bad = bytearray(enc)
    bad[-1] ^= 1
    with pytest.raises(ValueError, match="point 1: the point is not on the curve"):
        G.msm_bytes(enc + bytes(bad), one * 2)
    # a compressed encoding is not accepted (flags) and a coordinate >= p is not canonical
    comp = g.to_bytes(True)
    with pytest.raises(ValueError, match="point 0"):
        G.msm_bytes(comp + comp, one)
    nb = (C.P.bit_length() + 7) // 8
    big_x = bytearray(enc)
    big_x[u // 2 - nb : u // 2] = C.P.to_bytes(nb, "big")
    with pytest.raises(ValueError, match="point 0: the x coordinate is not canonical"):
        G.msm_bytes(bytes(big_x), one)


def test_msm_bytes_subgroup_check(C):
    """check=True rejects an on-curve point outside the subgroup of order r (G1 of curves with a cofactor)."""
    if C.H1 == 1:
        pytest.skip("G1 has cofactor 1: every curve point is in the subgroup")
    gx, gy = C.G1.generator().to_affine()
    b = C.Fp(gy) ** 2 - C.Fp(gx) ** 3
    x = 1
    while True:
        x += 1
        rhs = C.Fp(x) ** 3 + b
        if rhs.is_square():
            P = C.G1.from_affine(x, int(rhs.sqrt()), check=False)
            if not P.in_subgroup():
                break
    enc = P.to_bytes(False)
    one = (1).to_bytes(nbr(C), "little")
    assert C.G1.msm_bytes(enc, one) == P  # not checked by default
    with pytest.raises(ValueError, match="point 0 is not in the subgroup"):
        C.G1.msm_bytes(enc, one, check=True)


@pytest.mark.parametrize("group", ["G1", "G2"])
def test_msm_table(curve_module, group):
    """The fixed-base table (c/msm/_table.j2 through the private _G1MSMTable / _G2MSMTable that
    eip4844's precompute builds) gives the oracle's point: widths 4, 9 and 13 and the cost model's,
    all the bases or a prefix, identity bases, zero, one and r - 1 scalars, on one and three threads,
    with the IFMA kernel and without it (G1, where the module has it: enough table points for it).
    BLS12-381 only (the curve that ships the table's user)."""
    C = curve_module("bls12_381")
    core = C._impl
    G = getattr(C, group)
    Table = getattr(core, f"_{group}MSMTable")
    rng = random.Random(f"table-{group}")
    n = 100 if group == "G1" else 24
    logs, pts = logs_points(G, C, n, rng, step=False)
    logs[5], pts[5] = 0, G.identity()
    ks = [rng.randrange(C.R) for _ in range(n)]
    ks[:3] = [0, 1, C.R - 1]
    with pytest.raises(ValueError, match="width must be an int in"):
        Table(pts, 1)
    was_on = core._msm_ifma()
    try:
        for width in (4, 9, 13, None):
            table = Table(pts, width, threads=2)
            assert table.size == n and table.width == (width or Table.best_width(n)) and table.nbytes > 0
            for ifma in sorted({was_on, False}):
                core._msm_ifma(ifma)
                for threads in (1, 3):
                    assert table.msm(ks, threads=threads) == expected(G, C, logs, ks), (width, ifma, threads)
                    assert table.msm(ks[:17], threads=threads) == expected(G, C, logs[:17], ks[:17])
                assert table.msm([]) == G.identity()
                core._msm_ifma(was_on)
            with pytest.raises(ValueError, match="scalars, but the table has"):
                table.msm(ks + [1])
    finally:
        core._msm_ifma(was_on)
