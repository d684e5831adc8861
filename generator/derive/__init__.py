"""The derivations: every constant of a curve's package, derived from its curve file and checked
(one module per concern; the twisted Edwards companion curves' in ``edwards/``).

Layer: derive. Imports derive's own modules, the curve files and the leaves; never protocols, emit
or the layers above, nor generator/reference (the test oracle).
"""
