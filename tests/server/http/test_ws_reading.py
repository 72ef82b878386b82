"""The websocket protocol on a real uvicorn and socket: reading goes on for the message the
app waits for, and pauses while messages pile up behind a busy app."""

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect

from server.cli.main import listen
from server.http.ws_reading import WebSocketProtocol


class Counted(WebSocketProtocol):
    """Counts how often its socket's reading is paused."""

    pauses = 0

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        pause = transport.pause_reading

        def counted() -> None:
            Counted.pauses += 1
            pause()

        transport.pause_reading = counted


async def echo(ws: WebSocket) -> None:
    """Answer each message; with a ``busy`` first, sleep a while before reading on."""
    await ws.accept()
    while True:
        text = await ws.receive_text()
        if text == "busy":
            await asyncio.sleep(0.3)
        await ws.send_text(text)


@pytest.fixture
async def port() -> AsyncIterator[int]:
    """A uvicorn serving ``echo`` with the counted protocol, on a port of its own."""
    Counted.pauses = 0
    listener = listen("127.0.0.1", 0)
    app = Starlette(routes=[WebSocketRoute("/ws", echo)])
    config = uvicorn.Config(app, ws=Counted, lifespan="off", log_level="warning")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        await asyncio.sleep(0.01)
    yield listener.getsockname()[1]
    server.should_exit = True
    await serving


async def test_a_message_the_app_waits_for_leaves_reading_on(port: int) -> None:
    async with connect(f"ws://127.0.0.1:{port}/ws") as phone:
        for n in range(20):
            await phone.send(f"m{n}")
            assert await phone.recv() == f"m{n}"
    assert Counted.pauses == 0


async def test_messages_behind_a_busy_app_pause_reading_and_all_arrive_in_order(
    port: int,
) -> None:
    async with connect(f"ws://127.0.0.1:{port}/ws") as phone:
        await phone.send("busy")
        sent = [f"m{n}" for n in range(30)]
        for text in sent:
            await phone.send(text)
        assert [await phone.recv() for _ in range(31)] == ["busy", *sent]
    assert Counted.pauses >= 1
