"""The pairing targets (docs/performance.md) in one process: ours beside blspy (blst) and zksnake (arkworks).

    python bench/targets.py [--rounds 3]

Rows: the pairing, Miller loop and final exponentiation of every pairing curve in curves/, BLS12-381's
pairing with a G2Prepared argument and its multi-pairings of 2, 4 and 8 pairs, its G2
decompression without the subgroup check and its hash to G2, the G1 MSM of 2^14 points on
BLS12-381 and BLS24-315 (where the AVX-512 IFMA kernel runs, also without it: the "portable" rows),
and the ratios the targets are set for (BLS12-381 against blspy, BN254
against zksnake, BN254, BLS12-377, BW6-761 and BLS24-315 against our BLS12-381, BW6-633 against our
BW6-761; docs/performance.md). Each operation runs in batches of about 50 ms; the fastest batch counts
(best of 5-7: on a shared machine the least disturbed run is the closest to the true cost), and
the operations of all curves and peers are interleaved round after round so that every one sees
the same load. A peer that is not installed is left out, and so is its ratio. The C kernels
(Fp multiplication, mixed additions) are `bench/run.py`'s C table.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bench.timing import fastest  # noqa: E402

CURVES = ("bls12_381", "bn254", "bls12_377", "bw6_761", "bls24_315", "bls24_317", "bw6_633")
MSM_CURVES = ("BLS12-381", "BLS24-315")  # a k = 24 target: BLS24-315 G1 MSM at 2^14 against BLS12-381
MSM_LOG_SIZE = 14
MULTI_PAIRING_SIZES = (2, 4, 8)
H2C_DST = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_AUG_"


def peer_operations(rng: random.Random) -> dict[str, Callable[[], object]]:
    """The installed peers' pairings on random subgroup points."""
    ops: dict[str, Callable[[], object]] = {}
    try:
        import blspy

        P = blspy.PrivateKey.from_bytes(rng.randrange(1, 2**250).to_bytes(32, "big")).get_g1()
        Q = blspy.G2Element.generator()
        ops["blspy BLS12-381 pairing"] = lambda: P.pair(Q)
        sk = blspy.PrivateKey.from_bytes(rng.randrange(1, 2**250).to_bytes(32, "big"))
        q_bytes = bytes(blspy.BasicSchemeMPL.sign(sk, b"a G2 point"))
        ops["blspy G2 from_bytes_unchecked"] = lambda: blspy.G2Element.from_bytes_unchecked(q_bytes)
        ops["blspy G2 from_message"] = lambda: blspy.G2Element.from_message(b"abc", H2C_DST)
    except ImportError:
        pass
    try:
        from zksnake._algebra import ec_bn254

        r = 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001
        zp, zq = ec_bn254.g1() * rng.randrange(1, r), ec_bn254.g2() * rng.randrange(1, r)
        ops["zksnake BN254 pairing"] = lambda: ec_bn254.pairing(zp, zq)
    except ImportError:
        pass
    return ops


def our_operations(C, rng: random.Random) -> dict[str, Callable[[], object]]:
    """One curve module's pairing operations on random subgroup points."""
    P = C.G1.generator() * rng.randrange(1, C.R)
    Q = C.G2.generator() * rng.randrange(1, C.R)
    f = C.miller_loop(P, Q)
    ops: dict[str, Callable[[], object]] = {
        f"{C.NAME} pairing": lambda: C.pairing(P, Q),
        f"{C.NAME} Miller loop": lambda: C.miller_loop(P, Q),
        f"{C.NAME} final exp.": lambda: C.final_exponentiation(f),
    }
    if C.NAME == "BLS12-381":
        prepared = C.G2Prepared(Q)
        ops[f"{C.NAME} pairing, G2Prepared"] = lambda: C.pairing(P, prepared)
        for n in MULTI_PAIRING_SIZES:
            Ps = [C.G1.generator() * rng.randrange(1, C.R) for _ in range(n)]
            Qs = [C.G2.generator() * rng.randrange(1, C.R) for _ in range(n)]
            ops[f"{C.NAME} multi_pairing, {n} pairs"] = lambda Ps=Ps, Qs=Qs: C.multi_pairing(Ps, Qs)
        q_bytes = Q.to_bytes()
        ops[f"{C.NAME} G2.from_bytes(check=False)"] = lambda: C.G2.from_bytes(q_bytes, check=False)
        ops[f"{C.NAME} G2.hash_to_curve"] = lambda: C.G2.hash_to_curve(b"abc", H2C_DST)
    if C.NAME in MSM_CURVES:
        n = 1 << MSM_LOG_SIZE
        base = C.G1.generator() * rng.randrange(1, C.R)
        points, acc = [], base
        for _ in range(n):  # distinct points without n scalar multiplications
            points.append(acc)
            acc = acc + base
        scalars = [rng.randrange(C.R) for _ in range(n)]
        ops[f"{C.NAME} G1 MSM 2^{MSM_LOG_SIZE}"] = lambda: C.G1.msm(points, scalars, threads=1)
        if C._impl._msm_ifma():  # the same MSM without the AVX-512 IFMA kernel, for its ratio
            ops[f"{C.NAME} G1 MSM 2^{MSM_LOG_SIZE} portable"] = lambda: portable_msm(C, points, scalars)
    return ops


def portable_msm(C, points, scalars):
    """G1.msm with the IFMA kernel switched off for the call."""
    C._impl._msm_ifma(False)
    try:
        return C.G1.msm(points, scalars, threads=1)
    finally:
        C._impl._msm_ifma(True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    rng = random.Random(2026)
    ops = peer_operations(rng)
    targets = {}
    for pkg in CURVES:
        try:
            C = importlib.import_module(f"generated.{pkg}")
        except ImportError as exc:
            print(f"# {pkg}: not importable ({exc}); skipped", file=sys.stderr)
            continue
        targets[C.NAME] = getattr(C, "TARGET", "?")
        ops.update(our_operations(C, rng))
    print("# modules: " + ", ".join(f"{name} ({target})" for name, target in targets.items()))
    best: dict[str, float] = {}
    for round_ in range(args.rounds):
        for name, fn in ops.items():
            best[name] = min(best.get(name, float("inf")), fastest(fn, batches=5, batch_s=0.05))
        print(f"# round {round_ + 1} of {args.rounds} done", file=sys.stderr)
    for name, seconds in best.items():
        print(f"{name:40s} {seconds * 1e6:10.1f} us")

    def ratio(label: str, ours: str, theirs: str, goal: float) -> None:
        if ours in best and theirs in best:
            value = best[ours] / best[theirs]
            print(f"{label:40s} {value:10.3f}   (target <= {goal}: {'met' if value <= goal else 'missed'})")

    ratio("BLS12-381 pairing / blspy", "BLS12-381 pairing", "blspy BLS12-381 pairing", 0.93)
    ratio("BN254 pairing / zksnake", "BN254 pairing", "zksnake BN254 pairing", 0.5)
    ratio("BN254 pairing / our BLS12-381", "BN254 pairing", "BLS12-381 pairing", 0.62)
    ratio("BLS12-377 pairing / our BLS12-381", "BLS12-377 pairing", "BLS12-381 pairing", 1.10)
    ratio("BW6-761 pairing / our BLS12-381", "BW6-761 pairing", "BLS12-381 pairing", 3.5)
    ratio("BW6-761 final exp. / our BLS12-381", "BW6-761 final exp.", "BLS12-381 final exp.", 2.5)
    ratio("BLS24-315 pairing / our BLS12-381", "BLS24-315 pairing", "BLS12-381 pairing", 1.75)
    ratio(f"BLS24-315 G1 MSM 2^{MSM_LOG_SIZE} / our BLS12-381", f"BLS24-315 G1 MSM 2^{MSM_LOG_SIZE}",
          f"BLS12-381 G1 MSM 2^{MSM_LOG_SIZE}", 0.8)
    ratio(f"BLS24-315 G1 MSM 2^{MSM_LOG_SIZE} / BLS12-381, portable", f"BLS24-315 G1 MSM 2^{MSM_LOG_SIZE} portable",
          f"BLS12-381 G1 MSM 2^{MSM_LOG_SIZE} portable", 0.8)
    for name in MSM_CURVES:
        ratio(f"{name} G1 MSM 2^{MSM_LOG_SIZE} IFMA / portable", f"{name} G1 MSM 2^{MSM_LOG_SIZE}",
              f"{name} G1 MSM 2^{MSM_LOG_SIZE} portable", 1.0)
    ratio("BW6-633 pairing / our BW6-761", "BW6-633 pairing", "BW6-761 pairing", 0.65)
    ratio("G2 from_bytes(check=False) / blspy", "BLS12-381 G2.from_bytes(check=False)",
          "blspy G2 from_bytes_unchecked", 1.2)
    ratio("G2.hash_to_curve / blspy from_message", "BLS12-381 G2.hash_to_curve", "blspy G2 from_message", 1.05)
    return 0


if __name__ == "__main__":
    sys.exit(main())
