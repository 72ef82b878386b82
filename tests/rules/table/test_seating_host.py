"""The host's own seat and the names devices give themselves (rules/table/seating.py, issue 27):
at a physical table the host's device holds the seat it named at the start — taken like any
other, so no phone joins it without the host's approval — or none when the host keeps
score; the seating keeps it across new games; a device names itself, and only itself."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from editions.errors import GameError
from events import commands as c
from events.events import DeviceJoined, DeviceLabelled, HostSeated, Recorded
from rules.table import seating
from rules.table.permissions import Actor
from rules.table.record import record
from rules.table.reducer import replay
from rules.table.state import State
from rules.table.views import view

PLAYERS = ("Anna", "Bas", "Cas")
HOST = Actor("host", None, "host")


def started(host_seat: int | None, mode: str = "classic", players: int = 3) -> State:
    state, _ = record(
        State(), c.StartGame("nl", mode, players=PLAYERS[:players], host_seat=host_seat)
    )
    return state


def joined(state: State, *events: object) -> State:
    log = [Recorded(state.seq + i, e, at=1_000 + i) for i, e in enumerate(events, 1)]  # type: ignore[arg-type]
    return replay(log, state)


@pytest.mark.parametrize(
    ("host_seat", "held", "taken"),
    [
        (0, 0, (True, False, False)),  # "I play as Anna"
        (2, 2, (False, False, True)),  # "I play as Cas"
        (None, None, (False, False, False)),  # "I keep score (no seat)"
    ],
)
def test_the_host_holds_the_seat_it_names_at_the_start(
    host_seat: int | None, held: int | None, taken: tuple[bool, ...]
) -> None:
    state = started(host_seat)
    assert seating.host_seat(state) == held
    assert seating.taken(state) == taken
    assert view(state).host_seat == held  # every phone knows the host's phone's seat


def test_a_start_records_the_host_seat_only_when_it_changes() -> None:
    state, log = record(State(), c.StartGame("nl", players=PLAYERS, host_seat=1))
    assert [r.event for r in log][1:] == [HostSeated(1)]
    state, again = record(state, c.StartGame("nl", players=PLAYERS, host_seat=1))
    assert [type(r.event).__name__ for r in again] == ["GameStarted"]
    _, scorekeeper = record(state, c.StartGame("nl", players=PLAYERS))
    assert [r.event for r in scorekeeper][1:] == [HostSeated(None)]


@pytest.mark.parametrize("host_seat", [3, -1, 7])
def test_a_host_seat_the_game_does_not_have_is_refused(host_seat: int) -> None:
    with pytest.raises(GameError) as refused:
        started(host_seat)
    assert (refused.value.code, refused.value.params) == (
        "no_such_seat",
        {"seat": host_seat, "seats": 3},
    )


@pytest.mark.parametrize("key", ["", "k-host", "k-other"])
def test_no_phone_joins_the_host_seat_without_the_host(key: str) -> None:
    """A fourth phone asking for Anna's seat, held by the host's phone, waits for approval
    whatever its key: the host's device has no key a phone could repeat."""
    state = started(0)
    assert seating.join(state, "d4", "player", 0, key) == (
        DeviceJoined("d4", "player", 0, key, admitted=False),
    )
    assert seating.join(state, "d5", "player", 1, key) == (DeviceJoined("d5", "player", 1, key),)


def test_the_host_seat_outlasts_a_new_game_and_an_undo() -> None:
    state = started(1)
    state, _ = record(state, c.EnterPoints(5, turn=c.Turn(1, 0, 0)))
    state, _ = record(state, c.Undo())
    state, log = record(state, c.NewGame())
    assert not any(isinstance(r.event, HostSeated) for r in log)
    assert seating.host_seat(state) == 1
    assert seating.join(state, "d2", "player", 1, "k")[0].admitted is False  # type: ignore[attr-defined]


def test_a_seat_beyond_a_smaller_game_is_no_host_seat() -> None:
    """A table whose host held Cas's seat, then a game of two started without naming one:
    the start records that the host keeps score; a log that lacks it holds no seat either."""
    smaller, log = record(started(2), c.StartGame("nl", players=PLAYERS[:2]))
    assert log[-1].event == HostSeated(None)
    assert seating.host_seat(smaller) is None
    odd = joined(smaller, HostSeated(2))  # seat 2 of a game of two: a log no start made
    assert seating.host_seat(odd) is None and seating.taken(odd) == (False, False)


def test_online_play_keeps_its_own_rule_for_the_host_seat() -> None:
    """Online, the host plays the first seat the computer does not play, whatever the
    seating kept from a table game before."""
    state = started(2)
    state, _ = record(
        state,
        c.StartGame("woordstrijd", "online", players=("Anna", "Bas"), computers=("best", None)),
        seed="s" * 32,
        contains=lambda word: True,
    )
    assert seating.host_seat(state) == 1


def test_the_host_actor_is_seated_and_may_lay_on_its_own_turn() -> None:
    """The host's device plays Anna: the tiles it lays are recorded as Anna's."""
    state = started(0)
    host = Actor("host", seating.host_seat(state), "host")
    board = c.BoardMove("H8", "across", "KAT")
    _, log = record(state, c.PlaceTiles(board), actor=host, device="host")
    assert log[0].event.player == 0  # type: ignore[union-attr]


# --- a device names itself -----------------------------------------------------------------


def seated() -> State:
    return joined(
        started(None),
        DeviceJoined("d1", "player", 1, "k1", label="Pixel 7 · Chrome"),
        DeviceJoined("d2", "player", 1, "k2", admitted=False, label="iPhone · Safari"),
        DeviceJoined("d3", "viewer", label="Linux · Firefox"),
    )


@pytest.mark.parametrize(
    ("device", "role", "seat"),
    [("d1", "player", 1), ("d3", "viewer", None)],
)
@pytest.mark.parametrize(
    ("typed", "label"),
    [
        ("Bas' tweede telefoon", "Bas' tweede telefoon"),
        ("  tablet \n van   Cas ", "tablet van Cas"),  # on one line, as a name is
        ("", ""),  # no name: the model shows again
        ("x" * seating.MAX_LABEL, "x" * seating.MAX_LABEL),
    ],
)
def test_a_device_names_itself(
    device: str, role: str, seat: int | None, typed: str, label: str
) -> None:
    state = seated()
    actor = Actor(role, seat, device)  # type: ignore[arg-type]
    named, log = record(state, c.LabelDevice(typed), actor=actor, device=device)
    assert [r.event for r in log] == [DeviceLabelled(device, label)]
    member = named.seating.member(device)
    assert member is not None and member.label == label
    assert member.model == state.seating.member(device).model  # type: ignore[union-attr]
    others = [m for m in named.seating.members if m.id != device]
    assert others == [m for m in state.seating.members if m.id != device]  # only itself


@pytest.mark.parametrize(
    ("actor", "typed", "code"),
    [
        (Actor("player", 1, "d1"), "x" * (seating.MAX_LABEL + 1), "label_too_long"),
        (HOST, "De gastheer", "unknown_device"),  # the director is no member of the list
        (Actor("player", 1, "gone"), "Bas", "unknown_device"),
    ],
)
def test_a_name_too_long_or_a_device_not_at_the_table_is_refused(
    actor: Actor, typed: str, code: str
) -> None:
    with pytest.raises(GameError) as refused:
        record(seated(), c.LabelDevice(typed), actor=actor, device=actor.device)
    assert refused.value.code == code


def test_the_host_sees_each_device_told_apart() -> None:
    """Two phones of Bas's seat: one by the model it joined with, one by the name it gave
    itself; the other phones see no devices at all."""
    state, _ = record(seated(), c.LabelDevice("Bas thuis"), actor=Actor("player", 1, "d1"))
    devices = view(state, "host").devices
    assert devices is not None
    assert [(d.id, d.seat, d.model, d.label) for d in devices] == [
        ("d1", 1, "Pixel 7 · Chrome", "Bas thuis"),
        ("d2", 1, "iPhone · Safari", ""),
        ("d3", None, "Linux · Firefox", ""),
    ]
    assert [d.since for d in devices] == [1_001, 1_002, 1_003]
    assert view(state, "member").devices is None


def test_a_joining_phone_is_told_apart_by_its_model() -> None:
    events = seating.join(started(None), "d9", "player", 2, "k", model="SM-A536B · Chrome")
    assert events == (DeviceJoined("d9", "player", 2, "k", label="SM-A536B · Chrome"),)


# --- invariant -----------------------------------------------------------------------------


@given(
    host_seat=st.one_of(st.none(), st.integers(0, 2)),
    asks=st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["", "a", "b"])), max_size=8),
)
def test_the_host_seat_is_never_joined_without_approval(
    host_seat: int | None, asks: list[tuple[int, str]]
) -> None:
    """Whatever phones ask for which seats with which keys, in any order, none is admitted
    to the host's seat by joining; a free seat's first phone is."""
    state = started(host_seat)
    for n, (seat, key) in enumerate(asks):
        events = seating.join(state, f"d{n}", "player", seat, key)
        admitted = [e for e in events if isinstance(e, DeviceJoined) and e.admitted]
        if seat == host_seat:
            assert admitted == []
        state = joined(state, *events)
    assert seating.host_seat(state) == host_seat
    assert all(not m.admitted for m in state.seating.members if m.seat == host_seat)
