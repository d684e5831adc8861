"""The wasm32 target of the twisted Edwards packages (generator/wasm.py, templates/c/edwards_wasm_abi.c.j2):
the known-answer program (c/kat_main.c, tests/cross_kat_edwards.py) built for wasm32-wasi gives,
under wasmtime, output byte-identical to the native build; the byte-level ABI of c/wasm_abi.c,
through the Python loader (generator.wasm_loader.WasmEdwards), agrees with the Python module on
every function (the Edwards points in every serialization profile, add, [k]P constant and
variable time, MSM on both sides of the Weierstrass threshold, RFC 9380 hashing, SWPoint where
the curve has it) on random inputs, answers bad input of every kind with the error code the
Python module's ValueError names, never a trap; ark-vrf's tiny and thin vectors
(tests/vectors/edwards_companions/ark-vrf) pass through the module, and its proofs match the
Python module's. The module imports nothing (no libc, no WASI) and stays under 160 KB.

Each module is built once per content hash (tests/wasm_util.py's cached_wasm). Bandersnatch (GLV,
SWPoint, three VRF suites, SHAKE128) and ed_on_bw6_761 (6 limbs) run by default; the other
curves with --runslow (`nox -s wasm` passes it). Needs ziglang and wasmtime (the `wasm` extra);
without them these tests skip locally and fail under CI. The Node tests are in
tests/wasm/test_wasm_edwards_node.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import cross_kat
import pytest
from build_cache import cached_kat
from conftest import REPO_ROOT, edwards_packages
from vartime_util import SAYS_VARIABLE_TIME, documented_functions
from vectors_util import read_vector_json
from wasm_util import (
    VRF_SUITES,
    cached_wasm,
    curve_file,
    edwards_params,
    require_wasm,
    run_wasi,
)

from generator import wasm

MAX_WASM_BYTES = 160 * 1024


def _with(path: str) -> list:
    """The cases of the packages that have the file ``path`` (``_weierstrass.py``: SWPoint;
    ``ecvrf.py``: ark-vrf's VRF)."""
    return edwards_params(p for p in edwards_packages() if (REPO_ROOT / "generated" / p / path).is_file())


# --------------------------------------------------------------------------------------------
# The known-answer program: wasm32 under wasmtime against the native build


def _kat_matches_native(pkg_dir: Path, model, out_dir: Path, limb_bits: int) -> None:
    from cross_kat_edwards import make_edwards_vectors

    vectors = make_edwards_vectors(model)
    requests = "".join(v.line() for v in vectors)
    native = cross_kat.run_kat(cached_kat(pkg_dir, "native"), "native", requests)  # shared with test_cross_edwards
    got = run_wasi(wasm.build_kat_wasm(pkg_dir, out_dir, limb_bits), requests)
    bad = cross_kat.compare(vectors, {"native": native, f"wasm32-{limb_bits}": got})
    assert not bad, f"{model.name}: {len(bad)} mismatches, e.g.\n" + "\n".join(map(str, bad[:5]))


@pytest.mark.parametrize("pkg", edwards_params(edwards_packages()))
def test_kat_program_matches_native(pkg, tmp_path) -> None:
    require_wasm()
    from generator.pipeline import derive_model

    _kat_matches_native(REPO_ROOT / "generated" / pkg, derive_model(curve_file(pkg)), tmp_path, wasm.DEFAULT_LIMB_BITS)


@pytest.mark.slow
def test_kat_program_other_limb_width(tmp_path) -> None:
    """32-bit limbs (not the wasm32 build's choice) give the same answers too."""
    require_wasm()
    from generator.pipeline import derive_model

    _kat_matches_native(REPO_ROOT / "generated" / "bandersnatch", derive_model(curve_file("bandersnatch")), tmp_path,
                        96 - wasm.DEFAULT_LIMB_BITS)


@pytest.mark.slow  # renders a package and builds its module of its own
def test_gen_curve_builds_the_module(tmp_path) -> None:
    """`gen-curve <edwards curve> --target wasm32` is no longer refused: it writes the .mjs and
    builds the .wasm, which loads and agrees with the committed package's."""
    require_wasm()
    from generator import cli
    from generator.wasm_loader import WasmEdwards

    assert cli.main(["ed_on_bls12_377", "--out", str(tmp_path), "--target", "wasm32"]) == 0
    pkg_dir = tmp_path / "ed_on_bls12_377"
    module = pkg_dir / "wasm" / "ed_on_bls12_377.wasm"
    assert module.is_file() and (pkg_dir / "wasm" / "ed_on_bls12_377.mjs").is_file()
    from generated import ed_on_bls12_377 as C

    w = WasmEdwards(module, C.SERIALIZATION_PROFILES)
    P = C.Point.generator() * 77
    assert w.mul(C.Point.generator().to_bytes(), (77).to_bytes(len(C.Fr(0).to_bytes()), "little")) == P.to_bytes()


# --------------------------------------------------------------------------------------------
# The ABI through the Python loader


class Abi:
    """The Python module, its loaded .wasm and helpers of one curve."""

    def __init__(self, C, w, model) -> None:
        self.C, self.w, self.model = C, w, model
        self.nb, self.nbr = len(C.Fq(0).to_bytes()), len(C.Fr(0).to_bytes())
        self.rng = random.Random(f"wasm-edwards-{C.NAME}")

    def point(self):
        return self.C.Point.generator() * self.rng.randrange(1, self.C.R)

    def scalar(self, k: int) -> bytes:
        return k.to_bytes(self.nbr, "little")


@pytest.fixture(scope="module", params=edwards_params(edwards_packages()))
def abi(request, curve_module) -> Abi:
    from generator.pipeline import derive_model
    from generator.wasm_loader import WasmEdwards

    C = curve_module(request.param)
    suites = list(C.ecvrf.SUITES) if hasattr(C, "ecvrf") else []
    w = WasmEdwards(cached_wasm(REPO_ROOT / "generated" / request.param), C.SERIALIZATION_PROFILES, suites)
    return Abi(C, w, derive_model(curve_file(request.param)))


def test_module_is_standalone(abi) -> None:
    """No imports (no libc, no WASI); the memory and the ABI exported, SWPoint's and the VRF's
    where the package has them; every function named *_vartime or documented constant time."""
    C, w = abi.C, abi.w
    assert list(w.module.imports) == []
    names = {e.name for e in w.module.exports}
    te = {"pf_te_decode_vartime", "pf_te_from_affine_vartime", "pf_te_to_affine_vartime", "pf_te_generator",
          "pf_te_add_vartime", "pf_te_mul", "pf_te_mul_vartime", "pf_te_msm_scratch_size", "pf_te_msm_vartime",
          "pf_te_hash_to_curve_vartime", "pf_te_encode_to_curve_vartime", "pf_size_te_compressed",
          "pf_size_te_uncompressed", "pf_size_scalar", "pf_te_default_profile"}
    sw = {"pf_sw_decode_vartime", "pf_sw_from_affine_vartime", "pf_sw_to_affine_vartime", "pf_sw_generator",
          "pf_sw_from_te_vartime", "pf_sw_to_te_vartime", "pf_sw_add_vartime", "pf_sw_mul", "pf_sw_mul_vartime",
          "pf_sw_msm_scratch_size", "pf_sw_msm_vartime", "pf_size_sw_compressed", "pf_size_sw_uncompressed"}
    vrf = {"pf_ecvrf_public_key", "pf_ecvrf_output", "pf_ecvrf_prove", "pf_ecvrf_prove_thin", "pf_ecvrf_verify_vartime",
           "pf_ecvrf_verify_thin_vartime", "pf_ecvrf_proof_to_hash_vartime", "pf_ecvrf_hash_to_curve_vartime",
           "pf_ecvrf_point_size", "pf_ecvrf_proof_size", "pf_ecvrf_thin_proof_size"}
    expected = {"memory", "__heap_base"} | te | (sw if hasattr(C, "SWPoint") else set()) | (vrf if hasattr(C, "ecvrf") else set())
    assert names == expected, (names - expected, expected - names)
    # the naming rule of tests/security/test_vartime_names.py, on this ABI
    documented = documented_functions(Path(C.__file__).parent / "c" / "wasm_abi.c")
    one_liners = {n for n in names if n.startswith("pf_size") or n.startswith("pf_ecvrf_") and n.endswith("_size")}
    assert {name for name, _ in documented} >= names - {"memory", "__heap_base", "pf_te_default_profile"} - one_liners
    unnamed = [name for name, doc in documented if SAYS_VARIABLE_TIME.search(doc) and not name.endswith("_vartime")]
    assert not unnamed, unnamed


def test_wasm_size(abi) -> None:
    size = cached_wasm(Path(abi.C.__file__).parent).stat().st_size
    assert size <= MAX_WASM_BYTES, f"{abi.C.NAME}: {size} bytes"


def test_points_in_every_profile(abi) -> None:
    """decode from each profile to each profile (both forms where they exist), the affine
    coordinates both ways, the generator."""
    C, w = abi.C, abi.w
    assert w.default_profile == C.DEFAULT_PROFILE
    assert w.generator() == C.Point.generator().to_bytes()
    for P in (abi.point(), abi.point(), C.Point.identity(), C.Point.generator()):
        x, y = (v.to_bytes(abi.nb, "little") for v in P.to_affine())
        for prof in C.SERIALIZATION_PROFILES:
            data = P.to_bytes(profile=prof)
            assert w.to_affine(data, prof) == (x, y)
            assert w.from_affine(x, y, prof) == data
            for out in C.SERIALIZATION_PROFILES:
                assert w.decode(data, prof, out) == P.to_bytes(profile=out), (prof, out)
                try:
                    expected = P.to_bytes(False, out)
                except ValueError:  # no uncompressed form in that profile
                    expected = None
                if expected is not None:
                    assert w.decode(data, prof, out, compressed=False) == expected
                    assert w.decode(expected, out, prof) == data
            assert w.call("pf_te_decode_vartime", 0, data, extra=(w.profile_index(prof),) * 2) == b""  # validate only


def test_arithmetic_matches_the_python_module(abi) -> None:
    C, w = abi.C, abi.w
    P, Q, ident = abi.point(), abi.point(), C.Point.identity()
    unc = "arkworks" in C.SERIALIZATION_PROFILES and C.DEFAULT_PROFILE == "arkworks"
    for a, b in ((P, Q), (P, P), (P, -P), (ident, Q), (P, ident), (ident, ident)):
        assert w.add(a.to_bytes(), b.to_bytes()) == (a + b).to_bytes()
        if unc:
            assert w.add(a.to_bytes(False), b.to_bytes(), compressed=False) == (a + b).to_bytes(False)
    top = (1 << (8 * abi.nbr)) - 1
    for k in (0, 1, 2, 15, 16, C.R - 1, C.R, C.R + 1, top, abi.rng.randrange(C.R), abi.rng.randrange(top)):
        for A in (P, ident):
            assert w.mul(A.to_bytes(), abi.scalar(k)) == (A * k).to_bytes(), k
            assert w.mul_vartime(A.to_bytes(), abi.scalar(k)) == A.mul_vartime(k).to_bytes(), k
    dst = b"QUUX-V01-CS02-with-" + C.Point.HASH_SUITE.encode()
    for msg in (b"", b"abc", bytes(200), bytes(range(256)) * 5):
        assert w.hash_to_curve(msg, dst) == C.Point.hash_to_curve(msg, dst).to_bytes()
        assert w.encode_to_curve(msg, dst) == C.Point.encode_to_curve(msg, dst).to_bytes()
    for long_dst in (b"x" * 255, b"x" * 256, b"y" * 1000):  # RFC 9380 section 5.3.3: hashed first above 255
        assert w.hash_to_curve(b"abc", long_dst) == C.Point.hash_to_curve(b"abc", long_dst).to_bytes()
    for i in range(20):
        msg = abi.rng.randbytes(abi.rng.randrange(300))
        assert w.hash_to_curve(msg, dst) == C.Point.hash_to_curve(msg, dst).to_bytes(), i


def _msm_sizes(abi) -> list[int]:
    from generator.emit.context_edwards import sw_msm_min_n

    threshold = sw_msm_min_n(abi.model)
    return [0, 1, 3, 40, 200] + ([threshold - 1, threshold] if threshold else [])


def test_msm_matches_the_python_module(abi) -> None:
    """Both bucket methods (extended coordinates below the Weierstrass threshold, batch-affine on
    the Weierstrass model from it), the identity and repeated points among the inputs, scalars of
    any value; and the scratch size exactly enough at every size."""
    from generator.wasm_loader import WasmAbiError

    C, w = abi.C, abi.w
    base = [abi.point() for _ in range(16)] + [C.Point.identity()]
    top = 1 << (8 * abi.nbr)
    for n in _msm_sizes(abi):
        pts = [base[abi.rng.randrange(len(base))] for _ in range(n)]
        ks = [abi.rng.randrange(top) for _ in range(n)]
        for i in range(0, n, 7):
            ks[i] = (0, 1, C.R - 1, C.R)[i % 4]
        expected = C.Point.msm(pts, ks) if n else C.Point.identity()
        assert w.msm([p.to_bytes() for p in pts], [abi.scalar(k) for k in ks]) == expected.to_bytes(), n
        if n:
            need = w.exports["pf_te_msm_scratch_size"](w.store, n)
            with pytest.raises(WasmAbiError) as err:
                w.msm([p.to_bytes() for p in pts], [abi.scalar(k) for k in ks], scratch=need - 1)
            assert err.value.code == 10
    # past the most points the module takes, no scratch is large enough (no size_t overflow)
    fns = ["pf_te_msm_scratch_size"] + (["pf_sw_msm_scratch_size"] if w.has_sw else [])
    assert all(w.exports[fn](w.store, 1 << 21) in (-1, (1 << 32) - 1) for fn in fns)


def _te_bad(abi) -> list[tuple[str, bytes, str, int]]:
    """(what, encoding, profile, expected code) of bad encodings of every kind, each checked to be
    refused by the Python module's from_bytes with the matching message."""
    C = abi.C
    P = abi.point()
    prof = C.DEFAULT_PROFILE
    comp = P.to_bytes()
    p_le = C.P.to_bytes(abi.nb, "little")
    cases = [("empty", b"", prof, 1), ("one byte short", comp[:-1], prof, 1), ("one byte long", comp + b"\0", prof, 1),
             ("y = p", p_le, prof, 5), ("y = p with the sign bit", p_le[:-1] + bytes([p_le[-1] | 0x80]), prof, 5),
             ("y all ones", b"\xff" * (abi.nb - 1) + b"\x7f", prof, 5),
             ("the identity with the sign bit", (1).to_bytes(abi.nb, "little")[:-1] + b"\x80", prof, 7),
             ("outside the subgroup: P + (0, -1)",
              (P + C.Point.from_affine(0, C.P - 1, check=False)).to_bytes(), prof, 9),
             ("(0, -1)", C.Point.from_affine(0, C.P - 1, check=False).to_bytes(), prof, 9)]
    y = next(y for y in range(2, 500) if not _liftable(C, y))
    cases.append(("y without a point", y.to_bytes(abi.nb, "little"), prof, 6))
    if "arkworks" in C.SERIALIZATION_PROFILES:
        unc = P.to_bytes(False, "arkworks")
        cases += [("x = p, uncompressed", p_le + unc[abi.nb:], "arkworks", 5),
                  ("off the curve, uncompressed", unc[:-1] + bytes([unc[-1] ^ 1]), "arkworks", 8)]
    for other in C.SERIALIZATION_PROFILES:
        try:
            P.to_bytes(False, other)
        except ValueError:
            cases.append((f"uncompressed in {other}", P.to_bytes(False, "arkworks") if "arkworks" in C.SERIALIZATION_PROFILES
                          else comp * 2, other, 1))
            break
    return cases


def _liftable(C, y: int) -> bool:
    num, den = (y * y - 1) % C.P, (C.D * y * y - C.A) % C.P
    return den != 0 and C.Fq(num * pow(den, -1, C.P) % C.P).is_square()


def _python_code(C, data: bytes, profile: str) -> int:
    """The ABI code of the Python module's from_bytes refusal of data."""
    try:
        C.Point.from_bytes(data, profile=profile)
    except ValueError as exc:
        msg = str(exc)
    else:
        return 0
    for words, code in (("expected", 1), ("canonical (>=", 5), ("sign bit", 7), ("subgroup", 9)):
        if words in msg:
            return code
    assert "not on the curve" in msg, msg
    return 6 if len(data) == len(C.Fq(0).to_bytes()) else 8


def test_bad_points_are_error_codes(abi) -> None:
    """Wrong lengths, y (or x) not below p, y without a point, the sign bit on x = 0, off the curve,
    outside the subgroup, an unknown profile: the code the Python module's error names, from every
    function that reads a point; never a trap."""
    from generator.wasm_loader import WasmAbiError

    C, w = abi.C, abi.w
    good = abi.point().to_bytes()
    for what, data, prof, code in _te_bad(abi):
        assert _python_code(C, data, prof) == code, what
        calls = [lambda d, prof=prof: w.decode(d, prof), lambda d, prof=prof: w.to_affine(d, prof)]
        if prof == C.DEFAULT_PROFILE:
            calls += [lambda d: w.add(d, good), lambda d: w.add(good, d), lambda d: w.mul(d, abi.scalar(5)),
                      lambda d: w.mul_vartime(d, abi.scalar(5)), lambda d: w.msm([d, d], [abi.scalar(1)] * 2)]
            if w.has_sw:
                calls.append(lambda d: w.sw_from_te(d))
        for fn in calls:
            with pytest.raises(WasmAbiError) as err:
                fn(data)
            assert err.value.code == code, (what, err.value)
    for unknown in (len(C.SERIALIZATION_PROFILES), (1 << 31) - 1):
        for fn in (lambda u: w.decode(good, u), lambda u: w.decode(good, None, u),
                   lambda u: w.to_affine(good, u), lambda u: w.from_affine(*w.to_affine(good), u)):
            with pytest.raises(WasmAbiError) as err:
                fn(unknown)
            assert err.value.code == 15
    x, y = w.to_affine(good)
    for xy, code in ((C.P.to_bytes(abi.nb, "little") + y, 5), (x + bytes([y[0] ^ 1]) + y[1:], 8)):
        with pytest.raises(WasmAbiError) as err:
            w.from_affine(xy[: abi.nb], xy[abi.nb:])
        assert err.value.code == code
    torsion = C.Point.from_affine(0, C.P - 1, check=False)
    with pytest.raises(WasmAbiError) as err:  # on the curve, outside the subgroup
        w.from_affine((0).to_bytes(abi.nb, "little"), (C.P - 1).to_bytes(abi.nb, "little"))
    assert err.value.code == 9 and not torsion.in_subgroup()
    # lengths of scalars, outputs, arrays; an empty DST
    for fn, code in ((lambda: w.mul(good, b"\x01"), 1), (lambda: w.mul_vartime(good, bytes(abi.nbr + 1)), 1),
                     (lambda: w.call("pf_te_add_vartime", abi.nb + 1, good, good), 1),
                     (lambda: w.call("pf_te_generator", abi.nb - 1), 1),
                     (lambda: w.call("pf_te_msm_vartime", abi.nb, good * 2, abi.scalar(1), extra=(2,), scratch=1 << 16), 1),
                     (lambda: w.call("pf_te_msm_vartime", abi.nb, good * 2 + b"\0", abi.scalar(1) * 2, extra=(2,),
                                     scratch=1 << 16), 1),
                     (lambda: w.hash_to_curve(b"abc", b""), 11), (lambda: w.encode_to_curve(b"abc", b""), 11),
                     (lambda: w.call("pf_te_hash_to_curve_vartime", abi.nb + 2, b"abc", b"dst"), 1)):
        with pytest.raises(WasmAbiError) as err:
            fn()
        assert err.value.code == code


# --------------------------------------------------------------------------------------------
# SWPoint


def _sw(abi):
    assert abi.w.has_sw
    return abi.C.SWPoint


SW_CASES = pytest.mark.parametrize("abi", _with("_weierstrass.py"), indirect=True)
VRF_CASES = pytest.mark.parametrize("abi", _with("ecvrf.py"), indirect=True)


@SW_CASES
def test_sw_matches_the_python_module(abi) -> None:
    C, w = abi.C, abi.w
    SW = _sw(abi)
    assert w.sw_generator() == SW.generator().to_bytes() and w.sw_generator(False) == SW.generator().to_bytes(False)
    P, Q, ident = abi.point().to_weierstrass(), abi.point().to_weierstrass(), SW.identity()
    for A in (P, Q, ident):
        for comp in (True, False):
            assert w.sw_decode(A.to_bytes(comp), compressed=not comp) == A.to_bytes(not comp)
    for a, b in ((P, Q), (P, P), (P, -P), (ident, Q), (P, ident), (ident, ident)):
        assert w.sw_add(a.to_bytes(), b.to_bytes(False)) == (a + b).to_bytes()
    top = (1 << (8 * abi.nbr)) - 1
    for k in (0, 1, 2, C.R - 1, C.R, top, abi.rng.randrange(C.R)):
        for A in (P, ident):
            assert w.sw_mul(A.to_bytes(), abi.scalar(k)) == (A * k).to_bytes(), k
            assert w.sw_mul_vartime(A.to_bytes(), abi.scalar(k), compressed=False) == A.mul_vartime(k).to_bytes(False)
    E = abi.point()
    assert w.sw_from_te(E.to_bytes()) == SW.from_edwards(E).to_bytes()
    assert w.sw_to_te(E.to_weierstrass().to_bytes()) == E.to_bytes()
    assert w.sw_to_te(ident.to_bytes()) == C.Point.identity().to_bytes()
    x, y = (v.to_bytes(abi.nb, "little") for v in P.to_affine())
    assert w.sw_to_affine(P.to_bytes()) == (x, y) and w.sw_from_affine(x, y) == P.to_bytes()
    base = [abi.point().to_weierstrass() for _ in range(8)] + [ident]
    for n in (0, 1, 5, 40, 300):
        pts = [base[abi.rng.randrange(len(base))] for _ in range(n)]
        ks = [abi.rng.randrange(top + 1) for _ in range(n)]
        expected = SW.msm(pts, ks) if n else ident
        assert w.sw_msm([p.to_bytes() for p in pts], [abi.scalar(k) for k in ks]) == expected.to_bytes(), n


@SW_CASES
def test_sw_bad_points_are_error_codes(abi) -> None:
    from generator.wasm_loader import WasmAbiError

    C, w = abi.C, abi.w
    SW = _sw(abi)
    n = C.SW_POINT_LEN
    P = abi.point().to_weierstrass()
    comp, unc = P.to_bytes(), P.to_bytes(False)
    two = C.Point.from_affine(0, C.P - 1, check=False).to_weierstrass()   # (A/(3B), 0), of order 2
    A, B = C.WEIERSTRASS_A, C.WEIERSTRASS_B
    off = next(x for x in range(2, 500) if not C.Fq((x ** 3 + A * x + B) % C.P).is_square())
    flag_at = n - 1
    cases = [("empty", b"", 1), ("short", comp[:-1], 1),
             ("both flags", comp[:flag_at] + bytes([comp[flag_at] | 0xC0]), 2),
             ("x = p", C.P.to_bytes(n, "little"), 5),
             ("the identity with x != 0", (1).to_bytes(n - 1, "little") + b"\x40", 3),
             ("x without a point", off.to_bytes(n, "little"), 6),
             ("y = 0 with the negative flag", two.to_bytes()[:flag_at] + bytes([two.to_bytes()[flag_at] | 0x80]), 7),
             ("off the curve, uncompressed", unc[:abi.nb] + bytes([unc[abi.nb] ^ 1]) + unc[abi.nb + 1:], 8),
             ("the sign flag against y, uncompressed", unc[:-1] + bytes([unc[-1] ^ 0x80]), 2),
             ("of order 2", two.to_bytes(), 9), ("P + (order 2)", (P + two).to_bytes(), 9)]
    codes = {"both": 2, "not below p": 5, "must have zero": 3, "no point": 6, "y = 0": 7, "not on the curve": 8,
             "sign flag": 2, "subgroup": 9, "expected": 1}
    for what, data, code in cases:
        with pytest.raises(ValueError) as py:
            SW.from_bytes(data)
        assert [c for words, c in codes.items() if words in str(py.value)][:1] == [code], (what, py.value)
        for fn in (w.sw_decode, lambda d: w.sw_add(d, comp), lambda d: w.sw_mul(d, abi.scalar(3)),
                   lambda d: w.sw_mul_vartime(d, abi.scalar(3)), lambda d: w.sw_msm([d], [abi.scalar(3)]),
                   w.sw_to_te, w.sw_to_affine):
            with pytest.raises(WasmAbiError) as err:
                fn(data)
            assert err.value.code == code, (what, err.value)
    with pytest.raises(WasmAbiError) as err:
        w.sw_to_affine(SW.identity().to_bytes())
    assert err.value.code == 12
    with pytest.raises(WasmAbiError) as err:
        need = w.exports["pf_sw_msm_scratch_size"](w.store, 3)
        w.sw_msm([comp] * 3, [abi.scalar(1)] * 3, scratch=need - 1)
    assert err.value.code == 10


# --------------------------------------------------------------------------------------------
# ark-vrf's VRF


def _vrf(abi):
    assert abi.w.suites
    return abi.C.ecvrf


def _vectors(prefix: str, scheme: str) -> list[dict]:
    data = read_vector_json("edwards_companions", f"ark-vrf/{prefix}_{scheme}.json")
    assert len(data) == 7
    return data


@VRF_CASES
def test_vrf_vectors(abi) -> None:
    """Every tiny and thin vector of the package's suites: h, pk, gamma, the proof, beta, byte
    for byte from the module, and the vectors' own proofs verify in it."""
    vrf = _vrf(abi)
    w = abi.w
    prefixes = [prefix for prefix, (pkg, _) in VRF_SUITES.items() if pkg == Path(abi.C.__file__).parent.name]
    assert {VRF_SUITES[p][1] for p in prefixes} == set(vrf.SUITES)
    for prefix in prefixes:
        suite = VRF_SUITES[prefix][1]
        for v in _vectors(prefix, "tiny"):
            sk, alpha, ad = (bytes.fromhex(v[k]) for k in ("sk", "alpha", "ad"))
            assert w.vrf_hash_to_curve(alpha, suite).hex() == v["h"], v["comment"]
            assert w.vrf_public_key(sk, suite).hex() == v["pk"]
            assert w.vrf_output(sk, alpha, suite).hex() == v["gamma"]
            pi = w.vrf_prove(sk, alpha, ad, suite)
            assert pi.hex() == v["gamma"] + v["proof_c"] + v["proof_s"], v["comment"]
            assert w.vrf_proof_to_hash(pi, suite).hex() == v["beta"]
            assert w.vrf_verify(bytes.fromhex(v["pk"]), alpha, ad, pi, suite) is True
            assert w.vrf_verify(bytes.fromhex(v["pk"]), alpha + b"!", ad, pi, suite) is False
        for v in _vectors(prefix, "thin"):
            sk, alpha, ad = (bytes.fromhex(v[k]) for k in ("sk", "alpha", "ad"))
            pi = w.vrf_prove_thin(sk, alpha, ad, suite)
            assert pi.hex() == v["gamma"] + v["proof_r"] + v["proof_s"], v["comment"]
            assert w.vrf_proof_to_hash(pi, suite).hex() == v["beta"]
            assert w.vrf_verify_thin(bytes.fromhex(v["pk"]), alpha, ad, pi, suite) is True
            assert w.vrf_verify_thin(bytes.fromhex(v["pk"]), alpha, ad + b"!", pi, suite) is False


@VRF_CASES
def test_vrf_matches_the_python_module(abi) -> None:
    """Random keys, inputs and additional data: the module's keys, outputs and proofs are the
    Python module's, each verifies in the other, and tampering gives False."""
    vrf = _vrf(abi)
    C, w = abi.C, abi.w
    for suite in vrf.SUITES:
        for _ in range(3):
            x = abi.rng.randrange(1, C.R)
            sk = abi.scalar(x)
            alpha, ad = abi.rng.randbytes(abi.rng.randrange(80)), abi.rng.randbytes(abi.rng.randrange(20))
            pk = vrf.public_key(sk, suite)
            assert w.vrf_public_key(sk, suite) == pk
            assert w.vrf_hash_to_curve(alpha, suite) == vrf.encode_point(vrf.hash_to_curve(alpha, suite), suite)
            tiny, thin = vrf.prove(sk, alpha, ad, suite), vrf.prove_thin(sk, alpha, ad, suite)
            assert w.vrf_prove(sk, alpha, ad, suite) == tiny and w.vrf_prove_thin(sk, alpha, ad, suite) == thin
            assert w.vrf_verify(pk, alpha, ad, tiny, suite) and w.vrf_verify_thin(pk, alpha, ad, thin, suite)
            assert w.vrf_proof_to_hash(thin, suite) == vrf.proof_to_hash(thin, suite)
            n = vrf.SUITES[suite].point_len
            flipped_c = tiny[:n] + bytes([tiny[n] ^ 1]) + tiny[n + 1:]
            assert w.vrf_verify(pk, alpha, ad, flipped_c, suite) is False
            assert w.vrf_verify(vrf.public_key(x % (C.R - 1) + 1, suite), alpha, ad, tiny, suite) is False
            assert w.vrf_verify(pk, alpha, ad, vrf.output(12345, alpha, suite) + tiny[n:], suite) is False
            other_s = thin[:2 * n] + bytes([thin[2 * n] ^ 1]) + thin[2 * n + 1:]   # s + 1 or s - 1
            assert w.vrf_verify_thin(pk, alpha, ad, other_s, suite) is vrf.verify_thin(pk, alpha, ad, other_s, suite) is False


@VRF_CASES
def test_vrf_bad_input_is_an_error_code(abi) -> None:
    """Malformed keys and proofs (lengths, points off the curve, outside the subgroup, the
    identity, s not below r), secret keys out of range, unknown suites: an error code each, where
    the Python module raises ValueError."""
    from generator.wasm_loader import WasmAbiError

    vrf = _vrf(abi)
    C, w = abi.C, abi.w
    for suite in vrf.SUITES:
        s = vrf.SUITES[suite]
        n = s.point_len
        sk = abi.scalar(987654321)
        pk, alpha = vrf.public_key(sk, suite), b"alpha"
        pi, thin = vrf.prove(sk, alpha, b"", suite), vrf.prove_thin(sk, alpha, b"", suite)
        if s.model == "weierstrass":
            identity, two = C.SWPoint.identity().to_bytes(), C.Point.from_affine(0, C.P - 1, check=False).to_weierstrass().to_bytes()
            big = C.P.to_bytes(n, "little")
        else:
            identity, two = (1).to_bytes(n, "little"), (C.P - 1).to_bytes(n, "little")
            big = C.P.to_bytes(n, "little")
        cases = [("short key", pk[:-1], pi, 1), ("long proof", pk, pi + b"\0", 1), ("the identity key", identity, pi, 12),
                 ("a key of order 2", two, pi, 9), ("a key not below p", big, pi, 5),
                 ("gamma of order 2", pk, two + pi[n:], 9), ("gamma the identity", pk, identity + pi[n:], 12),
                 ("s = r", pk, pi[:n + 16] + C.R.to_bytes(abi.nbr, "little"), 13)]
        for what, key, proof, code in cases:
            with pytest.raises(ValueError):
                vrf.verify(key, alpha, b"", proof, suite)
            with pytest.raises(WasmAbiError) as err:
                w.vrf_verify(key, alpha, b"", proof, suite)
            assert err.value.code == code, (suite, what, err.value)
        for what, proof, code in (("thin: R the identity", thin[:n] + identity + thin[2 * n:], 12),
                                  ("thin: a tiny proof", pi, 1), ("thin: R of order 2", thin[:n] + two + thin[2 * n:], 9)):
            with pytest.raises(ValueError):
                vrf.verify_thin(pk, alpha, b"", proof, suite)
            with pytest.raises(WasmAbiError) as err:
                w.vrf_verify_thin(pk, alpha, b"", proof, suite)
            assert err.value.code == code, (suite, what)
        for bad, code in ((bytes(abi.nbr), 13), (C.R.to_bytes(abi.nbr, "little"), 13), (b"\x01" * (abi.nbr - 1), 1)):
            with pytest.raises(ValueError):
                vrf.public_key(bad, suite)
            for fn in (lambda k, s: w.vrf_public_key(k, s), lambda k, s: w.vrf_prove(k, b"alpha", b"", s),
                       lambda k, s: w.vrf_prove_thin(k, b"alpha", b"", s), lambda k, s: w.vrf_output(k, b"alpha", s)):
                with pytest.raises(WasmAbiError) as err:
                    fn(bad, suite)
                assert err.value.code == code
        with pytest.raises(WasmAbiError) as err:
            w.vrf_proof_to_hash(pi[:-1], suite)
        assert err.value.code == 1
        with pytest.raises(WasmAbiError) as err:
            w.call("pf_ecvrf_prove", len(pi) + 1, sk, alpha, b"", extra=(w.suite_index(suite),))
        assert err.value.code == 1
    for fn in (lambda i: w.vrf_public_key(abi.scalar(5), i), lambda i: w.vrf_hash_to_curve(b"", i),
               lambda i: w.vrf_proof_to_hash(bytes(100), i), lambda i: w.vrf_verify(bytes(32), b"", b"", bytes(80), i)):
        with pytest.raises(WasmAbiError) as err:
            fn(len(vrf.SUITES))
        assert err.value.code == 15
    assert w.exports["pf_ecvrf_point_size"](w.store, len(vrf.SUITES)) == 0


def test_no_trap_on_random_bytes(abi) -> None:
    """Random bytes of every length near the valid ones into every decoder: an error code or a
    result, never a trap (a wasmtime trap would raise something other than WasmAbiError)."""
    from generator.wasm_loader import WasmAbiError

    C, w = abi.C, abi.w
    lengths = sorted({0, 1, abi.nb - 1, abi.nb, abi.nb + 1, 2 * abi.nb, 2 * abi.nb + 1}
                     | ({C.SW_POINT_LEN, C.SW_UNCOMPRESSED_LEN} if w.has_sw else set()))
    fns = [lambda d: w.decode(d), lambda d: w.add(d, d), lambda d: w.mul(d, d[: abi.nbr].ljust(abi.nbr, b"\0"))]
    if w.has_sw:
        fns += [w.sw_decode, lambda d: w.sw_add(d, d)]
    for suite in w.suites:
        fns.append(lambda d, suite=suite: w.vrf_verify(d, b"", b"", d + d + d, suite))
        fns.append(lambda d, suite=suite: w.vrf_proof_to_hash(d * 3, suite))
    seen = set()
    for length in lengths:
        for _ in range(10):
            data = abi.rng.randbytes(length)
            for fn in fns:
                try:
                    fn(data)
                    seen.add(0)
                except WasmAbiError as exc:
                    seen.add(exc.code)
    assert seen - {0}, seen
