"""The best-of timing helpers that bench/kzg.py, bench/wasm.py, bench/targets.py and
bench/edwards.py share (bench/timing.py): they call the function as often as they say and
return per-call times. A fake clock makes the timings exact (no sleeping on a loaded machine)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench import timing
from bench.timing import calls_per_batch, fastest, seconds_per_call


class FakeClock:
    """Wall and CPU clocks that move only when the timed function says how long it took."""

    def __init__(self) -> None:
        self.wall = 0.0
        self.cpu = 0.0

    def spend(self, wall: float, cpu: float | None = None) -> None:
        self.wall += wall
        self.cpu += wall if cpu is None else cpu


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    fake = FakeClock()
    monkeypatch.setattr(timing, "perf_counter", lambda: fake.wall)
    monkeypatch.setattr(timing, "process_time", lambda: fake.cpu)
    yield fake


def test_seconds_per_call_divides_by_the_calls(clock: FakeClock) -> None:
    calls = []
    wall, cpu = seconds_per_call(lambda: (calls.append(1), clock.spend(0.004, 0.001)), 5)
    assert len(calls) == 5
    assert wall == pytest.approx(0.004) and cpu == pytest.approx(0.001)


def test_calls_per_batch_fills_the_batch(clock: FakeClock) -> None:
    assert calls_per_batch(lambda: clock.spend(0.01), 0.05) == 5
    assert calls_per_batch(lambda: clock.spend(0.01), 0.001) == 1
    assert calls_per_batch(lambda: None, 0.05) > 1000        # a free call: bounded by the 1e-7 floor


def test_fastest_is_the_best_batch(clock: FakeClock) -> None:
    delays = iter([0.0, 0.01] + [0.02] * 2 + [0.005] * 2 + [0.03] * 2)  # warm-up, calibration, 3 batches
    calls = []

    def fn() -> None:
        calls.append(1)
        clock.spend(next(delays))

    assert fastest(fn, batches=3, batch_s=0.02) == pytest.approx(0.005)   # 2 calls a batch
    assert len(calls) == 2 + 3 * 2
