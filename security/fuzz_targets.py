"""Every byte-level entry point of a curve module, as one table (ENTRY_POINTS).

An entry point is a function ``(C) -> Iterable[Target]`` registered with ``@entry_point``: it
says which calls of the curve module ``C`` take untrusted bytes (returning nothing when ``C``
lacks them, so the table runs on any curve and on every branch as entry points appear), and each
``Target`` runs one such call on fuzzer bytes and checks what it did:

* only ``ValueError`` and ``TypeError`` may reject input (``REJECTIONS``); any other exception,
  and any failed check (``AssertionError``), is a bug;
* a decoded value re-encodes to the same bytes (every decoder accepts only canonical input);
* a point is on the curve, checked with the module's field arithmetic rather than the group code;
  with ``check=True`` it is of order r, checked as ``[r - 1]P == -P`` with the scalar
  multiplication rather than ``in_subgroup``; a point refused only by the subgroup check really
  is outside the subgroup;
* where acceptance is easy to predict (prime fields, tower elements, GT), the decoder accepts
  exactly the canonical inputs.

The fuzzer (security/fuzz.py), the seed-replay test (tests/security/test_fuzz_targets.py) and the
sanitizer run share this table; seeds come from each target's ``seeds`` (valid encodings made
through the public API) and from the known-answer vectors in tests/vectors (security/fuzz_seeds.py).

Adding an entry point (a decoder with a new ``profile=``, a precompile, signature verification)
is one more ``@entry_point`` function here.  The imports of the wasm32 host-call boundary have their
own module, security/fuzz_host_calls.py, registered by the import at the end of this one.

Layer: tools (security/), above the generator: imports the generator, the generated packages and
security's own modules; the generator never imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

REJECTIONS = (ValueError, TypeError)


@dataclass(frozen=True)
class Target:
    """One call of one curve module on fuzzer bytes. ``run`` raises a REJECTIONS exception for
    refused input and AssertionError for a wrong result; ``lengths`` are the input lengths that
    can be valid (used to pick seeds from the vectors; empty means any)."""

    name: str
    run: Callable[[bytes], Any]
    lengths: tuple[int, ...] = ()
    seeds: tuple[bytes, ...] = field(default=(), repr=False)


EntryPoint = Callable[[ModuleType], Iterable[Target]]
ENTRY_POINTS: list[EntryPoint] = []


def entry_point(fn: EntryPoint) -> EntryPoint:
    ENTRY_POINTS.append(fn)
    return fn


def targets_for(C: ModuleType) -> list[Target]:
    """Every target of one curve module, named ``<package> <entry point>``."""
    pkg = C.__name__.rsplit(".", 1)[-1]
    out = []
    for ep in ENTRY_POINTS:
        for t in ep(C):
            out.append(Target(f"{pkg} {t.name}", t.run, t.lengths, t.seeds))
    return out


# ------------------------------------------------------------------------------------------------
# Helpers over the public API


def nbytes(C: ModuleType) -> int:
    return (C.P.bit_length() + 7) // 8


def field_classes(C: ModuleType) -> list[tuple[str, type, int, int]]:
    """(name, class, modulus, number of Fp coefficients) for every field class the module has."""
    out = [("Fr", C.Fr, C.R, 1)]
    for name, degree in (("Fp", 1), ("Fq", 1), ("Fp2", 2), ("Fp3", 3), ("Fp4", 4), ("Fp6", 6), ("Fp12", 12),
                         ("Fp24", 24)):
        if hasattr(C, name):
            out.append((name, getattr(C, name), C.P, degree))
    return out


def _walk(x: Any) -> Iterator[Any]:
    """A tower element and all its coefficients, level by level."""
    yield x
    for attr in ("c0", "c1", "c2"):
        if hasattr(x, attr):
            yield from _walk(getattr(x, attr))


def sample_elements(C: ModuleType) -> list[Any]:
    """Field elements of every level with all coefficients busy (from a pairing value; the base
    field's powers of 7 on a twisted Edwards module, which has no pairing)."""
    if is_edwards(C):
        return [C.Fq(7) ** e for e in (1, 100, C.P - 2)]
    G1, G2 = C.G1.generator(), C.G2.generator()
    return list(_walk(C.pairing(G1 * 5, G2 * 7).value())) + list(_walk(C.GT.one().value()))


def is_edwards(C: ModuleType) -> bool:
    """A twisted Edwards companion module (one group, Point; base field Fq)."""
    return getattr(C, "FAMILY", None) == "TwistedEdwards"


def coord_field(C: ModuleType, coord: Any) -> Any:
    """An affine coordinate (int or tuple of ints) as a module field element."""
    if is_edwards(C):
        return C.Fq(coord)
    if isinstance(coord, tuple) and len(coord) in (4, 8):  # G2 over Fp4 (k = 24) or Fp8 (k = 48): flat, c0 first
        return getattr(C, f"Fp{len(coord)}")(*nest_halves(coord))
    if isinstance(coord, tuple):
        return {2: C.Fp2, 3: getattr(C, "Fp3", None)}[len(coord)](*coord)
    return C.Fp(coord)


def nest_halves(coord: tuple) -> tuple:
    """Flat coefficients (c0, c1, ...) of a tower element -> its two halves, nested down to pairs."""
    half = len(coord) // 2
    return coord if half == 1 else (nest_halves(coord[:half]), nest_halves(coord[half:]))


def curve_b(C: ModuleType, G: type) -> Any:
    """b of the curve G lives on, from its generator: b = y^2 - x^3."""
    x, y = (coord_field(C, c) for c in G.generator().to_affine())
    return y * y - x * x * x


def check_point(C: ModuleType, G: type, P: Any, in_subgroup: bool) -> None:
    """P is on its curve (field arithmetic, not the group code) and, if asked, of order r."""
    assert P.is_on_curve()
    aff = P.to_affine()
    if aff is None:
        assert P.is_identity()
        return
    x, y = (coord_field(C, c) for c in aff)
    if is_edwards(C):
        assert C.A * x * x + y * y == 1 + C.D * x * x * y * y, "accepted point is not on the curve"
    else:
        assert y * y == x * x * x + curve_b(C, G), "accepted point is not on the curve"
    if in_subgroup:
        assert P * (C.R - 1) == -P, "accepted point is not of order r"
        assert P.in_subgroup()


def profiles(C: ModuleType) -> list[str | None]:
    """Serialization profiles: None (the default, no profile= argument) and every named one the
    module lists (SERIALIZATION_PROFILES or PROFILES, when it has them)."""
    names = getattr(C, "SERIALIZATION_PROFILES", None) or getattr(C, "PROFILES", None) or ()
    return [None, *names]


def _kw(profile: str | None) -> dict:
    return {} if profile is None else {"profile": profile}


def groups(C: ModuleType) -> list[tuple[str, type]]:
    if is_edwards(C):
        return [("Point", C.Point)]
    return [("G1", C.G1), ("G2", C.G2)]


# ------------------------------------------------------------------------------------------------
# Entry points


@entry_point
def field_from_bytes(C: ModuleType) -> Iterator[Target]:
    """F.from_bytes for every field: accepts exactly the canonical encodings, round-trips."""
    n = nbytes(C)
    samples = sample_elements(C)
    for name, F, modulus, degree in field_classes(C):
        width = (modulus.bit_length() + 7) // 8 if name == "Fr" else n
        size = width * degree

        def run(data: bytes, F=F, modulus=modulus, width=width, size=size, name=name, degree=degree) -> None:
            canonical = len(data) == size and all(
                int.from_bytes(data[i : i + width], "big") < modulus for i in range(0, size, width)
            )
            try:
                x = F.from_bytes(data)
            except ValueError:
                assert not canonical, f"{name}.from_bytes refused a canonical encoding"
                raise
            assert canonical, f"{name}.from_bytes accepted a non-canonical encoding"
            assert x.to_bytes() == bytes(data)
            if degree == 1:
                assert int(x) == int.from_bytes(data, "big")

        seeds = [F.zero().to_bytes(), F.one().to_bytes(), (-F.one()).to_bytes()]
        seeds += [x.to_bytes() for x in samples if type(x) is F]
        if name == "Fr":
            seeds += [C.Fr(C.R - 1).to_bytes(), C.Fr(0x1234567890ABCDEF).to_bytes()]
        yield Target(f"{name}.from_bytes", run, (size,), tuple(seeds))


@entry_point
def gt_from_bytes(C: ModuleType) -> Iterator[Target]:
    """GT.from_bytes accepts exactly the canonical encodings of elements of order r."""
    if is_edwards(C):
        return
    top = type(C.GT.one().value())

    def run(data: bytes) -> None:
        try:
            f = top.from_bytes(data)
        except ValueError:
            f = None  # not canonical: GT must refuse it too
        try:
            x = C.GT.from_bytes(data)
        except ValueError:
            assert f is None or f.is_zero() or f**C.R != top.one(), "GT refused an element of GT"
            raise
        assert f is not None and not f.is_zero() and f**C.R == top.one(), "GT accepted a non-member"
        assert x.to_bytes() == bytes(data)
        assert x ** (C.R - 1) * x == C.GT.one()

    G1, G2 = C.G1.generator(), C.G2.generator()
    seeds = (C.GT.one().to_bytes(), C.pairing(G1, G2).to_bytes(), C.pairing(G1 * 3, G2).to_bytes(),
             sample_elements(C)[0].to_bytes())  # fmt: skip
    yield Target("GT.from_bytes", run, (len(seeds[0]),), seeds)


def _forms(G: type, profile: str | None) -> tuple[bool, ...]:
    """The encodings a profile has for G, compressed first: (compressed, uncompressed), only
    uncompressed (EIP-197 and EIP-2537 define no compressed form) or only compressed (zcash's
    and circom's twisted Edwards encodings)."""
    forms = []
    for compressed in (True, False):
        try:
            G.generator().to_bytes(compressed, **_kw(profile))
        except ValueError:
            continue
        forms.append(compressed)
    return tuple(forms)


def _point_seeds(C: ModuleType, G: type, profile: str | None) -> list[bytes]:
    """Valid encodings (every form of the profile) of subgroup points, the identity, and points
    off the subgroup."""
    pts = [G.identity(), G.generator(), -G.generator(), G.generator() * 0x1234567]
    # x = 1, 2, ... decoded (default profile, compressed) without the subgroup check: on the
    # curve, mostly off the subgroup
    template = G.generator().to_bytes(True)
    for i in range(1, 40):
        data = bytearray(template)
        data[1:] = i.to_bytes(len(template), "big")[1:]
        try:
            pts.append(G.from_bytes(bytes(data), check=False))
        except ValueError:
            continue
        if len(pts) >= 10:
            break
    return [P.to_bytes(form, **_kw(profile)) for P in pts for form in _forms(G, profile)]


@entry_point
def point_from_bytes(C: ModuleType) -> Iterator[Target]:
    """G.from_bytes(data, check) in every profile: both checks agree, accepted points round-trip,
    are on the curve and (check=True) of order r; a point refused only by the subgroup check is
    outside it."""
    for gname, G in groups(C):
        for profile in profiles(C):
            kw = _kw(profile)
            forms = _forms(G, profile)
            lengths = tuple(len(G.generator().to_bytes(form, **kw)) for form in forms)
            clen = lengths[0] if forms[0] else None

            def run(data: bytes, G=G, kw=kw, clen=clen) -> None:
                try:
                    loose = G.from_bytes(data, check=False, **kw)
                except ValueError:
                    loose = None
                try:
                    P = G.from_bytes(data, check=True, **kw)
                except ValueError:
                    if loose is not None:
                        check_point(C, G, loose, in_subgroup=False)
                        assert loose * (C.R - 1) != -loose, "refused a point of order r"
                    raise
                assert loose is not None and loose == P, "check=False refused what check=True accepts"
                check_point(C, G, P, in_subgroup=True)
                assert P.to_bytes(len(data) == clen, **kw) == bytes(data), "no round trip"

            suffix = "" if profile is None else f", profile={profile!r}"
            yield Target(f"{gname}.from_bytes(check{suffix})", run, lengths, tuple(_point_seeds(C, G, profile)))


def _coords(C: ModuleType, G: type, data: bytes) -> tuple[Any, Any]:
    """Split bytes into two affine coordinates of G's field (ints or tuples of ints)."""
    n = nbytes(C)
    gx = G.generator().to_affine()[0]
    d = len(gx) if isinstance(gx, tuple) else 1
    if len(data) != 2 * d * n:
        raise ValueError("wrong length for two coordinates")
    vals = [int.from_bytes(data[i : i + n], "big") for i in range(0, 2 * d * n, n)]
    if d == 1:
        return vals[0], vals[1]
    return tuple(vals[:d]), tuple(vals[d:])


def _coord_bytes(C: ModuleType, coord: Any) -> bytes:
    n = nbytes(C)
    return b"".join(v.to_bytes(n, "big") for v in (coord if isinstance(coord, tuple) else (coord,)))


@entry_point
def point_from_affine(C: ModuleType) -> Iterator[Target]:
    """G.from_affine(x, y, check=True) on coordinates from bytes (any integers below 2^(8n))."""
    for gname, G in groups(C):

        def run(data: bytes, G=G) -> None:
            x, y = _coords(C, G, data)
            try:
                P = G.from_affine(x, y, check=True)
            except ValueError:
                try:
                    loose = G.from_affine(x, y, check=False)
                except ValueError:
                    raise ValueError("refused by both checks") from None
                check_point(C, G, loose, in_subgroup=False)
                assert loose * (C.R - 1) != -loose, "from_affine refused a point of order r"
                raise
            check_point(C, G, P, in_subgroup=True)
            assert P.is_identity() or P.to_affine() == (x, y)

        seeds = []
        for P in (G.generator(), G.generator() * 99):
            x, y = P.to_affine()
            seeds.append(_coord_bytes(C, x) + _coord_bytes(C, y))
        yield Target(f"{gname}.from_affine", run, (len(seeds[0]),), tuple(seeds))


@entry_point
def point_msm(C: ModuleType) -> Iterator[Target]:
    """G.msm on signed scalars of any size from bytes, against the sum of scalar multiplications."""
    width = (C.R.bit_length() + 7) // 8 + 1
    for gname, G in groups(C):
        base = [G.generator() * (3 * i + 1) for i in range(6)] + [G.identity()]

        def run(data: bytes, G=G, base=base) -> None:
            if not data:
                assert G.msm([], []).is_identity()
                return
            n = data[0] % (len(base) + 1)
            ks = [
                int.from_bytes(data[1 + i * width : 1 + (i + 1) * width], "big", signed=True)
                for i in range(n)
            ]
            pts = [base[(data[0] + 3 * i) % len(base)] for i in range(n)]
            want = G.identity()
            for P, k in zip(pts, ks, strict=True):
                want = want + P * k
            assert G.msm(pts, ks) == want, "msm differs from the sum of scalar multiplications"

        seed = bytes([4]) + b"".join(k.to_bytes(width, "big", signed=True) for k in (1, -1, C.R - 1, C.R))
        yield Target(f"{gname}.msm", run, (), (seed,))


@entry_point
def hash_to_curve(C: ModuleType) -> Iterator[Target]:
    """G.hash_to_curve / encode_to_curve(msg, dst) where the module has them: data = len(dst),
    dst, msg; the result is a deterministic point of order r."""
    for gname, G in groups(C):
        for method in ("hash_to_curve", "encode_to_curve"):
            if not hasattr(G, method):
                continue

            def run(data: bytes, G=G, method=method) -> None:
                dlen = data[0] if data else 0
                dst, msg = bytes(data[1 : 1 + dlen]), bytes(data[1 + dlen :])
                P = getattr(G, method)(msg, dst)
                check_point(C, G, P, in_subgroup=True)
                assert getattr(G, method)(msg, dst) == P, "not deterministic"

            dst = b"QUUX-V01-CS02-with-pairforge"
            # ... and an empty DST, which RFC 9380 forbids (a clean ValueError)
            seeds = tuple(bytes([len(dst)]) + dst + m for m in (b"", b"abc", b"a" * 200)) + (b"\x00abc",)
            yield Target(f"{gname}.{method}", run, (), seeds)


@entry_point
def ecvrf(C: ModuleType) -> Iterator[Target]:
    """ark-vrf's VRF (``ecvrf``), per suite: decode_point accepts only canonical encodings of
    points of order r; verify and verify_thin on proof bytes return a bool or reject cleanly
    (False is reported as a rejection), the same answer twice."""
    if "ecvrf" not in getattr(C, "PROTOCOL_MODULES", ()):
        return
    v = C.ecvrf
    for suite in v.SUITES:
        pk = v.public_key(7, suite)
        tiny, thin = v.prove(7, b"fuzz", b"", suite), v.prove_thin(7, b"fuzz", b"", suite)

        def run_point(data: bytes, suite=suite) -> None:
            P = v.decode_point(bytes(data), suite)
            assert v.encode_point(P, suite) == bytes(data), "decode_point accepted a non-canonical encoding"
            check_point(C, C.Point, P, in_subgroup=True)

        n = v.SUITES[suite].point_len       # 32 bytes on the Edwards forms, 33 on the SW model
        yield Target(f"ecvrf.decode_point({suite})", run_point, (n,), (pk, tiny[:n]))
        for fname, fn, pi in (("verify", v.verify, tiny), ("verify_thin", v.verify_thin, thin)):

            def run_verify(data: bytes, fn=fn, suite=suite, pk=pk) -> None:
                ok = fn(pk, b"fuzz", b"", bytes(data), suite)
                assert fn(pk, b"fuzz", b"", bytes(data), suite) is ok, "not deterministic"
                if not ok:
                    raise ValueError("the proof does not verify")

            yield Target(f"ecvrf.{fname}({suite})", run_verify, (len(pi),), (pi,))


@entry_point
def sw_point_from_bytes(C: ModuleType) -> Iterator[Target]:
    """SWPoint.from_bytes (the short Weierstrass model of a [weierstrass] section), both forms and
    both check settings: an accepted encoding re-encodes to itself, lies on the curve, maps to the
    Edwards model and back, and is in the subgroup when check=True."""
    SW = getattr(C, "SWPoint", None)
    if SW is None:
        return
    G = SW.generator()
    for compressed in (True, False):
        size = len(G.to_bytes(compressed))
        for check in (True, False):

            def run(data: bytes, compressed=compressed, check=check, size=size) -> None:
                # from_bytes tells the forms apart by length: this target takes its own form's length
                if len(data) != size:
                    raise ValueError(f"not the {size}-byte form")
                S = SW.from_bytes(bytes(data), check=check)
                assert S.to_bytes(compressed) == bytes(data), "from_bytes accepted a non-canonical encoding"
                assert S.is_on_curve(), "from_bytes accepted a point off the curve"
                if check:
                    assert S.in_subgroup() and (S * C.R).is_identity(), "check=True accepted a point outside the subgroup"
                try:
                    E = S.to_edwards()
                except ValueError:
                    assert not S.in_subgroup(), "a subgroup point without an Edwards image"
                else:
                    assert E.to_weierstrass() == S, "the maps do not round-trip"

            seeds = (G.to_bytes(compressed), (G * 5).to_bytes(compressed), SW.identity().to_bytes(compressed))
            yield Target(f"SWPoint.from_bytes(compressed={compressed}, check={check})", run,
                         (len(seeds[0]),), seeds)


# Byte-in, byte-out protocol functions (EVM precompiles, signature verification): one line each,
# (submodule of the curve package, function name), added as the protocols are rendered.  The
# check is what any caller relies on: bytes out or a clean rejection, and the same answer twice.
BYTE_FUNCTIONS: list[tuple[str, str]] = []


@entry_point
def byte_functions(C: ModuleType) -> Iterator[Target]:
    import importlib

    for sub, fname in BYTE_FUNCTIONS:
        try:
            mod = importlib.import_module(f"{C.__name__}.{sub}")
        except ImportError:
            continue
        fn = getattr(mod, fname, None)
        if fn is None:
            continue

        def run(data: bytes, fn=fn) -> None:
            out = fn(bytes(data))
            assert fn(bytes(data)) == out, "not deterministic"

        yield Target(f"{sub}.{fname}", run)


@entry_point
def evm_precompiles(C: ModuleType) -> Iterator[Target]:
    """``run(address, data)`` of every EVM precompile module the curve package renders: bytes out
    (with the gas) or a rejection; the same answer twice; a point output re-decodes to a point on
    the curve, of order r where the precompile checks its inputs' subgroup or maps to the subgroup;
    a pairing check answers a 32-byte boolean."""
    import importlib

    for proto in getattr(C, "PROTOCOL_MODULES", ()):
        mod = importlib.import_module(f"{C.__name__}.{proto}")
        if not (hasattr(mod, "PRECOMPILES") and hasattr(mod, "run")):
            continue
        prof, fw, sw = mod.PROFILE, mod.FIELD_BYTES, mod.SCALAR_BYTES
        enc = {1: C.G1.generator, 2: C.G2.generator}
        for address, pc in mod.PRECOMPILES.items():
            name, op, group, subgroup = pc.name, pc.op, pc.group, pc.subgroup
            G = C.G1 if group == 1 else C.G2
            gen = enc[group]()
            p1, p2 = (gen * k for k in (1, 5)) if op != "pairing" else (C.G1.generator(), C.G2.generator())
            if op == "add":
                seeds = (p1.to_bytes(False, prof) + p2.to_bytes(False, prof),)
            elif op in ("mul", "msm"):
                pair = p1.to_bytes(False, prof) + (7).to_bytes(sw, "big")
                seeds = (pair, pair + p2.to_bytes(False, prof) + (C.R + 1).to_bytes(sw, "big"))
            elif op == "pairing":
                seeds = (p1.to_bytes(False, prof) + p2.to_bytes(False, prof),
                         p1.to_bytes(False, prof) + p2.to_bytes(False, prof)
                         + (-p1).to_bytes(False, prof) + p2.to_bytes(False, prof))
            else:
                degree = len(G.generator().to_bytes(False, prof)) // (2 * fw)
                seeds = (b"".join((5 + i).to_bytes(fw, "big") for i in range(degree)),)

            def run(data: bytes, mod=mod, address=address, op=op, G=G, subgroup=subgroup) -> None:
                out, gas = mod.run(address, data)
                assert mod.run(address, data) == (out, gas), "not deterministic"
                assert isinstance(out, bytes) and (gas is None or (isinstance(gas, int) and gas >= 0))
                if op == "pairing":
                    assert out in (bytes(32), bytes(31) + b"\x01"), "a pairing check answers 0 or 1"
                    return
                P = G.from_bytes(out, False, mod.PROFILE)
                check_point(C, G, P, in_subgroup=subgroup or op == "map")

            # lengths: the seeds' own (vector seeds of those sizes; mutations change lengths too)
            yield Target(f"{proto}.run({name})", run, tuple(sorted({len(s) for s in seeds})), seeds)


@entry_point
def bls_signatures(C: ModuleType) -> Iterator[Target]:
    """The verification functions of C.bls (where the curve carries BLS signatures), per variant,
    Pop scheme (whose functions are a superset): they return a bool and never raise on bytes,
    give the same answer twice and agree with each other (a valid signature has a valid key;
    a batch verifies exactly when each of its signatures does).  The data split into fixed-width
    keys and signatures, then messages.  A False answer counts as a rejection (ValueError)."""
    if "bls_signatures" not in getattr(C, "PROTOCOLS", ()):
        return
    for vname in ("MinPk", "MinSig"):
        s = getattr(C.bls, vname).Pop
        kl, sl = s.PK_BYTES, s.SIG_BYTES
        sks = [s.key_gen(bytes([i + 1]) * 32) for i in range(3)]
        pks = [s.sk_to_pk(sk) for sk in sks]
        msgs = [b"", b"fuzz", b"x" * 70]
        sigs = [s.sign(sk, m) for sk, m in zip(sks, msgs, strict=True)]

        def answer(fn: Callable[..., bool], *args: Any) -> None:
            try:
                got = fn(*args)
            except REJECTIONS as exc:
                raise AssertionError(f"raised {type(exc).__name__} instead of returning False: {exc}") from exc
            assert got is True or got is False, f"returned {got!r}, not a bool"
            assert fn(*args) is got, "not deterministic"
            if not got:
                raise ValueError("False")

        def split(data: bytes) -> tuple[int, bytes]:
            """A count of 1 to 3 items from the first byte, and the rest."""
            return (data[0] % 3 + 1, data[1:]) if data else (1, b"")

        def verify(data: bytes, s=s, kl=kl, sl=sl) -> None:
            pk, sig, msg = data[:kl], data[kl : kl + sl], data[kl + sl :]
            try:
                answer(s.verify, pk, msg, sig)
            except ValueError:
                assert not s.aggregate_verify([pk], [msg], sig), "aggregate_verify of one pair differs from verify"
                raise
            assert s.key_validate(pk), "verified under an invalid key"
            assert s.aggregate_verify([pk], [msg], sig) and s.batch_verify([pk], [msg], [sig])

        def key_validate(data: bytes, s=s) -> None:
            answer(s.key_validate, data)

        def pop_verify(data: bytes, s=s, kl=kl) -> None:
            answer(s.pop_verify, data[:kl], data[kl:])
            assert s.key_validate(data[:kl])

        def aggregate_verify(data: bytes, s=s, kl=kl, sl=sl) -> None:
            n, rest = split(data)
            keys = [rest[i * kl : (i + 1) * kl] for i in range(n)]
            sig, msg = rest[n * kl : n * kl + sl], rest[n * kl + sl :]
            answer(s.aggregate_verify, keys, [msg + bytes([i]) for i in range(n)], sig)

        def fast_aggregate_verify(data: bytes, s=s, kl=kl, sl=sl) -> None:
            n, rest = split(data)
            keys = [rest[i * kl : (i + 1) * kl] for i in range(n)]
            answer(s.fast_aggregate_verify, keys, rest[n * kl + sl :], rest[n * kl : n * kl + sl])

        def batch_verify(data: bytes, s=s, kl=kl, sl=sl) -> None:
            n, rest = split(data)
            w = kl + sl
            keys = [rest[i * w : i * w + kl] for i in range(n)]
            sigs_ = [rest[i * w + kl : (i + 1) * w] for i in range(n)]
            ms = [rest[n * w :] + bytes([i]) for i in range(n)]
            try:
                answer(s.batch_verify, keys, ms, sigs_)
            except ValueError:
                assert not all(s.verify(*t) for t in zip(keys, ms, sigs_, strict=True)), "batch refused valid signatures"
                raise
            assert all(s.verify(*t) for t in zip(keys, ms, sigs_, strict=True)), "batch accepted an invalid signature"

        def count(n: int) -> bytes:
            return bytes([n - 1])

        prefix = f"bls.{vname}.Pop"
        yield Target(f"{prefix}.verify", verify, (), tuple(pk + sig + m for pk, sig, m in zip(pks, sigs, msgs, strict=True)))
        yield Target(f"{prefix}.key_validate", key_validate, (kl,), tuple(pks) + (s.sk_to_pk(1),))
        yield Target(f"{prefix}.pop_verify", pop_verify, (), tuple(pk + s.pop_prove(sk) for sk, pk in zip(sks, pks, strict=True)))
        agg = s.aggregate([s.sign(sk, b"agg" + bytes([i])) for i, sk in enumerate(sks)])
        yield Target(f"{prefix}.aggregate_verify", aggregate_verify, (), (count(3) + b"".join(pks) + agg + b"agg",))
        fagg = s.aggregate([s.sign(sk, b"fast") for sk in sks[:2]])
        yield Target(f"{prefix}.fast_aggregate_verify", fast_aggregate_verify, (), (count(2) + pks[0] + pks[1] + fagg + b"fast",))
        bsigs = [s.sign(sk, b"batch" + bytes([i])) for i, sk in enumerate(sks)]
        yield Target(f"{prefix}.batch_verify", batch_verify, (),
                     (count(3) + b"".join(pk + sg for pk, sg in zip(pks, bsigs, strict=True)) + b"batch",))  # fmt: skip


# ------------------------------------------------------------------------------------------------
# Groth16 (the `groth16` protocol module, where the curve file asks for it)


def _groth16_sample(C: ModuleType) -> tuple[Any, Any, list[int]]:
    """A key with two public inputs and a proof that verifies for them, made with the trapdoor
    (alpha, beta, gamma, delta known: C = (ab - a_beta - g vk_x) / delta, the simulator of the
    zero-knowledge proof), so that seeds exist on every curve without a prover."""
    g, r = C.groth16, C.R
    G1, G2 = C.G1.generator(), C.G2.generator()
    alpha, beta, gamma, delta, ks = 5, 7, 11, 13, (17, 19, 23)
    xs = [29, 31]
    vk = g.VerifyingKey(G1 * alpha, G2 * beta, G2 * gamma, G2 * delta, [G1 * k for k in ks])
    a, b = 37, 41
    vk_x = (ks[0] + ks[1] * xs[0] + ks[2] * xs[1]) % r
    c = (a * b - alpha * beta - gamma * vk_x) * pow(delta, -1, r) % r
    return vk, g.Proof(G1 * a, G2 * b, G1 * c), xs


def _has_groth16(C: ModuleType) -> bool:
    return "groth16" in getattr(C, "PROTOCOLS", ())


@entry_point
def groth16_decoders(C: ModuleType) -> Iterator[Target]:
    """groth16.Proof.from_bytes and VerifyingKey.from_bytes (default profile, either form):
    accepted values re-encode to the same bytes and hold only points of order r."""
    if not _has_groth16(C):
        return
    g = C.groth16
    vk, proof, _ = _groth16_sample(C)
    compressed_length = len(proof.to_bytes(True))

    def run_proof(data: bytes) -> None:
        p = g.Proof.from_bytes(data)
        assert p.to_bytes(len(data) == compressed_length) == bytes(data), "no round trip"
        for P, G in ((p.a, C.G1), (p.b, C.G2), (p.c, C.G1)):
            check_point(C, G, P, in_subgroup=True)

    def run_vk(data: bytes) -> None:
        k = g.VerifyingKey.from_bytes(data)
        again = [k.to_bytes(form) for form in (True, False)]
        assert bytes(data) in again, "no round trip"
        for P in (k.alpha_g1, *k.ic):
            check_point(C, C.G1, P, in_subgroup=True)
        for P in (k.beta_g2, k.gamma_g2, k.delta_g2):
            check_point(C, C.G2, P, in_subgroup=True)
        assert not any(P.is_identity() for P in (k.alpha_g1, k.beta_g2, k.gamma_g2, k.delta_g2))

    proofs = [proof, g.Proof(C.G1.identity(), proof.b, -proof.c)]
    yield Target("groth16.Proof.from_bytes", run_proof, (),
                 tuple(p.to_bytes(form) for p in proofs for form in (True, False)))  # fmt: skip
    yield Target("groth16.VerifyingKey.from_bytes", run_vk, (), (vk.to_bytes(True), vk.to_bytes(False)))


@entry_point
def groth16_verify(C: ModuleType) -> Iterator[Target]:
    """groth16.verify and batch_verify on proof bytes: a bool, never an exception (bytes that do
    not decode are an invalid proof); False is reported as a rejection.  A proof accepted by
    verify is accepted by batch_verify beside a valid one, and decodes."""
    if not _has_groth16(C):
        return
    g = C.groth16
    vk, proof, xs = _groth16_sample(C)
    pvk = g.prepare(vk)

    def run(data: bytes) -> None:
        ok = g.verify(pvk, bytes(data), xs)
        assert ok is g.verify(vk, bytes(data), xs), "prepared and plain keys disagree"
        batch = g.batch_verify(pvk, [proof, bytes(data)], [xs, xs])
        assert batch is ok, "batch_verify disagrees with verify"
        if not ok:
            raise ValueError("the proof does not verify")
        g.Proof.from_bytes(data)

    yield Target("groth16.verify", run, (), (proof.to_bytes(True), proof.to_bytes(False)))


@entry_point
def groth16_from_snarkjs(C: ModuleType) -> Iterator[Target]:
    """groth16.from_snarkjs on JSON bytes: data = verification_key.json NUL proof.json NUL
    public.json.  Accepted files give a key that to_snarkjs writes back to the same documents,
    and verify answers a bool."""
    if not _has_groth16(C) or C.groth16.SNARKJS_CURVE is None:
        return
    import json

    g = C.groth16
    vk, proof, xs = _groth16_sample(C)

    def run(data: bytes) -> None:
        parts = bytes(data).split(b"\x00")
        if len(parts) != 3:
            raise ValueError("expected three JSON documents")
        k, p, ins = g.from_snarkjs(*parts)
        docs = g.to_snarkjs(k, p, ins)
        assert g.from_snarkjs(*docs) == (k, p, ins), "no round trip"
        assert isinstance(g.verify(k, p, ins), bool)

    docs = g.to_snarkjs(vk, proof, xs)
    seed = b"\x00".join(json.dumps(d).encode() for d in docs)
    compact = b"\x00".join(json.dumps(d, separators=(",", ":")).encode() for d in docs)
    yield Target("groth16.from_snarkjs", run, (), (seed, compact))


@entry_point
def kzg_verify(C: ModuleType) -> Iterator[Target]:
    """kzg.verify on commitment || z || y || proof (compressed G1, big-endian Fr) under a small
    test setup: a bool for decodable input (False is reported as a rejection), ValueError for
    bad encodings; batch_verify agrees with it."""
    if not hasattr(C, "kzg"):
        return
    k = C.kzg
    setup = k.Setup.insecure_from_tau(0xC0FFEE, 4, lagrange=False)
    coeffs = [3, 1, 4, 1]
    commitment = k.commit(setup, coeffs)
    proof, y = k.open(setup, coeffs, 7)
    gl, fl = len(commitment.to_bytes()), len(y.to_bytes())

    def run(data: bytes) -> None:
        if len(data) != 2 * gl + 2 * fl:
            raise ValueError("wrong length")
        parts = (data[:gl], data[gl : gl + fl], data[gl + fl : gl + 2 * fl], data[gl + 2 * fl :])
        ok = k.verify(setup, *parts)
        assert k.batch_verify(setup, [parts[0]], [parts[1]], [parts[2]], [parts[3]]) is ok, "batch disagrees"
        if not ok:
            raise ValueError("the opening does not verify")

    seed = commitment.to_bytes() + C.Fr(7).to_bytes() + y.to_bytes() + proof.to_bytes()
    yield Target("kzg.verify", run, (len(seed),), (seed,))


@entry_point
def eip4844_verify(C: ModuleType) -> Iterator[Target]:
    """The EIP-4844 and EIP-7594 verifiers on bytes, under a small insecure setup (a known tau: for
    fuzzing only).  verify_kzg_proof on commitment || z || y || proof must agree with kzg.verify;
    verify_blob_kzg_proof on blob || commitment || proof; verify_cell_kzg_proof_batch on
    commitment || cell index (2 bytes, big-endian) || cell || proof, and a cell it accepts is also
    accepted in a batch beside a valid cell.  A bool for decodable input (False is reported as a
    rejection), ValueError for bad encodings or ranges."""
    if not hasattr(C, "eip4844"):
        return
    e, k = C.eip4844, C.kzg
    n = e.FIELD_ELEMENTS_PER_BLOB
    ts = e.TrustedSetup(k.Setup.insecure_from_tau(0xC0FFEE, n, g2_count=e.FIELD_ELEMENTS_PER_CELL + 1, lagrange=True))
    blob = b"".join(C.Fr(i * i + 7).to_bytes() for i in range(n))
    commitment = e.blob_to_kzg_commitment(blob, ts)
    z = C.Fr(0x1234567).to_bytes()
    proof, y = e.compute_kzg_proof(blob, z, ts)
    blob_proof = e.compute_blob_kzg_proof(blob, commitment, ts)
    cells, cell_proofs = e.compute_cells_and_kzg_proofs(blob, ts)
    gl, fl, cl = len(commitment), len(z), len(cells[0])

    def run_point(data: bytes) -> None:
        if len(data) != 2 * gl + 2 * fl:
            raise ValueError("wrong length")
        parts = (data[:gl], data[gl : gl + fl], data[gl + fl : gl + 2 * fl], data[gl + 2 * fl :])
        ok = e.verify_kzg_proof(*parts, ts)
        assert k.verify(ts.setup, *parts) is ok, "eip4844 and kzg disagree"
        if not ok:
            raise ValueError("the opening does not verify")

    def run_blob(data: bytes) -> None:
        if len(data) != len(blob) + 2 * gl:
            raise ValueError("wrong length")
        if not e.verify_blob_kzg_proof(data[: len(blob)], data[len(blob) : -gl], data[-gl:], ts):
            raise ValueError("the blob proof does not verify")

    def run_cell(data: bytes) -> None:
        if len(data) != 2 * gl + 2 + cl:
            raise ValueError("wrong length")
        c, index, cell, pi = data[:gl], int.from_bytes(data[gl : gl + 2], "big"), data[gl + 2 : -gl], data[-gl:]
        ok = e.verify_cell_kzg_proof_batch([c], [index], [cell], [pi], ts)
        if not ok:
            raise ValueError("the cell proof does not verify")
        both = e.verify_cell_kzg_proof_batch([commitment, c], [0, index], [cells[0], cell], [cell_proofs[0], pi], ts)
        assert both, "a cell accepted alone is refused in a batch beside a valid one"

    yield Target("eip4844.verify_kzg_proof", run_point, (2 * gl + 2 * fl,), (commitment + z + y + proof,))
    yield Target("eip4844.verify_blob_kzg_proof", run_blob, (len(blob) + 2 * gl,), (blob + commitment + blob_proof,))
    cell_seeds = tuple(commitment + i.to_bytes(2, "big") + cells[i] + cell_proofs[i] for i in (0, 5, len(cells) - 1))
    yield Target("eip4844.verify_cell_kzg_proof_batch", run_cell, (2 * gl + 2 + cl,), cell_seeds)


# The wasm32 host-call boundary's entry point lives in a module of its own; importing it registers it.
from security import fuzz_host_calls  # noqa: E402, F401
