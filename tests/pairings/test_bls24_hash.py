"""Hash to curve on BLS24-315 and BLS24-317 (derivation and reference; not rendered yet).

No isogeny is recorded for BLS24, so both groups use Shallue-van de Woestijne (RFC 9380 section
6.6.1): on G1 over Fp and on G2 over Fp4, with Z found by appendix H.1 (every earlier candidate
fails its criteria), the constants c1..c4 checked against their definitions, sqrt_ratio run in Fp4,
hash_to_field with m = 4 (section 5.2, L = 56 bytes per coefficient), and cofactor clearing by the
endomorphism formulas ([1 - x] on G1, the psi formula of derive/psi_clearing.py on G2). The
reference maps random field elements onto the curves, and the full hash lands in G1 and G2 and
equals the psi formula's image. About 35 s of CPU (the derivations are shared with
test_bls24_derive.py through tests/bls24_util.py when both run in one process; the reference's Fp4 square roots are plain
Tonelli-Shanks powers, about 3 s a map).
"""

from __future__ import annotations

import functools
import random

import pytest
from bls24_util import NAMES, core_of, endo_of, spec_of

from generator.derive.checks import DerivationError
from generator.derive.endomorphisms import Evaluator
from generator.derive.hash_to_curve import (
    _candidates_rfc,
    derive_hash_to_curve,
    sgn0,
    svdw_z_ok,
)
from generator.derive.model import derive_hash_maps
from generator.params import HashToCurveSpec
from generator.reference import ReferencePairing
from generator.reference.hash_to_curve import (
    MapParams,
    expand_message_xmd,
    from_flat,
    hash_to_curve,
    hash_to_field,
    map_to_curve,
)
from generator.reference.hash_to_curve import sgn0 as ref_sgn0

DST = b"PAIRFORGE-BLS24-TEST-DST"


@functools.lru_cache(maxsize=None)
def maps_of(name: str):
    return derive_hash_maps(spec_of(name), core_of(name), endo_of(name))


@functools.lru_cache(maxsize=None)
def reference_of(name: str) -> ReferencePairing:
    core = core_of(name)
    tower, fam = core.tower, core.family
    return ReferencePairing("BLS24", spec_of(name).x, fam.p, fam.r, core.b, core.twist.kind, tower.beta,
                            (tower.xi[:2], tower.xi[2:]), tower.nu)


def flat(a) -> tuple[int, ...]:
    """A reference field element as the derivation's flat tuple of Fp coefficients."""
    if hasattr(a, "coeffs"):
        return tuple(c for part in a.coeffs for c in flat(part))
    return (int(a),)


def params_of(name: str, group: str) -> MapParams:
    m, R = maps_of(name)[group], reference_of(name)
    field = R.Fp if group == "g1" else R.Fq
    curve = R.E1 if group == "g1" else R.E2
    return MapParams(field=field, b=curve.b, method=m.method, z=from_flat(field, m.z), h_eff=m.h_eff, L=m.L)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("group", ["g1", "g2"])
def test_svdw_constants(name: str, group: str) -> None:
    m = maps_of(name)[group]
    core = core_of(name)
    E = core.E1 if group == "g1" else core.twist.curve
    F = E.F
    assert m.method == "svdw" and m.isogeny is None and m.degree == (1 if group == "g1" else 4)
    assert m.L == 56 and m.suite_ro == f"{spec_of(name).name.replace('-', '')}{group.upper()}_XMD:SHA-256_SVDW_RO_"
    # Z: the first candidate of appendix H.1's order (1, -1, 2, -2, ...) meeting the criteria
    assert svdw_z_ok(F, F.zero, E.b, m.z) and m.z_by_rule
    for cand in _candidates_rfc(F, F.one):
        if cand == m.z:
            break
        assert not svdw_z_ok(F, F.zero, E.b, cand)
    z, c = m.z, m.svdw
    gz = F.add(F.mul(F.mul(z, z), z), E.b)
    three_z2 = F.scale(F.mul(z, z), 3)
    assert c.c1 == gz
    assert F.scale(c.c2, 2) == F.neg(z)
    assert F.mul(c.c3, c.c3) == F.neg(F.mul(gz, three_z2)) and sgn0(F, c.c3) == 0
    assert F.mul(c.c4, three_z2) == F.neg(F.scale(gz, 4))
    assert m.clear == "endo"
    assert m.h_eff == (1 - spec_of(name).x if group == "g1" else 3 * (spec_of(name).x ** 4 - 1) * core.twist.cofactor)


def test_altered_z_is_refused() -> None:
    """A recorded Z that fails appendix H.1's criteria is refused (the one before the rule's Z)."""
    core, name = core_of("bls24-315"), "bls24-315"
    E, F = core.twist.curve, core.twist.curve.F
    z = maps_of(name)["g2"].z
    earlier = next(c for c in _candidates_rfc(F, F.one) if not svdw_z_ok(F, F.zero, E.b, c) and c != z)
    spec = HashToCurveSpec(suite="BLS24315G2_XMD:SHA-256_SVDW_RO_", z=earlier)
    with pytest.raises(DerivationError, match="recorded Z meets RFC 9380 appendix H"):
        derive_hash_to_curve("g2", name, E, core.twist.order, core.twist.cofactor, core.family.r, spec, name)


def test_hash_to_field_fp4_layout() -> None:
    """m = 4: each element takes 4 L bytes, coefficient j of element i from bytes L (j + i m), in the
    flattened order (c0.c0, c0.c1, c1.c0, c1.c1) that sgn0 reads."""
    R = reference_of("bls24-317")
    L, m, p = 56, 4, R.p
    u = hash_to_field(R.Fq, b"abc", DST, 2, L)
    data = expand_message_xmd(b"abc", DST, 2 * m * L)
    for i in range(2):
        want = tuple(int.from_bytes(data[L * (j + i * m): L * (j + 1 + i * m)], "big") % p for j in range(m))
        assert flat(u[i]) == want
    assert ref_sgn0(from_flat(R.Fq, [0, 0, 3, 0])) == 1 and ref_sgn0(from_flat(R.Fq, [2, 0, 3, 0])) == 0
    assert from_flat(R.Fq, [0, 0, 1, 0]) == R.Fq.gen()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("group", ["g1", "g2"])
def test_map_lands_on_the_curve(name: str, group: str) -> None:
    P = params_of(name, group)
    R = reference_of(name)
    E = R.E1 if group == "g1" else R.E2
    rng = random.Random(24)
    for _ in range(4 if group == "g1" else 2):         # a map in Fp4 takes about 3 s here
        u = from_flat(P.field, [rng.randrange(R.p) for _ in range(P.field.degree)])
        Q = map_to_curve(P, u)
        assert Q is not None and E.on_curve(Q)
        assert ref_sgn0(Q[1]) == ref_sgn0(u)
    assert E.on_curve(map_to_curve(P, P.field(0)))       # the exceptional input u = 0


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("group", ["g1", "g2"])
def test_hash_lands_in_the_group(name: str, group: str) -> None:
    """hash_to_curve's [h_eff](Q0 + Q1) is a non-zero point of order r, and on G2 it is what the
    psi formula computes from Q0 + Q1 (so the rendered clearing can follow the derivation)."""
    P = params_of(name, group)
    R, core, x = reference_of(name), core_of(name), spec_of(name).x
    E = R.E1 if group == "g1" else R.E2
    _, Q0, Q1, H = hash_to_curve(P, E, b"pairforge", DST)
    assert H is not None and E.on_curve(H) and E.mul(H, R.r) is None
    S = E.add(Q0, Q1)
    if group == "g1":
        assert E.eq(H, E.mul(S, 1 - x))
        return
    endo = endo_of(name).g2
    ev = Evaluator(core.twist.curve, "psi", None, core.miller.psi, x)
    image = ev.formula(endo.clear, (flat(S[0]), flat(S[1])))
    assert image == (flat(H[0]), flat(H[1]))
