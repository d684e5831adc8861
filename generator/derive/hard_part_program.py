"""A hard-part program stated in a curve file (its key ``hard_part``), compiled to the final
exponentiation's operations and proved like the derived ones.

The derivation (final_exponentiation.py) finds base-p and factored programs. Published chains
can be cheaper where the exponent has a structure the search does not look for: El Housni and
Guillevic's BW6 hard parts (eprint 2021/1359 §5 and its companion code) nest exponentiations by
x - 1, x + 1, x^2 + 1 and (x - 1)/3 so that about 20 multiplications in GT remain beside the
exponentiations, against the 50-odd of a base-p multi-exponentiation with coefficients up to a
few hundred. A curve file may therefore state such a chain as data; it is used only when exponent
tracking proves that it computes f^(m Phi_k(p)/r) for the curve's m, and only when the cost model
rates it cheaper than the derived program. No curve is named here.

The text is a sequence of assignments in Python syntax, one per line (``#`` starts a comment):

    q = frob(f, 1)            # f: the input (after the easy part); frob(a, n) = a^(p^n)
    a = q ** (x - 1)          # a power: the exponent is a polynomial in x (rational coefficients)
    b = (a ** x) ** x * a     # a ** x is one exponentiation by x (compressed where the model says)
    out = conj(b) ** 3        # conj(a) = a^-1 in the cyclotomic subgroup; out is the result

Any other exponent is evaluated at the seed and must be a non-zero integer there: a chain of
cyclotomic squarings (``PowSmall``) on its absolute value, then a conjugation when negative.

It writes the program with gt_program.py's builder and cost model, and imports that, chains,
checks, families and the curve-file polynomial parser (generator.params_common); final_exponentiation.py
imports it, never the other way.

Layer: derive.
"""

from __future__ import annotations

import ast

import sympy

from ..params_common import CurveFileError, parse_polynomial_in_x
from .chains import chain_for
from .checks import DerivationError
from .families import X
from .gt_program import (
    CYCLOTOMIC_SQR_COST,
    GT_MUL_COST,
    Conj,
    ExpByX,
    Frob,
    Op,
    Program,
    SeedCosts,
    chain_cost,
)

RESULT_NAME = "out"
INPUT_NAME = "f"
MAX_LINES = 200
# An exponent longer than this is refused (its addition-chain search would take minutes); the
# published chains use exponents of at most the seed's size times a small polynomial degree.
MAX_EXPONENT_BITS = 1024


class HardPartSyntaxError(DerivationError):
    """The curve file's hard_part text is not a program of the accepted form."""


def _exponent(node: ast.expr, x: int, where: str) -> tuple[int, int | None]:
    """(the integer a polynomial exponent takes at the seed, c when the polynomial is x + c with an
    integer c, else None); rational coefficients are allowed if the value is an integer."""
    text = ast.unparse(node)
    try:
        poly = parse_polynomial_in_x(text, "hard_part", where)
    except CurveFileError as exc:
        raise HardPartSyntaxError(f"{where}: hard_part exponent {text!r}: {exc}") from None
    value = sympy.Rational(poly.subs(X, x))
    if value.q != 1 or value == 0:
        raise HardPartSyntaxError(f"{where}: hard_part exponent {text!r} is {value} at the seed, not a non-zero integer")
    if abs(int(value)).bit_length() > MAX_EXPONENT_BITS:
        raise HardPartSyntaxError(f"{where}: hard_part exponent {text!r} has more than {MAX_EXPONENT_BITS} bits at the seed")
    shift = sympy.expand(poly - X)
    offset = int(shift) if shift.is_Integer else None
    return int(value), offset


def compile_hard_part(text: str, x: int, k: int, where: str, exp_by_x_cost: float) -> tuple[list[Op], int, int]:
    """(ops, registers, result register) of the program text, register 0 holding f.
    Every other power is taken the way the cost model (exp_by_x_cost: one exponentiation by x,
    compressed or not) rates cheapest: one chain of cyclotomic squarings, Karabina's compressed
    squarings (PowKarabina), or, for x + c, a^x times a^c.
    HardPartSyntaxError on any text outside the accepted form, with the line it met."""
    seed = SeedCosts(x, k, exp_by_x_cost)
    program = Program(seed=seed)
    try:
        tree = ast.parse(text, mode="exec")
    except SyntaxError as exc:
        raise HardPartSyntaxError(f"{where}: hard_part line {exc.lineno}: {exc.msg}") from None
    if not tree.body or len(tree.body) > MAX_LINES:
        raise HardPartSyntaxError(f"{where}: hard_part must hold 1 to {MAX_LINES} assignments")
    names: dict[str, int] = {INPUT_NAME: 0}

    def fail(node: ast.AST, why: str) -> HardPartSyntaxError:
        return HardPartSyntaxError(f"{where}: hard_part line {getattr(node, 'lineno', '?')}: {why}")

    def new(op_type: type, **fields: int) -> int:
        dst = program.new_register()
        program.ops.append(op_type(dst=dst, **fields))
        return dst

    def power(base: int, node: ast.expr) -> int:
        e, offset = _exponent(node, x, where)
        if offset == 0:
            return new(ExpByX, src=base)
        if abs(e) == 1:
            return base if e == 1 else new(Conj, src=base)
        chain = chain_cost(chain_for(abs(e), CYCLOTOMIC_SQR_COST, GT_MUL_COST, signed=True))
        karabina = seed.karabina(abs(e))[1]
        split = program.x_plus_split_cost(offset) if offset is not None else float("inf")
        if split <= min(chain, karabina):
            return program.power_x_plus(base, offset)
        return program.karabina_power(base, e) if karabina < chain else program.signed_power(base, e)

    def value(node: ast.expr) -> int:
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise fail(node, f"{node.id!r} is used before it is assigned")
            return names[node.id]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            return program.mul(value(node.left), value(node.right))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            return power(value(node.left), node.right)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            if node.func.id == "conj" and len(node.args) == 1:
                return new(Conj, src=value(node.args[0]))
            if node.func.id == "frob" and len(node.args) == 2:
                n = node.args[1]
                if not (isinstance(n, ast.Constant) and type(n.value) is int and 0 < n.value < k):
                    raise fail(node, f"frob(a, n) needs an integer 0 < n < {k}")
                return new(Frob, src=value(node.args[0]), n=n.value)
        raise fail(node, f"{ast.unparse(node)!r} is not a GT expression (names, *, ** exponent, conj(a), frob(a, n))")

    for statement in tree.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)):
            raise fail(statement, "each line must assign one name: name = expression")
        target = statement.targets[0].id
        if target in (INPUT_NAME, "x", "conj", "frob"):
            raise fail(statement, f"{target!r} is reserved")
        names[target] = value(statement.value)
    if RESULT_NAME not in names:
        raise HardPartSyntaxError(f"{where}: hard_part never assigns {RESULT_NAME!r}, the result")
    return program.ops, program.nregs, names[RESULT_NAME]
