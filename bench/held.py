"""What a table held in a server process's memory costs, and what many held tables cost a
request.

Run: ``python -m bench.held`` (about a minute).

Memory: a four-player game of 60, 500 and 2,000 events (``bench.replay.make_game``: board
moves, points, passes, exchanges, penalties, undos), each event encoded and decoded as a
store gives it back, folded into a ``Live`` as the server holds a table, with the whole view
and its frame made for the host's phone and the players' (what a phone that opens it gets).
Shown: what tracemalloc counts of one such table, and the resident memory (RSS) of 20 of
them over the process's before, per table, in a process of its own (here, the memory that
making the game freed would be filled first). The baseline: the events' own encoded bytes.

Requests: a bystander's view of an online game (``Tables.live``, then the viewer's view as
JSON: what ``GET /api/tables/{id}/view`` does) among 1,000 and among 8,000 online games with
a time per move, on SQLite: a process holds 5,000 at most (``HELD_MAX``), the deadlines of
the others wait in ``Tables.waiting``. Median and p99 of a request, and the ratio of the
8,000's to the 1,000's: a request must not look at every table.
"""

import asyncio
import gc
import multiprocessing
import random
import resource
import statistics
import tempfile
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from uuid import uuid4

from msgspec.structs import replace

from bench.replay import SEED, make_game
from events import commands as c
from events.events import Mode, Recorded, decode, encode
from server.stores.sqlite import SqliteStore
from server.tables.commands import Tables
from server.tables.live import Live

SIZES = (60, 500, 2_000)
COPIES = 20  # tables held at once for the RSS figure
REQUESTS = 2_000
START_MS = 1_764_000_000_000  # an evening in 2025, ms since the epoch


def served(log: list[Recorded]) -> list[Recorded]:
    """A log as a server writes it: each event with the device that sent it (one of four
    phones), the phone's command id and the server's time — what ``make_game`` leaves out."""
    rng = random.Random(SEED)
    phones = [f"{rng.getrandbits(48):012x}" for _ in range(4)]  # secrets.token_hex(6)'s shape
    return [
        replace(r, device=phones[r.seq % 4], at=START_MS + 20_000 * r.seq, command=str(uuid4()))
        for r in log
    ]


def decoded(encoded: list[bytes]) -> tuple[Recorded, ...]:
    """A game's log as a store returns it: each table's events objects of its own."""
    return tuple(decode(e) for e in encoded)


def hold(records: tuple[Recorded, ...]) -> Live:
    """A table as a process holds it once phones opened it."""
    live = Live()
    live.fold(records)
    for seen_by in ("host", "member"):
        live.frame(live.key(seen_by, None), -1)
    return live


def rss_kib() -> int:
    """The process's resident memory now, KiB."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 1024


def memory(events: int) -> tuple[float, float, float]:
    """KiB of one held table by tracemalloc, KiB per table by RSS, KiB of its events."""
    encoded = [encode(r) for r in served(make_game(events))]
    gc.collect()
    tracemalloc.start()
    one = hold(decoded(encoded))  # its events included: the table holds them
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del one
    # RSS in a process of its own: here, the memory making the game freed would be filled
    # again first, and the tables would seem to cost less than they do.
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as fresh:
        per_table = fresh.submit(rss_per_table, encoded).result()
    return traced / 1024, per_table, sum(map(len, encoded)) / 1024


def rss_per_table(encoded: list[bytes]) -> float:
    """KiB of resident memory per table, ``COPIES`` tables held from ``encoded``."""
    # Anything made once, on first use, is made before the count; the table is kept, so
    # that the count's tables do not fill the memory it would free.
    held = [hold(decoded(encoded))]
    gc.collect()
    before = rss_kib()
    held += [hold(decoded(encoded)) for _ in range(COPIES)]
    gc.collect()
    return (rss_kib() - before) / COPIES


async def timed_game(tables: Tables) -> str:
    table, token = await tables.create()
    host = await tables.device(table.id, token)
    start = c.StartGame("woordstrijd", Mode.ONLINE, players=(None, None), move_seconds=3600)
    await tables.command(table.id, host, start, "start")
    return table.id


async def bystander(count: int) -> list[float]:
    """µs per bystander's view with ``count`` timed online games made by this process."""
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "tilestream.db")
        await store.start()
        try:
            tables = Tables(store)
            games = [await timed_game(tables) for _ in range(count)]
            watched = games[-1]  # held: the most recent
            times = []
            for _ in range(REQUESTS):
                start = time.perf_counter_ns()
                live = await tables.live(watched)
                live.view_json("member")
                times.append((time.perf_counter_ns() - start) / 1000)
            return sorted(times)
        finally:
            await store.close()


def p99(samples: list[float]) -> float:
    return samples[round(0.99 * (len(samples) - 1))]


def main() -> None:
    print(f"{'held table':<24} {'tracemalloc KiB':>16} {'RSS KiB/table':>14} {'events KiB':>11}")
    for events in SIZES:
        traced, rss, size = memory(events)
        print(f"{f'{events:,} events':<24} {traced:>16,.0f} {rss:>14,.0f} {size:>11,.0f}")
    small, large = asyncio.run(bystander(1_000)), asyncio.run(bystander(8_000))
    print(f"\n{'bystander view among':<24} {'median µs':>10} {'p99 µs':>9} {'× 1,000':>8}")
    for name, samples in (("1,000 timed games", small), ("8,000 timed games", large)):
        ratio = statistics.median(samples) / statistics.median(small)
        print(f"{name:<24} {statistics.median(samples):>10.1f} {p99(samples):>9.1f} {ratio:>8.2f}")


if __name__ == "__main__":
    main()
