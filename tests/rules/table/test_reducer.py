"""The pure reducer (rules.table.reducer): the board and the sheet rebuilt from the log, undo as
replay, duplicate rounds, and odd history turned into warnings (DESIGN "The one idea";
P-30, P-40, P-41, SHC-20/26, BRD-19..22, TYP-14, DUP-04..11)."""

from typing import Literal

import pytest

from events import commands as c
from events import events as e
from events.commands import TypedLetter
from events.events import Mode
from rules.table import views
from rules.table.record import record
from rules.table.reducer import evolve, replay
from rules.table.state import State
from rules.table.views import view
from tests.rules.table.recording import play, sheet, start

Direction = Literal["across", "down"]


def cells(state: State) -> dict[str, str]:
    """The squares with a tile: name → row notation."""
    rows = sheet(state).board
    assert rows is not None
    return {
        f"{'ABCDEFGHIJKLMNO'[r]}{col + 1}": ch
        for r, row in enumerate(rows)
        for col, ch in enumerate(row)
        if ch != "."
    }


def word(text: str, old: str = "") -> tuple[TypedLetter, ...]:
    return tuple(TypedLetter(t, old=i < len(old) and old[i] == "o") for i, t in enumerate(text))


def board(start: str, direction: Direction, letters: str) -> c.BoardMove:
    return c.BoardMove(start, direction, letters)


PLANK = board("H4", "across", "PLANK")
PLANK_SQUARES = {"H4": "P", "H5": "L", "H6": "A", "H7": "N", "H8": "K"}
KRAAN = board("F6", "down", "KRAN")  # TV-NL-08: through PLANK's A
KRAAN_SQUARES = {"F6": "K", "G6": "R", "I6": "A", "J6": "N"}


# --- the board (SHC-26, BRD-19..22, TYP-14) ---


def test_board_move_stays_on_the_board() -> None:
    state = play(start(), c.RecordMove(PLANK), c.RecordMove(KRAAN))
    assert cells(state) == PLANK_SQUARES | KRAAN_SQUARES
    assert sheet(state).totals == (28, 16)  # TV-NL-07, TV-NL-08
    assert [line.from_board for line in sheet(state).lines] == [True, True]


def test_typed_move_does_not_go_on_the_board() -> None:
    state = play(start(), c.RecordMove(typed=(word("PLANK"),)))
    assert cells(state) == {}
    assert sheet(state).totals == (11, 0)
    (line,) = sheet(state).lines
    assert not line.from_board
    # the board is still empty, so a board move must cover the centre again
    state = play(state, c.RecordMove(PLANK))
    assert cells(state) == PLANK_SQUARES


def test_reducer_trusts_the_recorded_score() -> None:
    # A later rules change never rewrites an old game: the log's points stand.
    placed = tuple(e.PlacedTile(sq, t) for sq, t in PLANK_SQUARES.items())
    state = replay(
        [
            e.Recorded(1, e.GameStarted("nl", "classic", "house", (None, None))),
            e.Recorded(2, e.MoveRecorded(0, 99, placed=placed)),
        ]
    )
    assert sheet(state).totals == (99, 0)
    assert cells(state) == PLANK_SQUARES


def test_tiles_placed_without_score_until_the_board_is_cleared() -> None:
    # BRD-20..22: laid without a score, taken off by 'Bord leegmaken'; scored tiles stay.
    state = play(start(), c.RecordMove(PLANK), c.PlaceTiles(KRAAN))
    assert cells(state) == PLANK_SQUARES | KRAAN_SQUARES
    assert sheet(state).unscored == ("F6", "G6", "I6", "J6")
    assert sheet(state).totals == (28, 0)
    assert len(sheet(state).lines) == 1
    assert sheet(state).to_move == 1  # no turn used
    state = play(state, c.ClearBoard())
    assert cells(state) == PLANK_SQUARES
    assert sheet(state).unscored == ()


def test_tiles_placed_on_an_empty_board_then_cleared() -> None:
    state = play(start(), c.PlaceTiles(PLANK), c.PlaceTiles(KRAAN))
    assert cells(state) == PLANK_SQUARES | KRAAN_SQUARES
    state = play(state, c.ClearBoard())
    assert cells(state) == {}


def test_unscored_tiles_stay_through_a_scored_move() -> None:
    state = play(start(), c.PlaceTiles(PLANK), c.RecordMove(KRAAN))
    assert sheet(state).unscored == ("H4", "H5", "H6", "H7", "H8")
    state = play(state, c.ClearBoard())
    assert cells(state) == KRAAN_SQUARES


# --- undo (P-30) ---


def test_undo_strikes_the_latest_line_and_keeps_it_in_the_log() -> None:
    state = play(start(), c.EnterPoints(10), c.EnterPoints(20))
    state, log = record(state, c.Undo())
    assert log[0].event == e.LineUndone(3)
    assert state.seq == 4
    assert sheet(state).totals == (10, 0)
    assert [line.seq for line in sheet(state).lines] == [2]


def test_undo_is_repeatable() -> None:
    state = play(start(), c.EnterPoints(10), c.EnterPoints(20), c.EnterPoints(30))
    state = play(state, c.Undo())
    assert sheet(state).totals == (10, 20)
    state = play(state, c.Undo())
    assert sheet(state).totals == (10, 0)
    state = play(state, c.Undo())
    assert sheet(state).totals == (0, 0)
    assert sheet(state).lines == ()


def test_undo_then_new_lines_then_undo_again() -> None:
    state = play(start(), c.EnterPoints(10), c.EnterPoints(20), c.Undo(), c.EnterPoints(25))
    assert sheet(state).totals == (10, 25)
    state = play(state, c.Undo(), c.Undo())
    assert sheet(state).totals == (0, 0)


def test_undo_of_a_board_move_lifts_its_tiles() -> None:
    state = play(start(), c.RecordMove(PLANK), c.RecordMove(KRAAN))
    state = play(state, c.Undo())
    assert cells(state) == PLANK_SQUARES
    assert sheet(state).tracking.not_on_board == 97
    state = play(state, c.Undo())
    assert cells(state) == {}


def test_undo_restores_whose_turn_it_is() -> None:
    state = start(players=3, starter=2)
    state = play(state, c.Pass(), c.EnterPoints(8))
    assert sheet(state).to_move == 1
    state = play(state, c.Undo())
    assert sheet(state).to_move == 0
    state = play(state, c.Undo())
    assert sheet(state).to_move == 2


def test_undo_of_a_penalty() -> None:
    state = play(start(), c.EnterPoints(30), c.GivePenalty(0, 10))
    assert sheet(state).totals == (20, 0)
    state = play(state, c.Undo())
    assert sheet(state).totals == (30, 0)
    assert [line.kind for line in sheet(state).lines] == ["points"]
    assert sheet(state).to_move == 1


def test_undo_keeps_later_unscored_tiles() -> None:
    # The undone line goes; events after it that are not lines are applied again.
    state = play(start(), c.RecordMove(PLANK), c.PlaceTiles(KRAAN), c.Undo())
    assert cells(state) == KRAAN_SQUARES
    assert sheet(state).lines == ()


def test_penalty_uses_no_turn() -> None:
    # SHC-16: any player, without using up a turn.
    state = play(start(players=3), c.EnterPoints(40), c.GivePenalty(2, 15))
    assert sheet(state).to_move == 1
    assert sheet(state).totals == (40, 0, -15)
    line = sheet(state).lines[-1]
    assert (line.kind, line.player, line.points, line.total) == ("penalty", 2, -15, -15)


def test_negative_penalty_is_a_bonus_line() -> None:
    # An imported record's challenge bonus arrives as a negative penalty.
    state = replay(
        [
            e.Recorded(1, e.GameStarted("nl", "classic", "house", (None, None))),
            e.Recorded(2, e.PenaltyGiven(1, -5)),
        ]
    )
    line = sheet(state).lines[-1]
    assert (line.kind, line.points, line.total) == ("bonus", 5, 5)


# --- the sheet per round (SHC-20/21) ---


def test_rows_hold_one_turn_per_player_per_round() -> None:
    state = start(starter=1)
    state = play(state, c.EnterPoints(10), c.EnterPoints(20), c.Pass(), c.Exchange())
    state = play(state, c.WithdrawWord())
    rows = views.rows(state.game)
    assert [[[line.kind for line in cell] for cell in row] for row in rows] == [
        [["points"], ["points"]],  # player 1 opened, player 0 answered
        [["exchange"], ["pass"]],
        [[], ["withdrawn"]],
    ]
    assert [[[line.total for line in cell] for cell in row] for row in rows] == [
        [[20], [10]],
        [[20], [10]],
        [[], [10]],
    ]


def test_rows_put_a_penalty_beside_the_turn() -> None:
    state = play(start(), c.EnterPoints(10), c.GivePenalty(0, 5), c.EnterPoints(20))
    state = play(state, c.EnterPoints(7))
    rows = views.rows(state.game)
    assert len(rows) == 2
    assert [line.kind for line in rows[0][0]] == ["points", "penalty"]  # the round in play
    assert [line.total for line in rows[0][0]] == [10, 5]
    assert [line.total for line in rows[1][0]] == [12]
    assert [line.kind for line in rows[0][1]] == ["points"]


def test_lines_record_value_and_running_total() -> None:
    # SHC-21: every move's value and the total after it; scoreless turns too (SHC-22).
    state = play(start(), c.RecordMove(PLANK), c.Pass(), c.RecordMove(KRAAN), c.Exchange())
    lines = sheet(state).lines
    assert [(ln.kind, ln.player, ln.points, ln.total) for ln in lines] == [
        ("move", 0, 28, 28),
        ("pass", 1, 0, 0),
        ("move", 0, 16, 44),
        ("exchange", 1, 0, 0),
    ]
    assert lines[0].words[0].formula == "(3 × 2 + 3 + 1 + 1 + 3) × 2 = 28"
    assert lines[0].tiles == ("P", "L", "A", "N", "K")


# --- duplicate (§13 DUP, P-40, P-41) ---


def test_duplicate_rounds_fill_and_the_top_opens_the_next() -> None:
    # TV-NL-14 as a director enters it: player scores, then the top closes the round.
    state = start(players=2, mode="duplicate")
    for s1, s2, top in ((24, 20, 24), (30, 36, 36), (18, 9, 18)):
        state = play(state, c.EnterPoints(s1), c.EnterPoints(s2))
        rounds = sheet(state).rounds
        assert rounds[-1].scores == (s1, s2) and rounds[-1].top is None
        state = play(state, c.RecordTop(points=top))
        rounds = sheet(state).rounds
        assert rounds[-2].top == top
        assert rounds[-1].scores == (None, None) and rounds[-1].top is None
    assert [r.top for r in sheet(state).rounds] == [24, 36, 18, None]
    assert sheet(state).totals == (72, 65)
    assert sheet(state).tops == 78


def test_duplicate_cells_stay_editable() -> None:
    # DUP-04 / P-40: any cell of any round, the top included; totals follow.
    state = start(players=2, mode="duplicate")
    state = play(state, c.EnterPoints(24), c.EnterPoints(20), c.RecordTop(points=24))
    state = play(state, c.EnterPoints(30), c.EnterPoints(36), c.RecordTop(points=36))
    state = play(state, c.CorrectCell(0, 1, 22))
    assert sheet(state).totals == (54, 58)
    state = play(state, c.CorrectCell(1, 0, None))
    assert sheet(state).totals == (24, 58)
    assert sheet(state).rounds[1].scores == (None, 36)
    state = play(state, c.CorrectCell(1, 0, 12))
    assert sheet(state).totals == (36, 58)
    state = play(state, c.CorrectCell(0, None, 26))
    assert [r.top for r in sheet(state).rounds] == [26, 36, None]
    assert sheet(state).tops == 62
    state = play(state, c.CorrectCell(2, 1, 5))  # the open round
    assert sheet(state).totals == (36, 63)


def test_duplicate_undo_of_a_correction() -> None:
    state = start(players=1, mode="duplicate")
    state = play(state, c.EnterPoints(24), c.RecordTop(points=24), c.CorrectCell(0, 0, 12))
    assert sheet(state).totals == (12,)
    state = play(state, c.Undo())
    assert sheet(state).totals == (24,)
    state = play(state, c.Undo())  # the top: the round opens again
    assert [r.top for r in sheet(state).rounds] == [None]
    assert sheet(state).rounds[0].scores == (24,)


def test_duplicate_top_from_the_board_stays_on_the_board() -> None:
    # DUP-10 / BRD-24: the next round starts from that board.
    state = start(players=2, mode="duplicate")
    state = play(state, c.RecordTop(PLANK))
    assert cells(state) == PLANK_SQUARES
    assert sheet(state).rounds[0].top == 28
    assert [w.word for w in sheet(state).rounds[0].top_words] == ["PLANK"]
    state = play(state, c.RecordTop(KRAAN))
    assert cells(state) == PLANK_SQUARES | KRAAN_SQUARES
    assert [r.top for r in sheet(state).rounds] == [28, 16, None]


def test_duplicate_player_board_move_leaves_the_board() -> None:
    # P-40 (OQ-52): a player's score from board mode leaves the board as it is.
    state = play(start(players=2, mode="duplicate"), c.RecordMove(PLANK))
    assert cells(state) == {}
    assert sheet(state).rounds[0].scores == (28, None)
    assert sheet(state).totals == (28, 0)
    state = play(state, c.RecordTop(PLANK), c.RecordMove(KRAAN))
    assert cells(state) == PLANK_SQUARES
    assert sheet(state).rounds[1].scores == (16, None)


def test_duplicate_typed_top_stays_off_the_board() -> None:
    state = play(start(players=1, mode="duplicate"), c.RecordTop(typed=(word("PLANK"),)))
    assert cells(state) == {}
    assert sheet(state).rounds[0].top == 11


def test_duplicate_undo_of_a_board_top_lifts_it() -> None:
    state = play(start(players=1, mode="duplicate"), c.RecordTop(PLANK), c.Undo())
    assert cells(state) == {}
    assert len(sheet(state).rounds) == 1


def test_duplicate_penalty_sits_in_the_current_round() -> None:
    state = play(start(players=2, mode="duplicate"), c.RecordTop(points=20))
    state = play(state, c.GivePenalty(1, 10))
    assert sheet(state).totals == (0, -10)
    line = sheet(state).lines[-1]
    assert (line.kind, line.round) == ("penalty", 1)


def test_duplicate_clock_follows_server_time() -> None:
    # P-41: the events carry server time; every phone computes the same countdown.
    state = start(players=2, mode="duplicate")
    clock = sheet(state).clock
    assert clock is not None
    assert (clock.seconds, clock.remaining, clock.running_since) == (180, 180_000, None)
    state, _ = record(state, c.StartClock(), at=1_000)
    clock = sheet(state).clock
    assert clock is not None and (clock.remaining, clock.running_since) == (180_000, 1_000)
    state, _ = record(state, c.PauseClock(), at=31_000)
    clock = sheet(state).clock
    assert clock is not None and (clock.remaining, clock.running_since) == (150_000, None)
    state, _ = record(state, c.ResetClock(2), at=40_000)
    clock = sheet(state).clock
    assert clock is not None
    assert (clock.seconds, clock.remaining, clock.running_since) == (120, 120_000, None)


def test_duplicate_clock_is_not_a_line() -> None:
    state = play(start(players=1, mode="duplicate"), c.EnterPoints(5), c.StartClock())
    state = play(state, c.Undo())
    assert sheet(state).rounds[0].scores == (None,)
    clock = sheet(state).clock
    assert clock is not None and clock.running_since is not None


def test_duplicate_new_game_same_players() -> None:
    # DUP-15: after the ranking, one button sets the same players up for another game.
    state = start(players=3, mode="duplicate")
    state = play(state, c.EnterPoints(20), c.RecordTop(PLANK), c.EndGame(), c.NewGame())
    found = sheet(state)
    assert (found.mode, found.rules, found.players) == ("duplicate", "duplicate", (None,) * 3)
    assert [r.scores for r in found.rounds] == [(None, None, None)]
    assert found.totals == (0, 0, 0)
    assert cells(state) == {}
    assert not found.ended


def test_classic_has_no_round_clock() -> None:
    assert sheet(start()).clock is None
    assert sheet(start()).rounds == ()


# --- odd history never raises: it becomes a warning (STYLE "Pure core") ---

PLAYERS = (None, None)


def started(*events: e.Event, mode: Mode = "classic") -> list[e.Recorded]:
    rules = "duplicate" if mode == "duplicate" else "house"
    first = e.GameStarted("nl", mode, rules, PLAYERS)
    return [e.Recorded(i, event) for i, event in enumerate((first, *events), 1)]


def plank_event(player: int = 0) -> e.MoveRecorded:
    placed = tuple(e.PlacedTile(sq, t) for sq, t in PLANK_SQUARES.items())
    return e.MoveRecorded(player, 28, placed=placed)


# id, log, warning code expected on the game
ODD = [
    pytest.param(
        started(plank_event(0), plank_event(1)), "square_taken", id="move-on-a-taken-square"
    ),
    pytest.param(
        started(e.TilesPlaced((e.PlacedTile("H8", "A"),)), plank_event()),
        "square_taken",
        id="move-on-an-unscored-tile",
    ),
    pytest.param(started(e.PointsEntered(5, 10)), "no_such_player", id="points-unknown-player"),
    pytest.param(started(e.Passed(-1)), "no_such_player", id="pass-unknown-player"),
    pytest.param(started(e.PenaltyGiven(2, 10)), "no_such_player", id="penalty-unknown-player"),
    pytest.param(started(plank_event(7)), "no_such_player", id="move-unknown-player"),
    pytest.param(started(e.LineUndone(9)), "undo_unknown_line", id="undo-unknown-line"),
    pytest.param(started(e.LineUndone(1)), "undo_unknown_line", id="undo-game-start"),
    pytest.param(
        started(e.Passed(0), e.LineUndone(2), e.LineUndone(2)),
        "undo_unknown_line",
        id="undo-twice",
    ),
    pytest.param(started(e.CellCorrected(0, 0, 5)), "not_in_classic", id="cell-in-classic"),
    pytest.param(started(e.TopRecorded(20)), "not_in_classic", id="top-in-classic"),
    pytest.param(
        started(e.Passed(0), mode="duplicate"), "not_in_duplicate", id="pass-in-duplicate"
    ),
    pytest.param(
        started(e.CellCorrected(4, 0, 5), mode="duplicate"),
        "no_such_round",
        id="cell-no-such-round",
    ),
    pytest.param(started(e.ClockPaused(5)), "clock_not_running", id="clock-paused-classic"),
    pytest.param(
        started(e.ClockPaused(5), mode="duplicate"),
        "clock_not_running",
        id="clock-paused-not-running",
    ),
    pytest.param(started(e.ClockStarted(0, 1000)), "no_clock", id="clock-in-classic"),
    pytest.param(started(e.GameEnded(), e.Passed(0)), "game_over", id="pass-after-the-end"),
    pytest.param(started(e.GameEnded(), e.GameEnded()), "game_over", id="ended-twice"),
    pytest.param(
        started(e.MoveRecorded(0, 4, placed=(e.PlacedTile("Z99", "A"),))),
        "bad_square",
        id="bad-square",
    ),
    pytest.param(
        started(e.MoveRecorded(0, 4, placed=(e.PlacedTile("H8", "1"),))),
        "invalid_character",
        id="bad-tile",
    ),
]


@pytest.mark.parametrize(("log", "code"), ODD)
def test_odd_history_becomes_a_warning(log: list[e.Recorded], code: str) -> None:
    state = replay(log)  # never raises
    warnings = sheet(state).warnings
    assert [w.code for w in warnings][-1] == code
    assert warnings[-1].params["seq"] == log[-1].seq
    assert state.seq == log[-1].seq


def test_odd_event_changes_nothing_else() -> None:
    good = started(plank_event(0), e.PointsEntered(1, 10))
    odd = [*good, e.Recorded(4, plank_event(0)), e.Recorded(5, e.Passed(9))]
    before, after = sheet(replay(good)), sheet(replay(odd))
    assert after.warnings and not before.warnings
    assert (after.totals, after.lines, after.board, after.to_move) == (
        before.totals,
        before.lines,
        before.board,
        before.to_move,
    )
    assert [w.params["kind"] for w in after.warnings] == ["move", "pass"]


def test_event_before_any_game_is_a_table_warning() -> None:
    state = replay([e.Recorded(1, e.Passed(0)), e.Recorded(2, e.LineUndone(1))])
    table = view(state)
    assert table.sheet is None
    assert [(w.code, w.params["seq"]) for w in table.warnings] == [("no_game", 1), ("no_game", 2)]
    assert state.seq == 2
    # a game can still start, and the table keeps the note
    state = evolve(state, e.Recorded(3, e.GameStarted("nl", "classic", "house", PLAYERS)))
    assert view(state).sheet is not None
    assert len(view(state).warnings) == 2


@pytest.mark.parametrize(
    "event",
    [
        pytest.param(e.GameStarted("xx", "classic", "house", PLAYERS), id="unknown-edition"),
        pytest.param(
            e.GameStarted("nl", "classic", "tournament-2099", PLAYERS), id="unknown-rules"
        ),
        pytest.param(e.GameStarted("nl", "classic", "house", ()), id="no-players"),
        pytest.param(e.GameStarted("nl", "classic", "house", PLAYERS, 5), id="bad-starter"),
    ],
)
def test_odd_game_start_is_a_table_warning(event: e.GameStarted) -> None:
    state = replay([e.Recorded(1, event), e.Recorded(2, e.Passed(0))])
    assert state.seq == 2
    assert len(view(state).warnings) >= 1


def test_odd_game_start_keeps_the_game_before_it() -> None:
    log = [
        *started(e.PointsEntered(0, 10)),
        e.Recorded(3, e.GameStarted("xx", "classic", "house", PLAYERS)),
    ]
    state = replay(log)
    assert sheet(state).totals == (10, 0)
    assert [w.code for w in view(state).warnings] == ["unknown_edition"]


def test_odd_history_still_folds_what_follows() -> None:
    log = started(e.PointsEntered(7, 10), e.PointsEntered(0, 10), e.PointsEntered(1, 20))
    state = replay(log)
    assert sheet(state).totals == (10, 20)
    assert [w.code for w in sheet(state).warnings] == ["no_such_player"]


@pytest.mark.parametrize(
    "racks",
    [
        pytest.param((e.RackLeft("A"),), id="too-few-racks"),
        pytest.param((e.RackLeft(), e.RackLeft("B"), e.RackLeft("A")), id="too-many-racks"),
        pytest.param((e.RackLeft("K1"), e.RackLeft()), id="digit-in-rack"),
    ],
)
def test_odd_game_end_never_makes_the_view_raise(racks: tuple[e.RackLeft, ...]) -> None:
    # Odd but recorded history is a warning: the sheet still shows.
    state = replay(started(e.PointsEntered(0, 10), e.GameEnded(racks)))
    found = sheet(state)
    assert found.totals == (10, 0)
    assert found.warnings
