"""Tables in a process's memory are bounded: a table no phone follows leaves after an idle
time, or as the least recently used beyond a limit, and comes back whole from its log."""

import gc
import tracemalloc
from pathlib import Path

import pytest

from editions import codebook
from editions.errors import GameError
from events import commands as c
from events.events import Mode
from rules.table.reducer import replay
from rules.table.views import view
from server.jobs.move_timer import MoveTimer
from server.stores.protocols import Device, Store, TableInfo
from server.stores.sqlite import SqliteStore
from server.tables import retries
from server.tables.commands import Tables
from server.tables.held import HELD_MAX
from tests.server.serving import opened

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


async def timed_game(tables: Tables, minutes: int = 60) -> TableInfo:
    """An online game of two with ``minutes`` a move, its first player to move."""
    table, token = await tables.create()
    host = await tables.device(table.id, token)
    start = c.StartGame("woordstrijd", Mode.ONLINE, players=(None, None), move_seconds=60 * minutes)
    await tables.command(table.id, host, start, "start")
    return table


async def test_an_online_game_waiting_for_its_clock_is_let_go_and_passed_when_due(
    store: Store,
) -> None:
    clock = Clock()
    tables = Tables(store, clock, idle_ms=10 * MINUTE)
    table = await timed_game(tables)

    clock.now += 11 * MINUTE
    await a_game(tables)
    assert table.id not in tables.held()  # its deadline waits without it (tables.waiting)
    assert await MoveTimer(tables).check() == 0  # not due yet

    clock.now += 50 * MINUTE
    timer = MoveTimer(tables)
    assert await timer.check() == 1  # read again from the log, and passed
    assert await timer.check() == 0  # the next look: the other player's time runs now
    game = (await tables.live(table.id)).state.game
    assert game is not None and game.online is not None
    assert game.online.last is not None and game.online.last.timed_out
    assert game.to_move == 1 and game.online.turn_since == clock.now


async def test_eight_thousand_timed_online_games_are_held_five_thousand_at_most(
    tmp_path: Path,
) -> None:
    # On SQLite only: what is measured is the process's index, the same over either store.
    async with opened(SqliteStore(tmp_path / "tilestream.db")) as (store,):
        await eight_thousand_timed_games(store)


async def eight_thousand_timed_games(store: Store) -> None:
    clock = Clock()
    tables = Tables(store, clock)  # HELD_MAX: 5,000
    tracemalloc.start()
    try:
        games = [await timed_game(tables, minutes=n % 50 + 1) for n in range(HELD_MAX)]
        assert len(tables.held()) == HELD_MAX
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        games += [await timed_game(tables, minutes=n % 50 + 1) for n in range(3_000)]
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(tables.held()) <= HELD_MAX
    # What stays of a game let go: its turn's deadline (tables.waiting), not the table.
    print(f"\n3,000 games more, let go: {grown / 3_000:.0f} B a game")
    assert grown / 3_000 < 1_024, f"{grown / 3_000:.0f} B a game"

    # A bystander's view, of a game let go long ago, comes back whole from its log.
    first = games[0]
    assert first.id not in tables.held()
    assert (await tables.live(first.id)).state.seq == 1

    # Each game is passed once when its time runs out, held or let go meanwhile.
    clock.now += MINUTE  # the 1-minute games of the 8,000: every fiftieth
    timer = MoveTimer(tables)
    assert await timer.check() == len(games) // 50
    assert await timer.check() == 0


async def test_a_held_table_remembers_the_ids_of_its_last_commands_only(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(retries, "HELD", 5)
    tables = Tables(store)
    table, host = await a_game(tables, turns=10)  # "start" (seq 1), turn-0 … turn-9 (2 … 11)
    live = await tables.live(table.id)
    held = {f"turn-{n}": live.retries.seq(f"turn-{n}") for n in range(10)}
    assert held == {f"turn-{n}": n + 2 if n >= 5 else None for n in range(10)}
    retried = c.EnterPoints(19, turn=c.Turn(1, 1, 4))
    assert await tables.command(table.id, host, retried, "turn-9") == 11  # answered as then
    too_late = c.EnterPoints(12, turn=c.Turn(1, 0, 1))
    with pytest.raises(GameError) as refused:  # decided again: its turn is taken
        await tables.command(table.id, host, too_late, "turn-2")
    assert refused.value.code == codebook.TURN_TAKEN
    assert (await tables.live(table.id)).state.seq == 11
