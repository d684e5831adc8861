"""MSM and BLS batch verification through a Dask LocalCluster against the local calls, in one run,
and the cost of W = 8, 64, 512 workers projected from the measured per-point and per-task costs.

    python bench/distributed.py [--sizes 18 20] [--signatures 1024] [--rounds 3]

BLS12-381 G1 MSM at n = 2^18 and 2^20: the points and scalars are written to files first, and
both sides read them: the cluster's workers (2 single-thread processes) each read their own
partition (``distributed.msm(PointFile, ScalarFile, client)``), the local call reads both files
and runs ``msm_bytes`` on 2 threads (``distributed.msm(..., client=None, threads=2)``).  Then a
batch of BLS signatures (MinPk Pop), through the cluster against the local ``batch_verify`` on
2 threads.  Wall-clock time, best of --rounds, the local and the cluster calls taking turns in
each round (the cluster is warm: started, and the package imported on its workers, before the
timing).

The projection: one worker's share of an n-point MSM costs t1(n / W), the single-thread MSM
measured here at several sizes (Pippenger's cost per point falls slowly with n, so t1 is
interpolated in log-log between the measured sizes, extrapolated from the nearest two); on top
come the fixed cost of a distributed call (task submission, the scheduler, results back: measured
with 2-point MSMs) and one addition task per level of the tree of partial sums (log2 W levels,
each a task round trip, measured).  Data is assumed to be on the workers' disks, as here.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
# run as a script, this file's folder comes first on sys.path, where its name would hide the
# `distributed` package itself
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

RESULTS = REPO_ROOT / "bench" / "results"
PROJECT_WORKERS = (8, 64, 512)


def best(fn, rounds: int) -> float:
    """The fastest of `rounds` wall-clock timings of fn(), in seconds."""
    return interleaved([fn], rounds)[0]


def interleaved(fns: list, rounds: int) -> list[float]:
    """The fastest of `rounds` wall-clock timings of each fn, the fns taking turns within each
    round (so that a shared machine's load falls on all of them alike)."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for fn, out in zip(fns, times, strict=True):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
    return [min(out) for out in times]


def write_inputs(C, folder: Path, n: int) -> tuple[Path, Path]:
    """n distinct points (an arithmetic progression P, P + G, ...; the MSM does not care) and n
    random scalars, packed, in two files."""
    points, scalars = folder / f"points_{n}.bin", folder / f"scalars_{n}.bin"
    G = C.G1.generator()
    P = G * 0x1234567
    with open(points, "wb") as f:
        for _ in range(n):
            f.write(P.to_bytes(False))
            P = P + G
    rng = random.Random(n)
    nb = (C.R.bit_length() + 7) // 8
    scalars.write_bytes(b"".join(rng.randrange(C.R).to_bytes(nb, "little") for _ in range(n)))
    return points, scalars


def interpolate(samples: dict[int, float], n: float) -> float:
    """t1(n) from single-thread timings at a few sizes, log-log linear between (or beyond) them."""
    sizes = sorted(samples)
    if n <= sizes[0]:
        a, b = sizes[0], sizes[1]
    elif n >= sizes[-1]:
        a, b = sizes[-2], sizes[-1]
    else:
        a = max(s for s in sizes if s <= n)
        b = min(s for s in sizes if s > n)
    slope = math.log(samples[b] / samples[a]) / math.log(b / a)
    return samples[a] * (n / a) ** slope


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[18, 20], help="log2 of the MSM sizes")
    parser.add_argument("--signatures", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    from distributed import Client, LocalCluster

    from generated import bls12_381 as C
    from generated.bls12_381 import bls
    from generated.bls12_381 import distributed as D

    W = args.workers
    results: dict[str, object] = {"machine": os.uname().nodename, "cpus": os.cpu_count(), "workers": W,
                                  "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                  "load_average_at_start": os.getloadavg()}
    cluster = LocalCluster(processes=True, n_workers=W, threads_per_worker=1, dashboard_address=None)
    client = Client(cluster)
    D.check_workers(client)
    rows = []
    single: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="pairforge-bench-") as tmp:
        folder = Path(tmp)
        for log_n in args.sizes:
            n = 1 << log_n
            t = time.perf_counter()
            pf, sf = write_inputs(C, folder, n)
            print(f"n = 2^{log_n}: inputs written in {time.perf_counter() - t:.1f} s", flush=True)
            points, scalars = D.PointFile(str(pf)), D.ScalarFile(str(sf))
            want = D.msm(points, scalars, threads=W)
            assert D.msm(points, scalars, client=client, threads=1) == want
            half = (D.PointFile(str(pf), count=n // W), D.ScalarFile(str(sf), count=n // W))
            local, dist, share = interleaved([
                lambda p=points, s=scalars: D.msm(p, s, threads=W),
                lambda p=points, s=scalars: D.msm(p, s, client=client, threads=1),
                lambda h=half: D.msm(*h, threads=1),
            ], args.rounds)
            single[n // W] = share
            rows.append({"n": n, "local_threads": W, "local_s": local, "cluster_s": dist, "overhead": dist / local - 1,
                         "one_share_1_thread_s": share})
            print(f"  local msm (file, {W} threads) {local:.3f} s | cluster of {W} x 1 thread {dist:.3f} s "
                  f"({100 * (dist / local - 1):+.1f} %) | one share (n/{W} points, 1 thread) {share:.3f} s", flush=True)
        # more single-thread sizes for the projection
        for log_n in (8, 10, 12, 14, 16):
            n = 1 << log_n
            pf, sf = write_inputs(C, folder, n)
            files = (D.PointFile(str(pf)), D.ScalarFile(str(sf)))
            single[n] = best(lambda f=files: D.msm(*f, threads=1), args.rounds + 2)
        # the fixed cost of a distributed call, and of one level of the addition tree
        g = C.G1.generator()
        tiny = best(lambda: D.msm([g, g], [1, 2], client=client, chunk=2), 10)
        tree = best(lambda: D.msm([g] * 4, [1, 2, 3, 4], client=client, chunk=1), 10)  # 4 tasks, 2 levels
        per_level = max(0.0, (tree - tiny) / 2)
    results["msm"] = rows
    results["single_thread_s"] = {str(k): v for k, v in sorted(single.items())}
    results["call_overhead_s"] = tiny
    results["tree_level_s"] = per_level

    # BLS batch verification
    pop = bls.MinPk.Pop
    m = args.signatures
    sks = [pop.key_gen(i.to_bytes(32, "big")) for i in range(1, m + 1)]
    pks = [pop.sk_to_pk(k) for k in sks]
    msgs = [b"message %d" % i for i in range(m)]
    sigs = [pop.sign(k, msg) for k, msg in zip(sks, msgs, strict=True)]
    assert pop.batch_verify(pks, msgs, sigs, client=client, threads=1)
    bls_local, bls_dist = interleaved([
        lambda: pop.batch_verify(pks, msgs, sigs, threads=W),
        lambda: pop.batch_verify(pks, msgs, sigs, client=client, threads=1),
    ], args.rounds)
    results["bls"] = {"signatures": m, "local_s": bls_local, "cluster_s": bls_dist}
    print(f"BLS batch_verify of {m}: local ({W} threads) {bls_local * 1e3:.1f} ms | cluster {bls_dist * 1e3:.1f} ms "
          f"(x{bls_dist / bls_local:.2f})", flush=True)
    client.close()
    cluster.close()

    # projection
    projection = []
    for log_n in (18, 20, 22, 24, 26, 28):
        n = 1 << log_n
        row = {"n": n, "one_worker_s": interpolate(single, n)}
        for w in PROJECT_WORKERS:
            row[f"W{w}_s"] = interpolate(single, n / w) + tiny + math.ceil(math.log2(w)) * per_level
        projection.append(row)
    breakeven = {}
    for w in (2, *PROJECT_WORKERS):
        n = 1 << 8
        while n < 1 << 30 and interpolate(single, n / w) + tiny + math.ceil(math.log2(w)) * per_level >= interpolate(single, n):
            n *= 2
        breakeven[w] = n
    results["projection"] = projection
    results["breakeven_vs_one_thread"] = breakeven

    lines = ["| n | local msm, 2 threads (file) | cluster, 2 workers x 1 thread | overhead |", "|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| 2^{int(math.log2(r['n']))} | {r['local_s']:.3f} s | {r['cluster_s']:.3f} s | {100 * r['overhead']:+.1f} % |")
    lines += ["", f"BLS batch_verify of {m} signatures: local, 2 threads {bls_local * 1e3:.1f} ms; cluster "
              f"{bls_dist * 1e3:.1f} ms (x{bls_dist / bls_local:.2f}).", "",
              f"Measured: single-thread MSM {', '.join(f'2^{int(math.log2(k))}: {v * 1e3:.1f} ms' for k, v in sorted(single.items()))}; "
              f"a distributed call's fixed cost {tiny * 1e3:.1f} ms; one level of the addition tree {per_level * 1e3:.1f} ms.", "",
              "| n | 1 worker (1 thread) | " + " | ".join(f"W = {w}" for w in PROJECT_WORKERS) + " |",
              "|---:|---:|" + "---:|" * len(PROJECT_WORKERS)]
    for r in projection:
        lines.append(f"| 2^{int(math.log2(r['n']))} | {r['one_worker_s']:.2f} s | "
                     + " | ".join(f"{r[f'W{w}_s']:.3f} s" for w in PROJECT_WORKERS) + " |")
    lines += ["", "Break-even (the cluster of W single-thread workers beats one thread): "
              + ", ".join(f"W = {w}: n = 2^{int(math.log2(n))}" for w, n in breakeven.items())]
    text = "\n".join(lines)
    print("\n" + text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "distributed.json").write_text(json.dumps(results, indent=1) + "\n")
    (RESULTS / "distributed.md").write_text(text + "\n")


if __name__ == "__main__":
    main()
