"""Hits per key in fixed windows, counted in this process's memory: the limits of a store
that no other process shares."""

import time
from collections.abc import Callable


class Windows:
    """Hits per key in fixed windows, in memory; keys whose window ended are forgotten."""

    SWEEP = 10_000  # keys kept before ended windows are swept away

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._windows: dict[str, tuple[float, int]] = {}  # key → (window end, hits)
        self._sweep_at = self.SWEEP

    def hit(self, key: str, window_ms: int) -> int:
        """One more hit on ``key``; the hits in its current window."""
        now = self.clock()
        if len(self._windows) > self._sweep_at:
            self._windows = {k: w for k, w in self._windows.items() if w[0] > now}
            # Many keys still live: sweep again only when they have doubled, not every hit.
            self._sweep_at = max(self.SWEEP, 2 * len(self._windows))
        ends, hits = self._windows.get(key, (0.0, 0))
        if ends <= now:
            ends, hits = now + window_ms / 1000, 0
        self._windows[key] = (ends, hits + 1)
        return hits + 1

    def refund(self, key: str) -> None:
        """One hit on ``key`` taken back, if its window has not ended."""
        ends, hits = self._windows.get(key, (0.0, 0))
        if ends > self.clock() and hits > 0:
            self._windows[key] = (ends, hits - 1)
