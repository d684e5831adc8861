"""The Jinja environment shared by every template, with the filters that write C literals.

Layer: emit. Imports protocols, derive, the curve files and the leaves; never the drivers, cli or
generator/reference.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2

from ..resources import TEMPLATES_DIR
from . import adx_kernels
from .core import core_emit
from .literals import c_hex, c_limbs  # also imported from here by the template contexts
from .pairing import pairing_emit
from .tower import tower_emit


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
    env.globals["adx_kernels"] = adx_kernels  # the x86_64-adx kernel header's C, ready (kernels.h.j2)
    env.globals["tower_emit"] = tower_emit  # the ready statements and data of the tower templates
    env.globals["pairing_emit"] = pairing_emit  # and of pairing.h
    env.globals["core_emit"] = core_emit  # the tower levels of the Python layer (_core.pyx, _core.pyi, __init__)
    return env


def render(template: str, **context: object) -> str:
    """Render one template (a path relative to templates/) with the given context."""
    return environment().get_template(template).render(**context)
