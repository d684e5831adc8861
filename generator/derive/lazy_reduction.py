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
  * the modular sums: a + b < 2 p R must fit in 2n words plus the carry the code handles, and the
    high half of a sum (< 2p) must fit in n words: 2p < R.
  * the Fp2 square with two products (u^2 = -k, k > 1): c0 = (a0 + a1)(a0 + k (p - a1)) + (k - 1) a0 a1
    with every step a plain integer operation: a0 + a1 < 2p, a0 + k (p - a1) <= (k + 1) p - 1 < R,
    their product below 2 (k + 1) p^2, and c0 below (3k + 1) p^2, which must be at most p R; it is
    congruent to a0^2 - k a1^2 since (a0 + a1)(a0 - k a1) = a0^2 - k a1^2 - (k - 1) a0 a1. Without
    that room the square takes three products (a0^2 - k a1^2 modulo p R).
  * the multiplications by the small factors of xi in double width (fpw_mul_small_mod): k a, or
    k (p R - a) for -k a, in one pass of products; the product is below k p R and its high half
    below k p, which needs one more word when k p >= R (wide_small_top: BN254's 9 = xi0); the
    high half then comes below p by conditional subtractions of 2^j p, j below the bit length of
    k - 1 (k when negated), and the extra word ends at zero. Every factor 2 <= k < 2^32 is taken.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .checks import require


# fpw_mul_small_mod's factors: one word, with the product's extra word below it (k p < 2^64 R)
WIDE_SMALL_BOUND = 2**32


@dataclass(frozen=True)
class LazyReductionModel:
    """What fits in double width for one curve."""

    fp2_mul: bool          # Karatsuba in Fp2 with three products and two reductions (k = 12)
    beta_k: int | None     # k = -beta when fp2_mul holds
    tower: bool            # double-width arithmetic in every level of the tower (mod p R)
    headroom: int          # floor(R / p): how many multiples of p^2 fit below p R
    fp2_sqr_plain: bool = False  # the Fp2 square in two products with plain sums ((3k + 1) p <= R, k > 1)
    wide_small: tuple[int, ...] = ()  # the |factors| of xi (>= 2) that fpw_mul_small_mod takes
    wide_small_top: bool = False  # some factor has k p >= R: the high half of k a takes one more word


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
        require(0 <= s0 < p * R and 2 * a0 * a1 < p * R, curve, "Fp2 squaring: in [0, p R)")
        require((s0 - (a0 * a0 - k * a1 * a1)) % p == 0, curve, "Fp2 squaring: c0 is the square")
        if k > 1 and (3 * k + 1) * p <= R:
            y = a0 + k * (p - a1)
            q0 = (a0 + a1) * y + (k - 1) * a0 * a1
            require(a0 + a1 < 2 * p and y < R and (a0 + a1) * y < 2 * (k + 1) * p * p, curve,
                    "Fp2 squaring in two products: the operands and their product fit")
            require(0 <= q0 < (3 * k + 1) * p * p <= p * R, curve, "Fp2 squaring in two products: c0 in [0, p R)")
            require((q0 - (a0 * a0 - k * a1 * a1)) % p == 0, curve, "Fp2 squaring in two products: c0 is the square")


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


def derive_lazy_reduction(p: int, limbs64: int, k: int, beta: int | None, curve: str,
                          small_factors: tuple[int, ...] = ()) -> LazyReductionModel:
    """Derive (and check) which lazy-reduction shapes fit below p R for this p; small_factors are
    the signed factors the multiplication by xi applies in double width."""
    R = 2 ** (64 * limbs64)
    require(p < R, curve, "p fits its limbs")
    headroom = R // p
    fp2_mul = False
    beta_k = None
    if k == 12 and beta is not None and beta < 0 and -beta <= 16:
        kk = -beta
        # the unreduced operand sums (< 2p) need 4p^2 < p R; k a1 b1 < k p^2 must be below p R
        fp2_mul = max(4, kk) * p < R
        if fp2_mul:
            beta_k = kk
            require(4 * p * p < p * R, curve, "Fp2 Karatsuba: (2p)^2 < p R")
            require(kk * p * p < p * R, curve, f"Fp2 Karatsuba: {kk} a1 b1 < {kk} p^2 < p R")
            require(2 * p * p < p * R, curve, "Fp2 Karatsuba: a0 b1 + a1 b0 < 2 p^2 < p R")
            _check_fp2_products(p, R, kk, curve)
    # The tower on top of Fp (k = 6) or of the lazy Fp2 product (k = 12): every stored double-width
    # value is in [0, p R); a modular sum's high half (< 2p) must fit in n words. k = 24 has no
    # double-width Fp4 level yet (templates/c/tower.h.j2), so its tower reduces every product.
    tower = (fp2_mul if k == 12 else k == 6) and 2 * p < R
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
        for f in sorted({abs(f) for f in small_factors if abs(f) >= 2}):
            if f < WIDE_SMALL_BOUND:
                _check_wide_small(p, R, f, curve)
                wide_small.append(f)
    return LazyReductionModel(fp2_mul=fp2_mul, beta_k=beta_k, tower=tower, headroom=headroom,
                              fp2_sqr_plain=fp2_sqr_plain, wide_small=tuple(wide_small),
                              wide_small_top=any(f * p >= R for f in wide_small))
