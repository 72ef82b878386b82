"""The decider (rules.table.decide, rules.table.record.record): what a command records, and
every refusal with its stable code and parameters (DESIGN "Errors"; SHC-12, BRD-12..18,
BNG-05, DUP)."""

from typing import Literal

import pytest

from events import commands as c
from events import events as e
from events.commands import TypedLetter
from events.events import Mode
from rules.errors import GameError, IllegalPlacement, NotationError
from rules.table import rulesets
from rules.table.decide import decide, judges_words
from rules.table.record import record
from rules.table.reducer import replay
from rules.table.state import State
from rules.table.views import view
from tests.rules.table.recording import play, start

Direction = Literal["across", "down"]


def duplicate(players: int = 2, edition: str = "nl") -> State:
    return start(edition, players=players, mode="duplicate")


def refusal(state: State, command: c.TableCommand) -> GameError:
    """The refusal ``command`` meets; ``record`` leaves the state as it was."""
    before = view(state)
    with pytest.raises(GameError) as refused:
        record(state, command, at=5_000)
    assert view(state) == before
    return refused.value


def word(
    text: str, old: str = "", premiums: dict[int, str] | None = None
) -> tuple[TypedLetter, ...]:
    """A typed word; an ``o`` in ``old`` marks that position as already on the board."""
    premiums = premiums or {}
    return tuple(
        TypedLetter(t, premiums.get(i), i < len(old) and old[i] == "o") for i, t in enumerate(text)
    )


def board(start: str, direction: Direction, letters: str) -> c.BoardMove:
    return c.BoardMove(start, direction, letters)


PLANK = board("H4", "across", "PLANK")


# --- what an accepted command records ---


def test_record_numbers_events_and_keeps_device_time_and_command_id() -> None:
    state = start()
    state, log = record(state, c.RecordMove(PLANK), at=1_234, device="phone-2", command_id="c-9")
    (recorded,) = log
    assert (recorded.seq, recorded.device, recorded.at, recorded.command) == (
        2,
        "phone-2",
        1_234,
        "c-9",
    )
    assert state.seq == 2


def test_decide_board_move_records_tiles_and_score() -> None:
    (event,) = decide(start(), c.RecordMove(PLANK))
    assert event == e.MoveRecorded(
        0,
        28,
        (e.WordLine("PLANK", 28, "(3 × 2 + 3 + 1 + 1 + 3) × 2 = 28", "H4", "across"),),
        0,
        tuple(
            e.PlacedTile(sq, t)
            for sq, t in zip(["H4", "H5", "H6", "H7", "H8"], "PLANK", strict=True)
        ),
        "across",
    )


def test_decide_typed_move_records_words_as_typed() -> None:
    # TV-NL-04: BOEK + KAAS = 27, for player 1 named explicitly.
    words = (word("BOEK", premiums={3: "3L"}), word("KAAS", ".ooo", {0: "3L"}))
    (event,) = decide(start(), c.RecordMove(typed=words, player=1))
    assert isinstance(event, e.MoveRecorded)
    assert (event.player, event.points, event.bingo, event.placed) == (1, 27, 0, ())
    assert [[(t.tile, t.premium, t.old) for t in w] for w in event.typed] == [
        [(t.tile, t.premium, t.old) for t in w] for w in words
    ]
    assert [(w.word, w.points) for w in event.words] == [("BOEK", 14), ("KAAS", 13)]


def test_decide_is_pure() -> None:
    state = play(start(), c.RecordMove(PLANK))
    command = c.RecordMove(board("F6", "down", "KRAN"))
    assert decide(state, command) == decide(state, command)
    assert state.seq == 2 and state.game is not None and len(state.game.lines) == 1


def test_player_left_out_is_the_player_to_move() -> None:
    state = play(start(players=3), c.Pass(), c.Exchange())
    (event,) = decide(state, c.EnterPoints(12))
    assert event == e.PointsEntered(2, 12)


@pytest.mark.parametrize(
    ("command", "event"),
    [
        pytest.param(c.Pass(), e.Passed(0), id="pass"),
        pytest.param(c.Exchange(), e.Exchanged(0), id="exchange"),
        pytest.param(c.WithdrawWord(), e.WordWithdrawn(0), id="withdraw"),
        pytest.param(c.GivePenalty(1, 20), e.PenaltyGiven(1, 20), id="penalty"),
        pytest.param(c.EnterPoints(0), e.PointsEntered(0, 0), id="points-0"),
    ],
)
def test_decide_turns(command: c.TableCommand, event: e.Event) -> None:
    assert decide(start(), command) == (event,)


# --- manual points (SHC-12) ---


@pytest.mark.parametrize("points", [pytest.param(0, id="zero"), pytest.param(2000, id="TV-NL-20")])
def test_enter_points_accepted_up_to_2000(points: int) -> None:
    state = play(start(), c.EnterPoints(points))
    assert state.game is not None and state.game.totals == (points, 0)


@pytest.mark.parametrize(
    "points", [pytest.param(2001, id="TV-D-18"), pytest.param(-1, id="negative")]
)
def test_enter_points_refused_outside_0_to_2000(points: int) -> None:
    refused = refusal(start(), c.EnterPoints(points))
    assert refused.code == "points_out_of_range"
    assert refused.params == {"points": points, "max": 2000}


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(c.EnterPoints(2001), id="cell"),
        pytest.param(c.RecordTop(points=2001), id="top"),
        pytest.param(c.CorrectCell(0, 0, 2001), id="correct"),
        pytest.param(c.CorrectCell(0, None, -1), id="correct-top"),
    ],
)
def test_duplicate_points_refused_outside_0_to_2000(command: c.TableCommand) -> None:
    assert refusal(duplicate(), command).code == "points_out_of_range"


@pytest.mark.parametrize("points", [0, -5, 2001])
def test_penalty_refused_outside_1_to_2000(points: int) -> None:
    assert refusal(start(), c.GivePenalty(0, points)).code == "points_out_of_range"


# --- placement (BRD-12..18): each refusal passes through with its code ---

# id, moves before, the refused board move, code, params
PLACEMENTS = [
    pytest.param(
        [], board("H9", "across", "AB"), "first_move_off_centre", {"centre": "H8"}, id="TV-D-19"
    ),
    pytest.param([], board("H8", "across", "A"), "first_move_single_tile", {}, id="TV-D-20"),
    pytest.param([PLANK], board("A1", "across", "AB"), "not_connected", {}, id="TV-D-23"),
    pytest.param(
        [], board("H12", "across", "PLANK"), "off_board", {"square": "H12"}, id="P-22-off-board"
    ),
    pytest.param(
        [PLANK], board("L6", "down", "KRAAN"), "off_board", {"square": "L6"}, id="off-board-down"
    ),
    pytest.param(
        [],
        board("H2", "across", "PLANKENS"),
        "too_many_tiles",
        {"count": 8, "rack_size": 7},
        id="eight-tiles",
    ),
    pytest.param([], board("H8", "across", ""), "no_tiles", {}, id="no-tiles"),
]


@pytest.mark.parametrize(("before", "move", "code", "params"), PLACEMENTS)
def test_record_move_refuses_illegal_placement(
    before: list[c.BoardMove], move: c.BoardMove, code: str, params: dict
) -> None:
    state = play(start(), *(c.RecordMove(b) for b in before))
    refused = refusal(state, c.RecordMove(move))
    assert isinstance(refused, IllegalPlacement)
    assert refused.code == code
    assert refused.params == params


@pytest.mark.parametrize(("before", "move", "code", "params"), PLACEMENTS)
def test_record_top_refuses_illegal_placement(
    before: list[c.BoardMove], move: c.BoardMove, code: str, params: dict
) -> None:
    state = play(duplicate(), *(c.RecordTop(b) for b in before))
    refused = refusal(state, c.RecordTop(move))
    assert isinstance(refused, IllegalPlacement)
    assert (refused.code, refused.params) == (code, params)


@pytest.mark.parametrize(("before", "move", "code", "params"), PLACEMENTS)
def test_place_tiles_refuses_illegal_placement(
    before: list[c.BoardMove], move: c.BoardMove, code: str, params: dict
) -> None:
    state = play(start(), *(c.PlaceTiles(b) for b in before))
    refused = refusal(state, c.PlaceTiles(move))
    assert isinstance(refused, IllegalPlacement)
    assert (refused.code, refused.params) == (code, params)


@pytest.mark.parametrize(
    ("move", "code"),
    [
        pytest.param(board("Z9", "across", "AB"), "bad_square", id="bad-square"),
        pytest.param(board("H8", "across", "A1"), "invalid_character", id="digit"),
        pytest.param(board("H8", "across", "A.B"), "bad_tile", id="dot"),
        pytest.param(board("H8", "across", "[QX]"), "bad_tile", id="bracket"),
    ],
)
def test_record_move_refuses_bad_notation(move: c.BoardMove, code: str) -> None:
    refused = refusal(start(), c.RecordMove(move))
    assert isinstance(refused, NotationError)
    assert refused.code == code


def test_board_move_refused_without_a_board() -> None:
    # BRD-23: Literaki values have no board mode.
    state = start("pl-literaki")
    refused = refusal(state, c.RecordMove(board("H6", "across", "KOT")))
    assert (refused.code, refused.params) == ("no_board", {"edition": "pl-literaki"})
    assert refusal(state, c.PlaceTiles(board("H6", "across", "KOT"))).code == "no_board"
    state = play(state, c.RecordMove(typed=(word("DŹWIG"),)))  # TV-PL-11: typed still works
    assert state.game is not None and state.game.totals == (12, 0)


# --- typed moves (TYP, BNG-05) ---


def test_typed_move_with_more_than_seven_new_tiles_refused() -> None:
    # TV-D-07: SPÓŹNIŁY with no tile marked old.
    refused = refusal(start("pl", "pfs"), c.RecordMove(typed=(word("SPÓŹNIŁY"),)))
    assert refused.code == "too_many_new_tiles"
    assert refused.params == {"count": 8, "rack_size": 7}


def test_typed_move_with_an_old_tile_marked_is_recorded() -> None:
    # TV-PL-07: S and Y on 3W, Ź on 2L, the P marked old: 297 + 50 = 347.
    move = word("SPÓŹNIŁY", ".o", {0: "3W", 3: "2L", 7: "3W"})
    state = play(start("pl", "pfs"), c.RecordMove(typed=(move,)))
    assert state.game is not None and state.game.totals == (347, 0)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        pytest.param(c.RecordMove(), "no_move", id="nothing"),
        pytest.param(c.RecordMove(PLANK, (word("AB"),)), "no_move", id="both"),
        pytest.param(
            c.RecordMove(typed=(word("AB", premiums={0: "4W"}),)), "bad_premium", id="bad-premium"
        ),
        pytest.param(c.RecordMove(typed=(word("AB"),) * 9), "too_many_words", id="TV-D-27"),
        pytest.param(c.RecordMove(typed=(word("A" * 16, "o" * 9),)), "word_too_long", id="TV-D-26"),
        pytest.param(c.RecordMove(typed=((),)), "empty_word", id="empty-word"),
        pytest.param(c.RecordMove(typed=(word("A1"),)), "invalid_character", id="TV-D-06"),
    ],
)
def test_record_move_refuses_bad_typed_moves(command: c.TableCommand, code: str) -> None:
    assert refusal(start(), command).code == code


def test_literaki_refuses_a_letter_premium_it_does_not_offer() -> None:
    command = c.RecordMove(typed=(word("KOT", premiums={0: "2L"}),))
    assert refusal(start("pl-literaki"), command).code == "premium_not_offered"


# --- who and what ---


def test_no_game_yet() -> None:
    for command in (
        c.NewGame(),
        c.Undo(),
        c.Pass(),
        c.EnterPoints(10),
        c.RecordMove(PLANK),
        c.GivePenalty(0, 10),
        c.EndGame(),
        c.RecordTop(points=5),
        c.StartClock(),
        c.PlaceTiles(PLANK),
        c.ClearBoard(),
        c.CorrectCell(0, 0, 5),
    ):
        refused = refusal(State(), command)
        assert refused.code == "no_game", command


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(c.EnterPoints(10, player=2), id="points"),
        pytest.param(c.Pass(player=-1), id="pass"),
        pytest.param(c.Exchange(player=5), id="exchange"),
        pytest.param(c.WithdrawWord(player=2), id="withdraw"),
        pytest.param(c.GivePenalty(3, 10), id="penalty"),
        pytest.param(c.RecordMove(PLANK, player=2), id="move"),
    ],
)
def test_unknown_player_refused(command: c.TableCommand) -> None:
    refused = refusal(start(), command)
    assert refused.code == "no_such_player"
    assert refused.params["player"] not in (0, 1)


def test_unknown_player_refused_in_duplicate() -> None:
    state = duplicate()
    assert refusal(state, c.EnterPoints(10, player=2)).code == "no_such_player"
    assert refusal(state, c.CorrectCell(0, 2, 10)).code == "no_such_player"


@pytest.mark.parametrize(
    ("command", "code"),
    [
        pytest.param(c.StartGame("nl", starter=2), "no_such_player", id="starter"),
        pytest.param(c.StartGame("nl", players=()), "player_count", id="no-players"),
        pytest.param(c.StartGame("nl", players=(None,) * 5), "player_count", id="five"),
        pytest.param(c.StartGame("nl", players=(None,)), "player_count", id="classic-alone"),
        pytest.param(c.StartGame("nl", players=("x" * 41, None)), "name_too_long", id="name"),
        pytest.param(c.StartGame("xx"), "unknown_edition", id="edition"),
        pytest.param(c.StartGame("nl", rules="pro"), "unknown_rules", id="rules"),
        pytest.param(
            c.StartGame("nl", rules="duplicate"), "rules_not_for_mode", id="duplicate-rules-classic"
        ),
        pytest.param(
            c.StartGame("nl", mode="duplicate", players=(None,) * 201),
            "player_count",
            id="duplicate-201",
        ),
    ],
)
def test_start_game_refusals(command: c.StartGame, code: str) -> None:
    assert refusal(State(), command).code == code


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_duplicate_seats_one_to_four(players: int) -> None:
    # DUP-03: a single player plays against the tops.
    state = duplicate(players)
    assert state.game is not None
    assert state.game.mode == "duplicate"
    assert state.game.rules is rulesets.DUPLICATE
    assert len(state.game.rounds[0].scores) == players


def test_start_game_blank_names_are_default_names() -> None:
    state, _ = record(State(), c.StartGame("nl", players=("  Anna ", "", None)))
    assert state.game is not None and state.game.players == ("Anna", None, None)


# --- mode ---


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(c.RecordTop(points=24), id="record_top"),
        pytest.param(c.CorrectCell(0, 0, 10), id="correct_cell"),
        pytest.param(c.StartClock(), id="start_clock"),
        pytest.param(c.PauseClock(), id="pause_clock"),
        pytest.param(c.ResetClock(2), id="reset_clock"),
    ],
)
def test_duplicate_commands_refused_in_classic(command: c.TableCommand) -> None:
    refused = refusal(start(), command)
    assert refused.code == "not_in_mode"
    assert refused.params == {"mode": "classic"}


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(c.Pass(), id="pass"),
        pytest.param(c.Exchange(), id="exchange"),
        pytest.param(c.WithdrawWord(), id="withdraw_word"),
    ],
)
def test_classic_commands_refused_in_duplicate(command: c.TableCommand) -> None:
    refused = refusal(duplicate(), command)
    assert refused.code == "not_in_mode"
    assert refused.params == {"mode": "duplicate"}


# --- duplicate cells and rounds ---


def test_score_without_player_fills_the_first_empty_cell() -> None:
    # DUP-08: '+28 voor Speler 1', then the next empty cell.
    state = duplicate(3)
    state = play(state, c.EnterPoints(10, player=1))
    assert decide(state, c.EnterPoints(28)) == (e.PointsEntered(0, 28),)
    state = play(state, c.EnterPoints(28))
    (event,) = decide(state, c.RecordMove(PLANK))
    assert isinstance(event, e.MoveRecorded) and event.player == 2
    state = play(state, c.RecordMove(PLANK))
    refused = refusal(state, c.EnterPoints(5))
    assert refused.code == "round_full"
    refused = refusal(state, c.RecordMove(PLANK))
    assert refused.code == "round_full"
    # a named player may still be corrected in the open round
    state = play(state, c.EnterPoints(12, player=1))
    assert state.game is not None and state.game.rounds[0].scores == (28, 12, 28)


def test_round_full_only_until_the_top_opens_the_next() -> None:
    state = play(duplicate(1), c.EnterPoints(20))
    assert refusal(state, c.EnterPoints(5)).code == "round_full"
    state = play(state, c.RecordTop(points=24), c.EnterPoints(5))
    assert state.game is not None and [r.scores for r in state.game.rounds] == [(20,), (5,)]


@pytest.mark.parametrize("index", [-1, 1, 7])
def test_correct_cell_refuses_a_round_that_does_not_exist(index: int) -> None:
    refused = refusal(duplicate(), c.CorrectCell(index, 0, 10))
    assert refused.code == "no_such_round"
    assert refused.params == {"round": index}


def test_correct_cell_reaches_every_round_that_exists() -> None:
    state = play(duplicate(), c.RecordTop(points=24), c.RecordTop(points=36))
    for index in (0, 1, 2):
        assert decide(state, c.CorrectCell(index, 1, 9)) == (e.CellCorrected(index, 1, 9),)
    assert refusal(state, c.CorrectCell(3, 1, 9)).code == "no_such_round"


def test_record_top_is_a_move_or_points_not_both() -> None:
    assert refusal(duplicate(), c.RecordTop(PLANK, points=28)).code == "no_move"
    assert refusal(duplicate(), c.RecordTop()).code == "no_move"


# --- round clock (P-41): server time enters as data ---


def test_clock_start_pause_resume_reset() -> None:
    state = duplicate()
    state, log = record(state, c.StartClock(), at=1_000)
    assert log[0].event == e.ClockStarted(1_000, 180_000)
    assert refusal(state, c.StartClock()).code == "clock_running"
    state, log = record(state, c.PauseClock(), at=31_000)
    assert log[0].event == e.ClockPaused(31_000)
    assert refusal(state, c.PauseClock()).code == "clock_not_running"
    state, log = record(state, c.StartClock(), at=50_000)
    assert log[0].event == e.ClockStarted(50_000, 150_000)
    state, log = record(state, c.ResetClock(1), at=60_000)
    assert log[0].event == e.ClockReset(60)
    state, log = record(state, c.StartClock(), at=70_000)
    assert log[0].event == e.ClockStarted(70_000, 60_000)


def test_clock_pause_before_start_refused() -> None:
    refused = refusal(duplicate(), c.PauseClock())
    assert refused.code == "clock_not_running"


def test_clock_run_out_starts_a_new_count() -> None:
    state, _ = record(duplicate(), c.StartClock(), at=0)
    state, _ = record(state, c.PauseClock(), at=999_000)  # long past zero
    assert state.game is not None and state.game.clock is not None
    assert state.game.clock.remaining == 0
    _, log = record(state, c.StartClock(), at=1_000_000)
    assert log[0].event == e.ClockStarted(1_000_000, 180_000)


# --- undo (P-30) ---


def test_nothing_to_undo() -> None:
    assert refusal(start(), c.Undo()).code == "nothing_to_undo"
    state = play(start(), c.Pass(), c.Undo())
    assert refusal(state, c.Undo()).code == "nothing_to_undo"


def test_tiles_placed_without_score_are_not_a_line_to_undo() -> None:
    state = play(start(), c.PlaceTiles(PLANK))
    assert refusal(state, c.Undo()).code == "nothing_to_undo"
    state = play(state, c.ClearBoard())
    assert refusal(state, c.Undo()).code == "nothing_to_undo"


def test_undo_names_the_latest_standing_line() -> None:
    state = play(start(), c.Pass(), c.GivePenalty(1, 10))  # lines 2 and 3
    state = play(state, c.PlaceTiles(board("H8", "down", "AS")))  # 4: not a line
    assert decide(state, c.Undo()) == (e.LineUndone(3),)
    state = play(state, c.Undo())  # seq 5
    assert decide(state, c.Undo()) == (e.LineUndone(2),)


def test_nothing_to_clear() -> None:
    assert refusal(start(), c.ClearBoard()).code == "nothing_to_clear"
    state = play(start(), c.RecordMove(PLANK))
    assert refusal(state, c.ClearBoard()).code == "nothing_to_clear"


@pytest.mark.parametrize(
    ("mode", "rules", "judged"),
    [("classic", "house", False), ("duplicate", "duplicate", True), ("online", "online", True)],
)
def test_judges_words_only_where_a_word_list_may_be_asked(
    mode: Mode, rules: str, judged: bool
) -> None:
    assert judges_words(State(), c.StartGame("woordstrijd", mode, rules))
    started = e.GameStarted("woordstrijd", mode, rules, ("Ann", "Bob"), seed="s" * 32)
    state = replay([e.Recorded(1, started)])
    for later in (c.EnterPoints(12), c.Pass(), c.Undo(), c.NewGame()):
        assert judges_words(state, later) is judged
