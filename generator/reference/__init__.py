"""Slow, plainly-correct pure-Python oracle (gmpy2) for tests: fields, curves, optimal ate pairing.

Nothing in here is used by generated code; it exists so that every derived constant and every
generated kernel can be compared against textbook arithmetic.

Layer: oracle. Imports only generator/reference's own modules; no module of the generator imports it
(the tests do).
"""

from .curve import Curve, Point
from .fields import (
    ExtensionField,
    ExtensionFieldElement,
    Field,
    FieldElement,
    PrimeField,
    PrimeFieldElement,
)
from .pairing import FAMILIES, ReferencePairing, reference_for_model

__all__ = [
    "Curve",
    "ExtensionField",
    "ExtensionFieldElement",
    "FAMILIES",
    "Field",
    "FieldElement",
    "Point",
    "PrimeField",
    "PrimeFieldElement",
    "ReferencePairing",
    "reference_for_model",
]
