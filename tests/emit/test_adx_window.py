"""The x86_64-adx register-window kernels (generator/emit/adx_window.py), run instruction by
instruction in a small model of the x86-64 instructions they use (tests/adx_util.py), against
Python's integers: Montgomery multiplication, reduction and the double-width square for 4 to 12 limbs, on random moduli with
the no-carry bound and at the edges of their inputs. tests/emit/test_field_c.py runs the compiled
kernels on CPUs with ADX; this runs everywhere, and checks the register budget."""

from __future__ import annotations

import random

import pytest
from adx_util import MASK, Machine, inputs, modulus, value, wide_inputs, words

from generator.emit import adx_window


def run_mul(n: int, p: int, a: int, b: int) -> tuple[int, Machine]:
    n0 = -pow(p, -1, 1 << 64) & MASK
    m = Machine({"a": words(a, n), "b": words(b, n), "p": words(p, n), "n0": [n0], "zero": [0], "slot": [0xDEAD],
                 "out": [0] * n, "outp": [("out", 0)]})  # fmt: skip
    m.reg["ap"] = ("a", 0)  # a's address, where a spare register holds it
    m.run(adx_window.mont_mul(n))
    return value(m.mem["out"]), m


def registers_used(n: int, machine: Machine, square: bool = False) -> set[str]:
    """The registers a kernel touched, checked against window_operands: the n + 1 operand
    registers, a's address and the output's where they are registers, and (counted, not touched
    in the model, which keeps the slot as a memory word) the slot; all within the 13 that rsp,
    rbp and rdx leave."""
    ops = adx_window.window_operands(n)
    expected = {f"r{k}" for k in range(n + 1)}
    if ops.square_a_pointer if square else ops.product_a_pointer:
        expected.add("ap")
    if square and ops.square_out_pointer:
        expected.add("wp")
    assert machine.touched == expected
    allocated = len(expected) + (0 if square else ops.slot_register)
    assert allocated <= adx_window.WINDOW_REGISTERS
    for kernel in ("sqr_wide",) if square else ("mont_mul", "mul_wide"):
        assert adx_window.kernel_registers(n, kernel) == allocated
    return expected


def run_redc(n: int, p: int, t: int) -> int:
    n0 = -pow(p, -1, 1 << 64) & MASK
    m = Machine({"t": words(t, 2 * n), "p": words(p, n), "n0": [n0], "zero": [0], "out": [0] * n,
                 "tp": [("t", 0)], "outp": [("out", 0)]})  # fmt: skip
    m.run(adx_window.mont_redc(n))
    return value(m.mem["out"])


@pytest.mark.parametrize("n", range(4, adx_window.WINDOW_MAX_LIMBS + 1))
def test_window_mont_mul(n: int) -> None:
    rng = random.Random(n)
    for _ in range(2):
        p = modulus(n, rng)
        r_inv = pow(1 << (64 * n), -1, p)
        xs = inputs(p, rng)
        for a in xs:
            for b in rng.sample(xs, 2) + [a]:
                got, machine = run_mul(n, p, a, b)
                assert got == a * b * r_inv % p, (n, hex(p), a, b)
        registers_used(n, machine)


@pytest.mark.parametrize("n", range(4, adx_window.WINDOW_MAX_LIMBS + 1))
def test_window_mont_redc(n: int) -> None:
    rng = random.Random(100 + n)
    for _ in range(2):
        p = modulus(n, rng)
        R = 1 << (64 * n)
        r_inv = pow(R, -1, p)
        for t in [
            0,
            1,
            p * R - 1,
            p * p - 1,
            (p - 1) * (p - 1),
            R - 1,
            R,
            *(rng.randrange(p * R) for _ in range(8)),
        ]:
            assert run_redc(n, p, t) == t * r_inv % p, (n, hex(p), t)


@pytest.mark.parametrize("n", range(4, adx_window.WINDOW_MAX_LIMBS + 1))
def test_window_sqr_wide(n: int) -> None:
    rng = random.Random(200 + n)
    top = (1 << (64 * n)) - 1
    for a in [0, 1, top, top >> 1, 1 << (64 * n - 1), *(rng.getrandbits(64 * n) for _ in range(10))]:
        m = Machine({"a": words(a, n), "w": [0xBAD] * (2 * n), "zero": [0]})
        m.reg["ap"], m.reg["wp"] = ("a", 0), ("w", 0)  # the addresses, where spare registers hold them
        m.run(adx_window.sqr_wide(n))
        assert value(m.mem["w"]) == a * a, (n, a)
    registers_used(n, m, square=True)


def test_window_operands() -> None:
    """The window's n + 1 operand registers and the spare ones make the 13 that rsp, rbp and rdx
    leave. The spare ones go to a's address and the square's output address first, then the slot
    and the square's a; the largest window has none and keeps every operand in memory."""
    assert adx_window.WINDOW_REGISTERS == 16 - 3
    assert [adx_window.spare_registers(n) for n in (4, 10, 11, 12)] == [8, 2, 1, 0]
    ten, eleven, twelve = (adx_window.window_operands(n) for n in (10, 11, 12))
    assert ten == adx_window.WindowOperands(True, True, True, True)
    assert eleven == adx_window.WindowOperands(True, False, True, False)
    assert twelve == adx_window.WindowOperands(False, False, False, False)
    assert "(%[ap])" not in " ".join(adx_window.mont_mul(12) + adx_window.sqr_wide(12))
    assert "(%[wp])" not in " ".join(adx_window.sqr_wide(12))
    with pytest.raises(ValueError):
        adx_window.spare_registers(adx_window.WINDOW_MAX_LIMBS + 1)


def test_takes_every_register() -> None:
    """The kernels that fill their register budget, which AddressSanitizer builds replace by memory
    forms (tests/emit/test_field_c.py runs those): the products and squares from 10 limbs (spare
    registers spent), and at 12 limbs the reduction (n + 1 = 13) and the sums (n + 2 = 14, no MULX)."""
    every = {
        (n, kernel)
        for n in range(4, adx_window.WINDOW_MAX_LIMBS + 1)
        for kernel in adx_window.WINDOW_KERNELS
        if adx_window.takes_every_register(n, kernel)
    }
    assert every == {(n, k) for n in (10, 11, 12) for k in ("mont_mul", "mul_wide", "sqr_wide")} | {
        (12, k) for k in ("mont_redc", "add_mod", "sub_mod", "wide_add_mod", "wide_sub_mod")
    }
    assert adx_window.kernel_registers(12, "mont_redc") == 13
    with pytest.raises(ValueError):
        adx_window.kernel_registers(10, "mont_sqr")


def test_window_limits() -> None:
    """The window takes no more limbs than the registers hold, and no fewer than it is written for."""
    assert adx_window.WINDOW_MAX_LIMBS + 1 + 1 == 14  # operand registers and rdx: all but rsp, rbp
    for n in (3, adx_window.WINDOW_MAX_LIMBS + 1):
        with pytest.raises(ValueError):
            adx_window.mont_mul(n)


def test_model_catches_a_wrong_carry() -> None:
    """The model is strict enough to fail a kernel with one carry dropped."""
    n, rng = 12, random.Random(7)
    p = modulus(n, rng)
    lines = adx_window.mont_mul(n)
    broken = list(lines)
    i = (
        broken.index("adcq $0, %[r11]")
        if "adcq $0, %[r11]" in broken
        else next(k for k, line in enumerate(broken) if line.startswith("adcq $0,"))
    )
    del broken[i]
    original = adx_window.mont_mul
    try:
        adx_window.mont_mul = lambda _n: broken  # type: ignore[assignment]
        r_inv = pow(1 << (64 * n), -1, p)
        assert any(run_mul(n, p, a, a)[0] != a * a * r_inv % p for a in inputs(p, rng))
    finally:
        adx_window.mont_mul = original  # type: ignore[assignment]


def run_mul_wide(n: int, a: int, b: int, lines: list[str] | None = None) -> tuple[int, Machine]:
    m = Machine({"a": words(a, n), "b": words(b, n), "zero": [0], "slot": [0xDEAD], "out": [0xBAD] * (2 * n),
                 "outp": [("out", 0)]})  # fmt: skip
    m.reg["ap"] = ("a", 0)
    m.run(lines if lines is not None else adx_window.mul_wide(n))
    return value(m.mem["out"]), m


@pytest.mark.parametrize("n", range(4, adx_window.WINDOW_MAX_LIMBS + 1))
def test_window_mul_wide(n: int) -> None:
    """The product without reduction, for any a, b below 2^(64 n) (the tower feeds it reduced
    elements; the edges of the whole range carry in every word)."""
    rng = random.Random(300 + n)
    top = (1 << (64 * n)) - 1
    xs = [0, 1, 2, top, top - 1, top >> 1, 1 << (64 * n - 1), *(rng.getrandbits(64 * n) for _ in range(4))]
    for a in xs:
        for b in rng.sample(xs, 3) + [a, top]:
            got, machine = run_mul_wide(n, a, b)
            assert got == a * b, (n, a, b)
    registers_used(n, machine)


def run_wide(kernel, n: int, p: int, a: int, b: int, alias: str = "") -> tuple[int, Machine]:
    """Run wide_add_mod or wide_sub_mod with a at pa, b at pb and out at outp; alias names the
    input array out shares ("a", "b", or "ab" for a = b = out)."""
    mem = {"a": words(a, 2 * n), "b": words(b, 2 * n), "p": words(p, n), "out": [0xBAD] * (2 * n)}
    if alias == "ab":
        assert a == b
        mem["out"] = list(mem["a"])
        where = ("out", "out")
    else:
        if alias:
            mem["out"] = list(mem[alias])
        where = ("out" if alias == "a" else "a", "out" if alias == "b" else "b")
    mem["outp"] = [("out", 0)]
    m = Machine(mem)
    m.reg["pa"], m.reg["pb"] = (where[0], 0), (where[1], 0)
    m.run(kernel(n))
    return value(m.mem["out"]), m


@pytest.mark.parametrize("n", range(4, adx_window.WINDOW_MAX_LIMBS + 1))
@pytest.mark.parametrize("kind", ["add", "sub"])
def test_window_wide_add_sub_mod(n: int, kind: str) -> None:
    """a +- b modulo p R on double-width inputs in [0, p R), the result in [0, p R); out may be
    a, b or both."""
    rng = random.Random(400 + n + (kind == "sub"))
    kernel = adx_window.wide_add_mod if kind == "add" else adx_window.wide_sub_mod
    for _ in range(2):
        p = modulus(n, rng)
        pR = p * (1 << (64 * n))
        xs = wide_inputs(p, n, rng)
        for a in xs:
            for b in rng.sample(xs, 3) + [a]:
                want = (a + b) % pR if kind == "add" else (a - b) % pR
                for alias in ("", rng.choice("ab")) if b != a else ("", "ab"):
                    got, machine = run_wide(kernel, n, p, a, b, alias)
                    assert got == want, (n, kind, hex(p), a, b, alias)
        # n words and the two pointers: n + 2 registers (at most 14), rdx not needed
        assert machine.touched == {f"r{k}" for k in range(n)} | {"pa", "pb"}
        assert adx_window.kernel_registers(n, f"wide_{kind}_mod") == n + 2 <= adx_window.SUM_REGISTERS


def test_model_catches_broken_wide_kernels() -> None:
    """A dropped carry in the product, or a correction kept on the wrong flag, fails."""
    n, rng = 12, random.Random(9)
    top = (1 << (64 * n)) - 1
    lines = adx_window.mul_wide(n)
    broken = list(lines)
    del broken[broken.index("adcxq %[zero], %%rdx")]
    xs = [top, top - 1, *(rng.getrandbits(64 * n) for _ in range(4))]
    assert any(run_mul_wide(n, a, b, broken)[0] != a * b for a in xs for b in xs)
    p = modulus(n, rng)
    pR = p * (1 << (64 * n))
    sub = adx_window.wide_sub_mod(n)
    flipped = [line.replace("cmovzq", "cmovcq") for line in sub]
    original = adx_window.wide_sub_mod
    try:
        adx_window.wide_sub_mod = lambda _n: flipped  # type: ignore[assignment]
        xs = wide_inputs(p, n, rng)
        assert any(run_wide(adx_window.wide_sub_mod, n, p, a, b)[0] != (a - b) % pR for a in xs for b in xs)
    finally:
        adx_window.wide_sub_mod = original  # type: ignore[assignment]
