"""The Starlette application: the HTTP API, the ``/ws`` route (``server.live.socket``), and the
phone app at ``/``."""

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import AsyncIterator, Callable
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

import editions
from editions import codebook
from editions.errors import GameError
from events.commands import JoinSimultaneous
from rules.board.board import Board
from rules.gcg.write import to_gcg
from rules.room import record
from rules.table.permissions import HOST
from rules.table.seating import computer, host_seat, taken
from rules.table.state import Game
from server.http import openapi, simultaneous
from server.http.catalog import catalog_json
from server.http.games import my_games
from server.http.guard import Guard
from server.http.handling import (
    api,
    body,
    client,
    host_only,
    member,
    ok,
    read,
    reject,
    tables_of,
)
from server.http.limits import JoinLimit, RateLimit, WordChecks
from server.http.logbook import ClientNoise, Logbook
from server.http.records import filename, readable, shown_game, start_training
from server.http.static import WebFiles
from server.http.useragent import model
from server.jobs.computer_turns import ComputerPlayer
from server.jobs.move_timer import TICK, MoveTimer
from server.jobs.retention import DAYS as RETENTION_DAYS
from server.jobs.retention import Retention
from server.live.hub import Hub
from server.live.messages import (
    JOINS_PER_MINUTE,
    TABLE_JOINS_PER_MINUTE,
    Accepted,
    CommandRequest,
    DeviceSeen,
    GamesRequest,
    Health,
    Joined,
    JoinRequest,
    PreviewResult,
    RecoverRequest,
    Recovery,
    ScoreRequest,
    Seats,
    SeatsRequest,
    SeatView,
    ServerTime,
)
from server.live.socket import as_rejected, websocket
from server.simultaneous.live import Centres
from server.stores.protocols import Store, StoreUnavailable
from server.tables.commands import Tables, preview_move
from server.tables.held import now_ms
from server.tables.joins import audience, seat_of
from tilestream import WEB, __version__

log = logging.getLogger("tilestream")

QUEUE = 64  # messages waiting for one phone before it is dropped
TABLES_PER_MINUTE = 1_000  # new tables per client address: a runaway script, not a club
# Word checks per client address: a club's calculators behind one router checking as they
# type, not a script reading the list (docs/decisions.md, "The word check is no oracle").
WORD_CHECKS_PER_MINUTE = 120
HELLO_TIMEOUT = 5.0  # seconds a new socket has to say hello before it is closed (1008)
BODY_TIMEOUT = 10.0  # seconds a request's body has to arrive in, once its headers are in
HEALTH_EVERY = 1.0  # seconds /health reuses its last write test: /health is no disk load
HEALTH_TIMEOUT = 2.0  # seconds a write test may take before the store counts as unavailable


class Settings(msgspec.Struct, frozen=True):
    """What a server process is given."""

    store: Store
    store_name: str
    web: Path = WEB
    queue: int = QUEUE
    joins_per_minute: int = JOINS_PER_MINUTE  # guesses of a join code per address
    table_joins_per_minute: int = TABLE_JOINS_PER_MINUTE  # join requests per known table
    tables_per_minute: int = TABLES_PER_MINUTE
    word_checks_per_minute: int = WORD_CHECKS_PER_MINUTE
    hello_timeout: float = HELLO_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    clock: Callable[[], int] = now_ms  # the server's time, ms; tests move it on
    move_tick: float = TICK  # seconds between looks for a time per move run out
    retention_days: int = RETENTION_DAYS  # idle tables are deleted after these; 0: never


class WriteProbe:
    """Whether the store takes a write, tested at most once per ``every`` seconds."""

    def __init__(self, store: Store, every: float = HEALTH_EVERY) -> None:
        self.store = store
        self.every = every
        self._lock = asyncio.Lock()
        self._tested = -every
        self._writable = False

    async def writable(self) -> bool:
        async with self._lock:  # a burst of /health waits for one test, not one each
            now = time.monotonic()
            if now - self._tested >= self.every:
                try:
                    self._writable = await asyncio.wait_for(self.store.writable(), HEALTH_TIMEOUT)
                except TimeoutError:  # a Redis or a disk that hangs is no store to write to
                    self._writable = False
                self._tested = time.monotonic()
            return self._writable


# --- HTTP --------------------------------------------------------------------------------


async def health(request: Request) -> Response:
    """``ok`` when the store takes a write now, else 503 ``unavailable``; names no path."""
    if await request.state.health.writable():
        return ok(Health("ok", request.state.store_name))
    return ok(Health("unavailable", request.state.store_name), 503)


@api
async def create_table(request: Request) -> Response:
    if not await request.state.create_limit.allow(client(request)):
        raise GameError("too many new tables from here; wait a minute", code=codebook.RATE_LIMITED)
    table, token = await tables_of(request).create()
    return ok(Joined(table.id, token, "host", None, table.code, HOST), 201)


@api
async def seats(request: Request) -> Response:
    """The seats of the table with a code, by name and whether taken, for the join form."""
    wanted = await body(request, SeatsRequest)
    find = request.state.join_limit.find
    _, live = await find(client(request), wanted.code, tables_of(request).by_code)
    game = live.state.game
    if game is None:
        return ok(Seats(None, ()))
    held, host = taken(live.state), host_seat(live.state)
    return ok(Seats(game.mode.value, tuple(
        SeatView(i, n, held[i], computer(live.state, i), i == host)
        for i, n in enumerate(game.players)
    )))  # fmt: skip


@api
async def join(request: Request) -> Response:
    wanted = await body(request, JoinRequest)
    await request.state.join_limit.find(client(request), wanted.code, tables_of(request).by_code)
    agent = model(request.headers.get("user-agent", ""))  # tells two phones of a seat apart
    table, token, who = await tables_of(request).join(
        wanted.code, wanted.role, wanted.seat, wanted.device, wanted.name, model=agent
    )
    code = "" if who.role == "viewer" else table.code  # viewers never get the join code
    admitted = who.role != "waiting"
    return ok(Joined(table.id, token, wanted.role, who.seat, code, who.device, admitted))


@api
async def recovery(request: Request) -> Response:
    """A new recovery code for the table, for its director or a co-director (shown once)."""
    table_id, _, who, _ = await member(request)
    host_only(who)
    return ok(Recovery(await tables_of(request).recovery(table_id, who)), 201)


@api
async def recover(request: Request) -> Response:
    """A phone takes the director's place with the recovery code; every try counts as a
    guess of its address, a right one too, so codes cannot be tried faster than join codes."""
    wanted = await body(request, RecoverRequest)
    if not await request.state.join_limit.guesses.allow(client(request)):
        raise GameError("too many attempts; wait a minute", code=codebook.RATE_LIMITED)
    table, token, who = await tables_of(request).recover(wanted.code, wanted.recovery)
    return ok(Joined(table.id, token, "host", None, table.code, who.device), 201)


@api
async def table_view(request: Request) -> Response:
    _, _, who, live = await member(request)
    return Response(live.view_json(audience(who), seat_of(who)), media_type="application/json")


@api
async def games(request: Request) -> Response:
    """The phone's games: for each table and token it keeps, whose turn, its seat, the last
    turn; a token that opens nothing is left out."""
    wanted = await body(request, GamesRequest)
    return ok(await my_games(tables_of(request), request.state.store, wanted))


@api
async def command(request: Request) -> Response:
    table_id, device, _, _ = await member(request)
    wanted = await body(request, CommandRequest)
    try:
        if isinstance(wanted.command, JoinSimultaneous):  # guessed no faster than a join
            await request.state.join_limit.simultaneous(client(request), wanted.command.code)
        seq = await tables_of(request).command(table_id, device, wanted.command, wanted.id)
    except (GameError, StoreUnavailable) as error:  # answered with its id, as on the socket
        return reject(as_rejected(error, wanted.id))
    return ok(Accepted(wanted.id, seq))


@api
async def delete_table(request: Request) -> Response:
    """The host deletes the table (P-11): its log, join code and devices, on every process;
    every phone of it is told (``table_deleted``) and let go."""
    table_id, _, who, _ = await member(request)
    host_only(who)
    await tables_of(request).delete(table_id)
    request.state.hub.gone(table_id)  # at once here; the store tells the other processes
    return Response(status_code=204)


@api
async def devices(request: Request) -> Response:
    """The devices at the table for the host: seat, since, last seen, waiting or not, and
    what tells them apart (the model they joined with, the name they gave themselves)."""
    table_id, _, who, live = await member(request)
    host_only(who)
    seen = await request.state.store.last_seen(table_id)
    return ok(
        [
            DeviceSeen(m.id, m.role, m.seat, m.since, seen.get(m.id), m.admitted, m.model, m.label)
            for m in live.state.seating.members
        ]
    )


@api
async def gcg(request: Request) -> Response:
    table_id, _, _, live = await member(request)
    game = live.state.game
    if game is not None and game.online is not None and game.ended is None:
        # The record has every rack and exchange: told only once the game is over (P-52)
        raise GameError("the record of an online game comes once it is over",
                        code=codebook.GAME_NOT_OVER)  # fmt: skip
    text = to_gcg(await request.state.store.read(table_id))
    return PlainTextResponse(text, media_type="text/plain; charset=utf-8")


@api
async def record_json(request: Request) -> Response:
    """The duplicate game sheet as JSON: the host's at any time, everybody's once it ended."""
    game, sheet = await _record(request)
    headers = {"content-disposition": filename(game, "json")}
    return Response(record.encode(sheet), media_type="application/json", headers=headers)


@api
async def record_csv(request: Request) -> Response:
    """The result list as CSV, to the same devices as the JSON."""
    game, sheet = await _record(request)
    headers = {"content-disposition": filename(game, "csv")}
    return Response(record.to_csv(sheet), media_type="text/csv; charset=utf-8", headers=headers)


async def _record(request: Request) -> tuple[Game, record.GameRecord]:
    """The game a record route is asked for (``?game=previous``: the one before the latest
    new game) as the device may have it, and its record (``?lang``: default names)."""
    table_id, _, who, live = await member(request)
    which = request.query_params.get("game", "")
    game = readable(who, await shown_game(request.state.store, table_id, live.state.game, which))
    return game, record.record(game, request.query_params.get("lang") or None)


@api
async def training(request: Request) -> Response:
    """A new table playing a recorded duplicate game as training: one player, its racks."""
    if not await request.state.create_limit.allow(client(request)):
        raise GameError("too many new tables from here; wait a minute", code=codebook.RATE_LIMITED)
    name = request.query_params.get("name") or None
    return ok(await start_training(tables_of(request), await read(request), name), 201)


@api
async def join_qr(request: Request) -> Response:
    table_id, _, who, _ = await member(request)
    if who.role not in ("host", "player"):  # viewers never get the join code
        raise GameError("a viewer gets no join code", code=codebook.VIEWER_READ_ONLY)
    table = await request.state.store.table(table_id)
    if table is None:
        raise GameError("no such table", code=codebook.UNKNOWN_TABLE)
    url = f"{str(request.base_url).rstrip('/')}/#join={table.code}"
    svg = io.BytesIO()
    segno.make(url, error="m").save(svg, kind="svg", scale=8, title=f"Join code {table.code}")
    return Response(svg.getvalue(), media_type="image/svg+xml")


@api
async def score(request: Request) -> Response:
    wanted = await body(request, ScoreRequest)
    edition = editions.get(wanted.edition)
    if wanted.check:
        await request.state.word_checks.allow(client(request), edition)
    board = None
    if edition.layout is not None:
        board = Board.from_rows(edition, wanted.rows) if wanted.rows else Board.empty(edition)
    result, words, play = preview_move(board or edition, wanted.move, wanted.check)
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


# --- the application -----------------------------------------------------------------------


def create_app(settings: Settings) -> Starlette:
    """The server over ``settings.store``."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        await settings.store.start()
        tables = Tables(settings.store, settings.clock)
        hub = Hub(tables, settings.store)
        centres = Centres(tables, hub)  # the simultaneous's standings across centres
        timer = MoveTimer(tables, settings.move_tick)
        timer.start()
        retention = Retention(tables, hub.gone, settings.retention_days, clock=settings.clock)
        retention.start()
        player = ComputerPlayer(tables, settings.move_tick)  # the computer's seats
        player.start()
        logbook = Logbook(log)
        noise = ClientNoise(logbook)  # uvicorn's lines for clients' mistakes, counted instead
        logging.getLogger("uvicorn.error").addFilter(noise)
        log.info("tilestream %s serving with the %s store", __version__, settings.store_name)
        try:
            yield {
                "store": settings.store,
                "store_name": settings.store_name,
                "tables": tables,
                "hub": hub,
                "centres": centres,
                "queue": settings.queue,
                "logbook": logbook,
                "hello_timeout": settings.hello_timeout,
                "body_timeout": settings.body_timeout,
                "health": WriteProbe(settings.store),
                "join_limit": JoinLimit(
                    settings.store,
                    settings.joins_per_minute,
                    settings.table_joins_per_minute,
                    logbook,
                ),
                "create_limit": RateLimit(
                    settings.store, "create", settings.tables_per_minute, logbook
                ),
                "word_checks": WordChecks(settings.store, settings.word_checks_per_minute, logbook),
            }
        finally:
            logging.getLogger("uvicorn.error").removeFilter(noise)
            logbook.flush()
            await player.stop()
            await timer.stop()
            await retention.stop()
            await centres.close()
            await hub.close()
            await settings.store.close()

    routes = [
        Route("/health", health),
        Route("/api/openapi.json", openapi_json),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/games", games, methods=["POST"]),
        Route("/api/seats", seats, methods=["POST"]),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/recover", recover, methods=["POST"]),
        Route("/api/score", score, methods=["POST"]),
        Route("/api/catalog", catalog),
        Route("/api/time", server_time),
        Route("/api/tables/{table}", delete_table, methods=["DELETE"]),
        Route("/api/tables/{table}/view", table_view),
        Route("/api/tables/{table}/commands", command, methods=["POST"]),
        Route("/api/tables/{table}/gcg", gcg),
        Route("/api/tables/{table}/record.json", record_json),
        Route("/api/tables/{table}/record.csv", record_csv),
        Route("/api/training", training, methods=["POST"]),
        Route("/api/tables/{table}/qr.svg", join_qr),
        Route("/api/tables/{table}/devices", devices),
        Route("/api/tables/{table}/recovery", recovery, methods=["POST"]),
        Route("/api/simultaneous", simultaneous.create_simultaneous, methods=["POST"]),
        Route("/api/simultaneous/{simultaneous}", simultaneous.organiser_view),
        Route(
            "/api/simultaneous/{simultaneous}",
            simultaneous.delete_simultaneous,
            methods=["DELETE"],
        ),
        Route(
            "/api/simultaneous/{simultaneous}/close", simultaneous.close_window, methods=["POST"]
        ),
        Route("/api/simultaneous/{simultaneous}/results.json", simultaneous.results_json),
        Route("/api/simultaneous/{simultaneous}/results.csv", simultaneous.results_csv),
        Route("/api/simultaneous/{simultaneous}/record.json", simultaneous.training_record),
        WebSocketRoute("/ws", websocket),
        Mount("/", WebFiles(settings.web)),  # versioned files, pages that revalidate
    ]
    # Guard first: its headers go on every answer, and a cross-origin write goes no further.
    # gzip for the app's files and JSON: a phone on a club's Wi-Fi loads the page at once
    middleware = [Middleware(Guard), Middleware(GZipMiddleware, minimum_size=500)]
    return Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
