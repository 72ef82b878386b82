"""What phones see (rules.table.views): duplicate standings, notices and the view itself
(DUP-05..07/11, P-42). The phone writes numbers and the result text in its own language;
tests/web test those."""

import pytest

from events import commands as c
from events.events import Recorded
from rules.table import views
from rules.table.record import record
from rules.table.reducer import replay
from rules.table.seating import join
from rules.table.state import State
from rules.table.views import view
from tests.rules.table.recording import play, sheet, start


def duplicate_game(edition: str, rounds: list[tuple[int, ...]], players: int = 2) -> State:
    """Rounds of (player scores …, top), entered as a director does."""
    state = start(edition, players=players, mode="duplicate")
    for *scores, top in rounds:
        state = play(state, *(c.EnterPoints(s) for s in scores), c.RecordTop(points=top))
    return state


TOPS_78 = [(24, 20, 24), (30, 36, 36), (18, 9, 18)]  # TV-NL-14, TV-IT-12, TV-PL-14


# --- duplicate standings (DUP-05..07) ---


@pytest.mark.parametrize("edition", ["nl", "it", "pl"])
def test_duplicate_standings_tv_nl_14(edition: str) -> None:
    # TV-NL-14 / TV-IT-12 / TV-PL-14
    state = duplicate_game(edition, TOPS_78)
    found = sheet(state)
    assert found.tops == 78
    assert [(s.total, s.difference, s.percent_tenths) for s in found.standings] == [
        (72, -6, 923),
        (65, -13, 833),
    ]


def test_duplicate_all_tops_found_tv_d_16() -> None:
    state = duplicate_game("nl", [(24, 24), (36, 36), (18, 18)], players=1)
    (standing,) = sheet(state).standings
    assert (standing.total, standing.difference, standing.percent_tenths) == (78, 0, 1000)


def test_duplicate_no_tops_yet_has_no_percentage() -> None:
    # P-42: "–" before any top.
    state = play(start("nl", mode="duplicate"), c.EnterPoints(20))
    assert [s.percent_tenths for s in sheet(state).standings] == [None, None]


def test_classic_has_no_standings() -> None:
    assert sheet(start()).standings == ()


# --- notices: shown, never blocking ---


def test_over_top_is_a_notice_not_a_block() -> None:
    # TV-D-17 / DUP-11 / P-42
    state = start("nl", mode="duplicate")
    state = play(state, c.EnterPoints(30), c.EnterPoints(20), c.RecordTop(points=24))
    (notice,) = [n for n in sheet(state).notices if n.code == "over_top"]
    assert notice.params == {"round": 0, "player": 0, "points": 30, "top": 24}
    assert sheet(state).totals == (30, 20)
    state = play(state, c.CorrectCell(0, 0, 24))
    assert [n for n in sheet(state).notices if n.code == "over_top"] == []


def test_over_top_after_a_correction_of_the_top() -> None:
    state = duplicate_game("nl", [(24, 20, 24)])
    assert [n.code for n in sheet(state).notices] == []
    state = play(state, c.CorrectCell(0, None, 22))
    assert [n.params["player"] for n in sheet(state).notices if n.code == "over_top"] == [0]


def test_score_equal_to_the_top_is_no_notice() -> None:
    state = duplicate_game("nl", [(24, 24, 24)])
    assert sheet(state).notices == ()


# --- the view itself ---


def test_view_of_an_empty_table() -> None:
    table = view(State())
    assert (table.seq, table.sheet, table.warnings) == (0, None, ())


def test_view_shows_totals_and_who_is_to_move() -> None:
    # SHC-10
    state = play(start("nl", players=("Anna", None, None)), c.EnterPoints(12), c.Pass())
    found = sheet(state)
    assert found.totals == (12, 0, 0)
    assert found.to_move == 2
    assert found.players == ("Anna", None, None)
    assert found.seq == state.seq == 3
    assert not found.ended and found.final is None


def test_view_tells_sbnl_going_out_ends_the_game() -> None:
    # P-36: SBNL: going out ends the game at once (the notice says so).
    assert sheet(start("nl", rules="sbnl")).going_out_ends_game
    assert not sheet(start("nl", rules="house")).going_out_ends_game


def test_view_shows_the_sheet_to_every_member_and_the_devices_to_the_host_only() -> None:
    state, _ = record(play(start(), c.EnterPoints(12)), c.SetWriters("scorekeeper"))
    joined = join(state, "d1", "player", 1, "k")
    state = replay([Recorded(state.seq + 1, joined[0], at=5)], state)
    member, host = view(state, "member"), view(state, "host")
    assert member.sheet == host.sheet and member.writers == host.writers == "scorekeeper"
    assert member.devices is None
    assert host.devices == (views.DeviceView("d1", "player", 1, 5, True),)


def test_view_of_a_waiting_device_shows_nothing_of_the_table() -> None:
    state = play(start(), c.EnterPoints(12))
    assert view(state, "waiting") == views.TableView(state.seq, None, waiting=True)
