"""bench/blst.py without blst: it names what is missing (a blst checkout that was not built) and
refuses operations that its harness does not time, before it compiles anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import blst


def test_unbuilt_checkout_is_named(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"libblst\.a or .*blst\.h is missing: build blst first"):
        blst.build_harness(tmp_path)


def test_unknown_operation_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        blst.main(["--blst-dir", str(tmp_path), "--ops", "pairing,g1_msm_16384"])
    assert "unknown operations g1_msm_16384" in capsys.readouterr().err


def test_harness_times_what_the_script_asks() -> None:
    """Every operation the script offers is one the harness knows (its list in main)."""
    source = blst.HARNESS.read_text(encoding="utf-8")
    listed = source[source.index("static const char *ops[]"):].split("}", 1)[0]
    assert all(f'"{op}"' in listed for op in blst.OPS)
