"""Addition chains for fixed exponents (inversion, square roots, Legendre, exponentiation by |x|).

A chain is a short straight-line program of squarings and multiplications. Templates render it
to C (one call per step), and the exponent tracker runs the same program on integers to prove
what it computes. Chains are found by a cost-weighted sliding-window search over several window
sizes and cached in ``chain_cache/`` keyed by the exponent and cost model, so that regenerating
a curve never searches again.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

CACHE_DIR = Path(__file__).resolve().parent / "chain_cache"

T = TypeVar("T")


@dataclass(frozen=True)
class Sqr:
    """dst = src^(2^n)."""

    dst: int
    src: int
    n: int


@dataclass(frozen=True)
class Mul:
    """dst = a * b."""

    dst: int
    a: int
    b: int


@dataclass(frozen=True)
class Inv:
    """dst = src^-1; only in groups where inversion is nearly free (conjugation in GT)."""

    dst: int
    src: int


Step = Sqr | Mul | Inv


@dataclass(frozen=True)
class Chain:
    """A program computing base^exponent; register 0 holds the base, ``result`` the answer."""

    exponent: int
    steps: tuple[Step, ...]
    result: int
    nregs: int

    @property
    def squarings(self) -> int:
        return sum(s.n for s in self.steps if isinstance(s, Sqr))

    @property
    def multiplications(self) -> int:
        return sum(1 for s in self.steps if isinstance(s, Mul))

    @property
    def signed(self) -> bool:
        return any(isinstance(s, Inv) for s in self.steps)

    def evaluate(self, base: T, mul: Callable[[T, T], T], sqr: Callable[[T], T],
                 inv: Callable[[T], T] | None = None) -> T:
        """Run the chain on any values (field elements, or integers for exponent tracking)."""
        regs: list[T | None] = [None] * self.nregs
        regs[0] = base
        for step in self.steps:
            if isinstance(step, Sqr):
                value = regs[step.src]
                for _ in range(step.n):
                    value = sqr(value)
                regs[step.dst] = value
            elif isinstance(step, Inv):
                if inv is None:
                    raise ValueError("this chain needs an inversion")
                regs[step.dst] = inv(regs[step.src])
            else:
                regs[step.dst] = mul(regs[step.a], regs[step.b])
        out = regs[self.result]
        assert out is not None
        return out

    def verify(self) -> None:
        """Check on integers that the chain computes exactly the exponent it claims."""
        got = self.evaluate(1, lambda a, b: a + b, lambda a: 2 * a, lambda a: -a)
        if got != self.exponent:
            raise AssertionError(f"chain for {self.exponent:#x} computes {got:#x}")


def _sliding_window(e: int, w: int) -> Chain:
    """Left-to-right sliding window with odd powers up to 2^w - 1 (only those used)."""
    bits = bin(e)[2:]
    # Split the exponent into windows: (value, shift-after) pairs read from the top.
    digits: list[tuple[int, int]] = []  # (odd digit or 0, number of squarings before it)
    i = 0
    pending_sqr = 0
    while i < len(bits):
        if bits[i] == "0":
            pending_sqr += 1
            i += 1
            continue
        j = min(i + w, len(bits))
        while bits[j - 1] == "0":
            j -= 1
        value = int(bits[i:j], 2)
        digits.append((value, pending_sqr + (j - i)))
        pending_sqr = 0
        i = j
    steps: list[Step] = []
    reg_of, nregs = _odd_powers(steps, max(d for d, _ in digits))
    acc = nregs
    nregs += 1
    # The accumulator starts as the first window's power; each later window squares it
    # (shift counts the squarings, the zeros before the window included) and multiplies.
    current = reg_of[digits[0][0]]
    for digit, shift in digits[1:]:
        steps.append(Sqr(acc, current, shift))
        steps.append(Mul(acc, acc, reg_of[digit]))
        current = acc
    if pending_sqr:
        steps.append(Sqr(acc, current, pending_sqr))
        current = acc
    return Chain(exponent=e, steps=tuple(steps), result=current, nregs=nregs)


def _odd_powers(steps: list[Step], top: int) -> tuple[dict[int, int], int]:
    """Append the steps computing base^1, base^3, ..., base^top (top odd); return the register
    of each power and the number of registers used (register 0 is the base)."""
    reg_of: dict[int, int] = {1: 0}
    nregs = 1
    if top > 1:
        sq = nregs
        nregs += 1
        steps.append(Sqr(sq, 0, 1))
        prev = 0
        for odd in range(3, top + 1, 2):
            reg_of[odd] = nregs
            steps.append(Mul(nregs, prev, sq))
            prev = nregs
            nregs += 1
    return reg_of, nregs


def _wnaf(e: int, w: int) -> list[int]:
    """Width-w non-adjacent form of e > 0, least significant digit first (odd digits < 2^(w-1))."""
    digits = []
    while e:
        if e & 1:
            d = e & ((1 << w) - 1)
            if d >= 1 << (w - 1):
                d -= 1 << w
            e -= d
        else:
            d = 0
        digits.append(d)
        e >>= 1
    return digits


def _signed_window(e: int, w: int) -> Chain:
    """Left-to-right width-w NAF: odd powers up to 2^(w-1) - 1 and their inverses, as needed."""
    digits = _wnaf(e, w)[::-1]
    steps: list[Step] = []
    reg_of, nregs = _odd_powers(steps, max(abs(d) for d in digits))
    for d in sorted({-d for d in digits if d < 0}):
        reg_of[-d] = nregs
        steps.append(Inv(nregs, reg_of[d]))
        nregs += 1
    acc = nregs
    nregs += 1
    current = reg_of[digits[0]]
    pending = 0
    for d in digits[1:]:
        pending += 1
        if d:
            steps.append(Sqr(acc, current, pending))
            steps.append(Mul(acc, acc, reg_of[d]))
            current, pending = acc, 0
    if pending:
        steps.append(Sqr(acc, current, pending))
        current = acc
    return Chain(exponent=e, steps=tuple(steps), result=current, nregs=nregs)


def _cost(chain: Chain, sqr_cost: float, mul_cost: float) -> float:
    return chain.squarings * sqr_cost + chain.multiplications * mul_cost


def _search(e: int, sqr_cost: float, mul_cost: float, signed: bool) -> Chain:
    candidates = [_sliding_window(e, w) for w in range(1, 8)]
    if signed:
        candidates += [_signed_window(e, w) for w in range(2, 8)]
    best: Chain | None = None
    for candidate in candidates:
        candidate.verify()
        if best is None or _cost(candidate, sqr_cost, mul_cost) < _cost(best, sqr_cost, mul_cost):
            best = candidate
    assert best is not None
    return best


def _cache_path(e: int, sqr_cost: float, mul_cost: float, signed: bool) -> Path:
    key = hashlib.sha256(f"{e:x}:{sqr_cost}:{mul_cost}{':signed' if signed else ''}".encode()).hexdigest()[:24]
    return CACHE_DIR / f"{key}.json"


def _to_json(chain: Chain, sqr_cost: float, mul_cost: float) -> dict:
    def step(s: Step) -> list:
        if isinstance(s, Sqr):
            return ["sqr", s.dst, s.src, s.n]
        if isinstance(s, Inv):
            return ["inv", s.dst, s.src, 0]
        return ["mul", s.dst, s.a, s.b]

    return {
        "exponent": f"{chain.exponent:#x}",
        "cost_model": {"sqr": sqr_cost, "mul": mul_cost},
        "result": chain.result,
        "nregs": chain.nregs,
        "steps": [step(s) for s in chain.steps],
    }


def _from_json(data: dict) -> Chain:
    steps: list[Step] = []
    for kind, dst, a, b in data["steps"]:
        if kind == "sqr":
            steps.append(Sqr(dst, a, b))
        elif kind == "inv":
            steps.append(Inv(dst, a))
        else:
            steps.append(Mul(dst, a, b))
    return Chain(int(data["exponent"], 16), tuple(steps), data["result"], data["nregs"])


def chain_for(e: int, sqr_cost: float = 1.0, mul_cost: float = 1.0, signed: bool = False) -> Chain:
    """The cheapest chain found for base^e under the given costs, from the cache when present.

    ``signed`` allows inversions (free in the cyclotomic subgroup, where they are conjugations).
    A cached chain is verified again before use, so a corrupted cache cannot produce wrong code.
    """
    if e < 1:
        raise ValueError(f"addition chains need a positive exponent, got {e}")
    path = _cache_path(e, sqr_cost, mul_cost, signed)
    if path.exists():
        chain = _from_json(json.loads(path.read_text()))
        if chain.exponent == e:
            chain.verify()
            return chain
    chain = _search(e, sqr_cost, mul_cost, signed)
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    # Written beside and renamed into place: parallel test workers may derive the same curve.
    staging = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    staging.write_text(json.dumps(_to_json(chain, sqr_cost, mul_cost), indent=0) + "\n")
    os.replace(staging, path)
    return chain
