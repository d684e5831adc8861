"""A Python loader of a curve's WebAssembly module over ``wasmtime`` (PyPI), for the tests and
bench/wasm.py: the byte-level ABI of templates/c/wasm_abi.c.j2 (a pairing curve: ``WasmCurve``) or
of templates/c/edwards_wasm_abi.c.j2 (a twisted Edwards package: ``WasmEdwards``) as Python methods.

The module keeps no heap: every call copies its inputs into the module's memory above
``__heap_base`` (growing the memory when needed), calls the function and reads the output back.
A call returns its output bytes, or raises ``WasmAbiError`` carrying the ABI's error code.  The
output buffer is zeroed and the scratch area is not: the ABI's functions never read scratch
before writing it.

Calls go through wasmtime's unchecked entry point (``_RawExport``) where the installed wasmtime
has it: ``Func.__call__`` converts and type-checks every argument on every call, which costs more
than the rest of a small operation's entry from Python.

Layer: leaf. Imports the standard library only, no module of the generator.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

# The ABI's error codes (templates/c/wasm_abi.c.j2), by name
ERRORS = {
    1: "length", 2: "flags", 3: "infinity with other bits", 4: "padding", 5: "non-canonical coordinate",
    6: "not on the curve (x^3 + b is not a square)", 7: "sign flag with y = 0", 8: "not on the curve",
    9: "not in the subgroup", 10: "scratch too small", 11: "empty DST", 12: "identity key or signature",
    13: "secret key or public input out of range", 14: "no precompile at this address",
}
# The error codes of a twisted Edwards package's ABI (templates/c/edwards_wasm_abi.c.j2)
EDWARDS_ERRORS = {
    1: "length", 2: "flags", 3: "identity with a non-zero coordinate", 5: "non-canonical coordinate",
    6: "no point with this coordinate", 7: "sign bit on a zero coordinate", 8: "not on the curve",
    9: "not in the subgroup", 10: "scratch too small", 11: "empty DST", 12: "the identity",
    13: "secret key or proof scalar out of range", 15: "unknown profile or suite", 16: "hash to curve found no point",
}


class WasmAbiError(ValueError):
    """A function of the ABI returned an error code (``code``)."""

    def __init__(self, function: str, code: int, errors: dict[int, str] = ERRORS) -> None:
        self.code = code
        super().__init__(f"{function}: error {code} ({errors.get(code, 'unknown')})")


class _RawExport:
    """An export whose parameters and result are all i32, called through
    ``wasmtime_func_call_unchecked`` with one argument array reused across calls.  ``Func.__call__``
    builds a ``Val`` per argument and checks it against the function's type on every call (about
    45 µs of a six-argument call on the development machine); this checks the type once, here, and
    then only fills the array (about 2 µs).  Traps and errors are raised as ``Func.__call__`` raises
    them."""

    def __init__(self, wasmtime: Any, store: Any, func: Any) -> None:
        from wasmtime import _ffi, _func

        ty = func.type(store)
        i32 = wasmtime.ValType.i32()
        if any(t != i32 for t in ty.params) or [t for t in ty.results] != [i32]:
            raise TypeError("only functions of i32 parameters and one i32 result")
        self._ffi, self._enter = _ffi, _func.enter_wasm
        self._store, self._func = store, ctypes.byref(func._func)
        self._params = len(ty.params)
        self._raw = (_ffi.wasmtime_val_raw_t * max(self._params, 1))()
        self._error = wasmtime.WasmtimeError

    def __call__(self, *args: int) -> int:
        if len(args) != self._params:
            raise TypeError(f"{self._params} arguments expected, {len(args)} given")
        raw = self._raw
        for i, value in enumerate(args):
            raw[i].i32 = value if value < 1 << 31 else value - (1 << 32)
        with self._enter(self._store) as trap:
            error = self._ffi.wasmtime_func_call_unchecked(self._store._context(), self._func, raw, self._params, trap)
            if error:
                raise self._error._from_ptr(error)
        return raw[0].i32


def _raw_exports_available() -> bool:
    """Whether this wasmtime has the unchecked call and the internals ``_RawExport`` reads."""
    try:
        from wasmtime import _ffi, _func
    except ImportError:
        return False
    return all(hasattr(_ffi, n) for n in ("wasmtime_func_call_unchecked", "wasmtime_val_raw_t")) and hasattr(
        _func, "enter_wasm")


class _WasmModule:
    """One instance of a module of the byte-level ABI: its memory and the calling convention
    (output first, explicit lengths, integer parameters after the inputs, scratch last)."""

    PAGE = 65536
    ERRORS = ERRORS

    def __init__(self, path: Path | str, engine=None, fuel: int | None = None, host=None, raw_calls: bool = True) -> None:
        """``fuel``: meter the instance (one unit per executed wasm instruction, read back with
        ``fuel_used``) starting from that much; then ``engine`` must not be given.  ``host``: the
        host of a host-call build (``generated.<pkg>.wasm_host``, or any object whose
        ``define(linker)`` defines the imports of docs/host-calls.md).  ``raw_calls``: call the ABI
        through ``_RawExport`` (False: through ``Func.__call__``, the public and slower path, which
        the tests compare it with)."""
        import wasmtime

        self._wt = wasmtime
        if fuel is not None:
            if engine is not None:
                raise ValueError("fuel metering needs an engine of its own")
            config = wasmtime.Config()
            config.consume_fuel = True
            engine = wasmtime.Engine(config)
        self.engine = engine or wasmtime.Engine()
        self.module = wasmtime.Module.from_file(self.engine, str(path))
        self.store = wasmtime.Store(self.engine)
        self._fuel = fuel
        if fuel is not None:
            self.store.set_fuel(fuel)
        if host is None:
            self.instance = wasmtime.Instance(self.store, self.module, [])
        else:
            linker = wasmtime.Linker(self.engine)
            host.define(linker)
            self.instance = linker.instantiate(self.store, self.module)
        self.exports = self.instance.exports(self.store)
        self.memory = self.exports["memory"]
        self.heap_base = self.exports["__heap_base"].value(self.store)
        self._pages = self.memory.size(self.store)
        self._raw_calls = raw_calls and _raw_exports_available()
        self._calls: dict[str, Any] = {}

    def _export(self, name: str) -> Any:
        """The callable of ABI function ``name``, made once."""
        fn = self._calls.get(name)
        if fn is None:
            func = self.exports[name]
            if self._raw_calls:
                fn = _RawExport(self._wt, self.store, func)
            else:
                def fn(*args: int, func=func) -> int:
                    return func(self.store, *args)
            self._calls[name] = fn
        return fn

    def _size(self, name: str) -> int:
        return self.exports[name](self.store)

    def fuel_used(self) -> int:
        """Wasm instructions executed so far by a metered instance (``fuel`` given)."""
        if self._fuel is None:
            raise ValueError("this instance is not metered (pass fuel=)")
        return self._fuel - self.store.get_fuel()

    # -- memory -------------------------------------------------------------------------------
    def _base(self) -> int:
        """The address of the memory's first byte (valid until the memory grows)."""
        return ctypes.addressof(self.memory.data_ptr(self.store).contents)

    def _place(self, chunks: list[bytes | int], zeroed: int | None = None) -> list[int]:
        """Copy each bytes chunk (or reserve an int's worth of bytes) above __heap_base, 64-byte
        aligned; returns their addresses.  A reserved chunk is zeroed when its index is below
        ``zeroed`` (None: every one), and otherwise left as the memory holds it."""
        addrs, at = [], self.heap_base
        for chunk in chunks:
            at = (at + 63) & ~63
            addrs.append(at)
            at += chunk if isinstance(chunk, int) else len(chunk)
        need = -(-at // self.PAGE)
        if need > self._pages:
            # the count read again first: the guest may have grown its memory itself
            self._pages = self.memory.size(self.store)
            if need > self._pages:
                self.memory.grow(self.store, need - self._pages)
                self._pages = need
        base = self._base()
        for i, (addr, chunk) in enumerate(zip(addrs, chunks, strict=True)):
            if isinstance(chunk, int):
                if zeroed is None or i < zeroed:
                    ctypes.memset(base + addr, 0, chunk)
            elif chunk:
                ctypes.memmove(base + addr, chunk, len(chunk))
        return addrs

    def _read(self, addr: int, n: int) -> bytes:
        return ctypes.string_at(self._base() + addr, n)

    def _invoke(self, name: str, out_len: int | None, inputs: tuple[bytes, ...], extra: tuple[int, ...] = (),
                scratch: int = 0) -> bytes:
        """Marshal and call ``name(out[, out_len], in_1, len_1, ..., *extra[, scratch, scratch_len])``;
        ``out_len`` None: a one-byte result with no length argument.  Returns the output bytes, or
        raises WasmAbiError on an error code."""
        size = 1 if out_len is None else out_len
        chunks: list[bytes | int] = [max(size, 1), *inputs] + ([scratch] if scratch else [])
        addrs = self._place(chunks, zeroed=1 + len(inputs))
        args: list[int] = [addrs[0]] if out_len is None else [addrs[0], out_len]
        for addr, data in zip(addrs[1 : 1 + len(inputs)], inputs, strict=True):
            args += [addr, len(data)]
        args += list(extra)
        if scratch:
            args += [addrs[-1], scratch]
        code = self._export(name)(*args)
        if code:
            raise WasmAbiError(name, code, self.ERRORS)
        return self._read(addrs[0], size)

    def call(self, name: str, out_len: int, *inputs: bytes, extra: tuple[int, ...] = (), scratch: int = 0) -> bytes:
        """Call ``name(out, out_len, in_1, len_1, ..., *extra[, scratch, scratch_len])``."""
        return self._invoke(name, out_len, inputs, extra, scratch)

    def _flag_call(self, name: str, *inputs: bytes, extra: tuple[int, ...] = (), scratch: int = 0) -> bool:
        """Functions whose output is one result byte (no out_len argument)."""
        return self._invoke(name, None, inputs, extra, scratch) == b"\x01"


class WasmCurve(_WasmModule):
    """One instance of a pairing curve's ``<pkg>.wasm``."""

    def __init__(self, path: Path | str, engine=None, fuel: int | None = None, host=None, raw_calls: bool = True) -> None:
        super().__init__(path, engine, fuel, host, raw_calls)
        size = self._size
        self.g1_compressed, self.g1_uncompressed = size("pf_size_g1_compressed"), size("pf_size_g1_uncompressed")
        self.g2_compressed, self.g2_uncompressed = size("pf_size_g2_compressed"), size("pf_size_g2_uncompressed")
        self.scalar_size, self.gt_size = size("pf_size_scalar"), size("pf_size_gt")

    # -- the ABI ------------------------------------------------------------------------------
    def _len(self, group: int, compressed: bool) -> int:
        if group == 1:
            return self.g1_compressed if compressed else self.g1_uncompressed
        return self.g2_compressed if compressed else self.g2_uncompressed

    def add(self, group: int, a: bytes, b: bytes, compressed: bool = True) -> bytes:
        return self.call(f"pf_g{group}_add_vartime", self._len(group, compressed), a, b)

    def mul(self, group: int, a: bytes, k: bytes, compressed: bool = True) -> bytes:
        return self.call(f"pf_g{group}_mul", self._len(group, compressed), a, k)

    def decode(self, group: int, data: bytes, compressed: bool = False) -> bytes:
        return self.call(f"pf_g{group}_decode_vartime", self._len(group, compressed), data)

    def msm(self, group: int, points: list[bytes], scalars: list[bytes], compressed: bool = True) -> bytes:
        n = len(points)
        scratch = self.exports[f"pf_g{group}_msm_scratch_size"](self.store, n)
        return self.call(f"pf_g{group}_msm_vartime", self._len(group, compressed), b"".join(points), b"".join(scalars),
                         extra=(n,), scratch=scratch)

    def pairing(self, p: bytes, q: bytes) -> bytes:
        return self.call("pf_pairing_vartime", self.gt_size, p, q)

    def pairing_check(self, ps: list[bytes], qs: list[bytes]) -> bool:
        n = len(ps)
        scratch = self.exports["pf_pairing_check_scratch_size"](self.store, n)
        return self._flag_call("pf_pairing_check_vartime", b"".join(ps), b"".join(qs), extra=(n,), scratch=scratch)

    def hash_to_curve(self, group: int, msg: bytes, dst: bytes, compressed: bool = True) -> bytes:
        return self.call(f"pf_g{group}_hash_to_curve_vartime", self._len(group, compressed), msg, dst)

    def bls_verify(self, variant: str, pk: bytes, msg: bytes, sig: bytes, dst: bytes) -> bool:
        """``variant``: "minpk" or "minsig" (curves that carry BLS signatures)."""
        return self._flag_call(f"pf_bls_verify_{variant}_vartime", pk, msg, sig, dst)

    def bls_fast_aggregate_verify(self, variant: str, pks: list[bytes], msg: bytes, sig: bytes, dst: bytes) -> bool:
        """FastAggregateVerify of one message under every key of ``pks`` (all of one length)."""
        name = f"pf_bls_fast_aggregate_verify_{variant}_vartime"
        keys = b"".join(pks)
        result, a_keys, a_msg, a_sig, a_dst = self._place([1, keys, msg, sig, dst])
        code = self._export(name)(result, a_keys, len(keys), len(pks), a_msg, len(msg), a_sig, len(sig),
                                  a_dst, len(dst))
        if code:
            raise WasmAbiError(name, code)
        return self._read(result, 1) == b"\x01"

    def bls_sign(self, variant: str, sk: bytes, msg: bytes, dst: bytes, compressed: bool = True) -> bytes:
        """[sk] H(msg) (``sk``: the scalar's bytes, big-endian, in [1, r)); constant time in sk."""
        group = 2 if variant == "minpk" else 1
        return self.call(f"pf_bls_sign_{variant}", self._len(group, compressed), sk, msg, dst)

    def bls_aggregate_verify(self, variant: str, pks: list[bytes], msgs: list[bytes], sig: bytes, dst: bytes) -> bool:
        """AggregateVerify: ``sig`` aggregates signatures of ``msgs[i]`` under ``pks[i]``."""
        name = f"pf_bls_aggregate_verify_{variant}_vartime"
        n = len(pks)
        keys, text = b"".join(pks), b"".join(msgs)
        lens = b"".join(len(m).to_bytes(4, "little") for m in msgs)
        scratch = self.exports[f"pf_bls_aggregate_verify_{variant}_scratch_size"](self.store, n)
        result, a_keys, a_msgs, a_lens, a_sig, a_dst, a_scratch = self._place([1, keys, text, lens, sig, dst, scratch],
                                                                             zeroed=1)
        code = self._export(name)(result, a_keys, len(keys), n, a_msgs, len(text), a_lens, len(lens), a_sig,
                                  len(sig), a_dst, len(dst), a_scratch, scratch)
        if code:
            raise WasmAbiError(name, code)
        return self._read(result, 1) == b"\x01"

    def groth16_verify(self, vk: bytes, proof: bytes, inputs: list[bytes]) -> bool:
        """Groth16: ``vk`` and ``proof`` as groth16.VerifyingKey/Proof.to_bytes, ``inputs`` the public
        inputs as scalars of pf_size_scalar() bytes, big-endian."""
        return self._flag_call("pf_groth16_verify_vartime", vk, proof, b"".join(inputs))

    def evm(self, protocol: str, address: int, data: bytes) -> bytes:
        """Run the precompile at ``address`` of the EVM precompile set ``protocol`` (e.g. "eip2537")."""
        out_len = self.exports[f"pf_{protocol}_output_size"](self.store, address)
        scratch = self.exports[f"pf_{protocol}_scratch_size"](self.store, address, len(data))
        name = f"pf_{protocol}_run_vartime"
        out, a_in, a_scratch = self._place([max(out_len, 1), data, max(scratch, 1)], zeroed=1)
        code = self._export(name)(out, out_len, address, a_in, len(data), a_scratch, scratch)
        if code:
            raise WasmAbiError(name, code)
        return self._read(out, out_len)


class WasmEdwards(_WasmModule):
    """One instance of a twisted Edwards package's ``<pkg>.wasm`` (templates/c/edwards_wasm_abi.c.j2).

    Points of the Edwards model in the package's serialization profiles (``profiles``, the names of
    SERIALIZATION_PROFILES in their order; None: the default), scalars of ``scalar_size`` bytes
    little-endian; SWPoint's arkworks encoding where the package has it (``has_sw``); ark-vrf's
    VRF by suite name where it has the ecvrf protocol (``suites``)."""

    ERRORS = EDWARDS_ERRORS

    def __init__(self, path: Path | str, profiles: list[str] | tuple[str, ...], suites: list[str] | tuple[str, ...] = (),
                 engine=None, fuel: int | None = None, host=None, raw_calls: bool = True) -> None:
        super().__init__(path, engine, fuel, host, raw_calls)
        size = self._size
        self.profiles, self.suites = list(profiles), list(suites)
        self.te_compressed, self.te_uncompressed = size("pf_size_te_compressed"), size("pf_size_te_uncompressed")
        self.scalar_size = size("pf_size_scalar")
        self.default_profile = self.profiles[size("pf_te_default_profile")]
        self.has_sw = "pf_size_sw_compressed" in self.exports
        if self.has_sw:
            self.sw_compressed, self.sw_uncompressed = size("pf_size_sw_compressed"), size("pf_size_sw_uncompressed")

    def _te(self, compressed: bool) -> int:
        return self.te_compressed if compressed else self.te_uncompressed

    def _sw(self, compressed: bool) -> int:
        return self.sw_compressed if compressed else self.sw_uncompressed

    def profile_index(self, profile: str | int | None) -> int:
        """A profile's index (an int passes unchanged, so that tests can pass unknown ones)."""
        if isinstance(profile, int):
            return profile
        return self.profiles.index(self.default_profile if profile is None else profile)

    def suite_index(self, suite: str | int | None) -> int:
        if isinstance(suite, int):
            return suite
        return 0 if suite is None else self.suites.index(suite)

    # -- the Edwards model ----------------------------------------------------------------------
    def generator(self, compressed: bool = True) -> bytes:
        return self.call("pf_te_generator", self._te(compressed))

    def decode(self, data: bytes, profile=None, out_profile=None, compressed: bool = True) -> bytes:
        i = self.profile_index(profile)
        o = i if out_profile is None else self.profile_index(out_profile)
        return self.call("pf_te_decode_vartime", self._te(compressed), data, extra=(i, o))

    def from_affine(self, x: bytes, y: bytes, profile=None, compressed: bool = True) -> bytes:
        return self.call("pf_te_from_affine_vartime", self._te(compressed), x + y, extra=(self.profile_index(profile),))

    def to_affine(self, data: bytes, profile=None) -> tuple[bytes, bytes]:
        xy = self.call("pf_te_to_affine_vartime", 2 * self.te_compressed, data, extra=(self.profile_index(profile),))
        return xy[: self.te_compressed], xy[self.te_compressed :]

    def add(self, a: bytes, b: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_te_add_vartime", self._te(compressed), a, b)

    def mul(self, a: bytes, k: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_te_mul", self._te(compressed), a, k)

    def mul_vartime(self, a: bytes, k: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_te_mul_vartime", self._te(compressed), a, k)

    def msm(self, points: list[bytes], scalars: list[bytes], compressed: bool = True, scratch: int | None = None) -> bytes:
        """``scratch``: the scratch length to pass (default pf_te_msm_scratch_size(n))."""
        n = len(points)
        need = self.exports["pf_te_msm_scratch_size"](self.store, n) if scratch is None else scratch
        return self.call("pf_te_msm_vartime", self._te(compressed), b"".join(points), b"".join(scalars), extra=(n,),
                         scratch=need)

    def hash_to_curve(self, msg: bytes, dst: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_te_hash_to_curve_vartime", self._te(compressed), msg, dst)

    def encode_to_curve(self, msg: bytes, dst: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_te_encode_to_curve_vartime", self._te(compressed), msg, dst)

    # -- the short Weierstrass model (SWPoint) ----------------------------------------------------
    def sw_generator(self, compressed: bool = True) -> bytes:
        return self.call("pf_sw_generator", self._sw(compressed))

    def sw_decode(self, data: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_sw_decode_vartime", self._sw(compressed), data)

    def sw_from_affine(self, x: bytes, y: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_sw_from_affine_vartime", self._sw(compressed), x + y)

    def sw_to_affine(self, data: bytes) -> tuple[bytes, bytes]:
        xy = self.call("pf_sw_to_affine_vartime", 2 * self.te_compressed, data)
        return xy[: self.te_compressed], xy[self.te_compressed :]

    def sw_from_te(self, data: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_sw_from_te_vartime", self._sw(compressed), data)

    def sw_to_te(self, data: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_sw_to_te_vartime", self._te(compressed), data)

    def sw_add(self, a: bytes, b: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_sw_add_vartime", self._sw(compressed), a, b)

    def sw_mul(self, a: bytes, k: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_sw_mul", self._sw(compressed), a, k)

    def sw_mul_vartime(self, a: bytes, k: bytes, compressed: bool = True) -> bytes:
        return self.call("pf_sw_mul_vartime", self._sw(compressed), a, k)

    def sw_msm(self, points: list[bytes], scalars: list[bytes], compressed: bool = True, scratch: int | None = None) -> bytes:
        n = len(points)
        need = self.exports["pf_sw_msm_scratch_size"](self.store, n) if scratch is None else scratch
        return self.call("pf_sw_msm_vartime", self._sw(compressed), b"".join(points), b"".join(scalars), extra=(n,),
                         scratch=need)

    # -- ark-vrf's VRF ----------------------------------------------------------------------------
    def _vrf_size(self, what: str, suite) -> tuple[int, int]:
        i = self.suite_index(suite)
        return i, self.exports[f"pf_ecvrf_{what}_size"](self.store, i)

    def vrf_public_key(self, sk: bytes, suite=None) -> bytes:
        i, n = self._vrf_size("point", suite)
        return self.call("pf_ecvrf_public_key", n, sk, extra=(i,))

    def vrf_output(self, sk: bytes, alpha: bytes, suite=None) -> bytes:
        i, n = self._vrf_size("point", suite)
        return self.call("pf_ecvrf_output", n, sk, alpha, extra=(i,))

    def vrf_prove(self, sk: bytes, alpha: bytes, ad: bytes = b"", suite=None) -> bytes:
        i, n = self._vrf_size("proof", suite)
        return self.call("pf_ecvrf_prove", n, sk, alpha, ad, extra=(i,))

    def vrf_prove_thin(self, sk: bytes, alpha: bytes, ad: bytes = b"", suite=None) -> bytes:
        i, n = self._vrf_size("thin_proof", suite)
        return self.call("pf_ecvrf_prove_thin", n, sk, alpha, ad, extra=(i,))

    def vrf_verify(self, pk: bytes, alpha: bytes, ad: bytes, pi: bytes, suite=None) -> bool:
        """True or False for a well-formed proof; WasmAbiError for malformed data."""
        return self._flag_call("pf_ecvrf_verify_vartime", pk, alpha, ad, pi, extra=(self.suite_index(suite),))

    def vrf_verify_thin(self, pk: bytes, alpha: bytes, ad: bytes, pi: bytes, suite=None) -> bool:
        return self._flag_call("pf_ecvrf_verify_thin_vartime", pk, alpha, ad, pi, extra=(self.suite_index(suite),))

    def vrf_proof_to_hash(self, pi: bytes, suite=None) -> bytes:
        return self.call("pf_ecvrf_proof_to_hash_vartime", 32, pi, extra=(self.suite_index(suite),))

    def vrf_hash_to_curve(self, alpha: bytes, suite=None) -> bytes:
        i, n = self._vrf_size("point", suite)
        return self.call("pf_ecvrf_hash_to_curve_vartime", n, alpha, extra=(i,))
