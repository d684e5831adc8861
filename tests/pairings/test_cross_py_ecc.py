"""Cross-checks against py_ecc (the Ethereum Foundation's pure-Python BN254 and BLS12-381).

Compared: canonical outputs only: affine coordinates of scalar multiples in G1 and G2,
BLS12-381 compressed points (py_ecc's ZCash compression), and the truth value of pairing checks.
Raw GT values are not compared: the two libraries' pairings differ by a fixed power.

py_ecc's FQ2 coefficients are [real, imaginary], the same order as our to_affine() pairs (c0, c1);
its points are Jacobian/projective triples, normalized to affine here. py_ecc's pairing takes
(Q in G2, P in G1) and costs about a second, so each curve gets only three pairing-check cases.
"""

from __future__ import annotations

import random

import pytest

py_ecc_bn = pytest.importorskip(
    "py_ecc.optimized_bn128", reason="py_ecc is a test dependency (pip install py_ecc)"
)
py_ecc_bls = pytest.importorskip("py_ecc.optimized_bls12_381")

LIBS = {"bn254": py_ecc_bn, "bls12_381": py_ecc_bls}
CURVES = list(LIBS)
SCALAR_SEED = 20240601
N_SCALARS = 4


def scalars(pkg: str, r: int) -> list[int]:
    rng = random.Random(f"{SCALAR_SEED}-{pkg}")
    # small, full-size and over-size (must be reduced mod r) scalars
    values = [rng.randrange(2, 2**64), rng.randrange(1, r), rng.randrange(1, r), r + rng.randrange(1, 2**32)]
    return values[:N_SCALARS]


def ecc_affine_g1(lib, pt) -> tuple[int, int] | None:
    if lib.is_inf(pt):
        return None
    x, y = lib.normalize(pt)
    return (int(x), int(y))


def ecc_affine_g2(lib, pt) -> tuple[tuple[int, int], tuple[int, int]] | None:
    if lib.is_inf(pt):
        return None
    x, y = lib.normalize(pt)
    return (tuple(int(c) for c in x.coeffs), tuple(int(c) for c in y.coeffs))


def to_ecc_g1(lib, P):
    aff = P.to_affine()
    if aff is None:
        return lib.Z1
    return (lib.FQ(aff[0]), lib.FQ(aff[1]), lib.FQ.one())


def to_ecc_g2(lib, Q):
    aff = Q.to_affine()
    if aff is None:
        return lib.Z2
    (x0, x1), (y0, y1) = aff
    return (lib.FQ2([x0, x1]), lib.FQ2([y0, y1]), lib.FQ2.one())


def ecc_pairing_check(lib, pairs) -> bool:
    """py_ecc: product of Miller loops, one final exponentiation, compared with 1."""
    f = lib.FQ12.one()
    for P, Q in pairs:
        f = f * lib.pairing(Q, P, final_exponentiate=False)
    return lib.final_exponentiate(f) == lib.FQ12.one()


@pytest.mark.parametrize("pkg", CURVES)
def test_constants_and_generators(pkg, curve_module):
    C = curve_module(pkg)
    lib = LIBS[pkg]
    assert C.P == lib.field_modulus, f"{pkg}: P differs from py_ecc's field_modulus"
    assert C.R == lib.curve_order, f"{pkg}: R differs from py_ecc's curve_order"
    g1, g2 = C.G1.generator().to_affine(), C.G2.generator().to_affine()
    assert g1 == ecc_affine_g1(lib, lib.G1), f"{pkg}: G1 generator {g1} differs from py_ecc"
    assert g2 == ecc_affine_g2(lib, lib.G2), f"{pkg}: G2 generator {g2} differs from py_ecc"


@pytest.mark.parametrize("pkg", CURVES)
@pytest.mark.parametrize("group", ["G1", "G2"])
def test_scalar_mul_affine(pkg, group, curve_module):
    C = curve_module(pkg)
    lib = LIBS[pkg]
    cls = getattr(C, group)
    affine = ecc_affine_g1 if group == "G1" else ecc_affine_g2
    base_ecc = lib.G1 if group == "G1" else lib.G2
    # a base point other than the generator, made by both sides
    base = cls.generator() * 7
    base_ecc = lib.multiply(base_ecc, 7)
    assert base.to_affine() == affine(lib, base_ecc), f"{pkg} {group}: 7·G differs from py_ecc"
    for k in scalars(pkg, C.R):
        ours = (base * k).to_affine()
        theirs = affine(lib, lib.multiply(base_ecc, k % C.R))
        assert ours == theirs, f"{pkg} {group}: (7·G) * {k:#x}: ours {ours}, py_ecc {theirs}"
        from_theirs = cls.from_affine(*theirs, check=True)
        assert from_theirs == base * k, f"{pkg} {group}: from_affine(py_ecc's point) != ours for k = {k:#x}"


@pytest.mark.parametrize("pkg", CURVES)
def test_add_and_negate_affine(pkg, curve_module):
    C = curve_module(pkg)
    lib = LIBS[pkg]
    a, b = scalars(pkg, C.R)[1:3]
    for group, affine, base_ecc in (("G1", ecc_affine_g1, lib.G1), ("G2", ecc_affine_g2, lib.G2)):
        cls = getattr(C, group)
        G = cls.generator()
        A, B = G * a, G * b
        A_ecc, B_ecc = lib.multiply(base_ecc, a), lib.multiply(base_ecc, b)
        total = affine(lib, lib.add(A_ecc, B_ecc))
        assert (A + B).to_affine() == total, f"{pkg} {group}: a·G + b·G differs"
        diff = affine(lib, lib.add(A_ecc, lib.neg(B_ecc)))
        assert (A - B).to_affine() == diff, f"{pkg} {group}: a·G - b·G differs"
        assert (-B).to_affine() == affine(lib, lib.neg(B_ecc)), f"{pkg} {group}: -(b·G) differs"
        assert (A + A).to_affine() == affine(lib, lib.double(A_ecc)), f"{pkg} {group}: doubling differs"
        assert (A - A).to_affine() is None and lib.is_inf(lib.add(A_ecc, lib.neg(A_ecc)))


def test_bls12_381_compression_matches_py_ecc(curve_module):
    C = curve_module("bls12_381")
    from py_ecc.bls.point_compression import compress_G1, compress_G2

    lib = py_ecc_bls
    for k in scalars("bls12_381", C.R)[:3]:
        P, Q = C.G1.generator() * k, C.G2.generator() * k
        z = compress_G1(lib.multiply(lib.G1, k % C.R))
        expected_g1 = int(z).to_bytes(48, "big")
        assert P.to_bytes(compressed=True) == expected_g1, f"G1 compressed differs for k = {k:#x}"
        z1, z2 = compress_G2(lib.multiply(lib.G2, k % C.R))
        expected = int(z1).to_bytes(48, "big") + int(z2).to_bytes(48, "big")
        assert Q.to_bytes(compressed=True) == expected, f"G2 compressed differs for k = {k:#x}"


@pytest.mark.parametrize("pkg", CURVES)
@pytest.mark.parametrize(
    "case",
    [
        "e(aP,Q)=e(P,aQ)",  # true
        "e(aP,Q)=e(P,bQ)",  # false
        "e(aP,bQ)=e(abP,Q)",  # true, with both points off the generators
    ],
)
def test_pairing_check_agrees(pkg, case, curve_module):
    C = curve_module(pkg)
    lib = LIBS[pkg]
    rng = random.Random(f"{SCALAR_SEED}-pairing-{pkg}")
    a, b = rng.randrange(2, C.R), rng.randrange(2, C.R)
    P, Q = C.G1.generator() * rng.randrange(2, C.R), C.G2.generator() * rng.randrange(2, C.R)
    if case == "e(aP,Q)=e(P,aQ)":
        pairs = [(P * a, Q), (-P, Q * a)]
    elif case == "e(aP,Q)=e(P,bQ)":
        pairs = [(P * a, Q), (-P, Q * b)]
    else:
        pairs = [(P * a, Q * b), (-(P * (a * b)), Q)]
    ours = C.pairing_check([p for p, _ in pairs], [q for _, q in pairs])
    theirs = ecc_pairing_check(lib, [(to_ecc_g1(lib, p), to_ecc_g2(lib, q)) for p, q in pairs])
    assert theirs is (case != "e(aP,Q)=e(P,bQ)"), f"py_ecc itself gives {theirs} for {case}"
    assert ours is theirs, f"{pkg} {case}: pairing_check gives {ours}, py_ecc {theirs}"
    # the same statement through pairing(): GT equality of the two sides
    lhs = C.pairing(*pairs[0])
    rhs = C.pairing(-pairs[1][0], pairs[1][1])
    assert (lhs == rhs) is theirs, (
        f"{pkg} {case}: pairing(...) == pairing(...) gives {lhs == rhs}, py_ecc {theirs}"
    )
