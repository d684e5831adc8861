"""A Python loader of a curve's WebAssembly module over ``wasmtime`` (PyPI), for the tests and
bench/wasm.py: the byte-level ABI of templates/c/wasm_abi.c.j2 as Python methods.

The module keeps no heap: every call copies its inputs into the module's memory above
``__heap_base`` (growing the memory when needed), calls the function and reads the output back.
A call returns its output bytes, or raises ``WasmAbiError`` carrying the ABI's error code.
"""

from __future__ import annotations

from pathlib import Path

# The ABI's error codes (templates/c/wasm_abi.c.j2), by name
ERRORS = {
    1: "length", 2: "flags", 3: "infinity with other bits", 4: "padding", 5: "non-canonical coordinate",
    6: "not on the curve (x^3 + b is not a square)", 7: "sign flag with y = 0", 8: "not on the curve",
    9: "not in the subgroup", 10: "scratch too small", 11: "empty DST", 12: "identity key or signature",
    13: "secret key or public input out of range", 14: "no precompile at this address",
}


class WasmAbiError(ValueError):
    """A function of the ABI returned an error code (``code``)."""

    def __init__(self, function: str, code: int) -> None:
        self.code = code
        super().__init__(f"{function}: error {code} ({ERRORS.get(code, 'unknown')})")


class WasmCurve:
    """One instance of ``<pkg>.wasm``."""

    PAGE = 65536

    def __init__(self, path: Path | str, engine=None, fuel: int | None = None) -> None:
        """``fuel``: meter the instance (one unit per executed wasm instruction, read back with
        ``fuel_used``) starting from that much; then ``engine`` must not be given."""
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
        self.instance = wasmtime.Instance(self.store, self.module, [])
        self.exports = self.instance.exports(self.store)
        self.memory = self.exports["memory"]
        self.heap_base = self.exports["__heap_base"].value(self.store)
        size = lambda name: self.exports[name](self.store)  # noqa: E731
        self.g1_compressed, self.g1_uncompressed = size("pf_size_g1_compressed"), size("pf_size_g1_uncompressed")
        self.g2_compressed, self.g2_uncompressed = size("pf_size_g2_compressed"), size("pf_size_g2_uncompressed")
        self.scalar_size, self.gt_size = size("pf_size_scalar"), size("pf_size_gt")

    def fuel_used(self) -> int:
        """Wasm instructions executed so far by a metered instance (``fuel`` given)."""
        if self._fuel is None:
            raise ValueError("this instance is not metered (pass fuel=)")
        return self._fuel - self.store.get_fuel()

    # -- memory -------------------------------------------------------------------------------
    def _place(self, chunks: list[bytes | int]) -> list[int]:
        """Copy each bytes chunk (or reserve an int's worth of zeroed bytes) above __heap_base,
        64-byte aligned; returns their addresses."""
        addrs, at = [], self.heap_base
        for chunk in chunks:
            at = (at + 63) & ~63
            addrs.append(at)
            at += chunk if isinstance(chunk, int) else len(chunk)
        need = -(-at // self.PAGE)
        have = self.memory.size(self.store)
        if need > have:
            self.memory.grow(self.store, need - have)
        for addr, chunk in zip(addrs, chunks, strict=True):
            data = bytes(chunk) if isinstance(chunk, int) else chunk
            if data:
                self.memory.write(self.store, data, addr)
        return addrs

    def _read(self, addr: int, n: int) -> bytes:
        return bytes(self.memory.read(self.store, addr, addr + n))

    def _invoke(self, name: str, out_len: int | None, inputs: tuple[bytes, ...], extra: tuple[int, ...] = (),
                scratch: int = 0) -> bytes:
        """Marshal and call ``name(out[, out_len], in_1, len_1, ..., *extra[, scratch, scratch_len])``;
        ``out_len`` None: a one-byte result with no length argument.  Returns the output bytes, or
        raises WasmAbiError on an error code."""
        size = 1 if out_len is None else out_len
        chunks: list[bytes | int] = [max(size, 1), *inputs] + ([scratch] if scratch else [])
        addrs = self._place(chunks)
        args: list[int] = [addrs[0]] if out_len is None else [addrs[0], out_len]
        for addr, data in zip(addrs[1 : 1 + len(inputs)], inputs, strict=True):
            args += [addr, len(data)]
        args += list(extra)
        if scratch:
            args += [addrs[-1], scratch]
        code = self.exports[name](self.store, *args)
        if code:
            raise WasmAbiError(name, code)
        return self._read(addrs[0], size)

    def call(self, name: str, out_len: int, *inputs: bytes, extra: tuple[int, ...] = (), scratch: int = 0) -> bytes:
        """Call ``name(out, out_len, in_1, len_1, ..., *extra[, scratch, scratch_len])``."""
        return self._invoke(name, out_len, inputs, extra, scratch)

    def _flag_call(self, name: str, *inputs: bytes, extra: tuple[int, ...] = (), scratch: int = 0) -> bool:
        """Functions whose output is one result byte (no out_len argument)."""
        return self._invoke(name, None, inputs, extra, scratch) == b"\x01"

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
        code = self.exports[name](self.store, result, a_keys, len(keys), len(pks), a_msg, len(msg), a_sig, len(sig),
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
        result, a_keys, a_msgs, a_lens, a_sig, a_dst, a_scratch = self._place([1, keys, text, lens, sig, dst, scratch])
        code = self.exports[name](self.store, result, a_keys, len(keys), n, a_msgs, len(text), a_lens, len(lens), a_sig,
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
        out, a_in, a_scratch = self._place([max(out_len, 1), data, max(scratch, 1)])
        code = self.exports[name](self.store, out, out_len, address, a_in, len(data), a_scratch, scratch)
        if code:
            raise WasmAbiError(name, code)
        return self._read(out, out_len)
