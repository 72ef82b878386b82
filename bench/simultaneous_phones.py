"""The players' phones of ``bench.simultaneous``, in a client process of their own.

``bench.simultaneous`` starts several of these (``python -m bench.simultaneous_phones``) so
that 2,000 websockets are not read by one Python process, and talks to each over its stdin
and stdout, a JSON object a line: ``open`` the phones it is given, ``slips`` (every phone
hands in its slip at its moment of the window), ``settle`` (wait until every phone has its
room's close and no standings frame has come for a while), each answered by a line. Times
are ``time.perf_counter()``, the system's monotonic clock, so the parent compares them with
its own.

Each phone notes the seq of the views it gets, the answers to its slips, and every
``simultaneous`` frame (when, its bytes as sent, its payload).
"""

import asyncio
import sys
import time
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.fanout_client import raise_fd_limit
from bench.room_phones import VIEWS, WAIT, Seen, seen
from server.live.sheets import read_frame

CONNECTING = 8  # websocket handshakes in flight at once from one client process
FIRST = 10.0  # s a phone waits for its first standings frame before it is counted without


class Seat(msgspec.Struct, frozen=True):
    """A player's phone as the parent made it: where it connects and who it is."""

    index: int  # across every centre: the order of the slips in the window
    url: str
    table: str
    token: str
    seat: int
    name: str
    centre: str


class Slip(msgspec.Struct, frozen=True):
    word: str
    start: str
    direction: str


class Order(msgspec.Struct, frozen=True):
    """One line from the parent."""

    do: str
    seats: list[Seat] = []
    round: int = 0
    game: int = 0
    moves: list[Slip] = []
    at: float = 0.0  # when the window opens
    spacing: float = 0.0  # s between two slips of the window
    closes: dict[str, int] = {}  # table → seq of its close
    quiet: float = 1.5  # s without a standings frame before a round counts as settled
    standings: bool = True  # the phones are a centre's: each has a standings frame


class Settled(msgspec.Struct, frozen=True):
    """A phone after a round: when it had its room's close, its last standings frame (when,
    what), and the standings frames of the round (count, bytes as sent)."""

    index: int
    change: float
    last: float
    frame: dict[str, Any]
    frames: int
    size: int


class Phone:
    """One player's websocket."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.ws: ClientConnection | None = None
        self.seq = -1
        self.views: list[tuple[int, float]] = []  # (seq, when) of each state or change
        self.answers: dict[str, tuple[float, Seen]] = {}
        self.standings: list[tuple[float, int, bytes]] = []  # (when, bytes as sent, payload)
        self.closed = False
        self.reader: asyncio.Task[None] | None = None

    async def open(self, gate: asyncio.Semaphore) -> None:
        async with gate:
            self.ws = await connect(
                self.seat.url, compression=None, max_size=None, open_timeout=WAIT
            )
            hello = {"type": "hello", "table": self.seat.table, "token": self.seat.token}
            await self.ws.send(msgspec.json.encode(hello | {"after": 0}).decode())
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        assert self.ws is not None
        try:
            async for frame in self.ws:
                now = time.perf_counter()
                data = read_frame(frame)
                message = seen.decode(data)
                if message.type in VIEWS:
                    self.seq = max(self.seq, message.seq)
                    self.views.append((message.seq, now))
                elif message.type == "simultaneous":
                    size = len(frame) if isinstance(frame, bytes) else len(frame.encode())
                    self.standings.append((now, size, data))
                elif message.id:
                    self.answers[message.id] = (now, message)
        except (ConnectionClosed, WebSocketException, OSError):
            pass
        self.closed = True

    async def slip(self, order: Order) -> tuple[float, str]:
        """Hand in this phone's slip at its moment; ms to its answer, and a refusal's code."""
        assert self.ws is not None
        k = self.seat.index
        await asyncio.sleep(max(0.0, order.at + k * order.spacing - time.perf_counter()))
        move = order.moves[k % len(order.moves)]  # many different scores across the centres
        turn = {"game": order.game, "player": self.seat.seat, "number": order.round}
        command = {"type": "submit_slip", "word": move.word, "start": move.start,
                   "direction": move.direction, "turn": turn}  # fmt: skip
        command_id = f"s{order.round}"
        message = {"type": "command", "id": command_id, "command": command}
        sent = time.perf_counter()
        await self.ws.send(msgspec.json.encode(message).decode())
        while command_id not in self.answers:
            if self.closed or time.perf_counter() > sent + WAIT:
                return 0.0, "no answer"
            await asyncio.sleep(0.005)
        at, answer = self.answers[command_id]
        return 1000 * (at - sent), "" if answer.type == "accepted" else answer.code

    def reached(self, seq: int) -> float:
        """When this phone first had a view at ``seq`` or later."""
        return next(t for s, t in self.views if s >= seq)


async def settle(phones: list[Phone], order: Order, began: float) -> list[Settled]:
    """Wait for every phone's close, then for ``quiet`` s without a standings frame."""
    deadline = time.perf_counter() + WAIT
    while any(p.seq < order.closes[p.seat.table] for p in phones):
        if any(p.closed for p in phones) or time.perf_counter() > deadline:
            behind = sum(p.seq < order.closes[p.seat.table] for p in phones)
            raise RuntimeError(f"{behind} phones never got their room's close")
        await asyncio.sleep(0.01)
    start = time.perf_counter()
    while True:
        newest = max((p.standings[-1][0] for p in phones if p.standings), default=start)
        wait = max(start, newest) + order.quiet - time.perf_counter()
        if wait <= 0:
            break
        await asyncio.sleep(wait)
    settled = []
    for p in phones:
        ours = [f for f in p.standings if f[0] >= began]
        last, frame = 0.0, {}
        if p.standings:
            last, _, data = p.standings[-1]
            shown = msgspec.json.decode(data)
            frame = {k: shown.get(k) for k in ("you", "leaders", "players", "centres")}
        closed = p.reached(order.closes[p.seat.table])
        settled.append(
            Settled(p.seat.index, closed, last, frame, len(ours), sum(f[1] for f in ours))
        )
    return settled


async def opened(phones: list[Phone], standings: bool) -> dict[str, int]:
    """Wait for every phone's state and (a centre's phone) its first standings frame: how
    many had none after ``FIRST`` s (the server owes one within ~0.2 s of the hello)."""
    deadline = time.perf_counter() + WAIT
    while any(p.seq < 0 for p in phones):
        if any(p.closed for p in phones) or time.perf_counter() > deadline:
            stateless = sum(p.seq < 0 for p in phones)
            closed = sum(p.closed for p in phones)
            raise RuntimeError(f"{stateless} phones had no state in {WAIT:g} s, {closed} closed")
        await asyncio.sleep(0.02)
    deadline = time.perf_counter() + FIRST
    while standings and any(not p.standings for p in phones) and time.perf_counter() < deadline:
        await asyncio.sleep(0.02)
    return {"opened": len(phones), "unranked": sum(standings and not p.standings for p in phones)}


async def serve() -> None:
    """Follow the parent's orders until its stdin closes."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    phones: list[Phone] = []
    began = 0.0  # when the round's standings frames begin to count

    def say(answer: object) -> None:
        sys.stdout.buffer.write(msgspec.json.encode(answer) + b"\n")
        sys.stdout.buffer.flush()

    while line := await reader.readline():
        order = msgspec.json.decode(line, type=Order)
        if order.do == "open":
            gate = asyncio.Semaphore(CONNECTING)
            phones = [Phone(s) for s in order.seats]
            await asyncio.gather(*(p.open(gate) for p in phones))
            say(await opened(phones, order.standings))
        elif order.do == "begin":  # before the round's draws
            began = time.perf_counter()
            say({"began": began})
        elif order.do == "slips":
            done = await asyncio.gather(*(p.slip(order) for p in phones))
            say({"ms": [ms for ms, _ in done], "refused": [code for _, code in done if code]})
        elif order.do == "settle":
            say(await settle(phones, order, began))
    for phone in phones:
        if phone.ws is not None:
            await phone.ws.close()


def main() -> None:
    raise_fd_limit()
    asyncio.run(serve())


if __name__ == "__main__":
    main()
