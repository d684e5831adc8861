"""The fresh-copy mode of bench/mcl.py (``--fresh-copies``), the part that runs without mcl: a new
file copy of a package, and a child process that times an operation on that copy and refuses to
time anything else (the repository's own module, say, when the copy is not what it imported)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import mcl

PACKAGE = "bn254"  # every CI run builds it; the shortest pairing


@pytest.fixture(scope="module")
def built() -> None:
    package = mcl.REPO_ROOT / "generated" / PACKAGE
    if not any(package.glob("_core*.so")):
        pytest.skip(f"generated/{PACKAGE} is not built")


def test_child_times_the_fresh_copy(built: None, tmp_path: Path) -> None:
    root = mcl.fresh_package_copy(PACKAGE, tmp_path / "copy")
    copied = root / "generated" / PACKAGE
    assert (copied / "__init__.py").is_file() and any(copied.glob("_core*.so"))
    seconds = mcl.time_in_child(PACKAGE, root, "miller_loop", [])
    assert 1e-6 < seconds < 0.1  # one Miller loop: about 0.1 ms on the CI machine


def test_child_refuses_a_module_outside_its_copy(built: None, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    # nothing to import under empty/: the package comes from the repository, which the child
    # must not time in place of a copy
    with pytest.raises(SystemExit, match="not the copy under"):
        mcl.time_in_child(PACKAGE, empty, "miller_loop", [])
