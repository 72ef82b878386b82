"""One phone's websocket: ``hello`` first, then commands and previews; every refusal a
``rejected`` message with its stable code, never a dropped socket."""

import asyncio
import contextlib
from typing import Any

import msgspec
from starlette import status
from starlette.websockets import WebSocket, WebSocketDisconnect

from editions import codebook
from editions.errors import GameError
from events.commands import JoinSimultaneous
from server.live.decoding import decode, describe
from server.live.hub import Connection
from server.live.messages import (
    MAX_MESSAGE,
    Accepted,
    CommandId,
    CommandMessage,
    Hello,
    PreviewMessage,
    PreviewResult,
    Rejected,
    Resync,
    client_decoder,
    encoder,
)
from server.stores.protocols import Device, StoreUnavailable
from server.tables.commands import Tables

MISTAKES = frozenset({codebook.BAD_MESSAGE, codebook.TOO_LARGE})  # what no phone of ours sends


def as_rejected(error: Exception, message_id: str = "") -> Rejected:
    """Any refusal as the message a phone translates."""
    if isinstance(error, GameError):
        return Rejected(message_id, error.code, _plain(error.params), str(error))
    if isinstance(error, StoreUnavailable):
        return Rejected(message_id, codebook.STORE_UNAVAILABLE, {}, "the store cannot be reached")
    if isinstance(error, msgspec.ValidationError | msgspec.DecodeError):
        said = describe(error)  # bounded: msgspec may quote a client's field name in full
        return Rejected(message_id, codebook.BAD_MESSAGE, {"error": said}, said)
    raise error


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}


async def websocket(ws: WebSocket) -> None:
    """One phone: ``hello`` first, then commands and previews; the sheet comes back live."""
    await ws.accept()
    connection = Connection(ws, ws.state.queue)
    writer = asyncio.create_task(connection.write())
    joined: Device | None = None
    hello_by = asyncio.get_running_loop().time() + ws.state.hello_timeout
    try:
        while not writer.done():
            try:
                # Joined: no deadline, and no Timeout made for every message.
                async with contextlib.nullcontext() if joined else asyncio.timeout_at(hello_by):
                    text = await _receive(ws)
            except TimeoutError:  # a socket that never joins only holds a connection
                ws.state.logbook.count("hello_timeout")  # a log label, not a refusal
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await writer
                await ws.close(status.WS_1008_POLICY_VIOLATION, "hello expected")
                break
            if text is None:
                break
            joined = await _answer(ws, connection, joined, text)
    except WebSocketDisconnect:
        pass
    finally:
        ws.state.hub.leave(connection)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _receive(ws: WebSocket) -> str | bytes | None:
    """The next frame's text (or bytes: msgspec checks their UTF-8); None once it closed.

    uvicorn closes a text frame that is no UTF-8 with 1007 itself, and a frame over
    ``ws_max_size`` with 1009: the app only sees the socket end.
    """
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    return text if text is not None else message.get("bytes") or b""


async def _answer(
    ws: WebSocket, connection: Connection, joined: Device | None, text: str | bytes
) -> Device | None:
    message_id = ""
    try:
        if len(text) > MAX_MESSAGE:
            raise GameError(f"the message is over {MAX_MESSAGE} bytes", code=codebook.TOO_LARGE)
        message = decode(text, client_decoder)
        message_id = getattr(message, "id", "")
        if isinstance(message, Hello):
            return await _hello(ws, connection, joined, message)
        if joined is None:
            raise GameError("say hello with a table and a token first", code=codebook.NOT_JOINED)
        tables = ws.state.tables
        table_id = joined.table
        tables.seen(table_id, joined.id)  # any frame: "last seen" follows the phone, not hellos
        if isinstance(message, CommandMessage):
            if isinstance(message.command, JoinSimultaneous):
                client = ws.client.host if ws.client else "?"
                await ws.state.join_limit.simultaneous(client, message.command.code)
            seq = await tables.command(table_id, joined, message.command, message.id)
            # The change it made goes in the answer's write: a system call less per command
            # (``bench.fanout``), and the table's follower finds this phone has it already.
            live = tables.holding(table_id)
            accepted = encoder.encode(Accepted(message.id, seq))
            if live is None:
                connection.send(accepted)
            else:
                connection.send_state(live, accepted)
        elif isinstance(message, PreviewMessage):
            result, words = await tables.preview(table_id, message.move, message.check)
            if message.check:  # one the table allows (an ended game's) counts as the calculator's
                await ws.state.word_checks.count(ws.client.host if ws.client else "?")
            connection.send(encoder.encode(PreviewResult(message.id, result, words)))
        elif isinstance(message, Resync):
            connection.resync(await tables.live(table_id))
    except (GameError, StoreUnavailable, msgspec.ValidationError, msgspec.DecodeError) as error:
        if not message_id and isinstance(error, msgspec.ValidationError):
            message_id = _id_of(text)
        rejected = as_rejected(error, message_id)
        if rejected.code in MISTAKES:
            ws.state.logbook.count(rejected.code)
        connection.send(encoder.encode(rejected))
    return joined


class _Named(msgspec.Struct):
    id: CommandId = ""


_named = msgspec.json.Decoder(_Named)


def _id_of(text: str | bytes) -> str:
    """The id of a message that is JSON within the limits but no message of ours, so the phone
    can tell which of its commands was refused."""
    try:
        return _named.decode(text).id
    except (msgspec.ValidationError, msgspec.DecodeError):
        return ""


async def _hello(
    ws: WebSocket, connection: Connection, joined: Device | None, hello: Hello
) -> Device:
    if joined is not None:
        raise GameError("this socket has joined a table already", code=codebook.ALREADY_JOINED)
    tables: Tables = ws.state.tables
    device, _, live = await tables.authorise(hello.table, hello.token)
    connection.device = device
    connection.seq = hello.after if hello.after < live.state.seq else -1
    ws.state.hub.enter(hello.table, connection)
    connection.send_state(live)
    return device
