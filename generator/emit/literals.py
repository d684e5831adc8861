"""The C literals the templates and the emit modules write: big integers as limb initializers.

What it holds: ``c_limbs`` (an integer as PF_W(hi32, lo32) words) and ``c_hex`` (a short hex form
for comments), the Jinja filters of the same names (render.py installs them) that tower.py and the
template contexts also call.

What it may import: the standard library only; every emit module may import it.

Layer: emit.
"""

from __future__ import annotations


def c_limbs(value: int, limbs64: int) -> str:
    """An integer as a C initializer list of PF_W(hi32, lo32) words, least significant first.

    PF_W (templates/c/limbs.h.j2) makes one 64-bit limb or two 32-bit limbs of each word, so
    the same text serves both limb widths.
    """
    if value < 0 or value >= 1 << (64 * limbs64):
        raise ValueError(f"{value:#x} does not fit in {limbs64} 64-bit limbs")
    words = []
    for i in range(limbs64):
        word = (value >> (64 * i)) & ((1 << 64) - 1)
        words.append(f"PF_W(0x{word >> 32:08x}, 0x{word & 0xFFFFFFFF:08x})")
    return ", ".join(words)


def c_hex(value: int) -> str:
    """A short hex form of a big integer for comments."""
    text = f"{value:#x}"
    return text if len(text) <= 40 else f"{text[:20]}...{text[-16:]}"
