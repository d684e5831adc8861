# SPDX-License-Identifier: MIT OR Apache-2.0
"""BLS12-381's WebAssembly module (the wasm32 target) from wasmtime and from Node, giving the same
bytes as the Python module; and an ark-vrf proof from Bandersnatch's module (built the same way,
`gen-curve bandersnatch --target wasm32`).

The module is a build product: `gen-curve bls12-381 --target wasm32` writes
generated/bls12_381/wasm/bls12_381.wasm (zig cc from the ziglang package, a few seconds). Where it
is missing, this script builds it into a temporary folder with the same command line
(generator.wasm.build_wasm, without rendering the package again).

Run from the repository root: python docs/examples/wasm.py
Needs: wasmtime and ziglang (the wasm extra), and node (Debian's nodejs) for the Node part; the
script exits with status 77 (skipped) when one is missing.
"""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from generated.bls12_381 import G1, G2, bls, eip2537
from generator.wasm_loader import WasmCurve  # the tests' and benchmarks' loader (over wasmtime)

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "generated" / "bls12_381"
SKIPPED = 77


def skip(why: str) -> None:
    print(f"skipped: {why}")
    sys.exit(SKIPPED)


try:
    import wasmtime  # noqa: F401  (WasmCurve imports it when it loads a module)
except ImportError:
    skip("wasmtime is not installed (pip install wasmtime)")

tmp = tempfile.TemporaryDirectory(prefix="wasm-recipe-")
wasm_file = PACKAGE / "wasm" / "bls12_381.wasm"
if not wasm_file.is_file():
    from generator import wasm

    try:
        wasm_file = wasm.build_wasm(PACKAGE, Path(tmp.name) / "bls12_381.wasm")
    except wasm.WasmBuildError as exc:
        skip(f"{PACKAGE.relative_to(ROOT)}/wasm/bls12_381.wasm is not built and cannot be: {exc}")
print(f"module: {wasm_file} ({wasm_file.stat().st_size // 1024} KB, no imports)")

# --- wasmtime, through generator.wasm_loader ------------------------------------------------------
w = WasmCurve(wasm_file)
assert list(w.module.imports) == []  # standalone: no libc, no WASI

pop = bls.MinPk.Pop
sk = bls.key_gen(b"wasm recipe secret key material!")
pk, msg = pop.sk_to_pk(sk), b"hello from Python"
sig = pop.sign(sk, msg)
sk_bytes = sk.to_bytes(w.scalar_size, "big")

assert w.bls_sign("minpk", sk_bytes, msg, pop.DST) == sig        # the same signature bytes
assert w.bls_verify("minpk", pk, msg, sig, pop.DST)
assert not w.bls_verify("minpk", pk, msg + b"!", sig, pop.DST)

P, Q = G1.generator() * 1234, G2.generator() * 5678
assert w.mul(1, P.to_bytes(), (5).to_bytes(w.scalar_size, "big")) == (P * 5).to_bytes()
assert w.pairing_check([P.to_bytes(), (-P).to_bytes()], [Q.to_bytes(), Q.to_bytes()])
# The EVM precompiles too: the same output as the Python module's eip2537.run
data = P.to_bytes(False, "eip2537") + (P * 2).to_bytes(False, "eip2537")
assert w.evm("eip2537", 0x0B, data) == eip2537.run("G1ADD", data)[0]

# A twisted Edwards package has a module too: Bandersnatch's ark-vrf proof from WebAssembly
from generated.bandersnatch import SERIALIZATION_PROFILES, ecvrf  # noqa: E402
from generator.wasm_loader import WasmEdwards  # noqa: E402

ed_file = ROOT / "generated" / "bandersnatch" / "wasm" / "bandersnatch.wasm"
if not ed_file.is_file():
    from generator import wasm

    ed_file = wasm.build_wasm(ed_file.parents[1], Path(tmp.name) / "bandersnatch.wasm")
e = WasmEdwards(ed_file, SERIALIZATION_PROFILES, list(ecvrf.SUITES))
vrf_sk = (123456789).to_bytes(32, "little")
proof = e.vrf_prove(vrf_sk, b"input", b"additional data")
assert proof == ecvrf.prove(vrf_sk, b"input", b"additional data")      # the same proof bytes
assert e.vrf_verify(ecvrf.public_key(vrf_sk), b"input", b"additional data", proof)

# --- Node, through the rendered ES module (docs/examples/wasm_node.mjs) ---------------------------
node = shutil.which("node")
if node is None:
    skip("node is not installed (apt-get install nodejs): the wasmtime part passed")
request = {"sk": sk_bytes.hex(), "pk": pk.hex(), "msg": msg.hex(), "sig": sig.hex(),
           "p": P.to_bytes().hex(), "p5": (P * 5).to_bytes().hex(), "q": Q.to_bytes().hex()}
run = subprocess.run([node, str(Path(__file__).with_name("wasm_node.mjs")), str(wasm_file)],
                     input=json.dumps(request), capture_output=True, text=True, timeout=120)
assert run.returncode == 0, run.stderr
answer = json.loads(run.stdout)
assert answer == {"sig": sig.hex(), "p5": (P * 5).to_bytes().hex()}
tmp.cleanup()

print("WebAssembly: wasmtime and Node give the Python module's signatures, points and checks: OK")
