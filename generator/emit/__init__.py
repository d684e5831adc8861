"""Rendering of the curve model into C, Cython and Python files.

Layer: emit. Imports protocols, derive, the curve files and the leaves; never the drivers, cli or
generator/reference.
"""
