"""The GT field's multiplication on AVX-512 IFMA (templates/c/tower/_ifma.j2; its plan and bounds
from generator/derive/ifma_tower.py).

The derivation is checked on its own: which towers get a plan, the plan's bounds re-measured on the
largest inputs, and a plan or constant that is altered stops it. The kernel is compiled into the
x86_64-adx module of a curve with a plan and runs where the CPU reports AVX-512F, AVX-512DQ,
AVX-512VL and IFMA; there its products and squares are compared with the reference tower (generator/reference)
on random elements, on coefficients at the edges (0, 1, p - 1, p - 2, mixed) and with the output
aliasing an input. On a CPU without IFMA those tests skip with that reason: the module then runs
the limb code, which tests/pairings/test_api.py checks. Every test of the pairing, GT and protocols
also runs through the kernel where it runs.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest
from conftest import REPO_ROOT, STANDARD_CURVES

import generator.derive.ifma_tower as ifma_tower
from bench.cbench import cpu_flags
from generator.derive.ifma_tower import LIMB_BITS, derive_ifma_tower
from generator.emit.tower import tower_emit
from generator.pipeline import derive_model
from generator.reference import reference_for_model

# One worker takes the file: the curve models and plans are derived once (a few seconds each).
pytestmark = pytest.mark.xdist_group("tower_ifma")


@cache
def _model(name: str):
    return derive_model(REPO_ROOT / "curves" / f"{name.replace('_', '-')}.toml")


def _signed(value: int, p: int) -> int:
    return value if value <= p // 2 else value - p


@cache
def _plan(name: str):
    """The plan the templates get (line slots from the twist included), or None."""
    ifma = tower_emit(_model(name)).ifma
    return None if ifma is None else ifma.plan


def test_which_towers_get_a_plan():
    """A plan where the multiplication's bounds hold with at most 8 limbs: the three k = 12 curves,
    with 5 limbs (BN254) and 8 (BLS12-381, BLS12-377), and all their kernels (a chain's quotient
    estimate brings its values below 3p, its next inputs' range, whatever the reduction leaves);
    the other towers are not quadratic over cubic over Fp2 (k = 6, 24, 48 have no plan)."""
    limbs = {"bn254": 5, "bls12_381": 8, "bls12_377": 8}
    for name, n in limbs.items():
        plan = _plan(name)
        assert plan is not None and plan.limbs == n and plan.words == _model(name).fp.limbs64, name
        assert (len(plan.mul.operands), len(plan.mul.outputs), plan.mul.batches) == (54, 12, 7)
        # the complex squaring: two products in Fp6 (36), v a1 in an operand (signed sums)
        assert plan.sqr is not None and (len(plan.sqr.operands), plan.sqr.batches) == (36, 5)
        assert any(offset for _, _, offset in plan.sqr.pre)
        # 13 products in Fp2 of f by a line, as the limb code has; its three Fp2 slots by the twist
        assert plan.mul_by_line is not None and len(plan.mul_by_line.operands) == 39
        assert plan.line_slots == ((0, 3, 4) if _model(name).twist.kind == "D" else (0, 1, 4))
        # a product of two lines (W^0, W^1, W^3 or W^0, W^2, W^3) misses W^5 (slot 5, c1.c2) on a
        # D-twist and W^1 (slot 3, c1.c0) on an M-twist: b zero in one Fp2 slot saves 3 products
        assert plan.line_product_slots == ((0, 1, 2, 3, 4) if _model(name).twist.kind == "D" else (0, 1, 2, 4, 5))
        assert plan.mul_by_line_product is not None and len(plan.mul_by_line_product.operands) == 51
        gs, karabina = plan.cyclotomic_sqr, plan.cyclotomic_sqr_compressed
        # nine complex squarings in Fp2 (two products each) and the 12 inputs that the outputs
        # add, placed without a product; Karabina's six and four
        assert gs is not None and (len(gs.operands), len(gs.placed), len(gs.outputs), gs.batches) == (18, 12, 12, 3)
        assert karabina is not None and (len(karabina.operands), len(karabina.placed), len(karabina.outputs),
                                         karabina.batches) == (12, 8, 8, 2)
        assert [i for i, _ in karabina.outputs] == [2, 3, 4, 5, 6, 7, 10, 11]  # x1, x2, x3, x5
        assert list(karabina.placed) == [f"a{i}" for i in (2, 3, 4, 5, 6, 7, 10, 11)]
        chain = plan.compressed_chain
        assert chain is not None and chain.operands == karabina.operands and not chain.by_r64
        # the chain's sums are offset by multiples of its inputs' bound (3p), not of p
        assert [k for *_, k in chain.pre] == [3 * k for *_, k in karabina.pre] and any(k for *_, k in chain.pre)
        # the Miller loop's doubling step: where 3 b' has small integer coefficients (BLS12-381's
        # 12 + 12 u), eleven products into the line and B, E, 2XY (twelve outputs), then ten into
        # the point (six); where not (BN254's 9 / (9 + u), BLS12-377's 3 / u), a middle round
        # multiplies C by 3 b' (three products, B placed for E - B: four outputs)
        first, *middle, last = plan.line_dbl
        assert (len(first.operands), len(last.operands), len(last.outputs)) == (11, 10, 6)
        assert {x for pair in first.operands for x in pair} <= {f"a{i}" for i in range(6)} | {
            name for name, *_ in first.pre}
        if _model(name).twist.b3_small is not None:
            assert name == "bls12_381" and not middle and len(first.outputs) == 12 and plan.line_dbl_b3 == ()
        else:
            assert [(len(k.operands), len(k.placed), len(k.outputs)) for k in middle] == [(3, 2, 4)]
            assert len(first.outputs) == 10
            # 3 b' R64 mod p, in n limbs
            m = _model(name)
            r64 = 1 << (64 * m.fp.limbs64)
            b3 = [int(c) * r64 % m.p for c in m.E2.F.scale(m.twist.b, 3)]
            assert [sum(limb << (LIMB_BITS * i) for i, limb in enumerate(c)) for c in plan.line_dbl_b3] == b3
    bw6 = _model("bls12_381").p  # any prime: a k = 6 tower (no beta) gets no plan before p is read
    assert derive_ifma_tower(bw6, 6, 6, None, (2,), "a k = 6 tower") is None


def test_last_batches_of_four_run_in_256_bit_vectors():
    """A kernel's products and reductions run eight lanes at a time, and a last batch of four or
    fewer in 256-bit vectors: the squaring's 36 products as four batches and one of four, twelve
    outputs as one batch and one of four; the multiplication's 54 products as seven batches (a rest
    of six takes a full batch); Karabina's eight outputs in one batch."""
    ifma = tower_emit(_model("bls12_381")).ifma
    assert (ifma.sqr.product_batches, ifma.sqr.product_quad) == (4, True)
    assert (ifma.sqr.reduction_batches, ifma.sqr.reduction_quad) == (1, True)
    assert (ifma.mul.product_batches, ifma.mul.product_quad) == (7, False)
    assert (ifma.mul.reduction_batches, ifma.mul.reduction_quad) == (1, True)
    assert (ifma.compressed_chain.product_batches, ifma.compressed_chain.product_quad) == (1, True)
    assert (ifma.cyclotomic_sqr_compressed.reduction_batches, ifma.cyclotomic_sqr_compressed.reduction_quad) == (1, False)
    # the doubling step's rounds: eleven products and twelve outputs, ten products and six outputs;
    # where a middle round multiplies by 3 b', its three products and four outputs in 256 bits alone
    assert [(k.product_batches, k.product_quad, k.reduction_batches, k.reduction_quad)
            for k in ifma.line_dbl] == [(1, True, 1, True), (1, True, 1, False)]
    middle = tower_emit(_model("bn254")).ifma.line_dbl[1]
    assert (middle.product_batches, middle.product_quad, middle.reduction_batches, middle.reduction_quad) == (
        0, True, 0, True)
    for kernel in (ifma.mul, ifma.sqr, ifma.mul_by_line, ifma.mul_by_line_product, ifma.cyclotomic_sqr,
                   ifma.cyclotomic_sqr_compressed, ifma.compressed_chain, *ifma.line_dbl, middle):
        for count, batches, quad in ((len(kernel.plan.operands), kernel.product_batches, kernel.product_quad),
                                     (len(kernel.plan.outputs), kernel.reduction_batches, kernel.reduction_quad)):
            if quad:  # a last batch of one to four
                assert 8 * batches < count <= 8 * batches + 4
            else:     # full batches, the last with more than four
                assert 8 * batches - 4 < count <= 8 * batches


KERNELS = ("mul", "sqr", "mul_by_line", "mul_by_line_product", "cyclotomic_sqr", "cyclotomic_sqr_compressed",
           "compressed_chain", "line_dbl[0]", "line_dbl[1]", "line_dbl[2]")


def _kernel_plan(tower, kernel: str):
    """A kernel's plan by its name in KERNELS ("line_dbl[i]": the doubling step's round i + 1)."""
    if kernel.startswith("line_dbl["):
        i = int(kernel[-2])
        return None if tower.line_dbl is None or i >= len(tower.line_dbl) else tower.line_dbl[i]
    return getattr(tower, kernel)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("name", ("bn254", "bls12_381", "bls12_377"))
def test_plan_bounds_at_the_largest_inputs(name, kernel):
    """Each plan's bounds, from its inputs' range ([0, p), or [0, 3p) inside a chain of squarings):
    every operand sum non-negative at its least and below R52 at its largest; every output, for the
    products at their largest, in the reduction's range; and its columns (each product's 2n columns
    below 2n 2^52, combined as the plan says) below 2^63. The plan is also evaluated with every
    input at its largest, against the same bounds."""
    tower = _plan(name)
    plan = _kernel_plan(tower, kernel)
    if plan is None:
        pytest.skip(f"{name} has no {kernel} kernel")
    p = _model(name).p
    n = tower.limbs
    r52 = 1 << (LIMB_BITS * n)
    top = tower.chain_input_bound * p - 1 if kernel == "compressed_chain" else p - 1
    # each pre-stage value's range, and every input at its largest
    high = {f"{s}{i}": top for s in "ab" for i in range(max(12, tower.line_dbl_slots))}
    low = {name: 0 for name in high}
    value = dict(high)
    for dest, terms, offset in plan.pre:
        high[dest] = sum(c * (high[x] if c > 0 else low[x]) for c, x in terms) + offset * p
        low[dest] = sum(c * (low[x] if c > 0 else high[x]) for c, x in terms) + offset * p
        value[dest] = sum(c * value[x] for c, x in terms) + offset * p
        assert 0 <= low[dest] <= value[dest] <= high[dest] < r52
    # the reduction divides by R64 where the plan says so (and R64 <= R52), else by R52
    r64 = 1 << (64 * tower.words)
    divisor = r64 if plan.by_r64 else r52
    assert divisor <= r52
    # a post value as an integer combination of the products and the placed inputs (x divisor)
    lin: dict[str, dict[str, int]] = {}
    bound: dict[str, int] = {}
    for k, (x, y) in enumerate(plan.operands):
        assert max(high[x], high[y]) < 1 << plan.operand_bits
        value[f"P{k}"] = value[x] * value[y]
        bound[f"P{k}"] = high[x] * high[y]
        lin[f"P{k}"] = {f"P{k}": 1}
    for k, x in enumerate(plan.placed):
        value[f"X{k}"] = value[x] * divisor
        bound[f"X{k}"] = high[x] * divisor
        lin[f"X{k}"] = {f"X{k}": 1}
    for dest, terms in plan.post:
        value[dest] = sum(c * value[s] for c, s in terms)
        lin[dest] = {}
        for c, s in terms:
            for k, v in lin[s].items():
                lin[dest][k] = lin[dest].get(k, 0) + c * v
    # a product's column: 2n halves of limb products; a placed input's, two pieces of a limb
    column = 2 * n * (1 << LIMB_BITS)
    for _, out in plan.outputs:
        most = sum(v * bound[k] for k, v in lin[out].items() if v > 0)
        least = sum(v * bound[k] for k, v in lin[out].items() if v < 0)
        assert least <= value[out] <= most
        assert -plan.offset * p * divisor < least  # the offset makes the reduction non-negative
        assert most // divisor + (plan.offset + 1) * p <= plan.reduced_bound
        # the reduced values fit the limbs the reduction leaves: below R52^2 / R64, or n limbs
        # whose top one is a signed 64-bit lane (R52)
        assert plan.reduced_bound <= (r52 * r52 // r64 if plan.by_r64 else 1 << (LIMB_BITS * (n - 1) + 63))
        # the quotient estimate's parameters cover the bound: it leaves the values below 3p, the
        # next squaring's inputs in a chain
        u, mu = plan.quotient
        assert (plan.reduced_bound - 1) >> tower.quotient_shift < 1 << u <= 1 << 25
        assert mu == (1 << (tower.quotient_shift + u)) // p
        if kernel == "compressed_chain":
            assert tower.chain_input_bound == 3
        # the columns as the lanes compute them, wrapping mod 2^64: what must fit is the result's
        # (products' columns are non-negative), with the reduction's own non-negative terms and a
        # limb of its offset
        positive = sum(v for v in lin[out].values() if v > 0)
        negative = sum(-v for v in lin[out].values() if v < 0)
        assert max(positive * column + column + (1 << LIMB_BITS), negative * column) < 1 << plan.column_bits <= 1 << 63


def test_altered_plan_or_constant_stops_the_derivation(monkeypatch):
    """A wrong coefficient in the traced multiplication (xi's first component off by one in the
    products by xi), a wrong sign in the cyclotomic squaring (3 t + 2 x for 3 t - 2 x), a doubling
    step that reads a wrong value, a wrong -p^-1 mod 2^52, and a limb count below the bounds' each
    stop it or leave no plan."""
    m = _model("bls12_381")
    xi = tuple(_signed(c, m.p) for c in m.tower.xi)
    uncached = derive_ifma_tower.__wrapped__  # the derivation itself, not its cached result
    assert uncached(m.p, m.fp.limbs64, m.k, m.tower.beta, xi, m.name, (0, 1, 4)) is not None

    real_xi = ifma_tower._Trace.w2_xi

    def wrong_xi(self, x):
        self.xi = (self.xi[0] + 1, self.xi[1])
        try:
            return real_xi(self, x)
        finally:
            self.xi = (self.xi[0] - 1, self.xi[1])

    with monkeypatch.context() as patch:
        patch.setattr(ifma_tower._Trace, "w2_xi", wrong_xi)
        with pytest.raises(ifma_tower.DerivationError, match="traced plan equals the schoolbook"):
            uncached(m.p, m.fp.limbs64, m.k, m.tower.beta, xi, m.name, (0, 1, 4))

    real_coefficient = ifma_tower._Trace.cyclotomic_coefficient

    def wrong_sign(self, t, a, minus):
        return real_coefficient(self, t, a, not minus)

    with monkeypatch.context() as patch:
        patch.setattr(ifma_tower._Trace, "cyclotomic_coefficient", wrong_sign)
        with pytest.raises(ifma_tower.DerivationError, match="traced cyclotomic squaring equals the schoolbook"):
            uncached(m.p, m.fp.limbs64, m.k, m.tower.beta, xi, m.name, (0, 1, 4))

    real_invert = ifma_tower.gmpy2.invert
    with monkeypatch.context() as patch:
        patch.setattr(ifma_tower.gmpy2, "invert",
                      lambda a, mod: real_invert(a, mod) + (1 if mod == 1 << LIMB_BITS else 0))
        with pytest.raises(ifma_tower.DerivationError, match="-p\\^-1 mod 2\\^52"):
            uncached(m.p, m.fp.limbs64, m.k, m.tower.beta, xi, m.name, (0, 1, 4))

    # the doubling step's second round reading B where it reads E
    b3 = (12, 12)
    assert uncached(m.p, m.fp.limbs64, m.k, m.tower.beta, xi, m.name, (0, 1, 4), b3).line_dbl is not None
    with monkeypatch.context() as patch:
        patch.setattr(ifma_tower, "LINE_DBL_E", ifma_tower.LINE_DBL_B)
        with pytest.raises(ifma_tower.DerivationError, match="traced doubling step equals pf_line_dbl"):
            uncached(m.p, m.fp.limbs64, m.k, m.tower.beta, xi, m.name, (0, 1, 4), b3)
    # BN254's, with its middle round by 3 b': C written over B
    bn = _model("bn254")
    bn_xi = tuple(_signed(c, bn.p) for c in bn.tower.xi)
    bn_b3 = tuple(int(c) for c in bn.E2.F.scale(bn.twist.b, 3))
    args = (bn.p, bn.fp.limbs64, bn.k, bn.tower.beta, bn_xi, bn.name, (0, 3, 4), bn_b3)
    assert len(uncached(*args).line_dbl) == 3
    with monkeypatch.context() as patch:
        patch.setattr(ifma_tower, "LINE_DBL_C", ifma_tower.LINE_DBL_B)
        with pytest.raises(ifma_tower.DerivationError, match="traced doubling step equals pf_line_dbl"):
            uncached(*args)

    with monkeypatch.context() as patch:
        patch.setattr(ifma_tower, "MAX_LIMBS", 7)
        assert uncached(m.p, m.fp.limbs64, m.k, m.tower.beta, xi, m.name, (0, 1, 4)) is None


@pytest.mark.parametrize("name", ("bn254", "bls12_381"))
def test_plan_constants(name):
    """The kernel's constants, re-derived from p: p in 52-bit limbs, -p^-1 mod 2^52, the factor
    that takes x R64^2 / R52 to x R64 in one Montgomery product, and for the kernels that reduce by
    R64 its steps (52 steps + tail = 64 L bits), their offsets (offset p 2^tail) and the p and 2p
    of the subtractions after the quotient estimate. Every kernel outside a chain reduces by R64 on
    both curves (R64 = 2^256 <= R52 = 2^260 for BN254, 2^384 <= 2^416 for BLS12-381)."""
    plan = _plan(name)
    m = _model(name)
    p, n = m.p, plan.limbs
    r52, r64 = 1 << (LIMB_BITS * n), 1 << (64 * m.fp.limbs64)

    def value(limbs):
        assert all(0 <= limb < 1 << LIMB_BITS for limb in limbs)
        return sum(limb << (LIMB_BITS * i) for i, limb in enumerate(limbs))

    assert value(plan.modulus) == p
    assert value(plan.one) == r64 % p
    assert (plan.n0 * p + 1) % (1 << LIMB_BITS) == 0
    x = 0xC0FFEE
    reduced = x * r64 * r64 * pow(r52, -1, p) % p   # a product of x R64 and R64, reduced once
    assert reduced * value(plan.to_r64) * pow(r52, -1, p) % p == x * r64 % p
    assert LIMB_BITS * plan.redc_steps + plan.redc_tail_bits == 64 * m.fp.limbs64
    assert 0 <= plan.redc_tail_bits < LIMB_BITS
    assert 1 << plan.quotient_shift < p < 2 << plan.quotient_shift
    kernels = [k for k in (plan.mul, plan.sqr, plan.mul_by_line, plan.mul_by_line_product, plan.cyclotomic_sqr,
                           plan.cyclotomic_sqr_compressed, *(plan.line_dbl or ())) if k is not None]
    assert all(k.by_r64 for k in kernels)
    assert [value(row) for row in plan.p_times] == [p, 2 * p]
    for k in kernels:
        assert len(k.redc_offset) == n + (1 if plan.redc_tail_bits else 0)
        assert value(k.redc_offset) == k.offset * p << plan.redc_tail_bits
    assert plan.compressed_chain is None or not plan.compressed_chain.by_r64  # a chain stays in R52


def _quotient_reduce(y: int, p: int, t: int, quotient: tuple[int, int]) -> int:
    """The kernel's quotient estimate and two subtractions, on integers."""
    u, mu = quotient
    r = y - ((y >> t) * mu >> u) * p
    assert 0 <= r < 3 * p, (y, r // p)
    for multiple in (2 * p, p):
        r = r - multiple if r >= multiple else r
    return r


@pytest.mark.parametrize("name", ("bn254", "bls12_381", "bls12_377"))
def test_quotient_estimate_at_the_edges(name):
    """The estimate after a reduction (by R64, or by R52 in a chain) leaves y - q' p in [0, 3p)
    for every y below the plan's bound: checked at 0, around each multiple of p and of 2^t up to the bound, at the bound,
    and on random values; then two subtractions give y mod p. An estimate with mu one too large
    over-subtracts somewhere (y - q' p < 0), which is why mu is rounded down: on every kernel whose
    values reach 3p (the first round of BLS12-377's doubling step stays below: there mu + 1 is an
    estimate too)."""
    tower, p = _plan(name), _model(name).p
    t = tower.quotient_shift
    rng = random.Random(f"{name}-quotient")
    for k in (tower.mul, tower.sqr, tower.mul_by_line, tower.cyclotomic_sqr, tower.compressed_chain,
              *(tower.line_dbl or ())):
        bound = k.reduced_bound
        values = {0, 1, bound - 1, bound - 2} | {rng.randrange(bound) for _ in range(2000)}
        values |= {q * p + d for q in range(bound // p + 1) for d in (-1, 0, 1) if 0 <= q * p + d < bound}
        values |= {(j << t) + d for j in range((bound >> t) + 1) for d in (-1, 0) if 0 <= (j << t) + d < bound}
        for y in values:
            assert _quotient_reduce(y, p, t, k.quotient) == y % p
        u, mu = k.quotient
        too_large = [y for y in values if y - ((y >> t) * (mu + 1) >> u) * p < 0]
        assert too_large or k.reduced_bound <= 3 * p, "mu + 1 never over-subtracts on these values: the check would not notice"


# ---------------------------------------------------------------------------------------------
# The compiled kernel

IFMA_CURVES = ("bn254", "bls12_381", "bls12_377")


@pytest.fixture(params=IFMA_CURVES)
def C(request, curve_module):
    C = curve_module(request.param)
    if not C._impl._tower_ifma():
        pytest.skip(f"{C.NAME}: the {C.TARGET} module on this CPU does not run the AVX-512 IFMA tower "
                    "(it needs the x86_64-adx module and AVX-512F, AVX-512DQ, AVX-512VL and IFMA)")
    return C


def _fp12(C, cs):
    return C.Fp12(tuple((cs[2 * j], cs[2 * j + 1]) for j in range(3)),
                  tuple((cs[6 + 2 * j], cs[6 + 2 * j + 1]) for j in range(3)))


def _flat(t):
    return [c for fp6 in t for fp2 in fp6 for c in fp2]


def _edge_elements(p: int) -> list[list[int]]:
    edges = [0, 1, 2, p - 1, p - 2, (p - 1) // 2, (p + 1) // 2]
    out = [[e] * 12 for e in edges]
    out += [[edges[(i + j) % len(edges)] for i in range(12)] for j in range(len(edges))]
    out += [[p - 1 if i % 2 else 0 for i in range(12)], [0] * 11 + [p - 1], [p - 1] + [0] * 11]
    return out


def test_products_against_the_reference(C):
    m = _model(C.NAME.lower().replace("-", "_"))
    ref = reference_for_model(m)
    p = m.p
    rng = random.Random(f"{C.NAME}-tower-ifma")
    elements = _edge_elements(p) + [[rng.randrange(p) for _ in range(12)] for _ in range(40)]

    def ref_of(cs):
        return ref.from_tower(tuple(tuple((cs[6 * i + 2 * j], cs[6 * i + 2 * j + 1]) for j in range(3))
                                    for i in range(2)))

    for a in elements:
        A, ra = _fp12(C, a), ref_of(a)
        assert _flat(A.square().to_tuple()) == _flat(ref.to_tower(ra * ra)), a
        for b in elements[::3]:
            assert _flat((A * _fp12(C, b)).to_tuple()) == _flat(ref.to_tower(ra * ref_of(b))), (a, b)


def test_chains_and_powers(C):
    """Chains of products and squares whose inputs are the kernel's own outputs, and powers, whose
    C multiplies and squares in place (the output over an input), against the reference."""
    m = _model(C.NAME.lower().replace("-", "_"))
    ref = reference_for_model(m)
    rng = random.Random(f"{C.NAME}-tower-ifma-chain")
    A = _fp12(C, [rng.randrange(m.p) for _ in range(12)])
    B = _fp12(C, [m.p - 1 - rng.randrange(1 << 20) for _ in range(12)])
    ra, rb = ref.from_tower(A.to_tuple()), ref.from_tower(B.to_tuple())
    for e in (2, 3, 37, (1 << 64) - 1, m.r - 1):
        assert (A ** e).to_tuple() == ref.to_tower(ra ** e), e
    for _ in range(50):
        A = (A * B).square()
        ra = (ra * rb) * (ra * rb)
    assert A.to_tuple() == ref.to_tower(ra)


def test_gt_powers_against_the_reference(C):
    """GT exponentiation squares in the cyclotomic subgroup (Granger–Scott) and multiplies; the
    pairing's final exponentiation also takes Karabina's compressed squarings: both against the
    reference, on pairing values and their powers."""
    m = _model(C.NAME.lower().replace("-", "_"))
    ref = reference_for_model(m)
    rng = random.Random(f"{C.NAME}-tower-ifma-gt")
    g1, g2 = C.G1.generator(), C.G2.generator()
    e = C.pairing(g1, g2)
    re = ref.from_tower(e.to_tuple())
    assert re ** m.r == ref.Fk.one()  # in GT: a cyclotomic element
    for k in (1, 2, 3, 5, rng.randrange(m.r), m.r - 1):
        assert (e ** k).to_tuple() == ref.to_tower(re ** k), k
    a, b = rng.randrange(1, m.r), rng.randrange(1, m.r)
    assert C.pairing(g1 * a, g2 * b) == e ** (a * b % m.r)


@pytest.mark.parametrize("name", STANDARD_CURVES)
def test_kernel_runs_where_it_should(curve_module, name):
    """The portable module never runs the kernels, nor a curve without a plan; the x86_64-adx module of
    a curve with a plan runs them exactly where the CPU reports AVX-512F, AVX-512DQ, AVX-512VL and IFMA."""
    if not Path("/proc/cpuinfo").is_file():
        pytest.skip("no /proc/cpuinfo to read the CPU's flags from")
    ifma = {"avx512f", "avx512dq", "avx512vl", "avx512ifma"} <= cpu_flags()
    C = curve_module(name)
    # (a tower other than k = 12 has no plan: its curve's model is not derived)
    expected = C.TARGET == "x86_64-adx" and C.K == 12 and _plan(name) is not None and ifma
    assert C._impl._tower_ifma() is expected


@pytest.mark.parametrize("name", IFMA_CURVES)
def test_kernels_branch_only_to_loop(curve_module, name):
    """The constant-time check (valgrind) cannot run AVX-512, so the kernels' machine code is read
    instead: in every copy of the GT kernels of the x86_64-adx module (fp12_*_ifma), the only
    conditional branches are loops' tests (the batches of products, the reductions, a run's
    squarings, all over public counts), at most four: a backward jump (a back edge), or a forward
    one that leaves a loop, to just past the unconditional backward jump that closes it. No other
    forward branch (but a run's test of its count), so no if on the data."""
    import shutil
    import subprocess

    C = curve_module(name)
    if C.TARGET != "x86_64-adx" or shutil.which("objdump") is None:
        pytest.skip(f"{C.NAME}: needs the x86_64-adx module and objdump")
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", C._impl.__file__], capture_output=True,
                          text=True, check=True).stdout
    if not re.search(r"^[0-9a-f]+ <\w+>:$", text, re.M):
        pytest.skip(f"{C.NAME}: the module's symbols are stripped")
    if "<__asan_" in text or "<__ubsan_" in text:
        pytest.skip(f"{C.NAME}: a sanitizer build (-O0: its loops are not unrolled)")
    # (function, [(address, target)] of its conditional jumps, {address of the next instruction:
    # target} of its unconditional ones)
    copies: list[tuple[str, list[tuple[int, int]], dict[int, int]]] = []
    current = None
    previous_jmp = None  # (address, target) of the last instruction where it was an unconditional jmp
    for line in text.splitlines():
        head = re.match(r"^[0-9a-f]+ <([A-Za-z0-9_.]+)>:$", line)
        if head:
            current, previous_jmp = None, None
            if re.fullmatch(r"fp12_\w+_ifma(\.\w+)?", head.group(1)):
                current = ([], {})
                copies.append((head.group(1), *current))
            continue
        instruction = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*([0-9a-f]+)?", line)
        if current is None or not instruction:
            continue
        address = int(instruction.group(1), 16)
        if previous_jmp is not None:
            current[1][address] = previous_jmp
        previous_jmp = None
        if instruction.group(2) == "jmp" and instruction.group(3):
            previous_jmp = int(instruction.group(3), 16)
        elif instruction.group(2).startswith("j") and instruction.group(3):
            current[0].append((address, int(instruction.group(3), 16)))
    assert {"fp12_mul_ifma", "fp12_sqr_ifma", "fp12_mul_by_line_ifma", "fp12_cyclotomic_sqr_ifma"} <= {
        function for function, _, _ in copies}

    for function, jumps, jmps in copies:
        assert len(jumps) <= 4, (function, jumps)
        if not function.startswith("fp12_cyclotomic_sqr_compressed_n_ifma"):  # a run also tests n > 0
            # a back edge, or a loop's exit: the instruction before the target is a jmp back over it
            assert all(target < address or jmps.get(target, target) <= address
                       for address, target in jumps), (function, jumps)


@pytest.mark.slow
@pytest.mark.parametrize("name", IFMA_CURVES)
def test_known_answer_program_with_the_kernels(name, tmp_path):
    """The known-answer program built for x86_64-adx (which runs the kernels on this CPU) answers
    like the reference and, byte for byte, like the portable native build."""
    import subprocess

    import cross_kat
    from build_cache import cached_kat

    from generator.build import ADX_COMPILE_ARGS, ADX_DEFINE, BASE_COMPILE_ARGS

    if not {"avx512f", "avx512dq", "avx512ifma", "adx", "bmi2"} <= cpu_flags():
        pytest.skip("this CPU does not run the AVX-512 IFMA kernels")
    pkg_dir = REPO_ROOT / "generated" / name
    binary = tmp_path / "kat-adx"
    cmd = ["gcc", *BASE_COMPILE_ARGS, "-Wall", f"-D{ADX_DEFINE}", *ADX_COMPILE_ARGS, "-I", str(pkg_dir / "c"),
           str(pkg_dir / "c" / "kat_main.c"), "-o", str(binary)]
    subprocess.run(cmd, check=True, capture_output=True)
    vectors = cross_kat.make_vectors(_model(name))
    requests = "".join(v.line() for v in vectors)
    outputs = {"native": cross_kat.run_kat(cached_kat(pkg_dir, "native"), "native", requests),
               "x86_64-adx": cross_kat.run_kat(binary, "native", requests)}
    assert {"gt_mul", "miller_loop", "final_exp", "pairing"} <= {v.op for v in vectors}
    bad = cross_kat.compare(vectors, outputs)
    assert not bad, f"{name}: {len(bad)} mismatches, e.g.\n" + "\n".join(map(str, bad[:5]))
