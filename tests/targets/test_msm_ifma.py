"""G1's AVX-512 IFMA bucket kernel (templates/c/msm/_ifma.j2) against the portable method and the
known-log oracle of tests/msm_util.py.

The kernel is compiled into the x86_64-adx module and runs where the CPU reports AVX-512F and
IFMA, from G1_MSM_IFMA_MIN_POINTS = 1024 points in one bucket run (512 points and more through
the GLV split).  On a CPU without IFMA these tests skip with that reason: the other MSM tests then
cover the portable method, which is all such a CPU runs.  Where it runs, every MSM test of
test_msm.py at 2^12 points also goes through it.
"""

from __future__ import annotations

import random

import pytest
from conftest import STANDARD_CURVES
from msm_util import assert_ifma_switch_follows_the_cpu, expected, logs_points
from wasm_util import random_compressed

CURVES = STANDARD_CURVES + ("bls24_315", "bw6_633")


@pytest.fixture(params=CURVES)
def C(request, curve_module):
    C = curve_module(request.param)
    if not C._impl._msm_ifma():
        pytest.skip(f"{C.NAME}: the {C.TARGET} module on this CPU has no AVX-512 IFMA kernel")
    yield C
    C._impl._msm_ifma(True)


def special_inputs(C, n: int, rng: random.Random):
    """n points with their logs and scalars, with repeated, opposite and identity points, zero
    scalars and equal digits spread over the eight lanes' slices (the kernel's exceptional cases:
    a bucket plus the same point or its negative, running sums that double)."""
    G = C.G1
    logs, pts = logs_points(G, C, n, rng)
    ks = [rng.randrange(C.R) for _ in range(n)]
    for j in range(0, n, n // 16):
        k = rng.randrange(C.R)
        pts[j + 1], logs[j + 1], ks[j], ks[j + 1] = pts[j], logs[j], k, k
        pts[j + 2], logs[j + 2], ks[j + 2] = -pts[j], (-logs[j]) % C.R, k
        pts[j + 3], logs[j + 3] = G.identity(), 0
        ks[j + 4] = 0
        ks[j + 5] = 1
    return logs, pts, ks


def test_ifma_matches_portable_and_oracle(C):
    rng = random.Random(f"{C.NAME}-ifma")
    n = 5000
    logs, pts, ks = special_inputs(C, n, rng)
    want = expected(C.G1, C, logs, ks)
    assert C._impl._msm_ifma() is True
    for threads in (1, 3):
        assert C.G1.msm(pts, ks, threads=threads) == want
    # the plain bucket method (points not known to be in the subgroup: no GLV split)
    unknown = [C.G1.from_bytes(P.to_bytes(), check=False) for P in pts]
    assert C.G1.msm(unknown, ks) == want
    assert C._impl._msm_ifma(False) is False
    assert C.G1.msm(pts, ks) == want
    assert C.G1.msm(unknown, ks) == want
    assert C._impl._msm_ifma(True) is True


@pytest.mark.parametrize("slices", (1, 2, 4, 8))
def test_ifma_every_layout(C, slices):
    """Every layout of the kernel's rounds, forced through its test hook: eight slices of one window
    per round (the lanes share the window's running sums), one whole window per lane (the top
    window's spread buckets in one lane of a round, idle lanes in the last round), and between; on
    one to three threads (rounds shared unevenly), with and without the GLV split."""
    rng = random.Random(f"{C.NAME}-layout-{slices}")
    logs, pts, ks = special_inputs(C, 3000, rng)
    want = expected(C.G1, C, logs, ks)
    unknown = [C.G1.from_bytes(P.to_bytes(), check=False) for P in pts]
    assert C._impl._msm_ifma_slices(slices) == slices
    try:
        for threads in (1, 2, 3):
            assert C.G1.msm(pts, ks, threads=threads) == want, threads
        assert C.G1.msm(unknown, ks, threads=2) == want
    finally:
        assert C._impl._msm_ifma_slices(0) == 0


def test_ifma_layout_hook_checks_its_argument(C):
    assert C._impl._msm_ifma_slices() == 0
    for bad in (3, -1, 16):
        with pytest.raises(ValueError, match="slices must be 0, 1, 2, 4 or 8"):
            C._impl._msm_ifma_slices(bad)
    assert C._impl._msm_ifma_slices() == 0


def test_ifma_degenerate_runs(C):
    """Every point the same, every scalar the same, and pairs that cancel: buckets that double,
    empty out and refill inside one lane."""
    G = C.G1
    P = G.generator() * 12345
    n = 4100
    assert G.msm([P] * n, [7] * n) == P * (7 * n)
    assert G.msm([P, -P] * (n // 2), [9] * n).is_identity()
    ks = [random.Random(f"{C.NAME}-deg").randrange(C.R)] * n
    assert G.msm([P] * n, ks) == P * (ks[0] * n % C.R)


def points_off_the_subgroup(C, count: int, rng: random.Random) -> list:
    """Points of G1's curve outside the subgroup of order r (none where the cofactor is 1): random
    compressed encodings (wasm_util.random_compressed) that decode to points outside it, and their
    multiples by r (whose order divides the cofactor)."""
    G = C.G1
    found = []
    for _ in range(400 * count):
        data, kind = random_compressed(C, G, rng)
        if kind == "outside":
            P = G.from_bytes(data, check=False)
            found.append(P)
            Q = P * (C.R - 1) + P  # [r] P: in the cofactor's group
            if Q != G.identity():
                found.append(Q)
        if len(found) >= count:
            break
    return found


def test_batch_subgroup_checks_match_portable(C):
    """G1.batch_from_bytes checks the subgroup eight points at a time on the IFMA kernel: the same
    points, or the ValueError naming the same first bad item, as the portable one-by-one check,
    for points off the subgroup in every lane, identities and a bad encoding among them."""
    rng = random.Random(f"{C.NAME}-subgroup")
    G = C.G1
    inside = [G.generator() * rng.randrange(C.R) for _ in range(24)]
    outside = points_off_the_subgroup(C, 8, rng)
    ident = G.identity().to_bytes()
    assert outside or C.H1 == 1  # a G1 of cofactor 1 is its whole curve

    def decoded(items):
        got = []
        for on in (True, False):
            assert C._impl._msm_ifma(on) is on
            try:
                got.append(("ok", G.batch_from_bytes(items)))
            except ValueError as exc:
                got.append(("error", str(exc)))
        assert got[0] == got[1]
        return got[0]

    for P in outside:
        for n in (1, 8, 9, 17):
            for pos in range(n):
                items = [rng.choice(inside).to_bytes() for _ in range(n)]
                items[pos] = P.to_bytes()
                assert decoded(items) == ("error", f"G1.batch_from_bytes: item {pos}: the point is not in the "
                                                   "subgroup of order r"), (n, pos)
    for _ in range(60):
        n = rng.randrange(1, 40)
        pts = [rng.choice(inside) for _ in range(n)]
        items = [P.to_bytes() for P in pts]
        for _ in range(rng.randrange(3)):
            items[rng.randrange(n)] = ident
        status, value = decoded(items)
        assert status == "ok" and [P.to_bytes() for P in value] == items
        if outside:
            bad = sorted(rng.sample(range(n), min(n, rng.randrange(1, 4))))
            for k in bad:
                items[k] = rng.choice(outside).to_bytes()
            assert decoded(items) == ("error", f"G1.batch_from_bytes: item {bad[0]}: the point is not in the "
                                               "subgroup of order r")
            assert decoded([*items[: bad[0]], b"\xff" * len(ident), *items[bad[0]:]])[1].startswith(
                f"G1.batch_from_bytes: item {bad[0]}: ")  # a bad encoding first: its own error


@pytest.mark.parametrize("name", CURVES)
def test_ifma_switch_follows_the_cpu(curve_module, name):
    """The IFMA switch follows the CPU flags (msm_util.assert_ifma_switch_follows_the_cpu)."""
    assert_ifma_switch_follows_the_cpu(curve_module(name))


@pytest.mark.parametrize("name", CURVES)
def test_ifma_constants(curve_module, name):
    """generator/derive/ifma.py's constants, re-derived here from p alone: the least limb count with
    4p <= R52, -p^-1 mod 2^52, and the two conversion factors (x R64 -> x R52 -> x R64)."""
    from generator.derive.ifma import LIMB_BITS, derive_ifma_field

    p = curve_module(name).P
    limbs64 = -(-p.bit_length() // 64)
    v = derive_ifma_field(p, limbs64, name)
    r52, r64 = 1 << (LIMB_BITS * v.limbs), 1 << (64 * limbs64)

    def value(limbs):
        assert all(0 <= limb < 1 << LIMB_BITS for limb in limbs)
        return sum(limb << (LIMB_BITS * i) for i, limb in enumerate(limbs))

    assert 4 * p <= r52 and 4 * p > r52 >> LIMB_BITS  # 4p <= R52, and one limb fewer would not do
    assert value(v.modulus) == p and value(v.twice_modulus) == 2 * p
    assert (v.n0 * p + 1) % (1 << LIMB_BITS) == 0
    assert value(v.one) == r52 % p
    x = 0xC0FFEE % p
    xr52 = x * value(v.to_kernel) * r64 * pow(r52, -1, p) % p  # montmul52(x R64, to_kernel)
    assert xr52 == x * r52 % p
    assert xr52 * value(v.from_kernel) * pow(r52, -1, p) % p == x * r64 % p


@pytest.mark.parametrize("name", ("bls12_381", "bn254"))
def test_ifma_constants_checked(curve_module, name, monkeypatch):
    """A wrong -p^-1 mod 2^52 (gmpy2.invert off by one inside the derivation) stops it."""
    import generator.derive.ifma as ifma

    p = curve_module(name).P
    real = ifma.gmpy2.invert
    monkeypatch.setattr(ifma.gmpy2, "invert", lambda a, m: real(a, m) + (1 if m == 1 << ifma.LIMB_BITS else 0))
    with pytest.raises(ifma.DerivationError, match="-p\\^-1 mod 2\\^52"):
        ifma.derive_ifma_field(p, -(-p.bit_length() // 64), name)
