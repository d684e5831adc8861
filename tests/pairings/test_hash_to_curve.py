"""Hash to curve (RFC 9380).

* expand_message_xmd against RFC 9380 appendix K (SHA-256 and SHA-512 files) in every generated module and
  in the reference;
* the four BLS12-381 RFC suites and the four BLS12-377 arkworks suites, every vector, every field
  (u from hash_to_field, Q0/Q1 or Q from map_to_curve, P from hash_to_curve / encode_to_curve),
  both in the generated module and in the plain reference implementation;
* every curve against the reference on edge and random inputs (BN254 and custom curves in
  test_custom_curves.py by Shallue-van de Woestijne; BW6-761's SSWU suites, which have no outside
  vectors): outputs on the curve, in the subgroup, and equal to the reference;
* suite labels (RFC suites only where RFC 9380 defines them), curve-file validation and the
  derivation's own checks (a damaged isogeny, Z or h_eff is rejected).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from conftest import REPO_ROOT, TESTS_DIR
from hash_to_curve_util import check_against_reference, map_params, ref_ints, ref_point
from vectors_util import read_vector_json

from generator.derive.checks import DerivationError
from generator.derive.model import CurveModel, build_model
from generator.params import CurveFileError, load_curve_file, parse_curve_text
from generator.pipeline import derive_model
from generator.reference import ReferencePairing, reference_for_model
from generator.reference import hash_to_curve as ref_h2c

RFC_DIR = "rfc9380_hash_to_curve_cfrg"
ARK_DIR = "bls12377_hash_to_curve_mmagician"
# (vector set in tests/vectors, file prefix, package, curve file, the set holds RFC 9380 suites)
SUITE_SOURCES = [
    (RFC_DIR, "BLS12381", "bls12_381", "bls12-381", True),
    (ARK_DIR, "BLS12377", "bls12_377", "bls12-377", False),
]
SVDW_PACKAGES = [("bn254", "bn254")]
# SSWU suites without outside vectors are checked against the reference only.
SSWU_PACKAGES = [(s[2], s[3]) for s in SUITE_SOURCES] + [("bw6_761", "bw6-761")]

_MODELS: dict[str, CurveModel] = {}


def model_of(curve_file: str) -> CurveModel:
    if curve_file not in _MODELS:
        _MODELS[curve_file] = derive_model(REPO_ROOT / "curves" / f"{curve_file}.toml")
    return _MODELS[curve_file]


def reference_of(m: CurveModel) -> ReferencePairing:
    return reference_for_model(m)


def parse_elem(text: str) -> int | tuple[int, ...]:
    """A vector value: "0x.." (Fp) or "0x<c0>,0x<c1>" (Fp2)."""
    parts = tuple(int(x, 16) for x in text.split(","))
    return parts if len(parts) > 1 else parts[0]


def parse_point(d: dict[str, str]) -> tuple[Any, Any]:
    return (parse_elem(d["x"]), parse_elem(d["y"]))


# --------------------------------------------------------------------------------------------
# expand_message_xmd


XMD_FILES = {  # file -> the hash it uses (RFC 9380 appendix K.1, K.1 with a long DST, K.3)
    "expand_message_xmd_SHA256_38.json": "sha256",
    "expand_message_xmd_SHA256_256.json": "sha256",
    "expand_message_xmd_SHA512_38.json": "sha512",
}


def xmd_cases() -> list[tuple[bytes, bytes, int, str, str]]:
    cases = []
    for name, hash_name in XMD_FILES.items():
        data = read_vector_json(RFC_DIR, name)
        assert data["hash"].lower() == hash_name
        for t in data["tests"]:
            cases.append((t["msg"].encode(), data["DST"].encode(), int(t["len_in_bytes"], 16), hash_name,
                          t["uniform_bytes"]))
    assert len(cases) == 30
    return cases


def test_expand_message_xmd_generated(curve) -> None:
    for msg, dst, length, hash_name, want in xmd_cases():
        assert curve.expand_message_xmd(msg, dst, length, hash=hash_name).hex() == want
        if hash_name == "sha256":
            assert curve.expand_message_xmd(msg, dst, length).hex() == want  # the default


def test_expand_message_xmd_reference() -> None:
    for msg, dst, length, hash_name, want in xmd_cases():
        assert ref_h2c.expand_message_xmd(msg, dst, length, hash_name).hex() == want


def test_expand_message_xmd_rejects_bad_input(curve) -> None:
    with pytest.raises(ValueError):
        curve.expand_message_xmd(b"m", b"", 32)            # RFC 9380 section 3.1: non-empty tags
    with pytest.raises(ValueError):
        curve.expand_message_xmd(b"m", b"DST", 255 * 32 + 1)
    with pytest.raises(ValueError):
        curve.expand_message_xmd(b"m", b"DST", 0)
    with pytest.raises(ValueError, match="hash must be one of"):
        curve.expand_message_xmd(b"m", b"DST", 32, hash="md5")
    with pytest.raises(ValueError):
        curve.expand_message_xmd(b"m", b"DST", 255 * 64 + 1, hash="sha512")
    with pytest.raises(TypeError):
        curve.expand_message_xmd("m", b"DST", 32)
    with pytest.raises(TypeError):
        curve.G1.hash_to_curve(b"m", "DST")


# --------------------------------------------------------------------------------------------
# Suites with vectors


def suite_files(folder: str, prefix: str) -> list[tuple[str, str, dict]]:
    out = []
    for group in ("G1", "G2"):
        for kind in ("RO", "NU"):
            data = read_vector_json(folder, f"{prefix}{group}_XMD_SHA-256_SSWU_{kind}_.json")
            assert len(data["vectors"]) == 5
            out.append((group, kind, data))
    return out


@pytest.mark.parametrize("folder,prefix,pkg,curve_file,is_rfc", SUITE_SOURCES, ids=[s[2] for s in SUITE_SOURCES])
def test_suite_vectors_generated(folder, prefix, pkg, curve_file, is_rfc, curve_module) -> None:
    C = curve_module(pkg)
    checked = 0
    for group, kind, data in suite_files(folder, prefix):
        G = getattr(C, group)
        suite = data["ciphersuite"]
        assert (G.HASH_SUITE if kind == "RO" else G.ENCODE_SUITE) == suite
        assert G.HASH_SUITE_IS_RFC is is_rfc
        assert G.HASH_MAP == "sswu"
        dst = data["dst"].encode()
        for v in data["vectors"]:
            msg = v["msg"].encode()
            u = G.hash_to_field(msg, dst, 2 if kind == "RO" else 1)
            assert u == [parse_elem(s) for s in v["u"]]
            if kind == "RO":
                Q0, Q1 = G.map_to_curve(u[0]), G.map_to_curve(u[1])
                assert Q0.to_affine() == parse_point(v["Q0"])
                assert Q1.to_affine() == parse_point(v["Q1"])
                P = G.hash_to_curve(msg, dst)
            else:
                assert G.map_to_curve(u[0]).to_affine() == parse_point(v["Q"])
                P = G.encode_to_curve(msg, dst)
            assert P.to_affine() == parse_point(v["P"])
            assert P.in_subgroup()
            checked += 1
    assert checked == 20


@pytest.mark.parametrize("folder,prefix,pkg,curve_file,is_rfc", SUITE_SOURCES, ids=[s[2] for s in SUITE_SOURCES])
def test_suite_vectors_reference(folder, prefix, pkg, curve_file, is_rfc) -> None:
    m = model_of(curve_file)
    ref = reference_of(m)
    for group, kind, data in suite_files(folder, prefix):
        params, E = map_params(m, ref, group.lower())
        dst = data["dst"].encode()
        assert int(data["field"]["m"], 0) == params.field.degree and int(data["L"], 0) == params.L
        assert parse_elem(data["Z"]) == ref_ints(params.field(params.z))
        for v in data["vectors"]:
            msg = v["msg"].encode()
            if kind == "RO":
                u, Q0, Q1, P = ref_h2c.hash_to_curve(params, E, msg, dst)
                assert ref_point(Q0) == parse_point(v["Q0"]) and ref_point(Q1) == parse_point(v["Q1"])
            else:
                u, Q, P = ref_h2c.encode_to_curve(params, E, msg, dst)
                assert ref_point(Q) == parse_point(v["Q"])
            assert [ref_ints(x) for x in u] == [parse_elem(s) for s in v["u"]]
            assert ref_point(P) == parse_point(v["P"])


def test_rfc_labels_only_on_rfc_suites(curve) -> None:
    """A module calls a suite an RFC 9380 suite only when RFC 9380 defines it (section 8.8)."""
    rfc_suites = {"BLS12381G1_XMD:SHA-256_SSWU_RO_", "BLS12381G2_XMD:SHA-256_SSWU_RO_"}
    for G in (curve.G1, curve.G2):
        assert G.HASH_SUITE_IS_RFC == (G.HASH_SUITE in rfc_suites)
        assert G.HASH_SUITE.endswith("_RO_") and G.ENCODE_SUITE == G.HASH_SUITE[:-3] + "NU_"
        assert ("_SSWU_" in G.HASH_SUITE) == (G.HASH_MAP == "sswu")


# --------------------------------------------------------------------------------------------
# Every curve against the reference (SVDW curves have no outside vectors)


@pytest.mark.parametrize("pkg,curve_file", SVDW_PACKAGES, ids=[p for p, _ in SVDW_PACKAGES])
def test_svdw_curves_match_reference(pkg, curve_file, curve_module) -> None:
    C = curve_module(pkg)
    m = model_of(curve_file)
    assert m.h2c["g1"].method == m.h2c["g2"].method == "svdw"
    assert C.G1.HASH_MAP == C.G2.HASH_MAP == "svdw" and not C.G1.HASH_SUITE_IS_RFC
    check_against_reference(C, m, pkg)


@pytest.mark.parametrize("pkg,curve_file", SSWU_PACKAGES, ids=[p for p, _ in SSWU_PACKAGES])
def test_sswu_curves_match_reference(pkg, curve_file, curve_module) -> None:
    m = model_of(curve_file)
    assert m.h2c["g1"].method == m.h2c["g2"].method == "sswu"
    check_against_reference(curve_module(pkg), m, pkg, n_random=3, n_msgs=1)


def test_map_to_curve_rejects_bad_input(curve) -> None:
    with pytest.raises(ValueError):
        curve.G1.map_to_curve(curve.P)
    with pytest.raises(TypeError):
        curve.G1.map_to_curve("1")
    with pytest.raises((TypeError, ValueError)):
        curve.G2.map_to_curve(b"\x01")


# --------------------------------------------------------------------------------------------
# Curve files and derivation checks


BASE_381 = (REPO_ROOT / "curves" / "bls12-381.toml").read_text()


def test_curve_file_validation() -> None:
    minimal = 'name = "T"\nfamily = "BLS12"\nx = "-0xd201000000010000"\n'
    bad = {
        "[hash_to_curve.g3]\nsuite = 'TG1_XMD:SHA-256_SVDW_RO_'\n": "may only hold",
        "[hash_to_curve.g1]\nrfc = false\n": "'suite'",
        "[hash_to_curve.g1]\nsuite = 'TG1_XMD:SHA-384_SVDW_RO_'\n": "must look like",
        "[hash_to_curve.g1]\nsuite = 'TG2_XMD:SHA-256_SVDW_RO_'\n": "must look like",
        "[hash_to_curve.g1]\nsuite = 'TG1_XMD:SHA-256_SVDW_RO_'\nrfc = true\n": "not an RFC 9380 suite",
        "[hash_to_curve.g1]\nsuite = 'TG1_XMD:SHA-256_SSWU_RO_'\n": "needs the table 'isogeny'",
        "[hash_to_curve.g1]\nsuite = 'TG1_XMD:SHA-256_SVDW_RO_'\nh_eff = 0\n": "positive",
        "[hash_to_curve.g1]\nsuite = 'TG1_XMD:SHA-256_SVDW_RO_'\ncolour = 1\n": "unknown key",
        "[hash_to_curve.g1]\nsuite = 'TG1_XMD:SHA-256_SSWU_RO_'\n[hash_to_curve.g1.isogeny]\na = 1\n": "exactly the keys",
    }
    for text, reason in bad.items():
        with pytest.raises(CurveFileError, match=reason):
            parse_curve_text(minimal + text, "test.toml")


def _with_h2c(spec, group: str, **changes):
    suites = dict(spec.hash_to_curve)
    suites[group] = replace(suites[group], **changes)
    return replace(spec, hash_to_curve=suites)


def test_derivation_rejects_damaged_suites() -> None:
    spec = load_curve_file(REPO_ROOT / "curves" / "bls12-381.toml")
    iso = spec.hash_to_curve["g2"].isogeny
    bent = replace(iso, x_num=iso.x_num[:1] + ((iso.x_num[1][0] + 1, iso.x_num[1][1]),) + iso.x_num[2:])
    with pytest.raises(DerivationError, match="sends E' onto E|homomorphism"):
        build_model(_with_h2c(spec, "g2", isogeny=bent))
    with pytest.raises(DerivationError, match="appendix H"):
        build_model(_with_h2c(spec, "g1", z=(-11,)))          # another valid-looking Z for an RFC suite
    with pytest.raises(DerivationError, match="h_eff"):
        build_model(_with_h2c(spec, "g1", h_eff=3))             # does not clear the cofactor
    g1 = spec.hash_to_curve["g1"].isogeny
    with pytest.raises(DerivationError, match="A' B' != 0"):
        build_model(_with_h2c(spec, "g1", isogeny=replace(g1, a=(0,))))


def test_derivation_refuses_a_z_outside_appendix_h() -> None:
    """gnark-crypto's BW6-761 G1 Z = 2 fails appendix H's criteria 3 and 4 on its isogenous curve
    (the curve file says so and uses the rule's Z); recording it is refused."""
    spec = load_curve_file(REPO_ROOT / "curves" / "bw6-761.toml")
    assert spec.hash_to_curve["g1"].z is None and not spec.hash_to_curve["g1"].rfc
    with pytest.raises(DerivationError, match="appendix H's criteria"):
        build_model(_with_h2c(spec, "g1", z=(2,)))


def test_derived_z_matches_the_rfc_and_recorded_values() -> None:
    """Z is derived by appendix H; the RFC's Z for BLS12-381 (11 and -(2 + u)) comes out of it."""
    m = model_of("bls12-381")
    assert m.h2c["g1"].z == (11,) and m.h2c["g1"].z_by_rule
    assert m.h2c["g2"].z == ((-2) % m.p, (-1) % m.p) and m.h2c["g2"].z_by_rule
    bn = model_of("bn254")
    assert bn.h2c["g1"].method == "svdw" and bn.h2c["g1"].z_by_rule


# --------------------------------------------------------------------------------------------
# Constant time: map_to_curve under valgrind memcheck with u marked undefined ("ctgrind")

CT_PROGRAM = r"""
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include "c/pairforge.h"

int main(int argc, char **argv)
{
    fp_t u1[2];
    FQ_T u2;
    g1_t p1;
    g2_t p2;
    unsigned char buf[2 * sizeof(FQ_T) + 2 * sizeof(fp_t)];
    size_t i;

    for (i = 0; i < sizeof(buf); i++)
        buf[i] = (unsigned char)(i * 37 + 11);
    memcpy(u1, buf, sizeof(u1));
    memcpy(&u2, buf + sizeof(u1), sizeof(u2));
    for (i = 0; i < 2; i++)
        u1[i].l[FP_NLIMBS - 1] = 0;                /* below p */
    for (i = 0; i < sizeof(u2) / sizeof(fp_t); i++)
        ((fp_t *)(void *)&u2)[i].l[FP_NLIMBS - 1] = 0;
    VALGRIND_MAKE_MEM_UNDEFINED(u1, sizeof(u1));
    VALGRIND_MAKE_MEM_UNDEFINED(&u2, sizeof(u2));
    g1_map_to_curve(&p1, &u1[0]);
    g2_map_to_curve(&p2, &u2);
    if (argc > 1)   /* control: a variable-time multiplication by a secret scalar */
        g1_mul_window_vartime(&p1, &p1, u1[1].l, FP_NLIMBS - 1);
    VALGRIND_MAKE_MEM_DEFINED(&p1, sizeof(p1));
    VALGRIND_MAKE_MEM_DEFINED(&p2, sizeof(p2));
    printf("%d\n", (int)(p1.x.l[0] ^ p1.y.l[0]) & 1);
    return 0;
}
"""


@pytest.mark.parametrize("pkg,curve_file", SVDW_PACKAGES + SSWU_PACKAGES, ids=[p for p, _ in SVDW_PACKAGES + SSWU_PACKAGES])
def test_map_to_curve_is_constant_time(pkg, curve_file, tmp_path) -> None:
    """No branch and no memory index of g1_map_to_curve / g2_map_to_curve depends on u (valgrind
    reports any use of the undefined input); the control, a variable-time multiplication by a
    secret, is reported, so the check can fail."""
    import shutil
    import subprocess

    if shutil.which("valgrind") is None or shutil.which("gcc") is None:
        pytest.skip("valgrind and gcc are needed for the constant-time check")
    fq = model_of(curve_file).tower.names["fq"]
    src = tmp_path / "ct.c"
    src.write_text(CT_PROGRAM.replace("FQ_T", f"{fq}_t"))
    exe = tmp_path / "ct"
    subprocess.run(["gcc", "-O2", "-g", "-I", str(REPO_ROOT / "generated" / pkg), "-o", str(exe), str(src)], check=True,
                   capture_output=True)
    run = ["valgrind", "-q", "--error-exitcode=3", str(exe)]
    clean = subprocess.run(run, capture_output=True, text=True)
    assert clean.returncode == 0, clean.stderr[-3000:]
    control = subprocess.run(run + ["control"], capture_output=True, text=True)
    assert control.returncode == 3 and "uninitialised" in control.stderr


# --------------------------------------------------------------------------------------------
# hash_to_curve's sum of the two maps in C: for SSWU it is taken on E' with one isogeny evaluation

@pytest.mark.parametrize("pkg,curve_file", SVDW_PACKAGES + SSWU_PACKAGES, ids=[p for p, _ in SVDW_PACKAGES + SSWU_PACKAGES])
def test_map_sum_equals_the_sum_of_the_maps(pkg, curve_file) -> None:
    """g1/g2_hash_to_curve_from_field_vartime equals clear(map(u0) + map(u1)) computed on E, for
    random u and for the cases that reach E''s doubling (u1 = u0) and, for SSWU, the identity
    (u1 = -u0), which hashing never produces; portable C and, where the CPU has them, the x86_64-adx kernels."""
    import subprocess

    from c_kernel_harness import TARGETS, compile_harness

    m = model_of(curve_file)
    fq = m.tower.names["fq"]
    harness = TESTS_DIR / "c_harness" / "map_sum.c"
    for target in TARGETS:
        exe = compile_harness(harness, REPO_ROOT / "generated" / pkg, target,
                              defines=("G1_NEG_COORD=fp_neg", f"G2_NEG_COORD={fq}_neg",
                                       *(f"{g.upper()}_SSWU={int(m.h2c[g].method == 'sswu')}" for g in ("g1", "g2"))))
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
        lines = run.stdout.split("\n")
        assert run.returncode == 0 and len(lines) == 49 and lines[-1] == "", run.stdout + run.stderr
        assert all(line.endswith(" ok") for line in lines[:-1]), run.stdout
        assert {tuple(line.split()[:2]) for line in lines[:-1]} == {
            (g, c) for g in ("g1", "g2") for c in ("random", "u1=u0", "u1=-u0")}
