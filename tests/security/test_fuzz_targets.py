"""The fuzz targets (security/fuzz_targets.py) on their seeds and a fixed sample of mutations:
every byte-level entry point of every curve rejects bad input with ValueError/TypeError only and
returns correct, round-tripping values for what it accepts.  The long, coverage-guided run is
`nox -s fuzz -- SECONDS` (security/fuzz.py); this is its fast, deterministic part, so the harness
itself is always tested.  Under `nox -s sanitize` the same inputs run on the ASan/UBSan build.
The table includes every import of each package's wasm32 host (security/fuzz_host_calls.py).
"""

from __future__ import annotations

import importlib

import pytest
from conftest import edwards_packages, generated_packages

from security.fuzz import replay, vectors_dir
from security.fuzz_seeds import seeds_for
from security.fuzz_targets import targets_for

MUTATIONS = 60


def _require_host_targets(C, names: set[str]) -> None:
    """Every import of the package's wasm32 host (generated.<pkg>.wasm_host) is a target
    (security/fuzz_host_calls.py): fed fuzzer bytes directly and through a guest under wasmtime."""
    host = importlib.import_module(f"{C.__name__}.wasm_host")
    assert host.IMPORTS
    for name in host.IMPORTS:
        assert f"wasm_host.{name}" in names, sorted(names)


@pytest.mark.parametrize("pkg", generated_packages() or ["none"])
def test_fuzz_targets_replay(curve_module, pkg: str) -> None:
    C = curve_module(pkg)
    targets = targets_for(C)
    names = {t.name.split(" ", 1)[1] for t in targets}
    # every decoder the module has is in the table
    for required in ("Fp.from_bytes", "Fr.from_bytes", "GT.from_bytes", "G1.from_bytes(check)",
                     "G2.from_bytes(check)", "G1.msm", "G2.msm"):  # fmt: skip
        assert required in names, sorted(names)
    _require_host_targets(C, names)
    for t in targets:
        assert seeds_for(t, vectors_dir()), f"{t.name} has no seeds"
    stats = replay(targets, MUTATIONS)
    for name, (runs, accepted) in stats.items():
        assert accepted > 0, f"{name}: no input was accepted: the seeds are not valid encodings"
        if not name.endswith(".msm"):
            assert accepted < runs, f"{name}: every input was accepted: the mutations do not reach the checks"


@pytest.mark.parametrize("pkg", edwards_packages() or ["none"])
def test_fuzz_targets_replay_edwards(curve_module, pkg: str) -> None:
    """The same on the twisted Edwards companion modules (one group, Point; base field Fq)."""
    C = curve_module(pkg)
    targets = targets_for(C)
    names = {t.name.split(" ", 1)[1] for t in targets}
    for required in ("Fq.from_bytes", "Fr.from_bytes", "Point.from_bytes(check)", "Point.from_affine", "Point.msm",
                     "Point.from_bytes(check, profile='zcash')"):  # fmt: skip
        assert required in names, sorted(names)
    if hasattr(C, "SWPoint"):  # SWPoint's decoder, both forms, with and without the subgroup check
        for compressed in (True, False):
            for check in (True, False):
                assert f"SWPoint.from_bytes(compressed={compressed}, check={check})" in names, sorted(names)
    _require_host_targets(C, names)
    stats = replay(targets, MUTATIONS)
    for name, (runs, accepted) in stats.items():
        assert accepted > 0, f"{name}: no input was accepted: the seeds are not valid encodings"
        if not name.endswith(".msm"):
            assert accepted < runs, f"{name}: every input was accepted: the mutations do not reach the checks"
