"""Benchmarks: the generated curve modules through their Python API beside installed peers, and
their C kernels without Python.

Run ``python bench/run.py`` (or ``nox -s bench``); results go to ``bench/results/``. Not a test
package: pytest collects only tests/ (pyproject ``testpaths``).

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""
