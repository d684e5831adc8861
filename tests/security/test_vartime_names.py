"""Every C function of the generated code whose documentation says it is variable time carries
the _vartime suffix (docs/security.md: "any variable-time function is named as such").  The constant-time
harness (tests/security/test_constant_time.py) derives its expectation from the name, so a variable-time
function without the suffix would be expected to be clean; this check finds the ones it does not
run.  It reads the rendered headers, so a template that documents a new variable-time function
without the suffix fails here for every curve."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GENERATED_DIR, generated_packages, skip_or_fail
from vartime_util import SAYS_VARIABLE_TIME, documented_functions


@pytest.mark.parametrize("pkg", generated_packages() or ["none"])
def test_variable_time_functions_are_named_so(pkg: str) -> None:
    c_dir = GENERATED_DIR / pkg / "c"
    if not c_dir.is_dir():
        skip_or_fail(f"generated/{pkg} is not rendered")
    sources = sorted(c_dir.glob("*.h")) + sorted(c_dir.glob("wasm_abi.c"))
    functions = [(h.name, name, doc) for h in sources for name, doc in documented_functions(h)]
    # the scan sees the code: hundreds of documented functions, dozens of them variable time
    assert len(functions) > 100
    variable = [(h, name) for h, name, doc in functions if SAYS_VARIABLE_TIME.search(doc)]
    assert len([1 for _, name in variable if name.endswith("_vartime")]) >= 10
    abi = [name for h, name, _ in functions if h == "wasm_abi.c"]  # the WebAssembly ABI, exports included
    assert "pf_pairing_check_vartime" in abi and "pf_g1_mul" in abi, abi
    unnamed = [f"{h}: {name}" for h, name in variable if not name.endswith("_vartime")]
    assert not unnamed, "documented as variable time without the _vartime suffix:\n" + "\n".join(unnamed)


def test_the_scan_catches_an_unnamed_function(tmp_path: Path) -> None:
    header = tmp_path / "x.h"
    header.write_text(
        "/* k < r (variable time). */\nstatic inline bool pf_below_r(const limb_t *k)\n{\n    return 1;\n}\n"
        "/* constant time */\nstatic void\nfp_sel(fp_t *out,\n       const fp_t *a)\n{\n}\n"
        "/* out = a + b (variable time) */\nPF_EXPORT(pf_g1_add)\nint pf_g1_add(uint8_t *out,\n    const uint8_t *a)\n{\n}\n"
    )
    assert documented_functions(header) == [("pf_below_r", "k < r (variable time)."), ("fp_sel", "constant time"),
                                            ("pf_g1_add", "out = a + b (variable time)")]
