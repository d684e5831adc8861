"""A model of the x86-64 instructions the x86_64-adx kernels use (values, CF, OF and ZF), with the
operands and moduli the kernel tests feed it: tests/emit/test_adx_window.py runs the
register-window kernels (generator/emit/adx_window.py) in it, tests/emit/test_adx_kernels.py the
kernels of the other limb counts and the sums."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

MASK = (1 << 64) - 1
OPERAND = re.compile(r"^(?:(-?\d+)\+)?%\[(\w+)\]$")


class Machine:
    """Registers (asm operands r<k>, pa, pb, those named in ``registers``, and rdx), the flags, and
    the named memory operands as word arrays; %[outp] and %[tp] hold addresses, modelled as (array
    name, word offset), as does a register that holds one."""

    def __init__(self, memory: dict[str, list[int]], registers: Iterable[str] = ()) -> None:
        self.reg: dict[str, int] = {}
        self.cf = self.of = 0
        self.zf: int | None = None
        self.mem = memory
        self.registers = set(registers)
        self.touched: set[str] = set()

    def _loc(self, text: str) -> tuple[str, object]:
        text = text.strip()
        if text.startswith("$"):
            return "imm", int(text[1:], 0)
        if text == "%%rdx":
            return "reg", "rdx"
        m = re.fullmatch(r"(\d+)\((%%rdx|%\[\w+\])\)", text)
        if m:  # a word of the array whose address a register (rdx, r<k>, pa, pb) holds
            reg = m.group(2).strip("%[]")
            if reg != "rdx":
                self.touched.add(reg)
            name, base = self.reg[reg]
            return "mem", (name, base + int(m.group(1)) // 8)
        m = re.fullmatch(r"%k?\[(\w+)\]", text)
        if m and (re.fullmatch(r"r\d+|pa|pb", m.group(1)) or m.group(1) in self.registers):
            self.touched.add(m.group(1))
            return "reg", m.group(1)
        m = OPERAND.match(text)
        assert m, text
        off, name = int(m.group(1) or 0), m.group(2)
        assert off % 8 == 0 and not text.startswith("0")
        return "mem", (name, off // 8)

    def get(self, text: str) -> object:
        kind, where = self._loc(text)
        if kind == "imm":
            return where
        if kind == "reg":
            return self.reg[where]
        name, i = where
        return self.mem[name][i]

    def put(self, text: str, value: object) -> None:
        kind, where = self._loc(text)
        if kind == "reg":
            self.reg[where] = value
        else:
            assert kind == "mem"
            name, i = where
            self.mem[name][i] = value

    def run(self, lines: list[str]) -> None:
        for line in lines:
            if line.startswith("/*"):  # a comment line among the instructions
                continue
            op, _, args = line.partition("/*")[0].strip().partition(" ")
            ops = [a.strip() for a in args.split(", ")]
            if op not in ("movq", "movl", "movabsq", "mulxq", "leaq", "notq", "cmovcq", "cmovncq", "cmovzq",
                          "cmovnzq", "testq", "andq"):
                self.zf = None  # ZF is read only right after testq or andq
            if op in ("movq", "movabsq"):
                self.put(ops[1], self.get(ops[0]))
            elif op == "movl":  # a 32-bit immediate, zero-extended
                self.put(ops[1], self.get(ops[0]) & 0xFFFFFFFF)
            elif op == "leaq":  # an address plus a whole number of words
                m = re.fullmatch(r"(\d+)\(%\[(\w+)\]\)", ops[0])
                assert m, line
                name, base = self.reg[m.group(2)]
                self.put(ops[1], (name, base + int(m.group(1)) // 8))
            elif op == "notq":  # no flags
                self.put(ops[0], ~self.get(ops[0]) & MASK)
            elif op == "andq":
                v = self.get(ops[0]) & self.get(ops[1])
                self.put(ops[1], v)
                self.zf, self.cf, self.of = int(v == 0), 0, 0
            elif op == "mulxq":  # hi:lo = rdx * src; the high half written last (it may be rdx)
                prod = self.reg["rdx"] * self.get(ops[0])
                self.put(ops[1], prod & MASK)
                self.put(ops[2], prod >> 64)
            elif op in ("addq", "adcq", "adcxq", "adoxq"):
                carry = {"addq": 0, "adcq": self.cf, "adcxq": self.cf, "adoxq": self.of}[op]
                x, y = self.get(ops[0]), self.get(ops[1])
                s = x + y + carry
                self.put(ops[1], s & MASK)
                if op == "adoxq":
                    self.of = s >> 64
                elif op == "adcxq":
                    self.cf = s >> 64
                else:  # OF: the signed sum overflowed (x and y of one sign, the sum of the other)
                    self.cf, self.of = s >> 64, ((x ^ s) & (y ^ s)) >> 63 & 1
            elif op == "sbbq" and ops[0] == ops[1]:  # x - x - CF: the borrow as a mask (x may be an address)
                self.put(ops[1], -self.cf & MASK)
                self.of = None
            elif op in ("subq", "sbbq"):
                d = self.get(ops[1]) - self.get(ops[0]) - (self.cf if op == "sbbq" else 0)
                self.put(ops[1], d & MASK)
                self.cf, self.of = int(d < 0), None
            elif op == "negq":
                v = self.get(ops[0])
                self.put(ops[0], -v & MASK)
                self.cf, self.of = int(v != 0), None
            elif op == "xorl":
                assert ops[0] == ops[1]
                self.put(ops[0], 0)
                self.cf = self.of = 0
            elif op == "imulq":
                self.put(ops[1], self.get(ops[0]) * self.get(ops[1]) & MASK)
                self.cf = self.of = None
            elif op == "cmovcq":
                assert self.cf in (0, 1)
                if self.cf:
                    self.put(ops[1], self.get(ops[0]))
            elif op == "testq":
                self.zf = int(self.get(ops[0]) & self.get(ops[1]) == 0)
                self.cf = self.of = 0
            elif op == "cmovncq":
                assert self.cf in (0, 1)
                if not self.cf:
                    self.put(ops[1], self.get(ops[0]))
            elif op in ("cmovzq", "cmovnzq"):
                assert self.zf in (0, 1)
                if self.zf == (op == "cmovzq"):
                    self.put(ops[1], self.get(ops[0]))
            else:
                raise AssertionError(f"instruction outside the model: {line}")
            assert self.cf in (0, 1, None) and self.of in (0, 1, None)


def words(x: int, n: int) -> list[int]:
    return [(x >> (64 * i)) & MASK for i in range(n)]


def value(ws: list[int]) -> int:
    return sum(w << (64 * i) for i, w in enumerate(ws))


def modulus(n: int, rng: random.Random) -> int:
    """A random odd modulus of n words with the no-carry bound p < 2^(64 n - 1) (primality does not
    matter to Montgomery arithmetic); sometimes with a top word of few bits or zero low words."""
    bits = 64 * n - rng.choice([2, 3, 30, 60])
    p = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
    if rng.random() < 0.3:
        p = (p >> 128 << 128) | 1
    return p


def inputs(p: int, rng: random.Random) -> list[int]:
    return [
        0,
        1,
        2,
        p - 1,
        p - 2,
        (p - 1) // 2,
        rng.randrange(p),
        rng.randrange(p),
        1 << (p.bit_length() - 2),
    ]


def wide_inputs(p: int, n: int, rng: random.Random) -> list[int]:
    """Double-width values in [0, p R): the edges of each half, and random ones."""
    R = 1 << (64 * n)
    return [0, 1, R - 1, R, p * R - 1, (p - 1) * R, p * R - R + 1, (p // 2) * R + R - 1,
            *(rng.randrange(p * R) for _ in range(3))]  # fmt: skip
