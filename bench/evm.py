"""EVM precompile timings: µs per ``run(address, data)`` call of every precompile of every curve
package that renders one, and for the priced ones the gas per µs (the EIPs price at a target speed:
EIP-2537 at about 30 Mgas/s on the EcRecover baseline, i.e. 30 gas per µs; above it we are faster than the
schedule assumes).

    python -m bench.evm [--reps 5] [--pairs 1,2,8] [--msm 1,8,64,128]

Inputs are valid encodings of random subgroup points (MAP: small field elements), so each call does
the whole work: decoding, subgroup checks where the EIP asks, the operation, encoding.  Each entry is
the median of --reps calls.  The machine is shared: compare ratios from one run.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time


def median_us(fn, reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def inputs(C, mod, op: str, group: int, sizes: list[int], rng: random.Random) -> list[tuple[str, bytes]]:
    """(label, input) pairs of valid inputs for one precompile."""
    prof, sw = mod.PROFILE, mod.SCALAR_BYTES
    G = C.G1 if group == 1 else C.G2

    def pt(G):
        return (G.generator() * rng.randrange(1, C.R)).to_bytes(False, prof)

    if op == "add":
        return [("", pt(G) + pt(G))]
    if op == "mul":
        return [("", pt(G) + rng.randrange(2 ** (8 * sw)).to_bytes(sw, "big"))]
    if op == "msm":
        base = [pt(G) for _ in range(8)]
        return [(f"k={k}", b"".join(base[i % 8] + rng.randrange(2 ** (8 * sw)).to_bytes(sw, "big") for i in range(k)))
                for k in sizes]
    if op == "pairing":
        p, q = C.G1.generator() * 3, C.G2.generator() * 5
        return [(f"k={k}", b"".join(p.to_bytes(False, prof) + q.to_bytes(False, prof) for _ in range(k))) for k in sizes]
    width = mod.FIELD_BYTES
    degree = len(G.generator().to_bytes(False, prof)) // (2 * width)
    return [("", b"".join(rng.randrange(C.P).to_bytes(width, "big") for _ in range(degree)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--pairs", default="1,2,8")
    ap.add_argument("--msm", default="1,8,64,128")
    ap.add_argument("--curves", default="bn254,bls12_381,bls12_377,bw6_761")
    args = ap.parse_args()
    rng = random.Random(1)
    print(f"{'precompile':<34} {'µs/call':>10} {'gas':>9} {'gas/µs':>8}")
    for pkg in args.curves.split(","):
        C = importlib.import_module(f"generated.{pkg}")
        for proto in C.PROTOCOLS:
            mod = importlib.import_module(f"generated.{pkg}.{proto}")
            if not hasattr(mod, "PRECOMPILES"):
                continue
            for address, pc in mod.PRECOMPILES.items():
                name, op, group = pc.name, pc.op, pc.group
                sizes = [int(x) for x in (args.pairs if op == "pairing" else args.msm).split(",")]
                for label, data in inputs(C, mod, op, group, sizes, rng):
                    mod.run(address, data)  # warm up
                    us = median_us(lambda mod=mod, address=address, data=data: mod.run(address, data), args.reps)
                    gas = mod.gas(address, data)
                    rate = f"{gas / us:8.1f}" if gas else f"{'-':>8}"
                    print(f"{pkg + ' ' + proto + ' ' + name + ' ' + label:<34} {us:10.1f} {gas if gas is not None else '-':>9} {rate}")


if __name__ == "__main__":
    main()
