"""Build the extension module of every curve package committed in generated/.

`pip install -e .` (and `pip install .`) compile, for each package, the module this CPU loads:
on an x86-64 CPU with BMI2 and ADX `_core_adx.pyx` into `generated.<pkg>._core_adx` (the
x86_64-adx field kernels), elsewhere `_core.pyx` into `generated.<pkg>._core` (portable). The
package compiles a missing `_core` on first use, when it is wanted (PAIRFORGE_TARGET=generic64);
PAIRFORGE_BUILD_TARGETS=all compiles both here (CI does, for the tests that compare targets).
The modules are compiled next to their `.pyx`, so `from generated import bls12_381` works from
the checkout, and copied to where setuptools wants them. `python setup.py build_ext --inplace`
does the same without installing.

A wheel (`python -m build`, `pip wheel .`, `pip install .`) is what users install without a
compiler, so it differs from an editable install in three ways (WheelWithEveryTarget, BuildPy):
it holds both modules of every package on x86-64 (the package picks one at import by CPUID);
it holds no sources of the curve packages (.pyx, c/, wasm/), so a missing module is an
ImportError there and never a compile; and it carries the generator's templates, curve files and
licence texts as package data (generator/_data/), so that `gen-curve --out` and `--wheel` work
from an install with no checkout.

Builds are parallel and incremental: each module is cythonized and compiled in its own process
(generator/build.py's `build_module`), several at once, and a module whose stamp
(`_core....so.stamp`, beside it) holds the current build key (a hash of its sources, flags and
toolchain) is not compiled again. A second `pip install -e '.[test]'` compiles nothing.

Environment:
  PAIRFORGE_CURVES=bls12_381,bn254   build only these packages (default: every one in generated/ but
                                     the opt-in ones, whose curve file says install = "opt-in";
                                     PAIRFORGE_CURVES=all builds those too)
  PAIRFORGE_LIMB_BITS=32   build the generic32 variant (32-bit limbs) instead of generic64
  PAIRFORGE_CFLAGS="..."   extra compiler flags (e.g. sanitizers)
  PAIRFORGE_BUILD_JOBS=N   compile N modules in parallel (default: the number of CPUs)
  PAIRFORGE_BUILD_TARGETS=all   also the modules this CPU does not load by default (x86-64: the
                           portable _core beside _core_adx); default `host`
"""

import filecmp
import functools
import importlib.util
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

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


@functools.cache
def _selected_packages() -> tuple[Path, ...]:
    """The packages to build: PAIRFORGE_CURVES's, or every one but the opt-in ones (resolved, once
    per build: BuildPy asks for each package it copies)."""
    return tuple(p.resolve() for p in pfb.installed_packages(ROOT / "generated"))


def curve_extensions(every_target: bool = False):
    """One Extension per module to build (not cythonized: BuildCurves builds them itself): the
    module(s) this CPU loads (host_modules), or with ``every_target`` both where x86-64 has two."""
    packages = _selected_packages()
    limb_bits = pfb.limb_bits_from_env()
    extensions = []
    for pkg in packages:
        for adx in pfb.package_modules(pkg, limb_bits, True if every_target else None):
            extensions.append(pfb.make_extension(pkg, limb_bits, relative_to=ROOT, adx=adx))
    return extensions


def _package_dir(ext) -> Path:
    return ROOT / Path(ext.sources[0]).parent


def _build_size(ext) -> int:
    """Bytes of C behind a module: the larger ones start first, so the last to finish is small."""
    return sum(os.path.getsize(ROOT / p) for p in [*ext.sources, *ext.depends] if (ROOT / p).is_file())


class BuildCurves(build_ext):
    """build_ext that builds each curve module with generator/build.py, in parallel and only
    when its build key changed (-j / PAIRFORGE_BUILD_JOBS: modules at once)."""

    def finalize_options(self):
        if self.parallel is None:
            jobs = os.environ.get("PAIRFORGE_BUILD_JOBS") or str(os.cpu_count() or 1)
            self.parallel = max(1, int(jobs))
        super().finalize_options()

    def build_extensions(self):
        self.check_extensions_list(self.extensions)
        limb_bits = pfb.limb_bits_from_env()
        jobs = (os.cpu_count() or 1) if self.parallel is True else max(1, int(self.parallel or 1))
        modules = pfb.host_modules(limb_bits)
        if modules == (True,) and all(Path(ext.sources[0]).stem == pfb.ADX_STEM for ext in self.extensions):
            _say(
                "this CPU runs the x86_64-adx modules: compiling those only (a package compiles its "
                f"portable _core on first use if it is wanted; {pfb.BUILD_TARGETS_ENV}=all compiles both now)"
            )
        packages = {_package_dir(ext): () for ext in self.extensions}
        for ext in self.extensions:
            packages[_package_dir(ext)] += (Path(ext.sources[0]).stem == pfb.ADX_STEM,)
        for pkg, built in packages.items():  # no module of another build may outlive this one
            for module in pfb.prune_unbuilt(pkg, limb_bits, built):
                _say(f"removed {module.relative_to(ROOT)} (not built now, and out of date or of another build)")
        order = sorted(self.extensions, key=_build_size, reverse=True)
        start = time.monotonic()
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [(ext, pool.submit(self._build_curve_module, ext, limb_bits)) for ext in order]
            compiled = [ext.name for ext, future in futures if future.result()]
        print(
            f"pairforge: {len(compiled)} of {len(order)} modules compiled ({jobs} at a time) "
            f"in {time.monotonic() - start:.0f} s; the others were up to date",
            flush=True,
        )

    def _build_curve_module(self, ext, limb_bits: int) -> bool:
        pyx = ROOT / ext.sources[0]
        adx = pyx.stem == pfb.ADX_STEM
        try:
            built, compiled = pfb.build_module(pyx.parent, limb_bits, adx, progress=_say)
        except pfb.BuildError as exc:
            print(exc.log_tail, file=sys.stderr, flush=True)
            raise
        # setuptools collects the module from the build directory (and copies it back in place)
        dest = Path(self.get_ext_fullpath(ext.name))
        if dest.resolve() != built.resolve():
            dest.parent.mkdir(parents=True, exist_ok=True)
            self._copy_atomically(built, dest)
        if compiled:
            import json

            cost = json.loads(pfb.stamp_path(built).read_text(encoding="utf-8"))
            _say(f"{ext.name}: compiled in {cost['seconds']} s ({cost['cpu_seconds']} s of CPU)")
        # an up-to-date module was already reported by build_module's progress line
        return compiled

    def copy_file(self, infile, outfile, *args, **kwargs):
        """Leave an identical file alone, and replace a module atomically: a process that has
        the old module loaded keeps a valid mapping (a copy in place would truncate it)."""
        if os.path.isfile(outfile) and filecmp.cmp(infile, outfile, shallow=False):
            return outfile, False
        if str(outfile).endswith(pfb.extension_suffix()):
            self._copy_atomically(Path(infile), Path(outfile))
            return outfile, True
        return super().copy_file(infile, outfile, *args, **kwargs)

    @staticmethod
    def _copy_atomically(src: Path, dest: Path) -> None:
        import shutil

        staging = dest.with_name(f".{dest.name}.pf-tmp-{os.getpid()}")
        shutil.copy2(src, staging)
        os.replace(staging, dest)


class WheelWithEveryTarget(bdist_wheel):
    """A wheel holds every module of every package, whatever CPU builds it: it is installed on
    CPUs with and without BMI2/ADX, and never compiles at import."""

    def run(self):
        self.distribution.ext_modules = curve_extensions(every_target=True)
        super().run()


# Files of the curve packages that only a build reads: a wheel leaves them out.
SOURCE_SUFFIXES = (".pyx", ".pxd")
SOURCE_DIRS = ("c", "wasm")
# What the generator reads at run time from outside its package in a checkout (generator/resources.py),
# copied into it for a wheel: folder or file in the repository -> path under generator/_data/.
GENERATOR_DATA = {"templates": "templates", "curves": "curves", "LICENSE-MIT": "LICENSE-MIT", "LICENSE-APACHE": "LICENSE-APACHE"}


class BuildPy(build_py):
    """build_py of a wheel: without the curve packages' sources, with the generator's data, and
    without the opt-in curve packages that PAIRFORGE_CURVES does not name (it compiles none of
    their modules)."""

    def _wheel(self) -> bool:
        return not getattr(self, "editable_mode", False)

    def _left_out(self, package: str) -> bool:
        """A package of an opt-in curve that this wheel does not build (pfb.select_packages)."""
        parts = package.split(".")
        if not (self._wheel() and parts[0] == "generated" and len(parts) > 1):
            return False
        pkg_dir = ROOT / "generated" / parts[1]
        return pfb.is_opt_in(pkg_dir) and pkg_dir.resolve() not in _selected_packages()

    def find_package_modules(self, package, package_dir):
        return [] if self._left_out(package) else super().find_package_modules(package, package_dir)

    def find_data_files(self, package, src_dir):
        files = super().find_data_files(package, src_dir)
        if not (self._wheel() and package.startswith("generated.")):
            return files
        if self._left_out(package):
            return []
        return [f for f in files if not self._source_only(Path(f).resolve().relative_to(ROOT / "generated"))]

    @staticmethod
    def _source_only(path: Path) -> bool:
        """``path`` (``<package>/...`` under generated/) is read only by a build."""
        return path.suffix in SOURCE_SUFFIXES or (len(path.parts) > 2 and path.parts[1] in SOURCE_DIRS)

    def run(self):
        super().run()
        if not self._wheel():
            return
        import shutil

        data_dir = Path(self.build_lib) / "generator" / "_data"
        for source, dest in GENERATOR_DATA.items():
            src, dst = ROOT / source, data_dir / dest
            if src.is_dir():
                shutil.copytree(src, dst, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)


def _say(line: str) -> None:
    print(f"pairforge: {line}", flush=True)


setup(
    ext_modules=curve_extensions(),
    cmdclass={"build_ext": BuildCurves, "bdist_wheel": WheelWithEveryTarget, "build_py": BuildPy},
)
