"""The wasm32 host-call build (docs/host-calls.md): ``<pkg>_host_calls.wasm`` under wasmtime with
``generated.<pkg>.wasm_host`` as its host.

* The same ABI calls (pairing, pairing check, G1/G2 multiplication and MSM, BLS verification,
  Groth16 verification; the Edwards and Weierstrass multiplications and MSMs) give the same bytes
  in pure-wasm mode, in host-call mode and natively, for BLS12-381, BLS12-377, BW6-761,
  ed_on_bls12_377 and Bandersnatch.
* Bad points (off the curve, outside the subgroup, bad flags) and short inputs give the pure
  module's error codes; a guest that hands the host lengths past the end of its memory, counts
  that do not match, scalars above r or a zero final exponentiation input gets error codes, and
  the host (this process) goes on.
* The boundary bytes are arkworks': py_arkworks_bls12381's points and scalars (BLS12-381) and the
  ark-vrf vectors (Bandersnatch: gamma = [sk] H) pass through the host unchanged.

Each module is built once per content hash (tests/wasm_util.py's cache).
"""

from __future__ import annotations

import ctypes
import importlib
import random
from pathlib import Path

import pytest
from build_cache import file_lock
from conftest import REPO_ROOT
from groth16_util import WITNESSES, TestProver
from vectors_util import read_vector_json
from wasm_util import CACHE, cached_wasm, point_outside_subgroup, require_wasm

from generator import wasm

PAIRING = ("bls12_381", "bls12_377", "bw6_761")
EDWARDS = ("bandersnatch", "ed_on_bls12_377")
ARK_VRF = REPO_ROOT / "tests" / "vectors" / "edwards_companions" / "ark-vrf"


def cached_host_calls_wasm(pkg_dir: Path) -> Path:
    """The host-call module of a package, built once per content hash."""
    require_wasm()
    digest = wasm.source_digest(pkg_dir, wasm.DEFAULT_LIMB_BITS, host_calls=True)
    path = CACHE / f"{pkg_dir.name}-host-calls-{digest}.wasm"
    if not path.is_file():
        CACHE.mkdir(parents=True, exist_ok=True)
        with file_lock(path.with_name(path.name + ".lock")):
            if not path.is_file():
                wasm.build_wasm(pkg_dir, path, host_calls=True)
    return path


def _modes(pkg: str, curve_module):
    """(the compiled module, its host module, the pure module, the host-call module)"""
    from generator.wasm_loader import WasmCurve, WasmEdwards

    C = curve_module(pkg)
    host = importlib.import_module(f"generated.{pkg}.wasm_host")
    pkg_dir = REPO_ROOT / "generated" / pkg
    if pkg in EDWARDS:
        profiles = list(C.SERIALIZATION_PROFILES)
        return C, host, WasmEdwards(cached_wasm(pkg_dir), profiles), WasmEdwards(cached_host_calls_wasm(pkg_dir), profiles,
                                                                               host=host)
    return C, host, WasmCurve(cached_wasm(pkg_dir)), WasmCurve(cached_host_calls_wasm(pkg_dir), host=host)


def _code(fn) -> int | None:
    from generator.wasm_loader import WasmAbiError

    try:
        fn()
    except WasmAbiError as exc:
        return exc.code
    return None


@pytest.mark.parametrize("pkg", PAIRING)
def test_pairing_curve_three_modes(pkg: str, curve_module) -> None:
    """Pairing, pairing check, multiplication and MSM (0, 1 and 12 points) of G1 and G2, BLS and
    Groth16 verification where the curve carries them: the same bytes in the three modes."""
    C, host, pure, hc = _modes(pkg, curve_module)
    rng = random.Random(f"host-calls-{pkg}")
    nr = len(C.Fr(0).to_bytes())
    sc = lambda k: k.to_bytes(nr, "big")  # noqa: E731
    P, Q = C.G1.generator() * rng.randrange(1, C.R), C.G2.generator() * rng.randrange(1, C.R)
    native = C.pairing(P, Q).to_bytes()
    for w in (pure, hc):
        assert w.pairing(P.to_bytes(), Q.to_bytes()) == native
        assert w.pairing_check([P.to_bytes(), (-P).to_bytes()], [Q.to_bytes(), Q.to_bytes()])
        assert not w.pairing_check([P.to_bytes(), P.to_bytes()], [Q.to_bytes(), Q.to_bytes()])
    for group, G in ((1, C.G1), (2, C.G2)):
        k = rng.randrange(C.R)
        X = G.generator() * rng.randrange(1, C.R)
        for compressed in (True, False):
            want = (X * k).to_bytes(compressed)
            assert pure.mul(group, X.to_bytes(compressed), sc(k), compressed) == want
            assert hc.mul(group, X.to_bytes(compressed), sc(k), compressed) == want
        assert hc.mul(group, G.identity().to_bytes(), sc(k)) == G.identity().to_bytes()
        for n in (0, 1, 12):
            points = [G.generator() * rng.randrange(C.R) for _ in range(n)] + [G.identity()] * (n > 1)
            ks = [rng.randrange(C.R) for _ in points]
            want = G.msm(points, ks).to_bytes()
            for w in (pure, hc):
                assert w.msm(group, [p.to_bytes() for p in points], [sc(x) for x in ks]) == want
    if hasattr(C, "bls"):
        pop = C.bls.MinPk.Pop
        sk = rng.randrange(1, C.R)
        pk, sig = pop.sk_to_pk(sk), pop.sign(sk, b"msg")
        assert pop.verify(pk, b"msg", sig)
        for w in (pure, hc):
            assert w.bls_verify("minpk", pk, b"msg", sig, pop.DST)
            assert not w.bls_verify("minpk", pk, b"other", sig, pop.DST)
    if hasattr(C, "groth16"):
        prover = TestProver(C, 1)
        x, z = WITNESSES[0]
        proof, inputs = prover.prove(x, z)
        assert C.groth16.verify(prover.vk, proof, inputs)
        bad = [(inputs[0] + 1) % C.R, *inputs[1:]]
        for w in (pure, hc):
            assert w.groth16_verify(prover.vk.to_bytes(), proof.to_bytes(), [sc(v) for v in inputs])
            assert not w.groth16_verify(prover.vk.to_bytes(), proof.to_bytes(), [sc(v) for v in bad])


@pytest.mark.parametrize("pkg", EDWARDS)
def test_edwards_three_modes(pkg: str, curve_module) -> None:
    """Edwards multiplication (constant time and vartime) and MSM, and the same on the Weierstrass
    model where the package has it: the same bytes in the three modes."""
    C, host, pure, hc = _modes(pkg, curve_module)
    rng = random.Random(f"host-calls-{pkg}")
    sc = lambda k: k.to_bytes(len(C.Fr(0).to_bytes()), "little")  # noqa: E731
    P, k = C.Point.generator() * rng.randrange(1, C.R), rng.randrange(C.R)
    for w in (pure, hc):
        assert w.mul(P.to_bytes(), sc(k)) == (P * k).to_bytes()
        assert w.mul_vartime(P.to_bytes(), sc(k), compressed=False) == (P * k).to_bytes(False)
    for n in (0, 1, 12):
        points = [C.Point.generator() * rng.randrange(C.R) for _ in range(n)] + [C.Point.identity()] * (n > 1)
        ks = [rng.randrange(C.R) for _ in points]
        for w in (pure, hc):
            assert w.msm([p.to_bytes() for p in points], [sc(x) for x in ks]) == C.Point.msm(points, ks).to_bytes()
        if hasattr(C, "SWPoint"):
            sw = [p.to_weierstrass() for p in points]
            for w in (pure, hc):
                assert w.sw_msm([p.to_bytes() for p in sw], [sc(x) for x in ks]) == C.SWPoint.msm(sw, ks).to_bytes()
    if hasattr(C, "SWPoint"):
        S = P.to_weierstrass()
        for w in (pure, hc):
            assert w.sw_mul(S.to_bytes(), sc(k)) == (S * k).to_bytes()
            assert w.sw_mul_vartime(S.to_bytes(False), sc(k), compressed=False) == (S * k).to_bytes(False)
        assert hc.sw_mul(C.SWPoint.identity().to_bytes(), sc(k)) == C.SWPoint.identity().to_bytes()


@pytest.mark.parametrize("pkg", PAIRING)
def test_pairing_bad_points_same_codes(pkg: str, curve_module) -> None:
    """A point outside the subgroup (checked by the host in host-call mode), off the curve, or of a
    short length: the host-call module answers the pure module's error code."""
    C, host, pure, hc = _modes(pkg, curve_module)
    nr = len(C.Fr(0).to_bytes())
    for group, G in ((1, C.G1), (2, C.G2)):
        P = G.generator()
        bad = [P.to_bytes()[:-1], P.to_bytes(False)[:-1] + bytes([P.to_bytes(False)[-1] ^ 1])]
        outside = point_outside_subgroup(C, G)
        if outside is not None:
            bad.append(outside)
        for data in bad:
            want = _code(lambda d=data, g=group: pure.mul(g, d, bytes(nr)))
            assert want is not None
            assert _code(lambda d=data, g=group: hc.mul(g, d, bytes(nr))) == want
            assert _code(lambda d=data, g=group: hc.msm(g, [d], [bytes(nr)])) == want
        if outside is not None:
            other = C.G2.generator().to_bytes() if group == 1 else C.G1.generator().to_bytes()
            args = (outside, other) if group == 1 else (other, outside)
            assert _code(lambda a=args: hc.pairing(*a)) == _code(lambda a=args: pure.pairing(*a)) == 9


@pytest.mark.parametrize("pkg", EDWARDS)
def test_edwards_bad_points_same_codes(pkg: str, curve_module) -> None:
    C, host, pure, hc = _modes(pkg, curve_module)
    sc = bytes(len(C.Fr(0).to_bytes()))
    low = next(p for p in (C.Point.from_affine(0, -1 % C.P, check=False),) if not p.in_subgroup())
    bad = [C.Point.generator().to_bytes()[:-1], low.to_bytes()]
    for data in bad:
        want = _code(lambda d=data: pure.mul(d, sc))
        assert want is not None
        assert _code(lambda d=data: hc.mul(d, sc)) == want
        assert _code(lambda d=data: hc.mul_vartime(d, sc)) == want
        assert _code(lambda d=data: hc.msm([d], [sc])) == _code(lambda d=data: pure.msm([d], [sc]))


# --------------------------------------------------------------------------------------------
# A hostile guest: a module of its own that calls the host's imports with any arguments


def _caller(host, name: str, inputs: int, raw_calls: bool = True):
    """A tiny module importing ``name`` and exporting ``call`` (its arguments, as i32) and its
    memory of one page; returns (store, call, memory).  ``raw_calls``: the host's imports as
    wasmtime's unchecked host functions (False: through wasmtime-py's callbacks)."""
    import wasmtime

    params = 2 if inputs == 0 else 2 * inputs + 2
    sig = " ".join(["i32"] * params)
    locals_ = " ".join(f"(local.get {i})" for i in range(params))
    wat = (f'(module (import "pairforge_host" "{name}" (func $f (param {sig}) (result i32)))'
           f' (memory (export "memory") 1)'
           f' (func (export "call") (param {sig}) (result i32) (call $f {locals_})))')
    engine = wasmtime.Engine()
    linker = wasmtime.Linker(engine)
    host.define(linker, raw_calls=raw_calls)
    store = wasmtime.Store(engine)
    instance = linker.instantiate(store, wasmtime.Module(engine, wasmtime.wat2wasm(wat)))
    exports = instance.exports(store)
    return store, exports["call"], exports["memory"]


@pytest.mark.parametrize("raw_calls", (True, False), ids=("unchecked", "wasmtime-py"))
@pytest.mark.parametrize("pkg", ("bls12_381", "bandersnatch"))
def test_hostile_guest_gets_codes(pkg: str, raw_calls: bool, curve_module) -> None:
    """Lengths past the end of memory, Vec counts that do not match, scalars of r, points off the
    curve and a zero final exponentiation input: error codes, and this process goes on (no trap,
    no exception); through both ways of defining the imports."""
    C = curve_module(pkg)
    host = importlib.import_module(f"generated.{pkg}.wasm_host")
    msm = next(n for n in host.IMPORTS if n.endswith("_msm_g1") or n.endswith("_te_msm"))
    size = host.G1_LEN if hasattr(host, "G1_LEN") else host.TE_LEN
    profile = host.PROFILE if hasattr(host, "PROFILE") else "arkworks"
    G = C.G1 if hasattr(C, "G1") else C.Point
    store, call, memory = _caller(host, msm, 2, raw_calls)
    page = 65536
    point = G.generator().to_bytes(False, profile=profile)
    bases = (1).to_bytes(8, "little") + point
    scalars = (1).to_bytes(8, "little") + (5).to_bytes(host.FR_LEN, "little")
    memory.write(store, bases, 0)
    memory.write(store, scalars, 1024)
    assert call(store, 0, len(bases), 1024, len(scalars), 2048, size) == 0
    assert bytes(memory.read(store, 2048, 2048 + size)) == (G.generator() * 5).to_bytes(False, profile=profile)
    cases = {
        "past the end": (0, page + 1, 1024, len(scalars), 2048, size),
        "pointer past the end": (page - 4, 8, 1024, len(scalars), 2048, size),
        "output past the end": (0, len(bases), 1024, len(scalars), page - 4, size),
        "pointer wraps": (0xFFFFFFF0, 32, 1024, len(scalars), 2048, size),
        "short bases": (0, len(bases) - 1, 1024, len(scalars), 2048, size),
        "short output": (0, len(bases), 1024, len(scalars), 2048, size - 1),
        "counts differ": (0, len(bases), 1024, 8, 2048, size),
    }
    for why, args in cases.items():
        assert call(store, *args) == host.PF_ERR_LENGTH, why
    memory.write(store, (1).to_bytes(8, "little") + C.R.to_bytes(host.FR_LEN, "little"), 1024)
    assert call(store, 0, len(bases), 1024, len(scalars), 2048, size) == host.PF_ERR_NONCANON
    memory.write(store, scalars, 1024)
    off = bytearray(point)
    off[0 if profile == "zcash" else len(off) // 2 - 1] ^= 1   # a coordinate changed: off the curve
    memory.write(store, (1).to_bytes(8, "little") + bytes(off), 0)
    assert call(store, 0, len(bases), 1024, len(scalars), 2048, size) in (host.PF_ERR_OFF_CURVE, host.PF_ERR_NONCANON)
    huge = (1 << 40).to_bytes(8, "little")
    memory.write(store, huge, 0)
    assert call(store, 0, len(bases), 1024, len(scalars), 2048, size) == host.PF_ERR_LENGTH
    if hasattr(host, "final_exponentiation_in_place"):
        name = next(n for n in host.IMPORTS if n.endswith("_final_exponentiation"))
        store, call, memory = _caller(host, name, 0, raw_calls)
        assert call(store, 0, host.GT_LEN) == host.PF_ERR_RANGE            # zero
        assert call(store, 0, host.GT_LEN - 1) == host.PF_ERR_LENGTH
        assert call(store, page - 8, host.GT_LEN) == host.PF_ERR_LENGTH


class _PublicHost:
    """A host module's imports defined through wasmtime-py's own callbacks."""

    def __init__(self, host) -> None:
        self.host = host

    def define(self, linker) -> None:
        self.host.define(linker, raw_calls=False)


def _fill_with_junk(w) -> None:
    """Grow the module's memory and write 0xA5 over all of it above __heap_base."""
    w.memory.grow(w.store, 64)
    ctypes.memset(w._base() + w.heap_base, 0xA5, w.memory.data_len(w.store) - w.heap_base)


def test_fast_paths_are_taken_and_agree(curve_module) -> None:
    """The loader's unchecked calls and the host's unchecked imports are what this wasmtime runs
    (a wasmtime-py that dropped them would silently fall back to the slow path), and they give
    the bytes of the public paths (Func.__call__, Linker.define_func), with the memory above
    __heap_base full of junk before each call: the ABI never reads its scratch before writing it,
    so the loader leaves scratch as it finds it."""
    from generator.wasm_loader import WasmCurve, _raw_exports_available

    C = curve_module("bls12_381")
    host = importlib.import_module("generated.bls12_381.wasm_host")
    assert _raw_exports_available() and host._raw_api() is not None
    path = cached_host_calls_wasm(REPO_ROOT / "generated" / "bls12_381")
    pure_path = cached_wasm(REPO_ROOT / "generated" / "bls12_381")
    modes = [WasmCurve(path, host=host), WasmCurve(path, host=_PublicHost(host), raw_calls=False),
             WasmCurve(pure_path), WasmCurve(pure_path, raw_calls=False)]
    assert modes[0]._raw_calls and not modes[1]._raw_calls
    rng = random.Random("host-calls-fast-paths")
    P, Q = C.G1.generator() * rng.randrange(1, C.R), C.G2.generator() * rng.randrange(1, C.R)
    points = [C.G2.generator() * rng.randrange(C.R) for _ in range(9)]
    ks = [rng.randrange(C.R) for _ in points]
    k = rng.randrange(C.R)
    want = (C.pairing(P, Q).to_bytes(), (P * k).to_bytes(False), C.G2.msm(points, ks).to_bytes(),
            [True, False])
    for w in modes:
        got = []
        for call in (lambda w: w.pairing(P.to_bytes(), Q.to_bytes()),
                     lambda w: w.mul(1, P.to_bytes(False), k.to_bytes(32, "big"), False),
                     lambda w: w.msm(2, [p.to_bytes() for p in points], [x.to_bytes(32, "big") for x in ks]),
                     lambda w: [w.pairing_check([P.to_bytes(), (-P).to_bytes()], [Q.to_bytes(), Q.to_bytes()]),
                                w.pairing_check([P.to_bytes(), P.to_bytes()], [Q.to_bytes(), Q.to_bytes()])]):
            _fill_with_junk(w)
            got.append(call(w))
        assert tuple(got) == want


# --------------------------------------------------------------------------------------------
# The boundary bytes are arkworks'


def test_boundary_matches_py_arkworks_bls12_381(curve_module) -> None:
    """ark-bls12-381 writes its points in zcash's layout (py_arkworks_bls12381's to_compressed_bytes;
    its uncompressed form, the host's, is x || y of the same layout: to_xy_bytes_be for G1's
    generator) and its scalars as Fr little-endian (to_le_bytes).  arkworks' points and scalars go
    into the host's MSM and multiplication, and the answers are arkworks' own results."""
    ark = pytest.importorskip("py_arkworks_bls12381")
    C = curve_module("bls12_381")
    from generated.bls12_381 import wasm_host as host

    assert ark.G1Point().to_xy_bytes_be() == C.G1.generator().to_bytes(False, profile=host.PROFILE)
    rng = random.Random("host-calls-arkworks")
    for G, A, msm, mul in ((C.G1, ark.G1Point, host.msm_g1, host.mul_g1), (C.G2, ark.G2Point, host.msm_g2, host.mul_g2)):
        size = host.G1_LEN if G is C.G1 else host.G2_LEN
        ks = [rng.randrange(C.R) for _ in range(5)]
        points = [A() * ark.Scalar(rng.randrange(1, 1 << 64)) for _ in ks]
        scalars = [ark.Scalar.from_le_bytes(k.to_bytes(32, "little")) for k in ks]
        assert all(s.to_le_bytes() == k.to_bytes(32, "little") for s, k in zip(scalars, ks, strict=True))
        uncompressed = [G.from_bytes(p.to_compressed_bytes(), profile=host.PROFILE).to_bytes(False, profile=host.PROFILE)
                        for p in points]
        bases = len(points).to_bytes(8, "little") + b"".join(uncompressed)
        frs = len(ks).to_bytes(8, "little") + b"".join(s.to_le_bytes() for s in scalars)
        out = msm(bases, frs, size)
        want = A.multiexp_unchecked(points, scalars).to_compressed_bytes()
        assert G.from_bytes(out, profile=host.PROFILE).to_bytes(profile=host.PROFILE) == want
        words = (4).to_bytes(8, "little") + ks[0].to_bytes(32, "little")
        out = mul(uncompressed[1], words, size)
        assert G.from_bytes(out, profile=host.PROFILE).to_bytes(profile=host.PROFILE) == (points[1] * scalars[0]).to_compressed_bytes()


def test_boundary_matches_ark_vrf_bandersnatch(curve_module) -> None:
    """ark-vrf's Bandersnatch vectors: gamma = [sk] H, with H and gamma arkworks' compressed points;
    H goes to the host's EdwardsAffine multiplication uncompressed (x || y) with sk as a BigInteger,
    and the answer, compressed, is ark-vrf's gamma; pk = [sk] G likewise."""
    C = curve_module("bandersnatch")
    from generated.bandersnatch import wasm_host as host

    files = sorted(ARK_VRF.glob("bandersnatch_*_ell2_tiny.json"))
    assert files
    for path in files:
        for v in read_vector_json("edwards_companions", f"ark-vrf/{path.name}"):
            sk = int.from_bytes(bytes.fromhex(v["sk"]), "little") % C.R
            big = (4).to_bytes(8, "little") + sk.to_bytes(32, "little")
            h = C.Point.from_bytes(bytes.fromhex(v["h"]), profile="arkworks").to_bytes(False, profile="arkworks")
            out = host.te_mul(h, big, host.TE_LEN)
            assert C.Point.from_bytes(out, profile="arkworks").to_bytes(profile="arkworks").hex() == v["gamma"]
            g = C.Point.generator().to_bytes(False, profile="arkworks")
            out = host.te_mul(g, big, host.TE_LEN)
            assert C.Point.from_bytes(out, profile="arkworks").to_bytes(profile="arkworks").hex() == v["pk"]


# --------------------------------------------------------------------------------------------
# The compiled module's own host functions (no Python in the call) against the Python ones

# the imports a package's compiled module answers in C, by suffix
_COMPILED = ("_mul_g1", "_mul_g2", "_mul_projective_g1", "_mul_projective_g2", "_te_mul", "_te_mul_projective",
             "_sw_mul", "_sw_mul_projective")


def _coeffs(v) -> tuple[int, ...]:
    """A coordinate (an int, a field element, or a tuple of ints) as its Fp coefficients, c0 first."""
    if isinstance(v, tuple):
        return v
    return tuple(v.to_tuple()) if hasattr(v, "to_tuple") else (int(v),)


def _le(size: int, *coords) -> bytes:
    return b"".join(c.to_bytes(size, "little") for v in coords for c in _coeffs(v))


def _jacobian_inputs(C, size: int, G, F, outside, rng) -> list[bytes]:
    """Jacobian X || Y || Z in arkworks' bytes: Z = 1, Z = 0 (the identity, any X and Y), a random
    Z, the identity as (1, 1, 0); and bad ones: off the curve, outside the subgroup (``outside``:
    affine coordinates, or None), a coordinate not below p, each with Z = 1 and a random Z."""
    deg = len(_coeffs(G.generator().to_affine()[0]))
    one, zero = (1,) + (0,) * (deg - 1), (0,) * deg
    rand = lambda: tuple(rng.randrange(C.P) for _ in range(deg))  # noqa: E731

    def scaled(x, y) -> bytes:
        z = F(*rand())
        x, y = F(*_coeffs(x)), F(*_coeffs(y))
        return _le(size, x * z * z, y * z * z * z, z)

    x, y = (G.generator() * rng.randrange(1, C.R)).to_affine()
    off = (_coeffs(x)[0] ^ 1,) + _coeffs(x)[1:]
    out = [_le(size, x, y, one), _le(size, rand(), rand(), zero), scaled(x, y), _le(size, one, one, zero),
           _le(size, zero, zero, zero), _le(size, off, y, one), scaled(off, y), _le(size, zero, zero, one)]
    if outside is not None:
        out += [_le(size, *outside, one), scaled(*outside)]
    good = _le(size, x, y, one)
    return out + [good[:size - 1] + b"\xff" + good[size:], good[:-1] + b"\xff", C.P.to_bytes(size, "little") + good[size:]]


def _extended_inputs(C, size: int, outside, rng) -> list[bytes]:
    """Extended Edwards X || Y || T || Z: Z = 1, a random Z, the identity; bad: T != X Y / Z, Z = 0,
    off the curve, outside the subgroup, a coordinate not below p."""
    p = C.P
    x, y = (C.Point.generator() * rng.randrange(1, C.R)).to_affine()
    z = rng.randrange(1, p)
    out = [_le(size, x, y, x * y % p, 1), _le(size, x * z % p, y * z % p, x * y * z % p, z), _le(size, 0, 1, 0, 1),
           _le(size, 0, z, 0, z), _le(size, x, y, x * y % p + 1, 1), _le(size, x, y, x * y % p, 0), _le(size, 0, 0, 0, 0),
           _le(size, x ^ 1, y, (x ^ 1) * y % p, 1), _le(size, x ^ 1, y, (x ^ 1) * y % p * z % p, z)]
    ox, oy = outside
    out += [_le(size, ox, oy, ox * oy % p, 1), _le(size, ox * z % p, oy * z % p, ox * oy * z % p, z)]
    good = out[0]
    return out + [good[:-1] + b"\xff", p.to_bytes(size, "little") + good[size:]]


def _point_inputs(point: bytes, identity: bytes, outside: bytes | None) -> list[bytes]:
    """Uncompressed points: a random one, the identity; off the curve, outside the subgroup, the
    first bytes all ones (bad flags or a coordinate not below p), every value of the three top bits
    of the first and of the last byte (where the flags sit), on the point and on zeros."""
    half = len(point) // 2
    out = [point, identity, point[:half - 1] + bytes([point[half - 1] ^ 1]) + point[half:], b"\xff" * half + point[half:]]
    out += [outside] if outside is not None else []
    for flags in range(8):
        for base in (point, bytes(len(point))):
            out.append(base[:-1] + bytes([(base[-1] & 0x1F) | flags << 5]))
            out.append(bytes([(base[0] & 0x1F) | flags << 5]) + base[1:])
    return out


def _bigints(C, rng) -> list[bytes]:
    """ArkScale BigIntegers (a count, then u64 words): 0 (no word and one zero word), a random k
    < r, r, r + 1, 2^4096 - 1 (the most words), a random many-word one; malformed: 65 words, a
    count that does not match, shorter than a count."""
    def words(k: int, n: int) -> bytes:
        return n.to_bytes(8, "little") + k.to_bytes(8 * n, "little")

    nw = (C.R.bit_length() + 63) // 64
    return [words(0, 0), words(0, 1), words(rng.randrange(C.R), nw), words(C.R, nw), words(C.R + 1, nw),
            words((1 << 4096) - 1, 64), words(rng.getrandbits(1500), 24), words(1, 65),
            (3).to_bytes(8, "little") + bytes(16), bytes(7)]


def _inputs(C, host, name: str, rng) -> tuple[list[bytes], set]:
    """The points an import is tried on, and the codes among its answers (a tuple: one of them)."""
    size = host.FP_LEN if hasattr(host, "FP_LEN") else host.FQ_LEN
    codes = {host.PF_OK, host.PF_ERR_LENGTH, host.PF_ERR_OFF_CURVE}
    if "_te_" in name or "_sw_" in name:
        low = C.Point.from_affine(0, -1 % C.P, check=False)
        if name.endswith("_te_mul_projective"):
            return _extended_inputs(C, size, low.to_affine(), rng), codes | {host.PF_ERR_NONCANON, host.PF_ERR_SUBGROUP}
        if name.endswith("_sw_mul_projective"):
            return (_jacobian_inputs(C, size, C.SWPoint, C.Fq, low.to_weierstrass().to_affine(), rng),
                    codes | {host.PF_ERR_NONCANON, host.PF_ERR_SUBGROUP})
        if name.endswith("_te_mul"):
            return (_point_inputs((C.Point.generator() * 7).to_bytes(False, profile=host.PROFILE),
                                  C.Point.identity().to_bytes(False, profile=host.PROFILE),
                                  low.to_bytes(False, profile=host.PROFILE)), codes | {host.PF_ERR_NONCANON})
        return (_point_inputs((C.SWPoint.generator() * 7).to_bytes(False), C.SWPoint.identity().to_bytes(False),
                              low.to_weierstrass().to_bytes(False)), codes | {host.PF_ERR_SUBGROUP})
    g2 = name.endswith("g2")
    G = C.G2 if g2 else C.G1
    outside = point_outside_subgroup(C, G)
    if outside is not None:
        codes.add(host.PF_ERR_SUBGROUP)
        outside = G.from_bytes(outside, check=False)
    if "projective" in name:
        F = C.Fp2 if g2 and len(_coeffs(C.G2.generator().to_affine()[0])) == 2 else C.Fp
        return (_jacobian_inputs(C, size, G, F, outside and outside.to_affine(), rng), codes | {host.PF_ERR_NONCANON})
    point = (G.generator() * 7).to_bytes(False, profile=host.PROFILE)
    # a bad flag code reads as bad flags or as junk beside the infinity flag, by the profile
    return (_point_inputs(point, G.identity().to_bytes(False, profile=host.PROFILE),
                          outside and outside.to_bytes(False, profile=host.PROFILE)),
            codes | {(host.PF_ERR_FLAGS, host.PF_ERR_INF_JUNK)})


@pytest.mark.parametrize("pkg", PAIRING + EDWARDS)
def test_compiled_host_calls_match_python(pkg: str, curve_module) -> None:
    """The compiled module's C host functions are what define() registers for the scalar
    multiplications, and on random, edge and bad inputs, and on spans past the end of memory,
    wrapping, or with the output over the input, they answer the Python host functions' codes
    and bytes exactly."""
    C = curve_module(pkg)
    host = importlib.import_module(f"generated.{pkg}.wasm_host")
    compiled = host.compiled_imports()
    names = sorted(n for n in host.IMPORTS if n.endswith(_COMPILED))
    assert len(names) == (4 if pkg in PAIRING or hasattr(C, "SWPoint") else 2) and set(names) <= set(compiled)
    rng = random.Random(f"compiled-host-{pkg}")
    scalars = _bigints(C, rng)
    page = 65536
    for name in names:
        fast, slow = (_caller(host, name, 2, raw_calls) for raw_calls in (True, False))
        assert ctypes.cast(host._RAW_CALLBACKS[(name, 1)], ctypes.c_void_p).value == compiled[name]
        bases, expected = _inputs(C, host, name, rng)
        size = len(bases[0])
        calls = [(b, s, (0, len(b), 4096, len(s), 8192, size)) for b in bases for s in scalars[:7]]
        calls += [(bases[0], s, (0, size, 4096, len(s), 8192, size)) for s in scalars[7:]]
        calls += [(bases[0], scalars[2], args) for args in (
            (0, size, 4096, len(scalars[2]), 8192, size - 1), (0, size, 4096, len(scalars[2]), 8192, size + 1),
            (0, page + 1, 4096, 8, 8192, size), (page - 4, size, 4096, 8, 8192, size),
            (0, size, 4096, len(scalars[2]), page - 4, size), (0xFFFFFFF0, 32, 4096, 8, 8192, size),
            (0, size, 0xFFFFFFFF, 2, 8192, size), (0, size, 4096, len(scalars[2]), 0xFFFFFF00, 0x200),
            (0, size, 4096, len(scalars[2]), 0, size))]   # the output over the input
        codes = set()
        for base, scalar, args in calls:
            got = []
            for store, call, memory in (fast, slow):
                memory.write(store, bytes(range(256)) * (page // 256), 0)
                memory.write(store, base, 0)
                memory.write(store, scalar, 4096)
                got.append((call(store, *args), bytes(memory.read(store, 0, page))))
            assert got[0] == got[1], (name, base.hex(), scalar.hex(), args)
            codes.add(got[0][0])
        assert all(codes & set(c if isinstance(c, tuple) else (c,)) for c in expected), (name, codes)
