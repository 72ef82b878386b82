"""Websocket phones that behave as the app does when its server hangs, many of them at once,
for a test whose own thread drives Chromium.

``WatchfulPhone`` follows the rule of ``web/js/live.js``: a socket on which nothing at all
arrives for ``QUIET`` (three of the server's 2 s beats) is given up without waiting for a
closing handshake, and the phone connects again after the same pauses (``BACKOFF``, with
jitter) and says hello after the last seq it saw. (live.js counts the quiet seconds in ticks,
which a frozen page does not skip; a phone here is never frozen, so a timeout does.) Keep the
two in step.
"""

import asyncio
import random
import threading
import time
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.server.serving import Message, Phone

QUIET = 6.0  # seconds: live.js's QUIET
BACKOFF = (0.25, 0.5, 1.0, 2.0, 4.0)  # seconds: live.js's BACKOFF, then 4 s apart

T = TypeVar("T")


class WatchfulPhone(Phone):
    """A phone that gives up a silent socket and connects again; it notes when each seq
    arrived and how often it connected again."""

    def __init__(self, name: str, ws_url: str, table: str, token: str, **options: Any) -> None:
        super().__init__(ws_url, table, token)
        self.name = name
        self.options = options  # for websockets' connect (an https proxy's ssl context)
        self.reconnects = 0
        self.arrived: dict[int, float] = {}  # seq → time.monotonic() when it came

    async def receive(self, timeout: float = QUIET) -> Message:
        message = await super().receive(timeout)
        self.arrived.setdefault(self.seq, time.monotonic())
        return message

    async def join(self) -> None:
        """Connect and say hello; the handshake and the first answer within ``QUIET``, as
        live.js's watchdog runs from the socket's creation."""
        await asyncio.wait_for(self.open(**self.options), QUIET)

    def drop(self) -> None:
        """Give up the socket at once: a closing handshake would wait for the hung server."""
        if self.ws is not None:
            self.ws.transport.abort()
            self.ws = None

    async def follow(self) -> None:
        """Read for as long as the test runs, connecting again after each silence."""
        attempt = 0
        while True:
            try:
                if self.ws is None:
                    await self.join()
                    attempt = 0
                await self.receive(QUIET)
            except (TimeoutError, ConnectionClosed, InvalidHandshake, OSError):
                self.drop()
                self.reconnects += 1
                pause = BACKOFF[min(attempt, len(BACKOFF) - 1)]
                attempt += 1
                await asyncio.sleep(pause * random.uniform(0.75, 1.25))

    def seen_at(self, seq: int) -> float | None:
        """When this phone first held the view at ``seq`` or later."""
        # list(): a copy made at once (the phone's thread adds to the dict meanwhile)
        times = [at for s, at in list(self.arrived.items()) if s >= seq]
        return min(times) if times else None


class Crowd:
    """Watchful phones in an event loop on a thread of their own; each follows its table
    from ``start`` until ``close``."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.phones: list[WatchfulPhone] = []
        self.tasks: list[asyncio.Task[None]] = []

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
        """Run ``work`` in the crowd's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def add(self, phones: Sequence[WatchfulPhone]) -> None:
        """Join each phone (one after another, as phones arrive) and let it follow."""

        async def start() -> None:
            for phone in phones:
                await phone.join()
                self.phones.append(phone)
                self.tasks.append(asyncio.create_task(phone.follow()))

        self.run(start())

    def check(self) -> None:
        """Every phone still follows: none failed (a view out of order, a bad frame)."""
        for task, phone in zip(self.tasks, self.phones, strict=True):
            if task.done():
                raise AssertionError(f"{phone.name} stopped following") from task.exception()

    def close(self) -> None:
        async def end() -> None:
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            for phone in self.phones:
                phone.drop()

        try:
            self.run(end())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)
            self.loop.close()
