"""Every figure a room shows derives from its cells as they stand: the solo, the totals, the
difference to the tops, the percentage and the over-top notices follow every correction, and
nothing of them is a value stored at the close and left behind."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from editions import codebook
from events import commands as c
from rules.errors import GameError
from tests.rules.room.rooms import HOST, Room, plank_room

PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def club_round() -> Room:
    """Round 2 of a club room (solos from 2 players) closed: Ann's KRAAN alone at the best
    valid score, Bob's KAN below it, Cas without a slip."""
    room = plank_room(rules="duplicate-club")
    room.slip(0, "KRAAN", "H8")
    room.slip(1, "KAN", "H8")
    room(c.CloseRound(1), HOST)
    return room


@pytest.mark.parametrize(
    ("player", "points", "solos"),
    [
        (None, 99, [10, 0, 0]),  # the top corrected: no one's solo moves
        (1, "KRAAN", [0, 0, 0]),  # Bob's slip corrected to Ann's score: she is no longer alone
        (1, "KRAAN + 1", [0, 10, 0]),  # ... above it: the solo is Bob's
        (2, "KRAAN", [0, 0, 0]),  # Cas's missing slip typed by the arbiter at the best score
        (2, 0, [10, 0, 0]),  # Cas's cell set to what the close gave it: still no move
        (0, 0, [0, 10, 0]),  # Ann's word struck by the jury: Bob's KAN is the best
        (0, None, [0, 10, 0]),  # Ann's cell emptied
    ],
)
def test_a_correction_moves_the_solo_and_every_total_follows(
    player: int | None, points: int | str | None, solos: list[int]
) -> None:
    """``KRAAN``: the points of Ann's KRAAN, the round's best slip."""
    room = club_round()
    kraan = room.game.rounds[1].scores[0]
    assert kraan is not None and [r.solo for r in room.game.rounds[1].results] == [10, 0, 0]
    cell = {"KRAAN": kraan, "KRAAN + 1": kraan + 1}.get(str(points), points)
    assert not isinstance(cell, str)
    room(c.CorrectCell(1, player, cell), HOST)
    played = room.game.rounds[1]
    assert [r.solo for r in played.results] == solos
    assert list(room.game.totals) == [
        (cell or 0) + s for cell, s in zip(played.scores, solos, strict=True)
    ]
    assert room.game.lines == ()  # a solo is no line of the sheet: it is the round's figure
    sheet = room.view_json(None)["sheet"]
    assert [r.get("solo", 0) for r in sheet["rounds"][1]["results"]] == solos
    assert [s["total"] for s in sheet["standings"]] == list(room.game.totals)
    room(c.Undo(), HOST)  # the correction struck: the solo as the close left it
    assert [r.solo for r in room.game.rounds[1].results] == [10, 0, 0]
    assert room.game.totals[0] == kraan + 10


def test_undoing_the_close_takes_its_solo_away() -> None:
    room = club_round()
    room(c.Undo(), HOST)
    assert room.game.totals == (0, 0, 0) and room.game.lines == ()


# --- the property ------------------------------------------------------------------------

SLIPS = [("KRAAN", "H8"), ("KAN", "H8"), ("KRAAS", "H8"), ("KAAS", "H8"), ("RAS", "I7")]
RACKS = ["RAANKSE", "EENSKAR", "AANKERS", "SNEEKAR"]

slip = st.tuples(
    st.just("slip"), st.integers(0, 2), st.sampled_from(SLIPS), st.sampled_from(["down", "across"])
)
steps = st.one_of(
    slip,
    slip,  # twice as likely: rounds with slips in, and so with solos
    st.tuples(st.just("close")),
    st.tuples(st.just("close")),
    st.tuples(
        st.just("correct"),
        st.integers(0, 4),
        st.one_of(st.none(), st.integers(0, 2)),
        st.one_of(st.none(), st.integers(0, 60)),
    ),
    # a cell corrected to another's or to the top (player None): the ties a solo turns on
    st.tuples(
        st.just("copy"),
        st.integers(0, 3),
        st.one_of(st.none(), st.integers(0, 2)),
        st.integers(0, 2),
    ),
    st.tuples(st.just("penalty"), st.integers(0, 2), st.integers(-10, 10)),
    st.tuples(st.just("undo")),
)


def apply(room: Room, step: tuple) -> None:
    """One step of a room's evening; a step the rules refuse leaves the room as it was."""
    game = room.game
    try:
        match step:
            case ("slip", player, (word, start), direction):
                room.slip(player, word, start, direction)
            case ("close",):
                played = len(game.rounds) - 1
                room(c.CloseRound(played), HOST)
                room(c.SetRack(RACKS[played % len(RACKS)], round=played + 1), HOST)
            case ("correct", index, player, points):
                room(c.CorrectCell(index, player, points), HOST)
            case ("copy", index, source, player) if index < len(game.rounds):
                played = game.rounds[index]
                points = played.top if source is None else played.scores[source]
                room(c.CorrectCell(index, player, points), HOST)
            case ("penalty", player, points):
                room(c.GivePenalty(player, points), HOST)
            case ("undo",):
                room(c.Undo(), HOST)
    except GameError:
        pass


def recomputed_solo(scores: list, results: list, solo_points: int, solo_players: int) -> list:
    """The solo of a closed round worked out again from its cells, apart from the rules code:
    the one player alone at the best scored move — a slip judged valid, or a cell the
    director set since to another score."""
    judged = {r["player"]: r for r in results}
    moves = {
        p: cell
        for p, cell in enumerate(scores)
        if cell is not None
        and p in judged
        and (judged[p]["kind"] == "valid" or cell != judged[p]["points"])
    }
    solos = [0] * len(scores)
    if len(scores) < solo_players or not moves:
        return solos
    best = max(moves.values())
    alone = [p for p, cell in moves.items() if cell == best]
    if len(alone) == 1 and best > 0:
        solos[alone[0]] = solo_points
    return solos


def check_figures(room: Room) -> None:
    """Every figure a phone is sent equals the same figure worked out from the cells."""
    sheet = room.view_json(None)["sheet"]
    players = len(sheet["players"])
    totals = [0] * players
    for played in sheet["rounds"]:
        results = played.get("results", [])
        solos = recomputed_solo(played["scores"], results, 10, 2) if results else [0] * players
        assert [r.get("solo", 0) for r in results] == (solos if results else [])
        for p in range(players):
            totals[p] += (played["scores"][p] or 0) + solos[p]
    for line in sheet["lines"]:
        totals[line["player"]] += line["points"]  # a penalty or a bonus, signed
    tops = sum(played["top"] or 0 for played in sheet["rounds"])
    assert sheet["totals"] == totals and sheet["tops"] == tops
    assert [(s["total"], s["difference"]) for s in sheet["standings"]] == [
        (total, total - tops) for total in totals
    ]
    assert [s["percent_tenths"] for s in sheet["standings"]] == [
        (total * 1000 + tops // 2) // tops if tops else None for total in totals
    ]
    over = sorted(
        (r, p)
        for r, played in enumerate(sheet["rounds"])
        for p, cell in enumerate(played["scores"])
        if played["top"] is not None and cell is not None and cell > played["top"]
    )
    noticed = sorted(
        (n["params"]["round"], n["params"]["player"])
        for n in sheet["notices"]
        if n["code"] == codebook.OVER_TOP
    )
    assert noticed == over


@PROPERTY
@given(st.lists(steps, max_size=24))
def test_every_figure_is_worked_out_again_from_the_cells_after_every_step(steps: list) -> None:
    room = plank_room(rules="duplicate-club")
    for step in steps:
        apply(room, step)
        check_figures(room)
