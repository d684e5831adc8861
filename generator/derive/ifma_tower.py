"""The GT field's operations on AVX-512 IFMA: plans traced from the tower, and the bounds that allow them.

The tower of a k = 12 curve (Fp2 = Fp[u]/(u^2 - beta), Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v))
is traced symbolically, Karatsuba at every level, through an operation as the limb code computes it.
One Fp12 multiplication becomes:

- a *pre* stage: the operands of the products, each a sum of input coefficients;
- 54 products of such sums, in double width and unreduced (eight at a time, one per 64-bit lane);
- a *post* stage: each of the 12 output coefficients as a signed integer combination of the
  products, still in double width (one coefficient per 512-bit vector, 64-bit signed columns);
- one Montgomery reduction per output by the library's radix R64 = 2^(64 L) (see below), then
  a quotient estimate and conditional subtractions that make it canonical.

The product by a line (b zero outside three Fp2 slots) and the cyclotomic squarings (Granger-Scott,
Karabina's compressed one) are traced the same way. Their squarings in Fp2 are complex squarings,
two products each. An input coefficient that an output adds (their 2 x) is *placed*: x times the
reduction's divisor (x R64, or x R52 in a chain), its limbs shifted into the double-width columns,
so that it carries the products' scale without a product of its own. The Miller loop's doubling
step on the twist (trace_line_dbl) is traced the same way, in rounds whose reduced outputs the
next rounds read.

Inputs are the library's own elements: canonical integers below p, x R64 mod p for the value x.
Their products carry R64^2, and the reduction divides by R64 itself (which needs R64 <= R52 =
2^(52 n)): floor(64 L / 52) Montgomery steps of 52 bits and one of the remaining 64 L mod 52 bits,
which leaves x y R64, the library's form. The result lies below a bound the plan proves, a few
times p (dividing by R64 leaves more than dividing by R52 would: up to 382p for BN254), within the
limbs from the reduction's last step up (below R52^2 / R64). A quotient estimate from the value's
top bits (one IFMA product, _quotient_estimate) takes it below 3p, and conditional subtractions of
2p and p make it canonical. No product per output changes the radix.

The bounds below fix the limb count n: the pre stage's sums must stay below R52 with 52-bit limbs,
the post stage's signed columns inside 64 bits with the reduction's own terms added, and the
reduced outputs within the limbs. A chain of compressed squarings stays in the kernel's form (x R52)
between squarings, reduced by R52; the quotient estimate then leaves its values below
CHAIN_INPUT_BOUND p = 3p, the next squaring's inputs, and its sums' offsets count multiples of 3p.
A product by C (or by R64 mod p) changes the form once on the way in (and out).

A curve gets the kernels where the multiplication's bounds hold with n <= 8 (an element's limbs
fill one 512-bit vector) and its 64-bit form has at most 8 words; another kernel whose bounds fail
at that n is left out, and its limb version runs.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import gmpy2

from .checks import DerivationError, require
from .ifma import LIMB_BITS, limbs52

__all__ = ["DerivationError", "IfmaTowerPlan", "PostTerm", "derive_ifma_tower", "trace_fp12_mul"]

MAX_LIMBS = 8          # one element in one 512-bit vector
MAX_WORDS = 8          # the library's 64-bit form, loaded into one vector
FP12_COEFFS = 12
QUOTIENT_SLACK = 2     # the quotient estimate (_quotient_estimate) is the quotient less at most this
# Between the squarings of a chain, values stay below this multiple of p: where its estimate leaves them.
CHAIN_INPUT_BOUND = QUOTIENT_SLACK + 1
# Columns of the signed double-width sums, with the reduction's own terms, must stay below this.
COLUMN_LIMIT = 1 << 63

# A signed combination: (coefficient, name) pairs; names are products "P<k>", placed inputs "X<k>"
# or post values.
PostTerm = tuple[int, str]
# A pre-stage value: (name, signed terms, k): the terms' sum plus k p, k making it non-negative.
PreSum = tuple[str, tuple[PostTerm, ...], int]
# The name of a coefficient known to be zero: sums, products and combinations drop it.
ZERO = "0"


@dataclass
class _Trace:
    """Symbolic Karatsuba over the tower; names of pre-stage values are "a<i>", "b<i>" and "s<k>"."""

    beta: int
    xi: tuple[int, int]
    pre: list[PreSum] = field(default_factory=list)
    operands: list[tuple[str, str]] = field(default_factory=list)       # product k = x * y
    placed: list[str] = field(default_factory=list)                     # X<k> = input x times R
    post: list[tuple[str, tuple[PostTerm, ...]]] = field(default_factory=list)
    width: dict[str, int] = field(default_factory=dict)       # input coefficients a pre value sums
    # post value -> {"P<k>" (a product) or "X<k>" (a placed input): coefficient}
    lin: dict[str, dict[str, int]] = field(default_factory=dict)
    counter: int = 0

    def add(self, x: str, y: str) -> str:
        return self.pre_sum([(1, x), (1, y)])

    def pre_sum(self, terms: list[PostTerm]) -> str:
        """A signed combination of pre-stage values plus the least multiple of p that keeps it
        non-negative (the inputs are below p); a single term of coefficient 1 is that value."""
        terms = [(c, x) for c, x in terms if c != 0 and x != ZERO]  # zero: a line's empty slots
        if not terms:
            return ZERO
        if len(terms) == 1 and terms[0][0] == 1:
            return terms[0][1]
        self.counter += 1
        name = f"s{self.counter}"
        offset = sum(-c * self.width[x] for c, x in terms if c < 0)
        self.pre.append((name, tuple(terms), offset))
        self.width[name] = sum(c * self.width[x] for c, x in terms if c > 0) + offset
        return name

    def mul(self, x: str, y: str) -> str:
        if ZERO in (x, y):
            return ZERO
        k = len(self.operands)
        self.operands.append((x, y))
        self.lin[f"P{k}"] = {f"P{k}": 1}
        return f"P{k}"

    def comb(self, terms: list[PostTerm]) -> str:
        terms = [(c, t) for c, t in terms if c != 0 and t != ZERO]
        if not terms:
            return ZERO
        self.counter += 1
        name = f"w{self.counter}"
        lin: dict[str, int] = {}
        for c, t in terms:
            for k, v in self.lin[t].items():
                lin[k] = lin.get(k, 0) + c * v
        self.lin[name] = {k: v for k, v in lin.items() if v}
        self.post.append((name, tuple(terms)))
        return name

    # ---- the levels, as tower.h computes them (the same field, the same basis)
    def fp2_mul(self, a: tuple[str, str], b: tuple[str, str]) -> tuple[str, str]:
        t0 = self.mul(a[0], b[0])
        t1 = self.mul(a[1], b[1])
        t2 = self.mul(self.add(a[0], a[1]), self.add(b[0], b[1]))
        return self.comb([(1, t0), (self.beta, t1)]), self.comb([(1, t2), (-1, t0), (-1, t1)])

    def fp2_sqr(self, a: tuple[str, str]) -> tuple[str, str]:
        """The complex squaring, two products: t = a0 a1, (a0 + a1)(a0 + beta a1) - (1 + beta) t
        and 2 t (a0 + beta a1 is a signed sum of the pre stage)."""
        t = self.mul(a[0], a[1])
        x = self.mul(self.add(a[0], a[1]), self.pre_sum([(1, a[0]), (self.beta, a[1])]))
        return self.comb([(1, x), (-(1 + self.beta), t)]), self.comb([(2, t)])

    def place(self, x: str) -> str:
        """An input coefficient x in the products' double width, as x R (R the divisor of the
        kernel's reduction): the kernel shifts x's limbs into place, no product."""
        k = len(self.placed)
        self.placed.append(x)
        self.lin[f"X{k}"] = {f"X{k}": 1}
        return f"X{k}"

    def linear(self, a: tuple[str, str]) -> tuple[str, str]:
        """An input Fp2 coefficient in the products' double width (place)."""
        return self.place(a[0]), self.place(a[1])

    def fp2_add(self, a: tuple[str, str], b: tuple[str, str]) -> tuple[str, str]:
        return self.add(a[0], b[0]), self.add(a[1], b[1])

    def w2_comb(self, terms: list[tuple[int, tuple[str, str]]]) -> tuple[str, str]:
        c0 = self.comb([(c, x[0]) for c, x in terms])
        return c0, self.comb([(c, x[1]) for c, x in terms])

    def pre_xi(self, x: tuple[str, str]) -> tuple[str, str]:
        """xi x in the pre stage (an operand): signed sums of inputs, offset by multiples of p."""
        x0, x1 = self.xi
        return (self.pre_sum([(x0, x[0]), (self.beta * x1, x[1])]),
                self.pre_sum([(x1, x[0]), (x0, x[1])]))

    def w2_xi(self, x: tuple[str, str]) -> tuple[str, str]:
        """xi x for xi = xi0 + xi1 u: (xi0 x0 + beta xi1 x1, xi1 x0 + xi0 x1)."""
        x0, x1 = self.xi
        return self.comb([(x0, x[0]), (self.beta * x1, x[1])]), self.comb([(x1, x[0]), (x0, x[1])])

    def fp6_mul(self, a: tuple, b: tuple) -> tuple:
        t0 = self.fp2_mul(a[0], b[0])
        t1 = self.fp2_mul(a[1], b[1])
        t2 = self.fp2_mul(a[2], b[2])
        x = self.fp2_mul(self.fp2_add(a[1], a[2]), self.fp2_add(b[1], b[2]))
        c0 = self.w2_comb([(1, self.w2_xi(self.w2_comb([(1, x), (-1, t1), (-1, t2)]))), (1, t0)])
        x = self.fp2_mul(self.fp2_add(a[0], a[1]), self.fp2_add(b[0], b[1]))
        c1 = self.w2_comb([(1, x), (-1, t0), (-1, t1), (1, self.w2_xi(t2))])
        x = self.fp2_mul(self.fp2_add(a[0], a[2]), self.fp2_add(b[0], b[2]))
        c2 = self.w2_comb([(1, x), (-1, t0), (-1, t2), (1, t1)])
        return c0, c1, c2

    def fp6_add(self, a: tuple, b: tuple) -> tuple:
        return tuple(self.fp2_add(x, y) for x, y in zip(a, b, strict=True))

    def fp12_sqr(self, a: tuple) -> tuple:
        """Complex squaring, as tower.h's limb squaring: t = a0 a1, c0 = (a0 + a1)(a0 + v a1) - t - v t,
        c1 = 2 t; v a1 = (xi a1[2], a1[0], a1[1]) enters an operand (signed sums in the pre stage)."""
        t = self.fp6_mul(a[0], a[1])
        s = self.fp6_add(a[0], a[1])
        u = self.fp6_add(a[0], (self.pre_xi(a[1][2]), a[1][0], a[1][1]))
        x = self.fp6_mul(s, u)
        vt = (self.w2_xi(t[2]), t[0], t[1])
        c0 = tuple(self.w2_comb([(1, x[j]), (-1, t[j]), (-1, vt[j])]) for j in range(3))
        c1 = tuple(self.w2_comb([(2, t[j])]) for j in range(3))
        return c0, c1

    def fp12_mul(self, a: tuple, b: tuple) -> tuple:
        t0 = self.fp6_mul(a[0], b[0])
        t1 = self.fp6_mul(a[1], b[1])
        x = self.fp6_mul(self.fp6_add(a[0], a[1]), self.fp6_add(b[0], b[1]))
        c1 = tuple(self.w2_comb([(1, x[j]), (-1, t0[j]), (-1, t1[j])]) for j in range(3))
        vt1 = (self.w2_xi(t1[2]), t1[0], t1[1])
        c0 = tuple(self.w2_comb([(1, t0[j]), (1, vt1[j])]) for j in range(3))
        return c0, c1


    # ---- Granger-Scott's squaring in the cyclotomic subgroup, as c/tower/_cyclotomic.j2 writes it
    def cyclotomic_pair(self, x: tuple[str, str], y: tuple[str, str]) -> tuple[tuple[str, str], tuple[str, str]]:
        """(x^2 xi + y^2, 2 x y) with 2 x y = (x + y)^2 - x^2 - y^2."""
        tx, ty = self.fp2_sqr(x), self.fp2_sqr(y)
        txy = self.fp2_sqr(self.fp2_add(x, y))
        return self.w2_comb([(1, self.w2_xi(tx)), (1, ty)]), self.w2_comb([(1, txy), (-1, tx), (-1, ty)])

    def cyclotomic_coefficient(self, t: tuple[str, str], a: tuple[str, str], minus: bool) -> tuple[str, str]:
        """3 t - 2 a (minus) or 3 t + 2 a."""
        return self.w2_comb([(3, t), (-2 if minus else 2, self.linear(a))])


def _fp12_shape(names: list[str]) -> tuple:
    """Twelve coefficients in fp12_t's memory order as ((fp2, fp2, fp2), (fp2, fp2, fp2))."""
    return tuple(tuple((names[6 * i + 2 * j], names[6 * i + 2 * j + 1]) for j in range(3)) for i in range(2))


def trace_fp12_mul(beta: int, xi: tuple[int, int], b_nonzero: frozenset[int] | None = None
                   ) -> tuple[_Trace, tuple[str, ...]]:
    """The traced Fp12 multiplication and the names of its 12 outputs, in fp12_t's order. With
    b_nonzero, b's other coefficients are zero (a line: the products they meet drop out)."""
    t = _Trace(beta, xi)
    a = [f"a{i}" for i in range(FP12_COEFFS)]
    b = [f"b{i}" if b_nonzero is None or i in b_nonzero else ZERO for i in range(FP12_COEFFS)]
    for name in a + b:
        t.width[name] = 1
    c0, c1 = t.fp12_mul(_fp12_shape(a), _fp12_shape(b))
    return t, tuple(x for fp6 in (c0, c1) for fp2 in fp6 for x in fp2)


def trace_fp12_sqr(beta: int, xi: tuple[int, int]) -> tuple[_Trace, tuple[tuple[int, str], ...]]:
    """The traced complex squaring, as (fp12_t coefficient index, output name) pairs."""
    t, (a,) = _new_trace(beta, xi, "a")
    c0, c1 = t.fp12_sqr(a)
    return t, tuple(enumerate(x for fp6 in (c0, c1) for fp2 in fp6 for x in fp2))


def _new_trace(beta: int, xi: tuple[int, int], inputs: str) -> tuple[_Trace, tuple]:
    t = _Trace(beta, xi)
    shapes = []
    for s in inputs:
        names = [f"{s}{i}" for i in range(FP12_COEFFS)]
        for name in names:
            t.width[name] = 1
        shapes.append(_fp12_shape(names))
    return t, tuple(shapes)


def trace_cyclotomic_sqr(beta: int, xi: tuple[int, int], compressed: bool) -> tuple[_Trace, tuple[tuple[int, str], ...]]:
    """Granger-Scott's squaring (all six Fp2 coefficients) or Karabina's compressed one (x1, x2, x3,
    x5 only), as (fp12_t coefficient index, output name) pairs. With x0 .. x5 = c0.c0, c0.c1, c0.c2,
    c1.c0, c1.c1, c1.c2: c0.c0 = 3 (x4^2 xi + x0^2) - 2 x0, c0.c1 = 3 (x2^2 xi + x3^2) - 2 x1,
    c0.c2 = 3 (x5^2 xi + x1^2) - 2 x2, c1.c0 = 6 x1 x5 xi + 2 x3, c1.c1 = 6 x0 x4 + 2 x4,
    c1.c2 = 6 x2 x3 + 2 x5."""
    t, ((c0, c1),) = _new_trace(beta, xi, "a")
    x = (c0[0], c0[1], c0[2], c1[0], c1[1], c1[2])
    out: dict[int, tuple[str, str]] = {}
    if not compressed:
        t0, t6 = t.cyclotomic_pair(x[4], x[0])
        out[0] = t.cyclotomic_coefficient(t0, x[0], True)
        out[4] = t.cyclotomic_coefficient(t6, x[4], False)
    t2, t7 = t.cyclotomic_pair(x[2], x[3])
    t4, t8 = t.cyclotomic_pair(x[5], x[1])
    t8 = t.w2_xi(t8)
    out[1] = t.cyclotomic_coefficient(t2, x[1], True)
    out[2] = t.cyclotomic_coefficient(t4, x[2], True)
    out[3] = t.cyclotomic_coefficient(t8, x[3], False)
    out[5] = t.cyclotomic_coefficient(t7, x[5], False)
    return t, tuple((2 * j + c, out[j][c]) for j in sorted(out) for c in (0, 1))


# The Miller loop's doubling step (c/pairing.h's pf_line_dbl) in rounds of products, whose outputs
# are slots that the later rounds read as their inputs a<slot>: the raw line (pf_line_t's y, x, c:
# H, 3J, E - B) at 0 .. 5, then B, E, 2XY and C. The last round's outputs 0 .. 5 are the doubled
# point (X3, Y3, Z3: pf_proj_t's order).
LINE_DBL_LINE = 6
LINE_DBL_H, LINE_DBL_J3, LINE_DBL_EB, LINE_DBL_B, LINE_DBL_E, LINE_DBL_XY2, LINE_DBL_C = 0, 2, 4, 6, 8, 10, 12
LINE_DBL_SLOTS = 14
LineDblRound = tuple[_Trace, tuple[tuple[int, str], ...]]


def _slots(values: dict[int, tuple[str, str]]) -> tuple[tuple[int, str], ...]:
    """Fp2 values by their first slot, as (slot, name) pairs of their coefficients."""
    return tuple((slot + c, values[slot][c]) for slot in sorted(values) for c in (0, 1))


def _slot(slot: int) -> tuple[str, str]:
    """The input names of the Fp2 value at slot (its two coefficients)."""
    return f"a{slot}", f"a{slot + 1}"


def _slot_trace(beta: int, xi: tuple[int, int], slots: range, constant: bool) -> _Trace:
    t = _Trace(beta, xi)
    for i in slots:
        t.width[f"a{i}"] = 1
    if constant:  # 3 b' as an input: b0, b1
        t.width["b0"] = t.width["b1"] = 1
    return t


def trace_line_dbl(beta: int, xi: tuple[int, int], b3: tuple[int, int] | None) -> tuple[LineDblRound, ...]:
    """The doubling step on the twist over Fp2 (homogeneous projective, a = 0, every coordinate
    scaled by 4 as pf_line_dbl writes it) as traced rounds: (trace, (slot, output name) pairs) each.

    Round 1, on T = (X, Y, Z) (inputs a0 .. a5): B = Y^2, C = Z^2, (Y + Z)^2, J = X^2 (complex
    squarings, two products each) and XY (three), eleven products; H = (Y + Z)^2 - B - C. With b3,
    3 b' = b3[0] + b3[1] u in small integers, E = 3 b' C is a combination of C's products there.
    Otherwise a middle round multiplies the reduced C by 3 b' (inputs b0, b1: three products) and
    makes E - B with B placed. The last round, on B, E, H and 2XY: X3 = 2XY (B - 3E),
    Y3 = (B + 3E)^2 - 12 E^2, Z3 = 4 B H, ten products; B - 3E and B + 3E are signed sums of the
    pre stage."""
    t = _slot_trace(beta, xi, range(6), False)
    x, y, z = ("a0", "a1"), ("a2", "a3"), ("a4", "a5")
    b, c = t.fp2_sqr(y), t.fp2_sqr(z)
    s = t.fp2_sqr(t.fp2_add(y, z))
    j = t.fp2_sqr(x)
    xy = t.fp2_mul(x, y)
    out = {LINE_DBL_H: t.w2_comb([(1, s), (-1, b), (-1, c)]), LINE_DBL_J3: t.w2_comb([(3, j)]),
           LINE_DBL_B: b, LINE_DBL_XY2: t.w2_comb([(2, xy)])}
    if b3 is not None:
        k0, k1 = b3
        e = t.comb([(k0, c[0]), (beta * k1, c[1])]), t.comb([(k1, c[0]), (k0, c[1])])
        out |= {LINE_DBL_E: e, LINE_DBL_EB: t.w2_comb([(1, e), (-1, b)])}
    else:
        out[LINE_DBL_C] = c
    rounds: list[LineDblRound] = [(t, _slots(out))]
    if b3 is None:
        t = _slot_trace(beta, xi, range(LINE_DBL_SLOTS), True)
        e = t.fp2_mul(_slot(LINE_DBL_C), ("b0", "b1"))
        b = t.linear(_slot(LINE_DBL_B))
        rounds.append((t, _slots({LINE_DBL_EB: t.w2_comb([(1, e), (-1, b)]), LINE_DBL_E: e})))

    t = _slot_trace(beta, xi, range(LINE_DBL_SLOTS), False)
    b, e, xy2, h = _slot(LINE_DBL_B), _slot(LINE_DBL_E), _slot(LINE_DBL_XY2), _slot(LINE_DBL_H)
    minus = t.pre_sum([(1, b[0]), (-3, e[0])]), t.pre_sum([(1, b[1]), (-3, e[1])])
    plus = t.pre_sum([(1, b[0]), (3, e[0])]), t.pre_sum([(1, b[1]), (3, e[1])])
    x3 = t.fp2_mul(xy2, minus)
    y3 = t.w2_comb([(1, t.fp2_sqr(plus)), (-12, t.fp2_sqr(e))])
    z3 = t.w2_comb([(4, t.fp2_mul(b, h))])
    rounds.append((t, _slots({0: x3, 2: y3, 4: z3})))
    return tuple(rounds)


@dataclass(frozen=True)
class IfmaKernelPlan:
    """One operation's plan: its inputs ("a", or "a" and "b"), the pre stage's sums, the products'
    operands, the post stage's combinations and the outputs (fp12_t coefficient index, name), with
    the bounds proven for them."""

    inputs: str
    pre: tuple[PreSum, ...]
    operands: tuple[tuple[str, str], ...]
    placed: tuple[str, ...]        # X<k>: input placed[k] times the reduction's divisor (no product)
    post: tuple[tuple[str, tuple[PostTerm, ...]], ...]
    outputs: tuple[tuple[int, str], ...]
    offset: int                    # multiples of p added in the reduction (makes it non-negative)
    operand_bits: int              # the largest pre-stage sum is below 2^operand_bits
    column_bits: int               # every post-stage column (with the reduction's terms) below 2^column_bits
    reduced_bound: int             # the reduced outputs are below this (< R52)
    # A kernel that reduces by R64 (else these are empty: it reduces by R52, as a chain does, or
    # its outputs divided by R64 would not fit): offset p 2^tail in 52-bit limbs (n, and one more
    # where the reduction has a tail step), added at the column of the reduction's last step ...
    redc_offset: tuple[int, ...] = ()
    # ... and the quotient estimate after it (_quotient_estimate): (u, mu)
    quotient: tuple[int, int] = (0, 0)

    @property
    def by_r64(self) -> bool:
        """The kernel reduces by R64 (then a quotient estimate and two subtractions)."""
        return bool(self.redc_offset)

    @property
    def batches(self) -> int:
        """Batches of eight products."""
        return -(-len(self.operands) // 8)


@dataclass(frozen=True)
class IfmaTowerPlan:
    """The kernels of one curve's GT field and the constants they share."""

    limbs: int                     # n: 52-bit limbs per element
    words: int                     # L: 64-bit words of the library's form
    modulus: tuple[int, ...]       # p in n limbs of 52 bits
    n0: int                        # -p^-1 mod 2^52
    to_r64: tuple[int, ...]        # C = R52^2 / R64 mod p, in n limbs (a chain's way in)
    one: tuple[int, ...]           # R64 mod p (the library's 1), in n limbs
    p_times: tuple[tuple[int, ...], ...]  # p and 2p in n limbs, for the subtractions after a reduction by R64
    quotient_shift: int            # t = bits(p) - 1: the quotient estimate reads y / 2^t
    redc_steps: int                # a reduction by R64: Montgomery steps of 52 bits ...
    redc_tail_bits: int            # ... and one of these bits (0: none): 64 L = 52 steps + tail
    mul: IfmaKernelPlan
    sqr: IfmaKernelPlan | None               # the complex squaring (36 products)
    mul_by_line: IfmaKernelPlan | None       # f times a line: b non-zero in line_slots only
    line_slots: tuple[int, ...]              # the fp12_t coefficients a line occupies
    # f times the product of two lines (the Miller loop's line-by-line products): b non-zero in
    # line_product_slots only, the W-powers that sums of two lines' powers reach
    mul_by_line_product: IfmaKernelPlan | None
    line_product_slots: tuple[int, ...]
    cyclotomic_sqr: IfmaKernelPlan | None
    cyclotomic_sqr_compressed: IfmaKernelPlan | None
    # the compressed squaring repeated in the kernel's form (x R52, below CHAIN_INPUT_BOUND p between
    # squarings), for the runs of squarings of an exponentiation by x
    compressed_chain: IfmaKernelPlan | None
    # the Miller loop's doubling step in rounds (trace_line_dbl): two where E = 3 b' C is a small
    # combination of products, else three, the middle one multiplying by 3 b' (line_dbl_b3: its
    # coefficients x R64 mod p, in n limbs of 52 bits; empty with two rounds)
    line_dbl: tuple[IfmaKernelPlan, ...] | None
    line_dbl_b3: tuple[tuple[int, ...], ...]
    chain_input_bound: int = CHAIN_INPUT_BOUND
    line_dbl_slots: int = LINE_DBL_SLOTS


def _live(t: _Trace, outputs: list[str]) -> tuple[tuple[PreSum, ...],
                                                  tuple[tuple[str, tuple[PostTerm, ...]], ...]]:
    """The pre and post stages without the values no output needs (a sum whose product met a zero
    coefficient of a line, a squaring's combination that only the full squaring reads)."""
    needed = set(outputs)
    post = []
    for dest, terms in reversed(t.post):
        if dest in needed:
            post.append((dest, terms))
            needed |= {name for _, name in terms}
    needed |= {name for pair in t.operands for name in pair}
    pre = []
    for dest, terms, offset in reversed(t.pre):
        if dest in needed:
            pre.append((dest, terms, offset))
            needed |= {x for _, x in terms}
    return tuple(reversed(pre)), tuple(reversed(post))


def _kernel(p: int, t: _Trace, inputs: str, outputs: tuple[tuple[int, str], ...], n: int, r64: int,
            input_bound: int = 1) -> IfmaKernelPlan | None:
    """The plan with n limbs of 52 bits (R52 = 2^(52 n)) where its bounds hold, else None.

    Inputs are below input_bound p (canonical: 1). A product of sums of w_a and w_b inputs is below
    w_a w_b (input_bound p)^2; each of its 2n columns gathers at most 2n terms below 2^52 (the low
    and high halves of the limb products). A placed input x is x times the reduction's divisor D,
    below input_bound p D, its limbs shifted into the columns (each column below 2^53). An output's
    columns are bounded by its coefficients over the products and placed inputs (the lanes wrap
    mod 2^64 on the way, harmlessly: only the result must fit).

    A kernel on the library's elements reduces by D = R64, which needs R64 <= R52 and the reduced
    values within the limbs the reduction leaves. With input_bound > 1 (a chain of squarings) it
    reduces by D = R52, and its pre stage's offsets count multiples of input_bound p. Either way a
    quotient estimate then takes the values below 3p: the next inputs of a chain (input_bound is
    3), or two subtractions away from canonical."""
    r52 = 1 << (LIMB_BITS * n)
    divisor = r64 if input_bound == 1 else r52
    bound = input_bound * p
    names = [o for _, o in outputs]
    base_bound = {f"P{k}": t.width[x] * t.width[y] * bound * bound for k, (x, y) in enumerate(t.operands)}
    base_bound |= {f"X{k}": t.width[x] * bound * divisor for k, x in enumerate(t.placed)}
    max_operand = max(max(t.width[x], t.width[y]) * bound for x, y in t.operands)
    column_product = 2 * n * ((1 << LIMB_BITS) - 1)  # also bounds a placed input's column (2^53)
    # a product's columns are non-negative: an output's lie between -(its negative coefficients'
    # sum) and +(its positive coefficients' sum) times column_product; the reduction then adds at
    # most n terms m_i p_j (low and high halves: it has at most n steps, dividing by at most R52)
    # per column, a limb of its offset (below 2^52) and the carries
    max_column = max(max(sum(v for v in t.lin[o].values() if v > 0) * column_product + column_product
                         + (1 << LIMB_BITS) + (1 << 20),
                         sum(-v for v in t.lin[o].values() if v < 0) * column_product + (1 << 20)) for o in names)
    neg = max(sum(-v * base_bound[k] for k, v in t.lin[o].items() if v < 0) for o in names)
    pos = max(sum(v * base_bound[k] for k, v in t.lin[o].items() if v > 0) for o in names)
    if not (max_operand < r52 and max_column < COLUMN_LIMIT and divisor <= r52):
        return None
    # the reduction of T in (-neg, pos) lies in (T / divisor, T / divisor + p): offset p makes it
    # positive
    offset = max(1, -(-neg // (divisor * p)))
    reduced = offset * p + pos // divisor + p + 1
    quotient = _quotient_estimate(p, reduced)
    if quotient is None:
        return None
    redc_offset: tuple[int, ...] = ()
    if divisor == r64:
        # the columns hold values below R52^2: divided by R64, below R52^2 / R64, in the 2n - steps
        # limbs from the reduction's last step up (n + 1 for BN254 and the BLS12 curves)
        tail = (r64.bit_length() - 1) % LIMB_BITS
        if reduced > r52 * r52 // r64:
            return None
        redc_offset = limbs52(offset * p << tail, n + (1 if tail else 0))
    elif (QUOTIENT_SLACK + 1) * p > bound or reduced >= 1 << (LIMB_BITS * (n - 1) + 63):
        # a chain's outputs, below 3p after the estimate, must be its next inputs; before it, they
        # lie in n limbs whose top one (not carried) is a signed 64-bit lane
        return None
    pre, post = _live(t, names)
    pre = tuple((dest, terms, k * input_bound) for dest, terms, k in pre)
    return IfmaKernelPlan(inputs=inputs, pre=pre, operands=tuple(t.operands), placed=tuple(t.placed), post=post,
                          outputs=outputs, offset=offset, operand_bits=max_operand.bit_length(),
                          column_bits=max_column.bit_length(), reduced_bound=reduced,
                          redc_offset=redc_offset, quotient=quotient)


@cache  # the templates of one package ask several times; the checks take about 0.5 s
def derive_ifma_tower(p: int, words: int, k: int, beta: int | None, xi: tuple[int, ...],
                      curve: str, line_slots: tuple[int, ...] = (),
                      twist_b3: tuple[int, int] | None = None) -> IfmaTowerPlan | None:
    """The kernels' plans for a k = 12 tower over Fp, or None where the multiplication's bounds hold
    for no limb count up to 8 (see the module's docstring: the limb tower then runs on every CPU).
    line_slots: the Fp2 coefficients (0 .. 5 in fp12_t's order) where the Miller loop's lines are
    non-zero; none: no line kernel. twist_b3: 3 b' of the twist over Fp2 (its two coefficients mod
    p); none: no doubling-step kernel. Another kernel whose bounds do not hold at the
    multiplication's limb count is left out (None)."""
    if k != 12 or beta is None or len(xi) != 2 or words > MAX_WORDS:
        return None
    xi2 = (int(xi[0]), int(xi[1]))
    trace, outputs = trace_fp12_mul(beta, xi2)
    mul_outputs = tuple(enumerate(outputs))
    r64 = 1 << (64 * words)
    n_min = -(-p.bit_length() // LIMB_BITS)
    for n in range(n_min, MAX_LIMBS + 1):
        mul = _kernel(p, trace, "ab", mul_outputs, n, r64)
        if mul is not None:
            break
    else:
        return None
    r52 = 1 << (LIMB_BITS * n)
    n0 = int(-gmpy2.invert(p, 1 << LIMB_BITS)) % (1 << LIMB_BITS)
    to_r64 = r52 * r52 * int(gmpy2.invert(r64, p)) % p
    require(n0 * p % (1 << LIMB_BITS) == (1 << LIMB_BITS) - 1, curve, "IFMA tower: -p^-1 mod 2^52")
    sqr_trace, sqr_outputs = trace_fp12_sqr(beta, xi2)
    sqr = _kernel(p, sqr_trace, "a", sqr_outputs, n, r64)
    squarings: list[IfmaKernelPlan | None] = []
    for compressed in (False, True):
        sq_trace, sq_outputs = trace_cyclotomic_sqr(beta, xi2, compressed)
        squarings.append(_kernel(p, sq_trace, "a", sq_outputs, n, r64))
    # the compressed squaring once more, with the bounds of a chain (sq_trace is the compressed one)
    chain = _kernel(p, sq_trace, "a", sq_outputs, n, r64, CHAIN_INPUT_BOUND) if squarings[1] else None
    line = line_product = None
    product_slots = _line_product_slots(line_slots)
    if line_slots:
        nonzero = frozenset(2 * j + c for j in line_slots for c in (0, 1))
        line_trace, line_outputs = trace_fp12_mul(beta, xi2, nonzero)
        line = _kernel(p, line_trace, "ab", tuple(enumerate(line_outputs)), n, r64)
        nonzero = frozenset(2 * j + c for j in product_slots for c in (0, 1))
        product_trace, product_outputs = trace_fp12_mul(beta, xi2, nonzero)
        line_product = _kernel(p, product_trace, "ab", tuple(enumerate(product_outputs)), n, r64)
    line_dbl: tuple[IfmaKernelPlan, ...] | None = None
    line_dbl_b3: tuple[tuple[int, ...], ...] = ()
    if twist_b3 is not None:
        # E = 3 b' C as a combination of C's products where the bounds allow its coefficients, else
        # a round of products by 3 b'
        def centred(c: int) -> int:
            return c if c <= p // 2 else c - p

        small: tuple[int, int] | None = (centred(twist_b3[0]), centred(twist_b3[1]))
        for b3 in (small, None):
            rounds = [_kernel(p, rt, "ab" if "b0" in rt.width else "a", ro, n, r64)
                      for rt, ro in trace_line_dbl(beta, xi2, b3)]
            if None not in rounds:
                line_dbl = tuple(r for r in rounds if r is not None)
                line_dbl_b3 = () if b3 else tuple(limbs52(c * r64 % p, n) for c in twist_b3)
                break
    steps, tail = divmod(64 * words, LIMB_BITS)
    tower = IfmaTowerPlan(limbs=n, words=words, modulus=limbs52(p, n), n0=n0, to_r64=limbs52(to_r64, n),
                          one=limbs52(r64 % p, n), p_times=tuple(limbs52(p << j, n) for j in range(QUOTIENT_SLACK)),
                          quotient_shift=p.bit_length() - 1,
                          redc_steps=steps, redc_tail_bits=tail, mul=mul, sqr=sqr,
                          mul_by_line=line, line_slots=tuple(line_slots),
                          mul_by_line_product=line_product, line_product_slots=product_slots,
                          cyclotomic_sqr=squarings[0], cyclotomic_sqr_compressed=squarings[1],
                          compressed_chain=chain, line_dbl=line_dbl, line_dbl_b3=line_dbl_b3)
    for plan in (tower.mul, sqr, line, line_product, *squarings, chain, *(line_dbl or ())):
        if plan is None:
            continue
        # reduced (by R64, or by R52 in a chain) below the bound: the estimate leaves y - q' p in
        # [0, 3p), where the subtractions of 2p and p make it canonical, or the next squaring starts
        u, mu = plan.quotient
        t = tower.quotient_shift
        require(plan.by_r64 == (plan is not chain) and mu == (1 << (t + u)) // p
                and (plan.reduced_bound - 1) >> t < 1 << u and u <= 25 and (QUOTIENT_SLACK + 1) * p < r52, curve,
                "IFMA tower: the quotient estimate after the reduction leaves y - q p below 3p")
    # a chain's change of form (x R64 times C on the way in, x R52 below its bound times R64 mod p on
    # the way out), reduced by R52, lands below 2p, where one subtraction makes it canonical
    require(chain is None or CHAIN_INPUT_BOUND * p * max(to_r64, r64 % p) < r52 * p, curve,
            "IFMA tower: a chain's change of form lands below 2p")
    _check_plans(p, beta, xi2, tower, curve)
    if line_dbl is not None and twist_b3 is not None:
        _check_line_dbl(p, beta, twist_b3, line_dbl, curve)
    return tower


def _quotient_estimate(p: int, bound: int) -> tuple[int, int] | None:
    """(u, mu) for the estimate q' = floor(floor(y / 2^t) mu / 2^u) of floor(y / p), 0 <= y < bound,
    with t = bits(p) - 1 and mu = floor(2^(t + u) / p); None where floor(y / 2^t) mu would not fit
    the 52 bits of one IFMA product (u > 25).

    With y_hi = floor(y / 2^t) < 2^u: q' <= y_hi 2^t / p <= y / p, so y - q' p >= 0; and
    y / p - q' < (y_hi + 1) 2^t / p - y_hi (2^(t + u) / p - 1) / 2^u + 1 = 2^t / p + y_hi / 2^u + 1
    < 3 (2^t < p), so y - q' p < (QUOTIENT_SLACK + 1) p: two conditional subtractions (2p, p) end
    below p."""
    t = p.bit_length() - 1
    u = ((bound - 1) >> t).bit_length()
    if u > 25:
        return None
    return u, (1 << (t + u)) // p


def _line_product_slots(line_slots: tuple[int, ...]) -> tuple[int, ...]:
    """The fp12_t Fp2 slots where a product of two lines can be non-zero. Slot 3 (j mod 2) + j // 2
    holds the coefficient of W^j (c(j mod 2).c(j div 2)); powers add, and W^6 = xi folds back."""
    def power(slot: int) -> int:
        return 2 * (slot % 3) + slot // 3
    powers = {(power(a) + power(b)) % 6 for a in line_slots for b in line_slots}
    return tuple(sorted(3 * (j % 2) + j // 2 for j in powers))


def _evaluate(plan: IfmaKernelPlan, inputs: dict[str, list[int]], scale: int, p: int) -> dict[int, int]:
    """The plan on integers: {fp12_t coefficient index: value} (not reduced). A placed input is
    multiplied by scale: the reduction's divisor mod p where the inputs carry it, else 1."""
    value: dict[str, int] = {}
    for s, coeffs in inputs.items():
        value |= {f"{s}{i}": c for i, c in enumerate(coeffs)}
    for dest, terms, offset in plan.pre:
        value[dest] = sum(c * value[x] for c, x in terms) + offset * p
    for kk, (x, y) in enumerate(plan.operands):
        value[f"P{kk}"] = value[x] * value[y]
    for kk, x in enumerate(plan.placed):
        value[f"X{kk}"] = value[x] * scale
    for dest, terms in plan.post:
        value[dest] = sum(c * value[src] for c, src in terms)
    return {index: value[name] for index, name in plan.outputs}


def _check_plans(p: int, beta: int, xi: tuple[int, int], tower: IfmaTowerPlan, curve: str) -> None:
    """Each traced plan computes its operation, evaluated on integers (placed inputs at scale 1): the
    multiplication agrees with a schoolbook product in Fp2[W]/(W^6 - xi) on three pairs, the
    squarings with the schoolbook square of an element of the cyclotomic subgroup."""
    f = _Fp12(p, beta, xi)
    for seed in (1, 2, 3):
        a = [(seed * 0x9E3779B97F4A7C15 * (i + 1) ** 7) % p for i in range(FP12_COEFFS)]
        b = [(seed * 0xC2B2AE3D27D4EB4F * (i + 3) ** 5) % p for i in range(FP12_COEFFS)]
        got = _evaluate(tower.mul, {"a": a, "b": b}, 1, p)
        require([got[i] % p for i in range(FP12_COEFFS)] == f.mul(a, b), curve,
                "IFMA tower: the traced plan equals the schoolbook Fp12 product")
    if tower.sqr is not None:
        got = _evaluate(tower.sqr, {"a": a}, 1, p)
        require([got[i] % p for i in range(FP12_COEFFS)] == f.mul(a, a), curve,
                "IFMA tower: the traced squaring equals the schoolbook Fp12 square")
    if tower.mul_by_line is not None:
        slots = {2 * j + c for j in tower.line_slots for c in (0, 1)}
        a = [(0x2545F4914F6CDD1D * (i + 2) ** 5) % p for i in range(FP12_COEFFS)]
        b = [(0x27BB2EE687B0B0FD * (i + 7) ** 3) % p if i in slots else 0 for i in range(FP12_COEFFS)]
        got = _evaluate(tower.mul_by_line, {"a": a, "b": b}, 1, p)
        require([got[i] % p for i in range(FP12_COEFFS)] == f.mul(a, b), curve,
                "IFMA tower: the traced line product equals the schoolbook Fp12 product")
    if tower.mul_by_line_product is not None:
        slots = {2 * j + c for j in tower.line_product_slots for c in (0, 1)}
        a = [(0x2545F4914F6CDD1D * (i + 3) ** 5) % p for i in range(FP12_COEFFS)]
        b = [(0x4F1BBCDCBFA53E0B * (i + 5) ** 3) % p if i in slots else 0 for i in range(FP12_COEFFS)]
        got = _evaluate(tower.mul_by_line_product, {"a": a, "b": b}, 1, p)
        require([got[i] % p for i in range(FP12_COEFFS)] == f.mul(a, b), curve,
                "IFMA tower: the traced product by two lines equals the schoolbook Fp12 product")
    g = f.cyclotomic([(0x5851F42D4C957F2D * (i + 5) ** 3) % p for i in range(FP12_COEFFS)])
    square = f.mul(g, g)
    for plan in (tower.cyclotomic_sqr, tower.cyclotomic_sqr_compressed):
        if plan is None:
            continue
        got = _evaluate(plan, {"a": g}, 1, p)
        require(all(v % p == square[i] for i, v in got.items()), curve,
                "IFMA tower: the traced cyclotomic squaring equals the schoolbook square")
    if tower.compressed_chain is not None:
        # in the kernel's form: inputs x R52, placed ones x R52^2; the outputs carry R52^2 before the reduction
        r52 = 1 << (LIMB_BITS * tower.limbs)
        got = _evaluate(tower.compressed_chain, {"a": [c * r52 % p for c in g]}, r52 % p, p)
        require(all(v % p == square[i] * r52 * r52 % p for i, v in got.items()), curve,
                "IFMA tower: the chained compressed squaring equals the schoolbook square")


def _check_line_dbl(p: int, beta: int, b3: tuple[int, int], rounds: tuple[IfmaKernelPlan, ...],
                    curve: str) -> None:
    """The rounds, evaluated on integers (each on the slots that the rounds before it left, reduced
    mod p; 3 b' as b0, b1), give pf_line_dbl's raw line and doubled point, computed here from its
    formulas in Fp2."""
    m2 = _Fp12(p, beta, (0, 0))._m2  # the schoolbook product in Fp2 (xi plays no part)

    def lin(*terms: tuple[int, tuple[int, int]]) -> tuple[int, int]:
        return sum(k * v[0] for k, v in terms) % p, sum(k * v[1] for k, v in terms) % p

    for seed in (1, 2, 3):
        coords = [(seed * 0x9E3779B97F4A7C15 * (i + 4) ** 9) % p for i in range(6)]
        x, y, z = (coords[0], coords[1]), (coords[2], coords[3]), (coords[4], coords[5])
        b, c = m2(y, y), m2(z, z)
        e = m2(b3, c)
        f = lin((3, e))
        yz = lin((1, y), (1, z))
        h = lin((1, m2(yz, yz)), (-1, b), (-1, c))
        j = m2(x, x)
        want_line = [*h, *lin((3, j)), *lin((1, e), (-1, b))]
        xy2 = lin((2, m2(x, y)))
        bf_minus, bf_plus = lin((1, b), (-1, f)), lin((1, b), (1, f))
        want_point = [*m2(xy2, bf_minus), *lin((1, m2(bf_plus, bf_plus)), (-12, m2(e, e))), *lin((4, m2(b, h)))]
        slots = coords + [0] * (LINE_DBL_SLOTS - len(coords))
        for plan in rounds[:-1]:
            for slot, v in _evaluate(plan, {"a": slots, "b": list(b3)}, 1, p).items():
                slots[slot] = v % p
        point = _evaluate(rounds[-1], {"a": slots}, 1, p)
        require(slots[:LINE_DBL_LINE] == want_line
                and [point[i] % p for i in range(LINE_DBL_LINE)] == want_point, curve,
                "IFMA tower: the traced doubling step equals pf_line_dbl's line and point")


class _Fp12:
    """Schoolbook Fp12 = Fp2[W]/(W^6 - xi) on fp12_t's coefficient order (coefficient 6 i + 2 j + c
    is the u^c part of the coefficient of w^i v^j = W^(i + 2 j)), for the plans' checks."""

    def __init__(self, p: int, beta: int, xi: tuple[int, int]) -> None:
        self.p, self.beta, self.xi = p, beta, xi

    def _m2(self, x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
        p, beta = self.p, self.beta
        return (x[0] * y[0] + beta * x[1] * y[1]) % p, (x[0] * y[1] + x[1] * y[0]) % p

    def _powers(self, x: list[int]) -> list[tuple[int, int]]:
        out = [(0, 0)] * 6
        for i in range(2):
            for j in range(3):
                out[i + 2 * j] = (x[6 * i + 2 * j], x[6 * i + 2 * j + 1])
        return out

    def _flat(self, w: list[tuple[int, int]]) -> list[int]:
        out = [0] * FP12_COEFFS
        for i in range(2):
            for j in range(3):
                out[6 * i + 2 * j], out[6 * i + 2 * j + 1] = w[i + 2 * j]
        return out

    def mul(self, a: list[int], b: list[int]) -> list[int]:
        p = self.p
        pa, pb = self._powers(a), self._powers(b)
        prod = [(0, 0)] * 11
        for i in range(6):
            for j in range(6):
                m = self._m2(pa[i], pb[j])
                prod[i + j] = ((prod[i + j][0] + m[0]) % p, (prod[i + j][1] + m[1]) % p)
        for e in range(10, 5, -1):  # W^e = xi W^(e - 6)
            m = self._m2(prod[e], self.xi)
            prod[e - 6] = ((prod[e - 6][0] + m[0]) % p, (prod[e - 6][1] + m[1]) % p)
        return self._flat(prod[:6])

    def pow(self, a: list[int], e: int) -> list[int]:
        acc = [1] + [0] * (FP12_COEFFS - 1)
        for bit in bin(e)[2:]:
            acc = self.mul(acc, acc)
            if bit == "1":
                acc = self.mul(acc, a)
        return acc

    def cyclotomic(self, a: list[int]) -> list[int]:
        """An element of the cyclotomic subgroup, from a != 0: g = a^(2 (p^6 - 1)), computed as
        conj(a) a^(p^6 - 2) (a^(p^6) is the conjugate, w -> -w), then g^(p^2 + 1)."""
        p = self.p
        conj = [c if (k // 6) == 0 else (-c) % p for k, c in enumerate(a)]
        g = self.mul(conj, self.pow(a, p**6 - 2))
        return self.mul(self.pow(g, p * p), g)
