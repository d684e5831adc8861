"""KZG test setups from a KNOWN tau (insecure by design: whoever knows tau can forge openings;
only for tests), a .ptau file in snarkjs's layout, and the checks of a package's kzg module on
such a setup: run by tests/protocols/test_kzg.py on every package with the module and by
tests/protocols/test_bls24_protocols.py; tests/protocols/test_distributed.py loads the .ptau."""

from __future__ import annotations

import random
import struct

import pytest

TAU = 0x1234567890ABCDEF1234567890ABCDEF  # the known tau of the test setups
N = 16  # their size (coefficients)


def _poly(curve, rng, n):
    return [rng.randrange(curve.R) for _ in range(n)]


def _eval(curve, coeffs, x):
    return sum(c * pow(x, i, curve.R) for i, c in enumerate(coeffs)) % curve.R


def _g2_degree(curve) -> int:
    """The degree of G2's coordinate field over Fp (1, 2, or 4 at k = 24)."""
    x = curve.G2.generator().to_affine()[0]
    return len(x) if isinstance(x, tuple) else 1


def _outside_g2(curve):
    """A point of the G2 curve outside the subgroup of order r (every curve here has h2 > 1)."""
    G2 = curve.G2
    degree = _g2_degree(curve)
    rng = random.Random(5)
    for _ in range(200):
        u = tuple(rng.randrange(1, 1 << 64) for _ in range(degree)) if degree > 1 else rng.randrange(1, 1 << 64)
        Q = G2.map_to_curve(u)
        if not Q.is_identity() and not Q.in_subgroup():
            return Q
    raise AssertionError("no point outside the subgroup found")


def ptau_file(curve, g1, g2, power):
    """A .ptau file in snarkjs's layout (binfileutils + powersoftau_utils writePTauHeader):
    'ptau', version 1, sections (type u32, size u64): 1 header (n8, q, power, ceremony power),
    2 tauG1, 3 tauG2; coordinates little-endian Montgomery (R = 2^(8 n8)), identity all zeros."""
    n8 = (curve.P.bit_length() + 63) // 64 * 8
    mont = 1 << (8 * n8)

    def coord(v):
        return (v * mont % curve.P).to_bytes(n8, "little")

    def point(P):
        a = P.to_affine()
        if a is None:
            return b"\0" * (2 * n8 * (_g2_degree(curve) if isinstance(P, curve.G2) else 1))
        return b"".join(coord(c) for xy in a for c in (xy if isinstance(xy, tuple) else (xy,)))

    sections = [
        (1, struct.pack("<I", n8) + curve.P.to_bytes(n8, "little") + struct.pack("<II", power, power)),
        (2, b"".join(point(P) for P in g1)),
        (3, b"".join(point(Q) for Q in g2)),
    ]
    out = b"ptau" + struct.pack("<II", 1, len(sections))
    for kind, body in sections:
        out += struct.pack("<IQ", kind, len(body)) + body
    return out


def check_commit_open_verify(curve, setup):
    kzg, Fr, G = curve.kzg, curve.Fr, curve.G1.generator()
    rng = random.Random(1)
    for n in (1, 5, N):
        coeffs = _poly(curve, rng, n)
        C = kzg.commit(setup, coeffs, threads=1)
        assert C == G * _eval(curve, coeffs, TAU)  # [p(tau)] G1, from the known tau
        z = rng.randrange(curve.R)
        proof, y = kzg.open(setup, coeffs, z)
        assert int(y) == _eval(curve, coeffs, z)
        # the quotient q = (p - y) / (X - z) at tau
        q_tau = (_eval(curve, coeffs, TAU) - int(y)) * pow(TAU - z, -1, curve.R) % curve.R
        assert proof == G * q_tau
        assert kzg.verify(setup, C, z, y, proof)
        assert kzg.verify(setup, C.to_bytes(), Fr(z).to_bytes(), y.to_bytes(), proof.to_bytes())
        # tampered value, point, proof, commitment
        assert not kzg.verify(setup, C, z, y + 1, proof)
        if n > 1:  # a constant polynomial takes the value y everywhere
            assert not kzg.verify(setup, C, (z + 1) % curve.R, y, proof)
        assert not kzg.verify(setup, C, z, y, proof + G)
        assert not kzg.verify(setup, C + G, z, y, proof)


def check_evaluation_form(curve, setup):
    kzg, Fr = curve.kzg, curve.Fr
    rng = random.Random(2)
    for n in (1, 2, 8, N):
        coeffs = _poly(curve, rng, n)
        evals = Fr.fft(coeffs)
        C = kzg.commit_evaluations(setup, evals)
        assert C == kzg.commit(setup, coeffs)
        z = rng.randrange(curve.R)
        proof, y = kzg.open_evaluations(setup, evals, z)
        assert (proof, y) == kzg.open(setup, coeffs, z)
        assert kzg.verify(setup, C, z, y, proof)
        # the same through packed bytes
        assert kzg.commit_evaluations(setup, Fr.vector_to_bytes(evals)) == C
    # the Lagrange basis of the setup (size N) and the inverse-FFT path agree
    no_lagrange = kzg.Setup(setup.g1, setup.g2)
    evals = Fr.fft(_poly(curve, rng, N))
    assert kzg.commit_evaluations(no_lagrange, evals) == kzg.commit_evaluations(setup, evals)


def check_batch_verify(curve, setup, bad):
    kzg, G = curve.kzg, curve.G1.generator()
    rng = random.Random(3)
    Cs, zs, ys, proofs = [], [], [], []
    for _ in range(5):
        coeffs = _poly(curve, rng, rng.randrange(1, N + 1))
        z = rng.randrange(curve.R)
        proof, y = kzg.open(setup, coeffs, z)
        Cs.append(kzg.commit(setup, coeffs))
        zs.append(z)
        ys.append(y)
        proofs.append(proof)
    assert kzg.batch_verify(setup, Cs, zs, ys, proofs, threads=2)
    i = {"first": 0, "middle": 2, "last": 4}[bad]
    wrong = list(proofs)
    wrong[i] = proofs[i] + G
    assert not kzg.batch_verify(setup, Cs, zs, ys, wrong)
    wrong_y = list(ys)
    wrong_y[i] = ys[i] + 1
    assert not kzg.batch_verify(setup, Cs, zs, wrong_y, proofs)
    assert kzg.batch_verify(setup, [], [], [], [])


def check_input_errors(curve, setup):
    kzg, Fr = curve.kzg, curve.Fr
    with pytest.raises(ValueError, match=r"coeffs\[1\]: .* is not in \[0, r\)"):
        kzg.commit(setup, [1, curve.R])
    with pytest.raises(ValueError, match="17 coefficients"):
        kzg.commit(setup, list(range(N + 1)))
    with pytest.raises(ValueError, match="power of two"):
        kzg.commit_evaluations(setup, [1, 2, 3])
    with pytest.raises(ValueError, match="z: -1 is not in"):
        kzg.open(setup, [1, 2], -1)
    with pytest.raises(ValueError, match="not a multiple"):
        kzg.commit(setup, b"\0" * 5)
    with pytest.raises(ValueError, match="commitment"):
        kzg.verify(setup, b"\x01" * 3, 0, 0, curve.G1.generator())
    with pytest.raises(ValueError, match="1 zs"):
        kzg.batch_verify(setup, [curve.G1.generator()] * 2, [1], [1, 2], [curve.G1.generator()] * 2)
    with pytest.raises(TypeError):
        kzg.commit(setup, "123")
    with pytest.raises(TypeError, match="kzg.Setup"):
        kzg.commit(object(), [1])
    with pytest.raises(ValueError, match="y: not a canonical"):
        kzg.verify(setup, curve.G1.generator(), 0, (curve.R).to_bytes(len(Fr(0).to_bytes()), "big"), curve.G1.generator())


def check_bad_setups_refused(curve, setup):
    kzg = curve.kzg
    g1, g2, lag = list(setup.g1), list(setup.g2), list(setup.g1_lagrange)
    assert kzg.Setup(g1, g2, lag).size == N  # the checks pass on a good setup
    swapped = list(g1)
    swapped[3], swapped[4] = swapped[4], swapped[3]
    with pytest.raises(ValueError, match="G1 points are not powers"):
        kzg.Setup(swapped, g2)
    with pytest.raises(ValueError, match="G2 points are not powers"):
        kzg.Setup(g1, [g2[0], g2[1], g2[1]])
    with pytest.raises(ValueError, match="not the Lagrange basis"):
        kzg.Setup(g1, g2, lag[1:] + lag[:1])
    outside = _outside_g2(curve)
    with pytest.raises(ValueError, match=r"g2\[1\].*subgroup"):
        kzg.Setup(g1, [g2[0], outside])
    encoded = [P.to_bytes() for P in g1]
    encoded[2] = b"\xff" * len(encoded[2])
    with pytest.raises(ValueError, match=r"g1\[2\]"):
        kzg.Setup(encoded, g2, threads=2)
    with pytest.raises(ValueError, match="two points"):
        kzg.Setup(g1, g2[:1])


def check_trusted_setup_file(curve, setup, tmp_path):
    """c-kzg's text layout: counts, Lagrange G1, G2, monomial G1 (hex of compressed encodings)."""
    kzg = curve.kzg
    lines = [str(N), str(len(setup.g2))]
    lines += [P.to_bytes().hex() for P in setup.g1_lagrange]
    lines += [P.to_bytes().hex() for P in setup.g2]
    lines += [P.to_bytes().hex() for P in setup.g1]
    path = tmp_path / "trusted_setup.txt"
    path.write_text("\n".join(lines) + "\n")
    loaded = kzg.Setup.from_trusted_setup(path, threads=2)
    assert (loaded.g1, loaded.g2, loaded.g1_lagrange) == (setup.g1, setup.g2, setup.g1_lagrange)
    path.write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(ValueError, match="expected"):
        kzg.Setup.from_trusted_setup(path)


def check_ptau(curve):
    kzg = curve.kzg
    power = 2
    big = kzg.Setup.insecure_from_tau(TAU, 2 * (1 << power) - 1, g2_count=1 << power, lagrange=False)
    data = ptau_file(curve, big.g1, big.g2, power)
    loaded = kzg.Setup.from_ptau(data)
    assert loaded.g1 == big.g1[: 1 << power] and loaded.g2 == big.g2[:2]
    assert kzg.Setup.from_ptau(data, size=3).g1 == big.g1[:3]
    with pytest.raises(ValueError, match="'ptau'"):
        kzg.Setup.from_ptau(b"ptax" + data[4:])
    with pytest.raises(ValueError, match="base field"):
        kzg.Setup.from_ptau(data.replace(curve.P.to_bytes(len(curve.P.to_bytes((curve.P.bit_length() + 63) // 64 * 8, "little")), "little"), (curve.P + 2).to_bytes((curve.P.bit_length() + 63) // 64 * 8, "little"), 1))
    with pytest.raises(ValueError, match="past the end"):
        kzg.Setup.from_ptau(data[:-10])
