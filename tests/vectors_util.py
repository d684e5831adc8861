"""The known-answer vectors in tests/vectors/<set>/, and the decoders of their encodings.

Each set (folder) of tests/vectors has a README.md with its origin, licence, format and case count;
tests/vectors/README.md lists them. A vector file is stored as ``<name>`` or, when it is a text
file over about 100 KB, xz-compressed as ``<name>.xz``: tests read it through ``vector_path`` /
``read_vector_bytes`` / ``read_vector_text`` / ``read_vector_json`` (which open either form) and
never build the path themselves. A missing set or file fails the test with the path
(``pytest.fail``); it is never a skip. The sets a test may name are ``VECTOR_SETS``.

The decoders here implement the *encodings of the vector files* (EIP-196/197, EIP-2539, EIP-3026,
Constantine's JSON), written from their READMEs. They turn bytes into integers and hand the
integers to the curve module's public API (``from_affine(x, y, check=True)``); every validity
decision (canonical field element, on the curve, in the subgroup) is left to the module, which must
raise ``ValueError``. A vector whose own format is broken raises ``VectorFormatError``, which is
deliberately *not* a ``ValueError`` so that it can never be mistaken for the module rejecting input.
"""

from __future__ import annotations

import json
import lzma
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath
from types import ModuleType
from typing import Any

import pytest

VECTORS_DIR = Path(__file__).resolve().parent / "vectors"
VECTOR_SETS = (  # the folders of tests/vectors (tests/pairings/test_vector_sets.py checks both ways)
    "bls12377_bw6761_precompiles_celo",
    "bls12377_hash_to_curve_mmagician",
    "bls12381_serialization_zkcrypto",
    "bls12381_sig_ethereum_bls12-381-tests_v0.1.2",
    "bls48_581_irtf",
    "bls48_581_miracl_h2c",
    "edwards_companions",
    "eip196_197_bn254_precompiles_geth",
    "eip2333_bls_keygen",
    "eip2537_bls12381_precompiles_eips_assets",
    "eip2537_bls12381_precompiles_geth",
    "eip4844_kzg",
    "rfc9380_hash_to_curve_cfrg",
    "scalar_mul_sage_constantine",
    "snarkjs_groth16_bn254",
)


class VectorFormatError(Exception):
    """A vector file does not have the format its README describes (a problem of the test data)."""


# ------------------------------------------------------------------------------------------------
# Files and cases


def find_vector(set_name: str, relpath: str) -> Path | None:
    """tests/vectors/<set>/<relpath> (a file or a folder), else the compressed file <relpath>.xz;
    None when neither exists."""
    path = VECTORS_DIR / set_name / relpath
    if path.exists():
        return path
    packed = path.with_name(path.name + ".xz")
    return packed if packed.is_file() else None


def vector_path(set_name: str, relpath: str = "") -> Path:
    """Where ``relpath`` of a set is stored (``<relpath>`` or ``<relpath>.xz``; a folder as it is),
    or with no relpath the set's folder. A missing set, folder or file fails the test with the path."""
    if set_name not in VECTOR_SETS:
        pytest.fail(f"unknown vector set {set_name!r}: add its folder to tests/vectors and its name to "
                    "VECTOR_SETS in tests/vectors_util.py", pytrace=False)
    path = find_vector(set_name, relpath)
    if path is None:
        where = VECTORS_DIR / set_name / relpath
        pytest.fail(f"known-answer vector {'file' if relpath else 'folder'} missing: {where}"
                    f"{f' (nor {where.name}.xz)' if relpath else ''}", pytrace=False)
    return path


def _stored_packed(path: Path, relpath: str) -> bool:
    """Whether ``path`` (from ``vector_path``) is the xz-compressed copy of ``relpath``."""
    return path.name == Path(relpath).name + ".xz"


def read_vector_bytes(set_name: str, relpath: str) -> bytes:
    """The content of a vector file, decompressed when it is stored as ``<relpath>.xz``."""
    path = vector_path(set_name, relpath)
    data = path.read_bytes()
    return lzma.decompress(data) if _stored_packed(path, relpath) else data


def read_vector_text(set_name: str, relpath: str) -> str:
    return read_vector_bytes(set_name, relpath).decode("utf-8")


def read_vector_json(set_name: str, relpath: str) -> Any:
    return json.loads(read_vector_bytes(set_name, relpath))


@lru_cache(maxsize=None)
def load_json(set_name: str, relpath: str) -> Any:
    """``read_vector_json``, parsed once per process (shared: callers must not modify it)."""
    return read_vector_json(set_name, relpath)


def vector_on_disk(set_name: str, relpath: str, scratch: Path) -> Path:
    """A path to the file's plain content, for code that wants a file name (e.g. a trusted setup):
    the stored file itself, or, when it is stored as ``<relpath>.xz``, a copy decompressed into
    ``scratch`` (once)."""
    path = vector_path(set_name, relpath)
    if not _stored_packed(path, relpath):
        return path
    out = scratch / set_name / relpath
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        part = out.with_name(out.name + ".part")
        part.write_bytes(read_vector_bytes(set_name, relpath))
        part.replace(out)
    return out


def vector_files(set_name: str, folder: str, pattern: str) -> list[str]:
    """Set-relative paths, sorted, of the vector files below ``folder`` of the set (which must exist)
    whose path relative to it matches the glob ``pattern`` (e.g. ``*.json`` or ``verify/*.json``;
    a file stored as ``<name>.xz`` is listed as ``<name>``)."""
    base = vector_path(set_name, folder)
    found = {p.relative_to(base).as_posix().removesuffix(".xz") for p in base.glob(pattern + "*") if p.is_file()}
    return sorted(f"{folder}/{rel}" if folder else rel for rel in found if PurePosixPath(rel).match(pattern))


@dataclass(frozen=True)
class MissingVector:
    """The one parameter ``collect_cases`` gives when its file is missing (the test then fails)."""

    set_name: str
    relpath: str


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


def collect_cases(set_name: str, filename: str) -> list[Any]:
    """``pytest.param(case, id=name)`` for every case of ``tests/vectors/<set>/<filename>``.

    Runs at collection time. When the file is missing there is nothing to enumerate: one
    placeholder parameter (a ``MissingVector``) is returned, and ``require_case`` fails the test
    with the path.
    """
    if find_vector(set_name, filename) is None:
        return [pytest.param(MissingVector(set_name, filename), id=f"{filename}-missing")]
    seen: dict[str, int] = {}
    params = []
    for index, case in enumerate(load_json(set_name, filename)):
        name = case_name(case, index)
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:  # keep ids unique
            name = f"{name}#{seen[name]}"
        params.append(pytest.param(case, id=name))
    return params


def require_case(case: Any) -> Any:
    """A case of ``collect_cases``; its placeholder for a missing file fails the test with the path."""
    if isinstance(case, MissingVector):
        vector_path(case.set_name, case.relpath)  # fails
    return case


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
