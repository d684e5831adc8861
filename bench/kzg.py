"""KZG and EIP-4844 in one process: ours beside ckzg (c-kzg-4844 over blst), and our FFTs.

    python bench/kzg.py [--batch 64] [--commit-log 12]

Rows: blob_to_kzg_commitment, compute_blob_kzg_proof, verify_blob_kzg_proof and
verify_blob_kzg_proof_batch (--batch blobs), compute_cells_and_kzg_proofs,
recover_cells_and_kzg_proofs (half of the cells missing) and verify_cell_kzg_proof_batch (128
cells) with mainnet's trusted setup, ours on one thread and
threaded (every core) beside ckzg (one thread: its binding has no thread option); Fr.fft_bytes of
size 2^16 and 2^20 on BLS12-381; and a KZG commitment (an MSM of 2^commit-log powers) on each
curve with a test setup.  Each operation runs in batches of about 0.2 s; the fastest batch
counts (best of 3: on a shared machine the least disturbed run is the closest to the true cost).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
VECTORS = Path(os.environ.get("PAIRFORGE_VECTORS") or REPO_ROOT.parent / "shared" / "vectors")
SETUP = VECTORS / "eip4844_kzg" / "trusted_setup.txt"
CURVES = ("bls12_381", "bn254", "bls12_377", "bw6_761")


def fastest(fn: Callable[[], object], batches: int = 3, batch_s: float = 0.2) -> float:
    """Seconds per call: the fastest of `batches` batches of about batch_s each."""
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    calls = max(1, int(batch_s / max(once, 1e-7)))
    best = float("inf")
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:9.2f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--commit-log", type=int, default=12)
    ap.add_argument("--setup", type=Path, default=SETUP)
    args = ap.parse_args()
    sys.path.insert(0, str(REPO_ROOT))
    from generated import bls12_381

    E = bls12_381.eip4844
    rng = random.Random(1)
    r = bls12_381.R
    ts = E.load_trusted_setup(str(args.setup))
    blobs = [b"".join(rng.randrange(r).to_bytes(32, "big") for _ in range(E.FIELD_ELEMENTS_PER_BLOB))
             for _ in range(args.batch)]
    commitments = [E.blob_to_kzg_commitment(b, ts) for b in blobs]
    proofs = [E.compute_blob_kzg_proof(b, c, ts) for b, c in zip(blobs, commitments)]
    blob, c, p = blobs[0], commitments[0], proofs[0]
    rows: list[tuple[str, float, float, float | None]] = []
    try:
        import ckzg

        cts = ckzg.load_trusted_setup(str(args.setup), 0)
    except ImportError:
        ckzg = None
    ops = [
        ("blob_to_kzg_commitment", lambda t: E.blob_to_kzg_commitment(blob, ts, threads=t),
         (lambda: ckzg.blob_to_kzg_commitment(blob, cts)) if ckzg else None),
        ("compute_blob_kzg_proof", lambda t: E.compute_blob_kzg_proof(blob, c, ts, threads=t),
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
        ("recover_cells_and_kzg_proofs (half missing)",
         lambda t: E.recover_cells_and_kzg_proofs(half, [cells[i] for i in half], ts, threads=t),
         (lambda: ckzg.recover_cells_and_kzg_proofs(half, [cells[i] for i in half], cts)) if ckzg else None),
        ("verify_cell_kzg_proof_batch (128 cells)",
         lambda t: E.verify_cell_kzg_proof_batch([c] * 128, all_idx, cells, cell_proofs, ts, threads=t),
         (lambda: ckzg.verify_cell_kzg_proof_batch([c] * 128, all_idx, cells, cell_proofs, cts)) if ckzg else None),
    ]
    for name, ours, peer in ops:
        one = fastest(lambda: ours(1))
        many = fastest(lambda: ours(None))
        rows.append((name, one, many, fastest(peer) if peer else None))
    for name, ours, peer in slow_ops:  # seconds per call here: one batch of one call each
        one = fastest(lambda: ours(1), 1, 0)
        many = fastest(lambda: ours(None), 1, 0)
        rows.append((name, one, many, fastest(peer, 2, 0.2) if peer else None))
    Fr = bls12_381.Fr
    for logn in (16, 20):
        data = b"".join(rng.randrange(r).to_bytes(32, "big") for _ in range(1 << logn))
        rows.append((f"BLS12-381 Fr.fft_bytes 2^{logn}", fastest(lambda: Fr.fft_bytes(data, threads=1), 2, 0.05),
                     fastest(lambda: Fr.fft_bytes(data), 2, 0.05), None))
    import importlib

    for pkg in CURVES:
        C = importlib.import_module(f"generated.{pkg}")
        n = 1 << args.commit_log
        # a test setup: the MSM cost does not depend on tau (insecure_from_tau is for tests only)
        setup = C.kzg.Setup.insecure_from_tau(rng.randrange(2, C.R), n, lagrange=False)
        coeffs = [rng.randrange(C.R) for _ in range(n)]
        rows.append((f"{C.NAME} kzg.commit 2^{args.commit_log}", fastest(lambda: C.kzg.commit(setup, coeffs, threads=1), 2, 0.05),
                     fastest(lambda: C.kzg.commit(setup, coeffs), 2, 0.05), None))
    print("| operation | ours, 1 thread | ours, threaded | ckzg (1 thread) | ours 1 thread / ckzg |")
    print("|---|---:|---:|---:|---:|")
    for name, one, many, peer in rows:
        ratio = f"{one / peer:.2f}x" if peer else "-"
        print(f"| {name} | {fmt(one)} | {fmt(many)} | {fmt(peer) if peer else '-'} | {ratio} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
