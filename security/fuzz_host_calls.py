"""Fuzz targets for the wasm32 host-call boundary (docs/host-calls.md): every import that
``generated.<pkg>.wasm_host`` defines, fed fuzzer bytes.

Each target calls one import twice on the same inputs and output length:

* directly (the Python function behind the import): it returns exactly ``out_len`` bytes, or raises
  ``HostCallError`` or ``ValueError`` that the entry wrapper maps to an ABI code (neither 0 nor
  ``PF_ERR_UNKNOWN``); any other exception is a bug;
* through wasmtime, from a small guest of its own that passes its arguments to the import (the
  host's ``define`` on a real ``Linker``, so the entry wrapper's copies and length checks run): the
  same code, and on success the same bytes in the guest's output buffer.

An accepted call is then checked against the module's ordinary API (decoders with the subgroup
check, ``mul_vartime``, ``pairing``): the host's answer is the right point, projective point or
field element.  A refused call is reported as a rejection (ValueError), like a decoder's.

The data of a two-input import is ``d || len(a) (2 bytes, little-endian) || a || b``, with
``out_len`` the import's natural output size plus ``d`` read as a signed byte (0 in the seeds:
mutating it tries wrong output lengths); an in-place import (the final exponentiation) takes the
data as its buffer.  Seeds are valid inputs made with the module's encoders: points of the
subgroup and the identity, scalars below r, projective points with Z = 1, Z != 1 and Z = 0.

Layer: tools (security/), above the generator: imports the generated packages and security's own
modules; the generator never imports it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from security.fuzz_targets import Target, coord_field, entry_point, is_edwards

# the tiny guest's memory, in 64 KiB pages (grown when an input needs more)
PAGES = 4


def host_module(C: ModuleType) -> ModuleType | None:
    """``generated.<pkg>.wasm_host`` of a curve module (None where it has none)."""
    try:
        return importlib.import_module(f"{C.__name__}.wasm_host")
    except ModuleNotFoundError:
        return None


class Guest:
    """A module importing one host function and exporting ``call`` (the same i32 arguments) and
    its memory; instantiated on first use, with the host's ``define`` on its linker."""

    def __init__(self, host: ModuleType, name: str, params: int) -> None:
        self.host, self.name, self.params = host, name, params
        self.store: Any = None

    def _start(self) -> None:
        import wasmtime

        sig = " ".join(["i32"] * self.params)
        args = " ".join(f"(local.get {i})" for i in range(self.params))
        wat = (f'(module (import "{self.host.MODULE}" "{self.name}" (func $f (param {sig}) (result i32)))'
               f' (memory (export "memory") {PAGES})'
               f' (func (export "call") (param {sig}) (result i32) (call $f {args})))')
        engine = wasmtime.Engine()
        linker = wasmtime.Linker(engine)
        self.host.define(linker)
        self.store = wasmtime.Store(engine)
        exports = linker.instantiate(self.store, wasmtime.Module(engine, wasmtime.wat2wasm(wat))).exports(self.store)
        self.call, self.memory = exports["call"], exports["memory"]

    def run(self, inputs: list[bytes], out_len: int | None) -> tuple[int, bytes]:
        """Place the inputs (and an output buffer of out_len bytes, None: the first input is read
        and written in place), call the import; (its code, the output buffer afterwards)."""
        if self.store is None:
            self._start()
        spans, at = [], 0
        for chunk in [*inputs, bytes([0xA5]) * (out_len or 0)]:
            spans.append((at, len(chunk)))
            at = (at + len(chunk) + 63) & ~63
        need = -(-at // 65536) - self.memory.size(self.store)
        if need > 0:
            self.memory.grow(self.store, need)
        for (ptr, n), chunk in zip(spans, [*inputs, bytes([0xA5]) * (out_len or 0)], strict=True):
            if n:
                self.memory.write(self.store, chunk, ptr)
        if out_len is None:
            spans = spans[:1]
        code = self.call(self.store, *[v for span in spans for v in span])
        ptr, n = spans[-1]
        return code, bytes(self.memory.read(self.store, ptr, ptr + n))


def _split(data: bytes, natural: int) -> tuple[bytes, bytes, int]:
    """(a, b, out_len) of a two-input import's fuzz data."""
    if len(data) < 3:
        raise ValueError("shorter than the header")
    delta = int.from_bytes(data[:1], "little", signed=True)
    la = int.from_bytes(data[1:3], "little")
    return data[3 : 3 + la], data[3 + la :], max(0, natural + delta)


def _pack(a: bytes, b: bytes) -> bytes:
    return bytes(1) + len(a).to_bytes(2, "little") + a + b


def _vec(items: list[bytes]) -> bytes:
    return len(items).to_bytes(8, "little") + b"".join(items)


def _bigint(k: int, words: int) -> bytes:
    return words.to_bytes(8, "little") + k.to_bytes(8 * words, "little")


def _host_target(host: ModuleType, name: str, natural: int, check: Callable[..., None],
                 seeds: list[bytes]) -> Target:
    """The target of one import: the direct call and the guest's call agree; ``check(out, *inputs)``
    judges an accepted answer."""
    fn, inputs = host.IMPORTS[name]
    guest = Guest(host, name, 2 if inputs == 0 else 2 * inputs + 2)
    not_refusals = (host.PF_OK, host.PF_ERR_UNKNOWN)  # codes a refused input must not get

    def run(data: bytes) -> None:
        if inputs == 0:
            args, out_len = [bytes(data)], len(data)
        else:
            a, b, out_len = _split(bytes(data), natural)
            args = [a, b]
        try:
            out = fn(*args) if inputs == 0 else fn(*args, out_len)
        except (host.HostCallError, ValueError) as exc:
            want = host._code_of(exc)
            assert want not in not_refusals, f"{type(exc).__name__}({exc}) maps to code {want}"
            code, _ = guest.run(args, None if inputs == 0 else out_len)
            assert code == want, f"the guest got code {code}, the direct call raised code {want}: {exc}"
            raise ValueError(f"refused with code {code}") from None
        except Exception as exc:
            raise AssertionError(f"raised {type(exc).__name__} (code {host._code_of(exc)}): {exc}") from exc
        assert isinstance(out, bytes) and len(out) == out_len, f"{len(out)} bytes where {out_len} were asked for"
        code, got = guest.run(args, None if inputs == 0 else out_len)
        assert code == host.PF_OK and got == out, f"the guest got code {code} and other bytes than the direct call"
        try:
            check(out, *args)
        except ValueError as exc:  # the reference refused what the host accepted: a failure, not a rejection
            raise AssertionError(f"the host accepted what the module's API refuses: {exc}") from exc

    return Target(f"wasm_host.{name}", run, (natural,) if inputs == 0 else (), tuple(seeds))


def _sw_groups(C: ModuleType, host: ModuleType) -> list[tuple[str, type, int, dict]]:
    """(suffix, group, affine size, keyword arguments of its byte functions) per Weierstrass group."""
    if is_edwards(C):
        return [("sw", C.SWPoint, host.SW_LEN, {})] if hasattr(host, "SW_LEN") else []
    kw = {"profile": host.PROFILE}
    return [("g1", C.G1, host.G1_LEN, kw), ("g2", C.G2, host.G2_LEN, kw)]


def _decode(G: type, data: bytes, kw: dict) -> Any:
    return G.from_bytes(data, check=True, **kw)


def _msm_check(C: ModuleType, G: type, size: int, fr: int, kw: dict) -> Callable[..., None]:
    """An accepted MSM answers sum [k_i] P_i (mul_vartime), the points decoded with every check."""

    def check(out: bytes, bases: bytes, scalars: bytes) -> None:
        n = int.from_bytes(bases[:8], "little")
        want = G.identity()
        for i in range(n):
            k = int.from_bytes(scalars[8 + i * fr : 8 + (i + 1) * fr], "little")
            assert k < C.R, "an MSM accepted a scalar of r or more"
            want = want + _decode(G, bases[8 + i * size : 8 + (i + 1) * size], kw).mul_vartime(k)
        assert out == want.to_bytes(False, **kw), "the MSM's answer is not the sum of the products"

    return check


def _mul_check(C: ModuleType, G: type, kw: dict) -> Callable[..., None]:
    def check(out: bytes, base: bytes, scalar: bytes) -> None:
        k = int.from_bytes(scalar[8:], "little") % C.R
        assert out == _decode(G, base, kw).mul_vartime(k).to_bytes(False, **kw), "[k] P is wrong"

    return check


def _field_of(C: ModuleType, G: type) -> type:
    """The class of G's affine coordinates (Fp, Fp2, ...; Fq on an Edwards module)."""
    return type(coord_field(C, G.generator().to_affine()[0]))


def _affine_fields(C: ModuleType, P: Any) -> list[Any]:
    return [coord_field(C, c) for c in P.to_affine()]


def _projective_check(C: ModuleType, G: type, F: type, coords: int) -> Callable[..., None]:
    """An accepted projective multiplication answers [k] P with Z = 1 (Edwards: T = X Y), or
    (1, 1, 0) for the identity of a Weierstrass group; P read from its coordinates with every check."""
    width = len(F.one().to_bytes(profile="arkworks"))

    def read(data: bytes) -> list[Any]:
        return [F.from_bytes(data[i * width : (i + 1) * width], profile="arkworks") for i in range(coords)]

    def check(out: bytes, base: bytes, scalar: bytes) -> None:
        k = int.from_bytes(scalar[8:], "little") % C.R
        v = read(base)
        if coords == 4:  # Edwards extended X, Y, T, Z
            zi = v[3].inverse()
            P = G.from_affine(v[0] * zi, v[1] * zi, check=True)
        elif v[2] == F.zero():
            P = G.identity()
        else:
            zi = v[2].inverse()
            P = G.from_affine(v[0] * zi * zi, v[1] * zi * zi * zi, check=True)
        Q = P.mul_vartime(k)
        if Q.is_identity() and coords == 3:
            want = [F.one(), F.one(), F.zero()]
        else:
            x, y = _affine_fields(C, Q)
            want = [x, y, x * y, F.one()] if coords == 4 else [x, y, F.one()]
        assert out == b"".join(c.to_bytes(profile="arkworks") for c in want), "[k] P (projective) is wrong"

    return check


def _projective_seeds(C: ModuleType, G: type, F: type, coords: int, scalar: bytes) -> list[bytes]:
    """P with Z = 1 and Z = 2 (and the identity, Z = 0, on a Weierstrass group), a BigInteger."""
    two = F.one() + F.one()
    out = []
    for P in (G.generator(), G.generator() * 0x1234567):
        x, y = _affine_fields(C, P)
        for z in (F.one(), two):
            v = [x * z, y * z, x * y * z, z] if coords == 4 else [x * z * z, y * z * z * z, z]
            out.append(_pack(b"".join(c.to_bytes(profile="arkworks") for c in v), scalar))
    if coords == 3:
        out.append(_pack(b"".join(c.to_bytes(profile="arkworks") for c in (F.one(), F.one(), F.zero())), scalar))
    return out


def _group_targets(C: ModuleType, host: ModuleType, prefix: str, suffix: str, G: type, size: int,
                   kw: dict) -> Iterator[Target]:
    """MSM, affine and projective multiplication of one group (suffix g1, g2, te, sw)."""
    fr = host.FR_LEN
    gens = [G.generator(), G.generator() * 5, G.identity()]
    points = [P.to_bytes(False, **kw) for P in gens]
    ks = [1, C.R - 1, 0x1234567]
    scalars = [k.to_bytes(fr, "little") for k in ks]
    edwards_model = suffix == "te"
    msm, mul, proj = ((f"{prefix}_{suffix}_msm", f"{prefix}_{suffix}_mul", f"{prefix}_{suffix}_mul_projective")
                      if is_edwards(C) else
                      (f"{prefix}_msm_{suffix}", f"{prefix}_mul_{suffix}", f"{prefix}_mul_projective_{suffix}"))
    msm_seeds = [_pack(_vec(points[:n]), _vec(scalars[:n])) for n in (0, 1, 3)]
    yield _host_target(host, msm, size, _msm_check(C, G, size, fr, kw), msm_seeds)
    words = (fr + 7) // 8
    bigs = [_bigint(k, words) for k in (7, C.R - 1)] + [_bigint(3, 1), _bigint(0, 0)]
    yield _host_target(host, mul, size, _mul_check(C, G, kw), [_pack(p, k) for p in points for k in bigs[:2]]
                       + [_pack(points[0], k) for k in bigs[2:]])
    F = C.Fq if is_edwards(C) else _field_of(C, G)
    coords = 4 if edwards_model else 3
    width = len(F.one().to_bytes(profile="arkworks"))
    yield _host_target(host, proj, coords * width, _projective_check(C, G, F, coords),
                       _projective_seeds(C, G, F, coords, bigs[0]))


def _pairing_targets(C: ModuleType, host: ModuleType, prefix: str) -> Iterator[Target]:
    """The multi-Miller loop (checked through the final exponentiation against C.pairing) and
    the final exponentiation (its answer is an element of GT)."""
    kw = {"profile": host.PROFILE}
    top = type(C.GT.one().value())
    g1 = [C.G1.generator(), C.G1.generator() * 3, C.G1.identity()]
    g2 = [C.G2.generator(), C.G2.generator() * 11, C.G2.generator()]

    def mml_check(out: bytes, a: bytes, b: bytes) -> None:
        n = int.from_bytes(a[:8], "little")
        want = C.GT.one()
        for i in range(n):
            P = _decode(C.G1, a[8 + i * host.G1_LEN : 8 + (i + 1) * host.G1_LEN], kw)
            Q = _decode(C.G2, b[8 + i * host.G2_LEN : 8 + (i + 1) * host.G2_LEN], kw)
            want = want * C.pairing(P, Q)
        f = top.from_bytes(out, profile="arkworks")
        assert C.final_exponentiation(f) == want, "the Miller loop's value is not the pairing's"

    def fe_check(out: bytes, f: bytes) -> None:
        x = top.from_bytes(out, profile="arkworks")
        C.GT.from_bytes(x.to_bytes())  # of order r (ValueError otherwise)
        assert x == C.final_exponentiation(top.from_bytes(f, profile="arkworks")).value(), "f^((p^k - 1) / r) is wrong"

    seeds = [_pack(_vec([P.to_bytes(False, **kw) for P in g1[:n]]), _vec([Q.to_bytes(False, **kw) for Q in g2[:n]]))
             for n in (0, 1, 3)]
    yield _host_target(host, f"{prefix}_multi_miller_loop", host.GT_LEN, mml_check, seeds)
    ml = [C.miller_loop([P], [Q]) for P, Q in zip(g1[:2], g2[:2], strict=True)]
    fe_seeds = [f.to_bytes(profile="arkworks") for f in ml] + [top.one().to_bytes(profile="arkworks")]
    yield _host_target(host, f"{prefix}_final_exponentiation", host.GT_LEN, fe_check, fe_seeds)


@entry_point
def wasm_host_imports(C: ModuleType) -> Iterator[Target]:
    """Every import of ``generated.<pkg>.wasm_host`` (where the package has it)."""
    host = host_module(C)
    if host is None:
        return
    prefix = C.__name__.rsplit(".", 1)[-1]
    if not is_edwards(C):
        yield from _pairing_targets(C, host, prefix)
    else:
        yield from _group_targets(C, host, prefix, "te", C.Point, host.TE_LEN, {"profile": "arkworks"})
    for suffix, G, size, kw in _sw_groups(C, host):
        yield from _group_targets(C, host, prefix, suffix, G, size, kw)
