"""Ready C for templates/c/pairing.h.j2: the multiplication by 3 b' (the twist's coefficient) by
small-constant products, and the schedule of the product of two lines. Statements come as in
generator/emit/tower.py (lines indented for a function body, joined by newlines).

Layer: emit. Imports protocols, derive, the curve files and the leaves; never the drivers, cli or
generator/reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..derive.model import CurveModel
from .tower import TowerEmit, fp_lincomb, fp_times


def _times(out: str, a: str, k: int) -> str:
    """pairing.h's small products: 2 a too as a chain of one doubling (as it always rendered)."""
    return fp_times(out, a, k, short_double=False)


def _lincomb(out: str, a: str, ka: int, b: str, kb: int) -> str:
    return fp_lincomb(out, a, ka, b, kb, short_double=False)


@dataclass(frozen=True)
class TwistB3Small:
    """3 b' = g (k_0 + k_1 u [+ ...]) with small integers (generator/derive/twist.py b3_small):
    additions replace a multiplication in Fq. shift_v: over Fp4, 3 b' is an Fp2 constant times v
    (a shift by v first); (k0, k1) the Fp2 constant that multiplies each half."""

    g: int
    ks: tuple[int, ...]
    shift_v: bool
    k0: int
    k1: int
    statements: str

    @property
    def ks_text(self) -> str:
        return " + ".join(str(k) for k in self.ks)


def twist_b3_small(m: CurveModel) -> TwistB3Small | None:
    """The small-constant form of out = 3 b' a, where the twist's 3 b' has one; over Fp4 only where
    3 b' is an Fp2 constant, or one times v."""
    b3s = m.twist.b3_small
    if not b3s:
        return None
    g, ks = b3s
    ks = tuple(ks)
    shift_v = False
    if m.fq_degree == 4:
        shift_v = not any(ks[:2])
        if not (shift_v or not any(ks[2:])):
            return None
    beta = m.tower.beta
    if m.fq_degree == 2:
        k0, k1 = ks[0], ks[1]
        halves = [("&a->c0", "&a->c1", "&out->c0", "&out->c1")]
    elif m.fq_degree == 4:
        k0, k1 = (ks[2], ks[3]) if shift_v else (ks[0], ks[1])
        halves = [(f"&s.{h}.c0", f"&s.{h}.c1", f"&out->{h}.c0", f"&out->{h}.c1") for h in ("c0", "c1")]
    else:
        return TwistB3Small(g, ks, False, ks[0], 0, _times("out", "a", g * ks[0]))
    lines = []
    for a0, a1, o0, o1 in halves:
        lines += [_lincomb("&t0", a0, k0, a1, k1 * beta), _lincomb("&t1", a0, k1, a1, k0),
                  _times(o0, "&t0", g), _times(o1, "&t1", g)]
    return TwistB3Small(g, ks, shift_v, k0, k1, "\n".join(lines))


# The C members of an element of Fq over Fp, by Fq's degree.
FQ_COEFFICIENTS = {1: ("",), 2: ("c0", "c1"), 4: ("c0.c0", "c0.c1", "c1.c0", "c1.c1"),
                   8: tuple(f"c{i}.c{j}.c{k}" for i in (0, 1) for j in (0, 1) for k in (0, 1))}


@dataclass(frozen=True)
class TwistB3Monomial:
    """3 b' a multiple of one basis monomial of Fq (generator/derive/twist.py b3_monomial): each
    coefficient of the product is one coefficient of a times a constant; constants are
    (index, value) of the ones that take a multiplication in Fp (PF_TWIST_B3_K<index>)."""

    constants: tuple[tuple[int, int], ...]
    statements: str


def twist_b3_monomial(m: CurveModel) -> TwistB3Monomial | None:
    if not m.twist.b3_monomial:
        return None
    coefficient = FQ_COEFFICIENTS[m.fq_degree]
    constants, lines = [], []
    for i, (j, k, small) in enumerate(m.twist.b3_monomial):
        if small:
            lines.append(_times(f"&r.{coefficient[i]}", f"&a->{coefficient[j]}", k))
        else:
            constants.append((i, k))
            lines.append(f"    fp_mul(&r.{coefficient[i]}, &a->{coefficient[j]}, &PF_TWIST_B3_K{i});")
    return TwistB3Monomial(tuple(constants), "\n".join(lines))


@dataclass(frozen=True)
class LineSlots:
    """Where the product of two lines A + B w^i + C w^3 lands in gt (slot w^j is
    c(j mod 2).c(j div 2)): D-twist A = y, B = x, i = 1; M-twist A = c, B = x, i = 2. The slot of
    w^(5 - 4 (i - 1)) stays zero."""

    a: str         # the line's coefficient A (y or c)
    c: str         # the line's coefficient C (c or y)
    ab: str        # the slot of AB' + BA'
    bb: str        # the slot of BB'
    bc: str        # the slot of BC' + CB'
    zero: str      # the slot that stays zero
    shape: str     # the line as text


def line_slots(twist_kind: str) -> LineSlots:
    if twist_kind == "D":
        return LineSlots("y", "c", "c1.c0", "c0.c1", "c0.c2", "c1.c2", "y + x w + c w^3")
    return LineSlots("c", "y", "c0.c1", "c0.c2", "c1.c2", "c1.c0", "c + x w^2 + y w^3")


class PairingEmit:
    """What pairing.h needs computed for one curve."""

    def __init__(self, m: CurveModel) -> None:
        self.m = m
        self.tower = TowerEmit(m)

    @cached_property
    def b3_small(self) -> TwistB3Small | None:
        return twist_b3_small(self.m)

    @cached_property
    def b3_monomial(self) -> TwistB3Monomial | None:
        return twist_b3_monomial(self.m)

    @cached_property
    def line(self) -> LineSlots:
        return line_slots(self.m.twist.kind)

    @cached_property
    def line_crosses(self) -> tuple[tuple[str, str], ...]:
        """The three lazy Karatsuba cross terms of the product of two lines, each with the slot
        its reduction goes to: AB' + BA', AC' + CA' (slot w^3, c1.c1), BC' + CB'."""
        ln, cross = self.line, self.tower.karatsuba_cross
        a, c = f"&a->{ln.a}", f"&a->{ln.c}"
        b_a, b_c = f"&b->{ln.a}", f"&b->{ln.c}"
        return ((cross((a, "&a->x"), (b_a, "&b->x"), ("aa", "bb")), ln.ab),
                (cross((a, c), (b_a, b_c), ("aa", "cc")), "c1.c1"),
                (cross(("&a->x", c), ("&b->x", b_c), ("bb", "cc")), ln.bc))


def pairing_emit(m: CurveModel) -> PairingEmit:
    """pairing.h's helper for ``m`` (the Jinja global ``pairing_emit``)."""
    return PairingEmit(m)
