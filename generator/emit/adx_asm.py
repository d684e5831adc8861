"""The instruction text that the x86_64-adx kernel writers share (generator/emit/adx_products.py,
adx_sums.py, adx_factors.py; adx_window.py, which allocates the register window on a model of its
own, takes the carry chains): carry chains, the constant-time selections of a reduced result,
operand lists, and the C around one GCC extended-asm statement.

An instruction is one string in AT&T syntax with named asm operands (``"adcq 8(%[b]), %[t1]"``;
``%%rdx`` for a fixed register), as adx_window.py's lists are; ``asm_lines`` quotes a list of
them for an asm statement. A kernel body is C text: lines indented four spaces for a function
body, each ending in a newline. Imports nothing but the standard library.

Layer: emit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

# The indentation of the string literals (and of the operand lists) inside an asm statement.
ASM_INDENT = " " * 8


def asm_lines(code: Iterable[str]) -> str:
    """Instructions as the string literals of an asm statement, one a line. An entry that starts
    with ``/*`` is a comment line of its own (asm_comment); an instruction followed by a comment
    keeps it after the literal, with the spaces written before it."""
    text = []
    for line in code:
        if line.startswith("/*"):
            text.append(f"{ASM_INDENT}{line}\n")
            continue
        instruction, mark, comment = line.partition("/*")
        op = instruction.rstrip()
        tail = f"{instruction[len(op) :]}/*{comment}" if mark else ""
        text.append(f'{ASM_INDENT}"{op}\\n\\t"{tail}\n')
    return "".join(text)


def asm_comment(text: str) -> str:
    """A comment line among the instructions (its continuation lines, if any, written out)."""
    return f"/* {text} */"


def chain(op: str, j: int) -> str:
    """The instruction of word j in a carry chain: ``add`` (addq, then adcq) or ``sub`` (subq, then
    sbbq); the first word starts the chain without a carry in."""
    first, rest = {"add": ("addq", "adcq"), "sub": ("subq", "sbbq")}[op]
    return first if j == 0 else rest


def other(op: str) -> str:
    """The opposite chain: a sum's correction subtracts p, a difference's adds it."""
    return "sub" if op == "add" else "add"


def regs(prefix: str, n: int) -> list[str]:
    """The register operands ``%[<prefix>0]`` .. ``%[<prefix><n-1>]``."""
    return [f"%[{prefix}{j}]" for j in range(n)]


def names(prefix: str, n: int) -> list[str]:
    """The C names ``<prefix>0`` .. ``<prefix><n-1>``."""
    return [f"{prefix}{j}" for j in range(n)]


def outputs(variables: Iterable[str], constraint: str = "=&r") -> list[str]:
    """Output operands named after their C variables (``[t0] "=&r" (t0)``)."""
    return [f'[{v}] "{constraint}" ({v})' for v in variables]


def interleave(*columns: Sequence[str]) -> list[str]:
    """The items of several equal-length lists, word by word (t0, s0, t1, s1, ...)."""
    return [item for row in zip(*columns, strict=True) for item in row]


def keep_below_p(
    v: Sequence[str],
    c: Sequence[str],
    top: str | None = None,
    dest: str | None = None,
    offset: int = 0,
    pre: str | None = None,
) -> list[str]:
    """Registers v become v - p unless that borrows, with no word through memory: v copied to c, p
    subtracted (and the borrow taken from the carry word ``top``, when given), the copies kept
    where it borrowed. With ``dest`` each word is then stored at ``offset(dest)``; ``pre`` is one
    instruction placed before the selection (the Montgomery kernels load out's address there)."""
    n = len(v)
    code = [f"movq {v[j]}, {c[j]}" for j in range(n)]
    code += [f"{chain('sub', j)} {8 * j}(%[p]), {v[j]}" for j in range(n)]
    if top:
        code.append(f"sbbq $0, {top}")
    if pre:
        code.append(pre)
    for j in range(n):
        code.append(f"cmovcq {c[j]}, {v[j]}")
        if dest:
            code.append(f"movq {v[j]}, {offset + 8 * j}({dest})")
    return code


def add_p_if_borrowed(v: Sequence[str], c: Sequence[str], mask: str, dest: str, offset: int = 0) -> list[str]:
    """Registers v (a difference whose borrow is the mask register) become v + p where it
    borrowed, with no word through memory: v copied to c, p added, the copies kept where nothing
    borrowed, each word stored at ``offset(dest)``."""
    n = len(v)
    code = [f"movq {v[j]}, {c[j]}" for j in range(n)]
    code += [f"{chain('add', j)} {8 * j}(%[p]), {v[j]}" for j in range(n)]
    code.append(f"testq {mask}, {mask}")
    for j in range(n):
        code.append(f"cmovzq {c[j]}, {v[j]}")
        code.append(f"movq {v[j]}, {offset + 8 * j}({dest})")
    return code


def asm_statement(
    code: str,
    outs: Sequence[str],
    ins: Sequence[str],
    clobbers: Sequence[str],
    *,
    volatile: bool = True,
    outs_at_margin: bool = False,
) -> str:
    """One asm statement of a kernel body: ``code`` (asm_lines text), then the output, input and
    clobber lists. ``outs_at_margin`` starts the output list at the left margin, as the kernels
    whose instructions end in a conditional subtraction or a window list have always rendered."""
    head = "__asm__ volatile(" if volatile else "__asm__("
    clobber = ", ".join(f'"{c}"' for c in clobbers)
    return (
        f"    {head}\n{code}"
        f"{'' if outs_at_margin else ASM_INDENT}: {', '.join(outs)}\n"
        f"{ASM_INDENT}:{' ' if ins else ''}{', '.join(ins)}\n"
        f"{ASM_INDENT}: {clobber});\n"
    )


def declare(ctype: str, variables: Iterable[str]) -> str:
    """One declaration line of a kernel body (``    limb_t t0, t1, c;``)."""
    return f"    {ctype} {', '.join(variables)};\n"


def kernel(comment: str, macro: str, signature: str, body: str) -> str:
    """A kernel as the header carries it: its comment (the text of a C comment, lines after the
    first starting with `` * ``), the PF_ASM_ macro that tells field.h it exists, and the always
    inlined function."""
    return f"/* {comment} */\n#define {macro} 1\nPF_ADX_INLINE {signature}\n{{\n{body}}}\n"


def modulus_operand(n: int) -> str:
    """p as a memory operand with no register (PF_ADX_MODULUS_OPERAND): a static array once
    inlined; -O0 keeps the pointer in a register, and none is free, so there a stack copy. A
    blank line follows."""
    return (
        "#ifdef __OPTIMIZE__\n"
        "    const limb_t *pc = p;\n"
        "#else\n"
        f"    limb_t pc[{n}];\n"
        "\n"
        "    __builtin_memcpy(pc, p, sizeof pc);\n"
        "#endif\n"
        "\n"
    )


def asan_fallback(takes_every_register: bool, body: str, fallback: str) -> str:
    """A window body that takes every register, and the memory form that AddressSanitizer builds
    (PF_ADX_ASAN) get instead: ASan's instrumented frame needs a base register of its own."""
    if not takes_every_register:
        return body
    return f"#if !PF_ADX_ASAN\n{body}#else\n{fallback}#endif\n"
