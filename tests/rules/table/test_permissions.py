"""Who may do what (rules/table/permissions.py): each seat its own lines by default, one scorekeeper
for everybody when the host says so; and a command meant for a turn that was recorded
meanwhile is refused with who recorded it, never applied to the next player."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from editions.errors import GameError
from events import commands as c
from events.events import DeviceJoined, Recorded
from rules.table.permissions import Actor
from rules.table.record import record
from rules.table.reducer import evolve
from rules.table.state import State
from rules.table.views import view

HOST = Actor("host", None, "host")
ANN, BOB = Actor("player", 0, "d-ann"), Actor("player", 1, "d-bob")
VIEWER = Actor("viewer", None, "d-room")
PLANK = c.BoardMove("H4", "across", "PLANK")


def table(mode: str = "classic", writers: str = "own_seat", *lines: c.TableCommand) -> State:
    """Ann and Bob seated at a table whose host started a game and wrote ``lines``."""
    state, _ = record(State(), c.StartGame("nl", mode, players=("Ann", "Bob")))
    for seq, (device, seat) in enumerate((("d-ann", 0), ("d-bob", 1)), state.seq + 1):
        state = evolve(state, Recorded(seq, DeviceJoined(device, "player", seat), at=seq))
    state, _ = record(state, c.SetWriters(writers))  # seq 4: every table's lines start at 5
    for line in lines:
        state, _ = record(state, line, device="host")
    return state


def turn(player: int, number: int = 0) -> c.Turn:
    return c.Turn(1, player, number)


def refusal(state: State, actor: Actor, command: c.TableCommand) -> str | None:
    """The code ``command`` is refused with, or None when it is recorded."""
    try:
        record(state, command, actor=actor, device=actor.device)
    except GameError as error:
        return error.code
    return None


#: (mode, command, the lines before it) of everything a seat may do only for itself or not
#: at all by default, with who owns it: Ann may, Bob may not (own_seat), Bob may (scorekeeper).
OWN_LINES = [
    ("classic", c.EnterPoints(24, turn=turn(0))),
    ("classic", c.Pass(turn=turn(0))),
    ("classic", c.RecordMove(PLANK, turn=turn(0))),
    ("classic", c.Exchange(turn=turn(0))),
    ("classic", c.WithdrawWord(turn=turn(0))),
    ("duplicate", c.EnterPoints(24, turn=turn(0))),
    ("duplicate", c.CorrectCell(0, 0, 20)),
]


@pytest.mark.parametrize(("mode", "command"), OWN_LINES)
def test_a_seat_writes_its_own_lines_and_not_anothers(mode: str, command: c.TableCommand) -> None:
    state = table(mode)
    assert refusal(state, ANN, command) is None
    assert refusal(state, BOB, command) == "not_your_seat"
    assert refusal(table(mode, "scorekeeper"), BOB, command) is None
    assert refusal(state, HOST, command) is None


#: What the default setting leaves to the host, and one scorekeeper may do as well.
ARBITER = [
    ("classic", c.GivePenalty(0, 2000, last_line=0), ()),
    ("duplicate", c.GivePenalty(1, 10, last_line=0), ()),
    ("duplicate", c.RecordTop(points=30, round=0), ()),
    ("duplicate", c.CorrectCell(0, None, 30), ()),
    ("duplicate", c.EndGame(), ()),
    ("classic", c.Undo(last_line=5), (c.EnterPoints(24, turn=turn(0)),)),
    ("classic", c.Undo(last_line=5), (c.GivePenalty(1, 10, last_line=0),)),  # Bob's penalty
    ("duplicate", c.Undo(last_line=5), (c.RecordTop(points=30, round=0),)),
]


@pytest.mark.parametrize(("mode", "command", "before"), ARBITER)
def test_arbiters_acts_stay_with_the_host_unless_one_scorekeeper_keeps_the_sheet(
    mode: str, command: c.TableCommand, before: tuple[c.TableCommand, ...]
) -> None:
    own = table(mode, "own_seat", *before)
    assert refusal(own, BOB, command) in ("host_only", "not_your_seat")
    assert refusal(own, HOST, command) is None
    assert refusal(table(mode, "scorekeeper", *before), BOB, command) is None


#: The host's acts whatever the setting.
DIRECTOR = [
    c.StartGame("nl"),
    c.NewGame(game=1),
    c.SetWriters("scorekeeper"),
    c.AdmitDevice("d-ann"),
    c.RemoveDevice("d-ann"),
    c.StartClock(),
    c.ResetClock(2),
]


@pytest.mark.parametrize("command", DIRECTOR, ids=lambda command: type(command).__name__)
@pytest.mark.parametrize("writers", ["own_seat", "scorekeeper"])
def test_directors_acts_are_the_hosts_in_every_setting(
    writers: str, command: c.TableCommand
) -> None:
    state = table("duplicate", writers)
    assert refusal(state, BOB, command) == "host_only"
    assert refusal(state, HOST, command) is None


@pytest.mark.parametrize("command", [c.Pass(turn=turn(0)), c.Undo(last_line=0), c.ClearBoard()])
def test_a_viewer_writes_nothing(command: c.TableCommand) -> None:
    assert refusal(table("classic", "scorekeeper"), VIEWER, command) == "viewer_read_only"


def test_a_seat_undoes_its_own_last_line_only() -> None:
    state = table("classic", "own_seat", c.EnterPoints(24, turn=turn(0)))
    assert refusal(state, BOB, c.Undo(last_line=5)) == "not_your_seat"
    assert refusal(state, ANN, c.Undo(last_line=5)) is None


def test_a_seat_cannot_strike_a_penalty_given_to_it_nor_a_top() -> None:
    penalised = table("classic", "own_seat", c.GivePenalty(0, 10, last_line=0))
    assert refusal(penalised, ANN, c.Undo(last_line=5)) == "host_only"
    assert view(penalised).sheet.last_line_seat is None  # type: ignore[union-attr]
    own = table("duplicate", "own_seat", c.EnterPoints(24, turn=turn(0)))
    assert view(own).sheet.last_line_seat == 0  # type: ignore[union-attr]
    assert refusal(own, ANN, c.Undo(last_line=5)) is None


def test_a_seat_may_end_a_classic_game_with_everybodys_racks_and_undo_the_end() -> None:
    end = c.EndGame((c.RackLeft("QI"), c.RackLeft()))
    assert refusal(table(), BOB, end) is None
    assert refusal(table("classic", "own_seat", end), BOB, c.Undo(last_line=5)) is None
    assert refusal(table("duplicate", "own_seat", c.EndGame()), BOB, c.Undo(last_line=5)) == (
        "host_only"
    )


def test_a_seat_the_game_no_longer_has_writes_nothing() -> None:
    state = table()
    state, _ = record(state, c.StartGame("nl", players=("Ann",) * 2), device="host")
    assert refusal(state, Actor("player", 3, "d-x"), c.Pass(turn=c.Turn(5, 0, 0))) == (
        "no_such_seat"
    )


# --- the turn a command was meant for ------------------------------------------------------


def test_a_turn_recorded_meanwhile_is_refused_with_who_recorded_it_and_what() -> None:
    state, _ = record(table("classic", "scorekeeper"), c.EnterPoints(24, turn=turn(0)),
                      actor=BOB, device="d-bob")  # fmt: skip
    with pytest.raises(GameError) as refused:
        record(state, c.EnterPoints(24, turn=turn(0)), actor=ANN)
    assert refused.value.code == "turn_taken"
    assert refused.value.params == {
        "player": 0, "kind": "points", "points": 24, "word": "", "by": 1, "by_host": False,
    }  # fmt: skip


def test_a_double_tap_on_pass_passes_one_player_only() -> None:
    state, _ = record(table(), c.Pass(turn=turn(0)), actor=ANN, device="d-ann")
    with pytest.raises(GameError) as refused:
        record(state, c.Pass(turn=turn(0)), actor=ANN, device="d-ann")
    assert (refused.value.code, refused.value.params["kind"]) == ("turn_taken", "pass")
    assert state.game is not None and state.game.turns == (1, 0)


def test_a_move_taken_by_the_host_names_its_word() -> None:
    state = table("classic", "own_seat", c.RecordMove(PLANK, turn=turn(0)))
    with pytest.raises(GameError) as refused:
        record(state, c.EnterPoints(28, turn=turn(0)), actor=ANN)
    params = refused.value.params
    assert (params["kind"], params["word"], params["points"]) == ("move", "PLANK", 28)
    assert (params["by"], params["by_host"]) == (None, True)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (c.Pass(turn=turn(1)), "not_to_move"),  # Bob's turn does not come before Ann's
        (c.Pass(turn=c.Turn(99, 0, 0)), "game_changed"),
        (c.Undo(last_line=2), "sheet_changed"),
        (c.GivePenalty(0, 5, last_line=2), "sheet_changed"),
        (c.NewGame(game=99), "game_changed"),
    ],
)
def test_a_command_for_what_the_table_no_longer_is_is_refused(
    command: c.TableCommand, code: str
) -> None:
    state = table("classic", "own_seat", c.EnterPoints(10, turn=turn(0)))
    state, _ = record(state, c.Undo(last_line=5))
    assert refusal(state, HOST, command) == code


def test_duplicate_a_cell_filled_or_a_round_closed_or_not_begun_is_refused() -> None:
    state = table("duplicate", "own_seat", c.EnterPoints(24, turn=turn(0)))
    assert refusal(state, ANN, c.EnterPoints(30, turn=turn(0))) == "turn_taken"
    state, _ = record(state, c.RecordTop(points=40, round=0))
    assert refusal(state, ANN, c.EnterPoints(30, turn=turn(0, 0))) == "round_closed"
    assert refusal(state, HOST, c.RecordTop(points=40, round=0)) == "round_closed"
    assert refusal(state, HOST, c.RecordTop(points=40, round=2)) == "round_not_open"
    assert refusal(state, ANN, c.EnterPoints(30, turn=turn(0, 1))) is None


@given(st.lists(st.sampled_from([ANN, BOB, HOST]), min_size=1, max_size=12))
def test_taps_for_the_same_turn_record_it_once_whoever_taps(tappers: list[Actor]) -> None:
    # However many phones tap for Ann's first turn, and in whatever order, one line is written.
    state = table("classic", "scorekeeper")
    for tapper in tappers:
        try:
            state, _ = record(state, c.EnterPoints(7, turn=turn(0)), actor=tapper)
        except GameError as error:
            assert error.code == "turn_taken"
    assert state.game is not None and len(state.game.lines) == 1
    assert state.game.totals == (7, 0)
