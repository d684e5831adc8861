"""SWPoint, the short Weierstrass model of an Edwards curve file's [weierstrass] section
(compiled: templates/cython/edwards_core.pyx.j2 over templates/c/edwards_sw.h.j2): the maps
against generator/derive/edwards/model.py's, the group law against the pure-Python affine reference on
random, small-order and non-subgroup points, the arkworks encodings and their bad inputs, and ark-vrf's Bandersnatch SW keys and
outputs (pk = sk·G, gamma = sk·H in its 33-byte encoding)."""

from __future__ import annotations

import pickle
import random
from functools import lru_cache

import pytest
from conftest import REPO_ROOT, edwards_packages, load_curve_module
from vectors_util import read_vector_json

from generator.derive.edwards import EdwardsModel, build_edwards_model
from generator.derive.edwards.algebra import to_weierstrass
from generator.params import load_curve_file
from generator.reference.edwards import EdwardsCurve, WeierstrassCurve, sqrt_mod

WITH_SW = [pkg for pkg in edwards_packages() if (REPO_ROOT / "generated" / pkg / "_weierstrass.py").is_file()]


@lru_cache(maxsize=None)
def model(pkg: str) -> EdwardsModel:
    return build_edwards_model(load_curve_file(REPO_ROOT / "curves" / f"{pkg}.toml"))


@pytest.fixture(scope="module", params=WITH_SW or [None], ids=lambda p: p or "none")
def sw(request):
    if request.param is None:
        pytest.skip("no Edwards package with a [weierstrass] section is rendered")
    return sw_for(request.param)


def sw_for(pkg: str):
    m = model(pkg)
    E = load_curve_module(pkg)
    W = WeierstrassCurve(m.p, m.published_weierstrass.a, m.published_weierstrass.b)
    return m, E, W, (lambda P: to_weierstrass(m.curve, m.montgomery, m.published_weierstrass.c, P))


def edwards_points(m: EdwardsModel, E, rng: random.Random, count: int) -> list:
    """Random points of the whole curve (mostly outside the subgroup) and of the subgroup."""
    out = []
    for _ in range(count):
        x, y = EdwardsCurve(m.p, m.a, m.d).random_point(rng)
        out.append(E.Point.from_affine(x, y, check=False))
        out.append(E.Point.generator() * rng.randrange(1, m.r))
    return out


def exceptional_points(m: EdwardsModel, W: WeierstrassCurve) -> list[tuple[int, int]]:
    """The Weierstrass points whose Edwards images lie at infinity: the 2-torsion points other
    than the image of (0, -1) (Montgomery u² + A u + 1 = 0) and Montgomery u = -1."""
    p, (A, B), c = m.p, m.montgomery, m.published_weierstrass.c
    def to_w(u: int, v: int) -> tuple[int, int]:
        return c * c * (u * pow(B, -1, p) + A * pow(3 * B, -1, p)) % p, c ** 3 * v * pow(B, -1, p) % p

    out = []
    root = sqrt_mod((A * A - 4) % p, p)
    if root is not None:
        out += [to_w((-A + s) * pow(2, -1, p) % p, 0) for s in (root, p - root)]
    v = sqrt_mod((A - 2) * pow(B, -1, p) % p, p)
    if v is not None:
        out += [to_w(p - 1, s) for s in (v, p - v)]
    for P in out:
        assert W.on_curve(P)
    return out


def to_edwards_ref(m: EdwardsModel, P: tuple[int, int]) -> tuple[int, int]:
    """The inverse map, independently of the package: u = B_M (x - A_M/(3 B_M)), v = B_M y (c = 1),
    then (u/v, (u - 1)/(u + 1))."""
    p, (A, B) = m.p, m.montgomery
    u = B * (P[0] - A * pow(3 * B, -1, p)) % p
    v = B * P[1] % p
    return u * pow(v, -1, p) % p, (u - 1) * pow(u + 1, -1, p) % p


def test_generator_and_constants(sw) -> None:
    m, E, W, to_w = sw
    G = E.SWPoint.generator()
    # the image of a listed Edwards generator (Bandersnatch: the default; Jubjub: arkworks')
    images = {to_w(g): g for g in (m.generator, *m.generators.values())}
    assert G.to_affine() == m.published_weierstrass.generator and G.to_affine() in images
    assert G.to_edwards().to_affine() == images[G.to_affine()]
    assert (E._weierstrass.A, E._weierstrass.B) == (m.published_weierstrass.a, m.published_weierstrass.b)
    assert W.mul(G.to_affine(), m.r) is None and G.in_subgroup()
    assert G.to_edwards().to_weierstrass() == G and G.to_edwards().in_subgroup()
    assert (images[G.to_affine()] == m.generator) == (E.Point.generator().to_weierstrass() == G)
    curves = read_vector_json("edwards_companions", "curves.json")["curves"]
    if m.name == "Bandersnatch":
        assert G.to_edwards() == E.Point.generator()
        released = curves["bandersnatch"]["short_weierstrass_arkworks_released"]["value"]
        assert (int(released["A"]), int(released["B"])) == (W.A, W.B)
        assert G.to_affine() == (int(released["generator"]["x"]), int(released["generator"]["y"]))


def test_maps_and_group_law_on_random_points(sw) -> None:
    m, E, W, to_w = sw
    rng = random.Random(14)
    pts = edwards_points(m, E, rng, 6)
    for P, Q in zip(pts, pts[1:] + pts[:1], strict=True):
        sP, sQ = P.to_weierstrass(), Q.to_weierstrass()
        assert sP.to_affine() == to_w(P.to_affine()) and W.on_curve(sP.to_affine())
        assert sP.to_edwards() == P and sP.in_subgroup() == P.in_subgroup()
        assert (sP + sQ).to_affine() == W.add(sP.to_affine(), sQ.to_affine())
        assert sP + sQ == (P + Q).to_weierstrass() and sP - sQ == (P - Q).to_weierstrass()
        assert sP.double() == sP + sP and (sP - sP).is_identity() and (-sP).__neg__() == sP
        sO = E.SWPoint.from_affine(*sP.to_affine(), check=False)
        assert sO.is_on_curve() and (sO + sQ) == (sP + sQ) and sO.to_edwards() == P
        for k in (0, 1, 2, -3, m.r - 1, m.r, m.h * m.r, rng.randrange(m.h * m.r), rng.getrandbits(300)):
            want = W.mul(sP.to_affine(), k % m.r)      # Point * k reduces k mod r
            got = sP * k
            assert (None if got.is_identity() else got.to_affine()) == want
            assert got == sP.mul_vartime(k)
            # the same point not known to lie in the subgroup takes the other constant-time path
            assert sO * k == got and sO.mul_vartime(k) == got
            if sP.in_subgroup():
                assert got == sP * E.Fr(k % m.r)
        assert (sP * m.r).is_identity() and W.mul(sP.to_affine(), m.r) is None or not sP.in_subgroup()
        assert sP.clear_cofactor() == (P * m.h).to_weierstrass()


def test_exceptional_points(sw) -> None:
    m, E, W, to_w = sw
    inf = E.SWPoint.identity()
    assert inf.is_identity() and inf.to_edwards().is_identity() and E.Point.identity().to_weierstrass() == inf
    assert inf + inf == inf and inf * 5 == inf and inf.in_subgroup()
    with pytest.raises(ValueError):
        inf.to_affine()
    assert pickle.loads(pickle.dumps(inf)) == inf and hash(inf) == hash(E.SWPoint.generator() * 0)
    T = E.Point.from_affine(0, m.p - 1, check=False)            # (0, -1), of order 2
    sT = T.to_weierstrass()
    (A, B), c, p = m.montgomery, m.published_weierstrass.c, m.p     # Montgomery (0, 0) on the SW model
    assert sT.to_affine() == (c * c * A * pow(3 * B, -1, p) % p, 0) and W.on_curve(sT.to_affine())
    assert sT.to_edwards() == T and (sT + sT).is_identity() and not sT.in_subgroup()
    G = E.SWPoint.generator()
    for X in exceptional_points(m, W):
        sX = E.SWPoint.from_affine(*X, check=False)
        with pytest.raises(ValueError, match="infinity"):
            sX.to_edwards()
        assert not sX.in_subgroup()
        for k in (0, 1, 2, 3, 4, 5, m.r, m.r + 1, -1):
            got = sX * k
            assert (None if got.is_identity() else got.to_affine()) == W.mul(X, k % m.r) and got == sX.mul_vartime(k)
        assert (sX + G).to_affine() == W.add(X, G.to_affine())
        assert E.SWPoint.msm([sX, G], [3, 7]).to_affine() == W.add(W.mul(X, 3), W.mul(G.to_affine(), 7))
        # a sum whose Edwards image lies at infinity: (G + X) + (-G) = X
        assert E.SWPoint.msm([G + sX, -G], [1, 1]) == sX == (G + sX) - G


def test_msm(sw) -> None:
    m, E, W, to_w = sw
    rng = random.Random(15)
    pts = [P.to_weierstrass() for P in edwards_points(m, E, rng, 10)]
    pts += [E.SWPoint.identity(), E.Point.from_affine(0, m.p - 1, check=False).to_weierstrass()]
    ks = [rng.randrange(m.r) for _ in pts]
    want = None
    for P, k in zip(pts, ks, strict=True):
        want = W.add(want, None if P.is_identity() else W.mul(P.to_affine(), k))
    got = E.SWPoint.msm(pts, ks, threads=2)
    assert (None if got.is_identity() else got.to_affine()) == want
    assert E.SWPoint.msm([], []).is_identity()
    # points decoded without the subgroup check (not known to lie in it) and the exceptional
    # points, at sizes where sw_msm plans differently, against the Edwards MSM of the images and
    # the sum of single multiplications
    fresh = [E.SWPoint.from_affine(*q.to_affine(), check=False) for q in pts[:-2]]
    images = [q.to_edwards() for q in fresh]
    assert images == [E.Point.from_affine(*to_edwards_ref(m, q.to_affine()), check=False) for q in fresh]
    assert E.SWPoint.msm(fresh, ks[:-2]) == E.Point.msm(images, ks[:-2]).to_weierstrass()
    G = E.SWPoint.generator()
    for n in (64, 700):
        many = [G * rng.randrange(m.r) + fresh[i % len(fresh)] for i in range(n)]
        many[3], many[5] = E.SWPoint.identity(), pts[-1]             # the identity and (0, -1)'s image
        kk = [rng.randrange(-m.r, 2 * m.r) for _ in many]
        got = E.SWPoint.msm(many, kk, threads=2)
        assert got == E.Point.msm([q.to_edwards() for q in many], kk).to_weierstrass()
        acc = E.SWPoint.identity()
        for q, k in zip(many, kk, strict=True):
            acc = acc + q.mul_vartime(k)
        assert got == acc
    with pytest.raises(ValueError):
        E.SWPoint.msm(pts, ks[:-1])
    with pytest.raises(TypeError):
        E.SWPoint.msm([E.Point.generator()], [1])


def test_encodings_round_trip(sw) -> None:
    m, E, W, to_w = sw
    rng = random.Random(16)
    n = (m.p.bit_length() + 7) // 8
    c_len = (m.p.bit_length() + 2 + 7) // 8
    for P in [P.to_weierstrass() for P in edwards_points(m, E, rng, 4)] + [E.SWPoint.identity()]:
        c, u = P.to_bytes(), P.to_bytes(False, profile="arkworks")
        assert len(c) == c_len and len(u) == n + c_len
        if P.is_identity():
            assert c == bytes(c_len - 1) + b"\x40" and u == bytes(n + c_len - 1) + b"\x40"
        else:
            x, y = P.to_affine()
            assert int.from_bytes(c, "little") & ((1 << (8 * c_len - 2)) - 1) == x
            assert int.from_bytes(u[:n], "little") == x
            assert (c[-1] & 0x80 != 0) == (y > (m.p - 1) // 2) == (u[-1] & 0x80 != 0)
        for data in (c, u):
            assert E.SWPoint.from_bytes(data, check=False) == P
            if P.in_subgroup():
                assert E.SWPoint.from_bytes(data) == P
            else:
                with pytest.raises(ValueError, match="subgroup"):
                    E.SWPoint.from_bytes(data)
        assert pickle.loads(pickle.dumps(P)) == P
        assert hash(E.SWPoint.from_bytes(c, check=False)) == hash(P)


def test_bad_encodings(sw) -> None:
    m, E, W, to_w = sw
    p = m.p
    c_len = (p.bit_length() + 2 + 7) // 8
    shift = 8 * c_len - 2
    G = E.SWPoint.generator()
    good_c, good_u = G.to_bytes(), G.to_bytes(False)
    n = len(good_u) - c_len

    def enc(value: int) -> bytes:
        return value.to_bytes(c_len, "little")

    x, y = G.to_affine()
    bad = [
        (good_c[:-1], "expected"), (good_c + b"\x00", "expected"), (b"", "expected"),
        (enc(p), "below p"), (enc(x | (3 << shift)), "both"),
        (enc(1 | (1 << shift)), "infinity"), (good_u[:n] + enc(0 | (1 << shift)), "infinity"),
        (good_u[:n] + enc(((p - y) % p) | (good_c[-1] >> 6 << shift)), "sign"),
        (good_u[:n] + enc((y + 1) % p | (good_c[-1] >> 6 << shift)), "not on the curve"),
        ((p).to_bytes(n, "little") + good_u[n:], "below p"),
    ]
    if c_len > n:  # the field's bytes above x's (below the flags) must be zero
        bad += [(enc(x | (1 << (8 * n))), "below p"), (good_u[:n] + enc(y | (1 << (shift - 1))), "below p")]
    xs = next(v for v in range(2, 1000) if sqrt_mod((v ** 3 + W.A * v + W.B) % p, p) is None)
    bad.append((enc(xs), "off the curve"))
    two_torsion = [X for X in exceptional_points(m, W) if X[1] == 0]
    if two_torsion:
        bad.append((enc(two_torsion[0][0] | (2 << shift)), "y = 0"))
    for data, match in bad:
        with pytest.raises(ValueError, match=match):
            E.SWPoint.from_bytes(data, check=False)
    with pytest.raises(TypeError):
        E.SWPoint.from_bytes("00" * c_len)
    for data in (good_c, good_u):  # bytes-like inputs decode as bytes
        assert E.SWPoint.from_bytes(bytearray(data)) == G == E.SWPoint.from_bytes(memoryview(data))
    with pytest.raises(ValueError, match="profile"):
        G.to_bytes(profile="zcash")
    with pytest.raises(ValueError):
        E.SWPoint.from_affine(x, (y + 1) % p)
    with pytest.raises(TypeError):
        E.SWPoint(x, y)


def test_ark_vrf_sw_keys_and_outputs() -> None:
    """ark-vrf's Bandersnatch-SW-SHA512-TAI-v1 vectors: pk = sk·G and gamma = sk·h on the SW
    model in its 33-byte encoding (the VRF proof itself is not checked here)."""
    m, E, W, to_w = sw_for("bandersnatch")
    seen = 0
    for name in ("bandersnatch_sw_sha-512_tai_tiny.json", "bandersnatch_sw_sha-512_tai_thin.json"):
        for v in read_vector_json("edwards_companions", f"ark-vrf/{name}"):
            sk = int.from_bytes(bytes.fromhex(v["sk"]), "little") % m.r
            pk, h, gamma = (E.SWPoint.from_bytes(bytes.fromhex(v[k])) for k in ("pk", "h", "gamma"))
            assert E.SWPoint.generator() * sk == pk and (h * sk) == gamma == h.mul_vartime(sk)
            assert (pk.to_bytes().hex(), gamma.to_bytes().hex(), h.to_bytes().hex()) == (v["pk"], v["gamma"], v["h"])
            if "proof_r" in v:
                assert E.SWPoint.from_bytes(bytes.fromhex(v["proof_r"])).to_bytes().hex() == v["proof_r"]
            seen += 1
    assert seen == 14
