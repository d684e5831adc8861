"""The documented C functions of a rendered file, and the words that mark one variable time: the
scan of tests/security/test_vartime_names.py (every variable-time function is named ``*_vartime``),
which tests/wasm/test_wasm_edwards.py also runs on an Edwards package's WebAssembly ABI."""

from __future__ import annotations

import re
from pathlib import Path

# A comment, then a function definition (static, possibly inline; the signature may wrap: one run
# of characters without ';' or '{', so the scan is linear, not a backtracking search).
# An exported function of the WebAssembly ABI (c/wasm_abi.c) has its PF_EXPORT(name) line between
# the comment and the definition, and no `static`.
DOCUMENTED_FUNCTION = re.compile(
    r"/\*((?:[^*]|\*(?!/))*)\*/\s*\n(?:PF_EXPORT\([a-z0-9_]*\)\n)?((?:static|int|size_t)[^;{]*)\{")
FUNCTION_NAME = re.compile(r"\b([a-z_][a-z0-9_]*)\s*\(")
SAYS_VARIABLE_TIME = re.compile(r"variable[ -]time", re.I)


def documented_functions(header: Path) -> list[tuple[str, str]]:
    """(name, comment) of every function definition with a comment right above it."""
    found = []
    for m in DOCUMENTED_FUNCTION.finditer(header.read_text()):
        name = FUNCTION_NAME.search(m.group(2))
        if name:
            found.append((name.group(1), " ".join(m.group(1).split())))
    return found
