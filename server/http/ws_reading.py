"""uvicorn's websocket protocol, pausing a socket's reading only while the app is busy.

uvicorn (``websockets-sansio``) pauses reading after every message it hands the app and
resumes once the app asks for the next: flow control, so a phone cannot pile messages up in
the server. But the app here reads a phone's socket in a loop and mostly waits in
``receive`` already when a command arrives; pausing and resuming then costs two changes of
the event loop's epoll set per message (a tenth of the event loop's time under load,
``python -m bench.fanout``) and holds back nothing. So the message the app is waiting for goes
to it with reading left on; any message after it, before the app asks again, pauses reading as
before.
"""

from typing import Any

from uvicorn._types import ASGIReceiveEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` that reads on while its app waits for a message."""

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
