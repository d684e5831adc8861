"""The final exponentiation as a program, derived from the family polynomials and proved by
exponent tracking.

Easy part (k = 12: q = p^2; k = 6: q = p): f <- f^((q^3 - 1)(q + 1)) = frob_q(conj(f)/f) * (conj(f)/f).
After it f lies in the cyclotomic subgroup, where conj is the inverse and squaring is cheap.

Hard part: m * Phi_k(p) / r is expanded in base p as polynomials in x,
    m * Phi_k(p(x)) / r(x) = sum_i lambda_i(x) p(x)^i,      lambda_i in Z[x],
m being the least common denominator (3 for BLS12 as in Hayashida–Hayasaka–Teruya 2020/875,
1 for BN as in Scott et al. 2008; BW6 per curve). The program computes B_j = f^(x^j) by
repeated exponentiation by x, then g_i = prod_j B_j^(c_ij) with short chains of cyclotomic
squarings, and returns prod_i frob^i(g_i). Running the same program on integers (mul -> +,
cyclotomic square -> *2, frob^n -> *p^n, conj -> *(-1), exp-by-x -> *x) proves that it computes
f^(m Phi_k(p)/r) on the cyclotomic subgroup; gcd(m, r) = 1 is checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

import sympy

from .chains import Chain, chain_for
from .checks import require
from .families import X, cyclotomic

# Relative costs used to weigh chains on the cyclotomic subgroup (Granger–Scott squaring vs mul).
CYCLOTOMIC_SQR_COST = 0.55
GT_MUL_COST = 1.0
# Karabina's compressed squaring keeps 4 of the 6 coordinates: 6 of Granger–Scott's 9 squarings.
# Decompressing one element costs about 0.4 multiplications in GT once the inversions are batched,
# and the batch adds one inversion in the twist field (about 1.2 multiplications).
COMPRESSED_SQR_COST = CYCLOTOMIC_SQR_COST * 6 / 9
DECOMPRESS_COST = 0.4
BATCH_INVERSION_COST = 1.2


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


Op = ExpByX | PowSmall | Conj | MulGT | Frob


@dataclass(frozen=True)
class FinalExpModel:
    m: int
    lambdas: tuple[tuple[int, ...], ...]  # lambda_i coefficients, lowest degree first
    ops: tuple[Op, ...]
    nregs: int
    result: int
    exp_by_x_chain: Chain                 # on |x|; conjugated after when x < 0
    x_negative: bool
    # When cheaper than the chain: a^|x| = prod a^(sign 2^position) over the NAF digits of |x|
    # (position, sign), lowest first, from one run of compressed squarings (Karabina).
    exp_by_x_compressed: tuple[tuple[int, int], ...] | None = None

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


def hard_part_lambdas(p_poly: sympy.Expr, r_poly: sympy.Expr, k: int) -> tuple[int, list[list[int]]]:
    """m and the integer coefficients of lambda_i with m Phi_k(p)/r = sum lambda_i p^i."""
    p_p = sympy.Poly(p_poly, X, domain="QQ")
    r_p = sympy.Poly(r_poly, X, domain="QQ")
    phi = sympy.Poly(cyclotomic(k, sympy.Symbol("P")), sympy.Symbol("P"))
    # Phi_k(p(x)) as a polynomial in x.
    phi_of_p = sympy.Poly(0, X, domain="QQ")
    for (power,), coeff in phi.terms():
        phi_of_p += p_p**power * coeff
    quotient, remainder = phi_of_p.div(r_p)
    assert remainder.is_zero, "Phi_k(p(x)) is divisible by r(x)"
    digits = []
    rest = quotient
    while not rest.is_zero:
        rest, digit = rest.div(p_p)
        digits.append(digit)
    denominators = [sympy.Rational(c).q for d in digits for c in d.all_coeffs()]
    m = int(sympy.ilcm(*denominators)) if denominators else 1
    lambdas = []
    for d in digits:
        coeffs = [int(sympy.Rational(c) * m) for c in reversed(d.all_coeffs())]
        lambdas.append(coeffs)
    return m, lambdas


def _build_program(lambdas: list[list[int]]) -> tuple[list[Op], int, int]:
    """Registers: 0 is f (after the easy part); B_j in registers 1..deg; then temporaries."""
    ops: list[Op] = []
    max_deg = max(len(c) for c in lambdas) - 1
    base_reg = {0: 0}
    nregs = 1
    for j in range(1, max_deg + 1):
        base_reg[j] = nregs
        ops.append(ExpByX(nregs, base_reg[j - 1]))
        nregs += 1
    powers: dict[tuple[int, int], int] = {}

    def power(j: int, e: int) -> int:
        """Register holding B_j^e for e >= 1."""
        nonlocal nregs
        if e == 1:
            return base_reg[j]
        if (j, e) not in powers:
            ops.append(PowSmall(nregs, base_reg[j], chain_for(e, CYCLOTOMIC_SQR_COST, GT_MUL_COST, signed=True)))
            powers[(j, e)] = nregs
            nregs += 1
        return powers[(j, e)]

    result: int | None = None
    for i, coeffs in enumerate(lambdas):
        acc: int | None = None
        for j, c in enumerate(coeffs):
            if c == 0:
                continue
            reg = power(j, abs(c))
            if c < 0:
                ops.append(Conj(nregs, reg))
                reg = nregs
                nregs += 1
            if acc is None:
                acc = reg
            else:
                ops.append(MulGT(nregs, acc, reg))
                acc = nregs
                nregs += 1
        if acc is None:
            continue
        if i:
            ops.append(Frob(nregs, acc, i))
            acc = nregs
            nregs += 1
        if result is None:
            result = acc
        else:
            ops.append(MulGT(nregs, result, acc))
            result = nregs
            nregs += 1
    assert result is not None
    return ops, nregs, result


def track_exponent(ops: tuple[Op, ...], nregs: int, result: int, x: int, p: int, modulus: int) -> int:
    """Run the program on exponents modulo |GT-cyclotomic order| = Phi_k(p)."""
    regs = [0] * nregs
    regs[0] = 1
    for op in ops:
        if isinstance(op, ExpByX):
            regs[op.dst] = regs[op.src] * x % modulus
        elif isinstance(op, PowSmall):
            regs[op.dst] = regs[op.src] * op.chain.exponent % modulus
        elif isinstance(op, Conj):
            regs[op.dst] = -regs[op.src] % modulus
        elif isinstance(op, MulGT):
            regs[op.dst] = (regs[op.a] + regs[op.b]) % modulus
        else:
            regs[op.dst] = regs[op.src] * pow(p, op.n, modulus) % modulus
    return regs[result]


def derive_final_exponentiation(p_poly: sympy.Expr, r_poly: sympy.Expr, k: int, x: int, p: int, r: int,
                                curve: str) -> FinalExpModel:
    m, lambdas = hard_part_lambdas(p_poly, r_poly, k)
    phi = cyclotomic(k, p)
    # The integer identity behind the program, at this seed.
    total = sum(sum(c * x**j for j, c in enumerate(coeffs)) * p**i for i, coeffs in enumerate(lambdas))
    require(total == m * (phi // r), curve, "sum lambda_i(x) p^i = m Phi_k(p) / r")
    ops, nregs, result = _build_program(lambdas)
    for op in ops:
        if isinstance(op, PowSmall):
            op.chain.verify()
    tracked = track_exponent(tuple(ops), nregs, result, x, p, phi)
    require(tracked == m * (phi // r) % phi, curve, "exponent tracking: the program computes f^(m Phi_k(p)/r)")
    require(gcd(m, r) == 1, curve, "gcd(m, r) = 1: the pairing stays non-degenerate")
    exp_chain = chain_for(abs(x), CYCLOTOMIC_SQR_COST, GT_MUL_COST, signed=True)
    return FinalExpModel(m=m, lambdas=tuple(tuple(c) for c in lambdas), ops=tuple(ops), nregs=nregs,
                         result=result, exp_by_x_chain=exp_chain, x_negative=x < 0,
                         exp_by_x_compressed=compressed_exp_digits(abs(x), exp_chain, curve))


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


def compressed_exp_digits(e: int, chain: Chain, curve: str) -> tuple[tuple[int, int], ...] | None:
    """The signed binary digits of e (binary or NAF, the cheaper) when Karabina's compressed
    squarings beat the chain, else None.

    Cost of the compressed form: top-position compressed squarings, one batched decompression
    per digit, one batch inversion, and a multiplication per extra digit."""
    def cost(digits: list[tuple[int, int]]) -> float:
        return (digits[-1][0] * COMPRESSED_SQR_COST + len(digits) * DECOMPRESS_COST
                + BATCH_INVERSION_COST + (len(digits) - 1) * GT_MUL_COST)

    binary = [(i, 1) for i in range(e.bit_length()) if e >> i & 1]
    digits = min(binary, naf(e), key=cost)
    require(sum(sign << position for position, sign in digits) == e, curve, "signed digits of |x| sum to |x|")
    chained = chain.squarings * CYCLOTOMIC_SQR_COST + chain.multiplications * GT_MUL_COST
    return tuple(digits) if cost(digits) < chained else None
