"""Lazy reduction in the tower: which double-width (unreduced) computations fit, from p's size.

A double-width value t stands for t / R mod p (R = 2^(64 n), n the 64-bit limbs of Fp); one
Montgomery reduction (redc) turns it back into an element, and redc needs t < p R. The tower
keeps every double-width value in [0, p R): products of reduced operands are below p^2, sums and
differences are taken modulo p R (p R has a zero low half, so only the high half is corrected).
Aranha et al., "Faster explicit formulas for computing pairings over ordinary curves" (eprint
2010/526 §3), count the reductions this saves: one per output coefficient of a multiplication
in Fp6 / Fp12 instead of one per product in Fp.

The bounds, each checked here for the curve at hand:
  * Fp2 Karatsuba (u^2 = beta, beta = -k): the sums a0 + a1, b0 + b1 are left unreduced (< 2p),
    so their product is below 4 p^2; a0 b1 + a1 b0 < 2 p^2; a0 b0 - k a1 b1 is taken modulo p R,
    which needs k a1 b1 < k p^2 below p R. All of them must stay below p R.
  * Fp2 Karatsuba with u^2 = beta = k > 0 (BLS24-315's u^2 = 13): c0 = a0 b0 + k a1 b1 is a plain sum
    below (k + 1) p^2, which needs (k + 1) p <= R; the square takes two products with plain integer
    operations, c0 = (a0 + a1)(a0 + k a1) - (k + 1) a0 a1 = a0^2 + k a1^2 exactly, where
    (a0 + a1)(a0 + k a1) < 2 (k + 1) p^2 needs 2 (k + 1) p <= R.
  * the modular sums: a + b < 2 p R must fit in 2n words plus the carry the code handles, and the
    high half of a sum (< 2p) must fit in n words: 2p < R.
  * the Fp2 square with two products (u^2 = -k, k > 1): c0 = (a0 + a1)(a0 + k (p - a1)) + (k - 1) a0 a1
    with every step a plain integer operation: a0 + a1 < 2p, a0 + k (p - a1) <= (k + 1) p - 1 < R,
    their product below 2 (k + 1) p^2, and c0 below (3k + 1) p^2, which must be at most p R; it is
    congruent to a0^2 - k a1^2 since (a0 + a1)(a0 - k a1) = a0^2 - k a1^2 - (k - 1) a0 a1. Without
    that room the square takes three products (a0^2 - k a1^2 modulo p R).
  * the cubic level over Fp (k = 6) with plain sums (fp3_plain_sums): Fp3's Karatsuba takes
    operands below 2p (Fp6's unreduced sums a0 + a1), leaves its own operand sums unreduced (< 4p),
    and subtracts t0, t1, t2 from (a_i + a_j)(b_i + b_j) < 16 p^2 as plain integers, the difference
    a_i b_j + a_j b_i (< 8 p^2) being exact; the cyclotomic squaring's (a + b)^2 - a^2 - b^2 = 2ab
    likewise. All of it needs 16 p <= R.
  * unreduced operands of the Fp2 product (fp2_operand_sums, k = 12, u^2 = -k): the cubic level's
    Karatsuba over Fp2 passes its operand sums a_i + a_j unreduced (< 2p) to fp2w_mul, whose own
    sums then stay below 4p (their product, below 16 p^2, is only an intermediate of plain integer
    subtractions), with a0 b0 < 4 p^2 and k a1 b1 < 4k p^2 below p R (4 p <= R, 4k p <= R) for c0
    modulo p R, and c1 = a0 b1 + a1 b0 < 8 p^2 exact (it fits 2n words). Since every c1 is then
    the exact integer of its operands, the Karatsuba difference (a_i + a_j)(b_i + b_j) - a_i b_i
    - a_j b_j takes c1 as a plain subtraction; its result, the cross terms, is below 4 p^2 <= p R.
    Such a product is read by that difference only (fp2w_sub_cross), so its c1 may exceed p R
    (R / p between 4 and 8: BN254).
  * the multiplications by the small factors of xi in double width (fpw_mul_small_mod): k a, or
    k (p R - a) for -k a, in one pass of products; the product is below k p R and its high half
    below k p, which needs one more word when k p >= R (wide_small_top: BN254's 9 = xi0); the
    high half then comes below p by conditional subtractions of 2^j p, j below the bit length of
    k - 1 (k when negated), and the extra word ends at zero. Every factor 2 <= k < 2^32 is taken.
  * the Fp4 Karatsuba over those products with unreduced operand sums (fp4_plain_karatsuba, k = 24,
    u^2 = k > 0): a0 + a1 and b0 + b1 are left below 2p per coefficient, so fp2w_mul's own sums stay
    below 4p and a0 + k a1 below 2 (k + 1) p < R, its products below 4 (k + 1) p^2 < R^2, and every
    coefficient it returns is the exact integer of its operands; then (a0 + a1)(b0 + b1) - a0 b0 - a1 b1
    is taken by plain subtractions, its c0 being the cross terms a00 b10 + a10 b00 + k (a01 b11 + a11 b01)
    below 2 (k + 1) p^2, which needs 2 (k + 1) p <= R (the square alike).
  * where the subtractions would number 3 or more (WIDE_QUOTIENT_STEPS), the high half instead loses
    a quotient estimate of p at once (wide_quotient, the x86_64-adx kernels): h < B = (k_max + 1) p, for k a
    plus one more addend in [0, p R) (fpw_mul_small_add_mod: xi a's two coefficients in one pass);
    the 64 bits of h from bit s = bits(B) - 63 times M = floor(2^(64 + s) / p), high word, give
    q' with q - 1 <= q' <= q for q = floor(h / p) (h / 2^(s + 64) < 1/2 and 2^s / p < 1/2), so
    h - q' p is below 2p and one conditional subtraction of p ends it.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .checks import require

# fpw_mul_small_mod's factors: one word, with the product's extra word below it (k p < 2^64 R)
WIDE_SMALL_BOUND = 2**32
# From this many conditional subtractions of 2^j p (the negated factor's count, bits(k)) the quotient
# estimate takes over (x86_64-adx): it costs about two of them, one MULX pass and one subtraction
# (BN254's 9, BLS24-315's 13, BLS12-377's 5, BW6-761's 4).
WIDE_QUOTIENT_STEPS = 3


@dataclass(frozen=True)
class LazyReductionModel:
    """What fits in double width for one curve."""

    fp2_mul: bool          # Karatsuba in Fp2 with three products and two reductions (k = 12)
    beta_k: int | None     # k = -beta when fp2_mul holds with beta < 0
    tower: bool            # double-width arithmetic in every level of the tower (mod p R)
    headroom: int          # floor(R / p): how many multiples of p^2 fit below p R
    fp2_sqr_plain: bool = False  # the Fp2 square in two products with plain sums ((3k + 1) p <= R, k > 1)
    wide_small: tuple[int, ...] = ()  # the |factors| of xi (>= 2) that fpw_mul_small_mod takes
    wide_small_top: bool = False  # some factor has k p >= R: the high half of k a takes one more word
    beta_add: int | None = None  # k = beta when fp2_mul holds with beta > 0 (plain double-width sums)
    fp4_nu_plain: bool = False  # k = 24, beta > 0, nu >= 0: a + nu b of the Fp4 products as plain sums
    fp4_plain_karatsuba: bool = False  # k = 24, beta > 0: Fp4 Karatsuba on unreduced operand sums, plain differences (2 (k + 1) p <= R)
    fp3_plain_sums: bool = False  # k = 6: unreduced operand sums and plain differences in Fp3 and Fp6 (16 p <= R)
    fp2_operand_sums: bool = False  # k = 12, u^2 = -k: fp2w_mul takes operands below 2p (4k p <= R)
    # (s, M) of the quotient estimate that replaces the subtractions of 2^j p where they would number
    # WIDE_QUOTIENT_STEPS or more (x86_64-adx)
    wide_quotient: tuple[int, int] | None = None


def _check_fp2_products(p: int, R: int, k: int, curve: str) -> None:
    """Run the double-width Fp2 product and square of the tower on extreme and random operands:
    every intermediate fits 2n words, every stored value is in [0, p R), and each agrees with
    the product in Fp2 modulo p."""
    rng = random.Random(2010526)
    edge = (0, 1, p - 1, p - 2)
    samples = [(a0, a1, p - 1, p - 1) for a0 in edge for a1 in edge]
    samples += [tuple(rng.randrange(p) for _ in range(4)) for _ in range(64)]
    for a0, a1, b0, b1 in samples:
        v0, v1, v2 = a0 * b0, a1 * b1, (a0 + a1) * (b0 + b1)
        require(v2 < R * R and k * v1 < p * R, curve, "Fp2 Karatsuba: the products fit")
        c0, c1 = (v0 - k * v1) % (p * R), v2 - v0 - v1
        require(0 <= c1 < p * R, curve, "Fp2 Karatsuba: c1 in [0, p R)")
        require((c0 - (a0 * b0 - k * a1 * b1)) % p == 0 and (c1 - (a0 * b1 + a1 * b0)) % p == 0,
                curve, "Fp2 Karatsuba: the double-width coefficients are the product")
        # squares: c0 = (a0 + a1)(a0 - a1) for k = 1, else a0^2 - k a1^2 mod p R; c1 = 2 a0 a1
        s0 = (a0 + a1) * ((a0 - a1) % p) if k == 1 else (a0 * a0 - k * a1 * a1) % (p * R)
        # c1 is one product of the doubled operand 2 a0 (n words, as the operand sums) by a1
        require(0 <= s0 < p * R and 2 * a0 < R and 2 * a0 * a1 < p * R, curve, "Fp2 squaring: in [0, p R)")
        require((s0 - (a0 * a0 - k * a1 * a1)) % p == 0, curve, "Fp2 squaring: c0 is the square")
        if k > 1 and (3 * k + 1) * p <= R:
            y = a0 + k * (p - a1)
            q0 = (a0 + a1) * y + (k - 1) * a0 * a1
            require(a0 + a1 < 2 * p and y < R and (a0 + a1) * y < 2 * (k + 1) * p * p, curve,
                    "Fp2 squaring in two products: the operands and their product fit")
            require(0 <= q0 < (3 * k + 1) * p * p <= p * R, curve, "Fp2 squaring in two products: c0 in [0, p R)")
            require((q0 - (a0 * a0 - k * a1 * a1)) % p == 0, curve, "Fp2 squaring in two products: c0 is the square")


def _check_fp2_products_positive(p: int, R: int, k: int, curve: str) -> None:
    """The double-width Fp2 product and square for u^2 = k > 0 on extreme and random operands:
    every intermediate is a non-negative integer that fits, every stored value is below p R, and
    each agrees with the product in Fp2 modulo p (the square's c0 exactly)."""
    rng = random.Random(2010526 + k)
    edge = (0, 1, p - 1, p - 2)
    samples = [(a0, a1, p - 1, p - 1) for a0 in edge for a1 in edge]
    samples += [tuple(rng.randrange(p) for _ in range(4)) for _ in range(64)]
    for a0, a1, b0, b1 in samples:
        v0, v1, v2 = a0 * b0, a1 * b1, (a0 + a1) * (b0 + b1)
        c0, c1 = v0 + k * v1, v2 - v0 - v1
        require(v2 < R * R and 0 <= c0 < p * R and 0 <= c1 < p * R, curve,
                f"Fp2 Karatsuba (u^2 = {k}): the products fit and c0, c1 are in [0, p R)")
        require((c0 - (a0 * b0 + k * a1 * b1)) % p == 0 and (c1 - (a0 * b1 + a1 * b0)) % p == 0,
                curve, f"Fp2 Karatsuba (u^2 = {k}): the double-width coefficients are the product")
        y = a0 + k * a1
        q = (a0 + a1) * y
        require(a0 + a1 < R and y < R and q < p * R and (k + 1) * a0 * a1 <= q, curve,
                f"Fp2 squaring (u^2 = {k}): the operands fit, the product is below p R, the difference is plain")
        require(q - (k + 1) * a0 * a1 == a0 * a0 + k * a1 * a1 and 2 * a0 < R and 2 * a0 * a1 < p * R, curve,
                f"Fp2 squaring (u^2 = {k}): c0 = a0^2 + {k} a1^2 and c1 = 2 a0 a1 in [0, p R)")


def wide_small_steps(k: int, negate: bool) -> int:
    """How many conditional subtractions of 2^j p bring the high half of k a (k (p R - a)) below p."""
    return k.bit_length() if negate else (k - 1).bit_length()


def _check_wide_small(p: int, R: int, k: int, curve: str) -> None:
    """Run fpw_mul_small_mod's arithmetic on extreme and random a in [0, p R), both signs."""
    rng = random.Random(k)
    pR = p * R
    samples = [0, 1, R - 1, R, pR - R, pR - 1] + [rng.randrange(pR) for _ in range(32)]
    for negate in (False, True):
        steps = wide_small_steps(k, negate)
        for a in samples:
            t = k * ((pR - a) if negate else a)
            words = 2 if k * p < R else 3  # the extra word above the high half (wide_small_top)
            require(t < R * R * (1 if words == 2 else 2**64) and t // R < (1 << steps) * p, curve,
                    f"fpw_mul_small_mod({k}): the product fits 2n{'' if words == 2 else ' + 1'} words, "
                    f"its high half below 2^{steps} p")
            lo, hi = t % R, t // R
            for j in range(steps - 1, -1, -1):
                if hi >= p << j:
                    hi -= p << j
            out = lo + R * hi
            require(0 <= out < pR and (out - (-k * a if negate else k * a)) % pR == 0, curve,
                    f"fpw_mul_small_mod({k}): the result is {'-' if negate else ''}{k} a modulo p R, in [0, p R)")


def wide_quotient_constants(p: int, bound: int) -> tuple[int, int]:
    """(s, M) for high halves h < bound: q' = (floor(h / 2^s) M) >> 64 with s = bits(bound) - 63 and
    M = floor(2^(64 + s) / p)."""
    s = bound.bit_length() - 63
    return s, (1 << (64 + s)) // p


def wide_quotient_estimate(h: int, s: int, mul: int) -> int:
    """The kernels' q' for a high half h (its 64 bits from bit s, times M, the high word)."""
    return (((h >> s) & (2**64 - 1)) * mul) >> 64


def _check_wide_quotient(p: int, R: int, kmax: int, curve: str) -> tuple[int, int]:
    """Derive (s, M) for h < (kmax + 1) p, prove q - 1 <= q' <= q from the bounds, and run the
    estimate and its one conditional subtraction on the extremes around every multiple of p."""
    bound = (kmax + 1) * p
    s, mul = wide_quotient_constants(p, bound)
    high_bits = R.bit_length() - 1 + 64  # the high half and the word above it
    require(0 <= s and s + 64 <= high_bits and 0 < mul < 2**64, curve,
            "wide quotient: the 64-bit window lies in the high half and its word above, M fits a word")
    # q' <= h / p: (h / 2^s)(2^(64 + s) / p) / 2^64; q' > h / p - h / 2^(s + 64) - 2^s / p >= h / p - 1
    require(bound <= 1 << (s + 63) and 2 * (1 << s) < p, curve,
            "wide quotient: h < 2^(s + 63) and 2^(s + 1) < p, so q' >= floor(h / p) - 1")
    rng = random.Random(kmax)
    hs = [0, 1, p - 1, p, bound - 1] + [j * p + d for j in range(1, kmax + 2) for d in (-2, -1, 0, 1)]
    hs += [rng.randrange(bound) for _ in range(64)]
    for h in hs:
        if not 0 <= h < bound:
            continue
        q, est = h // p, wide_quotient_estimate(h, s, mul)
        rest = h - est * p
        require(q - 1 <= est <= q and 0 <= rest < 2 * p and (rest - p if rest >= p else rest) == h % p, curve,
                f"wide quotient: h = {h:#x} reduces below p with one conditional subtraction")
    return s, mul


def derive_lazy_reduction(p: int, limbs64: int, k: int, beta: int | None, curve: str,
                          small_factors: tuple[int, ...] = (), fp4_shift_xi: bool = False,
                          nu: tuple[int, int] | None = None) -> LazyReductionModel:
    """Derive (and check) which lazy-reduction shapes fit below p R for this p; small_factors are
    the signed factors the multiplication by xi applies in double width. fp4_shift_xi (k = 24, 48): the
    Fp4 level's nu has small coefficients and xi = v (k = 24; omega = +-v and xi = +-w at k = 48), so
    the double-width levels multiply by nu, omega and xi with sums (tower.h's fp2w_mul_by_nu,
    fp4w_mul_by_xi, fp4w_mul_by_omega, fp8w_mul_by_xi); nu (signed) decides whether the
    Fp4 product's a0 b0 + nu a1 b1 is a plain sum (fp4_nu_plain)."""
    R = 2 ** (64 * limbs64)
    require(p < R, curve, "p fits its limbs")
    headroom = R // p
    fp2_mul = False
    beta_k = beta_add = None
    if k in (12, 24, 48) and beta is not None and beta < 0 and -beta <= 16:
        kk = -beta
        # the unreduced operand sums (< 2p) need 4p^2 < p R; k a1 b1 < k p^2 must be below p R
        fp2_mul = max(4, kk) * p < R
        if fp2_mul:
            beta_k = kk
            require(4 * p * p < p * R, curve, "Fp2 Karatsuba: (2p)^2 < p R")
            require(kk * p * p < p * R, curve, f"Fp2 Karatsuba: {kk} a1 b1 < {kk} p^2 < p R")
            require(2 * p * p < p * R, curve, "Fp2 Karatsuba: a0 b1 + a1 b0 < 2 p^2 < p R")
            _check_fp2_products(p, R, kk, curve)
    elif k == 24 and beta is not None and 0 < beta <= 16:
        # u^2 = k > 0: plain double-width sums; the square's (a0 + a1)(a0 + k a1) < 2 (k + 1) p^2
        fp2_mul = 2 * (beta + 1) * p <= R
        if fp2_mul:
            beta_add = beta
            require((beta + 1) * p * p < p * R, curve, f"Fp2 Karatsuba: a0 b0 + {beta} a1 b1 < {beta + 1} p^2 < p R")
            require(2 * (beta + 1) * p * p <= p * R, curve,
                    f"Fp2 squaring: (a0 + a1)(a0 + {beta} a1) < {2 * (beta + 1)} p^2 <= p R")
            _check_fp2_products_positive(p, R, beta, curve)
    # The tower on top of Fp (k = 6), of the lazy Fp2 product (k = 12), or of the double-width Fp4
    # level over it (k = 24, both signs of beta: the Fp2 products are in [0, p R), and the Fp4 level
    # combines them by sums and differences modulo p R only; k = 48 adds the Fp8 level, which does
    # the same over the Fp4 level's values): every stored double-width value is in [0, p R); a
    # modular sum's high half (< 2p) must fit in n words.
    if k == 12:
        tower = beta_k is not None
    elif k in (24, 48):
        tower = fp2_mul and fp4_shift_xi
    else:
        tower = k == 6
    tower = tower and 2 * p < R
    fp2_sqr_plain = fp2_mul and beta_k is not None and beta_k > 1 and (3 * beta_k + 1) * p <= R
    if fp2_sqr_plain:
        require((beta_k + 1) * p < R, curve, f"Fp2 squaring: a0 + {beta_k} (p - a1) < {beta_k + 1} p < R")
        require((3 * beta_k + 1) * p * p <= p * R, curve,
                f"Fp2 squaring: 2 ({beta_k} + 1) p^2 + ({beta_k} - 1) p^2 = {3 * beta_k + 1} p^2 <= p R")
    if tower:
        require(p * p < p * R, curve, "a product of reduced elements is below p R")
        require(2 * p < R, curve, "the high half of a sum modulo p R fits n words")
    wide_small = []
    if tower:
        # +-2 is one modular sum (a + a: templates' wide_times), dearer as a pass of products
        for f in sorted({abs(f) for f in small_factors if abs(f) >= 3}):
            if f < WIDE_SMALL_BOUND:
                _check_wide_small(p, R, f, curve)
                wide_small.append(f)
    fp4_nu_plain = False
    if tower and k == 24 and beta_add is not None and nu is not None and min(nu) >= 0:
        fp4_nu_plain = _fp4_nu_plain_fits(p, R, beta_add, nu, curve)
    fp4_plain_karatsuba = tower and k == 24 and beta_add is not None and 2 * (beta_add + 1) * p <= R
    if fp4_plain_karatsuba:
        _check_fp4_plain_karatsuba(p, R, beta_add, curve)
    fp3_plain_sums = tower and k == 6 and 16 * p <= R
    if fp3_plain_sums:
        _check_fp3_plain_sums(p, R, curve)
    fp2_operand_sums = tower and k == 12 and beta_k is not None and 4 * beta_k * p <= R
    if fp2_operand_sums:
        _check_fp2_operand_sums(p, R, beta_k, curve)
    return LazyReductionModel(fp2_mul=fp2_mul, beta_k=beta_k, tower=tower, headroom=headroom,
                              fp2_sqr_plain=fp2_sqr_plain, wide_small=tuple(wide_small),
                              wide_small_top=any(f * p >= R for f in wide_small), beta_add=beta_add,
                              fp4_nu_plain=fp4_nu_plain, fp4_plain_karatsuba=fp4_plain_karatsuba,
                              fp3_plain_sums=fp3_plain_sums,
                              fp2_operand_sums=fp2_operand_sums,
                              wide_quotient=_check_wide_quotient(p, R, max(wide_small), curve)
                              if wide_small and wide_small_steps(max(wide_small), True) >= WIDE_QUOTIENT_STEPS
                              else None)


def _unreduced_operand_samples(p: int, rng: random.Random) -> list[tuple[int, int, int, int]]:
    """Four operands below 2p (each a sum of two reduced elements, left unreduced): the extremes
    0, 1, p - 1 and 2p - 2 against the largest pair, then 64 random quadruples."""
    top = 2 * p - 2  # the largest sum of two reduced elements
    edge = (0, 1, p - 1, top)
    samples = [(x, y, top, top) for x in edge for y in edge]
    samples += [tuple(rng.randrange(2 * p - 1) for _ in range(4)) for _ in range(64)]
    return samples


def _check_fp2_operand_sums(p: int, R: int, k: int, curve: str) -> None:
    """fp2w_mul (u^2 = -k) on operands below 2p (fp2_operand_sums), on extreme and random ones: its
    operand sums fit n words, its products 2n words, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 is
    exact (it fits 2n words; only fp2w_sub_cross reads it), both terms of c0 = a0 b0 - k a1 b1
    (modulo p R) are below p R, and the result is the product modulo p. Then the cubic level's
    difference of c1 coefficients (fp2w_sub_cross) on reduced elements: plain, exact, below p R."""
    require(4 * p <= R and 4 * k * p <= R, curve, f"Fp2 operand sums: 4 p <= R and {4 * k} p <= R")
    for a0, a1, b0, b1 in _unreduced_operand_samples(p, random.Random(2010526 + k)):
        s, t = a0 + a1, b0 + b1
        require(s < R and t < R and s * t < R * R, curve, "Fp2 operand sums: the sums and their product fit")
        v0, v1 = a0 * b0, a1 * b1
        c1 = s * t - v0 - v1
        require(0 <= c1 < R * R, curve, "Fp2 operand sums: c1 is exact and fits 2n words")
        require(v0 < p * R and k * v1 < p * R, curve, f"Fp2 operand sums: a0 b0 and {k} a1 b1 below p R")
        c0 = (v0 - k * v1) % (p * R)
        require((c0 - (a0 * b0 - k * a1 * b1)) % p == 0 and (c1 - (a0 * b1 + a1 * b0)) % p == 0, curve,
                "Fp2 operand sums: the double-width coefficients are the product")
    _check_fp2_cross_differences(p, R, curve)


def _check_fp2_cross_differences(p: int, R: int, curve: str) -> None:
    """fp2w_sub_cross: for reduced Fp2 elements a_i, a_j, b_i, b_j, the c1 of fp2w_mul on the
    unreduced sums minus the c1 of a_i b_i and of a_j b_j (each c1 the exact a0 b1 + a1 b0 of its
    operands) is never negative, below p R, and the c1 of a_i b_j + a_j b_i."""
    rng = random.Random(2010527)
    edge = (0, 1, p - 1)
    samples = [(x, y, p - 1, p - 1, x, y, p - 1, p - 1) for x in edge for y in edge]
    samples += [tuple(rng.randrange(p) for _ in range(8)) for _ in range(64)]
    for ai0, ai1, aj0, aj1, bi0, bi1, bj0, bj1 in samples:
        s0, s1, u0, u1 = ai0 + aj0, ai1 + aj1, bi0 + bj0, bi1 + bj1
        x1 = (s0 + s1) * (u0 + u1) - s0 * u0 - s1 * u1
        step = x1 - (ai0 * bi1 + ai1 * bi0)
        d1 = step - (aj0 * bj1 + aj1 * bj0)
        require(x1 < R * R and step >= 0 and 0 <= d1 < p * R, curve,
                "Fp2 cross differences: c1 minus each partial c1 is plain")
        require(d1 == ai0 * bj1 + ai1 * bj0 + aj0 * bi1 + aj1 * bi0, curve,
                "Fp2 cross differences: the difference is the cross terms' c1")


def _check_fp3_plain_sums(p: int, R: int, curve: str) -> None:
    """The plain-sum shapes of k = 6 (fp3_plain_sums) on extreme and random operands: Fp3's
    Karatsuba on operands below 2p (sums of two reduced elements, left unreduced), whose operand
    sums (< 4p) fit n words and whose differences (a_i + a_j)(b_i + b_j) - a_i b_i - a_j b_j are
    exact, non-negative and below p R, so that the multiplication by xi and the sums modulo p R
    that follow take them; and the cyclotomic squaring's (a + b)^2 - a^2 - b^2 on reduced a, b."""
    require(16 * p <= R, curve, "Fp3 plain sums: (4p)^2 = 16 p^2 <= p R")
    rng = random.Random(2009615)
    for ai, aj, bi, bj in _unreduced_operand_samples(p, rng):
        s, u = ai + aj, bi + bj
        require(s < R and u < R, curve, "Fp3 plain sums: an operand sum (< 4p) fits n words")
        cross = s * u - ai * bi - aj * bj
        require(cross == ai * bj + aj * bi and 0 <= cross < p * R, curve,
                "Fp3 plain sums: (a_i + a_j)(b_i + b_j) - a_i b_i - a_j b_j is exact and below p R")
        require(ai * bi < p * R, curve, "Fp3 plain sums: a product of operands below 2p is below p R")
    for a, b in [(x, y) for x in (0, 1, p - 1) for y in (0, 1, p - 1)] + [(rng.randrange(p), rng.randrange(p)) for _ in range(32)]:
        require((a + b) ** 2 - a * a - b * b == 2 * a * b < p * R, curve,
                "cyclotomic squaring: (a + b)^2 - a^2 - b^2 = 2ab, exact and below p R")


def _fp4_nu_plain_fits(p: int, R: int, k: int, nu: tuple[int, int], curve: str) -> bool:
    """Whether the Fp4 Karatsuba's c0 = v0 + nu v1 (v0, v1 from the Fp2 products or squares with
    u^2 = k > 0, whose coefficients are exact integers below (k + 1) p^2 and 2 p^2) stays below p R
    as plain sums: c0 = v0.c0 + n0 v1.c0 + k n1 v1.c1 and c1 = v0.c1 + n1 v1.c0 + n0 v1.c1. When it
    does, it is checked on the extreme operands and on random ones."""
    n0, n1 = nu
    b0, b1 = (k + 1) * p * p, 2 * p * p
    if not (b0 + n0 * b0 + k * n1 * b1 <= p * R and b1 + n1 * b0 + n0 * b1 <= p * R):
        return False
    rng = random.Random(24 + k)
    edge = (0, 1, p - 1)
    samples = [(x0, x1, p - 1, p - 1) for x0 in edge for x1 in edge]
    samples += [tuple(rng.randrange(p) for _ in range(4)) for _ in range(32)]
    for a0, a1, c0, c1 in samples:
        # the largest coefficients the double-width Fp2 product and square give
        v = (a0 * c0 + k * a1 * c1, (a0 + a1) * (c0 + c1) - a0 * c0 - a1 * c1)
        sq = (a0 * a0 + k * a1 * a1, 2 * a0 * a1)
        for w0, w1 in (v, sq):
            r0 = w0 + n0 * w0 + k * n1 * w1
            r1 = w1 + n1 * w0 + n0 * w1
            require(0 <= r0 < p * R and 0 <= r1 < p * R, curve,
                    f"Fp4 product: v0 + nu v1 as plain sums (nu = {n0} + {n1} u, u^2 = {k}) below p R")
    return True


def _check_fp4_plain_karatsuba(p: int, R: int, k: int, curve: str) -> None:
    """The Fp4 Karatsuba on unreduced operand sums (fp4_plain_karatsuba, u^2 = k > 0), on extreme and
    random reduced operands: fp2w_mul and fp2w_sqr, run as the C runs them on the sums (coefficients
    below 2p), keep every intermediate within its words and return the exact integer coefficients;
    the differences v2 - v0 - v1 are never negative, are the cross terms, and lie below p R."""
    require(2 * (k + 1) * p <= R, curve, f"Fp4 plain Karatsuba: {2 * (k + 1)} p <= R")

    def fp2w_mul(a0: int, a1: int, b0: int, b1: int) -> tuple[int, int]:
        s, t = a0 + a1, b0 + b1
        require(s < R and t < R and s * t < R * R, curve, "Fp4 plain Karatsuba: fp2w_mul's sums and product fit")
        v0, v1 = a0 * b0, a1 * b1
        c0, c1 = v0 + k * v1, s * t - v0 - v1
        require(c0 < R * R and c1 >= 0, curve, "Fp4 plain Karatsuba: fp2w_mul's c0 fits, c1 is plain")
        return c0, c1

    def fp2w_sqr(a0: int, a1: int) -> tuple[int, int]:
        s, y = a0 + a1, a0 + k * a1
        require(s < R and y < R and 2 * a0 < R, curve, "Fp4 plain Karatsuba: fp2w_sqr's operands fit n words")
        q, c1 = s * y, 2 * a0 * a1
        require(q < R * R and k * c1 < R * R and (k + 1) * a0 * a1 <= q, curve,
                "Fp4 plain Karatsuba: fp2w_sqr's product fits and its difference is plain")
        return q - (k + 1) * a0 * a1, c1

    rng = random.Random(2404 + k)
    edge = (0, 1, p - 1)
    samples = [(x, y, p - 1, p - 1, x, y, p - 1, p - 1) for x in edge for y in edge]
    samples += [tuple(rng.randrange(p) for _ in range(8)) for _ in range(64)]
    for a00, a01, a10, a11, b00, b01, b10, b11 in samples:
        v0, v1 = fp2w_mul(a00, a01, b00, b01), fp2w_mul(a10, a11, b10, b11)
        v2 = fp2w_mul(a00 + a10, a01 + a11, b00 + b10, b01 + b11)
        cross = (a00 * b10 + a10 * b00 + k * (a01 * b11 + a11 * b01), a00 * b11 + a01 * b10 + a10 * b01 + a11 * b00)
        for i in (0, 1):
            step = v2[i] - v0[i]
            require(step >= 0 and step - v1[i] == cross[i] and 0 <= cross[i] < p * R, curve,
                    "Fp4 plain Karatsuba: v2 - v0 - v1 is plain, exact and below p R")
        w0, w1 = fp2w_sqr(a00, a01), fp2w_sqr(a10, a11)
        w2 = fp2w_sqr(a00 + a10, a01 + a11)
        square = (2 * (a00 * a10 + k * a01 * a11), 2 * (a00 * a11 + a01 * a10))
        for i in (0, 1):
            step = w2[i] - w0[i]
            require(step >= 0 and step - w1[i] == square[i] and 0 <= square[i] < p * R, curve,
                    "Fp4 plain Karatsuba: the square's v2 - v0 - v1 is plain, exact and below p R")
