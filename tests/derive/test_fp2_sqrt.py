"""The Fp2 square root of G2 decompression (fp2_sqrt_vartime), on both code targets, against the
reference field: on random squares and non-squares, on both halves of the case analysis of the
inversion-free form (delta = (a0 + sqrt(N(a)))/2 a square or not), and on elements with a1 = 0
(real and imaginary roots).  The square root is reached through `G2.from_bytes(check=False)`:
the compressed x gives a = x^3 + b, which decodes exactly when a is a square, to the root of the
encoded sign.  The curves with Fp2 (k = 12) are tested; the inversion-free form is the one of
p = 3 mod 4 (BN254, BLS12-381), the general one that of BLS12-377."""

from __future__ import annotations

import importlib
import platform
import random
from types import ModuleType

import pytest
from conftest import REPO_ROOT, skip_or_fail

from generator.pipeline import derive_model
from generator.reference.fields import ExtensionField, PrimeField

FP2_PACKAGES = ("bn254", "bls12_381", "bls12_377")
ON_X86_64 = platform.machine().lower() in ("x86_64", "amd64")


def _modules(curve: ModuleType) -> list[ModuleType]:
    """The portable module and, where the CPU and build have it, the x86_64-adx module."""
    modules = [curve._portable]
    if ON_X86_64 and curve._portable._cpu_supports_adx():
        try:
            modules.append(importlib.import_module(f"{curve.__name__}._core_adx"))
        except ImportError as exc:
            skip_or_fail(f"{curve.__name__}._core_adx is not built ({exc})")
    return modules


class Case:
    """One curve: its model, the reference Fp2 and the twist's b."""

    def __init__(self, pkg: str, curve: ModuleType) -> None:
        self.m = derive_model(REPO_ROOT / "curves" / f"{pkg.replace('_', '-')}.toml")
        self.p = self.m.p
        self.F = PrimeField(self.p)
        self.F2 = ExtensionField(self.F, 2, self.m.tower.beta, "Fp2")
        self.curve = curve
        b = curve.G2.generator().to_affine()
        x, y = self.F2([int(c) for c in b[0]]), self.F2([int(c) for c in b[1]])
        self.b = y * y - x * x * x

    def rhs(self, x):
        return x * x * x + self.b


_CASES: dict[str, Case] = {}


@pytest.fixture(scope="module", params=FP2_PACKAGES)
def case(request, curve_module) -> Case:
    pkg = request.param
    if pkg not in _CASES:
        _CASES[pkg] = Case(pkg, curve_module(pkg))
    return _CASES[pkg]


def _arkworks_x(case: Case, x, flag: int) -> bytes:
    """arkworks' compressed G2 bytes for x: x.c0 || x.c1 little-endian, the flag in the last byte's
    top bits (0x80: the other root; never the point at infinity here)."""
    n = case.m.fp.nbytes
    data = bytearray(int(x[0]).to_bytes(n, "little") + int(x[1]).to_bytes(n, "little"))
    data[-1] |= flag
    return bytes(data)


def _kind(case: Case, a) -> str:
    """Which branch of fp2_sqrt_vartime a square a takes."""
    if int(a[1]) == 0:
        return "a1 = 0, real root" if a[0].is_square() else "a1 = 0, imaginary root"
    n = a[0] * a[0] - case.F(case.m.tower.beta) * a[1] * a[1]
    delta = (a[0] + n.sqrt()) / case.F(2)
    return "delta a square" if delta.is_square() else "delta a non-square"


def _check_x(case: Case, x, seen: dict[str, int]) -> None:
    """Decode x with both flags on every module: a square x^3 + b gives its two reference roots,
    a non-square a ValueError."""
    a = case.rhs(x)
    if not a.is_square():
        seen["non-square"] = seen.get("non-square", 0) + 1
        for module in _modules(case.curve):
            for flag in (0, 0x80):
                with pytest.raises(ValueError, match="square|curve"):
                    module.G2.from_bytes(_arkworks_x(case, x, flag), check=False, profile="arkworks")
        return
    kind = _kind(case, a)
    seen[kind] = seen.get(kind, 0) + 1
    y = a.sqrt()
    assert y * y == a
    roots = {tuple(int(c) for c in y), tuple(int(c) for c in -y)}
    for module in _modules(case.curve):
        got = set()
        for flag in (0, 0x80):
            px, py = module.G2.from_bytes(_arkworks_x(case, x, flag), check=False, profile="arkworks").to_affine()
            assert tuple(int(c) for c in px) == tuple(int(c) for c in x)
            got.add(tuple(int(c) for c in py))
        assert got == roots, (module._TARGET, kind)


def _x_with_real_rhs(case: Case, rng: random.Random):
    """An x whose x^3 + b has c1 = 0 (the a1 = 0 branch): with x = x0 + x1 u, the c1 of x^3 is
    x1 (3 x0^2 + beta x1^2); pick x1 and solve 3 x0^2 = -b1/x1 - beta x1^2 when that is a square."""
    F, beta, b1 = case.F, case.F(case.m.tower.beta), case.b[1]
    while True:
        x1 = F(rng.randrange(1, case.p))
        t = (-b1 / x1 - beta * x1 * x1) / F(3)
        if t.is_square():
            x = case.F2([int(t.sqrt()), int(x1)])
            assert int(case.rhs(x)[1]) == 0
            return x


def test_g2_decompression_sqrt_against_reference(case: Case) -> None:
    """Random x: squares on both delta branches and non-squares; x with x^3 + b in Fp: real and
    imaginary roots.  Every branch is reached (counted)."""
    rng = random.Random(f"fp2_sqrt:{case.m.name}")
    seen: dict[str, int] = {}
    for _ in range(40):
        _check_x(case, case.F2([rng.randrange(case.p), rng.randrange(case.p)]), seen)
    for _ in range(12):
        _check_x(case, _x_with_real_rhs(case, rng), seen)
    for x in ([0, 0], [1, 0], [0, 1], [case.p - 1, case.p - 1]):
        _check_x(case, case.F2(x), seen)
    assert {"non-square", "delta a square", "delta a non-square", "a1 = 0, real root",
            "a1 = 0, imaginary root"} <= set(seen), seen
