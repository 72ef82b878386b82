"""A table server in a thread of the test's process, on this machine's clock plus what the
test moves it on by, and the phones' clocks (Playwright's) moved on with it: a browser test
of a time that runs out (a game clock, a time per move) waits out no real minute. ``/api/time``
follows the same clock (the ``moved`` fixture), so each phone's offset to the server stays
what it was."""

import asyncio
import threading
from pathlib import Path

from playwright.sync_api import Page

from server.stores.sqlite import SqliteStore
from server.tables.held import now_ms
from tests.server.in_process import serving


class Ahead:
    """The servers' time: this machine's, plus what the test moved it on by (ms)."""

    def __init__(self) -> None:
        self.by = 0

    def __call__(self) -> int:
        return now_ms() + self.by


class Moved:
    """A table server in a thread of this process, on a clock the test moves on."""

    def __init__(self, data: Path) -> None:
        self.clock = Ahead()
        self.url = ""
        self._data = data
        self._up = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as error:  # said in the test's thread
            self._failed = error
            self._up.set()

    async def _serve(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        async with serving(SqliteStore(self._data / "tilestream.db"), self.clock) as served:
            self.url = served.url
            self._up.set()
            await self._stop.wait()

    def start(self) -> "Moved":
        self._thread.start()
        self._up.wait(30)
        if self._failed is not None or not self.url:
            raise RuntimeError("the server did not start") from self._failed
        return self

    def stop(self) -> None:
        assert self._loop is not None and self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)

    def move_on(self, pages: list[Page], seconds: int) -> None:
        """The server's time and every phone's, ``seconds`` on: the server first, so that
        a phone that sees zero calls a time the server agrees is up."""
        self.clock.by += seconds * 1000
        for page in pages:
            page.clock.fast_forward(seconds * 1000)
