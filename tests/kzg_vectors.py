"""c-kzg-4844's reference cases (../shared/vectors/eip4844_kzg/tests_full.tar.xz), read in place.

Shared by tests/test_eip4844.py and tests/test_eip7594.py: the archive is parsed without
unpacking it, and PyYAML (in the test extra) is required: without it the tests skip locally and
fail under CI, like every other missing known-answer input.
"""

from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Any

from conftest import skip_or_fail


def read_cases(kzg_dir: Path, functions: list[str] | dict[str, int]) -> dict[str, list[tuple[str, Any]]]:
    """{function: [(case name, parsed data.yaml)]} for the named functions, in archive order."""
    try:
        import yaml
    except ImportError:
        skip_or_fail("PyYAML (in the test extra) is not installed: pip install -e '.[test]'")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out: dict[str, list[tuple[str, Any]]] = {f: [] for f in functions}
    with tarfile.open(kzg_dir / "tests_full.tar.xz", "r:xz") as tar:
        for member in tar:
            parts = member.name.split("/")
            if member.isfile() and parts[-1] == "data.yaml" and parts[1] in out:
                out[parts[1]].append((parts[-2], yaml.load(tar.extractfile(member).read(), Loader=loader)))
    return out


def hex_bytes(value: Any) -> bytes:
    """A 0x-prefixed hex string of the vectors as bytes (malformed hex gives bytes the callee
    must refuse: the case's expected output is then null)."""
    text = str(value)
    text = text[2:] if text.startswith("0x") else text
    try:
        return bytes.fromhex(text)
    except ValueError:
        return b"\xff" * 7
