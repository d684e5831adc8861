"""The self-check every derivation runs on its own result.

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""

from __future__ import annotations


class DerivationError(ValueError):
    """A derived value failed its numerical check; the message names the curve and the check."""


def require(condition: bool, curve: str, check: str) -> None:
    """Fail loudly with the curve and the check that failed."""
    if not condition:
        raise DerivationError(f"{curve}: derivation check failed: {check}")
