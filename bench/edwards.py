"""Twisted Edwards companion curves beside our BLS12-381 G1, in one process:

    python bench/edwards.py                    Bandersnatch, and every other built Edwards curve
    python bench/edwards.py --n 16384 --rounds 7
    python bench/edwards.py --curves bandersnatch --only msm     the MSM rows only

Per curve: constant-time P * k, mul_vartime, P + Q, from_bytes (with the subgroup check), and a
single-threaded MSM of n points (default 2^14; from generator.emit.context_edwards.sw_msm_min_n
points on it runs in batch-affine form on the Weierstrass model, below that in extended
coordinates: --n picks either side); BLS12-381 G1's P * k and MSM (threads=1) are
timed in the same rounds, interleaved, so the ratios compare like with like on a loaded machine.
Each cell: the best of the rounds (process CPU time) and the median; ratios use the best.
Where the PyPI package bandersnatch-vrfs (arkworks' ark-ec-vrfs through PyO3) is installed, its
public_from_secret (sk·G and the 32-byte encoding) is timed beside ours in the same rounds.
Where the package has SWPoint (a [weierstrass] section), its P * k and MSM (inputs never mapped,
decoded inputs), P + Q, mul_vartime and P * k (for points known to lie in the subgroup, and points
that are not) are timed beside the Edwards Point's ("vs TE").

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bench.timing import seconds_per_call  # noqa: E402

EDWARDS = ("bandersnatch", "jubjub", "ed_on_bls12_377", "babyjubjub", "ed_on_bw6_761")


def operations(C, group, n: int, rng: random.Random) -> dict[str, tuple[callable, int]]:
    G = group.generator()
    P, Q = G * rng.randrange(C.R), G * rng.randrange(C.R)
    k = rng.randrange(C.R)
    data = P.to_bytes()
    points = [G * rng.randrange(C.R) for _ in range(64)]
    points = [points[i % 64] + G * i for i in range(n)]
    scalars = [rng.randrange(C.R) for _ in range(n)]
    return {
        "P * k": (lambda: P * k, 200),
        "mul_vartime": (lambda: P.mul_vartime(k), 200),
        "P + Q": (lambda: P + Q, 20000),
        "from_bytes": (lambda: type(P).from_bytes(data), 200),
        f"msm n={n} (1 thread)": (lambda: group.msm(points, scalars, threads=1), 1),
    }


def peer_operations(C, rng: random.Random) -> dict[str, tuple[callable, callable, int]]:
    """Ours and an installed Python package's, for one operation with the same result (checked)."""
    if C.NAME != "Bandersnatch":
        return {}
    try:
        import bandersnatch_vrfs as peer
    except ImportError:
        return {}
    secret = peer.secret_from_seed(rng.randbytes(32))
    k = int.from_bytes(secret, "little")
    G = C.Point.generator()
    if (G * k).to_bytes() != peer.public_from_secret(secret):
        raise AssertionError("bandersnatch-vrfs public_from_secret disagrees with G * k")
    return {"sk·G + encode (vs bandersnatch-vrfs)": (lambda: (G * k).to_bytes(),
                                                     lambda: peer.public_from_secret(secret), 200)}


def sw_operations(C, n: int, rng: random.Random) -> dict[str, tuple[callable, callable, int]]:
    """SWPoint's operations beside the Edwards Point's with the same inputs (results checked)."""
    if not hasattr(C, "SWPoint"):
        return {}
    G = C.Point.generator()
    P, k = G * rng.randrange(C.R), rng.randrange(C.R)
    S = P.to_weierstrass()
    points = [G * rng.randrange(C.R) for _ in range(64)]
    points = [points[i % 64] + G * i for i in range(n)]
    scalars = [rng.randrange(C.R) for _ in range(n)]
    affine = [q.to_weierstrass().to_affine() for q in points]
    mapped = [C.SWPoint.from_bytes(C.SWPoint.from_affine(x, y, check=False).to_bytes()) for x, y in affine]

    def unmapped():
        return C.SWPoint.msm([C.SWPoint.from_affine(x, y, check=False) for x, y in affine], scalars, threads=1)

    def te_with_construction():
        return C.Point.msm([C.Point.from_affine(*q.to_affine(), check=False) for q in points], scalars, threads=1)

    if unmapped() != C.Point.msm(points, scalars, threads=1).to_weierstrass() or S * k != (P * k).to_weierstrass():
        raise AssertionError("SWPoint disagrees with Point")
    S2 = (G * rng.randrange(C.R)).to_weierstrass()
    Q2 = S2.to_edwards()
    S_open = C.SWPoint.from_affine(*S.to_affine(), check=False)   # not known to lie in the subgroup
    P_open = C.Point.from_affine(*P.to_affine(), check=False)
    if S + S2 != (P + Q2).to_weierstrass() or S_open * k != S * k or S.mul_vartime(k) != S * k:
        raise AssertionError("SWPoint disagrees with Point")
    return {
        "SW P * k (vs TE P * k)": (lambda: S * k, lambda: P * k, 200),
        "SW P * k, P not known in the subgroup (vs TE, same)": (lambda: S_open * k, lambda: P_open * k, 200),
        "SW mul_vartime (vs TE)": (lambda: S.mul_vartime(k), lambda: P.mul_vartime(k), 200),
        "SW P + Q (vs TE P + Q)": (lambda: S + S2, lambda: P + Q2, 20000),
        f"SW msm n={n}, unmapped inputs built from affine (vs TE, same)": (unmapped, te_with_construction, 1),
        f"SW msm n={n}, decoded inputs (vs TE)": (lambda: C.SWPoint.msm(mapped, scalars, threads=1),
                                                  lambda: C.Point.msm(points, scalars, threads=1), 1),
    }


def fmt(seconds: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:.2f} {unit}"
    return f"{seconds * 1e9:.2f} ns"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1 << 14, help="MSM size (default 2^14)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--curves", nargs="*", default=None)
    ap.add_argument("--only", default=None, help="time only the operations whose names contain this")
    args = ap.parse_args(argv)
    rng = random.Random(2026)
    bls = importlib.import_module("generated.bls12_381")
    ref = operations(bls, bls.G1, args.n, rng)

    def wanted(ops: dict) -> dict:
        return {name: v for name, v in ops.items() if args.only is None or args.only in name}

    ref = wanted(ref)
    rows = []
    for pkg in args.curves or EDWARDS:
        try:
            C = importlib.import_module(f"generated.{pkg}")
        except ImportError as exc:
            print(f"{pkg}: not built ({exc})")
            continue
        ops = wanted(operations(C, C.Point, args.n, rng))
        samples: dict[str, list[float]] = {name: [] for name in ops}
        ref_samples: dict[str, list[float]] = {name: [] for name in ref}
        for _ in range(args.rounds):
            for name, (fn, reps) in ops.items():
                samples[name].append(seconds_per_call(fn, reps)[1])
                if name in ref:
                    ref_samples[name].append(seconds_per_call(*ref[name])[1])
        pairs = wanted({**peer_operations(C, rng), **sw_operations(C, args.n, rng)})
        for name, (ours, theirs, reps) in pairs.items():
            mine, peer = [], []
            for _ in range(args.rounds):             # interleaved, as the G1 comparison
                mine.append(seconds_per_call(ours, reps)[1])
                peer.append(seconds_per_call(theirs, reps)[1])
            rows.append((C.NAME, C.TARGET, name, min(mine), statistics.median(mine), min(peer),
                         min(mine) / min(peer)))
        for name in ops:
            best, med = min(samples[name]), statistics.median(samples[name])
            if name in ref:
                rbest = min(ref_samples[name])
                rows.append((C.NAME, C.TARGET, name, best, med, rbest, best / rbest))
            else:
                rows.append((C.NAME, C.TARGET, name, best, med, None, None))
    print("| curve | target | operation | best (CPU) | median | BLS12-381 G1 (or peer, or TE) best | ratio |")
    print("|---|---|---|---:|---:|---:|---:|")
    for name, target, op, best, med, rbest, ratio in rows:
        print(f"| {name} | {target} | {op} | {fmt(best)} | {fmt(med)} | "
              f"{fmt(rbest) if rbest else '—'} | {f'{ratio:.2f}' if ratio else '—'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
