"""Rendering of the curve model into C, Cython and Python files."""
