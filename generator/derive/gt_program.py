"""The GT program of the final exponentiation's hard part and its cost model.

What it holds: the operations of a program on GT registers (``ExpByX``, ``PowSmall``,
``PowKarabina``, ``Conj``, ``MulGT``, ``Frob``; register 0 holds f after the easy part), the
builder that writes them (``Program``: small signed powers, Karabina powers, base-p expansions,
Straus and Bos–Coster multi-exponentiations), the cost model that weighs a program in
multiplications in GT (``program_cost``, ``exp_by_x_cost``, the weights below), exponent tracking
(``track_exponent``: the program run on integer exponents) and register allocation
(``allocate_registers``).

Who uses it: final_exponentiation.py, which derives the candidate programs and keeps the
cheapest, and hard_part_program.py, which compiles a program stated in a curve file; both import
this module and neither imports the other's internals.

What it may import: the standard library and derive's chains.py (addition chains) and checks.py
(``require``); nothing else of the generator.

Layer: derive.
"""

from __future__ import annotations

import functools
import heapq
from dataclasses import dataclass, field, replace
from math import gcd

from .chains import Chain, chain_for
from .checks import require

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
        return digits, compressed_cost(digits, self.k)


class Program:
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

    def new_register(self) -> int:
        """A register no operation has written yet."""
        self.nregs += 1
        return self.nregs - 1

    def mul(self, a: int, b: int) -> int:
        dst = self.new_register()
        self.ops.append(MulGT(dst, a, b))
        return dst

    def signed_power(self, src: int, e: int) -> int:
        """Register holding src^e for a small non-zero e (a cyclotomic chain, then a conjugation)."""
        reg = src
        if abs(e) > 1:
            reg = self.new_register()
            self.ops.append(PowSmall(reg, src, chain_for(abs(e), CYCLOTOMIC_SQR_COST, GT_MUL_COST, signed=True)))
        return self._conj_if(reg, e < 0)

    def _conj_if(self, reg: int, negative: bool) -> int:
        if not negative:
            return reg
        conj = self.new_register()
        self.ops.append(Conj(conj, reg))
        return conj

    def karabina_power(self, src: int, e: int) -> int:
        """Register holding src^e for |e| > 1 by PowKarabina on |e|, conjugated when e < 0."""
        assert self.seed is not None and abs(e) > 1
        digits, cost = self.seed.karabina(abs(e))
        reg = self.new_register()
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
            base_reg[j] = self.new_register()
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
                        reg = self.new_register()
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
                frob = self.new_register()
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
                        conjugates[reg] = self.new_register()
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
                    conjugates[reg] = self.new_register()
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
        dst = self.new_register()
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
    return tuple(min(binary, naf(e), key=lambda ds: compressed_cost(ds, k)))


def chain_cost(chain: Chain) -> float:
    """The cost model's weight of a chain of cyclotomic squarings and multiplications in GT."""
    return chain.squarings * CYCLOTOMIC_SQR_COST + chain.multiplications * GT_MUL_COST


def compressed_exp_digits(e: int, chain: Chain, curve: str, k: int) -> tuple[tuple[int, int], ...] | None:
    """The signed binary digits of e (binary or NAF, the cheaper) when Karabina's compressed
    squarings beat the chain at embedding degree k, else None."""
    digits = karabina_digits(e, k)
    require(sum(sign << position for position, sign in digits) == e, curve, "signed digits of |x| sum to |x|")
    return digits if compressed_cost(digits, k) < chain_cost(chain) else None


def decompressed_count(digits: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> int:
    """The powers a^(2^position) that Karabina's batch decompression recovers: one per digit above
    position 0 (a^(2^0) is the input itself, never compressed). The cost model and tower.h's
    gt_exp_by_x both read this count."""
    return sum(1 for position, _ in digits if position > 0)


def compressed_cost(digits: list[tuple[int, int]] | tuple[tuple[int, int], ...], k: int) -> float:
    """Top-position compressed squarings, one batched decompression per compressed power
    (decompressed_count), one batch inversion, and a multiplication per extra digit."""
    return (digits[-1][0] * COMPRESSED_SQR_COST + decompressed_count(digits) * DECOMPRESS_COST
            + batch_inversion_cost(k) + (len(digits) - 1) * GT_MUL_COST)


def exp_by_x_cost(chain: Chain, compressed: tuple[tuple[int, int], ...] | None, k: int) -> float:
    """The cost model's weight of one exponentiation by x, in multiplications in GT."""
    if compressed is not None:
        return compressed_cost(compressed, k)
    return chain_cost(chain)
