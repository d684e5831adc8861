"""The FFT domain of Fr: its 2-adicity, a primitive 2^s-th root of unity and the coset shift.

r - 1 = 2^s * odd.  The multiplicative generator g is the smallest integer >= 2 whose order is
divisible by 2^s and by every prime factor of r - 1 below 2^16 (found by trial division); the
root of unity is g^((r-1)/2^s), so the n-th root of unity of a domain of size n = 2^k is
g^((r-1)/n), the element the Ethereum consensus specs compute (``compute_roots_of_unity``:
pow(PRIMITIVE_ROOT_OF_UNITY, (r-1)/n), with 7 for BLS12-381, which is this rule's g).  Full
factorizations of r - 1 can take minutes for a new curve, so the rule asks only for the small
primes; for the shipped pairing curves g is a generator of Fr* (BLS12-381's 7, for example),
checked in tests/pairings/test_fft.py against the factorizations cached in ``factor_cache/`` (re-verified on
load: the factors multiply to r - 1 and each passes a primality test).  A missing entry is computed
with sympy, which can take hours: BW6-633's r - 1 has two prime factors of 38 and 46 digits, which
sympy's ECM did not find; its entry came from PARI/GP's ``factor`` (MPQS, about 18 minutes here).  The coset shift of coset FFTs
is g: its order is not a power of two dividing 2^s, so g H is a coset other than H for every
domain H.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import sympy

from .checks import require

FACTOR_CACHE = Path(__file__).resolve().parent / "factor_cache"


@dataclass(frozen=True)
class FftDomainModel:
    two_adicity: int        # s, with 2^s the largest power of two dividing r - 1
    generator: int          # g (module docstring): a generator of Fr* for the standard curves
    root_of_unity: int      # g^((r-1)/2^s), of order exactly 2^s
    coset_shift: int        # the shift of coset FFTs (g)

    @property
    def example_size(self) -> int:
        """The domain size of the docstring examples: 4 where the domain reaches it (BW6-767's
        r - 1 has a single factor 2, so its largest domain has 2 elements)."""
        return min(4, 1 << self.two_adicity)


def cached_factorization(n: int) -> dict[int, int] | None:
    """The cached prime factorization of n, re-verified, or None."""
    path = FACTOR_CACHE / f"{hashlib.sha256(str(n).encode()).hexdigest()[:24]}.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    factors = {int(p): int(e) for p, e in data["factors"].items()}
    product = 1
    for p, e in factors.items():
        product *= p**e
    if int(data["n"]) != n or product != n or not all(sympy.isprime(p) for p in factors):
        return None
    return factors


def factor(n: int) -> dict[int, int]:
    """The prime factorization of n (sympy; slow for some numbers), cached in factor_cache/."""
    factors = cached_factorization(n)
    if factors is not None:
        return factors
    factors = {int(p): int(e) for p, e in sympy.factorint(n).items()}
    FACTOR_CACHE.mkdir(exist_ok=True)
    path = FACTOR_CACHE / f"{hashlib.sha256(str(n).encode()).hexdigest()[:24]}.json"
    path.write_text(json.dumps({"n": str(n), "factors": {str(p): e for p, e in sorted(factors.items())}}, indent=1) + "\n")
    return factors


SMALL_PRIME_BOUND = 1 << 16


def derive_fft_domain(r: int, curve: str) -> FftDomainModel:
    """The 2-adicity of r - 1, the generator g (see the module docstring) and its root of unity."""
    s = ((r - 1) & -(r - 1)).bit_length() - 1
    require(s >= 1 and ((r - 1) >> s) % 2 == 1, curve, "r - 1 = 2^s * odd")
    small = [2] + [q for q in sympy.primerange(3, SMALL_PRIME_BOUND) if (r - 1) % q == 0]
    g = 2
    while any(pow(g, (r - 1) // q, r) == 1 for q in small):
        g += 1
    omega = pow(g, (r - 1) >> s, r)
    require(pow(omega, 1 << s, r) == 1 and pow(omega, 1 << (s - 1), r) == r - 1, curve,
            f"the root of unity {omega:#x} has order exactly 2^{s}")
    require(pow(g, 1 << s, r) != 1, curve, f"the coset shift {g} lies outside the 2^{s}-th roots of unity")
    full = cached_factorization(r - 1)
    if full is not None:
        require(all(pow(g, (r - 1) // q, r) != 1 for q in full), curve, f"{g} generates Fr* (cached factorization)")
    return FftDomainModel(two_adicity=s, generator=g, root_of_unity=omega, coset_shift=g)
