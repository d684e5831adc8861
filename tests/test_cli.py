"""gen-curve's usage errors: exit status 2 and one line that says what to do instead."""

from __future__ import annotations

import pytest

from generator.cli import main as gen_curve


def test_x86_64_adx_is_explained_not_refused_blindly(capsys: pytest.CaptureFixture[str]) -> None:
    assert gen_curve(["--target", "x86_64-adx", "bn254"]) == 2
    err = capsys.readouterr().err
    assert "_core_adx" in err and "PAIRFORGE_TARGET" in err


def test_unknown_target_lists_the_targets(capsys: pytest.CaptureFixture[str]) -> None:
    assert gen_curve(["--target", "riscv64", "bn254"]) == 2
    err = capsys.readouterr().err
    assert "unknown target 'riscv64'" in err and "generic64" in err and "arm32" in err


@pytest.mark.parametrize("argv, words", [
    ([], "name a curve"),
    (["bn254", "--all"], "not several"),
    (["--params", "x.toml"], "--params needs --out"),
    (["bn254", "-j", "0"], "--jobs must be at least 1"),
])
def test_usage_errors(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert gen_curve(argv) == 2
    assert words in capsys.readouterr().err


def test_help_names_the_targets(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        gen_curve(["--help"])
    assert stop.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "generic64, generic32, arm64, arm32" in out and "x86_64-adx module" in out
    assert "planned" not in out
