"""The rendered prime-field C (templates/c/field.h.j2) against Python integers.

Each modulus is rendered, compiled with gcc for 64- and 32-bit limbs together with the driver
tests/c_harness/field_harness.c, and fed one batch of operations on stdin; every answer is
compared with plain modular arithmetic.  The moduli cover every code path of the template:
no-carry and textbook CIOS (and a prime where the two limb widths disagree), the three square
root methods, 4 to 12 limbs.  On x86-64 CPUs with BMI2 and ADX the 64-bit build is compiled a
second time with the x86_64_adx kernels (templates/asm/x86_64_adx/kernels.h.j2) and checked the
same way, and a third time with AddressSanitizer and UBSan (security/sanitize.py's flags), which
takes the memory forms of the window kernels that need every register.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import gmpy2
import pytest
from build_cache import compiled
from conftest import TESTS_DIR

from generator.derive import chains
from generator.derive.chains import Chain, Mul, Sqr
from generator.derive.fields import FieldModel, derive_field
from generator.emit.context import Kernel
from generator.emit.render import render
from security.sanitize import SANITIZE_CFLAGS

# the module-scoped builds are shared by every test here: one worker under xdist
pytestmark = pytest.mark.xdist_group("field_c")
HARNESS = TESTS_DIR / "c_harness" / "field_harness.c"
CC = shutil.which("gcc") or shutil.which("cc")
CFLAGS = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Wshadow", "-Wstrict-prototypes", "-Werror"]
WIDTHS = (64, 32)
# builds: limb width, or "adx" (64-bit limbs and the x86_64_adx kernels)
ADX_CFLAGS = ["-DPF_TARGET_X86_64_ADX", "-mbmi2", "-madx"]


def _cpu_has_adx() -> bool:
    """Whether this machine runs the x86_64_adx kernels (x86-64 with BMI2 and ADX)."""
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    words = set(flags.split())
    return "adx" in words and "bmi2" in words


# "adx-asan": the adx build with security/sanitize.py's AddressSanitizer and UBSan flags (frame
# pointer kept), where the window kernels that take every register give way to their memory forms
ASAN_CFLAGS = SANITIZE_CFLAGS.split()


def _compiler_has_asan() -> bool:
    """Whether gcc links AddressSanitizer programs here (its runtime is installed)."""
    if CC is None:
        return False
    probe = subprocess.run(
        [CC, "-fsanitize=address,undefined", "-x", "c", "-", "-o", "/dev/null"],
        input="int main(void) { return 0; }\n", capture_output=True, text=True,
    )  # fmt: skip
    return probe.returncode == 0


BUILDS: tuple[int | str, ...] = WIDTHS
if _cpu_has_adx():
    BUILDS = (*BUILDS, "adx", *(("adx-asan",) if _compiler_has_asan() else ()))


def _atkin_prime() -> int:
    """The first prime = 5 mod 8 above 2^254 + 2^200 (a ~255-bit Atkin modulus)."""
    q = gmpy2.next_prime((1 << 254) + (1 << 200))
    while q % 8 != 5:
        q = gmpy2.next_prime(q)
    return int(q)


def _mixed_prime() -> int:
    """A 255-bit prime whose top 64-bit limb allows no-carry CIOS but whose top 32-bit limb does not."""
    return int(gmpy2.next_prime(0x7FFFFFFFFFFFFF00 << 192))


def _window_11_prime() -> int:
    """A 703-bit prime: 11 limbs with the no-carry bound (p < 2^703)."""
    return int(gmpy2.next_prime((1 << 702) + (1 << 400)))


MODULI: dict[str, tuple[str, int]] = {
    "bn254_p": ("fp", 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47),
    "bn254_r": ("fr", 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001),
    "bls12_381_p": (
        "fp",
        0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB,
    ),
    "bls12_381_r": ("fr", 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001),
    "bls12_377_p": (
        "fp",
        0x01AE3A4617C510EAC63B05C06CA1493B1A22D9F300F5138F1EF3622FBA094800170B5D44300000008508C00000000001,
    ),
    "bw6_761_p": (
        "fp",
        int(
            "122E824FB83CE0AD187C94004FAFF3EB926186A81D14688528275EF8087BE41707BA638E584E91903CEBAFF25B423048"
            "689C8ED12F9FD9071DCD3DC73EBFF2E98A116C25667A8F8160CF8AEEAF0A437E6913E6870000082F49D00000000008B",
            16,
        ),
    ),
    "atkin_255": ("fp", _atkin_prime()),
    "ed25519_p": ("fp", (1 << 255) - 19),
    "secp256k1_p": ("fp", (1 << 256) - (1 << 32) - 977),
    "mixed_255": ("fp", _mixed_prime()),
    # 10 limbs: BW6-633's p (the register-window kernels with two spare registers)
    "bw6_633_p": (
        "fp",
        int(
            "20494478644167774678813387386538961497669590920908778075528754551012016751717791778743535050360001"
            "387419576570244406805463255765034468441182772056330021723098661967429339971741066259394985997"
        ),
    ),
    # 11 limbs: one spare register (generator/emit/adx_window.py's window_operands)
    "window_11": ("fp", _window_11_prime()),
    # 8 limbs: p of the BLS12 curve with x = -0x1ffffffbfffe00000000 (a custom curve of the tests)
    "bls12_461_p": (
        "fp",
        0x15555545554D5A555A55D69414935FBD6F1E32D8BACCA47B14848B42A8DFFA5C1CC00F26AA91557F00400020000555554AAAAAAC0000AAAAAAAB,
    ),
}


@pytest.fixture(scope="module", autouse=True)
def _private_chain_cache(tmp_path_factory: pytest.TempPathFactory):
    """Keep the chains of the test-only moduli out of generator/derive/chain_cache/."""
    saved = chains.CACHE_DIR
    chains.CACHE_DIR = tmp_path_factory.mktemp("chain_cache")
    yield
    chains.CACHE_DIR = saved


@dataclass
class Built:
    field: FieldModel
    exe: dict[int | str, Path]  # build (see BUILDS) -> driver executable

    def run(self, width: int | str, lines: list[str]) -> list[str]:
        proc = subprocess.run(
            [str(self.exe[width])], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120,
            env={**os.environ, "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1"},
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout.splitlines()
        assert len(out) == len(lines), proc.stderr
        return out


def _compile(src_dir: Path, prefix: str, build: int | str) -> Path:
    """The driver for one rendered field and build, compiled once per content (tests/build_cache.py)."""
    if build == "adx":
        flags = ["-DPF_LIMB_BITS=64", *ADX_CFLAGS]
    elif build == "adx-asan":
        flags = ["-DPF_LIMB_BITS=64", *ADX_CFLAGS, *ASAN_CFLAGS]
    else:
        flags = [f"-DPF_LIMB_BITS={build}"]
    cmd = [
        CC, *CFLAGS, *flags, f"-DPF_PREFIX={prefix}_", f"-DPF_UPPER={prefix.upper()}_",
        f"-I{src_dir}", str(HARNESS),
    ]  # fmt: skip
    return compiled(cmd, inputs=[src_dir, HARNESS], name=f"harness{build}")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, _private_chain_cache) -> dict[str, Built]:
    if CC is None:
        pytest.skip("no C compiler")
    base = tmp_path_factory.mktemp("field_c")
    limbs_h = render("c/limbs.h.j2", header="generated by pairforge for tests - do not edit")
    jobs = []
    result: dict[str, Built] = {}
    for name, (prefix, modulus) in MODULI.items():
        field = derive_field(prefix, modulus, name)
        d = base / name
        d.mkdir()
        (d / "limbs.h").write_text(limbs_h)
        shapes = [Kernel(w, field.limbs64 * 64 // w, field.no_carry(w)) for w in WIDTHS]
        (d / "asm_x86_64_adx.h").write_text(render("asm/x86_64_adx/kernels.h.j2", kernels=shapes, header="test"))
        (d / "field_under_test.h").write_text(
            render("c/field.h.j2", field=field, header=f"generated by pairforge for tests ({name}) - do not edit")
        )
        result[name] = Built(field, {})
        jobs += [(name, d, prefix, w) for w in BUILDS]
    with ThreadPoolExecutor() as pool:
        exes = list(pool.map(lambda job: _compile(job[1], job[2], job[3]), jobs))
    for (name, _, _, w), exe in zip(jobs, exes, strict=True):
        result[name].exe[w] = exe
    return result


def _edge_values(p: int, bits: int) -> list[int]:
    half = (p - 1) // 2
    return [0, 1, 2, 3, p - 1, p - 2, half, half + 1, half - 1, (1 << (bits - 1)) % p, p - (1 << 64) % p, 4, 9]


def _values(p: int, bits: int, rng: random.Random, count: int) -> list[int]:
    values = _edge_values(p, bits)
    values += [rng.randrange(p) for _ in range(count)]
    # operands whose words are mostly all-ones or all-zeros
    values += [p - 1 - rng.randrange(1 << 64), rng.randrange(1 << 64), p - (1 << rng.randrange(bits - 1))]
    return values


def _legendre(a: int, p: int) -> int:
    return int(gmpy2.legendre(a, p))


def _check_all(b: Built, width: int | str) -> None:
    f = b.field
    p = f.modulus
    R = 1 << (64 * f.limbs64)
    rng = random.Random(f"{p:x}:{width}")
    values = _values(p, f.bits, rng, 40)
    pairs = [(x, y) for x in _edge_values(p, f.bits)[:8] for y in _edge_values(p, f.bits)[:8]]
    pairs += [(rng.choice(values), rng.choice(values)) for _ in range(120)]

    lines: list[str] = []
    expect: list[object] = []  # a str to compare, or a callable checking the line

    def add(line: str, want: object) -> None:
        lines.append(line)
        expect.append(want)

    def h(v: int) -> str:
        return f"{v:x}"

    def num(v: int) -> str:
        return f"{v % p:0{len(f'{R - 1:x}')}x}"

    nb = f.nbytes
    add("zero 0", num(0))
    add("one 0", num(1))
    for x, y in pairs:
        add(f"add {h(x)} {h(y)}", num(x + y))
        add(f"sub {h(x)} {h(y)}", num(x - y))
        add(f"triadd {h(x)} {h(y)}", num(3 * x + 2 * y))  # the cyclotomic squarings' outputs
        add(f"trisub {h(x)} {h(y)}", num(3 * x - 2 * y))
        add(f"mul {h(x)} {h(y)}", num(x * y))
        if f.spare_bits >= 2:
            add(f"wmul {h(x)} {h(y)}", num(x * y))
        add(f"equal {h(x)} {h(y)}", str(int(x == y)))
        flag = rng.randrange(2)
        add(f"cmov {h(x)} {h(y)} {flag}", num(y if flag else x))
    for x in values:
        add(f"sqr {h(x)}", num(x * x))
        if f.spare_bits >= 2:
            add(f"wsqr {h(x)}", num(x * x))
        add(f"neg {h(x)}", num(-x))
        add(f"dbl {h(x)}", num(2 * x))
        add(f"inv {h(x)}", num(pow(x, p - 2, p)))
        add(f"invvar {h(x)}", num(pow(x, p - 2, p)))
        n = rng.randrange(0, 9)
        add(f"sqrn {h(x)} {n}", num(pow(x, 1 << n, p)))
        add(f"legendre {h(x)}", str(_legendre(x, p)))
        add(f"iszero {h(x)}", str(int(x == 0)))
        add(f"isone {h(x)}", str(int(x == 1)))
        add(f"isodd {h(x)}", str(x & 1))
        add(f"islex {h(x)}", str(int(x > (p - 1) // 2)))
        add(f"mont {h(x)}", num(x * R))
        add(f"tobytes {h(x)}", f"{x:0{2 * nb}x}")
        add(f"frombytes {x:0{2 * nb}x}", "1 " + num(x))
        for a in (x, x * x % p):  # a square and (half the time) a non-square

            def check_sqrt(line: str, a: int = a) -> bool:
                ok, root = line.split()
                if _legendre(a, p) == -1:
                    return ok == "0"
                return ok == "1" and int(root, 16) ** 2 % p == a

            add(f"sqrt {h(a)}", check_sqrt)
    if f.spare_bits >= 2:
        # redc of raw double-width integers up to its bound p R
        r_inv2 = pow(R * R, -1, p)
        for hi in [0, 1, p - 1, p - 2] + [rng.randrange(p) for _ in range(30)]:
            for lo in (0, 1, R - 1, rng.randrange(R)):
                add(f"redc {h(hi)} {h(lo)}", num((hi * R + lo) * r_inv2))
        # sums modulo p R (lazy reduction in the tower), at the edges of [0, p R)
        pr = p * R
        edges = [0, 1, R - 1, R, pr - 1, pr - R, pr // 2, p * p - 1] + [rng.randrange(pr) for _ in range(40)]

        def wide(v: int) -> str:
            return f"{v:0{2 * len(f'{R - 1:x}')}x}"

        for u in edges:
            for v in (edges[rng.randrange(len(edges))], rng.randrange(pr), pr - 1 - u):
                args = f"{h(u // R)} {h(u % R)} {h(v // R)} {h(v % R)}"
                add(f"wadd {args}", wide((u + v) % pr))
                add(f"wsub {args}", wide((u - v) % pr))
    # non-canonical input is rejected by from_bytes, and reduced by from_int
    for bad in (p, p + 1, (1 << f.bits) - 1, (1 << (8 * nb)) - 1, p + rng.randrange((1 << (8 * nb)) - p)):
        add(f"frombytes {bad:0{2 * nb}x}", lambda line: line.split()[0] == "0")
    for big in (p, (1 << (8 * nb)) - 1, R - 1, R - p, rng.randrange(R)):
        add(f"fromint {h(big)}", num(big))

    out = b.run(width, lines)
    failures = []
    for line, want, got in zip(lines, expect, out, strict=True):
        ok = want(got) if callable(want) else got == want
        if not ok:
            failures.append(f"{line[:120]}\n    got  {got}\n    want {want if not callable(want) else '(check)'}")
    assert not failures, f"{len(failures)} of {len(lines)} wrong, first ones:\n" + "\n".join(failures[:5])


@pytest.mark.parametrize("width", BUILDS)
@pytest.mark.parametrize("name", list(MODULI))
def test_field_against_python(built: dict[str, Built], name: str, width: int | str) -> None:
    _check_all(built[name], width)


def test_moduli_cover_every_path(built: dict[str, Built]) -> None:
    fields = [b.field for b in built.values()]
    assert {f.sqrt.method for f in fields} == {"p3mod4", "atkin", "tonelli_shanks"}
    for w in WIDTHS:
        assert any(f.no_carry(w) for f in fields) and any(not f.no_carry(w) for f in fields)
    assert any(f.no_carry(64) != f.no_carry(32) for f in fields)
    assert any(f.no_carry(64) and not f.no_carry_square(64) for f in fields)  # BLS12-381 r
    assert max(f.limbs64 for f in fields) == 12
    assert {10, 11} <= {f.limbs64 for f in fields}  # the window kernels with spare registers
    assert built["bls12_377_p"].field.sqrt.two_adicity == 46


def test_fp_and_fr_in_one_unit(tmp_path: Path, _private_chain_cache) -> None:
    """Both fields of a curve in one translation unit, each header included twice, no warnings."""
    if CC is None:
        pytest.skip("no C compiler")
    (tmp_path / "limbs.h").write_text(render("c/limbs.h.j2", header="test"))
    for name in ("bls12_381_p", "bls12_381_r"):
        prefix, modulus = MODULI[name]
        field = derive_field(prefix, modulus, name)
        (tmp_path / f"{prefix}.h").write_text(render("c/field.h.j2", field=field, header="test"))
    src = tmp_path / "unit.c"
    src.write_text(
        '#include "fp.h"\n#include "fr.h"\n#include "fp.h"\n#include "fr.h"\n'
        "int main(void) {\n"
        "    fp_t a; fr_t b;\n"
        "    fp_set_one(&a); fp_inv(&a, &a); fr_set_one(&b); fr_sqr(&b, &b);\n"
        "    return !(fp_is_one(&a) && fr_is_one(&b) && fp_legendre(&a) == 1 && fr_legendre(&b) == 1);\n"
        "}\n"
    )
    for w in WIDTHS:
        exe = tmp_path / f"unit{w}"
        cmd = [CC, *CFLAGS, "-Wconversion", "-Wcast-qual", f"-DPF_LIMB_BITS={w}", f"-I{tmp_path}", str(src), "-o", str(exe)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert subprocess.run([str(exe)]).returncode == 0


def test_chain_macro_is_generic() -> None:
    """_chain.j2 renders any Chain for any element type and C function names."""
    from generator.emit.render import environment

    c = Chain(exponent=14, steps=(Sqr(1, 0, 1), Mul(2, 1, 0), Sqr(2, 2, 2), Mul(2, 2, 1)), result=2, nregs=3)
    c.verify()
    macro = environment().from_string(
        '{% from "c/_chain.j2" import chain %}{{ chain(c, "fp12_t", "fp12_cyclotomic_sqr_n", "fp12_mul", "&y", "x") }}'
    )
    text = macro.render(c=c)
    assert "fp12_t r[3];" in text
    assert "r[0] = *x;" in text
    assert "fp12_cyclotomic_sqr_n(&r[2], &r[2], 2);" in text
    assert "fp12_mul(&r[2], &r[1], &r[0]);" in text
    assert "y = r[2];" in text and "*&y" not in text
    assert text.strip().startswith("{") and text.strip().endswith("}")
