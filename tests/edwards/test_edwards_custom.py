"""A twisted Edwards curve from its parameters alone, built by `gen-curve --params FILE --out DIR`
with no template edit: Baby Jubjub in arkworks' form (a = 1, d = 168696/168700, the base field
given by `p`, no generator: it is derived), which is also the form of ark-vrf's vectors, so the
module decodes them natively."""

from __future__ import annotations

import random

import pytest
from build_cache import cached_test_curve, import_test_curve
from vectors_util import read_vector_json

from generator.derive.edwards import build_edwards_model
from generator.params import parse_curve_text
from generator.reference.edwards import EdwardsCurve

PARAMS = """name = "BabyJubJub-Ark"
family = "TwistedEdwards"
p = "21888242871839275222246405745257275088548364400416034343698204186575808495617"
a = 1
d = "168696/168700"
r = "2736030358979909402780800718157159386076813972158567259200215660948447373041"
cofactor = 8
"""


@pytest.fixture(scope="module")
def custom():
    # built once per content of the curve file, the generator and the toolchain (all workers, all runs);
    # only the module the tests run, at -O1
    root = cached_test_curve("custom curve", PARAMS, "babyjubjub_ark.toml")
    params = root / "babyjubjub_ark.toml"
    module = import_test_curve(root / "out", "babyjubjub_ark")
    return module, build_edwards_model(parse_curve_text(PARAMS, str(params)))


@pytest.mark.slow  # derives and builds a curve of its own
def test_derived_generator_and_arithmetic(custom) -> None:
    C, m = custom
    E = EdwardsCurve(m.p, m.a, m.d)
    assert m.default_generator == "derived" and m.complete and not m.a_is_minus_one
    assert C.Point.generator().to_affine() == m.generator and C.Point.generator().in_subgroup()
    rng = random.Random(3)
    for _ in range(5):
        k1, k2 = rng.randrange(m.r), rng.randrange(m.r)
        P, Q = C.Point.generator() * k1, C.Point.generator().mul_vartime(k2)
        assert P.to_affine() == E.mul(m.generator, k1) and (P + Q).to_affine() == E.add(E.mul(m.generator, k1), Q.to_affine())
        assert C.Point.msm([P, Q], [k2, k1]) == C.Point.generator() * (2 * k1 * k2)
        U = E.random_point(rng)
        assert C.Point.from_affine(*U, check=False).clear_cofactor().to_affine() == E.mul(U, 8)


@pytest.mark.slow  # derives and builds a curve of its own
def test_ark_vrf_vectors_decode_natively(custom) -> None:
    C, m = custom
    gen = read_vector_json("edwards_companions", "curves.json")["curves"]["babyjubjub"]["forms"]["arkworks_a_1"]["generator"]
    G = C.Point.from_affine(*(int(c) for c in gen["value"].values()))
    cases = read_vector_json("edwards_companions", "ark-vrf/baby-jubjub_sha-512_tai_tiny.json")
    for case in cases:
        sk = int.from_bytes(bytes.fromhex(case["sk"]), "little")
        assert (G * sk).to_bytes(profile="arkworks") == bytes.fromhex(case["pk"])
        H = C.Point.from_bytes(bytes.fromhex(case["h"]), profile="arkworks")
        assert (H * sk).to_bytes() == bytes.fromhex(case["gamma"])
