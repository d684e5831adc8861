"""The twisted Edwards companion curves' derivations, one module per concern: ``model.py`` (the
checked ``EdwardsModel``, exported here), ``algebra.py`` (the curves and the maps between their
Edwards, Montgomery and Weierstrass models, Elligator 2), ``glv.py`` (the degree-2 endomorphism),
``hash_to_curve.py`` (the Elligator 2 constants) and ``serialization.py`` (the point encodings).

Layer: derive. These modules import derive's own modules and generator.params_edwards; never
generator/reference (the test oracle) or the layers above (protocols, emit).
"""

from __future__ import annotations

from .model import EdwardsModel, build_edwards_model

__all__ = ["EdwardsModel", "build_edwards_model"]
