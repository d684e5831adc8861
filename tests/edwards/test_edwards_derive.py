"""Twisted Edwards companion curves: the curve-file schema and the derivations (no compiled code).

Every curve file derives and its derived constants equal the values the libraries publish
(tests/vectors/edwards_companions/curves.json); each derivation check fails when a parameter
is altered; the reference arithmetic agrees with the vectors of circomlib and arkworks.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from conftest import REPO_ROOT
from vectors_util import read_vector_json

from generator.derive.checks import DerivationError
from generator.derive.edwards import EdwardsModel, build_edwards_model
from generator.derive.edwards.algebra import to_weierstrass
from generator.params import CurveFileError, load_curve_file, parse_curve_text
from generator.params_edwards import EdwardsSpec
from generator.reference.edwards import EdwardsCurve, WeierstrassCurve, sqrt_mod

EDWARDS = ("jubjub", "bandersnatch", "ed_on_bls12_377", "babyjubjub", "ed_on_bw6_761")
# curves.json's key of each curve file
JSON_KEY = {name: name for name in EDWARDS}


@lru_cache(maxsize=None)
def model(name: str) -> EdwardsModel:
    spec = load_curve_file(REPO_ROOT / "curves" / f"{name}.toml")
    assert isinstance(spec, EdwardsSpec)
    return build_edwards_model(spec)


def curve_text(name: str) -> str:
    return (REPO_ROOT / "curves" / f"{name}.toml").read_text()


def derive_text(text: str, source: str = "altered.toml") -> EdwardsModel:
    # 'over' names resolve beside the source or in curves/
    spec = parse_curve_text(text, str(REPO_ROOT / "curves" / source))
    return build_edwards_model(spec)


@pytest.fixture(scope="module")
def published() -> dict:
    return read_vector_json("edwards_companions", "curves.json")["curves"]


def value(entry: dict) -> object:
    return entry["value"]


# ---------------------------------------------------------------------------------------------
# Derived values against the published ones


@pytest.mark.parametrize("name", EDWARDS)
def test_derived_constants_equal_published(name: str, published: dict) -> None:
    m, pub = model(name), published[JSON_KEY[name]]
    assert m.p == int(value(pub["base_field_modulus"]))
    assert m.r == int(value(pub["r"])) and m.h == int(value(pub["cofactor"]))
    if name == "babyjubjub":
        form = pub["forms"]["circom"]
        assert (m.a, m.d) == (int(value(form["a"])), int(value(form["d"])))
        assert m.h * m.r == int(value(form["curve_order"]))
        assert m.generator == tuple(int(c) for c in value(form["Base8"]).values())
    else:
        assert m.a == int(value(pub["a"])) % m.p and m.d == int(value(pub["d"]))
        for key, gen in pub["generators"].items():
            lib = key.split("_")[0] if name != "bandersnatch" else "arkworks"
            if lib in m.generators:
                assert m.generators[lib] == (int(value(gen)["x"]), int(value(gen)["y"]))
    mont_key = "montgomery_arkworks" if "montgomery_arkworks" in pub else None
    if mont_key:
        A, B = (int(v) % m.p for v in value(pub[mont_key]).values())
        assert m.montgomery == (A, B)
    else:  # Baby Jubjub: the Montgomery form of circom's (a, d) is (A, B) = (168698, 1)
        assert m.montgomery == (168698, 1)


def test_completeness_is_derived() -> None:
    # a square and d non-square on four curves; Bandersnatch's a = -5 is not a square
    assert {name: model(name).complete for name in EDWARDS} == {
        "jubjub": True, "bandersnatch": False, "ed_on_bls12_377": True, "babyjubjub": True, "ed_on_bw6_761": True,
    }
    assert [name for name in EDWARDS if model(name).a_is_minus_one] == ["jubjub", "ed_on_bls12_377", "ed_on_bw6_761"]


def test_over_names_the_host_scalar_field() -> None:
    from generator.derive.families import derive_family

    for name, host in (("jubjub", "bls12-381"), ("ed_on_bls12_377", "bls12-377"), ("babyjubjub", "bn254"),
                       ("ed_on_bw6_761", "bw6-761")):
        spec = load_curve_file(REPO_ROOT / "curves" / f"{host}.toml")
        assert model(name).p == derive_family(spec.family, spec.x, host, spec.ht, spec.hy).r
    # ed_on_bw6_761's field is also BLS12-377's base field
    spec = load_curve_file(REPO_ROOT / "curves" / "bls12-377.toml")
    assert model("ed_on_bw6_761").p == derive_family(spec.family, spec.x, "bls12-377").p


def test_weierstrass_models_match_arkworks(published: dict) -> None:
    for name in ("jubjub", "bandersnatch"):
        m = model(name)
        pub = published[name]["short_weierstrass_arkworks" if name == "jubjub" else "short_weierstrass_arkworks_released"]
        sw = value(pub)
        assert m.published_weierstrass is not None
        assert (m.published_weierstrass.a, m.published_weierstrass.b) == (int(sw["A"]), int(sw["B"]))
        assert m.published_weierstrass.generator == (int(sw["generator"]["x"]), int(sw["generator"]["y"]))


def test_bandersnatch_weierstrass_map_preserves_the_group_law() -> None:
    m = model("bandersnatch")
    E, W = EdwardsCurve(m.p, m.a, m.d), WeierstrassCurve(m.p, m.published_weierstrass.a, m.published_weierstrass.b)
    rng = random.Random(7)
    G = m.generator
    for _ in range(4):
        k1, k2 = rng.randrange(1, m.r), rng.randrange(1, m.r)
        P, Q = E.mul(G, k1), E.mul(G, k2)
        w = lambda X: to_weierstrass(E, m.montgomery, m.published_weierstrass.c, X)  # noqa: E731
        assert W.add(w(P), w(Q)) == w(E.add(P, Q))
        assert W.mul(w(G), k1) == w(P)


def test_babyjubjub_forms_are_the_same_curve(published: dict) -> None:
    """circom (a, d) -> gnark (-1, -d/a) and arkworks (1, d/a) by x -> x·sqrt(∓a), y unchanged."""
    m = model("babyjubjub")
    p, forms = m.p, published["babyjubjub"]["forms"]
    base8 = m.generator
    for form, sign in (("gnark_a_minus_1", -1), ("arkworks_a_1", 1)):
        a2, d2 = int(value(forms[form]["a"])) % p, int(value(forms[form]["d"]))
        assert a2 == sign % p and d2 == sign * m.d * pow(m.a, -1, p) % p
        s = sqrt_mod(sign * m.a, p)
        E2 = EdwardsCurve(p, a2, d2)
        image = (base8[0] * s % p, base8[1])
        assert E2.on_curve(image) and E2.mul(image, m.r) == E2.identity
        if form == "gnark_a_minus_1":  # gnark's generator is the image of Base8 (one of the two roots)
            gen = tuple(int(c) for c in value(forms[form]["generator"]).values())
            assert gen in (image, (p - image[0], image[1]))
    # the arkworks form derives from its parameters alone, with its own generator
    ark = value(forms["arkworks_a_1"]["generator"])
    text = (f'name = "BabyJubJub-ark"\nfamily = "TwistedEdwards"\nover = "bn254"\na = 1\nd = "168696/168700"\n'
            f'r = "{m.r}"\ncofactor = 8\n[generators]\narkworks = ["{ark["x"]}", "{ark["y"]}"]\n')
    assert derive_text(text).montgomery == (168698 * pow(1, 1, p) % p, 168700)


# ---------------------------------------------------------------------------------------------
# The derivation checks fail when a parameter is altered


def _replace(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize("old,new,check", [
    ('d = 3021', 'd = 3022', "Hasse interval|order"),               # another curve: the order fails
    ('cofactor = 4', 'cofactor = 8', "Hasse interval"),
    ('cofactor = 4', 'cofactor = 2', "Hasse interval"),
])
def test_altered_parameter_fails(old: str, new: str, check: str) -> None:
    with pytest.raises(DerivationError, match=check):
        derive_text(_replace(curve_text("ed_on_bls12_377"), old, new))


def test_wrong_r_fails() -> None:
    import gmpy2

    m = model("jubjub")
    text = curve_text("jubjub")
    with pytest.raises(DerivationError, match="r is prime"):
        derive_text(_replace(text, str(m.r), str(m.r + 2)))
    # a prime r' near r keeps h·r' in the Hasse interval, but random points are not killed by it
    with pytest.raises(DerivationError, match=r"\[h·r\]P = O"):
        derive_text(_replace(text, str(m.r), str(int(gmpy2.next_prime(m.r)))))


def test_generator_outside_the_subgroup_fails() -> None:
    full = read_vector_json("edwards_companions", "jubjub_zkcrypto.json")["FULL_GENERATOR"]
    text = curve_text("jubjub")
    m = model("jubjub")
    zx, zy = m.generators["zcash"]
    with pytest.raises(DerivationError, match="subgroup of order r"):
        derive_text(_replace(text, f'zcash = ["{zx}",\n   "{zy}"]', f'zcash = ["{full["u"]}", "{full["v"]}"]'))
    with pytest.raises(DerivationError, match="on the curve"):
        derive_text(_replace(text, f'"{zy}"', f'"{zy + 1}"'))


def test_wrong_weierstrass_model_fails() -> None:
    m = model("bandersnatch")
    text = curve_text("bandersnatch")
    b = m.published_weierstrass.b
    with pytest.raises(DerivationError, match="weierstrass"):
        derive_text(_replace(text, f'b = "{b}"', f'b = "{b + 1}"'))
    gx = m.published_weierstrass.generator[0]
    with pytest.raises(DerivationError, match="generator"):
        derive_text(_replace(text, f'"{gx}"', f'"{(gx + 1) % m.p}"'))


# ---------------------------------------------------------------------------------------------
# The schema


@pytest.mark.parametrize("edit,message", [
    (("over = \"bls12-381\"\n", ""), "exactly one of 'p' or 'over'"),
    (("over = \"bls12-381\"\n", "over = \"bls12-381\"\np = 13\n"), "exactly one of 'p' or 'over'"),
    (("over = \"bls12-381\"", "over = \"nosuch\""), "no curve file nosuch.toml"),
    (("over = \"bls12-381\"", "over = \"jubjub\""), "must name a pairing curve"),
    (("cofactor = 8\n", ""), "missing required key 'cofactor'"),
    (("a = -1\n", "a = -1\nseed = 3\n"), "unknown key 'seed'"),
    (("d = \"-10240/10241\"", "d = \"1/0\""), "denominator"),
    (("d = \"-10240/10241\"", "d = \"x\""), "key 'd' must be an integer"),
    (("default = \"zcash\"", "default = \"nope\""), "generators.default"),
    (("default = \"zcash\"\n", ""), "name one with 'default'"),
    (("serialization = \"zcash\"", "serialization = \"gnarkish\""), "key 'serialization'"),
])
def test_curve_file_errors(edit: tuple[str, str], message: str) -> None:
    with pytest.raises(CurveFileError, match=message):
        parse_curve_text(_replace(curve_text("jubjub"), *edit), str(REPO_ROOT / "curves" / "bad.toml"))


def test_generator_is_derived_when_absent() -> None:
    """Without [generators]: [h](x, y) for the first y = 2, 3, ... with a point."""
    m = model("ed_on_bls12_377")
    text = curve_text("ed_on_bls12_377")
    text = text[: text.index("[generators]")]
    derived = derive_text(text)
    E = derived.curve
    y = 2
    while not E.lift_y(y) or E.mul(E.lift_y(y)[0], m.h) == E.identity:
        y += 1
    assert derived.generator == E.mul(E.lift_y(y)[0], m.h) and derived.default_generator == "derived"


# ---------------------------------------------------------------------------------------------
# The reference arithmetic against independent vectors


def test_reference_against_circomlib() -> None:
    v = read_vector_json("edwards_companions", "babyjub_circomlib.json")
    m = model("babyjubjub")
    E = EdwardsCurve(m.p, m.a, m.d)
    def pt(xy: list[str] | str) -> tuple[int, int]:
        if isinstance(xy, str):  # a named point of the file's curve ("Generator")
            xy = v["curve"][xy]
        return int(xy[0]), int(xy[1])

    for case in v["add"]:
        assert E.add(pt(case["p1"]), pt(case["p2"])) == pt(case["expected"])
    for case in v["mul"]:
        assert E.mul(pt(case["point"]), int(case["scalar"])) == pt(case["expected"])
    for case in v["in_curve"]:
        assert E.on_curve(pt(case["point"])) == case["expected"]


def test_reference_against_arkworks_fixed_vectors() -> None:
    v = read_vector_json("edwards_companions", "arkworks_fixed_vectors.json")
    for case, name in zip(v["scalar_multiplication"][:2], ("jubjub", "bandersnatch"), strict=True):
        m = model(name)
        g, f1, f2 = (int(c) for c in case["g"]), int(case["f1"]), int(case["f2"])
        g = tuple(g)
        assert EdwardsCurve(m.p, m.a, m.d).mul(g, f1 * f2 % m.r) == tuple(int(c) for c in case["f1f2g"])


def test_cross_targets_render_the_known_answer_program() -> None:
    """The ARM targets cross-build c/kat_main.c (tests/edwards/test_cross_edwards.py); the C is the same
    for every target (the target is chosen by macros at compile time)."""
    from generator.pipeline import render_package

    files = render_package(model("bandersnatch"), "generic32")
    assert "c/edwards.h" in files and "c/fq.h" in files and "_core.pyx" in files and "c/kat_main.c" in files
    arm = render_package(model("bandersnatch"), "arm64")
    assert {k: v for k, v in arm.items() if k.startswith("c/")} == {k: v for k, v in files.items() if k.startswith("c/")}
