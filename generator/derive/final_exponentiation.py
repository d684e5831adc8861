"""The final exponentiation as a program, derived from the family polynomials and proved by
exponent tracking.

Easy part: f <- f^((p^(k/2) - 1)(p^e + 1)) = frob^e(conj(f)/f) * (conj(f)/f), conj = frob^(k/2),
with e derived (``derive_easy_part``) as the n for which (P^(k/2) - 1)(P^n + 1) Phi_k(P) = P^k - 1
holds as polynomials: e = k/6 for every k = 2^a 3^b here, since Phi_k(P) = P^(k/3) - P^(k/6) + 1
(k = 6: p + 1; k = 12: p^2 + 1; k = 24: p^4 + 1; k = 48: p^8 + 1).
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
exponentiations by x. For BLS48 (k = 48) it finds m = 3 and
3 + (x - 1)^2 (x + p) (x^2 + p^2) (x^4 + p^4) (x^8 + p^8 - 1): seventeen. The irreducible
factorizations over Q[x] (sympy, about a minute for the degree-72 quotients of k = 24, about four
for the 25 degree-272 ones of k = 48) are cached in ``poly_factor_cache/`` and re-verified on load: the
cached factors must multiply back to the polynomial, so a corrupted cache cannot change a result
(it can only make the search miss a grouping).

The program's operations, its builder and the cost model live in gt_program.py; a program a curve
file states (key ``hard_part``) is compiled by hard_part_program.py. This module imports both (and
chains, checks, families), and neither imports it.

Layer: derive.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from pathlib import Path

import sympy
from sympy.utilities.iterables import multiset_partitions

from .chains import Chain, chain_for
from .checks import DerivationError, require
from .families import X, cyclotomic
from .gt_program import (
    CYCLOTOMIC_SQR_COST,
    GT_MUL_COST,
    MULTI_EXP_METHODS,
    ExpByX,
    Op,
    PowKarabina,
    PowSmall,
    Program,
    SeedCosts,
    allocate_registers,
    compressed_exp_digits,
    decompressed_count,
    exp_by_x_cost,
    program_cost,
    track_exponent,
)
from .hard_part_program import compile_hard_part

POLY_FACTOR_CACHE = Path(__file__).resolve().parent / "poly_factor_cache"
# Polynomials of lower degree are factored directly (fast enough, nothing written to disk).
POLY_FACTOR_CACHE_MIN_DEGREE = 40
# The constants c tried in the factored form m Phi_k(p)/r = c + F_1 ... F_s: |c| <= this times m.
FACTORED_CONSTANT_RANGE = 4


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
    # The easy part f^((p^(k/2) - 1)(p^e + 1)): e (derive_easy_part).
    easy_frobenius: int = 0

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


def _build_program(lambdas: list[list[int]], joint: bool = False, scaled: bool = False,
                   method: str = "straus") -> tuple[list[Op], int, int]:
    """The program of the base-p expansion sum lambda_i(x) p^i, from f in register 0."""
    program = Program(joint, scaled, method)
    result = program.base_p(0, lambdas)
    return program.ops, program.nregs, result


def _build_factored_program(constant: int, factors: list[list[list[int]]], joint: bool = False,
                            scaled: bool = False, method: str = "straus",
                            seed: SeedCosts | None = None) -> tuple[list[Op], int, int]:
    """The program of f^(c + F_1 ... F_s), each F written in base p (lambda lists); a factor
    x + c alone goes through power_x_plus when the seed's costs are given."""
    program = Program(joint, scaled, method, seed)
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
        items = [sympy.Poly(f, X, domain="QQ") for f, mult in irreducible for _ in range(mult)]
        if len(items) < 2:
            continue
        # a block (a set of factors) recurs in many partitions: its lambdas are computed once
        blocks: dict[tuple[int, ...], tuple[Fraction, list[list[int]]]] = {}
        for partition in multiset_partitions(list(range(len(items)))):
            total = Fraction(int(sympy.Rational(content).p), int(sympy.Rational(content).q))
            lambdas = []
            for block in partition:
                key = tuple(block)
                if key not in blocks:
                    poly = items[block[0]]
                    for i in block[1:]:
                        poly = poly * items[i]
                    blocks[key] = _primitive_lambdas(_base_p_digits(poly, p_p))
                factor_content, factor_lambdas = blocks[key]
                total *= factor_content
                lambdas.append([list(d) for d in factor_lambdas])
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


def derive_easy_part(k: int, p: int, r: int, curve: str) -> int:
    """The e of the easy part f^((p^(k/2) - 1)(p^e + 1)): the n | k/2 for which
    (P^(k/2) - 1)(P^n + 1) Phi_k(P) = P^k - 1 over Z[P], so that the easy part followed by
    the hard part's Phi_k(p)/r is the whole (p^k - 1)/r; checked again on the integers at p, and
    r must not divide the easy exponent's second factor (the easy part keeps the r-torsion)."""
    P = sympy.Symbol("P")
    half = k // 2
    whole = sympy.expand(P**k - 1)
    for n in sorted(n for n in range(1, half + 1) if half % n == 0):
        if sympy.expand((P**half - 1) * (P**n + 1) * cyclotomic(k, P)) == whole:
            require((p**half - 1) * (p**n + 1) * cyclotomic(k, p) == p**k - 1, curve,
                    f"(p^{half} - 1)(p^{n} + 1) Phi_{k}(p) = p^{k} - 1 (easy part)")
            require((p**n + 1) % r != 0 and (p**half - 1) % r != 0, curve,
                    f"r divides neither p^{half} - 1 nor p^{n} + 1 (easy part)")
            return n
    raise DerivationError(f"{curve}: no easy part (p^{half} - 1)(p^n + 1) with Phi_{k}(p) as the hard part")


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
    easy = derive_easy_part(k, p, r, curve)
    return FinalExpModel(easy_frobenius=easy, m=m, m_poly=str(sympy.factor(m_poly)).replace("**", "^"), lambdas=tuple(tuple(c) for c in lambdas), ops=tuple(ops), nregs=nregs,
                         result=result, exp_by_x_chain=exp_chain, x_negative=x < 0,
                         exp_by_x_compressed=compressed, form=form)


def _stated_program(text: str, x: int, p: int, k: int, m: int, phi: int, r: int, curve: str,
                    exp_cost: float) -> tuple[list[Op], int, int]:
    """The curve file's hard_part compiled, and proved before it may compete: exponent tracking
    must give m Phi_k(p)/r modulo Phi_k(p), the same power as every derived candidate."""
    ops, nregs, result = compile_hard_part(text, x, k, curve, exp_cost)
    tracked = track_exponent(tuple(ops), nregs, result, x, p, phi)
    require(tracked == m * (phi // r) % phi, curve,
            f"the curve file's hard_part computes f^(m Phi_{k}(p)/r) with m = {m} (exponent tracking)")
    return ops, nregs, result


def _stated_form(text: str) -> str:
    """The stated program's lines, comments dropped, for the generated code's comment."""
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    return "the curve file's hard_part program: " + "; ".join(line for line in lines if line)
