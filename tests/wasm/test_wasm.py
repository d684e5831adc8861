"""The wasm32 target (generator/wasm.py): the known-answer program built for wasm32-wasi gives,
under wasmtime, output byte-identical to the native build (the four curves, both limb widths on
one with --runslow, and a curve made with --params); the byte-level ABI of c/wasm_abi.c, through the Python
loader (generator/wasm_loader.py), agrees with the Python module on every function, passes the
EIP-196/197, EIP-2537 and Ethereum BLS signature vectors, and answers bad input of every kind
with an error code; the module imports nothing (no libc, no WASI) and stays under 400 KB (448 KB
with G2 over Fp4). The BLS24 curves (G2 over Fp4, tests/fq4_curves.py) run the known-answer
program with --runslow (tests/targets/test_cross.py runs it natively on every target).

Each curve's .wasm is built once per session into build/wasm-cache/, keyed by a hash of its C
sources and the build flags (generator.wasm.source_digest), so a second run builds nothing; a file
lock makes the other xdist workers wait for that build instead of compiling the same module again.
Needs the PyPI packages ziglang and wasmtime (the `wasm` extra); without them these tests skip
locally and fail under CI. The Node tests are in tests/wasm/test_wasm_node.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import cross_kat
import pytest
from bls_util import hex_bytes
from build_cache import cached_kat
from conftest import REPO_ROOT, generated_packages
from fq4_curves import fq4_packages
from vectors_util import read_vector_json, vector_files
from wasm_util import (
    ETH,
    byte_order,
    cached_wasm,
    curve_file,
    flag_bits,
    flag_index,
    point_outside_subgroup,
    random_compressed,
    require_wasm,
    run_wasi,
    with_flags_of,
)

from generator import wasm

MAX_WASM_BYTES = 400 * 1024
# G2 over Fp4 (BLS24, tests/fq4_curves.py): the Fp4 level under Fp12/Fp24, GT twice as wide and the
# 8-dimensional GLS tables; measured 427.9 KB (BLS24-317) and 435.7 KB (BLS24-315), not yet reduced
MAX_WASM_BYTES_FQ4 = 448 * 1024
# G2 over Fp8 (BLS48): the Fp8 level, GT four times BLS12's and 16-dimensional GLS tables; measured
# 888.3 KiB (BLS48-581), not yet reduced
MAX_WASM_BYTES_FQ8 = 896 * 1024
CUSTOM_CURVE = 'name = "BN254N"\nfamily = "BN"\nx = "-0x4080000000000001"\n'


# --------------------------------------------------------------------------------------------
# The known-answer program: wasm32 under wasmtime against the native build


def _kat_matches_native(pkg_dir: Path, model, out_dir: Path, limb_bits: int) -> None:
    vectors = cross_kat.make_vectors(model)
    requests = "".join(v.line() for v in vectors)
    native = cross_kat.run_kat(cached_kat(pkg_dir, "native"), "native", requests)  # shared with test_cross
    got = run_wasi(wasm.build_kat_wasm(pkg_dir, out_dir, limb_bits), requests)
    bad = cross_kat.compare(vectors, {"native": native, f"wasm32-{limb_bits}": got})
    assert not bad, f"{model.name}: {len(bad)} mismatches, e.g.\n" + "\n".join(map(str, bad[:5]))


# the curves over Fp4 are slow here (the reference vectors at k = 24; tests/targets/test_cross.py runs the
# same known answers on every native target, and the ABI tests below every operation in wasm32)
@pytest.mark.parametrize("pkg", [pytest.param(p, marks=[pytest.mark.slow] if p in fq4_packages() else [])
                                 for p in generated_packages()])
def test_kat_program_matches_native(pkg, tmp_path) -> None:
    require_wasm()
    from generator.pipeline import derive_model

    _kat_matches_native(REPO_ROOT / "generated" / pkg, derive_model(curve_file(pkg)), tmp_path, wasm.DEFAULT_LIMB_BITS)


@pytest.mark.slow
def test_kat_program_other_limb_width(tmp_path) -> None:
    """The limb width not chosen (32 bits) is correct too (bench/wasm.py compares the two);
    with --runslow (`nox -s wasm` passes it)."""
    require_wasm()
    from generator.pipeline import derive_model

    other = 96 - wasm.DEFAULT_LIMB_BITS
    _kat_matches_native(REPO_ROOT / "generated" / "bls12_381", derive_model(curve_file("bls12_381")), tmp_path, other)


@pytest.mark.slow  # builds a curve package and its wasm module of its own
def test_params_curve(tmp_path) -> None:
    """A curve from --params: `gen-curve --target wasm32` builds its module, and its known-answer
    program matches native."""
    require_wasm()
    from generator import cli
    from generator.pipeline import derive_model

    params = tmp_path / "bn254n.toml"
    params.write_text(CUSTOM_CURVE)
    assert cli.main(["--params", str(params), "--out", str(tmp_path / "out"), "--target", "wasm32"]) == 0
    pkg_dir = tmp_path / "out" / "bn254n"
    module = pkg_dir / "wasm" / "bn254n.wasm"
    assert module.is_file() and (pkg_dir / "wasm" / "bn254n.mjs").is_file()
    _kat_matches_native(pkg_dir, derive_model(params), tmp_path / "kat", wasm.DEFAULT_LIMB_BITS)


# --------------------------------------------------------------------------------------------
# The ABI through the Python loader


@pytest.fixture(scope="module", params=generated_packages())
def abi(request, curve_module):
    """(the Python module, the loaded .wasm) of one curve."""
    from generator.wasm_loader import WasmCurve

    C = curve_module(request.param)
    return C, WasmCurve(cached_wasm(REPO_ROOT / "generated" / request.param))


def test_module_is_standalone(abi) -> None:
    """No imports (no libc, no WASI); the memory and the ABI exported."""
    C, w = abi
    assert list(w.module.imports) == []
    assert {"memory", "__heap_base", "pf_pairing_vartime", "pf_pairing_check_vartime", "pf_g1_msm_vartime",
            "pf_g2_hash_to_curve_vartime", "pf_g1_mul"} <= {
        e.name for e in w.module.exports}


def test_wasm_size(abi) -> None:
    C, _ = abi
    pkg_dir = Path(C.__file__).parent
    size = cached_wasm(pkg_dir).stat().st_size
    twist_degree = len(C.G2.generator().to_affine()[0]) if isinstance(C.G2.generator().to_affine()[0], tuple) else 1
    limit = {8: MAX_WASM_BYTES_FQ8, 4: MAX_WASM_BYTES_FQ4}.get(twist_degree, MAX_WASM_BYTES)
    assert size <= limit, f"{C.NAME}: {size} bytes"


def _scalar(C, k: int) -> bytes:
    return k.to_bytes(len(C.Fr(0).to_bytes()), "big")


def test_operations_match_the_python_module(abi) -> None:
    C, w = abi
    rng = random.Random(f"wasm-{C.NAME}")
    groups = {1: C.G1, 2: C.G2}
    for g, G in groups.items():
        P, Q = G.generator() * rng.randrange(1, C.R), G.generator() * rng.randrange(1, C.R)
        ident = G.identity()
        for a, b in ((P, Q), (P, P), (P, -P), (ident, Q), (P, ident)):
            assert w.add(g, a.to_bytes(), b.to_bytes(False)) == (a + b).to_bytes()
            assert w.add(g, a.to_bytes(), b.to_bytes(), compressed=False) == (a + b).to_bytes(False)
        top = (1 << (8 * len(_scalar(C, 0)))) - 1
        for k in (0, 1, 2, C.R - 1, C.R, C.R + 1, top, rng.randrange(C.R)):
            assert w.mul(g, P.to_bytes(), _scalar(C, k)) == (P * k).to_bytes(), (g, k)
        assert w.decode(g, P.to_bytes()) == P.to_bytes(False)
        assert w.decode(g, ident.to_bytes()) == ident.to_bytes(False)
        for n in (0, 1, 3, 40):
            pts = [G.generator() * rng.randrange(1, C.R) for _ in range(n)]
            ks = [rng.randrange(1 << (8 * len(_scalar(C, 0)))) for _ in range(n)]
            expected = G.msm(pts, [k % C.R for k in ks]) if n else ident
            assert w.msm(g, [p.to_bytes() for p in pts], [_scalar(C, k) for k in ks]) == expected.to_bytes(), n
        dst = b"QUUX-V01-CS02-with-" + G.HASH_SUITE.encode()
        for msg in (b"", b"abc", bytes(200)):
            assert w.hash_to_curve(g, msg, dst) == G.hash_to_curve(msg, dst).to_bytes()
        long_dst = b"x" * 300  # RFC 9380 section 5.3.3: hashed first
        assert w.hash_to_curve(g, b"abc", long_dst) == G.hash_to_curve(b"abc", long_dst).to_bytes()
    P, Q = C.G1.generator() * rng.randrange(1, C.R), C.G2.generator() * rng.randrange(1, C.R)
    assert w.pairing(P.to_bytes(), Q.to_bytes(False)) == C.pairing(P, Q).to_bytes()
    assert w.pairing(C.G1.identity().to_bytes(), Q.to_bytes()) == C.GT.one().to_bytes()
    ps, qs = [P.to_bytes(), (-P).to_bytes()], [Q.to_bytes(), Q.to_bytes()]
    assert w.pairing_check(ps, qs) and w.pairing_check([], [])
    assert not w.pairing_check([P.to_bytes(), P.to_bytes()], qs)
    assert w.pairing_check([(P * 3).to_bytes(), P.to_bytes(), (-(P * 4)).to_bytes()], [Q.to_bytes()] * 3)


def _decode_errors(C, G) -> list[tuple[str, bytes, int]]:
    """(what, encoding, expected error code) for bad encodings of every kind."""
    from generator.wasm_loader import ERRORS

    codes = {v: k for k, v in ERRORS.items()}
    P = G.generator() * 12345
    comp, unc = P.to_bytes(), P.to_bytes(False)
    width = len(C.Fp(0).to_bytes())
    p_bytes = C.P.to_bytes(width, byte_order(C))
    at = flag_index(C, comp)
    cases = [
        ("empty", b"", codes["length"]), ("one byte short", comp[:-1], codes["length"]),
        ("one byte long", unc + b"\0", codes["length"]),
        ("x = p", with_flags_of(C, p_bytes + comp[width:], comp), codes["non-canonical coordinate"]),
    ]
    if C.DEFAULT_PROFILE in ("zcash", "gnark"):  # a compression flag (arkworks tells the forms by length)
        keep = 0xFF >> flag_bits(C)
        cases.append(("compressed without flags", bytes([comp[0] & keep]) + comp[1:], codes["flags"]))
    if C.DEFAULT_PROFILE == "zcash":
        cases += [
            ("uncompressed with the compression flag", bytes([unc[0] | 0x80]) + unc[1:], codes["flags"]),
            ("infinity with other bits", bytes([0xC0]) + bytes(len(comp) - 2) + b"\x01", codes["infinity with other bits"]),
            ("infinity with the sign flag", bytes([0xE0]) + bytes(len(comp) - 1), codes["flags"]),
        ]
    if C.DEFAULT_PROFILE == "arkworks":
        both = bytearray(comp)
        both[at] |= 0xC0  # 'y negative' and 'infinity'
        cases.append(("both flags", bytes(both), codes["flags"]))
    bad_y = bytearray(unc)
    # the least significant byte of y: the last (big-endian), or y's first (little-endian)
    bad_y[-1 if byte_order(C) == "big" else (len(comp) // width) * width] ^= 1  # y + 1 or y - 1: off the curve
    cases.append(("off the curve", bytes(bad_y), codes["not on the curve"]))
    rng = random.Random(f"bad-{C.NAME}-{G.__name__}")
    for _ in range(400):
        data, kind = random_compressed(C, G, rng)
        if kind == "none":
            cases.append(("x without a point", data, codes["not on the curve (x^3 + b is not a square)"]))
            break
    return cases


def test_bad_input_is_an_error_code(abi) -> None:
    """Wrong lengths, flags, non-canonical and off-curve coordinates, x without a point, points
    outside the subgroup, short scratch, empty DST: an error code each, never a trap."""
    from generator.wasm_loader import WasmAbiError

    C, w = abi
    for g, G in ((1, C.G1), (2, C.G2)):
        good = G.generator().to_bytes()
        for what, data, code in _decode_errors(C, G):
            for fn in (lambda d, g=g: w.decode(g, d), lambda d, g=g, good=good: w.add(g, d, good),
                       lambda d, g=g: w.mul(g, d, _scalar(C, 5)), lambda d, g=g: w.msm(g, [d], [_scalar(C, 5)])):
                with pytest.raises(WasmAbiError) as err:
                    fn(data)
                assert err.value.code == code, (g, what)
        with pytest.raises(WasmAbiError) as err:
            w.mul(g, good, b"\x01")
        assert err.value.code == 1
        with pytest.raises(WasmAbiError) as err:
            w.call(f"pf_g{g}_add_vartime", len(good) + 1, good, good)  # output length
        assert err.value.code == 1
        with pytest.raises(WasmAbiError) as err:
            w.hash_to_curve(g, b"abc", b"")
        assert err.value.code == 11
        with pytest.raises(WasmAbiError) as err:  # scratch one byte short
            n = 4
            need = w.exports[f"pf_g{g}_msm_scratch_size"](w.store, n)
            w.call(f"pf_g{g}_msm_vartime", len(good), good * n, _scalar(C, 1) * n, extra=(n,), scratch=need - 1)
        assert err.value.code == 10
        # points outside the subgroup: from the Python module's unchecked decoder where the
        # cofactor is not 1 (G1 of BN254 has cofactor 1)
        outside = point_outside_subgroup(C, G)
        if outside is not None:
            for fn in (lambda d, g=g: w.decode(g, d), lambda d, g=g, good=good: w.add(g, d, good)):
                with pytest.raises(WasmAbiError) as err:
                    fn(outside)
                assert err.value.code == 9
            ps = [outside, good] if g == 1 else [C.G1.generator().to_bytes()] * 2
            qs = [C.G2.generator().to_bytes()] * 2 if g == 1 else [outside, good]
            with pytest.raises(WasmAbiError) as err:
                w.pairing_check(ps, qs)
            assert err.value.code == 9
    with pytest.raises(WasmAbiError) as err:  # pairs of different counts
        w.call("pf_pairing_vartime", w.gt_size, C.G1.generator().to_bytes()[:-1], C.G2.generator().to_bytes())
    assert err.value.code == 1


# --------------------------------------------------------------------------------------------
# Independent vectors through the ABI


def test_bls_signature_vectors(curve_module) -> None:
    """Ethereum's verify vectors (MinPk, POP ciphersuite) through pf_bls_verify_minpk_vartime, and the
    MinSig variant on signatures made by the Python module; the RFC 9380 hash_to_G2 vectors."""
    from generator.wasm_loader import WasmAbiError, WasmCurve

    C = curve_module("bls12_381")
    from generated.bls12_381 import bls

    w = WasmCurve(cached_wasm(REPO_ROOT / "generated" / "bls12_381"))
    pop = bls.MinPk.Pop
    files = vector_files(ETH, "verify", "*.json") + vector_files(ETH, "unreleased_master_006855c", "verify/*.json")
    assert len(files) >= 29
    for path in files:
        doc = read_vector_json(ETH, path)
        inp = doc["input"]
        try:
            got = w.bls_verify("minpk", hex_bytes(inp["pubkey"]), hex_bytes(inp["message"]), hex_bytes(inp["signature"]), pop.DST)
        except WasmAbiError:
            got = False
        assert got is doc["output"], path
    for path in vector_files(ETH, "hash_to_G2", "*.json"):
        doc = read_vector_json(ETH, path)
        dst = b"QUUX-V01-CS02-with-" + C.G2.HASH_SUITE.encode()
        x0, x1 = (int(v, 16) for v in doc["output"]["x"].split(","))
        y0, y1 = (int(v, 16) for v in doc["output"]["y"].split(","))
        got = C.G2.from_bytes(w.hash_to_curve(2, doc["input"]["msg"].encode(), dst))
        assert got.to_affine() == ((x0, x1), (y0, y1)), path
    fav = vector_files(ETH, "fast_aggregate_verify", "*.json")
    fav += vector_files(ETH, "unreleased_master_006855c", "fast_aggregate_verify/*.json")
    assert len(fav) >= 12
    for path in fav:
        doc = read_vector_json(ETH, path)
        inp = doc["input"]
        keys = [hex_bytes(k) for k in inp["pubkeys"]]
        try:
            got = w.bls_fast_aggregate_verify("minpk", keys, hex_bytes(inp["message"]), hex_bytes(inp["signature"]), pop.DST)
        except WasmAbiError:
            got = False
        assert got is doc["output"], path
    ms = bls.MinSig.Pop
    sk = ms.key_gen(bytes(range(32)))
    pk, sig = ms.sk_to_pk(sk), ms.sign(sk, b"minsig")
    assert w.bls_verify("minsig", pk, b"minsig", sig, ms.DST)
    assert not w.bls_verify("minsig", pk, b"minsiG", sig, ms.DST)
    sk2 = ms.key_gen(bytes(range(1, 33)))
    agg = ms.aggregate([sig, ms.sign(sk2, b"minsig")])
    assert w.bls_fast_aggregate_verify("minsig", [pk, ms.sk_to_pk(sk2)], b"minsig", agg, ms.DST)
    assert not w.bls_fast_aggregate_verify("minsig", [pk, pk], b"minsig", agg, ms.DST)
    with pytest.raises(WasmAbiError) as err:  # the identity key (KeyValidate)
        w.bls_verify("minpk", C.G1.identity().to_bytes(), b"m", C.G2.identity().to_bytes(), pop.DST)
    assert err.value.code == 12


def _geth_cases(folder: str, name: str) -> list[dict]:
    return read_vector_json(folder, name)


def test_eip196_197_vectors(curve_module) -> None:
    """geth's ecAdd, ecMul and ecPairing vectors on BN254. The EIP-196/197 encodings are the
    default (gnark) profile's uncompressed encodings byte for byte (x || y big-endian, Fp2 as
    c1 || c0, (0, 0) the identity), so the inputs go to the ABI unchanged: its own decoding checks
    (canonical, on the curve, in the subgroup) decide."""
    from generator.wasm_loader import WasmAbiError, WasmCurve

    C = curve_module("bn254")
    w = WasmCurve(cached_wasm(REPO_ROOT / "generated" / "bn254"))
    folder = "eip196_197_bn254_precompiles_geth"
    g1, g2 = w.g1_uncompressed, w.g2_uncompressed
    count = 0
    for case in _geth_cases(folder, "bn256Add.json"):
        data = hex_bytes(case["Input"]).ljust(2 * g1, b"\0")[: 2 * g1]
        assert w.add(1, data[:g1], data[g1:], compressed=False).hex() == case["Expected"], case["Name"]
        count += 1
    for case in _geth_cases(folder, "bn256ScalarMul.json"):
        data = hex_bytes(case["Input"]).ljust(g1 + 32, b"\0")[: g1 + 32]
        assert w.mul(1, data[:g1], data[g1:], compressed=False).hex() == case["Expected"], case["Name"]
        count += 1
    for case in _geth_cases(folder, "bn256Pairing.json"):
        data = hex_bytes(case["Input"])
        n = len(data) // (g1 + g2)
        ps = [data[i * (g1 + g2) : i * (g1 + g2) + g1] for i in range(n)]
        qs = [data[i * (g1 + g2) + g1 : (i + 1) * (g1 + g2)] for i in range(n)]
        try:
            ok = w.pairing_check(ps, qs)
        except WasmAbiError:
            ok = None
        assert ok is not None and int(case["Expected"], 16) == int(ok), case["Name"]
        count += 1
    assert count == 49  # every case of the three files
    del C


EIP2537_FILES = (
    ("eip2537_bls12381_precompiles_geth", "blsG1Add.json", "add", 1),
    ("eip2537_bls12381_precompiles_geth", "blsG2Add.json", "add", 2),
    ("eip2537_bls12381_precompiles_geth", "blsG1Mul.json", "msm", 1),
    ("eip2537_bls12381_precompiles_geth", "blsG2Mul.json", "msm", 2),
    ("eip2537_bls12381_precompiles_geth", "blsG1MultiExp.json", "msm", 1),
    ("eip2537_bls12381_precompiles_geth", "blsG2MultiExp.json", "msm", 2),
    ("eip2537_bls12381_precompiles_geth", "blsPairing.json", "pairing", 0),
    ("eip2537_bls12381_precompiles_geth", "fail-blsG1Add.json", "add", 1),
    ("eip2537_bls12381_precompiles_geth", "fail-blsG2Add.json", "add", 2),
    ("eip2537_bls12381_precompiles_geth", "fail-blsG1MultiExp.json", "msm", 1),
    ("eip2537_bls12381_precompiles_geth", "fail-blsG2MultiExp.json", "msm", 2),
    ("eip2537_bls12381_precompiles_geth", "fail-blsPairing.json", "pairing", 0),
)


def _eip2537_to_zcash(data: bytes, group: int) -> bytes | None:
    """An EIP-2537 point (64-byte big-endian elements, Fp2 as c0 || c1, all zeros the identity)
    as a zcash uncompressed encoding (48-byte elements, c1 || c0, the 0x40 flag for the identity).
    Only the byte layout changes: None when a padding byte is set (EIP-2537's own rule, which
    zcash has no room for); every other check is the ABI's."""
    elems = [data[i : i + 64] for i in range(0, len(data), 64)]
    if any(e[:16] != bytes(16) for e in elems):
        return None
    if not any(data):
        return bytes([0x40]) + bytes(96 * group - 1)
    elems = [e[16:] for e in elems]
    if group == 2:
        elems = [elems[1], elems[0], elems[3], elems[2]]
    out = b"".join(elems)
    return None if out[0] & 0xE0 else out  # a top bit set: x >= 2^381 > p, non-canonical


def _zcash_to_eip2537(data: bytes, group: int) -> bytes:
    if data[0] & 0x40:
        return bytes(128 * group)
    elems = [data[i : i + 48] for i in range(0, len(data), 48)]
    if group == 2:
        elems = [elems[1], elems[0], elems[3], elems[2]]
    return b"".join(bytes(16) + e for e in elems)


def test_eip2537_vectors(curve_module) -> None:
    """geth's EIP-2537 vectors for ADD, MUL/MSM and PAIRING_CHECK, success and failure files,
    with the points moved from EIP-2537's layout to the zcash layout (_eip2537_to_zcash). The
    ABI checks the subgroup in ADD too, where EIP-2537 asks only for points on the curve: an ADD
    case whose points are on the curve but outside the subgroup must come back as error 9, and
    the Python module's eip2537 (which follows the EIP) must accept it."""
    from generator.wasm_loader import WasmAbiError, WasmCurve

    C = curve_module("bls12_381")
    from generated.bls12_381 import eip2537

    w = WasmCurve(cached_wasm(REPO_ROOT / "generated" / "bls12_381"))
    seen = {"ok": 0, "fail": 0, "outside": 0}
    for folder, name, op, g in EIP2537_FILES:
        for case in _geth_cases(folder, name):
            data = hex_bytes(case["Input"])
            expected = case.get("Expected")
            fails = name.startswith("fail-")
            try:
                got = _run_2537(w, op, g, data)
            except (WasmAbiError, ValueError) as exc:
                code = getattr(exc, "code", None)
                if not fails and op == "add" and code == 9:
                    # on the curve, outside the subgroup: fine for EIP-2537's ADD, refused here
                    assert eip2537.run(0x0B if g == 1 else 0x0D, data)[0].hex() == expected, case["Name"]
                    seen["outside"] += 1
                    continue
                assert fails, f"{name} {case['Name']}: {exc}"
                seen["fail"] += 1
                continue
            assert not fails, f"{name} {case['Name']}: accepted"
            assert got.hex() == expected, f"{name} {case['Name']}"
            seen["ok"] += 1
    assert seen["ok"] > 50 and seen["fail"] > 30, seen
    del C


def _run_2537(w, op: str, g: int, data: bytes) -> bytes:
    size = 128 * g
    if op == "add":
        if len(data) != 2 * size:
            raise ValueError("length")
        a, b = (_eip2537_to_zcash(data[i : i + size], g) for i in (0, size))
        if a is None or b is None:
            raise ValueError("padding")
        return _zcash_to_eip2537(w.add(g, a, b, compressed=False), g)
    if op == "msm":
        if len(data) == 0 or len(data) % (size + 32):
            raise ValueError("length")
        n = len(data) // (size + 32)
        pts = [_eip2537_to_zcash(data[i * (size + 32) : i * (size + 32) + size], g) for i in range(n)]
        if any(p is None for p in pts):
            raise ValueError("padding")
        ks = [data[i * (size + 32) + size : (i + 1) * (size + 32)] for i in range(n)]
        return _zcash_to_eip2537(w.msm(g, pts, ks, compressed=False), g)
    if len(data) == 0 or len(data) % 384:
        raise ValueError("length")
    n = len(data) // 384
    ps = [_eip2537_to_zcash(data[i * 384 : i * 384 + 128], 1) for i in range(n)]
    qs = [_eip2537_to_zcash(data[i * 384 + 128 : (i + 1) * 384], 2) for i in range(n)]
    if any(p is None for p in ps + qs):
        raise ValueError("padding")
    return bytes(31) + bytes([w.pairing_check(ps, qs)])
