"""The gnark serialization profile of the twisted Edwards modules: gnark-crypto's twistededwards
PointAffine.Bytes() (ecc/<curve>/twistededwards/point.go), written out below from its source as an
independent encoder (gnark-crypto ships no fixed vectors for these curves, see
tests/vectors/edwards_companions/README.md), against Point.to_bytes / from_bytes(profile="gnark")."""

from __future__ import annotations

import random

import pytest
from conftest import edwards_packages, load_curve_module

PACKAGES = edwards_packages()


def gnark_bytes(x: int, y: int, p: int, size: int) -> bytes:
    """point.go Bytes(): y's big-endian bytes, mCompressedNegative (0x80) or-ed into the first
    when X.LexicographicallyLargest() (x > (p - 1) / 2), then reversed to little-endian."""
    out = bytearray(y.to_bytes(size, "big"))
    if x > (p - 1) // 2:
        out[0] |= 0x80
    out.reverse()
    return bytes(out)


@pytest.fixture(scope="module", params=PACKAGES or [None])
def C(request):
    if request.param is None:
        pytest.skip("no twisted Edwards packages in generated/")
    return load_curve_module(request.param)


def test_gnark_encoding(C) -> None:
    assert "gnark" in C.SERIALIZATION_PROFILES
    rng = random.Random(7)
    size = (C.P.bit_length() + 7) // 8
    G = C.Point.generator()
    points = [C.Point.identity(), G, -G] + [G.mul_vartime(rng.randrange(1, C.R)) for _ in range(20)]
    for P in points:
        x, y = P.to_affine()
        data = P.to_bytes(profile="gnark")
        assert data == gnark_bytes(x, y, C.P, size)
        assert C.Point.from_bytes(data, profile="gnark") == P
        assert C.Point.batch_from_bytes([data], profile="gnark") == [P]


def test_gnark_bad_encodings(C) -> None:
    size = (C.P.bit_length() + 7) // 8
    G = C.Point.generator()
    data = G.to_bytes(profile="gnark")
    with pytest.raises(ValueError, match="uncompressed"):
        G.to_bytes(compressed=False, profile="gnark")
    for bad in (data[:-1], data + b"\x00"):
        with pytest.raises(ValueError):
            C.Point.from_bytes(bad, profile="gnark")
    with pytest.raises(ValueError):              # y = p: not canonical
        C.Point.from_bytes(C.P.to_bytes(size, "little"), profile="gnark")
    with pytest.raises(ValueError):              # the identity (x = 0) with the sign bit set
        C.Point.from_bytes(gnark_bytes(C.P - 1, 1, C.P, size), profile="gnark")
    with pytest.raises(TypeError):
        C.Point.from_bytes("not bytes", profile="gnark")
