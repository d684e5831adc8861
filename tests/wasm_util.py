"""What the wasm32 tests share (tests/wasm/): the ABI modules built once per content hash into
build/wasm-cache/ (``cached_wasm``), wasmtime as a WASI runner, the curve file of a package, the
points outside the subgroup that the bad-input checks feed, the ark-vrf suites of the Edwards
packages and which of those packages run by default. Needs ziglang and wasmtime (the `wasm`
extra): ``require_wasm`` skips without them locally and fails under CI."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from build_cache import file_lock
from conftest import REPO_ROOT, skip_or_fail

from generator import wasm

CACHE = REPO_ROOT / "build" / "wasm-cache"


def require_wasm() -> None:
    """Skip (locally) or fail (under CI) without ziglang and wasmtime."""
    try:
        import wasmtime  # noqa: F401
        import ziglang  # noqa: F401
    except ImportError as exc:
        skip_or_fail(f"the wasm tests need ziglang and wasmtime (pip install -e '.[wasm]'): {exc}")


def cached_wasm(pkg_dir: Path, limb_bits: int = wasm.DEFAULT_LIMB_BITS) -> Path:
    """The ABI module of a package, built once per content hash (shared by the test modules)."""
    require_wasm()
    path = CACHE / f"{pkg_dir.name}-{limb_bits}-{wasm.source_digest(pkg_dir, limb_bits)}.wasm"
    if not path.is_file():
        # under xdist the tests of one curve run on both workers at once: one builds, the other waits
        CACHE.mkdir(parents=True, exist_ok=True)
        with file_lock(path.with_name(path.name + ".lock")):
            if not path.is_file():
                wasm.build_wasm(pkg_dir, path, limb_bits)
    return path


def curve_file(pkg: str) -> Path:
    """The file under curves/ that makes the package ``pkg``."""
    from generator.params import load_curve_file

    for path in sorted((REPO_ROOT / "curves").glob("*.toml")):
        if load_curve_file(path).package == pkg:
            return path
    raise LookupError(pkg)


def run_wasi(binary: Path, requests: str) -> list[str]:
    """Run a WASI command under wasmtime with requests on stdin; its stdout lines."""
    import wasmtime

    engine = wasmtime.Engine()
    module = wasmtime.Module.from_file(engine, str(binary))
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    store = wasmtime.Store(engine)
    with tempfile.TemporaryDirectory(prefix="pairforge-wasi-") as tmp:
        stdin, stdout = Path(tmp) / "in", Path(tmp) / "out"
        stdin.write_text(requests)
        config = wasmtime.WasiConfig()
        config.stdin_file = str(stdin)
        config.stdout_file = str(stdout)
        config.inherit_stderr()
        store.set_wasi(config)
        instance = linker.instantiate(store, module)
        try:
            instance.exports(store)["_start"](store)
        except wasmtime.ExitTrap as exc:
            assert exc.code == 0, f"{binary.name} exited with {exc.code}"
        return stdout.read_text().splitlines()


def flag_bits(C) -> int:
    """The flag bits of the default profile's compressed encoding (zcash: 3; the others: 2)."""
    return 3 if C.DEFAULT_PROFILE == "zcash" else 2


def flag_index(C, encoding: bytes) -> int:
    """Where the default profile keeps the flags of ``encoding``: byte 0 (zcash, gnark: big-endian)
    or the last byte (arkworks: little-endian, the flags at the top of the last byte, in a byte of
    their own when they do not fit)."""
    return len(encoding) - 1 if C.DEFAULT_PROFILE == "arkworks" else 0


def byte_order(C) -> str:
    return "little" if C.DEFAULT_PROFILE == "arkworks" else "big"


def with_flags_of(C, data: bytes, template: bytes) -> bytes:
    """``data`` with the flag bits of ``template`` (the same length) in the flag byte."""
    out, at = bytearray(data), flag_index(C, template)
    keep = 0xFF >> flag_bits(C)
    out[at] = (out[at] & keep) | (template[at] & ~keep & 0xFF)
    return bytes(out)


def random_compressed(C, G, rng: random.Random) -> tuple[bytes, str]:
    """A compressed encoding of a random x with the flags of a real point, and what the Python
    module's unchecked decoder makes of it: "none" (no point), "outside" (a point outside the
    subgroup) or "inside"."""
    width = len(C.Fp(0).to_bytes())
    template = G.generator().to_bytes()
    data = b"".join(rng.randrange(C.P).to_bytes(width, byte_order(C)) for _ in range(len(template) // width))
    data = with_flags_of(C, data.ljust(len(template), b"\0"), template)
    try:
        pt = G.from_bytes(data, check=False)
    except ValueError as exc:
        assert "not a square" in str(exc), exc
        return data, "none"
    return data, "inside" if pt.in_subgroup() else "outside"


def point_outside_subgroup(C, G) -> bytes | None:
    """A point on the curve outside the subgroup of order r (compressed); None when the cofactor
    is 1 (the first point found is in the subgroup)."""
    rng = random.Random(f"outside-{C.NAME}-{G.__name__}")
    for _ in range(400):
        data, kind = random_compressed(C, G, rng)
        if kind != "none":
            return data if kind == "outside" else None
    return None



# The Edwards packages whose wasm tests run by default (GLV, SWPoint, three VRF suites; 6 limbs);
# the others with --runslow
EDWARDS_DEFAULT = ("bandersnatch", "ed_on_bw6_761")
# ark-vrf vector file prefix -> (package, suite)
VRF_SUITES = {
    "bandersnatch_sha-512_ell2": ("bandersnatch", "Bandersnatch-SHA512-ELL2-v1"),
    "bandersnatch_shake128_ell2": ("bandersnatch", "Bandersnatch-SHAKE128-ELL2-v1"),
    "bandersnatch_sw_sha-512_tai": ("bandersnatch", "Bandersnatch-SW-SHA512-TAI-v1"),
    "jubjub_sha-512_tai": ("jubjub", "JubJub-SHA512-TAI-v1"),
    "baby-jubjub_sha-512_tai": ("babyjubjub", "BabyJubJub-SHA512-TAI-v1"),
}


def edwards_params(packages) -> list:
    """pytest params of Edwards packages: those of EDWARDS_DEFAULT as they are, the others slow."""
    return [pytest.param(p, marks=[] if p in EDWARDS_DEFAULT else [pytest.mark.slow]) for p in sorted(packages)]


# Ethereum's BLS signature vectors (tests/vectors/<ETH>)
ETH = "bls12381_sig_ethereum_bls12-381-tests_v0.1.2"
