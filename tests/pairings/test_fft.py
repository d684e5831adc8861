"""FFT over Fr (c/fft.h, Fr.fft and friends) on every curve: against a quadratic DFT, inverse and
coset transforms, the derived roots of unity, barycentric evaluation, summed interpolation on cosets,
packed bytes, limits."""

from __future__ import annotations

import random

import pytest

from generator.derive.fft_domain import derive_fft_domain, factor

# The 2-adicities the issue and the curves' literature give (gnark-crypto, arkworks)
# BLS24: r - 1 = x^4 (x^4 - 1), so 4 v2(x) for an even seed (BLS24-317: x = 0xd9018000, 4 * 15) and
# v2(x - 1) + v2(x + 1) + v2(x^2 + 1) for an odd one (BLS24-315: 20 + 1 + 1); BW6-633's r is
# BLS24-315's p, which ends in 0x300001 (20). BLS48: r - 1 = x^8 (x^8 - 1), and for BLS48-581's odd
# seed v2(x - 1) + v2(x + 1) + v2(x^2 + 1) + v2(x^4 + 1) = 1 + 7 + 1 + 1 (x + 1 = -0x140000380)
EXPECTED_TWO_ADICITY = {"bls12_381": 32, "bn254": 28, "bls12_377": 47, "bw6_761": 46,
                        "bls24_315": 22, "bls24_317": 60, "bw6_633": 20, "bls48_581": 10, "bw6_767": 1}


def dft(C, values, w, shift=1):
    """The quadratic reference: out[i] = sum_j values[j] (shift w^i)^j, in Python integers."""
    r = C.R
    n = len(values)
    out = []
    for i in range(n):
        x = shift * pow(w, i, r) % r
        acc, xp = 0, 1
        for v in values:
            acc = (acc + v * xp) % r
            xp = xp * x % r
        out.append(acc)
    assert len(out) == n
    return out


def test_domain_constants(curve):
    Fr, r = curve.Fr, curve.R
    s = Fr.TWO_ADICITY
    assert s == EXPECTED_TWO_ADICITY[curve.__name__.split(".")[-1]]
    assert (r - 1) % (1 << s) == 0 and ((r - 1) >> s) % 2 == 1
    w = Fr.ROOT_OF_UNITY
    assert pow(w, 1 << s, r) == 1 and pow(w, 1 << (s - 1), r) == r - 1  # order exactly 2^s
    g = Fr.GENERATOR
    assert w == pow(g, (r - 1) >> s, r)
    primes = factor(r - 1)  # the cached factorization of the standard curves (checked on load)
    assert all(pow(g, (r - 1) // q, r) != 1 for q in primes)  # g generates Fr*
    assert all(any(pow(h, (r - 1) // q, r) == 1 for q in primes) for h in range(2, g))  # the smallest
    d = derive_fft_domain(r, curve.NAME)
    assert (d.two_adicity, d.generator, d.root_of_unity) == (s, g, w)
    for k in sorted({k for k in (0, 1, 5, s) if k <= s}):
        wk = int(Fr.root_of_unity(1 << k))
        assert wk == pow(g, (r - 1) >> k, r)
        assert pow(wk, 1 << k, r) == 1 and (k == 0 or pow(wk, 1 << (k - 1), r) == r - 1)


def test_eip4844_root_of_unity(curve_module):
    """EIP-4844's roots: pow(7, (r-1)/4096) for BLS12-381 (PRIMITIVE_ROOT_OF_UNITY = 7)."""
    C = curve_module("bls12_381")
    assert C.Fr.GENERATOR == 7
    assert int(C.Fr.root_of_unity(4096)) == pow(7, (C.R - 1) // 4096, C.R)


@pytest.mark.parametrize("seed", range(3))
def test_fft_matches_dft(curve, seed):
    rng = random.Random(seed)
    Fr, r = curve.Fr, curve.R
    for _ in range(3):
        n = 1 << rng.randrange(0, min(7, Fr.TWO_ADICITY + 1))  # BW6-767's r - 1 has 2^1 only
        values = [rng.randrange(r) for _ in range(n)]
        w = int(Fr.root_of_unity(n))
        assert [int(x) for x in Fr.fft(values)] == dft(curve, values, w)
        winv = pow(w, -1, r)
        ninv = pow(n, -1, r)
        assert [int(x) for x in Fr.fft(values, inverse=True)] == [v * ninv % r for v in dft(curve, values, winv)]
        shift = rng.randrange(1, r)
        assert [int(x) for x in Fr.fft(values, coset=shift)] == dft(curve, values, w, shift)
        assert [int(x) for x in Fr.fft(values, coset=True)] == dft(curve, values, w, Fr.COSET_SHIFT)


@pytest.mark.parametrize("logn", [0, 1, 3, 10, 13])
def test_fft_roundtrip_and_threads(curve, logn):
    rng = random.Random(logn)
    Fr, r = curve.Fr, curve.R
    n = 1 << logn
    values = [Fr(rng.randrange(r)) for _ in range(n)]
    if logn > Fr.TWO_ADICITY:  # BLS48-581's r - 1 has 2^10 only: the size is refused
        with pytest.raises(ValueError, match=rf"2\^{logn} is past this curve's limit"):
            Fr.fft(values, threads=4)
        return
    one = Fr.fft(values, threads=1)
    assert Fr.fft(values, threads=4) == one  # 2^13 >= the threading threshold
    assert Fr.fft(one, inverse=True, threads=3) == values
    coset = Fr.fft(values, coset=True, threads=2)
    assert Fr.fft(coset, inverse=True, coset=True) == values
    packed = Fr.vector_to_bytes(values)
    assert Fr.fft_bytes(packed, threads=2) == Fr.vector_to_bytes(one)
    little = Fr.vector_to_bytes(values, endian="little")
    assert Fr.vector_from_bytes(Fr.fft_bytes(little, endian="little"), endian="little") == one
    assert Fr.fft_bytes(Fr.fft_bytes(packed, coset=5), inverse=True, coset=5) == packed


def test_fft_limits(curve):
    Fr = curve.Fr
    s = Fr.TWO_ADICITY
    for n in (0, 3, 6, 100):
        with pytest.raises(ValueError, match="power of two"):
            Fr.fft([0] * n)
    with pytest.raises(ValueError, match=rf"2\^{s + 1} is past this curve's limit 2\^{s}"):
        Fr.root_of_unity(1 << (s + 1))
    with pytest.raises(ValueError, match="coset shift must not be zero"):
        Fr.fft([1, 2], coset=0)
    with pytest.raises(ValueError, match="not a multiple"):
        Fr.fft_bytes(b"\0" * (Fr.TWO_ADICITY and 33))
    bad = (curve.R).to_bytes(len(Fr(0).to_bytes()), "big")
    good = Fr(1).to_bytes()
    with pytest.raises(ValueError, match="element 1 is not canonical"):
        Fr.fft_bytes(good + bad)
    with pytest.raises(ValueError, match="element 1 is not canonical"):
        Fr.vector_from_bytes(good + bad)
    with pytest.raises(TypeError):
        Fr.fft(["x", 1])
    with pytest.raises(ValueError, match="endian"):
        Fr.fft_bytes(good, endian="middle")


def test_barycentric(curve):
    rng = random.Random(7)
    Fr, r = curve.Fr, curve.R
    for n in (n for n in (1, 2, 16, 64) if n <= 1 << Fr.TWO_ADICITY):
        coeffs = [rng.randrange(r) for _ in range(n)]
        evals = Fr.fft(coeffs)
        for z in (rng.randrange(r), 0, 1):
            expect = sum(c * pow(z, i, r) for i, c in enumerate(coeffs)) % r
            assert int(Fr.eval_barycentric(evals, z)) == expect
            rev = Fr.roots_of_unity(n, bit_reversed=True)
            nat = Fr.roots_of_unity(n)
            brp = [evals[nat.index(x)] for x in rev]
            assert int(Fr.eval_barycentric(brp, z, bit_reversed=True)) == expect
            assert int(Fr.eval_barycentric(Fr.vector_to_bytes(brp), z, bit_reversed=True)) == expect
        # z on the domain: the value there
        w = Fr.root_of_unity(n)
        assert Fr.eval_barycentric(evals, w ** 1 if n > 1 else 1) == evals[1 % n]
        # packed bytes (read as integers, the domain's roots kept after the first call): the
        # same values, on the domain too, with 0 and r - 1 among the elements
        edge = list(evals)
        edge[0] = Fr(r - 1)
        edge[-1] = Fr(0)
        for z in (rng.randrange(r), w ** (n - 1), 1):
            assert Fr.eval_barycentric(Fr.vector_to_bytes(edge), z) == Fr.eval_barycentric(edge, z)
            assert (Fr.eval_barycentric(Fr.vector_to_bytes(edge), z, bit_reversed=True)
                    == Fr.eval_barycentric(edge, z, bit_reversed=True))
        if n > 1:
            bad = Fr.vector_to_bytes(edge[:-1]) + r.to_bytes(len(Fr(0).to_bytes()), "big")
            with pytest.raises(ValueError, match=f"element {n - 1} is not canonical"):
                Fr.eval_barycentric(bad, 1)


def test_batch_inverse(curve):
    rng = random.Random(3)
    Fr, r = curve.Fr, curve.R
    values = [rng.randrange(1, r) for _ in range(50)]
    assert [int(x) for x in Fr.batch_inverse(values)] == [pow(v, -1, r) for v in values]
    assert Fr.batch_inverse([]) == []
    with pytest.raises(ZeroDivisionError, match=r"values\[2\]"):
        Fr.batch_inverse([1, 2, 0, 4])


def interpolant(C, values, xs):
    """The coefficients of the polynomial of degree < n through (xs[i], values[i]) (Lagrange, in
    Python integers mod r)."""
    r, n = C.R, len(values)
    coeffs = [0] * n
    for i in range(n):
        num, den = [1], 1
        for j in range(n):
            if j != i:
                num = [(a - xs[j] * b) % r for a, b in zip([0, *num], [*num, 0], strict=True)]
                den = den * (xs[i] - xs[j]) % r
        f = values[i] * pow(den, -1, r) % r
        coeffs = [(c + f * a) % r for c, a in zip(coeffs, num, strict=True)]
    return coeffs


@pytest.mark.parametrize("bit_reversed", [False, True])
def test_interpolate_cosets(curve, bit_reversed):
    """Fr.interpolate_cosets against Lagrange interpolation on each row's coset in Python
    integers: several rows per size (some on one coset, summed before their transform; shifts 1
    and r - 1 among them), weights 0, 1, r - 1 and random, elements 0 and r - 1; and its errors."""
    rng = random.Random(17 + bit_reversed)
    Fr, r = curve.Fr, curve.R
    for logn in range(min(4, Fr.TWO_ADICITY) + 1):
        n = 1 << logn
        w = int(Fr.root_of_unity(n))
        order = [int(format(t, f"0{logn}b")[::-1], 2) if logn else 0 for t in range(n)] if bit_reversed else range(n)
        pool = [1, r - 1, rng.randrange(2, r), rng.randrange(2, r)]
        rows = 1 + logn + 2
        shifts = [rng.choice(pool) for _ in range(rows)]
        weights = [0, 1, r - 1, *(rng.randrange(r) for _ in range(rows - 3))][:rows]
        data = [[rng.choice([0, r - 1, rng.randrange(r)]) for _ in range(n)] for _ in range(rows)]
        expected = [0] * n
        for shift, weight, values in zip(shifts, weights, data, strict=True):
            xs = [shift * pow(w, t, r) % r for t in order]
            expected = [(e + weight * c) % r for e, c in zip(expected, interpolant(curve, values, xs), strict=True)]
        packed = b"".join(Fr.vector_to_bytes(v) for v in data)
        got = Fr.interpolate_cosets(packed, [Fr(s) for s in shifts], weights, bit_reversed=bit_reversed)
        assert [int(x) for x in got] == expected, n
        unweighted = [0] * n  # weights=None: all 1, the shifts as ints
        for shift, values in zip(shifts, data, strict=True):
            xs = [shift * pow(w, t, r) % r for t in order]
            unweighted = [(e + c) % r for e, c in zip(unweighted, interpolant(curve, values, xs), strict=True)]
        assert [int(x) for x in Fr.interpolate_cosets(packed, shifts, bit_reversed=bit_reversed)] == unweighted
    size = len(Fr(0).to_bytes())
    n = min(4, 1 << Fr.TWO_ADICITY)
    good = Fr.vector_to_bytes(list(range(1, n + 1)))
    bad = good[: (n - 1) * size] + r.to_bytes(size, "big")
    with pytest.raises(ValueError, match=f"row 1 element {n - 1} is not canonical"):
        Fr.interpolate_cosets(good + bad, [1, 2])
    with pytest.raises(ValueError, match=r"shifts\[1\] is zero"):
        Fr.interpolate_cosets(good + good, [1, 0])
    with pytest.raises(ValueError, match="power of two"):
        Fr.interpolate_cosets(Fr.vector_to_bytes([1, 2, 3]) * 2, [1, 2])
    with pytest.raises(ValueError, match="whole elements"):
        Fr.interpolate_cosets(good + good[:size], [1, 2])
    with pytest.raises(ValueError, match="2 rows but 1 weights"):
        Fr.interpolate_cosets(good + good, [1, 2], [5])
    with pytest.raises(ValueError, match="no rows"):
        Fr.interpolate_cosets(b"", [])


def test_factor_cache_is_verified(tmp_path, monkeypatch):
    """A cached factorization is used only when it multiplies back and its factors are prime."""
    from generator.derive import fft_domain

    monkeypatch.setattr(fft_domain, "FACTOR_CACHE", tmp_path)
    n = 2**5 * 3 * 1009
    assert fft_domain.cached_factorization(n) is None
    assert fft_domain.factor(n) == {2: 5, 3: 1, 1009: 1}
    assert fft_domain.cached_factorization(n) == {2: 5, 3: 1, 1009: 1}
    (path,) = tmp_path.glob("*.json")
    path.write_text(path.read_text().replace('"1009"', '"1011"'))  # wrong: 1011 = 3 * 337
    assert fft_domain.cached_factorization(n) is None
    assert fft_domain.factor(n) == {2: 5, 3: 1, 1009: 1}


def test_generator_rule_without_a_factorization(tmp_path, monkeypatch):
    """Without a cached factorization the rule still gives the same g (small primes only)."""
    from generator.derive import fft_domain

    monkeypatch.setattr(fft_domain, "FACTOR_CACHE", tmp_path)
    r = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
    assert fft_domain.derive_fft_domain(r, "BLS12-381 r").generator == 7
