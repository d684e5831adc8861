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


def _refuse_wasm32(monkeypatch) -> None:
    """pipeline.unbuildable_reason as it would be for a package without a wasm32 byte ABI (no
    shipped package lacks one now: the twisted Edwards packages have c/wasm_abi.c too)."""
    from generator import pipeline

    monkeypatch.setattr(pipeline, "unbuildable_reason",
                        lambda model, target: "no wasm32 byte ABI here" if target == "wasm32" else None)


def test_a_target_the_curve_lacks_is_refused_with_the_reason(tmp_path, monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A package that cannot take the target named with --target fails in one line that says so,
    before anything is built (before, the build died on a missing c/wasm_abi.c)."""
    _refuse_wasm32(monkeypatch)
    assert gen_curve(["bandersnatch", "--target", "wasm32", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "cannot be built for --target wasm32" in err and "no wasm32 byte ABI here" in err
    assert not (tmp_path / "bandersnatch" / "wasm" / "bandersnatch.wasm").exists()


def test_all_skips_the_curves_without_the_target(tmp_path, monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`gen-curve --all --target wasm32` builds the curves that have the target and names each one
    it skipped, with the reason, in one line; it exits 0 (here --all covers one curve, refused)."""
    from generator import cli

    _refuse_wasm32(monkeypatch)
    monkeypatch.setattr(cli, "curve_files", lambda: [cli.CURVES_DIR / "bandersnatch.toml"])
    assert gen_curve(["--all", "--target", "wasm32", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    skipped = [line for line in err.splitlines() if line.startswith("gen-curve: skipped")]
    assert len(skipped) == 1 and "Bandersnatch" in skipped[0] and "wasm32" in skipped[0], err

