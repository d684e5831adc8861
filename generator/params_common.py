"""What every curve-file loader shares: the error, the reading of a file and its TOML, integers,
and the language of polynomials in the seed x.

What it holds: ``CurveFileError`` (one clear message per problem, naming the file and the key),
``read_curve_text`` and ``parse_toml`` (the two steps before a loader sees a table), ``parse_int``
(TOML integers and decimal or ``0x`` strings, sign included), ``EDWARDS_FAMILY`` (the family name
the dispatcher, generator/params.py, sends to generator/params_edwards.py), and ``X`` with
``parse_polynomial_in_x``: the seed symbol and the parser of the polynomials in it that curve
files state (``gt_exponent``, the exponents of a ``hard_part`` program). generator/derive takes
``X`` from here (derive/families.py), so a parsed polynomial and a derived one share the symbol.

What it may import: the standard library and sympy; no other module of the generator (every other
curve-file module imports it).

Layer: curve files.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import sympy

# Companion curves (generator/params_edwards.py): a curve over a pairing curve's scalar field.
EDWARDS_FAMILY = "TwistedEdwards"

# The seed: the one symbol a curve-file polynomial may name (and the variable of the family
# polynomials of generator/derive/families.py).
X = sympy.Symbol("x")

# The text of a polynomial in the seed x with rational coefficients: only these characters reach
# sympy's parser (which evaluates its input), so no name but x can be met.
POLYNOMIAL_TEXT = re.compile(r"[0-9x+\-*/^() ]+")


class CurveFileError(ValueError):
    """A curve file is malformed; the message names the file, the key and the reason."""


def read_curve_text(path: Path) -> str:
    """The text of a curve file; CurveFileError when it cannot be read."""
    try:
        return path.read_text()
    except OSError as exc:
        raise CurveFileError(f"{path}: cannot read: {exc.strerror}") from None


def parse_toml(text: str, source: str) -> dict:
    """The table of a curve file's text; ``source`` names it in errors."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CurveFileError(f"{source}: not valid TOML: {exc}") from None


def parse_int(value: object, key: str, where: str) -> int:
    """Accept TOML integers and decimal/hex strings (with sign) for big numbers."""
    if isinstance(value, bool):
        raise CurveFileError(f"{where}: key '{key}' must be an integer, got a boolean")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip().replace("_", "")
        try:
            return int(text, 0)
        except ValueError:
            pass
    raise CurveFileError(f"{where}: key '{key}' must be an integer or an integer string, got {value!r}")


# What `pip install` does with a curve's package (the curve file's ``install`` key): "default"
# compiles it; "opt-in" only when PAIRFORGE_CURVES names it (a package that takes minutes to build
# and test, e.g. k = 48's).
INSTALL_MODES = ("default", "opt-in")


def parse_install(data: dict, source: str) -> str:
    """The curve file's ``install`` key (default "default"), one of INSTALL_MODES."""
    install = data.get("install", "default")
    if install not in INSTALL_MODES:
        raise CurveFileError(f"{source}: key 'install' must be one of {', '.join(map(repr, INSTALL_MODES))}, "
                             f"got {install!r}")
    return install


def parse_polynomial_in_x(text: object, key: str, where: str) -> sympy.Expr:
    """A curve-file polynomial in the seed x (``^`` or ``**`` for powers, rational coefficients),
    as a sympy expression in ``X``; CurveFileError when it is not one."""
    from sympy.parsing.sympy_parser import convert_xor, parse_expr, standard_transformations

    if not isinstance(text, str) or not text.strip() or len(text) > 200 or not POLYNOMIAL_TEXT.fullmatch(text):
        raise CurveFileError(f"{where}: key '{key}' must be a polynomial in x of at most 200 characters "
                             f"written with digits, x, + - * / ^ and parentheses, got {text!r}")
    if any(len(power) > 2 for power in re.findall(r"(?:\^|\*\*)\s*\(?\s*(\d+)", text)):
        raise CurveFileError(f"{where}: key '{key}': powers above 99 are not accepted, got {text!r}")
    try:
        expr = parse_expr(text, local_dict={"x": X}, transformations=standard_transformations + (convert_xor,),
                          evaluate=True)
    except Exception as exc:  # the parser raises SyntaxError, TokenError, TypeError, ... on bad text
        raise CurveFileError(f"{where}: key '{key}' is not a valid expression ({exc}): {text!r}") from None
    expr = sympy.expand(expr)
    if expr.free_symbols - {X} or not expr.is_polynomial(X) or expr.has(sympy.zoo, sympy.nan):
        raise CurveFileError(f"{where}: key '{key}' must be a polynomial in x (no division by x or by 0), got {text!r}")
    if expr == 0:
        raise CurveFileError(f"{where}: key '{key}' must not be the zero polynomial")
    return expr
