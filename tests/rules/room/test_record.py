"""The game sheet to publish (issue 25, item 7): a duplicate game's record derived from the
log — racks, tops, slips, cells, solos, penalties, the result list — its JSON round trip,
its CSV, and the import that replays the recorded racks as training against the same tops."""

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from editions import codebook
from editions.errors import GameError
from events import commands as c
from rules.room import record
from tests.rules.room.rooms import HOST, Room

RACKS = ("PLANKES", "ESRAANK")


def played(players: int = 3) -> Room:
    """Two rounds closed with computed tops: round 1 PLANK (Ann's slip the top), round 2
    KRAAN (Cas alone at the top: a solo), Bob's KAAS; a penalty for Bob in round 2; ended."""
    room = Room(players)
    room(c.SetRack(RACKS[0]))
    room.slip(0, "PLANK", "H4", "across")
    room(c.CloseRound(0), HOST)
    room(c.SetRack(RACKS[1], round=1))
    room.slip(1, "KAAS", "F6", "across")
    room.slip(2, "KRAAN", "F6", "across")
    room(c.GivePenalty(1, 5), HOST)
    room(c.CloseRound(1), HOST)
    room(c.EndGame(), HOST)
    return room


def test_the_record_holds_every_closed_rounds_rack_top_slips_and_cells() -> None:
    room = played()
    sheet = record.record(room.game)
    assert (sheet.edition, sheet.rules, sheet.players, sheet.ended) == (
        "nl", "duplicate", ("Ann", "Bob", "Cas"), True)  # fmt: skip
    first, second = sheet.rounds
    assert (first.number, first.rack, second.number, second.rack) == (1, "PLANKES", 2, "ESRAANK")
    assert first.top == record.TopRecord("PLANK", "D8", "down", "8D", 28, False, True)
    assert second.top is not None and (second.top.word, second.top.points) == ("KRAAN", 16)
    assert [(s.player, s.kind, s.word, s.reference, s.points) for s in second.slips] == [
        (0, "missing", "", "", 0),
        (1, "valid", "KAAS", "F6", 13),
        (2, "valid", "KRAAN", "F6", 16),
    ]
    assert second.scores == (0, 13, 16)
    assert [s.solo for s in second.slips] == list(room.game.rounds[1].results[i].solo
                                                  for i in range(3))  # fmt: skip
    assert second.lines == (record.LineRecord(1, "penalty", -5),)
    assert sheet.tops == 28 + 16
    by_player = {r.player: r for r in sheet.results}
    for p in range(3):
        assert by_player[p].total == room.game.totals[p]
        assert by_player[p].difference == room.game.totals[p] - sheet.tops
    assert by_player[1].lines == -5
    assert [r.rank for r in sheet.results] == sorted(r.rank for r in sheet.results)


def test_an_open_round_is_not_in_the_record() -> None:
    room = Room()
    room(c.SetRack(RACKS[0]))
    room.slip(0, "PLANK", "H4", "across")
    sheet = record.record(room.game)
    assert sheet.rounds == () and not sheet.ended
    assert b"PLANK" not in record.encode(sheet)  # neither the rack nor the slip


def test_the_json_record_round_trips() -> None:
    sheet = record.record(played().game)
    assert record.decode(record.encode(sheet)) == sheet


@pytest.mark.parametrize(
    "data",
    [b"", b"{}", b"[1,2]", b'{"format":"other"}', b"not json"],
)
def test_an_import_refuses_what_is_not_a_record(data: bytes) -> None:
    with pytest.raises(GameError) as refused:
        record.decode(data)
    assert refused.value.code == codebook.BAD_RECORD


def test_a_record_of_another_format_or_edition_is_refused() -> None:
    sheet = record.record(played().game)
    for changed in (sheet.__class__(**{**_fields(sheet), "format": "x"}),
                    sheet.__class__(**{**_fields(sheet), "edition": "zz"})):  # fmt: skip
        with pytest.raises(GameError) as refused:
            record.decode(record.encode(changed))
        assert refused.value.code == codebook.BAD_RECORD


def _fields(sheet: record.GameRecord) -> dict:
    return {f: getattr(sheet, f) for f in sheet.__struct_fields__}


def test_training_replays_the_recorded_racks_to_the_same_tops() -> None:
    sheet = record.record(played().game)
    start, racks = record.training(record.decode(record.encode(sheet)), "Solo")
    assert racks == RACKS and start.players == ("Solo",) and start.mode == "duplicate"
    practice = Room(1)
    for index, rack in enumerate(racks):
        practice(c.SetRack(rack, round=index, force=True), HOST)
        practice(c.CloseRound(index), HOST)
    again = record.record(practice.game)
    assert [r.top for r in again.rounds] == [r.top for r in sheet.rounds]
    assert [r.rack for r in again.rounds] == [r.rack for r in sheet.rounds]


def test_the_csv_is_the_result_list_in_rank_order() -> None:
    sheet = record.record(played().game)
    rows = list(csv.reader(io.StringIO(record.to_csv(sheet))))
    assert rows[0] == ["rank", "name", "R1", "R2", "solos", "penalties", "total", "difference",
                       "percentage"]  # fmt: skip
    assert rows[1][:4] == ["", "top", "28", "16"] and rows[1][6] == "44"
    body = rows[2:]
    assert [row[1] for row in body] == [r.name for r in sheet.results]
    for row, result in zip(body, sheet.results, strict=True):
        assert int(row[6]) == result.total and int(row[7]) == result.total - 44
        cells = sum(int(x) for x in row[2:4] if x)
        assert cells + int(row[4]) + int(row[5]) == result.total  # cells, solos, penalties


@given(st.lists(st.integers(-50, 500), min_size=1, max_size=200))
def test_equal_totals_share_a_rank_and_ranks_count_the_players_ahead(totals: list[int]) -> None:
    ranks = record._ranks(tuple(totals))
    for total, rank in zip(totals, ranks, strict=True):
        assert rank == 1 + sum(t > total for t in totals)
    assert min(ranks) == 1


@pytest.mark.parametrize(
    ("start", "direction", "expected"),
    [("H4", "across", "H4"), ("H4", "down", "4H"), ("A15", "down", "15A"), ("", "", "")],
)
def test_the_fisf_reference_puts_the_row_first_across(start, direction, expected) -> None:
    assert record.reference(start, direction) == expected
