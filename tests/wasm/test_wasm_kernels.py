"""The wasm32 field kernels (c/asm_wasm32.h, templates/asm/wasm32/kernels.h.j2) against Python's
integers: p_mul and p_sqr of Fp and Fr, built for wasm32 as the ABI module is, on the values at
the ends of the range (0, 1, p - 1, every limb at its largest, powers of two) and random ones.
tests/wasm/test_wasm.py's known-answer programs cover the same code through the curve operations;
this checks the kernels' edge values directly, and that the no-carry fields do use them; and the
fused Fp2 product of 4-limb fields (u^2 = -1, BN254) directly and through fp2_mul.
About 15 s (three small builds with zig cc)."""

from __future__ import annotations

import importlib
import random
import subprocess
from pathlib import Path

import pytest
from conftest import REPO_ROOT
from wasm_util import require_wasm

from generator import wasm

# Fp of 4, 6 and 12 limbs (29-bit columns: 9, 14 and 27), Fr of 4 and 6
PACKAGES = ("bn254", "bls12_381", "bw6_761")

DRIVER = """
#include "fp.h"
#include "fr.h"
#if !defined(PF_ASM_MUL_MONT_{fp_n}_NC) || !defined(PF_ASM_MUL_MONT_{fr_n}_NC)
#error "the wasm32 kernels are not selected"
#endif
#define EXPORT(name) __attribute__((export_name(#name)))
static limb_t buf[3 * FP_NLIMBS];
EXPORT(buffer) limb_t *buffer(void) {{ return buf; }}
EXPORT(fp_mul_x) void fp_mul_x(fp_t *o, const fp_t *a, const fp_t *b) {{ fp_mul(o, a, b); }}
EXPORT(fp_sqr_x) void fp_sqr_x(fp_t *o, const fp_t *a) {{ fp_sqr(o, a); }}
EXPORT(fr_mul_x) void fr_mul_x(fr_t *o, const fr_t *a, const fr_t *b) {{ fr_mul(o, a, b); }}
EXPORT(fr_sqr_x) void fr_sqr_x(fr_t *o, const fr_t *a) {{ fr_sqr(o, a); }}
"""


def _instantiate_driver(pkg: str, source: str, tmp_path: Path):
    """Compile a driver against the package's C for wasm32 (the project's zig flags, 64-bit limbs)
    and instantiate it under wasmtime: (store, exports)."""
    import wasmtime

    src = tmp_path / "driver.c"
    src.write_text(source)
    out = tmp_path / "driver.wasm"
    c_dir = REPO_ROOT / "generated" / pkg / "c"
    cmd = [*wasm.zig_command(), "cc", "-target", "wasm32-freestanding", *wasm.COMMON_ARGS, "-DPF_LIMB_BITS=64",
           "-isystem", str(wasm._shim_dir(tmp_path)), "-I", str(c_dir), "-Wl,--no-entry", "-s", str(src), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    store = wasmtime.Store()
    return store, wasmtime.Instance(store, wasmtime.Module.from_file(store.engine, str(out)), []).exports(store)


def edge_values(p: int, nl: int, rng: random.Random, n: int) -> list[int]:
    """0, 1, 2, p - 1, p - 2, (p - 1) / 2, values whose 29- or 64-bit limbs are all ones (below p),
    powers of two below p, then n random values."""
    vals = {0, 1, 2, p - 1, p - 2, (p - 1) // 2}
    for w in (29, 64):
        ones = sum(((1 << w) - 1) << (w * i) for i in range(64 * nl // w + 1)) % (1 << (64 * nl))
        vals.add(ones % p)
        vals.add(ones & ((1 << (p.bit_length() - 1)) - 1))
    vals.update(1 << k for k in range(0, p.bit_length() - 1, 29))
    vals.update(rng.randrange(p) for _ in range(n))
    return sorted(vals)


@pytest.mark.parametrize("pkg", PACKAGES)
def test_kernels_match_integers(pkg: str, tmp_path: Path) -> None:
    require_wasm()

    mod = importlib.import_module(f"generated.{pkg}")
    fields = {"fp": mod.P, "fr": mod.R}
    nls = {name: (q.bit_length() + 63) // 64 for name, q in fields.items()}
    store, ex = _instantiate_driver(pkg, DRIVER.format(fp_n=nls["fp"], fr_n=nls["fr"]), tmp_path)
    mem, buf = ex["memory"], ex["buffer"](store)
    rng = random.Random(15)

    def put(slot: int, v: int, nb: int) -> None:
        mem.write(store, v.to_bytes(nb, "little"), buf + slot * nb)

    def get(slot: int, nb: int) -> int:
        return int.from_bytes(mem.read(store, buf + slot * nb, buf + (slot + 1) * nb), "little")

    for name, q in fields.items():
        nb = 8 * nls[name]
        rinv = pow(2 ** (64 * nls[name]), -1, q)
        vals = edge_values(q, nls[name], rng, 40)
        pairs = [(a, b) for a in vals[:12] for b in vals[-12:]] + [(a, rng.choice(vals)) for a in vals]
        for a, b in pairs:
            put(0, a, nb), put(1, b, nb), put(2, 0, nb)
            ex[f"{name}_mul_x"](store, buf + 2 * nb, buf, buf + nb)
            assert get(2, nb) == a * b * rinv % q, f"{pkg} {name}_mul({a:#x}, {b:#x})"
        for a in vals:
            put(0, a, nb), put(2, 0, nb)
            ex[f"{name}_sqr_x"](store, buf + 2 * nb, buf)
            assert get(2, nb) == a * a * rinv % q, f"{pkg} {name}_sqr({a:#x})"


# Fp2 = Fp[u]/(u^2 + 1) over a 4-limb Fp (BN254): the fused Karatsuba kernel, directly and
# through the tower's fp2_mul, which must select it (only fields of at most 9 29-bit digits have it)
FP2_PACKAGES = ("bn254",)

FP2_DRIVER = """
#include "fp.h"
#include "fr.h"
#include "tower.h"
#if !defined(PF_ASM_FP2_MUL_MONT_{fp_n}_NC)
#error "the wasm32 Fp2 kernel is not selected"
#endif
#define EXPORT(name) __attribute__((export_name(#name)))
static fp2_t buf[3];
EXPORT(buffer) fp2_t *buffer(void) {{ return buf; }}
EXPORT(kernel_x) void kernel_x(fp2_t *o, const fp2_t *a, const fp2_t *b)
{{ pf_fp2_mul_mont_{fp_n}_nc(o->c0.l, o->c1.l, a->c0.l, a->c1.l, b->c0.l, b->c1.l, FP_P, FP_N0); }}
EXPORT(fp2_mul_x) void fp2_mul_x(fp2_t *o, const fp2_t *a, const fp2_t *b) {{ fp2_mul(o, a, b); }}
EXPORT(fp2_mul_alias_x) void fp2_mul_alias_x(fp2_t *a, const fp2_t *b) {{ fp2_mul(a, a, b); }}
"""


@pytest.mark.parametrize("pkg", FP2_PACKAGES)
def test_fp2_kernel_matches_integers(pkg: str, tmp_path: Path) -> None:
    """(a0 + a1 u)(b0 + b1 u) / R mod p against Python's integers, on edge values of each
    coordinate (the signed column sums at their extremes: a0 b0 - a1 b1 near -p^2 and near p^2)
    and random ones; with the output aliasing the first input too."""
    require_wasm()

    mod = importlib.import_module(f"generated.{pkg}")
    p = mod.P
    nl = (p.bit_length() + 63) // 64
    nb = 8 * nl
    store, ex = _instantiate_driver(pkg, FP2_DRIVER.format(fp_n=nl), tmp_path)
    mem, buf = ex["memory"], ex["buffer"](store)
    rng = random.Random(152)
    rinv = pow(2 ** (64 * nl), -1, p)

    def put(slot: int, v: tuple[int, int]) -> None:
        mem.write(store, v[0].to_bytes(nb, "little") + v[1].to_bytes(nb, "little"), buf + slot * 2 * nb)

    def get(slot: int) -> tuple[int, int]:
        raw = mem.read(store, buf + slot * 2 * nb, buf + (slot + 1) * 2 * nb)
        return int.from_bytes(raw[:nb], "little"), int.from_bytes(raw[nb:], "little")

    vals = edge_values(p, nl, rng, 6)
    ends = [0, 1, p - 1, p - 2, (p - 1) // 2] + vals[-3:]
    elems = [(x, y) for x in ends for y in ends] + [(rng.choice(vals), rng.choice(vals)) for _ in range(40)]
    pairs = [(a, b) for a in elems[:25] for b in elems[-25:]] + [(a, rng.choice(elems)) for a in elems]
    pairs += [((rng.randrange(p), rng.randrange(p)), (rng.randrange(p), rng.randrange(p))) for _ in range(200)]
    for a, b in pairs:
        want = ((a[0] * b[0] - a[1] * b[1]) * rinv % p, (a[0] * b[1] + a[1] * b[0]) * rinv % p)
        put(0, a), put(1, b)
        for fn in ("kernel_x", "fp2_mul_x"):
            put(2, (0, 0))
            ex[fn](store, buf + 4 * nb, buf, buf + 2 * nb)
            assert get(2) == want, f"{pkg} {fn}({a}, {b})"
        ex["fp2_mul_alias_x"](store, buf, buf + 2 * nb)
        assert get(0) == want, f"{pkg} fp2_mul aliased ({a}, {b})"
