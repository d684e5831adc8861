"""The C microbenchmark of bench/ (bench/cbench.py, bench/c/bench_kernels.c) compiles and runs
for a curve that is none of the standard four, on every target this CPU supports: the kernel
file takes its tower names and inputs from the curve's model, never from a curve name."""

from __future__ import annotations

import pytest

from bench import cbench
from bench.ops import C_KERNELS
from generator.cli import main as gen_curve

# the module-scoped builds are shared by every test here: one worker under xdist
pytestmark = [pytest.mark.xdist_group("bench_c"), pytest.mark.slow]  # renders and compiles the microbenchmark
CUSTOM = 'name = "BLS12-461"\nfamily = "BLS12"\nx = "-0x1ffffffbfffe00000000"\n'


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    root = tmp_path_factory.mktemp("bench_c")
    params = root / "bls12_461.toml"
    params.write_text(CUSTOM)
    assert gen_curve(["--params", str(params), "--out", str(root / "out"), "--no-build"]) == 0
    return root / "out" / "bls12_461", params


def test_inputs_header_names_the_tower_of_the_model(rendered) -> None:
    from generator.pipeline import derive_model

    model = derive_model(rendered[1])
    header = cbench.inputs_header(model)
    assert f"#define BENCH_FQ {model.tower.names['fq']}" in header
    assert f"#define BENCH_FK {model.tower.names['fq6']}" in header


def test_microbenchmark_runs_every_kernel(rendered) -> None:
    from generator.emit.tower import tower_emit
    from generator.pipeline import derive_model

    package_dir, params = rendered
    targets = cbench.supported_targets()
    assert "generic64" in targets
    results = cbench.run_curve(package_dir, targets, quick=True, curve_path=params)
    # the limb versions of the GT field's multiplication and squaring are timed beside the AVX-512
    # IFMA ones only where the tower has them: not this p of 461 bits (9 limbs of 52 bits)
    assert tower_emit(derive_model(params)).ifma is None
    expected = set(C_KERNELS) - {"fk_mul_limbs", "fk_sqr_limbs"}
    for target in targets:
        result = results[target]
        assert "error" not in result, result.get("error")
        assert result["fields"] == {"fp_limbs": "8", "fq": "fp2", "fk": "fp12"}
        assert set(result["kernels"]) == expected
        for name, timing in result["kernels"].items():
            assert 0 < timing["min_ns"] <= timing["median_ns"], name
