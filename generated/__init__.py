# SPDX-License-Identifier: MIT OR Apache-2.0
"""Curve implementations rendered by pairforge: one sub-package per curve file in curves/.

Each sub-package (``generated.bls12_381``, ``generated.bn254``, ...) is produced by
``gen-curve`` and committed; its extension module ``_core`` is compiled by ``pip install -e .``
or ``gen-curve <name>``. Do not edit the sub-packages by hand: change the curve file or the
templates and regenerate.
"""
