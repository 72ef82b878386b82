"""Seats belong to devices (rules/table/seating.py): a free seat is taken at once, a taken one by
the same phone again or with the host's approval; seats beyond the players do not exist."""

import pytest

from editions.errors import GameError
from events import commands as c
from events.events import DeviceAdmitted, DeviceJoined, DeviceRemoved, Recorded
from rules.table.record import record
from rules.table.reducer import replay
from rules.table.seating import decide, join, taken
from rules.table.state import State


def started(players: int = 2) -> State:
    state, _ = record(State(), c.StartGame("nl", players=(None,) * players))
    return state


def joined(state: State, *events: object) -> State:
    log = [Recorded(state.seq + i, e, at=100 + i) for i, e in enumerate(events, 1)]  # type: ignore[arg-type]
    return replay(log, state)


def test_a_free_seat_is_taken_at_once() -> None:
    assert join(started(), "d1", "player", 1, "k1") == (DeviceJoined("d1", "player", 1, "k1"),)


def test_a_taken_seat_asked_for_by_another_phone_waits_for_the_host() -> None:
    state = joined(started(), DeviceJoined("d1", "player", 1, "k1"))
    assert join(state, "d2", "player", 1, "k2") == (
        DeviceJoined("d2", "player", 1, "k2", admitted=False),
    )


def test_the_same_phone_comes_back_to_its_seat_and_its_old_entry_goes() -> None:
    state = joined(started(), DeviceJoined("d1", "player", 1, "k1"))
    assert join(state, "d2", "player", 1, "k1") == (
        DeviceRemoved("d1"),
        DeviceJoined("d2", "player", 1, "k1"),
    )


def test_a_phone_without_a_key_never_counts_as_the_same_phone() -> None:
    state = joined(started(), DeviceJoined("d1", "player", 1, ""))
    assert join(state, "d2", "player", 1, "")[0].admitted is False  # type: ignore[attr-defined]


@pytest.mark.parametrize("seat", [2, 3, -1, None])
def test_seats_beyond_the_players_do_not_exist(seat: int | None) -> None:
    with pytest.raises(GameError) as refused:
        join(started(2), "d1", "player", seat, "k")
    assert (refused.value.code, refused.value.params) == (
        "no_such_seat",
        {"seat": seat, "seats": 2},
    )


def test_before_the_first_game_there_are_no_seats_but_viewers_are_welcome() -> None:
    with pytest.raises(GameError):
        join(State(), "d1", "player", 0, "k")
    assert join(State(), "d1", "viewer", None, "k") == (DeviceJoined("d1", "viewer"),)


def test_the_host_admits_or_removes_a_device_and_the_seating_follows() -> None:
    state = joined(
        started(),
        DeviceJoined("d1", "player", 0, "k1"),
        DeviceJoined("d2", "player", 0, "k2", admitted=False),
    )
    assert taken(state) == (True, False)
    admitted = joined(state, decide(state, c.AdmitDevice("d2")))
    assert [(m.id, m.admitted, m.since) for m in admitted.seating.members] == [
        ("d1", True, 101),
        ("d2", True, 102),
    ]
    removed = joined(admitted, decide(admitted, c.RemoveDevice("d1")))
    assert [m.id for m in removed.seating.members] == ["d2"]
    with pytest.raises(GameError) as refused:
        decide(removed, c.RemoveDevice("d1"))
    assert refused.value.code == "unknown_device"


def test_the_seating_outlasts_games_and_undo() -> None:
    state = joined(started(), DeviceJoined("d1", "player", 0, "k1"), DeviceAdmitted("d1"))
    state, _ = record(state, c.EnterPoints(5, turn=c.Turn(1, 0, 0)))
    state, _ = record(state, c.Undo())
    state, _ = record(state, c.NewGame())
    state, _ = record(state, c.SetWriters("scorekeeper"))
    assert [m.id for m in state.seating.members] == ["d1"]
    assert state.seating.writers == "scorekeeper"


def test_starting_a_game_with_a_setting_records_it_once() -> None:
    state, log = record(State(), c.StartGame("nl", writers="scorekeeper"))
    assert [type(r.event).__name__ for r in log] == ["GameStarted", "WritersSet"]
    _, again = record(state, c.StartGame("nl", writers="scorekeeper"))
    assert [type(r.event).__name__ for r in again] == ["GameStarted"]
