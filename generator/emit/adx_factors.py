"""The x86_64-adx kernels of the lazy tower's small factors, as the C text of c/asm_x86_64_adx.h:
fpw_mul_small_mod's k a over double width, p 2^(64 n) - a, the conditional subtractions (with a
word above), the quotient estimate's k a + b and q p subtraction, and fp2's k a + b.

Each is one pass over the words with k (or q) in rdx: MULX leaves the flags alone, so the
product's carries ride CF (ADC, ADCX) while a second chain rides OF (ADOX). The tower renders them
for Fp's limb count where its lazy reduction takes such factors (adx_kernels.small_factors).
Imports adx_asm.

Layer: emit.
"""

from __future__ import annotations

from .adx_asm import asm_lines, asm_statement, chain, declare, kernel, names, outputs, regs

SUM_CLOBBERS = ("cc", "memory")


HALVES = ('[lo] "=&r" (lo)', '[h0] "=&r" (h0)', '[h1] "=&r" (h1)')


def wide_mul_small_code(n: int, top: bool) -> list[str]:
    """out = k a over 2n words, k in rdx: one MULX per word, the high halves alternating in
    %[h0] / %[h1], one carry chain; with ``top`` the word above ends in the last high half."""
    w = 2 * n
    code = ["mulxq 0(%[a]), %[lo], %[h0]", "movq %[lo], 0(%[out])"]
    for i in range(1, w):
        code += [
            f"mulxq {8 * i}(%[a]), %[lo], %[h{i % 2}]",
            f"{chain('add', i - 1)} %[h{(i - 1) % 2}], %[lo]",
            f"movq %[lo], {8 * i}(%[out])",
        ]
    return code + ([f"adcq $0, %[h{(w - 1) % 2}]"] if top else [])


def wide_mul_small(n: int, top: bool) -> str:
    """pf_wide_mul_small_<n>: t = k a over 2n words for a small k (MULX leaves the flags alone);
    with ``top`` it returns the word above."""
    w = 2 * n
    if top:
        comment = (
            f"t = k a mod 2^{128 * n} for a small k; returns the word above (k a >> {128 * n}): one MULX per word\n"
            " * and one carry chain (MULX leaves the flags alone). t may alias a: each word of a is read before\n"
            " * the word of t at the same place is written."
        )
    else:
        comment = (
            f"t = k a as a {w}-word integer, for a small k with k a below 2^{128 * n} (the caller's bound):\n"
            " * one MULX per word and one carry chain (MULX leaves the flags alone). t may alias a: each word of\n"
            " * a is read before the word of t at the same place is written."
        )
    return kernel(
        comment,
        f"PF_ASM_WIDE_MUL_SMALL_{n}",
        f"{'limb_t' if top else 'void'} pf_wide_mul_small_{n}(limb_t t[{w}], const limb_t a[{w}], limb_t k)",
        "    limb_t lo, h0, h1;\n\n"
        + asm_statement(
            asm_lines(wide_mul_small_code(n, top)),
            HALVES,
            ['[out] "r" (t)', '[a] "r" (a)', '"d" (k)'],
            SUM_CLOBBERS,
        )
        + (f"    return h{(w - 1) % 2};\n" if top else ""),
    )


def wide_neg_code(n: int) -> list[str]:
    """out = p 2^(64 n) - a over 2n words, one borrow chain through %[x]."""
    code: list[str] = []
    for i in range(2 * n):
        code += [
            "movq $0, %[x]" if i < n else f"movq {8 * (i - n)}(%[p]), %[x]",
            f"{chain('sub', i)} {8 * i}(%[a]), %[x]",
            f"movq %[x], {8 * i}(%[out])",
        ]
    return code


def wide_neg(n: int) -> str:
    """pf_wide_neg_<n>: t = p 2^(64 n) - a as a plain 2n-word integer."""
    return kernel(
        f"t = p 2^{64 * n} - a as a plain {2 * n}-word integer, for a <= p 2^{64 * n} (p 2^{64 * n} itself when a = 0);\n"
        " * t may alias a.",
        f"PF_ASM_WIDE_NEG_{n}",
        f"void pf_wide_neg_{n}(limb_t t[{2 * n}], const limb_t a[{2 * n}], const limb_t p[{n}])",
        "    limb_t x;\n\n"
        + asm_statement(
            asm_lines(wide_neg_code(n)),
            outputs(["x"]),
            ['[out] "r" (t)', '[a] "r" (a)', '[p] "r" (p)'],
            SUM_CLOBBERS,
        ),
    )


def csub_code(n: int, top: bool = False) -> list[str]:
    """h = h - m unless that borrows, the words in t0..; with ``top`` one more word, %[w], above h."""
    t = regs("t", n + 1)
    code = [
        f"movq {8 * j}(%[h]), {t[j]}" if k == 0 else f"{chain('sub', j)} {8 * j}(%[m]), {t[j]}"
        for j in range(n)
        for k in range(2)
    ]
    if top:
        code += [f"movq %[w], {t[n]}", f"sbbq {8 * n}(%[m]), {t[n]}"]
    for j in range(n):
        code += [f"cmovcq {8 * j}(%[h]), {t[j]}", f"movq {t[j]}, {8 * j}(%[h])"]
    return code + ([f"cmovcq %[w], {t[n]}", f"movq {t[n]}, %[w]"] if top else [])


def csub(n: int) -> str:
    """pf_csub_<n>: h = h - m when h >= m, else h unchanged (the difference always taken)."""
    return kernel(
        "h = h - m when h >= m, else h unchanged (constant time: the difference is always taken, and\n"
        " * CMOVC keeps the old words when it borrowed).",
        f"PF_ASM_CSUB_{n}",
        f"void pf_csub_{n}(limb_t h[{n}], const limb_t m[{n}])",
        declare("limb_t", names("t", n))
        + "\n"
        + asm_statement(
            asm_lines(csub_code(n)), outputs(names("t", n)), ['[h] "r" (h)', '[m] "r" (m)'], SUM_CLOBBERS
        ),
    )


def csub_top(n: int) -> str:
    """pf_csub_top_<n>: pf_csub_<n> with one more word, top, above h."""
    return kernel(
        f"(top:h) = (top:h) - m when that does not borrow, else unchanged: pf_csub_{n} with one more word,\n"
        f" * top, above h (m has {n + 1} words).",
        f"PF_ASM_CSUB_TOP_{n}",
        f"void pf_csub_top_{n}(limb_t h[{n}], limb_t *top, const limb_t m[{n + 1}])",
        declare("limb_t", [*names("t", n + 1), "w = *top"])
        + "\n"
        + asm_statement(
            asm_lines(csub_code(n, top=True)),
            [*outputs(names("t", n + 1)), '[w] "+r" (w)'],
            ['[h] "r" (h)', '[m] "r" (m)'],
            SUM_CLOBBERS,
        )
        + "    *top = w;\n",
    )


def mac_small_code(words: int, top: bool) -> list[str]:
    """out = k a + b over ``words`` words, k in rdx: the product's carries in CF (ADCX), b's in OF
    (ADOX); with ``top`` both chains fold into the last high half, the word above."""
    code = [
        "xorl %k[lo], %k[lo]",
        "mulxq 0(%[a]), %[lo], %[h0]",
        "adoxq 0(%[b]), %[lo]",
        "movq %[lo], 0(%[out])",
    ]
    for i in range(1, words):
        code += [
            f"mulxq {8 * i}(%[a]), %[lo], %[h{i % 2}]",
            f"adcxq %[h{(i - 1) % 2}], %[lo]",
            f"adoxq {8 * i}(%[b]), %[lo]",
            f"movq %[lo], {8 * i}(%[out])",
        ]
    last = f"%[h{(words - 1) % 2}]"
    return code + (["movl $0, %k[lo]", f"adcxq %[lo], {last}", f"adoxq %[lo], {last}"] if top else [])


def mac_small(n: int, words: int, name: str, top: bool) -> str:
    """pf_<name>_<n>: t = k a + b over ``words`` words for a small k. With ``top`` the kernel
    returns the word above (fpw_mul_small_add_mod); without, the caller's bound keeps k a + b below
    2^(64 words)."""
    if top:
        comment = (
            f"t = k a + b as a {words}-word integer for a small k, returning the word above (fpw_mul_small_add_mod):\n"
            " * one MULX per word, the product's carries in CF (ADCX) and b's in OF (ADOX), both folded into the\n"
            " * top word at the end. t may alias a or b: each word of a and b is read before the word of t at the\n"
            " * same place is written."
        )
    else:
        comment = (
            f"t = k a + b as a {words}-word integer, for a small k with k a + b below 2^{64 * words} (the caller's bound):\n"
            " * one MULX per word, the product's carries in CF (ADCX) and b's in OF (ADOX). t may alias a or b:\n"
            " * each word of a and b is read before the word of t at the same place is written."
        )
    return kernel(
        comment,
        f"PF_ASM_{name.upper()}_{n}",
        f"{'limb_t' if top else 'void'} pf_{name}_{n}(limb_t t[{words}], const limb_t a[{words}], limb_t k, "
        f"const limb_t b[{words}])",
        "    limb_t lo, h0, h1;\n\n"
        + asm_statement(
            asm_lines(mac_small_code(words, top)),
            HALVES,
            ['[out] "r" (t)', '[a] "r" (a)', '[b] "r" (b)', '"d" (k)'],
            SUM_CLOBBERS,
        )
        + (f"    return h{(words - 1) % 2};\n" if top else ""),
    )


def submul_top_code(n: int) -> list[str]:
    """(%[w]:h) -= q p, q in rdx: each word of q p (carries in CF) subtracted as the addition of
    its complement, the borrow chain in OF, set first for the complement's + 1."""
    code = [
        "movabsq $0x7fffffffffffffff, %[lo]",
        "addq $1, %[lo] /* OF = 1, CF = 0 */",
        "mulxq 0(%[p]), %[lo], %[h0]",
        "notq %[lo]",
        "adoxq 0(%[h]), %[lo]",
        "movq %[lo], 0(%[h])",
    ]
    for j in range(1, n):
        code += [
            f"mulxq {8 * j}(%[p]), %[lo], %[h{j % 2}]",
            f"adcxq %[h{(j - 1) % 2}], %[lo]",
            "notq %[lo]",
            f"adoxq {8 * j}(%[h]), %[lo]",
            f"movq %[lo], {8 * j}(%[h])",
        ]
    return code + [
        "movl $0, %k[lo]",
        f"adcxq %[h{(n - 1) % 2}], %[lo]",
        "notq %[lo]",
        "adoxq %[w], %[lo]",
        "movq %[lo], %[w]",
    ]


def submul_top(n: int) -> str:
    """pf_submul_top_<n>: (top:h) -= q p for a q with q p <= (top:h) (fpw_mul_small_add_mod's
    quotient estimate)."""
    return kernel(
        "(top:h) = (top:h) - q p for a q with q p <= (top:h) (fpw_mul_small_add_mod's quotient estimate):\n"
        " * the words of q p from MULX with their carries in CF (ADCX), each subtracted as the addition of its\n"
        " * complement with the borrow chain in OF (ADOX), OF set first for the complement's + 1.",
        f"PF_ASM_SUBMUL_TOP_{n}",
        f"void pf_submul_top_{n}(limb_t h[{n}], limb_t *top, const limb_t p[{n}], limb_t q)",
        "    limb_t lo, h0, h1, w = *top;\n\n"
        + asm_statement(
            asm_lines(submul_top_code(n)),
            [*HALVES, '[w] "+r" (w)'],
            ['[h] "r" (h)', '[p] "r" (p)', '"d" (q)'],
            SUM_CLOBBERS,
        )
        + "    *top = w;\n",
    )
