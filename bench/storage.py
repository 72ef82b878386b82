"""What a table's log costs to keep: bytes per event in Redis and in SQLite, after whole games.

Run: ``python -m bench.storage`` (under a minute; needs ``redis-server``). Four-player games
of 100, 400 and 2,000 events (``bench.replay.make_game``) are recorded through the server's
own stores as a server records them: an ``append`` per command with the phone's command id
(a UUID, as ``web/js/live.js`` makes) and the device, four devices per table with a token
each and a ``touch`` per command. Into a throwaway Redis (``appendfsync always``, as
``bench.fanout`` starts it) and a fresh SQLite file. Then, per event:

* Redis: ``MEMORY USAGE … SAMPLES 0`` (exact) of each of a table's keys: the log stream, its
  command ids, when each device was last seen, its info and token set; and ``used_memory``
  before and after every table, which counts the device keys and Redis's own overhead too;
* SQLite: the file's growth (checkpointed), per event;
* the baseline: the events' own encoded bytes (``events.encode``), what any store must keep.

docs/scaling.md sizes Redis for 100,000 tables from these figures.
"""

import asyncio
import contextlib
import sqlite3
import tempfile
import uuid
from pathlib import Path

import redis.asyncio as redis

from bench.fanout import start_redis
from bench.replay import make_game
from events.events import Recorded, Role, encode
from server.stores.protocols import Device, Store, TableInfo
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore

GAMES = {100: 20, 400: 10, 2000: 5}  # events in a game → tables of it
DEVICES = ("host", "d1", "d2", "d3")
START_MS = 1_767_225_600_000  # 2026-01-01, a command every 20 s from there


async def record(store: Store, table_id: str, log: list[Recorded]) -> None:
    """``log`` as a table of four phones makes it: an append per event (each a command of
    its own in these games) with a command id, and its device seen."""
    await store.create_table(TableInfo(table_id, table_id[:6].upper(), START_MS))
    for seat, device in enumerate(DEVICES):
        role: Role = "host" if device == "host" else "player"
        await store.add_device(uuid.uuid4().hex * 2, Device(table_id, role, seat, device))
    for seq, recorded in enumerate(log):
        device, at = DEVICES[seq % len(DEVICES)], START_MS + seq * 20_000
        await store.append(
            table_id, seq, [recorded.event], device=device, at=at, command=str(uuid.uuid4())
        )
        await store.touch(table_id, device, at)


async def redis_figures(url: str, logs: dict[int, list[Recorded]]) -> dict[int, dict[str, float]]:
    """Bytes per event of each table key, and of ``used_memory``, by game size."""
    client = redis.Redis.from_url(url, decode_responses=True)
    store = RedisStore(url)
    await store.start()
    figures = {}
    try:
        for size, log in logs.items():
            await client.memory_purge()
            before = int((await client.info("memory"))["used_memory"])
            ids = [f"{size}t{n}" for n in range(GAMES[size])]
            for table_id in ids:
                await record(store, table_id, log)
            after = int((await client.info("memory"))["used_memory"])
            by_key: dict[str, float] = {}
            for table_id in ids:
                for key in await client.keys(f"table:{{{table_id}}}*"):
                    name = str(key).split("}", 1)[1].lstrip(":") or "log"
                    usage = await client.memory_usage(key, samples=0) or 0
                    by_key[name] = by_key.get(name, 0) + usage / (size * len(ids))
            by_key["used_memory"] = (after - before) / (size * len(ids))
            figures[size] = by_key
    finally:
        await store.close()
        await client.aclose()
    return figures


async def sqlite_figures(folder: Path, logs: dict[int, list[Recorded]]) -> dict[int, float]:
    """The SQLite file's growth per event, by game size."""
    path = folder / "tilestream.db"
    store = SqliteStore(path)
    await store.start()
    figures = {}
    try:
        for size, log in logs.items():
            before = _file_bytes(path)
            for n in range(GAMES[size]):
                await record(store, f"{size}t{n}", log)
            figures[size] = (_file_bytes(path) - before) / (size * GAMES[size])
    finally:
        await store.close()
    return figures


def _file_bytes(path: Path) -> int:
    """The database's size with the write-ahead log folded in."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages, size = (
            db.execute("PRAGMA page_count").fetchone()[0],
            db.execute("PRAGMA page_size").fetchone()[0],
        )
    return int(pages * size)


async def main_async() -> None:
    logs = {size: make_game(size) for size in GAMES}
    encoded = {size: sum(len(encode(r)) for r in log) / size for size, log in logs.items()}
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        _, url = start_redis(Path(folder) / "redis", "always", stack)
        in_redis = await redis_figures(url, logs)
        in_sqlite = await sqlite_figures(Path(folder), logs)
    keys = sorted({key for figures in in_redis.values() for key in figures} - {"used_memory"})
    print("bytes per event, by the game's length (4 players; × base: over the encoded event)")
    header = f"{'':<22}" + "".join(f"{f'{size:,} events':>16}" for size in GAMES)
    print(header)
    print(f"{'encoded event (base)':<22}" + "".join(f"{encoded[s]:>16.0f}" for s in GAMES))
    for key in keys:
        print(f"{'redis ' + key:<22}" + "".join(f"{in_redis[s].get(key, 0):>16.1f}" for s in GAMES))
    for name, figures in (
        ("redis used_memory", {s: in_redis[s]["used_memory"] for s in GAMES}),
        ("sqlite file", in_sqlite),
    ):
        cells = "".join(f"{f'{figures[s]:.0f} ×{figures[s] / encoded[s]:.1f}':>16}" for s in GAMES)
        print(f"{name:<22}{cells}")
    per_table = {s: in_redis[s]["used_memory"] * s for s in GAMES}
    print(
        "redis per table: "
        + ", ".join(f"{s:,} events {per_table[s] / 1024:.0f} KiB" for s in GAMES)
    )


def main() -> None:
    asyncio.run(main_async())


if __name__ == "__main__":
    main()
