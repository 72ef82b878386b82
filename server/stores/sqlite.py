"""The embedded store: one SQLite file (WAL, ``synchronous=FULL``) for every table.

All database work runs on one thread, so one connection serves it safely. Appends that
arrive while a transaction is being written wait and go together into the next one: one
fsync for a burst, not one per command. One server process only; several processes share
tables through Redis.

A table's newest event time is kept beside it (``tables.last``) for retention, and each
device beside its table, so a deletion is one transaction over indexed rows; ``gone``
remembers deleted tables for ``GONE_MS``.
"""

import asyncio
import sqlite3
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TypeVar

import msgspec

from events.events import Recorded, TableEvent, decode, encode
from server.stores.protocols import (
    GONE_MS,
    Conflict,
    Device,
    Store,
    StoreUnavailable,
    TableGone,
    TableInfo,
)

T = TypeVar("T")
Delivery = tuple[Recorded, ...] | TableGone  # what a subscriber's queue gets

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, code TEXT UNIQUE, created INTEGER, last INTEGER);
CREATE TABLE IF NOT EXISTS devices (token_hash TEXT PRIMARY KEY, device BLOB, table_id TEXT);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT, seq INTEGER, data BLOB, PRIMARY KEY (table_id, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seen (
    table_id TEXT, device TEXT, at INTEGER, PRIMARY KEY (table_id, device)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS commands (
    table_id TEXT, command TEXT, first INTEGER, last INTEGER,
    PRIMARY KEY (table_id, command)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS gone (table_id TEXT PRIMARY KEY, at INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS health (id INTEGER PRIMARY KEY, at INTEGER);
"""

# A file from before deletion and retention: ``tables.last`` (the newest event's time, or
# the creation) and ``devices.table_id`` filled in from what the rows already hold, once.
MIGRATIONS = {
    ("tables", "last"): """
        ALTER TABLE tables ADD COLUMN last INTEGER;
        UPDATE tables SET last = max(created, coalesce((
            SELECT json_extract(CAST(data AS TEXT), '$.at') FROM events
            WHERE table_id = tables.id ORDER BY seq DESC LIMIT 1), 0));
    """,
    ("devices", "table_id"): """
        ALTER TABLE devices ADD COLUMN table_id TEXT;
        UPDATE devices SET table_id = json_extract(CAST(device AS TEXT), '$.table');
    """,
}

INDEXES = """
CREATE INDEX IF NOT EXISTS tables_by_last ON tables (last);
CREATE INDEX IF NOT EXISTS devices_by_table ON devices (table_id);
"""


class _Append(msgspec.Struct):
    table_id: str
    expected: int
    events: Sequence[TableEvent]
    device: str
    at: int
    command: str


class SqliteStore(Store):
    """Tables and logs in ``path``."""

    shared = False

    def __init__(self, path: Path) -> None:
        self.path = path
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        self._db: sqlite3.Connection | None = None
        self._pending: list[tuple[_Append, asyncio.Future[tuple[Recorded, ...]]]] = []
        self._flushing: asyncio.Task[None] | None = None
        self._listeners: defaultdict[str, set[asyncio.Queue[Delivery]]] = defaultdict(set)

    async def start(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = await self._run(self._open)

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        for (table, column), script in MIGRATIONS.items():
            columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}  # ours
            if column not in columns:
                db.executescript(f"BEGIN IMMEDIATE; {script} COMMIT;")
        db.executescript(INDEXES)
        return db

    async def close(self) -> None:
        if self._flushing is not None:
            await self._flushing
        if self._db is not None:
            await self._run(self._db.close)
        self._thread.shutdown()

    async def _run(self, work: Callable[[], T]) -> T:
        try:
            return await asyncio.get_running_loop().run_in_executor(self._thread, work)
        except sqlite3.OperationalError as error:
            raise StoreUnavailable(str(error)) from error

    @property
    def db(self) -> sqlite3.Connection:
        assert self._db is not None, "start() the store first"
        return self._db

    async def create_table(self, table: TableInfo) -> None:
        def insert() -> None:
            try:
                self.db.execute(
                    "INSERT INTO tables (id, code, created, last) VALUES (?, ?, ?, ?)",
                    (table.id, table.code, table.created, table.created),
                )
            except sqlite3.IntegrityError as error:
                raise Conflict(f"table {table.id} or code {table.code} exists") from error

        await self._run(insert)

    async def table(self, table_id: str) -> TableInfo | None:
        return await self._table("id", table_id)

    async def table_by_code(self, code: str) -> TableInfo | None:
        return await self._table("code", code)

    async def _table(self, column: str, value: str) -> TableInfo | None:
        query = f"SELECT id, code, created FROM tables WHERE {column} = ?"  # column: ours
        row = await self._run(lambda: self.db.execute(query, (value,)).fetchone())
        return TableInfo(*row) if row else None

    async def delete_table(self, table_id: str) -> bool:
        def delete() -> bool:
            db, now = self.db, time.time_ns() // 1_000_000
            db.execute("BEGIN IMMEDIATE")
            try:
                found = 0
                for kept in ("tables", "events", "devices", "seen", "commands"):
                    column = "id" if kept == "tables" else "table_id"  # both ours
                    found += db.execute(
                        f"DELETE FROM {kept} WHERE {column} = ?", (table_id,)
                    ).rowcount
                db.execute("DELETE FROM gone WHERE at < ?", (now - GONE_MS,))
                if found:
                    db.execute("INSERT OR REPLACE INTO gone VALUES (?, ?)", (table_id, now))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return bool(found)

        if not await self._run(delete):
            return False
        for queue in self._listeners.get(table_id, ()):
            queue.put_nowait(TableGone(f"table {table_id} was deleted"))
        self._deleted(table_id)
        return True

    async def idle_tables(self, before_ms: int, limit: int) -> tuple[str, ...]:
        rows = await self._run(
            lambda: self.db.execute(
                "SELECT id FROM tables WHERE last < ? ORDER BY last LIMIT ?", (before_ms, limit)
            ).fetchall()
        )
        return tuple(table_id for (table_id,) in rows)

    def _gone(self, table_id: str) -> bool:
        row = self.db.execute("SELECT 1 FROM gone WHERE table_id = ?", (table_id,)).fetchone()
        return row is not None

    async def add_device(self, token_hash: str, device: Device) -> None:
        data = msgspec.json.encode(device)

        def insert() -> None:
            try:
                added = self.db.execute(
                    "INSERT INTO devices (token_hash, device, table_id) SELECT ?, ?, ? "
                    "WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?)",
                    (token_hash, data, device.table, device.table),
                ).rowcount
            except sqlite3.IntegrityError as error:
                raise Conflict(f"device {token_hash} exists") from error
            if not added:
                raise TableGone(f"table {device.table} is not there")

        await self._run(insert)

    async def device(self, token_hash: str) -> Device | None:
        row = await self._run(
            lambda: self.db.execute(
                "SELECT device FROM devices WHERE token_hash = ?", (token_hash,)
            ).fetchone()
        )
        return msgspec.json.decode(row[0], type=Device) if row else None

    async def touch(self, table_id: str, device: str, at: int) -> None:
        await self._run(
            lambda: self.db.execute(
                "INSERT INTO seen VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET at = excluded.at",
                (table_id, device, at),
            )
        )

    async def last_seen(self, table_id: str) -> dict[str, int]:
        rows = await self._run(
            lambda: self.db.execute(
                "SELECT device, at FROM seen WHERE table_id = ?", (table_id,)
            ).fetchall()
        )
        return dict(rows)

    async def append(
        self,
        table_id: str,
        expected: int,
        events: Sequence[TableEvent],
        *,
        device: str = "",
        at: int = 0,
        command: str = "",
    ) -> tuple[Recorded, ...]:
        done: asyncio.Future[tuple[Recorded, ...]] = asyncio.get_running_loop().create_future()
        self._pending.append((_Append(table_id, expected, events, device, at, command), done))
        if self._flushing is None:
            self._flushing = asyncio.create_task(self._flush())
        return await done

    async def _flush(self) -> None:
        """Write every waiting append, a transaction per batch, until none waits."""
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    results = await self._run(partial(self._write, [a for a, _ in batch]))
                except Exception as error:  # the whole transaction failed: nothing recorded
                    results = [error] * len(batch)
                for (append, done), result in zip(batch, results, strict=True):
                    if isinstance(result, Exception):
                        done.set_exception(result)
                    else:
                        done.set_result(result)
                        for queue in self._listeners.get(append.table_id, ()):
                            queue.put_nowait(result)  # a repeat is dropped by seq there
        finally:
            self._flushing = None

    def _write(self, batch: list[_Append]) -> list[tuple[Recorded, ...] | Exception]:
        db = self.db
        results: list[tuple[Recorded, ...] | Exception] = []
        db.execute("BEGIN IMMEDIATE")
        try:
            for append in batch:
                results.append(self._write_one(db, append))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return results

    def _write_one(
        self, db: sqlite3.Connection, append: _Append
    ) -> tuple[Recorded, ...] | Exception:
        if append.command:
            row = db.execute(
                "SELECT first, last FROM commands WHERE table_id = ? AND command = ?",
                (append.table_id, append.command),
            ).fetchone()
            if row:
                return self._read(append.table_id, row[0] - 1, row[1])
        (top,) = db.execute(
            "SELECT coalesce(max(seq), 0) FROM events WHERE table_id = ?", (append.table_id,)
        ).fetchone()
        if top == 0 and self._gone(append.table_id):  # a deleted table's log starts no more
            return TableGone(f"table {append.table_id} was deleted")
        if top != append.expected:  # what the caller missed, from the same transaction
            missed = self._read(append.table_id, append.expected)
            return Conflict(f"table {append.table_id} is at {top}, not {append.expected}", missed)
        records = tuple(
            Recorded(append.expected + i, event, append.device, append.at, append.command)
            for i, event in enumerate(append.events, 1)
        )
        db.executemany(
            "INSERT INTO events VALUES (?, ?, ?)",
            [(append.table_id, r.seq, encode(r)) for r in records],
        )
        if append.command and records:
            db.execute(
                "INSERT INTO commands VALUES (?, ?, ?, ?)",
                (append.table_id, append.command, records[0].seq, records[-1].seq),
            )
        if records:  # retention counts from the newest event
            db.execute(
                "UPDATE tables SET last = max(last, ?) WHERE id = ?", (append.at, append.table_id)
            )
        return records

    def _read(self, table_id: str, after: int, upto: int | None = None) -> tuple[Recorded, ...]:
        rows = self.db.execute(
            "SELECT data FROM events WHERE table_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
            (table_id, after, upto if upto is not None else 2**62),
        ).fetchall()
        return tuple(decode(data) for (data,) in rows)

    async def read(self, table_id: str, after: int = 0) -> tuple[Recorded, ...]:
        def reading() -> tuple[Recorded, ...]:
            records = self._read(table_id, after)
            if not records and self._gone(table_id):
                raise TableGone(f"table {table_id} was deleted")
            return records

        return await self._run(reading)

    async def subscribe(self, table_id: str, after: int = 0) -> AsyncIterator[tuple[Recorded, ...]]:
        queue: asyncio.Queue[Delivery] = asyncio.Queue()
        self._listeners[table_id].add(queue)  # before reading: nothing falls in between
        try:
            seen = after
            backlog = await self.read(table_id, after)
            if backlog:
                seen = backlog[-1].seq
                yield backlog
            while True:
                batch = await queue.get()
                if isinstance(batch, TableGone):
                    raise batch
                fresh = tuple(r for r in batch if r.seq > seen)
                if fresh:
                    seen = fresh[-1].seq
                    yield fresh
        finally:
            self._listeners[table_id].discard(queue)
            if not self._listeners[table_id]:
                del self._listeners[table_id]

    async def writable(self) -> bool:
        # One row rewritten in its own transaction: a full disk, a read-only file or a lock
        # held by another program fails it as it would fail an append.
        def write() -> None:
            self.db.execute("INSERT OR REPLACE INTO health VALUES (1, ?)", (time.time_ns(),))

        try:
            await self._run(write)
        except (StoreUnavailable, sqlite3.Error):
            return False
        return True
