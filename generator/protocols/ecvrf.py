"""The IETF-style VRF of ark-vrf (``ecvrf.py``) on twisted Edwards curves.

ark-vrf (davxy/ark-vrf) builds RFC 9381's construction (Gamma = x·H, a Schnorr-like (c, s) proof
of equal discrete logs) with a Fiat-Shamir transcript: a hash absorbs the suite id, a scheme
byte, the input/output pairs, the additional data, and squeezes the delinearization scalar, the
nonce and the challenge. What differs between suites is data of the curve file's ``[[ecvrf]]``
tables: the suite id, the transcript hash (``sha512``: SHA-512 in counter mode, or ``shake128``),
the hash to curve (``ell2-xmd`` / ``ell2-xof``: RFC 9380 Elligator 2 with arkworks' field hasher;
``tai``: try-and-increment on arkworks' point decoding), the generator, and the curve form the
suite's points are written in (``form_a``: a' with x' = s·x, s² = a/a'; Baby Jubjub's suite
uses arkworks' a = 1 form of the circom curve). What is the same for every suite (the domain
bytes, the 128-bit challenge, the nonce and output lengths, arkworks' compressed encoding) lives
in templates/python/ecvrf.py.j2. Every suite's data is checked here: the generator lies on the
suite's form and maps to a point of order r; Elligator 2 suites use the curve file's own form.

Layer: protocols. Imports derive, the curve files and the leaves; never emit or the layers above,
nor generator/reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..derive.checks import require
from ..derive.edwards.algebra import EdwardsCurve, WeierstrassCurve, sqrt_mod, to_weierstrass
from . import Protocol, register

if TYPE_CHECKING:
    from ..derive.edwards import EdwardsModel


def _unsupported(model: object) -> str | None:
    if getattr(model, "family", None) != "TwistedEdwards":
        return "ark-vrf's suites are defined on twisted Edwards curves (this curve has no Edwards model)"
    if not getattr(model.spec, "ecvrf", ()):
        return "the curve file lists no [[ecvrf]] suite"
    return None


def _weierstrass_suite(model: EdwardsModel, spec, curve: str) -> dict[str, object]:
    """A suite on the [weierstrass] model (try-and-increment on it, arkworks' SW encoding): its
    generator, given on that model, carried to the Edwards curve the package computes on."""
    w = model.published_weierstrass
    require(w is not None, curve, "a weierstrass suite needs the curve file's [weierstrass] section")
    p, (A, B), c = model.p, model.montgomery, w.c
    X, Y = spec.generator
    require(WeierstrassCurve(p, w.a, w.b).on_curve((X, Y)), curve, "the generator lies on the [weierstrass] model")
    u = (B * X * pow(c * c, -1, p) - A * pow(3, -1, p)) % p         # Montgomery, then Edwards
    v = B * Y * pow(c ** 3, -1, p) % p
    require(v != 0 and u != p - 1, curve, "the generator has an affine Edwards image")
    g = (u * pow(v, -1, p) % p, (u - 1) * pow(u + 1, -1, p) % p)
    E = model.curve
    require(E.on_curve(g) and to_weierstrass(E, model.montgomery, c, g) == (X, Y), curve,
            "the generator's Edwards image maps back to it")
    require(g != E.identity and E.mul(g, model.r) == E.identity, curve, "the generator has order r")
    return {"suite": spec.suite, "transcript": spec.transcript, "hash_to_curve": spec.hash_to_curve,
            "generator": g, "scale": 1, "form_a": model.a, "form_d": model.d, "model": "weierstrass",
            "point_len": model.sw_compressed_bytes}


def _suite(model: EdwardsModel, spec) -> dict[str, object]:
    p, curve = model.p, f"{model.name} ({model.source}) ecvrf suite {spec.suite!r}"
    if spec.model == "weierstrass":
        return _weierstrass_suite(model, spec, curve)
    if spec.form_a is None:
        scale, a_s, d_s = 1, model.a, model.d
    else:
        require(spec.hash_to_curve == "tai", curve, "Elligator 2 suites use the curve file's own form")
        ratio = model.a * pow(spec.form_a, -1, p) % p
        root = sqrt_mod(ratio, p)
        require(root is not None, curve, "a/a' is a square, so x' = s·x is defined over F_p")
        scale = min(root, p - root)
        a_s, d_s = spec.form_a, model.d * spec.form_a * pow(model.a, -1, p) % p
    gen = model.generators[spec.generator] if isinstance(spec.generator, str) else spec.generator
    E, E_s = model.curve, EdwardsCurve(p, a_s, d_s)
    inv = pow(scale, -1, p)
    require(E_s.on_curve(gen), curve, "the generator lies on the suite's curve form")
    g = (gen[0] * inv % p, gen[1])
    require(E.on_curve(g) and g != E.identity and E.mul(g, model.r) == E.identity, curve,
            "the generator maps to a point of order r of the curve")
    for y in range(2, 40):
        pts = E_s.lift_y(y)
        if pts:
            q = pts[0]
            require(E.on_curve((q[0] * inv % p, q[1])), curve, "x' = s·x carries the suite's form to the curve")
            break
    return {"suite": spec.suite, "transcript": spec.transcript, "hash_to_curve": spec.hash_to_curve,
            "generator": g, "scale": scale, "form_a": a_s, "form_d": d_s, "model": "edwards",
            "point_len": (p.bit_length() + 1 + 7) // 8}


def _context(model: EdwardsModel) -> dict[str, object]:
    p, r = model.p, model.r
    suites = [_suite(model, s) for s in model.spec.ecvrf]
    return {
        "suites": suites,
        "weierstrass": any(s["model"] == "weierstrass" for s in suites),
        "point_len": (p.bit_length() + 1 + 7) // 8,  # arkworks compressed: the sign flag in the top bit
        "scalar_len": (r.bit_length() + 7) // 8,
        "nonce_len": (r.bit_length() + 128 + 7) // 8,
        "field_bits": p.bit_length(),
    }


register(
    Protocol(
        name="ecvrf",
        summary="ark-vrf's IETF-style VRF (tiny proofs): prove, verify, proof_to_hash",
        files={"ecvrf.py": "python/ecvrf.py.j2"},
        unsupported=_unsupported,
        context=_context,
    )
)
