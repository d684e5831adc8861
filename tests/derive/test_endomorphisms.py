"""Endomorphisms (generator/derive/endomorphisms.py, templates/c/endomorphism.h.j2): GLV/GLS
decomposition, scalar multiplication with it, cofactor clearing and the fast subgroup tests.

The oracle is generator/reference (textbook affine arithmetic): [k]P, [h_eff]P and [r]P == O.
Subgroup tests are checked on points of every small order the cofactor allows (the relic/Chia bug
passed ordinary tests): T of prime order l for each small prime l of the cofactor, G + T, and
points of order dividing l^v r and (rest of the cofactor) r.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest
from conftest import REPO_ROOT, STANDARD_CURVES, skip_or_fail
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.derive.endomorphisms import TESTS, Evaluator, swap_phi
from generator.pipeline import derive_model
from generator.reference import ReferencePairing, reference_for_model

CURVE_FILES = {pkg: REPO_ROOT / "curves" / f"{pkg.replace('_', '-')}.toml" for pkg in STANDARD_CURVES}


@lru_cache(maxsize=None)
def model(pkg: str):
    return derive_model(CURVE_FILES[pkg])


@lru_cache(maxsize=None)
def reference(pkg: str) -> ReferencePairing:
    m = model(pkg)
    return reference_for_model(m)


def ref_curve(pkg: str, group: int):
    ref = reference(pkg)
    return ref.E1 if group == 1 else ref.E2


def group_endo(pkg: str, group: int):
    m = model(pkg)
    return m.endo.g1 if group == 1 else m.endo.g2


def ints(P):
    """A reference point -> the to_affine() format."""
    if P is None:
        return None

    def conv(a):
        if isinstance(a, (int, tuple)):
            return a
        cs = getattr(a, "coeffs", None)
        if cs is None:
            return int(a)
        return tuple(int(c) for c in cs)

    return (conv(P[0]), conv(P[1]))


def random_curve_point(E, rng: random.Random, degree: int):
    """A random point of the whole curve (reference arithmetic)."""
    p = _char(E)
    while True:
        x = E.field(tuple(rng.randrange(p) for _ in range(degree))) if degree > 1 else E.field(rng.randrange(p))
        P = E.lift_x(x)
        if P is not None:
            return P


def _char(E) -> int:
    for pkg in STANDARD_CURVES:
        ref = reference(pkg)
        if E is ref.E1 or E is ref.E2:
            return ref.p
    raise AssertionError("unknown curve")


def degree(pkg: str, group: int) -> int:
    return 1 if group == 1 else model(pkg).fq_degree


def to_module(G, P):
    if P is None:
        return G.identity()
    return G.from_affine(*ints(P), check=False)


def small_primes(n: int, bound: int = 1 << 16) -> tuple[dict[int, int], int]:
    """{l: v} for the primes l < bound dividing n, and the rest of n."""
    out: dict[int, int] = {}
    ell = 2
    while ell < bound and n > 1:
        while n % ell == 0:
            out[ell] = out.get(ell, 0) + 1
            n //= ell
        ell += 1 if ell == 2 else 2
    return out, n


# ----------------------------------------------------------------------------------------------
# Derivation (no build needed)


def test_h_eff_rfc9380_bls12_381():
    """The h_eff of the RFC 9380 BLS12-381 suites (RFC 9380 §8.8.1 and §8.8.2)."""
    m = model("bls12_381")
    assert m.endo.g1.h_eff == 0xD201000000010001
    assert m.endo.g2.h_eff == int(
        "0xbc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff031508ffe1329c2f178731db956d82bf015d"
        "1212b02ec0ec69d7477c1ae954cbc06689f6a359894c0adebbf6b4e8020005aaa95551", 16)


@pytest.mark.parametrize("pkg", ["bls12_381", "bls12_377"])
def test_glv_beta_lambda_pair(pkg):
    """gnark's beta (thirdRootOneG1) pairs with lambda = x^2 - 1 (gnark-crypto's published constants); the other
    cube root pairs with the other eigenvalue -x^2."""
    gnark_beta = {
        "bls12_381": 4002409555221667392624310435006688643935503118305586438271171395842971157480381377015405980053539358417135540939436,
        "bls12_377": 80949648264912719408558363140637477264845294720710499478137287262712535938301461879813459410945,
    }[pkg]
    m = model(pkg)
    e = m.endo.g1
    if e.zeta[0] == gnark_beta:
        assert e.lam == (m.x**2 - 1) % m.r
    else:
        assert e.zeta[0] == gnark_beta**2 % m.p
        assert e.lam == -m.x**2 % m.r


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
@pytest.mark.parametrize("group", [1, 2])
def test_glv_basis(pkg, group):
    m = model(pkg)
    d = group_endo(pkg, group).glv
    lam = group_endo(pkg, group).lam
    for row in d.basis:
        assert sum(b * pow(lam, i, m.r) for i, b in enumerate(row)) % m.r == 0
    assert d.dim == (4 if (group == 2 and m.k == 12) else 2)
    assert d.bits <= m.r.bit_length() // d.dim + 4


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
@pytest.mark.parametrize("group", [1, 2])
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_glv_decomposition(pkg, group, data):
    """sum k_i lam^i = k mod r and |k_i| < 2^bits for any k below 2^(bits of r)."""
    m = model(pkg)
    e = group_endo(pkg, group)
    rbits = m.r.bit_length()
    k = data.draw(st.one_of(st.integers(0, (1 << rbits) - 1), st.sampled_from([0, 1, m.r - 1, m.r, (1 << rbits) - 1])))
    parts = e.glv.split(k)
    assert sum(ki * pow(e.lam, i, m.r) for i, ki in enumerate(parts)) % m.r == k % m.r
    assert all(abs(ki) < 1 << e.glv.bits for ki in parts)


def E_has_point_0_2(m) -> bool:
    E = m.E2
    return E.on_curve((E.F.elem(0), E.F.elem(2))) and E.mul((E.F.elem(0), E.F.elem(2)), 3) is None


def test_bw6_g2_published_test_has_a_3_torsion_kernel():
    """The HGP formula [x+1]P + phi([x^3 - x^2 + 1]P) == O holds on G2 of BW6-761 but also on
    G + T for a point T of order 3 of E'(Fp): b' = 4 is a square, so T = (0, 2) is on E', phi fixes
    it, and (x + 1) + (x^3 - x^2 + 1) = 0 mod 3 for x = 1 mod 3. The generator must not use that
    formula (it uses a proven lattice vector instead), and in_subgroup rejects G + T (checked in
    test_subgroup_membership_small_orders)."""
    m = model("bw6_761")
    assert m.endo.g2.test is None and m.endo.g2.test_vector is not None
    assert E_has_point_0_2(m)
    E = m.E2
    rng = random.Random(3)
    n = m.r * m.h2
    T = None
    while T is None:
        T = E.mul(E.random_point(rng), n // 3)
    cand = TESTS[("BW6/BLS12", "G2")][0][0]
    ev = Evaluator(E, "phi", m.endo.g2.zeta, (), m.x)
    if ev.formula(cand, m.g2_gen) is not None:
        cand = swap_phi(cand)
    assert ev.formula(cand, m.g2_gen) is None
    P = E.add(m.g2_gen, T)
    assert ev.formula(cand, P) is None, "the formula accepts G + T"
    assert E.mul(P, m.r) is not None, "G + T is not in G2"


# ----------------------------------------------------------------------------------------------
# Generated code


@pytest.fixture(params=STANDARD_CURVES)
def pkg(request, curve_module):
    curve_module(request.param)
    return request.param


def module(pkg: str):
    import importlib

    return importlib.import_module(f"generated.{pkg}")


def rbits(pkg: str) -> int:
    return model(pkg).r.bit_length()


def edge_scalars(pkg: str, group: int) -> list[int]:
    """0, 1, r - 1, r, and scalars where the Babai rounding constants sit near one half."""
    m = model(pkg)
    d = group_endo(pkg, group).glv
    out = [0, 1, 2, m.r - 1, m.r - 2, (m.r + 1) // 2]
    for g in d.g:
        if g:
            for j in (1, 2, 3, 1000):
                k = ((2 * j + 1) << (d.shift - 1)) // abs(g)
                out += [k % m.r, (k + 1) % m.r]
    return out


@pytest.mark.parametrize("group", [1, 2])
def test_scalar_multiplication(pkg, group):
    """P * k (constant time) and P.mul_vartime(k) against the reference [k]P."""
    C, m = module(pkg), model(pkg)
    E = ref_curve(pkg, group)
    G = C.G1 if group == 1 else C.G2
    rng = random.Random(f"{pkg}:{group}:mul")
    base_log = rng.randrange(1, m.r)
    P = G.generator() * base_log
    P_ref = E.mul(G.generator().to_affine(), base_log)
    assert P.to_affine() == ints(P_ref)
    scalars = edge_scalars(pkg, group) + [rng.randrange(m.r) for _ in range(6)] + [-5, m.r + 7]
    # every entry of the constant-time table, [0..2^(w-1)] e^i(P), with both signs of the digit
    scalars += list(range(2 ** group_endo(pkg, group).glv.ct_window + 1)) + [-j for j in range(1, 10)]
    for k in scalars:
        want = ints(E.mul(P_ref, k % m.r))
        assert (P * k).to_affine() == want, k
        assert P.mul_vartime(k).to_affine() == want, k
        assert (k * P) == P * k
    assert (G.identity() * 12345).is_identity()
    assert G.identity().mul_vartime(12345).is_identity()


@pytest.mark.parametrize("group", [1, 2])
def test_scalar_multiplication_agrees(pkg, group):
    """Constant-time, variable-time and msm agree on many random scalars (cheap: no reference)."""
    C, m = module(pkg), model(pkg)
    G = C.G1 if group == 1 else C.G2
    rng = random.Random(f"{pkg}:{group}:agree")
    P = G.generator() * rng.randrange(1, m.r)
    for _ in range(40):
        k = rng.randrange(m.r)
        a = P * k
        assert a == P.mul_vartime(k) == G.msm([P], [k])


@pytest.mark.parametrize("group", [1, 2])
def test_clear_cofactor(pkg, group):
    """clear_cofactor() equals [h_eff]P (reference) on random points of the whole curve, and on
    points of small order; the result is in the subgroup."""
    C, m = module(pkg), model(pkg)
    E = ref_curve(pkg, group)
    G = C.G1 if group == 1 else C.G2
    e = group_endo(pkg, group)
    rng = random.Random(f"{pkg}:{group}:clear")
    n = m.r * e.cofactor
    small, _ = small_primes(e.cofactor)
    points = [random_curve_point(E, rng, degree(pkg, group)) for _ in range(3)]
    for ell, v in small.items():
        points.append(E.mul(random_curve_point(E, rng, degree(pkg, group)), n // ell**v))
    for P in points:
        Q = to_module(G, P).clear_cofactor()
        assert Q.to_affine() == ints(E.mul(P, e.h_eff))
        assert Q.in_subgroup()
    assert G.identity().clear_cofactor().is_identity()


@pytest.mark.parametrize("group", [1, 2])
def test_subgroup_membership_small_orders(pkg, group):
    """in_subgroup() agrees with [r]P == O on random points, on points T of each small prime order
    l of the cofactor, on G + T, and on points of order dividing l^v r and (rest) r."""
    C, m = module(pkg), model(pkg)
    E = ref_curve(pkg, group)
    G = C.G1 if group == 1 else C.G2
    e = group_endo(pkg, group)
    rng = random.Random(f"{pkg}:{group}:subgroup")
    n = m.r * e.cofactor
    dg = degree(pkg, group)
    gen = G.generator().to_affine()
    small, rest = small_primes(e.cofactor)
    points = [random_curve_point(E, rng, dg) for _ in range(2)] + [gen, E.mul(gen, 5)]
    for ell, v in small.items():
        for _ in range(2):
            R = random_curve_point(E, rng, dg)
            Q = E.mul(R, n // ell**v)               # order divides l^v
            while Q is not None and E.mul(Q, ell) is not None:
                Q = E.mul(Q, ell)                   # order l
            if Q is not None:
                points += [Q, E.add(gen, Q)]
            points.append(E.mul(R, n // (ell**v * m.r)))   # order divides l^v r
    if rest > 1:
        points.append(E.mul(random_curve_point(E, rng, dg), n // (rest * m.r)))  # order | rest r
    seen_outside = False
    for P in points:
        want = E.mul(P, m.r) is None
        seen_outside |= not want
        assert to_module(G, P).in_subgroup() == want, (e.test_note, ints(P))
    assert seen_outside or e.cofactor == 1


def test_gt_exponentiation(pkg):
    """GT ** k (constant time) and pow_vartime (Frobenius split) against the reference power of the
    same element in Fp^k."""
    C, m = module(pkg), model(pkg)
    ref = reference(pkg)
    e = C.pairing(C.G1.generator(), C.G2.generator()) ** 3
    f = ref.from_tower(e.to_tuple())
    rng = random.Random(f"{pkg}:gtpow")
    d = m.endo.gt_glv
    ks = [0, 1, 2, m.r - 1, m.r, -3] + [rng.randrange(m.r) for _ in range(4)]
    ks += [((2 * j + 1) << (d.shift - 1)) // abs(g) % m.r for g in d.g if g for j in (1, 7)]
    for k in ks:
        want = ref.to_tower(f ** (k % m.r))
        assert (e ** k).to_tuple() == want, k
        assert e.pow_vartime(k).to_tuple() == want, k


def test_gt_subgroup_small_orders(pkg):
    """GT membership (GT(f) and GT.from_bytes) agrees with the reference f^r == 1 on elements outside
    the cyclotomic subgroup, on elements T of each small prime order l of Phi_k(p) / r inside it,
    on e * T (e a pairing value) and on an element of order dividing (rest) r."""
    C, m = module(pkg), model(pkg)
    ref = reference(pkg)
    Fk = ref.Fk
    rng = random.Random(f"{pkg}:gt")
    phi = (m.p**4 - m.p**2 + 1) if m.k == 12 else (m.p**2 - m.p + 1)
    easy = (m.p**m.k - 1) // phi
    deg = m.fq_degree

    def rand_fk():
        return Fk([ref.Fq(tuple(rng.randrange(m.p) for _ in range(deg)) if deg > 1 else rng.randrange(m.p))
                   for _ in range(6)])

    def accepted(f) -> bool:
        try:
            C.GT(ref.to_tower(f))
        except ValueError:
            return False
        return True

    g = rand_fk() ** easy                     # in the cyclotomic subgroup
    gen = g ** (phi // m.r)                   # in GT
    elements = [rand_fk(), g, gen, gen ** 12345]
    small, rest = small_primes(phi // m.r)
    for ell, v in small.items():
        t = g ** (phi // ell**v)
        while not (t ** ell).is_one():
            t = t ** ell
        if not t.is_one():
            elements += [t, gen * t]
    if rest > 1:
        elements.append(g ** (phi // (rest * m.r)))
    seen_outside = False
    for f in elements:
        want = not f.is_zero() and (f ** m.r).is_one()
        seen_outside |= not want
        assert accepted(f) == want
    assert seen_outside


# ----------------------------------------------------------------------------------------------
# Constant time (valgrind): the GLV path of P * k on a secret scalar

CT_MAIN = r"""
#include <stdio.h>
#include <valgrind/memcheck.h>
#include "pairforge.h"

int main(int argc, char **argv)
{
    g1_t p, r1;
    g2_t q, r2;
    gt_t f, r3;
    limb_t k[FR_NLIMBS], out = 0;
    size_t i;
    int vartime = argc > 1 && argv[1][0] == 'v';

    for (i = 0; i < FR_NLIMBS; i++)
        k[i] = (limb_t)0x9E3779B97F4A7C15ULL * (limb_t)(i + 1);
    fp_set_one(&p.x); fp_dbl(&p.y, &p.x); fp_add(&p.z, &p.y, &p.x);
    q.x = G2_B; q.y = G2_B; q.z = G2_B;
    {{FQ6}}_set_one(&f);
    f.c1.c0 = q.x;
    VALGRIND_MAKE_MEM_UNDEFINED(k, sizeof(k));
    VALGRIND_MAKE_MEM_UNDEFINED(&f, sizeof(f));
    VALGRIND_MAKE_MEM_UNDEFINED(&p, sizeof(p));
    VALGRIND_MAKE_MEM_UNDEFINED(&q, sizeof(q));
    if (vartime) {
        g1_mul_vartime(&r1, &p, k, FR_NLIMBS);
        g2_mul_vartime(&r2, &q, k, FR_NLIMBS);
        gt_pow_endo_vartime(&r3, &f, k);
    } else {
        g1_mul_endo_ct(&r1, &p, k);
        g2_mul_endo_ct(&r2, &q, k);
        gt_pow_endo_ct(&r3, &f, k);
    }
    VALGRIND_MAKE_MEM_DEFINED(&r1, sizeof(r1));
    VALGRIND_MAKE_MEM_DEFINED(&r2, sizeof(r2));
    VALGRIND_MAKE_MEM_DEFINED(&r3, sizeof(r3));
    for (i = 0; i < sizeof(r1) / sizeof(limb_t); i++)
        out ^= ((const limb_t *)&r1)[i];
    for (i = 0; i < sizeof(r2) / sizeof(limb_t); i++)
        out ^= ((const limb_t *)&r2)[i];
    for (i = 0; i < sizeof(r3) / sizeof(limb_t); i++)
        out ^= ((const limb_t *)&r3)[i];
    printf("%lx\n", (unsigned long)out);
    return 0;
}
"""

HAVE_MEMCHECK = shutil.which("valgrind") is not None and Path("/usr/include/valgrind/memcheck.h").exists()


@pytest.mark.skipif(not HAVE_MEMCHECK, reason="needs valgrind and valgrind/memcheck.h")
@pytest.mark.parametrize("curve", ["bls12_381", "bn254"])
@pytest.mark.parametrize("bits", [64, 32])
def test_mul_endo_ct_valgrind(curve, bits, tmp_path):
    """g1/g2_mul_endo_ct and gt_pow_endo_ct on an undefined (secret) scalar and input: no branch or
    memory index on them; the variable-time paths on the same inputs are caught (a control)."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        skip_or_fail("no C compiler")
    src = tmp_path / "ct.c"
    src.write_text(CT_MAIN.replace("{{FQ6}}", "fp12" if model(curve).k == 12 else "fp6"))
    exe = tmp_path / "ct"
    inc = REPO_ROOT / "generated" / curve / "c"
    build = subprocess.run([cc, "-O1", "-std=c99", f"-DPF_LIMB_BITS={bits}", "-I", str(inc), str(src), "-o", str(exe)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    base = ["valgrind", "--tool=memcheck", "--error-exitcode=99", "-q", str(exe)]
    ct = subprocess.run(base + ["ct"], capture_output=True, text=True, timeout=600)
    assert ct.returncode == 0, ct.stderr[-4000:]
    var = subprocess.run(base + ["vartime"], capture_output=True, text=True, timeout=600)
    assert var.returncode == 99 and "uninitialised" in var.stderr
