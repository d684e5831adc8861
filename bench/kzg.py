"""KZG and EIP-4844 in one process: ours beside ckzg (c-kzg-4844 over blst), and our FFTs.

    python bench/kzg.py [--batch 64] [--commit-log 20] [--setup FILE]

Rows: blob_to_kzg_commitment and compute_blob_kzg_proof (with the fixed-base table of
load_trusted_setup's default precompute, and again with precompute=0), verify_blob_kzg_proof and
verify_blob_kzg_proof_batch (--batch blobs), compute_cells_and_kzg_proofs (with FK20's fixed-base
tables of the default precompute, and again with precompute=0),
recover_cells_and_kzg_proofs (half of the cells missing) and verify_cell_kzg_proof_batch (128
cells) with mainnet's trusted setup, ours on one thread and
threaded (every core) beside ckzg (one thread: its binding has no thread option); Fr.fft_bytes of
size 2^16 and 2^20 on BLS12-381; a KZG commitment to a polynomial of degree 2^commit-log - 1
(2^commit-log coefficients; default 2^20) on each curve; and the first-call costs (loading the
trusted setup, and the first compute_cells_and_kzg_proofs after it, where our FK20 table is made
while ckzg makes its own at load).  The calls of ours (one thread, every core) and of ckzg
alternate, in batches of about 0.2 s (0.3 s for the cell operations), and the fastest of 3
batches counts (on a shared machine the least disturbed run is the closest to the true cost);
the first calls are timed twice and the large commitments once (single calls, no warm-up).
Beside the wall clock the table gives the ratio of process CPU times (every thread), which a
loaded machine disturbs less.

The commitment setup of 2^commit-log G1 points: building powers of a known tau is a scalar
multiplication per point (minutes in Python for 2^20), and the time of a commitment does not
depend on the points (an MSM: Pippenger over the scalars' digits, the same additions for any
points of the subgroup).  So the bench builds valid subgroup points through the public API, P_0 =
[a] G1 and P_(i+1) = P_i + [b] G1 for random a, b (each sum of subgroup points is known to be in
the subgroup), and a kzg.Setup from them with check_powers=False (they are not powers of one tau,
so this setup is for timing only: it cannot open).  kzg.commit then runs as on any setup: the
input checks, the Fr conversion of the coefficients and the MSM.

The trusted setup is tests/vectors/eip4844_kzg/trusted_setup.txt.xz (stored xz-compressed; --setup
names another file, plain or .xz): both load_trusted_setup functions want a file name, so a .xz
file is decompressed once into a temporary folder, removed at exit.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import argparse
import lzma
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bench.timing import calls_per_batch, seconds_per_call  # noqa: E402

SETUP = REPO_ROOT / "tests" / "vectors" / "eip4844_kzg" / "trusted_setup.txt.xz"
CURVES = ("bls12_381", "bn254", "bls12_377", "bw6_761")


Timing = tuple[float, float]  # seconds per call: (wall clock, process CPU time)


def race(fns: dict[str, Callable[[], object]], rounds: int = 3, batch_s: float = 0.2) -> dict[str, Timing]:
    """Seconds per call of each function, wall clock and process CPU time, each the fastest of
    `rounds` batches of about batch_s (batch_s = 0: single calls, no warm-up call).  The batches
    of the functions alternate, so a load that comes and goes on a shared machine falls on all of
    them alike; the CPU time (every thread of the process) is the steadier figure there."""
    calls = dict.fromkeys(fns, 1)
    if batch_s > 0:
        calls = {name: calls_per_batch(fn, batch_s) for name, fn in fns.items()}
    best = {name: (float("inf"), float("inf")) for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            wall, cpu = seconds_per_call(fn, calls[name])
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


def timing_setup(C: object, n: int, rng: random.Random) -> object:
    """A kzg.Setup of n G1 points of the subgroup for timing commitments (see the module notes)."""
    G, H = C.G1.generator(), C.G2.generator()
    step = G * rng.randrange(1, C.R)
    points = [G * rng.randrange(1, C.R)]
    for _ in range(n - 1):
        points.append(points[-1] + step)
    return C.kzg.Setup(points, [H, H * rng.randrange(2, C.R)], check_powers=False)


def plain_setup(path: Path, scratch: Path) -> Path:
    """The trusted setup as a plain file: ``path`` itself, or a .xz file decompressed into scratch."""
    if not path.is_file():
        raise SystemExit(f"kzg: no trusted setup at {path}")
    if path.suffix != ".xz":
        return path
    out = scratch / path.stem
    out.write_bytes(lzma.decompress(path.read_bytes()))
    return out


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:9.2f} ms" if seconds < 10 else f"{seconds:9.2f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--commit-log", type=int, default=20)
    ap.add_argument("--setup", type=Path, default=SETUP,
                    help="trusted setup file, plain or .xz (default: the mainnet one in tests/vectors)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pairforge-kzg-") as scratch:
        args.setup = plain_setup(args.setup, Path(scratch))
        return bench(args)


def bench(args: argparse.Namespace) -> int:
    from generated import bls12_381

    E = bls12_381.eip4844
    rng = random.Random(1)
    r = bls12_381.R
    rows: list[tuple[str, Timing, Timing, Timing | None]] = []
    try:
        import ckzg
    except ImportError:
        ckzg = None

    def row(name: str, ours: Callable[[int | None], object], peer: Callable[[], object] | None,
            rounds: int = 3, batch_s: float = 0.2) -> None:
        fns = {"one": lambda: ours(1), "many": lambda: ours(None)}
        if peer is not None:
            fns["peer"] = peer
        t = race(fns, rounds, batch_s)
        rows.append((name, t["one"], t["many"], t.get("peer")))
        print(f"done: {name}", file=sys.stderr, flush=True)

    # first calls: each load makes a fresh setup; our FK20 table is made by the first cell-proof
    # call (or at load with fk20=True), ckzg's at every load
    first_blob = b"".join(rng.randrange(r).to_bytes(32, "big") for _ in range(E.FIELD_ELEMENTS_PER_BLOB))

    def ours_first(threads: int | None) -> None:
        fresh = E.load_trusted_setup(str(args.setup), threads=threads)
        E.compute_cells_and_kzg_proofs(first_blob, fresh, threads=threads)

    def ckzg_first() -> None:
        fresh = ckzg.load_trusted_setup(str(args.setup), 0)
        ckzg.compute_cells_and_kzg_proofs(first_blob, fresh)

    row("load_trusted_setup", lambda t: E.load_trusted_setup(str(args.setup), threads=t),
        (lambda: ckzg.load_trusted_setup(str(args.setup), 0)) if ckzg else None, 2, 0)
    row("load + first compute_cells_and_kzg_proofs", ours_first, ckzg_first if ckzg else None, 2, 0)
    ts = E.load_trusted_setup(str(args.setup))  # with the fixed-base table of the default precompute
    plain = E.TrustedSetup(ts.setup, precompute=0)  # the same points without it
    blobs = [b"".join(rng.randrange(r).to_bytes(32, "big") for _ in range(E.FIELD_ELEMENTS_PER_BLOB))
             for _ in range(args.batch)]
    commitments = [E.blob_to_kzg_commitment(b, ts) for b in blobs]
    proofs = [E.compute_blob_kzg_proof(b, c, ts) for b, c in zip(blobs, commitments, strict=True)]
    blob, c, p = blobs[0], commitments[0], proofs[0]
    cts = ckzg.load_trusted_setup(str(args.setup), 0) if ckzg else None
    ops = [
        ("blob_to_kzg_commitment", lambda t: E.blob_to_kzg_commitment(blob, ts, threads=t),
         (lambda: ckzg.blob_to_kzg_commitment(blob, cts)) if ckzg else None),
        ("compute_blob_kzg_proof", lambda t: E.compute_blob_kzg_proof(blob, c, ts, threads=t),
         (lambda: ckzg.compute_blob_kzg_proof(blob, c, cts)) if ckzg else None),
        ("blob_to_kzg_commitment, precompute=0", lambda t: E.blob_to_kzg_commitment(blob, plain, threads=t),
         (lambda: ckzg.blob_to_kzg_commitment(blob, cts)) if ckzg else None),
        ("compute_blob_kzg_proof, precompute=0", lambda t: E.compute_blob_kzg_proof(blob, c, plain, threads=t),
         (lambda: ckzg.compute_blob_kzg_proof(blob, c, cts)) if ckzg else None),
        ("verify_blob_kzg_proof", lambda t: E.verify_blob_kzg_proof(blob, c, p, ts),
         (lambda: ckzg.verify_blob_kzg_proof(blob, c, p, cts)) if ckzg else None),
        (f"verify_blob_kzg_proof_batch ({args.batch})",
         lambda t: E.verify_blob_kzg_proof_batch(blobs, commitments, proofs, ts, threads=t),
         (lambda: ckzg.verify_blob_kzg_proof_batch(b"".join(blobs), b"".join(commitments), b"".join(proofs), cts))
         if ckzg else None),
    ]
    cells, cell_proofs = E.compute_cells_and_kzg_proofs(blob, ts)
    half = list(range(0, E.CELLS_PER_EXT_BLOB, 2))
    all_idx = list(range(E.CELLS_PER_EXT_BLOB))
    slow_ops = [
        ("compute_cells_and_kzg_proofs", lambda t: E.compute_cells_and_kzg_proofs(blob, ts, threads=t),
         (lambda: ckzg.compute_cells_and_kzg_proofs(blob, cts)) if ckzg else None),
        ("compute_cells_and_kzg_proofs, precompute=0", lambda t: E.compute_cells_and_kzg_proofs(blob, plain, threads=t),
         (lambda: ckzg.compute_cells_and_kzg_proofs(blob, cts)) if ckzg else None),
        ("recover_cells_and_kzg_proofs (half missing)",
         lambda t: E.recover_cells_and_kzg_proofs(half, [cells[i] for i in half], ts, threads=t),
         (lambda: ckzg.recover_cells_and_kzg_proofs(half, [cells[i] for i in half], cts)) if ckzg else None),
        ("verify_cell_kzg_proof_batch (128 cells)",
         lambda t: E.verify_cell_kzg_proof_batch([c] * 128, all_idx, cells, cell_proofs, ts, threads=t),
         (lambda: ckzg.verify_cell_kzg_proof_batch([c] * 128, all_idx, cells, cell_proofs, cts)) if ckzg else None),
    ]
    for name, ours, peer in ops:
        row(name, ours, peer)
    for name, ours, peer in slow_ops:
        row(name, ours, peer, 3, 0.3)
    Fr = bls12_381.Fr
    for logn in (16, 20):
        data = b"".join(rng.randrange(r).to_bytes(32, "big") for _ in range(1 << logn))
        row(f"BLS12-381 Fr.fft_bytes 2^{logn}", lambda t, data=data: Fr.fft_bytes(data, threads=t), None, 2, 0.05)
    import importlib

    for pkg in CURVES:
        C = importlib.import_module(f"generated.{pkg}")
        n = 1 << args.commit_log
        setup = timing_setup(C, n, rng)  # valid points, not powers of tau: for timing only
        coeffs = [rng.randrange(C.R) for _ in range(n)]

        def commit(t: int | None, C: object = C, setup: object = setup, coeffs: list[int] = coeffs) -> object:
            return C.kzg.commit(setup, coeffs, threads=t)

        label = f"{C.NAME} kzg.commit, degree 2^{args.commit_log} - 1"
        # single calls past 2^16 (seconds each; BW6-761's 2^20 takes about a minute on one thread)
        if n >= 1 << 16:
            row(label, commit, None, 1, 0)
        else:
            row(label, commit, None, 2, 0.05)
        del setup, coeffs, commit
    print("| operation | ours, 1 thread | ours, threaded | ckzg (1 thread) | ours 1 thread / ckzg | same, CPU time |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, one, many, peer in rows:
        ratio = f"{one[0] / peer[0]:.2f}x" if peer else "-"
        cpu = f"{one[1] / peer[1]:.2f}x" if peer else "-"
        print(f"| {name} | {fmt(one[0])} | {fmt(many[0])} | {fmt(peer[0]) if peer else '-'} | {ratio} | {cpu} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
