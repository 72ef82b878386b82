"""Who may write in a duplicate room: a player's phone only its own slip, the director the
rest; a duplicate sheet at a table (no racks) keeps every cell its seat's (DUP-04)."""

import pytest

from editions import codebook
from events import commands as c
from rules.errors import GameError
from rules.table.permissions import Actor
from tests.rules.room.rooms import HOST, Room, plank_room

ANN = Actor("player", 0, "d0")


def turn(room: Room, player: int = 0) -> c.Turn:
    return room.turn(player)


#: Every write a hostile player's phone may try in a room (round 2 open, the K of PLANK on
#: H8), and the refusal it gets: the director's acts are ``host_only``, a write of a cell, a
#: line or the board ``slip_only``. The probe that found them had 9 of 79 accepted.
FORBIDDEN = [
    ("own cell as points", lambda r: c.EnterPoints(2000, turn=turn(r)), codebook.SLIP_ONLY),
    ("points for the first empty cell", lambda r: c.EnterPoints(12), codebook.SLIP_ONLY),
    (
        "a typed ZZZ on a 3W",
        lambda r: c.RecordMove(typed=((c.TypedLetter("Z", "3W"),) * 3,), turn=turn(r)),
        codebook.SLIP_ONLY,
    ),
    (
        "a board move as its score",
        lambda r: c.RecordMove(c.BoardMove("H8", "down", "KRAAN"), turn=turn(r)),
        codebook.SLIP_ONLY,
    ),
    ("its own judged cell", lambda r: c.CorrectCell(0, 0, 2000), codebook.SLIP_ONLY),
    ("another seat's cell", lambda r: c.CorrectCell(0, 1, 2000), codebook.SLIP_ONLY),
    ("the top", lambda r: c.CorrectCell(0, None, 1), codebook.SLIP_ONLY),
    ("a top of its own", lambda r: c.RecordTop(points=1, round=1), codebook.HOST_ONLY),
    ("a penalty", lambda r: c.GivePenalty(1, -10), codebook.HOST_ONLY),
    ("an undo", lambda r: c.Undo(), codebook.SLIP_ONLY),
    (
        "tiles on the board",
        lambda r: c.PlaceTiles(c.BoardMove("A1", "across", "EN")),
        codebook.SLIP_ONLY,
    ),
    ("the board cleared", lambda r: c.ClearBoard(), codebook.SLIP_ONLY),
    ("the clock started", lambda r: c.StartClock(), codebook.HOST_ONLY),
    ("the clock paused", lambda r: c.PauseClock(), codebook.HOST_ONLY),
    ("the clock reset", lambda r: c.ResetClock(1), codebook.HOST_ONLY),
    ("a rack drawn", lambda r: c.DrawRack(1), codebook.HOST_ONLY),
    ("a rack typed", lambda r: c.SetRack("EEN", round=1), codebook.HOST_ONLY),
    ("the round closed", lambda r: c.CloseRound(1), codebook.HOST_ONLY),
    ("the game ended", lambda r: c.EndGame(), codebook.HOST_ONLY),
    ("a pass", lambda r: c.Pass(turn=turn(r)), codebook.SLIP_ONLY),
    (
        "another seat's slip",
        lambda r: c.SubmitSlip("KAN", "H8", "down", turn=turn(r, 1)),
        codebook.NOT_YOUR_SEAT,
    ),
    (
        "a slip named for another seat",
        lambda r: c.SubmitSlip("KAN", "H8", "down", player=1),
        codebook.NOT_YOUR_SEAT,
    ),
]


@pytest.mark.parametrize("writers", ["own_seat", "scorekeeper"])  # even Ann as scorekeeper
@pytest.mark.parametrize(
    ("asked", "code"),
    [(asked, code) for _, asked, code in FORBIDDEN],
    ids=[name for name, _, _ in FORBIDDEN],
)
def test_a_players_phone_in_a_room_writes_nothing_but_its_slip(
    asked: object, code: str, writers: str
) -> None:
    room = plank_room()
    room(c.SetWriters(writers), HOST)
    room.slip(0, "KAN", "H8")
    before = list(room.log)
    with pytest.raises(GameError) as refused:
        room(asked(room), ANN)
    assert refused.value.code == code
    assert room.log == before


def test_the_director_types_a_paper_slip_and_corrects_a_judged_cell() -> None:
    room = plank_room()
    room.slip(0, "KAN", "H8")
    room(c.SubmitSlip("KRAAN", "H8", "down", player=2), HOST)  # a player without a phone
    room(c.CloseRound(1), HOST)
    assert room.game.rounds[1].scores[2] > room.game.rounds[1].scores[0] > 0
    room(c.CorrectCell(1, 1, 12), HOST)
    assert room.game.rounds[1].scores[1] == 12


def test_a_player_hands_in_and_replaces_its_own_slip() -> None:
    room = plank_room()
    room.slip(0, "KAN", "H8")
    room.slip(0, "KRAAN", "H8")
    assert [(s.player, s.word) for s in room.game.slips] == [(0, "KRAAN")]


@pytest.mark.parametrize(
    "command",
    [c.EnterPoints(24, turn=c.Turn(1, 0, 0)), c.CorrectCell(0, 0, 30)],
    ids=["points", "correction"],
)
def test_a_duplicate_sheet_without_racks_keeps_every_cell_its_seats(
    command: c.TableCommand,
) -> None:
    """DUP-04: at a table, where nobody draws racks, each seat writes its own cell."""
    room = Room()
    room(command, ANN)
    assert room.game.rounds[0].scores[0] in (24, 30)


def test_a_slip_waits_while_the_director_has_paused_the_round_clock() -> None:
    room = plank_room()
    room(c.StartClock(), HOST)
    room.at += 30_000
    room(c.PauseClock(), HOST)
    room.at += 60_000
    with pytest.raises(GameError) as refused:
        room.slip(0, "KAN", "H8")
    assert refused.value.code == codebook.CLOCK_PAUSED
    room(c.StartClock(), HOST)
    room.slip(0, "KAN", "H8")
    assert [(s.player, s.late) for s in room.game.slips] == [(0, False)]


def test_a_slip_without_the_clock_started_is_on_time() -> None:
    room = plank_room()
    room.slip(0, "KAN", "H8")
    assert [s.late for s in room.game.slips] == [False]
