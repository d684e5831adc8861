"""The GIL-releasing operations give the same results from 8 threads at once as from one
(no mutable global state in the generated C)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import STANDARD_CURVES


@pytest.mark.parametrize("pkg", STANDARD_CURVES)
def test_pairings_and_msm_from_eight_threads(curve_module, pkg) -> None:
    C = curve_module(pkg)
    G1, G2 = C.G1.generator(), C.G2.generator()
    jobs = [(G1 * (3 + i), G2 * (5 + 2 * i), [G1 * (i + 1), G1 * (i + 7)], [11 + i, 13 * i + 1]) for i in range(8)]

    def work(job):
        P, Q, points, scalars = job
        return (C.pairing(P, Q).to_bytes(), C.multi_pairing([P, -P], [Q, Q]).is_one(),
                C.G1.msm(points, scalars).to_bytes(), (Q * 12345).to_bytes())

    expected = [work(job) for job in jobs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(2):
            assert list(pool.map(work, jobs)) == expected
    assert all(multi for _, multi, _, _ in expected)
