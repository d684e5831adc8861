"""The ES module loader of the twisted Edwards packages (generated/<pkg>/wasm/<pkg>.mjs,
templates/js/edwards_wasm_loader.mjs.j2) under Node: `node --test` runs tests/js/wasm_edwards.test.mjs
on each package's module (built once: tests/wasm_util.py's cached_wasm): ark-vrf's tiny vectors of
every suite of the package (tests/vectors/edwards_companions/ark-vrf) through the loader's VRF
functions, and add, mul, MSM, hash to curve and the serialization profiles against values made
by the Python module, bad input as PairforgeError codes. Bandersnatch and ed_on_bw6_761 by default,
the others with --runslow. Needs node (Debian's nodejs); without it this skips locally and fails
under CI."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess

import pytest
from conftest import REPO_ROOT, TESTS_DIR, edwards_packages, skip_or_fail
from vectors_util import read_vector_json
from wasm_util import VRF_SUITES, cached_wasm, edwards_params


@pytest.mark.parametrize("pkg", edwards_params(edwards_packages()))
def test_node_loader(pkg, curve_module, tmp_path) -> None:
    node = shutil.which("node")
    if node is None:
        skip_or_fail("node is not installed (apt-get install nodejs)")
    pkg_dir, C = REPO_ROOT / "generated" / pkg, curve_module(pkg)
    rng = random.Random(f"node-{pkg}")
    nbr = len(C.Fr(0).to_bytes())
    G = C.Point.generator()
    P, Q = G * rng.randrange(1, C.R), G * rng.randrange(1, C.R)
    k = rng.randrange(1 << (8 * nbr))
    pts = [G * rng.randrange(1, C.R) for _ in range(5)]
    ks = [rng.randrange(C.R) for _ in range(5)]
    dst = "QUUX-V01-CS02-with-" + C.Point.HASH_SUITE
    vrf = []
    for prefix, (owner, suite) in VRF_SUITES.items():
        if owner == pkg:
            vrf += [{**v, "suite": suite} for v in read_vector_json("edwards_companions", f"ark-vrf/{prefix}_tiny.json")]
    assert bool(vrf) == hasattr(C, "ecvrf")
    fixture = {
        "loader": (pkg_dir / "wasm" / f"{pkg}.mjs").as_uri(), "wasm": str(cached_wasm(pkg_dir)), "name": C.NAME,
        "profiles": list(C.SERIALIZATION_PROFILES), "default_profile": C.DEFAULT_PROFILE, "g": G.to_bytes().hex(),
        "p": P.to_bytes().hex(), "q": Q.to_bytes().hex(), "p_plus_q": (P + Q).to_bytes().hex(),
        "k": k.to_bytes(nbr, "little").hex(), "p_times_k": (P * k).to_bytes().hex(),
        "msm_points": [p.to_bytes().hex() for p in pts], "msm_scalars": [x.to_bytes(nbr, "little").hex() for x in ks],
        "msm": C.Point.msm(pts, ks).to_bytes().hex(), "dst": dst,
        "h2c": C.Point.hash_to_curve(b"abc", dst.encode()).to_bytes().hex(),
        "p_in": {prof: P.to_bytes(profile=prof).hex() for prof in C.SERIALIZATION_PROFILES},
        "p_xy": b"".join(v.to_bytes(len(C.Fq(0).to_bytes()), "little") for v in P.to_affine()).hex(),
        "outside": (P + C.Point.from_affine(0, C.P - 1, check=False)).to_bytes().hex(),
        "vrf": vrf,
    }
    path = tmp_path / "fixture.json"
    path.write_text(json.dumps(fixture))
    proc = subprocess.run([node, "--test", str(TESTS_DIR / "js" / "wasm_edwards.test.mjs")], capture_output=True,
                          text=True, env={**os.environ, "PAIRFORGE_WASM_FIXTURE": str(path)}, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    passed = 4 if vrf else 3
    assert f"# pass {passed}" in proc.stdout and "# fail 0" in proc.stdout, proc.stdout[-2000:]
