"""The Jinja environment shared by every template, with the filters that write C literals."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

from . import adx_window

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"


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


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["c_limbs"] = c_limbs
    env.filters["c_hex"] = c_hex
    env.globals["adx_window"] = adx_window  # instruction lists of the x86_64-adx register-window kernels
    return env


def render(template: str, **context: object) -> str:
    """Render one template (a path relative to templates/) with the given context."""
    return environment().get_template(template).render(**context)
