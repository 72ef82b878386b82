"""The registry's contract (``server.stores.protocols.Registry``), run against every backend:
tables by id and code, devices by token hash, deletion whole (P-11), the idle tables."""

import asyncio
import time

import pytest

from server.stores.protocols import Conflict, Device, Store, TableGone, TableInfo
from tests.server.stores.contract import (
    DAY,
    a_table_in_use,
    new_table,
    points,
    seqs,
)


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
    # A last deletion is told after anything the one before it could have told.
    await a_table_in_use(store, "t3", "EFGH")
    await store.delete_table("t3")
    deadline = time.monotonic() + 5
    while "t3" not in told and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert told == ["t1", "t2", "t3"]


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
