"""The phones of ``bench.room``: a duplicate room's director, display and players on real
websockets (the ``websockets`` library), set up over HTTP as the phones set themselves up.

Each phone notes every frame it gets (its seq, type, payload bytes and when) and the answers
to its commands; the display (and the first player) keeps its view as the app does, changes
applied, so the client reads the board and the rack off it to find valid slips.
"""

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

import editions
from bench.serving import ServerProcess, device_key, slip
from rules.board.board import Board
from rules.movegen.moves import WordGraph, generate
from server.live.sheets import apply, read_frame

EDITION = "nl"
RULES = "duplicate"  # FISF: up to 200 players, solos from 16
WAIT = 60.0  # s for anything awaited before the run fails
VIEWS = ("state", "change")


class Seen(msgspec.Struct):
    """What the client reads of a server message; the sheet itself is skipped."""

    type: str
    seq: int = -1
    id: str = ""
    code: str = ""


seen = msgspec.json.Decoder(Seen)


class Phone:
    """One websocket: the frames it got (seq, type, bytes, when) and the answers to it."""

    def __init__(self, url: str, table: str, token: str, seat: int | None, keep: bool) -> None:
        self.url, self.table, self.token, self.seat = url, table, token, seat
        self.keep = keep  # keep the view (the display's: the client reads the board off it)
        self.view: dict[str, Any] = {}
        self.ws: ClientConnection | None = None
        self.seq = -1
        self.frames: list[tuple[int, str, int, float]] = []
        self.raw: dict[int, str | bytes] = {}  # kept frames by seq (``keep`` only)
        self.answers: dict[str, tuple[float, Seen]] = {}
        self.own: dict[int, int] = {}  # round → the seq of this player's slip
        self.reader: asyncio.Task[None] | None = None
        self.closed = False

    async def open(self) -> None:
        # No permessage-deflate offered: the server accepts it from no phone anyway.
        self.ws = await connect(self.url, compression=None, max_size=None, open_timeout=WAIT)
        hello = {"type": "hello", "table": self.table, "token": self.token, "after": 0}
        await self.ws.send(msgspec.json.encode(hello).decode())
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        assert self.ws is not None
        try:
            async for frame in self.ws:
                now = time.perf_counter()
                data = read_frame(frame)
                message = seen.decode(data)
                size = len(frame) if isinstance(frame, bytes) else len(frame.encode())
                self.frames.append((message.seq, message.type, size, now))
                if message.type in VIEWS:
                    self.seq = max(self.seq, message.seq)
                    if self.keep:
                        self.raw[message.seq] = frame
                        self._apply(message.type, data)
                elif message.id:
                    self.answers[message.id] = (now, message)
        except (ConnectionClosed, WebSocketException, OSError):
            pass
        self.closed = True

    def _apply(self, kind: str, data: bytes) -> None:
        decoded = msgspec.json.decode(data)
        if kind == "state":
            self.view = decoded["view"]
        else:
            apply(self.view, decoded)

    async def command(self, command_id: str, command: dict[str, Any]) -> float:
        """Send a command; when it was sent."""
        assert self.ws is not None
        message = {"type": "command", "id": command_id, "command": command}
        sent = time.perf_counter()
        await self.ws.send(msgspec.json.encode(message).decode())
        return sent

    async def answer(self, command_id: str) -> tuple[float, Seen]:
        """When the answer to ``command_id`` came, and the answer."""
        deadline = time.perf_counter() + WAIT
        while command_id not in self.answers:
            if self.closed or time.perf_counter() > deadline:
                raise RuntimeError(f"no answer to {command_id} (closed: {self.closed})")
            await asyncio.sleep(0.002)
        return self.answers[command_id]

    def reached(self, seq: int) -> float:
        """When this phone first had a view at ``seq`` or later."""
        return next(t for s, kind, _, t in self.frames if kind in VIEWS and s >= seq)


async def everyone(phones: list[Phone], seq: int) -> None:
    """Wait until every phone has a view at ``seq`` or later (a dropped phone fails the run)."""
    deadline = time.perf_counter() + WAIT
    while any(p.seq < seq for p in phones):
        if any(p.closed for p in phones) or time.perf_counter() > deadline:
            behind = sum(p.seq < seq for p in phones)
            raise RuntimeError(f"{behind} phones never got seq {seq}")
        await asyncio.sleep(0.005)


class Room:
    """A table with a duplicate game, its players registered by name, and its phones."""

    def __init__(self, director: Phone, display: Phone, players: list[Phone]) -> None:
        self.director, self.display, self.players = director, display, players
        self.ids = iter(range(1_000_000))
        self.draws: list[int] = []  # the seq of each round's draw, and of its close
        self.closes: list[int] = []

    @property
    def phones(self) -> list[Phone]:
        return [self.director, self.display, *self.players]

    @classmethod
    def create(cls, servers: list[ServerProcess], players: int, number: int) -> "Room":
        """Over HTTP: the table, the game, every player's registration and the display."""
        home = servers[number % len(servers)]
        api = home.api()
        made = api.create_table()
        start = {"type": "start_game", "edition": EDITION, "mode": "duplicate",
                 "rules": RULES, "players": []}  # fmt: skip
        reply = api.command(made["table"], made["token"], "start", start)
        assert reply.status == 200, reply

        def join(index: int) -> tuple[str, int | None]:
            body: dict[str, Any] = {"code": made["code"], "device": device_key()}
            body |= {"role": "viewer"} if index < 0 else {"role": "player", "name": f"P{index}"}
            joined = api.post("/api/join", body)
            assert joined.status == 200, joined
            return joined.json()["token"], joined.json()["seat"]

        with ThreadPoolExecutor(8) as pool:
            joined = list(pool.map(join, range(-1, players)))
        table = made["table"]

        def url(k: int) -> str:  # a room's phones alternate between the processes
            return servers[(number + k) % len(servers)].ws_url

        director = Phone(home.ws_url, table, made["token"], None, keep=False)
        display = Phone(url(1), table, joined[0][0], None, keep=True)
        phones = [Phone(url(k), table, t, s, keep=k == 0) for k, (t, s) in enumerate(joined[1:])]
        return cls(director, display, phones)

    async def command(self, command: dict[str, Any]) -> int:
        """The director's command; its seq once accepted."""
        command_id = f"d{next(self.ids)}"
        await self.director.command(command_id, command)
        _, answer = await self.director.answer(command_id)
        if answer.type != "accepted":
            raise RuntimeError(f"{command['type']} refused: {answer.code}")
        return answer.seq

    async def slips(self, number: int, window: float, graph: WordGraph) -> list[float]:
        """Draw, start the clock and have every player hand in a valid slip, spread over
        ``window`` seconds; ms from each slip to its ``accepted``."""
        self.draws.append(await self.command({"type": "draw_rack", "round": number}))
        await everyone(self.phones, await self.command({"type": "start_clock"}))
        sheet = self.display.view["sheet"]
        board = Board.from_rows(editions.get(EDITION), sheet["board"])
        moves = generate(board, "".join(sheet["rounds"][-1]["rack"]), graph)
        assert moves, "a rack without a move"
        began = time.perf_counter()
        spacing = window / len(self.players)

        async def hand_in(k: int, phone: Phone) -> float:
            await asyncio.sleep(max(0.0, began + k * spacing - time.perf_counter()))
            move = moves[k % len(moves)]  # a different valid word for many of them
            assert phone.seat is not None, "the players' phones have seats; the display none"
            command_id = f"s{number}-{k}"
            sent = await phone.command(command_id, slip(move, sheet["started"], phone.seat, number))
            at, answer = await phone.answer(command_id)
            if answer.type != "accepted":
                raise RuntimeError(f"a slip was refused: {answer.code}")
            phone.own[number] = answer.seq
            return 1000 * (at - sent)

        latencies = await asyncio.gather(*(hand_in(k, p) for k, p in enumerate(self.players)))
        # Quiet again before the close is timed. A player's phone is sent its own slip
        # only: another's changes nothing it shows (rules.room.view), so it stays at that seq.
        await everyone([self.director, self.display], max(p.own[number] for p in self.players))
        for phone in self.players:
            await everyone([phone], phone.own[number])
        return list(latencies)

    async def close(self, number: int) -> float:
        """Close the round; ms until the last player's phone and the display have it."""
        began = time.perf_counter()
        seq = await self.command({"type": "close_round", "round": number})
        self.closes.append(seq)
        await everyone(self.phones, seq)
        return 1000 * (max(p.reached(seq) for p in [self.display, *self.players]) - began)
