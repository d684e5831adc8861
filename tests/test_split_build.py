"""The two translation units of a curve module (generator/emit/api.py, generator/build.py): c/api.c
holds, at the shipped -O level, every C function the Cython wrapper calls; the wrapper compiles
at a lower level against c/api.h. Checked on the rendered packages (every declared function has
its out-of-line copy, the wrapper includes no other C) and on a small mock package built for real
(the right flags per unit, the stamps, the symbols of the module)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator import build
from generator.build import build_module, is_up_to_date, stamp_path
from generator.emit.api import API_PREFIX, api_functions, render_api

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "generated"
PACKAGES = sorted(p.parent.name for p in GENERATED.glob("*/_core.pyx"))


def _extern_headers(pyx: str) -> list[str]:
    return re.findall(r'^cdef extern from "([^"]+)"', pyx, re.M)


@pytest.mark.parametrize("pkg", PACKAGES)
def test_every_wrapper_call_goes_to_the_api_unit(pkg: str) -> None:
    """The wrapper names no header but c/api.h, and c/api.h maps every function it declares to a
    definition in c/api.c, which calls the static function of the same name."""
    pyx = (GENERATED / pkg / "_core.pyx").read_text()
    assert set(_extern_headers(pyx)) == {"c/api.h"}
    functions = api_functions(pyx)
    header = (GENERATED / pkg / "c" / "api.h").read_text()
    source = (GENERATED / pkg / "c" / "api.c").read_text()
    assert len(functions) > 20
    for f in functions:
        assert f"#define {f.name} {API_PREFIX}{f.name}\n" in header
        definition = re.search(rf"^PF_API \w[\w\s\*]*\b{API_PREFIX}{f.name}\((.*?)\)\n\{{\n(.*?)\n\}}", source, re.M | re.S)
        assert definition is not None, f.name
        assert re.search(rf"\b{f.name}\(", definition.group(2)), f.name
    # and nothing else: no function defined in c/api.c that the wrapper does not declare
    assert len(re.findall(rf"^PF_API .*\b{API_PREFIX}\w+\(", source, re.M)) == len(functions)


def test_declarations_are_parsed_in_c_spelling() -> None:
    pyx = '''cdef extern from "c/api.h" nogil:
    ctypedef struct fp_t:
        int l[4]
    enum: FP_NLIMBS
    const fp_t G1_B
    bint fp_sqrt(fp_t *out,
                 const fp_t *a)
    void g1_msm(g1_t *out, const pf_line_t *const *lines, size_t n)
    int nothing()

cdef extern from "other.h":
    void not_this_one(int x)
'''
    functions = api_functions(pyx)
    assert [(f.ret, f.name, f.params) for f in functions] == [
        ("int", "fp_sqrt", ("fp_t *out", "const fp_t *a")),
        ("void", "g1_msm", ("g1_t *out", "const pf_line_t *const *lines", "size_t n")),
        ("int", "nothing", ()),
    ]
    assert functions[1].arg_names == ("out", "lines", "n")
    files = render_api(pyx, "core.h", "test")
    assert "PF_API int pf_api_nothing(void)\n{\n    return nothing();\n}" in files["c/api.c"]
    assert "PF_API void pf_api_g1_msm(g1_t *out, const pf_line_t *const *lines, size_t n)\n{\n    g1_msm(out, lines, n);\n}" in files["c/api.c"]
    with pytest.raises(ValueError, match="declared twice"):
        api_functions(pyx + 'cdef extern from "c/api.h":\n    void nothing()\n')
    with pytest.raises(ValueError, match="no function"):
        api_functions('cdef extern from "c/api.h":\n    enum: X\n')


MOCK_PYX = """# cython: language_level=3
cdef extern from "c/api.h":
    int PF_LIMB_BITS
    long mock_sum(long n)

LIMB_BITS = PF_LIMB_BITS


def total(n):
    return mock_sum(n)
"""


def mock_split_package(root: Path, step: int = 1) -> Path:
    """A package laid out as a rendered curve: static C in c/mock.h, c/api.h and c/api.c rendered
    from the wrapper's declarations."""
    pkg = root / "mocksplit"
    (pkg / "c").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "_core.pyx").write_text(MOCK_PYX)
    set_step(pkg, step)
    for name, text in render_api(MOCK_PYX, "mock.h", "mock").items():
        (pkg / name).write_text(text)
    return pkg


def set_step(pkg: Path, step: int) -> None:
    (pkg / "c" / "mock.h").write_text(
        "static long mock_sum(long n) { long s = 0; for (long i = 0; i < n; i++) s += i * " + str(step) + "; return s; }\n"
    )


def total(pkg: Path, n: int) -> int:
    code = f"import mocksplit._core as m; print(m.total({n}))"
    out = subprocess.run([sys.executable, "-c", code], cwd=pkg.parent, capture_output=True, text=True, check=True)
    return int(out.stdout)


def test_a_split_module_builds_with_its_flags_per_unit(tmp_path: Path, monkeypatch) -> None:
    """c/api.c compiles at the shipped flags, the wrapper at the lower ones (both end with
    PAIRFORGE_CFLAGS); a change of either unit compiles again, a second build nothing; the
    out-of-line copy is in the module and not exported."""
    monkeypatch.delenv(build.CFLAGS_ENV, raising=False)
    pkg = mock_split_package(tmp_path)
    assert build.has_api_unit(pkg)
    target, compiled = build_module(pkg)
    assert compiled and total(pkg, 10) == 45
    stamp = json.loads(stamp_path(target).read_text())
    assert stamp["compile_args"] == build.compile_args() and "-O3" in stamp["compile_args"]
    assert stamp["wrapper_compile_args"] == build.wrapper_compile_args()
    assert [a for a in stamp["wrapper_compile_args"] if a.startswith("-O")] == ["-O1"]
    assert not build_module(pkg)[1]

    if shutil.which("nm"):
        symbols = subprocess.run(["nm", str(target)], capture_output=True, text=True, check=True).stdout
        assert re.search(rf"^\w+ t {API_PREFIX}mock_sum$", symbols, re.M), symbols  # local: hidden
        exported = subprocess.run(["nm", "-D", "--defined-only", str(target)], capture_output=True, text=True, check=True).stdout
        assert API_PREFIX not in exported

    set_step(pkg, 2)  # the arithmetic changed
    assert not is_up_to_date(pkg)
    assert build_module(pkg)[1] and total(pkg, 10) == 90
    api_c = pkg / "c" / "api.c"
    api_c.write_text(api_c.read_text() + "\n/* changed */\n")  # the api unit itself changed
    assert not is_up_to_date(pkg)
    monkeypatch.setattr(build, "WRAPPER_OPT_ARGS", ("-O2",))  # the wrapper's flags changed
    assert not is_up_to_date(pkg)
    assert build_module(pkg)[1] and not build_module(pkg)[1]
    assert json.loads(stamp_path(target).read_text())["wrapper_compile_args"][0] == "-O2"


def test_a_test_curve_compiles_its_wrapper_at_o0(tmp_path: Path, monkeypatch) -> None:
    """Under tests/build_cache.py's quick flags, c/api.c compiles at QUICK_BUILD_CFLAGS and the
    wrapper at QUICK_WRAPPER_CFLAGS (the last -O of each wins); the environment is restored."""
    from build_cache import QUICK_BUILD_CFLAGS, QUICK_WRAPPER_CFLAGS, quick_build_flags

    monkeypatch.delenv(build.CFLAGS_ENV, raising=False)
    monkeypatch.delenv(build.WRAPPER_CFLAGS_ENV, raising=False)
    pkg = mock_split_package(tmp_path, step=3)
    with quick_build_flags():
        target, compiled = build_module(pkg)
        assert is_up_to_date(pkg)
    assert compiled and total(pkg, 4) == 18
    assert build.CFLAGS_ENV not in os.environ and build.WRAPPER_CFLAGS_ENV not in os.environ
    assert not is_up_to_date(pkg)  # the quick build's stamp is not a normal build's
    stamp = json.loads(stamp_path(target).read_text())

    def last_opt(args: list[str]) -> str:
        return [a for a in args if a.startswith("-O")][-1]

    assert last_opt(stamp["compile_args"]) == QUICK_BUILD_CFLAGS
    assert last_opt(stamp["wrapper_compile_args"]) == QUICK_WRAPPER_CFLAGS
