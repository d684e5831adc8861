"""generated.<curve>.distributed on a Dask LocalCluster: MSM partitioned by points, and BLS and
Groth16 batch verification spread over workers, against the local calls.

One LocalCluster of two single-thread worker processes serves the whole module (it takes a few
seconds to start).  Under pytest-xdist each xdist worker that runs tests of this file starts its
own cluster (ports are picked free), and the xdist_group mark keeps them on one xdist worker with
``--dist loadgroup``.
"""

from __future__ import annotations

import importlib
import os
import random
import secrets
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO_ROOT, STANDARD_CURVES, import_optional, load_curve_module
from kzg_util import TAU, ptau_file

pytestmark = pytest.mark.xdist_group("distributed")

GROUPS = ("G1", "G2")


def _module(pkg: str, name: str) -> ModuleType:
    """generated.<pkg>.<name>, once the compiled curve module loads (else skip, or fail in CI)."""
    load_curve_module(pkg)
    return importlib.import_module(f"generated.{pkg}.{name}")


def _inputs(C: ModuleType, group: str, n: int, seed: int) -> tuple[list, list[int]]:
    rng = random.Random(seed)
    G = getattr(C, group)
    points = [G.generator().mul_vartime(rng.randrange(1, C.R)) for _ in range(n - 1)] + [G.identity()]
    scalars = [rng.randrange(C.R) for _ in range(n - 2)] + [C.R - 1, -5]  # reduced mod r, as msm does
    return points, scalars


def _packed(C: ModuleType, points: list, scalars: list[int]) -> tuple[bytes, bytes]:
    nb = (C.R.bit_length() + 7) // 8
    return b"".join(P.to_bytes(False) for P in points), b"".join((k % C.R).to_bytes(nb, "little") for k in scalars)


# ------------------------------------------------------------------------------------------------
# MSM


@pytest.mark.parametrize("group", GROUPS)
@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_msm_equals_local(client, pkg: str, group: str, tmp_path: Path) -> None:
    import dask.array as da
    import numpy as np

    C = load_curve_module(pkg)
    D = _module(pkg, "distributed")
    G = getattr(C, group)
    n = 15
    points, scalars = _inputs(C, group, n, seed=hash((pkg, group)) & 0xFFFF)
    want = G.msm(points, scalars)
    assert want == sum((P * k for P, k in zip(points, scalars, strict=True)), G.identity())
    pb, sb = _packed(C, points, scalars)
    assert G.msm_bytes(pb, sb) == want
    # 1, 2 and 7 partitions from lists
    for chunk in (n, 8, 2):
        assert D.msm(points, scalars, client=client, group=group, chunk=chunk) == want
    # one partition per worker (chunk None), from packed bytes
    assert D.msm(pb, sb, client=client, group=group) == want
    # Dask arrays: points packed 1-D, scalars as rows; their own chunks differ from the partitions
    width = len(pb) // n
    pa = da.from_array(np.frombuffer(pb, dtype=np.uint8), chunks=4 * width)
    sa = da.from_array(np.frombuffer(sb, dtype=np.uint8).reshape(n, -1), chunks=(6, len(sb) // n))
    assert D.msm(pa, sa, client=client, group=group, chunk=3) == want
    # files the workers read themselves
    (tmp_path / "points.bin").write_bytes(pb)
    (tmp_path / "scalars.bin").write_bytes(sb)
    assert D.msm(str(tmp_path / "points.bin"), str(tmp_path / "scalars.bin"), client=client, group=group, chunk=4) == want
    big = b"".join(k.to_bytes(len(sb) // n, "big") for k in (s % C.R for s in scalars))
    (tmp_path / "scalars_be.bin").write_bytes(b"\xff" * 3 + big)
    assert D.msm(D.PointFile(str(tmp_path / "points.bin")), D.ScalarFile(str(tmp_path / "scalars_be.bin"), offset=3, endian="big"),
                 client=client, group=group, chunk=5) == want
    # mixed: a file of points, a list of scalars; and each form without a client
    assert D.msm(tmp_path / "points.bin", scalars, client=client, group=group, chunk=7) == want
    for p, s in ((points, scalars), (pb, sb), (pa, sa), (str(tmp_path / "points.bin"), sb)):
        assert D.msm(p, s, group=group) == want


def test_msm_from_bags(client) -> None:
    """Dask bags of encodings: their partitions are the MSM's; with a bag, a list, bytes or a file
    on the other side."""
    import dask.bag as db

    C = load_curve_module("bls12_381")
    D = _module("bls12_381", "distributed")
    points, scalars = _inputs(C, "G2", 11, seed=17)
    want = C.G2.msm(points, scalars)
    pb, sb = _packed(C, points, scalars)
    encodings = [P.to_bytes(False) for P in points]
    pbag = db.from_sequence(encodings, npartitions=3)
    sbag = db.from_sequence(scalars, npartitions=3)
    sbag_bytes = db.from_sequence([sb[i * 32 : (i + 1) * 32] for i in range(11)], npartitions=3)
    for s in (sbag, sbag_bytes, scalars, sb):
        assert D.msm(pbag, s, client=client, group="G2") == want
        assert D.msm(pbag, s, group="G2") == want
    assert D.msm(points, sbag, client=client, group="G2") == want
    with pytest.raises(ValueError, match="11 points but 10 scalars"):
        D.msm(pbag, scalars[:-1], client=client, group="G2")
    with pytest.raises(ValueError, match="partitioned differently"):
        D.msm(pbag, db.from_sequence(scalars, npartitions=2), client=client, group="G2")
    # a bad item in the last partition, named by its index in the whole input
    broken = db.from_sequence(encodings[:-1] + [encodings[-1][:-1]], npartitions=3)
    with pytest.raises(ValueError, match="point 10: a bag item must be"):
        D.msm(broken, scalars, client=client, group="G2")


def test_msm_other_profile_and_empty(client) -> None:
    C = load_curve_module("bls12_381")
    D = _module("bls12_381", "distributed")
    points, scalars = _inputs(C, "G1", 9, seed=3)
    want = C.G1.msm(points, scalars)
    assert D.msm([], [], client=client) == C.G1.identity()
    assert D.msm(b"", b"", client=client, group="G2") == C.G2.identity()
    assert D.msm(points[:1], scalars[:1], client=client, chunk=5) == points[0] * scalars[0]
    assert D.msm(points, [C.Fr(k % C.R) for k in scalars], client=client, chunk=4) == want


def test_trusted_setup_file(client, vector_file) -> None:
    """c-kzg-4844's trusted_setup.txt, read by the workers: every section against the local MSM of
    the decoded lines, and a blob commitment against c-kzg's own (EIP-4844 blob_to_kzg_commitment:
    the Lagrange points in the file's order, the blob's evaluations permuted by bit reversal), so
    the KZG commitment as a distributed MSM."""
    ckzg = import_optional("ckzg", "in the test extra")
    C = load_curve_module("bls12_381")
    D = _module("bls12_381", "distributed")
    path = vector_file("eip4844_kzg", "trusted_setup.txt")
    lines = path.read_text().split()
    n1, n2 = int(lines[0]), int(lines[1])
    sections = {"g1_lagrange": ("G1", lines[2 : 2 + n1]), "g2_monomial": ("G2", lines[2 + n1 : 2 + n1 + n2]),
                "g1_monomial": ("G1", lines[2 + n1 + n2 :])}
    rng = random.Random(7)
    for section, (group, hexes) in sections.items():
        G = getattr(C, group)
        scalars = [rng.randrange(C.R) for _ in hexes]
        want = G.msm(G.batch_from_bytes([bytes.fromhex(h) for h in hexes]), scalars)
        source = D.TrustedSetupFile(str(path), section)
        got = D.msm(source, scalars, client=client, group=group, chunk=len(hexes) // 3 + 1)
        assert got == want, section
        if section == "g1_lagrange":
            bits = n1.bit_length() - 1
            blob = [scalars[int(format(i, f"0{bits}b")[::-1], 2)] for i in range(n1)]
            setup = ckzg.load_trusted_setup(str(path), 0)
            assert got.to_bytes() == ckzg.blob_to_kzg_commitment(b"".join(v.to_bytes(32, "big") for v in blob), setup)
        if section == "g2_monomial":
            assert D.msm(source, scalars, group=group) == want
        else:
            with pytest.raises(ValueError, match="holds G1 points, not G2"):
                D.msm(source, scalars, client=client, group="G2")


def test_msm_bad_input_same_error(client, tmp_path: Path) -> None:
    C = load_curve_module("bn254")
    D = _module("bn254", "distributed")
    points, scalars = _inputs(C, "G1", 12, seed=5)
    pb, sb = _packed(C, points, scalars)
    width = len(pb) // 12

    def same_error(local, *args, **kwargs) -> None:
        with pytest.raises(ValueError) as expected:
            local()
        with pytest.raises(ValueError) as got:
            D.msm(*args, client=client, **kwargs)
        assert str(got.value) == str(expected.value)
        with pytest.raises(ValueError) as got:
            D.msm(*args, **{k: v for k, v in kwargs.items() if k != "chunk"})
        assert str(got.value) == str(expected.value)

    # mismatched lengths
    same_error(lambda: C.G1.msm(points, scalars[:-1]), points, scalars[:-1], chunk=5)
    same_error(lambda: C.G1.msm_bytes(pb, sb[:-32]), pb, sb[:-32], chunk=5)
    same_error(lambda: C.G1.msm_bytes(pb[:-1], sb), pb[:-1], sb, chunk=5)
    # a point off the curve in a middle partition (index 7, partitions of 3): named by its index
    bad = bytearray(pb)
    bad[7 * width + width - 1] ^= 1
    same_error(lambda: C.G1.msm_bytes(bytes(bad), sb), bytes(bad), sb, chunk=3)
    (tmp_path / "bad.bin").write_bytes(bytes(bad))
    same_error(lambda: C.G1.msm_bytes(bytes(bad), sb), str(tmp_path / "bad.bin"), sb, chunk=3)
    # a coordinate not below p in the last partition
    bad = bytearray(pb)
    bad[11 * width : 12 * width] = b"\xff" * width
    same_error(lambda: C.G1.msm_bytes(bytes(bad), sb), bytes(bad), sb, chunk=3)
    with pytest.raises(TypeError, match="scalars\\[3\\]"):
        D.msm(points, scalars[:3] + ["x"] + scalars[4:], client=client)
    with pytest.raises(ValueError, match="group must be"):
        D.msm(points, scalars, client=client, group="G3")


def test_worker_killed_mid_computation(client, tmp_path: Path) -> None:
    """A task kills its worker process once (a marker file says it has); Dask reruns the lost
    work on the workers left (and the restarted one) and the answer is still right."""
    import dask.array as da
    import numpy as np

    C = load_curve_module("bls12_381")
    D = _module("bls12_381", "distributed")
    points, scalars = _inputs(C, "G1", 16, seed=11)
    pb, sb = _packed(C, points, scalars)
    marker = str(tmp_path / "killed")

    def kill_once(block):
        import os

        if block.size == 0:  # dask's probe for the output type, on the client
            return block
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return block
        os.close(fd)
        os._exit(1)  # the worker process dies in the middle of the computation

    arr = da.from_array(np.frombuffer(pb, dtype=np.uint8), chunks=len(pb) // 4).map_blocks(kill_once, meta=np.array((), dtype=np.uint8))
    assert D.msm(arr, sb, client=client, chunk=4) == C.G1.msm(points, scalars)
    assert os.path.exists(marker)
    client.wait_for_workers(2, timeout=60)


def test_workers_without_the_module_fail_fast(client, monkeypatch) -> None:
    D = _module("bls12_381", "distributed")
    monkeypatch.setattr(D, "_PACKAGE", "generated.no_such_curve")
    monkeypatch.setattr(D, "_CHECKED", {})
    with pytest.raises(RuntimeError, match=r"2 of 2 Dask workers cannot import generated.no_such_curve .*ModuleNotFoundError.*PipInstall"):
        D.msm([], [], client=client)


def test_imports_without_dask() -> None:
    """The curve module, its distributed module and kzg import without dask; a client call says
    which extra to install."""
    code = (
        "import sys\n"
        "sys.modules['distributed'] = None\nsys.modules['dask'] = None\n"
        "from generated.bls12_381 import G1, distributed as D, bls\n"
        "g = G1.generator()\n"
        "assert D.msm([g, g], [2, 3]) == g * 5\n"
        "try:\n    D.msm([g], [1], client=object())\nexcept ImportError as e:\n    print(e)\n"
        "from generated.bls12_381 import kzg\n"
        "s = kzg.Setup.insecure_from_tau(5, 2)\n"
        "try:\n    kzg.commit(s, [1], client=object())\nexcept ImportError as e:\n    print('kzg', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert out.returncode == 0, out.stderr
    assert "pip install 'pairforge[distributed]'" in out.stdout
    assert "kzg generated.bls12_381.distributed needs dask" in out.stdout


# ------------------------------------------------------------------------------------------------
# Batch verification


@pytest.mark.parametrize("variant,scheme", [("MinPk", "Pop"), ("MinSig", "Aug"), ("MinPk", "Basic")])
def test_bls_batch_verify(client, variant: str, scheme: str) -> None:
    bls = _module("bls12_381", "bls")
    S = getattr(getattr(bls, variant), scheme)
    n = 12
    sks = [S.key_gen(secrets.token_bytes(32)) for _ in range(n)]
    pks = [S.sk_to_pk(k) for k in sks]
    msgs = [b"message %d" % (i % 9) for i in range(n)]  # some messages repeat (one pair per message)
    sigs = [S.sign(k, m) for k, m in zip(sks, msgs, strict=True)]
    assert S.batch_verify(pks, msgs, sigs)
    for chunk in (None, 5, 1, n):
        assert S.batch_verify(pks, msgs, sigs, client=client, chunk=chunk)
    # one forged signature in the first, a middle and the last of three partitions of 4
    for i in (0, 6, n - 1):
        forged = list(sigs)
        forged[i] = S.sign(sks[i], b"another message")
        assert not S.batch_verify(pks, msgs, forged)
        assert not S.batch_verify(pks, msgs, forged, client=client, chunk=4)
        # a signature that does not decode, and a key of the identity
        broken = list(sigs)
        broken[i] = b"\x00" * len(sigs[i])
        assert not S.batch_verify(pks, msgs, broken, client=client, chunk=4)
        keys = list(pks)
        keys[i] = bytes([0xC0]) + b"\x00" * (len(pks[i]) - 1)  # the identity: KeyValidate fails
        assert not S.batch_verify(keys, msgs, sigs, client=client, chunk=4)
    # the same answers as the local call for the edge cases it defines
    assert not S.batch_verify([], [], [], client=client)
    assert not S.batch_verify(pks, msgs[:-1], sigs, client=client)
    with pytest.raises(TypeError):
        S.batch_verify(pks, msgs, ["x"] * n, client=client)


def _groth16_batch(C: ModuleType, g16: ModuleType, n: int, rng: random.Random):
    """A verifying key with known discrete logs, and n valid proofs: for each, A = [a]G1,
    B = [b]G2 and C = [c]G1 with a b = alpha beta + v gamma + c delta (v the input combination)."""
    r = C.R
    alpha, beta, gamma, delta = (rng.randrange(1, r) for _ in range(4))
    us = [rng.randrange(1, r) for _ in range(3)]
    g1, g2 = C.G1.generator(), C.G2.generator()
    vk = g16.VerifyingKey(g1 * alpha, g2 * beta, g2 * gamma, g2 * delta, [g1 * u for u in us])
    proofs, inputs = [], []
    for _ in range(n):
        xs = [rng.randrange(r) for _ in range(2)]
        v = (us[0] + xs[0] * us[1] + xs[1] * us[2]) % r
        a, b = rng.randrange(1, r), rng.randrange(1, r)
        c = (a * b - alpha * beta - v * gamma) * pow(delta, -1, r) % r
        proofs.append(g16.Proof(g1 * a, g2 * b, g1 * c))
        inputs.append(xs)
    return vk, proofs, inputs


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_groth16_batch_verify(client, pkg: str) -> None:
    C = load_curve_module(pkg)
    g16 = _module(pkg, "groth16")
    vk, proofs, inputs = _groth16_batch(C, g16, 7, random.Random(pkg))
    pvk = g16.prepare(vk)
    assert all(g16.verify(pvk, p, xs) for p, xs in zip(proofs, inputs, strict=True))
    for chunk in (None, 3, 1):
        assert g16.batch_verify(pvk, proofs, inputs, client=client, chunk=chunk)
    assert g16.batch_verify(vk, [p.to_bytes() for p in proofs], inputs, client=client, chunk=2)
    for i in (0, 3, 6):  # the first, a middle and the last of partitions of 3
        forged = list(proofs)
        forged[i] = g16.Proof(proofs[i].a, proofs[i].b, proofs[i].c + C.G1.generator())
        assert not g16.batch_verify(pvk, forged, inputs)
        assert not g16.batch_verify(pvk, forged, inputs, client=client, chunk=3)
        wrong_inputs = [list(xs) for xs in inputs]
        wrong_inputs[i][0] = (wrong_inputs[i][0] + 1) % C.R
        assert not g16.batch_verify(pvk, proofs, wrong_inputs, client=client, chunk=3)
        undecodable = [p.to_bytes() for p in proofs]
        undecodable[i] = b"\x01" * len(undecodable[i])
        assert not g16.batch_verify(pvk, undecodable, inputs, client=client, chunk=3)
    assert g16.batch_verify(pvk, [], [], client=client)
    with pytest.raises(ValueError, match="public inputs"):
        g16.batch_verify(pvk, proofs, inputs[:-1], client=client)
    with pytest.raises(ValueError, match="takes 2 public inputs"):
        g16.batch_verify(pvk, proofs, [[1]] * len(proofs), client=client)


# ------------------------------------------------------------------------------------------------
# KZG commitments with client=, and .ptau sections read by the workers (setups from
# tests/kzg_util.py's known tau)


def _bit_reversed(values: list) -> list:
    bits = len(values).bit_length() - 1
    return [values[int(format(i, f"0{bits}b")[::-1], 2)] for i in range(len(values))]


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_kzg_commit_equals_local(client, pkg: str, tmp_path: Path) -> None:
    """kzg.commit / commit_evaluations with a client equal the local calls and [p(tau)] G1; a
    setup loaded from a .ptau path is read by the workers (PtauFile), and PtauFile sections
    equal the local MSM of the points kzg.Setup.from_ptau loads from the same file."""
    C = load_curve_module(pkg)
    kzg = _module(pkg, "kzg")
    D = _module(pkg, "distributed")
    rng = random.Random(pkg)
    setup = kzg.Setup.insecure_from_tau(TAU, 16)
    coeffs = [rng.randrange(C.R) for _ in range(11)]
    want = kzg.commit(setup, coeffs)
    p_tau = sum(c * pow(TAU, i, C.R) for i, c in enumerate(coeffs)) % C.R
    assert want == C.G1.generator() * p_tau
    assert kzg.commit(setup, coeffs, client=client, chunk=4) == want
    assert kzg.commit(setup, [C.Fr(k) for k in coeffs], client=client) == want
    evals = [rng.randrange(C.R) for _ in range(16)]
    assert kzg.commit_evaluations(setup, evals, client=client, chunk=5) == kzg.commit_evaluations(setup, evals)
    # 8 values: no Lagrange basis of that size, an inverse FFT and the monomial powers
    assert kzg.commit_evaluations(setup, evals[:8], client=client) == kzg.commit_evaluations(setup, evals[:8])

    power = 2
    big = kzg.Setup.insecure_from_tau(TAU, 2 * (1 << power) - 1, g2_count=1 << power, lagrange=False)
    path = tmp_path / "setup.ptau"
    path.write_bytes(ptau_file(C, big.g1, big.g2, power))
    loaded = kzg.Setup.from_ptau(path)
    assert loaded._files["g1"] == D.PtauFile(str(path), "tau_g1", count=1 << power)
    assert kzg.commit(loaded, coeffs[:4], client=client, chunk=1) == kzg.commit(loaded, coeffs[:4])
    assert kzg.commit(loaded, coeffs[:3], client=client) == kzg.commit(setup, coeffs[:3])
    scalars = [rng.randrange(C.R) for _ in range(len(big.g1))]
    want = C.G1.msm(big.g1, scalars)
    assert D.msm(D.PtauFile(str(path)), scalars, client=client, chunk=3) == want
    assert D.msm(D.PtauFile(str(path)), scalars) == want
    assert D.msm(D.PtauFile(str(path), 2, count=4), scalars[:4], client=client) == C.G1.msm(loaded.g1, scalars[:4])
    assert D.msm(D.PtauFile(str(path), "tau_g2"), scalars[:4], client=client, group="G2", chunk=3) == C.G2.msm(big.g2, scalars[:4])


def test_kzg_commit_trusted_setup_file(client, vector_file) -> None:
    """A setup loaded from c-kzg's trusted_setup.txt: the workers read the points
    (TrustedSetupFile), and a blob's commitment equals ckzg's and eip4844's."""
    ckzg = import_optional("ckzg", "in the test extra")
    C = load_curve_module("bls12_381")
    kzg = _module("bls12_381", "kzg")
    eip4844 = _module("bls12_381", "eip4844")
    D = _module("bls12_381", "distributed")
    path = vector_file("eip4844_kzg", "trusted_setup.txt")
    setup = kzg.Setup.from_trusted_setup(path)
    assert setup._files == {"g1": D.TrustedSetupFile(str(path), "g1_monomial"),
                            "g1_lagrange": D.TrustedSetupFile(str(path), "g1_lagrange")}
    rng = random.Random(19)
    blob_values = [rng.randrange(C.R) for _ in range(setup.size)]
    blob = b"".join(v.to_bytes(32, "big") for v in blob_values)
    # blob element i is the value at the i-th root in bit-reversed order
    got = kzg.commit_evaluations(setup, _bit_reversed(blob_values), client=client)
    assert got.to_bytes() == ckzg.blob_to_kzg_commitment(blob, ckzg.load_trusted_setup(str(path), 0))
    assert got.to_bytes() == eip4844.blob_to_kzg_commitment(blob, eip4844.TrustedSetup(setup))
    coeffs = blob_values[:100]
    assert kzg.commit(setup, coeffs, client=client, chunk=40) == kzg.commit(setup, coeffs)


def test_kzg_commit_bad_input_same_error(client, tmp_path: Path) -> None:
    """Bad arguments raise the local call's ValueError; a bad point in a .ptau section is named by
    its index, with or without a client."""
    C = load_curve_module("bn254")
    kzg = _module("bn254", "kzg")
    D = _module("bn254", "distributed")
    setup = kzg.Setup.insecure_from_tau(TAU, 8)

    def same_error(call, *args) -> None:
        with pytest.raises(ValueError) as expected:
            call(setup, *args)
        with pytest.raises(ValueError) as got:
            call(setup, *args, client=client, chunk=2)
        assert str(got.value) == str(expected.value)

    same_error(kzg.commit, list(range(9)))
    same_error(kzg.commit, [1, C.R, 3])
    same_error(kzg.commit, b"\0" * 33)
    same_error(kzg.commit_evaluations, [1, 2, 3])
    same_error(kzg.commit_evaluations, list(range(16)))
    with pytest.raises(TypeError):
        kzg.commit(setup, [1, "x"], client=client)

    big = kzg.Setup.insecure_from_tau(TAU, 7, g2_count=4, lagrange=False)
    data = bytearray(ptau_file(C, big.g1, big.g2, 2))
    n8 = (C.P.bit_length() + 63) // 64 * 8
    tau_g1 = data.index(b"".join((v * (1 << (8 * n8)) % C.P).to_bytes(n8, "little") for v in big.g1[0].to_affine()))
    scalars = list(range(1, 8))
    for index, patch, message in ((5, lambda p: b"\xff" * n8 + p[n8:], "point 5: a coordinate is not below p"),
                                  (6, lambda p: p[:-1] + bytes([p[-1] ^ 1]), "point 6: ")):
        bad = bytearray(data)
        at = tau_g1 + index * 2 * n8
        bad[at : at + 2 * n8] = patch(bytes(bad[at : at + 2 * n8]))
        path = tmp_path / f"bad{index}.ptau"
        path.write_bytes(bytes(bad))
        with pytest.raises(ValueError, match=message) as expected:
            D.msm(D.PtauFile(str(path)), scalars)
        with pytest.raises(ValueError) as got:
            D.msm(D.PtauFile(str(path)), scalars, client=client, chunk=3)
        assert str(got.value) == str(expected.value)
    with pytest.raises(ValueError, match="holds G2 points, not G1"):
        D.msm(D.PtauFile(str(path), "tau_g2"), scalars, client=client)


# ------------------------------------------------------------------------------------------------
# Groth16 .zkey point sections read by the workers (ZkeyFile)

ZKEY_SECTIONS = {"ic": (3, "G1"), "a": (5, "G1"), "b1": (6, "G1"), "b2": (7, "G2"), "c": (8, "G1"), "h": (9, "G1")}


def _zkey(C: ModuleType, points: dict[str, list], q: int | None = None, protocol: int = 1,
          magic: bytes = b"zkey") -> bytes:
    """A Groth16 .zkey written by this test (self-written, not by snarkjs) in snarkjs's layout
    (binfileutils + zkey_utils): magic, version 1, section count, sections (type u32, size u64);
    1: protocol id; 2: n8q, q, n8r, r, nVars, nPublic, domainSize (u32), alpha1, beta1, beta2,
    gamma2, delta1, delta2; 3 IC, 4 coefficients (count 0), 5 A, 6 B1, 7 B2, 8 C, 9 H.  Points
    affine, coordinates (c0 || c1 .. over an extension) little-endian Montgomery (R = 2^(8 n8q)),
    the identity all zeros."""
    n8q = (C.P.bit_length() + 63) // 64 * 8
    n8r = (C.R.bit_length() + 63) // 64 * 8
    q = C.P if q is None else q

    def point(P) -> bytes:
        a = P.to_affine()
        g2 = isinstance(P, C.G2) and isinstance(C.G2.generator().to_affine()[0], tuple)
        if a is None:
            return b"\0" * (2 * n8q * (len(C.G2.generator().to_affine()[0]) if g2 else 1))
        return b"".join((c * (1 << (8 * n8q)) % C.P).to_bytes(n8q, "little")
                        for xy in a for c in (xy if isinstance(xy, tuple) else (xy,)))

    u32 = lambda v: v.to_bytes(4, "little")  # noqa: E731
    g1, g2 = C.G1.generator(), C.G2.generator()
    n_public = len(points["ic"]) - 1
    header = (u32(n8q) + q.to_bytes(n8q, "little") + u32(n8r) + C.R.to_bytes(n8r, "little")
              + u32(len(points["a"])) + u32(n_public) + u32(len(points["h"]))
              + b"".join(point(P) for P in (g1 * 2, g1 * 3, g2 * 5, g2 * 7, g1 * 11, g2 * 11)))
    sections = [(1, u32(protocol)), (2, header), (4, u32(0))]
    sections += [(kind, b"".join(point(P) for P in points[name])) for name, (kind, _) in ZKEY_SECTIONS.items()]
    out = magic + u32(1) + u32(len(sections))
    for kind, body in sorted(sections):
        out += kind.to_bytes(4, "little") + len(body).to_bytes(8, "little") + body
    return out


def _zkey_points(C: ModuleType, seed: int | str) -> dict[str, list]:
    """Random points per section: 4 variables, 1 public input, a domain of 4; identities in A and H."""
    rng = random.Random(seed)

    def pts(group: str, n: int) -> list:
        G = getattr(C, group)
        return [G.generator().mul_vartime(rng.randrange(1, C.R)) for _ in range(n)]

    return {"ic": pts("G1", 2), "a": pts("G1", 3) + [C.G1.identity()], "b1": pts("G1", 4), "b2": pts("G2", 4),
            "c": pts("G1", 2), "h": [C.G1.identity()] + pts("G1", 3)}


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_zkey_sections_equal_local(client, pkg: str, tmp_path: Path) -> None:
    """Every point section of a .zkey, by name and by number, whole and cut by count, with and
    without a client, equals the local MSM of the points written into it."""
    C = load_curve_module(pkg)
    D = _module(pkg, "distributed")
    points = _zkey_points(C, pkg)
    path = tmp_path / "circuit.zkey"
    path.write_bytes(_zkey(C, points))
    rng = random.Random(pkg)
    for name, (kind, group) in ZKEY_SECTIONS.items():
        pts = points[name]
        scalars = [rng.randrange(C.R) for _ in pts]
        want = getattr(C, group).msm(pts, scalars)
        assert D.msm(D.ZkeyFile(str(path), name), scalars, client=client, group=group, chunk=3) == want
        assert D.msm(D.ZkeyFile(str(path), kind), scalars, group=group) == want
        assert D.msm(D.ZkeyFile(str(path), name, count=2), scalars[:2], client=client, group=group) == \
            getattr(C, group).msm(pts[:2], scalars[:2])


def test_zkey_bad_file_refused(client, tmp_path: Path) -> None:
    """A coordinate not below p and an off-curve point raise the local call's ValueError with a
    client; a wrong magic, a protocol other than Groth16, another curve's q, a section without
    points and a section of the other group are refused."""
    C = load_curve_module("bn254")
    D = _module("bn254", "distributed")
    points = _zkey_points(C, 19)
    data = _zkey(C, points)
    n8 = (C.P.bit_length() + 63) // 64 * 8
    scalars = list(range(1, 5))
    # the H section is the last one: its points are the file's last 4 * 2 * n8 bytes
    h = len(data) - 4 * 2 * n8
    for index, patch, message in ((1, lambda p: b"\xff" * n8 + p[n8:], "point 1: a coordinate is not below p"),
                                  (2, lambda p: p[:n8] + bytes([p[n8] ^ 1]) + p[n8 + 1 :], "point 2: ")):
        bad = bytearray(data)
        at = h + index * 2 * n8
        bad[at : at + 2 * n8] = patch(bytes(bad[at : at + 2 * n8]))
        path = tmp_path / f"bad{index}.zkey"
        path.write_bytes(bytes(bad))
        with pytest.raises(ValueError, match=message) as expected:
            D.msm(D.ZkeyFile(str(path), "h"), scalars)
        with pytest.raises(ValueError) as got:
            D.msm(D.ZkeyFile(str(path), "h"), scalars, client=client, chunk=3)
        assert str(got.value) == str(expected.value)
    other = 2**256 - 2**32 - 977  # secp256k1's p, another curve's base field of the same size
    for raw, message in ((_zkey(C, points, magic=b"ptau"), "does not start with 'zkey'"),
                         (_zkey(C, points, protocol=2), "protocol 2 is not Groth16"),
                         (_zkey(C, points, q=other), "the file is for the curve with base field")):
        path = tmp_path / "wrong.zkey"
        path.write_bytes(raw)
        for kwargs in ({}, {"client": client}):
            with pytest.raises(ValueError, match=message):
                D.msm(D.ZkeyFile(str(path), "ic"), scalars[:2], **kwargs)
    path.write_bytes(data)
    with pytest.raises(ValueError, match="section must be one of ic, a, b1, b2, c, h or 3, 5, 6, 7, 8, 9, not 4"):
        D.msm(D.ZkeyFile(str(path), 4), scalars, client=client)
    with pytest.raises(ValueError, match="holds G2 points, not G1"):
        D.msm(D.ZkeyFile(str(path), "b2"), scalars, client=client)
    with pytest.raises(ValueError, match="section must be"):
        D.msm(D.PtauFile(str(path), "tau"), scalars, client=client)
