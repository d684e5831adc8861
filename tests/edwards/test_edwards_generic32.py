"""generic32 on twisted Edwards curves: Bandersnatch (general a, 8 32-bit limbs) and ed_on_bw6_761
(a = -1, 12 32-bit limbs) built with 32-bit limbs by `gen-curve --params --out --target generic32`
give byte-identical results to the committed 64-bit modules."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

import pytest
from build_cache import cached_dir, quick_build_flags, quick_package_key
from conftest import REPO_ROOT, load_curve_module

from generator.cli import main as gen_curve


# one worker per curve under xdist (its generic32 build is shared by the tests of that curve)
@pytest.fixture(scope="module", params=[pytest.param(p, marks=pytest.mark.xdist_group(f"edwards-generic32-{p}")) for p in ("bandersnatch", "ed_on_bw6_761")])
def pair(request):
    pkg = request.param
    wide = load_curve_module(pkg)
    curve_file = REPO_ROOT / "curves" / f"{pkg}.toml"

    def make(root: Path) -> None:
        with quick_build_flags():  # -O1: the results are compared, not the speed
            assert gen_curve(["--params", str(curve_file), "--out", str(root), "--target", "generic32"]) == 0

    # built once per content of the curve file, the generator and the toolchain (all workers, all runs)
    out = cached_dir(quick_package_key("edwards generic32", curve_file), make)
    sys.path.insert(0, str(out))
    try:
        narrow = importlib.import_module(pkg)
    finally:
        sys.path.remove(str(out))
    return narrow, wide


def test_byte_identical(pair) -> None:
    narrow, wide = pair
    assert narrow.TARGET == "generic32" and wide.TARGET != "generic32"
    rng = random.Random(32)
    for _ in range(20):
        k, k2 = rng.randrange(wide.R), rng.randrange(1 << 300)
        P32, P64 = narrow.Point.generator() * k, wide.Point.generator() * k
        assert P32.to_bytes() == P64.to_bytes()
        assert (P32.mul_vartime(k2) - P32.double()).to_bytes(False, "arkworks") == \
            (P64.mul_vartime(k2) - P64.double()).to_bytes(False, "arkworks")
        assert narrow.Point.from_bytes(P64.to_bytes()).in_subgroup()
        x = rng.randrange(wide.P)
        assert int(narrow.Fq(x).inverse()) == int(wide.Fq(x).inverse())
        if wide.Fq(x).is_square():
            assert int(narrow.Fq(x).sqrt()) ** 2 % wide.P == x
    points = [wide.Point.generator() * rng.randrange(wide.R) for _ in range(64)]
    scalars = [rng.randrange(wide.R) for _ in points]
    narrow_points = [narrow.Point.from_bytes(P.to_bytes()) for P in points]
    assert narrow.Point.msm(narrow_points, scalars, threads=2).to_bytes() == wide.Point.msm(points, scalars).to_bytes()
    T = narrow.Point.from_affine(0, wide.P - 1, check=False)
    assert T.clear_cofactor().is_identity() and not T.in_subgroup()


def test_msm_on_the_weierstrass_model(pair) -> None:
    """Above generator.emit.context_edwards.sw_msm_min_n points the MSM runs on the Weierstrass
    model (batch-affine buckets): 32-bit limbs give the same sum, with the identity, the point of
    order 2, repeated points and P, -P among the inputs."""
    from generator.emit.context_edwards import SW_MSM_MIN_N_A_MINUS_ONE, SW_MSM_MIN_N_GENERAL_A

    narrow, wide = pair
    rng = random.Random(33)
    n = max(SW_MSM_MIN_N_A_MINUS_ONE, SW_MSM_MIN_N_GENERAL_A) + 5
    G = wide.Point.generator()
    P, S = G * rng.randrange(wide.R), G * rng.randrange(wide.R)
    points = []
    for _ in range(n - 6):
        points.append(P)
        P = P + S
    T = wide.Point.from_affine(0, wide.P - 1, check=False)
    points += [wide.Point.identity(), T, points[0], points[0], points[1], -points[1]]
    scalars = [rng.randrange(wide.R) for _ in points]
    narrow_points = [narrow.Point.from_bytes(Q.to_bytes(False, "arkworks"), check=False, profile="arkworks")
                     for Q in points]
    expected = wide.Point.msm(points, scalars)
    assert narrow.Point.msm(narrow_points, scalars, threads=2).to_bytes() == expected.to_bytes()
    assert expected == sum((Q.mul_vartime(k) for Q, k in zip(points, scalars, strict=True)), wide.Point.identity())


def test_swpoint_byte_identical(pair) -> None:
    """SWPoint's C (c/edwards_sw.h over sw.h) at 32-bit limbs: the same encodings as at 64 for
    P * k on both paths (points known to lie in the subgroup, and not), mul_vartime, +, -, the
    cofactor clearing, the subgroup test and the MSM."""
    narrow, wide = pair
    if not hasattr(wide, "SWPoint"):
        pytest.skip(f"{wide.NAME} has no [weierstrass] section")
    rng = random.Random(34)
    G32, G64 = narrow.SWPoint.generator(), wide.SWPoint.generator()
    assert G32.to_bytes() == G64.to_bytes()
    for _ in range(8):
        k, k2 = rng.randrange(wide.R), rng.randrange(1 << 300)
        P64 = G64 * k
        P32 = narrow.SWPoint.from_bytes(P64.to_bytes())
        open32 = narrow.SWPoint.from_bytes((P64 + wide.Point.from_affine(0, wide.P - 1, check=False)
                                            .to_weierstrass()).to_bytes(), check=False)   # outside the subgroup
        open64 = wide.SWPoint.from_bytes(open32.to_bytes(), check=False)
        assert (P32 * k2).to_bytes() == (P64 * k2).to_bytes() and (open32 * k2).to_bytes() == (open64 * k2).to_bytes()
        assert P32.mul_vartime(k2).to_bytes(False) == P64.mul_vartime(k2).to_bytes(False)
        assert (P32 + open32 - G32.double()).to_bytes() == (P64 + open64 - G64.double()).to_bytes()
        assert open32.clear_cofactor().to_bytes() == open64.clear_cofactor().to_bytes()
        assert not open32.in_subgroup() and narrow.SWPoint.from_bytes(P64.to_bytes(), check=False).in_subgroup()
    points = [G64 * rng.randrange(wide.R) for _ in range(40)]
    scalars = [rng.randrange(wide.R) for _ in points]
    narrow_points = [narrow.SWPoint.from_bytes(P.to_bytes(), check=False) for P in points]
    assert narrow.SWPoint.msm(narrow_points, scalars, threads=2).to_bytes() == wide.SWPoint.msm(points, scalars).to_bytes()
