"""uvicorn's h11 connection with a deadline for a request's headers.

uvicorn closes a keep-alive connection that stays silent between requests, but it waits
forever for the headers of a request that has begun: a connection that never sends a byte,
or sends a header line every few seconds (slowloris), holds a socket and its buffers for
good. Here the headers of each request must be in within ``header_timeout`` seconds of the
connection being ready for them (its opening, or the end of the previous response); after
that the app's own limits (the body's deadline, the websocket's hello) take over. A body
the app did not read and that still trickles in after the response counts as late headers.
"""

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from server.http.logbook import Logbook

HEADER_TIMEOUT = 10.0  # seconds


class DeadlineH11Protocol(H11Protocol):
    """``H11Protocol`` that closes a connection whose request headers are late."""

    header_timeout = HEADER_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_after: object = None  # the request before the one the deadline is for

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not self._waiting_after:  # a new request's headers are in
            self._disarm()

    def on_response_complete(self) -> None:
        self._arm()  # before: a pipelined request is read by the call below, and disarms
        super().on_response_complete()
        if self.transport.is_closing():
            self._disarm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()  # the socket belongs to the websocket protocol from here
        super().handle_websocket_upgrade(event)

    def _arm(self) -> None:
        self._disarm()
        self._waiting_after = self.cycle
        self._deadline = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        logbook: Logbook | None = self.app_state.get("logbook")
        if logbook is not None:
            logbook.count("header_timeout")
        self.transport.close()


def with_header_timeout(seconds: float) -> type[DeadlineH11Protocol]:
    """The protocol class for uvicorn's ``http=``, with its own header deadline."""
    return type("DeadlineH11Protocol", (DeadlineH11Protocol,), {"header_timeout": seconds})
