"""Benchmarks: the generated curve modules through their Python API, beside installed peers.

Run ``python bench/run.py`` (or ``nox -s bench``); results go to ``bench/results/``.
"""
