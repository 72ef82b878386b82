"""The client side of ``bench.fanout``: tables of four websocket phones, in a process of its own.

``bench.fanout`` runs ``python -m bench.fanout_client PLAN`` (a JSON ``Plan``) and reads one
JSON ``Outcome`` from its last line of output. Per table a host creates it and starts a game
of four over HTTP, and three players join seats of it; the four phones say hello, then the
host's phone sends commands — points mostly, a pass every fifth, a new game every ``GAME`` —
at a fixed rate (or, for the ``max`` load, the next as soon as the last phone has the
previous). Each names the turn (or the game) it is for, as a phone's does: the client keeps
the turns itself, since it sends without waiting for the sheet (``Turns``).

Joins come from loopback addresses of their own (127.1.x.y, six tables each), as phones
come from addresses of their own: the server allows 20 join attempts a minute per address.

Latency is from sending a command to the moment the last of the table's four phones has a
view (a ``state``, or a ``change`` to the one it has) with that command's seq or a later
one: a phone may be sent only the newest. The host's phone keeps its view, changes applied,
to name the turns again after a refusal; the others only read each frame's type and seq.
"""

import asyncio
import bisect
import contextlib
import http.client
import json
import os
import random
import resource
import secrets
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from server.live.sheets import apply, read_frame

GAME = 60  # lines before the host starts a new game: the sheet stays the size of a real one
JOINS_PER_ADDRESS = 6  # tables per client address: 3 joins each, under 20 joins a minute
CONNECTING = 64  # websocket handshakes in flight at once
DRAIN = 3.0  # seconds to wait after a load for its last commands to reach every phone
CLOCK_TICK = os.sysconf("SC_CLK_TCK")


class Load(msgspec.Struct, frozen=True):
    """One measured load: ``rate`` commands a second per table, or None for closed loop."""

    name: str
    rate: float | None


class Plan(msgspec.Struct, frozen=True):
    """What the client does against servers on ``ports`` (the pids are for CPU and RSS)."""

    kind: str  # "tilestream" or "echo"
    ports: list[int]
    tables: int
    loads: list[Load]
    warm: float
    measure: float
    pids: dict[str, list[int]]
    hold: float = 0.0  # seconds to hold every phone before the loads
    compression: bool = True  # offer permessage-deflate, as browsers do


class Figures(msgspec.Struct):
    """One load's results."""

    name: str
    offered: float | None  # commands per second, all tables
    events: float  # recorded events per second
    pushes: float  # views (states and changes) received per second, all phones
    p50: float | None  # ms; None when that many commands never reached every phone
    p99: float | None
    commands: int  # commands sent in the measured window
    unfinished: int  # of those, not on every phone by the end of the drain
    rejected: dict[str, int]  # refusal code → count
    dropped: int  # phones whose socket closed during the load
    cpu: dict[str, float]  # percent of one core over the window, per role
    cpu_each: dict[str, list[float]]  # the same, per process of each role
    state_bytes: float  # mean size of a frame that brings a view (state or change), as sent


class Outcome(msgspec.Struct):
    """Everything one client run measured."""

    setup: float  # seconds to create the tables and open every phone
    phones: int
    initial: int  # phones that got their first state
    held: int  # phones still open after the hold
    refused: dict[str, int]  # refusals while opening phones and starting games, by code
    ready: int  # tables whose four phones joined and whose game started: the loads use these
    rss_kb: dict[str, list[int]]  # "idle", "phones", "held": per server process
    loads: list[Figures]


class Incoming(msgspec.Struct):
    """What the client reads of a server message; the sheet itself is skipped."""

    type: str
    seq: int = 0
    id: str = ""
    code: str = ""


incoming = msgspec.json.Decoder(Incoming)
VIEWS = ("state", "change")

START = {"type": "start_game", "edition": "en", "players": ["Ann", "Bob", "Cas", "Dee"]}


class SheetSeen(msgspec.Struct):
    """What the client reads of a sheet to name turns again after a refusal."""

    started: int
    starter: int
    to_move: int
    turns: list[int]


class ViewSeen(msgspec.Struct):
    seq: int
    sheet: SheetSeen | None = None


class Turns:
    """The turns of the host's game as the host's phone names them, kept as it sends: the
    host alone writes, one command after another, each recording one event."""

    def __init__(self, seq: int, started: int = 1, starter: int = 0, players: int = 4) -> None:
        self.seq = seq  # the last event, once everything sent is recorded
        self.started = started  # the seq of the game's start
        self.starter = starter
        self.to_move = starter
        self.taken = [0] * players

    @classmethod
    def seen(cls, table_view: dict[str, Any]) -> "Turns | None":
        """The turns from a view on (None when it shows no game)."""
        view = msgspec.convert(table_view, ViewSeen)
        sheet = view.sheet
        if sheet is None:
            return None
        turns = cls(view.seq, sheet.started, sheet.starter, len(sheet.turns))
        turns.to_move, turns.taken = sheet.to_move, list(sheet.turns)
        return turns

    def turn(self) -> str:
        """The next turn, as JSON."""
        player = self.to_move
        meant = f'{{"game":{self.started},"player":{player},"number":{self.taken[player]}}}'
        self.seq += 1
        self.taken[player] += 1
        self.to_move = (player + 1) % len(self.taken)
        return meant

    def new_game(self) -> str:
        """The game a new game follows, as JSON; the new one starts with the next player."""
        game = self.started
        self.seq += 1
        self.started = self.seq
        self.starter = (self.starter + 1) % len(self.taken)
        self.to_move = self.starter
        self.taken = [0] * len(self.taken)
        return str(game)


# --- processes -----------------------------------------------------------------------------


def raise_fd_limit() -> None:
    """Lift the soft limit on open files to the hard one: every phone is a socket."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and all its threads."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK


def machine_busy() -> float:
    """CPU seconds the whole machine has spent not idle, over all cores."""
    with open("/proc/stat") as stat:
        ticks = [int(t) for t in stat.readline().split()[1:]]
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / CLOCK_TICK  # less idle and iowait


def rss_kb(pid: int) -> int:
    """Resident memory of a process."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# --- tables over HTTP ----------------------------------------------------------------------


def address(index: int) -> str:
    """A loopback client address of its own, so the join rate limit sees separate clients."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


def _post(
    connection: http.client.HTTPConnection, path: str, body: Any, token: str = ""
) -> dict[str, Any]:
    data = json.dumps(body).encode() if body is not None else b""
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    connection.request("POST", path, data, headers)
    response = connection.getresponse()
    answer = response.read()
    if response.status >= 300:
        raise RuntimeError(f"POST {path}: {response.status} {answer[:200]!r}")
    answered: dict[str, Any] = json.loads(answer)
    return answered


def create_table(port: int, source: str) -> tuple[str, list[str]]:
    """A new table with its game started: its id, and the tokens of its host and of three
    players at seats 1 to 3 (a seat is a player of the game; seq 4 after the joins)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=60, source_address=(source, 0)
    )
    try:
        host = _post(connection, "/api/tables", None)
        table, token = host["table"], host["token"]
        start = {"id": "start", "command": START}
        _post(connection, f"/api/tables/{table}/commands", start, token)
        tokens = [token]
        for seat in (1, 2, 3):
            device = secrets.token_urlsafe(24)  # each phone's own lasting key
            joining = {"code": host["code"], "seat": seat, "device": device}
            tokens.append(_post(connection, "/api/join", joining)["token"])
        return table, tokens
    finally:
        connection.close()


def create_tables(plan: Plan) -> list[tuple[str, list[str]]]:
    if plan.kind == "echo":
        return [(f"echo-{i}", [""] * 4) for i in range(plan.tables)]
    with ThreadPoolExecutor(8) as pool:
        jobs = [
            pool.submit(
                create_table,
                plan.ports[i % len(plan.ports)],
                address(i // JOINS_PER_ADDRESS),
            )
            for i in range(plan.tables)
        ]
        return [job.result() for job in jobs]


# --- phones --------------------------------------------------------------------------------


class Phone:
    """One websocket and when it got which seq."""

    def __init__(self, table: "Table", port: int, token: str) -> None:
        self.table = table
        self.port = port
        self.token = token
        self.ws: ClientConnection | None = None
        self.seqs: list[int] = []
        self.times: list[float] = []
        self.first: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.closed_at: float | None = None
        self.state_bytes = 0
        self.view: dict[str, Any] | None = None  # the host's phone only: its view, kept
        self.reader: asyncio.Task[None] | None = None

    async def open(self, gate: asyncio.Semaphore, compression: bool) -> None:
        async with gate:
            try:
                await self._open(compression)
            except (OSError, WebSocketException, TimeoutError) as error:
                print(f"a phone could not connect: {error!r}", file=sys.stderr)
                self.first.set_result(False)
                return
        self.reader = asyncio.create_task(self.read())

    async def _open(self, compression: bool) -> None:
        self.ws = await connect(
            f"ws://127.0.0.1:{self.port}/ws",
            compression="deflate" if compression else None,
            proxy=None,
            ping_interval=None,
            open_timeout=60,
            max_size=None,
        )
        hello = {"type": "hello", "table": self.table.id, "token": self.token, "after": 0}
        await self.ws.send(json.dumps(hello))

    async def read(self) -> None:
        assert self.ws is not None
        table = self.table
        keeps = self is table.phones[0]
        try:
            async for frame in self.ws:
                now = time.perf_counter()
                data = read_frame(frame)
                message = incoming.decode(data)
                if message.type in VIEWS:
                    self.seqs.append(message.seq)
                    self.times.append(now)
                    self.state_bytes += len(frame)
                    if keeps:
                        self.keep(message.type, data)
                    if not self.first.done():
                        self.first.set_result(True)
                    table.check()
                elif message.type == "accepted":
                    table.accepted(message.id, message.seq, now)
                elif message.type == "rejected":
                    table.rejected(message.id, message.code)
                    if not self.first.done():
                        self.first.set_result(False)  # the hello was refused
        except (ConnectionClosed, WebSocketException, OSError):
            pass
        self.closed_at = time.perf_counter()
        if not self.first.done():
            self.first.set_result(False)

    def keep(self, kind: str, data: bytes) -> None:
        """The view the host's phone has now: a state's, or a change applied to its own."""
        decoded = msgspec.json.decode(data)
        if kind == "state":
            self.view = decoded["view"]
        elif self.view is not None:
            apply(self.view, decoded)

    def reached(self, seq: int) -> float | None:
        """When this phone first had ``seq`` or a later one."""
        i = bisect.bisect_left(self.seqs, seq)
        return self.times[i] if i < len(self.seqs) else None


class Table:
    """A table's phones (the first is the host's, which sends) and its commands."""

    def __init__(self, table_id: str, number: int) -> None:
        self.id = table_id
        self.number = number
        self.phones: list[Phone] = []
        self.sent: list[tuple[float, str]] = []  # (time, command id)
        self.seq_of: dict[str, int] = {}
        self.accepted_times: list[float] = []
        self.accepted_seqs: list[int] = []
        self.refused: Counter[str] = Counter()
        self.count = 1  # the start was command 0, sent over HTTP
        self.waiting: tuple[str, asyncio.Future[None]] | None = None
        self.turns = Turns(seq=4)  # the start and three joins

    def check(self) -> None:
        if self.waiting is None:
            return
        command, done = self.waiting
        seq = self.seq_of.get(command)
        if seq is not None and all(p.seqs and p.seqs[-1] >= seq for p in self.phones):
            self.waiting = None
            done.set_result(None)

    def accepted(self, command: str, seq: int, now: float) -> None:
        self.seq_of[command] = seq
        self.accepted_times.append(now)
        self.accepted_seqs.append(seq)
        self.check()

    def rejected(self, command: str, code: str) -> None:
        self.refused[code] += 1
        # What was sent after it named turns as if it had been recorded: name them again
        # from the newest sheet the host's phone has (the same for every refusal meanwhile).
        newest = self.phones[0].view if self.phones else None
        seen = Turns.seen(newest) if newest else None
        if seen is not None:
            self.turns = seen
        if self.waiting is not None and self.waiting[0] == command:
            self.waiting[1].set_result(None)
            self.waiting = None

    def next_command(self) -> tuple[str, str]:
        n = self.count
        self.count += 1
        if n % GAME == 0:
            body = f'{{"type":"new_game","game":{self.turns.new_game()}}}'
        elif n % 5 == 0:
            body = f'{{"type":"pass","turn":{self.turns.turn()}}}'
        else:
            points = (n * 7) % 60 + 2
            body = f'{{"type":"enter_points","points":{points},"turn":{self.turns.turn()}}}'
        command = f"t{self.number}-{n}"
        return command, f'{{"type":"command","id":"{command}","command":{body}}}'

    async def send(self) -> str:
        """Send the next command from the host's phone; its id."""
        command, text = self.next_command()
        self.sent.append((time.perf_counter(), command))
        ws = self.phones[0].ws
        assert ws is not None
        with contextlib.suppress(ConnectionClosed):  # dropped: the command stays unfinished
            await ws.send(text)
        return command

    async def send_and_wait(self, timeout: float) -> bool:
        """Send one command and wait until every phone has it; False on timeout."""
        done = asyncio.get_running_loop().create_future()
        self.waiting = (f"t{self.number}-{self.count}", done)
        await self.send()
        try:
            await asyncio.wait_for(done, timeout)
        except TimeoutError:
            self.waiting = None
            return False
        return True

    def seq_at(self, moment: float) -> int:
        i = bisect.bisect_right(self.accepted_times, moment)
        return self.accepted_seqs[i - 1] if i else 0


async def open_tables(plan: Plan, created: list[tuple[str, list[str]]]) -> list[Table]:
    """Every table's four phones open, each with its reader running."""
    tables = []
    servers = len(plan.ports)
    for number, (table_id, tokens) in enumerate(created):
        table = Table(table_id, number)
        # With two servers a table's phones alternate between them: two on each.
        table.phones = [
            Phone(table, plan.ports[(number + k) % servers], token)
            for k, token in enumerate(tokens)
        ]
        tables.append(table)
    gate = asyncio.Semaphore(CONNECTING)
    phones = [p for t in tables for p in t.phones]
    await asyncio.gather(*(p.open(gate, plan.compression) for p in phones))
    return tables


# --- loads ---------------------------------------------------------------------------------


async def open_loop(table: Table, rate: float, start: float, end: float) -> None:
    period = 1 / rate
    at = start + random.random() * period  # tables out of step, as at a real event
    while at < end:
        delay = at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        await table.send()
        at += period


async def closed_loop(table: Table, end: float) -> None:
    while time.perf_counter() < end:
        refused = table.refused.total()
        if not await table.send_and_wait(5.0):
            return
        if table.refused.total() > refused:
            await asyncio.sleep(0.1)  # a phone would not resend a refused command at once


class CpuWatch:
    """CPU time of every process at two moments."""

    def __init__(self, pids: dict[str, list[int]]) -> None:
        self.pids = {**pids, "client": [os.getpid()]}

    def sample(self) -> dict[str, list[float]]:
        ours = {role: [cpu_seconds(p) for p in pids] for role, pids in self.pids.items()}
        return {**ours, "machine": [machine_busy()]}

    async def over(self, start: float, end: float) -> dict[str, list[float]]:
        """Percent of one core per process of each role over the window; "other" is the rest
        of the machine."""
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        before = self.sample()
        await asyncio.sleep(max(0.0, end - time.perf_counter()))
        after = self.sample()
        used = {
            role: [
                100 * (a - b) / (end - start)
                for a, b in zip(after[role], before[role], strict=True)
            ]
            for role in after
        }
        (machine,) = used.pop("machine")
        ours = sum(sum(each) for each in used.values())
        return {**used, "other": [max(0.0, machine - ours)]}


async def run_load(plan: Plan, tables: list[Table], load: Load, watch: CpuWatch) -> Figures:
    start = time.perf_counter()
    w0, w1 = start + plan.warm, start + plan.warm + plan.measure
    refused = refusals(tables)
    if load.rate is None:
        senders = [closed_loop(t, w1) for t in tables]
    else:
        senders = [open_loop(t, load.rate, start, w1) for t in tables]
    watching = asyncio.create_task(watch.over(w0, w1))
    await asyncio.gather(*senders)
    cpu = await watching
    deadline = time.perf_counter() + DRAIN
    while time.perf_counter() < deadline and not _all_reached(tables, w0, w1):
        await asyncio.sleep(0.05)
    offered = None if load.rate is None else load.rate * len(tables)
    return _figures(load.name, offered, tables, w0, w1, cpu, refusals(tables) - refused)


def refusals(tables: list[Table]) -> Counter[str]:
    return sum((t.refused for t in tables), Counter())


def _latencies(tables: list[Table], w0: float, w1: float) -> tuple[list[float], int]:
    """Per command sent in the window, ms to its last phone; and how many never got there."""
    done: list[float] = []
    unfinished = 0
    for table in tables:
        first = bisect.bisect_left(table.sent, (w0, ""))
        for sent, command in table.sent[first:]:
            if sent >= w1:
                break
            seq = table.seq_of.get(command)
            reached = [p.reached(seq) for p in table.phones] if seq is not None else [None]
            last = [at for at in reached if at is not None]
            if len(last) < len(reached):
                unfinished += 1
            else:
                done.append(1000 * (max(last) - sent))
    return done, unfinished


def _all_reached(tables: list[Table], w0: float, w1: float) -> bool:
    return _latencies(tables, w0, w1)[1] == 0


def _percentile(ordered: list[float], total: int, share: float) -> float | None:
    """The ``share`` percentile of ``total`` values, of which the missing ones are infinite."""
    if not total:
        return None
    rank = min(total - 1, round(share * (total - 1)))
    return ordered[rank] if rank < len(ordered) else None


def _figures(
    name: str,
    offered: float | None,
    tables: list[Table],
    w0: float,
    w1: float,
    cpu: dict[str, list[float]],
    refused: Counter[str],
) -> Figures:
    span = w1 - w0
    events = sum(t.seq_at(w1) - t.seq_at(w0) for t in tables)
    phones = [p for t in tables for p in t.phones]
    pushes = sum(bisect.bisect_left(p.times, w1) - bisect.bisect_left(p.times, w0) for p in phones)
    done, unfinished = _latencies(tables, w0, w1)
    done.sort()
    total = len(done) + unfinished
    states = sum(len(p.seqs) for p in phones)
    return Figures(
        name=name,
        offered=offered,
        events=events / span,
        pushes=pushes / span,
        p50=_percentile(done, total, 0.5),
        p99=_percentile(done, total, 0.99),
        commands=total,
        unfinished=unfinished,
        rejected=dict(refused),
        dropped=sum(1 for p in phones if p.closed_at is not None and p.closed_at >= w0),
        cpu={role: sum(each) for role, each in cpu.items()},
        cpu_each=cpu,
        state_bytes=sum(p.state_bytes for p in phones) / states if states else 0.0,
    )


async def run(plan: Plan, created: list[tuple[str, list[str]]], began: float) -> Outcome:
    servers = plan.pids.get("server", [])
    rss = {"idle": [rss_kb(p) for p in servers]}
    tables = await open_tables(plan, created)
    phones = [p for t in tables for p in t.phones]
    await asyncio.wait([p.first for p in phones], timeout=10)
    joined = [t for t in tables if all(p.first.done() and p.first.result() for p in t.phones)]
    initial = sum(1 for p in phones if p.first.done() and p.first.result())
    started = await asyncio.gather(*(t.send_and_wait(10.0) for t in joined))
    refused = dict(refusals(tables))
    tables = [t for t, ok in zip(joined, started, strict=True) if ok and not t.refused]
    setup = time.perf_counter() - began
    rss["phones"] = [rss_kb(p) for p in servers]
    await asyncio.sleep(plan.hold)
    rss["held"] = [rss_kb(p) for p in servers]
    held = sum(1 for p in phones if p.first.result() and p.closed_at is None)
    watch = CpuWatch(plan.pids)
    figures = [await run_load(plan, tables, load, watch) for load in plan.loads]
    for phone in phones:
        if phone.ws is not None:
            await phone.ws.close()
    return Outcome(setup, len(phones), initial, held, refused, len(tables), rss, figures)


def main() -> None:
    raise_fd_limit()
    plan = msgspec.json.decode(sys.argv[1], type=Plan)
    began = time.perf_counter()
    created = create_tables(plan)
    outcome = asyncio.run(run(plan, created, began))
    print(msgspec.json.encode(outcome).decode(), flush=True)


if __name__ == "__main__":
    main()
