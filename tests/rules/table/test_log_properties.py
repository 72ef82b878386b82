"""Invariants of the event log (STYLE "Tests"), on random classic games played through
``record``: replaying a log equals folding it; undo then replay equals never having done it;
tiles are conserved between the board and the tile panel; the tile panel's running counts
equal a count from the lines, in classic and duplicate games."""

from collections import Counter
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import editions
from events import commands as c
from events import events as e
from rules.board.board import Board
from rules.errors import GameError
from rules.table.record import record
from rules.table.reducer import evolve, replay
from rules.table.state import Game, State, Tally
from rules.table.tracking import track
from rules.table.views import TableView, view
from tests.rules.table.games import DUPLICATE_ACTIONS, Setup, commands_for, play_duplicate


def rebuild(game: Game) -> Tally:
    """The tile counts as the panel defines them, from every line (duplicate: every top):
    what the running counts must always equal."""
    used: Counter[str] = Counter()
    if game.mode is e.Mode.DUPLICATE:
        for played in game.rounds:
            used.update(played.top_tiles)
        points_only = sum(r.top is not None and not r.top_tiles for r in game.rounds)
    else:
        for line in game.lines:
            used.update(line.tiles)
        points_only = sum(line.kind == "points" for line in game.lines)
    edition = game.edition
    kinds = [(k.face, k.count) for k in edition.kinds] + [("?", edition.blanks)]
    return Tally(tuple(n - used[f] for f, n in kinds), sum(used.values()), points_only)


PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ROWS = "ABCDEFGHIJKLMNO"
EDITIONS = ("nl", "it", "pl")  # single-letter faces, so a board row is one character a tile
RULES_FOR_TWO = ("house", "sbnl", "figs", "pfs", "pfs-house")
RULES_FOR_MORE = ("house", "pfs-house")


@st.composite
def setups(draw: Any) -> Setup:
    players = draw(st.integers(2, 4))
    rules = draw(st.sampled_from(RULES_FOR_TWO if players == 2 else RULES_FOR_MORE))
    return Setup(draw(st.sampled_from(EDITIONS)), rules, players, draw(st.integers(0, players - 1)))


def board_moves(sizes: tuple[int, int]) -> st.SearchStrategy[tuple]:
    return st.tuples(
        st.just("board"),
        st.integers(0, 200),  # which tile on the board to build from
        st.integers(-4, 1),  # where to start, along the line, from that tile
        st.sampled_from(["across", "down"]),
        st.lists(
            st.tuples(st.integers(0, 60), st.integers(0, 9)), min_size=sizes[0], max_size=sizes[1]
        ),
    )


ACTIONS: dict[str, st.SearchStrategy[tuple]] = {
    "board": board_moves((2, 7)),
    "single": board_moves((1, 1)),
    "points": st.tuples(st.just("points"), st.integers(0, 80)),
    "pass": st.tuples(st.just("pass")),
    "exchange": st.tuples(st.just("exchange")),
    "withdraw": st.tuples(st.just("withdraw")),
    "penalty": st.tuples(st.just("penalty"), st.integers(0, 3), st.integers(1, 30)),
    "undo": st.tuples(st.just("undo")),
    "place": st.tuples(st.just("place"), st.integers(0, 200), st.sampled_from(["across", "down"])),
    "clear": st.tuples(st.just("clear")),
}
WEIGHTS = ["board"] * 8 + ["single", "points", "pass", "exchange", "withdraw", "penalty"]
WEIGHTS += ["undo"] * 3 + ["place", "clear"]
actions = st.sampled_from(WEIGHTS).flatmap(ACTIONS.__getitem__)
games = st.tuples(setups(), st.lists(actions, min_size=8, max_size=30))


def play(setup: Setup, drawn: list[tuple]) -> tuple[State, list[e.Recorded], list[State]]:
    """Play the drawn actions; refused commands are skipped. The states after each command."""
    start = c.StartGame(
        setup.edition,
        rules=setup.rules,
        players=(None,) * setup.players,
        starter=setup.starter,
    )
    state, first = record(State(), start, at=1)
    log = list(first)
    states = [state]
    for step, action in enumerate(drawn, 2):
        for command in commands_for(state, setup, action):
            try:
                state, recorded = record(state, command, at=step, command_id=f"c{step}")
            except GameError:
                continue
            log.extend(recorded)
            states.append(state)
            break
    return state, log, states


def without_seq(table: TableView) -> TableView:
    sheet = table.sheet and msgspec.structs.replace(table.sheet, seq=0)
    return msgspec.structs.replace(table, seq=0, sheet=sheet)


@PROPERTY
@given(games)
def test_replaying_the_log_equals_folding_it_during_play(game: tuple[Setup, list]) -> None:
    setup, drawn = game
    state, log, _ = play(setup, drawn)
    assert [r.seq for r in log] == list(range(1, len(log) + 1))  # gapless
    assert view(replay(log)) == view(state)
    # and the log as a store holds it: every event through the codec, one at a time
    stored = [e.decode(e.encode(recorded)) for recorded in log]
    folded = State()
    for recorded in stored:
        folded = evolve(folded, recorded)
    assert view(folded) == view(state)
    sheet = view(state).sheet
    assert sheet is not None and sheet.warnings == ()


@PROPERTY
@given(games)
def test_undo_then_replay_equals_never_having_done_it(game: tuple[Setup, list]) -> None:
    setup, drawn = game
    _, log, _ = play(setup, drawn)
    struck = {r.event.line for r in log if isinstance(r.event, e.LineUndone)}
    kept = [r for r in log if not isinstance(r.event, e.LineUndone) and r.seq not in struck]
    assert without_seq(view(replay(log))) == without_seq(view(replay(kept)))


@PROPERTY
@given(games)
def test_tiles_are_conserved(game: tuple[Setup, list]) -> None:
    setup, drawn = game
    edition = editions.get(setup.edition)
    counts = {k.face: k.count for k in edition.kinds} | {"?": edition.blanks}
    _, _, states = play(setup, drawn)
    for state in states:
        game_now = state.game
        assert game_now is not None and game_now.board is not None
        rows = game_now.board.rows()
        on_board: Counter[str] = Counter()
        for r, row in enumerate(rows):
            for col, ch in enumerate(row):
                if ch != "." and f"{ROWS[r]}{col + 1}" not in game_now.unscored:
                    on_board["?" if ch.islower() else ch] += 1
        panel = track(game_now)
        left = {x.letter: x.left for x in panel.letters}
        assert {f: on_board[f] + left[f] for f in counts} == counts
        assert panel.not_on_board + sum(on_board.values()) == edition.total_tiles
        assert panel.in_bag == panel.not_on_board - 7 * setup.players


@PROPERTY
@given(games)
def test_board_rows_kept_from_move_to_move_equal_rows_drawn_afresh(
    game: tuple[Setup, list],
) -> None:
    # A board whose rows were drawn (a view sent them) redraws only the rows a move changes.
    setup, drawn = game
    _, log, _ = play(setup, drawn)
    state = State()
    for recorded in log:
        state = evolve(state, recorded)
        assert state.game is not None and state.game.board is not None
        board = state.game.board
        assert board.rows() == Board.empty(board.edition).lay(list(board)).rows()


@PROPERTY
@given(games)
def test_replaying_any_prefix_equals_the_state_folded_to_it(game: tuple[Setup, list]) -> None:
    # The whole state, steps and all: the shared sheet a reducer grows (rules.table.history) and
    # the games each step keeps for undo are the same however the state was reached.
    setup, drawn = game
    _, log, states = play(setup, drawn)
    for state in states:
        assert replay(log[: state.seq]) == state


@PROPERTY
@given(games)
def test_undo_leaves_the_game_a_log_without_the_line_makes(game: tuple[Setup, list]) -> None:
    setup, drawn = game
    _, log, states = play(setup, drawn)
    by_seq = {state.seq: state for state in states}
    for state in states:
        event = log[state.seq - 1].event
        if isinstance(event, e.LineUndone) and event.line == state.seq - 1:
            assert state.game == by_seq[event.line - 1].game  # the newest line: as before it
    struck = {r.event.line for r in log if isinstance(r.event, e.LineUndone)}
    kept = [r for r in log if not isinstance(r.event, e.LineUndone) and r.seq not in struck]
    assert replay(log).game == replay(kept).game


@PROPERTY
@given(games)
def test_running_tile_counts_equal_a_count_from_the_lines(game: tuple[Setup, list]) -> None:
    setup, drawn = game
    _, log, states = play(setup, drawn)
    for state in [*states, replay(log)]:
        assert state.game is not None and state.game.tally == rebuild(state.game)


@PROPERTY
@given(st.sampled_from(EDITIONS), st.lists(DUPLICATE_ACTIONS, min_size=4, max_size=30))
def test_running_tile_counts_equal_a_count_from_the_tops(edition: str, drawn: list) -> None:
    log, states = play_duplicate(edition, drawn)
    for state in states:
        assert state.game is not None and state.game.tally == rebuild(state.game)
    assert replay(log) == states[-1]
