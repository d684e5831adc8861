"""The x86_64-adx Montgomery kernels of one limb count: multiplication, the double-width product,
the reduction and the square, as the C text of c/asm_x86_64_adx.h.

Each takes one of three forms by the limb count n. Up to REG_LIMBS the CIOS accumulator (n + 1
words) lives in registers and rotates: the word that a reduction step clears becomes the new top
word. Up to adx_window.WINDOW_MAX_LIMBS all but one of its words stay in registers
(generator/emit/adx_window.py writes those instruction lists; here the C around them). Above, the
accumulator is a stack array, two memory operations per MULX; that form also serves
AddressSanitizer builds of a window kernel that takes every register. Products use two carry
chains, OF for the low halves and CF for the high halves (Intel, "New Instructions Supporting
Large Integer Arithmetic", 2012). Only the no-carry forms (p < 2^(64 n - 1)) are written: the
accumulator then fits n + 1 words. Imports adx_asm and adx_window.

Layer: emit.
"""

from __future__ import annotations

from . import adx_window
from .adx_asm import (
    asan_fallback,
    asm_lines,
    asm_statement,
    chain,
    declare,
    keep_below_p,
    kernel,
    modulus_operand,
    names,
    outputs,
)

# Up to this many limbs the whole accumulator (n + 1 words), two product halves and the pointers
# fit the registers.
REG_LIMBS = 6
# Up to this many limbs the final subtraction of the register kernels keeps its copies in
# registers: lo, hi, rdx, the accumulator's spare top word, and from 5 limbs one more (x4, ...).
FINAL_COPY_LIMBS = 5

MULX_CLOBBERS = ("rdx", "cc", "memory")


def accumulator(n: int) -> str:
    """Where the n-limb products keep their accumulator, as their comments say."""
    if n <= REG_LIMBS:
        return "registers"
    return "registers but one word" if n <= adx_window.WINDOW_MAX_LIMBS else "memory"


# ---- the register accumulator (n <= REG_LIMBS) ----------------------------------------------------


def _t(i: int, j: int, n: int) -> str:
    """The register of word j of the accumulator in round i (the n + 1 registers rotate)."""
    return f"%[t{(i + j) % (n + 1)}]"


def reg_mac(i: int, n: int, src: str) -> list[str]:
    """t[0..n] += src * rdx in round i, t[n] zero on entry: OF carries the low halves, CF the high."""
    code = ["xorl %k[lo], %k[lo]"]
    for j in range(n):
        code += [
            f"mulxq {8 * j}(%[{src}]), %[lo], %[hi]",
            f"adoxq %[lo], {_t(i, j, n)}",
            f"adcxq %[hi], {_t(i, j + 1, n)}",
        ]
    code.append(f"adoxq %[zero], {_t(i, n, n)}")
    return code


def reg_mul_first(n: int, src: str) -> list[str]:
    """t[0..n] = src * rdx (the first round: t is zero, so one carry chain and no additions of t)."""
    code = [f"mulxq 0(%[{src}]), {_t(0, 0, n)}, {_t(0, 1, n)}"]
    for j in range(1, n):
        code += [
            f"mulxq {8 * j}(%[{src}]), %[lo], {_t(0, j + 1, n)}",
            f"{chain('add', j - 1)} %[lo], {_t(0, j, n)}",
        ]
    code.append(f"adcq $0, {_t(0, n, n)}")
    return code


def reg_reduce(i: int, n: int) -> list[str]:
    """One reduction step: t += m p with m = t[0] n0, which clears t[0] (dropped by the rotation)."""
    return [f"movq {_t(i, 0, n)}, %%rdx", "imulq %[n0], %%rdx", *reg_mac(i, n, "p")]


def reg_final(i: int, n: int) -> list[str]:
    """out = t - p if t >= p else t, for t < 2^(64 n) in the registers of round i; out's address
    comes from memory into %[ob] (a pointer register no longer needed)."""
    words = [_t(i, j, n) for j in range(n)]
    if n <= FINAL_COPY_LIMBS:
        # the copies: lo, hi, rdx and the accumulator's spare top word (zero: the no-carry result is
        # below 2p < 2^(64 n)), then x4, ...; so the words never go through memory before the selection
        copies = ["%[lo]", "%[hi]", "%%rdx", _t(i, n, n)] + [f"%[x{j}]" for j in range(4, n)]
        return keep_below_p(words, copies, dest="%[ob]", pre="movq %[outp], %[ob]")
    code = ["movq %[outp], %[ob]"]
    code += [f"movq {words[j]}, {8 * j}(%[ob])" for j in range(n)]
    code += [f"{chain('sub', j)} {8 * j}(%[p]), {words[j]}" for j in range(n)]
    for j in range(n):
        code += [f"cmovcq {8 * j}(%[ob]), {words[j]}", f"movq {words[j]}, {8 * j}(%[ob])"]
    return code


def _final_extra(n: int) -> list[str]:
    """The registers beyond lo, hi, rdx and the top word that reg_final's copies take."""
    return names("x", n)[4:] if n <= FINAL_COPY_LIMBS else []


def _reg_variables(n: int) -> list[str]:
    return [*names("t", n + 1), "lo", "hi"]


def reg_mont_mul_code(n: int) -> list[str]:
    """out = a b / 2^(64 n) mod p with the accumulator in registers: b's address in %[ob], which
    takes out's (from %[outp]) for the final subtraction."""
    code: list[str] = []
    for i in range(n):
        code.append(f"movq {8 * i}(%[ob]), %%rdx")
        code += reg_mul_first(n, "a") if i == 0 else reg_mac(i, n, "a")
        code += reg_reduce(i, n)
    return code + reg_final(n, n)


def _reg_mont_mul(n: int) -> str:
    extra = _final_extra(n)
    return (
        declare("limb_t", _reg_variables(n) + extra)
        + "\n"
        + asm_statement(
            asm_lines(reg_mont_mul_code(n)),
            [*outputs(_reg_variables(n) + extra), '[ob] "+&r" (ob)'],
            ['[a] "r" (a)', '[p] "r" (p)', '[n0] "m" (n0)', '[zero] "m" (zero)', '[outp] "m" (outp)'],
            MULX_CLOBBERS,
            outs_at_margin=True,
        )
    )


def reg_mul_wide_code(n: int) -> list[str]:
    """%[w] = a b in 2n words with the row's window in registers: after each row its lowest word
    is final, is stored, and its register becomes the next row's top word."""
    code: list[str] = []
    for i in range(n):
        code.append(f"movq {8 * i}(%[b]), %%rdx")
        code += reg_mul_first(n, "a") if i == 0 else reg_mac(i, n, "a")
        k = i % (n + 1)
        code += [f"movq {_t(i, 0, n)}, {8 * i}(%[w])", f"xorl %k[t{k}], %k[t{k}]"]
    return code + [f"movq {_t(n, j, n)}, {8 * (n + j)}(%[w])" for j in range(n)]


def _reg_mul_wide(n: int) -> str:
    return (
        declare("limb_t", _reg_variables(n))
        + "\n"
        + asm_statement(
            asm_lines(reg_mul_wide_code(n)),
            outputs(_reg_variables(n)),
            ['[a] "r" (a)', '[b] "r" (b)', '[w] "r" (t)', '[zero] "m" (zero)'],
            MULX_CLOBBERS,
        )
    )


def reg_redc_code(n: int) -> list[str]:
    """out = t / 2^(64 n) mod p with the window in registers: t's address in %[ob] (then out's)."""
    code = [f"movq {8 * j}(%[ob]), %[t{j}]" for j in range(n)]
    code.append(f"xorl %k[t{n}], %k[t{n}]")
    for i in range(n):
        code += reg_reduce(i, n)
    code += [f"{chain('add', j)} {8 * (n + j)}(%[ob]), {_t(n, j, n)}" for j in range(n)]
    return code + reg_final(n, n)


def _reg_redc(n: int) -> str:
    extra = _final_extra(n)
    return (
        declare("limb_t", _reg_variables(n) + extra)
        + "\n"
        + asm_statement(
            asm_lines(reg_redc_code(n)),
            [*outputs(_reg_variables(n) + extra), '[ob] "+&r" (ob)'],
            ['[p] "r" (p)', '[n0] "m" (n0)', '[zero] "m" (zero)', '[outp] "m" (outp)'],
            MULX_CLOBBERS,
            outs_at_margin=True,
        )
    )


# ---- the memory accumulator (above the window, and AddressSanitizer builds) -----------------------


def _h(j: int) -> str:
    """The product half that waits for word j + 1 (two registers alternate)."""
    return f"%[h{j % 2}]"


def mem_mac(n: int, src: str, shift: bool) -> list[str]:
    """The memory accumulator %[t] (n + 1 words) += src * rdx: the same two chains, one word at a
    time through %[lo], the high half of each product waiting in %[h0] / %[h1] for the next word.
    ``shift`` stores word j to j - 1 (a reduction step: word 0 becomes zero and is dropped)."""
    s = int(shift)
    code = ["xorl %k[lo], %k[lo]"]
    for j in range(n):
        code += [f"mulxq {8 * j}(%[{src}]), %[lo], {_h(j)}", f"adoxq {8 * j}(%[t]), %[lo]"]
        if j > 0:
            code.append(f"adcxq {_h(j - 1)}, %[lo]")
        if not (shift and j == 0):
            code.append(f"movq %[lo], {8 * (j - s)}(%[t])")
    code += [
        f"movq {_h(n - 1)}, %[lo]",
        "adcxq %[zero], %[lo]",
        f"adoxq {8 * n}(%[t]), %[lo]",
        f"movq %[lo], {8 * (n - s)}(%[t])",
    ]
    if shift:
        code.append(f"movq $0, {8 * n}(%[t])")
    return code


def mem_reduce(n: int) -> list[str]:
    """One reduction step on the memory accumulator."""
    return ["movq 0(%[t]), %%rdx", "imulq %[n0], %%rdx", *mem_mac(n, "p", True)]


def mem_final(n: int) -> list[str]:
    """out = t - p if t >= p else t, for t < 2^(64 n) in the memory accumulator."""
    code = ["movq %[outp], %[ob]"]
    for j in range(n):
        code += [
            f"movq {8 * j}(%[t]), %[lo]",
            f"{chain('sub', j)} {8 * j}(%[p]), %[lo]",
            f"movq %[lo], {8 * j}(%[ob])",
        ]
    for j in range(n):
        code += [f"movq {8 * j}(%[ob]), %[lo]", f"cmovcq {8 * j}(%[t]), %[lo]", f"movq %[lo], {8 * j}(%[ob])"]
    return code


MEM_VARIABLES = ("lo", "h0", "h1")


def mem_mont_mul_code(n: int) -> list[str]:
    """out = a b / 2^(64 n) mod p with the accumulator %[t] (n + 1 words, zero) in memory."""
    code: list[str] = []
    for i in range(n):
        code.append(f"movq {8 * i}(%[ob]), %%rdx")
        code += mem_mac(n, "a", False) + mem_reduce(n)
    return code + mem_final(n)


def _mem_mont_mul(n: int) -> str:
    return f"    limb_t t[{n + 1}] = {{0}}, lo, h0, h1;\n\n" + asm_statement(
        asm_lines(mem_mont_mul_code(n)),
        [*outputs(MEM_VARIABLES), '[ob] "+&r" (ob)'],
        [
            '[a] "r" (a)',
            '[p] "r" (p)',
            '[t] "r" (t)',
            '[n0] "m" (n0)',
            '[zero] "m" (zero)',
            '[outp] "m" (outp)',
        ],
        MULX_CLOBBERS,
        outs_at_margin=True,
    )


def mem_mul_wide_code(n: int) -> list[str]:
    """%[w] = a b in 2n words (zero on entry): row i accumulates into w[i..i+n] in place."""
    code: list[str] = []
    for i in range(n):
        code += [f"movq {8 * i}(%[b]), %%rdx", f"leaq {8 * i}(%[w]), %[t]", *mem_mac(n, "a", False)]
    return code


def _mem_mul_wide(n: int) -> str:
    return (
        "    limb_t lo, h0, h1, *row;\n"
        "    size_t i;\n\n"
        f"    for (i = 0; i < {2 * n}; i++)\n"
        "        t[i] = 0;\n"
        f"    /* row i accumulates into t[i..i+{n}] in place */\n"
        + asm_statement(
            asm_lines(mem_mul_wide_code(n)),
            [*outputs(MEM_VARIABLES), '[t] "=&r" (row)'],
            ['[a] "r" (a)', '[b] "r" (b)', '[w] "r" (t)', '[zero] "m" (zero)'],
            MULX_CLOBBERS,
        )
    )


def mem_redc_code(n: int) -> list[str]:
    """out = t / 2^(64 n) mod p: the low half copied to the accumulator %[t] (n + 1 words), t's
    address in %[ob] for the high half."""
    code: list[str] = []
    for _ in range(n):
        code += mem_reduce(n)
    for j in range(n):
        code += [
            f"movq {8 * j}(%[t]), %[lo]",
            f"{chain('add', j)} {8 * (n + j)}(%[ob]), %[lo]",
            f"movq %[lo], {8 * j}(%[t])",
        ]
    return code + mem_final(n)


def _mem_redc(n: int) -> str:
    return (
        f"    limb_t w[{n + 1}], lo, h0, h1;\n"
        "    size_t i;\n\n"
        f"    for (i = 0; i < {n}; i++)\n"
        "        w[i] = t[i];\n"
        f"    w[{n}] = 0;\n"
        + asm_statement(
            asm_lines(mem_redc_code(n)),
            [*outputs(MEM_VARIABLES), '[ob] "+&r" (ob)'],
            ['[p] "r" (p)', '[t] "r" (w)', '[n0] "m" (n0)', '[zero] "m" (zero)', '[outp] "m" (outp)'],
            MULX_CLOBBERS,
            outs_at_margin=True,
        )
    )


def mem_sqr_wide_code(n: int) -> list[str]:
    """t = a^2 through memory: the products a[i] a[j], i < j, once, row i accumulating at
    t[2i + 1..i + n]; the sum doubled; the squares a[i]^2 added at t[2i..2i + 1] in one chain."""
    code: list[str] = []
    for i in range(n - 1):
        length = n - 1 - i
        code += [f"movq {8 * i}(%[a]), %%rdx", f"leaq {8 * (2 * i + 1)}(%[w]), %[t]", "xorl %k[lo], %k[lo]"]
        for j in range(length):
            code += [f"mulxq {8 * (i + 1 + j)}(%[a]), %[lo], {_h(j)}", f"adoxq {8 * j}(%[t]), %[lo]"]
            if j > 0:
                code.append(f"adcxq {_h(j - 1)}, %[lo]")
            code.append(f"movq %[lo], {8 * j}(%[t])")
        code += [
            f"movq {_h(length - 1)}, %[lo]",
            "adcxq %[zero], %[lo]",
            f"adoxq {8 * length}(%[t]), %[lo]",
            f"movq %[lo], {8 * length}(%[t])",
        ]
    for j in range(2 * n):
        code += [
            f"movq {8 * j}(%[w]), %[lo]",
            f"{chain('add', j)} %[lo], %[lo]",
            f"movq %[lo], {8 * j}(%[w])",
        ]
    for i in range(n):
        code += [
            f"movq {8 * i}(%[a]), %%rdx",
            "mulxq %%rdx, %[lo], %[h0]",
            f"{chain('add', i)} %[lo], {16 * i}(%[w])",
            f"adcq %[h0], {16 * i + 8}(%[w])",
        ]
    return code


def _sqr_mont_signature(n: int) -> str:
    return f"void pf_sqr_mont_{n}_nc(limb_t out[{n}], const limb_t a[{n}], const limb_t p[{n}], limb_t n0)"


def _sqr_wide_signature(n: int) -> str:
    return f"void pf_sqr_wide_{n}(limb_t t[{2 * n}], const limb_t a[{n}])"


def mem_square_kernels(n: int) -> str:
    """pf_sqr_wide and pf_sqr_mont through memory (above the window; AddressSanitizer builds)."""
    sqr_wide = kernel(
        f"t[0..{2 * n - 1}] = a^2: the products a[i] a[j], i < j, once ({n * (n - 1) // 2} MULX in rows, the window of\n"
        f" * row i at t[2i + 1..i + {n}] in memory, as pf_mul_wide_{n}), the sum doubled, then the {n} squares\n"
        f" * a[i]^2 added at t[2i..2i + 1] in one carry chain ({n * n} products for a general product).",
        f"PF_ASM_SQR_WIDE_{n}",
        _sqr_wide_signature(n),
        "    const limb_t zero = 0;\n"
        "    limb_t lo, h0, h1, *row;\n"
        "    size_t i;\n\n"
        f"    for (i = 0; i < {2 * n}; i++)\n"
        "        t[i] = 0;\n"
        + asm_statement(
            asm_lines(mem_sqr_wide_code(n)),
            [*outputs(MEM_VARIABLES), '[t] "=&r" (row)'],
            ['[a] "r" (a)', '[w] "r" (t)', '[zero] "m" (zero)'],
            MULX_CLOBBERS,
        ),
    )
    sqr_mont = kernel(
        f"out = a^2 / 2^{64 * n} mod p: the square (pf_sqr_wide_{n}, a^2 < p^2 < p 2^{64 * n}), then one reduction",
        f"PF_ASM_SQR_MONT_{n}_NC",
        _sqr_mont_signature(n),
        f"    limb_t t[{2 * n}];\n\n    pf_sqr_wide_{n}(t, a);\n    pf_redc_mont_{n}(out, t, p, n0);\n",
    )
    return f"{sqr_wide}\n{sqr_mont}"


# ---- the register window (REG_LIMBS < n <= adx_window.WINDOW_MAX_LIMBS) --------------------------


def _window_outputs(n: int) -> list[str]:
    return outputs(names("r", n + 1))


def _window_a(pointer: bool) -> str:
    """The window kernels' operand a: its address in a spare register, or its stack copy ac."""
    return '[ap] "r" (a)' if pointer else '[a] "m" (ac)'


def _slot(ops: adx_window.WindowOperands) -> str:
    return f'[slot] "{"=&r" if ops.slot_register else "=m"}" (slot)'


def _window_mont_mul(n: int) -> str:
    ops = adx_window.window_operands(n)
    copy_a = not ops.product_a_pointer
    body = (
        declare("limb_t", [*([f"ac[{n}]"] if copy_a else []), f"bc[{n}]", "slot", *names("r", n + 1)])
        + "\n"
        + modulus_operand(n)
        + "    (void)ob;\n"
        + ("    __builtin_memcpy(ac, a, sizeof ac);\n" if copy_a else "")
        + "    __builtin_memcpy(bc, b, sizeof bc);\n"
        + asm_statement(
            asm_lines(adx_window.mont_mul(n)),
            [*_window_outputs(n), _slot(ops)],
            [
                _window_a(ops.product_a_pointer),
                '[b] "m" (bc)',
                f'[p] "m" (PF_ADX_MODULUS_OPERAND(pc, {n}))',
                '[n0] "m" (n0)',
                '[zero] "m" (zero)',
                '[outp] "m" (outp)',
            ],
            MULX_CLOBBERS,
            outs_at_margin=True,
        )
    )
    return asan_fallback(adx_window.takes_every_register(n, "mont_mul"), body, _mem_mont_mul(n))


def _window_mul_wide(n: int) -> str:
    ops = adx_window.window_operands(n)
    copy_a = not ops.product_a_pointer
    if copy_a:
        note = (
            "    /* generator/emit/adx_window.py's mul_wide: a and b copied to the stack, each row's lowest word\n"
            "     * to t through rdx (t's address from memory) */\n"
        )
    else:
        note = (
            "    /* generator/emit/adx_window.py's mul_wide: a read through its address in a spare register, b\n"
            "     * copied to the stack, each row's lowest word to t through rdx (t's address from memory) */\n"
        )
    body = (
        note
        + declare(
            "limb_t", [*([f"ac[{n}]"] if copy_a else []), f"bc[{n}]", "*outp = t", "slot", *names("r", n + 1)]
        )
        + "\n"
        + ("    __builtin_memcpy(ac, a, sizeof ac);\n" if copy_a else "")
        + "    __builtin_memcpy(bc, b, sizeof bc);\n"
        + asm_statement(
            asm_lines(adx_window.mul_wide(n)),
            [*_window_outputs(n), _slot(ops)],
            [_window_a(ops.product_a_pointer), '[b] "m" (bc)', '[zero] "m" (zero)', '[outp] "m" (outp)'],
            MULX_CLOBBERS,
            outs_at_margin=True,
        )
    )
    return asan_fallback(adx_window.takes_every_register(n, "mul_wide"), body, _mem_mul_wide(n))


def _window_redc(n: int) -> str:
    body = (
        declare("limb_t", ["*tp = t", *names("r", n + 1)])
        + "\n"
        + modulus_operand(n)
        + "    (void)ob;\n"
        + asm_statement(
            asm_lines(adx_window.mont_redc(n)),
            _window_outputs(n),
            [
                f'[p] "m" (PF_ADX_MODULUS_OPERAND(pc, {n}))',
                '[n0] "m" (n0)',
                '[zero] "m" (zero)',
                '[tp] "m" (tp)',
                '[outp] "m" (outp)',
            ],
            MULX_CLOBBERS,
            outs_at_margin=True,
        )
    )
    return asan_fallback(adx_window.takes_every_register(n, "mont_redc"), body, _mem_redc(n))


def _window_square(n: int, dest: str) -> str:
    """sqr_wide's statement into dest, an array of 2n words: through its address in a spare
    register, or as a memory operand (dest must then be a local array)."""
    ops = adx_window.window_operands(n)
    out_pointer, a_pointer = ops.square_out_pointer, ops.square_a_pointer
    return (
        "    const limb_t zero = 0;\n"
        + declare("limb_t", [*([] if a_pointer else [f"ac[{n}]"]), *names("r", n + 1)])
        + "\n"
        + ("" if a_pointer else "    __builtin_memcpy(ac, a, sizeof ac);\n")
        + asm_statement(
            asm_lines(adx_window.sqr_wide(n)),
            [*_window_outputs(n), *([] if out_pointer else [f'[w] "=m" ({dest})'])],
            [_window_a(a_pointer), *([f'[wp] "r" ({dest})'] if out_pointer else []), '[zero] "m" (zero)'],
            ("rdx", "cc", "memory") if out_pointer or a_pointer else ("rdx", "cc"),
            outs_at_margin=True,
        )
    )


def _window_square_kernels(n: int) -> str:
    ops = adx_window.window_operands(n)
    if ops.square_out_pointer:
        where = ", written to t\n * through a spare register that holds its address"
        sqr_wide_body = _window_square(n, "t")
    else:
        where = " into a stack\n * array (the window leaves no register for t's address), then copied to t"
        sqr_wide_body = (
            f"    limb_t w[{2 * n}];\n" + _window_square(n, "w") + "    __builtin_memcpy(t, w, sizeof w);\n"
        )
    sqr_wide = kernel(
        f"t[0..{2 * n - 1}] = a^2 (generator/emit/adx_window.py's sqr_wide: {n * (n - 1) // 2} MULX for the products a[i] a[j],\n"
        f" * i < j, in rows whose window is in registers, the sum doubled and the {n} squares added){where}",
        f"PF_ASM_SQR_WIDE_{n}",
        _sqr_wide_signature(n),
        sqr_wide_body,
    )
    sqr_mont = kernel(
        f"out = a^2 / 2^{64 * n} mod p: the square t = a^2 < p 2^{64 * n} (as pf_sqr_wide_{n}, into a local array), then one\n"
        f" * reduction (pf_redc_mont_{n})",
        f"PF_ASM_SQR_MONT_{n}_NC",
        _sqr_mont_signature(n),
        f"    limb_t t[{2 * n}];\n" + _window_square(n, "t") + f"    pf_redc_mont_{n}(out, t, p, n0);\n",
    )
    return asan_fallback(
        adx_window.takes_every_register(n, "sqr_wide"), f"{sqr_wide}\n{sqr_mont}", mem_square_kernels(n)
    )


# ---- the kernels ------------------------------------------------------------------------------


def _form(n: int) -> str:
    if n <= REG_LIMBS:
        return "reg"
    return "window" if n <= adx_window.WINDOW_MAX_LIMBS else "mem"


def mul_mont(n: int) -> str:
    """pf_mul_mont_<n>_nc: out = a b / 2^(64 n) mod p by CIOS, the no-carry bound t < 2p between rounds."""
    body = {"reg": _reg_mont_mul, "window": _window_mont_mul, "mem": _mem_mont_mul}[_form(n)](n)
    return kernel(
        f'out = a b / 2^{64 * n} mod p: CIOS, {n} rounds of "t += a b[i]" then "t = (t + m p) / 2^64",\n'
        f" * with the no-carry bound t < 2p between rounds ({accumulator(n)} accumulator).",
        f"PF_ASM_MUL_MONT_{n}_NC",
        f"void pf_mul_mont_{n}_nc(limb_t out[{n}], const limb_t a[{n}], const limb_t b[{n}], const limb_t p[{n}], limb_t n0)",
        "    const limb_t zero = 0;\n    limb_t *outp = out;\n    const limb_t *ob = b;\n" + body,
    )


def sqr_mont_by_mul(n: int) -> str:
    """pf_sqr_mont_<n>_nc as pf_mul_mont_<n>_nc(a, a): the register form, and limb counts whose
    reduction stays portable (some field of that count lacks the no-carry bound)."""
    return kernel(
        f"out = a^2 / 2^{64 * n} mod p",
        f"PF_ASM_SQR_MONT_{n}_NC",
        _sqr_mont_signature(n),
        f"    pf_mul_mont_{n}_nc(out, a, a, p, n0);\n",
    )


def mul_wide(n: int) -> str:
    """pf_mul_wide_<n>: t = a b in 2n words (schoolbook rows), no reduction."""
    body = {"reg": _reg_mul_wide, "window": _window_mul_wide, "mem": _mem_mul_wide}[_form(n)](n)
    return kernel(
        f"t[0..{2 * n - 1}] = a b (schoolbook rows, the window of the row in {accumulator(n)})",
        f"PF_ASM_MUL_WIDE_{n}",
        f"void pf_mul_wide_{n}(limb_t t[{2 * n}], const limb_t a[{n}], const limb_t b[{n}])",
        "    const limb_t zero = 0;\n" + body,
    )


def redc_mont(n: int) -> str:
    """pf_redc_mont_<n>: out = t / 2^(64 n) mod p for t < p 2^(64 n): n reduction steps on the low
    half, the high half added, one conditional subtraction."""
    body = {"reg": _reg_redc, "window": _window_redc, "mem": _mem_redc}[_form(n)](n)
    return kernel(
        f"out = t / 2^{64 * n} mod p for t < p 2^{64 * n}: {n} reduction steps on the low half (the window\n"
        f" * stays below 2^{64 * n}, its final value at most p), then the high half added and one conditional\n"
        " * subtraction (the sum is below 2p).",
        f"PF_ASM_REDC_MONT_{n}",
        f"void pf_redc_mont_{n}(limb_t out[{n}], limb_t t[{2 * n}], const limb_t p[{n}], limb_t n0)",
        "    const limb_t zero = 0;\n    limb_t *outp = out;\n    const limb_t *ob = t;\n" + body,
    )


def square_kernels(n: int) -> str:
    """pf_sqr_wide_<n> and pf_sqr_mont_<n>_nc by the dedicated square (above REG_LIMBS): n (n - 1) / 2
    products instead of n^2, then one reduction."""
    if n <= REG_LIMBS:
        raise ValueError(f"the register kernels square by pf_mul_mont; no square kernels for {n} limbs")
    return mem_square_kernels(n) if _form(n) == "mem" else _window_square_kernels(n)


def limb_section(n: int, textbook: bool) -> str:
    """The Montgomery kernels of one no-carry limb count, as the header's section of that count.
    ``textbook``: some field of n limbs lacks the no-carry bound, so the reduction (and with it the
    square that ends in it) stays portable C."""
    text = (
        f"\n/* ---- {n} limbs -------------------------------------------------------------------------- */\n\n"
        + mul_mont(n)
        + "\n"
    )
    if n <= REG_LIMBS or textbook:
        text += sqr_mont_by_mul(n)
    text += "\n" + mul_wide(n)
    if textbook:
        return text
    text += "\n" + redc_mont(n)
    if n > REG_LIMBS:
        text += ("" if _form(n) == "mem" else "\n") + square_kernels(n)
    return text
