"""Ready C for the tower templates (templates/c/tower.h.j2 and its parts under templates/c/tower/);
generator/emit/pairing.py builds pairing.h's on the same functions.

The templates only lay out code: every C statement whose text is computed from the curve (the
multiplications by small constants, the factors of xi and nu, the subtractions of fpw_mul_small_mod,
the Karatsuba and line schedules of the lazy tower, the Karabina powers) is written here, from the
frozen CurveModel, as one string of statements (each line indented for a function body, lines
joined by newlines, no newline at either end) or as a small record of ready values.
``tower_emit(m)`` gathers what one curve's tower needs; the templates reach it through the
Jinja global of the same name (generator/emit/render.py).

Layer: emit. Imports protocols, derive, the curve files and the leaves; never the drivers, cli or
generator/reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..derive.ifma_tower import IfmaKernelPlan, IfmaTowerPlan, PostTerm, derive_ifma_tower
from ..derive.lazy_reduction import LazyReductionModel, wide_small_steps
from ..derive.model import CurveModel
from . import adx_window
from .literals import c_limbs

INDENT = "    "


def _block(lines: list[str]) -> str:
    return "\n".join(lines)


def indent_rest(text: str, width: int = 4) -> str:
    """Jinja's ``indent(width)``: every line but the first gains ``width`` spaces (blank lines
    stay blank). The nested products of fp_lincomb keep the layout the templates always had."""
    lines = (text + "\n").splitlines()
    first, rest = lines[0], lines[1:]
    pad = " " * width
    return first + ("\n" + "\n".join(pad + line if line else line for line in rest) if rest else "")


def signed(value: int, p: int) -> int:
    """A residue modulo p as the integer of least magnitude (the upper half taken negative)."""
    return value if value <= p // 2 else value - p


def wide_steps(k: int) -> int:
    """The conditional subtractions of 2^j p that fpw_mul_small_mod makes for the factor k (a
    negative k takes k (p R - a)): generator/derive/lazy_reduction.wide_small_steps, which the
    derivation checks for every factor it allows."""
    return wide_small_steps(abs(k), k < 0)


# ---------------------------------------------------------------------------------------------
# Products by small public integers, in Fp (fp_t) and in double width (fpw_t)
# ---------------------------------------------------------------------------------------------

def _doubling_chain(t: str, dbl: str, add: str, out: str, a: str, n: int) -> list[str]:
    """acc = a, then for each further bit of n: a doubling, and an addition of a where it is 1."""
    lines = [INDENT + "{", f"{INDENT * 2}{t} acc_ = *{a};"]
    for bit in f"{n:b}"[1:]:
        lines.append(f"{INDENT * 2}{dbl}")
        if bit == "1":
            lines.append(f"{INDENT * 2}{add}(&acc_, &acc_, {a});")
    lines += [f"{INDENT * 2}*{out} = acc_;", INDENT + "}"]
    return lines


def fp_times(out: str, a: str, k: int, short_double: bool = True) -> str:
    """out = k a in Fp for a small public integer k: a copy, a doubling (fp_dbl, where
    ``short_double``; pairing.h writes 2 a as a chain of one doubling) or doublings and additions,
    then a negation for k < 0. out and a are C pointers (``&x``, ``out``)."""
    n = abs(k)
    if n == 0:
        lines = [f"{INDENT}fp_set_zero({out});"]
    elif n == 1:
        lines = [f"{INDENT}*{out} = *{a};"]
    elif n == 2 and short_double:
        lines = [f"{INDENT}fp_dbl({out}, {a});"]
    else:
        lines = _doubling_chain("fp_t", "fp_dbl(&acc_, &acc_);", "fp_add", out, a, n)
    if k < 0:
        lines.append(f"{INDENT}fp_neg({out}, {out});")
    return _block(lines)


def _lincomb(ops: tuple[str, str, str], times, out: str, a: str, ka: int, b: str, kb: int, fused=None) -> str:
    """out = ka a + kb b from the products ``times(out, x, k)``; ops are the element type and
    its addition and subtraction. ``fused(out, x, kx, y, ky)`` (the double-width level) gives the
    one-pass statement of k x +- y where it has one, else None."""
    t, add, sub = ops
    if ka == 1 and kb == 1:
        return f"{INDENT}{add}({out}, {a}, {b});"
    if ka == 1 and kb == -1:
        return f"{INDENT}{sub}({out}, {a}, {b});"
    if ka == -1 and kb == 1:
        return f"{INDENT}{sub}({out}, {b}, {a});"
    if kb == 0:
        return times(out, a, ka)
    if ka == 0:
        return times(out, b, kb)
    if fused is not None:
        if kb in (1, -1) and (one_pass := fused(out, a, ka, b, kb)):
            return one_pass
        if ka in (1, -1) and (one_pass := fused(out, b, kb, a, ka)):
            return one_pass
    if kb in (1, -1):
        return times(out, a, ka) + f"\n{INDENT}{add if kb == 1 else sub}({out}, {out}, {b});"
    if ka in (1, -1):
        return times(out, b, kb) + f"\n{INDENT}{add if ka == 1 else sub}({out}, {out}, {a});"
    return _block([times(out, a, ka), INDENT + "{", f"{INDENT * 2}{t} tb_;", indent_rest(times("&tb_", b, kb)),
                   f"{INDENT * 2}{add}({out}, {out}, &tb_);", INDENT + "}"])


def fp_lincomb(out: str, a: str, ka: int, b: str, kb: int, short_double: bool = True) -> str:
    """out = ka a + kb b in Fp for small public integers (out must not alias a or b)."""
    return _lincomb(("fp_t", "fp_add", "fp_sub"), lambda o, x, k: fp_times(o, x, k, short_double), out, a, ka, b, kb)


def wide_times(lazy: LazyReductionModel, out: str, a: str, k: int) -> str:
    """out = k a on double-width values modulo p R (a small public k): for k = +-2 one modular sum,
    else where |k| is one of the derivation's small factors (lazy.wide_small) one pass of products
    and the high half's subtractions of 2^j p (fpw_mul_small_add_mod with no addend where the
    one-pass quotient applies, else fpw_mul_small_mod), else doublings and additions. out may
    alias a."""
    n = abs(k)
    neg = 1 if k < 0 else 0
    if n == 0:
        lines = [f"{INDENT}memset({out}, 0, sizeof *{out});"]
    elif n == 1:
        lines = [f"{INDENT}*{out} = *{a};"]
    elif n == 2:
        lines = [f"{INDENT}fpw_add({out}, {a}, {a});"]
    elif n in lazy.wide_small and lazy.wide_quotient:
        lines = [f"{INDENT}fpw_mul_small_add_mod({out}, {a}, {n}, {neg}, {wide_steps(k)}, NULL, 0);"]
    elif n in lazy.wide_small:
        lines = [f"{INDENT}fpw_mul_small_mod({out}, {a}, {n}, {neg}, {wide_steps(k)});"]
    else:
        lines = _doubling_chain("fpw_t", "fpw_add(&acc_, &acc_, &acc_);", "fpw_add", out, a, n)
    if k < 0 and n not in lazy.wide_small:
        lines.append(f"{INDENT}fpw_neg({out}, {out});")
    return _block(lines)


def wide_lincomb(lazy: LazyReductionModel, out: str, a: str, ka: int, b: str, kb: int) -> str:
    """out = ka a + kb b on double-width values (out must not alias a or b); k x +- y in one pass
    (fpw_mul_small_add_mod) where |k| is a small factor and the one-pass quotient applies."""

    def fused(o: str, x: str, kx: int, y: str, ky: int) -> str | None:
        if not (lazy.wide_quotient and abs(kx) in lazy.wide_small):
            return None
        return (f"{INDENT}fpw_mul_small_add_mod({o}, {x}, {abs(kx)}, {1 if kx < 0 else 0}, {wide_steps(kx)}, "
                f"{y}, {1 if ky < 0 else 0});")

    return _lincomb(("fpw_t", "fpw_add", "fpw_sub"), lambda o, x, k: wide_times(lazy, o, x, k), out, a, ka, b, kb, fused)


def mul_small_add(k: int, a: str, b: str, out: str) -> str:
    """out = k a + b in one pass (fpw_mul_small_add_mod, b a double-width pointer or NULL)."""
    return f"fpw_mul_small_add_mod({out}, {a}, {abs(k)}, {1 if k < 0 else 0}, {wide_steps(k)}, {b}, 0);"


# ---------------------------------------------------------------------------------------------
# The sums around a lazy Karatsuba product (the cubic level and the product of two lines)
# ---------------------------------------------------------------------------------------------

def operand_sum(lazy: LazyReductionModel, fq: str, out: str, a: str, b: str) -> str:
    """The operand sum of a Karatsuba product into the local ``out``: a plain integer sum where
    fp3_plain_sums holds (k = 6, 16 p <= R), unreduced Fp2 coefficients where fp2_operand_sums
    holds (fp2w_mul takes them), else a sum modulo p."""
    if lazy.fp3_plain_sums:
        return f"fp_add_unreduced({out}.l, {a}, {b});"
    if lazy.fp2_operand_sums:
        return f"fp2_add_unreduced(&{out}, {a}, {b});"
    return f"{fq}_add(&{out}, {a}, {b});"


def exact_sub(lazy: LazyReductionModel, fq: str, out: str, x: str, t: str) -> str:
    """x - t for an exact partial product t of x (locals): plain where fp3_plain_sums holds, else
    modulo p R."""
    if lazy.fp3_plain_sums:
        return f"(void)fp_wide_sub({out}.l, {x}.l, {t}.l);"
    return f"{fq}w_sub(&{out}, &{x}, &{t});"


def cross_sub(lazy: LazyReductionModel, fq: str, out: str, x: str, t: str) -> str:
    """The removal of a partial product t = a_i b_i from x = (a_i + a_j)(b_i + b_j): with the Fp2
    operand sums unreduced, c1 is an exact integer and its difference plain (fp2w_sub_cross);
    else exact_sub."""
    if lazy.fp2_operand_sums:  # never with fp3_plain_sums (k = 12 against k = 6)
        return f"fp2w_sub_cross(&{out}, &{x}, &{t});"
    return exact_sub(lazy, fq, out, x, t)


def karatsuba_cross(lazy: LazyReductionModel, fq: str, a: tuple[str, str], b: tuple[str, str],
                    t: tuple[str, str], out: str = "x") -> str:
    """The cross term of a lazy Karatsuba product: x = (a_i + a_j)(b_i + b_j) in double width
    (the operand sums in the locals s and u), less the partial products t_i and t_j (locals),
    the last difference written to ``out``."""
    return _block([INDENT + operand_sum(lazy, fq, "s", *a), INDENT + operand_sum(lazy, fq, "u", *b),
                   f"{INDENT}{fq}w_mul(&x, &s, &u);", INDENT + cross_sub(lazy, fq, "x", "x", t[0]),
                   INDENT + cross_sub(lazy, fq, out, "x", t[1])])


# ---------------------------------------------------------------------------------------------
# Records the templates lay out
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WideSmall:
    """The table and kernels of fpw_mul_small_mod (the small factors of xi in double width)."""

    rows: int                      # J: 2^j p for j = J - 1, ..., 0
    last_row: int                  # J - 1: the row of p itself
    top: bool                      # some factor has k p >= R: one more word in the high half
    high: str                      # the C length of the high half
    limbs: int                     # n, the 64-bit limbs of p
    multiples: tuple[str, ...]     # the c_limbs initializers of 2^j p, j = J - 1 down to 0
    window: bool                   # n is within the x86_64-adx register window (its kernels render)
    quotient: tuple[int, int] | None  # (shift, multiplier) of the one-pass quotient estimate
    quotient_bound: int            # the high half lies below this many p (the largest factor + 1)
    quotient_statement: str        # q = the estimate of floor(h / p), from the high words


@dataclass(frozen=True)
class Fp2Lazy:
    """The lazy Fp2 product and square (generator/derive/lazy_reduction.py: u^2 = beta_add > 0
    with plain double-width sums, or u^2 = -beta_k), with the bounds their comments quote.

    fp2w_sqr's c1 = 2 a0 a1 is one product of 2 a0 (below 2p, an n-word sum) by a1 where the
    correction of c0 by ``cross`` a0 a1 is even (``half``): c0 then reads ``factor`` = cross / 2
    times c1; an odd cross keeps a0 a1 and doubles it at 2n words (factor = cross)."""

    beta_add: int | None
    beta_k: int | None
    small_kernels: bool            # fpw_times_small and the mac kernels render (a factor > 1)
    lazy_square: bool              # fp2_sqr from fp2w_sqr (u^2 = beta_add, or -beta_k with beta_k > 1)
    square: int                    # u^2 as an integer
    add_bound: int                 # beta_add + 1: c0 = a0 b0 + beta_add a1 b1 < (beta_add + 1) p^2
    add_room: int                  # 2 (beta_add + 1): the multiples of p that must fit below R
    sub_room: int                  # max(4, beta_k): likewise for u^2 = -beta_k
    plain_bound: int               # 3 beta_k + 1: fp2_sqr_plain's c0 < (3 beta_k + 1) p^2
    plain_cross: int               # beta_k - 1: the a0 a1 that fp2_sqr_plain's c0 adds
    cross: int
    half: bool
    factor: int


@dataclass(frozen=True)
class QuadraticLevel:
    """A quadratic level F[t]/(t^2 - c) over the field ``base`` (Fp2 over Fp, Fp4 over Fp2), for
    the shared square-root macros: its C names and its norm N(a) = a0^2 - c a1^2 into the local n
    (scratch t)."""

    name: str                      # fp2, fp4
    base: str                      # fp, fp2
    mul_by_nonresidue: str         # out = c a in the base field
    base_sqrt: str                 # the constant-time square root of the base field
    base_sqrt_vartime: str         # its variable-time form
    half: str                      # out = a * FP_INV2 (a in the base field, FP_INV2 in Fp)
    norm: str                      # ready statements: n = N(a)


@dataclass(frozen=True)
class KarabinaPower:
    """a^e by one run of compressed squarings up to the top signed digit of e, one batched
    decompression, one multiplication per further digit, then a conjugation when negate.
    digits are (position, sign), lowest first."""

    name: str
    what: str                      # the comment's opening words
    digits: tuple[tuple[int, int], ...]
    negate: bool

    @property
    def formula(self) -> str:
        """e as signed powers of two: ``2^0 - 2^3 + 2^5``."""
        parts = []
        for i, (position, sign) in enumerate(self.digits):
            lead = "- " if sign < 0 else ("+ " if i else "")
            parts.append(f"{lead}2^{position}")
        return " ".join(parts)

    @property
    def uncompressed(self) -> int:
        """1 where the lowest power is a^(2^0), a itself: nothing to decompress."""
        return 1 if self.digits[0][0] == 0 else 0

    @property
    def count(self) -> int:
        return len(self.digits)

    @property
    def compressed(self) -> int:
        return self.count - self.uncompressed

    @property
    def squarings(self) -> int:
        return self.digits[-1][0]

    @property
    def steps(self) -> tuple[tuple[int, int, int], ...]:
        """(squarings before it, index, position) of each power kept."""
        out, prev = [], 0
        for i, (position, _sign) in enumerate(self.digits):
            out.append((position - prev, i, position))
            prev = position
        return tuple(out)

    @property
    def conjugated(self) -> tuple[int, ...]:
        return tuple(i for i, (_position, sign) in enumerate(self.digits) if sign < 0)


@dataclass(frozen=True)
class GtTerm:
    """One factor of a row of the GT membership test: xp[index]^magnitude, conjugated when neg."""

    index: int
    magnitude: int
    neg: bool


@dataclass(frozen=True)
class GtMembership:
    """a^e = 1 with e = sum_ij c_ij x^j p^i: the powers xp[j] = a^(x^j) taken (j from j - 1),
    and per row i with a non-zero c_ij its factors, multiplied, then raised to p^i."""

    nx: int
    powers: tuple[tuple[int, int], ...]
    rows: tuple[tuple[int, tuple[GtTerm, ...]], ...]


# ---------------------------------------------------------------------------------------------
# One curve's tower
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class IfmaKernel:
    """One operation of the GT field on AVX-512 IFMA, as templates/c/tower/_ifma.j2 lays it out."""

    plan: IfmaKernelPlan
    pre: str                    # the operand sums, one vector per element
    operands: str               # A[k], B[k]: the operands of product k
    post: str                   # the signed combinations of the products, double width
    outputs: tuple[tuple[int, str], ...]  # (fp12_t coefficient index, C name of its combination)
    # batches of eight products, then whether a last batch of four or fewer runs in 256-bit vectors
    product_batches: int
    product_quad: bool
    reduction_batches: int      # the same for the outputs' reductions
    reduction_quad: bool
    placed: tuple[str, ...]     # X[k]: the input (a C value) placed in double width
    place_shift: tuple[int, int]  # (limbs, bits): X[k] = x 2^(52 limbs + bits), the reduction's divisor

    @property
    def reductions(self) -> int:
        """Batches of outputs, a last 256-bit one included (the rows of W: eight per batch)."""
        return self.reduction_batches + (1 if self.reduction_quad else 0)


@dataclass(frozen=True)
class IfmaTower:
    """The AVX-512 IFMA kernels of the GT field (templates/c/tower/_ifma.j2), from their plans."""

    plan: IfmaTowerPlan
    halves: int                 # 512-bit vectors per double-width value (2n columns, 8 per vector)
    mul: IfmaKernel
    sqr: IfmaKernel | None
    mul_by_line: IfmaKernel | None
    mul_by_line_product: IfmaKernel | None
    cyclotomic_sqr: IfmaKernel | None
    cyclotomic_sqr_compressed: IfmaKernel | None
    compressed_chain: IfmaKernel | None
    line_dbl: tuple[IfmaKernel, ...] | None   # the Miller loop's doubling step, its rounds
    load_index: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    store_index: tuple[tuple[int, ...], ...]  # three (limb of word, shift) row pairs: see _ifma.j2
    word_mask: str              # the lanes of an element's 64-bit words, as a C mask


def _ifma_value(name: str) -> str:
    """A plan name in the kernel's C: inputs a<i> / b<i> are a[i] / b[i], products P<k> are P[k],
    placed inputs X<k> are X[k]."""
    if name[0] in "abPX" and name[1:].isdigit():
        return f"{name[0]}[{name[1:]}]"
    return name


def _ifma_combination(terms: tuple[PostTerm, ...], half: int) -> str:
    """One half of a signed combination of double-width values, as vector adds and subtracts; a
    coefficient of magnitude 2^j is a shift, any other a 64-bit product (AVX-512DQ)."""
    expr = ""
    for c, name in terms:
        src = _ifma_scaled(c, f"{_ifma_value(name)}[{half}]")
        if not expr:
            expr = src if c > 0 else f"_mm512_sub_epi64(_mm512_setzero_si512(), {src})"
        else:
            expr = f"_mm512_{'add' if c > 0 else 'sub'}_epi64({expr}, {src})"
    return expr


def _ifma_scaled(c: int, src: str) -> str:
    """|c| src for a vector of 64-bit lanes: itself, a shift for a power of two, else a product."""
    mag = abs(c)
    if mag & (mag - 1) == 0 and mag > 1:
        return f"_mm512_slli_epi64({src}, {mag.bit_length() - 1})"
    if mag != 1:
        return f"_mm512_mullo_epi64({src}, _mm512_set1_epi64({mag}))"
    return src


def _ifma_pre_sum(terms: tuple[PostTerm, ...], offset: int, modulus: tuple[int, ...]) -> str:
    """A pre-stage value, limb by limb in one vector: the positive terms, offset p (a constant
    vector of offset p_j per limb), minus the negative terms (limbs may go negative: the carry into
    lanes is signed)."""
    expr = ""
    for c, name in [t for t in terms if t[0] > 0]:
        src = _ifma_scaled(c, _ifma_value(name))
        expr = f"_mm512_add_epi64({expr}, {src})" if expr else src
    if offset:
        limbs = ", ".join(str(offset * limb) for limb in reversed(modulus + (0,) * (8 - len(modulus))))
        constant = f"_mm512_set_epi64({limbs})"
        expr = f"_mm512_add_epi64({expr}, {constant})" if expr else constant
    for c, name in [t for t in terms if t[0] < 0]:
        expr = f"_mm512_sub_epi64({expr}, {_ifma_scaled(c, _ifma_value(name))})"
    return expr


def _batches(count: int) -> tuple[int, bool]:
    """Full batches of eight lanes for count values, and whether a last one of four or fewer runs in
    256-bit vectors (half the work of a batch of eight)."""
    full, rest = divmod(count, 8)
    return (full, True) if 0 < rest <= 4 else (full + (1 if rest else 0), False)


def _ifma_kernel(plan: IfmaKernelPlan, halves: int, tower: IfmaTowerPlan) -> IfmaKernel:
    modulus = tower.modulus
    pre = [f"{INDENT}const __m512i {d} = {_ifma_pre_sum(terms, offset, modulus)};" for d, terms, offset in plan.pre]
    operands = [f"{INDENT}A[{k}] = {_ifma_value(x)}; B[{k}] = {_ifma_value(y)};"
                for k, (x, y) in enumerate(plan.operands)]
    post = []
    for dest, terms in plan.post:
        post.append(f"{INDENT}__m512i {dest}[{halves}];")
        post.extend(f"{INDENT}{dest}[{h}] = {_ifma_combination(terms, h)};" for h in range(halves))
    product_batches, product_quad = _batches(len(plan.operands))
    reduction_batches, reduction_quad = _batches(len(plan.outputs))
    return IfmaKernel(plan=plan, pre="\n".join(pre), operands="\n".join(operands), post="\n".join(post),
                      outputs=tuple((i, _ifma_value(o)) for i, o in plan.outputs),
                      product_batches=product_batches, product_quad=product_quad,
                      reduction_batches=reduction_batches, reduction_quad=reduction_quad,
                      placed=tuple(_ifma_value(x) for x in plan.placed),
                      # by R64 = 2^(52 steps + tail), or by R52 in a chain
                      place_shift=(tower.redc_steps, tower.redc_tail_bits) if plan.by_r64 else (tower.limbs, 0))



def ifma_tower(plan: IfmaTowerPlan | None) -> IfmaTower | None:
    """The kernels' ready statements, or None where the curve has no plan."""
    if plan is None:
        return None
    halves = -(-2 * plan.limbs // 8)
    # 64-bit words -> 52-bit limbs, in one vector: limb i = (word q >> s) | (word q + 1 << (64 - s))
    q = tuple(min(52 * i // 64, 7) for i in range(8))
    q1 = tuple(min(52 * i // 64 + 1, 7) for i in range(8))
    s = tuple(52 * i % 64 for i in range(8))
    s1 = tuple(64 - x if 52 * i // 64 + 1 <= 7 else 64 for i, x in enumerate(s))
    # 52-bit limbs -> 64-bit words: word j = (limb i >> r) | (limb i+1 << (52 - r)) | (limb i+2 << (104 - r))
    # with i = 64 j / 52 and r = 64 j mod 52; a limb past the eighth, or a shift of 64 or more, adds 0
    rows: list[tuple[int, ...]] = []
    for t in range(3):
        idx, sh = [], []
        for j in range(8):
            i, r = divmod(64 * j, 52)
            limb, shift = i + t, (r if t == 0 else 52 * t - r)
            ok = limb <= 7 and shift < 64
            idx.append(limb if ok else 0)
            sh.append(shift if ok else 64)
        rows.extend((tuple(idx), tuple(sh)))
    def kernel(k: IfmaKernelPlan | None) -> IfmaKernel | None:
        return _ifma_kernel(k, halves, plan) if k is not None else None

    return IfmaTower(plan=plan, halves=halves, mul=_ifma_kernel(plan.mul, halves, plan),
                     sqr=kernel(plan.sqr), mul_by_line=kernel(plan.mul_by_line),
                     mul_by_line_product=kernel(plan.mul_by_line_product),
                     cyclotomic_sqr=kernel(plan.cyclotomic_sqr),
                     cyclotomic_sqr_compressed=kernel(plan.cyclotomic_sqr_compressed),
                     compressed_chain=kernel(plan.compressed_chain),
                     line_dbl=(None if plan.line_dbl is None
                               else tuple(_ifma_kernel(k, halves, plan) for k in plan.line_dbl)),
                     load_index=(q, s, q1, s1), store_index=tuple(rows),
                     word_mask=f"0x{(1 << plan.words) - 1:02x}")


class TowerEmit:
    """What the tower templates of one curve need, computed from its model."""

    def __init__(self, m: CurveModel) -> None:
        self.m = m
        self.lazy = m.lazy
        names = m.tower.names
        self.fq, self.fq3, self.fq6 = names["fq"], names["fq3"], names["fq6"]

    @property
    def line_by_line(self) -> bool:
        """The Miller loop multiplies two lines together before they meet f (c/pairing.h's
        pf_line_mul), where Fp has more than four 64-bit words. Measured (gcc 12, x86-64; f times
        two lines): 6 words -6% (x86_64-adx, lazy tower) and -8% (portable), 12 words -8%
        (x86_64-adx) and -4% (portable); 4 words +5% (x86_64-adx) and +7% (portable): with cheap
        products the extra additions of the Karatsuba products in the twist field and the full
        products in the cubic level outweigh the three products saved."""
        return self.m.fp.limbs64 > 4

    @cached_property
    def ifma(self) -> IfmaTower | None:
        """The AVX-512 IFMA kernels of the sextic level (GT's field), where the multiplication's
        plan's bounds hold (generator/derive/ifma_tower.py); None otherwise."""
        m = self.m
        tower = m.tower
        if tower.beta is None:
            return None
        xi = tuple(self.small(c) for c in tower.xi)
        # the Fp2 slots of a line (c/pairing.h's pf_line_to_gt): D-twist w^0, w^1, w^3 (c0.c0,
        # c1.c0, c1.c1), M-twist w^0, w^2, w^3 (c0.c0, c0.c1, c1.c1)
        slots = (0, 3, 4) if m.twist.kind == "D" else (0, 1, 4)
        # the twist's 3 b' over Fp2: the doubling step's kernel
        b3 = None
        if m.fq_degree == 2:
            c0, c1 = m.E2.F.scale(m.twist.b, 3)
            b3 = (int(c0), int(c1))
        return ifma_tower(derive_ifma_tower(m.p, m.fp.limbs64, m.k, tower.beta, xi, m.name, slots, b3))

    # small helpers bound to the curve --------------------------------------------------------

    def small(self, value: int) -> int:
        return signed(value, self.m.p)

    def fp_times(self, out: str, a: str, k: int, short_double: bool = True) -> str:
        return fp_times(out, a, k, short_double)

    def fp_lincomb(self, out: str, a: str, ka: int, b: str, kb: int, short_double: bool = True) -> str:
        return fp_lincomb(out, a, ka, b, kb, short_double)

    def wide_times(self, out: str, a: str, k: int) -> str:
        return wide_times(self.lazy, out, a, k)

    def wide_lincomb(self, out: str, a: str, ka: int, b: str, kb: int) -> str:
        return wide_lincomb(self.lazy, out, a, ka, b, kb)

    def karatsuba_cross(self, a: tuple[str, str], b: tuple[str, str], t: tuple[str, str], out: str = "x") -> str:
        return karatsuba_cross(self.lazy, self.fq, a, b, t, out)

    # the double-width Fp level ----------------------------------------------------------------

    @cached_property
    def xi_factors(self) -> tuple[int, ...]:
        """The small integers that multiply double-width Fp coefficients when xi multiplies a
        double-width element of Fq: xi0 (and xi1, beta xi1 for k = 12); for k = 24, where xi = v
        is a shift, nu's (nu0, nu1, beta nu1), which fp2w_mul_by_nu applies."""
        m, small = self.m, self.small
        if m.fq_degree == 4:
            nu0, nu1 = small(m.tower.nu[0]), small(m.tower.nu[1])
            return (nu0, nu1, nu1 * m.tower.beta)
        xi0 = small(m.tower.xi[0])
        if m.k == 12:
            xi1 = small(m.tower.xi[1])
            return (xi0, xi1, xi1 * m.tower.beta)
        return (xi0,)

    @cached_property
    def wide_small(self) -> WideSmall | None:
        """fpw_mul_small_mod's table, where a factor of xi_factors is one of the derivation's
        small factors; the table serves either sign of each (the negated one takes the most
        subtractions)."""
        m, lazy = self.m, self.lazy
        if not lazy.tower:
            return None
        steps = [wide_steps(-abs(k)) for k in self.xi_factors if abs(k) in lazy.wide_small]
        if not steps:
            return None
        rows, top, n = max(steps), lazy.wide_small_top, m.fp.limbs64
        multiples = tuple(c_limbs(m.p * 2**j, n + (1 if top else 0)) for j in range(rows - 1, -1, -1))
        quotient, statement = lazy.wide_quotient, ""
        if quotient:
            shift, mult = quotient
            high = [f"out->l[FP_NLIMBS + {i}]" for i in range(n)] + ["top"]
            word, offset = divmod(shift, 64)
            if offset == 0:
                statement = f"q = (limb_t)(((unsigned __int128){high[word]} * {mult}u) >> 64);"
            else:
                statement = (f"q = (limb_t)(((unsigned __int128)(({high[word]} >> {offset}) | "
                             f"({high[word + 1]} << {64 - offset})) * {mult}u) >> 64);")
        return WideSmall(rows=rows, last_row=rows - 1, top=top, high="FPW_HIGH_LIMBS" if top else "FP_NLIMBS", limbs=n,
                         multiples=multiples, window=n <= adx_window.WINDOW_MAX_LIMBS, quotient=quotient,
                         quotient_bound=max(lazy.wide_small, default=0) + 1, quotient_statement=statement)

    # the quadratic level Fp2 ------------------------------------------------------------------

    @cached_property
    def half(self) -> int:
        """1/2 in Fp, as an integer (FP_INV2, for the square roots)."""
        return (self.m.p + 1) // 2

    @cached_property
    def wide_guard(self) -> str:
        """The preprocessor condition of the lazy Fp2 product: short fields unless the target's
        Montgomery kernel is much faster (PF_ASM_PREFER_MONT_<n>), longer ones with the target's
        double-width kernels."""
        n = self.m.fp.limbs64
        return "defined(FP_WIDE_KERNELS)" if n > 5 else f"!defined(PF_ASM_PREFER_MONT_{n})"

    @cached_property
    def fp2_lazy(self) -> Fp2Lazy:
        lazy = self.lazy
        beta_add, beta_k = lazy.beta_add, lazy.beta_k
        if beta_add:
            cross = beta_add + 1
        elif lazy.fp2_sqr_plain and (beta_k or 0) > 1:
            cross = beta_k - 1
        else:
            cross = 0
        half = cross % 2 == 0
        k = beta_k or 0
        return Fp2Lazy(beta_add=beta_add, beta_k=beta_k, small_kernels=bool(beta_add) or k > 1,
                       lazy_square=lazy.fp2_mul and (bool(beta_add) or k > 1),
                       square=beta_add if beta_add else -k, add_bound=(beta_add or 0) + 1,
                       add_room=2 * ((beta_add or 0) + 1), sub_room=max(4, k), plain_bound=3 * k + 1,
                       plain_cross=k - 1, cross=cross, half=half, factor=cross // 2 if half else cross)

    @cached_property
    def fp2_level(self) -> QuadraticLevel:
        norm = _block([f"{INDENT}fp_sqr(&n, &a->c0);", f"{INDENT}fp_sqr(&t, &a->c1);",
                       f"{INDENT}fp_mul_by_beta(&t, &t);", f"{INDENT}fp_sub(&n, &n, &t);"])
        return QuadraticLevel(name="fp2", base="fp", mul_by_nonresidue="fp_mul_by_beta", base_sqrt="fp_sqrt",
                              base_sqrt_vartime="fp_sqrt", half="fp_mul", norm=norm)

    @cached_property
    def fp4_level(self) -> QuadraticLevel:
        return QuadraticLevel(name="fp4", base="fp2", mul_by_nonresidue="fp2_mul_by_nu", base_sqrt="fp2_sqrt",
                              base_sqrt_vartime="fp2_sqrt_vartime", half="fp2_mul_by_fp",
                              norm=f"{INDENT}fp4_norm(&n, a);")

    @cached_property
    def xi_is_u_fused(self) -> bool:
        """k = 12 with xi = u and |beta| a small factor of the one-pass double-width kernel: the
        multiplications by xi move a0 to the u slot and take beta a1 with its partner sum in one
        pass."""
        m, lazy = self.m, self.lazy
        return (m.k == 12 and list(m.tower.xi) == [0, 1] and bool(lazy.wide_quotient)
                and abs(m.tower.beta) in lazy.wide_small)

    def quadratic_by_small(self, c0: int, c1: int, wide: bool, dst: tuple[str, str] = ("&r.c0", "&r.c1")) -> str:
        """The coefficients dst of (c0 + c1 u) a for small integers c0, c1 (a the pointer ``a``):
        (a0 + a1 u)(c0 + c1 u) = (c0 a0 + beta c1 a1) + (c1 a0 + c0 a1) u, in Fp or in double
        width (wide)."""
        lincomb = self.wide_lincomb if wide else self.fp_lincomb
        beta = self.m.tower.beta
        return _block([lincomb(dst[0], "&a->c0", c0, "&a->c1", c1 * beta), lincomb(dst[1], "&a->c0", c1, "&a->c1", c0)])

    @cached_property
    def xi_pair(self) -> tuple[int, int]:
        """(xi0, xi1) of xi = xi0 + xi1 u (k = 12), as small integers."""
        return self.small(self.m.tower.xi[0]), self.small(self.m.tower.xi[1])

    @cached_property
    def xi_parts(self) -> str:
        """xi a (a the pointer ``a``) into the locals t0 and t1 (its c0 and c1), each unreduced, for
        the fused forms that combine them with their partners straight into their output, so that
        xi a is never copied whole."""
        xi0, xi1 = self.xi_pair
        return f"{INDENT}fpw_t t0, t1;\n" + self.quadratic_by_small(xi0, xi1, True, ("&t0", "&t1"))

    @cached_property
    def fused_xi_u(self) -> dict[str, str]:
        """The statements of the fused forms when xi = u (xi_is_u_fused): beta a1, its partner
        sum and its difference."""
        beta = self.m.tower.beta
        return {"c0": self.wide_times("&c0", "&a->c1", beta),
                "add": self.wide_lincomb("&out->c0", "&a->c1", beta, "&b->c0", 1),
                "sub": self.wide_lincomb("&out->c0", "&a->c1", -beta, "&x->c0", 1),
                "redc": self.wide_times("&a->c1", "&a->c1", beta)}

    # the quartic level Fp4 (k = 24) ----------------------------------------------------------

    @cached_property
    def nu_pair(self) -> tuple[int, int]:
        return self.small(self.m.tower.nu[0]), self.small(self.m.tower.nu[1])

    @cached_property
    def nu_small(self) -> bool:
        """nu's coefficients small enough for additions in place of a multiplication in Fp2."""
        nu0, nu1 = self.nu_pair
        return abs(nu0) <= 64 and abs(nu1) <= 64

    @cached_property
    def beta_nu1(self) -> int:
        """beta nu1, the factor of b1 in c0 of fp2w_add_nu_plain (u^2 = beta > 0)."""
        return (self.lazy.beta_add or 0) * self.nu_pair[1]

    @cached_property
    def xi_is_v(self) -> bool:
        return list(self.m.tower.xi) == [0, 0, 1, 0]

    @cached_property
    def nu_plain(self) -> str:
        """fp2w_add_nu_plain's body: out = a + nu b as plain double-width sums, coefficient by
        coefficient (c0 = a0 + nu0 b0 + beta nu1 b1, c1 = a1 + nu1 b0 + nu0 b1), straight into
        out (out may alias a)."""
        nu0, nu1 = self.nu_pair
        beta = self.lazy.beta_add or 0
        lines = []
        for dst, terms in (("c0", (("c0", nu0), ("c1", beta * nu1))), ("c1", (("c0", nu1), ("c1", nu0)))):
            terms = [(src, k) for src, k in terms if k]
            for i, (src, k) in enumerate(terms):
                acc = ("a->" if i == 0 else "out->") + dst + ".l"
                if k == 1:
                    lines.append(f"{INDENT}(void)fp_wide_add(out->{dst}.l, {acc}, b->{src}.l);")
                else:
                    lines.append(f"{INDENT}fpw_mac_small(out->{dst}.l, b->{src}.l, {k}, {acc});")
            if not terms:
                lines.append(f"{INDENT}out->{dst} = a->{dst};")
        return _block(lines)

    @cached_property
    def fp4_karatsuba_sub(self) -> str:
        """fp2w_sub_plain where Fp4's Karatsuba differences are plain (fp4_plain_karatsuba)."""
        return "sub_plain" if self.lazy.fp4_plain_karatsuba else "sub"

    # the octic level Fp8 (k = 48) ------------------------------------------------------------

    @cached_property
    def fp8_level(self) -> QuadraticLevel:
        return QuadraticLevel(name="fp8", base="fp4", mul_by_nonresidue="fp4_mul_by_omega", base_sqrt="fp4_sqrt",
                              base_sqrt_vartime="fp4_sqrt_vartime", half="fp4_mul_by_fp",
                              norm=f"{INDENT}fp8_norm(&n, a);")

    def _monomial_sign(self, elem: tuple[int, ...], index: int) -> int:
        """+1 or -1 where ``elem`` (flat over Fp) is that sign times the basis monomial at ``index``,
        else 0: the multiplication by it is then a shift of the halves."""
        want = [0] * len(elem)
        for sign in (1, -1):
            want[index] = sign % self.m.p
            if list(elem) == want:
                return sign
        return 0

    @cached_property
    def omega_v_sign(self) -> int:
        """omega = +-v (w^2 = omega in Fp8): fp4_mul_by_omega by a shift, else 0 (a product)."""
        return self._monomial_sign(self.m.tower.omega, 2)

    @cached_property
    def xi_w_sign(self) -> int:
        """xi = +-w in Fp8: fp8_mul_by_xi by a shift, else 0 (a product)."""
        return self._monomial_sign(self.m.tower.xi, 4) if self.m.fq_degree == 8 else 0

    # the twist field Fp (k = 6) ----------------------------------------------------------------

    @cached_property
    def fp_xi(self) -> int:
        return self.small(self.m.tower.xi[0])

    @cached_property
    def fp_xi_fused(self) -> bool:
        """xi a + b in one pass (fpw_mul_small_add_mod) for the Fp twist field."""
        return bool(self.lazy.wide_quotient) and abs(self.fp_xi) in self.lazy.wide_small

    def xi_small_add(self, out: str, a: str, b: str) -> str:
        """out = xi a + b in one pass (fp_xi_fused; b a double-width pointer or NULL)."""
        return mul_small_add(self.fp_xi, a, b, out)

    # the cubic and sextic levels ---------------------------------------------------------------

    @cached_property
    def fq_title(self) -> str:
        """The twist field as the comments name it: Fp, Fp2, Fp4."""
        degree = self.m.fq_degree
        return "Fp" if degree == 1 else f"Fp{degree}"

    @cached_property
    def cubic_operand_add(self) -> str:
        """The operand sums of the sextic level's lazy product (plain where fp3_plain_sums)."""
        return f"{self.fq3}_add_unreduced" if self.lazy.fp3_plain_sums else f"{self.fq3}_add"

    @cached_property
    def gamma_rows(self) -> int:
        """The rows of gamma rendered: n = 0..3, and for k = 24 up to n = k/6 = 4 (the easy part's
        p^4 and the hard part's Frobenius powers 1, 2, 4 in one step each)."""
        return max(4, self.m.k // 6 + 1)

    @cached_property
    def gamma_step(self) -> int:
        """The largest Frobenius power taken in one step (the last row of gamma)."""
        return self.gamma_rows - 1

    @cached_property
    def gamma_table(self) -> tuple:
        """The rows of gamma that render."""
        return self.m.tower.gamma[: self.gamma_rows]

    @cached_property
    def xi_root(self) -> int:
        """r > 0 with xi = -r^2 (Fq = Fp), else 0."""
        return self.m.tower.xi_neg_square_root

    def lazy_pair(self, a: str, b: str, sq: str, prod: str, mul_xi: bool) -> str:
        """Lazy reduction in the cyclotomic squarings: for a pair (a, b) of coefficients,
        sq = a^2 xi + b^2 and prod = 2 a b (times xi when mul_xi), with the squares in double
        width and one reduction per output coefficient (scratch: wa, wb, wx, s). fp2w_sqr takes
        reduced operands only: no unreduced Fp2 sum here at k = 12."""
        fq, lazy = self.fq, self.lazy
        s = INDENT + (operand_sum(lazy, fq, "s", a, b) if lazy.fp3_plain_sums else f"{fq}_add(&s, {a}, {b});")
        return _block([f"{INDENT}{fq}w_sqr(&wa, {a});", f"{INDENT}{fq}w_sqr(&wb, {b});", s,
                       f"{INDENT}{fq}w_sqr(&wx, &s);", INDENT + exact_sub(lazy, fq, "wx", "wx", "wa"),
                       INDENT + exact_sub(lazy, fq, "wx", "wx", "wb"),
                       f"{INDENT}{fq}w_redc{'_mul_by_xi' if mul_xi else ''}({prod}, &wx);",
                       f"{INDENT}{fq}w_mul_by_xi_add(&wa, &wa, &wb);", f"{INDENT}{fq}w_redc({sq}, &wa);"])

    def product_pair(self, a: str, b: str, sq: str, prod: str, mul_xi: bool) -> str:
        """With xi = -r^2 (xi_root): sq = a^2 xi + b^2 = (b - r a)(b + r a) and prod = 2 a b
        (times xi when mul_xi), two products in Fp (scratch: ra, d, e)."""
        r = self.xi_root
        lines = [self.fp_times("&ra", a, r), f"{INDENT}fp_sub(&d, {b}, &ra);", f"{INDENT}fp_add(&e, {b}, &ra);",
                 f"{INDENT}fp_mul({sq}, &d, &e);"]
        if r == 2:
            lines.append(f"{INDENT}fp_mul({prod}, &ra, {b});")
        else:
            lines += [f"{INDENT}fp_dbl(&d, {a});", f"{INDENT}fp_mul({prod}, &d, {b});"]
        if mul_xi:
            lines.append(f"{INDENT}fp_mul_by_xi({prod}, {prod});")
        return _block(lines)

    @cached_property
    def karabina_powers(self) -> tuple[KarabinaPower, ...]:
        """The Karabina powers of the final exponentiation (gt_pow_karabina_<e>)."""
        what = "a^e for a in GT, a power of the final exponentiation: e ="
        return tuple(KarabinaPower(f"gt_pow_karabina_{e}", what, tuple(digits), False)
                     for e, digits in self.m.final_exp.karabina_powers)

    @cached_property
    def exp_by_x_karabina(self) -> KarabinaPower | None:
        """gt_exp_by_x by compressed squarings, where the final exponentiation chose them."""
        m = self.m
        digits = m.final_exp.exp_by_x_compressed
        if not digits:
            return None
        return KarabinaPower("gt_exp_by_x", f"a^x for a in GT (x = {m.x}): |x| =", tuple(digits), m.x < 0)

    @cached_property
    def frob_third(self) -> int:
        """k / 3: a^(p^(k/3)) a = a^(p^(k/6)) holds on the cyclotomic subgroup."""
        return self.m.k // 3

    @cached_property
    def frob_sixth(self) -> int:
        return self.m.k // 6

    @cached_property
    def gt_membership(self) -> GtMembership | None:
        """The GT subgroup test a^e = 1 with e = sum_ij c_ij x^j p^i; None where the test is by
        the order r."""
        coeffs = self.m.endo.gt.coeffs
        if coeffs is None:
            return None
        nx = max(len(row) for row in coeffs)
        rows = tuple((i, tuple(GtTerm(j, abs(c), c < 0) for j, c in enumerate(row) if c != 0))
                     for i, row in enumerate(coeffs) if any(row))
        return GtMembership(nx=nx, powers=tuple((j, j - 1) for j in range(1, nx)), rows=rows)


def tower_emit(m: CurveModel) -> TowerEmit:
    """The tower templates' helper for ``m`` (the Jinja global ``tower_emit``)."""
    return TowerEmit(m)
