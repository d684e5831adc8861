# SPDX-License-Identifier: MIT OR Apache-2.0
"""A griffe extension for the API reference (mkdocs.yml, the python handler's ``extensions``): a
Google-style ``Example:`` section is read as ``Examples:``, so that its ``>>>`` lines render as
code. Griffe's Google parser knows only the plural; the singular would become an admonition whose
doctest lines are read as Markdown (``x[0][-1]`` as a reference link that --strict rejects)."""

from __future__ import annotations

import re
from typing import Any

import griffe

SINGULAR = re.compile(r"^(\s*)Example:\s*$", re.MULTILINE)


class ExampleSections(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = SINGULAR.sub(r"\1Examples:", obj.docstring.value)
