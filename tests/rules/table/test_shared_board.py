"""The shared board belongs to the turn (rules/table/permissions.py ``check_turn_sheet``, issue
27): at a classic table tiles without a score are laid, and cleared, by the player to move or
the host (one scorekeeper writes every line, and lays for anyone); every other seat is
refused ``not_your_board`` naming whose turn it is. The laying records who laid it, and the
view keeps each laying with its player until the board is cleared."""

import pytest

from editions.errors import GameError
from events import commands as c
from events.events import BoardCleared, DeviceJoined, PlacedTile, Recorded, TilesPlaced
from rules.table.permissions import Actor
from rules.table.record import record
from rules.table.reducer import evolve
from rules.table.state import Laying, State
from rules.table.views import view

HOST = Actor("host", None, "host")
ANNA, BAS, CAS = (Actor("player", seat, f"d{seat}") for seat in range(3))
VIEWER = Actor("viewer", None, "d-room")
KAT = c.PlaceTiles(c.BoardMove("H8", "across", "KAT"))


def table(writers: str = "own_seat", to_move: int = 0, host_seat: int | None = None) -> State:
    """Anna, Bas and Cas seated at a classic table, ``to_move`` to play."""
    start = c.StartGame("nl", players=("Anna", "Bas", "Cas"), host_seat=host_seat)
    state, _ = record(State(), start)
    for seat in range(3):
        state = evolve(state, Recorded(state.seq + 1, DeviceJoined(f"d{seat}", "player", seat)))
    state, _ = record(state, c.SetWriters(writers))  # type: ignore[arg-type]
    for player in range(to_move):
        state, _ = record(state, c.Pass(turn=c.Turn(1, player, 0)))
    return state


def refusal(state: State, actor: Actor, command: c.TableCommand) -> tuple[str, dict] | None:
    try:
        record(state, command, actor=actor, device=actor.device)
    except GameError as error:
        return error.code, error.params
    return None


#: (the setting, whose turn, who lays) → the refusal, or None: laid.
CASES = [
    ("own_seat", 0, ANNA, None),
    ("own_seat", 0, BAS, ("not_your_board", {"to_move": 0})),
    ("own_seat", 0, CAS, ("not_your_board", {"to_move": 0})),
    ("own_seat", 1, BAS, None),
    ("own_seat", 1, ANNA, ("not_your_board", {"to_move": 1})),
    ("own_seat", 2, ANNA, ("not_your_board", {"to_move": 2})),
    ("own_seat", 1, HOST, None),  # the host lays on anybody's turn
    ("own_seat", 2, VIEWER, ("viewer_read_only", {})),
    ("scorekeeper", 0, BAS, None),  # one phone keeps the sheet: it writes every line
    ("scorekeeper", 2, ANNA, None),
]


@pytest.mark.parametrize(("writers", "to_move", "actor", "refused"), CASES)
def test_tiles_without_a_score_belong_to_the_turn(
    writers: str, to_move: int, actor: Actor, refused: tuple[str, dict] | None
) -> None:
    assert refusal(table(writers, to_move), actor, KAT) == refused


@pytest.mark.parametrize(("writers", "to_move", "actor", "refused"), CASES)
def test_clearing_the_board_belongs_to_the_turn(
    writers: str, to_move: int, actor: Actor, refused: tuple[str, dict] | None
) -> None:
    laid, _ = record(table(writers, to_move), KAT)  # laid by the host
    assert refusal(laid, actor, c.ClearBoard()) == refused


@pytest.mark.parametrize(
    ("actor", "player"),
    [(ANNA, 0), (HOST, None), (Actor("host", 0, "host"), 0)],  # the host playing Anna
)
def test_a_laying_records_who_laid_it(actor: Actor, player: int | None) -> None:
    _, log = record(table(host_seat=actor.seat), KAT, actor=actor, device=actor.device)
    assert [r.event for r in log] == [
        TilesPlaced((PlacedTile("H8", "K"), PlacedTile("H9", "A"), PlacedTile("H10", "T")), player)
    ]


def test_every_phone_sees_each_laying_with_its_player_until_the_board_is_cleared() -> None:
    state, _ = record(table(), KAT, actor=ANNA, device="d0")
    state, _ = record(state, c.Pass(turn=c.Turn(1, 0, 0)))
    state, _ = record(state, c.PlaceTiles(c.BoardMove("I9", "down", "EN")), actor=BAS)
    expected = (Laying(0, ("H8", "H9", "H10")), Laying(1, ("I9", "J9")))
    for audience in ("host", "member"):
        sheet = view(state, audience).sheet  # type: ignore[arg-type]
        assert sheet is not None and sheet.laid == expected
        assert sorted(sheet.unscored) == sorted(["H8", "H9", "H10", "I9", "J9"])
    # Bas clears on his turn: every laying goes, Anna's too, and the view says none is left.
    cleared, log = record(state, c.ClearBoard(), actor=BAS, device="d1")
    assert [r.event for r in log] == [BoardCleared()]
    sheet = view(cleared).sheet
    assert sheet is not None and sheet.laid == () and sheet.unscored == ()


def test_the_board_moves_on_with_the_turn() -> None:
    """Anna may lay on her turn; once her turn is recorded the board is Bas's, and she is
    told so with his seat."""
    state = table()
    assert refusal(state, ANNA, KAT) is None
    state, _ = record(state, c.EnterPoints(12, turn=c.Turn(1, 0, 0)), actor=ANNA)
    assert refusal(state, ANNA, KAT) == ("not_your_board", {"to_move": 1})
    assert refusal(state, BAS, KAT) is None


def test_a_duplicate_table_has_no_turn_to_own_the_board() -> None:
    """In duplicate every seat plays every round: the board is not the turn's there."""
    state, _ = record(State(), c.StartGame("nl", "duplicate", players=("Anna", "Bas")))  # type: ignore[arg-type]
    state = evolve(state, Recorded(state.seq + 1, DeviceJoined("d1", "player", 1)))
    bas = Actor("player", 1, "d1")
    assert refusal(state, bas, KAT) is None
    laid, _ = record(state, KAT, actor=bas, device="d1")
    assert laid.game is not None and laid.game.laid == (Laying(1, ("H8", "H9", "H10")),)
