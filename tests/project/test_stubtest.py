"""mypy.stubtest of the compiled modules against their stubs (tests/stubtest_run.py): names,
signatures and types of every class and function of _core.pyi, for each module built here (the
portable _core where it is built, _core_adx where this CPU has it); `nox -s stubtest` checks both
targets of every curve."""

from __future__ import annotations

from conftest import import_optional, skip_or_fail
from stubtest_run import packages, run


def test_the_stubs_match_the_compiled_modules() -> None:
    import_optional("mypy.stubtest", "pip install -c constraints.txt mypy")
    pkgs = packages()
    if not pkgs:
        skip_or_fail("no curve packages in generated/ (run `gen-curve --all`)")
    status, output = run(pkgs)
    if status == 2:
        skip_or_fail(output)
    assert status == 0, f"stubtest found differences between the stubs and the compiled modules:\n{output}"
