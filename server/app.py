"""The Starlette application: HTTP API, the ``/ws`` websocket, and the phone app at ``/``."""

import asyncio
import contextlib
import io
import logging
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import segno
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import editions
from editions.errors import GameError
from rules.board import Board
from rules.gcg_write import to_gcg
from rules.permissions import HOST, Actor
from rules.seating import taken
from server import openapi
from server.catalog import catalog_json
from server.hub import Connection, Hub
from server.protocol import (
    JOINS_PER_MINUTE,
    MAX_MESSAGE,
    Accepted,
    CommandMessage,
    CommandRequest,
    DeviceSeen,
    Health,
    Hello,
    Joined,
    JoinRequest,
    PreviewMessage,
    PreviewResult,
    Rejected,
    ScoreRequest,
    Seats,
    SeatsRequest,
    SeatView,
    ServerTime,
    client_decoder,
    encoder,
)
from server.store import Device, Store, StoreUnavailable
from server.tables import Live, Tables, audience, now_ms, score_move

log = logging.getLogger("tilestream")

WEB = Path(__file__).resolve().parent.parent / "web"
QUEUE = 64  # messages waiting for one phone before it is dropped
TABLES_PER_MINUTE = 1_000  # new tables per client address: a runaway script, not a club


class Settings(msgspec.Struct, frozen=True):
    """What a server process is given."""

    store: Store
    store_name: str
    web: Path = WEB
    queue: int = QUEUE
    joins_per_minute: int = JOINS_PER_MINUTE
    tables_per_minute: int = TABLES_PER_MINUTE


# --- errors --------------------------------------------------------------------------------

STATUS = {
    "bad_token": 401,
    "host_only": 403,
    "viewer_read_only": 403,
    "unknown_table": 404,
    "unknown_code": 404,
    "busy": 409,
    "too_large": 413,
    "rate_limited": 429,
    "store_unavailable": 503,
}


def as_rejected(error: Exception, message_id: str = "") -> Rejected:
    """Any refusal as the message a phone translates."""
    if isinstance(error, GameError):
        return Rejected(message_id, error.code, _plain(error.params), str(error))
    if isinstance(error, StoreUnavailable):
        return Rejected(message_id, "store_unavailable", {}, "the store cannot be reached")
    if isinstance(error, msgspec.ValidationError | msgspec.DecodeError):
        return Rejected(message_id, "bad_message", {"error": str(error)}, str(error))
    raise error


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}


def reject(rejected: Rejected) -> Response:
    return Response(
        encoder.encode(rejected), STATUS.get(rejected.code, 400), media_type="application/json"
    )


def ok(body: Any, status: int = 200) -> Response:
    return Response(encoder.encode(body), status, media_type="application/json")


Handler = Callable[[Request], Awaitable[Response]]


def api(handler: Handler) -> Handler:
    """Turn every refusal of ``handler`` into a JSON error with its code: never a 500."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except (GameError, StoreUnavailable, msgspec.ValidationError, msgspec.DecodeError) as e:
            return reject(as_rejected(e))

    return wrapped


async def body(request: Request, kind: type) -> Any:
    """The JSON body as ``kind``: refused (``too_large``) as soon as it is over the limit,
    whatever it announced, so a huge body is never held in memory nor waited for."""
    declared = request.headers.get("content-length", "")
    too_large = GameError(f"the body is over {MAX_MESSAGE} bytes", code="too_large")
    if declared.isdigit() and int(declared) > MAX_MESSAGE:
        raise too_large
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_MESSAGE:
            raise too_large
    return msgspec.json.decode(data, type=kind)


def bearer(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def tables_of(request: Request | WebSocket) -> Tables:
    return request.state.tables


async def member(request: Request) -> tuple[str, Device, Actor, Live]:
    """The table of the request's path, the device of its token and who that is there."""
    table_id = request.path_params["table"]
    device, who, live = await tables_of(request).authorise(table_id, bearer(request))
    return table_id, device, who, live


def host_only(who: Actor) -> None:
    if who.role != "host":
        raise GameError("only the host may do that", code="host_only")


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


class RateLimit:
    """At most ``limit`` attempts per client address in any minute."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._seen: defaultdict[str, deque[float]] = defaultdict(deque)

    async def allow(self, client: str) -> bool:
        now = time.monotonic()
        if len(self._seen) > 10_000:  # forget addresses quiet for a minute
            for address in [a for a, s in self._seen.items() if s[-1] < now - 60]:
                del self._seen[address]
        seen = self._seen[client]
        while seen and seen[0] < now - 60:
            seen.popleft()
        if len(seen) >= self.limit:
            return False
        seen.append(now)
        return True


# --- HTTP --------------------------------------------------------------------------------


async def health(request: Request) -> Response:
    return ok(Health("ok", request.state.store_name))


@api
async def create_table(request: Request) -> Response:
    if not await request.state.create_limit.allow(_client(request)):
        raise GameError("too many new tables from here; wait a minute", code="rate_limited")
    table, token = await tables_of(request).create()
    return ok(Joined(table.id, token, "host", None, table.code, HOST), 201)


@api
async def seats(request: Request) -> Response:
    """The seats of the table with a code, by name and whether taken, for the join form."""
    if not await request.state.join_limit.allow(_client(request)):
        raise GameError("too many join attempts; wait a minute", code="rate_limited")
    wanted = await body(request, SeatsRequest)
    _, live = await tables_of(request).by_code(wanted.code)
    game = live.state.game
    if game is None:
        return ok(Seats(None, ()))
    held = taken(live.state)
    return ok(
        Seats(game.mode, tuple(SeatView(i, n, held[i]) for i, n in enumerate(game.players)))
    )


@api
async def join(request: Request) -> Response:
    if not await request.state.join_limit.allow(_client(request)):
        raise GameError("too many join attempts; wait a minute", code="rate_limited")
    wanted = await body(request, JoinRequest)
    table, token, who = await tables_of(request).join(
        wanted.code, wanted.role, wanted.seat, wanted.device
    )
    code = "" if who.role == "viewer" else table.code  # viewers never get the join code
    admitted = who.role != "waiting"
    return ok(Joined(table.id, token, wanted.role, who.seat, code, who.device, admitted))


@api
async def table_view(request: Request) -> Response:
    _, _, who, live = await member(request)
    return Response(live.view_json(audience(who)), media_type="application/json")


@api
async def command(request: Request) -> Response:
    table_id, device, _, _ = await member(request)
    wanted = await body(request, CommandRequest)
    try:
        seq = await tables_of(request).command(table_id, device, wanted.command, wanted.id)
    except (GameError, StoreUnavailable) as error:  # answered with its id, as on the socket
        return reject(as_rejected(error, wanted.id))
    return ok(Accepted(wanted.id, seq))


@api
async def devices(request: Request) -> Response:
    """The devices at the table for the host: seat, since, last seen, waiting or not."""
    table_id, _, who, live = await member(request)
    host_only(who)
    seen = await request.state.store.last_seen(table_id)
    return ok(
        [
            DeviceSeen(m.id, m.role, m.seat, m.since, seen.get(m.id), m.admitted)
            for m in live.state.seating.members
        ]
    )


@api
async def gcg(request: Request) -> Response:
    table_id, *_ = await member(request)
    text = to_gcg(await request.state.store.read(table_id))
    return PlainTextResponse(text, media_type="text/plain; charset=utf-8")


@api
async def join_qr(request: Request) -> Response:
    table_id, _, who, _ = await member(request)
    if who.role not in ("host", "player"):  # viewers never get the join code
        raise GameError("a viewer gets no join code", code="viewer_read_only")
    table = await request.state.store.table(table_id)
    if table is None:
        raise GameError("no such table", code="unknown_table")
    url = f"{str(request.base_url).rstrip('/')}/#join={table.code}"
    svg = io.BytesIO()
    segno.make(url, error="m").save(svg, kind="svg", scale=8, title=f"Join code {table.code}")
    return Response(svg.getvalue(), media_type="image/svg+xml")


@api
async def score(request: Request) -> Response:
    wanted = await body(request, ScoreRequest)
    edition = editions.get(wanted.edition)
    board = None
    if edition.layout is not None:
        board = Board.from_rows(edition, wanted.rows) if wanted.rows else Board.empty(edition)
    result, words, play = score_move(edition.code, board, wanted.move, wanted.check)
    # The board after the move, for a phone that keeps its own board without a table (BRD-20)
    after = board.apply(play).rows() if board is not None and play is not None else None
    return ok(PreviewResult("", result, words, after))


async def catalog(request: Request) -> Response:
    return Response(catalog_json(), media_type="application/json")


async def server_time(request: Request) -> Response:
    """The server's clock, so phones show the round clock in step (P-41)."""
    return ok(ServerTime(now_ms()))


async def openapi_json(request: Request) -> Response:
    return Response(openapi.document(), media_type="application/json")


# --- websocket -----------------------------------------------------------------------------


async def websocket(ws: WebSocket) -> None:
    """One phone: ``hello`` first, then commands and previews; the sheet comes back live."""
    await ws.accept()
    connection = Connection(ws, ws.state.queue)
    writer = asyncio.create_task(connection.write())
    joined: Device | None = None
    try:
        while not writer.done():
            text = await _receive(ws)
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


async def _receive(ws: WebSocket) -> str | None:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    if message.get("text") is not None:
        return message["text"]
    return (message.get("bytes") or b"").decode("utf-8", "replace")


async def _answer(
    ws: WebSocket, connection: Connection, joined: Device | None, text: str
) -> Device | None:
    message_id = ""
    try:
        if len(text) > MAX_MESSAGE:
            raise GameError(f"the message is over {MAX_MESSAGE} bytes", code="too_large")
        message = client_decoder.decode(text)
        message_id = getattr(message, "id", "")
        if isinstance(message, Hello):
            return await _hello(ws, connection, joined, message)
        if joined is None:
            raise GameError("say hello with a table and a token first", code="not_joined")
        tables = ws.state.tables
        table_id = joined.table
        if isinstance(message, CommandMessage):
            seq = await tables.command(table_id, joined, message.command, message.id)
            connection.send(encoder.encode(Accepted(message.id, seq)))
        elif isinstance(message, PreviewMessage):
            result, words = await tables.preview(table_id, message.move, message.check)
            connection.send(encoder.encode(PreviewResult(message.id, result, words)))
    except (GameError, StoreUnavailable, msgspec.ValidationError, msgspec.DecodeError) as error:
        connection.send(encoder.encode(as_rejected(error, message_id)))
    return joined


async def _hello(
    ws: WebSocket, connection: Connection, joined: Device | None, hello: Hello
) -> Device:
    if joined is not None:
        raise GameError("this socket has joined a table already", code="already_joined")
    device, _, live = await ws.state.tables.authorise(hello.table, hello.token)
    connection.device = device
    connection.seq = hello.after if hello.after < live.state.seq else -1
    ws.state.hub.enter(hello.table, connection)
    connection.send_state(live)
    return device


# --- the application -----------------------------------------------------------------------


def create_app(settings: Settings) -> Starlette:
    """The server over ``settings.store``."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        await settings.store.start()
        tables = Tables(settings.store)
        hub = Hub(tables, settings.store)
        log.info("tilestream serving with the %s store", settings.store_name)
        try:
            yield {
                "store": settings.store,
                "store_name": settings.store_name,
                "tables": tables,
                "hub": hub,
                "queue": settings.queue,
                "join_limit": RateLimit(settings.joins_per_minute),
                "create_limit": RateLimit(settings.tables_per_minute),
            }
        finally:
            await hub.close()
            await settings.store.close()

    routes = [
        Route("/health", health),
        Route("/api/openapi.json", openapi_json),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/seats", seats, methods=["POST"]),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/score", score, methods=["POST"]),
        Route("/api/catalog", catalog),
        Route("/api/time", server_time),
        Route("/api/tables/{table}/view", table_view),
        Route("/api/tables/{table}/commands", command, methods=["POST"]),
        Route("/api/tables/{table}/gcg", gcg),
        Route("/api/tables/{table}/qr.svg", join_qr),
        Route("/api/tables/{table}/devices", devices),
        WebSocketRoute("/ws", websocket),
        Mount("/", StaticFiles(directory=settings.web, html=True)),
    ]
    # gzip for the app's files and JSON: a phone on a club's Wi-Fi loads the page at once
    middleware = [Middleware(GZipMiddleware, minimum_size=500)]
    return Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
