"""The protocol entry points of the WebAssembly ABI (c/wasm_abi.c), through the Python loader
(generator/wasm_loader.py): the EVM precompile sets (EIP-2537, EIP-196/197, EIP-2539, EIP-3026,
rendered where the curve carries them) on every vector file tests/protocols/test_evm_precompiles.py runs,
with the same output bytes and, for failure cases, the error code of the same rule; the ABI
against the Python module's precompiles on bad input of every kind; BLS sign and AggregateVerify
on the Ethereum vectors; Groth16 verify on proofs made by tests/groth16_util.py's test prover,
and tampered ones.  Bad input is an error code, never a trap.

Shares the .wasm cache of the wasm tests (tests/wasm_util.py: build/wasm-cache/); needs ziglang and wasmtime.
"""

from __future__ import annotations

import importlib
import random

import pytest
from bls_util import hex_bytes
from conftest import REPO_ROOT, STANDARD_CURVES
from evm_util import ERROR_RULES, FILES, load
from groth16_util import WITNESSES, TestProver
from vectors_util import read_vector_json, vector_files
from wasm_util import ETH, cached_wasm, point_outside_subgroup

# The rule a precompile breaks (generated.<pkg>.<eip>.PrecompileError.rule) -> the ABI's error code
RULE_CODES = {"length": 1, "padding": 4, "field": 5, "curve": 8, "subgroup": 9}

_loaded: dict[str, object] = {}


@pytest.fixture(scope="module", autouse=True)
def _release_modules():
    """Drop the loaded modules with this test module (not at interpreter exit, where wasmtime's
    finalizers find their library gone)."""
    yield
    _loaded.clear()


def _wasm(pkg: str):
    from generator.wasm_loader import WasmCurve

    if pkg not in _loaded:
        _loaded[pkg] = WasmCurve(cached_wasm(REPO_ROOT / "generated" / pkg))
    return _loaded[pkg]


def _abi_run(w, protocol: str, address: int, data: bytes) -> tuple[bytes | None, int]:
    """(output, 0) or (None, error code)."""
    from generator.wasm_loader import WasmAbiError

    try:
        return w.evm(protocol, address, data), 0
    except WasmAbiError as exc:
        return None, exc.code


def _py_run(mod, address: int, data: bytes) -> tuple[bytes | None, int]:
    try:
        return mod.run(address, data)[0], 0
    except mod.PrecompileError as exc:
        return None, RULE_CODES[exc.rule]


@pytest.mark.parametrize("folder,filename,pkg,module,precompile,gas_normative", FILES, ids=[f[1] for f in FILES])
def test_evm_vector_file(curve_module, folder, filename, pkg, module, precompile, gas_normative):
    """Every case of the file: Expected byte for byte, or the error code of ExpectedError's rule."""
    curve_module(pkg)
    mod = importlib.import_module(f"generated.{pkg}.{module}")
    address = mod._BY_NAME[precompile]
    w = _wasm(pkg)
    cases = load(folder, filename)
    assert cases, filename
    failures = []
    for i, case in enumerate(cases):
        label = case.get("Name", i)
        out, code = _abi_run(w, module, address, bytes.fromhex(case["Input"]))
        if "ExpectedError" in case:
            want = RULE_CODES[ERROR_RULES[case["ExpectedError"].lower()]]
            if code != want:
                failures.append(f"{label}: code {code}, expected {want}")
        elif code or out.hex() != case["Expected"].lower():
            failures.append(f"{label}: code {code}, output {'differs' if out is not None else 'none'}")
    assert not failures, f"{len(failures)} of {len(cases)} cases fail:\n" + "\n".join(failures[:20])


def _outside_subgroup(C, G):
    """A point on the curve outside the subgroup of order r; None where the first point found is
    in it (cofactor 1)."""
    data = point_outside_subgroup(C, G)
    return None if data is None else G.from_bytes(data, check=False)


def _evm_inputs(C, mod, rng: random.Random) -> list[tuple[int, bytes]]:
    """(address, input) for every precompile: valid input, the identity, a scalar above r, and bad
    input of every kind (short, long, padding, a coordinate >= p, off the curve, outside the
    subgroup, an empty pairing or MSM)."""
    groups = {1: C.G1, 2: C.G2}
    width, prof = mod.FIELD_BYTES, mod.PROFILE
    cases = []
    for address, pc in mod.PRECOMPILES.items():
        G = groups[pc.group]
        enc = lambda P: P.to_bytes(False, prof)  # noqa: E731
        pts = [G.generator() * rng.randrange(1, C.R) for _ in range(3)]
        sc = lambda k: k.to_bytes(mod.SCALAR_BYTES, "big")  # noqa: E731
        if pc.op == "add":
            good = [enc(pts[0]) + enc(pts[1]), enc(pts[0]) + enc(pts[0]), enc(pts[0]) + enc(-pts[0]),
                    enc(G.identity()) + enc(pts[1])]
        elif pc.op in ("mul", "msm"):
            top = (1 << (8 * mod.SCALAR_BYTES)) - 1
            good = [enc(pts[0]) + sc(rng.randrange(C.R)), enc(pts[0]) + sc(C.R + 5), enc(pts[0]) + sc(top),
                    enc(pts[1]) + sc(0)]
            if pc.op == "msm":
                good.append(b"".join(enc(P) + sc(rng.randrange(1 << (8 * mod.SCALAR_BYTES))) for P in pts))
        elif pc.op == "pairing":
            P, Q = C.G1.generator() * 7, C.G2.generator() * 11
            e1, e2 = P.to_bytes(False, prof), Q.to_bytes(False, prof)
            good = [e1 + e2, e1 + e2 + (-P).to_bytes(False, prof) + e2, enc(C.G1.identity()) + e2]
        else:
            good = [rng.randrange(C.P).to_bytes(width, "big") * (len(C.G2.generator().to_bytes(False, prof)) // (2 * width)
                                                                  if pc.group == 2 else 1)]
        cases += [(address, g) for g in good]
        base = good[0]
        bad = [base[:-1], base + b"\0", b""]
        points_end = len(base) - (mod.SCALAR_BYTES if pc.op in ("mul", "msm") else 0)
        for at in range(0, points_end, width):
            b = bytearray(base)
            b[at] |= 1  # padding (or, with no padding, the top byte: usually >= p or off the curve)
            bad.append(bytes(b))
            b = bytearray(base)
            b[at + width - 1] ^= 1  # off the curve (or a changed field element of the map)
            bad.append(bytes(b))
        p_enc = C.P.to_bytes(width, "big")
        bad.append(p_enc + base[width:])  # a coordinate equal to p
        if pc.op != "map":
            outside = _outside_subgroup(C, G)
            if outside is not None:
                o = enc(outside)
                bad.append(o + base[len(o):])
        cases += [(address, b) for b in bad]
    return cases


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_evm_against_the_python_module(curve_module, pkg) -> None:
    """The ABI and the Python module give the same output, or the same rule's error code, on
    valid and bad input of every kind for every precompile the curve carries."""
    from generator.protocols.evm import EVM_SPECS

    C = curve_module(pkg)
    w = _wasm(pkg)
    names = [p for p in C.PROTOCOLS if p in EVM_SPECS]
    assert len(names) == 1, (pkg, C.PROTOCOLS)
    rng = random.Random(f"evm-{pkg}")
    for name in names:
        mod = importlib.import_module(f"generated.{pkg}.{name}")
        checked = 0
        for address, data in _evm_inputs(C, mod, rng):
            assert _abi_run(w, name, address, data) == _py_run(mod, address, data), (name, hex(address), data.hex())
            checked += 1
        assert checked > 10 * len(mod.PRECOMPILES)
        # an address the EIP does not use, a wrong output length
        unused = max(mod.PRECOMPILES) + 1
        assert _abi_run(w, name, unused, b"")[1] == 14
        first = min(mod.PRECOMPILES)
        out_len = w.exports[f"pf_{name}_output_size"](w.store, first)
        a_out, a_in = w._place([out_len + 1, b""])
        assert w.exports[f"pf_{name}_run_vartime"](w.store, a_out, out_len + 1, first, a_in, 0, 0, 0) == 1


# --------------------------------------------------------------------------------------------
# BLS signatures


def test_bls_sign_and_aggregate_verify_vectors(curve_module) -> None:
    """Ethereum's sign and aggregate_verify vectors (MinPk, the proof-of-possession ciphersuite),
    and the MinSig variant against the Python module."""
    from generator.wasm_loader import WasmAbiError

    C = curve_module("bls12_381")
    from generated.bls12_381 import bls

    w = _wasm("bls12_381")
    pop = bls.MinPk.Pop
    sign = vector_files(ETH, "sign", "*.json")
    assert len(sign) == 10
    for path in sign:
        doc = read_vector_json(ETH, path)
        inp = doc["input"]
        try:
            got = "0x" + w.bls_sign("minpk", hex_bytes(inp["privkey"]), hex_bytes(inp["message"]), pop.DST).hex()
        except WasmAbiError as exc:
            assert exc.code == 13, path
            got = None
        assert got == doc["output"], path
    agg = vector_files(ETH, "aggregate_verify", "*.json")
    assert len(agg) == 5
    for path in agg:
        doc = read_vector_json(ETH, path)
        inp = doc["input"]
        try:
            got = w.bls_aggregate_verify("minpk", [hex_bytes(k) for k in inp["pubkeys"]], [hex_bytes(m) for m in inp["messages"]],
                                         hex_bytes(inp["signature"]), pop.DST)
        except WasmAbiError:
            got = False
        assert got is doc["output"], path
    ms = bls.MinSig.Pop
    sks = [ms.key_gen(bytes([i]) * 32) for i in range(1, 4)]
    msgs = [b"", b"abc", bytes(range(100))]
    for sk, m in zip(sks, msgs, strict=True):
        skb = sk.to_bytes(32, "big")
        assert w.bls_sign("minsig", skb, m, ms.DST) == ms.sign(sk, m)
        assert w.bls_sign("minsig", skb, m, ms.DST, compressed=False) == C.G1.from_bytes(ms.sign(sk, m)).to_bytes(False)
        assert w.bls_sign("minpk", skb, m, pop.DST) == pop.sign(sk, m)
    pks = [ms.sk_to_pk(sk) for sk in sks]
    sig = ms.aggregate([ms.sign(sk, m) for sk, m in zip(sks, msgs, strict=True)])
    assert w.bls_aggregate_verify("minsig", pks, msgs, sig, ms.DST)
    assert not w.bls_aggregate_verify("minsig", pks, msgs[::-1], sig, ms.DST)
    assert not w.bls_aggregate_verify("minsig", [], [], sig, ms.DST)
    for sk in (0, C.R, C.R + 1):
        with pytest.raises(WasmAbiError) as err:
            w.bls_sign("minpk", sk.to_bytes(32, "big"), b"m", pop.DST)
        assert err.value.code == 13
    with pytest.raises(WasmAbiError) as err:  # the identity key (KeyValidate)
        w.bls_aggregate_verify("minsig", [C.G2.identity().to_bytes()], [b"m"], sig, ms.DST)
    assert err.value.code == 12
    with pytest.raises(WasmAbiError) as err:  # lengths that do not add up to the messages
        name = "pf_bls_aggregate_verify_minsig_vartime"
        n, keys, text = 2, pks[0] + pks[1], b"abcd"
        scratch = w.exports["pf_bls_aggregate_verify_minsig_scratch_size"](w.store, n)
        lens = (1).to_bytes(4, "little") + (4).to_bytes(4, "little")
        a = w._place([1, keys, text, lens, sig, ms.DST, scratch])
        code = w.exports[name](w.store, a[0], a[1], len(keys), n, a[2], len(text), a[3], len(lens), a[4], len(sig),
                               a[5], len(ms.DST), a[6], scratch)
        raise WasmAbiError(name, code)
    assert err.value.code == 1


# --------------------------------------------------------------------------------------------
# Groth16


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_groth16_verify(curve_module, pkg) -> None:
    """Proofs of tests/groth16_util.py's test prover (made with the Python module) verify through
    pf_groth16_verify_vartime with the key and proof in both forms; tampered proofs, other public
    inputs and another key do not; bad input is an error code."""
    from generator.wasm_loader import WasmAbiError

    C = curve_module(pkg)
    w = _wasm(pkg)
    prover, other = TestProver(C, 1), TestProver(C, 2)
    sc = lambda x: x.to_bytes(len(C.Fr(0).to_bytes()), "big")  # noqa: E731
    for x, z in WITNESSES[:2]:
        proof, inputs = prover.prove(x, z)
        xs = [sc(v) for v in inputs]
        assert C.groth16.verify(prover.vk, proof, inputs)
        for vk_form in (True, False):
            for proof_form in (True, False):
                assert w.groth16_verify(prover.vk.to_bytes(vk_form), proof.to_bytes(proof_form), xs)
        vk = prover.vk.to_bytes()
        assert not w.groth16_verify(other.vk.to_bytes(), proof.to_bytes(), xs)
        assert not w.groth16_verify(vk, proof.to_bytes(), [sc((inputs[0] + 1) % C.R), xs[1]])
        tampered = [
            C.groth16.Proof(proof.a + C.G1.generator(), proof.b, proof.c),
            C.groth16.Proof(proof.a, proof.b + C.G2.generator(), proof.c),
            C.groth16.Proof(proof.a, proof.b, -proof.c),
        ]
        for t in tampered:
            assert not C.groth16.verify(prover.vk, t, inputs)
            assert not w.groth16_verify(vk, t.to_bytes(), xs)
    proof, inputs = prover.prove(*WITNESSES[0])
    xs = [sc(v) for v in inputs]
    vk, pb = prover.vk.to_bytes(), proof.to_bytes()
    bad = [
        ((vk, pb, xs[:1]), 1),                       # one public input short
        ((vk, pb, xs + [sc(0)]), 1),                 # one too many
        ((vk[:-1], pb, xs), 1),                      # a key one byte short
        ((vk, pb[:-1], xs), 1),                      # a proof one byte short
        ((vk, pb, [sc(C.R), xs[1]]), 13),            # a public input not below r
        ((vk, bytes(len(pb)), xs), 2),               # a proof of zeros: no compression flag in the zcash profile
    ]
    outside = _outside_subgroup(C, C.G1)
    if outside is not None:
        bad.append(((vk, outside.to_bytes() + pb[len(outside.to_bytes()):], xs), 9))
    for (k, p, ins), code in bad:
        if code == 2 and C.DEFAULT_PROFILE != "zcash":
            continue
        with pytest.raises(WasmAbiError) as err:
            w.groth16_verify(k, p, ins)
        assert err.value.code == code, (k[:4].hex(), len(p), code)
