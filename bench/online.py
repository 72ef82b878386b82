"""Confirming an online move on one process: validate, judge every word, draw, store, send.

Run: ``python -m bench.online`` (SQLite, about 40 s) or ``python -m bench.online
--redis`` (SQLite, then a throwaway redis-server with ``appendfsync always``).

Tables of four players, one device per seat, are set up in this process on the real
``Tables`` and ``Hub`` over the real store; each device is a ``server.live.hub.Connection``
whose socket only notes when a state arrives, so a move goes the whole way a phone's does
after its frame is decoded: the decider places the tiles, checks the rack, judges every
word formed against the edition's list and scores; the reducer draws the new tiles; the
store appends (SQLite: one fsync per transaction; Redis: a Lua script, the AOF fsynced
before it answers); the table's follower folds what it reads back and each of the four
seats gets its own view (its own rack: four encodings a move), queued and written by the
connection's writer task. A move's time runs from the call until the fourth device has
the state with the move's seq.

The moves are found before the clock runs (a simple player over the real list, the one
the server tests use), then sent at a paced 100 a second, spread over the tables. The
baseline, in the same run and on the same store, is the classic sheet's ``record_move`` of
the very same moves on classic tables of four (placement and score only, no rack, no
list, no draw, one encoding for every phone). Last, the rules alone in memory: the same
moves decided and folded, with the four views encoded.
"""

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec

from bench.fanout import start_redis
from bench.finder import Finder
from bench.timing import Figures
from events import commands as c
from events.events import Mode
from rules.board import bag
from rules.table.permissions import HOST
from rules.table.record import record
from rules.table.state import State
from rules.table.views import view
from server.live.hub import Connection, Hub
from server.live.messages import encoder
from server.stores.protocols import Device, Store
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from server.tables.commands import Tables, lexicon

EDITION = "woordstrijd"
PLAYERS = ("Ann", "Bob", "Cas", "Dee")
RATE = 100.0  # moves a second
MOVES = 1_500  # per row
GOAL = 20.0  # ms, p99 at RATE
WARM = 50  # moves sent before the measured ones


class _Seq(msgspec.Struct):
    seq: int = 0


_seq = msgspec.json.Decoder(_Seq)


class Screen:
    """A device's socket as the hub writes to it: it notes the seq of every state."""

    def __init__(self, arrived: Callable[[int], None]) -> None:
        self.arrived = arrived

    async def send_text(self, text: str) -> None:
        self.arrived(_seq.decode(text).seq)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


class Seated:
    """A table of four in the hub, each seat's device connected, and the moves to send."""

    def __init__(self, table: str, devices: list[Device]) -> None:
        self.table = table
        self.devices = devices
        self.moves: Sequence[tuple[int, c.TableCommand]] = ()  # (seat, command)
        self._arrived: dict[int, int] = {}  # seq → devices that have its state
        self._done: dict[int, asyncio.Future[float]] = {}  # seq → when the last one had it
        self.writers: list[asyncio.Task[None]] = []

    def arrived(self, seq: int) -> None:
        """A device got the state at ``seq``; the last device's ends the move."""
        self._arrived[seq] = self._arrived.get(seq, 0) + 1
        if self._arrived[seq] == len(self.devices):
            self.done(seq).set_result(time.perf_counter())

    def done(self, seq: int) -> "asyncio.Future[float]":
        """When every device had the state at ``seq`` (perf_counter seconds)."""
        if seq not in self._done:
            self._done[seq] = asyncio.get_running_loop().create_future()
        return self._done[seq]


async def seat_table(tables: Tables, hub: Hub, mode: Mode) -> Seated:
    """A new table with a game of four, a device at each seat, connected."""
    made, _ = await tables.create()
    host = Device(made.id, "host", None, HOST)
    start = c.StartGame(EDITION, mode, players=PLAYERS)
    await tables.command(made.id, host, start, "start")
    # The host's device plays the first seat of an online game; at a classic table it keeps
    # the sheet for no seat, so every seat has a phone of its own.
    first = 1 if mode is Mode.ONLINE else 0
    devices = [host] * first
    for seat in range(first, len(PLAYERS)):
        _, _, who = await tables.join(made.code, "player", seat, f"key-{made.id}-{seat}")
        devices.append(Device(made.id, "player", seat, who.device))
    seated = Seated(made.id, devices)
    for device in devices:
        connection = Connection(Screen(seated.arrived), 64)  # type: ignore[arg-type]
        connection.device = device
        seated.writers.append(asyncio.create_task(connection.write()))
        hub.enter(made.id, connection)
    return seated


def find_moves(state: State, finder: Finder, limit: int) -> list[tuple[int, c.Play]]:
    """The plays a simple player finds in the table's online game, in turn, until it finds
    none (or the game ends): decided on a copy of the state, with the table's own seed."""
    game = state.game
    assert game is not None and game.online is not None
    seed, contains = game.online.seed, lexicon(EDITION)
    moves: list[tuple[int, c.Play]] = []
    while len(moves) < limit and game is not None and game.ended is None:
        assert game.online is not None and game.board is not None
        player = game.to_move
        rack = [bag.notation(t) for t in game.online.racks[player]]
        found = finder.move(game.board.rows(), rack)
        if found is None:
            break
        turn = c.Turn(game.started, player, game.turns[player])
        play = c.Play(c.BoardMove(**found), turn=turn)  # type: ignore[arg-type]
        state, _ = record(state, play, seed=seed, contains=contains)
        moves.append((player, play))
        game = state.game
    return moves


def classic(moves: Sequence[tuple[int, c.Play]]) -> list[tuple[int, c.TableCommand]]:
    """The same moves as a classic sheet records them."""
    return [(seat, c.RecordMove(board=play.board, turn=play.turn)) for seat, play in moves]


def schedule(tables: list[Seated]) -> list[tuple[Seated, int, c.TableCommand]]:
    """Every table's moves, round by round: a table's next move comes a round later."""
    rounds = max(len(t.moves) for t in tables)
    return [(t, *t.moves[r]) for r in range(rounds) for t in tables if r < len(t.moves)]


async def paced(tables: Tables, plan: list[tuple[Seated, int, c.TableCommand]]) -> list[float]:
    """Send the moves at ``RATE`` a second; each one's ms until its fourth device had it."""

    async def confirm(seated: Seated, seat: int, command: c.TableCommand, n: int) -> float:
        began = time.perf_counter()
        seq = await tables.command(seated.table, seated.devices[seat], command, f"m{n}")
        return (await seated.done(seq) - began) * 1000

    loop = asyncio.get_running_loop()
    start = loop.time() + 0.1
    sent = []
    for n, (seated, seat, command) in enumerate(plan):
        await asyncio.sleep(max(0.0, start + n / RATE - loop.time()))
        sent.append(asyncio.create_task(confirm(seated, seat, command, n)))
    return list(await asyncio.gather(*sent))


async def run_store(store: Store, finder: Finder, moves: int) -> dict[str, list[float]]:
    """The online and the classic rows on ``store``: ms per move, measured ones only."""
    await store.start()
    tables = Tables(store)
    hub = Hub(tables, store)
    online: list[Seated] = []
    baseline: list[Seated] = []
    plays: list[list[tuple[int, c.Play]]] = []
    try:
        while sum(len(t.moves) for t in online) < moves + WARM:
            seated = await seat_table(tables, hub, Mode.ONLINE)
            plays.append(find_moves((await tables.live(seated.table)).state, finder, 40))
            seated.moves = plays[-1]
            online.append(seated)
        for found in plays:
            seated = await seat_table(tables, hub, Mode.CLASSIC)
            seated.moves = classic(found)
            baseline.append(seated)
        await asyncio.sleep(0.5)  # every device has its first state
        rows = {}
        for name, group in (("classic record_move", baseline), ("online play", online)):
            plan = schedule(group)[: moves + WARM]
            rows[name] = (await paced(tables, plan))[WARM:]
        return rows
    finally:
        for seated in (*online, *baseline):
            for writer in seated.writers:
                writer.cancel()
        await hub.close()
        await store.close()


def in_memory(finder: Finder, games: int = 30) -> dict[str, list[float]]:
    """µs per move for the rules alone: decide (and judge) and fold, then four views."""
    rows: dict[str, list[float]] = {"classic record_move": [], "online play": []}
    for number in range(games):
        state, _ = record(
            State(),
            c.StartGame(EDITION, Mode.ONLINE, players=PLAYERS),
            seed=f"bench-{number}",
            contains=lexicon(EDITION),
        )
        moves = find_moves(state, finder, 40)
        kinds: tuple[tuple[str, Sequence[tuple[int, c.TableCommand]], Mode], ...] = (
            ("online play", moves, Mode.ONLINE),
            ("classic record_move", classic(moves), Mode.CLASSIC),
        )
        for name, sequence, mode in kinds:
            start = c.StartGame(EDITION, mode, players=PLAYERS)
            state, _ = record(State(), start, seed=f"bench-{number}", contains=lexicon(EDITION))
            for _, command in sequence:
                began = time.perf_counter_ns()
                state, _ = record(state, command, contains=lexicon(EDITION))
                seats = range(len(PLAYERS)) if mode is Mode.ONLINE else range(1)
                for seat in seats:
                    encoder.encode(view(state, "member", seat))
                rows[name].append((time.perf_counter_ns() - began) / 1000)
    return rows


def report(store: str, rows: dict[str, list[float]]) -> None:
    base = Figures("classic record_move", rows["classic record_move"])
    for name, samples in rows.items():
        f = Figures(name, samples)
        ratio = (
            "" if f.name == base.name else f"{f.median / base.median:.2f} / {f.p99 / base.p99:.2f}"
        )
        print(
            f"{store:<16} {name:<22} {len(samples):>6} {f.median:>9.2f} {f.p99:>8.2f}"
            f" {max(samples):>8.2f}  {ratio}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.online", description=__doc__)
    parser.add_argument("--redis", action="store_true", help="also on a throwaway Redis")
    parser.add_argument("--moves", type=int, default=MOVES, help=f"per row (default {MOVES})")
    args = parser.parse_args()
    began = time.monotonic()
    finder = Finder(EDITION)
    results: list[tuple[str, dict[str, list[float]]]] = []
    with tempfile.TemporaryDirectory(prefix="online-") as folder, contextlib.ExitStack() as stack:
        work = Path(folder)
        stores: list[tuple[str, Callable[[], Store]]] = [
            ("sqlite", lambda: SqliteStore(work / "tilestream.db"))
        ]
        if args.redis:
            _, url = start_redis(work / "redis", "always", stack)
            stores.append(("redis always", lambda: RedisStore(url)))
        for name, make in stores:
            print(f"running {name} …", end=" ", file=sys.stderr, flush=True)
            results.append((name, asyncio.run(run_store(make(), finder, args.moves))))
            print(f"{time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)
    memory = in_memory(finder)
    print(
        f"confirming a move, one process, tables of {len(PLAYERS)} with a device per seat;"
        f" {RATE:g} moves/s paced, {args.moves:,} measured per row after {WARM} more"
    )
    print(
        f"{'store':<16} {'move':<22} {'moves':>6} {'median ms':>9} {'p99 ms':>8}"
        f" {'max ms':>8}  × classic (median / p99)"
    )
    for name, rows in results:
        report(name, rows)
    for name, rows in results:
        f = Figures(name, rows["online play"])
        verdict = "met" if f.p99 < GOAL else "MISSED"
        print(
            f"goal p99 < {GOAL:g} ms at {RATE:g} moves/s, {name}: {verdict} — p99"
            f" {f.p99:.2f} ms, median {f.median:.2f} ms"
        )
    print("\nthe rules alone, in memory (decide, judge, draw, fold, encode the views), µs:")
    print(f"{'':<16} {'move':<22} {'moves':>6} {'median µs':>9} {'p99 µs':>8} {'max µs':>8}")
    report("memory", memory)
    mean = statistics.mean(len(s) for s in memory.values())
    print(f"({mean:.0f} moves per kind; online: 4 views a move, classic: one)")
    print(f"whole run: {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
