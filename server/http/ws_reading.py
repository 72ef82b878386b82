"""uvicorn's websocket protocol, pausing a socket's reading only while the app is busy.

uvicorn (``websockets-sansio``) pauses reading after every message it hands the app and
resumes once the app asks for the next: flow control, so a phone cannot pile messages up in
the server. But the app here reads a phone's socket in a loop and mostly waits in
``receive`` already when a command arrives; pausing and resuming then costs two changes of
the event loop's epoll set per message (a tenth of the event loop's time under load,
``python -m bench.fanout``) and holds back nothing. So the message the app is waiting for goes
to it with reading left on; any message after it, before the app asks again, pauses reading as
before.

It also lets the app write a frame straight to the socket (``send_now``, offered in the
scope's extensions as ``SEND_NOW``): a phone's frame then goes out in the call that made it,
not in a task woken for it per phone, which cost more than the rest of a change's fan-out;
and the frame's bytes are made once for all the phones that get it (``serialized``).
"""

import functools
from typing import Any

from uvicorn._types import ASGIReceiveEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State

SEND_NOW = "tilestream.send_now"  # the scope's extension: {"send": WebSocketProtocol.send_now}


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` that reads on while its app waits for a message, and
    writes a frame at once when the socket takes it without waiting."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.app_waiting = False  # the app is in ``receive`` with nothing queued for it

    async def receive(self) -> ASGIReceiveEvent:
        self.app_waiting = self.queue.empty()
        try:
            return await super().receive()
        finally:
            self.app_waiting = False

    def send_receive_event_to_app(self) -> None:
        if not self.app_waiting or self.read_paused:
            super().send_receive_event_to_app()  # queued behind others: pause reading
            return
        self.app_waiting = False  # one message only: the next one waits for the app's ask
        self.read_paused = True  # uvicorn pauses a socket whose reading it thinks is on
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = False

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.handshake_initiated and not self.close_sent:  # the app's task has not run yet
            self.scope["extensions"][SEND_NOW] = {"send": self.send_now}

    def send_now(self, *frames: str | bytes) -> bool:
        """Write ``frames`` now, in one write (one system call for a command's answer and
        the change it made); False when they would have to wait (the transport's buffer is
        full, the handshake not done, the socket closing or closed): queue them instead."""
        if (
            not self.writable.is_set()
            or self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.initial_response is not None
            or self.conn.state is not State.OPEN
            or self.conn.extensions  # none is ever agreed (no compression): frames as made
        ):
            return False
        self.transport.write(b"".join((*self.conn.data_to_send(), *map(serialized, frames))))
        return True


@functools.lru_cache(maxsize=8)
def serialized(frame: str | bytes) -> bytes:
    """``frame`` as a server sends it, made once for every phone it goes to: a table's change
    goes to all the phones of an audience in a row. Text for a str, binary for bytes."""
    if isinstance(frame, str):
        return Frame(Opcode.TEXT, frame.encode()).serialize(mask=False, extensions=[])
    return Frame(Opcode.BINARY, frame).serialize(mask=False, extensions=[])
