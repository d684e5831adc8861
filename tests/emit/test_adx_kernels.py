"""The x86_64-adx kernel writer (generator/emit/adx_kernels.py, adx_products.py, adx_sums.py) below
and above the register window: the instruction lists of the register-accumulator Montgomery
kernels (up to 6 limbs), the memory forms (above 12 limbs, and AddressSanitizer builds), the modular
and double-width sums in each of their forms, 3t +- 2x and the lazy tower's small-factor kernels,
run in tests/adx_util.py's model of the instructions against Python's integers, with outputs that
alias inputs where the interface allows it. Then the header: which kernels a set of field shapes
gets, and every operand an instruction names declared by its asm statement. test_field_c.py
compiles and runs the rendered header on CPUs with ADX; this runs everywhere."""

from __future__ import annotations

import random
import re

import pytest
from adx_util import MASK, Machine, inputs, modulus, value, wide_inputs, words

from generator.derive.lazy_reduction import LazyReductionModel
from generator.emit import adx_factors, adx_kernels, adx_products, adx_sums, adx_window
from generator.emit.context import Kernel
from generator.emit.render import render

REG = range(4, adx_products.REG_LIMBS + 1)
MEM = (4, 6, 10, 12, 13)  # the memory form: above the window, and the ASan form of 10 to 12 limbs


def odd_modulus(n: int, rng: random.Random, no_carry: bool = True) -> int:
    """A random odd modulus of n words; below 2^(64 n - 1) with the no-carry bound, else with the
    top bit set (the sums that keep a carry word)."""
    bits = 64 * n - (rng.choice([1, 2, 30]) if no_carry else 0)
    return rng.getrandbits(bits) | (1 << (bits - 1)) | 1


def field_inputs(p: int, rng: random.Random) -> list[int]:
    return [0, 1, 2, p - 1, p - 2, (p - 1) // 2, (p + 1) // 2, *(rng.randrange(p) for _ in range(3))]


def n0_of(p: int) -> int:
    return -pow(p, -1, 1 << 64) & MASK


def run(code: list[str], memory: dict[str, list], registers: list[str], **addresses: object) -> Machine:
    """Run ``code`` with the register operands ``registers`` and the pointer registers given as
    (array, word) (rdx: its value); every register it touches must be one of these."""
    m = Machine(memory, registers)
    m.reg.update(addresses)
    m.run(code)
    assert m.touched <= set(registers) | set(addresses), m.touched - set(registers) - set(addresses)
    return m


# ---- Montgomery multiplication, product, reduction, square ------------------------------------------


def reg_names(n: int) -> list[str]:
    """The register kernels' operands: the accumulator, the product halves, the final copies, ob."""
    return [*(f"t{k}" for k in range(n + 1)), "lo", "hi", *(f"x{j}" for j in range(4, n)), "ob"]


MEM_NAMES = ["lo", "h0", "h1", "ob", "t"]


def mont_mul(form: str, n: int, p: int, a: int, b: int, alias: str = "") -> int:
    """pf_mul_mont's body; ``alias`` names the input out shares (a or b)."""
    mem = {"a": words(a, n), "b": words(b, n), "p": words(p, n), "n0": [n0_of(p)], "zero": [0],
           "out": [0xBAD] * n, "acc": [0] * (n + 1)}  # fmt: skip
    out = alias or "out"
    mem["outp"] = [(out, 0)]
    if form == "reg":
        code, names = adx_products.reg_mont_mul_code(n), reg_names(n)
    else:
        code, names = adx_products.mem_mont_mul_code(n), MEM_NAMES
    m = run(code, mem, names, a=("a", 0), p=("p", 0), ob=("b", 0), t=("acc", 0))
    return value(m.mem[out])


@pytest.mark.parametrize("form,n", [("reg", n) for n in REG] + [("mem", n) for n in MEM])
def test_mont_mul(form: str, n: int) -> None:
    rng = random.Random(10 * n + (form == "mem"))
    for _ in range(2):
        p = modulus(n, rng)
        r_inv = pow(1 << (64 * n), -1, p)
        xs = inputs(p, rng)
        for a in xs:
            for b in rng.sample(xs, 2) + [a]:
                assert mont_mul(form, n, p, a, b) == a * b * r_inv % p, (form, n, hex(p), a, b)
        a, b = rng.sample(xs, 2)
        for alias in ("a", "b"):
            assert mont_mul(form, n, p, a, b, alias) == a * b * r_inv % p, (form, n, alias)


@pytest.mark.parametrize("form,n", [("reg", n) for n in REG] + [("mem", n) for n in MEM])
def test_mont_redc(form: str, n: int) -> None:
    rng = random.Random(20 * n + (form == "mem"))
    for _ in range(2):
        p = modulus(n, rng)
        R = 1 << (64 * n)
        for t in [0, 1, p * R - 1, p * p - 1, R - 1, R, *(rng.randrange(p * R) for _ in range(6))]:
            mem = {"t": words(t, 2 * n), "p": words(p, n), "n0": [n0_of(p)], "zero": [0], "out": [0xBAD] * n,
                   "outp": [("out", 0)], "w": words(t % R, n) + [0]}  # fmt: skip
            if form == "reg":
                m = run(adx_products.reg_redc_code(n), mem, reg_names(n), p=("p", 0), ob=("t", 0))
            else:  # the C copies t's low half to the accumulator w first
                m = run(adx_products.mem_redc_code(n), mem, MEM_NAMES, p=("p", 0), ob=("t", 0), t=("w", 0))
            assert value(m.mem["out"]) == t * pow(R, -1, p) % p, (form, n, hex(p), t)


def everything(n: int, rng: random.Random) -> list[int]:
    """Values below 2^(64 n): the edges, where every word carries, and random ones."""
    top = (1 << (64 * n)) - 1
    return [0, 1, top, top - 1, top >> 1, 1 << (64 * n - 1), *(rng.getrandbits(64 * n) for _ in range(4))]


@pytest.mark.parametrize("form,n", [("reg", n) for n in REG] + [("mem", n) for n in MEM])
def test_mul_wide(form: str, n: int) -> None:
    rng = random.Random(30 * n + (form == "mem"))
    xs = everything(n, rng)
    for a in xs:
        for b in rng.sample(xs, 3) + [a]:
            mem = {
                "a": words(a, n),
                "b": words(b, n),
                "zero": [0],
                "w": [0xBAD] * (2 * n) if form == "reg" else [0] * (2 * n),
            }  # the C zeroes t for the memory form
            code = adx_products.reg_mul_wide_code(n) if form == "reg" else adx_products.mem_mul_wide_code(n)
            names = reg_names(n)[:-1] if form == "reg" else MEM_NAMES
            m = run(code, mem, names, a=("a", 0), b=("b", 0), w=("w", 0))
            assert value(m.mem["w"]) == a * b, (form, n, a, b)


@pytest.mark.parametrize("n", MEM)
def test_mem_sqr_wide(n: int) -> None:
    rng = random.Random(40 + n)
    for a in everything(n, rng):
        m = run(
            adx_products.mem_sqr_wide_code(n),
            {"a": words(a, n), "w": [0] * (2 * n), "zero": [0]},
            MEM_NAMES,
            a=("a", 0),
            w=("w", 0),
        )
        assert value(m.mem["w"]) == a * a, (n, a)


def test_square_kernels_only_above_the_register_form() -> None:
    """The register kernels square by pf_mul_mont(a, a); the dedicated square starts above them."""
    with pytest.raises(ValueError):
        adx_products.square_kernels(adx_products.REG_LIMBS)
    assert "PF_ASM_SQR_WIDE_7 1" in adx_products.square_kernels(7)


def test_model_catches_a_dropped_carry() -> None:
    """The model fails a register kernel with one carry dropped (it is strict enough to trust)."""
    n, rng = 4, random.Random(5)
    p = modulus(n, rng)
    code = adx_products.reg_mont_mul_code(n)
    broken = list(code)
    del broken[broken.index("adoxq %[zero], %[t0]")]
    r_inv = pow(1 << (64 * n), -1, p)
    results = []
    for a in inputs(p, rng):
        mem = {"a": words(a, n), "b": words(p - 1, n), "p": words(p, n), "n0": [n0_of(p)], "zero": [0],
               "out": [0] * n, "outp": [("out", 0)]}  # fmt: skip
        m = run(broken, mem, reg_names(n), a=("a", 0), p=("p", 0), ob=("b", 0))
        results.append(value(m.mem["out"]) == a * (p - 1) * r_inv % p)
    assert not all(results)


# ---- sums and differences ----------------------------------------------------------------------

SUM_FORMS = {
    "copy": (adx_sums.copy_sum_code, range(1, adx_sums.COPY_LIMBS + 1), ["t", "s"]),
    "register": (adx_sums.register_sum_code, range(1, adx_sums.SUM_LIMBS + 1), ["t"]),
    "window": (adx_sums.window_sum_code, range(4, adx_window.WINDOW_MAX_LIMBS + 1), ["t"]),
    "mem": (adx_sums.mem_sum_code, (1, 4, 9, 12, 13), ["x"]),
}


def mod_sum(form: str, op: str, n: int, p: int, a: int, b: int, alias: str = "") -> int:
    code, _, prefixes = SUM_FORMS[form]
    out = alias or "out"
    mem = {"a": words(a, n), "b": words(b, n), "p": words(p, n), "out": [0xBAD] * n, "d": [0xBAD] * n}
    mem["outp"] = [(out, 0)]
    names = [f"{x}{j}" for x in prefixes for j in range(n)] + ["c", "x"]
    m = run(
        code(n, op),
        mem,
        names,
        out=(out, 0),
        a=("a", 0),
        b=("b", 0),
        p=("p", 0),
        d=("d", 0),
        pa=("a", 0),
        pb=("b", 0),
    )
    return value(m.mem[out])


@pytest.mark.parametrize("op", ["add", "sub"])
@pytest.mark.parametrize("form", list(SUM_FORMS))
def test_mod_sums(form: str, op: str) -> None:
    """a +- b mod p for a, b below p, out aliasing a or b; the window's sum needs the no-carry
    bound, the other forms keep the carry word and take any p."""
    rng = random.Random(hash((form, op)) & 0xFFFF)
    for n in SUM_FORMS[form][1]:
        for no_carry in (True, False) if form != "window" or op == "sub" else (True,):
            p = odd_modulus(n, rng, no_carry)
            xs = field_inputs(p, rng)
            for a in xs:
                for b in rng.sample(xs, 3) + [a]:
                    want = (a + b) % p if op == "add" else (a - b) % p
                    assert mod_sum(form, op, n, p, a, b) == want, (form, op, n, hex(p), a, b)
            a, b = rng.sample(xs, 2)
            for alias in ("a", "b"):
                assert mod_sum(form, op, n, p, a, b, alias) == ((a + b) if op == "add" else (a - b)) % p


@pytest.mark.parametrize("op", ["add", "sub"])
@pytest.mark.parametrize("form", ["register", "mem"])
def test_wide_sums(form: str, op: str) -> None:
    """a +- b mod p R on double-width inputs below p R (no-carry p: the high half of a sum, below
    2p, fits n words); the register form keeps the reduced copy in registers up to COPY_LIMBS."""
    rng = random.Random(hash((form, op, "wide")) & 0xFFFF)
    sizes = range(1, adx_sums.SUM_LIMBS + 1) if form == "register" else (1, 4, 9, 12, 13)
    code = adx_sums.wide_register_sum_code if form == "register" else adx_sums.mem_wide_sum_code
    for n in sizes:
        p = odd_modulus(n, rng)
        pR = p << (64 * n)
        xs = wide_inputs(p, n, rng)
        for a in xs:
            for b in rng.sample(xs, 3) + [a]:
                mem = {"a": words(a, 2 * n), "b": words(b, 2 * n), "p": words(p, n), "out": [0xBAD] * (2 * n),
                       "d": [0xBAD] * n}  # fmt: skip
                names = [f"{x}{j}" for x in "ts" for j in range(n)] + ["c", "lo", "mask"]
                m = run(
                    code(n, op), mem, names, out=("out", 0), a=("a", 0), b=("b", 0), p=("p", 0), d=("d", 0)
                )
                want = (a + b) % pR if op == "add" else (a - b) % pR
                assert value(m.mem["out"]) == want, (form, op, n, hex(p), a, b)


@pytest.mark.parametrize("op", ["add", "sub"])
@pytest.mark.parametrize("n", range(1, adx_sums.COPY_LIMBS + 1))
def test_tri_sums(n: int, op: str) -> None:
    """3t +- 2x mod p for t, x below a no-carry p, out aliasing t or x."""
    rng = random.Random(50 + n + 10 * (op == "sub"))
    for _ in range(3):
        p = odd_modulus(n, rng)
        xs = field_inputs(p, rng)
        for t in xs:
            for x in rng.sample(xs, 3) + [t]:
                want = (3 * t + 2 * x) % p if op == "add" else (3 * t - 2 * x) % p
                for alias in ("", "t", "x"):
                    out = alias or "out"
                    mem = {"t": words(t, n), "x": words(x, n), "p": words(p, n), "out": [0xBAD] * n}
                    names = [f"{v}{j}" for v in "dc" for j in range(n)] + ["x"]
                    m = run(
                        adx_sums.tri_sum_code(n, op),
                        mem,
                        names,
                        out=(out, 0),
                        t=("t", 0),
                        x=("x", 0),
                        p=("p", 0),
                    )
                    assert value(m.mem[out]) == want, (n, op, hex(p), t, x, alias)


# ---- the lazy tower's small factors -------------------------------------------------------------

SMALL = (2, 3, 5, 11, 2**32 - 1)
HALVES = ["lo", "h0", "h1"]


@pytest.mark.parametrize("n", [1, 4, 5, 6, 12])
@pytest.mark.parametrize("top", [False, True])
def test_wide_mul_small(n: int, top: bool) -> None:
    """k a over 2n words, t aliasing a or not; with top the word above comes back in the last high
    half, without it the caller's bound keeps k a below 2^(128 n)."""
    rng = random.Random(60 + n + 100 * top)
    R2 = 1 << (128 * n)
    for k in SMALL:
        bound = R2 if top else R2 // k
        for a in [0, 1, bound - 1, bound // 2, *(rng.randrange(bound) for _ in range(4))]:
            for alias in (False, True):
                mem = {"a": words(a, 2 * n), "t": [0xBAD] * (2 * n)}
                out = "a" if alias else "t"
                m = run(adx_factors.wide_mul_small_code(n, top), mem, HALVES, a=("a", 0), out=(out, 0), rdx=k)
                assert value(m.mem[out]) == k * a % R2, (n, k, a)
                if top:
                    assert m.reg[f"h{(2 * n - 1) % 2}"] == k * a >> (128 * n), (n, k, a)


@pytest.mark.parametrize("n", [1, 4, 6, 12])
def test_wide_neg(n: int) -> None:
    rng = random.Random(70 + n)
    p = odd_modulus(n, rng)
    pR = p << (64 * n)
    for a in [0, 1, pR, pR - 1, *wide_inputs(p, n, rng)]:
        for alias in (False, True):
            out = "a" if alias else "t"
            mem = {"a": words(a, 2 * n), "p": words(p, n), "t": [0xBAD] * (2 * n)}
            m = run(adx_factors.wide_neg_code(n), mem, ["x"], a=("a", 0), p=("p", 0), out=(out, 0))
            assert value(m.mem[out]) == pR - a, (n, a)


@pytest.mark.parametrize("n", [1, 4, 6, 12])
@pytest.mark.parametrize("top", [False, True])
def test_csub(n: int, top: bool) -> None:
    """h - m when that does not borrow, else h; with top one more word above h, m of n + 1 words."""
    rng = random.Random(80 + n + 100 * top)
    size = n + top
    for _ in range(8):
        m_value = rng.getrandbits(64 * size)
        for h in [0, m_value, m_value - 1 if m_value else 0, m_value + 1, rng.getrandbits(64 * size)]:
            h %= 1 << (64 * size)
            mem = {"h": words(h, n), "m": words(m_value, size)}
            names = [f"t{j}" for j in range(size)] + ["w"]  # w: the top word's register ("+r")
            m = run(adx_factors.csub_code(n, top), mem, names, h=("h", 0), m=("m", 0), w=h >> (64 * n))
            got = value(m.mem["h"]) + (m.reg["w"] << (64 * n) if top else 0)
            assert got == (h - m_value if h >= m_value else h), (n, top, h, m_value)


@pytest.mark.parametrize("n", [1, 4, 5, 6, 8, 12])
@pytest.mark.parametrize("top", [False, True])
def test_mac_small(n: int, top: bool) -> None:
    """k a + b over n or 2n words, t aliasing a or b; with top the word above comes back, without
    it the caller's bound keeps k a + b below 2^(64 words)."""
    rng = random.Random(90 + n + 100 * top)
    for w in (n, 2 * n):
        R = 1 << (64 * w)
        for k in SMALL:
            cases = [(0, R - 1), (R - 1, R - 1), ((R - 1) // k, (R - 1) % k), (R // (2 * k), R // 2 - 1)]
            cases += [(rng.randrange(R), rng.randrange(R)) for _ in range(3)]
            for a, b in cases:
                if not top:
                    a = min(a, (R - 1) // k)
                    b = min(b, R - 1 - k * a)
                for alias in ("t", "a", "b"):
                    mem = {"a": words(a, w), "b": words(b, w), "t": [0xBAD] * w}
                    m = run(
                        adx_factors.mac_small_code(w, top),
                        mem,
                        HALVES,
                        a=("a", 0),
                        b=("b", 0),
                        out=(alias, 0),
                        rdx=k,
                    )
                    assert value(m.mem[alias]) == (k * a + b) % R, (w, k, a, b, alias)
                    if top:
                        assert m.reg[f"h{(w - 1) % 2}"] == (k * a + b) >> (64 * w), (w, k, a, b)


@pytest.mark.parametrize("n", [1, 4, 5, 6, 12])
def test_submul_top(n: int) -> None:
    """(top:h) - q p for every q with q p <= (top:h), at the edges (equality, one below the next
    multiple) and at random."""
    rng = random.Random(110 + n)
    for _ in range(4):
        p = odd_modulus(n, rng)
        for q in (0, 1, 2, 2**32 - 1, MASK, rng.getrandbits(64)):
            room = 1 << (64 * (n + 1))
            if q * p >= room:
                continue
            for h in (q * p, q * p + 1, (q + 1) * p - 1, rng.randrange(q * p, room)):
                if h >= room:
                    continue
                mem = {"h": words(h, n), "p": words(p, n)}
                m = run(
                    adx_factors.submul_top_code(n),
                    mem,
                    [*HALVES, "w"],
                    h=("h", 0),
                    p=("p", 0),
                    rdx=q,
                    w=h >> (64 * n),
                )
                assert value(m.mem["h"]) + (m.reg["w"] << (64 * n)) == h - q * p, (n, hex(p), q, h)


# ---- the header ---------------------------------------------------------------------------------


def macros(shapes: list[Kernel], small: adx_kernels.SmallFactors | None = None) -> set[str]:
    header = adx_kernels.write_header(shapes, small)
    return set(re.findall(r"#define (PF_ASM_\w+) 1", "".join(header.blocks)))


def test_header_kernels_by_shape() -> None:
    """The no-carry shapes get the Montgomery kernels, every shape the sums; a limb count that some
    field has without the bound keeps its reduction portable; 32-bit shapes are not this target's."""
    four = macros([Kernel(64, 4, True), Kernel(32, 8, True)])
    assert {
        "PF_ASM_MUL_MONT_4_NC",
        "PF_ASM_SQR_MONT_4_NC",
        "PF_ASM_MUL_WIDE_4",
        "PF_ASM_REDC_MONT_4",
        "PF_ASM_ADD_MOD_4",
        "PF_ASM_WIDE_SUB_MOD_4",
        "PF_ASM_TRI_SUB_MOD_4_NC",
        "PF_ASM_DIVSTEPS_19",
    } <= four
    assert not any("_8" in name for name in four) and "PF_ASM_SQR_WIDE_4" not in four
    assert macros([Kernel(64, 4, False)]) == {"PF_ASM_ADD_MOD_4", "PF_ASM_SUB_MOD_4", "PF_ASM_DIVSTEPS_19"}
    mixed = macros([Kernel(64, 6, True), Kernel(64, 6, False)])
    assert "PF_ASM_MUL_MONT_6_NC" in mixed and "PF_ASM_SQR_MONT_6_NC" in mixed
    assert "PF_ASM_REDC_MONT_6" not in mixed and "PF_ASM_WIDE_ADD_MOD_6" in mixed
    ten = macros([Kernel(64, 10, True)])
    assert {"PF_ASM_SQR_WIDE_10", "PF_ASM_REDC_MONT_10", "PF_ASM_WIDE_ADD_MOD_10"} <= ten
    assert "PF_ASM_TRI_ADD_MOD_10_NC" not in ten
    assert adx_kernels.write_header([Kernel(64, 10, True)]).window
    assert not adx_kernels.write_header([Kernel(64, 6, True), Kernel(64, 13, True)]).window


def lazy(**fields: object) -> LazyReductionModel:
    return LazyReductionModel(**{"fp2_mul": False, "beta_k": None, "tower": True, "headroom": 4, **fields})


def test_small_factor_kernels_follow_the_lazy_tower() -> None:
    """fpw_mul_small_mod's kernels where the tower takes small factors (up to the register window,
    the top-word forms where k p >= R or the quotient estimate runs), the mac kernels where the Fp2
    product or square takes k a + b (up to MAC_SMALL_LIMBS); only for no-carry shapes."""
    shapes = [Kernel(64, 6, True)]
    none = adx_kernels.small_factors(lazy(), 6, [6])
    assert macros(shapes, none) == macros(shapes)
    small = adx_kernels.small_factors(
        lazy(wide_small=(3,), wide_quotient=(5, 7), fp2_mul=True, beta_add=2), 6, [6]
    )
    assert small == adx_kernels.SmallFactors(6, True, True, False, True, True)
    added = macros(shapes, small) - macros(shapes)
    assert added == {
        "PF_ASM_WIDE_MUL_SMALL_6",
        "PF_ASM_WIDE_NEG_6",
        "PF_ASM_CSUB_6",
        "PF_ASM_WIDE_MULADD_SMALL_6",
        "PF_ASM_SUBMUL_TOP_6",
        "PF_ASM_MAC_SMALL_6",
        "PF_ASM_WIDE_MAC_SMALL_6",
    }
    top = adx_kernels.small_factors(lazy(wide_small=(3,), wide_small_top=True), 4, [4])
    assert macros([Kernel(64, 4, True)], top) - macros([Kernel(64, 4, True)]) >= {"PF_ASM_CSUB_TOP_4"}
    assert "limb_t pf_wide_mul_small_4(" in "".join(
        adx_kernels.write_header([Kernel(64, 4, True)], top).blocks
    )
    assert not adx_kernels.small_factors(lazy(wide_small=(3,)), 6, []).wide_small
    assert not adx_kernels.small_factors(lazy(wide_small=(3,)), 13, [13]).wide_small
    assert not adx_kernels.small_factors(lazy(fp2_mul=True, beta_add=2), 9, [9]).mac_small
    # a model without a lazy tower (an Edwards curve's) takes none
    assert adx_kernels.kernel_header(shapes, object()) == adx_kernels.write_header(shapes)


STATEMENT = re.compile(r"__asm__(?: volatile)?\((.*?)\);", re.S)


@pytest.mark.parametrize("n", [1, 4, 5, 6, 7, 10, 11, 12, 13])
def test_every_operand_is_declared(n: int) -> None:
    """In every asm statement of the header, each operand an instruction names is in the statement's
    output or input list (what gcc checks on CPUs with ADX, checked here everywhere)."""
    small = adx_kernels.small_factors(lazy(wide_small=(3,), wide_small_top=True, wide_quotient=(5, 7), fp2_mul=True,
                                           beta_add=2), n, [n])  # fmt: skip
    text = "".join(adx_kernels.write_header([Kernel(64, n, True), Kernel(64, n + 1, False)], small).blocks)
    statements = STATEMENT.findall(text)
    assert len(statements) >= 9  # the four Montgomery kernels, four sums, the divsteps at least
    for body in statements:
        literals = "".join(re.findall(r'^\s*"(.*)\\n\\t"', body, re.M))
        operands = body[re.search(r"\n *:", body).start() :]
        used = set(re.findall(r"%[kb]?\[(\w+)\]", literals))
        declared = set(re.findall(r"\[(\w+)\] \"", operands))
        assert used <= declared, (n, used - declared)


def test_template_lays_out_the_blocks() -> None:
    """kernels.h.j2 lays out the writer's blocks as they come, between the guard, the inline macro
    and (for the window) the preamble: it computes nothing."""
    shapes = [Kernel(64, 4, True), Kernel(64, 10, True)]
    header = adx_kernels.write_header(shapes)
    text = render("asm/x86_64_adx/kernels.h.j2", kernels=shapes, header="test")
    body = "".join(header.blocks)
    assert body in text and text.endswith(body + "#endif /* PF_ASM_X86_64_ADX_H */\n")
    assert text.count("#define PF_ADX_ASAN 1") == 2  # the window preamble
    assert "PF_ADX_ASAN" not in render("asm/x86_64_adx/kernels.h.j2", kernels=shapes[:1], header="test")
