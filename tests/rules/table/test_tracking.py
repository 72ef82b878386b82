"""The tile panel (§14 TRK, P-42, P-43): what is left of the set, from the computed moves."""

from typing import Literal

import pytest

import editions
from events import commands as c
from events.commands import TypedLetter
from rules.table.state import State
from rules.table.tracking import Tracking, track
from rules.table.views import view
from tests.rules.table.recording import play, start

Direction = Literal["across", "down"]


def tracking(state: State) -> Tracking:
    sheet = view(state).sheet
    assert sheet is not None
    assert state.game is not None and track(state.game) == sheet.tracking
    return sheet.tracking


def left(state: State) -> dict[str, int]:
    return {x.letter: x.left for x in tracking(state).letters}


def word(text: str, old: str = "") -> tuple[TypedLetter, ...]:
    """A typed word; an ``o`` in ``old`` marks the tile at that position as already on the board."""
    return tuple(TypedLetter(t, old=i < len(old) and old[i] == "o") for i, t in enumerate(text))


def typed(*words: tuple[TypedLetter, ...]) -> c.RecordMove:
    return c.RecordMove(typed=words)


def board(start: str, direction: Direction, letters: str) -> c.RecordMove:
    return c.RecordMove(c.BoardMove(start, direction, letters))


# id, edition, players, (a) not on board, (b) in the bag
START_OF_GAME = [
    pytest.param("nl", 2, 102, 88, id="TV-NL-13"),
    pytest.param("it", 4, 120, 92, id="TV-IT-13"),
    pytest.param("pl", 2, 100, 86, id="TV-PL-15"),
    pytest.param("pl", 4, 100, 72, id="TV-PL-16"),
    pytest.param("nl", 3, 102, 81, id="TV-D-14-NL-3"),
    pytest.param("nl", 4, 102, 74, id="TV-D-14-NL-4"),
    pytest.param("it", 2, 120, 106, id="TV-D-14-IT-2"),
    pytest.param("it", 3, 120, 99, id="TV-D-14-IT-3"),
    pytest.param("pl", 3, 100, 79, id="TV-D-14-PL-3"),
]


@pytest.mark.parametrize(("edition", "players", "not_on_board", "in_bag"), START_OF_GAME)
def test_tracking_at_the_start(edition: str, players: int, not_on_board: int, in_bag: int) -> None:
    panel = tracking(start(edition, players=players))
    assert panel.not_on_board == not_on_board
    assert panel.in_bag == in_bag
    assert panel.points_only == 0
    assert panel.warnings == ()
    kinds = editions.get(edition).kinds
    assert [(x.letter, x.value, x.count, x.left) for x in panel.letters[:-1]] == [
        (k.face, k.value, k.count, k.count) for k in kinds
    ]
    assert (panel.letters[-1].letter, panel.letters[-1].count) == ("?", 2)  # OQ-60: blanks too


def test_tv_it_13_four_players_take_28() -> None:
    panel = tracking(start("it", players=4))
    assert panel.not_on_board - panel.in_bag == 28


def test_tv_d_15_plank_on_the_sheet() -> None:
    state = play(start("nl"), board("H4", "across", "PLANK"))
    panel = tracking(state)
    assert (panel.not_on_board, panel.in_bag) == (97, 83)
    counts = left(state)
    assert (counts["P"], counts["L"], counts["A"], counts["N"], counts["K"]) == (1, 2, 5, 9, 2)


def test_tv_d_15_plank_typed_counts_the_same() -> None:
    state = play(start("nl"), typed(word("PLANK")))
    assert (tracking(state).not_on_board, tracking(state).in_bag) == (97, 83)


def test_tv_d_24_two_q_moves_warn_of_over_use() -> None:
    state = play(start("nl"), typed(word("QI")))
    assert tracking(state).warnings == ()
    state = play(state, typed(word("QAT")))
    (warning,) = tracking(state).warnings
    assert warning.code == "over_use"
    assert warning.params == {"letter": "Q", "used": 2, "count": 1}
    assert left(state)["Q"] == -1
    sheet = view(state).sheet
    # Sent once, in the tile panel; the phone's sheet lists it from there.
    assert sheet is not None and "over_use" not in [n.code for n in sheet.notices]


def test_over_use_is_only_a_notice() -> None:
    state = play(start("nl"), typed(word("QI")), typed(word("QI")), typed(word("QI")))
    sheet = view(state).sheet
    assert sheet is not None and len(sheet.lines) == 3


def test_points_only_moves_are_counted_apart() -> None:
    # TRK-04: not counted as tiles, but a line says how many there are.
    state = play(start("nl"), c.EnterPoints(28), board("H4", "across", "PLANK"))
    state = play(state, c.EnterPoints(0), c.Pass(), c.Exchange(), c.GivePenalty(0, 10))
    panel = tracking(state)
    assert panel.points_only == 2
    assert panel.not_on_board == 97


def test_typed_move_counts_the_word_with_most_new_tiles() -> None:
    # TV-NL-04, OQ-57: BOEK + KAAS takes B, O, E, K; the A, A, S of KAAS were on the board.
    state = play(start("nl"), typed(word("BOEK"), word("KAAS", ".ooo")))
    panel = tracking(state)
    assert panel.not_on_board == 98
    counts = left(state)
    assert (counts["B"], counts["O"], counts["E"], counts["K"]) == (1, 5, 17, 2)
    assert (counts["A"], counts["S"]) == (6, 5)


def test_typed_move_cross_word_with_more_new_tiles() -> None:
    # A cross word typed first with one new tile, the main word after it with three.
    state = play(start("nl"), typed(word("KAAS", ".ooo"), word("BOEK")))
    assert tracking(state).not_on_board == 98
    assert left(state)["A"] == 6


def test_typed_word_with_only_old_tiles_takes_nothing() -> None:
    state = play(start("nl"), typed(word("AS", "oo")))
    assert tracking(state).not_on_board == 102


def test_blanks_count_against_the_two_blanks() -> None:
    # P-43: a blank on the board, typed or laid, is one of the set's two.
    state = play(start("nl"), board("H4", "across", "PLANk"))
    assert left(state)["?"] == 1
    assert left(state)["K"] == 3
    state = play(state, typed(word("bOEK")))
    assert left(state)["?"] == 0
    assert tracking(state).warnings == ()
    state = play(state, typed(word("Ia")))
    assert left(state)["?"] == -1
    (warning,) = tracking(state).warnings
    assert warning.params == {"letter": "?", "used": 3, "count": 2}


def test_locked_blanks_count_against_the_blanks_typed() -> None:
    # TV-D-04 / P-43: K and W are not in the Italian set, so KIWI typed takes two jollies.
    state = play(start("it"), typed(word("KIWI")))
    assert left(state)["?"] == 0
    assert left(state)["I"] == 10
    assert tracking(state).not_on_board == 116


def test_locked_blanks_count_against_the_blanks_on_the_board() -> None:
    state = play(start("it"), board("H5", "across", "KIWI"))
    assert left(state)["?"] == 0
    assert tracking(state).not_on_board == 116


def test_typed_accents_count_as_the_plain_letter() -> None:
    # TV-D-01 / ALP-02: IDEEËN is scored as IDEEEN, so three E tiles leave the bag.
    state = play(start("nl"), typed(word("IDEEËN")))
    assert left(state)["E"] == 15
    panel = tracking(state)
    assert sum(x.count - x.left for x in panel.letters) == 6 == 102 - panel.not_on_board


def test_locked_blank_over_use_warns() -> None:
    # P-43: TV-D-05's V and X are locked blanks in Polish; a third blank is over-use.
    state = play(start("pl"), typed(word("VOX")))
    assert left(state)["?"] == 0
    state = play(state, typed(word("QUIZ")))
    assert left(state)["?"] == -1
    assert [w.params["letter"] for w in tracking(state).warnings] == ["?"]


def test_board_move_tiles_counted_once() -> None:
    # TV-NL-08: KRAAN through PLANK's A takes K, R, A, N only.
    state = play(start("nl"), board("H4", "across", "PLANK"), board("F6", "down", "KRAN"))
    panel = tracking(state)
    assert panel.not_on_board == 93
    assert left(state)["K"] == 1
    assert left(state)["A"] == 4


def test_tiles_placed_without_score_are_not_tracked() -> None:
    # TRK-02: only moves computed and put on the sheet count.
    state = play(start("nl"), c.PlaceTiles(c.BoardMove("H4", "across", "PLANK")))
    assert tracking(state).not_on_board == 102


def test_undo_gives_the_tiles_back() -> None:
    state = play(start("nl"), board("H4", "across", "PLANK"), c.Undo())
    assert tracking(state).not_on_board == 102


def test_bag_goes_negative_near_the_end() -> None:
    # OQ-58: (b) is (a) less the full racks, even below zero.
    letters = [k.face for k in editions.get("nl").kinds for _ in range(k.count)]
    moves = [typed(word("".join(letters[i : i + 7]))) for i in range(0, 91, 7)]
    panel = tracking(play(start("nl"), *moves))
    assert panel.not_on_board == 102 - 91
    assert panel.in_bag == 102 - 91 - 14
    assert panel.warnings == ()


# --- duplicate: the tops only (DUP-16, TRK-03, P-42) ---


@pytest.mark.parametrize(
    ("edition", "players", "in_bag"),
    [
        pytest.param("nl", 1, 95, id="nl-1"),
        pytest.param("nl", 4, 95, id="nl-4"),
        pytest.param("it", 3, 113, id="it-3"),
        pytest.param("pl", 2, 93, id="pl-2"),
    ],
)
def test_duplicate_bag_is_a_less_seven(edition: str, players: int, in_bag: int) -> None:
    panel = tracking(start(edition, players=players, mode="duplicate"))
    assert panel.in_bag == in_bag
    assert panel.not_on_board - panel.in_bag == 7


def test_duplicate_counts_tops_only() -> None:
    state = start("nl", mode="duplicate")
    state = play(state, board("H4", "across", "PLANK"), board("H6", "across", "KAT"))
    assert tracking(state).not_on_board == 102  # players' moves: not on the board
    state = play(state, c.RecordTop(c.BoardMove("H4", "across", "PLANK")))
    panel = tracking(state)
    assert (panel.not_on_board, panel.in_bag) == (97, 90)
    state = play(state, c.RecordTop(typed=(word("KRAAN", "..o.."),)))
    assert tracking(state).not_on_board == 93


def test_duplicate_tops_as_points_are_counted_apart() -> None:
    state = play(start("nl", mode="duplicate"), c.EnterPoints(20), c.RecordTop(points=24))
    state = play(state, c.RecordTop(c.BoardMove("H4", "across", "PLANK")))
    panel = tracking(state)
    assert panel.points_only == 1
    assert panel.not_on_board == 97
