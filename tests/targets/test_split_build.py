"""The translation units of a curve module (generator/emit/api.py, generator/build.py): c/api.c
and the c/api_<unit>.c files hold, at the shipped -O level, every C function the Cython wrapper
calls; the wrapper compiles at a lower level against c/api.h. Checked on the rendered packages
(every declared function has one out-of-line copy, in the unit its tag names; the wrapper
includes no other C) and on a small mock package built for real (the right flags per unit, the
stamps, the symbols of the module)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from generator import build
from generator.build import build_module, is_up_to_date, stamp_path
from generator.emit.api import API_PREFIX, MAIN_UNIT, api_functions, api_name, render_api, unit_source

GENERATED = REPO_ROOT / "generated"
PACKAGES = sorted(p.parent.name for p in GENERATED.glob("*/_core.pyx"))


def _extern_headers(pyx: str) -> list[str]:
    return re.findall(r'^cdef extern from "([^"]+)"', pyx, re.M)


def _definitions(source: str) -> dict[str, str]:
    """The pf_api_ functions a unit defines (by their full name), each with its body."""
    found = re.findall(rf"^PF_API \w[\w\s\*]*\b({API_PREFIX}\w+)\((?:.*?)\)\n\{{\n(.*?)\n\}}", source, re.M | re.S)
    assert len(found) == len(re.findall(rf"^PF_API .*\b{API_PREFIX}\w+\(", source, re.M))
    return dict(found)


@pytest.mark.parametrize("pkg", PACKAGES)
def test_every_wrapper_call_goes_to_the_api_unit(pkg: str) -> None:
    """The wrapper names no header but c/api.h, and c/api.h maps every function it declares to one
    definition in the api unit its tag names (c/api.c or c/api_<unit>.c), which calls the
    static function of the same name; the package has no other api unit, and build.py compiles
    exactly these."""
    pyx = (GENERATED / pkg / "_core.pyx").read_text()
    assert set(_extern_headers(pyx)) == {"c/api.h"}
    functions = api_functions(pyx)
    header = (GENERATED / pkg / "c" / "api.h").read_text()
    units = {f.unit for f in functions}
    sources = {unit_source(unit) for unit in units | {MAIN_UNIT}}
    assert {p.relative_to(GENERATED / pkg).as_posix() for p in build.api_sources(GENERATED / pkg)} == sources
    defined = {rel: _definitions((GENERATED / pkg / rel).read_text()) for rel in sources}
    assert len(functions) > 20
    if any(f.name == "pf_final_exp" for f in functions):  # a pairing curve's heavy entry points
        fp_limbs = int(re.search(r"^#define FP_NLIMBS \((\d+) \* PF_LIMBS_PER_WORD\)", (GENERATED / pkg / "c" / "fp.h").read_text(), re.M)[1])
        expected = {MAIN_UNIT, "miller_loop", "final_exp", "g1_mul", "g2_mul", "gt_pow", "msm"} if fp_limbs <= 8 else {MAIN_UNIT}
        assert units | {MAIN_UNIT} == expected
    for f in functions:
        assert f"#define {f.name} {f.api_name}\n" in header
        assert not f.api_name.startswith(API_PREFIX + "pf_"), f.api_name  # one prefix, not two
        body = defined[unit_source(f.unit)].get(f.api_name)
        assert body is not None, f.name
        assert re.search(rf"\b{f.name}\(", body), f.name
    # and nothing else: no function defined that the wrapper does not declare, none twice
    assert sum(len(d) for d in defined.values()) == len(functions)


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

cdef extern from "c/api.h" nogil:  # unit: heavy_one
    void g1_mul(g1_t *out, const g1_t *a)
    void g2_mul(g2_t *out,
                const g2_t *a)  # unit: heavy_two
    void g1_dbl(g1_t *out, const g1_t *a)
'''
    functions = api_functions(pyx)
    assert [(f.ret, f.name, f.params, f.unit) for f in functions] == [
        ("int", "fp_sqrt", ("fp_t *out", "const fp_t *a"), MAIN_UNIT),
        ("void", "g1_msm", ("g1_t *out", "const pf_line_t *const *lines", "size_t n"), MAIN_UNIT),
        ("int", "nothing", (), MAIN_UNIT),
        ("void", "g1_mul", ("g1_t *out", "const g1_t *a"), "heavy_one"),
        ("void", "g2_mul", ("g2_t *out", "const g2_t *a"), "heavy_two"),  # its own tag wins
        ("void", "g1_dbl", ("g1_t *out", "const g1_t *a"), "heavy_one"),  # the block's again
    ]
    assert functions[1].arg_names == ("out", "lines", "n")
    files = render_api(pyx, "core.h", "test")
    assert set(files) == {"c/api.h", "c/api.c", "c/api_heavy_one.c", "c/api_heavy_two.c"}
    assert "pf_api_g1_mul(" not in files["c/api.c"]
    assert "PF_API void pf_api_g1_mul(g1_t *out, const g1_t *a)\n{\n    g1_mul(out, a);\n}" in files["c/api_heavy_one.c"]
    assert "#define g1_mul pf_api_g1_mul\n" in files["c/api.h"]
    with pytest.raises(ValueError, match="not a C function declaration"):  # two run together
        api_functions('cdef extern from "c/api.h":\n    int f(int a)    void g(int b)\n')
    with pytest.raises(ValueError, match="unit tag"):
        api_functions(pyx + 'cdef extern from "c/api.h":  # unit = x\n    void other()\n')
    with pytest.raises(ValueError, match="unit tag"):
        api_functions(pyx + 'cdef extern from "c/api.h":\n    void other()  # unit x\n')
    assert "PF_API int pf_api_nothing(void)\n{\n    return nothing();\n}" in files["c/api.c"]
    assert "PF_API void pf_api_g1_msm(g1_t *out, const pf_line_t *const *lines, size_t n)\n{\n    g1_msm(out, lines, n);\n}" in files["c/api.c"]
    with pytest.raises(ValueError, match="declared twice"):
        api_functions(pyx + 'cdef extern from "c/api.h":\n    void nothing()\n')
    with pytest.raises(ValueError, match="no function"):
        api_functions('cdef extern from "c/api.h":\n    enum: X\n')


def test_api_names_carry_one_prefix() -> None:
    """A static function named by object and operation keeps them (pf_api_fp_mul); one that carries
    the library's pf_ instead is not prefixed twice (pf_api_final_exp); two declarations that would
    share a copy's name are refused."""
    assert api_name("fp_mul") == "pf_api_fp_mul"
    assert api_name("pf_final_exp") == "pf_api_final_exp"
    pyx = 'cdef extern from "c/api.h":\n    void pf_final_exp(gt_t *out, const gt_t *f)\n    int fp_is_zero(const fp_t *a)\n'
    files = render_api(pyx, "core.h", "test")
    assert "#define pf_final_exp pf_api_final_exp\n" in files["c/api.h"]
    assert "PF_API void pf_api_final_exp(gt_t *out, const gt_t *f)\n{\n    pf_final_exp(out, f);\n}" in files["c/api.c"]
    assert "pf_api_pf_" not in "".join(files.values())
    with pytest.raises(ValueError, match="share the api name pf_api_final_exp"):
        api_functions(pyx + "    void final_exp(gt_t *out, const gt_t *f)\n")


MOCK_PYX = """# cython: language_level=3
cdef extern from "c/api.h":
    int PF_LIMB_BITS
    long mock_sum(long n)

cdef extern from "c/api.h":  # unit: heavy
    long mock_twice(long n)

LIMB_BITS = PF_LIMB_BITS


def total(n):
    return mock_sum(n)


def twice(n):
    return mock_twice(n)
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
        "static long mock_twice(long n) { return 2 * n; }\n"
    )


def total(pkg: Path, n: int, function: str = "total") -> int:
    code = f"import mocksplit._core as m; print(m.{function}({n}))"
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
    assert total(pkg, 21, "twice") == 42  # c/api_heavy.c, a unit of its own, is linked in
    stamp = json.loads(stamp_path(target).read_text())
    assert stamp["compile_args"] == build.compile_args() and "-O3" in stamp["compile_args"]
    assert stamp["wrapper_compile_args"] == build.wrapper_compile_args()
    assert [a for a in stamp["wrapper_compile_args"] if a.startswith("-O")] == ["-O1"]
    assert not build_module(pkg)[1]

    if shutil.which("nm"):
        symbols = subprocess.run(["nm", str(target)], capture_output=True, text=True, check=True).stdout
        for name in ("mock_sum", "mock_twice"):
            assert re.search(rf"^\w+ t {API_PREFIX}{name}$", symbols, re.M), symbols  # local: hidden
        exported = subprocess.run(["nm", "-D", "--defined-only", str(target)], capture_output=True, text=True, check=True).stdout
        assert API_PREFIX not in exported

    set_step(pkg, 2)  # the arithmetic changed
    assert not is_up_to_date(pkg)
    assert build_module(pkg)[1] and total(pkg, 10) == 90
    api_c = pkg / "c" / "api.c"
    api_c.write_text(api_c.read_text() + "\n/* changed */\n")  # the api unit itself changed
    assert not is_up_to_date(pkg)
    assert build_module(pkg)[1]
    heavy_c = pkg / "c" / "api_heavy.c"
    heavy_c.write_text(heavy_c.read_text() + "\n/* changed */\n")  # a tagged unit changed
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


# A file-scope variable that is not const (and not a function): each api unit has its own copy.
_MUTABLE_STATIC = re.compile(r"^static (?!const\b|inline\b)[\w ]+?\b(\w+)\s*(?:\[[^\]]*\])?\s*=", re.M)


@pytest.mark.parametrize("pkg", PACKAGES)
def test_shared_state_stays_in_one_unit(pkg: str) -> None:
    """The C's only mutable statics are the settings of the MSMs' IFMA kernel (g1 in msm.h, sw in
    an Edwards package's sw_msm.h): its switch ``<group>_msm_ifma_state`` and the layout that the
    tests force, ``<group>_msm_ifma_forced_slices``, each once per api unit. The function that sets
    one (``<group>_msm_ifma_select``, ``<group>_msm_ifma_slices``) must sit in the unit of the MSMs
    that read it, or setting it from Python would change a copy that no MSM reads. A new mutable
    static fails here until its functions are placed (templates/cython/_core.pyx.j2)."""
    setters = {"state": "select", "forced_slices": "slices"}
    statics = set()
    for header in (GENERATED / pkg / "c").glob("*.h"):
        statics |= set(_MUTABLE_STATIC.findall(header.read_text()))
    assert all(re.fullmatch(r"[a-z0-9]+_msm_ifma_(state|forced_slices)", s) for s in statics), statics
    unit = {f.name: f.unit for f in api_functions((GENERATED / pkg / "_core.pyx").read_text())}
    msms = {name for name in unit if re.fullmatch(r"(?!pf_)[a-z0-9]+_msm\w*_vartime", name)}
    for state in statics:
        group, _, setting = state.partition("_msm_ifma_")
        select = f"{group}_msm_ifma_{setters[setting]}"
        assert msms and {unit[name] for name in msms} == {unit[select]}, (select, {n: unit[n] for n in msms})
