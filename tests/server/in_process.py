"""A table server in the test's own process, on a clock the test moves.

Times the rules count in minutes (a time per move, a room round) are too long for a test
to wait; so these servers run in the test's process — uvicorn on a real port, real
websockets, the real stores — with a ``Clock`` the test moves, looking for a time run out
every ``TICK``. The online clock and the room tests share them.
"""

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator

import uvicorn

from server.http.app import Settings, create_app
from server.live.messages import MAX_MESSAGE
from server.stores.protocols import Store
from server.tables.held import now_ms
from tests.server.serving import Reply, request

TICK = 0.02  # seconds between the servers' looks for a time run out


class Clock:
    """The servers' time, ms since the epoch; it moves only when the test says."""

    def __init__(self) -> None:
        self.now = now_ms()

    def __call__(self) -> int:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += round(seconds * 1000)


class Served:
    """A server running in this process over ``store``."""

    def __init__(self, url: str, store: Store) -> None:
        self.url = url
        self.ws_url = url.replace("http://", "ws://") + "/ws"
        self.store = store

    async def call(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> Reply:
        """One HTTP request, from a thread: the server answers on this loop."""
        return await asyncio.to_thread(request, self.url, method, path, body, token=token)


@contextlib.asynccontextmanager
async def serving(store: Store, clock: Clock) -> AsyncIterator[Served]:
    """The app over ``store`` on a free port, until the block ends."""
    settings = Settings(store, "test", clock=clock, move_tick=TICK, joins_per_minute=10_000)
    config = uvicorn.Config(
        create_app(settings), ws="websockets-sansio", ws_max_size=MAX_MESSAGE,
        log_level="warning", lifespan="on",
    )  # fmt: skip
    listener = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(config)
    running = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        if running.done():
            running.result()
        await asyncio.sleep(0.01)
    try:
        yield Served(f"http://127.0.0.1:{listener.getsockname()[1]}", store)
    finally:
        server.should_exit = True
        await running
