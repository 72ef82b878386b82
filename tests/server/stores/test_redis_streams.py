"""What only the Redis store adds: Redis's own refusal of a stale id, other processes'
appends and deletions, restarts, tombstones, command ids kept a while, old key names moved."""

import asyncio
import contextlib
import time
from pathlib import Path

import msgspec
import pytest
import redis

from events.events import PointsEntered, Recorded, decode, encode
from server.stores import redis_listener
from server.stores import redis_streams as store_redis
from server.stores.protocols import Conflict, Device, StoreUnavailable, TableGone, TableInfo
from server.stores.redis_listener import RETRY_MIN
from server.stores.redis_streams import RedisStore
from tests.server.redis_server import RedisServer
from tests.server.stores.contract import (
    DAY,
    a_table_in_use,
    assert_once_in_order,
    collect,
    new_table,
    points,
    seqs,
)


async def test_redis_itself_refuses_a_stale_entry_id(redis_store: RedisStore) -> None:
    table = new_table()
    log = await redis_store.append(table, 0, points(1, 2))
    raw = redis_store.redis
    for stale in ("1-0", "2-0"):
        with pytest.raises(redis.exceptions.ResponseError, match="equal or smaller"):
            await raw.xadd(f"table:{{{table}}}", {"data": b"{}"}, id=stale)
    assert await redis_store.read(table) == log


async def test_redis_subscriber_sees_appends_of_another_process(
    redis_store: RedisStore, redis_server: RedisServer
) -> None:
    table = new_table()
    other = RedisStore(redis_server.url)
    await other.start()
    try:
        subscriber = asyncio.create_task(collect(redis_store, table, 0, 4))
        await asyncio.sleep(0.01)
        for n in range(4):
            await other.append(table, n, points(n))
        assert_once_in_order(await asyncio.wait_for(subscriber, 5), 0, 4)
    finally:
        await other.close()


async def test_redis_on_its_unix_socket_is_the_same_store_as_over_tcp(
    redis_store: RedisStore, redis_server: RedisServer
) -> None:
    """A server on Redis's own machine reaches it through its socket: the same tables, and
    appends made over either heard live."""
    table = new_table()
    local = RedisStore(redis_server.socket_url)
    await local.start()
    try:
        clients = await redis_store.redis.client_list()
        assert any(c["addr"].startswith(str(redis_server.folder)) for c in clients)
        heard = asyncio.create_task(collect(local, table, 0, 4))
        await asyncio.sleep(0.05)  # followed
        for n in range(2):
            await redis_store.append(table, n, points(n))  # over TCP
        for n in range(2, 4):
            await local.append(table, n, points(n))  # through the socket
        assert_once_in_order(await asyncio.wait_for(heard, 5), 0, 4)
        assert await local.read(table) == await redis_store.read(table)
        assert await local.writable()
    finally:
        await local.close()


async def test_redis_own_appends_reach_a_subscriber_without_being_decoded_again(
    redis_store: RedisStore, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoded: list[bytes] = []

    def counted(data: bytes) -> Recorded:
        decoded.append(data)
        return decode(data)

    monkeypatch.setattr(redis_listener, "decode", counted)
    table = new_table()
    other = RedisStore(redis_server.url)
    await other.start()
    try:
        subscriber = asyncio.create_task(collect(redis_store, table, 0, 6))
        await asyncio.sleep(0.05)  # followed
        for n in range(4):  # this process's: heard back from Redis, taken as they were sent
            await redis_store.append(table, n, points(n))
        assert decoded == []
        for n in range(4, 6):  # another process's: decoded as they are heard
            await other.append(table, n, points(n))
        assert_once_in_order(await asyncio.wait_for(subscriber, 5), 0, 6)
        assert len(decoded) == 2
    finally:
        await other.close()


async def test_redis_subscriber_connection_gone_silent_is_made_anew(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_listener, "PING_EVERY", 0.05)
    table = new_table()
    subscriber = asyncio.create_task(collect(redis_store, table, 0, 2))
    await asyncio.sleep(0.05)  # followed
    await redis_store.append(table, 0, points(1))
    listener = redis_store._listener
    assert listener is not None
    (feed,) = listener._feeds.values()
    silent = feed._transport
    assert silent is not None
    silent.pause_reading()  # nothing it says arrives: not even the answer to a PING
    deadline = time.monotonic() + 5
    while feed._transport is silent or table not in listener._current:
        assert time.monotonic() < deadline, "the silent connection was kept"
        await asyncio.sleep(0.01)
    assert silent.is_closing()
    await redis_store.append(table, 1, points(2))
    assert_once_in_order(await asyncio.wait_for(subscriber, 5), 0, 2)


async def test_redis_listener_follows_a_new_table_at_once(redis_store: RedisStore) -> None:
    busy, fresh = new_table(), new_table()
    first = asyncio.create_task(collect(redis_store, busy, 0, 1))
    await asyncio.sleep(0.05)  # the listener now blocks on the busy table alone
    start = time.monotonic()
    second = asyncio.create_task(collect(redis_store, fresh, 0, 1))
    await asyncio.sleep(0.01)
    await redis_store.append(fresh, 0, points(1))
    assert await asyncio.wait_for(second, 5) == [[1]]
    assert time.monotonic() - start < 1  # woken, not waiting out its 5 s block
    await redis_store.append(busy, 0, points(1))
    assert await asyncio.wait_for(first, 5) == [[1]]


@pytest.mark.redis  # a redis-server of its own
async def test_redis_store_rides_out_a_restart(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis")
    server.start()
    store, other = RedisStore(server.url), RedisStore(server.url)
    try:
        await store.start()
        await other.start()
        table = new_table()
        acknowledged = await store.append(table, 0, points(1, 2), command="c1")
        subscriber = asyncio.create_task(collect(store, table, 0, 4))
        await asyncio.sleep(0.05)

        server.stop(kill=True)  # no clean shutdown: only what is on disk survives
        with pytest.raises(StoreUnavailable):
            await store.append(table, 2, points(3), command="c2")
        with pytest.raises(StoreUnavailable):
            await store.read(table)
        with pytest.raises(StoreUnavailable):
            await store.table("t1")
        # The listener tries to reconnect and fails meanwhile (its back-off has grown past a
        # failed try); the subscriber waits on through it.
        assert store._listener is not None
        (feed,) = store._listener._feeds.values()
        deadline = time.monotonic() + 5
        while feed._delay < 4 * RETRY_MIN:
            assert time.monotonic() < deadline, "the listener never tried again"
            await asyncio.sleep(0.01)
        assert not subscriber.done()

        server.start()
        assert await store.read(table) == acknowledged  # reconnected by itself
        assert await store.append(table, 0, (), command="c1") == acknowledged
        await store.append(table, 2, points(3), command="c2")
        await other.append(table, 3, points(4))
        assert_once_in_order(await asyncio.wait_for(subscriber, 5), 0, 4)
        assert seqs(await other.read(table)) == [1, 2, 3, 4]
    finally:
        await store.close()
        await other.close()
        server.stop()


async def test_redis_store_closes_even_when_a_cancel_is_swallowed(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = new_table()
    subscription = redis_store.subscribe(table)
    first = asyncio.ensure_future(anext(subscription))
    await asyncio.sleep(0.05)  # followed
    await redis_store.append(table, 0, points(1))
    reading = asyncio.Event()

    async def read(*args: object, **kwargs: object) -> tuple[Recorded, ...]:
        # A read that loses a cancel landing as it completes (Python 3.11's asyncio.wait_for
        # did, inside redis-py) then blocks on for its whole timeout.
        reading.set()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(0.5)
        await asyncio.sleep(30)
        return ()

    try:
        assert seqs(await asyncio.wait_for(first, 5)) == [1]
        monkeypatch.setattr(redis_store, "read", read)
        listener = redis_store._listener
        assert listener is not None
        listener._fill(table)  # as after a gap: the listener reads the table's stream
        await asyncio.wait_for(reading.wait(), 5)
        start = time.monotonic()
        await asyncio.wait_for(redis_store.close(), 5)
        assert time.monotonic() - start < 1
    finally:
        await subscription.aclose()


async def test_redis_deletion_reaches_another_process(
    redis_store: RedisStore, redis_server: RedisServer
) -> None:
    await a_table_in_use(redis_store, "t1", "KQ7X")
    other = RedisStore(redis_server.url)
    await other.start()
    try:
        told: list[str] = []
        other.on_deleted(told.append)
        subscription = other.subscribe("t1", 0)
        assert seqs(await anext(subscription)) == [1, 2, 3]
        waiting = asyncio.ensure_future(anext(subscription))
        await asyncio.sleep(0.05)
        await redis_store.delete_table("t1")
        with pytest.raises(TableGone):
            await asyncio.wait_for(waiting, 5)
        await subscription.aclose()
        deadline = time.monotonic() + 5
        while not told and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert told == ["t1"]
        with pytest.raises(TableGone):  # its append, decided before it heard, starts no log
            await other.append("t1", 3, points(4), command="late")
    finally:
        await other.close()


async def test_redis_keeps_a_deleted_tables_tombstone_for_a_day(redis_store: RedisStore) -> None:
    await a_table_in_use(redis_store, "t1", "KQ7X")
    await redis_store.delete_table("t1")
    raw = redis_store.redis
    assert 0 < await raw.pttl("table:{t1}") <= 86_400_000
    entries = await raw.xrange("table:{t1}")
    assert [entry_id for entry_id, _ in entries] == [b"4-0"]  # above the old top
    # nothing of t1 but its tombstone and its line in the deletions (``active`` went empty)
    assert {key.decode() async for key in raw.scan_iter()} == {
        "table:{t1}", "deletions", "layout:hash-tags"
    }  # fmt: skip
    assert [fields for _, fields in await raw.xrange("deletions")] == [{b"table": b"t1"}]


async def test_redis_answers_retries_of_the_last_commands_and_forgets_older_ones(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_redis, "COMMANDS_KEPT", 3)
    table = new_table()
    for n in range(1, 8):  # the map fills at c3 and at c6: c7 starts a third
        await redis_store.append(table, n - 1, points(n), at=n, command=f"c{n}")
    for kept in (7, 6, 4):  # a retry: answered with what the command recorded
        retried = await redis_store.append(table, kept - 1, points(0), command=f"c{kept}")
        assert seqs(retried) == [kept]
    with pytest.raises(Conflict):  # c3 forgotten: decided again, as a new command
        await redis_store.append(table, 2, points(0), command="c3")
    raw = redis_store.redis
    kept_ids = [await raw.hkeys(f"table:{{{table}}}:commands{end}") for end in ("", ":before")]
    assert [sorted(ids) for ids in kept_ids] == [[b"c7"], [b"c4", b"c5", b"c6"]]
    await redis_store.delete_table(table)
    assert [key async for key in raw.scan_iter(match=f"table:{{{table}}}:commands*")] == []


async def test_redis_command_ids_go_when_a_table_is_idle_a_day(redis_store: RedisStore) -> None:
    table = new_table()
    await redis_store.append(table, 0, points(1), command="c1")
    assert 0 < await redis_store.redis.pttl(f"table:{{{table}}}:commands") <= DAY
    assert await redis_store.redis.pttl(f"table:{{{table}}}") == -1  # the log stays


async def test_redis_indexes_a_store_from_before_deletion_once(redis_server: RedisServer) -> None:
    """Tables and devices written by a server that kept no device sets and no ``active``:
    a new store finds them, so retention and deletion reach them too."""
    url = redis_server.url
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
        for table_id, code, created in (("old", "KQ7X", 1_000), ("used", "ABCD", 2_000)):
            client.hset(f"tables:{table_id}", mapping={"id": table_id, "code": code,
                                                     "created": created})  # fmt: skip
            client.set(f"codes:{code}", table_id)
            client.set(f"devices:{table_id}-host",
                       msgspec.json.encode(Device(table_id, "host", id="host")))  # fmt: skip
        record = Recorded(1, PointsEntered(0, 5), "host", 9 * DAY, "c1")
        client.xadd("table:used", {"data": encode(record)}, id="1-0")
    finally:
        client.close()
    store = RedisStore(url)
    await store.start()
    try:
        assert await store.idle_tables(DAY, 10) == ("old",)
        assert await store.idle_tables(10 * DAY, 10) == ("old", "used")
        assert await store.delete_table("used")
        assert await store.device("used-host") is None
        assert await store.table_by_code("ABCD") is None
        assert await store.device("old-host") == Device("old", "host", id="host")
    finally:
        await store.close()


async def test_redis_moves_a_store_of_the_old_key_names_to_hash_tags(
    redis_server: RedisServer,
) -> None:
    """Keys as the server before hash tags wrote them: a table in play, a deleted table's
    tombstone. The first start moves them; every table reads, retries and deletes as before."""
    client = redis.Redis.from_url(redis_server.url)
    records = tuple(Recorded(n, PointsEntered(0, n), "host", 5 * DAY, "c1") for n in (1, 2))
    try:
        client.flushdb()
        client.hset("tables:live", mapping={"id": "live", "code": "KQ7X", "created": 1_000})
        client.set("codes:KQ7X", "live")
        client.set("devices:h-host", msgspec.json.encode(Device("live", "host", id="host")))
        client.sadd("table:live:devices", "h-host")
        for record in records:
            client.xadd("table:live", {"data": encode(record)}, id=f"{record.seq}-0")
        client.hset("table:live:commands", "c1", "1 2")
        client.hset("table:live:seen", "host", 7_000)
        client.zadd("active", {"live": 5 * DAY})
        client.xadd("table:gone", {"deleted": "gone"}, id="4-0")
        client.pexpire("table:gone", DAY)
        client.xadd("deletions", {"table": "gone"})
        client.set("indexed:tables", b"1")
    finally:
        client.close()
    store = RedisStore(redis_server.url)
    await store.start()
    try:
        assert await store.read("live") == records
        assert await store.append("live", 0, points(9), command="c1") == records  # a retry
        assert await store.table_by_code("KQ7X") == TableInfo("live", "KQ7X", 1_000)
        assert await store.device("h-host") == Device("live", "host", id="host")
        assert await store.last_seen("live") == {"host": 7_000}
        assert await store.idle_tables(5 * DAY + 1, 10) == ("live",)
        assert await store.idle_tables(5 * DAY, 10) == ()
        with pytest.raises(TableGone):
            await store.read("gone")
        raw = store.redis
        assert 0 < await raw.pttl("table:{gone}") <= DAY
        untagged = {key.decode() async for key in raw.scan_iter() if b"{" not in key}
        assert untagged == {"active", "deletions", "layout:hash-tags"}
        assert seqs(await store.append("live", 2, points(3))) == [3]
        assert await store.delete_table("live")
        assert await store.device("h-host") is None
        assert await store.table_by_code("KQ7X") is None
    finally:
        await store.close()
    again = RedisStore(redis_server.url)  # started a second time: nothing left to move
    await again.start()
    try:
        with pytest.raises(TableGone):
            await again.read("live")
    finally:
        await again.close()


async def test_redis_idle_tables_stay_exact_while_active_lags(redis_store: RedisStore) -> None:
    """``active`` is written once an hour per table, not on every append: the answer is
    checked against each table's own newest time."""
    await redis_store.create_table(TableInfo("t1", "KQ7X", 1_000))
    await redis_store.append("t1", 0, points(1), at=10 * DAY)
    await redis_store.append("t1", 1, points(2), at=10 * DAY + 60_000)  # within the hour
    raw = redis_store.redis
    assert await raw.zscore("active", "t1") == 10 * DAY  # behind by a minute
    assert await redis_store.idle_tables(10 * DAY + 60_000, 10) == ()
    assert await redis_store.idle_tables(10 * DAY + 60_001, 10) == ("t1",)
    await raw.zadd("active", {"t1": 1_000})  # far behind, as after a lost write
    await redis_store.create_table(TableInfo("t2", "ABCD", 2 * DAY))
    assert await redis_store.idle_tables(5 * DAY, 1) == ("t2",)  # t1 was used since
    assert await raw.zscore("active", "t1") == 10 * DAY + 60_000  # and is moved up


async def test_redis_a_code_left_by_a_deletion_cut_short_is_free(redis_store: RedisStore) -> None:
    await a_table_in_use(redis_store, "t1", "KQ7X")
    raw = redis_store.redis
    await raw.delete("table:{t1}:info")  # as a deletion that stopped after its table's script
    assert await raw.exists("code:{KQ7X}")
    assert await redis_store.table_by_code("KQ7X") is None
    await redis_store.create_table(TableInfo("t2", "KQ7X", 2_000))
    assert await redis_store.table_by_code("KQ7X") == TableInfo("t2", "KQ7X", 2_000)


async def test_redis_counts_hits_for_every_process(redis_store: RedisStore) -> None:
    other = RedisStore(redis_store.url)
    await other.start()
    try:
        key = new_table()
        counts = [await s.hit(key, 60_000) for s in (redis_store, other, redis_store, other)]
        assert counts == [1, 2, 3, 4]
    finally:
        await other.close()
