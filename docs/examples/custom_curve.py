# SPDX-License-Identifier: MIT OR Apache-2.0
"""A new curve from a TOML file: `gen-curve --params FILE --out DIR` derives every constant from the
family and the seed, checks them, renders the C, Cython and Python, and compiles a standalone
package DIR/<pkg>/; then it imports like any other.

The curve here is a BN curve of 254 bits with another seed than BN254 (one of the test suite's
custom curves). The build is the slow part: about 15 s of one core here, because it compiles at -O1
(PAIRFORGE_CFLAGS, as the tests do); leave those variables out for a fast module (-O3, a few
times longer to compile).

Run from the repository root: python docs/examples/custom_curve.py
"""

import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CURVE_FILE = """\
name = "BN254N"
family = "BN"
x = "-0x4080000000000001"        # the seed: p(x), r(x) and everything else are derived from it
protocols = ["kzg"]               # optional: the protocol modules the package gets
"""

ROOT = Path(__file__).resolve().parents[2]
# gen-curve once pairforge is installed (pip install -e .); from a bare checkout, its module
GEN_CURVE = ["gen-curve"] if shutil.which("gen-curve") else [sys.executable, "-m", "generator.cli"]

with tempfile.TemporaryDirectory(prefix="custom-curve-") as tmp:
    params, out = Path(tmp) / "bn254n.toml", Path(tmp) / "out"
    params.write_text(CURVE_FILE)
    # a quick, test-grade build (-O1, the Cython wrapper at -O0), and the checkout on the path
    env = dict(os.environ, PAIRFORGE_CFLAGS="-O1", PAIRFORGE_WRAPPER_CFLAGS="-O0",
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))
    subprocess.run([*GEN_CURVE, "--params", str(params), "--out", str(out)], env=env, check=True)
    # out/bn254n/ is a project of its own too: pyproject.toml, setup.py, README.md (pip install out/bn254n)
    assert (out / "bn254n" / "pyproject.toml").is_file()

    # The package's own quick check (group law, serialization, pairing; each compiled module)
    subprocess.run([sys.executable, "-m", "bn254n.selftest"], env=dict(env, PYTHONPATH=str(out)), check=True)

    # Import it: the same API as every curve package
    sys.path.insert(0, str(out))
    C = importlib.import_module("bn254n")

    # The derived constants are the BN polynomials of the seed
    x = -0x4080000000000001
    assert (C.NAME, C.FAMILY, C.X, C.K) == ("BN254N", "BN", x, 12)
    assert C.P == 36 * x**4 + 36 * x**3 + 24 * x**2 + 6 * x + 1
    assert C.R == 36 * x**4 + 36 * x**3 + 18 * x**2 + 6 * x + 1
    assert C.P.bit_length() == C.R.bit_length() == 254

    # The groups have order r, and the pairing is bilinear and non-degenerate
    G, H = C.G1.generator(), C.G2.generator()
    assert (G * C.R).is_identity() and (H * C.R).is_identity()
    assert C.pairing(G * 6, H * 7) == C.pairing(G, H) ** 42 != C.GT.one()
    assert C.pairing_check([G * 3, -G], [H, H * 3])
    assert C.G1.from_bytes((G * 5).to_bytes()) == G * 5

    # The protocol modules of its curve file: KZG here
    setup = C.kzg.Setup.insecure_from_tau(77, 8)  # a KNOWN tau: examples and tests only
    proof, y = C.kzg.open(setup, [1, 2, 3], 5)
    assert y == C.Fr(1 + 2 * 5 + 3 * 25) and C.kzg.verify(setup, C.kzg.commit(setup, [1, 2, 3]), 5, y, proof)

print("A new curve from a TOML file: derived, built, imported; constants, pairing and KZG check: OK")
