# SPDX-License-Identifier: MIT OR Apache-2.0
"""Scaling out with Dask: an MSM, a KZG commitment and a BLS batch verification spread over the
workers of a LocalCluster (two single-thread worker processes here), each equal to the local call.

Run from the repository root: python docs/examples/dask_cluster.py
Needs: dask[distributed] (the distributed extra). On a real cluster, replace the LocalCluster by
Client("tcp://scheduler:8786"); every worker must be able to import generated.bls12_381.
"""

import os
import random
from pathlib import Path

from distributed import Client, LocalCluster

from generated.bls12_381 import G1, G2, R, bls, kzg
from generated.bls12_381 import distributed as D

ROOT = Path(__file__).resolve().parents[2]

if __name__ == "__main__":  # the worker processes import this file: start the cluster here only
    # The workers are new Python processes: they find the checkout on PYTHONPATH (an installed
    # pairforge needs nothing).
    env = {"PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, env=env)
    with cluster, Client(cluster) as client:
        # Each call first checks that every worker imports the curve package (else it fails at once,
        # naming the workers and the import error); check_workers does it explicitly.
        D.check_workers(client)

        # --- MSM split by points: each task a Pippenger over its part, then a tree of additions ------
        rng = random.Random(2024)
        points = [G1.generator() * rng.randrange(1, R) for _ in range(512)]
        scalars = [rng.randrange(R) for _ in range(512)]
        local = G1.msm(points, scalars)
        assert D.msm(points, scalars, client=client) == local
        assert D.msm(points, scalars, client=client, chunk=100) == local      # 6 tasks of at most 100 points
        # Packed bytes travel as they are (points back to back; scalars 32 bytes little-endian).
        packed_points = b"".join(P.to_bytes(False) for P in points)
        packed_scalars = b"".join(k.to_bytes(32, "little") for k in scalars)
        assert D.msm(packed_points, packed_scalars, client=client) == local
        q_points = [G2.generator() * rng.randrange(1, R) for _ in range(64)]
        assert D.msm(q_points, scalars[:64], client=client, group="G2") == G2.msm(q_points, scalars[:64])

        # --- A KZG commitment is the same MSM over the setup's powers -----------------------------
        setup = kzg.Setup.insecure_from_tau(0x1234_5678, 256)  # a KNOWN tau: examples and tests only
        coeffs = [rng.randrange(R) for _ in range(256)]
        assert kzg.commit(setup, coeffs, client=client) == kzg.commit(setup, coeffs)

        # --- BLS batch verification split by signatures: one final exponentiation at the end -------
        pop = bls.MinPk.Pop
        sks = [bls.key_gen(bytes([i]) * 32) for i in range(1, 17)]
        pks = [pop.sk_to_pk(sk) for sk in sks]
        msgs = [b"message %d" % i for i in range(16)]
        sigs = [pop.sign(sk, m) for sk, m in zip(sks, msgs, strict=True)]
        assert pop.batch_verify(pks, msgs, sigs, client=client)
        assert not pop.batch_verify(pks, msgs, sigs[1:] + sigs[:1], client=client)  # signatures swapped

    print("Dask: MSM, KZG commitment and BLS batch verification on 2 workers equal the local calls: OK")
