"""A room as a centre: it joins before its first rack, draws the sealed racks inside the
game's window only, closes each round with the sealed top judging its own slips, and
refuses whatever would make its game another than the sealed one."""

from typing import Any

import pytest

from events import commands as c
from events.events import CentreJoined, GameEnded, RackDrawn, TopRecorded
from rules.errors import GameError
from rules.table.decide import decide
from rules.table.permissions import Actor
from tests.rules.simultaneous.centres import (
    CLOSES,
    DURING,
    HOST,
    LIST,
    OPENS,
    Centre,
    Organised,
    sealed_game,
    top_of,
)


def organised() -> Organised:
    return Organised(sealed_game("s"), sealed_game("t"))


def joined(name: str = "Club A", game: int = 0) -> tuple[Organised, Centre]:
    simultaneous = organised()
    room = Centre()
    room.join(simultaneous, name, game)
    return simultaneous, room


def refused(call: Any, *args: Any, **kwargs: Any) -> GameError:
    with pytest.raises(GameError) as error:
        call(*args, **kwargs)
    return error.value


def test_join_makes_the_room_play_the_simultaneous_game() -> None:
    simultaneous, room = joined("  Club   A ", game=1)
    game = room.game
    assert isinstance(room.log[-1].event, CentreJoined)
    assert (game.edition.code, game.rules.code) == ("fr", "duplicate")
    assert game.players == ("Ann", "Bob", "Cas")
    assert game.centre is not None
    assert (game.centre.simultaneous, game.centre.game, game.centre.name) == (
        "SIM", 1, "Club   A")  # fmt: skip
    assert [(x.name, x.game) for x in simultaneous.simultaneous.centres] == [("Club   A", 1)]


def _drawn_room() -> Centre:
    """A plain room (no centre) that drew its first rack."""
    room = Centre()
    room.record(decide(room.state, c.DrawRack(round=0), actor=HOST, seed="seed"), 0)
    assert room.game.rounds[0].rack
    return room


@pytest.mark.parametrize(
    ("room", "command", "sealed", "at", "code", "params"),
    [
        ("fresh", c.JoinSimultaneous("X", 0, "Club"), None, DURING, "no_simultaneous", {}),
        ("fresh", c.JoinSimultaneous("X", 2, "Club"), "sim", DURING, "no_such_game",
         {"count": 2}),
        ("fresh", c.JoinSimultaneous("X", -1, "Club"), "sim", DURING, "no_such_game",
         {"count": 2}),
        ("drawn", c.JoinSimultaneous("X", 0, "Club"), "sim", DURING, "rounds_begun", {}),
        ("fresh", c.JoinSimultaneous("X", 0, "Club"), "sim", CLOSES, "window_closed",
         {"game": 0}),
        ("fresh", c.JoinSimultaneous("X", 0, "C" * 41), "sim", DURING, "name_too_long",
         {"length": 41, "max": 40}),
        ("fresh", c.JoinSimultaneous("X", 0, "   "), "sim", DURING, "name_missing", {}),
        ("centre", c.JoinSimultaneous("X", 1, "Club B"), "sim", DURING, "sealed_game", {}),
        ("centre", c.JoinSimultaneous("X", 0, "Club A"), "sim", DURING, "sealed_game", {}),
    ],
)  # fmt: skip
def test_join_is_refused_with_its_code(
    room: str, command: c.JoinSimultaneous, sealed: str | None, at: int, code: str,
    params: dict[str, object],
) -> None:  # fmt: skip
    simultaneous = organised()
    rooms = {"fresh": Centre(), "drawn": _drawn_room()}
    if room == "centre":
        _, rooms["centre"] = joined()
    error = refused(rooms[room].decide, command, simultaneous.sealed(command.game) if sealed
                    else None, at=at)  # fmt: skip
    assert error.code == code
    assert {k: error.params[k] for k in params} == params


@pytest.mark.parametrize(
    ("name", "game", "taken"),
    [
        ("Club A", 0, True),
        ("  club   a ", 0, True),  # as spoken: case and spaces aside
        ("CLUB A", 0, True),
        ("Club B", 0, False),
        ("Club A", 1, False),  # the same club's room of the series' next game
    ],
)
def test_a_name_another_room_plays_the_game_under_is_refused(
    name: str, game: int, taken: bool
) -> None:
    # Standings, results and a series tell players apart by their centre's name.
    simultaneous, _ = joined("Club A", game=0)
    command = c.JoinSimultaneous("X", game, name)
    if not taken:
        assert isinstance(Centre().decide(command, simultaneous.sealed(game))[0], CentreJoined)
        return
    error = refused(Centre().decide, command, simultaneous.sealed(game))
    assert (error.code, error.params) == ("centre_name_taken", {"name": "Club A"})


def test_a_room_joining_again_under_its_own_name_is_not_refused_it() -> None:
    # The server records the centre in the simultaneous's log before the room's own event; a
    # retry after a stop in between finds the room's own name there, which is no other's.
    simultaneous, _ = joined("Club A", game=0)
    again = Centre().decide(c.JoinSimultaneous("X", 0, "Club A"), simultaneous.sealed(0, "Club A"))
    assert isinstance(again[0], CentreJoined)


def test_join_by_a_player_is_refused() -> None:
    simultaneous = organised()
    player = Actor("player", 0, "d0")
    error = refused(Centre().decide, c.JoinSimultaneous("X", 0, "Club"), simultaneous.sealed(),
                    actor=player)  # fmt: skip
    assert error.code == "host_only"


@pytest.mark.parametrize(
    ("at", "closed_at", "code", "params"),
    [
        (OPENS - 1, 0, "not_open_yet", {"opens": OPENS}),
        (0, 0, "not_open_yet", {"opens": OPENS}),
        (CLOSES, 0, "window_closed", {"game": 0}),
        (CLOSES + 5, 0, "window_closed", {"game": 0}),
        (DURING + 1, DURING, "window_closed", {"game": 0}),  # the organiser closed it early
    ],
)
def test_draw_outside_the_window_is_refused(
    at: int, closed_at: int, code: str, params: dict[str, object]
) -> None:
    simultaneous, room = joined()
    if closed_at:
        simultaneous.close(0, closed_at)
    error = refused(room.decide, c.DrawRack(round=0), simultaneous.sealed(), at=at)
    assert (error.code, error.params) == (code, params)


@pytest.mark.parametrize("at", [OPENS, DURING, CLOSES - 1])
def test_draw_gives_the_sealed_rack(at: int) -> None:
    simultaneous, room = joined()
    first = sealed_game("s")[0]
    assert room(c.DrawRack(round=0), simultaneous.sealed(), at=at) == (
        RackDrawn(0, first.rack, first.rejected, sealed=True),
    )
    assert "".join(room.game.rounds[-1].rack) == first.rack
    error = refused(room.decide, c.DrawRack(round=0), simultaneous.sealed())
    assert error.code == "rack_drawn"


def test_draw_and_close_need_the_centres_own_sealed_game() -> None:
    simultaneous, room = joined(game=1)
    with pytest.raises(ValueError, match="own simultaneous"):
        room.decide(c.DrawRack(round=0), simultaneous.sealed(0))
    # the simultaneous deleted (by its organiser or retention): a refusal, never a crash
    assert refused(room.decide, c.DrawRack(round=0), None).code == "no_simultaneous"
    second = sealed_game("t")[0]
    assert room(c.DrawRack(round=0), simultaneous.sealed(1))[0] == RackDrawn(
        0, second.rack, second.rejected, sealed=True
    )


def test_a_round_open_at_the_close_can_still_be_closed() -> None:
    simultaneous, room = joined()
    room(c.DrawRack(round=0), simultaneous.sealed(), at=CLOSES - 1)
    simultaneous.close(0, CLOSES - 1)
    closing = room(c.CloseRound(round=0), simultaneous.sealed(), at=CLOSES + 60_000)
    assert isinstance(closing[0], TopRecorded)
    assert closing[0].points == top_of(sealed_game("s")[0]).points
    error = refused(room.decide, c.DrawRack(round=1), simultaneous.sealed(), at=CLOSES + 60_000)
    assert error.code == "window_closed"


def test_close_gives_the_sealed_top_with_this_rooms_slips_judged() -> None:
    simultaneous, room = joined()
    sealed = simultaneous.sealed()
    room(c.DrawRack(round=0), sealed)
    top = top_of(sealed_game("s")[0])
    word = top.words[0]
    room.slip(0, word.word, word.start, word.direction)
    # the top's word with its first two letters swapped: on the board from the rack, no word
    swapped = word.word[1] + word.word[0] + word.word[2:]
    assert swapped != word.word and not LIST.contains(swapped)
    room.slip(1, swapped, word.start, word.direction)
    (closed,) = room(c.CloseRound(round=0), sealed)
    assert isinstance(closed, TopRecorded)
    assert closed.points == top.points and closed.words == top.words
    assert closed.placed == top.placed
    kinds = {r.player: (r.kind, r.points) for r in closed.results}
    assert kinds[0] == ("valid", top.points)
    assert kinds[1][1] == 0 and kinds[1][0] in ("invalid", "unplayable")
    assert kinds[2] == ("missing", 0)
    assert room.game.rounds[0].scores == (top.points, 0, 0)
    assert room.game.totals[0] == top.points


def test_a_whole_sealed_game_ends_as_the_seal_did() -> None:
    simultaneous, room = joined()
    sealed = simultaneous.sealed()
    rounds = sealed_game("s")
    for number in range(len(rounds) + 1):
        drawn = room(c.DrawRack(round=number), sealed)
        if isinstance(drawn[0], GameEnded):
            break
        closing = room(c.CloseRound(round=number), sealed)
        if any(isinstance(e, GameEnded) for e in closing):
            break
    assert room.game.ended is not None
    played = [r for r in room.game.rounds if r.rack]
    assert ["".join(r.rack) for r in played] == [r.rack for r in rounds]
    assert [r.top for r in played] == [top_of(r).points for r in rounds]
    assert room.game.totals == (0, 0, 0)


@pytest.mark.parametrize(
    "command",
    [
        c.SetRack("ABCDEFG", round=0),
        c.SetRack("ABCDEFG", round=0, force=True),
        c.RecordTop(points=30, round=0),
        c.NewGame(game=1),
        c.StartGame("fr", "duplicate", rules="duplicate", players=("Ann",)),  # type: ignore[arg-type]
    ],
)
@pytest.mark.parametrize("drawn", [False, True])
def test_what_would_change_the_sealed_game_is_refused(command: c.TableCommand, drawn: bool) -> None:
    simultaneous, room = joined()
    if drawn:
        room(c.DrawRack(round=0), simultaneous.sealed())
    error = refused(room.decide, command, simultaneous.sealed())
    assert error.code == "sealed_game", error
