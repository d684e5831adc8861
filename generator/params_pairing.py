"""Curve files of the pairing families (BN, BLS12, BLS24, BLS48, BW6): parse and validate one into a
``CurveSpec``.

Only facts live in a curve file: the family and the seed, plus optional overrides that pick a
convention (tower non-residues, b, generators) and published constants that are checked against
the derived ones, never used instead of them. A BW6 file may name its inner curve's file
(``inner``), which this module loads too.

What it holds: ``CurveSpec`` and the specs of its tables (``HashToCurveSpec``, ``IsogenySpec``),
the keys and names a pairing curve file may use (``FAMILIES``, ``PROTOCOL_NAMES``, ...), and
``parse_pairing``. generator/params.py dispatches to it by family;
generator/params_edwards.py uses it to read the pairing curve a companion curve names.

What it may import: the standard library and generator/params_common.py; nothing downstream
(not params.py, params_edwards.py, derive or protocols).

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
    parse_polynomial_in_x,
    parse_toml,
    read_curve_text,
)

FAMILIES = ("BN", "BLS12", "BLS24", "BLS48", "BW6")
# The protocol modules a curve file may ask for (``protocols = [...]``), by name.  Only the names
# live here, so that parsing a curve file needs nothing downstream of it; generator/protocols holds
# each protocol's templates and support check, resolved when the package is rendered (emit), and
# tests/derive/test_derive.py checks that the two agree.
PROTOCOL_NAMES = (
    "bls_signatures", "ecvrf", "eip197", "eip2333", "eip2537", "eip2539", "eip3026", "eip4844", "groth16", "kzg",
)

KNOWN_KEYS = {
    "name", "family", "x", "b", "beta", "nu", "omega", "xi", "alpha", "ht", "hy", "g1", "g2",
    "published", "serialization", "protocols", "description", "hash_to_curve", "gt_exponent",
    "inner", "trace_case", "hard_part", "arkworks_points", "install", "security_bits",
}
# The security levels k (RFC 9380 section 5) a curve file may give its hash-to-curve suites, and the
# hash each takes (b >= 2k bits of digest: SHA-256 at 128, SHA-512 at 256).
SECURITY_LEVELS = {128: "sha256", 256: "sha512"}
# The families a BW6 curve can be built over (its r is their p), and its two trace cases: the
# constant term of t(x) mod r(x) (generator/derive/families.py).
BW6_INNER_FAMILIES = ("BLS12", "BLS24")
BW6_TRACE_CASES = (0, 3)
PUBLISHED_KEYS = {"p", "r"}
# The number of Fp coefficients of xi, the twist's sextic non-residue in Fq = Fp^(k/6), per family.
XI_LENGTHS = {"BLS24": (4,), "BLS48": (8,)}


@dataclass(frozen=True)
class IsogenySpec:
    """A recorded isogeny E' -> E for simplified SWU: E': y^2 = x^3 + a x + b and the four
    polynomials of the rational map, coefficients from degree 0 up (each an Fp or Fq element
    written as a tuple of ints, c0 first).  The generator checks all of it."""

    a: tuple[int, ...]
    b: tuple[int, ...]
    x_num: tuple[tuple[int, ...], ...]
    x_den: tuple[tuple[int, ...], ...]
    y_num: tuple[tuple[int, ...], ...]
    y_den: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class HashToCurveSpec:
    """The optional ``[hash_to_curve.g1]`` / ``[hash_to_curve.g2]`` table: the suite ID of the
    random-oracle suite (the encode suite is the same with ``NU_``), whether it is one of RFC 9380's
    suites, and the suite's recorded choices (Z, h_eff, the isogeny); each is checked or derived."""

    suite: str
    rfc: bool = False
    z: tuple[int, ...] | None = None
    h_eff: int | None = None
    isogeny: IsogenySpec | None = None


# RFC 9380 section 8.8: the only suites it defines for pairing-friendly curves (random-oracle IDs).
RFC9380_SUITES = {
    "g1": ("BLS12381G1_XMD:SHA-256_SSWU_RO_",),
    "g2": ("BLS12381G2_XMD:SHA-256_SSWU_RO_",),
}
HASH_TO_CURVE_KEYS = {"suite", "rfc", "z", "h_eff", "isogeny"}
ISOGENY_KEYS = ("a", "b", "x_num", "x_den", "y_num", "y_den")
SUITE_ID = re.compile(r"[A-Z0-9]+G[12]_XMD:SHA-(?:256|512)_(SSWU|SVDW)_RO_")
def _coefficients(value: object, key: str, where: str) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list) or not value:
        raise CurveFileError(f"{where}: key '{key}' must be a non-empty list of field elements (degree 0 first)")
    return tuple(_coordinate(v, f"{key}[{i}]", where) for i, v in enumerate(value))


def _hash_to_curve(value: object, source: str) -> dict[str, HashToCurveSpec]:
    """Validate the ``hash_to_curve`` table: sub-tables ``g1`` and/or ``g2``."""
    if not isinstance(value, dict) or not value or set(value) - {"g1", "g2"}:
        raise CurveFileError(f"{source}: table 'hash_to_curve' may only hold the sub-tables 'g1' and 'g2'")
    suites: dict[str, HashToCurveSpec] = {}
    for group, table in value.items():
        where = f"{source}: table 'hash_to_curve.{group}'"
        if not isinstance(table, dict):
            raise CurveFileError(f"{where} must be a table")
        unknown = sorted(set(table) - HASH_TO_CURVE_KEYS)
        if unknown:
            raise CurveFileError(f"{where}: unknown key '{unknown[0]}' (known: {', '.join(sorted(HASH_TO_CURVE_KEYS))})")
        suite = table.get("suite")
        if not isinstance(suite, str):
            raise CurveFileError(f"{where}: key 'suite' (the random-oracle suite ID) is required and must be a string")
        match = SUITE_ID.fullmatch(suite)
        if match is None or f"{group.upper()}_XMD" not in suite:
            raise CurveFileError(f"{where}: key 'suite' must look like 'CURVE{group.upper()}_XMD:SHA-256_SSWU_RO_' "
                                 f"(SHA-256 or SHA-512, SSWU or SVDW), got {suite!r}")
        rfc = table.get("rfc", False)
        if not isinstance(rfc, bool):
            raise CurveFileError(f"{where}: key 'rfc' must be true or false")
        if rfc and suite not in RFC9380_SUITES[group]:
            raise CurveFileError(f"{where}: suite {suite!r} is not an RFC 9380 suite, so 'rfc' must be false")
        isogeny = None
        if "isogeny" in table:
            iso = table["isogeny"]
            if not isinstance(iso, dict) or set(iso) != set(ISOGENY_KEYS):
                raise CurveFileError(f"{where}: table 'isogeny' must hold exactly the keys {', '.join(ISOGENY_KEYS)}")
            isogeny = IsogenySpec(
                a=_coordinate(iso["a"], "isogeny.a", where),
                b=_coordinate(iso["b"], "isogeny.b", where),
                **{k: _coefficients(iso[k], f"isogeny.{k}", where) for k in ISOGENY_KEYS[2:]},
            )
        if (match.group(1) == "SSWU") != (isogeny is not None):
            raise CurveFileError(f"{where}: an SSWU suite needs the table 'isogeny' (y^2 = x^3 + b has a = 0), "
                                 "and an SVDW suite must not have one")
        h_eff = parse_int(table["h_eff"], "h_eff", where) if "h_eff" in table else None
        if h_eff is not None and h_eff <= 0:
            raise CurveFileError(f"{where}: key 'h_eff' must be positive")
        suites[group] = HashToCurveSpec(
            suite=suite, rfc=rfc, isogeny=isogeny, h_eff=h_eff,
            z=_coordinate(table["z"], "z", where) if "z" in table else None,
        )
    return suites


@dataclass(frozen=True)
class CurveSpec:
    """The validated content of one curve file."""

    name: str
    family: str
    x: int
    source: str
    b: int | None = None
    beta: int | None = None
    nu: tuple[int, ...] | None = None    # v^2 = nu in Fp2 (BLS24's and BLS48's Fp4)
    omega: tuple[int, ...] | None = None  # w^2 = omega in Fp4 (BLS48's Fp8)
    xi: tuple[int, ...] | None = None
    alpha: int | None = None
    ht: int | None = None
    hy: int | None = None
    g1: tuple[int, int] | None = None
    g2: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    published: dict[str, int] = field(default_factory=dict)
    serialization: str | None = None
    # The serialization profile arkworks' crate for the curve writes G1 and G2 points in (its own
    # CanonicalSerialize; ark-bls12-381 keeps zcash's): the points of the wasm32 host calls
    # (docs/host-calls.md).  Fields, scalars and GT are arkworks' generic layout everywhere.
    arkworks_points: str = "arkworks"
    protocols: tuple[str, ...] = ()
    description: str = ""
    install: str = "default"  # one of params_common.INSTALL_MODES
    # k of RFC 9380 for the derived hash-to-curve suites (a key of SECURITY_LEVELS): L and the hash
    security_bits: int = 128
    hash_to_curve: dict[str, HashToCurveSpec] = field(default_factory=dict)
    # BW6: the inner curve's family (its file named by the key 'inner'; BLS12 when absent) and the
    # trace case (0 or 3; None: the first that gives a curve, 3 then 0).
    inner_family: str = "BLS12"
    trace_case: int | None = None
    # The GT convention: the multiple m(x) of the final exponentiation f^(m (p^k - 1)/r), as the
    # text of a polynomial in x (validated by parse_polynomial_in_x); None: the cheapest m.
    gt_exponent: str | None = None
    # A hard-part program for the final exponentiation (generator/derive/hard_part_program.py):
    # a candidate beside the derived programs, used once proved and only when cheaper.
    hard_part: str | None = None

    @property
    def package(self) -> str:
        """The Python package name: the display name in lower-case snake form."""
        return re.sub(r"[^0-9a-z]+", "_", self.name.lower()).strip("_")


def _int_tuple(value: object, key: str, where: str, lengths: tuple[int, ...]) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) not in lengths:
        want = " or ".join(str(n) for n in lengths)
        raise CurveFileError(f"{where}: key '{key}' must be a list of {want} integers, got {value!r}")
    return tuple(parse_int(v, f"{key}[{i}]", where) for i, v in enumerate(value))


def _coordinate(value: object, key: str, where: str) -> tuple[int, ...]:
    """A point coordinate: one integer (Fp) or a list of 1 to 4 or 8 integers (extension field, c0 first)."""
    if isinstance(value, list):
        return _int_tuple(value, key, where, (1, 2, 3, 4, 8))
    return (parse_int(value, key, where),)


def _inner_curve(data: dict, source: str) -> tuple[str, int]:
    """(family, seed) of the inner curve a BW6 file names with 'inner' (a path relative to the
    file's folder), which must be a BLS12 or BLS24 curve file."""
    inner = data["inner"]
    if not isinstance(inner, str) or not inner.endswith(".toml"):
        raise CurveFileError(f"{source}: key 'inner' must name a curve file (e.g. \"bls24-315.toml\"), got {inner!r}")
    path = Path(source).parent / inner
    table = parse_toml(read_curve_text(path), str(path))
    spec = None if table.get("family") == EDWARDS_FAMILY else parse_pairing(table, str(path))
    if spec is None or spec.family not in BW6_INNER_FAMILIES:
        raise CurveFileError(f"{source}: key 'inner' must name a {' or '.join(BW6_INNER_FAMILIES)} curve file, "
                             f"got {inner!r}")
    return spec.family, spec.x


def parse_pairing(data: dict, source: str) -> CurveSpec:
    """Validate the table of a pairing curve file (already parsed TOML); ``source`` names it in
    errors."""
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise CurveFileError(f"{source}: unknown key '{unknown[0]}' (known: {', '.join(sorted(KNOWN_KEYS))})")
    if data.get("family") != "BW6" and ("inner" in data or "trace_case" in data):
        raise CurveFileError(f"{source}: keys 'inner' and 'trace_case' apply to the BW6 family only")
    inner_family = "BLS12"
    if "inner" in data:
        inner_family, inner_x = _inner_curve(data, source)
        if "x" in data and parse_int(data["x"], "x", source) != inner_x:
            raise CurveFileError(f"{source}: key 'x' differs from the seed of the inner curve {data['inner']!r}")
        data = {**data, "x": inner_x}
    for key in ("name", "family", "x"):
        if key not in data:
            raise CurveFileError(f"{source}: missing required key '{key}'")
    trace_case = data.get("trace_case")
    if trace_case is not None and (isinstance(trace_case, bool) or trace_case not in BW6_TRACE_CASES):
        raise CurveFileError(f"{source}: key 'trace_case' must be 0 or 3 (the constant term of t(x) mod r(x)), "
                             f"got {trace_case!r}")
    install = parse_install(data, source)
    security_bits = data.get("security_bits", 128)
    if isinstance(security_bits, bool) or security_bits not in SECURITY_LEVELS:
        raise CurveFileError(f"{source}: key 'security_bits' must be one of "
                             f"{', '.join(map(str, SECURITY_LEVELS))} (RFC 9380's k), got {security_bits!r}")
    name = data["name"]
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_\- ]*", name):
        raise CurveFileError(f"{source}: key 'name' must start with a letter and hold letters, digits, '-', '_'")
    family = data["family"]
    if family not in FAMILIES:
        raise CurveFileError(f"{source}: key 'family' must be one of {', '.join(FAMILIES + (EDWARDS_FAMILY,))}, got {family!r}")
    x = parse_int(data["x"], "x", source)
    if x == 0:
        raise CurveFileError(f"{source}: key 'x' must be non-zero")
    towered = family in ("BN", "BLS12", "BLS24", "BLS48")
    if towered and ("alpha" in data or "ht" in data or "hy" in data):
        raise CurveFileError(f"{source}: keys 'alpha', 'ht', 'hy' apply to the BW6 family only")
    if not towered and ("beta" in data or "xi" in data):
        raise CurveFileError(f"{source}: keys 'beta' and 'xi' apply to the BN, BLS12, BLS24 and BLS48 families only")
    if family not in ("BLS24", "BLS48") and "nu" in data:
        raise CurveFileError(f"{source}: key 'nu' (v^2 = nu, the Fp4 non-residue) applies to the BLS24 and BLS48 "
                             "families only")
    if family != "BLS48" and "omega" in data:
        raise CurveFileError(f"{source}: key 'omega' (w^2 = omega, the Fp8 non-residue) applies to the BLS48 family only")
    if family == "BW6" and ("ht" in data) != ("hy" in data):
        raise CurveFileError(f"{source}: keys 'ht' and 'hy' must be given together")
    published = data.get("published", {})
    if not isinstance(published, dict) or set(published) - PUBLISHED_KEYS:
        raise CurveFileError(f"{source}: table 'published' may only hold {', '.join(sorted(PUBLISHED_KEYS))}")
    g1 = g2 = None
    if "g1" in data:
        pair = data["g1"]
        if not isinstance(pair, list) or len(pair) != 2:
            raise CurveFileError(f"{source}: key 'g1' must be [x, y]")
        g1 = (parse_int(pair[0], "g1.x", source), parse_int(pair[1], "g1.y", source))
    if "g2" in data:
        pair = data["g2"]
        if not isinstance(pair, list) or len(pair) != 2:
            raise CurveFileError(f"{source}: key 'g2' must be [x, y] with coordinates as lists (c0 first)")
        g2 = (_coordinate(pair[0], "g2.x", source), _coordinate(pair[1], "g2.y", source))
    protocols = data.get("protocols", [])
    if not isinstance(protocols, list) or not all(isinstance(p, str) for p in protocols):
        raise CurveFileError(f"{source}: key 'protocols' must be a list of strings")
    for position, protocol in enumerate(protocols):
        if protocol not in PROTOCOL_NAMES:
            raise CurveFileError(
                f"{source}: key 'protocols' names unknown protocol {protocol!r} "
                f"(known: {', '.join(PROTOCOL_NAMES)})"
            )
        if protocol in protocols[:position]:
            raise CurveFileError(f"{source}: key 'protocols' names {protocol!r} twice")
    gt_exponent = data.get("gt_exponent")
    if gt_exponent is not None:
        parse_polynomial_in_x(gt_exponent, "gt_exponent", source)
    hard_part = data.get("hard_part")
    if hard_part is not None and (not isinstance(hard_part, str) or not hard_part.strip() or len(hard_part) > 8000):
        raise CurveFileError(f"{source}: key 'hard_part' must be the text of a program (at most 8000 characters)")
    serialization = data.get("serialization")
    if serialization is not None and not isinstance(serialization, str):
        raise CurveFileError(f"{source}: key 'serialization' must be a string")
    arkworks_points = data.get("arkworks_points", "arkworks")
    if not isinstance(arkworks_points, str):
        raise CurveFileError(f"{source}: key 'arkworks_points' must be a string")
    return CurveSpec(
        name=name,
        family=family,
        x=x,
        source=source,
        b=parse_int(data["b"], "b", source) if "b" in data else None,
        beta=parse_int(data["beta"], "beta", source) if "beta" in data else None,
        nu=_int_tuple(data["nu"], "nu", source, (2,)) if "nu" in data else None,
        omega=_int_tuple(data["omega"], "omega", source, (4,)) if "omega" in data else None,
        xi=_int_tuple(data["xi"], "xi", source, XI_LENGTHS.get(family, (2,))) if "xi" in data else None,
        alpha=parse_int(data["alpha"], "alpha", source) if "alpha" in data else None,
        ht=parse_int(data["ht"], "ht", source) if "ht" in data else None,
        hy=parse_int(data["hy"], "hy", source) if "hy" in data else None,
        g1=g1,
        g2=g2,
        published={k: parse_int(v, f"published.{k}", source) for k, v in published.items()},
        serialization=serialization,
        arkworks_points=arkworks_points,
        protocols=tuple(protocols),
        description=str(data.get("description", "")),
        install=install,
        security_bits=security_bits,
        hash_to_curve=_hash_to_curve(data["hash_to_curve"], source) if "hash_to_curve" in data else {},
        gt_exponent=gt_exponent,
        hard_part=hard_part,
        inner_family=inner_family,
        trace_case=trace_case,
    )
