"""Derive, from a curve file alone, the radix-2^52 lane representation of its base field and the
plan of one Fp12 multiplication in it, and write them as a C header for ifma52.h / fp12_52.h.

The Fp12 multiplication is the tower of the generated code (Fp2 = Fp[u]/(u^2 - beta),
Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v)), Karatsuba at every level. Traced symbolically,
it is 54 Fp products whose operands are sums of input coefficients (the "pre" stage, one
Fp element per 512-bit vector) and 12 outputs that are integer combinations of the products
(the "post" stage, in double width, reduced once per output). The trace also carries the bounds
that decide the limb count: operands must stay below 2^(52 N) with 52-bit limbs, the columns of
the signed double-width sums below 2^63, and the reduced outputs below the input bound.

    python derive.py CURVE.toml OUT.h        write the header (and print the bounds)
    python derive.py --survey                 the limb count each pairing curve would need
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RADIX = 52
# Input coefficients are below INPUT_BOUND * p (normalized 52-bit limbs); outputs must be too.
INPUT_BOUND = 4


def curve_params(path: Path) -> tuple[str, int, int, tuple[int, int]]:
    """Name, p, beta (u^2 = beta) and xi (v^3 = xi, as (xi0, xi1)) from a curve file."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    p = int(data["published"]["p"], 0)
    xi = data.get("xi", [0, 0])
    return data["name"], p, int(data.get("beta", -1)), (int(xi[0]), int(xi[1]))


@dataclass
class Trace:
    """Symbolic Karatsuba: pre-stage sums, the products, post-stage combinations (SSA C code)."""

    beta: int
    xi: tuple[int, int]
    pre: list[str] = field(default_factory=list)
    post: list[str] = field(default_factory=list)
    operands: list[tuple[str, str]] = field(default_factory=list)
    # pre-stage terms: name -> how many input coefficients it sums
    width: dict[str, int] = field(default_factory=dict)
    # post-stage terms: name -> {product index: integer coefficient}
    lin: dict[str, dict[int, int]] = field(default_factory=dict)
    counter: int = 0

    def _new(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    # ----- pre stage: one Fp element per vector, sums only
    def add(self, x: str, y: str) -> str:
        name = self._new("s")
        self.pre.append(f"__m512i {name} = _mm512_add_epi64({x}, {y});")
        self.width[name] = self.width[x] + self.width[y]
        return name

    def mul(self, x: str, y: str) -> str:
        k = len(self.operands)
        self.operands.append((x, y))
        name = f"P{k}"
        self.lin[name] = {k: 1}
        return name

    # ----- post stage: double width (two vectors per element), signed integer combinations
    def comb(self, terms: list[tuple[int, str]]) -> str:
        terms = [(c, t) for c, t in terms if c != 0]
        name = self._new("w")
        lin: dict[int, int] = {}
        for c, t in terms:
            for k, v in self.lin[t].items():
                lin[k] = lin.get(k, 0) + c * v
        self.lin[name] = {k: v for k, v in lin.items() if v}
        for half in (0, 1):
            expr = None
            for c, t in terms:
                src = f"{t}[{half}]"
                if abs(c) != 1:
                    src = f"_mm512_mullo_epi64({src}, _mm512_set1_epi64({abs(c)}))"
                if expr is None:
                    expr = src if c > 0 else f"_mm512_sub_epi64(_mm512_setzero_si512(), {src})"
                else:
                    expr = f"_mm512_{'add' if c > 0 else 'sub'}_epi64({expr}, {src})"
            self.post.append(f"{'__m512i ' + name + '[2]; ' if half == 0 else ''}{name}[{half}] = {expr};")
        return name

    # ----- the tower, as the generated code computes it
    def fp2_mul(self, a: tuple[str, str], b: tuple[str, str]) -> tuple[str, str]:
        t0 = self.mul(a[0], b[0])
        t1 = self.mul(a[1], b[1])
        t2 = self.mul(self.add(a[0], a[1]), self.add(b[0], b[1]))
        return self.comb([(1, t0), (self.beta, t1)]), self.comb([(1, t2), (-1, t0), (-1, t1)])

    def fp2_add(self, a, b):
        return self.add(a[0], b[0]), self.add(a[1], b[1])

    def w2_comb(self, terms):
        """A combination of double-width Fp2 values, component-wise."""
        return tuple(self.comb([(c, x[i]) for c, x in terms]) for i in (0, 1))

    def w2_xi(self, x):
        """xi * x for a double-width Fp2 value x: (xi0 x0 + beta xi1 x1, xi1 x0 + xi0 x1)."""
        x0, x1 = self.xi
        return self.comb([(x0, x[0]), (self.beta * x1, x[1])]), self.comb([(x1, x[0]), (x0, x[1])])

    def fp6_mul(self, a, b):
        t0 = self.fp2_mul(a[0], b[0])
        t1 = self.fp2_mul(a[1], b[1])
        t2 = self.fp2_mul(a[2], b[2])
        x = self.fp2_mul(self.fp2_add(a[1], a[2]), self.fp2_add(b[1], b[2]))
        c0 = self.w2_comb([(1, self.w2_xi(self.w2_comb([(1, x), (-1, t1), (-1, t2)]))), (1, t0)])
        x = self.fp2_mul(self.fp2_add(a[0], a[1]), self.fp2_add(b[0], b[1]))
        c1 = self.w2_comb([(1, x), (-1, t0), (-1, t1), (1, self.w2_xi(t2))])
        x = self.fp2_mul(self.fp2_add(a[0], a[2]), self.fp2_add(b[0], b[2]))
        c2 = self.w2_comb([(1, x), (-1, t0), (-1, t2), (1, t1)])
        return c0, c1, c2

    def fp6_add(self, a, b):
        return tuple(self.fp2_add(x, y) for x, y in zip(a, b, strict=True))

    def fp12_mul(self, a, b):
        t0 = self.fp6_mul(a[0], b[0])
        t1 = self.fp6_mul(a[1], b[1])
        x = self.fp6_mul(self.fp6_add(a[0], a[1]), self.fp6_add(b[0], b[1]))
        c1 = tuple(self.w2_comb([(1, x[j]), (-1, t0[j]), (-1, t1[j])]) for j in range(3))
        vt1 = (self.w2_xi(t1[2]), t1[0], t1[1])
        c0 = tuple(self.w2_comb([(1, t0[j]), (1, vt1[j])]) for j in range(3))
        return c0, c1


def fp12_shape(names: list[str]):
    """Twelve flat coefficients (fp12_t memory order) as ((fp2, fp2, fp2), (fp2, fp2, fp2))."""
    return tuple(tuple((names[6 * i + 2 * j], names[6 * i + 2 * j + 1]) for j in range(3)) for i in range(2))


def trace_fp12(beta: int, xi: tuple[int, int]) -> tuple[Trace, list[str]]:
    t = Trace(beta, xi)
    a = [f"a[{i}]" for i in range(12)]
    b = [f"b[{i}]" for i in range(12)]
    for n in a + b:
        t.width[n] = 1
    c0, c1 = t.fp12_mul(fp12_shape(a), fp12_shape(b))
    outs = [x for fp6 in (c0, c1) for fp2 in fp6 for x in fp2]
    return t, outs


@dataclass(frozen=True)
class Bounds:
    nlimbs: int
    operand_bits: float
    column_bits: float
    out_bound: float  # output bound in units of p
    offset: int  # multiple of p added after the reduction of the signed sums
    ok: bool


def bounds(p: int, t: Trace, outs: list[str], nlimbs: int) -> Bounds:
    """The bounds of the trace with nlimbs limbs of 52 bits (R = 2^(52 nlimbs))."""
    R = 1 << (RADIX * nlimbs)
    bin_ = INPUT_BOUND * p
    pbound = []
    max_operand = 0
    for x, y in t.operands:
        ax, by = t.width[x] * bin_, t.width[y] * bin_
        max_operand = max(max_operand, ax, by)
        pbound.append(ax * by)
    col_product = 2 * nlimbs * (1 << RADIX)  # lo and hi terms of one column
    max_l1 = max(sum(abs(v) for v in lin.values()) for lin in t.lin.values())
    # columns of the double-width sums plus the reduction's own terms and carries
    max_col = max_l1 * col_product + col_product + (1 << 12)
    neg = max(sum(-v * pbound[k] for k, v in t.lin[o].items() if v < 0) for o in outs)
    pos = max(sum(v * pbound[k] for k, v in t.lin[o].items() if v > 0) for o in outs)
    # REDC of a signed T lies in (-neg/R, pos/R + p); add `offset` p to make it non-negative.
    offset = -(-neg // (R * p)) if neg else 0
    offset = max(offset, 1)
    out_hi = offset * p + pos // R + p + 1
    ok = max_operand < R and max_col < (1 << 63) and out_hi <= bin_
    return Bounds(nlimbs, max_operand.bit_length(), max_col.bit_length(), out_hi / p, offset, ok)


def limb_count(p: int, t: Trace, outs: list[str]) -> Bounds:
    """The fewest limbs whose bounds hold (the last one tried, not ok, when none up to +4 does:
    the double-width columns then overflow 64 bits whatever the limb count)."""
    n = -(-p.bit_length() // RADIX)
    for extra in range(5):
        b = bounds(p, t, outs, n + extra)
        if b.ok:
            break
    return b


def limbs52(x: int, n: int) -> list[int]:
    return [(x >> (RADIX * i)) & ((1 << RADIX) - 1) for i in range(n)]


def header(curve: Path) -> tuple[str, Bounds, Trace]:
    name, p, beta, xi = curve_params(curve)
    t, outs = trace_fp12(beta, xi)
    b = limb_count(p, t, outs)
    if not b.ok:
        raise SystemExit(f"{name}: no limb count satisfies the bounds of this plan")
    n = b.nlimbs
    R = 1 << (RADIX * n)
    n0 = (-pow(p, -1, 1 << RADIX)) % (1 << RADIX)
    lines = [
        f"/* Derived by research/ifma_tower/derive.py from {curve.name} ({name}); do not edit. */",
        "#ifndef IFMA52_PARAMS_H",
        "#define IFMA52_PARAMS_H",
        f"#define N52 {n}",
        f"#define FP_BITS52 {p.bit_length()}",
        f"static const uint64_t P52[N52] = {{ {', '.join(f'0x{v:013x}ULL' for v in limbs52(p, n))} }};",
        f"static const uint64_t R2_52[N52] = {{ {', '.join(f'0x{v:013x}ULL' for v in limbs52(R * R % p, n))} }};",
        f"#define N0_52 0x{n0:013x}ULL",
        f"#define REDC_OFFSET_52 {b.offset}",
        f"/* bounds: operands < 2^{b.operand_bits}, |columns| < 2^{b.column_bits}, outputs < {b.out_bound:.4f} p */",
        "/* the Fp12 plan: 54 products; PRE computes their operands, POST combines them */",
        f"#define FP12_NPROD {len(t.operands)}",
        "#define FP12_PRE(a, b, A, B) do { \\",
    ]
    for s in t.pre:
        lines.append(f"    {s} \\")
    for k, (x, y) in enumerate(t.operands):
        lines.append(f"    A[{k}] = {x}; B[{k}] = {y}; \\")
    lines.append("} while (0)")
    lines.append("#define FP12_POST(P, W) do { \\")
    for k in range(len(t.operands)):
        lines.append(f"    const __m512i *P{k} = P[{k}]; \\")
    for s in t.post:
        lines.append(f"    {s} \\")
    for r, o in enumerate(outs):
        lines.append(f"    W[{r}][0] = {o}[0]; W[{r}][1] = {o}[1]; \\")
    lines.append("} while (0)")
    lines.append("#endif")
    return "\n".join(lines) + "\n", b, t


def survey() -> None:
    """The limb count each pairing curve of the repository would need for this Fp12-style plan."""
    for path in sorted((REPO / "curves").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if "p" not in data.get("published", {}):
            continue
        name, p, beta, xi = curve_params(path)
        if "xi" not in data:
            print(f"{name:12} p {p.bit_length():3} bits: no quadratic-over-cubic Fp12 tower in its file")
            continue
        t, outs = trace_fp12(beta, xi)
        b = limb_count(p, t, outs)
        if not b.ok:
            print(
                f"{name:12} p {p.bit_length():3} bits: the plan's columns reach 2^{b.column_bits}: "
                "needs a carry pass between the stages"
            )
            continue
        print(
            f"{name:12} p {p.bit_length():3} bits: 64-bit limbs {-(-p.bit_length() // 64):2}, "
            f"52-bit limbs {-(-p.bit_length() // 52):2} minimum, {b.nlimbs:2} for the lazy Fp12 plan "
            f"(slack {RADIX * b.nlimbs - p.bit_length()} bits; outputs < {b.out_bound:.3f} p)"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("curve", nargs="?", type=Path)
    ap.add_argument("out", nargs="?", type=Path)
    ap.add_argument("--survey", action="store_true")
    args = ap.parse_args(argv)
    if args.survey:
        survey()
        return 0
    if args.curve is None or args.out is None:
        ap.error("CURVE and OUT are required without --survey")
    text, b, t = header(args.curve)
    args.out.write_text(text, encoding="utf-8")
    nz = sum(len(v) for k, v in t.lin.items() if k.startswith("w"))
    print(
        f"{args.out}: {b.nlimbs} limbs, {len(t.operands)} products, {len(t.pre)} pre-stage sums, "
        f"{len(t.post) // 2} post-stage combinations; operands < 2^{b.operand_bits}, "
        f"|columns| < 2^{b.column_bits}, outputs < {b.out_bound:.4f} p ({nz} linear terms traced)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
