"""The wasm32 host-call build against the pure wasm32 build and native code, in one run
(docs/host-calls.md): Substrate's benchmark of its elliptic-curve host functions, on pairforge.

    python -m bench host-calls [--quick] [--repeats N] [--curves bls12_381 bandersnatch ...] [--out FILE]
    python bench/host_calls.py ...

For BLS12-381, BLS12-377, BW6-761 (pairing; G1 and G2 MSM of 10 and 1000 points; G1 and G2
multiplication, P * k: the projective import; Groth16 verification on BLS12-381) and
ed_on_bls12_377 and Bandersnatch (Edwards MSM and multiplication, P * k through the projective
import and mul_vartime through the affine one; Bandersnatch also on its Weierstrass model), three
modes on this machine:

* pure: ``<pkg>.wasm`` under wasmtime (generator/wasm_loader.py), everything in the guest;
* host: ``<pkg>_host_calls.wasm`` under wasmtime with ``generated.<pkg>.wasm_host`` as its host;
* native: the Python API of the compiled module.

Every mode starts from the same bytes (uncompressed points, the ABI's scalars) and decodes them
with every check (the subgroup included: the guest in pure mode, the host in host mode, from_bytes
/ msm_bytes(check=True) natively), so each row is one whole call.  MSMs run on one thread everywhere.
The wasm rows include the cost of calling into the guest from Python (a few µs: the loader copies
the inputs into the guest's memory, calls the export through wasmtime's unchecked call and copies
the output back) and, in host mode, the Python host's (each import's callback, the copies out of
and into the guest's memory, the ArkScale framing).
Columns: boundary = host - native, what a call pays for crossing into the guest and back out to
the host (the entry from Python, the guest's decoding and re-encoding, the host calls), in µs;
entry = the same call refused by the guest at its first length check (its entry from Python
alone, which the pure module pays too); (host - entry) / native, the ratio a guest already
running in the runtime sees.  After the table, the cost of one host call beyond its native work,
through the host's unchecked imports (the default) and through wasmtime-py's callbacks, measured
on an import whose native work is trivial.  The four calls of a row take turns, ``--repeats N`` rounds of them (the fastest of each
counts).  Modules are
built once per content hash into build/wasm-cache.

Layer: tools (bench/), above the generator: imports the generator, the generated packages and
bench's own modules; the generator never imports it.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator import wasm  # noqa: E402
from generator.wasm_loader import WasmAbiError, WasmCurve, WasmEdwards  # noqa: E402

CURVES = ("bls12_381", "bls12_377", "bw6_761", "ed_on_bls12_377", "bandersnatch")
CACHE = ROOT / "build" / "wasm-cache"


def cached(pkg_dir: Path, host_calls: bool) -> Path:
    """The module of a package (pure or host-call), built once per content hash."""
    digest = wasm.source_digest(pkg_dir, wasm.DEFAULT_LIMB_BITS, host_calls=host_calls)
    path = CACHE / f"{pkg_dir.name}-{'host-calls-' if host_calls else ''}{digest}.wasm"
    if not path.is_file():
        CACHE.mkdir(parents=True, exist_ok=True)
        wasm.build_wasm(pkg_dir, path, host_calls=host_calls)
    return path


def seconds(fn: Callable[[], object], repeats: int, budget_s: float) -> float:
    """The fastest of ``repeats`` timed calls (after one warm-up), fewer when a call is slow."""
    t0 = time.perf_counter()
    fn()
    first = time.perf_counter() - t0
    best = first
    for _ in range(max(1, min(repeats, int(budget_s / max(first, 1e-6))))):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def interleaved(fns: list[Callable[[], object]], repeats: int, budget_s: float) -> list[float]:
    """The fastest call of each of ``fns`` over ``repeats`` rounds (fewer when a round is slow),
    each round calling every one in turn, so that a burst of load on a shared machine falls on
    every column of a row rather than on one.  Within a round a fast call runs a few times back to
    back (up to 5, about 20 ms), so that it is timed with warm caches as a call repeated in a loop
    would be, not right after another mode's work."""
    firsts = []
    for fn in fns:
        t0 = time.perf_counter()
        fn()
        firsts.append(time.perf_counter() - t0)
    best = list(firsts)
    inner = [min(5, max(1, int(0.02 / max(f, 1e-6)))) for f in firsts]
    for _ in range(max(1, min(repeats, int(budget_s / max(sum(f * n for f, n in zip(firsts, inner, strict=True)),
                                                           1e-6))))):
        for i, fn in enumerate(fns):
            for _ in range(inner[i]):
                t0 = time.perf_counter()
                fn()
                best[i] = min(best[i], time.perf_counter() - t0)
    return best


Row = tuple[str, Callable, Callable, Callable, Callable]


def refused(fn: Callable[[], object]) -> Callable[[], None]:
    """``fn``, a call of the host-call module whose inputs the guest refuses at its first length
    check: what entering the guest costs (wasmtime-py's call from Python, the loader's copies)."""

    def run() -> None:
        try:
            fn()
        except WasmAbiError:
            return
        raise AssertionError("the guest accepted the call meant to be refused")

    return run


def pairing_rows(pkg: str, quick: bool) -> list[Row]:
    """(operation, pure, host, native, entry) of a pairing curve; entry: the host call refused at once."""
    C = importlib.import_module(f"generated.{pkg}")
    host = importlib.import_module(f"generated.{pkg}.wasm_host")
    pkg_dir = ROOT / "generated" / pkg
    pure, hc = WasmCurve(cached(pkg_dir, False)), WasmCurve(cached(pkg_dir, True), host=host)
    rng = random.Random(f"bench-host-calls-{pkg}")
    nr = len(C.Fr(0).to_bytes())
    P, Q = C.G1.generator() * rng.randrange(1, C.R), C.G2.generator() * rng.randrange(1, C.R)
    p, q = P.to_bytes(False), Q.to_bytes(False)
    rows = [("pairing", lambda: pure.pairing(p, q), lambda: hc.pairing(p, q),
             lambda: C.pairing(C.G1.from_bytes(p), C.G2.from_bytes(q)), refused(lambda: hc.pairing(p[:-1], q)))]
    for group, G in ((1, C.G1), (2, C.G2)):
        name = f"G{group}"
        X = (G.generator() * rng.randrange(1, C.R)).to_bytes(False)
        k = rng.randrange(C.R)
        kb = k.to_bytes(nr, "big")
        rows.append((f"{name} mul (projective)", lambda g=group, x=X, kb=kb: pure.mul(g, x, kb, False),
                     lambda g=group, x=X, kb=kb: hc.mul(g, x, kb, False),
                     lambda G=G, x=X, k=k: (G.from_bytes(x) * k).to_bytes(False),
                     refused(lambda g=group, x=X, kb=kb: hc.mul(g, x, kb[:-1], False))))
        base = G.generator() * rng.randrange(1, C.R)
        for n in (10, 1000):
            points = [base * (i + 1) for i in range(n)]
            pts = [pt.to_bytes(False) for pt in points]
            ks = [rng.randrange(C.R) for _ in range(n)]
            kbs = [x.to_bytes(nr, "big") for x in ks]
            packed, packed_k = b"".join(pts), b"".join(x.to_bytes(nr, "little") for x in ks)
            rows.append((f"{name} MSM {n}", lambda g=group, a=pts, b=kbs: pure.msm(g, a, b, False),
                         lambda g=group, a=pts, b=kbs: hc.msm(g, a, b, False),
                         lambda G=G, a=packed, b=packed_k: G.msm_bytes(a, b, threads=1, check=True).to_bytes(False),
                         refused(lambda g=group, a=pts, b=kbs: hc.msm(g, a, b[:-1], False))))
    if hasattr(C, "groth16"):
        sys.path[:0] = [str(ROOT / "tests")]  # the test prover (tests/groth16_util.py)
        from groth16_util import WITNESSES, TestProver

        prover = TestProver(C, 1)
        proof, inputs = prover.prove(*WITNESSES[0])
        vk, pb, xs = prover.vk.to_bytes(False), proof.to_bytes(False), [v.to_bytes(nr, "big") for v in inputs]
        g16 = C.groth16
        rows.append(("Groth16 verify", lambda: pure.groth16_verify(vk, pb, xs), lambda: hc.groth16_verify(vk, pb, xs),
                     lambda: g16.verify(g16.VerifyingKey.from_bytes(vk), g16.Proof.from_bytes(pb), inputs),
                     refused(lambda: hc.groth16_verify(vk, pb, xs[:-1]))))
    return rows


def edwards_rows(pkg: str, quick: bool) -> list[Row]:
    """(operation, pure, host, native, entry) of a twisted Edwards package."""
    C = importlib.import_module(f"generated.{pkg}")
    host = importlib.import_module(f"generated.{pkg}.wasm_host")
    pkg_dir = ROOT / "generated" / pkg
    profiles = list(C.SERIALIZATION_PROFILES)
    pure = WasmEdwards(cached(pkg_dir, False), profiles)
    hc = WasmEdwards(cached(pkg_dir, True), profiles, host=host)
    rng = random.Random(f"bench-host-calls-{pkg}")
    nr = len(C.Fr(0).to_bytes())
    X = (C.Point.generator() * rng.randrange(1, C.R)).to_bytes(False)
    k = rng.randrange(C.R)
    kb = k.to_bytes(nr, "little")
    rows = [("TE mul (projective)", lambda: pure.mul(X, kb, False), lambda: hc.mul(X, kb, False),
             lambda: (C.Point.from_bytes(X) * k).to_bytes(False), refused(lambda: hc.mul(X, kb[:-1], False))),
            ("TE mul_vartime (affine)", lambda: pure.mul_vartime(X, kb, False), lambda: hc.mul_vartime(X, kb, False),
             lambda: C.Point.from_bytes(X).mul_vartime(k).to_bytes(False),
             refused(lambda: hc.mul_vartime(X, kb[:-1], False)))]
    base = C.Point.generator() * rng.randrange(1, C.R)
    for n in (10, 1000):
        points = [base * (i + 1) for i in range(n)]
        ks = [rng.randrange(C.R) for _ in range(n)]
        kbs = [x.to_bytes(nr, "little") for x in ks]
        pts = [pt.to_bytes(False) for pt in points]
        packed, packed_k = b"".join(pts), b"".join(kbs)
        rows.append((f"TE MSM {n}", lambda a=pts, b=kbs: pure.msm(a, b, False), lambda a=pts, b=kbs: hc.msm(a, b, False),
                     lambda a=packed, b=packed_k: C.Point.msm_bytes(a, b, threads=1, check=True, compressed=False),
                     refused(lambda a=pts, b=kbs: hc.msm(a, b[:-1], False))))
        if hasattr(C, "SWPoint"):
            sw = [pt.to_weierstrass().to_bytes(False) for pt in points]
            rows.append((f"SW MSM {n}", lambda a=sw, b=kbs: pure.sw_msm(a, b, False), lambda a=sw, b=kbs: hc.sw_msm(a, b, False),
                         lambda a=sw, b=ks: C.SWPoint.msm([C.SWPoint.from_bytes(x) for x in a], b, threads=1),
                         refused(lambda a=sw, b=kbs: hc.sw_msm(a, b[:-1], False))))
    if hasattr(C, "SWPoint"):
        S = C.Point.from_bytes(X).to_weierstrass().to_bytes(False)
        rows.append(("SW mul (projective)", lambda: pure.sw_mul(S, kb, False), lambda: hc.sw_mul(S, kb, False),
                     lambda: (C.SWPoint.from_bytes(S) * k).to_bytes(False), refused(lambda: hc.sw_mul(S, kb[:-1], False))))
        rows.append(("SW mul_vartime (affine)", lambda: pure.sw_mul_vartime(S, kb, False),
                     lambda: hc.sw_mul_vartime(S, kb, False), lambda: C.SWPoint.from_bytes(S).mul_vartime(k).to_bytes(False),
                     refused(lambda: hc.sw_mul_vartime(S, kb[:-1], False))))
    return rows


def per_call_boundary(pkg: str, runs: int = 2000) -> tuple[float, float, float]:
    """What one host call costs beyond its native work, in µs: (through the host's unchecked
    imports, the default; through wasmtime-py's callbacks, ``define(raw_calls=False)``; the native
    work), from a guest of two functions with the same i32 arguments, one calling an import whose
    native work is trivial (an MSM of no points), one returning at once.  Both are entered through
    the loader's unchecked call, so that the difference is the host call alone."""
    import wasmtime

    from generator.wasm_loader import _RawExport

    host = importlib.import_module(f"generated.{pkg}.wasm_host")
    name = next(n for n in host.IMPORTS if n.endswith(("_msm_g1", "_te_msm")))
    size = getattr(host, "G1_LEN", None) or host.TE_LEN
    sig, args = " ".join(["i32"] * 6), " ".join(f"(local.get {i})" for i in range(6))
    wat = (f'(module (import "{host.MODULE}" "{name}" (func $f (param {sig}) (result i32)))'
           f' (memory (export "memory") 1)'
           f' (func (export "call") (param {sig}) (result i32) (call $f {args}))'
           f' (func (export "plain") (param {sig}) (result i32) (i32.const 0)))')
    engine = wasmtime.Engine()
    module = wasmtime.Module(engine, wasmtime.wat2wasm(wat))
    empty = bytes(8)
    args6 = (0, 8, 64, 8, 128, size)
    fn = host.IMPORTS[name][0]

    def best(f: Callable[[], object]) -> float:
        return min(seconds(f, 1, 1.0) for _ in range(runs // 2 or 1)) * 1e6

    t_fn = best(lambda: fn(empty, empty, size))
    costs = []
    for raw_calls in (True, False):
        linker = wasmtime.Linker(engine)
        host.define(linker, raw_calls=raw_calls)
        store = wasmtime.Store(engine)
        ex = linker.instantiate(store, module).exports(store)
        ex["memory"].write(store, empty, 0)
        call, plain = _RawExport(wasmtime, store, ex["call"]), _RawExport(wasmtime, store, ex["plain"])
        assert call(*args6) == host.PF_OK
        costs.append(best(lambda call=call: call(*args6)) - best(lambda plain=plain: plain(*args6)) - t_fn)
    return costs[0], costs[1], t_fn


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench host-calls", description=__doc__.split("\n\n")[0])
    parser.add_argument("--curves", nargs="*", default=list(CURVES), help="packages (default: the five of the seed)")
    parser.add_argument("--quick", action="store_true", help="one timed call per cell (and a short budget)")
    parser.add_argument("--repeats", type=int, default=None, help="rounds of timed calls per row (default 7, 1 with --quick)")
    parser.add_argument("--out", type=Path, help="also write the table (markdown) here")
    args = parser.parse_args(argv)
    repeats, budget = (1, 0.5) if args.quick else (7, 8.0)
    if args.repeats is not None:
        repeats, budget = args.repeats, max(budget, 0.1 * args.repeats)
    lines = ["| curve | operation | pure wasm (µs) | host calls (µs) | native (µs) | pure / host | host / native "
             "| boundary (µs) | of which entry (µs) | (host - entry) / native |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    print(lines[0])
    calls = []
    for pkg in args.curves:
        C = importlib.import_module(f"generated.{pkg}")
        rows = pairing_rows(pkg, args.quick) if hasattr(C, "pairing") else edwards_rows(pkg, args.quick)
        for name, pure, host, native, entry in rows:
            assert host() == pure(), f"{pkg} {name}: the host-call module and the pure one disagree"
            t = [v * 1e6 for v in interleaved([pure, host, native, entry], repeats, budget)]
            line = (f"| {pkg} | {name} | {t[0]:.0f} | {t[1]:.0f} | {t[2]:.0f} | {t[0] / t[1]:.2f} | {t[1] / t[2]:.2f} "
                    f"| {t[1] - t[2]:.0f} | {t[3]:.0f} | {(t[1] - t[3]) / t[2]:.2f} |")
            lines.append(line)
            print(line, flush=True)
        unchecked, callbacks, work = per_call_boundary(pkg)
        calls.append(f"| {pkg} | {unchecked:.1f} | {callbacks:.1f} | {work:.1f} |")
    lines += ["", "Per host call (an import of trivial native work, an MSM of no points, from a minimal guest):", "",
              "| curve | boundary, unchecked imports (µs) | boundary, wasmtime-py callbacks (µs) | native work (µs) |",
              "|---|---:|---:|---:|", *calls]
    print("\n".join(lines[-len(calls) - 4:]))
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
