"""The standings of a simultaneous, folded from its centres' logs.

The property: however many centres play whichever game, with whatever slips and corrected
cells, the projection's rows are each centre's own totals; equal totals share a place; the
series adds a player's totals across games by centre and name; and the logs replayed give
the same standings.
"""

from collections import Counter, defaultdict

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events import commands as c
from events.events import GameEnded
from rules.simultaneous.standings import Standings, key, project, spoken, upto
from rules.table.state import Game
from tests.rules.simultaneous.centres import Centre, Organised, sealed_game, top_of

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ("Ann", "Bob", "Cas", "Dirk")


class Plan(msgspec.Struct, frozen=True):
    """One centre: its name, the game it plays, its players, and per closed round each
    player's slip (the top's word, or nothing) and a cell the director corrects."""

    name: str
    game: int
    players: tuple[str, ...]
    rounds: tuple[tuple[tuple[bool, int | None], ...], ...]
    draws_next: bool  # the round after the last closed one has its rack


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    players = tuple(draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True)))
    cell = st.one_of(st.none(), st.integers(0, 60))
    round_ = st.tuples(*(st.tuples(st.booleans(), cell) for _ in players))
    return Plan(
        draw(st.sampled_from(["Club A", "Club B", "club  a", "Club C"])),
        draw(st.integers(0, 1)),
        players,
        tuple(draw(st.lists(round_, max_size=4))),
        draw(st.booleans()),
    )


def centres(most: int) -> st.SearchStrategy[list[Plan]]:
    """Up to ``most`` centres, no two of one game under one name (``centre_name_taken``)."""
    return st.lists(
        plans(), min_size=1, max_size=most, unique_by=lambda p: (spoken(p.name), p.game)
    )


def play(plans: list[Plan]) -> tuple[Organised, dict[str, Centre]]:
    """Every centre's room joined and its rounds played as planned."""
    organised = Organised(sealed_game("s"), sealed_game("t"))
    rooms: dict[str, Centre] = {}
    for index, plan in enumerate(plans):
        room = Centre(plan.players)
        table = f"T{index}"
        room.join(organised, plan.name, plan.game, table)
        sealed = organised.sealed(plan.game)
        tops = sealed_game("st"[plan.game])
        for number, slips in enumerate(plan.rounds):
            room(c.DrawRack(round=number), sealed)
            word = top_of(tops[number]).words[0]
            for player, (slipped, _) in enumerate(slips):
                if slipped:
                    room.slip(player, word.word, word.start, word.direction)
            closing = room(c.CloseRound(round=number), sealed)
            assert not any(isinstance(e, GameEnded) for e in closing)
            for player, (_, points) in enumerate(slips):
                if points is not None:
                    room(c.CorrectCell(number, player, points))
        if plan.draws_next:
            room(c.DrawRack(round=len(plan.rounds)), sealed)
        rooms[table] = room
    return organised, rooms


def standings_of(organised: Organised, rooms: dict[str, Centre]) -> Standings:
    games: dict[str, Game | None] = {t: room.game for t, room in rooms.items()}
    return project(organised.id, organised.simultaneous, games)


@PROPERTY
@given(centres(5))
def test_project_rows_are_the_centres_own_totals_placed(centres: list[Plan]) -> None:
    organised, rooms = play(centres)
    standings = standings_of(organised, rooms)
    assert len(standings.games) == 2
    for played in standings.games:
        own = {
            (table, p): (room.game.players[p], room.game.totals[p])
            for table, room in rooms.items()
            if centres[int(table[1:])].game == played.game
            for p in range(len(room.game.players))
        }
        assert {(r.table, r.player): (r.name, r.total) for r in played.rows} == own
        for row in played.rows:
            room = rooms[row.table]
            closed = [r for r in room.game.rounds if r.top is not None]
            assert row.centre == centres[int(row.table[1:])].name.strip()
            assert row.scores == tuple(r.scores[row.player] for r in closed)
            assert row.tops == sum(r.top or 0 for r in closed)
        # places: by total, equal totals sharing one
        totals = [r.total for r in played.rows]
        assert totals == sorted(totals, reverse=True)
        counts = Counter(totals)
        for row in played.rows:
            assert row.place == 1 + sum(t > row.total for t in totals)
            assert row.tied == (counts[row.total] > 1)
        for progress in played.centres:
            plan = centres[int(progress.table[1:])]
            assert (progress.closed, progress.racked) == (len(plan.rounds), plan.draws_next)
            assert progress.players == len(plan.players) and not progress.ended
    # the series: a player's totals across games, by centre and name
    summed: dict[tuple[str, str], list[int]] = defaultdict(list)
    for played in standings.games:
        for row in played.rows:
            summed[key(row.centre, row.name)].append(row.total)
    series = {key(r.centre, r.name): (r.games, r.total) for r in standings.series}
    assert series == {k: (len(t), sum(t)) for k, t in summed.items()}
    totals = [r.total for r in standings.series]
    assert [r.place for r in standings.series] == [
        1 + sum(t > total for t in totals) for total in totals
    ]
    # rebuilt from the logs, the same
    again = organised.replayed().simultaneous
    assert again is not None
    rooms_again = {t: room.replayed().game for t, room in rooms.items()}
    assert project(organised.id, again, rooms_again) == standings


def test_project_places_equal_totals_together_across_centres() -> None:
    top, none = (True, None), (False, None)
    organised, rooms = play([
        Plan("Club A", 0, ("Ann", "Bob"), ((top, none), (top, none)), False),
        Plan("Club B", 0, ("Cas", "Dirk"), ((top, none), (top, (False, 3))), True),
        Plan("Club C", 0, ("Eve",), ((none,),), False),
    ])  # fmt: skip
    rows = standings_of(organised, rooms).games[0].rows
    tops = [top_of(r).points for r in sealed_game("s")[:2]]
    assert [(r.place, r.tied, r.centre, r.name, r.total) for r in rows] == [
        (1, True, "Club A", "Ann", sum(tops)),
        (1, True, "Club B", "Cas", sum(tops)),
        (3, False, "Club B", "Dirk", 3),
        (4, True, "Club A", "Bob", 0),
        (4, True, "Club C", "Eve", 0),
    ]
    assert [r.percent_tenths for r in rows][:3] == [1000, 1000, (3000 + sum(tops) // 2)
                                                    // sum(tops)]  # fmt: skip
    assert rows[-1].percent_tenths == 0 and rows[-1].tops == tops[0]


def test_project_series_sums_a_player_across_games_by_centre_and_name() -> None:
    top = (True, None)
    organised, rooms = play([
        Plan("Club A", 0, ("Ann", "Bob"), ((top, (False, 7)),), False),
        Plan("club  a ", 1, ("Bob", "ann"), ((top, top), (top, top)), False),
        Plan("Club B", 1, ("Ann",), (((False, 1),),), False),
    ])  # fmt: skip
    standings = standings_of(organised, rooms)
    first = top_of(sealed_game("s")[0]).points
    second = sum(top_of(r).points for r in sealed_game("t")[:2])
    rows = {(r.centre, r.name): (r.games, r.total, r.tops) for r in standings.series}
    assert rows == {
        ("Club A", "Ann"): (2, first + second, first + second),
        ("Club A", "Bob"): (2, 7 + second, first + second),
        ("Club B", "Ann"): (1, 1, top_of(sealed_game("t")[0]).points),
    }
    assert [r.place for r in standings.series] == [1, 2, 3]


def test_a_centre_sees_everyone_as_they_stood_after_its_own_closed_rounds() -> None:
    top, none = (True, None), (False, None)
    organised, rooms = play([
        Plan("Club A", 0, ("Ann", "Bob"), ((none, top), (top, none), (top, top)), False),
        Plan("Club B", 0, ("Cas",), ((top,),), True),
    ])  # fmt: skip
    rows = standings_of(organised, rooms).games[0].rows
    tops = [top_of(r).points for r in sealed_game("s")[:3]]
    seen = {(r.name, r.total, r.tops, len(r.scores)) for r in upto(rows, 1)}
    assert seen == {("Ann", 0, tops[0], 1), ("Bob", tops[0], tops[0], 1),
                    ("Cas", tops[0], tops[0], 1)}  # fmt: skip
    assert [r.place for r in upto(rows, 1)] == [1, 1, 3]
    assert upto(rows, 3) == rows  # a centre that played every round sees what the organiser sees


@PROPERTY
@given(centres(4), st.integers(0, 4))
def test_what_a_centre_sees_adds_up_the_rounds_it_has_closed(
    centres: list[Plan], rounds: int
) -> None:
    organised, rooms = play(centres)
    for game in standings_of(organised, rooms).games:
        full = {(r.table, r.player): r for r in game.rows}
        for row in upto(game.rows, rounds):
            whole = full[row.table, row.player]
            assert len(row.scores) == min(rounds, len(whole.scores))
            if len(whole.scores) > rounds:  # cut: the cells and solos of those rounds only
                assert row.total == sum((s or 0) for s in whole.scores[:rounds])
            else:
                assert row.total == whole.total
