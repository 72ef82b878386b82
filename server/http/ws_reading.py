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
not in a task woken for it per phone, which cost more than the rest of a change's fan-out.
"""

from typing import Any

from uvicorn._types import ASGIReceiveEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request

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

    def send_now(self, frame: str | bytes) -> bool:
        """Write ``frame`` now; False when it would have to wait (the transport's buffer is
        full, the handshake not done, the socket closing or closed): queue it instead."""
        if (
            not self.writable.is_set()
            or self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.initial_response is not None
        ):
            return False
        try:
            if isinstance(frame, str):
                self.conn.send_text(frame.encode())
            else:
                self.conn.send_binary(frame)
        except InvalidState:  # the phone's close arrived: the queued path reports it
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True
