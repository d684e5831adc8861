"""Loading and decoding the known-answer vectors in ../shared/vectors (used by tests/test_vectors.py).

The vector files are read in place at run time, never copied into the project. The folder is found
the same way as the ``vectors_dir`` fixture of tests/conftest.py (``find_vectors_dir``): this module
only needs it at collection time, to turn each file's cases into test ids.

The decoders here implement the *encodings of the vector files* (EIP-196/197, EIP-2539, EIP-3026,
Constantine's JSON), written from their READMEs. They turn bytes into integers and hand the
integers to the curve module's public API (``from_affine(x, y, check=True)``); every validity
decision (canonical field element, on the curve, in the subgroup) is left to the module, which must
raise ``ValueError``. A vector whose own format is broken raises ``VectorFormatError``, which is
deliberately *not* a ``ValueError`` so that it can never be mistaken for the module rejecting input.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import find_vectors_dir


class VectorFormatError(Exception):
    """A vector file does not have the format its README describes (a problem of the test data)."""


# ------------------------------------------------------------------------------------------------
# Files and cases


@lru_cache(maxsize=None)
def load_json(path: str | Path) -> Any:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def field(case: dict, key: str) -> Any:
    """``case[key]`` with the key's case ignored (the Celo BW6 files use ``input``/``expected``/``name``)."""
    for k, v in case.items():
        if k.lower() == key.lower():
            return v
    raise KeyError(key)


def case_name(case: dict, index: int) -> str:
    try:
        return str(field(case, "name"))
    except KeyError:
        return f"case{index}"


def collect_cases(folder: str, filename: str) -> list[Any]:
    """``pytest.param(case, id=name)`` for every case of ``<vectors>/<folder>/<filename>``.

    When the vectors folder (or the file) is missing there is nothing to enumerate: one placeholder
    parameter (None) is returned and the test, which also requests the ``vectors_subdir`` fixture,
    skips locally / fails under CI with the reason.
    """
    root, _ = find_vectors_dir()
    path = root / folder / filename if root is not None else None
    if path is None or not path.is_file():
        return [pytest.param(None, id=f"{filename}-missing")]
    seen: dict[str, int] = {}
    params = []
    for index, case in enumerate(load_json(path)):
        name = case_name(case, index)
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:  # keep ids unique
            name = f"{name}#{seen[name]}"
        params.append(pytest.param(case, id=name))
    return params


def require_case(case: Any, folder_path: Path) -> Any:
    """The placeholder parameter (None) of ``collect_cases`` when the folder exists but a file does not."""
    if case is None:
        raise VectorFormatError(f"a vector file is missing in {folder_path} (see the test id)")
    return case


def require_file(folder_path: Path, filename: str) -> Path:
    path = folder_path / filename
    if not path.is_file():
        raise VectorFormatError(f"vector file {path} is missing")
    return path


def unhex(text: str) -> bytes:
    text = text[2:] if text.startswith(("0x", "0X")) else text
    return bytes.fromhex(text)


def parse_int(text: str | int) -> int:
    """Constantine's numbers: ``0x`` hex, not zero-padded (``0x-1`` for a negative value)."""
    if isinstance(text, int):
        return text
    text = text.strip()
    negative = text.startswith("-") or text.startswith("0x-")
    digits = text.replace("-", "")
    value = int(digits, 16)
    return -value if negative else value


# ------------------------------------------------------------------------------------------------
# Byte encodings of precompile-style inputs


@dataclass(frozen=True)
class Encoding:
    """How one precompile family writes field elements, points and scalars.

    fp_len:        bytes per base-field element, big-endian (32: EIP-196/197; 64: EIP-2537/2539,
                   16 zero bytes then 48; 96: EIP-3026). Decoding reads all fp_len bytes as one
                   integer, so a non-zero top padding gives a value >= p that the module must reject.
    g2_degree:     2 when G2 coordinates are in Fp2 (k = 12 curves), 1 for BW6-761 (G2 over Fp).
    imag_first:    Fp2 written c1 || c0 (EIP-197) rather than c0 || c1 (EIP-2537/2539).
    scalar_len:    bytes per scalar (32, or 64 for EIP-3026).
    """

    fp_len: int
    g2_degree: int
    imag_first: bool
    scalar_len: int

    @property
    def g1_len(self) -> int:
        return 2 * self.fp_len

    @property
    def g2_len(self) -> int:
        return 2 * self.g2_degree * self.fp_len

    def point_len(self, group: str) -> int:
        return self.g1_len if group == "G1" else self.g2_len


EIP197 = Encoding(fp_len=32, g2_degree=2, imag_first=True, scalar_len=32)
EIP2539 = Encoding(fp_len=64, g2_degree=2, imag_first=False, scalar_len=32)  # BLS12-377 (Celo)
EIP3026 = Encoding(fp_len=96, g2_degree=1, imag_first=False, scalar_len=64)  # BW6-761 (Celo)


def _ints(data: bytes, width: int) -> list[int]:
    if len(data) % width:
        raise VectorFormatError(f"{len(data)} bytes is not a whole number of {width}-byte elements")
    return [int.from_bytes(data[i : i + width], "big") for i in range(0, len(data), width)]


def coordinates(data: bytes, enc: Encoding) -> list[int]:
    """The raw integers of an encoded point, in file order (no validation)."""
    return _ints(data, enc.fp_len)


def _fp2(pair: list[int], enc: Encoding) -> tuple[int, int]:
    """(c0, c1) = (real, imaginary) from the two integers in file order."""
    a, b = pair
    return (b, a) if enc.imag_first else (a, b)


def decode_point(C: ModuleType, group: str, data: bytes, enc: Encoding, check: bool = True) -> Any:
    """A point of ``C.G1``/``C.G2`` from its precompile encoding; all zero bytes = the identity.

    Everything else goes through ``from_affine(x, y, check=check)``: ValueError comes from the module.
    """
    cls = C.G1 if group == "G1" else C.G2
    if len(data) != enc.point_len(group):
        raise VectorFormatError(f"{group} point of {len(data)} bytes, expected {enc.point_len(group)}")
    if not any(data):
        return cls.identity()
    coords = _ints(data, enc.fp_len)
    if group == "G1" or enc.g2_degree == 1:
        x, y = coords
        return cls.from_affine(x, y, check=check)
    x = _fp2(coords[0:2], enc)
    y = _fp2(coords[2:4], enc)
    return cls.from_affine(x, y, check=check)


def encode_point(point: Any, group: str, enc: Encoding) -> bytes:
    """The precompile encoding of a point, built from ``to_affine()`` (identity: all zeros)."""
    affine = point.to_affine()
    if affine is None:
        return bytes(enc.point_len(group))
    x, y = affine
    if group == "G1" or enc.g2_degree == 1:
        coords = [x, y]
    else:
        coords = []
        for c0, c1 in (x, y):
            coords += [c1, c0] if enc.imag_first else [c0, c1]
    return b"".join(int(c).to_bytes(enc.fp_len, "big") for c in coords)


def split_records(data: bytes, record_len: int) -> list[bytes]:
    if len(data) % record_len:
        raise VectorFormatError(f"input of {len(data)} bytes is not a multiple of {record_len}")
    return [data[i : i + record_len] for i in range(0, len(data), record_len)]


def decode_scalar(data: bytes) -> int:
    return int.from_bytes(data, "big")


def decode_pairs(C: ModuleType, data: bytes, enc: Encoding, check: bool = True) -> tuple[list, list]:
    """Pairing input: (G1 || G2) records; returns the lists (Ps, Qs)."""
    Ps, Qs = [], []
    for rec in split_records(data, enc.g1_len + enc.g2_len):
        Ps.append(decode_point(C, "G1", rec[: enc.g1_len], enc, check))
        Qs.append(decode_point(C, "G2", rec[enc.g1_len :], enc, check))
    return Ps, Qs


def decode_point_scalar_pairs(
    C: ModuleType, group: str, data: bytes, enc: Encoding
) -> tuple[list, list[int]]:
    """Mul / MSM input: (point || scalar) records; returns (points, scalars)."""
    plen = enc.point_len(group)
    points, scalars = [], []
    for rec in split_records(data, plen + enc.scalar_len):
        points.append(decode_point(C, group, rec[:plen], enc))
        scalars.append(decode_scalar(rec[plen:]))
    return points, scalars


# ------------------------------------------------------------------------------------------------
# Constantine (Sage) JSON coordinates


def sage_coordinate(value: Any) -> int | tuple[int, int]:
    """An Fp coordinate (hex string) or an Fp2 one ({"c0": .., "c1": ..}, c0 real) as the API wants it."""
    if isinstance(value, dict):
        return (parse_int(value["c0"]), parse_int(value["c1"]))
    return parse_int(value)


def fmt(value: Any) -> str:
    """Coordinates for messages: ints in hex, tuples kept (affine points, Fp2 pairs)."""
    if value is None:
        return "identity"
    if isinstance(value, tuple):
        return "(" + ", ".join(fmt(v) for v in value) + ")"
    if isinstance(value, int):
        return hex(value)
    return repr(value)


def hexs(data: bytes, limit: int = 80) -> str:
    text = data.hex()
    return text if len(text) <= limit else f"{text[:limit]}...({len(data)} bytes)"
