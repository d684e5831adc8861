"""c-kzg-4844's reference cases (tests/vectors/eip4844_kzg/tests_full.tar.xz), read in place.

Shared by tests/protocols/test_eip4844.py and tests/protocols/test_eip7594.py: the archive is parsed without
unpacking it. A missing archive fails the test; PyYAML (in the test extra) is required: without
it the tests skip locally and fail under CI.
"""

from __future__ import annotations

import tarfile
from typing import Any

from conftest import import_optional
from vectors_util import vector_path

KZG_SET = "eip4844_kzg"


def read_cases(functions: list[str] | dict[str, int]) -> dict[str, list[tuple[str, Any]]]:
    """{function: [(case name, parsed data.yaml)]} for the named functions, in archive order."""
    yaml = import_optional("yaml", "PyYAML, in the test extra: pip install -e '.[test]'")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out: dict[str, list[tuple[str, Any]]] = {f: [] for f in functions}
    with tarfile.open(vector_path(KZG_SET, "tests_full.tar.xz"), "r:xz") as tar:
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
