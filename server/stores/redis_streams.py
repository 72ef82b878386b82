"""The shared store: Redis Streams, for several server processes on several hosts.

A table's log is the stream ``table:{id}``; event ``n`` is the entry ``n-0`` with the
encoded ``Recorded`` in its ``data`` field, so Redis itself refuses an entry id that is not
above the stream's top. An append is one Lua script and one round trip: it answers a command
id recorded lately (from the hash ``table:{id}:commands``, "first last", or the full one
before it, ``:commands:before``) with those events, checks that the top is the number the
caller decided on — and if not, answers with every event above it, so the caller decides
again without a read of its own — then adds every event and the command id, all or none,
since nothing else runs in Redis while a script does. (Inside MULTI a refused XADD would not
stop the next one and would leave a gap.) The command ids are a retry's, kept for a bounded
number of commands and an idle day (``COMMANDS_KEPT``): not for the table's whole life.

Every key of a table carries its id as the hash tag ``{id}``: ``table:{id}`` (the log),
``table:{id}:info`` (id, join code, creation, newest event's time), ``:commands`` and
``:commands:before``, ``:devices`` (its token hashes), ``:seen`` (when each device was last
seen). A Redis Cluster puts each table's keys in one slot, so tables spread over the shards
and each table's script runs on one of them. What is not one table's has keys of its own
slot: ``code:{code}`` → the table id, ``device:{token hash}`` → the device, the sorted set
``active`` (each table by its newest event's time, for retention) and the stream
``deletions``. No script touches more than one slot; where one change spans slots it is
written in steps whose order keeps every reader right when a process stops between two of
them (see ``create_table``, ``add_device``, ``delete_table``, ``idle_tables``). Rate limits
count in ``hits:{key}``; ``/health`` writes ``health``. ``redis+cluster://host:port`` (or
``rediss+cluster://``) names a cluster by any of its nodes; ``redis://`` and ``rediss://``
one Redis.

Deleting a table leaves its stream one tombstone entry (``deleted``, numbered above the old
top, expiring after ``GONE_MS``), which the append script refuses to write after and a read
or a listener reports as TableGone — so a follower on any process hears of it as of any
entry, and a command racing the deletion starts no new log. The id then goes into the stream
``deletions``, which each process's listener reads to let go of a table it holds without
following it. A store written with the keys of before (no hash tags) is moved to these names
once at start, by the first process of the new version.

Live events come from one listener per store (per process, ``server.stores.redis_listener``), over
sharded pub/sub: the append script publishes each append's events on the table's channel
(``table:{id}@<db>``, in the table's slot), and the stream stays the record the listener reads
any gap from. (One ``XREAD BLOCK`` over every followed stream cannot work on a cluster, whose
multi-key commands must stay in one slot; it also sent every stream's name again after each
batch.) Redis 7 or later: sharded pub/sub.

An append whose connection fails after Redis ran the script may have been recorded though
it raises StoreUnavailable: appending again with the same command id returns the events it
recorded, which is one more reason for callers to always pass one.
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import msgspec
import redis.asyncio as redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import (
    ClusterError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    RedisError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

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
from server.stores.redis_listener import RETRY_MAX, RETRY_MIN, Listener
from server.stores.redis_wire import Connect, ScriptCalls

log = logging.getLogger("tilestream")

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}

# KEYS: the table's stream, its command map and the one before it, its info hash. ARGV: the
# expected top, the command id ('' for none), the events' time, how stale ``active`` may grow
# (ms), the table's channel, how many command ids a map holds, how long an idle table keeps
# them (ms), then the encoded events numbered expected + 1 on. Every check comes before the
# first write: a script stopped by an error keeps the writes it made.
APPEND = """
local command = ARGV[2]
if command ~= '' then
  local range = redis.call('HGET', KEYS[2], command) or redis.call('HGET', KEYS[3], command)
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
if top ~= expected then
  return {'conflict', top, redis.call('XRANGE', KEYS[1], expected + 1, '+')}
end
if #ARGV < 8 then return {'ok'} end
for i = 8, #ARGV do
  redis.call('XADD', KEYS[1], (expected + i - 7) .. '-0', 'data', ARGV[i])
end
redis.call('SPUBLISH', ARGV[5], table.concat(ARGV, '\\n', 8))
if command ~= '' then
  if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[6]) then  -- full: it becomes the one before
    redis.call('RENAME', KEYS[2], KEYS[3])
  end
  redis.call('HSET', KEYS[2], command, (expected + 1) .. ' ' .. (expected + #ARGV - 7))
  redis.call('PEXPIRE', KEYS[2], ARGV[7])  -- the map before keeps the expiry it had
end
local at = tonumber(ARGV[3])
local kept = redis.call('HMGET', KEYS[4], 'last', 'indexed')
if kept[1] then  -- a table with a record (a bare log is nobody's to retain)
  if at > tonumber(kept[1]) then redis.call('HSET', KEYS[4], 'last', ARGV[3]) end
  if at - tonumber(kept[2] or 0) >= tonumber(ARGV[4]) then
    redis.call('HSET', KEYS[4], 'indexed', ARGV[3])
    return {'index'}
  end
end
return {'ok'}
"""

# KEYS: the table's info hash. ARGV: id, code, created.
CREATE_TABLE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'code', ARGV[2], 'created', ARGV[3],
           'last', ARGV[3], 'indexed', ARGV[3])
return 1
"""

# KEYS: the code key. ARGV: the id it must still name, the id it names after ('' to free it).
SWAP_CODE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
return 1
"""

# KEYS: the table's info hash, its device set. ARGV: the token hash.
ADD_DEVICE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SADD', KEYS[2], ARGV[1])
return 1
"""

# KEYS: the table's info hash, stream, command map, seen hash, device set, command map before.
# ARGV: id, the tombstone's life (ms), the table's channel. Answers whether anything was
# there, then its join code and its token hashes, whose keys the caller deletes (in their own
# slots).
DELETE_TABLE = """
local newest = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)[1]
if newest and newest[2][1] == 'deleted' then return {0} end
local top = 0
if newest then top = tonumber(string.match(newest[1], '^(%d+)')) end
local code = redis.call('HGET', KEYS[1], 'code') or ''
local hashes = redis.call('SMEMBERS', KEYS[5])
if redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]) == 0 then
  return {0}
end
redis.call('XADD', KEYS[2], (top + 1) .. '-0', 'deleted', ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('SPUBLISH', ARGV[3], 'deleted')  -- redis_listener.TOMBSTONE
return {1, code, unpack(hashes)}
"""

# KEYS: the deletions stream. ARGV: the table id, the deletions kept, the deletions channel.
TELL_DELETED = """
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'table', ARGV[1])
redis.call('SPUBLISH', ARGV[3], id .. ' ' .. ARGV[1])
return id
"""

# A phone sends a command again when its connection dropped before the answer: within
# seconds, minutes at most. Its id is kept for the table's last COMMANDS_KEPT to
# 2 × COMMANDS_KEPT commands (a map of at most 512 stays in Redis's compact encoding), and
# until the table has been idle a day; a later retry is decided again, and the turn it
# names keeps it from counting twice (``turn_taken``).
COMMANDS_KEPT = 500
COMMANDS_IDLE_MS = 86_400_000
ACTIVE = "active"  # table id → its newest event's time (ms) or earlier, for retention
ACTIVE_EVERY_MS = 3_600_000  # how far behind a table's newest event ``active`` may fall
ACTIVE_ROUNDS = 8  # catch-up rounds of ``idle_tables`` before it answers what it verified
DELETIONS = "deletions"  # the stream of deleted table ids every process's listener reads
DELETIONS_KEPT = 10_000  # about this many: a process away for longer misses the oldest
LAYOUT = "layout:hash-tags"  # set once every key of before has its hash-tagged name
INDEXED = "indexed:tables"  # the marker of an older store: device sets and ``active`` made
MIGRATE_BATCH = 500  # keys moved per round trip

# KEYS: the counter. ARGV: the window in ms. The first hit starts the window (and its expiry).
HIT = """
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return hits
"""
# A hit taken back: only inside a window still open (a key gone has no window to give to).
REFUND = """
local hits = redis.call('GET', KEYS[1])
if hits and tonumber(hits) > 0 then redis.call('DECR', KEYS[1]) end
return 0
"""
HEALTH_TTL_MS = 60_000  # the key /health writes goes away by itself

POOL = 64  # connections per process; more only queue up inside Redis, which runs one at once
POOL_WAIT = 5  # seconds a command waits for a free connection before StoreUnavailable
CLUSTER_POOL = 4 * POOL  # connections per cluster node: a cluster client does not wait


def _stream(table_id: str) -> str:
    # Table ids are URL-safe tokens: no brace ends the tag early.
    return f"table:{{{table_id}}}"


def _info(table_id: str) -> str:
    return f"{_stream(table_id)}:info"


def _code(code: str) -> str:
    return f"code:{{{code}}}"


def _device(token_hash: str) -> str:
    return f"device:{{{token_hash}}}"


def _command_maps(table_id: str) -> list[str]:
    """A table's command ids: the map being filled, and the full one before it."""
    stream = _stream(table_id)
    return [f"{stream}:commands", f"{stream}:commands:before"]


def _table_keys(table_id: str) -> list[str]:
    """The keys of a table, its slot's alone: info, stream, commands, seen, devices, the
    commands before."""
    stream, (commands, before) = _stream(table_id), _command_maps(table_id)
    return [_info(table_id), stream, commands, f"{stream}:seen", f"{stream}:devices", before]


class _Reachable:
    """Raise StoreUnavailable for a connection that failed or timed out, a Redis that refuses
    writes now, or a cluster that cannot serve the key's slot just now. A class rather than
    a generator's context manager: it is entered on every call, an append's included."""

    def __enter__(self) -> None:
        pass

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        if error is None:
            return
        if isinstance(error, RedisConnectionError | RedisTimeoutError):
            raise StoreUnavailable(str(error) or type(error).__name__) from error
        if isinstance(error, OutOfMemoryError | ReadOnlyError):  # full (noeviction); a replica
            raise StoreUnavailable(f"Redis takes no writes: {error}") from error
        if isinstance(error, ClusterError | TryAgainError | RedisClusterException):  # a failover
            raise StoreUnavailable(f"Redis Cluster: {error}") from error
        # A failed snapshot stops writes.
        if isinstance(error, ResponseError) and str(error).startswith("MISCONF"):
            raise StoreUnavailable(f"Redis takes no writes: {error}") from error


_reachable = _Reachable()


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
    """Tables and logs in the Redis at ``url`` (``redis://host:port/db``), or in the Redis
    Cluster one of whose nodes is at ``redis+cluster://host:port``."""

    def __init__(self, url: str) -> None:
        self.url = url
        scheme, _, rest = url.partition("://")
        self.cluster = scheme in CLUSTER_SCHEMES
        self._client_url = f"{CLUSTER_SCHEMES[scheme]}://{rest}" if self.cluster else url
        self._redis: redis.Redis | RedisCluster | None = None
        self._listener: Listener | None = None
        self._db = 0

    async def start(self) -> None:
        # One retry: a pooled connection that Redis closed (a restart) fails on first use.
        retry = Retry(ExponentialWithJitterBackoff(base=0.01, cap=0.1), 1)
        client: redis.Redis | RedisCluster
        if self.cluster:
            client = RedisCluster.from_url(
                self._client_url, max_connections=CLUSTER_POOL, retry=retry
            )
        else:
            # A blocking pool: a burst of phones waits for one of POOL connections instead of
            # failing with "too many connections" (bench/fanout.py: 100 tables at once).
            pool = redis.BlockingConnectionPool.from_url(
                self._client_url, max_connections=POOL, timeout=POOL_WAIT, retry=retry
            )
            self._db = int(pool.connection_kwargs.get("db") or 0)
            client = redis.Redis.from_pool(pool)  # owns the pool: aclose() closes it
        self._redis = client
        self._append = ScriptCalls(client, APPEND, self.node_of)
        self._create_table = client.register_script(CREATE_TABLE)
        self._swap_code = client.register_script(SWAP_CODE)
        self._add_device = client.register_script(ADD_DEVICE)
        self._delete_table = client.register_script(DELETE_TABLE)
        self._tell_deleted = client.register_script(TELL_DELETED)
        self._hit = client.register_script(HIT)
        self._refund = client.register_script(REFUND)
        with _reachable:
            if isinstance(client, RedisCluster):
                await client.initialize()
            await client.ping()
            await self._migrate()

    # --- the keys of before ---------------------------------------------------------------

    async def _migrate(self) -> None:
        """Give every key of a store written before the hash tags its new name: once per
        store, before this process serves (a second process doing it meanwhile does no harm:
        a key is moved only if its new name is free). A cluster never held the old names,
        whose scripts spanned slots."""
        if self.cluster or await self.redis.exists(LAYOUT):
            return
        if not await self.redis.exists(INDEXED):
            await self._index_old_tables()
        renames: list[tuple[bytes, str]] = []
        async for key in self.redis.scan_iter(match="table:*", count=1_000):
            name = key.decode()
            if "{" not in name:  # table:<id>, table:<id>:commands, :seen, :devices
                table_id, colon, kind = name.removeprefix("table:").partition(":")
                renames.append((key, f"{_stream(table_id)}{colon}{kind}"))
        infos = [key async for key in self.redis.scan_iter(match="tables:*", count=1_000)]
        renames += [(key, _info(key.removeprefix(b"tables:").decode())) for key in infos]
        async for key in self.redis.scan_iter(match="codes:*", count=1_000):
            renames.append((key, _code(key.removeprefix(b"codes:").decode())))
        async for key in self.redis.scan_iter(match="devices:*", count=1_000):
            renames.append((key, _device(key.removeprefix(b"devices:").decode())))
        for start in range(0, len(renames), MIGRATE_BATCH):
            chunk = renames[start : start + MIGRATE_BATCH]
            async with self.redis.pipeline(transaction=False) as pipe:
                for old, new in chunk:
                    pipe.renamenx(old, new)
                moved = await pipe.execute(raise_on_error=False)
            for (old, new), done in zip(chunk, moved, strict=True):
                # An error is "no such key": another process moved it first.
                if done is False:
                    log.warning("Redis key %s kept: %s is taken", old.decode(), new)
        ids = [key.removeprefix(b"tables:").decode() for key in infos]
        for start in range(0, len(ids), MIGRATE_BATCH):
            batch = ids[start : start + MIGRATE_BATCH]
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id in batch:
                    pipe.hget(_info(table_id), "created")
                    pipe.zscore(ACTIVE, table_id)
                found = await pipe.execute()
                for table_id, created, newest in zip(batch, found[::2], found[1::2], strict=True):
                    last = int(newest or int(created or 0))  # ``active`` held the newest time
                    pipe.hsetnx(_info(table_id), "last", last)
                    pipe.hsetnx(_info(table_id), "indexed", last)
                await pipe.execute()
        await self.redis.set(LAYOUT, b"1")
        await self.redis.delete(INDEXED)

    async def _index_old_tables(self) -> None:
        """Put every device of a store written before the device sets were kept in its
        table's set, and every table in ``active`` by its newest event (old key names)."""
        keys = [key async for key in self.redis.scan_iter(match="devices:*", count=1_000)]
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            async with self.redis.pipeline(transaction=False) as pipe:
                for key, data in zip(chunk, await self.redis.mget(chunk), strict=True):
                    if data is not None:
                        table_id = msgspec.json.decode(data, type=Device).table
                        pipe.sadd(f"table:{table_id}:devices", key.removeprefix(b"devices:"))
                await pipe.execute()
        async for key in self.redis.scan_iter(match="tables:*", count=1_000):
            table_id = key.removeprefix(b"tables:").decode()
            created = int(await self.redis.hget(key, "created") or 0)
            try:
                newest = _records(await self.redis.xrevrange(f"table:{table_id}", count=1))
            except (msgspec.DecodeError, KeyError, ValueError, TableGone):
                newest = ()  # an entry of a newer server's: the creation counts
            last = max([created, *(r.at for r in newest)])
            await self.redis.zadd(ACTIVE, {table_id: last}, nx=True)

    # --- the store ------------------------------------------------------------------------

    async def close(self) -> None:
        if self._redis is not None:
            await self._append.close()
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None

    @property
    def redis(self) -> Any:
        """The client of the store's ordinary commands (a ``redis.Redis`` or a
        ``RedisCluster``, which take the same commands)."""
        assert self._redis is not None, "start() the store first"
        return self._redis

    def channel(self, table_id: str) -> str:
        """The shard channel the table's appends are published on. Pub/sub knows no
        database, so the channel names the store's."""
        return f"{_stream(table_id)}@{self._db}"

    @property
    def deletions_channel(self) -> str:
        return f"{{{DELETIONS}}}@{self._db}"  # in the stream's slot, where it is published

    async def create_table(self, table: TableInfo) -> None:
        # In steps, each in one slot: ``active`` first, so a table is never left unindexed
        # (an entry without a table is listed as idle and swept); then the table's record;
        # its code last, so a code always names a table that had a record — a code whose
        # table has none is a deletion's leftover, free to take.
        with _reachable:
            indexed = await self.redis.zadd(ACTIVE, {table.id: table.created}, nx=True)
            if not await self._create_table(
                keys=[_info(table.id)], args=[table.id, table.code, table.created]
            ):
                if indexed:
                    await self.redis.zrem(ACTIVE, table.id)
                raise Conflict(f"table {table.id} exists")
            if not await self._take_code(table):
                await self.redis.delete(_info(table.id))  # nobody knows its id yet
                await self.redis.zrem(ACTIVE, table.id)
                raise Conflict(f"code {table.code} is taken")

    async def _take_code(self, table: TableInfo) -> bool:
        """Point the table's code at it, unless another table holds the code."""
        key = _code(table.code)
        for _ in range(3):
            if await self.redis.set(key, table.id, nx=True):
                return True
            holder = await self.redis.get(key)
            if holder is None:
                continue  # freed meanwhile
            if await self.redis.exists(_info(holder.decode())):
                return False
            if await self._swap_code(keys=[key], args=[holder, table.id]):
                return True
        return False

    async def table(self, table_id: str) -> TableInfo | None:
        with _reachable:
            fields = await self.redis.hgetall(_info(table_id))
        if not fields:
            return None
        return msgspec.convert(
            {key.decode(): value.decode() for key, value in fields.items()},
            TableInfo,
            strict=False,  # Redis keeps "created" as text
        )

    async def table_by_code(self, code: str) -> TableInfo | None:
        with _reachable:
            table_id = await self.redis.get(_code(code))
        table = await self.table(table_id.decode()) if table_id is not None else None
        return table if table is not None and table.code == code else None

    async def delete_table(self, table_id: str) -> bool:
        # The table's own script first: from its tombstone on, no command is recorded and no
        # device is added. What it kept elsewhere follows; a process that stops in between
        # leaves a code naming no table (free to take, found by nobody), tokens that open
        # nothing, an ``active`` entry that the next sweep deletes again, and no line in
        # ``deletions`` (its followers heard the tombstone, others learn of it on use).
        with _reachable:
            found, *kept = await self._delete_table(
                keys=_table_keys(table_id), args=[table_id, GONE_MS, self.channel(table_id)]
            )
            if found:
                code, *hashes = kept
                if code:
                    await self._swap_code(keys=[_code(code.decode())], args=[table_id, ""])
                async with self.redis.pipeline(transaction=False) as pipe:
                    for token_hash in hashes:
                        pipe.delete(_device(token_hash.decode()))
                    await pipe.execute()
            unindexed = await self.redis.zrem(ACTIVE, table_id)
            if found:
                await self._tell_deleted(
                    keys=[DELETIONS], args=[table_id, DELETIONS_KEPT, self.deletions_channel]
                )
        return bool(found or unindexed)

    async def idle_tables(self, before_ms: int, limit: int) -> tuple[str, ...]:
        # ``active`` lags each table's own newest time (its info's ``last``, kept by every
        # append) by up to ACTIVE_EVERY_MS, and never leads it: every table idle before
        # ``before_ms`` is among the candidates. Those that were used since are moved up
        # to their real time and the candidates taken again, until the first ``limit`` are
        # what they say — then they are the longest idle of all, in order.
        older = f"({before_ms}"  # "(": strictly older
        with _reachable:
            for _ in range(ACTIVE_ROUNDS):
                scored = await self.redis.zrangebyscore(
                    ACTIVE, "-inf", older, start=0, num=limit, withscores=True
                )
                ids = [table_id.decode() for table_id, _ in scored]
                async with self.redis.pipeline(transaction=False) as pipe:
                    for table_id in ids:
                        pipe.hget(_info(table_id), "last")
                    lasts = await pipe.execute()
                moved = {
                    table_id: int(last)
                    for table_id, (_, score), last in zip(ids, scored, lasts, strict=True)
                    if last is not None and int(last) > score
                }
                if not moved:
                    return tuple(ids)
                await self.redis.zadd(ACTIVE, moved, gt=True)
        return tuple(table_id for table_id in ids if table_id not in moved)

    def on_deleted(self, callback: Callable[[str], None]) -> None:
        super().on_deleted(callback)
        self.listener.watch(self._deleted)

    async def add_device(self, token_hash: str, device: Device) -> None:
        # The token first, then the table's set of tokens, where the table's script checks
        # that the table is there: a deletion before that step makes it take the token back,
        # one after it finds the token in the set and deletes it.
        with _reachable:
            if not await self.redis.set(_device(token_hash), msgspec.json.encode(device), nx=True):
                raise Conflict(f"device {token_hash} exists")
            stream = _stream(device.table)
            if not await self._add_device(
                keys=[_info(device.table), f"{stream}:devices"], args=[token_hash]
            ):
                await self.redis.delete(_device(token_hash))
                raise TableGone(f"table {device.table} is not there")

    async def device(self, token_hash: str) -> Device | None:
        with _reachable:
            data = await self.redis.get(_device(token_hash))
        return msgspec.json.decode(data, type=Device) if data is not None else None

    async def touch(self, table_id: str, device: str, at: int) -> None:
        with _reachable:
            await self.redis.hset(f"{_stream(table_id)}:seen", device, at)

    async def last_seen(self, table_id: str) -> dict[str, int]:
        with _reachable:
            seen = await self.redis.hgetall(f"{_stream(table_id)}:seen")
        return {device.decode(): int(at) for device, at in seen.items()}

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
        records = tuple(
            Recorded(expected + i, event, device, at, command) for i, event in enumerate(events, 1)
        )
        encoded = [encode(record) for record in records]
        if self._listener is not None and records:
            self._listener.appending(table_id, records, b"\n".join(encoded))  # as published
        with _reachable:
            reply = await self._append(
                keys=[_stream(table_id), *_command_maps(table_id), _info(table_id)],
                args=[
                    expected, command, at, ACTIVE_EVERY_MS, self.channel(table_id),
                    COMMANDS_KEPT, COMMANDS_IDLE_MS, *encoded,
                ],
            )  # fmt: skip
        outcome = reply[0]
        if outcome == b"deleted":
            raise TableGone(f"table {table_id} was deleted")
        if outcome == b"conflict":
            missed = _records(reply[2])
            raise Conflict(f"table {table_id} is at {reply[1]}, not {expected}", missed)
        if outcome == b"done":
            return _records(reply[1])
        if self._listener is not None and records:
            self._listener.appended(table_id, records)
        if outcome == b"index":  # ``active`` fell behind: a retention sweep's hint only
            with contextlib.suppress(RedisError):
                await self.redis.zadd(ACTIVE, {table_id: at}, gt=True)
        return records

    async def read(self, table_id: str, after: int = 0) -> tuple[Recorded, ...]:
        with _reachable:
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

    @property
    def listener(self) -> Listener:
        if self._listener is None:
            self._listener = Listener(self)
        return self._listener

    def follows(self, table_id: str) -> bool:
        return self._listener is not None and self._listener.follows(table_id)

    async def subscribe(self, table_id: str, after: int = 0) -> AsyncIterator[tuple[Recorded, ...]]:
        listener = self.listener
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
        with _reachable:
            return int(await self._hit(keys=[f"hits:{key}"], args=[window_ms]))

    async def refund(self, key: str) -> None:
        with _reachable:
            await self._refund(keys=[f"hits:{key}"])

    async def writable(self) -> bool:
        try:
            with _reachable:
                await self.redis.set("health", b"1", px=HEALTH_TTL_MS)
        except (StoreUnavailable, RedisError, RedisClusterException):
            return False
        return True

    # --- what the listener asks ---------------------------------------------------------

    async def deletions_since(self, entry_id: bytes | None) -> list[tuple[bytes, str]]:
        """The deletions recorded after ``entry_id`` (entry id, table id), oldest first; for
        None, the newest entry alone, as where to begin. Raises StoreUnavailable."""
        with _reachable:
            if entry_id is None:
                newest = await self.redis.xrevrange(DELETIONS, count=1)
                return [(newest[0][0], "")] if newest else [(b"0-0", "")]
            entries = await self.redis.xrange(DELETIONS, min=b"(" + entry_id)
        return [(found, _field(fields, b"table").decode()) for found, fields in entries]

    def node_of(self, channel: str) -> tuple[str, Connect]:
        """The node that serves ``channel``'s slot: its name, and how to open a connection
        of its own to it (a subscriber holds one for as long as it listens)."""
        client = self.redis
        if isinstance(client, RedisCluster):
            node = client.get_node_from_key(channel)
            if node is None:  # no node serves the slot just now: the listener tries again
                raise redis.ConnectionError(f"no node serves {channel}")
            return node.name, lambda: node.connection_class(**node.connection_kwargs)
        pool = client.connection_pool
        return "", lambda: pool.connection_class(**pool.connection_kwargs)

    async def refresh_nodes(self) -> None:
        """Learn the cluster's slots anew (a slot moved); nothing for one Redis."""
        if isinstance(self.redis, RedisCluster):
            with contextlib.suppress(RedisError, RedisClusterException):
                await self.redis.nodes_manager.initialize()
