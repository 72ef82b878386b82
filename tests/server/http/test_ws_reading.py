"""The websocket protocol on a real uvicorn and socket: reading goes on for the message the
app waits for, and pauses while messages pile up behind a busy app; a frame written at once
to several phones is made once and reaches each whole; frames written together go out in
one write."""

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
from server.http.ws_reading import SEND_NOW, WebSocketProtocol, serialized


class Counted(WebSocketProtocol):
    """Counts how often its socket's reading is paused, and its writes."""

    pauses = 0
    writes = 0

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        pause, write = transport.pause_reading, transport.write

        def counted() -> None:
            Counted.pauses += 1
            pause()

        def written(data: bytes) -> None:
            Counted.writes += 1
            write(data)

        transport.pause_reading = counted
        transport.write = written


async def echo(ws: WebSocket) -> None:
    """Answer each message; with a ``busy`` first, sleep a while before reading on."""
    await ws.accept()
    while True:
        text = await ws.receive_text()
        if text == "busy":
            await asyncio.sleep(0.3)
        await ws.send_text(text)


PHONES: list[WebSocket] = []
SHARED_TEXT = "é" * 200  # one object, sent to every phone
SHARED_STATE = bytes(range(256)) * 4  # as a gzipped state goes: binary


async def fan(ws: WebSocket) -> None:
    """Each phone's ``go`` sends the shared frames to every phone, straight to its socket;
    ``both`` sends them together."""
    await ws.accept()
    PHONES.append(ws)
    while True:
        said = await ws.receive_text()
        for phone in PHONES:
            send_now = phone.scope["extensions"][SEND_NOW]["send"]
            if said == "go":
                assert send_now(SHARED_TEXT) and send_now(SHARED_STATE)
            elif said == "both":
                writes = Counted.writes
                assert send_now(SHARED_TEXT, SHARED_STATE)
                assert Counted.writes == writes + 1


@pytest.fixture
async def port() -> AsyncIterator[int]:
    """A uvicorn serving ``echo`` with the counted protocol, on a port of its own."""
    Counted.pauses = Counted.writes = 0
    listener = listen("127.0.0.1", 0)
    PHONES.clear()
    app = Starlette(routes=[WebSocketRoute("/ws", echo), WebSocketRoute("/fan", fan)])
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


async def test_a_frame_sent_to_several_phones_at_once_is_made_once_and_reaches_each(
    port: int,
) -> None:
    serialized.cache_clear()
    # No compression offered: the server agrees to none (``tilestream serve``), and a frame
    # made once is sent as it is only then.
    async with (
        connect(f"ws://127.0.0.1:{port}/fan", compression=None) as one,
        connect(f"ws://127.0.0.1:{port}/fan", compression=None) as two,
        connect(f"ws://127.0.0.1:{port}/fan", compression=None) as three,
    ):
        phones = (one, two, three)
        while len(PHONES) < 3:
            await asyncio.sleep(0.01)
        await one.send("go")
        for phone in phones:
            assert await phone.recv() == SHARED_TEXT
            assert await phone.recv() == SHARED_STATE
    made = serialized.cache_info()
    assert (made.misses, made.hits) == (2, 4)


async def test_frames_sent_together_go_out_in_one_write_and_arrive_in_order(port: int) -> None:
    async with (
        connect(f"ws://127.0.0.1:{port}/fan", compression=None) as one,
        connect(f"ws://127.0.0.1:{port}/fan", compression=None) as two,
    ):
        while len(PHONES) < 2:
            await asyncio.sleep(0.01)
        await two.send("both")  # the app checks each phone's frames took one write
        for phone in (one, two):
            assert await phone.recv() == SHARED_TEXT
            assert await phone.recv() == SHARED_STATE
