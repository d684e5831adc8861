"""Build the extension module of every curve package committed in generated/.

`pip install -e .` (and `pip install .`) compile each `generated/<pkg>/_core.pyx` into
`generated.<pkg>._core`, and on x86-64 `_core_adx.pyx` into `generated.<pkg>._core_adx` (the
x86_64-adx field kernels, imported on CPUs with BMI2 and ADX). In an editable install, setuptools (>= 64) copies the compiled modules
into the source tree, next to their `.pyx`, so `from generated import bls12_381` works from the
checkout. `python setup.py build_ext --inplace` does the same without installing.

Environment:
  PAIRFORGE_LIMB_BITS=32   build the generic32 variant (32-bit limbs) instead of generic64
  PAIRFORGE_CFLAGS="..."   extra compiler flags (e.g. sanitizers)
  PAIRFORGE_BUILD_JOBS=N   compile N curves in parallel (default: the number of CPUs)
"""

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _load_build_module():
    # Load generator/build.py by path: importing the `generator` package would pull in its
    # runtime dependencies (sympy, gmpy2, ...), which the build environment does not have.
    spec = importlib.util.spec_from_file_location("_pairforge_build", ROOT / "generator" / "build.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


pfb = _load_build_module()


def curve_extensions():
    packages = pfb.discover_packages(ROOT / "generated")
    if not packages:
        return []
    from Cython.Build import cythonize

    limb_bits = pfb.limb_bits_from_env()
    extensions = [pfb.make_extension(pkg, limb_bits, relative_to=ROOT) for pkg in packages]
    if pfb.builds_adx(limb_bits):  # x86-64: also the x86_64-adx module of each curve
        extensions += [pfb.make_extension(pkg, limb_bits, relative_to=ROOT, adx=True) for pkg in packages]
    return cythonize(
        extensions,
        build_dir=os.path.join("build", f"cython{limb_bits}"),
        include_path=["."],
        compiler_directives=dict(pfb.CYTHON_DIRECTIVES),
        quiet=True,
    )


class BuildCurves(build_ext):
    """build_ext that compiles the curves in parallel unless told otherwise (-j / PAIRFORGE_BUILD_JOBS)."""

    def finalize_options(self):
        if self.parallel is None:
            jobs = os.environ.get("PAIRFORGE_BUILD_JOBS") or str(os.cpu_count() or 1)
            self.parallel = max(1, int(jobs))
        super().finalize_options()


setup(ext_modules=curve_extensions(), cmdclass={"build_ext": BuildCurves})
