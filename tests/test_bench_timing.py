"""The best-of timing helpers that bench/kzg.py, bench/wasm.py, bench/targets.py and
bench/edwards.py share (bench/timing.py): they call the function as often as they say and
return per-call times."""

from __future__ import annotations

import time

from bench.timing import calls_per_batch, fastest, seconds_per_call


def test_seconds_per_call_divides_by_the_calls() -> None:
    count = []
    wall, cpu = seconds_per_call(lambda: (count.append(1), time.sleep(0.002)), 5)
    assert len(count) == 5
    assert 0.002 <= wall < 0.2  # per call, not for the whole batch
    assert 0 <= cpu < wall  # sleeping costs no CPU time


def test_calls_per_batch_fills_the_batch() -> None:
    assert calls_per_batch(lambda: time.sleep(0.01), 0.05) in range(2, 6)
    assert calls_per_batch(lambda: time.sleep(0.01), 0.001) == 1


def test_fastest_is_the_best_batch() -> None:
    delays = iter([0.0, 0.0, 0.02, 0.002, 0.02])  # warm-up, calibration, then one call a batch
    calls = []

    def fn() -> None:
        calls.append(1)
        time.sleep(next(delays))

    best = fastest(fn, batches=3, batch_s=0.0)
    assert len(calls) == 5
    assert 0.002 <= best < 0.02
