"""The kernels of one c/asm_x86_64_adx.h, in the order the header carries them: which kernels the
field shapes of a curve need from the x86_64-adx target, written by adx_products.py (the
Montgomery products, reduction and squares), adx_sums.py (sums, differences, 3t +- 2x, divsteps)
and adx_factors.py (the lazy tower's small factors), at every limb count.

templates/asm/x86_64_adx/kernels.h.j2 lays out what ``kernel_header`` returns (the Jinja global
``adx_kernels``, generator/emit/render.py). Imports derive.model (the curve's lazy tower) and the
adx_* writers.

Layer: emit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from ..derive.lazy_reduction import LazyReductionModel
from ..derive.model import CurveModel
from . import adx_factors, adx_products, adx_sums, adx_window

# The lazy tower's k a + b kernels (fp_mac_small, fpw_mac_small) are written up to this many limbs.
MAC_SMALL_LIMBS = adx_sums.SUM_LIMBS


class KernelShape(Protocol):
    """One field-kernel shape (generator/emit/context.py's Kernel): limb count at a limb width, and
    whether the no-carry Montgomery form applies."""

    @property
    def limb_bits(self) -> int: ...

    @property
    def limbs(self) -> int: ...

    @property
    def no_carry(self) -> bool: ...


@dataclass(frozen=True)
class SmallFactors:
    """The lazy tower's small-factor kernels at Fp's limb count: fpw_mul_small_mod's (k a, p R - a,
    the conditional subtractions, the quotient's k a + b and subtraction) and fp2's k a + b."""

    limbs: int
    wide_small: bool  # pf_wide_mul_small, pf_wide_neg, pf_csub (m.lazy.wide_small)
    wide_top: bool  # pf_wide_mul_small returns the word above k a
    csub_top: bool  # pf_csub_top: some factor has k p >= R (m.lazy.wide_small_top)
    quotient: bool  # pf_wide_muladd_small, pf_submul_top (m.lazy.wide_quotient)
    mac_small: bool  # pf_mac_small, pf_wide_mac_small (m.lazy.beta_add or m.lazy.fp2_sqr_plain)


def small_factors(lazy: LazyReductionModel, limbs: int, no_carry_limbs: Iterable[int]) -> SmallFactors:
    """What the lazy tower of a curve with Fp of ``limbs`` limbs takes from this target: only the
    no-carry shapes, fpw_mul_small_mod's kernels up to the register window, the mac kernels up to
    MAC_SMALL_LIMBS."""
    no_carry = limbs in set(no_carry_limbs)
    return SmallFactors(
        limbs=limbs,
        wide_small=bool(lazy.wide_small) and no_carry and limbs <= adx_window.WINDOW_MAX_LIMBS,
        wide_top=bool(lazy.wide_small_top or lazy.wide_quotient),
        csub_top=bool(lazy.wide_small_top),
        quotient=bool(lazy.wide_quotient),
        mac_small=bool(lazy.fp2_mul and (lazy.beta_add or lazy.fp2_sqr_plain))
        and no_carry
        and limbs <= MAC_SMALL_LIMBS,
    )


@dataclass(frozen=True)
class KernelHeader:
    """What kernels.h.j2 lays out: whether the register-window preamble (PF_ADX_MODULUS_OPERAND,
    PF_ADX_ASAN) is needed, the numbers its comment quotes, and the kernels' C text in order (each
    block starts with the blank lines that separate it from the one before)."""

    window: bool
    window_first: int
    window_last: int
    sum_limbs: int
    blocks: tuple[str, ...]


def _small_factor_blocks(s: SmallFactors) -> list[str]:
    n = s.limbs
    blocks: list[str] = []
    if s.wide_small:
        text = (
            f"{adx_factors.wide_mul_small(n, s.wide_top)}\n{adx_factors.wide_neg(n)}\n{adx_factors.csub(n)}"
        )
        if s.csub_top:
            text += "\n" + adx_factors.csub_top(n)
        if s.quotient:
            text += (
                f"\n{adx_factors.mac_small(n, 2 * n, 'wide_muladd_small', True)}\n{adx_factors.submul_top(n)}"
            )
        blocks.append(text + "\n")
    if s.mac_small:
        blocks += [
            adx_factors.mac_small(n, n, "mac_small", False) + "\n",
            adx_factors.mac_small(n, 2 * n, "wide_mac_small", False) + "\n",
        ]
    return blocks


def write_header(shapes: Iterable[KernelShape], small: SmallFactors | None = None) -> KernelHeader:
    """The x86_64-adx kernels of the 64-bit shapes: the Montgomery section of each no-carry limb
    count, the sums of every limb count, the double-width sums and 3t +- 2x of the no-carry ones,
    then ``small``'s kernels and the divsteps."""
    shapes = [s for s in shapes if s.limb_bits == 64]
    all_limbs = sorted({s.limbs for s in shapes})
    nc_limbs = sorted({s.limbs for s in shapes if s.no_carry})
    textbook = {s.limbs for s in shapes if not s.no_carry}
    window_last = adx_window.WINDOW_MAX_LIMBS
    blocks = [adx_products.limb_section(n, n in textbook) for n in nc_limbs]
    for n in all_limbs:
        blocks += [f"\n{adx_sums.mod_sum(n, op, n in nc_limbs)}" for op in ("add", "sub")]
    for n in nc_limbs:
        if n <= adx_sums.SUM_LIMBS:
            blocks += [f"\n{adx_sums.wide_sum(n, op)}" for op in ("add", "sub")]
    for n in nc_limbs:
        if n <= adx_sums.COPY_LIMBS:
            blocks += [f"\n{adx_sums.tri_sum(n, op)}" for op in ("add", "sub")]
    for n in nc_limbs:
        if adx_sums.SUM_LIMBS < n <= window_last:
            blocks += [f"\n{adx_sums.wide_sum(n, op)}" for op in ("add", "sub")]
    blocks.append("\n")
    if small is not None:
        blocks += _small_factor_blocks(small)
    blocks.append(adx_sums.divsteps())
    return KernelHeader(
        window=any(adx_products.REG_LIMBS < n <= window_last for n in all_limbs),
        window_first=adx_products.REG_LIMBS + 1,
        window_last=window_last,
        sum_limbs=adx_sums.SUM_LIMBS,
        blocks=tuple(blocks),
    )


def kernel_header(shapes: Iterable[KernelShape], model: object = None) -> KernelHeader:
    """The header of a curve (``model``: a CurveModel, whose lazy tower may take small-factor
    kernels; an Edwards model or None takes none)."""
    shapes = list(shapes)
    small = None
    if isinstance(model, CurveModel):
        nc_limbs = [s.limbs for s in shapes if s.limb_bits == 64 and s.no_carry]
        small = small_factors(model.lazy, model.fp.limbs64, nc_limbs)
    return write_header(shapes, small)
