"""The cross-target known answers of the pairing packages: run the generated test program
(``c/kat_main.c``, built by generator/cross_build.py) on requests with answers from
generator.reference, compare every target's output with those answers and with the native x86-64
build, and read the field kernels a binary links in (objdump).

Used by tests/targets/test_cross.py, tests/wasm/test_wasm.py and, for the requests and the
comparison, by tests/cross_kat_edwards.py (the twisted Edwards packages' answers).
"""

from __future__ import annotations

import random
import re
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from generator.cross_build import TARGETS, CrossError
from generator.derive.model import CurveModel
from generator.reference import reference_for_model
from security.fuzz_targets import nest_halves

# the kernels' symbols, with the suffix of a GCC clone (".constprop.0", ".isra.0")
KERNEL_SYMBOL = r"pf_((mul|sqr)_mont_\d+(_nc)?|mul_wide_\d+|redc_mont_\d+)(\..*)?"


# --------------------------------------------------------------------------------------------
# Running the program and reading its kernels


def run_kat(binary: Path, target: str, requests: str, timeout: float = 600) -> list[str]:
    """Run the test program on request lines; returns its output lines."""
    cmd = [*TARGETS[target].runner, str(binary)]
    proc = subprocess.run(cmd, input=requests, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise CrossError(f"{' '.join(cmd)} exited with {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    return proc.stdout.splitlines()


def kernel_instructions(binary: Path, target: str) -> dict[str, Counter]:
    """Mnemonic counts of each out-of-line field kernel (``pf_mul_mont_<n>[_nc]``,
    ``pf_sqr_mont_<n>[_nc]``, ``pf_mul_wide_<n>``, ``pf_redc_mont_<n>``, or a clone of one) in a
    binary, from objdump. An empty result means no kernel was linked in: the field code used C."""
    spec = TARGETS[target]
    if spec.objdump is None:
        raise ValueError(f"target {target} has no assembly kernels")
    text = subprocess.run(
        [spec.objdump, "-d", "--no-show-raw-insn", str(binary)], capture_output=True, text=True, check=True
    ).stdout
    kernels: dict[str, Counter] = {}
    current: Optional[Counter] = None
    for line in text.splitlines():
        head = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if head:
            name = head.group(1)
            current = kernels.setdefault(name, Counter()) if re.fullmatch(KERNEL_SYMBOL, name) else None
            continue
        if current is not None:
            parts = line.split("\t")
            if len(parts) >= 2 and parts[1].strip():
                current[parts[1].split()[0]] += 1
    return kernels


# --------------------------------------------------------------------------------------------
# Vectors from the reference implementation


Check = Callable[[bytes], Optional[str]]


@dataclass(frozen=True)
class Vector:
    """One request: the output must equal ``expected``, or pass ``check`` (None: fine, else the
    reason) where the answer is not unique (a square root) or only defined up to the final
    exponentiation (the Miller loop)."""

    op: str
    data: bytes
    expected: Optional[bytes] = None
    check: Optional[Check] = None

    def line(self) -> str:
        return f"{self.op} {self.data.hex()}\n"

    def verify(self, out: bytes) -> Optional[str]:
        if self.expected is not None:
            return None if out == self.expected else f"expected {self.expected.hex()}"
        assert self.check is not None
        return self.check(out)


class Oracle:
    """Encodings of the test program and answers of generator.reference for one curve."""

    def __init__(self, model: CurveModel) -> None:
        m = model
        self.m = m
        self.ref = reference_for_model(m)
        self.nb = m.fp.nbytes
        self.rb = m.fr.nbytes
        self.d2 = m.fq_degree

    # -- encodings -----------------------------------------------------------------------
    def fp(self, v: Any) -> bytes:
        return int(v).to_bytes(self.nb, "big")

    def fq(self, v: Any) -> bytes:
        """A reference Fq element -> its Fp coefficients, flat (Fp4: c0.c0, c0.c1, c1.c0, c1.c1)."""
        return self.fq_tuple(v.to_ints() if self.d2 > 1 else v)

    def fq_ints(self, data: bytes) -> Any:
        """Bytes -> an Fq value in the to_tower layout (an int, a pair, or pairs of pairs)."""
        ints = [int.from_bytes(data[i : i + self.nb], "big") for i in range(0, len(data), self.nb)]
        return self._nest(ints)

    def _nest(self, ints: list[int]) -> Any:
        """Flat Fp coefficients -> the to_tower layout: an int, or halves nested down to pairs
        (security/fuzz_targets.py's nest_halves)."""
        return ints[0] if len(ints) == 1 else nest_halves(tuple(ints))

    def fq_tuple(self, v: Any) -> bytes:
        """An Fq value in the to_tower layout (an int, a pair (c0, c1), or pairs of such pairs for
        Fp4 and Fp8) -> bytes, depth first."""
        if isinstance(v, tuple):
            return b"".join(self.fq_tuple(c) for c in v)
        return self.fp(v)

    def cubic_tuple(self, c: Any) -> bytes:
        return b"".join(self.fq_tuple(v) for v in c)

    def gt_tuple(self, t: Any) -> bytes:
        return self.cubic_tuple(t[0]) + self.cubic_tuple(t[1])

    def gt_from(self, data: bytes) -> Any:
        size = self.d2 * self.nb
        fq = [self.fq_ints(data[i : i + size]) for i in range(0, len(data), size)]
        return self.ref.from_tower(((fq[0], fq[1], fq[2]), (fq[3], fq[4], fq[5])))

    def cubic(self, c: Any) -> Any:
        zero = self._nest([0] * self.d2)
        return self.ref.from_tower((c, (zero, zero, zero)))

    def point(self, P: Any, group: int) -> bytes:
        if P is None:
            return bytes(2 * self.nb * (1 if group == 1 else self.d2))
        enc = self.fp if group == 1 else self.fq
        return enc(P[0]) + enc(P[1])

    def lex_largest(self, y: Any, group: int) -> bool:
        half = (self.m.p - 1) // 2
        if group == 1 or self.d2 == 1:
            return int(y) > half

        def largest(t: Any) -> bool:  # the high half decides unless zero (gnark's E2 and E4 sign)
            if not isinstance(t, tuple):
                return int(t) > half
            low, high = t
            return largest(high) if any(_flat_ints(high)) else largest(low)

        return largest(y.to_ints())

    # -- random values -------------------------------------------------------------------
    def rand_fq(self, rng: random.Random) -> Any:
        p = self.m.p
        return self._nest([rng.randrange(p) for _ in range(self.d2)])

    def rand_cubic(self, rng: random.Random) -> tuple:
        return tuple(self.rand_fq(rng) for _ in range(3))

    def generator(self, group: int) -> Any:
        g = self.m.g1_gen if group == 1 else self.m.g2_gen
        E = self.ref.E1 if group == 1 else self.ref.E2
        if group == 1 or self.d2 == 1:
            return E.point(g[0][0], g[1][0])
        return E.point(self._nest(list(g[0])), self._nest(list(g[1])))


def _flat_ints(t: Any) -> list[int]:
    return [v for c in t for v in _flat_ints(c)] if isinstance(t, tuple) else [int(t)]


def field_vectors(prefix: str, modulus: int, nbytes: int, rng: random.Random, count: int) -> list[Vector]:
    enc = lambda v: v.to_bytes(nbytes, "big")  # noqa: E731
    edges = [0, 1, 2, modulus - 1, modulus - 2, (modulus - 1) // 2]
    values = edges + [rng.randrange(modulus) for _ in range(count)]
    out: list[Vector] = []
    for a, b in zip(values, values[1:] + values[:1], strict=True):
        out.append(Vector(f"{prefix}_add", enc(a) + enc(b), enc((a + b) % modulus)))
        out.append(Vector(f"{prefix}_sub", enc(a) + enc(b), enc((a - b) % modulus)))
        out.append(Vector(f"{prefix}_mul", enc(a) + enc(b), enc(a * b % modulus)))
    for a in values:
        out.append(Vector(f"{prefix}_sqr", enc(a), enc(a * a % modulus)))
        out.append(Vector(f"{prefix}_neg", enc(a), enc(-a % modulus)))
        out.append(Vector(f"{prefix}_inv", enc(a), enc(pow(a, -1, modulus) if a else 0)))
        out.append(Vector(f"{prefix}_sqrt", enc(a), check=_sqrt_check(a, modulus, nbytes)))
    top = (1 << (8 * nbytes)) - 1
    for raw in [0, 1, modulus - 1, modulus, modulus + 1, top, rng.randrange(modulus)]:
        ok = raw < modulus
        out.append(Vector(f"{prefix}_decode", enc(raw), bytes([ok]) + enc(raw if ok else 0)))
    return out


def _sqrt_check(a: int, modulus: int, nbytes: int) -> Check:
    square = a == 0 or pow(a, (modulus - 1) // 2, modulus) == 1

    def check(out: bytes) -> Optional[str]:
        root = int.from_bytes(out[1:], "big")
        if out[0] != square:
            return f"flag {out[0]}, but {a:#x} is {'a square' if square else 'not a square'}"
        if square and root * root % modulus != a:
            return "the root does not square to the input"
        if not square and root:
            return "a non-square gave a non-zero root"
        return None

    return check


def make_vectors(model: CurveModel, count: int = 4, seed: int = 1) -> list[Vector]:
    """Known answers for every operation of the test program, from generator.reference:
    ``count`` random values per field operation besides the edge cases, fewer for the groups and
    one pairing (the reference final exponentiation is slow)."""
    o = Oracle(model)
    ref, m = o.ref, model
    rng = random.Random(f"{m.package}:{seed}")
    vectors = field_vectors("fp", m.p, o.nb, rng, count) + field_vectors("fr", m.r, o.rb, rng, count)

    # the twist field, the cubic level and GT (tower layout of the C code)
    fqs = [ref.Fq(0), ref.Fq(1)] + [ref.Fq(o.rand_fq(rng)) for _ in range(count)]
    for a, b in zip(fqs, fqs[1:] + fqs[:1], strict=True):
        vectors.append(Vector("fq_mul", o.fq(a) + o.fq(b), o.fq(a * b)))
    for a in fqs:
        vectors.append(Vector("fq_sqr", o.fq(a), o.fq(a * a)))
        vectors.append(Vector("fq_inv", o.fq(a), o.fq(a.inverse() if not a.is_zero() else a)))
        vectors.append(Vector("fq_sqrt", o.fq(a), check=_fq_sqrt_check(o, a)))
    for _ in range(max(2, count // 2)):
        a, b = o.rand_cubic(rng), o.rand_cubic(rng)
        A, B = o.cubic(a), o.cubic(b)
        ct = lambda x: o.cubic_tuple(ref.to_tower(x)[0])  # noqa: E731 (the product stays in the cubic level)
        vectors.append(Vector("cubic_mul", o.cubic_tuple(a) + o.cubic_tuple(b), ct(A * B)))
        vectors.append(Vector("cubic_sqr", o.cubic_tuple(a), ct(A * A)))
        vectors.append(Vector("cubic_inv", o.cubic_tuple(a), ct(A.inverse())))
        f, g = (o.rand_cubic(rng), o.rand_cubic(rng)), (o.rand_cubic(rng), o.rand_cubic(rng))
        F, G = ref.from_tower(f), ref.from_tower(g)
        gt = lambda x: o.gt_tuple(ref.to_tower(x))  # noqa: E731
        vectors.append(Vector("gt_mul", o.gt_tuple(f) + o.gt_tuple(g), gt(F * G)))
        vectors.append(Vector("gt_sqr", o.gt_tuple(f), gt(F * F)))
        vectors.append(Vector("gt_inv", o.gt_tuple(f), gt(F.inverse())))
        vectors.append(Vector("gt_frobenius", o.gt_tuple(f), gt(F.frobenius(1))))

    # the groups
    r = m.r
    scalars = [0, 1, 2, r - 1, r, r + 1, (1 << (8 * o.rb)) - 1] + [rng.randrange(r) for _ in range(2)]
    for group, E in ((1, ref.E1), (2, ref.E2)):
        g = f"g{group}"
        G = o.generator(group)
        P, Q = E.mul(G, rng.randrange(1, r)), E.mul(G, rng.randrange(1, r))
        for A, B in ((P, Q), (P, P), (P, E.neg(P)), (None, Q), (P, None)):
            vectors.append(Vector(f"{g}_add", o.point(A, group) + o.point(B, group), o.point(E.add(A, B), group)))
        for A in (P, Q, None):
            vectors.append(Vector(f"{g}_dbl", o.point(A, group), o.point(E.double(A), group)))
        for k in scalars:
            vectors.append(Vector(f"{g}_mul", o.point(P, group) + k.to_bytes(o.rb, "big"), o.point(E.mul(P, k), group)))
        field = ref.Fp if group == 1 else ref.Fq
        enc = o.fp if group == 1 else o.fq
        candidates = [P, (P[0], P[1] + 1)]  # in the subgroup; off the curve
        # decompression of abscissas with a point (both signs; the point is, when the cofactor
        # is not 1, outside the subgroup) and without one (x^3 + b not a square)
        lifted_seen = square_free_seen = 0
        for _ in range(64):
            x = field(rng.randrange(m.p) if group == 1 or o.d2 == 1 else o.rand_fq(rng))
            lifted = E.lift_x(x)
            if lifted is not None and lifted_seen < 2:
                lifted_seen += 1
                candidates.append(lifted)
                for sign in (False, True):
                    vectors.append(Vector(f"{g}_decompress", enc(x) + bytes([sign]), _decompressed(o, lifted, sign, group)))
            elif lifted is None and square_free_seen < 2:
                square_free_seen += 1
                vectors.append(Vector(f"{g}_decompress", enc(x) + b"\x01", bytes(1 + len(enc(x)))))
            if lifted_seen == square_free_seen == 2:
                break
        for A in candidates:
            on = E.on_curve(A)
            sub = on and E.mul(A, r) is None
            vectors.append(Vector(f"{g}_check", o.point(A, group), bytes([on, sub])))

    # the pairing: one random pair, and the identity
    P = ref.E1.mul(o.generator(1), rng.randrange(1, r))
    Q = ref.E2.mul(o.generator(2), rng.randrange(1, r))
    pq = o.point(P, 1) + o.point(Q, 2)
    f = ref.miller_loop(P, Q)
    e = ref.final_exponentiation(f) ** m.final_exp.m
    e_bytes = o.gt_tuple(ref.to_tower(e))
    one = o.gt_tuple(ref.to_tower(ref.Fk.one()))
    vectors.append(Vector("pairing", pq, e_bytes))
    vectors.append(Vector("pairing", o.point(None, 1) + o.point(Q, 2), one))
    vectors.append(Vector("final_exp", o.gt_tuple(ref.to_tower(f)), e_bytes))
    vectors.append(Vector("miller_loop", o.point(None, 1) + o.point(Q, 2), one))

    def miller_check(out: bytes) -> Optional[str]:
        if ref.final_exponentiation(o.gt_from(out)) ** m.final_exp.m != e:
            return "final_exp(miller_loop(P, Q)) is not the reference pairing to the power m"
        return None

    vectors.append(Vector("miller_loop", pq, check=miller_check))
    return vectors


def _decompressed(o: Oracle, lifted: Any, largest: bool, group: int) -> bytes:
    """Flag 1 and the root y of the lifted point with the requested sign (lexicographic order)."""
    x, y = lifted
    if o.lex_largest(y, group) != largest:
        y = -y
    enc = o.fp if group == 1 else o.fq
    return b"\x01" + enc(y)


def _fq_sqrt_check(o: Oracle, a: Any) -> Check:
    square = a.is_square()

    def check(out: bytes) -> Optional[str]:
        if out[0] != square:
            return f"flag {out[0]}, but the input is {'a square' if square else 'not a square'}"
        root = o.ref.Fq(o.fq_ints(out[1:]))
        if square and root * root != a:
            return "the root does not square to the input"
        if not square and not root.is_zero():
            return "a non-square gave a non-zero root"
        return None

    return check


# --------------------------------------------------------------------------------------------
# Comparing


@dataclass
class Mismatch:
    target: str
    vector: Vector
    output: str
    reason: str

    def __str__(self) -> str:
        return f"{self.target}: {self.vector.op} {self.vector.data.hex()[:64]}...: {self.reason} (got {self.output[:96]})"


def compare(vectors: list[Vector], outputs: dict[str, list[str]]) -> list[Mismatch]:
    """Every target's output must answer the reference and equal the native output byte for byte."""
    bad: list[Mismatch] = []
    native = outputs.get("native")
    verdicts: dict[tuple[int, str], Optional[str]] = {}  # equal outputs are checked once
    for target, lines in outputs.items():
        if len(lines) != len(vectors):
            bad.append(Mismatch(target, vectors[0], "", f"{len(lines)} output lines for {len(vectors)} requests"))
            continue
        for i, (vector, line) in enumerate(zip(vectors, lines, strict=True)):
            if native is not None and target != "native" and line != native[i]:
                bad.append(Mismatch(target, vector, line, f"differs from the native output {native[i][:96]}"))
                continue
            if (i, line) not in verdicts:
                try:
                    verdicts[i, line] = vector.verify(bytes.fromhex(line))
                except ValueError as exc:
                    verdicts[i, line] = f"unreadable output ({exc})"
            reason = verdicts[i, line]
            if reason is not None:
                bad.append(Mismatch(target, vector, line, reason))
    return bad
