"""Commands on a table that two processes serve through one Redis: decided on the table as
the process holds it, with one round trip when it is current, and decided again on the
events a refused append brings back when another process recorded first."""

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence

import pytest

from editions.errors import GameError
from events import commands as c
from events.events import Event, GameStarted, PointsEntered, Recorded, WritersSet
from server.stores.protocols import Device, TableInfo
from server.stores.redis_streams import RedisStore
from server.tables.commands import Tables
from tests.server.redis_server import RedisServer
from tests.server.serving import opened


class Counted(RedisStore):
    """A Redis store that counts what a command costs it: reads and appends, each one round
    trip to Redis."""

    reads = 0
    appends = 0

    async def read(self, table_id: str, after: int = 0) -> tuple[Recorded, ...]:
        self.reads += 1
        return await super().read(table_id, after)

    async def append(
        self, table_id: str, expected: int, events: Sequence[Event], **recorded: str | int
    ) -> tuple[Recorded, ...]:
        self.appends += 1
        return await super().append(table_id, expected, events, **recorded)  # type: ignore[arg-type]

    def costs(self) -> tuple[int, int]:
        return self.reads, self.appends


@pytest.fixture
async def processes(redis_server: RedisServer) -> AsyncIterator[tuple[Counted, Counted]]:
    """Two processes' stores on one Redis, emptied first."""
    a, b = Counted(redis_server.empty()), Counted(redis_server.url)
    async with opened(a, b):
        yield a, b


async def a_game(tables: Tables) -> tuple[TableInfo, str, Device]:
    """A table with a two-player game started: the table, its host's token and device."""
    table, token = await tables.create()
    host = await tables.device(table.id, token)
    await tables.command(table.id, host, c.StartGame("en", players=("Ann", "Bob")), "start")
    return table, token, host


def ann(points: int, number: int = 0) -> c.EnterPoints:
    return c.EnterPoints(points, turn=c.Turn(1, 0, number))


def bob(points: int, number: int = 0) -> c.EnterPoints:
    return c.EnterPoints(points, turn=c.Turn(1, 1, number))


async def test_a_stale_append_brings_what_it_missed_and_is_decided_again(
    processes: tuple[Counted, Counted],
) -> None:
    a, b = processes
    here, there = Tables(a), Tables(b)
    table, _, host = await a_game(here)
    await there.live(table.id)  # held at seq 1; nothing here follows it
    await here.command(table.id, host, c.SetWriters("scorekeeper"), "writers")  # seq 2
    before = b.costs()
    assert await there.command(table.id, host, ann(12), "ann") == 3
    # refused once, bringing seq 2, and recorded on top of it: no read
    assert b.costs() == (before[0], before[1] + 2)
    log = await a.read(table.id)
    assert [type(r.event) for r in log] == [GameStarted, WritersSet, PointsEntered]
    assert log[2].event == PointsEntered(player=0, points=12)

    # Decided again, not replayed: a second phone's tap on a turn recorded meanwhile is
    # refused rather than written for the next player.
    await here.command(table.id, host, bob(30), "bob")  # seq 4
    before = b.costs()
    with pytest.raises(GameError) as refused:
        await there.command(table.id, host, bob(40), "bob-again")
    assert refused.value.code == "turn_taken"
    assert b.costs() == (before[0], before[1] + 1)
    assert [r.seq for r in await a.read(table.id)] == [1, 2, 3, 4]


async def test_a_refusal_holds_only_on_the_log_as_it_stands(
    processes: tuple[Counted, Counted],
) -> None:
    """On the stale table it is Ann's turn, so Bob's line would be refused: a table no
    subscription brings up to date is read before a command is refused."""
    a, b = processes
    here, there = Tables(a), Tables(b)
    table, _, host = await a_game(here)
    await there.live(table.id)
    await here.command(table.id, host, ann(10), "ann")  # now Bob is to move
    before = b.costs()
    assert await there.command(table.id, host, bob(20), "bob") == 3
    assert b.costs() == (before[0] + 1, before[1] + 1)


async def test_a_followed_table_takes_one_round_trip_per_command(
    processes: tuple[Counted, Counted],
) -> None:
    a, b = processes
    here, there = Tables(a), Tables(b)
    table, token, host = await a_game(here)

    async def follow() -> None:  # what the hub's follower does while a phone is there
        live = await there.live(table.id)
        async for batch in b.subscribe(table.id, live.state.seq):
            there.advance(table.id, batch)

    follower = asyncio.create_task(follow())
    try:
        await _until(lambda: b.follows(table.id))
        await here.command(table.id, host, ann(10), "ann")  # heard, not read, over there

        async def heard() -> None:
            while (await there.live(table.id)).state.seq < 2:  # no read: followed
                await asyncio.sleep(0.005)

        await asyncio.wait_for(heard(), 5)
        before = b.costs()
        device, _, live = await there.authorise(table.id, token)  # a phone's hello
        assert live.state.seq == 2
        assert await there.command(table.id, device, bob(20), "bob") == 3
        assert await there.command(table.id, device, ann(30, 1), "ann-2") == 4
        assert b.costs() == (before[0], before[1] + 2)
    finally:
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower


async def _until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.005)
