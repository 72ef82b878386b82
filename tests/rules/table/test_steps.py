"""The steps an undo goes back along (``rules.table.state.Step``): only one in ``CHECKPOINT``
keeps the game before it, and the others fold it again. Whatever the checkpoint, every
step's game before it, and every state, are those of a table that kept a game for every step:
in classic games (with the game clock, whose turn changes the game), in duplicate games
and in online games (whose turn starts the time per move), undos among them. And the games
before the newest steps are at hand (``State.recent``): the common undos fold nothing again."""

import sys
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

import msgspec
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from bench.replay import make_game
from events import commands as c
from events.events import (
    GameEnded,
    GameStarted,
    LineUndone,
    Recorded,
    TableEvent,
    decode,
    encode,
)
from rules.errors import GameError
from rules.gcg import write as gcg_write
from rules.table import reducer, steps
from rules.table.permissions import LINE_EVENTS, Actor
from rules.table.record import record
from rules.table.reducer import before, befores, evolve, replay
from rules.table.state import Follows, Game, Packed, State, Step
from rules.table.steps import chain, older
from tests.rules.online_games import ACTIONS as ONLINE_ACTIONS
from tests.rules.online_games import Table, act
from tests.rules.table.games import (
    DUPLICATE_ACTIONS,
    EDITIONS,
    Setup,
    actions,
    commands_for,
    play_duplicate,
)
from tests.rules.table.opens import counted_opens

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HOST = Actor("host", None, "host")


@contextmanager
def checkpoint(every: int) -> Iterator[None]:
    with patch.object(reducer, "CHECKPOINT", every):
        yield


def folds(log: list[Recorded]) -> list[State]:
    """The state after each event."""
    states, state = [], State()
    for recorded in log:
        state = evolve(state, recorded)
        states.append(state)
    return states


def assert_as_if_every_game_kept(log: list[Recorded], every: int = 3, each: int = 1) -> None:
    """Folded with a game kept in ``every`` steps, the states (``each``-th, and the last)
    and every step's game before it are those of a fold that keeps every game."""
    with checkpoint(1):
        kept = folds(log)
    with checkpoint(every):
        folded = folds(log)
    pairs = list(zip(kept, folded, strict=True))
    for reference, state in [*pairs[::each], pairs[-1]]:
        assert state.game == reference.game
        assert [game for _, game in befores(state.steps)] == [
            game for _, game in befores(reference.steps)
        ]
        step, expected = state.steps, reference.steps
        while step is not None and expected is not None:
            assert expected.follows in ("start", "kept")  # every game kept: the reference
            assert before(step) == expected.kept
            step, expected = older(step), older(expected)
        assert step is None and expected is None


CLASSIC = st.sampled_from(
    [
        ("board", "board", "points", "pass", "undo", "undo", "penalty", "place"),
        ("board", "single", "pass", "undo", "exchange", "switch", "switch", "undo", "withdraw"),
    ]
).flatmap(lambda weights: st.lists(actions(*weights), max_size=40))


@PROPERTY
@given(st.sampled_from(EDITIONS), st.integers(2, 4), st.sampled_from([None, 25]), CLASSIC)
def test_a_classic_game_folds_each_steps_game_as_it_kept_it(
    edition: str, players: int, clock: int | None, drawn: list[tuple[Any, ...]]
) -> None:
    setup = Setup(edition, "house", players, 0)
    start = c.StartGame(edition, players=(None,) * players, clock_minutes=clock)
    state, log = record(State(), start, at=1_000)
    log = list(log)
    for at, action in enumerate(drawn, 2):
        for command in commands_for(state, setup, action):
            try:
                state, recorded = record(state, command, actor=HOST, at=at * 1_000)
            except GameError:
                continue
            log.extend(recorded)
            break
    assert_as_if_every_game_kept(log)


@PROPERTY
@given(st.sampled_from(EDITIONS), st.lists(DUPLICATE_ACTIONS, max_size=40))
def test_a_duplicate_game_folds_each_steps_game_as_it_kept_it(
    edition: str, drawn: list[tuple[Any, ...]]
) -> None:
    log, _ = play_duplicate(edition, drawn)
    assert_as_if_every_game_kept(log)


@PROPERTY
@given(
    seed=st.binary(min_size=16, max_size=16).map(bytes.hex),
    players=st.integers(2, 3),
    drawn=st.lists(ONLINE_ACTIONS, min_size=10, max_size=80),
)
def test_an_online_game_folds_each_steps_game_as_it_kept_it(
    seed: str, players: int, drawn: list[tuple[Any, ...]]
) -> None:
    table = Ticking(players, seed, move_seconds=60)
    for action in drawn:
        try:
            act(table, action)
        except GameError:
            continue
    assert_as_if_every_game_kept(table.log)
    ends = [s for s in _chain(table.state) if isinstance(s.recorded.event, GameEnded)]
    assert all(s.follows == "kept" for s in ends)  # an online undo reads an end's kept game


class Ticking(Table):
    """An online game whose every command comes a second after the one before: each turn
    starts the time per move anew, an undo's too."""

    def do(
        self, command: c.TableCommand, at: int = 0, actor: Actor | None = None
    ) -> tuple[Recorded, ...]:
        return super().do(command, at or 1_000 * (len(self.log) + 1), actor)


def _chain(state: State) -> Iterator[reducer.Step]:
    return chain(state.steps)


@pytest.mark.parametrize("every", [2, 7, reducer.CHECKPOINT])
def test_a_long_game_with_undos_folds_and_writes_its_record_as_if_every_game_kept(
    every: int,
) -> None:
    log = make_game(600)
    assert_as_if_every_game_kept(log, every, each=25)
    with checkpoint(1):
        kept = gcg_write.to_gcg(log)
    with checkpoint(every):
        folded = gcg_write.to_gcg(log)
    assert folded == kept


def test_a_long_game_keeps_a_game_for_one_step_in_checkpoint() -> None:
    state = replay(make_game(600))
    steps = list(_chain(state))
    kept = sum(s.follows == "kept" for s in steps)
    assert kept <= len(steps) // reducer.CHECKPOINT + 2  # the start's next keeps one too
    assert max(s.depth for s in steps) < reducer.CHECKPOINT


@pytest.mark.parametrize("undos", [1, 2])
def test_undoing_the_latest_lines_folds_no_event_again(undos: int) -> None:
    log = make_game(300)
    with checkpoint(1):
        expected = replay(log)
        for _ in range(undos):
            expected, _ = record(expected, c.Undo(), actor=HOST)
    state = replay(log)
    folded: list[Recorded] = []
    again = reducer._folded

    def counted(game: Game, recorded: Recorded, follows: Follows) -> Game:
        folded.append(recorded)
        return again(game, recorded, follows)

    with patch.object(reducer, "_folded", counted):
        for _ in range(undos):
            state, undone = record(state, c.Undo(), actor=HOST)
            assert [type(u.event) for u in undone] == [LineUndone]
    assert folded == []
    assert state.game == expected.game


def test_a_standing_event_keeps_no_command_id_and_shares_its_devices_id() -> None:
    # Each event's device id an object of its own, as each decoded from the log is.
    log = [
        Recorded(r.seq, r.event, "".join(["phone-", str(r.seq % 4)]), r.at, f"command-{r.seq}")
        for r in make_game(120)
    ]
    state = replay(log)
    steps = list(_chain(state))
    assert steps and all(s.recorded.command == "" for s in steps)
    devices = {s.recorded.device: s.recorded.device for s in steps}
    assert all(s.recorded.device is devices[s.recorded.device] for s in steps)
    assert state == replay([Recorded(r.seq, r.event, r.device, r.at) for r in log])


def test_the_runs_before_the_newest_are_packed_and_open_as_they_stood() -> None:
    log = make_game(600)
    state = replay(log)
    # Unopened, the newest run is objects back to the step that keeps its game, then packs.
    step: Step | Packed | None = state.steps
    while isinstance(step, Step) and step.follows in ("turn", "again"):
        step = step.previous
    assert isinstance(step, Step) and step.follows == "kept"
    packs = 0
    step = step.previous
    while step is not None:
        assert isinstance(step, Packed)
        packs, step = packs + 1, step.previous
    assert packs >= len(log) // (2 * reducer.CHECKPOINT)
    # Opened, every standing event is as the log has it, without its command id.
    opened = list(_chain(state))
    assert [s.recorded for s in opened] == sorted(
        (reducer.standing(log[s.recorded.seq - 1]) for s in opened),
        key=lambda r: -r.seq,
    )
    assert [s.depth for s in opened if s.follows in ("kept", "start")] == [0] * sum(
        s.follows in ("kept", "start") for s in opened
    )


def test_a_search_opens_only_the_runs_that_can_hold_what_it_looks_for() -> None:
    state = replay(make_game(600))
    standing = [s.recorded for s in _chain(state)]
    line = next(r for r in standing if isinstance(r.event, LINE_EVENTS))
    with counted_opens() as opens:
        assert steps.newest(state.steps, LINE_EVENTS) == line
        assert opens == []  # the newest line is in the newest run
        assert steps.newest(state.steps, (GameStarted,)) == standing[-1]
        assert opens == [1]  # the game's start: only the oldest run holds one
        opens.clear()
        oldest_line = standing[-2]
        assert (found := steps.find(state.steps, oldest_line.seq)) is not None
        assert found.recorded == oldest_line
        assert len(opens) == 1  # passed by seq: only the run that holds it opened
        assert opens[0] <= oldest_line.seq
        assert steps.find(state.steps, len(make_game(600)) + 1) is None


def test_a_moves_squares_and_its_words_places_are_strings_every_line_shares() -> None:
    # Decoded from the log, as a store gives it: each event's strings objects of their own.
    log = [decode(encode(r)) for r in make_game(300)]
    moves = [line for line in replay(log).game.lines if line.squares]
    assert moves
    for line in moves:
        assert all(square is sys.intern(square) for square in line.squares)
        for word in line.words:
            assert word.start is sys.intern(word.start)
            assert word.direction is sys.intern(word.direction)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(st.sampled_from(typing.get_args(TableEvent)).flatmap(st.builds), min_size=1))
def test_every_event_a_store_gives_back_opens_from_a_packed_run_as_it_was(
    events: list[TableEvent],
) -> None:
    records = []
    for seq, event in enumerate(events, 1):
        try:  # as a store gives it back: what its JSON does not allow never reaches a fold
            records.append(decode(encode(Recorded(seq, event, "phone-1", 1_764_000_000_000 + seq))))
        except (msgspec.ValidationError, msgspec.EncodeError):
            reject()
    run: Step | None = None
    for depth, recorded in enumerate(records):
        run = Step(recorded, None, run, "turn" if run else "start", depth)
    packed = steps.packing(run)
    assert isinstance(packed, Packed)
    assert [s.recorded for s in chain(steps._opened(packed))] == records[::-1]
