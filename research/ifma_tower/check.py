"""Check the harness's Fp12 products against Python integers.

The reference is the tower itself, written out with plain ints (Fp2 = Fp[u]/(u^2 - beta),
Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v), schoolbook products: no Karatsuba, so it
shares nothing with the traced plan). Inputs: random elements, edge values (0, 1, p - 1 in every
coefficient) and, for the IFMA kernel alone, Montgomery limbs at the bound the plan assumes
(values up to 4p - 1 with 52-bit limbs). Each output is compared as canonical coefficients, and the
IFMA output limbs are checked to be normalized and below the bound (so products can chain).

    python check.py CURVE.toml HARNESS [--count N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path

from derive import INPUT_BOUND, RADIX, curve_params, limb_count, trace_fp12


class Tower:
    def __init__(self, p: int, beta: int, xi: tuple[int, int]) -> None:
        self.p, self.beta, self.xi = p, beta, xi

    def f2mul(self, a, b):
        p = self.p
        return ((a[0] * b[0] + self.beta * a[1] * b[1]) % p, (a[0] * b[1] + a[1] * b[0]) % p)

    def f2add(self, a, b):
        return ((a[0] + b[0]) % self.p, (a[1] + b[1]) % self.p)

    def f6mul(self, a, b):
        # schoolbook in v, then v^3 = xi, v^4 = xi v
        z = (0, 0)
        c = [z] * 5
        for i in range(3):
            for j in range(3):
                c[i + j] = self.f2add(c[i + j], self.f2mul(a[i], b[j]))
        return (
            self.f2add(c[0], self.f2mul(self.xi, c[3])),
            self.f2add(c[1], self.f2mul(self.xi, c[4])),
            c[2],
        )

    def f6add(self, a, b):
        return tuple(self.f2add(x, y) for x, y in zip(a, b, strict=True))

    def f12mul(self, a, b):
        # (a0 + a1 w)(b0 + b1 w) with w^2 = v: v (x0, x1, x2) = (xi x2, x0, x1)
        t0, t1 = self.f6mul(a[0], b[0]), self.f6mul(a[1], b[1])
        vt1 = (self.f2mul(self.xi, t1[2]), t1[0], t1[1])
        c1 = self.f6add(self.f6mul(a[0], b[1]), self.f6mul(a[1], b[0]))
        return self.f6add(t0, vt1), c1


def shape(flat: list[int]):
    return tuple(tuple((flat[6 * i + 2 * j], flat[6 * i + 2 * j + 1]) for j in range(3)) for i in range(2))


def flat(x) -> list[int]:
    return [c for f6 in x for f2 in f6 for c in f2]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("curve", type=Path)
    ap.add_argument("harness", type=Path)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    name, p, beta, xi = curve_params(args.curve)
    tower = Tower(p, beta, xi)
    rng = random.Random(args.seed)
    nlimbs = limb_count(p, *trace_fp12(beta, xi)).nlimbs  # as derive.py chose for the harness
    R = 1 << (RADIX * nlimbs)
    rinv = pow(R, -1, p)

    # canonical inputs: random, then edge values
    cases = [
        ([rng.randrange(p) for _ in range(12)], [rng.randrange(p) for _ in range(12)])
        for _ in range(args.count)
    ]
    edge = [[0] * 12, [1] + [0] * 11, [p - 1] * 12, [1] * 12, [p - 1, 0] * 6]
    cases += [(x, y) for x in edge for y in edge]
    # raw Montgomery limbs at the bound: value v + k p (k up to INPUT_BOUND - 1), v random or p - 1
    raw = []
    for i in range(args.count // 2 + 4):

        def elem(top: bool):
            vals = [(p - 1 if top else rng.randrange(p)) for _ in range(12)]
            reps = [(v * R % p) + (INPUT_BOUND - 1 if top else rng.randrange(INPUT_BOUND)) * p for v in vals]
            reps = [min(r, INPUT_BOUND * p - 1) for r in reps]
            return vals, reps

        raw.append((elem(i % 2 == 0), elem(i % 4 == 0)))
    # the largest representative of all: every coefficient 4p - 1
    big = INPUT_BOUND * p - 1
    raw.append((([big * rinv % p] * 12, [big] * 12), ([big * rinv % p] * 12, [big] * 12)))

    lines = []
    for a, b in cases:
        lines.append("C " + " ".join(f"{v:x}" for v in a + b))
    for (_va, ra), (_vb, rb) in raw:
        limbs = [(r >> (RADIX * j)) & ((1 << RADIX) - 1) for r in ra + rb for j in range(nlimbs)]
        lines.append("L " + " ".join(f"{v:x}" for v in limbs))
    out = subprocess.run(
        [str(args.harness), "check"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    pos, fails, checked = 0, 0, 0

    def take(tag: str) -> list[int]:
        nonlocal pos
        line = out[pos]
        pos += 1
        if not line.startswith(tag):
            raise SystemExit(f"unexpected harness line {line[:40]!r}, wanted {tag}")
        return [int(x, 16) for x in line[1:].split()]

    def check_raw(limbs: list[int], want: list[int], what: str) -> None:
        nonlocal fails
        for k in range(12):
            ls = limbs[nlimbs * k : nlimbs * (k + 1)]
            v = sum(x << (RADIX * j) for j, x in enumerate(ls))
            if any(x >> RADIX for x in ls) or v >= INPUT_BOUND * p or v * rinv % p != want[k]:
                fails += 1
                print(f"{what}: output coefficient {k} limbs out of bounds or wrong", file=sys.stderr)

    for a, b in cases:
        want = flat(tower.f12mul(shape(a), shape(b)))
        for tag in ("B", "I"):
            got = take(tag)
            checked += 1
            if got != want:
                fails += 1
                print(f"{tag} mismatch for a={a[:2]}.. b={b[:2]}..", file=sys.stderr)
        check_raw(take("R"), want, "canonical case")
    for (va, _), (vb, _) in raw:
        want = flat(tower.f12mul(shape(va), shape(vb)))
        got = take("I")
        checked += 1
        if got != want:
            fails += 1
            print("I mismatch on inputs at the bound", file=sys.stderr)
        check_raw(take("R"), want, "bound case")
    print(
        f"{args.harness.name} ({name}): {checked} products compared "
        f"({len(cases)} canonical pairs on both kernels, {len(raw)} pairs at the 4p bound on IFMA): "
        f"{'all equal' if not fails else f'{fails} FAILURES'}"
    )
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
