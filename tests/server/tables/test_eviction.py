"""Tables in a process's memory are bounded: a table no phone follows leaves after an idle
time, or as the least recently used beyond a limit, and comes back whole from its log."""

import pytest

from editions import codebook
from editions.errors import GameError
from events import commands as c
from rules.table.reducer import replay
from rules.table.views import view
from server.stores.protocols import Device, Store, TableInfo
from server.tables import live as held_live
from server.tables.commands import Tables

MINUTE = 60_000


class Clock:
    """A server clock the test moves on, in ms."""

    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


async def a_game(tables: Tables, turns: int = 0) -> tuple[TableInfo, Device]:
    """A two-player game with ``turns`` lines of points: the table and its host's device."""
    table, token = await tables.create()
    host = await tables.device(table.id, token)
    await tables.command(table.id, host, c.StartGame("en", players=("Ann", "Bob")), "start")
    for n in range(turns):
        turn = c.Turn(1, n % 2, n // 2)
        await tables.command(table.id, host, c.EnterPoints(10 + n, turn=turn), f"turn-{n}")
    return table, host


async def test_an_idle_table_leaves_memory_and_comes_back_with_every_line(store: Store) -> None:
    clock = Clock()
    tables = Tables(store, clock, idle_ms=10 * MINUTE)
    table, host = await a_game(tables, turns=30)
    before = view((await tables.live(table.id)).state)

    clock.now += 11 * MINUTE
    other, _ = await a_game(tables)  # using another table sweeps the idle ones
    assert tables.held() == {other.id}

    back = await tables.live(table.id)  # a phone returns: read again from the log
    assert view(back.state) == before
    assert back.state == replay(await store.read(table.id))
    seq = await tables.command(table.id, host, c.EnterPoints(5, turn=c.Turn(1, 0, 15)), "more")
    assert seq == before.seq + 1


async def test_a_table_its_phones_follow_stays_however_long_it_is_quiet(store: Store) -> None:
    clock = Clock()
    tables = Tables(store, clock, idle_ms=10 * MINUTE)
    followed, _ = await a_game(tables)
    quiet, _ = await a_game(tables)
    tables.keep_while({followed.id}.__contains__)

    clock.now += 60 * MINUTE
    await a_game(tables)
    assert followed.id in tables.held()
    assert quiet.id not in tables.held()


async def test_beyond_the_limit_the_least_recently_used_table_goes_first(store: Store) -> None:
    tables = Tables(store, Clock(), held_max=3)
    first, _ = await a_game(tables)
    second, _ = await a_game(tables)
    third, _ = await a_game(tables)
    await tables.live(first.id)  # used again: now the second is the least recent
    fourth, _ = await a_game(tables)
    assert tables.held() == {first.id, third.id, fourth.id}
    assert second.id not in tables.held()


async def test_an_online_game_waiting_for_its_clock_stays(store: Store) -> None:
    clock = Clock()
    tables = Tables(store, clock, idle_ms=10 * MINUTE)
    table, token = await tables.create()
    host = await tables.device(table.id, token)
    start = c.StartGame("woordstrijd", "online", players=(None, None), move_seconds=3600)
    await tables.command(table.id, host, start, "start")

    clock.now += 11 * MINUTE
    await a_game(tables)
    assert table.id in tables.held()  # this process passes the player whose time runs out


async def test_a_held_table_remembers_the_ids_of_its_last_commands_only(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(held_live, "COMMANDS_HELD", 3)
    tables = Tables(store)
    table, host = await a_game(tables, turns=10)  # "start" (seq 1), turn-0 … turn-9 (2 … 11)
    live = await tables.live(table.id)
    assert list(live.commands) == [f"turn-{n}" for n in range(5, 10)]  # 7 held at most
    retried = c.EnterPoints(19, turn=c.Turn(1, 1, 4))
    assert await tables.command(table.id, host, retried, "turn-9") == 11  # answered as then
    too_late = c.EnterPoints(12, turn=c.Turn(1, 0, 1))
    with pytest.raises(GameError) as refused:  # decided again: its turn is taken
        await tables.command(table.id, host, too_late, "turn-2")
    assert refused.value.code == codebook.TURN_TAKEN
    assert (await tables.live(table.id)).state.seq == 11
