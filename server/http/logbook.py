"""What clients make the server log, bounded: refusals counted, summed up once a minute.

A hostile client can send thousands of bad frames a second; a line (or a traceback) for each
would fill the disk. Every refusal of a client's mistake is counted here by its code instead,
and the counts are written as one line at most once per ``interval``: at once for the first
refusal after a quiet spell, then a summary of what came since at the end of each minute (and
of what is left when the server stops).

uvicorn logs a few client mistakes itself, one line each ("Invalid HTTP request received.",
and an invalid UTF-8 text frame with a traceback); ``ClientNoise`` turns those into counts.
"""

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable

INTERVAL = 60.0  # seconds between two summary lines

#: What uvicorn says of a client's mistake (it has already answered it), by our code for it.
UVICORN_NOISE = {
    "Invalid HTTP request received.": "bad_http",
    "Invalid UTF-8 sequence received from client.": "invalid_utf8",
    "Unsupported upgrade request.": "bad_upgrade",
}


class Logbook:
    """Refusals by code, written to ``logger`` as one line per ``interval`` at most."""

    def __init__(
        self,
        logger: logging.Logger,
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.interval = interval
        self.clock = clock
        self.counts: Counter[str] = Counter()
        self.total: Counter[str] = Counter()  # since the start, for whoever asks
        self._written = -interval  # when the last line was written
        self._timer: asyncio.TimerHandle | None = None

    def count(self, code: str) -> None:
        """One more refusal with ``code``."""
        self.counts[code] += 1
        self.total[code] += 1
        wait = self._written + self.interval - self.clock()
        if wait <= 0:
            self.flush()
        elif self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop (a test, a thread): the next count or close writes
                return
            self._timer = loop.call_later(wait, self.flush)

    def flush(self) -> None:
        """Write what was counted since the last line, if anything."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self.counts:
            return
        seen = ", ".join(f"{code} {n}" for code, n in sorted(self.counts.items()))
        self.logger.warning("refused client input: %s", seen)
        self.counts.clear()
        self._written = self.clock()


class ClientNoise(logging.Filter):
    """Drops uvicorn's line for a client's mistake (and any traceback), counting it instead."""

    def __init__(self, logbook: Logbook) -> None:
        super().__init__()
        self.logbook = logbook

    def filter(self, record: logging.LogRecord) -> bool:
        code = UVICORN_NOISE.get(record.msg) if isinstance(record.msg, str) else None
        if code is None:
            return True
        self.logbook.count(code)
        return False
