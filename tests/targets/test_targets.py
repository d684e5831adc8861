"""The code targets of one build: the portable module (_core, generic64) and, on x86-64, the
module with the x86_64-adx field kernels (_core_adx) give identical results on the same inputs,
and the package picks the right one at import (CPUID, PAIRFORGE_TARGET)."""

from __future__ import annotations

import importlib
import os
import platform
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO_ROOT, skip_or_fail

ON_X86_64 = platform.machine().lower() in ("x86_64", "amd64")


@pytest.fixture(scope="module")
def pair(curve: ModuleType) -> tuple[ModuleType, ModuleType]:
    """(portable module, x86_64-adx module) of one curve."""
    if not ON_X86_64:
        pytest.skip("the x86_64-adx target exists on x86-64 hosts only")
    if not curve._portable._cpu_supports_adx():
        pytest.skip("this CPU lacks BMI2 or ADX")
    try:
        adx = importlib.import_module(f"{curve.__name__}._core_adx")
    except ImportError as exc:
        skip_or_fail(f"{curve.__name__}._core_adx is not built ({exc})")
    portable = curve._portable
    assert portable._TARGET == "generic64" and adx._TARGET == "x86_64-adx"
    assert portable is not adx and portable.Fp is not adx.Fp
    return portable, adx


def _field_values(modulus: int, rng: random.Random, count: int) -> list[int]:
    """Edge values (0, 1, p - 1, words of all ones or zeros, values near the limb boundary) and random ones."""
    nlimbs = (modulus.bit_length() + 63) // 64
    big = 1 << (64 * nlimbs)
    values = [0, 1, 2, modulus - 1, modulus - 2, (modulus - 1) // 2, (modulus + 1) // 2]
    values += [(big - 1) % modulus, (big - modulus) % modulus, (1 << (modulus.bit_length() - 1)) % modulus]
    values += [(1 << 64) - 1, modulus - (1 << 64) + 1, modulus - 1 - ((1 << 64) - 1)]
    values += [rng.randrange(modulus) for _ in range(count)]
    return values


@pytest.mark.parametrize("field", ["Fp", "Fr"])
def test_prime_fields_agree(pair, field: str) -> None:
    portable, adx = pair
    A, B = getattr(portable, field), getattr(adx, field)
    modulus = portable.P if field == "Fp" else portable.R
    rng = random.Random(f"{portable.NAME}:{field}")
    values = _field_values(modulus, rng, 60)
    pairs = [(x, y) for x in values[:13] for y in values[:13]] + [
        (rng.choice(values), rng.choice(values)) for _ in range(200)
    ]
    for x, y in pairs:
        ax, ay, bx, by = A(x), A(y), B(x), B(y)
        assert int(bx * by) == int(ax * ay) == x * y % modulus
        assert int(bx + by) == int(ax + ay) == (x + y) % modulus
        assert int(bx - by) == int(ax - ay) == (x - y) % modulus
    for x in values:
        ax, bx = A(x), B(x)
        assert int(bx.square()) == int(ax.square()) == x * x % modulus
        assert int(-bx) == int(-ax) == -x % modulus
        assert bx.to_bytes() == ax.to_bytes()
        assert bx.legendre() == ax.legendre()
        if x:
            assert int(bx.inverse()) == int(ax.inverse()) == pow(x, -1, modulus)
        if ax.is_square():
            assert int(bx.sqrt()) == int(ax.sqrt())
            assert int(bx.sqrt()) ** 2 % modulus == x
        e = rng.randrange(modulus)
        assert int(bx**e) == int(ax**e) == pow(x, e, modulus)


def _tower_classes(module: ModuleType) -> list[str]:
    return [name for name in module.__all__ if name.startswith("Fp") and name != "Fp"]


def test_tower_agrees(pair) -> None:
    portable, adx = pair
    rng = random.Random(f"{portable.NAME}:tower")
    nbytes = len(portable.Fp.one().to_bytes())
    for name in _tower_classes(portable):
        A, B = getattr(portable, name), getattr(adx, name)
        degree = len(A.one().to_bytes()) // nbytes

        def random_bytes(degree: int = degree) -> bytes:
            coeffs = [rng.choice([0, 1, portable.P - 1, rng.randrange(portable.P)]) for _ in range(degree)]
            return b"".join(portable.Fp(c).to_bytes() for c in coeffs)

        for _ in range(12):
            x, y = random_bytes(), random_bytes()
            ax, ay, bx, by = A.from_bytes(x), A.from_bytes(y), B.from_bytes(x), B.from_bytes(y)
            assert (bx * by).to_bytes() == (ax * ay).to_bytes()
            assert (bx + by).to_bytes() == (ax + ay).to_bytes()
            assert (bx - by).to_bytes() == (ax - ay).to_bytes()
            assert bx.square().to_bytes() == ax.square().to_bytes()
            assert (-bx).to_bytes() == (-ax).to_bytes()
            assert bx.frobenius(1).to_bytes() == ax.frobenius(1).to_bytes()
            if not ax.is_zero():
                assert bx.inverse().to_bytes() == ax.inverse().to_bytes()
                assert (ax * ax.inverse()).is_one()
            if hasattr(A, "sqrt") and ax.is_square():
                assert bx.sqrt().to_bytes() == ax.sqrt().to_bytes()


@pytest.mark.parametrize("group", ["G1", "G2"])
def test_groups_agree(pair, group: str) -> None:
    portable, adx = pair
    A, B = getattr(portable, group), getattr(adx, group)
    rng = random.Random(f"{portable.NAME}:{group}")
    ga, gb = A.generator(), B.generator()
    scalars = [0, 1, 2, portable.R - 1, portable.R, rng.randrange(1 << 256)] + [
        rng.randrange(portable.R) for _ in range(6)
    ]
    points_a, points_b = [], []
    for k in scalars:
        pa, pb = ga * k, gb * k
        for compressed in (True, False):
            assert pb.to_bytes(compressed) == pa.to_bytes(compressed)
        assert (pb + gb).to_bytes() == (pa + ga).to_bytes()
        assert pb.double().to_bytes() == pa.double().to_bytes()
        assert (-pb).to_bytes() == (-pa).to_bytes()
        assert pb.in_subgroup() == pa.in_subgroup() and pb.is_on_curve()
        data = pa.to_bytes()
        assert B.from_bytes(data).to_bytes(False) == A.from_bytes(data).to_bytes(False)
        points_a.append(pa)
        points_b.append(pb)
    weights = [rng.randrange(portable.R) for _ in scalars]
    assert B.msm(points_b, weights).to_bytes() == A.msm(points_a, weights).to_bytes()


def test_pairing_agrees(pair) -> None:
    portable, adx = pair
    rng = random.Random(f"{portable.NAME}:pairing")
    for _ in range(2):
        k1, k2 = rng.randrange(1, portable.R), rng.randrange(1, portable.R)
        pa, qa = portable.G1.generator() * k1, portable.G2.generator() * k2
        pb, qb = adx.G1.generator() * k1, adx.G2.generator() * k2
        ea, eb = portable.pairing(pa, qa), adx.pairing(pb, qb)
        assert eb.to_bytes() == ea.to_bytes()
        assert not ea.is_one()
        assert adx.miller_loop([pb], [qb]).to_bytes() == portable.miller_loop([pa], [qa]).to_bytes()
        assert adx.multi_pairing([pb, -pb], [qb, qb]).is_one()
        assert adx.pairing_check([pb, -pb], [qb, qb])
        assert (eb**k1).to_bytes() == (ea**k1).to_bytes()


# --------------------------------------------------------------------------------------------
# Selection at import


def _target_in_subprocess(pkg: str, value: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PAIRFORGE_TARGET"}
    if value is not None:
        env["PAIRFORGE_TARGET"] = value
    code = f"import generated.{pkg} as C; print(C.TARGET, C._impl.__name__.rsplit('.', 1)[1])"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_default_target(curve: ModuleType) -> None:
    """Without PAIRFORGE_TARGET: x86_64-adx where the CPU has BMI2 and ADX and the module is built."""
    pkg = curve.__name__.rsplit(".", 1)[1]
    proc = _target_in_subprocess(pkg, None)
    assert proc.returncode == 0, proc.stderr
    built = importlib.util.find_spec(f"{curve.__name__}._core_adx") is not None
    if built and curve._portable._cpu_supports_adx():
        assert proc.stdout.split() == ["x86_64-adx", "_core_adx"]
    else:
        assert proc.stdout.split() == [curve._portable._TARGET, "_core"]
    assert curve.TARGET == curve._impl._TARGET


def test_forced_targets(curve: ModuleType) -> None:
    pkg = curve.__name__.rsplit(".", 1)[1]
    proc = _target_in_subprocess(pkg, "generic64")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["generic64", "_core"]

    proc = _target_in_subprocess(pkg, "x86_64-adx")
    built = importlib.util.find_spec(f"{curve.__name__}._core_adx") is not None
    if built and curve._portable._cpu_supports_adx():
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.split() == ["x86_64-adx", "_core_adx"]
    else:
        assert proc.returncode != 0 and "ImportError" in proc.stderr and "x86_64-adx" in proc.stderr

    proc = _target_in_subprocess(pkg, "arm64-neon")
    assert proc.returncode != 0
    assert "ImportError" in proc.stderr and "PAIRFORGE_TARGET='arm64-neon'" in proc.stderr


def test_cpu_detection_matches_cpuinfo(curve: ModuleType) -> None:
    """The module's CPUID check agrees with the kernel's view of the CPU (Linux)."""
    cpuinfo = Path("/proc/cpuinfo")
    if not ON_X86_64 or not cpuinfo.is_file():
        pytest.skip("needs Linux on x86-64")
    words = set(cpuinfo.read_text().split())
    assert curve._portable._cpu_supports_adx() == ("adx" in words and "bmi2" in words)


def test_pickles_name_the_package(curve: ModuleType) -> None:
    """A pickle names the package, not the build that wrote it, and loads under the other target."""
    import pickle

    pkg = curve.__name__.rsplit(".", 1)[1]
    g1, g2 = curve.G1.generator() * 3, curve.G2.generator() * 5
    values = [curve.Fp(5), curve.Fr(7), g1, g2, curve.pairing(g1, g2)]
    values += [getattr(curve, name).one() for name in _tower_classes(curve)]
    data = pickle.dumps(values)
    assert b"_core" not in data
    assert [v.to_bytes() for v in pickle.loads(data)] == [v.to_bytes() for v in values]
    code = (
        "import pickle, sys; import generated.{0} as C; "
        "vals = pickle.loads(bytes.fromhex(sys.argv[1])); "
        "assert all(type(v).__module__ == C._impl.__name__ for v in vals); "
        "print(C.TARGET, ' '.join(v.to_bytes().hex() for v in vals))"
    ).format(pkg)
    env = {k: v for k, v in os.environ.items() if k != "PAIRFORGE_TARGET"}
    env["PAIRFORGE_TARGET"] = "generic64"
    proc = subprocess.run(
        [sys.executable, "-c", code, data.hex()],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    target, *hexes = proc.stdout.split()
    assert target == "generic64"
    assert hexes == [v.to_bytes().hex() for v in values]
