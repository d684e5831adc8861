"""Groth16 verification (generated.<curve>.groth16) on real proofs.

Where the proofs come from:
  * BN254 and BLS12-381: zksnake (PyPI; its setup and prover run on arkworks), an independent
    implementation.  Its points reach our module through affine coordinates and, separately,
    through its own byte encoding (arkworks' compressed CanonicalSerialize), which must decode to
    the same objects with profile="arkworks" and be re-encoded byte for byte.
  * BLS12-377 and BW6-761 have no independent Groth16 prover installable here: `TestProver`
    (tests/groth16_util.py) is a TEST-ONLY Groth16 prover (setup with toxic waste from a seeded RNG, QAP over the
    points 1..n, proving from the proving key alone).  Its proofs are a round-trip test of our
    verifier, not an independent vector.  On BN254 the same prover's proofs are also checked by
    zksnake's verifier, which shows the prover is real Groth16.
  * snarkjs JSON (BN254, and BLS12-381 which snarkjs also supports): there is no snarkjs here;
    the JSON files are written by this test in snarkjs's documented layout from zksnake's proof.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from types import ModuleType

import pytest
from conftest import REPO_ROOT, import_optional
from groth16_util import (
    WITNESSES,
    Case,
    TestProver,
    check_batch_verify,
    check_bytes_round_trip_every_profile,
    check_points_outside_the_subgroup,
    check_public_inputs,
    check_snarkjs_refused,
    check_tampered_proofs_fail,
    check_valid_proofs_verify,
    prover_case,
)

ZKSNAKE_CURVES = {"bn254": "BN254", "bls12_381": "BLS12_381"}
# The point encoding of zksnake's bytes: arkworks' generic short-Weierstrass encoding, except on
# BLS12-381, where the ark-bls12-381 crate writes points in the zcash format.
ZKSNAKE_PROFILES = {"bn254": "arkworks", "bls12_381": "zcash"}

# ------------------------------------------------------------------------------------------------
# zksnake


def _zksnake():
    arithmetization = import_optional("zksnake.arithmetization", "in the test extra")
    groth16 = import_optional("zksnake.groth16", "in the test extra")
    return arithmetization.R1CS, arithmetization.ConstraintSystem, arithmetization.Var, groth16.Groth16


@dataclass
class ZkSnakeCase:
    """A zksnake setup of the test circuit, its proofs and their byte encodings."""

    system: object
    r1cs: object

    def prove(self, x: int, z: int) -> tuple[object, list[int], list[int]]:
        """(zksnake proof, its public witness [1, y, z], our public inputs [y, z])."""
        public, private = self.r1cs.generate_witness(self.r1cs.solve({"x": x, "z": z}))
        return self.system.prove(public, private), public, public[1:]


def zksnake_setup(curve: str, C: ModuleType) -> ZkSnakeCase:
    R1CS, ConstraintSystem, Var, Groth16 = _zksnake()
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
    return ZkSnakeCase(system, r1cs)


def zk_g1(C: ModuleType, P) -> object:
    return C.G1.from_affine(P.x, P.y)


def zk_g2(C: ModuleType, P) -> object:
    return C.G2.from_affine(tuple(P.x), tuple(P.y))


def zk_vk(C: ModuleType, vk) -> object:
    return C.groth16.VerifyingKey(zk_g1(C, vk.alpha_1), zk_g2(C, vk.beta_2), zk_g2(C, vk.gamma_2),
                                  zk_g2(C, vk.delta_2), [zk_g1(C, P) for P in vk.ic])  # fmt: skip


def zk_proof(C: ModuleType, proof) -> object:
    return C.groth16.Proof(zk_g1(C, proof.A), zk_g2(C, proof.B), zk_g1(C, proof.C))


# ------------------------------------------------------------------------------------------------
# One case per (curve, prover): a key, three valid proofs, and a second, unrelated key

CASES = ["zksnake-bn254", "zksnake-bls12_381", "testprover-bls12_377", "testprover-bw6_761", "testprover-bn254"]
_cases: dict[str, Case] = {}


def _get_case(name: str, curve_module) -> Case:
    if name not in _cases:
        source, pkg = name.split("-")
        C = curve_module(pkg)
        if source == "zksnake":
            zk, other = zksnake_setup(ZKSNAKE_CURVES[pkg], C), zksnake_setup(ZKSNAKE_CURVES[pkg], C)
            raw = [zk.prove(x, z) for x, z in WITNESSES]
            _cases[name] = Case(C, zk_vk(C, zk.system.verifying_key), [zk_proof(C, p) for p, _, _ in raw],
                                [ins for _, _, ins in raw], zk_vk(C, other.system.verifying_key), zk,
                                [(p, pub) for p, pub, _ in raw])  # fmt: skip
        else:
            _cases[name] = prover_case(C)
    return _cases[name]


@pytest.fixture(scope="module", params=CASES)
def case(request, curve_module) -> Case:
    """Every case: zksnake's proofs and the test-only prover's."""
    return _get_case(request.param, curve_module)


@pytest.fixture(scope="module", params=[c for c in CASES if c.startswith("zksnake-")])
def zk_case(request, curve_module) -> Case:
    """The cases with zksnake's (independent) proofs."""
    return _get_case(request.param, curve_module)


def test_valid_proofs_verify(case: Case) -> None:
    check_valid_proofs_verify(case)


def test_test_prover_proofs_pass_zksnake_verifier(curve_module) -> None:
    """The test-only prover's BN254 proofs verify under zksnake's verifier (through arkworks
    bytes): it is real Groth16, so its round trips on the other curves mean something."""
    C = curve_module("bn254")
    _zksnake()
    from zksnake.ecc import EllipticCurve
    from zksnake.groth16 import Groth16
    from zksnake.groth16 import Proof as ZkProof
    from zksnake.groth16 import VerifyingKey as ZkVerifyingKey

    prover = TestProver(C, 5)
    system = object.__new__(Groth16)  # only the verifier: no R1CS needed
    system.E = EllipticCurve("BN254")
    system.verifying_key = ZkVerifyingKey.from_bytes(prover.vk.to_bytes(profile="arkworks"), "BN254")
    proof, ins = prover.prove(9, 4)
    zproof = ZkProof.from_bytes(proof.to_bytes(profile="arkworks"), "BN254")
    assert system.verify(zproof, [1, *ins])
    assert not system.verify(zproof, [1, ins[0], ins[1] + 1])


def test_tampered_proofs_fail(case: Case) -> None:
    check_tampered_proofs_fail(case)


def test_points_outside_the_subgroup(case: Case) -> None:
    check_points_outside_the_subgroup(case)


def test_public_input_checks(case: Case) -> None:
    check_public_inputs(case)


def test_batch_verify(case: Case) -> None:
    check_batch_verify(case)


def test_bytes_round_trip_every_profile(case: Case) -> None:
    check_bytes_round_trip_every_profile(case)


def test_zksnake_bytes_are_arkworks_layout(zk_case: Case) -> None:
    """zksnake's own encodings (ark-groth16's compressed CanonicalSerialize of keys and proofs)
    decode in the profile of arkworks' point encoding to the objects built from affine
    coordinates, and ours re-encode to the same bytes."""
    case = zk_case
    g = case.C.groth16
    profile = ZKSNAKE_PROFILES[case.C.__name__.rsplit(".", 1)[1]]
    zvk = case.zk.system.verifying_key.to_bytes()
    assert g.VerifyingKey.from_bytes(zvk, profile=profile) == case.vk
    assert case.vk.to_bytes(profile=profile) == zvk
    for (zproof, _), proof in zip(case.zk_raw, case.proofs, strict=True):
        assert g.Proof.from_bytes(bytes(zproof.to_bytes()), profile=profile) == proof
        assert proof.to_bytes(profile=profile) == bytes(zproof.to_bytes())


def test_key_checks(curve_module) -> None:
    C = curve_module("bls12_381")
    g = C.groth16
    G1, G2 = C.G1.generator(), C.G2.generator()
    with pytest.raises(ValueError, match="identity"):
        g.VerifyingKey(G1, G2, C.G2.identity(), G2, [G1])
    with pytest.raises(ValueError, match="identity"):
        g.VerifyingKey(G1, G2, G2, C.G2.identity(), [G1])
    with pytest.raises(ValueError, match="at least one"):
        g.VerifyingKey(G1, G2, G2, G2, [])
    with pytest.raises(TypeError):
        g.VerifyingKey(G1, G1, G2, G2, [G1])
    with pytest.raises(TypeError):
        g.Proof(G1, G1, G1)
    vk = g.VerifyingKey(G1, G2, G2 * 2, G2 * 3, [G1, C.G1.identity()])  # an identity in ic is fine
    assert g.VerifyingKey.from_bytes(vk.to_bytes()) == vk
    with pytest.raises(AttributeError):
        vk.alpha_g1 = G1


# ------------------------------------------------------------------------------------------------
# snarkjs JSON


def _snarkjs_g1(P) -> list[str]:
    return [str(P.x), str(P.y), "1"]


def _snarkjs_g2(P) -> list[list[str]]:
    return [[str(c) for c in P.x], [str(c) for c in P.y], ["1", "0"]]


def _snarkjs_files(case: Case, curve_name: str) -> tuple[dict, dict, list]:
    """verification_key.json, proof.json and public.json of zksnake's first proof, written here in
    snarkjs's layout (snarkjs 0.7 `zkey export verificationkey` / `groth16 prove`)."""
    zvk = case.zk.system.verifying_key
    zproof, public = case.zk_raw[0]
    vk = {
        "protocol": "groth16",
        "curve": curve_name,
        "nPublic": len(zvk.ic) - 1,
        "vk_alpha_1": _snarkjs_g1(zvk.alpha_1),
        "vk_beta_2": _snarkjs_g2(zvk.beta_2),
        "vk_gamma_2": _snarkjs_g2(zvk.gamma_2),
        "vk_delta_2": _snarkjs_g2(zvk.delta_2),
        "vk_alphabeta_12": [],  # snarkjs writes e(alpha, beta) here; its verifier does not read it
        "IC": [_snarkjs_g1(P) for P in zvk.ic],
    }
    proof = {"pi_a": _snarkjs_g1(zproof.A), "pi_b": _snarkjs_g2(zproof.B), "pi_c": _snarkjs_g1(zproof.C),
             "protocol": "groth16", "curve": curve_name}  # fmt: skip
    return vk, proof, [str(x) for x in public[1:]]


SNARKJS_NAMES = {"bn254": "bn128", "bls12_381": "bls12381"}
# Packages whose GT convention is established to be snarkjs's (to_snarkjs writes vk_alphabeta_12)
SNARKJS_GT_AGREES = {"bn254"}


@pytest.mark.parametrize("pkg", ["bls12_377", "bw6_761"])
def test_snarkjs_has_no_such_curve(curve_module, pkg: str) -> None:
    check_snarkjs_refused(curve_module(pkg))


def test_snarkjs_files(zk_case: Case, tmp_path) -> None:
    case = zk_case
    C, g = case.C, case.C.groth16
    pkg = C.__name__.rsplit(".", 1)[1]
    assert g.SNARKJS_CURVE == SNARKJS_NAMES[pkg]
    vk_doc, proof_doc, public_doc = _snarkjs_files(case, SNARKJS_NAMES[pkg])
    paths = []
    for name, doc in (("verification_key", vk_doc), ("proof", proof_doc), ("public", public_doc)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc, indent=1))
        paths.append(path)
    for args in (paths, [str(p) for p in paths], [p.read_text() for p in paths], [p.read_bytes() for p in paths],
                 [vk_doc, proof_doc, public_doc]):  # fmt: skip
        vk, proof, inputs = g.from_snarkjs(*args)
        assert vk == case.vk and proof == case.proofs[0] and inputs == case.inputs[0]
        assert g.verify(vk, proof, inputs)
    vk_only, none_proof, none_inputs = g.from_snarkjs(paths[0])
    assert vk_only == case.vk and none_proof is None and none_inputs is None
    # to_snarkjs writes the same documents (vk_alphabeta_12 aside) and they load back;
    # vk_alphabeta_12 is e(alpha, beta) where the curve's GT convention is snarkjs's (BN254)
    out_vk, out_proof, out_public = g.to_snarkjs(case.vk, case.proofs[0], case.inputs[0])
    assert {k: v for k, v in out_vk.items() if k != "vk_alphabeta_12"} == \
        {k: v for k, v in vk_doc.items() if k != "vk_alphabeta_12"}
    if pkg in SNARKJS_GT_AGREES:
        ab = C.pairing(case.vk.alpha_g1, case.vk.beta_g2).to_tuple()
        assert out_vk["vk_alphabeta_12"] == [[[str(c) for c in fp2] for fp2 in fp6] for fp6 in ab]
        assert g.to_snarkjs(g.prepare(case.vk))[0]["vk_alphabeta_12"] == out_vk["vk_alphabeta_12"]
    else:
        assert "vk_alphabeta_12" not in out_vk
    assert out_proof == proof_doc and out_public == public_doc
    # the identity as snarkjs writes it: (0 : 1 : 0)
    ident = g.to_snarkjs(g.VerifyingKey(case.vk.alpha_g1, case.vk.beta_g2, case.vk.gamma_g2, case.vk.delta_g2,
                                        [C.G1.identity(), *case.vk.ic[1:]]))[0]  # fmt: skip
    assert ident["IC"][0] == ["0", "1", "0"]
    assert g.from_snarkjs(ident)[0].ic[0].is_identity()
    # a wrong public input still parses and does not verify
    vk, proof, _ = g.from_snarkjs(vk_doc, proof_doc, public_doc)
    assert not g.verify(vk, proof, g.from_snarkjs(vk_doc, None, [public_doc[0], "5"])[2])


def test_snarkjs_refusals(zk_case: Case) -> None:
    case = zk_case
    C, g = case.C, case.C.groth16
    pkg = C.__name__.rsplit(".", 1)[1]
    vk_doc, proof_doc, public_doc = _snarkjs_files(case, SNARKJS_NAMES[pkg])
    other_curve = [n for p, n in SNARKJS_NAMES.items() if p != pkg][0]

    def refuse(vk=vk_doc, proof=proof_doc, public=public_doc, match=None) -> None:
        with pytest.raises(ValueError, match=match):
            g.from_snarkjs(vk, proof, public)

    refuse(vk={**vk_doc, "protocol": "plonk"}, match="protocol")
    refuse(proof={**proof_doc, "protocol": "fflonk"}, match="protocol")
    refuse(vk={**vk_doc, "curve": other_curve}, match="curve")
    refuse(proof={**proof_doc, "curve": other_curve}, match="curve")
    refuse(vk={**vk_doc, "curve": 254}, match="curve")
    refuse(vk={**vk_doc, "nPublic": 3}, match="nPublic")
    refuse(vk={k: v for k, v in vk_doc.items() if k != "vk_delta_2"}, match="vk_delta_2")
    refuse(proof={k: v for k, v in proof_doc.items() if k != "pi_b"}, match="pi_b")
    refuse(vk={**vk_doc, "vk_alpha_1": vk_doc["vk_alpha_1"][:2] + ["2"]}, match="z must be")
    refuse(vk={**vk_doc, "vk_alpha_1": [vk_doc["vk_alpha_1"][0], "5", "1"]}, match="vk_alpha_1")  # off curve
    refuse(proof={**proof_doc, "pi_a": ["0x1", "2", "1"]}, match="decimal")
    refuse(proof={**proof_doc, "pi_a": [" 1", "2", "1"]}, match="decimal")
    refuse(proof={**proof_doc, "pi_a": [str(C.P + 1), "2", "1"]}, match="canonical")
    refuse(proof={**proof_doc, "pi_b": proof_doc["pi_b"][:2]}, match="triple")
    refuse(public=[public_doc[0], str(C.R)], match=r"\[0, r\)")
    refuse(public=public_doc[:1], match="public inputs")
    refuse(public={"0": public_doc[0]}, match="list")
    # deep nesting is refused before json's recursive C decoder sees it, which would overflow
    # the C stack (a segfault) under a raised recursion limit
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(10**6)
    try:
        refuse(vk="[" * 100000, match="nested")
        refuse(proof=b"{" + b'"a":{' * 50000, match="nested")
    finally:
        sys.setrecursionlimit(limit)
    refuse(vk='{"x": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', match="missing field")  # brackets in strings do not count
    refuse(vk=b"\xff{}", match="utf-8|codec")
    refuse(vk="{not json", match="Expecting")
    # a curve name that snarkjs accepts as an alias of the same curve is fine
    alias = {"bn254": "BN254", "bls12_381": "BLS12-381"}[pkg]
    assert g.from_snarkjs({**vk_doc, "curve": alias})[0] == case.vk
    # fields that snarkjs always writes may be absent
    assert g.from_snarkjs({k: v for k, v in vk_doc.items() if k not in ("protocol", "curve", "nPublic")})[0] == case.vk


def test_protocol_entry(curve_module) -> None:
    """The registry entry: no curve is refused, snarkjs's curve name comes from the base field (as
    ffjavascript's getCurveFromQ), so a curve snarkjs lacks gets None, and only BN254's GT
    convention is snarkjs's (to_snarkjs then writes vk_alphabeta_12)."""
    from types import SimpleNamespace

    from generator.pipeline import derive_model
    from generator.protocols import PROTOCOLS

    curves = REPO_ROOT / "curves"
    entry = PROTOCOLS["groth16"]
    for pkg, name in (("bn254", "bn128"), ("bls12_381", "bls12381"), ("bls12_377", None), ("bw6_761", None)):
        model = derive_model(curves / f"{curve_module(pkg).NAME.lower()}.toml")
        assert model.p == curve_module(pkg).P
        assert entry.unsupported(model) is None
        assert entry.context(model)["snarkjs_curve"] == name
        assert entry.context(model)["snarkjs_gt_agrees"] is (pkg == "bn254")
        assert curve_module(pkg).groth16.SNARKJS_CURVE == name
        assert "groth16" in curve_module(pkg).PROTOCOLS
    assert entry.context(SimpleNamespace(p=2**255 - 19))["snarkjs_curve"] is None
