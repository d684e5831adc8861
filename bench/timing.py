"""Adaptive timing of one operation: median time per call over several samples.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import gc
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter, perf_counter_ns, process_time


@dataclass(frozen=True)
class Timing:
    median_ns: float  # median over the samples of the time per call
    calls: int  # calls timed in all (warm-up excluded)
    samples: int
    min_ns: float | None = None  # the fastest sample (least disturbed by other processes)

    def as_dict(self) -> dict:
        low = None if self.min_ns is None else round(self.min_ns, 1)
        return {"median_ns": round(self.median_ns, 1), "min_ns": low, "calls": self.calls, "samples": self.samples}


def _batch_ns(fn: Callable[[], object], n: int) -> int:
    start = perf_counter_ns()
    for _ in range(n):
        fn()
    return perf_counter_ns() - start


# One sample lasts about this long: much shorter than a scheduler time slice, so that on a
# loaded machine most samples run undisturbed and the median stays close to the quiet time.
BATCH_NS = 500_000
MAX_SAMPLES = 2000


def measure(
    fn: Callable[[], object],
    target_s: float = 0.2,
    samples: int = 7,
    max_calls: int | None = None,
) -> Timing:
    """Time ``fn`` for about ``target_s`` seconds and return the median time per call.

    One warm-up call estimates the cost. Fast operations are timed in batches of about
    ``BATCH_NS``, as many batches as the budget allows (at least ``samples``); slow operations
    get single-call samples while the budget lasts (at least one). ``max_calls`` caps the
    number of timed calls (for very slow peers such as py_ecc, where one or two calls must do).
    """
    budget_ns = target_s * 1e9
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        first = max(_batch_ns(fn, 1), 1)  # warm-up, also the first estimate
        if max_calls is not None and max_calls <= 1:
            return Timing(float(first), 1, 1, float(first))
        if first >= BATCH_NS:
            # slow: single-call samples while the budget lasts; the warm-up counts toward max_calls
            n = min(MAX_SAMPLES, max(1, int(budget_ns // first)))
            if max_calls is not None:
                n = min(n, max_calls - 1)
            if n < 1:
                return Timing(float(first), 1, 1, float(first))
            times = [_batch_ns(fn, 1) for _ in range(n)]
            return Timing(float(statistics.median(times)), n, n, float(min(times)))
        # calibrate on a batch of ~BATCH_NS (the first call is often slower than the rest)
        inner = max(1, int(BATCH_NS // first))
        per_call = max(_batch_ns(fn, inner) / inner, 1.0)
        inner = max(1, int(BATCH_NS // per_call))
        count = min(MAX_SAMPLES, max(samples, int(budget_ns // (inner * per_call))))
        if max_calls is not None:
            inner = max(1, min(inner, (max_calls - 1) // count))
        times = [_batch_ns(fn, inner) / inner for _ in range(count)]
        return Timing(float(statistics.median(times)), inner * count, count, float(min(times)))
    finally:
        if gc_was_enabled:
            gc.enable()


def format_ns(ns: float | None) -> str:
    if ns is None:
        return "n/a"
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.2f} µs"
    if ns < 1e9:
        return f"{ns / 1e6:.2f} ms"
    return f"{ns / 1e9:.2f} s"


def seconds_per_call(fn: Callable[[], object], calls: int) -> tuple[float, float]:
    """Wall-clock and process CPU seconds (every thread of the process) per call, over ``calls``
    calls: the one batch that the best-of helpers below and the benchmarks' own loops repeat."""
    wall, cpu = perf_counter(), process_time()
    for _ in range(calls):
        fn()
    return (perf_counter() - wall) / calls, (process_time() - cpu) / calls


def calls_per_batch(fn: Callable[[], object], batch_s: float) -> int:
    """How many calls of ``fn`` fill about ``batch_s`` seconds, from one timed call."""
    start = perf_counter()
    fn()
    return max(1, int(batch_s / max(perf_counter() - start, 1e-7)))


def fastest(fn: Callable[[], object], batches: int = 3, batch_s: float = 0.15) -> float:
    """Wall-clock seconds per call: the fastest of ``batches`` batches of about ``batch_s`` each,
    after one warm-up call (the least disturbed batch, on a machine shared with other work)."""
    fn()
    calls = calls_per_batch(fn, batch_s)
    return min(seconds_per_call(fn, calls)[0] for _ in range(batches))
