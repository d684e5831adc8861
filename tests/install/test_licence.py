"""The licence: MIT OR Apache-2.0, stated in pyproject.toml, shipped as two files, and named by an
SPDX line in every file the generator writes."""

from __future__ import annotations

import subprocess
import tomllib

from conftest import GENERATED_DIR, REPO_ROOT

from generator.protocols import PROTOCOLS

SPDX = "SPDX-License-Identifier: MIT OR Apache-2.0"


def test_pyproject_names_the_licence_and_its_files() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT OR Apache-2.0"
    assert sorted(project["license-files"]) == ["LICENSE-APACHE", "LICENSE-MIT"]
    assert "Permission is hereby granted, free of charge" in (REPO_ROOT / "LICENSE-MIT").read_text()
    assert "Apache License" in (REPO_ROOT / "LICENSE-APACHE").read_text()


def test_every_generated_file_carries_the_spdx_line() -> None:
    """Every committed file of generated/ names the licence in its banner (first lines)."""
    listed = subprocess.run(["git", "ls-files", "generated"], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    # a protocol's public data (the EIP-4844 setup) is copied byte for byte, without a banner;
    # the licence of the package that carries it is in that package's other files
    data = {name for protocol in PROTOCOLS.values() for name in protocol.data}
    data.add("py.typed")  # PEP 561's marker, empty as type checkers expect (emit/context.py PY_TYPED)
    files = [REPO_ROOT / line for line in listed.stdout.splitlines() if line.rpartition("/")[2] not in data]
    assert len(files) > 100, "git ls-files found too few generated files"
    missing = [str(f.relative_to(REPO_ROOT)) for f in files if SPDX not in "".join(f.read_text().splitlines(True)[:3])]
    assert not missing, f"{len(missing)} generated files lack {SPDX!r}, e.g. {missing[:5]}"


def test_every_package_ships_an_empty_py_typed() -> None:
    """PEP 561: generated/, every rendered package and generator/ carry an empty py.typed."""
    packages = sorted(p.parent for p in GENERATED_DIR.glob("*/__init__.py"))
    assert packages, "no rendered packages in generated/"
    for directory in [GENERATED_DIR, REPO_ROOT / "generator", *packages]:
        marker = directory / "py.typed"
        assert marker.is_file(), f"{marker.relative_to(REPO_ROOT)} is missing"
        assert marker.read_bytes() == b"", f"{marker.relative_to(REPO_ROOT)} must be empty"
