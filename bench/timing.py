"""Timing shared by the benchmarks: many samples of many calls, per-call figures."""

import statistics
import time
from collections.abc import Callable
from pathlib import Path


class Figures:
    """Per-call times of one measured function, in microseconds."""

    def __init__(self, name: str, samples: list[float]) -> None:
        self.name = name
        self.samples = sorted(samples)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def p99(self) -> float:
        return self.samples[min(len(self.samples) - 1, round(0.99 * (len(self.samples) - 1)))]

    @property
    def per_second(self) -> float:
        return 1e6 / self.median


def measure(name: str, call: Callable[[], object], calls: int = 2000, samples: int = 60) -> Figures:
    """Time ``samples`` batches of ``calls`` calls after a warm-up; each sample is per call."""
    for _ in range(calls):
        call()
    times = []
    for _ in range(samples):
        start = time.perf_counter_ns()
        for _ in range(calls):
            call()
        times.append((time.perf_counter_ns() - start) / calls / 1000)
    return Figures(name, times)


def report(rows: list[Figures], baseline: Figures) -> None:
    """Print one line per measurement with its ratio to ``baseline``."""
    print(f"{'measurement':<44} {'median µs':>10} {'p99 µs':>9} {'per second':>12} {'× base':>8}")
    for f in rows:
        print(
            f"{f.name:<44} {f.median:>10.2f} {f.p99:>9.2f} {f.per_second:>12,.0f}"
            f" {f.median / baseline.median:>8.1f}"
        )


def load_average() -> str:
    """The machine's load average over 1, 5 and 15 minutes, as ``/proc/loadavg`` says it."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])
