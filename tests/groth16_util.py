"""The Groth16 test circuit (public y, z; private x; x^3 + x + 5 + z == y) and a TEST-ONLY prover
for it over any curve module, with the checks of a verifier on one key and three proofs: used by
tests/protocols/test_groth16.py (on the shipped curves, beside zksnake's independent proofs),
tests/protocols/test_bls24_protocols.py (BLS24 and BW6-633, where there is no independent prover)
and the wasm tests (proofs for the WebAssembly ABI). The prover's proofs are a round-trip test of
the verifier, not independent vectors: on BN254 zksnake's verifier accepts them
(test_groth16.py), which shows the prover is real Groth16."""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import ModuleType

import pytest

# ------------------------------------------------------------------------------------------------
# The circuit of every test: public y, z; private x;  x^3 + x + 5 + z == y.
#   witness w = [1, y, z, x, v1, v2];  v1 = x * x;  v2 = v1 * x;  (v2 + x + 5 + z) * 1 = y


def _witness(x: int, z: int, r: int) -> list[int]:
    v1 = x * x % r
    v2 = v1 * x % r
    return [1, (v2 + x + 5 + z) % r, z % r, x % r, v1, v2]


# R1CS rows (A, B, C), each a dict {witness index: coefficient}.
R1CS_ROWS = [
    ({3: 1}, {3: 1}, {4: 1}),
    ({4: 1}, {3: 1}, {5: 1}),
    ({5: 1, 3: 1, 0: 5, 2: 1}, {0: 1}, {1: 1}),
]
N_PUBLIC = 2  # y, z (w[0] = 1 is ic[0])


# ------------------------------------------------------------------------------------------------
# A TEST-ONLY Groth16 prover over any curve module (Groth 2016, section 3.2)


def _poly_mul(a: list[int], b: list[int], r: int) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] = (out[i + j] + x * y) % r
    return out


def _poly_divmod(num: list[int], den: list[int], r: int) -> tuple[list[int], list[int]]:
    num = list(num)
    inv = pow(den[-1], -1, r)
    q = [0] * max(len(num) - len(den) + 1, 1)
    for k in range(len(num) - len(den), -1, -1):
        c = num[k + len(den) - 1] * inv % r
        q[k] = c
        for j, d in enumerate(den):
            num[k + j] = (num[k + j] - c * d) % r
    return q, num[: len(den) - 1]


def _interpolate(values: list[int], r: int) -> list[int]:
    """Coefficients of the polynomial of degree < n taking values[k] at X = k + 1."""
    n = len(values)
    out = [0] * n
    for k, v in enumerate(values):
        if v == 0:
            continue
        basis, denom = [1], 1
        for j in range(n):
            if j != k:
                basis = _poly_mul(basis, [-(j + 1) % r, 1], r)
                denom = denom * (k - j) % r
        scale = v * pow(denom, -1, r) % r
        out = [(o + scale * b) % r for o, b in zip(out, basis, strict=True)]
    return out


@dataclass
class TestProver:
    """Groth16 setup and prover for R1CS_ROWS on curve module C (TEST ONLY: toxic waste from a
    seeded RNG).  The prover uses only the proving key (queries in G1/G2), never the waste."""

    __test__ = False  # not a pytest class

    C: ModuleType
    seed: int

    def __post_init__(self) -> None:
        C, r = self.C, self.C.R
        rng = random.Random(self.seed)
        tau, alpha, beta, gamma, delta = (rng.randrange(1, r) for _ in range(5))
        G1, G2 = C.G1.generator(), C.G2.generator()
        n, m = len(R1CS_ROWS), 6
        self.u = [_interpolate([row[0].get(i, 0) for row in R1CS_ROWS], r) for i in range(m)]
        self.v = [_interpolate([row[1].get(i, 0) for row in R1CS_ROWS], r) for i in range(m)]
        self.w = [_interpolate([row[2].get(i, 0) for row in R1CS_ROWS], r) for i in range(m)]
        self.t = [1]
        for k in range(1, n + 1):
            self.t = _poly_mul(self.t, [-k % r, 1], r)

        def ev(p: list[int], x: int) -> int:
            return sum(c * pow(x, i, r) for i, c in enumerate(p)) % r

        ui, vi, wi = ([ev(p, tau) for p in ps] for ps in (self.u, self.v, self.w))
        k_i = [(beta * ui[i] + alpha * vi[i] + wi[i]) % r for i in range(m)]
        g_inv, d_inv, t_tau = pow(gamma, -1, r), pow(delta, -1, r), ev(self.t, tau)
        self.vk = C.groth16.VerifyingKey(
            G1 * alpha, G2 * beta, G2 * gamma, G2 * delta, [G1 * (k * g_inv % r) for k in k_i[: N_PUBLIC + 1]]
        )
        # the proving key
        self.alpha1, self.beta1, self.beta2 = G1 * alpha, G1 * beta, G2 * beta
        self.delta1, self.delta2 = G1 * delta, G2 * delta
        self.a_query = [G1 * x for x in ui]
        self.b1_query = [G1 * x for x in vi]
        self.b2_query = [G2 * x for x in vi]
        self.l_query = [G1 * (k * d_inv % r) for k in k_i[N_PUBLIC + 1 :]]
        self.h_query = [G1 * (pow(tau, k, r) * t_tau * d_inv % r) for k in range(n - 1)]
        self.rng = rng

    def prove(self, x: int, z: int) -> tuple[object, list[int]]:
        """(Proof, public inputs [y, z]) for the witness x, z."""
        C, r = self.C, self.C.R
        w = _witness(x, z, r)
        rr, ss = self.rng.randrange(r), self.rng.randrange(r)

        def comb(polys: list[list[int]]) -> list[int]:
            out = [0] * len(polys[0])
            for wi, p in zip(w, polys, strict=True):
                out = [(o + wi * c) % r for o, c in zip(out, p, strict=True)]
            return out

        quotient, rem = _poly_divmod(
            [(a - b) % r for a, b in zip(_poly_mul(comb(self.u), comb(self.v), r), comb(self.w) + [0] * 2, strict=True)],
            self.t, r,
        )
        assert not any(rem), "the witness does not satisfy the R1CS"
        A = self.alpha1 + C.G1.msm(self.a_query, w) + self.delta1 * rr
        B2 = self.beta2 + C.G2.msm(self.b2_query, w) + self.delta2 * ss
        B1 = self.beta1 + C.G1.msm(self.b1_query, w) + self.delta1 * ss
        Cc = (C.G1.msm(self.l_query, w[N_PUBLIC + 1 :]) + C.G1.msm(self.h_query, quotient[: len(self.h_query)])
              + A * ss + B1 * rr - self.delta1 * (rr * ss % r))
        return C.groth16.Proof(A, B2, Cc), w[1 : N_PUBLIC + 1]


# ------------------------------------------------------------------------------------------------
# One case per (curve, prover): a key, three valid proofs, and a second, unrelated key

# The witnesses (x, z) of the three proofs of a case
WITNESSES = [(3, 7), (11, 0), (2**200 + 5, 123456789)]


@dataclass
class Case:
    """A verifying key, its proofs with their public inputs, and an unrelated key."""

    C: ModuleType
    vk: object
    proofs: list
    inputs: list[list[int]]
    other_vk: object
    zk: object | None = None  # test_groth16's ZkSnakeCase, where the proofs are zksnake's
    zk_raw: list | None = None  # zksnake's (proof, public witness) per proof


def prover_case(C: ModuleType) -> Case:
    """The test-only prover's case on curve module C: three proofs under one key, another key."""
    prover, other = TestProver(C, 1), TestProver(C, 2)
    made = [prover.prove(x, z) for x, z in WITNESSES]
    return Case(C, prover.vk, [p for p, _ in made], [ins for _, ins in made], other.vk)


def check_valid_proofs_verify(case: Case) -> None:
    g = case.C.groth16
    pvk = g.prepare(case.vk)
    assert g.prepare(pvk) is pvk
    for proof, ins in zip(case.proofs, case.inputs, strict=True):
        assert g.verify(case.vk, proof, ins) is True
        assert g.verify(pvk, proof, ins) is True
        assert g.verify(pvk, proof, [case.C.Fr(x) for x in ins]) is True
        assert g.verify(pvk, proof.to_bytes(), ins) is True
    if case.zk is not None:  # zksnake agrees on its own proofs
        assert all(case.zk.system.verify(p, pub) for p, pub in case.zk_raw)


def check_tampered_proofs_fail(case: Case) -> None:
    C, g = case.C, case.C.groth16
    pvk = g.prepare(case.vk)
    proof, ins = case.proofs[0], case.inputs[0]
    G1, G2 = C.G1.generator(), C.G2.generator()
    tampered = [
        g.Proof(proof.a + G1, proof.b, proof.c),
        g.Proof(proof.a, proof.b + G2, proof.c),
        g.Proof(proof.a, proof.b, proof.c + G1),
        g.Proof(proof.a, proof.b, proof.c.double()),
        g.Proof(-proof.a, proof.b, proof.c),
        g.Proof(proof.c, proof.b, proof.a),
        case.proofs[1],  # a valid proof of other inputs
    ]
    for bad in tampered:
        assert g.verify(pvk, bad, ins) is False
        assert g.verify(case.vk, bad, ins) is False
    y, z = ins
    for bad_ins in ([y + 1, z], [y, (z + 1) % C.R], [z, y], [0, 0], [C.R - 1, z]):
        assert g.verify(pvk, proof, bad_ins) is False
        assert g.verify(case.vk, proof, bad_ins) is False
    assert g.verify(case.other_vk, proof, ins) is False
    assert g.verify(g.prepare(case.other_vk), proof, ins) is False
    # a key differing from the right one in one point
    vk = case.vk
    for bad_vk in (
        g.VerifyingKey(vk.alpha_g1 + G1, vk.beta_g2, vk.gamma_g2, vk.delta_g2, vk.ic),
        g.VerifyingKey(vk.alpha_g1, vk.beta_g2, vk.gamma_g2 + G2, vk.delta_g2, vk.ic),
        g.VerifyingKey(vk.alpha_g1, vk.beta_g2, vk.gamma_g2, vk.delta_g2 + G2, vk.ic),
        g.VerifyingKey(vk.alpha_g1, vk.beta_g2, vk.gamma_g2, vk.delta_g2, [vk.ic[0], vk.ic[2], vk.ic[1]]),
    ):
        assert g.verify(bad_vk, proof, ins) is False


def check_points_outside_the_subgroup(case: Case) -> None:
    """A proof point on the curve but outside the subgroup: verify says False, from_bytes refuses."""
    C, g = case.C, case.C.groth16
    proof, ins = case.proofs[0], case.inputs[0]
    for name, G in (("a", C.G1), ("b", C.G2)):
        if C.H1 == 1 and G is C.G1:
            continue  # every point of the curve is in the subgroup
        template = G.generator().to_bytes(True)
        bad = None
        for i in range(1, 200):
            data = bytearray(template)
            data[1:] = i.to_bytes(len(template), "big")[1:]
            try:
                P = G.from_bytes(bytes(data), check=False)
            except ValueError:
                continue
            if not P.in_subgroup():
                bad = P
                break
        assert bad is not None
        fields = {"a": proof.a, "b": proof.b, "c": proof.c, name: bad}
        bad_proof = g.Proof(**fields)
        assert g.verify(case.vk, bad_proof, ins) is False
        assert g.batch_verify(case.vk, [proof, bad_proof], [ins, ins]) is False
        with pytest.raises(ValueError):
            g.Proof.from_bytes(bad_proof.to_bytes())
        assert g.verify(case.vk, bad_proof.to_bytes(), ins) is False
        if G is C.G1:
            with pytest.raises(ValueError, match="subgroup"):
                g.VerifyingKey(bad, case.vk.beta_g2, case.vk.gamma_g2, case.vk.delta_g2, case.vk.ic)
        else:
            with pytest.raises(ValueError, match="subgroup"):
                g.VerifyingKey(case.vk.alpha_g1, case.vk.beta_g2, bad, case.vk.delta_g2, case.vk.ic)


def check_public_inputs(case: Case) -> None:
    C, g = case.C, case.C.groth16
    proof, (y, z) = case.proofs[0], case.inputs[0]
    for bad in ([y], [y, z, 0], []):
        with pytest.raises(ValueError, match="public inputs"):
            g.verify(case.vk, proof, bad)
    # not reduced: y + r would be the same field element, and is refused
    for bad in ([y + C.R, z], [y, -1], [y, C.R]):
        with pytest.raises(ValueError, match=r"\[0, r\)"):
            g.verify(case.vk, proof, bad)
    for bad in ([str(y), z], [y, 1.0], [True, z]):
        with pytest.raises(TypeError):
            g.verify(case.vk, proof, bad)
    with pytest.raises(TypeError):
        g.verify(case.vk, proof, b"\x01\x02")
    with pytest.raises(TypeError):
        g.verify(proof, proof, [y, z])


def check_batch_verify(case: Case) -> None:
    g = case.C.groth16
    pvk = g.prepare(case.vk)
    proofs, inputs = case.proofs, case.inputs
    for vk in (case.vk, pvk):
        assert g.batch_verify(vk, proofs, inputs) is True
        assert g.batch_verify(vk, proofs[:1], inputs[:1]) is True
        assert g.batch_verify(vk, [p.to_bytes() for p in proofs], inputs) is True
    assert g.batch_verify(pvk, [], []) is True
    # any one invalid proof (or wrong input) sinks the batch, wherever it is
    G1 = case.C.G1.generator()
    for j in range(len(proofs)):
        p = proofs[j]
        bad_proofs = list(proofs)
        bad_proofs[j] = g.Proof(p.a, p.b, p.c + G1)
        assert g.batch_verify(pvk, bad_proofs, inputs) is False
        bad_inputs = [list(x) for x in inputs]
        bad_inputs[j][1] = (bad_inputs[j][1] + 1) % case.C.R
        assert g.batch_verify(pvk, proofs, bad_inputs) is False
        swapped = list(inputs)
        swapped[j], swapped[(j + 1) % len(inputs)] = swapped[(j + 1) % len(inputs)], swapped[j]
        assert g.batch_verify(pvk, proofs, swapped) is False
        undecodable = [p.to_bytes() for p in proofs]
        undecodable[j] = undecodable[j][:-1]
        assert g.batch_verify(pvk, undecodable, inputs) is False
    # two invalid proofs whose errors cancel in a plain sum: the random coefficients catch it
    d = G1 * 12345
    p0, p1 = proofs[0], proofs[1]
    cancelling = [g.Proof(p0.a, p0.b, p0.c + d), g.Proof(p1.a, p1.b, p1.c - d), proofs[2]]
    assert g.batch_verify(pvk, cancelling, inputs) is False
    assert g.batch_verify(pvk, [proofs[0], proofs[0]], [inputs[0], inputs[0]]) is True
    with pytest.raises(ValueError, match="lists of public inputs"):
        g.batch_verify(pvk, proofs, inputs[:2])
    with pytest.raises(ValueError, match="public inputs"):
        g.batch_verify(pvk, proofs, [inputs[0], inputs[1], inputs[2][:1]])


def check_bytes_round_trip_every_profile(case: Case) -> None:
    C, g = case.C, case.C.groth16
    vk, proof = case.vk, case.proofs[0]
    for profile in (None, *C.SERIALIZATION_PROFILES):
        for compressed in (True, False):
            try:
                vk_bytes = vk.to_bytes(compressed, profile)
            except ValueError:  # the EVM profiles have no compressed form
                assert compressed and profile in ("eip197", "eip2537")
                continue
            p_bytes = proof.to_bytes(compressed, profile)
            assert g.VerifyingKey.from_bytes(vk_bytes, profile=profile) == vk
            assert g.VerifyingKey.from_bytes(vk_bytes, compressed, profile) == vk
            assert g.Proof.from_bytes(p_bytes, profile=profile) == proof
            assert g.Proof.from_bytes(p_bytes, compressed, profile) == proof
            with pytest.raises(ValueError):
                g.Proof.from_bytes(p_bytes[:-1], profile=profile)
            with pytest.raises(ValueError):
                g.VerifyingKey.from_bytes(vk_bytes + b"\x00", profile=profile)
    assert vk.to_bytes() == vk.to_bytes(True, C.DEFAULT_PROFILE)
    # the ic count must match the length exactly
    data = bytearray(vk.to_bytes())
    n1, n2 = len(C.G1.generator().to_bytes()), len(C.G2.generator().to_bytes())
    data[n1 + 3 * n2] += 1
    with pytest.raises(ValueError, match="ic points"):
        g.VerifyingKey.from_bytes(bytes(data))
    with pytest.raises(TypeError):
        g.Proof.from_bytes("00" * 10)
    import pickle

    assert pickle.loads(pickle.dumps(vk)) == vk and pickle.loads(pickle.dumps(proof)) == proof
    assert pickle.loads(pickle.dumps(g.prepare(vk))).alpha_beta == g.prepare(vk).alpha_beta
    assert hash(g.Proof.from_bytes(proof.to_bytes())) == hash(proof)


def check_snarkjs_refused(C: ModuleType) -> None:
    """A curve snarkjs does not know (ffjavascript's getCurveFromQ): its JSON is refused both ways."""
    g = C.groth16
    assert g.SNARKJS_CURVE is None
    with pytest.raises(ValueError, match="snarkjs has no form"):
        g.from_snarkjs({})
    G1, G2 = C.G1.generator(), C.G2.generator()
    with pytest.raises(ValueError, match="snarkjs has no form"):
        g.to_snarkjs(g.VerifyingKey(G1, G2, G2, G2, [G1]))
