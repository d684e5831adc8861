"""The GIL-releasing operations give the same results from 8 threads at once as from one
(no mutable global state in the generated C; tests/targets/test_global_state.py audits the C itself).

Every operation that releases the GIL is in GIL_RELEASING, one line each: pairing, multi-pairing,
pairing_check, miller_loop + final_exponentiation, MSM in G1 and G2, constant-time scalar
multiplication in G1, G2 and GT, subgroup checks.  Batch verification and other protocols join
the table as they appear.  The threads run *different* inputs at the same time, so shared
scratch state would mix them up.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType

import pytest
from conftest import STANDARD_CURVES

THREADS = 8


def _inputs(C: ModuleType, i: int):
    """Inputs of thread i: P, Q, G1 points, G2 points, scalars (different for every i)."""
    G1, G2 = C.G1.generator(), C.G2.generator()
    P, Q = G1 * (3 + i), G2 * (5 + 2 * i)
    pts1 = [P * (j + 1) for j in range(6)]
    pts2 = [Q * (j + 1) for j in range(4)]
    ks = [(0x9E3779B97F4A7C15 * (i + 1) * (j + 3)) % C.R for j in range(6)]
    return P, Q, pts1, pts2, ks, C.pairing(G1, G2)


def _evm_precompiles(C: ModuleType, x: tuple) -> tuple:
    """The MSM and pairing-check precompiles of every EVM protocol module of the package (their
    point decoding, subgroup checks, MSM and pairing release the GIL) on one thread's inputs."""
    import importlib

    out = []
    for proto in C.PROTOCOL_MODULES:
        mod = importlib.import_module(f"{C.__name__}.{proto}")
        if not hasattr(mod, "PRECOMPILES"):
            continue
        prof = mod.PROFILE

        def enc(P, prof=prof) -> bytes:
            return P.to_bytes(False, prof)

        for address, pc in mod.PRECOMPILES.items():
            if pc.op == "msm":
                pts = x[2] if pc.group == 1 else x[3]
                out.append(mod.run(address, b"".join(enc(P) + k.to_bytes(mod.SCALAR_BYTES, "big") for P, k in zip(pts, x[4][: len(pts)], strict=True)))[0])
            elif pc.op == "pairing":
                out.append(mod.run(address, enc(x[0]) + enc(x[1]) + enc(-x[0]) + enc(x[1]) + enc(x[2][1]) + enc(x[1]))[0])
    return tuple(out)


# name -> work(C, inputs of one thread) returning bytes or bools that must not depend on what other threads do
GIL_RELEASING: dict[str, Callable[[ModuleType, tuple], object]] = {
    "pairing": lambda C, x: C.pairing(*x[:2]).to_bytes(),
    "multi_pairing": lambda C, x: C.multi_pairing(x[2][:3], [x[1]] * 3).to_bytes(),
    "pairing_check": lambda C, x: C.pairing_check([x[0], -x[0]], [x[1]] * 2),
    "miller_final": lambda C, x: C.final_exponentiation(C.miller_loop(*x[:2])).to_bytes(),
    "g1_msm": lambda C, x: C.G1.msm(x[2], x[4]).to_bytes(),
    "g2_msm": lambda C, x: C.G2.msm(x[3], x[4][:4]).to_bytes(),
    "g1_mul": lambda C, x: (x[0] * x[4][0]).to_bytes(),
    "g2_mul": lambda C, x: (x[1] * x[4][1]).to_bytes(),
    "gt_pow": lambda C, x: (x[5] ** x[4][2]).to_bytes(),
    "in_subgroup": lambda C, x: (x[0].in_subgroup(), x[1].in_subgroup()),
    "evm_precompiles": _evm_precompiles,
}


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_pairings_and_msm_from_eight_threads(curve_module, pkg) -> None:
    C = curve_module(pkg)
    G1, G2 = C.G1.generator(), C.G2.generator()
    jobs = [(G1 * (3 + i), G2 * (5 + 2 * i), [G1 * (i + 1), G1 * (i + 7)], [11 + i, 13 * i + 1]) for i in range(8)]

    def work(job):
        P, Q, points, scalars = job
        return (C.pairing(P, Q).to_bytes(), C.multi_pairing([P, -P], [Q, Q]).is_one(),
                C.G1.msm(points, scalars).to_bytes(), (Q * 12345).to_bytes())

    expected = [work(job) for job in jobs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(2):
            assert list(pool.map(work, jobs)) == expected
    assert all(multi for _, multi, _, _ in expected)


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_every_gil_releasing_operation_mixed_across_threads(curve_module, pkg) -> None:
    """All operations of GIL_RELEASING at once, interleaved over 8 threads, against one thread."""
    C = curve_module(pkg)
    inputs = [_inputs(C, i) for i in range(THREADS)]
    jobs = [(name, i) for i in range(THREADS) for name in GIL_RELEASING]
    expected = [GIL_RELEASING[name](C, inputs[i]) for name, i in jobs]
    # a different order per round, so each operation overlaps different neighbours
    for shift in (0, 3):
        order = jobs[shift:] + jobs[:shift]
        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            got = dict(zip(order, pool.map(lambda job: GIL_RELEASING[job[0]](C, inputs[job[1]]), order), strict=True))
        assert [got[job] for job in jobs] == expected
    assert all(ok for (name, _), ok in zip(jobs, expected, strict=True) if name == "pairing_check")


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_bls_batch_verify_from_eight_threads(curve_module, pkg) -> None:
    """BLS batch verification (pairing check and MSM without the GIL) from 8 threads: thread i
    checks its own batch of 16, valid for even i and with one wrong signature for odd i, each
    batch itself on 2 threads (its decoding, hashing and Miller loops in two parts)."""
    C = curve_module(pkg)
    if "bls_signatures" not in C.PROTOCOLS:
        pytest.skip(f"{pkg} does not carry bls_signatures")
    jobs = []
    for variant in (C.bls.MinPk, C.bls.MinSig):
        s = variant.Pop
        for i in range(THREADS):
            sks = [s.key_gen(bytes([i, j]) * 16) for j in range(16)]
            msgs = [b"thread %d message %d" % (i, j) for j in range(16)]
            sigs = [s.sign(sk, m) for sk, m in zip(sks, msgs, strict=True)]
            if i % 2:
                sigs[3 * i % 16] = s.sign(sks[3 * i % 16], b"forged")
            jobs.append((s, [s.sk_to_pk(sk) for sk in sks], msgs, sigs, i % 2 == 0))
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for _ in range(2):
            got = list(pool.map(lambda job: job[0].batch_verify(*job[1:4], threads=2), jobs))
            assert got == [job[4] for job in jobs]


def _groth16_batches(C: ModuleType) -> list[tuple[object, list, list]]:
    """Per thread: (prepared key, proofs, public inputs); a key of the trapdoor (alpha, beta,
    gamma, delta known) and proofs made by the simulator C = (ab - alpha beta - gamma vk_x)/delta,
    which verify like real ones.  Every odd thread's batch holds one proof with a wrong C."""
    g, r = C.groth16, C.R
    G1, G2 = C.G1.generator(), C.G2.generator()
    alpha, beta, gamma, delta, ks = 5, 7, 11, 13, (17, 19, 23)
    pvk = g.prepare(g.VerifyingKey(G1 * alpha, G2 * beta, G2 * gamma, G2 * delta, [G1 * k for k in ks]))
    out = []
    for i in range(THREADS):
        proofs, inputs = [], []
        for j in range(4):
            xs = [(0x9E3779B97F4A7C15 * (i + 1) * (j + 2)) % r, 1000 * i + j]
            a, b = 37 + i + j, 41 + 3 * j
            vk_x = (ks[0] + ks[1] * xs[0] + ks[2] * xs[1]) % r
            c = (a * b - alpha * beta - gamma * vk_x) * pow(delta, -1, r) % r
            c += 1 if (i % 2 and j == i % 4) else 0
            proofs.append(g.Proof(G1 * a, G2 * b, G1 * c))
            inputs.append(xs)
        out.append((pvk, proofs, inputs))
    return out


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_groth16_batch_verify_from_eight_threads(curve_module, pkg) -> None:
    """groth16.batch_verify (MSMs and a multi-pairing, GIL released) from 8 threads at once."""
    C = curve_module(pkg)
    assert "groth16" in C.PROTOCOLS
    batches = _groth16_batches(C)
    expected = [C.groth16.batch_verify(*batch) for batch in batches]
    assert expected == [i % 2 == 0 for i in range(THREADS)]
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for _ in range(2):
            assert list(pool.map(lambda batch: C.groth16.batch_verify(*batch), batches)) == expected
