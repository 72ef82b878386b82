"""Phones for the server tests: websocket clients of a real table server, and the tables,
commands and logs they share.

The server process and the plain HTTP client (``ServerProcess``, ``Api``, ``request``) are
``bench.serving``'s, which the benchmarks use too. The websocket clients are deliberately
plain: the ``websockets`` library for ``/ws``. ``check_log`` is the assertion every fault
test ends with; ``play`` is a phone that retries as a real one does.

Commands: a phone names the turn it means (``Turns`` keeps the next one of a classic game
for commands sent without reading the view in between). Tests about the log and the stores
rather than turns write ``line``s instead: a duplicate game's cell corrected, one event per
command, which no other command can make stale, whichever phone's arrives first.
"""

import asyncio
import contextlib
import dataclasses
import json
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

# Re-exported: the tests import the server process from here with the phones.
from bench.serving import ROOT as ROOT
from bench.serving import Api as Api
from bench.serving import Reply as Reply
from bench.serving import ServerProcess as ServerProcess
from bench.serving import device_key as device_key
from bench.serving import free_port as free_port
from bench.serving import new_address as new_address
from bench.serving import request as request
from events.events import DeviceJoined, DeviceRemoved, Recorded
from server.live.hub import BEAT
from server.live.sheets import apply, read_frame
from server.stores.protocols import Store


def but_seq(view: dict[str, Any]) -> dict[str, Any]:
    """A table view without its seq (and its sheet's): what a phone shows of it."""
    sheet = view.get("sheet")
    return {**view, "seq": None, "sheet": sheet and {**sheet, "seq": None}}


@contextlib.asynccontextmanager
async def opened(*stores: Store) -> AsyncIterator[tuple[Store, ...]]:
    """The stores, started (each one process's store), closed after."""
    async with contextlib.AsyncExitStack() as stack:
        for store in stores:
            await store.start()
            stack.push_async_callback(store.close)
        yield stores


# --- websocket phones ----------------------------------------------------------------------


class Message(msgspec.Struct, frozen=True):
    """Any server → phone message; the view stays as the bytes the server sent."""

    type: str
    id: str = ""
    seq: int = 0
    after: int = -1  # a change: the seq of the view it follows
    code: str = ""
    params: dict[str, Any] = {}
    message: str = ""
    view: msgspec.Raw = msgspec.Raw(b"")
    score: Any = None
    words: tuple[str, ...] = ()


_decoder = msgspec.json.Decoder(Message)

WAIT = 20.0  # seconds a phone waits for an answer before the test fails


class Phone:
    """One phone on ``/ws``: it says hello, sends commands and keeps every view it has — sent
    whole, or made from the one before by a change, as the app does (``server.live.sheets``)."""

    def __init__(
        self, ws_url: str, table: str, token: str, *, compression: str | None = "deflate"
    ) -> None:
        self.ws_url = ws_url
        self.table = table
        self.token = token
        self.compression = compression
        self.ws: ClientConnection | None = None
        self.seq = 0  # the last seq this phone saw
        self.states: list[tuple[int, bytes]] = []  # (seq, view) in order, encoded as sent
        self.frames_in: list[tuple[str, int]] = []  # (message type, bytes on the wire)
        self.answers: dict[str, Message] = {}  # command or preview id → accepted / rejected
        self.beats = 0  # the server's "still here" while nothing changed
        self._fresh = True  # no state since the last hello
        self._asked = 0  # resyncs not answered yet: their state may repeat the last seq
        self._view: dict[str, Any] | None = None  # the last view, decoded, for changes

    async def connect(self, **options: Any) -> None:
        """Open the socket (``options`` go to ``websockets``' ``connect``).

        Frames queue unbounded unless ``max_queue`` says otherwise: a browser reads every
        frame into its page, while a test reads only when it checks, and a full queue would
        stop this client reading the socket, so that the server's ping went unanswered and
        the server let the phone go after 20 s (a display left unread through a long game).
        """
        options.setdefault("max_queue", None)
        self.ws = await connect(
            self.ws_url, compression=self.compression, max_size=2**24, open_timeout=WAIT,
            **options,
        )  # fmt: skip

    async def open(self, after: int | None = None, **options: Any) -> Message:
        """Connect and say hello (after the last seq seen); the first answer."""
        await self.connect(**options)
        self._fresh = True
        await self.send(
            {"type": "hello", "table": self.table, "token": self.token,
             "after": self.seq if after is None else after}
        )  # fmt: skip
        return await self.receive()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def command(self, command_id: str, command: dict[str, Any]) -> None:
        """Send a command without waiting for its answer."""
        await self.send({"type": "command", "id": command_id, "command": command})

    async def resync(self) -> None:
        """Ask for the whole view again, as a phone does when a change does not follow its
        own; the state that comes may repeat the last seq seen."""
        self._asked += 1
        await self.send({"type": "resync"})

    async def receive(self, timeout: float = WAIT) -> Message:
        """The next message (a beat is counted, not returned); views and answers are also
        kept."""
        assert self.ws is not None
        while (frame := await asyncio.wait_for(self.ws.recv(), timeout)) == BEAT:
            self.beats += 1
        data = read_frame(frame)
        message = _decoder.decode(data)
        self.frames_in.append((message.type, len(frame)))
        if message.type in ("state", "change"):
            # In order, each once; only a state after a hello or a resync may repeat the last.
            again = self._fresh or (self._asked and message.type == "state")
            assert message.seq > self.seq or (again and message.seq == self.seq), (
                message.seq,
                self.seq,
            )
            if message.type == "state":
                view = bytes(message.view)
                self._view = msgspec.json.decode(view)
                self._asked = max(0, self._asked - 1)
            else:  # sent only to a phone that has the view it follows, never after a hello
                assert not self._fresh and self._view is not None, "a change before a state"
                assert message.after == self.seq, (message.after, self.seq)
                view = msgspec.json.encode(apply(self._view, msgspec.json.decode(data)))
            self._fresh = False
            self.seq = message.seq
            self.states.append((message.seq, view))
        elif message.id:
            self.answers[message.id] = message
        return message

    async def answer(self, message_id: str, timeout: float = WAIT) -> Message:
        """Receive until the answer to ``message_id`` arrives."""
        while message_id not in self.answers:
            await self.receive(timeout)
        return self.answers[message_id]

    async def until_seq(self, seq: int, timeout: float = WAIT) -> None:
        """Receive until this phone has seen the state at ``seq`` (or later)."""
        while self.seq < seq:
            await self.receive(timeout)

    async def until_current(self, seq: int, served: Callable[[], Awaitable[bytes]]) -> None:
        """Receive until this phone holds its view as of ``seq`` (or later): it has that seq,
        or nothing it shows changed since but the seq, so it was sent nothing — its view is
        then the server's (``served``: the HTTP view for its token) but for the seq."""
        while self.seq < seq:
            current = json.loads(await served())
            if current["seq"] >= seq and but_seq(current) == but_seq(json.loads(self.view)):
                return
            await self.receive()

    @property
    def view(self) -> bytes:
        """The last view received, byte for byte."""
        return self.states[-1][1]


@contextlib.asynccontextmanager
async def phones(*members: Phone) -> AsyncIterator[tuple[Phone, ...]]:
    """Close every phone on the way out, whatever happened."""
    try:
        yield members
    finally:
        for member in members:
            with contextlib.suppress(Exception):
                await member.close()


# --- logs and retrying phones ---------------------------------------------------------------


async def read_log(store: Store, table_id: str) -> tuple[Recorded, ...]:
    """A table's whole log, read straight from a store."""
    await store.start()
    try:
        return await store.read(table_id)
    finally:
        await store.close()


def check_log(log: Sequence[Recorded], acknowledged: dict[str, int]) -> Counter[str]:
    """The log is gapless, and holds every acknowledged command once, at its acknowledged seq;
    what it holds without a command id is devices joining (and the old entry of a phone
    that came back to its seat going).

    Returns how often each command id appears (every command here records one event).
    """
    assert [r.seq for r in log] == list(range(1, len(log) + 1)), "a gap or a repeat in the log"
    unnamed = [r.event for r in log if not r.command]
    assert all(isinstance(e, DeviceJoined | DeviceRemoved) for e in unnamed), unnamed
    counts = Counter(r.command for r in log if r.command)
    assert max(counts.values(), default=0) == 1, [c for c, n in counts.items() if n > 1]
    at = {r.command: r.seq for r in log}
    missing = sorted(set(acknowledged) - set(at))
    assert not missing, f"acknowledged but not in the log: {missing}"
    assert {c: at[c] for c in acknowledged} == acknowledged
    return counts


async def play(phone: Phone, commands: dict[str, dict[str, Any]], until: int = 0) -> int:
    """Send every command and read until each is answered and the state at ``until`` has come,
    as a phone does: when the server drops it (1013: too slow) it reconnects after its last
    seq and sends the unanswered commands again, with the same ids. Returns how often it
    reconnected."""
    reconnects = 0
    while True:
        pending = [name for name in commands if name not in phone.answers]

        async def send(names: list[str] = pending) -> None:
            for name in names:
                await phone.command(name, commands[name])

        async def read() -> None:
            while any(name not in phone.answers for name in commands) or phone.seq < until:
                await phone.receive()

        sending = asyncio.create_task(send())
        try:
            await read()
            await sending
            return reconnects
        except ConnectionClosed as closed:
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await sending
            assert closed.rcvd is not None and closed.rcvd.code == 1013, closed
            reconnects += 1
            await phone.open()


# --- commands ------------------------------------------------------------------------------

START = {"type": "start_game", "edition": "nl", "players": ["Ann", "Bob", "Cas", "Dirk"]}
#: A duplicate game of four: its cells take ``line``s from every seat at once.
DUPLICATE = {**START, "mode": "duplicate"}


def turn(player: int, number: int = 0, game: int = 1) -> dict[str, int]:
    """The turn a command means: ``player``'s ``number``-th (classic; duplicate: the open
    round) in the game that started at seq ``game``."""
    return {"game": game, "player": player, "number": number}


def points(value: int, meant: dict[str, int]) -> dict[str, Any]:
    """A command that writes a line of ``value`` points for the turn ``meant``."""
    return {"type": "enter_points", "points": value, "turn": meant}


def line(value: int, player: int = 0) -> dict[str, Any]:
    """A command that writes one event and never conflicts with another: ``player``'s cell
    of the first round of a ``DUPLICATE`` game set to ``value``. The sheet then shows the
    last value written to each cell; the host or ``player``'s seat may write it."""
    return {"type": "correct_cell", "round": 0, "player": player, "points": value}


class Turns:
    """The turns of a classic game, as the phones name them, for commands sent one after
    another without reading the view in between: each turn is the next seat's in order."""

    def __init__(
        self,
        players: int = 4,
        *,
        to_move: int = 0,
        taken: Sequence[int] | None = None,
        game: int = 1,
    ) -> None:
        self.game = game
        self.to_move = to_move
        self.taken = list(taken) if taken is not None else [0] * players

    def next(self) -> dict[str, int]:
        """The turn of the player to move; the next player is to move after it."""
        player = self.to_move
        meant = turn(player, self.taken[player], self.game)
        self.taken[player] += 1
        self.to_move = (player + 1) % len(self.taken)
        return meant

    def points(self, value: int) -> dict[str, Any]:
        """``value`` points for the next turn."""
        return points(value, self.next())

    def play(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A turn command (``pass``, ``record_move`` …) for the next turn."""
        return {"type": kind, **fields, "turn": self.next()}


def same_table(host: bytes, *others: bytes) -> None:
    """The views of other audiences (players, viewers) show what the host's view shows, but
    the devices at the table: those are the host's only."""
    seen = json.loads(host)
    assert isinstance(seen.pop("devices"), list), "the host's view lists the devices"
    for other in others:
        theirs = json.loads(other)
        assert theirs.pop("devices") is None, "a device other than the host's sees devices"
        assert theirs == seen


@dataclasses.dataclass
class Table:
    """A table made over HTTP: its id, the host's token and the join code."""

    server: ServerProcess
    api: Api
    id: str
    host: str
    code: str

    @classmethod
    def create(cls, server: ServerProcess, *, start: dict[str, Any] | None = START) -> "Table":
        """A new table on ``server``, its game started with ``start`` unless None."""
        api = server.api()
        made = api.create_table()
        table = cls(server, api, made["table"], made["token"], made["code"])
        if start is not None:
            reply = api.command(table.id, table.host, "start", start)
            assert reply.status == 200, reply
        return table

    def on(self, server: ServerProcess) -> "Table":
        """The same table, reached through another server process."""
        return dataclasses.replace(self, server=server, api=server.api())

    def join(self, role: str = "player", seat: int | None = None, device: str = "") -> str:
        """A new device's token (from its own address: joins are limited per address); it
        is let in at once (a free seat, or the same phone coming back)."""
        joined = Api(self.api.url, new_address()).join(self.code, role, seat, device)
        assert joined["admitted"], joined
        return str(joined["token"])

    def phone(self, token: str | None = None, **options: Any) -> Phone:
        return Phone(self.server.ws_url, self.id, token or self.host, **options)

    def command(self, command_id: str, command: dict[str, Any], token: str | None = None) -> Reply:
        return self.api.command(self.id, token or self.host, command_id, command)

    def view(self, token: str | None = None) -> bytes:
        """The view over HTTP, byte for byte: the host's, or that of ``token``'s device."""
        reply = self.api.view(self.id, token or self.host)
        assert reply.status == 200, reply
        return reply.body

    @property
    def seq(self) -> int:
        return self.api.seq(self.id, self.host)


class Recording(Phone):
    """A phone that also keeps every frame it received, as the text that came (a compressed
    one inflated): what a privacy test holds against the log."""

    def __init__(self, name: str, ws_url: str, table: str, token: str) -> None:
        super().__init__(ws_url, table, token)
        self.name = name
        self.frames: list[str] = []

    async def connect(self, **options: Any) -> None:
        await super().connect(**options)
        assert self.ws is not None
        receive = self.ws.recv

        async def recording(*args: Any, **kwargs: Any) -> Any:
            frame = await receive(*args, **kwargs)
            self.frames.append(read_frame(frame).decode())  # a big state comes gzipped
            return frame

        self.ws.recv = recording  # type: ignore[method-assign]

    @property
    def sheet(self) -> dict[str, Any]:
        return json.loads(self.view)["sheet"]
