"""Groth16 verification benchmark: generated.<curve>.groth16 beside zksnake's verifier (arkworks).

    python bench/groth16.py                  BN254 (real zksnake proofs) and every other curve
    python bench/groth16.py --curves bn254 --json bench/results/groth16.json

Per curve: verify with a prepared key (the issue's target on BN254: <= 1.5 ms), with a plain key,
from proof bytes, prepare itself, and a batch of 16 proofs against 16 prepared single
verifications.  BN254 and BLS12-381 use proofs from zksnake's prover and also time zksnake's own
`Groth16.verify` on the same proof; the other curves use proofs made with the trapdoor (the
simulator; the verifier does the same work for them).  Each operation is timed in samples of
about 20 ms; the table gives the best sample's wall time and its process CPU time (every
thread of the process: the MSMs may use C threads), which a loaded machine disturbs less, and
the median wall time.  Compare ratios from one run on a shared machine.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import gc  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402

CURVES = ("bn254", "bls12_381", "bls12_377", "bw6_761")
ZKSNAKE_NAMES = {"bn254": "BN254", "bls12_381": "BLS12_381"}
BATCH = 16
SAMPLE_S = 0.02


@dataclass(frozen=True)
class Timing:
    best_wall_ms: float
    best_cpu_ms: float
    median_wall_ms: float
    samples: int

    def as_dict(self) -> dict:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in self.__dict__.items()}


def measure(fn, budget_s: float) -> Timing:
    """Samples of k calls (k chosen so one sample lasts about SAMPLE_S) until budget_s is spent
    (at least 5 samples); per-call wall and process CPU times."""
    fn()
    start = time.perf_counter()
    fn()
    one = max(time.perf_counter() - start, 1e-7)
    k = max(1, int(SAMPLE_S / one))
    walls, cpus = [], []
    gc.disable()
    try:
        end = time.perf_counter() + budget_s
        while len(walls) < 5 or time.perf_counter() < end:
            w0, c0 = time.perf_counter(), time.process_time()
            for _ in range(k):
                fn()
            walls.append((time.perf_counter() - w0) / k * 1e3)
            cpus.append((time.process_time() - c0) / k * 1e3)
    finally:
        gc.enable()
    best = min(range(len(walls)), key=walls.__getitem__)
    return Timing(walls[best], min(cpus), statistics.median(walls), len(walls))


def _zksnake_case(C, curve: str, count: int):
    """(zksnake system, [(zk proof, public witness)], our vk, our proofs, our inputs) or None."""
    try:
        from zksnake.arithmetization import R1CS, ConstraintSystem, Var
        from zksnake.groth16 import Groth16
    except ImportError:
        return None
    x, y, z, v1 = Var("x"), Var("y"), Var("z"), Var("v1")
    cs = ConstraintSystem(["x", "z"], ["y"], C.R)
    cs.add_constraint(v1 == x * x)
    cs.add_constraint(y - 5 - x - z == v1 * x)
    cs.set_public(y)
    cs.set_public(z)
    r1cs = R1CS(cs, curve)
    r1cs.compile()
    system = Groth16(r1cs, curve)
    system.setup()
    raw = []
    for i in range(count):
        public, private = r1cs.generate_witness(r1cs.solve({"x": 3 + i, "z": 7 * i}))
        raw.append((system.prove(public, private), public))

    def g1(P):
        return C.G1.from_affine(P.x, P.y)

    def g2(P):
        return C.G2.from_affine(tuple(P.x), tuple(P.y))

    zvk = system.verifying_key
    vk = C.groth16.VerifyingKey(g1(zvk.alpha_1), g2(zvk.beta_2), g2(zvk.gamma_2), g2(zvk.delta_2),
                                [g1(P) for P in zvk.ic])  # fmt: skip
    proofs = [C.groth16.Proof(g1(p.A), g2(p.B), g1(p.C)) for p, _ in raw]
    return system, raw, vk, proofs, [pub[1:] for _, pub in raw]


def _simulated_case(C, count: int):
    """A key with two public inputs and proofs made with the trapdoor (they verify like real ones)."""
    g, r = C.groth16, C.R
    G1, G2 = C.G1.generator(), C.G2.generator()
    alpha, beta, gamma, delta, ks = 0x1234567, 0x7654321, 0x1111111, 0x2222223, (17, 19, 23)
    vk = g.VerifyingKey(G1 * alpha, G2 * beta, G2 * gamma, G2 * delta, [G1 * k for k in ks])
    proofs, inputs = [], []
    for i in range(count):
        xs = [(0x9E3779B97F4A7C15 * (i + 1)) ** 3 % r, 1000 + i]
        a, b = 0xABCDEF * (i + 1), 0xFEDCBA + i
        vk_x = (ks[0] + ks[1] * xs[0] + ks[2] * xs[1]) % r
        c = (a * b - alpha * beta - gamma * vk_x) * pow(delta, -1, r) % r
        proofs.append(g.Proof(G1 * a, G2 * b, G1 * c))
        inputs.append(xs)
    return vk, proofs, inputs


def bench_curve(pkg: str, target_s: float) -> dict[str, Timing]:
    C = importlib.import_module(f"generated.{pkg}")
    g = C.groth16
    zk = _zksnake_case(C, ZKSNAKE_NAMES[pkg], BATCH) if pkg in ZKSNAKE_NAMES else None
    if zk is not None:
        system, raw, vk, proofs, inputs = zk
    else:
        vk, proofs, inputs = _simulated_case(C, BATCH)
    pvk = g.prepare(vk)
    proof, ins, data = proofs[0], inputs[0], proofs[0].to_bytes()
    assert g.verify(pvk, proof, ins) and g.batch_verify(pvk, proofs, inputs)
    out = {
        "verify (prepared key)": measure(lambda: g.verify(pvk, proof, ins), target_s),
        "verify (plain key)": measure(lambda: g.verify(vk, proof, ins), target_s),
        "verify from proof bytes (prepared)": measure(lambda: g.verify(pvk, data, ins), target_s),
        "prepare(vk)": measure(lambda: g.prepare(vk), target_s),
        f"batch_verify of {BATCH} (prepared)": measure(lambda: g.batch_verify(pvk, proofs, inputs), target_s),
        f"{BATCH} x verify (prepared)": measure(
            lambda: all(g.verify(pvk, p, x) for p, x in zip(proofs, inputs, strict=True)), target_s
        ),
    }
    if zk is not None:
        zproof, public = raw[0]
        assert system.verify(zproof, public)
        out["zksnake Groth16.verify (arkworks)"] = measure(lambda: system.verify(zproof, public), target_s)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--curves", default=",".join(CURVES))
    parser.add_argument("--seconds", type=float, default=0.5, help="time budget per operation")
    parser.add_argument("--json", type=Path, help="write the numbers here")
    args = parser.parse_args(argv)
    results = {}
    for pkg in args.curves.split(","):
        pkg = pkg.strip().replace("-", "_")
        C = importlib.import_module(f"generated.{pkg}")
        print(f"\n### {C.NAME} ({C.TARGET})\n")
        print("| operation | best wall (ms) | best CPU (ms) | median wall (ms) |\n|---|---:|---:|---:|")
        timings = bench_curve(pkg, args.seconds)
        for name, t in timings.items():
            print(f"| {name} | {t.best_wall_ms:.3f} | {t.best_cpu_ms:.3f} | {t.median_wall_ms:.3f} |")
        results[pkg] = {name: t.as_dict() for name, t in timings.items()}
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
