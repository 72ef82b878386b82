"""The contract every store keeps, run against each backend; then what only Redis adds.

The shape of pyeventsourcing's recorder test case and of broadcaster's per-backend tests:
one suite, parametrized by the ``store`` fixture over SQLite, one Redis and a Redis Cluster
of three nodes.
"""

import asyncio
import contextlib
import sqlite3
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import msgspec
import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.events import PointsEntered, Recorded, encode
from server.stores import redis_streams as store_redis
from server.stores.base import Conflict, Device, Store, StoreUnavailable, TableGone, TableInfo
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from tests.server.redis_server import RedisServer
from tests.server.serving import opened


@pytest.fixture(params=["sqlite", "redis", "cluster"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """Each backend in turn, empty: the contract tests run once per store."""
    if request.param == "sqlite":
        backend: Store = SqliteStore(tmp_path / "tilestream.db")
    elif request.param == "redis":
        backend = RedisStore(request.getfixturevalue("redis_server").empty())
    else:
        backend = RedisStore(request.getfixturevalue("redis_cluster").empty())
    async with opened(backend):
        yield backend


def new_table() -> str:
    return uuid.uuid4().hex[:12]


def points(*values: int) -> tuple[PointsEntered, ...]:
    """Events told apart by their points."""
    return tuple(PointsEntered(player=0, points=value) for value in values)


def seqs(records: Sequence[Recorded]) -> list[int]:
    return [r.seq for r in records]


async def append_retrying(
    store: Store, table_id: str, values: Sequence[int], command: str = ""
) -> tuple[Recorded, ...]:
    """Append as a server does: on Conflict, catch up and try again."""
    expected = 0
    while True:
        try:
            return await store.append(table_id, expected, points(*values), command=command)
        except Conflict:
            newer = await store.read(table_id, expected)
            expected = newer[-1].seq if newer else expected


async def collect(store: Store, table_id: str, after: int, until: int) -> list[list[int]]:
    """The seqs of each batch a subscriber gets, up to and including ``until``."""
    batches: list[list[int]] = []
    async with contextlib.aclosing(store.subscribe(table_id, after)) as batches_in:
        async for batch in batches_in:
            batches.append(seqs(batch))
            if batch[-1].seq >= until:
                return batches
    raise AssertionError("a subscription ended")


def assert_once_in_order(batches: list[list[int]], after: int, until: int) -> None:
    assert all(batches), "an empty batch"
    assert [seq for batch in batches for seq in batch] == list(range(after + 1, until + 1))


# Tables and devices


async def test_store_creates_and_finds_tables(store: Store) -> None:
    table = TableInfo("t1", "KQ7X", 1_700_000_000_000)
    await store.create_table(table)
    assert await store.table("t1") == table
    assert await store.table_by_code("KQ7X") == table
    assert await store.table("t2") is None
    assert await store.table_by_code("ZZZZ") is None


async def test_store_refuses_a_taken_code_or_id(store: Store) -> None:
    await store.create_table(TableInfo("t1", "KQ7X", 1))
    with pytest.raises(Conflict):
        await store.create_table(TableInfo("t2", "KQ7X", 2))
    with pytest.raises(Conflict):
        await store.create_table(TableInfo("t1", "ABCD", 3))
    assert await store.table("t2") is None
    assert await store.table_by_code("ABCD") is None
    assert await store.table("t1") == TableInfo("t1", "KQ7X", 1)


async def test_store_keeps_devices(store: Store) -> None:
    await store.create_table(TableInfo("t1", "KQ7X", 1))
    await store.create_table(TableInfo("t2", "ABCD", 1))
    host, seat = Device("t1", "host", id="host"), Device("t1", "player", seat=2, id="d2")
    await store.add_device("h-host", host)
    await store.add_device("h-seat", seat)
    assert await store.device("h-host") == host
    assert await store.device("h-seat") == seat
    assert await store.device("h-none") is None
    with pytest.raises(Conflict):
        await store.add_device("h-host", Device("t2", "viewer"))
    assert await store.device("h-host") == host


async def test_store_notes_when_each_device_was_last_seen(store: Store) -> None:
    assert await store.last_seen("t1") == {}
    await store.touch("t1", "d1", 1_000)
    await store.touch("t1", "d2", 2_000)
    await store.touch("t1", "d1", 3_000)  # seen again: the newest time
    await store.touch("t2", "d1", 4_000)  # another table's device of the same id
    assert await store.last_seen("t1") == {"d1": 3_000, "d2": 2_000}
    assert await store.last_seen("t2") == {"d1": 4_000}


# Appending and reading


async def test_append_numbers_events_from_expected_plus_one(store: Store) -> None:
    table = new_table()
    first = await store.append(table, 0, points(10, 20), device="d1", at=123, command="c1")
    assert first == (
        Recorded(1, PointsEntered(0, 10), "d1", 123, "c1"),
        Recorded(2, PointsEntered(0, 20), "d1", 123, "c1"),
    )
    second = await store.append(table, 2, points(30))
    assert second == (Recorded(3, PointsEntered(0, 30)),)
    assert await store.read(table) == first + second


@pytest.mark.parametrize("expected", [0, 1, 3, 9])
async def test_append_refuses_a_stale_expected_and_writes_nothing(
    store: Store, expected: int
) -> None:
    table = new_table()
    before = await store.append(table, 0, points(1, 2))
    with pytest.raises(Conflict):
        await store.append(table, expected, points(7, 8), command="late")
    assert await store.read(table) == before
    # the refused command id was not remembered: it records now
    assert seqs(await store.append(table, 2, points(7), command="late")) == [3]


async def test_a_refused_append_carries_the_events_the_caller_missed(store: Store) -> None:
    table = new_table()
    log = await store.append(table, 0, points(1, 2)) + await store.append(table, 2, points(3))
    for expected in (0, 1, 2):
        with pytest.raises(Conflict) as refused:
            await store.append(table, expected, points(9), command="late")
        assert refused.value.records == log[expected:]  # read with the refusal, in order
    with pytest.raises(Conflict) as ahead:
        await store.append(table, 5, points(9))
    assert ahead.value.records == ()
    assert await store.read(table) == log


async def test_append_with_a_repeated_command_id_records_once(store: Store) -> None:
    table = new_table()
    first = await store.append(table, 0, points(1, 2), command="c1")
    other = await store.append(table, 2, points(3), command="c2")
    assert await store.append(table, 0, points(1, 2), command="c1") == first
    assert await store.append(table, 3, points(9), command="c1") == first  # any expected
    assert await store.append(table, 3, (), command="c2") == other
    assert await store.read(table) == first + other


async def test_append_of_no_events_only_checks_the_number(store: Store) -> None:
    table = new_table()
    assert await store.append(table, 0, (), command="c1") == ()
    with pytest.raises(Conflict):
        await store.append(table, 1, ())
    assert seqs(await store.append(table, 0, points(5), command="c1")) == [1]


async def test_append_of_several_events_is_all_or_none(store: Store) -> None:
    table = new_table()
    await store.append(table, 0, points(1))
    outcomes = await asyncio.gather(
        *(store.append(table, 1, points(10 * n, 10 * n + 1, 10 * n + 2)) for n in (1, 2, 3)),
        return_exceptions=True,
    )
    won = [o for o in outcomes if isinstance(o, tuple)]
    assert len(won) == 1
    assert sum(isinstance(o, Conflict) for o in outcomes) == 2
    log = await store.read(table)
    assert seqs(log) == [1, 2, 3, 4]
    assert log[1:] == won[0]


async def test_concurrent_appends_with_the_same_expected_one_wins(store: Store) -> None:
    table = new_table()
    outcomes = await asyncio.gather(
        *(store.append(table, 0, points(n), command=f"c{n}") for n in range(8)),
        return_exceptions=True,
    )
    won = [o for o in outcomes if isinstance(o, tuple)]
    assert len(won) == 1
    assert all(isinstance(o, Conflict) for o in outcomes if not isinstance(o, tuple))
    assert await store.read(table) == won[0]


async def test_read_returns_the_events_after_n(store: Store) -> None:
    table = new_table()
    log = await store.append(table, 0, points(1, 2, 3, 4, 5))
    assert await store.read(table) == log
    assert await store.read(table, 2) == log[2:]
    assert await store.read(table, 5) == ()
    assert await store.read(new_table()) == ()


# Subscribing


async def test_subscribe_delivers_backlog_then_live_events_once_in_order(store: Store) -> None:
    table = new_table()
    await store.append(table, 0, points(1, 2, 3))
    writers, each, until = 4, 5, 3 + 4 * 5
    early = [asyncio.create_task(collect(store, table, after, until)) for after in (0, 1, 3)]
    await asyncio.sleep(0.01)  # the early ones are live before the writers start
    writing = [
        asyncio.create_task(append_retrying(store, table, [100 * w + i]))
        for w in range(writers)
        for i in range(each)
    ]
    await asyncio.sleep(0)
    late = [asyncio.create_task(collect(store, table, after, until)) for after in (0, 5)]
    await asyncio.wait_for(asyncio.gather(*writing), 5)
    got = await asyncio.wait_for(asyncio.gather(*early, *late), 5)
    for after, batches in zip((0, 1, 3, 0, 5), got, strict=True):
        assert_once_in_order(batches, after, until)
    assert seqs(await store.read(table)) == list(range(1, until + 1))


async def test_subscribe_misses_nothing_while_its_reader_dawdles(store: Store) -> None:
    table = new_table()
    await store.append(table, 0, points(1, 2))
    slow = store.subscribe(table)
    fast = store.subscribe(table)
    try:
        assert seqs(await anext(slow)) == [1, 2]  # then no reading for a while
        await store.append(table, 2, points(3, 4))
        assert seqs(await anext(fast)) == [1, 2, 3, 4]
        live = asyncio.ensure_future(anext(fast))  # the table is followed from 4 on
        await asyncio.sleep(0.01)
        await store.append(table, 4, points(5))
        assert seqs(await asyncio.wait_for(live, 5)) == [5]
        got = [seqs(await asyncio.wait_for(anext(slow), 5))]
        while got[-1][-1] < 5:
            got.append(seqs(await asyncio.wait_for(anext(slow), 5)))
        assert_once_in_order(got, 2, 5)
    finally:
        await slow.aclose()
        await fast.aclose()


async def test_subscribe_serves_several_tables_at_once(store: Store) -> None:
    tables = [new_table() for _ in range(3)]
    subscribers = [asyncio.create_task(collect(store, t, 0, 6)) for t in tables]
    await asyncio.sleep(0.01)
    for n in range(6):
        await asyncio.gather(*(store.append(t, n, points(n)) for t in tables))
    for batches in await asyncio.wait_for(asyncio.gather(*subscribers), 5):
        assert_once_in_order(batches, 0, 6)


# Any interleaving

appends = st.tuples(
    st.integers(0, 3),  # how many events
    st.sampled_from(["", "", "a", "b", "c"]),  # the command id
    st.integers(-2, 1),  # how far the expected number is off the top
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rounds=st.lists(st.lists(appends, min_size=1, max_size=4), min_size=1, max_size=6))
async def test_any_interleaving_of_appends_keeps_the_log_gapless(
    store: Store, rounds: list[list[tuple[int, str, int]]]
) -> None:
    table, top, results = new_table(), 0, []
    for r, concurrent in enumerate(rounds):
        outcomes = await asyncio.gather(
            *(
                store.append(
                    table,
                    max(0, top + off),
                    points(*(1000 * r + 10 * a + k for k in range(n))),
                    command=command,
                )
                for a, (n, command, off) in enumerate(concurrent)
            ),
            return_exceptions=True,
        )
        assert all(isinstance(o, tuple | Conflict) for o in outcomes), outcomes
        results += [o for o in outcomes if isinstance(o, tuple) and o]
        top = len(await store.read(table))
    log = await store.read(table)
    assert seqs(log) == list(range(1, len(log) + 1))
    for result in results:  # every answer is what the log holds at its numbers
        assert log[result[0].seq - 1 : result[-1].seq] == result
    assert {r.seq for result in results for r in result} == set(seqs(log))  # nothing unsaid
    for command in "abc":  # a command id is recorded once, as one run of events
        run = [i for i, r in enumerate(log) if r.command == command]
        assert not run or run == list(range(run[0], run[0] + len(run)))
        assert len({result for result in results if result[0].command == command}) <= 1


# Deleting a table, and finding the idle ones (P-11)

DAY = 86_400_000


async def a_table_in_use(store: Store, table_id: str, code: str, at: int = 5_000) -> None:
    """A table with a host and a player, two commands recorded at ``at`` and a last-seen
    time: something of it in every place a store keeps per table."""
    await store.create_table(TableInfo(table_id, code, 1_000))
    await store.add_device(f"{table_id}-host", Device(table_id, "host", id="host"))
    await store.add_device(f"{table_id}-seat", Device(table_id, "player", seat=1, id="d1"))
    await store.append(table_id, 0, points(1, 2), device="host", at=at, command="c1")
    await store.append(table_id, 2, points(3), device="d1", at=at, command="c2")
    await store.touch(table_id, "d1", at)


async def test_delete_removes_the_table_its_code_its_tokens_and_its_log(store: Store) -> None:
    await a_table_in_use(store, "t1", "KQ7X")
    await a_table_in_use(store, "t2", "ABCD")
    assert await store.delete_table("t1") is True
    assert await store.table("t1") is None
    assert await store.table_by_code("KQ7X") is None
    assert await store.device("t1-host") is None
    assert await store.device("t1-seat") is None
    assert await store.last_seen("t1") == {}
    with pytest.raises(TableGone):
        await store.read("t1")
    # the other table is as it was
    assert await store.table("t2") == TableInfo("t2", "ABCD", 1_000)
    assert await store.device("t2-seat") == Device("t2", "player", seat=1, id="d1")
    assert seqs(await store.read("t2")) == [1, 2, 3]
    assert await store.last_seen("t2") == {"d1": 5_000}


async def test_a_deleted_tables_code_is_free_again(store: Store) -> None:
    await a_table_in_use(store, "t1", "KQ7X")
    await store.delete_table("t1")
    await store.create_table(TableInfo("t3", "KQ7X", 2_000))
    assert await store.table_by_code("KQ7X") == TableInfo("t3", "KQ7X", 2_000)


async def test_a_deleted_table_takes_no_event_and_no_device(store: Store) -> None:
    await a_table_in_use(store, "t1", "KQ7X")
    await store.delete_table("t1")
    for expected in (0, 3):  # a process that knew the table, or one that did not
        with pytest.raises(TableGone):
            await store.append("t1", expected, points(9), command="c3")
    with pytest.raises(TableGone):  # a command id recorded before the deletion is gone too
        await store.append("t1", 3, points(3), command="c2")
    with pytest.raises(TableGone):
        await store.add_device("t1-late", Device("t1", "viewer", id="d9"))
    with pytest.raises(TableGone):
        await store.read("t1", 3)
    assert await store.device("t1-late") is None


async def test_a_device_joins_only_a_table_that_is_there(store: Store) -> None:
    with pytest.raises(TableGone):
        await store.add_device("h1", Device("nowhere", "player", seat=0, id="d1"))
    assert await store.device("h1") is None


async def test_deleting_what_is_not_there_says_so(store: Store) -> None:
    assert await store.delete_table("never") is False
    assert await store.read("never") == ()  # no tombstone for a table that never was
    await a_table_in_use(store, "t1", "KQ7X")
    assert await store.delete_table("t1") is True
    assert await store.delete_table("t1") is False  # twice: a second sweep, a double tap


async def test_delete_removes_a_table_without_events_or_without_a_record(store: Store) -> None:
    await store.create_table(TableInfo("empty", "KQ7X", 1_000))
    log_only = new_table()
    await store.append(log_only, 0, points(1))
    assert await store.delete_table("empty") is True
    assert await store.delete_table(log_only) is True
    assert await store.table_by_code("KQ7X") is None
    for gone in ("empty", log_only):
        with pytest.raises(TableGone):
            await store.read(gone)


async def test_a_subscriber_of_a_deleted_table_raises(store: Store) -> None:
    await a_table_in_use(store, "t1", "KQ7X")
    subscription = store.subscribe("t1", 0)
    try:
        assert seqs(await anext(subscription)) == [1, 2, 3]
        waiting = asyncio.ensure_future(anext(subscription))
        await asyncio.sleep(0.05)  # followed live now
        await store.delete_table("t1")
        with pytest.raises(TableGone):
            await asyncio.wait_for(waiting, 5)
    finally:
        await subscription.aclose()
    with pytest.raises(TableGone):  # subscribing afterwards
        await asyncio.wait_for(anext(store.subscribe("t1", 3)), 5)


async def test_watchers_are_told_of_each_deletion(store: Store) -> None:
    told: list[str] = []
    store.on_deleted(told.append)
    await asyncio.sleep(0.05)  # a shared store's listener is watching
    for table_id, code in (("t1", "KQ7X"), ("t2", "ABCD")):
        await a_table_in_use(store, table_id, code)
        await store.delete_table(table_id)
    await store.delete_table("t1")  # not there any more: nobody is told twice
    deadline = time.monotonic() + 5
    while len(told) < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    assert told == ["t1", "t2"]


async def test_idle_tables_are_those_whose_newest_event_is_older(store: Store) -> None:
    now = 100 * DAY
    await store.create_table(TableInfo("old", "AAAAAA", now - 40 * DAY))  # never used
    await store.create_table(TableInfo("stale", "BBBBBB", now - 60 * DAY))
    await store.append("stale", 0, points(1), at=now - 50 * DAY)
    await store.create_table(TableInfo("revived", "CCCCCC", now - 60 * DAY))
    await store.append("revived", 0, points(1), at=now - 59 * DAY)
    await store.append("revived", 1, points(2), at=now - DAY)  # played yesterday
    await store.create_table(TableInfo("fresh", "DDDDDD", now - DAY))
    await store.create_table(TableInfo("gone", "EEEEEE", now - 90 * DAY))
    await store.delete_table("gone")
    await store.append(new_table(), 0, points(1), at=1)  # a log with no table: not listed
    before = now - 30 * DAY
    assert await store.idle_tables(before, 10) == ("stale", "old")  # the longest idle first
    assert await store.idle_tables(before, 1) == ("stale",)
    assert await store.idle_tables(now - 40 * DAY, 10) == ("stale",)  # strictly older
    assert set(await store.idle_tables(now, 10)) == {"stale", "old", "revived", "fresh"}
    assert await store.idle_tables(0, 10) == ()


async def test_an_event_stamped_earlier_does_not_make_a_table_idle(store: Store) -> None:
    """Two processes' clocks differ a little: the newest time counts, not the last one."""
    await store.create_table(TableInfo("t1", "KQ7X", 1_000))
    await store.append("t1", 0, points(1), at=10 * DAY)
    await store.append("t1", 1, points(2), at=10 * DAY - 5)
    assert await store.idle_tables(10 * DAY, 10) == ()
    assert await store.idle_tables(10 * DAY + 1, 10) == ("t1",)


# Redis only


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
        await asyncio.sleep(0.2)  # the listener tries and fails meanwhile
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
    await asyncio.sleep(0.05)  # followed: the listener reads its subscriber connection
    listener = redis_store._listener
    assert listener is not None
    (feed,) = listener._feeds.values()
    assert feed._connection is not None

    async def read_response(*args: object, **kwargs: object) -> None:
        # A read that loses a cancel landing as it completes (Python 3.11's asyncio.wait_for
        # did, inside redis-py) then blocks on for its whole timeout.
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(0.5)
        await asyncio.sleep(30)

    monkeypatch.setattr(feed._connection, "read_response", read_response)
    await redis_store.append(table, 0, points(1))  # heard by the real read: ours is next
    try:
        assert seqs(await asyncio.wait_for(first, 5)) == [1]
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


# --- rate-limit counts and the health write ----------------------------------------------


async def test_hits_are_counted_per_key_in_a_window(store: Store) -> None:
    key = new_table()
    assert [await store.hit(key, 60_000) for _ in range(3)] == [1, 2, 3]
    assert await store.hit(f"{key}-other", 60_000) == 1


async def test_a_window_ends_and_the_count_starts_again(store: Store) -> None:
    key = new_table()
    assert [await store.hit(key, 200) for _ in range(2)] == [1, 2]
    await asyncio.sleep(0.3)
    assert await store.hit(key, 200) == 1


async def test_a_working_store_is_writable(store: Store) -> None:
    assert await store.writable()


async def test_redis_counts_hits_for_every_process(redis_store: RedisStore) -> None:
    other = RedisStore(redis_store.url)
    await other.start()
    try:
        key = new_table()
        counts = [await s.hit(key, 60_000) for s in (redis_store, other, redis_store, other)]
        assert counts == [1, 2, 3, 4]
    finally:
        await other.close()


async def test_a_full_or_stopped_redis_is_not_writable(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis")
    server.start()
    store = RedisStore(server.url)
    client = redis.Redis.from_url(server.url)
    try:
        await store.start()
        client.config_set("maxmemory-policy", "noeviction")
        client.config_set("maxmemory", 1)  # every write refused: OOM
        assert not await store.writable()
        with pytest.raises(StoreUnavailable):
            await store.hit("k", 60_000)
        client.config_set("maxmemory", 0)
        assert await store.writable()
        server.stop()
        assert not await store.writable()
        with pytest.raises(StoreUnavailable):
            await store.hit("k", 60_000)
    finally:
        client.close()
        await store.close()
        server.stop()


# --- SQLite only ----------------------------------------------------------------------------

OLD_SCHEMA = """
CREATE TABLE tables (id TEXT PRIMARY KEY, code TEXT UNIQUE, created INTEGER);
CREATE TABLE devices (token_hash TEXT PRIMARY KEY, device BLOB);
CREATE TABLE events (
    table_id TEXT, seq INTEGER, data BLOB, PRIMARY KEY (table_id, seq)) WITHOUT ROWID;
"""


async def test_sqlite_opens_a_file_from_before_deletion(tmp_path: Path) -> None:
    """A file written before tables kept their newest event's time and devices their table:
    both are filled in from the rows, so retention and deletion reach its old tables."""
    path = tmp_path / "tilestream.db"
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.executemany("INSERT INTO tables VALUES (?, ?, ?)", [("old", "KQ7X", 1_000),
                                                           ("used", "ABCD", 2_000)])  # fmt: skip
    for table_id in ("old", "used"):
        device = msgspec.json.encode(Device(table_id, "host", id="host"))
        db.execute("INSERT INTO devices VALUES (?, ?)", (f"{table_id}-host", device))
    record = Recorded(1, PointsEntered(0, 5), "host", 9 * DAY, "c1")
    db.execute("INSERT INTO events VALUES (?, ?, ?)", ("used", 1, encode(record)))
    db.commit()
    db.close()
    store = SqliteStore(path)
    await store.start()
    try:
        assert await store.idle_tables(DAY, 10) == ("old",)
        assert await store.idle_tables(10 * DAY, 10) == ("old", "used")
        assert await store.read("used") == (record,)
        assert await store.delete_table("used")
        assert await store.device("used-host") is None
        assert await store.table_by_code("ABCD") is None
        assert await store.device("old-host") == Device("old", "host", id="host")
    finally:
        await store.close()
    again = SqliteStore(path)  # opened a second time: nothing left to migrate
    await again.start()
    try:
        assert await again.idle_tables(10 * DAY, 10) == ("old",)
    finally:
        await again.close()
