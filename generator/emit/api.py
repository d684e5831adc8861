"""The C functions a curve's extension module calls, compiled apart from the Cython wrapper.

The Cython wrapper (``_core.pyx``) declares the C it calls in ``cdef extern from "c/api.h"``
blocks. This module reads those declarations from the rendered ``.pyx`` and renders:

- ``c/api.c``: includes the static, header-only C (``c/pairforge.h`` or ``c/edwards_core.h``)
  and defines one out-of-line function ``pf_api_<object>_<op>`` per declared function (``api_name``:
  ``fp_mul`` becomes ``pf_api_fp_mul``, ``pf_final_exp`` ``pf_api_final_exp``). It is compiled
  at the shipped optimisation level, so every arithmetic loop lives in an api unit.
- ``c/api_<unit>.c``: the same, for the functions tagged ``# unit: <unit>`` (a comment that ends
  the declaration, or the ``cdef extern`` line of a block for all of its functions). The other
  functions keep their order in ``c/api.c``: gcc's inlining decisions there follow it, and a
  reordering alone measured up to 9% on a final exponentiation. A heavy entry point (the Miller
  loop, a scalar multiplication, a GT power, an MSM) gets a translation unit of its own because
  gcc limits inlining per unit (``--param inline-unit-growth``, 40% of the unit's size): in one
  unit with the ~150 small entry points, the budget ran out before the hot functions were
  inlined, and the module's final exponentiation took 5% longer than the same code in a small
  unit (bench/c/bench_kernels.c). In units of their own they compile as in the benchmark; the
  template tags them only where ``own_units`` says so.
- ``c/api.h``: the wrapper's header. It includes the same static C for the types and constants,
  declares the ``pf_api_`` functions and maps each declared name onto them, so the wrapper's
  calls go to the api units' copies and none of the static functions is compiled into the
  wrapper (the wrapper is compiled at a lower level: generator/build.py).

One list (the ``.pyx`` declarations) decides every file, so they cannot drift from the wrapper.

Layer: emit. Imports protocols, derive, the curve files and the leaves; never the drivers, cli or
generator/reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

API_HEADER = "c/api.h"
API_SOURCE = "c/api.c"
API_PREFIX = "pf_api_"
# The static functions are named by object and operation (fp_mul, g1_msm); those with no object of
# their own (the Miller loop, the final exponentiation) carry the library's prefix instead, which
# their out-of-line copy does not repeat.
LIBRARY_PREFIX = "pf_"
# The main unit's name (an untagged declaration); a tagged one goes to c/api_<unit>.c.
MAIN_UNIT = ""
# The widest Fp (64-bit limbs) whose heavy entry points get units of their own. With 10 and 12
# limbs the split measured slower (interleaved against one c/api.c: the 12-limb pairing +3.3%,
# its final exponentiation, left in c/api.c, +5.8% as that unit shrank; the 10-limb G2 P * k
# +6.5%), so those fields keep every entry point in c/api.c, in its earlier order.
OWN_UNIT_MAX_LIMBS = 8

_UNIT_TAG = r"#\s*unit:\s*(?P<unit>[a-z][a-z0-9_]*)\s*"
_EXTERN = re.compile(r'^cdef extern from "c/api\.h"(?: nogil)?:\s*(?:' + _UNIT_TAG + ")?$")
_LINE_UNIT = re.compile(r"\s*" + _UNIT_TAG + "$")
_FUNCTION = re.compile(r"^(?P<ret>[A-Za-z_][\w\s\*]*?[\s\*])(?P<name>[A-Za-z_]\w*)\s*\((?P<args>.*)\)$", re.S)
_ARG_NAME = re.compile(r"([A-Za-z_]\w*)\s*(\[\s*\w*\s*\])?$")
# Cython's spelling of C types that C spells otherwise
_C_TYPES = {"bint": "int"}


@dataclass(frozen=True)
class ApiFunction:
    """One C function the wrapper calls: its return type, name and parameters (C spelling)."""

    ret: str
    name: str
    params: tuple[str, ...]
    unit: str = MAIN_UNIT  # the api unit that defines it (MAIN_UNIT: c/api.c)

    @property
    def arg_names(self) -> tuple[str, ...]:
        names = []
        for param in self.params:
            match = _ARG_NAME.search(param)
            if match is None:
                raise ValueError(f"{self.name}: parameter {param!r} has no name")
            names.append(match.group(1))
        return tuple(names)

    @property
    def api_name(self) -> str:
        """The name of its out-of-line copy in the api units."""
        return api_name(self.name)

    def prototype(self, name: str) -> str:
        return f"{self.ret} {name}({', '.join(self.params) or 'void'})"


_CYTHON_TYPE = re.compile(r"\b(" + "|".join(map(re.escape, _C_TYPES)) + r")\b")


def api_name(name: str) -> str:
    """The name of the out-of-line copy of the static function ``name``: ``pf_api_`` and the
    function's object and operation, without a second ``pf_`` (``pf_api_final_exp``)."""
    return API_PREFIX + name.removeprefix(LIBRARY_PREFIX)


def _c_type(text: str) -> str:
    """``text`` (a return type or a parameter) in C's spelling, its whitespace collapsed."""
    return _CYTHON_TYPE.sub(lambda match: _C_TYPES[match[1]], " ".join(text.split()))


def _split_params(text: str) -> tuple[str, ...]:
    params = [_c_type(p) for p in text.split(",")]
    return tuple(p for p in params if p and p != "void")


def own_units(fp_limbs: int) -> bool:
    """Whether the heavy entry points of a curve with ``fp_limbs`` 64-bit limbs get units of their
    own (the template's ``# unit:`` tags)."""
    return fp_limbs <= OWN_UNIT_MAX_LIMBS


def unit_source(unit: str) -> str:
    """The file (relative to the package) that defines the functions of ``unit``."""
    return API_SOURCE if unit == MAIN_UNIT else f"c/api_{unit}.c"


def _declaration_lines(pyx: str) -> list[tuple[str, str]]:
    """The statements of the ``cdef extern from "c/api.h"`` blocks, continuation lines joined,
    each with its unit: its own tag, else its block's."""
    statements: list[tuple[str, str]] = []
    inside = False
    block_unit = unit = MAIN_UNIT
    pending = ""
    for line in pyx.splitlines():
        extern = _EXTERN.match(line)
        if extern:
            inside = True
            block_unit = unit = extern["unit"] or MAIN_UNIT
            continue
        if line.startswith('cdef extern from "c/api.h"'):
            raise ValueError(f"unreadable extern line (a unit tag is '# unit: name'): {line!r}")
        if inside and line.strip() and not line.startswith((" ", "\t")):
            inside = False
        if not inside or not line.strip() or line.strip().startswith("#"):
            continue
        tag = _LINE_UNIT.search(line)
        if tag:  # a declaration's own unit (on its last line)
            line, unit = line[: tag.start()], tag["unit"]
        elif "#" in line:
            raise ValueError(f"unreadable comment in an extern block (a unit tag is '# unit: name'): {line!r}")
        pending = f"{pending} {line.strip()}" if pending else line.strip()
        if pending.count("(") == pending.count(")"):
            statements.append((unit, pending))
            pending = ""
            unit = block_unit
    if pending:
        raise ValueError(f"unbalanced declaration in the extern blocks: {pending!r}")
    return statements


def api_functions(pyx: str) -> list[ApiFunction]:
    """The functions declared in the ``.pyx``'s ``cdef extern from "c/api.h"`` blocks, in order,
    each with its unit (types, enums and constants are skipped: the wrapper takes those from the
    static headers)."""
    functions: dict[str, ApiFunction] = {}
    for unit, statement in _declaration_lines(pyx):
        if "(" not in statement or statement.startswith(("ctypedef", "enum", "cdef", "struct")):
            continue
        match = _FUNCTION.match(statement)
        if match is None or "(" in match["args"] or ")" in match["args"]:  # one declaration a line
            raise ValueError(f"not a C function declaration: {statement!r}")
        function = ApiFunction(_c_type(match["ret"]), match["name"], _split_params(match["args"]), unit)
        if functions.setdefault(function.name, function) != function:
            raise ValueError(f"{function.name} is declared twice with different types")
    copies: dict[str, str] = {}
    for function in functions.values():
        other = copies.setdefault(function.api_name, function.name)
        if other != function.name:
            raise ValueError(f"{other} and {function.name} would share the api name {function.api_name}")
    if not functions:
        raise ValueError('no function declared in a cdef extern from "c/api.h" block')
    return list(functions.values())


def render_api(pyx: str, core_header: str, header: str) -> dict[str, str]:
    """``c/api.h``, ``c/api.c`` and a ``c/api_<unit>.c`` per tagged unit for the wrapper ``pyx``
    over the static C of ``core_header`` (a file name under ``c/``). ``header`` is the
    "generated by" line."""
    functions = api_functions(pyx)
    guard = "PF_API_H"
    h = [
        f"/* {header} */",
        "/* The functions the extension module calls, defined out of line in api.c and api_*.c",
        " * (compiled at the shipped optimisation level); the module's wrapper code includes this",
        f" * header instead of {core_header}, and its calls to the names below go to those copies. */",
        f"#ifndef {guard}",
        f"#define {guard}",
        "",
        f"#include \"{core_header}\" /* the types and constants (the static functions stay unused here) */",
        "",
        "#if defined(__GNUC__) || defined(__clang__)",
        "#define PF_API __attribute__((visibility(\"hidden\")))",
        "#else",
        "#define PF_API",
        "#endif",
        "",
    ]
    h += [f"PF_API {f.prototype(f.api_name)};" for f in functions]
    h += ["", "#ifndef PF_API_DEFINITIONS /* the wrapper: call the out-of-line copies */"]
    h += [f"#define {f.name} {f.api_name}" for f in functions]
    h += ["#endif", "", f"#endif /* {guard} */", ""]
    units: dict[str, list[ApiFunction]] = {MAIN_UNIT: []}
    for f in functions:
        units.setdefault(f.unit, []).append(f)
    files = {API_HEADER: "\n".join(h)}
    for unit, members in units.items():
        what = "the functions the extension module calls (api.h)"
        if unit != MAIN_UNIT:
            what = f"the {unit} functions (a unit of their own: generator/emit/api.py)"
        c = [
            f"/* {header} */",
            f"/* The out-of-line copies of {what}: each calls the",
            f" * static function of {core_header}, which the compiler inlines here. */",
            "#define PF_API_DEFINITIONS",
            "#include \"api.h\"",
            "",
        ]
        for f in members:
            call = f"{f.name}({', '.join(f.arg_names)})"
            body = f"{call};" if f.ret == "void" else f"return {call};"
            c += [f"PF_API {f.prototype(f.api_name)}", "{", f"    {body}", "}", ""]
        files[unit_source(unit)] = "\n".join(c)
    return files
