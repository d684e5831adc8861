"""What the tests of the BLS24 curves share, and those of BW6-633 (the BW6 curve over BLS24-315):
the derivations of each BLS24 curve, once per process (tests/derive/test_bls24_derive.py,
tests/pairings/test_bls24_hash.py), and the installed packages with their models and references,
one xdist group per curve and the protocol modules the curve files carry
(tests/pairings/test_bls24_package.py, tests/derive/test_bw6_633.py and
tests/protocols/test_bls24_protocols.py, which joins their groups: one worker derives each model)."""

from __future__ import annotations

import functools

import pytest
from conftest import REPO_ROOT, load_curve_module

from generator.derive.endomorphisms import derive_endomorphisms
from generator.derive.model import PairingCore, build_model, derive_core
from generator.params import CurveSpec, load_curve_file
from generator.reference import reference_for_model

CURVE_DIR = REPO_ROOT / "curves"
NAMES = ("bls24-315", "bls24-317")


@functools.lru_cache(maxsize=None)
def spec_of(name: str) -> CurveSpec:
    """The curve file curves/<name>.toml, read once per process."""
    return load_curve_file(CURVE_DIR / f"{name}.toml")


@functools.lru_cache(maxsize=None)
def core_of(name: str) -> PairingCore:
    """The pairing core derived from the curve file, once per process (about 10 s a curve)."""
    return derive_core(spec_of(name))


@functools.lru_cache(maxsize=None)
def endo_of(name: str):
    """The endomorphisms (GLV on G1, GLS on G2, subgroup tests, cofactor clearing) derived for the core."""
    core, spec = core_of(name), spec_of(name)
    fam = core.family
    return derive_endomorphisms(dict(family="BLS24", x=spec.x, p=fam.p, r=fam.r, t=fam.t, k=24, h1=fam.h1,
                                     h2=core.twist.cofactor, E1=core.E1, E2=core.twist.curve, g1=core.g1,
                                     g2=core.g2, psi=core.miller.psi), name)


# ------------------------------------------------------------------------------------------------
# The installed packages

CURVES = ("bls24-317", "bls24-315")
# The protocol modules the BLS24 curve files carry (tests/protocols/test_bls24_protocols.py runs
# them; the curve file is checked to list these).
PROTOCOLS = ("groth16", "kzg", "bls_signatures")
# BW6-633's: BW6-761's, without its EIP-3026 precompiles (defined for BW6-761).
BW6_633_PROTOCOLS = ("groth16", "kzg")
# One xdist group per curve, which tests/protocols/test_bls24_protocols.py joins: one worker builds
# each curve's model (``built``) for both files; BW6-633's group is "bw6-633" (its test file's).
CURVE_PARAMS = [pytest.param(name, marks=pytest.mark.xdist_group(name)) for name in CURVES]


@functools.lru_cache(maxsize=None)
def built(name: str):
    """(module, model, reference) of the curve file curves/<name>.toml: the installed package and
    its model, once per process."""
    model = build_model(load_curve_file(CURVE_DIR / f"{name}.toml"))
    module = load_curve_module(model.package)
    return module, model, reference_for_model(model)
