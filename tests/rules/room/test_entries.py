"""A room's players: registering by name on their own phones, late entries up to the round the
director sets, the director adding, renaming and taking out players, and a room of 200."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events import commands as c
from events.events import (
    DeviceJoined,
    DeviceRemoved,
    GameStarted,
    PlayerAdded,
    PlayerRemoved,
    Recorded,
)
from rules.errors import GameError
from rules.room.view import standings
from rules.table import seating
from rules.table.permissions import Actor
from rules.table.reducer import evolve, replay
from rules.table.state import State
from tests.rules.room.rooms import HOST, Room, plank_room


def empty_room(names: tuple[str, ...] = ()) -> Room:
    """A room the director opened with ``names`` typed (none: everybody registers)."""
    room = Room()
    room.log = [Recorded(1, GameStarted("nl", "duplicate", "duplicate", names))]
    room.state = replay(room.log)
    return room


def register(room: Room, device: str, name: str, key: str = "") -> int:
    """Register ``device`` by ``name`` as the server does; the seat it got."""
    for event in seating.join(room.state, device, "player", None, key or device, name):
        room.log.append(Recorded(len(room.log) + 1, event, device=device))
        room.state = evolve(room.state, room.log[-1])
    member = room.state.seating.member(device)
    assert member is not None and member.seat is not None
    return member.seat


def refused(room: Room, device: str, name: str, key: str = "") -> str:
    with pytest.raises(GameError) as refusal:
        seating.join(room.state, device, "player", None, key or device, name)
    return refusal.value.code


def test_a_room_opens_empty_and_its_players_register_by_name() -> None:
    room = empty_room()
    assert room.game.players == ()
    assert [register(room, f"d{i}", name) for i, name in enumerate(("Ann", "Bob"))] == [0, 1]
    assert room.game.players == ("Ann", "Bob")
    assert room.game.rounds[-1].scores == (None, None)


def test_a_name_the_director_typed_is_that_players_seat_whatever_its_case() -> None:
    room = empty_room(("Ann", "Bob"))
    assert register(room, "d1", "  bob ") == 1
    assert room.game.players == ("Ann", "Bob")


def test_a_name_another_phone_holds_is_refused_and_the_same_phone_gets_its_seat_back() -> None:
    room = empty_room()
    register(room, "d1", "Ann", key="k1")
    assert refused(room, "d2", "ANN", key="k2") == "name_taken"
    assert register(room, "d3", "whatever", key="k1") == 0  # the same phone, a new session
    assert room.state.seating.member("d1") is None
    assert room.game.players == ("Ann",)


@pytest.mark.parametrize(
    ("name", "code"),
    [("", "name_missing"), ("   ", "name_missing"), ("x" * 41, "name_too_long")],
)
def test_a_name_is_needed_and_short(name: str, code: str) -> None:
    assert refused(empty_room(), "d1", name) == code


def test_a_late_entry_counts_zero_for_the_rounds_closed_before_it() -> None:
    room = plank_room()  # round 1 closed, round 2 open with its rack
    seat = register(room, "d9", "Dirk")
    assert seat == 3
    assert [r.scores[seat] for r in room.game.rounds] == [0, None]
    assert room.game.totals[seat] == 0


def test_entries_close_after_the_round_the_director_sets() -> None:
    room = plank_room()  # round 2 open
    room(c.SetEntries(1), HOST)
    assert refused(room, "d9", "Dirk") == "entries_closed"
    room(c.SetEntries(2), HOST)
    assert register(room, "d9", "Dirk") == 3
    room(c.SetEntries(0), HOST)
    assert refused(room, "d8", "Els") == "entries_closed"
    assert register(room, "d10", "dirk", key="d9") == 3  # a registered player comes back


def test_a_room_holds_what_its_rule_set_allows() -> None:
    room = empty_room(tuple(f"P{i}" for i in range(199)))
    assert register(room, "d199", "Last") == 199
    assert refused(room, "d200", "One too many") == "room_full"
    with pytest.raises(GameError, match="200") as refusal:
        room(c.AddPlayer("Extra"), HOST)
    assert refusal.value.code == "room_full"


def test_the_director_adds_renames_and_takes_out_players() -> None:
    room = plank_room()
    room(c.AddPlayer("Dirk"), HOST)
    room(c.RenamePlayer(1, "Bob B"), HOST)
    assert room.game.players == ("Ann", "Bob B", "Cas", "Dirk")
    with pytest.raises(GameError) as same:
        room(c.RenamePlayer(0, "dirk"), HOST)
    assert same.value.code == "name_taken"
    room(c.RemovePlayer(2), HOST)
    assert room.game.left == (2,)
    assert [s.player for s in standings(room.game)] == [0, 1, 3]
    with pytest.raises(GameError) as again:
        room(c.RemovePlayer(2), HOST)
    assert again.value.code == "player_removed"


def test_a_player_taken_out_loses_their_phones_their_slip_and_their_place_in_the_close() -> None:
    room = plank_room()
    register(room, "phone", "cas")  # Cas's phone
    room.slip(2, "KRAAN", "H8")
    events = room(c.RemovePlayer(2), HOST)
    assert events == (PlayerRemoved(2), DeviceRemoved("phone"))
    assert room.game.slips == ()
    room(c.CloseRound(round=1), HOST)
    assert [r.player for r in room.game.rounds[1].results] == [0, 1]
    assert room.game.rounds[1].scores[2] is None
    with pytest.raises(GameError) as slip:
        room(c.SubmitSlip("KAN", "H8", "down", player=2))
    assert slip.value.code == "player_removed"


@pytest.mark.parametrize(
    "command",
    [c.AddPlayer("Eve"), c.RenamePlayer(0, "Eve"), c.RemovePlayer(1), c.SetEntries(9)],
    ids=["add", "rename", "remove", "entries"],
)
def test_a_players_phone_may_not_manage_the_room(command: c.TableCommand) -> None:
    room = plank_room()
    with pytest.raises(GameError) as refusal:
        room(command, Actor("player", 0, "d0"))
    assert refusal.value.code == "host_only"


def test_registering_by_name_is_for_a_duplicate_room() -> None:
    state = replay([Recorded(1, GameStarted("nl", "classic", "house", ("A", "B")))])
    with pytest.raises(GameError) as refusal:
        seating.join(state, "d1", "player", None, "k", "Ann")
    assert refusal.value.code == "no_registration"
    with pytest.raises(GameError) as none:
        seating.join(State(), "d1", "player", None, "k", "Ann")
    assert none.value.code == "no_registration"


def test_a_registration_is_one_append_of_the_player_and_the_device() -> None:
    room = empty_room()
    events = seating.join(room.state, "d1", "player", None, "k", "Ann")
    assert events == (PlayerAdded("Ann"), DeviceJoined("d1", "player", 0, "k"))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("join"), st.sampled_from(["Ann", "Bob", "Cas", "Dirk", "Els"])),
            st.tuples(st.just("remove"), st.integers(0, 5)),
            st.tuples(st.just("close"), st.integers(0, 60)),
        ),
        max_size=25,
    )
)
def test_every_round_has_a_cell_per_player_and_the_standings_the_players_still_in(
    acts: list[tuple[str, object]],
) -> None:
    room = empty_room()
    for i, (act, value) in enumerate(acts):
        try:
            if act == "join":
                register(room, f"d{i}", str(value))
            elif act == "remove":
                room(c.RemovePlayer(int(str(value))), HOST)
            else:
                room(c.RecordTop(points=int(str(value)), round=len(room.game.rounds) - 1), HOST)
        except GameError:
            continue
    game = room.game
    assert all(len(r.scores) == len(game.players) for r in game.rounds)
    assert len(game.totals) == len(game.players)
    in_room = [p for p in range(len(game.players)) if p not in game.left]
    assert [s.player for s in standings(game)] == in_room
    assert replay(room.log) == room.state


def test_once_players_register_a_players_phone_writes_only_its_slip_before_any_draw() -> None:
    room = empty_room()
    register(room, "d0", "Ann")
    turn = c.Turn(room.game.started, 0, 0)
    with pytest.raises(GameError) as refusal:
        room(c.EnterPoints(2000, turn=turn), Actor("player", 0, "d0"))
    assert refusal.value.code == "slip_only"
