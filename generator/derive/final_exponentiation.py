"""The final exponentiation as a program, derived from the family polynomials and proved by
exponent tracking.

Easy part (k = 12: q = p^2; k = 6: q = p): f <- f^((q^3 - 1)(q + 1)) = frob_q(conj(f)/f) * (conj(f)/f);
k = 24: f <- f^((p^12 - 1)(p^4 + 1)), since p^24 - 1 = (p^12 - 1)(p^4 + 1) Phi_24(p).
After it f lies in the cyclotomic subgroup, where conj is the inverse and squaring is cheap.

Hard part: m * Phi_k(p) / r is expanded in base p as polynomials in x,
    m * Phi_k(p(x)) / r(x) = sum_i lambda_i(x) p(x)^i,      lambda_i in Z[x],
m being the least common denominator (3 for BLS12 as in Hayashida–Hayasaka–Teruya 2020/875,
1 for BN as in Scott et al. 2008; BW6 per curve), or the polynomial m(x) a curve file requires with
its key gt_exponent (its GT convention: BN254's 2x(6x^2 + 3x + 1) of Fuentes-Castaneda et al.,
BW6-761's 3(x^3 - x^2 + 1) of El Housni-Guillevic's Alg. 6), whose digits must then be integral. The program computes B_j = f^(x^j) by
repeated exponentiation by x, then g_i = prod_j B_j^(c_ij) with short chains of cyclotomic
squarings, and returns prod_i frob^i(g_i). Running the same program on integers (mul -> +,
cyclotomic square -> *2, frob^n -> *p^n, conj -> *(-1), exp-by-x -> *x) proves that it computes
f^(m Phi_k(p)/r) on the cyclotomic subgroup; gcd(m, r) = 1 is checked.

Factored hard part: the sum above recombines many powers of x with small coefficients (BLS12: 15
multiplications beside the exponentiations by x). When m Phi_k(p)/r - c factors over Q[x] for a
small constant c, the exponent can instead be applied one factor at a time, each factor written in
base p: f^(c + F_1 F_2 ... F_s) = f^c (((f^F_1)^F_2) ... )^F_s. For BLS12 with c = 3 the search
finds (x - 1)^2 (x + p) (x^2 + p^2 - 1), the form of Hayashida–Hayasaka–Teruya (eprint 2020/875,
as blst computes it): the same five exponentiations by x and 7 multiplications. The search tries
every grouping of the irreducible factors and keeps the cheapest program by the cost model below;
the program is proved by the same exponent tracking. For BLS24 (k = 24) the search finds m = 3 and
3 + (x - 1)^2 (x + p) (x^2 + p^2) (x^4 + p^4 - 1), the k = 24 analogue of the BLS12 form: nine
exponentiations by x. The irreducible factorizations over Q[x] (sympy, about a minute for the
degree-72 quotients of k = 24) are cached in ``poly_factor_cache/`` and re-verified on load: the
cached factors must multiply back to the polynomial, so a corrupted cache cannot change a result
(it can only make the search miss a grouping).
"""

from __future__ import annotations

import functools
import hashlib
import heapq
import json
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import gcd
from pathlib import Path

import sympy
from sympy.utilities.iterables import multiset_partitions

from .chains import Chain, chain_for
from .checks import require
from .families import X, cyclotomic

# Relative costs used to weigh chains on the cyclotomic subgroup (Granger–Scott squaring vs mul).
CYCLOTOMIC_SQR_COST = 0.55
GT_MUL_COST = 1.0
# Karabina's compressed squaring keeps 4 of the 6 coordinates: 6 of Granger–Scott's 9 squarings.
# Decompressing one element costs about 0.4 multiplications in GT once the inversions are batched,
# and the batch adds one inversion in the twist field: about 2 multiplications in GT at k = 12.
# That inversion is one Fp inversion at every k, while a multiplication in GT costs
# karatsuba_fp_muls(k) Fp multiplications (54 at k = 12, 18 at k = 6), so its weight in GT
# multiplications scales by 54 / karatsuba_fp_muls(k) (``batch_inversion_cost``): 6 at k = 6,
# 0.67 at k = 24. Measured in C (callgrind, x86_64-adx, 2026-12-04), an Fp inversion against a GT
# multiplication: BLS12-381 43.0K / 19.4K instructions = 2.2, BW6-761 97.1K / 20.0K = 4.9,
# BW6-633 77.6K / 14.0K = 5.5, BLS24-315 (its Fp4 inversion) 40.5K / 47.3K = 0.86. (The weight
# was 1.2 until then, which made one Karabina power of BW6-633 look cheaper than its chain while
# it cost 0.5% more per pairing.) At k = 6 BW6-633's exponentiation by its 32-bit x is cheaper
# without compression (callgrind: 6.5% fewer instructions in the final exponentiation), and
# BW6-761's, 64 bits long, stays compressed (10% fewer than without).
COMPRESSED_SQR_COST = CYCLOTOMIC_SQR_COST * 6 / 9
DECOMPRESS_COST = 0.4
BATCH_INVERSION_COST = 2.0
BATCH_INVERSION_COST_K = 12          # the embedding degree BATCH_INVERSION_COST was measured at
# A Frobenius power in GT: one multiplication by a constant per coefficient (about 0.3 of a
# multiplication in GT); conjugation is nearly free.
GT_FROB_COST = 0.3
# The multi-exponentiation methods a joint base-p expansion may use, with the text the form names.
MULTI_EXP_METHODS = {"straus": "Straus, NAF digits", "bos_coster": "Bos–Coster"}
POLY_FACTOR_CACHE = Path(__file__).resolve().parent / "poly_factor_cache"
# Polynomials of lower degree are factored directly (fast enough, nothing written to disk).
POLY_FACTOR_CACHE_MIN_DEGREE = 40
# The constants c tried in the factored form m Phi_k(p)/r = c + F_1 ... F_s: |c| <= this times m.
FACTORED_CONSTANT_RANGE = 4


@dataclass(frozen=True)
class ExpByX:
    dst: int
    src: int


@dataclass(frozen=True)
class PowSmall:
    """dst = src^e for a small public e > 1 (a chain of cyclotomic squarings)."""

    dst: int
    src: int
    chain: Chain


@dataclass(frozen=True)
class Conj:
    dst: int
    src: int


@dataclass(frozen=True)
class MulGT:
    dst: int
    a: int
    b: int


@dataclass(frozen=True)
class Frob:
    dst: int
    src: int
    n: int


@dataclass(frozen=True)
class PowKarabina:
    """dst = src^e for a public e > 1 the way a compressed gt_exp_by_x works: one run of Karabina's
    compressed squarings up to e's top digit, one batched decompression, a multiplication per
    further signed digit (digits: (position, sign), lowest first). cost: the cost model's weight."""

    dst: int
    src: int
    exponent: int
    digits: tuple[tuple[int, int], ...]
    cost: float = field(default=0.0, compare=False)


Op = ExpByX | PowSmall | PowKarabina | Conj | MulGT | Frob


@dataclass(frozen=True)
class SeedCosts:
    """What a program builder needs to weigh a power by x + c taken whole (PowKarabina) against
    a^x a^c: the seed, the embedding degree and the cost of one exponentiation by x."""

    x: int
    k: int
    exp_by_x_cost: float

    def karabina(self, e: int) -> tuple[tuple[tuple[int, int], ...], float]:
        """The cheaper signed digits of e for compressed squarings at this k, and their cost."""
        digits = karabina_digits(e, self.k)
        return digits, _compressed_cost(digits, self.k)


@dataclass(frozen=True)
class FinalExpModel:
    m: int                                # the multiple at the seed
    lambdas: tuple[tuple[int, ...], ...]  # lambda_i coefficients, lowest degree first
    ops: tuple[Op, ...]
    nregs: int
    result: int
    exp_by_x_chain: Chain                 # on |x|; conjugated after when x < 0
    x_negative: bool
    # When cheaper than the chain: a^|x| = prod a^(sign 2^position) over the NAF digits of |x|
    # (position, sign), lowest first, from one run of compressed squarings (Karabina).
    exp_by_x_compressed: tuple[tuple[int, int], ...] | None = None
    # The form the program evaluates, for the generated code's comment.
    form: str = ""
    # m as a polynomial in x (the curve's gt_exponent, or the cheapest constant), e.g. "2*x*(6*x^2 + 3*x + 1)".
    m_poly: str = ""

    @property
    def exp_by_x_decompressed(self) -> int:
        """How many powers the compressed exponentiation by x decompresses (tower.h's gt_exp_by_x)."""
        return decompressed_count(self.exp_by_x_compressed or ())

    @property
    def small_power_chains(self) -> tuple[Chain, ...]:
        """The distinct small exponents of the program, each with its chain (rendered once)."""
        chains: dict[int, Chain] = {}
        for op in self.ops:
            if isinstance(op, PowSmall):
                chains.setdefault(op.chain.exponent, op.chain)
        return tuple(chains[e] for e in sorted(chains))

    @property
    def exp_by_x_count(self) -> int:
        return sum(1 for op in self.ops if isinstance(op, ExpByX))

    @property
    def karabina_count(self) -> int:
        return sum(1 for op in self.ops if isinstance(op, PowKarabina))

    @property
    def karabina_powers(self) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
        """The distinct (e, digits) of the program's PowKarabina operations (tower.h renders one
        gt_pow_karabina_<e> each)."""
        powers: dict[int, tuple[tuple[int, int], ...]] = {}
        for op in self.ops:
            if isinstance(op, PowKarabina):
                powers.setdefault(op.exponent, op.digits)
        return tuple(sorted(powers.items()))


def _phi_over_r(p_p: sympy.Poly, r_p: sympy.Poly, k: int) -> sympy.Poly:
    """Phi_k(p(x)) / r(x) as a polynomial in x (over Q)."""
    phi = sympy.Poly(cyclotomic(k, sympy.Symbol("P")), sympy.Symbol("P"))
    phi_of_p = sympy.Poly(0, X, domain="QQ")
    for (power,), coeff in phi.terms():
        phi_of_p += p_p**power * coeff
    quotient, remainder = phi_of_p.div(r_p)
    assert remainder.is_zero, "Phi_k(p(x)) is divisible by r(x)"
    return quotient


def _base_p_digits(poly: sympy.Poly, p_p: sympy.Poly) -> list[sympy.Poly]:
    """poly = sum_i digit_i p^i with deg digit_i < deg p (over Q)."""
    digits = []
    rest = poly
    while not rest.is_zero:
        rest, digit = rest.div(p_p)
        digits.append(digit)
    return digits


def hard_part_lambdas(p_poly: sympy.Expr, r_poly: sympy.Expr, k: int) -> tuple[int, list[list[int]]]:
    """m and the integer coefficients of lambda_i with m Phi_k(p)/r = sum lambda_i p^i, m the
    least common denominator of the base-p digits of Phi_k(p)/r (the cheapest constant m)."""
    p_p = sympy.Poly(p_poly, X, domain="QQ")
    digits = _base_p_digits(_phi_over_r(p_p, sympy.Poly(r_poly, X, domain="QQ"), k), p_p)
    denominators = [sympy.Rational(c).q for d in digits for c in d.all_coeffs()]
    m = int(sympy.ilcm(*denominators)) if denominators else 1
    return m, _integer_digits(digits, m)


def _integer_digits(digits: list[sympy.Poly], scale: sympy.Expr | int) -> list[list[int]]:
    """The coefficients (lowest degree first) of scale * digit for each digit, all integers."""
    out = []
    for d in digits:
        coeffs = sympy.Poly(d.as_expr() * scale, X, domain="QQ").all_coeffs() if not d.is_zero else [0]
        out.append([int(c) for c in reversed(coeffs)])
    return out


def required_lambdas(p_poly: sympy.Expr, r_poly: sympy.Expr, k: int, m_poly: sympy.Expr,
                     curve: str) -> list[list[int]]:
    """The base-p digits of m(x) Phi_k(p)/r for a required m(x) (the curve file's gt_exponent), which
    must be polynomials in x with integer coefficients."""
    p_p = sympy.Poly(p_poly, X, domain="QQ")
    quotient = _phi_over_r(p_p, sympy.Poly(r_poly, X, domain="QQ"), k)
    digits = _base_p_digits(sympy.Poly(quotient.as_expr() * m_poly, X, domain="QQ"), p_p)
    integral = all(sympy.Rational(c).q == 1 for d in digits for c in d.all_coeffs())
    natural, _ = hard_part_lambdas(p_poly, r_poly, k)
    require(integral, curve, f"gt_exponent m(x) = {m_poly}: the base-p digits of m(x) Phi_{k}(p)/r must have "
            f"integer coefficients (m(x) a multiple of {natural} works)")
    return _integer_digits(digits, 1)


class _Program:
    """A hard-part program under construction: register 0 holds f (after the easy part)."""

    def __init__(self, joint: bool = False, scaled: bool = False, method: str = "straus",
                 seed: SeedCosts | None = None) -> None:
        self.ops: list[Op] = []
        self.nregs = 1
        # seed: when given, a power by x + c may be taken whole by compressed squarings (power_x_plus).
        self.seed = seed
        # joint: each base-p expansion is one multi-exponentiation instead of a product of separate
        # small powers, by method "straus" (joint_power) or "bos_coster" (bos_coster_power).
        self.joint = joint
        assert method in MULTI_EXP_METHODS
        self.method = method
        # scaled: the bases carry the common factor of each power of x (see column_scales).
        self.scaled = scaled

    def _new(self) -> int:
        self.nregs += 1
        return self.nregs - 1

    def mul(self, a: int, b: int) -> int:
        dst = self._new()
        self.ops.append(MulGT(dst, a, b))
        return dst

    def signed_power(self, src: int, e: int) -> int:
        """Register holding src^e for a small non-zero e (a cyclotomic chain, then a conjugation)."""
        reg = src
        if abs(e) > 1:
            reg = self._new()
            self.ops.append(PowSmall(reg, src, chain_for(abs(e), CYCLOTOMIC_SQR_COST, GT_MUL_COST, signed=True)))
        return self._conj_if(reg, e < 0)

    def _conj_if(self, reg: int, negative: bool) -> int:
        if not negative:
            return reg
        conj = self._new()
        self.ops.append(Conj(conj, reg))
        return conj

    def karabina_power(self, src: int, e: int) -> int:
        """Register holding src^e for |e| > 1 by PowKarabina on |e|, conjugated when e < 0."""
        assert self.seed is not None and abs(e) > 1
        digits, cost = self.seed.karabina(abs(e))
        reg = self._new()
        self.ops.append(PowKarabina(reg, src, abs(e), digits, cost))
        return self._conj_if(reg, e < 0)

    def x_plus_split_cost(self, c: int) -> float:
        """The cost of src^x times src^c."""
        cost = (self.seed.exp_by_x_cost if self.seed else 0.0) + (GT_MUL_COST if c else 0.0)
        if abs(c) > 1:
            cost += chain_cost(chain_for(abs(c), CYCLOTOMIC_SQR_COST, GT_MUL_COST, signed=True))
        return cost

    def power_x_plus(self, src: int, c: int) -> int:
        """Register holding src^(x + c): src^x times src^c, or, when the cost model rates it
        cheaper, one PowKarabina by |x + c| (conjugated when x + c < 0): where |x + c| has fewer
        signed digits than |x| (BLS24-315's x - 1 = -0xbfd00000: 4 against 5), the digits' products
        are saved as well as the multiplication by src^c."""
        if self.seed is not None:
            e = self.seed.x + c
            if abs(e) > 1 and self.seed.karabina(abs(e))[1] < self.x_plus_split_cost(c):
                return self.karabina_power(src, e)
        return self.base_p(src, [[c, 1]])

    def base_p(self, src: int, lambdas: list[list[int]]) -> int:
        """Register holding src^(sum_i lambda_i(x) p^i): B_j = src^(x^j) by repeated
        exponentiation by x, g_i = prod_j B_j^(c_ij), result prod_i frob^i(g_i). Scaled: B_j =
        src^(S_j x^j) with S_j the common factor of the coefficients of x^j (column_scales)."""
        max_deg = max(len(c) for c in lambdas) - 1
        steps = [1] * (max_deg + 1)
        scales = column_scales(lambdas) if self.scaled else None
        if scales is not None:
            steps, lambdas = scales
        base_reg = {0: src}
        for j in range(1, max_deg + 1):
            base_reg[j] = self._new()
            self.ops.append(ExpByX(base_reg[j], base_reg[j - 1]))
            if steps[j] != 1:
                base_reg[j] = self.signed_power(base_reg[j], steps[j])
        if self.joint:
            terms = []
            for i, coeffs in enumerate(lambdas):
                for j, c in enumerate(coeffs):
                    if c == 0:
                        continue
                    reg = base_reg[j]
                    if i:
                        reg = self._new()
                        self.ops.append(Frob(reg, base_reg[j], i))
                    terms.append((reg, c))
            if self.method == "bos_coster":
                return self.bos_coster_power(terms)
            return self.joint_power(terms)
        powers: dict[tuple[int, int], int] = {}

        def power(j: int, e: int) -> int:
            if (j, e) not in powers:
                powers[(j, e)] = self.signed_power(base_reg[j], e)
            return powers[(j, e)]

        result: int | None = None
        for i, coeffs in enumerate(lambdas):
            acc: int | None = None
            for j, c in enumerate(coeffs):
                if c == 0:
                    continue
                reg = power(j, c)
                acc = reg if acc is None else self.mul(acc, reg)
            if acc is None:
                continue
            if i:
                frob = self._new()
                self.ops.append(Frob(frob, acc, i))
                acc = frob
            result = acc if result is None else self.mul(result, acc)
        assert result is not None
        return result

    def joint_power(self, terms: list[tuple[int, int]]) -> int:
        """Register holding prod reg^c over (reg, c) with c != 0, by Straus's method: one run
        of cyclotomic squarings shared by all terms, reading the NAF digits of every |c| from
        the top, so the squarings are paid once (the longest |c|), the multiplications once per
        non-zero digit."""
        digits: dict[int, list[tuple[int, int]]] = {}
        for reg, c in terms:
            for position, sign in naf(abs(c)):
                digits.setdefault(position, []).append((reg, sign if c > 0 else -sign))
        conjugates: dict[int, int] = {}
        acc: int | None = None
        pending = 0
        for position in range(max(digits), -1, -1):
            if acc is not None:
                pending += 1
            for reg, sign in digits.get(position, ()):
                if pending:
                    acc = self._square_n(acc, pending)
                    pending = 0
                if sign < 0:
                    if reg not in conjugates:
                        conjugates[reg] = self._new()
                        self.ops.append(Conj(conjugates[reg], reg))
                    reg = conjugates[reg]
                acc = reg if acc is None else self.mul(acc, reg)
        assert acc is not None
        return self._square_n(acc, pending) if pending else acc

    def bos_coster_power(self, terms: list[tuple[int, int]]) -> int:
        """Register holding prod reg^c over (reg, c) with c != 0, by Bos–Coster's method: while
        two terms remain, the two largest |c1| >= |c2| become (reg1 reg2)^|c2| and reg1^(|c1| - |c2|),
        one multiplication each; the last term left is one small power. Many bases with
        coefficients of similar size (BW6's 18 terms up to 492) need no squarings at all, where
        Straus pays one run of squarings and a multiplication per non-zero NAF digit."""
        heap: list[tuple[int, int, int]] = []
        conjugates: dict[int, int] = {}
        for order, (reg, c) in enumerate(terms):
            if c < 0:
                if reg not in conjugates:
                    conjugates[reg] = self._new()
                    self.ops.append(Conj(conjugates[reg], reg))
                reg = conjugates[reg]
            heap.append((-abs(c), order, reg))
        heapq.heapify(heap)
        order = len(terms)
        while True:
            big, _, reg1 = heapq.heappop(heap)
            if not heap:
                return self.signed_power(reg1, -big)
            second, _, reg2 = heapq.heappop(heap)
            heapq.heappush(heap, (second, order, self.mul(reg1, reg2)))
            order += 1
            if big < second:
                heapq.heappush(heap, (big - second, order, reg1))
                order += 1

    def _square_n(self, src: int, n: int) -> int:
        dst = self._new()
        self.ops.append(PowSmall(dst, src, chain_for(2**n, CYCLOTOMIC_SQR_COST, GT_MUL_COST, signed=True)))
        return dst


def column_scales(lambdas: list[list[int]]) -> tuple[list[int], list[list[int]]] | None:
    """(steps s_j, lambdas with column j divided by S_j = s_1 ... s_j), S_j the gcd of the
    coefficients of x^j whenever S_(j-1) divides it: the bases B_j = B_(j-1)^(x s_j) = f^(S_j x^j)
    then meet small coefficients (FKR's BN hard part: 12x^3 ... becomes B_3 = f^(12 x^3)).
    None when some column's gcd is not a multiple of the previous scale."""
    max_deg = max(len(c) for c in lambdas) - 1
    steps, scale, totals = [1], 1, [1]
    for j in range(1, max_deg + 1):
        g = 0
        for coeffs in lambdas:
            if j < len(coeffs):
                g = gcd(g, coeffs[j])
        if g and g % scale:
            return None
        new = g if g else scale
        steps.append(new // scale)
        scale = new
        totals.append(scale)
    return steps, [[c // totals[j] for j, c in enumerate(coeffs)] for coeffs in lambdas]


def allocate_registers(ops: list[Op], result: int) -> tuple[list[Op], int, int]:
    """The same program on as few GT registers as its live values need: a register is reused
    once the value it held has had its last read (never as the destination of the op that
    reads it last, so no C call sees its output alias an input). Register 0 stays the input."""
    def sources(op: Op) -> tuple[int, ...]:
        return (op.a, op.b) if isinstance(op, MulGT) else (op.src,)

    last_read: dict[int, int] = {result: len(ops)}
    for k, op in enumerate(ops):
        for reg in sources(op):
            last_read[reg] = max(last_read.get(reg, -1), k)
    physical = {0: 0}
    free: list[int] = []
    nregs = 1
    out: list[Op] = []
    for k, op in enumerate(ops):
        mapped = {reg: physical[reg] for reg in sources(op)}
        if free:
            dst = heapq.heappop(free)
        else:
            dst, nregs = nregs, nregs + 1
        physical[op.dst] = dst
        if isinstance(op, MulGT):
            out.append(replace(op, dst=dst, a=mapped[op.a], b=mapped[op.b]))
        else:
            out.append(replace(op, dst=dst, src=mapped[op.src]))
        for reg in set(sources(op)):
            if last_read[reg] == k:
                heapq.heappush(free, physical[reg])
        if last_read.get(op.dst, -1) < k:       # a value nobody reads
            heapq.heappush(free, dst)
    return out, nregs, physical[result]


def _build_program(lambdas: list[list[int]], joint: bool = False, scaled: bool = False,
                   method: str = "straus") -> tuple[list[Op], int, int]:
    """The program of the base-p expansion sum lambda_i(x) p^i, from f in register 0."""
    program = _Program(joint, scaled, method)
    result = program.base_p(0, lambdas)
    return program.ops, program.nregs, result


def _build_factored_program(constant: int, factors: list[list[list[int]]], joint: bool = False,
                            scaled: bool = False, method: str = "straus",
                            seed: SeedCosts | None = None) -> tuple[list[Op], int, int]:
    """The program of f^(c + F_1 ... F_s), each F written in base p (lambda lists); a factor
    x + c alone goes through power_x_plus when the seed's costs are given."""
    program = _Program(joint, scaled, method, seed)
    reg = 0
    for lambdas in factors:
        if seed is not None and len(lambdas) == 1 and len(lambdas[0]) == 2 and lambdas[0][1] == 1:
            reg = program.power_x_plus(reg, lambdas[0][0])
        else:
            reg = program.base_p(reg, lambdas)
    if constant:
        reg = program.mul(reg, program.signed_power(0, constant))
    return program.ops, program.nregs, reg


def describe_base_p(lambdas: list[list[int]]) -> str:
    """sum_i lambda_i(x) p^i as text, e.g. "x^2 - 1 + p^2"."""
    terms: list[tuple[int, str]] = []
    for i, coeffs in enumerate(lambdas):
        for j, c in enumerate(coeffs):
            if c:
                monomial = " ".join(part for part in (
                    "" if j == 0 else ("x" if j == 1 else f"x^{j}"),
                    "" if i == 0 else ("p" if i == 1 else f"p^{i}")) if part)
                terms.append((c, monomial))
    text = ""
    for c, monomial in terms:
        size = "" if abs(c) == 1 and monomial else str(abs(c))
        body = " ".join(part for part in (size, monomial) if part)
        text += ("- " if c < 0 else "+ ") + body + " " if text else ("-" if c < 0 else "") + body + " "
    return text.strip()


def program_cost(ops: list[Op] | tuple[Op, ...], exp_by_x_cost: float) -> float:
    """The cost model's weight of a program, in multiplications in GT."""
    total = 0.0
    for op in ops:
        if isinstance(op, ExpByX):
            total += exp_by_x_cost
        elif isinstance(op, PowSmall):
            total += chain_cost(op.chain)
        elif isinstance(op, PowKarabina):
            total += op.cost
        elif isinstance(op, MulGT):
            total += GT_MUL_COST
        elif isinstance(op, Frob):
            total += GT_FROB_COST
    return total


def _primitive_lambdas(digits: list[sympy.Poly]) -> tuple[Fraction, list[list[int]]]:
    """(content, integer lambdas) with digits = content * lambdas and the lambdas coprime."""
    coeffs = [[Fraction(int(sympy.Rational(c).p), int(sympy.Rational(c).q)) for c in reversed(d.all_coeffs())]
              for d in digits]
    flat = [c for d in coeffs for c in d if c]
    den = 1
    for c in flat:
        den = den * c.denominator // gcd(den, c.denominator)
    num = 0
    for c in flat:
        num = gcd(num, int(c * den))
    content = Fraction(num, den)
    return content, [[int(c / content) for c in d] for d in coeffs]


def factored_forms(p_poly: sympy.Expr, r_poly: sympy.Expr, k: int, m: sympy.Expr | int,
                   bound: int | None = None) -> list[tuple[int, list[list[list[int]]]]]:
    """Every (c, base-p lambdas of each F_i) with m Phi_k(p)/r = c + prod F_i over Z[x] and
    |c| <= bound (FACTORED_CONSTANT_RANGE m for a constant m), over all groupings of the
    irreducible factors of m Phi_k(p)/r - c into F_i; m may be a polynomial in x."""
    p_p = sympy.Poly(p_poly, X, domain="QQ")
    quotient = sympy.Poly(_phi_over_r(p_p, sympy.Poly(r_poly, X, domain="QQ"), k).as_expr() * m, X, domain="QQ")
    forms = []
    if bound is None:
        bound = FACTORED_CONSTANT_RANGE * int(m)
    for c in range(-bound, bound + 1):
        rest = quotient - c
        if rest.is_zero:
            continue
        content, irreducible = factor_list_cached(rest)
        items = [f for f, mult in irreducible for _ in range(mult)]
        if len(items) < 2:
            continue
        for partition in multiset_partitions(list(range(len(items)))):
            total = Fraction(int(sympy.Rational(content).p), int(sympy.Rational(content).q))
            lambdas = []
            for block in partition:
                poly = sympy.Poly(sympy.Mul(*(items[i] for i in block)), X, domain="QQ")
                factor_content, factor_lambdas = _primitive_lambdas(_base_p_digits(poly, p_p))
                total *= factor_content
                lambdas.append(factor_lambdas)
            if total == -1:
                lambdas[0] = [[-c for c in d] for d in lambdas[0]]
            elif total != 1:
                continue
            forms.append((c, lambdas))
    return forms


def _coeff_text(poly: sympy.Poly) -> list[str]:
    return [str(sympy.Rational(c)) for c in poly.all_coeffs()]


def factor_list_cached(poly: sympy.Poly) -> tuple[sympy.Expr, list[tuple[sympy.Expr, int]]]:
    """sympy.factor_list of a polynomial in x; for degrees >= POLY_FACTOR_CACHE_MIN_DEGREE through
    poly_factor_cache/, whose entries are used only when content * prod f_i^e_i equals poly."""
    if poly.degree() < POLY_FACTOR_CACHE_MIN_DEGREE:
        return sympy.factor_list(poly.as_expr(), X)
    text = _coeff_text(poly)
    path = POLY_FACTOR_CACHE / f"{hashlib.sha256(' '.join(text).encode()).hexdigest()[:24]}.json"
    if path.exists():
        data = json.loads(path.read_text())
        content = sympy.Rational(data["content"])
        factors = [(sympy.Poly([sympy.Rational(c) for c in f], X, domain="QQ"), int(e)) for f, e in data["factors"]]
        product = sympy.Poly(content, X, domain="QQ")
        for f, e in factors:
            product *= f**e
        if data["poly"] == text and product == poly:
            return content, [(f.as_expr(), e) for f, e in factors]
    content, irreducible = sympy.factor_list(poly.as_expr(), X)
    POLY_FACTOR_CACHE.mkdir(exist_ok=True)
    path.write_text(json.dumps({
        "poly": text, "content": str(content),
        "factors": [[_coeff_text(sympy.Poly(f, X, domain="QQ")), e] for f, e in irreducible],
    }, indent=1) + "\n")
    return content, irreducible


def track_exponent(ops: tuple[Op, ...], nregs: int, result: int, x: int, p: int, modulus: int) -> int:
    """Run the program on exponents modulo |GT-cyclotomic order| = Phi_k(p)."""
    regs = [0] * nregs
    regs[0] = 1
    for op in ops:
        if isinstance(op, ExpByX):
            regs[op.dst] = regs[op.src] * x % modulus
        elif isinstance(op, PowSmall):
            regs[op.dst] = regs[op.src] * op.chain.exponent % modulus
        elif isinstance(op, PowKarabina):
            regs[op.dst] = regs[op.src] * op.exponent % modulus
        elif isinstance(op, Conj):
            regs[op.dst] = -regs[op.src] % modulus
        elif isinstance(op, MulGT):
            regs[op.dst] = (regs[op.a] + regs[op.b]) % modulus
        else:
            regs[op.dst] = regs[op.src] * pow(p, op.n, modulus) % modulus
    return regs[result]


def derive_final_exponentiation(p_poly: sympy.Expr, r_poly: sympy.Expr, k: int, x: int, p: int, r: int,
                                curve: str, m_poly: sympy.Expr | None = None,
                                hard_part: str | None = None) -> FinalExpModel:
    """The cheapest hard-part program for f^(m Phi_k(p)/r), proved by exponent tracking. m is the
    required m(x) when given (a curve's GT convention, its gt_exponent), else the cheapest constant.
    hard_part: a program the curve file states (hard_part_program.py), a candidate beside the
    derived ones once exponent tracking proves it computes the same power."""
    natural, lambdas = hard_part_lambdas(p_poly, r_poly, k)
    if m_poly is None:
        m_poly = sympy.Integer(natural)
    else:
        lambdas = required_lambdas(p_poly, r_poly, k, m_poly, curve)
    m_value = sympy.Poly(m_poly, X).eval(x)
    require(m_value.is_integer and m_value != 0, curve, f"gt_exponent m(x) = {m_poly} is a non-zero integer at the seed")
    m = int(m_value)
    require(gcd(m, r) == 1, curve, f"gt_exponent m(x) = {m_poly}: gcd(m, r) = 1, so the pairing stays non-degenerate")
    phi = cyclotomic(k, p)
    # The integer identity behind the program, at this seed.
    total = sum(sum(c * x**j for j, c in enumerate(coeffs)) * p**i for i, coeffs in enumerate(lambdas))
    require(total == m * (phi // r), curve, "sum lambda_i(x) p^i = m Phi_k(p) / r")
    exp_chain = chain_for(abs(x), CYCLOTOMIC_SQR_COST, GT_MUL_COST, signed=True)
    compressed = compressed_exp_digits(abs(x), exp_chain, curve, k)
    exp_cost = exp_by_x_cost(exp_chain, compressed, k)
    lambda_form = f"sum lambda_i(x) p^i, lambda_i coefficients lowest degree first: {tuple(tuple(c) for c in lambdas)}"
    variants = [(joint, scaled, method) for scaled in (False, True) for joint in (False, True)
                for method in (MULTI_EXP_METHODS if joint else ("straus",))]
    candidates = [(_build_program(lambdas, *v), lambda_form, v) for v in variants]
    seed = SeedCosts(x, k, exp_cost)
    for c, factor_lambdas in factored_forms(p_poly, r_poly, k, m_poly, FACTORED_CONSTANT_RANGE * natural):
        form = f"{c} + " + " ".join(f"({describe_base_p(f)})" for f in factor_lambdas)
        candidates += [(_build_factored_program(c, factor_lambdas, *v, seed=seed), form, v) for v in variants]
    if hard_part is not None:
        candidates.append((_stated_program(hard_part, x, p, k, m, phi, r, curve, exp_cost), _stated_form(hard_part),
                           (False, False, "straus")))
    # The cheapest by the cost model; min keeps the first built on a tie (the plain base-p program).
    (ops, _, result), form, (joint, scaled, method) = min(candidates, key=lambda cand: program_cost(cand[0][0], exp_cost))
    if scaled:
        form += "; the bases f^(S_j x^j) carry each power of x's common factor S_j"
    if joint:
        form += "; each base-p expansion as one multi-exponentiation (" + MULTI_EXP_METHODS[method] + ")"
    ops, nregs, result = allocate_registers(ops, result)
    for op in ops:
        if isinstance(op, PowSmall):
            op.chain.verify()
    tracked = track_exponent(tuple(ops), nregs, result, x, p, phi)
    require(tracked == m * (phi // r) % phi, curve, "exponent tracking: the program computes f^(m Phi_k(p)/r)")
    return FinalExpModel(m=m, m_poly=str(sympy.factor(m_poly)).replace("**", "^"), lambdas=tuple(tuple(c) for c in lambdas), ops=tuple(ops), nregs=nregs,
                         result=result, exp_by_x_chain=exp_chain, x_negative=x < 0,
                         exp_by_x_compressed=compressed, form=form)


def _stated_program(text: str, x: int, p: int, k: int, m: int, phi: int, r: int, curve: str,
                    exp_cost: float) -> tuple[list[Op], int, int]:
    """The curve file's hard_part compiled, and proved before it may compete: exponent tracking
    must give m Phi_k(p)/r modulo Phi_k(p), the same power as every derived candidate."""
    from .hard_part_program import compile_hard_part

    ops, nregs, result = compile_hard_part(text, x, k, curve, exp_cost)
    tracked = track_exponent(tuple(ops), nregs, result, x, p, phi)
    require(tracked == m * (phi // r) % phi, curve,
            f"the curve file's hard_part computes f^(m Phi_{k}(p)/r) with m = {m} (exponent tracking)")
    return ops, nregs, result


def _stated_form(text: str) -> str:
    """The stated program's lines, comments dropped, for the generated code's comment."""
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    return "the curve file's hard_part program: " + "; ".join(line for line in lines if line)


def naf(e: int) -> list[tuple[int, int]]:
    """The non-zero digits (position, sign) of the non-adjacent form of e > 0, lowest first."""
    digits = []
    position = 0
    while e:
        if e & 1:
            sign = 2 - (e & 3)          # 1 when e = 1 mod 4, -1 when e = 3 mod 4
            digits.append((position, sign))
            e -= sign
        e >>= 1
        position += 1
    return digits


def karatsuba_fp_muls(k: int) -> int:
    """Fp multiplications of one multiplication in Fp^k built of quadratic (Karatsuba: 3) and cubic
    (6) levels: 18 at k = 6, 54 at k = 12, 162 at k = 24."""
    count = 1
    while k % 2 == 0:
        k, count = k // 2, count * 3
    while k % 3 == 0:
        k, count = k // 3, count * 6
    assert k == 1, "k = 2^a 3^b"
    return count


def batch_inversion_cost(k: int) -> float:
    """The batch decompression's one inversion in the twist field, in multiplications in GT at
    embedding degree k (an Fp inversion's fixed cost against a GT multiplication of k's size)."""
    return BATCH_INVERSION_COST * karatsuba_fp_muls(BATCH_INVERSION_COST_K) / karatsuba_fp_muls(k)


@functools.lru_cache(maxsize=None)
def karabina_digits(e: int, k: int) -> tuple[tuple[int, int], ...]:
    """The signed binary digits (position, sign) of e > 0, binary or NAF, whichever Karabina's
    compressed squarings at embedding degree k take more cheaply, lowest first."""
    binary = [(i, 1) for i in range(e.bit_length()) if e >> i & 1]
    return tuple(min(binary, naf(e), key=lambda ds: _compressed_cost(ds, k)))


def chain_cost(chain: Chain) -> float:
    """The cost model's weight of a chain of cyclotomic squarings and multiplications in GT."""
    return chain.squarings * CYCLOTOMIC_SQR_COST + chain.multiplications * GT_MUL_COST


def compressed_exp_digits(e: int, chain: Chain, curve: str, k: int) -> tuple[tuple[int, int], ...] | None:
    """The signed binary digits of e (binary or NAF, the cheaper) when Karabina's compressed
    squarings beat the chain at embedding degree k, else None."""
    digits = karabina_digits(e, k)
    require(sum(sign << position for position, sign in digits) == e, curve, "signed digits of |x| sum to |x|")
    return digits if _compressed_cost(digits, k) < chain_cost(chain) else None


def decompressed_count(digits: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> int:
    """The powers a^(2^position) that Karabina's batch decompression recovers: one per digit above
    position 0 (a^(2^0) is the input itself, never compressed). The cost model and tower.h's
    gt_exp_by_x both read this count."""
    return sum(1 for position, _ in digits if position > 0)


def _compressed_cost(digits: list[tuple[int, int]] | tuple[tuple[int, int], ...], k: int) -> float:
    """Top-position compressed squarings, one batched decompression per compressed power
    (decompressed_count), one batch inversion, and a multiplication per extra digit."""
    return (digits[-1][0] * COMPRESSED_SQR_COST + decompressed_count(digits) * DECOMPRESS_COST
            + batch_inversion_cost(k) + (len(digits) - 1) * GT_MUL_COST)


def exp_by_x_cost(chain: Chain, compressed: tuple[tuple[int, int], ...] | None, k: int) -> float:
    """The cost model's weight of one exponentiation by x, in multiplications in GT."""
    if compressed is not None:
        return _compressed_cost(compressed, k)
    return chain_cost(chain)
