"""A simultaneous's published results: every row adds up to its total, what the room gave
beside the rounds' scores (a solo, a bonus, a penalty) in a column of its own."""

import csv
import io

from events import commands as c
from rules.simultaneous.results import game_csv, game_results
from rules.simultaneous.standings import project
from tests.rules.simultaneous.centres import Centre, Organised, sealed_game, top_of


def test_a_penalty_given_in_a_room_is_the_rows_extra_and_the_row_adds_up() -> None:
    organised = Organised(sealed_game("s"))
    room = Centre(("Ann", "Bob"))
    room.join(organised, "Club A")
    sealed = organised.sealed()
    room(c.DrawRack(round=0), sealed)
    word = top_of(sealed_game("s")[0]).words[0]
    room.slip(0, word.word, word.start, word.direction)
    room(c.CloseRound(round=0), sealed)
    room(c.GivePenalty(player=0, points=5))

    standings = project(organised.id, organised.simultaneous, {"Club A": room.game})
    results = game_results(organised.simultaneous, standings.games[0])
    rows = {row.name: row for row in results.players}
    ann, bob = rows["Ann"], rows["Bob"]
    top = results.tops[0].points
    assert (ann.scores, ann.extra, ann.total) == ((top,), -5, top - 5)
    assert (bob.scores, bob.extra, bob.total) == ((0,), 0, 0)

    table = list(csv.reader(io.StringIO(game_csv(results))))
    head = table[0]
    rounds = [f"R{t.number}" for t in results.tops]
    assert head == [
        "place",
        "name",
        "centre",
        *rounds,
        "extra",
        "total",
        "difference",
        "percentage",
    ]
    by_name = {line[1]: dict(zip(head, line, strict=True)) for line in table[2:]}
    assert (by_name["Ann"]["R1"], by_name["Ann"]["extra"], by_name["Ann"]["total"]) == (
        str(top), "-5", str(top - 5))  # fmt: skip


def test_the_tops_are_of_the_rounds_a_centre_closed_not_of_every_sealed_round() -> None:
    organised = Organised(sealed_game("s"))
    early, late = Centre(("Ann",)), Centre(("Cas",))
    early.join(organised, "Club A")
    late.join(organised, "Club B")
    sealed = organised.sealed()
    for number in range(2):
        early(c.DrawRack(round=number), sealed)
        early(c.CloseRound(round=number), sealed)
    late(c.DrawRack(round=0), sealed)
    late(c.CloseRound(round=0), sealed)

    rooms = {"Club A": early.game, "Club B": late.game}
    standings = project(organised.id, organised.simultaneous, rooms)
    results = game_results(organised.simultaneous, standings.games[0])
    assert len(sealed_game("s")) > 2
    assert [top.number for top in results.tops] == [1, 2]
    head, top_row = list(csv.reader(io.StringIO(game_csv(results))))[:2]
    assert head[3:5] == ["R1", "R2"]
    assert dict(zip(head, top_row, strict=True))["total"] == str(
        sum(top.points for top in results.tops)
    )
