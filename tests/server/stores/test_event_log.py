"""The event log's contract (``server.stores.protocols.EventLog``), run against every backend:
gapless appends on an expected seq, idempotent command ids, reads, subscriptions."""

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.events import PointsEntered, Recorded
from server.stores.protocols import Conflict, Store
from tests.server.stores.contract import (
    append_retrying,
    appends,
    assert_once_in_order,
    collect,
    new_table,
    points,
    seqs,
)


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
