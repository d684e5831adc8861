"""The generic32 target (32-bit limbs), built natively, gives byte-identical results to the
committed generic64 build on the same inputs."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

import pytest
from build_cache import cached_dir, quick_build_flags, quick_package_key
from conftest import REPO_ROOT

from generator.build import build_package
from generator.cli import write_package
from generator.pipeline import derive_model, render_package

CURVE_FILES = {"bn254": "bn254", "bls12_381": "bls12-381", "bls12_377": "bls12-377", "bw6_761": "bw6-761"}


# one worker per curve under xdist (its generic32 build is shared by the tests of that curve)
@pytest.fixture(scope="module", params=[pytest.param(p, marks=pytest.mark.xdist_group(f"generic32-{p}")) for p in sorted(CURVE_FILES)])
def pair(request, curve_module):
    """(generic64 module, generic32 module) of one curve."""
    pkg = request.param
    wide = curve_module(pkg)
    curve_file = REPO_ROOT / "curves" / f"{CURVE_FILES[pkg]}.toml"

    def make(root: Path) -> None:
        pkg_dir = root / f"{pkg}32"
        write_package(pkg_dir, render_package(derive_model(curve_file)))  # gen-curve's writer (text and data files)
        with quick_build_flags():  # -O1: the results are compared, not the speed
            build_package(pkg_dir, limb_bits=32)

    # built once per content of the curve file, the generator and the toolchain (all workers, all runs)
    key = quick_package_key("generic32", curve_file)
    root = cached_dir(key, make)
    sys.path.insert(0, str(root))
    try:
        narrow = importlib.import_module(f"{pkg}32")
    finally:
        sys.path.remove(str(root))
    assert narrow._core.LIMB_BITS == 32 and wide._core.LIMB_BITS == 64
    return wide, narrow


def test_fields_agree(pair) -> None:
    wide, narrow = pair
    rng = random.Random(1)
    for field in ("Fp", "Fr"):
        W, N = getattr(wide, field), getattr(narrow, field)
        modulus = wide.P if field == "Fp" else wide.R
        values = [0, 1, modulus - 1, modulus - 2, (modulus - 1) // 2] + [rng.randrange(modulus) for _ in range(30)]
        for a, b in zip(values, reversed(values), strict=True):
            assert int(N(a) * N(b)) == int(W(a) * W(b)) == a * b % modulus
            assert int(N(a) - N(b)) == (a - b) % modulus
            if a:
                assert int(N(a).inverse()) == int(W(a).inverse()) == pow(a, -1, modulus)
            assert N(a).is_square() == W(a).is_square()
            if W(a).is_square():
                root = int(N(a).sqrt())
                assert root * root % modulus == a


def test_groups_and_pairing_agree(pair) -> None:
    wide, narrow = pair
    rng = random.Random(2)
    for _ in range(3):
        k1, k2 = rng.randrange(wide.R), rng.randrange(wide.R)
        P_w, Q_w = wide.G1.generator() * k1, wide.G2.generator() * k2
        P_n, Q_n = narrow.G1.generator() * k1, narrow.G2.generator() * k2
        for compressed in (True, False):
            assert P_n.to_bytes(compressed) == P_w.to_bytes(compressed)
            assert Q_n.to_bytes(compressed) == Q_w.to_bytes(compressed)
        assert narrow.G1.from_bytes(P_w.to_bytes()).to_bytes() == P_w.to_bytes()
        assert narrow.G2.from_bytes(Q_w.to_bytes()).to_bytes() == Q_w.to_bytes()
        assert narrow.pairing(P_n, Q_n).to_bytes() == wide.pairing(P_w, Q_w).to_bytes()


def test_hash_to_curve_agrees(pair) -> None:
    wide, narrow = pair
    rng = random.Random(3)
    for G in ("G1", "G2"):
        W, N = getattr(wide, G), getattr(narrow, G)
        for i in range(3):
            msg, dst = rng.randbytes(i * 20), b"PAIRFORGE-G32-" + G.encode()
            assert N.hash_to_curve(msg, dst).to_bytes() == W.hash_to_curve(msg, dst).to_bytes()
            assert N.encode_to_curve(msg, dst).to_bytes() == W.encode_to_curve(msg, dst).to_bytes()
            u = W.hash_to_field(msg, dst)[0]
            assert N.map_to_curve(u).to_bytes(False) == W.map_to_curve(u).to_bytes(False)
