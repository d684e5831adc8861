"""No mutable global state in the generated C: every object it defines is read-only.

Each curve's pairforge.h is compiled on its own as position-independent code at -O0 with
-fkeep-static-functions (every function and every static it references is emitted, nothing is
optimised away), and the symbol table (objdump -t) must hold objects only in read-only sections:

* ``.rodata``: the ``static const`` constants (moduli, Montgomery constants, Frobenius and twist
  coefficients, group orders, Miller-loop digits);
* ``.data.rel.ro``: ``static const`` tables of pointers (the Miller-loop digit table,
  ``PF_MILLER_DIGITS``): written only by the dynamic loader's relocation, then read-only (RELRO).

Anything in ``.data``, ``.bss``, thread-local or common storage is mutable state shared by every
thread (the GIL is released around the long operations) and fails the test.  A control build with
a planted ``static int`` proves that the audit sees such state.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import GENERATED_DIR, generated_packages, skip_or_fail

READ_ONLY = re.compile(r"^\.(rodata|data\.rel\.ro)(\.|$)")
SYMBOL = re.compile(r"^[0-9a-f]+ .{7} (\S+)\s+[0-9a-f]+\s+(\S+)$")


def objects(pkg_dir: Path, tmp: Path, extra: str = "") -> dict[str, str]:
    """{object symbol: section} of the generated C of one package (plus extra C source)."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None or shutil.which("objdump") is None:
        skip_or_fail("needs a C compiler and objdump")
    src = tmp / f"{pkg_dir.name}_audit.c"
    src.write_text(f'#include "pairforge.h"\n{extra}\n')
    obj = src.with_suffix(".o")
    subprocess.run([cc, "-O0", "-fPIC", "-fkeep-static-functions", "-fno-toplevel-reorder", "-DPF_LIMB_BITS=64",
                    "-I", str(pkg_dir / "c"), "-c", str(src), "-o", str(obj)], check=True)  # fmt: skip
    table = subprocess.run(["objdump", "-t", str(obj)], capture_output=True, text=True, check=True).stdout
    out = {}
    for line in table.splitlines():
        m = SYMBOL.match(line)
        if m and (" O " in line or m.group(1) == "*COM*"):
            out[m.group(2)] = m.group(1)
    return out


def writable(syms: dict[str, str]) -> dict[str, str]:
    return {name: sec for name, sec in syms.items() if not READ_ONLY.match(sec)}


@pytest.mark.parametrize("pkg", generated_packages() or ["none"])
def test_generated_c_has_no_mutable_globals(pkg: str, tmp_path: Path) -> None:
    if not (GENERATED_DIR / pkg / "c" / "pairforge.h").is_file():
        skip_or_fail(f"generated/{pkg} is not rendered")
    syms = objects(GENERATED_DIR / pkg, tmp_path)
    assert len(syms) >= 10, f"the audit found too few objects to be looking at the right thing: {syms}"
    assert any(n.startswith("FP_") for n in syms)
    assert not writable(syms), f"mutable globals in generated/{pkg}/c: {writable(syms)}"


def test_audit_sees_planted_state(tmp_path: Path) -> None:
    """Control: a file-scope and a function-scope static variable are both reported."""
    pkgs = generated_packages()
    if not pkgs:
        skip_or_fail("no curve packages in generated/")
    planted = "static int planted_counter;\nstatic int bump(void) { static int calls; return ++calls + planted_counter++; }"
    found = writable(objects(GENERATED_DIR / pkgs[0], tmp_path, planted))
    assert "planted_counter" in found and any(n.startswith("calls") for n in found), found
