"""MSM timings: our G1/G2.msm (one and two threads) beside py_arkworks_bls12381's multiexp_unchecked,
in one run, on BLS12-381.

    python -m bench.msm [--sizes 10,14,18] [--reps 3]

Points are P_0 + i G (one addition each, cheap to set up even for 2^18 points); scalars are uniform
below r.  Each entry is the median of --reps runs of the whole Python call (input conversion
included).  The machine is shared: compare the ratios printed on one line, not absolute times
across runs.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable


def median_time(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10,14,18", help="log2 of the sizes, comma-separated")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--groups", default="G1,G2")
    args = ap.parse_args()

    from generated import bls12_381 as C

    try:
        import py_arkworks_bls12381 as ark
    except ImportError:  # the peer is optional
        ark = None
    rng = random.Random(1)
    for group in args.groups.split(","):
        G = getattr(C, group)
        for lg in (int(x) for x in args.sizes.split(",")):
            n = 1 << lg
            g = G.generator()
            P = g * rng.randrange(1, C.R)
            points = []
            for _ in range(n):
                points.append(P)
                P = P + g
            scalars = [rng.randrange(C.R) for _ in range(n)]
            reps = args.reps if lg < 17 else 1
            ours = {
                t: median_time(lambda G=G, p=points, k=scalars, t=t: G.msm(p, k, threads=t), reps)
                for t in (1, 2)
            }
            line = (
                f"{group} n=2^{lg}: ours 1 thread {ours[1] * 1e3:.1f} ms, 2 threads {ours[2] * 1e3:.1f} ms"
                f" (x{ours[2] / ours[1]:.2f})"
            )
            if ark is not None:
                cls = ark.G1Point if group == "G1" else ark.G2Point
                apoints = [cls.from_compressed_bytes_unchecked(p.to_bytes()) for p in points]
                ascalars = [ark.Scalar.from_le_bytes(k.to_bytes(32, "little")) for k in scalars]
                theirs = median_time(lambda c=cls, p=apoints, k=ascalars: c.multiexp_unchecked(p, k), reps)
                same = (
                    bytes(cls.multiexp_unchecked(apoints, ascalars).to_compressed_bytes())
                    == G.msm(points, scalars).to_bytes()
                )
                line += f"; arkworks {theirs * 1e3:.1f} ms; ours(1 thread)/arkworks {ours[1] / theirs:.2f}; same result: {same}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
