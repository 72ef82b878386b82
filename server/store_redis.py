"""The shared store: Redis Streams, for several server processes on several hosts.

A table's log is the stream ``table:{id}``; event ``n`` is the entry ``n-0`` with the
encoded ``Recorded`` in its ``data`` field, so Redis itself refuses an entry id that is not
above the stream's top. An append is one Lua script: it answers a command id recorded
before (from the hash ``table:{id}:commands``, "first last") with those events, checks that
the top is the expected number, then adds every event and the command id — all or none,
since nothing else runs in Redis while a script does. (Inside MULTI a refused XADD would
not stop the next one and would leave a gap.)

Tables are hashes ``tables:{id}`` with a unique join code kept as ``codes:{code}`` → id;
devices are ``devices:{token_hash}`` → the device as JSON, the set ``table:{id}:devices``
holds a table's token hashes, and when each was last seen the hash ``table:{id}:seen``. The
sorted set ``active`` scores each table by its newest event's time (its creation before
the first), for retention. Rate limits count in ``hits:{key}`` (expiring with their window),
so they hold across processes; ``/health`` writes ``health``.

Deleting a table is one script: every key of it goes, and its stream is left with one
tombstone entry (``deleted``, numbered above the old top, expiring after ``GONE_MS``), which
the append script refuses to write after and a read or a listener reports as TableGone —
so a follower on any process hears of it as of any entry, and a command racing the
deletion starts no new log. The script also adds the id to the stream ``deletions``, which
each process's listener reads to let go of a table it holds without following it. A store
written before the device sets and ``active`` existed is indexed once at start.

Live events come from one listener task per store (per process): one connection doing
``XREAD BLOCK`` on every followed table's stream, plus this process's wake stream, which a
new subscription writes to so the listener starts following its table at once rather than
when its block times out. A listener that loses Redis keeps its place per table and resumes
from there when Redis is back; a subscriber fills any gap from the stream itself, so it
sees every event once and in order.

An append whose connection fails after Redis ran the script may have been recorded though
it raises StoreUnavailable: appending again with the same command id returns the events it
recorded, which is one more reason for callers to always pass one.
"""

import asyncio
import contextlib
import logging
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

import msgspec
import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import OutOfMemoryError, ReadOnlyError, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from events.events import Event, Recorded, decode, encode
from server.store import (
    GONE_MS,
    Conflict,
    Device,
    Store,
    StoreUnavailable,
    TableGone,
    TableInfo,
)

log = logging.getLogger("tilestream")

# KEYS: the table's stream, its command map, the activity index. ARGV: the expected top,
# the command id ('' for none), the table id, the events' time, then the encoded events
# numbered expected + 1 on. Every check comes before the first write: a script stopped by
# an error keeps the writes it made.
APPEND = """
local command = ARGV[2]
if command ~= '' then
  local range = redis.call('HGET', KEYS[2], command)
  if range then
    local first, last = string.match(range, '^(%d+) (%d+)$')
    return {'done', redis.call('XRANGE', KEYS[1], first, last)}
  end
end
local top = 0
local newest = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if newest then
  if newest[2][1] == 'deleted' then return {'deleted'} end
  top = tonumber(string.match(newest[1], '^(%d+)'))
end
local expected = tonumber(ARGV[1])
if top ~= expected then return {'conflict', top} end
for i = 5, #ARGV do
  redis.call('XADD', KEYS[1], (expected + i - 4) .. '-0', 'data', ARGV[i])
end
if #ARGV > 4 then
  if command ~= '' then
    redis.call('HSET', KEYS[2], command, (expected + 1) .. ' ' .. (expected + #ARGV - 4))
  end
  redis.call('ZADD', KEYS[3], 'XX', 'GT', ARGV[4], ARGV[3])
end
return {'ok'}
"""

# KEYS: tables:{id}, codes:{code}, the activity index. ARGV: id, code, created.
CREATE_TABLE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if not redis.call('SET', KEYS[2], ARGV[1], 'NX') then return 0 end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'code', ARGV[2], 'created', ARGV[3])
redis.call('ZADD', KEYS[3], 'NX', ARGV[3], ARGV[1])
return 1
"""

# KEYS: tables:{id}, devices:{hash}, the table's device set. ARGV: the device, its hash.
ADD_DEVICE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if not redis.call('SET', KEYS[2], ARGV[1], 'NX') then return 0 end
redis.call('SADD', KEYS[3], ARGV[2])
return 1
"""

# KEYS: tables:{id}, the stream, its command map, its seen hash, its device set, the activity
# index, the deletions stream. ARGV: id, the tombstone's life (ms), the deletions kept. The
# code and device keys are named by the table's own keys: a script on one Redis, not a
# cluster (each is deleted only if it still names this table).
DELETE_TABLE = """
local newest = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)[1]
if newest and newest[2][1] == 'deleted' then return 0 end
local top = 0
if newest then top = tonumber(string.match(newest[1], '^(%d+)')) end
local code = redis.call('HGET', KEYS[1], 'code')
if code and redis.call('GET', 'codes:' .. code) == ARGV[1] then
  redis.call('DEL', 'codes:' .. code)
end
for _, hash in ipairs(redis.call('SMEMBERS', KEYS[5])) do
  redis.call('DEL', 'devices:' .. hash)
end
local found = redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
found = found + redis.call('ZREM', KEYS[6], ARGV[1])
if found == 0 then return 0 end
redis.call('XADD', KEYS[2], (top + 1) .. '-0', 'deleted', ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('XADD', KEYS[7], 'MAXLEN', '~', ARGV[3], '*', 'table', ARGV[1])
return 1
"""
ACTIVE = "active"  # table id → its newest event's time (ms), for retention
DELETIONS = "deletions"  # the stream of deleted table ids every process's listener reads
DELETIONS_KEPT = 10_000  # about this many: a process away for longer misses the oldest
INDEXED = "indexed:tables"  # set once the device sets and ``active`` hold every table

# KEYS: the counter. ARGV: the window in ms. The first hit starts the window (and its expiry).
HIT = """
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return hits
"""
HEALTH_TTL_MS = 60_000  # the key /health writes goes away by itself

BLOCK_MS = 5_000  # the listener's XREAD wait; a wake or an event ends it sooner
BATCH = 1_000  # entries per stream per XREAD
WAKE_TTL_MS = 60_000  # a dead process's wake stream goes away by itself
RETRY_MIN, RETRY_MAX = 0.02, 0.5  # seconds between tries while Redis is away
POOL = 64  # connections per process; more only queue up inside Redis, which runs one at once
POOL_WAIT = 5  # seconds a command waits for a free connection before StoreUnavailable


def _stream(table_id: str) -> str:
    return f"table:{table_id}"


@contextlib.contextmanager
def _reachable() -> Iterator[None]:
    """Raise StoreUnavailable for a connection that failed or timed out, or a Redis that
    refuses writes now."""
    try:
        yield
    except (RedisConnectionError, RedisTimeoutError) as error:
        raise StoreUnavailable(str(error) or type(error).__name__) from error
    except (OutOfMemoryError, ReadOnlyError) as error:  # full under noeviction; a replica
        raise StoreUnavailable(f"Redis takes no writes: {error}") from error
    except ResponseError as error:
        if str(error).startswith("MISCONF"):  # a failed snapshot stops writes
            raise StoreUnavailable(f"Redis takes no writes: {error}") from error
        raise


def _field(fields: Any, name: bytes) -> Any:
    """An entry's field; fields come as a dict or a flat list. Raises KeyError."""
    if isinstance(fields, dict):
        return fields[name]
    if name not in fields[::2]:
        raise KeyError(name)
    return fields[fields.index(name) + 1]


def _records(entries: Sequence[Any]) -> tuple[Recorded, ...]:
    """Decode stream entries ``(id, fields)``; raises TableGone at a deleted table's
    tombstone, KeyError or a msgspec error at an entry that is none of ours."""
    records = []
    for _id, fields in entries:
        try:
            data = _field(fields, b"data")
        except KeyError:
            table_id = _field(fields, b"deleted")  # else KeyError: no entry of ours
            raise TableGone(f"table {table_id.decode(errors='replace')} was deleted") from None
        records.append(decode(data))
    return tuple(records)


class RedisStore(Store):
    """Tables and logs in the Redis at ``url`` (``redis://host:port/db``)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._redis: redis.Redis | None = None
        self._listener: _Listener | None = None

    async def start(self) -> None:
        # One retry: a pooled connection that Redis closed (a restart) fails on first use.
        # A blocking pool: a burst of phones waits for one of POOL connections instead of
        # failing with "too many connections" (bench/fanout.py: 100 tables at once).
        pool = redis.BlockingConnectionPool.from_url(
            self.url,
            max_connections=POOL,
            timeout=POOL_WAIT,
            retry=Retry(ExponentialWithJitterBackoff(base=0.01, cap=0.1), 1),
        )
        self._redis = redis.Redis.from_pool(pool)  # owns the pool: aclose() closes it
        self._append = self._redis.register_script(APPEND)
        self._create_table = self._redis.register_script(CREATE_TABLE)
        self._add_device = self._redis.register_script(ADD_DEVICE)
        self._delete_table = self._redis.register_script(DELETE_TABLE)
        with _reachable():
            await self._redis.ping()
            await self._index_old_tables()

    async def _index_old_tables(self) -> None:
        """Put every device of a store written before the device sets were kept in its
        table's set, and every table in ``active`` by its newest event: once per store (a
        second process doing it meanwhile does no harm)."""
        if await self.redis.exists(INDEXED):
            return
        keys = [key async for key in self.redis.scan_iter(match="devices:*", count=1_000)]
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            async with self.redis.pipeline(transaction=False) as pipe:
                for key, data in zip(chunk, await self.redis.mget(chunk), strict=True):
                    if data is not None:
                        table_id = msgspec.json.decode(data, type=Device).table
                        pipe.sadd(f"{_stream(table_id)}:devices", key.removeprefix(b"devices:"))
                await pipe.execute()
        async for key in self.redis.scan_iter(match="tables:*", count=1_000):
            table_id = key.removeprefix(b"tables:").decode()
            created = int(await self.redis.hget(key, "created") or 0)
            try:
                newest = _records(await self.redis.xrevrange(_stream(table_id), count=1))
            except (msgspec.DecodeError, KeyError, ValueError, TableGone):
                newest = ()  # an entry of a newer server's: the creation counts
            last = max([created, *(r.at for r in newest)])
            await self.redis.zadd(ACTIVE, {table_id: last}, nx=True)
        await self.redis.set(INDEXED, b"1")

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None

    @property
    def redis(self) -> redis.Redis:
        """The client of the store's ordinary commands."""
        assert self._redis is not None, "start() the store first"
        return self._redis

    async def create_table(self, table: TableInfo) -> None:
        with _reachable():
            created = await self._create_table(
                keys=[f"tables:{table.id}", f"codes:{table.code}", ACTIVE],
                args=[table.id, table.code, table.created],
            )
        if not created:
            raise Conflict(f"table {table.id} or code {table.code} exists")

    async def table(self, table_id: str) -> TableInfo | None:
        with _reachable():
            fields = await self.redis.hgetall(f"tables:{table_id}")
        if not fields:
            return None
        return msgspec.convert(
            {key.decode(): value.decode() for key, value in fields.items()},
            TableInfo,
            strict=False,  # Redis keeps "created" as text
        )

    async def table_by_code(self, code: str) -> TableInfo | None:
        with _reachable():
            table_id = await self.redis.get(f"codes:{code}")
        return await self.table(table_id.decode()) if table_id is not None else None

    async def delete_table(self, table_id: str) -> bool:
        stream = _stream(table_id)
        with _reachable():
            deleted = await self._delete_table(
                keys=[
                    f"tables:{table_id}", stream, f"{stream}:commands", f"{stream}:seen",
                    f"{stream}:devices", ACTIVE, DELETIONS,
                ],
                args=[table_id, GONE_MS, DELETIONS_KEPT],
            )  # fmt: skip
        return bool(deleted)

    async def idle_tables(self, before_ms: int, limit: int) -> tuple[str, ...]:
        with _reachable():
            older = f"({before_ms}"  # "(": strictly older
            ids = await self.redis.zrangebyscore(ACTIVE, "-inf", older, start=0, num=limit)
        return tuple(table_id.decode() for table_id in ids)

    def on_deleted(self, callback: Callable[[str], None]) -> None:
        super().on_deleted(callback)
        if self._listener is None:
            self._listener = _Listener(self.url)
        self._listener.watch(self._deleted)

    async def add_device(self, token_hash: str, device: Device) -> None:
        with _reachable():
            added = await self._add_device(
                keys=[
                    f"tables:{device.table}",
                    f"devices:{token_hash}",
                    f"{_stream(device.table)}:devices",
                ],
                args=[msgspec.json.encode(device), token_hash],
            )
        if added == -1:
            raise TableGone(f"table {device.table} is not there")
        if not added:
            raise Conflict(f"device {token_hash} exists")

    async def device(self, token_hash: str) -> Device | None:
        with _reachable():
            data = await self.redis.get(f"devices:{token_hash}")
        return msgspec.json.decode(data, type=Device) if data is not None else None

    async def touch(self, table_id: str, device: str, at: int) -> None:
        with _reachable():
            await self.redis.hset(f"{_stream(table_id)}:seen", device, at)

    async def last_seen(self, table_id: str) -> dict[str, int]:
        with _reachable():
            seen = await self.redis.hgetall(f"{_stream(table_id)}:seen")
        return {device.decode(): int(at) for device, at in seen.items()}

    async def append(
        self,
        table_id: str,
        expected: int,
        events: Sequence[Event],
        *,
        device: str = "",
        at: int = 0,
        command: str = "",
    ) -> tuple[Recorded, ...]:
        records = tuple(
            Recorded(expected + i, event, device, at, command) for i, event in enumerate(events, 1)
        )
        with _reachable():
            reply = await self._append(
                keys=[_stream(table_id), f"{_stream(table_id)}:commands", ACTIVE],
                args=[expected, command, table_id, at, *map(encode, records)],
            )
        outcome = reply[0]
        if outcome == b"deleted":
            raise TableGone(f"table {table_id} was deleted")
        if outcome == b"conflict":
            raise Conflict(f"table {table_id} is at {reply[1]}, not {expected}")
        if outcome == b"done":
            return _records(reply[1])
        return records

    async def read(self, table_id: str, after: int = 0) -> tuple[Recorded, ...]:
        with _reachable():
            entries = await self.redis.xrange(_stream(table_id), min=f"{after + 1}", max="+")
        return _records(entries)

    async def _read_until_reached(self, table_id: str, after: int) -> tuple[Recorded, ...]:
        """``read``, waiting for Redis to come back rather than raising StoreUnavailable."""
        delay = RETRY_MIN
        while True:
            try:
                return await self.read(table_id, after)
            except StoreUnavailable:
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)

    async def subscribe(self, table_id: str, after: int = 0) -> AsyncIterator[tuple[Recorded, ...]]:
        if self._listener is None:
            self._listener = _Listener(self.url)
        listener = self._listener
        queue: asyncio.Queue[tuple[Recorded, ...] | BaseException] = asyncio.Queue()
        listener.add(table_id, queue)  # before reading: nothing falls in between
        try:
            seen = after
            backlog = await self.read(table_id, after)
            if backlog:
                seen = backlog[-1].seq
                yield backlog
            await listener.follow(table_id, seen)
            while True:
                batch = await queue.get()
                if isinstance(batch, BaseException):
                    raise batch
                if batch[0].seq > seen + 1:  # the listener began above us: fill the gap
                    batch = await self._read_until_reached(table_id, seen)
                fresh = tuple(r for r in batch if r.seq > seen)
                if fresh:
                    seen = fresh[-1].seq
                    yield fresh
        finally:
            listener.remove(table_id, queue)

    async def hit(self, key: str, window_ms: int) -> int:
        with _reachable():
            return int(await self.redis.eval(HIT, 1, f"hits:{key}", window_ms))

    async def writable(self) -> bool:
        try:
            with _reachable():
                await self.redis.set("health", b"1", px=HEALTH_TTL_MS)
        except (StoreUnavailable, RedisError):
            return False
        return True


class _Listener:
    """One XREAD BLOCK loop on its own connection, feeding every subscriber of a process."""

    def __init__(self, url: str) -> None:
        # Its own client: the socket must outwait XREAD BLOCK, and retries are ours.
        self._redis = redis.Redis.from_url(url, socket_timeout=BLOCK_MS / 1000 + 5)
        self._wake = f"wake:{uuid.uuid4().hex}"
        self._woken = b"0-0"  # the last wake entry seen
        self._queues: defaultdict[str, set[asyncio.Queue[Any]]] = defaultdict(set)
        self._positions: dict[str, int] = {}  # followed tables: the last seq delivered
        self._deleted: Callable[[str], None] | None = None  # told of every deletion
        self._deletions: bytes | None = None  # the last deletion entry seen
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    def add(self, table_id: str, queue: asyncio.Queue[Any]) -> None:
        """Deliver the table's events to ``queue`` once the table is followed."""
        self._queues[table_id].add(queue)
        self._running()

    def watch(self, deleted: Callable[[str], None]) -> None:
        """Tell ``deleted`` the id of every table deleted from now on, by any process."""
        self._deleted = deleted
        self._running()

    def _running(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="redis-store-listener")

    async def follow(self, table_id: str, seen: int) -> None:
        """Follow the table from ``seen`` on unless it is followed already."""
        if table_id in self._positions or table_id not in self._queues:
            return
        self._positions[table_id] = seen
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.xadd(self._wake, {"w": ""}, maxlen=1, approximate=False)
                pipe.pexpire(self._wake, WAKE_TTL_MS)
                await pipe.execute()
        except (RedisConnectionError, RedisTimeoutError):
            pass  # the listener is away too and reads the new table set when it is back

    def remove(self, table_id: str, queue: asyncio.Queue[Any]) -> None:
        """Stop delivering to ``queue``; the table's last subscriber stops following it."""
        self._queues[table_id].discard(queue)
        if not self._queues[table_id]:
            del self._queues[table_id]
            self._positions.pop(table_id, None)

    async def close(self) -> None:
        """Stop the loop and drop the wake stream."""
        self._closing = True
        # redis-py sends through asyncio.wait_for, which on Python 3.11 swallows a cancel
        # that lands as the send completes; the XREAD then blocks on. Cancel until it stops.
        while self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.wait([self._task], timeout=0.05)
        with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
            await self._redis.delete(self._wake)
        await self._redis.aclose()

    async def _run(self) -> None:
        delay = RETRY_MIN
        try:
            while not self._closing:
                streams: dict[str | bytes, str | bytes] = {self._wake: self._woken}
                tables = {_stream(t).encode(): t for t in self._positions}
                streams.update({_stream(t): f"{p}-0" for t, p in self._positions.items()})
                try:
                    if self._deleted is not None:
                        if self._deletions is None:  # from now on: none before the watch
                            newest = await self._redis.xrevrange(DELETIONS, count=1)
                            self._deletions = newest[0][0] if newest else b"0-0"
                        streams[DELETIONS] = self._deletions
                    reply = await self._redis.xread(streams, count=BATCH, block=BLOCK_MS)
                except (RedisConnectionError, RedisTimeoutError):
                    await asyncio.sleep(delay)  # positions stay: resume where we were
                    delay = min(delay * 2, RETRY_MAX)
                    continue
                delay = RETRY_MIN
                for key, entries in reply.items() if isinstance(reply, dict) else reply or ():
                    if key == self._wake.encode():
                        self._woken = entries[-1][0]
                    elif key == DELETIONS.encode():
                        self._deletions = entries[-1][0]
                        self._tell_deleted(entries)
                    elif (table_id := tables[key]) in self._positions:
                        try:
                            records = _records(entries)
                        except (msgspec.DecodeError, KeyError, ValueError, TableGone) as bad:
                            self._fail(table_id, bad)  # that table's subscribers alone
                            continue
                        self._deliver(table_id, records)
        except Exception as error:  # a bug: every subscriber raises it
            for queues in self._queues.values():
                for queue in queues:
                    queue.put_nowait(error)
            self._positions.clear()  # the next subscription starts a new loop

    def _tell_deleted(self, entries: Sequence[Any]) -> None:
        """Tell the watcher of each table the entries name; its trouble is its own."""
        for _id, fields in entries:
            try:
                table_id = _field(fields, b"table").decode()
                if self._deleted is not None:
                    self._deleted(table_id)
            except Exception:
                log.exception("a deleted table's watcher failed")

    def _fail(self, table_id: str, error: BaseException) -> None:
        """The table's subscribers raise ``error``; it is followed again once subscribed."""
        self._positions.pop(table_id, None)
        for queue in self._queues[table_id]:
            queue.put_nowait(error)

    def _deliver(self, table_id: str, records: tuple[Recorded, ...]) -> None:
        self._positions[table_id] = max(self._positions[table_id], records[-1].seq)
        for queue in self._queues[table_id]:
            queue.put_nowait(records)
