"""The additive x86_64-adx kernels, as the C text of c/asm_x86_64_adx.h: modular sums and
differences (single and double width), the cyclotomic squarings' 3t +- 2x, and the safegcd
inversion's block of divsteps (adds, shifts and selections on two packed words).

Each is branch free: a result is reduced by computing both candidates and selecting with CMOV.
Where the words fit the registers (COPY_LIMBS for a sum and its reduced copy, SUM_LIMBS for a sum
alone) nothing goes through memory before the selection; up to adx_window.WINDOW_MAX_LIMBS the
register-window forms take p as a memory operand; above (and for AddressSanitizer builds of a
window kernel that takes every register) a stack array holds the reduced copy. Imports adx_asm
and adx_window.

Layer: emit.
"""

from __future__ import annotations

from . import adx_window
from .adx_asm import (
    add_p_if_borrowed,
    asan_fallback,
    asm_comment,
    asm_lines,
    asm_statement,
    chain,
    declare,
    interleave,
    keep_below_p,
    kernel,
    modulus_operand,
    names,
    other,
    outputs,
    regs,
)

# Up to this many limbs a sum and its reduced copy both fit the registers (2n + 5 of them).
COPY_LIMBS = 4
# Up to this many limbs the words of a sum, its carry word and the four addresses fit the registers.
SUM_LIMBS = 8
# The divsteps of one block of the safegcd inversion (field.h's PF_DIVSTEP_BLOCK).
DIVSTEP_BLOCK = 19

SUM_CLOBBERS = ("cc", "memory")
POINTER_INPUTS = ['[out] "r" (out)', '[a] "r" (a)', '[b] "r" (b)', '[p] "r" (p)']
WIDE_INPUTS = ['[out] "r" (t)', '[a] "r" (a)', '[b] "r" (b)', '[p] "r" (p)']


def _window_p(j: int) -> str:
    """Word j of the memory operand p (``8+%[p]``)."""
    return f"{8 * j}+%[p]" if j else "%[p]"


def _window_inputs(n: int) -> list[str]:
    return [f'[p] "m" (PF_ADX_MODULUS_OPERAND(pc, {n}))', '[outp] "m" (outp)']


def _signature(name: str, n: int, width: int) -> str:
    """A sum's signature: out and the operands of ``width`` n words (1 or 2), p of n."""
    w = width * n
    out = "out" if width == 1 else "t"
    return f"void pf_{name}_{n}(limb_t {out}[{w}], const limb_t a[{w}], const limb_t b[{w}], const limb_t p[{n}])"


# ---- a +- b mod p ------------------------------------------------------------------------------


def mem_sum_code(n: int, op: str) -> list[str]:
    """a +- b mod p through memory: the result to out, the corrected copy to the stack array %[d],
    copied back where the carry (the sum) or the borrow mask (the difference) says."""
    code = ["movl $0, %k[c]"] if op == "add" else []
    for j in range(n):
        code += [
            f"movq {8 * j}(%[a]), %[x]",
            f"{chain(op, j)} {8 * j}(%[b]), %[x]",
            f"movq %[x], {8 * j}(%[out])",
        ]
    if op == "add":
        code.append("adcq $0, %[c]")
        for j in range(n):
            code += [
                f"movq {8 * j}(%[out]), %[x]",
                f"{chain('sub', j)} {8 * j}(%[p]), %[x]",
                f"movq %[x], {8 * j}(%[d])",
            ]
        code.append("sbbq $0, %[c]")
        for j in range(n):
            code += [
                f"movq {8 * j}(%[out]), %[x]",
                f"cmovncq {8 * j}(%[d]), %[x]",
                f"movq %[x], {8 * j}(%[out])",
            ]
    else:
        code.append("sbbq %[c], %[c]")
        for j in range(n):
            code += [f"movq {8 * j}(%[p]), %[x]", "andq %[c], %[x]", f"movq %[x], {8 * j}(%[d])"]
        for j in range(n):
            code += [
                f"movq {8 * j}(%[out]), %[x]",
                f"{chain('add', j)} {8 * j}(%[d]), %[x]",
                f"movq %[x], {8 * j}(%[out])",
            ]
    return code


def _mem_sum(n: int, op: str) -> str:
    return f"    limb_t d[{n}], x, c;\n\n" + asm_statement(
        asm_lines(mem_sum_code(n, op)), outputs(["x", "c"]), [*POINTER_INPUTS, '[d] "r" (d)'], SUM_CLOBBERS
    )


def _load(n: int, op: str, a: str = "a", b: str = "b") -> list[str]:
    """t = a +- b into the registers t0.. (the chain's carry or borrow left in CF)."""
    code: list[str] = []
    for j in range(n):
        code += [f"movq {8 * j}(%[{a}]), %[t{j}]", f"{chain(op, j)} {8 * j}(%[{b}]), %[t{j}]"]
    return code


def copy_sum_code(n: int, op: str) -> list[str]:
    """The sum (or difference) in t0.. and its reduced copy in s0..: the result stored once."""
    t, s = regs("t", n), regs("s", n)
    if op == "add":
        return [
            "movl $0, %k[c]",
            *_load(n, op),
            "adcq $0, %[c]",
            *keep_below_p(t, s, top="%[c]", dest="%[out]"),
        ]
    return [*_load(n, op), "sbbq %[c], %[c]", *add_p_if_borrowed(t, s, "%[c]", "%[out]")]


def _copy_sum(n: int, op: str) -> str:
    note = "the sum and its copy minus p" if op == "add" else "the difference and its copy plus p"
    variables = [*interleave(names("t", n), names("s", n)), "c"]
    return (
        declare("limb_t", variables)
        + "\n"
        + f"    /* {note} both stay in registers: the result is stored once */\n"
        + asm_statement(asm_lines(copy_sum_code(n, op)), outputs(variables), POINTER_INPUTS, SUM_CLOBBERS)
    )


def register_sum_code(n: int, op: str) -> list[str]:
    """The words in registers t0.., the result stored, the corrected words kept where the carry
    (or borrow) says."""
    t = regs("t", n)
    code = (["movl $0, %k[c]"] if op == "add" else []) + _load(n, op)
    code.append("adcq $0, %[c]" if op == "add" else "sbbq %[c], %[c]")
    code += [f"movq {t[j]}, {8 * j}(%[out])" for j in range(n)]
    code += [f"{chain(other(op), j)} {8 * j}(%[p]), {t[j]}" for j in range(n)]
    code.append("sbbq $0, %[c]" if op == "add" else "testq %[c], %[c]")
    cmov = "cmovcq" if op == "add" else "cmovzq"
    for j in range(n):
        code += [f"{cmov} {8 * j}(%[out]), {t[j]}", f"movq {t[j]}, {8 * j}(%[out])"]
    return code


def _register_sum(n: int, op: str) -> str:
    variables = [*names("t", n), "c"]
    return (
        declare("limb_t", variables)
        + "\n"
        + asm_statement(asm_lines(register_sum_code(n, op)), outputs(variables), POINTER_INPUTS, SUM_CLOBBERS)
    )


def window_sum_code(n: int, op: str) -> list[str]:
    """n words and the two input pointers fill the registers: out's address comes from memory
    (%[outp]) into pa once a is read (a difference's borrow into pb), p is a memory operand."""
    t = regs("t", n)
    code = [
        f"movq {8 * j}(%[pa]), {t[j]}" if k == 0 else f"{chain(op, j)} {8 * j}(%[pb]), {t[j]}"
        for j in range(n)
        for k in range(2)
    ]
    if op == "sub":
        code.append("sbbq %[pb], %[pb]")
    code.append("movq %[outp], %[pa]")
    code += [f"movq {t[j]}, {8 * j}(%[pa])" for j in range(n)]
    code += [f"{chain(other(op), j)} {_window_p(j)}, {t[j]}" for j in range(n)]
    if op == "sub":
        code.append("testq %[pb], %[pb]")
    cmov = "cmovcq" if op == "add" else "cmovzq"
    for j in range(n):
        code += [f"{cmov} {8 * j}(%[pa]), {t[j]}", f"movq {t[j]}, {8 * j}(%[pa])"]
    return code


def _window_sum(n: int, op: str) -> str:
    if op == "add":
        note = (
            f"    /* p < 2^{64 * n - 1}: the sum has no carry word; {n} words and the two input pointers fill the\n"
            "     * registers, so out's address comes from memory into pa once a is read, and p is a memory\n"
            "     * operand with no register */\n"
        )
    else:
        note = (
            f"    /* {n} words and the two input pointers fill the registers: the borrow goes to pb and out's\n"
            "     * address to pa once a and b are read; p is a memory operand with no register */\n"
        )
    body = (
        note
        + "    const limb_t *pa = a, *pb = b;\n"
        + declare("limb_t", ["*outp = out", *names("t", n)])
        + "\n"
        + modulus_operand(n)
        + asm_statement(
            asm_lines(window_sum_code(n, op)),
            [*outputs(names("t", n)), '[pa] "+&r" (pa)', '[pb] "+&r" (pb)'],
            _window_inputs(n),
            SUM_CLOBBERS,
        )
    )
    return asan_fallback(adx_window.takes_every_register(n, f"{op}_mod"), body, _mem_sum(n, op))


def mod_sum(n: int, op: str, no_carry: bool) -> str:
    """pf_add_mod_<n> (op ``add``) or pf_sub_mod_<n> (``sub``): a +- b mod p for reduced a, b.
    The window form of the sum needs the no-carry bound (the sum then has no carry word)."""
    if n <= COPY_LIMBS:
        body = _copy_sum(n, op)
    elif n <= SUM_LIMBS:
        body = _register_sum(n, op)
    elif n <= adx_window.WINDOW_MAX_LIMBS and (no_carry or op == "sub"):
        body = _window_sum(n, op)
    else:
        body = _mem_sum(n, op)
    if op == "add":
        comment = (
            "out = a + b mod p: the sum with its carry word, minus p, and the sum kept when that borrows"
        )
    else:
        comment = "out = a - b mod p: the difference, plus p when it borrowed"
    return kernel(comment, f"PF_ASM_{op.upper()}_MOD_{n}", _signature(f"{op}_mod", n, 1), body)


# ---- a +- b mod p 2^(64 n) on double-width operands ------------------------------------------------


def _wide_low_high(n: int, op: str) -> list[str]:
    """The low halves combined into out through %[t0], then the high halves into t0.. (one chain)."""
    code: list[str] = []
    for j in range(n):
        code += [
            f"movq {8 * j}(%[a]), %[t0]",
            f"{chain(op, j)} {8 * j}(%[b]), %[t0]",
            f"movq %[t0], {8 * j}(%[out])",
        ]
    for j in range(n):
        code += [f"movq {8 * (n + j)}(%[a]), %[t{j}]", f"{chain(op, 1)} {8 * (n + j)}(%[b]), %[t{j}]"]
    return code


def wide_register_sum_code(n: int, op: str) -> list[str]:
    """a +- b mod p 2^(64 n): the low half through t0 to out, the high half in t0.. (with its
    reduced copy in s0.. up to COPY_LIMBS), then the high half reduced and stored."""
    t, s = regs("t", n), regs("s", n)
    code = _wide_low_high(n, op)
    copy = n <= COPY_LIMBS
    if op == "sub":
        code.append("sbbq %[c], %[c]")
    if copy:
        code += (
            keep_below_p(t, s, dest="%[out]", offset=8 * n)
            if op == "add"
            else add_p_if_borrowed(t, s, "%[c]", "%[out]", offset=8 * n)
        )
    else:
        code += [f"movq {t[j]}, {8 * (n + j)}(%[out])" for j in range(n)]
        code += [f"{chain(other(op), j)} {8 * j}(%[p]), {t[j]}" for j in range(n)]
        if op == "sub":
            code.append("testq %[c], %[c]")
        cmov = "cmovcq" if op == "add" else "cmovzq"
        for j in range(n):
            code += [f"{cmov} {8 * (n + j)}(%[out]), {t[j]}", f"movq {t[j]}, {8 * (n + j)}(%[out])"]
    return code


def _wide_register_sum(n: int, op: str) -> str:
    copy = n <= COPY_LIMBS
    variables = interleave(names("t", n), names("s", n)) if copy else names("t", n)
    if op == "sub":
        variables.append("c")
    note = ""
    if copy:
        note = f"    /* the high half and its copy {'minus' if op == 'add' else 'plus'} p both stay in registers: it is stored once */\n"
    return (
        declare("limb_t", variables)
        + "\n"
        + note
        + asm_statement(
            asm_lines(wide_register_sum_code(n, op)), outputs(variables), WIDE_INPUTS, SUM_CLOBBERS
        )
    )


def mem_wide_sum_code(n: int, op: str) -> list[str]:
    """The whole sum (or difference) to out, the high half minus p (plus p) to the stack array
    %[d], and d copied back where the carry says: seven registers (AddressSanitizer builds)."""
    sub = op == "sub"
    code: list[str] = []
    for j in range(2 * n):
        code += [
            f"movq {8 * j}(%[a]), %[lo]",
            f"{chain(op, j)} {8 * j}(%[b]), %[lo]",
            f"movq %[lo], {8 * j}(%[out])",
        ]
    if sub:
        code.append("sbbq %[mask], %[mask]")
    for j in range(n):
        code += [
            f"movq {8 * (n + j)}(%[out]), %[lo]",
            f"{chain(other(op), j)} {8 * j}(%[p]), %[lo]",
            f"movq %[lo], {8 * j}(%[d])",
        ]
    if sub:
        code.append("testq %[mask], %[mask]")
    for j in range(n):
        code += [
            f"movq {8 * (n + j)}(%[out]), %[lo]",
            f"{'cmovnzq' if sub else 'cmovncq'} {8 * j}(%[d]), %[lo]",
            f"movq %[lo], {8 * (n + j)}(%[out])",
        ]
    return code


def _mem_wide_sum(n: int, op: str) -> str:
    variables = ["lo", "mask"] if op == "sub" else ["lo"]
    return (
        declare("limb_t", [f"d[{n}]", *variables])
        + "\n"
        + asm_statement(
            asm_lines(mem_wide_sum_code(n, op)),
            outputs(variables),
            [*WIDE_INPUTS, '[d] "r" (d)'],
            SUM_CLOBBERS,
        )
    )


def _window_wide_sum(n: int, op: str) -> str:
    lines = adx_window.wide_add_mod(n) if op == "add" else adx_window.wide_sub_mod(n)
    body = (
        "    const limb_t *pa = a, *pb = b;\n"
        + declare("limb_t", ["*outp = t", *names("r", n)])
        + "\n"
        + modulus_operand(n)
        + asm_statement(
            asm_lines(lines),
            [*outputs(names("r", n)), '[pa] "+&r" (pa)', '[pb] "+&r" (pb)'],
            _window_inputs(n),
            SUM_CLOBBERS,
            outs_at_margin=True,
        )
    )
    return asan_fallback(adx_window.takes_every_register(n, f"wide_{op}_mod"), body, _mem_wide_sum(n, op))


def wide_sum(n: int, op: str) -> str:
    """pf_wide_add_mod_<n> / pf_wide_sub_mod_<n>: a +- b mod p 2^(64 n) for double-width a, b below
    it (lazy reduction in the tower), for no-carry shapes: the high half of a sum, below 2p, fits n words."""
    if n <= SUM_LIMBS:
        body = _wide_register_sum(n, op)
        if op == "add":
            comment = (
                f"t = a + b mod p 2^{64 * n} for double-width a, b below it (lazy reduction in the tower): the low\n"
                " * halves add, the high halves add with that carry and lose p when they reach it."
            )
        else:
            comment = f"t = a - b mod p 2^{64 * n}: the difference, plus p in the high half when it borrowed"
    else:
        body = _window_wide_sum(n, op)
        if op == "add":
            comment = (
                f"t = a + b mod p 2^{64 * n} for double-width a, b below it (generator/emit/adx_window.py's wide_add_mod):\n"
                f" * the low halves add into t, the high halves (below 2p: no carry word) into {n} registers, then\n"
                f" * minus p, and the sum kept when that borrows. {n} words and the two input pointers fill the\n"
                " * registers: t's address comes from memory, p is a memory operand with no register."
            )
        else:
            comment = (
                f"t = a - b mod p 2^{64 * n} (adx_window.py's wide_sub_mod): the difference, its borrow as a mask\n"
                " * in pb, p added to the high half, and the difference kept when nothing borrowed."
            )
    return kernel(comment, f"PF_ASM_WIDE_{op.upper()}_MOD_{n}", _signature(f"wide_{op}_mod", n, 2), body)


# ---- 3t +- 2x mod p ------------------------------------------------------------------------------


def tri_sum_code(n: int, op: str) -> list[str]:
    """out = t + 2 (t +- x) mod p, each step reduced in the registers d0.. (copies in c0..): x's
    register takes the borrow mask of t - x once x is read."""
    d, c = regs("d", n), regs("c", n)
    code = [
        f"movq {8 * j}(%[t]), {d[j]}" if k == 0 else f"{chain(op, j)} {8 * j}(%[x]), {d[j]}"
        for j in range(n)
        for k in range(2)
    ]
    if op == "sub":
        code += [
            asm_comment(
                "t - x, plus p where it borrowed: the borrow as a mask in x's register (x is read), the\n"
                "         * masked words of p first (AND clears the carry), then one carry chain"
            ),
            "sbbq %[x], %[x]",
        ]
        for j in range(n):
            code += [f"movq {8 * j}(%[p]), {c[j]}", f"andq %[x], {c[j]}"]
        code += [f"{chain('add', j)} {c[j]}, {d[j]}" for j in range(n)]
    else:
        code += [asm_comment("t + x, minus p unless that borrows"), *keep_below_p(d, c)]
    code.append(asm_comment("doubled, minus p unless that borrows"))
    code += [f"{chain('add', j)} {d[j]}, {d[j]}" for j in range(n)] + keep_below_p(d, c)
    code.append(asm_comment("plus t, minus p unless that borrows, stored"))
    return (
        code
        + [f"{chain('add', j)} {8 * j}(%[t]), {d[j]}" for j in range(n)]
        + keep_below_p(d, c, dest="%[out]")
    )


def tri_sum(n: int, op: str) -> str:
    """pf_tri_add_mod_<n>_nc (3t + 2x) or pf_tri_sub_mod_<n>_nc (3t - 2x) = t + 2 (t +- x) mod p,
    each step reduced in registers (no-carry shapes, n <= COPY_LIMBS): the output coefficients of
    the cyclotomic squarings in one kernel instead of three sums."""
    variables = interleave(names("d", n), names("c", n))
    sign = "-" if op == "sub" else "+"
    return kernel(
        f"out = 3t {sign} 2x mod p = t + 2 (t {sign} x), each step reduced (no-carry shapes: every sum is\n"
        f" * below 2p < 2^{64 * n}), the words in registers throughout: the output coefficients of the\n"
        " * cyclotomic squarings in one kernel instead of three sums. out may alias t or x (written last).",
        f"PF_ASM_TRI_{op.upper()}_MOD_{n}_NC",
        f"void pf_tri_{op}_mod_{n}_nc(limb_t out[{n}], const limb_t t[{n}], const limb_t x[{n}], const limb_t p[{n}])",
        "    const limb_t *px = x;\n"
        + declare("limb_t", variables)
        + "\n"
        + asm_statement(
            asm_lines(tri_sum_code(n, op)),
            [*outputs(variables), '[x] "+&r" (px)'],
            ['[out] "r" (out)', '[t] "r" (t)', '[p] "r" (p)'],
            SUM_CLOBBERS,
        ),
    )


# ---- the safegcd inversion's divsteps -------------------------------------------------------------

# One divstep: both candidates g + f and g - f and both successors of zeta, then the selections by
# the sign of zeta, the swap (zeta < 0 and g odd: the sign of (g << 63) & zeta) and the parity of g.
DIVSTEP = (
    "leaq (%[g],%[f]), %[sum]",
    "movq %[g], %[dif]",
    "subq %[f], %[dif]",
    "testq %[z], %[z]",
    "cmovsq %[dif], %[sum]     /* sum = zeta < 0 ? g - f : g + f */",
    "leaq -1(%[z]), %[z1]      /* zeta - 1 */",
    "movq %[z], %[z2]",
    "notq %[z2]",
    "decq %[z2]                /* -zeta - 2, after a swap */",
    "movq %[g], %[sw]",
    "shlq $63, %[sw]",
    "andq %[z], %[sw]          /* sign: the swap */",
    "cmovsq %[g], %[f]",
    "cmovsq %[z2], %[z1]",
    "movq %[z1], %[z]",
    "testb $1, %b[g]",
    "cmovnzq %[sum], %[g]",
    "sarq $1, %[g]",
)


def divsteps() -> str:
    """pf_divsteps_19: one block of the safegcd inversion's divsteps on packed words (field.h
    calls it three times per batch), with CMOV selections in place of masks; no memory access, no
    "memory" clobber and not volatile (a pure function of its operands)."""
    return kernel(
        f"{DIVSTEP_BLOCK} divsteps on the packed words *F = f + 2^20 U + 2^42 V (f odd) and *G = g + 2^20 Q + 2^42 R\n"
        " * (field.h, PF_DIVSTEP_BLOCK); zeta = -(delta + 1/2). Each step computes both candidates g + f and\n"
        " * g - f and both successors of zeta, then selects by the sign of zeta, the swap (zeta < 0 and g odd,\n"
        " * the sign of (g << 63) & zeta) and the parity of g: CMOV chains of four cycles per step where the\n"
        " * masks take six. Branch free and without memory access, so constant time.",
        f"PF_ASM_DIVSTEPS_{DIVSTEP_BLOCK}",
        f"int64_t pf_divsteps_{DIVSTEP_BLOCK}(int64_t zeta, int64_t *F, int64_t *G)",
        "    int64_t f = *F, g = *G, sum, dif, z1, z2, sw;\n\n"
        + asm_statement(
            asm_lines(DIVSTEP * DIVSTEP_BLOCK),
            [
                '[f] "+r" (f)',
                '[g] "+r" (g)',
                '[z] "+r" (zeta)',
                '[sum] "=&r" (sum)',
                '[dif] "=&r" (dif),\n          [z1] "=&r" (z1)',  # the list wraps here
                '[z2] "=&r" (z2)',
                '[sw] "=&r" (sw)',
            ],
            [],
            ["cc"],
            volatile=False,
        )
        + "    *F = f;\n    *G = g;\n    return zeta;\n",
    )
