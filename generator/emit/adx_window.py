"""Register-window Montgomery kernels of the x86_64-adx target for 7 to 12 limbs (the instruction
lists that generator/emit/adx_products.py and adx_sums.py wrap in GCC extended asm).

Up to 6 limbs the whole CIOS accumulator (n + 1 words) fits the registers; above, the writer's
general kernels keep it in memory, two memory operations per MULX. x86-64 has 14 general registers
besides rsp and rbp (rbp stays untouched: a build may keep the frame pointer). RDX is MULX's
source, which leaves 13: words 0..n-2 of the accumulator in registers, word n-1 (the one a round
touches last) in one stack slot, and two product halves, so n = 12 fits (n + 1 operand registers).
Every operand is then a memory operand with no register (the caller copies a and b to the stack;
p is a static array): the lists below address them as ``<offset>+%[name]``. Below 12 limbs the
window leaves registers spare (``spare_registers``), and ``window_operands`` puts them where the
memory operands cost most: the address of a (read n times a row, so no stack copy of it), the
slot word, and the output address of sqr_wide (no stack array copied to t). At 10 limbs that
takes 13% off the latency of mul_wide and a third off sqr_wide's.

A reduction round takes t += m p with m = t[0] n0, which clears word 0. Its low product m p[0] is
-t[0] mod 2^64, so only its carry matters: NEG gives it (CF = word != 0), ADC folds it into the high
half (which is at most 2^64 - 2), and the register of word 0 becomes the low-half temporary.
Branch-free: the same instructions run for every input.

Layer: emit. Imports protocols, derive, the curve files and the leaves; never the drivers, cli or
generator/reference.
"""

from __future__ import annotations

from dataclasses import dataclass

from .adx_asm import chain

# The general registers a kernel may allocate: all but rsp, rbp and rdx (MULX's source).
WINDOW_REGISTERS = 13
# The largest limb count whose window fits: n - 1 accumulator words, two product halves and one
# rotating free register (n + 1 operand registers).
WINDOW_MAX_LIMBS = WINDOW_REGISTERS - 1


def _check_window_limbs(n: int) -> None:
    if not 4 <= n <= WINDOW_MAX_LIMBS:
        raise ValueError(f"the register window takes 4 to {WINDOW_MAX_LIMBS} limbs, not {n}")


def spare_registers(n: int) -> int:
    """The registers an n-limb window (n + 1 operand registers) leaves free."""
    _check_window_limbs(n)
    return WINDOW_REGISTERS - (n + 1)


@dataclass(frozen=True)
class WindowOperands:
    """Which operands of the n-limb kernels take a spare register instead of memory. The
    instruction lists below and the asm constraints around them (adx_products.py) both read this."""

    product_a_pointer: bool  # mont_mul and mul_wide read a through a register holding its address
    slot_register: bool  # the slot word of mont_mul and mul_wide in a register
    square_out_pointer: bool  # sqr_wide writes t through a register holding its address
    square_a_pointer: bool  # sqr_wide reads a through a register holding its address


def window_operands(n: int) -> WindowOperands:
    """The spare registers by what they save: in the products a's address first (a is read n times
    a row, and its stack copy is gone), then the slot; in the square the output address first (no
    stack array and copy), then a's."""
    spare = spare_registers(n)
    return WindowOperands(
        product_a_pointer=spare >= 1,
        slot_register=spare >= 2,
        square_out_pointer=spare >= 1,
        square_a_pointer=spare >= 2,
    )


# The window kernels. The products, the square and the reduction leave rdx to MULX; the modular
# sums and differences use no MULX, so all 14 registers besides rsp and rbp are theirs.
MULX_KERNELS = ("mont_mul", "mul_wide", "sqr_wide", "mont_redc")
SUM_KERNELS = ("add_mod", "sub_mod", "wide_add_mod", "wide_sub_mod")
WINDOW_KERNELS = MULX_KERNELS + SUM_KERNELS
SUM_REGISTERS = WINDOW_REGISTERS + 1


def kernel_registers(n: int, kernel: str) -> int:
    """The general registers the n-limb kernel allocates besides rdx: the n + 1 of the window and
    the spare ones window_operands gives it (the products: a's address and the slot; the square:
    its output's address and a's; the reduction none); the sums and differences n words and the
    two input addresses."""
    if kernel in SUM_KERNELS:
        _check_window_limbs(n)
        return n + 2
    ops = window_operands(n)
    spare = {
        "mont_mul": ops.product_a_pointer + ops.slot_register,
        "mul_wide": ops.product_a_pointer + ops.slot_register,
        "sqr_wide": ops.square_out_pointer + ops.square_a_pointer,
        "mont_redc": 0,
    }
    if kernel not in spare:
        raise ValueError(f"no window kernel {kernel!r}; known: {', '.join(WINDOW_KERNELS)}")
    return n + 1 + spare[kernel]


def takes_every_register(n: int, kernel: str) -> bool:
    """Whether the n-limb kernel allocates every register it may. AddressSanitizer moves the stack
    words these kernels name as memory operands (copies of a and b, n0, the out address) to an
    instrumented frame that needs a base register of its own, so gcc cannot compile such a kernel
    there; the writer gives those builds a memory-accumulator form instead."""
    budget = SUM_REGISTERS if kernel in SUM_KERNELS else WINDOW_REGISTERS
    return kernel_registers(n, kernel) == budget


def _reg(k: int) -> str:
    return f"%[r{k}]"


def _reg32(k: int) -> str:
    return f"%k[r{k}]"


def _mem(name: str, word: int) -> str:
    """Word ``word`` of a memory operand: ``8j+%[x]`` reads ``8j+88(%rsp)``, ``8j+-40(%rsp)`` or
    ``8j+sym(%rip)``."""
    return f"%[{name}]" if word == 0 else f"{8 * word}+%[{name}]"


class _Emitter:
    """The accumulator window as registers (operand indices) by word position, and the code."""

    def __init__(self, n: int, a_pointer: bool = False) -> None:
        _check_window_limbs(n)
        self.n = n
        self.a_pointer = a_pointer
        self.code: list[str] = []

    def a(self, word: int) -> str:
        """Word ``word`` of a: through the register operand ap, or of the memory operand a."""
        return f"{8 * word}(%[ap])" if self.a_pointer else _mem("a", word)

    def op(self, text: str) -> None:
        self.code.append(text)

    def reduce_step(
        self, t: list[int], top: int | None, free: int, top_in_slot: bool
    ) -> tuple[list[int], int]:
        """t[0..n-1] (registers; word n in the slot when top_in_slot, else zero) += m p, shifted
        down one word. ``top`` is the register of word n - 1 when it is not t[n - 1]; returns the
        new window (n registers) and the freed register."""
        n = self.n
        words = t[: n - 1] + [top if top is not None else t[n - 1]]
        self.op(f"movq {_reg(words[0])}, %%rdx")
        self.op("imulq %[n0], %%rdx")
        lo, hi = words[0], free
        self.op(f"mulxq {_mem('p', 0)}, {_reg(lo)}, {_reg(hi)}")
        self.op(f"negq {_reg(lo)}")  # CF = (t[0] + low(m p[0]) carries) = (t[0] != 0)
        self.op(f"adcq $0, {_reg(hi)}")
        self.op(f"xorl {_reg32(lo)}, {_reg32(lo)}")
        self.op(f"adcxq {_reg(hi)}, {_reg(words[1])}")
        for j in range(1, n - 1):
            self.op(f"mulxq {_mem('p', j)}, {_reg(lo)}, {_reg(hi)}")
            self.op(f"adoxq {_reg(lo)}, {_reg(words[j])}")
            self.op(f"adcxq {_reg(hi)}, {_reg(words[j + 1])}")
        self.op(f"mulxq {_mem('p', n - 1)}, {_reg(lo)}, {_reg(hi)}")
        self.op(f"adoxq {_reg(lo)}, {_reg(words[n - 1])}")
        self.op(f"adcxq {'%[slot]' if top_in_slot else '%[zero]'}, {_reg(hi)}")
        self.op(f"adoxq %[zero], {_reg(hi)}")
        return words[1:] + [hi], lo

    def first_row(self, t: list[int], lo: int, hi: int) -> None:
        """Row 0 of a b (one carry chain; the window starts empty): words 0..n-2 in t, n-1 in hi,
        n in rdx; lo is scratch."""
        n = self.n
        self.op(f"movq {_mem('b', 0)}, %%rdx")
        self.op(f"mulxq {self.a(0)}, {_reg(t[0])}, {_reg(t[1])}")
        for j in range(1, n - 2):
            self.op(f"mulxq {self.a(j)}, {_reg(lo)}, {_reg(t[j + 1])}")
            self.op(f"{chain('add', j - 1)} {_reg(lo)}, {_reg(t[j])}")
        self.op(f"mulxq {self.a(n - 2)}, {_reg(lo)}, {_reg(hi)}")
        self.op(f"adcq {_reg(lo)}, {_reg(t[n - 2])}")
        self.op(f"mulxq {self.a(n - 1)}, {_reg(lo)}, %%rdx")
        self.op(f"adcq {_reg(lo)}, {_reg(hi)}")
        self.op("adcq $0, %%rdx")

    def next_row(self, i: int, t: list[int], lo: int, hi: int) -> None:
        """The window plus a b[i] (two carry chains, ADOX and ADCX): relative word n-1 comes from
        the slot, word n is born in rdx; words 0..n-2 end in t and n-1 in hi."""
        n = self.n
        self.op(f"movq {_mem('b', i)}, %%rdx")
        self.op(f"xorl {_reg32(lo)}, {_reg32(lo)}")
        for j in range(n - 2):
            self.op(f"mulxq {self.a(j)}, {_reg(lo)}, {_reg(hi)}")
            self.op(f"adoxq {_reg(lo)}, {_reg(t[j])}")
            self.op(f"adcxq {_reg(hi)}, {_reg(t[j + 1])}")
        self.op(f"mulxq {self.a(n - 2)}, {_reg(lo)}, {_reg(hi)}")
        self.op(f"adoxq {_reg(lo)}, {_reg(t[n - 2])}")
        self.op(f"adcxq %[slot], {_reg(hi)}")
        self.op(f"mulxq {self.a(n - 1)}, {_reg(lo)}, %%rdx")
        self.op(f"adoxq {_reg(lo)}, {_reg(hi)}")
        self.op("adcxq %[zero], %%rdx")
        self.op("adoxq %[zero], %%rdx")

    def final_subtract(self, t: list[int]) -> None:
        """out = t - p if t >= p else t, for t < 2p in registers; out's address from %[outp]."""
        n = self.n
        self.op("movq %[outp], %%rdx")
        for j in range(n):
            self.op(f"movq {_reg(t[j])}, {8 * j}(%%rdx)")
        for j in range(n):
            self.op(f"{chain('sub', j)} {_mem('p', j)}, {_reg(t[j])}")
        for j in range(n):
            self.op(f"cmovcq {8 * j}(%%rdx), {_reg(t[j])}")
            self.op(f"movq {_reg(t[j])}, {8 * j}(%%rdx)")


def mont_mul(n: int) -> list[str]:
    """out = a b / 2^(64 n) mod p (CIOS, p < 2^(64 n - 1)): asm operands r0..r<n> (registers),
    a, b (the operands' stack copies), p, n0, zero, slot (one word of scratch), outp (out's
    address); clobbers rdx and the flags. a is the register operand ap (a's address) where
    window_operands(n).product_a_pointer, and the slot a register where .slot_register."""
    e = _Emitter(n, a_pointer=window_operands(n).product_a_pointer)
    t = list(range(n - 1))  # words 0..n-2; word n-1 in %[slot] between rounds
    lo, hi = n - 1, n
    # round 0: t = a b[0] (one carry chain; the window starts empty)
    e.first_row(t, lo, hi)
    for i in range(n):
        if i > 0:
            # t[0..n] = t + a b[i]: word n-1 comes from the slot, word n is born in rdx
            e.next_row(i, t, lo, hi)
        # words 0..n-2 in t, n-1 in hi, n in rdx: word n to the slot, then one reduction step
        e.op("movq %%rdx, %[slot]")
        t, free = e.reduce_step(t, hi, lo, top_in_slot=True)
        if i < n - 1:
            e.op(f"movq {_reg(t[n - 1])}, %[slot]")
            lo, hi = free, t[n - 1]
            t = t[: n - 1]
    e.final_subtract(t)
    return e.code


def mont_redc(n: int) -> list[str]:
    """out = t / 2^(64 n) mod p for t < p 2^(64 n) (t's address in %[tp]): n reduction steps on
    the low half, then the high half added and one conditional subtraction (the sum is below 2p).
    Operands r0..r<n>, p, n0, zero, tp, outp; clobbers rdx and the flags."""
    e = _Emitter(n)
    e.op("movq %[tp], %%rdx")
    t = list(range(n))
    for j in range(n):
        e.op(f"movq {8 * j}(%%rdx), {_reg(t[j])}")
    free = n
    for _ in range(n):
        t, free = e.reduce_step(t, None, free, top_in_slot=False)
    e.op("movq %[tp], %%rdx")
    for j in range(n):
        e.op(f"{chain('add', j)} {8 * (n + j)}(%%rdx), {_reg(t[j])}")
    e.final_subtract(t)
    return e.code


def sqr_wide(n: int) -> list[str]:
    """w[0..2n-1] = a^2: the products a[i] a[j], i < j, once, in rows with the window of row i
    (words 2i+1..i+n) in registers and its two lowest words final after it, then the sum doubled
    (CF chain) with the squares a[i]^2 added (OF chain) word pair by word pair. Operands r0..r<n>,
    zero, a (a stack copy) or ap (a's address, window_operands(n).square_a_pointer), w (a stack
    array) or wp (the output's address, .square_out_pointer); clobbers rdx and the flags."""
    ops = window_operands(n)
    e = _Emitter(n, a_pointer=ops.square_a_pointer)

    def w_word(k: int) -> str:
        return f"{8 * k}(%[wp])" if ops.square_out_pointer else _mem("w", k)

    free = list(range(n + 1))
    window: dict[int, int] = {}  # word position -> register
    lo = free.pop()
    for k in range(1, n + 1):
        window[k] = free.pop(0)
    # row 0: w[1..n] = a[0] a[1..n-1] (one carry chain)
    e.op(f"movq {e.a(0)}, %%rdx")
    e.op(f"mulxq {e.a(1)}, {_reg(window[1])}, {_reg(window[2])}")
    for j in range(2, n):
        e.op(f"mulxq {e.a(j)}, {_reg(lo)}, {_reg(window[j + 1])}")
        e.op(f"{chain('add', j - 2)} {_reg(lo)}, {_reg(window[j])}")
    e.op(f"adcq $0, {_reg(window[n])}")
    e.op(f"movq $0, {w_word(0)}")
    free.append(lo)
    for i in range(n - 1):
        if i > 0:
            # row i: words 2i+1..i+n += a[i] a[i+1..n-1]; word i+n is born in the last product
            lo, hi, top = free.pop(), free.pop(), free.pop()
            e.op(f"movq {e.a(i)}, %%rdx")
            e.op(f"xorl {_reg32(lo)}, {_reg32(lo)}")
            for j in range(i + 1, n - 1):
                e.op(f"mulxq {e.a(j)}, {_reg(lo)}, {_reg(hi)}")
                e.op(f"adoxq {_reg(lo)}, {_reg(window[i + j])}")
                e.op(f"adcxq {_reg(hi)}, {_reg(window[i + j + 1])}")
            e.op(f"mulxq {e.a(n - 1)}, {_reg(lo)}, {_reg(top)}")
            e.op(f"adoxq {_reg(lo)}, {_reg(window[i + n - 1])}")
            e.op(f"adcxq %[zero], {_reg(top)}")
            e.op(f"adoxq %[zero], {_reg(top)}")
            window[i + n] = top
            free += [lo, hi]
        for k in (2 * i + 1, 2 * i + 2):  # final: no later row reaches them
            e.op(f"movq {_reg(window[k])}, {w_word(k)}")
            free.append(window.pop(k))
    assert not window
    e.op(f"movq $0, {w_word(2 * n - 1)}")
    # w = 2 w + sum a[i]^2 2^(128 i)
    x, y, lo, hi = free[:4]
    e.op(f"xorl {_reg32(x)}, {_reg32(x)}")
    for i in range(n):
        e.op(f"movq {w_word(2 * i)}, {_reg(x)}")
        e.op(f"movq {w_word(2 * i + 1)}, {_reg(y)}")
        e.op(f"adcxq {_reg(x)}, {_reg(x)}")
        e.op(f"adcxq {_reg(y)}, {_reg(y)}")
        e.op(f"movq {e.a(i)}, %%rdx")
        e.op(f"mulxq %%rdx, {_reg(lo)}, {_reg(hi)}")
        e.op(f"adoxq {_reg(lo)}, {_reg(x)}")
        e.op(f"adoxq {_reg(hi)}, {_reg(y)}")
        e.op(f"movq {_reg(x)}, {w_word(2 * i)}")
        e.op(f"movq {_reg(y)}, {w_word(2 * i + 1)}")
    return e.code


def mul_wide(n: int) -> list[str]:
    """w[0..2n-1] = a b, no reduction (out's address in %[outp]): schoolbook rows as mont_mul's,
    the window of row i (words i..i+n) in n - 1 registers, a product half, rdx and the slot;
    after each row its lowest word is final and goes to out through rdx, and the window moves up
    one word. Operands r0..r<n>, a, b (stack copies), zero, slot, outp; clobbers rdx and the flags.
    a is the register operand ap (a's address) where window_operands(n).product_a_pointer, and
    the slot a register where .slot_register."""
    e = _Emitter(n, a_pointer=window_operands(n).product_a_pointer)
    t = list(range(n - 1))  # relative words 0..n-2; word n-1 in %[slot] between rows
    lo, hi = n - 1, n
    e.first_row(t, lo, hi)
    for i in range(n):
        if i > 0:
            # words i..i+n = window + a b[i]: relative word n-1 from the slot, word n born in rdx
            e.next_row(i, t, lo, hi)
        # relative words 0..n-2 in t, n-1 in hi, n in rdx: word n to the slot, word 0 to out
        e.op("movq %%rdx, %[slot]")
        e.op("movq %[outp], %%rdx")
        if i < n - 1:
            e.op(f"movq {_reg(t[0])}, {8 * i}(%%rdx)")
            t, lo, hi = t[1:] + [hi], t[0], lo
    for j in range(n - 1):
        e.op(f"movq {_reg(t[j])}, {8 * (n - 1 + j)}(%%rdx)")
    e.op(f"movq {_reg(hi)}, {8 * (2 * n - 2)}(%%rdx)")
    e.op(f"movq %[slot], {_reg(lo)}")
    e.op(f"movq {_reg(lo)}, {8 * (2 * n - 1)}(%%rdx)")
    return e.code


def _wide_low_and_high(n: int, op: str) -> list[str]:
    """The low halves of a and b combined word by word (``op``: add or sub) into out (its address
    in r<n-1>, the combined word in r0), then the high halves into r0..r<n-1> in the same carry
    chain."""
    code = [f"movq %[outp], {_reg(n - 1)}"]
    for j in range(n):
        code.append(f"movq {8 * j}(%[pa]), {_reg(0)}")
        code.append(f"{chain(op, j)} {8 * j}(%[pb]), {_reg(0)}")
        code.append(f"movq {_reg(0)}, {8 * j}({_reg(n - 1)})")
    for j in range(n):  # out's address in r<n-1> is not needed once the low half is stored
        code.append(f"movq {8 * (n + j)}(%[pa]), {_reg(j)}")
        code.append(f"{chain(op, 1)} {8 * (n + j)}(%[pb]), {_reg(j)}")
    return code


def wide_add_mod(n: int) -> list[str]:
    """out = a + b mod p 2^(64 n) for double-width a, b below it and p < 2^(64 n - 1): the low
    halves add into out, the high halves (with that carry; below 2p, so no carry word) into
    r0..r<n-1>, then minus p, and the sum kept when that borrows. a and b through the pointer
    registers pa, pb (pa takes out's address once they are read), p a memory operand, outp out's
    address in memory: n + 2 registers, no rdx needed. Clobbers the flags."""
    _Emitter(n)  # the limb range
    code = _wide_low_and_high(n, "add")
    code.append("movq %[outp], %[pa]")
    code += [f"movq {_reg(j)}, {8 * (n + j)}(%[pa])" for j in range(n)]
    code += [f"{chain('sub', j)} {_mem('p', j)}, {_reg(j)}" for j in range(n)]
    for j in range(n):
        code.append(f"cmovcq {8 * (n + j)}(%[pa]), {_reg(j)}")
        code.append(f"movq {_reg(j)}, {8 * (n + j)}(%[pa])")
    return code


def wide_sub_mod(n: int) -> list[str]:
    """out = a - b mod p 2^(64 n) for double-width a, b below it: the difference (low half into
    out, high half into r0..r<n-1>), its borrow as a mask in pb, then p added to the high half and
    the difference kept when nothing borrowed. Operands as wide_add_mod; clobbers the flags."""
    _Emitter(n)
    code = _wide_low_and_high(n, "sub")
    code.append("sbbq %[pb], %[pb]")
    code.append("movq %[outp], %[pa]")
    code += [f"movq {_reg(j)}, {8 * (n + j)}(%[pa])" for j in range(n)]
    code += [f"{chain('add', j)} {_mem('p', j)}, {_reg(j)}" for j in range(n)]
    code.append("testq %[pb], %[pb]")
    for j in range(n):
        code.append(f"cmovzq {8 * (n + j)}(%[pa]), {_reg(j)}")
        code.append(f"movq {_reg(j)}, {8 * (n + j)}(%[pa])")
    return code
