"""Curve files of the ``TwistedEdwards`` family: a·x² + y² = 1 + d·x²·y² over a prime field.

A companion curve names its base field either directly (``p``) or as the scalar field of a
pairing curve of this repository (``over = "bls12-381"``: that curve file's r, derived from its
family and seed). ``a`` and ``d`` may be integers or fractions ``"num/den"`` (taken mod p), so the
forms libraries publish (d = -10240/10241) can be written as published. Every value is checked
by ``generator/derive/edwards/``; this module only parses and validates the shape.

What it holds: ``EdwardsSpec`` (and the specs of its tables), ``parse_edwards`` (the table of a
``TwistedEdwards`` file, sent here by the dispatcher generator/params.py) and
``host_scalar_field`` (the r of the pairing curve file ``over`` names).

What it may import: the standard library, generator/params_common.py, generator/params_pairing.py
(to read the pairing curve ``over`` names), generator/resources.py, and one derivation, inside
``host_scalar_field`` only (so that importing the curve-file modules imports no derive module):
generator/derive/families.py (``derive_family``), since the host's r is derived from its family and
seed. derive/families.py imports only derive/checks.py and params_common.py, so no chain of
imports leads back here; the import contracts (pyproject.toml) allow this one import from the
curve files into derive and no other.

Layer: curve files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .params_common import (
    EDWARDS_FAMILY,
    CurveFileError,
    parse_install,
    parse_int,
    parse_toml,
    read_curve_text,
)
from .params_pairing import parse_pairing
from .resources import CURVES_DIR

FAMILY = EDWARDS_FAMILY
KNOWN_KEYS = {
    "name", "family", "p", "over", "a", "d", "r", "cofactor", "generators", "weierstrass",
    "serialization", "description", "protocols", "ecvrf", "glv", "install",
}
# The protocols a twisted Edwards package can carry (generator/protocols), and the keys of one
# ``[[ecvrf]]`` suite table (generator/protocols/ecvrf.py says what each means).
EDWARDS_PROTOCOLS = ("ecvrf",)
ECVRF_KEYS = {"suite", "transcript", "hash_to_curve", "generator", "form_a", "model"}
# the curve model a suite's points are written on: the Edwards form, or the [weierstrass] section's
ECVRF_MODELS = ("edwards", "weierstrass")
ECVRF_TRANSCRIPTS = ("sha512", "shake128")
ECVRF_HASHES = ("ell2-xmd", "ell2-xof", "tai")
WEIERSTRASS_KEYS = {"a", "b", "generator"}
# Point encodings of Edwards curves (generator/derive/edwards/serialization.py).
PROFILES = ("arkworks", "zcash", "circom", "gnark")
# Where ``over`` names are looked up when the curve file's own folder does not hold them.


@dataclass(frozen=True)
class WeierstrassSpec:
    """A short Weierstrass model y² = x³ + A·x + B the curve is published in, with its generator."""

    a: int
    b: int
    generator: tuple[int, int] | None


@dataclass(frozen=True)
class EcvrfSuiteSpec:
    """One ark-vrf suite of a curve file's ``[[ecvrf]]`` tables: its id, transcript hash, hash to
    curve, generator (a name in [generators] or a point of the suite's form) and the suite's
    curve form a' (x' = s·x with s² = a/a'; None: the curve file's own form), and the model its
    points are written on ("weierstrass": the [weierstrass] section's, the generator a point of it)."""

    suite: str
    transcript: str
    hash_to_curve: str
    generator: str | tuple[int, int]
    form_a: int | None
    model: str = "edwards"


@dataclass(frozen=True)
class EdwardsSpec:
    """The validated content of one ``TwistedEdwards`` curve file (a, d reduced mod p)."""

    name: str
    source: str
    p: int
    over: str | None
    a: int
    d: int
    r: int
    cofactor: int
    generators: dict[str, tuple[int, int]]
    default_generator: str | None
    weierstrass: WeierstrassSpec | None
    serialization: str
    description: str = ""
    protocols: tuple[str, ...] = ()
    ecvrf: tuple[EcvrfSuiteSpec, ...] = ()
    family: str = FAMILY
    published: dict[str, int] = field(default_factory=dict)
    glv_lambda: int | None = None      # the eigenvalue libraries publish; derived and checked all the same
    install: str = "default"           # one of params_common.INSTALL_MODES

    @property
    def package(self) -> str:
        return re.sub(r"[^0-9a-z]+", "_", self.name.lower()).strip("_")


def _residue(value: object, key: str, where: str, p: int) -> int:
    """An integer or a fraction "num/den", reduced mod p."""
    if isinstance(value, str) and "/" in value:
        num_text, den_text = value.split("/", 1)
        num, den = parse_int(num_text, key, where), parse_int(den_text, key, where)
        if den % p == 0:
            raise CurveFileError(f"{where}: key '{key}': the denominator {den} is 0 mod p")
        return num * pow(den, -1, p) % p
    return parse_int(value, key, where) % p


def _point(value: object, key: str, where: str, p: int) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise CurveFileError(f"{where}: key '{key}' must be a point [x, y]")
    x, y = (parse_int(v, f"{key}[{i}]", where) for i, v in enumerate(value))
    if not (0 <= x < p and 0 <= y < p):
        raise CurveFileError(f"{where}: key '{key}': coordinates must lie in [0, p)")
    return x, y


def host_scalar_field(over: str, source: str) -> int:
    """The r of the pairing curve file ``over`` (beside ``source``, else in curves/)."""
    # Imported here, not at the top: importing generator.params must not import generator.derive
    # (tests/derive/test_derive.py::test_params_imports_nothing_downstream); this is the one derivation a
    # curve file needs, the family polynomials only (cheap).
    from .derive.families import derive_family

    stem = over.lower().replace("_", "-")
    candidates = [Path(source).parent / f"{stem}.toml", CURVES_DIR / f"{stem}.toml"]
    for path in candidates:
        if path.is_file():
            table = parse_toml(read_curve_text(path), str(path))
            if table.get("family") == FAMILY:
                parse_edwards(table, str(path))     # a malformed file reports its own error first
                raise CurveFileError(f"{source}: key 'over' must name a pairing curve, {over!r} is twisted Edwards")
            host = parse_pairing(table, str(path))
            return derive_family(host.family, host.x, f"{host.name} ({path})", host.ht, host.hy).r
    raise CurveFileError(f"{source}: key 'over': no curve file {stem}.toml beside the file or in curves/")


def parse_edwards(data: dict, source: str) -> EdwardsSpec:
    """Validate the keys of a ``TwistedEdwards`` curve file (already parsed TOML)."""
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise CurveFileError(f"{source}: unknown key '{unknown[0]}' for family {FAMILY} "
                             f"(known: {', '.join(sorted(KNOWN_KEYS))})")
    for key in ("name", "a", "d", "r", "cofactor"):
        if key not in data:
            raise CurveFileError(f"{source}: missing required key '{key}'")
    name = data["name"]
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_\- ]*", name):
        raise CurveFileError(f"{source}: key 'name' must start with a letter and hold letters, digits, '-', '_'")
    if ("p" in data) == ("over" in data):
        raise CurveFileError(f"{source}: give the base field as exactly one of 'p' or 'over' (a pairing curve file)")
    over = data.get("over")
    if over is not None:
        if not isinstance(over, str) or not re.fullmatch(r"[A-Za-z0-9_\-]+", over):
            raise CurveFileError(f"{source}: key 'over' must be a curve file name such as \"bls12-381\"")
        p = host_scalar_field(over, source)
    else:
        p = parse_int(data["p"], "p", source)
    if p < 5:
        raise CurveFileError(f"{source}: key 'p' must be a prime above 3")
    a = _residue(data["a"], "a", source, p)
    d = _residue(data["d"], "d", source, p)
    r = parse_int(data["r"], "r", source)
    cofactor = parse_int(data["cofactor"], "cofactor", source)
    if r < 3 or cofactor < 1:
        raise CurveFileError(f"{source}: keys 'r' (> 2) and 'cofactor' (>= 1) must be positive")
    generators: dict[str, tuple[int, int]] = {}
    default = None
    table = data.get("generators", {})
    if not isinstance(table, dict):
        raise CurveFileError(f"{source}: 'generators' must be a table of points [x, y] and 'default'")
    for key, value in table.items():
        if key == "default":
            if not isinstance(value, str):
                raise CurveFileError(f"{source}: key 'generators.default' must name one of the generators")
            default = value
        else:
            generators[key] = _point(value, f"generators.{key}", source, p)
    if default is not None and default not in generators:
        raise CurveFileError(f"{source}: key 'generators.default' names {default!r}, "
                             f"not one of {', '.join(sorted(generators)) or 'no generators'}")
    if default is None and len(generators) > 1:
        raise CurveFileError(f"{source}: table 'generators' lists several points: name one with 'default'")
    if default is None and generators:
        default = next(iter(generators))
    weierstrass = None
    if "weierstrass" in data:
        w = data["weierstrass"]
        if not isinstance(w, dict) or set(w) - WEIERSTRASS_KEYS or not {"a", "b"} <= set(w):
            raise CurveFileError(f"{source}: table 'weierstrass' holds 'a', 'b' and optionally 'generator'")
        weierstrass = WeierstrassSpec(
            a=_residue(w["a"], "weierstrass.a", source, p),
            b=_residue(w["b"], "weierstrass.b", source, p),
            generator=_point(w["generator"], "weierstrass.generator", source, p) if "generator" in w else None,
        )
    serialization = data.get("serialization", "arkworks")
    if serialization not in PROFILES:
        raise CurveFileError(f"{source}: key 'serialization' must be one of {', '.join(PROFILES)}, got {serialization!r}")
    protocols = data.get("protocols", [])
    if not isinstance(protocols, list) or not all(isinstance(x, str) for x in protocols):
        raise CurveFileError(f"{source}: key 'protocols' must be a list of strings")
    for position, protocol in enumerate(protocols):
        if protocol not in EDWARDS_PROTOCOLS:
            raise CurveFileError(f"{source}: key 'protocols': {protocol!r} is not available for {FAMILY} curves "
                                 f"(available: {', '.join(EDWARDS_PROTOCOLS)})")
        if protocol in protocols[:position]:
            raise CurveFileError(f"{source}: key 'protocols' names {protocol!r} twice")
    ecvrf = _ecvrf_suites(data.get("ecvrf"), source, p, generators)
    if ("ecvrf" in protocols) != bool(ecvrf):
        raise CurveFileError(f"{source}: protocol 'ecvrf' and the [[ecvrf]] suite tables go together")
    glv_lambda = None
    if "glv" in data:
        g = data["glv"]
        if not isinstance(g, dict) or set(g) != {"lambda"}:
            raise CurveFileError(f"{source}: table 'glv' holds 'lambda' (the eigenvalue of the endomorphism on the subgroup)")
        glv_lambda = parse_int(g["lambda"], "glv.lambda", source) % r
    return EdwardsSpec(
        glv_lambda=glv_lambda,
        name=name, source=source, p=p, over=over, a=a, d=d, r=r, cofactor=cofactor, generators=generators,
        default_generator=default, weierstrass=weierstrass, serialization=serialization,
        description=str(data.get("description", "")), protocols=tuple(protocols), ecvrf=ecvrf,
        install=parse_install(data, source),
    )


def _ecvrf_suites(tables: object, source: str, p: int, generators: dict[str, tuple[int, int]]) -> tuple[EcvrfSuiteSpec, ...]:
    """The ``[[ecvrf]]`` tables: shapes and names only (generator/protocols/ecvrf.py checks the maths)."""
    if tables is None:
        return ()
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise CurveFileError(f"{source}: 'ecvrf' must be an array of tables [[ecvrf]]")
    suites = []
    for i, t in enumerate(tables):
        where = f"ecvrf[{i}]"
        unknown = sorted(set(t) - ECVRF_KEYS)
        missing = sorted({"suite", "transcript", "hash_to_curve", "generator"} - set(t))
        if unknown or missing:
            raise CurveFileError(f"{source}: {where}: unknown key {unknown[0]!r}" if unknown
                                 else f"{source}: {where}: missing key {missing[0]!r}")
        if not isinstance(t["suite"], str) or not t["suite"] or not t["suite"].isascii():
            raise CurveFileError(f"{source}: {where}.suite must be a non-empty ASCII string")
        if t["transcript"] not in ECVRF_TRANSCRIPTS:
            raise CurveFileError(f"{source}: {where}.transcript must be one of {', '.join(ECVRF_TRANSCRIPTS)}")
        if t["hash_to_curve"] not in ECVRF_HASHES:
            raise CurveFileError(f"{source}: {where}.hash_to_curve must be one of {', '.join(ECVRF_HASHES)}")
        gen = t["generator"]
        if isinstance(gen, str):
            if gen not in generators:
                raise CurveFileError(f"{source}: {where}.generator names {gen!r}, not one of [generators]")
        else:
            gen = _point(gen, f"{where}.generator", source, p)
        form_a = _residue(t["form_a"], f"{where}.form_a", source, p) if "form_a" in t else None
        if form_a == 0:
            raise CurveFileError(f"{source}: {where}.form_a must be non-zero")
        model = t.get("model", "edwards")
        if model not in ECVRF_MODELS:
            raise CurveFileError(f"{source}: {where}.model must be one of {', '.join(ECVRF_MODELS)}")
        if model == "weierstrass" and (form_a is not None or isinstance(gen, str) or t["hash_to_curve"] != "tai"):
            raise CurveFileError(f"{source}: {where}: a weierstrass suite hashes by 'tai', has no form_a and "
                                 "gives its generator as a point [x, y] of the [weierstrass] model")
        suites.append(EcvrfSuiteSpec(suite=t["suite"], transcript=t["transcript"],
                                     hash_to_curve=t["hash_to_curve"], generator=gen, form_a=form_a, model=model))
    if len({s.suite for s in suites}) != len(suites):
        raise CurveFileError(f"{source}: two [[ecvrf]] tables name the same suite")
    return tuple(suites)


def parse_edwards_text(text: str, source: str) -> EdwardsSpec:
    """Parse the text of a ``TwistedEdwards`` curve file (used by tests that alter a parameter)."""
    return parse_edwards(parse_toml(text, source), source)
