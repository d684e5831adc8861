"""generated.<curve>.kzg on every curve, with test setups from a KNOWN tau (insecure by design:
whoever knows tau can forge openings; only for tests): commitments equal [p(tau)] G1 computed
directly, openings verify, tampered proofs, values, points and commitments are refused, batches
with one bad opening at the first, a middle and the last position fail, bad setups are refused,
and trusted_setup.txt / .ptau files load."""

from __future__ import annotations

import pytest
from conftest import GENERATED_DIR, generated_packages, load_curve_module
from kzg_util import (
    TAU,
    N,
    check_bad_setups_refused,
    check_batch_verify,
    check_commit_open_verify,
    check_evaluation_form,
    check_input_errors,
    check_ptau,
    check_trusted_setup_file,
)

# the curves whose package carries the kzg module (their curve file lists the protocol)
KZG_PACKAGES = [pkg for pkg in generated_packages() if (GENERATED_DIR / pkg / "kzg.py").is_file()]


@pytest.fixture(scope="session", params=KZG_PACKAGES)
def curve(request):
    """Each curve package with a kzg module, in turn (conftest's `curve`, narrowed)."""
    return load_curve_module(request.param)


@pytest.fixture(scope="module")
def setup(curve):
    return curve.kzg.Setup.insecure_from_tau(TAU, N, g2_count=3)


def test_commit_open_verify(curve, setup):
    check_commit_open_verify(curve, setup)


def test_evaluation_form(curve, setup):
    check_evaluation_form(curve, setup)


@pytest.mark.parametrize("bad", ["first", "middle", "last"])
def test_batch_verify(curve, setup, bad):
    check_batch_verify(curve, setup, bad)


def test_input_errors(curve, setup):
    check_input_errors(curve, setup)


def test_bad_setups_refused(curve, setup):
    check_bad_setups_refused(curve, setup)


def test_trusted_setup_file(curve, setup, tmp_path):
    check_trusted_setup_file(curve, setup, tmp_path)


def test_ptau(curve):
    check_ptau(curve)
