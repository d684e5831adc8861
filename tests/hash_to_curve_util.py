"""The hash-to-curve check of a compiled package against the pure-Python reference
(generator/reference/hash_to_curve.py), over the suite parameters its model derived: run by
tests/pairings/test_hash_to_curve.py on the shipped curves and by the tests of the curves made
for the tests (tests/derive/test_bw6_633.py, test_bw6_t0.py, test_custom_curves.py)."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from generator.derive.model import CurveModel
from generator.reference import ReferencePairing, reference_for_model
from generator.reference import hash_to_curve as ref_h2c


def map_params(m: CurveModel, ref: ReferencePairing, group: str) -> tuple[ref_h2c.MapParams, Any]:
    """The reference's view of one suite, built from the model's (checked) suite parameters."""
    h = m.h2c[group]
    F, E = (ref.Fp, ref.E1) if group == "g1" else (ref.Fq, ref.E2)

    def conv(e: tuple[int, ...]) -> Any:
        return list(e) if len(e) > 1 else e[0]

    iso = h.isogeny
    params = ref_h2c.MapParams(
        field=F, b=E.b, method=h.method, z=conv(h.z), h_eff=h.h_eff, L=h.L, hash_name=h.hash,
        a_iso=conv(iso.a) if iso else None, b_iso=conv(iso.b) if iso else None,
        iso=tuple([conv(c) for c in poly] for poly in (iso.x_num, iso.x_den, iso.y_num, iso.y_den)) if iso else None,
    )
    return params, E


def ref_ints(a: Any) -> int | tuple[int, ...]:
    """A reference field element as an int (Fp) or a tuple of ints (an extension)."""
    return tuple(int(c) for c in a.coeffs) if hasattr(a, "coeffs") else int(a)


def ref_point(P: Any) -> tuple[Any, Any] | None:
    """A reference affine point as ints (None: the point at infinity)."""
    return None if P is None else (ref_ints(P[0]), ref_ints(P[1]))


def edge_and_random_u(m: CurveModel, group: str, rng: random.Random, n: int) -> list[Any]:
    """Field elements u to map: 0, 1, -1, 2, (p - 1) / 2 (in each coefficient of Fp2), and n random ones."""
    deg = m.h2c[group].degree
    values = [0, 1, m.p - 1, 2, (m.p - 1) // 2]
    out: list[Any] = []
    for v in values:
        out.append(v if deg == 1 else (v, 0))
        if deg == 2:
            out.append((0, v))
    for _ in range(n):
        out.append(rng.randrange(m.p) if deg == 1 else (rng.randrange(m.p), rng.randrange(m.p)))
    return out


def check_against_reference(C: ModuleType, m: CurveModel, seed: str, n_random: int = 6, n_msgs: int = 3) -> None:
    """map_to_curve on edge and random u, and hash_to_curve / encode_to_curve on a few messages,
    equal the reference; outputs are on the curve and, after clearing, in the subgroup."""
    ref = reference_for_model(m)
    rng = random.Random(seed)
    for group, G in (("g1", C.G1), ("g2", C.G2)):
        params, E = map_params(m, ref, group)
        for u in edge_and_random_u(m, group, rng, n_random):
            Q = G.map_to_curve(u)
            assert Q.is_on_curve()
            assert Q.to_affine() == ref_point(ref_h2c.map_to_curve(params, params.field(u)))
        dst = f"PAIRFORGE-TEST-{m.package}-{group}".encode()
        for i in range(n_msgs):
            msg = bytes(rng.randrange(256) for _ in range(i * 17))
            _, _, _, P = ref_h2c.hash_to_curve(params, E, msg, dst)
            H = G.hash_to_curve(msg, dst)
            assert H.is_on_curve() and H.in_subgroup() and not H.is_identity()
            assert H.to_affine() == ref_point(P)
            _, _, P = ref_h2c.encode_to_curve(params, E, msg, dst)
            N = G.encode_to_curve(msg, dst)
            assert N.in_subgroup() and N.to_affine() == ref_point(P)
