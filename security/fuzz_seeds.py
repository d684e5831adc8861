"""Seeds for the fuzz targets: each target's own valid encodings plus byte strings from the
known-answer vectors in tests/vectors (VECTORS_DIR; read in place).

The vectors are harvested without knowing their formats: every hex string in a JSON file and
every binary .dat file becomes a blob; a target takes the blobs (and the aligned slices of longer
blobs) whose length it can accept.  Hash-to-curve vectors contribute their (dst, msg) pairs in the
layout of the hash_to_curve targets.  A file stored xz-compressed (``NAME.json.xz``, ``NAME.dat.xz``)
is decompressed in memory and read like ``NAME``; archives (``.tar.xz``: the KZG suite, YAML) and
other files (``trusted_setup.txt.xz``) are not harvested.  The folder ships with the repository:
a missing one is an error (FileNotFoundError), not an empty seed set.

Layer: tools (security/), above the generator: imports the generator, the generated packages and
security's own modules; the generator never imports it.
"""

from __future__ import annotations

import json
import lzma
import random
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from security.fuzz_targets import Target

HEX = re.compile(r"^(0x)?([0-9a-fA-F]{2})+$")
VECTORS_DIR = Path(__file__).resolve().parents[1] / "tests" / "vectors"
MAX_VECTOR_SEEDS = 64  # per target: enough to reach every decoder branch the vectors exercise


def _strings(node: object) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def _h2c_pairs(node: object) -> Iterator[bytes]:
    """(dst, msg) from RFC 9380-style files, as len(dst) || dst || msg."""
    if isinstance(node, dict) and isinstance(node.get("dst"), str) and isinstance(node.get("vectors"), list):
        dst = node["dst"].encode()[:255]
        for v in node["vectors"]:
            if isinstance(v, dict) and isinstance(v.get("msg"), str):
                yield bytes([len(dst)]) + dst + v["msg"].encode()


def _vector_files(root: Path) -> Iterator[tuple[str, bytes]]:
    """(suffix, content) of every .dat and .json file under root, sorted by path; ``NAME.xz``
    is decompressed and counts as ``NAME`` (so ``.tar.xz`` archives and ``.txt.xz`` are skipped)."""
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        packed = path.suffix == ".xz"
        suffix = Path(path.stem).suffix if packed else path.suffix
        if suffix not in (".dat", ".json"):
            continue
        data = path.read_bytes()
        yield suffix, lzma.decompress(data) if packed else data


@lru_cache(maxsize=4)
def vector_blobs(root: str) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """(every hex string or .dat file as bytes, hash-to-curve seeds) under the vectors folder,
    which must exist (FileNotFoundError otherwise)."""
    if not Path(root).is_dir():
        raise FileNotFoundError(
            f"fuzz seeds: the vectors folder {root} is missing (it ships with the repository)"
        )
    blobs: dict[bytes, None] = {}
    h2c: dict[bytes, None] = {}
    for suffix, data in _vector_files(Path(root)):
        if suffix == ".dat":
            blobs[data] = None
        else:
            try:
                doc = json.loads(data.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                continue
            for s in _strings(doc):
                if len(s) >= 16 and HEX.match(s):
                    blobs[bytes.fromhex(s[2:] if s.startswith("0x") else s)] = None
            h2c.update(dict.fromkeys(_h2c_pairs(doc)))
    return tuple(blobs), tuple(h2c)


def seeds_for(target: Target, vectors: Path = VECTORS_DIR) -> list[bytes]:
    """The target's own seeds, then vector blobs of an acceptable length (at most MAX_VECTOR_SEEDS)
    from the vectors folder (tests/vectors unless given; a missing folder raises FileNotFoundError)."""
    out = dict.fromkeys(target.seeds)
    blobs, h2c = vector_blobs(str(vectors))
    extra: dict[bytes, None] = {}
    if "_to_curve" in target.name:
        extra.update(dict.fromkeys(h2c))
    for blob in blobs:
        for n in target.lengths:
            if len(blob) == n:
                extra[blob] = None
            elif len(blob) > n and len(blob) % n == 0:
                extra.update(dict.fromkeys(blob[i : i + n] for i in range(0, len(blob), n)))
    picked = list(extra)
    if len(picked) > MAX_VECTOR_SEEDS:  # an even sample over every vector folder, the same each run
        picked = random.Random(target.name).sample(picked, MAX_VECTOR_SEEDS)
    out.update(dict.fromkeys(picked))
    return list(out)
