"""The end of a classic game (§12 END, P-35, P-36): racks, settlement, the final table, what
may follow the end, and 'new game, same players'."""

import pytest

import editions
from events import commands as c
from events.commands import RackLeft, TypedLetter
from rules.errors import GameError
from rules.table import settlement
from rules.table.record import record
from rules.table.state import State
from rules.table.views import view
from tests.rules.table.recording import play, start

EMPTY = RackLeft()


def scores(state: State, *points: int) -> State:
    """Each player in turn enters these points."""
    return play(state, *(c.EnterPoints(p) for p in points))


def refusal(state: State, command: c.TableCommand) -> GameError:
    with pytest.raises(GameError) as refused:
        record(state, command)
    return refused.value


def final(state: State) -> list[tuple[int, int, int, int]]:
    """The final table: (before, settlement, final, place) per player."""
    sheet = view(state).sheet
    assert sheet is not None and sheet.final is not None
    return [(row.before, row.settlement, row.final, row.place) for row in sheet.final]


# id, edition, rules, scores before the end (in turn order), racks, final table
SETTLEMENTS = [
    pytest.param(
        "nl",
        "sbnl",
        [450, 460],
        [RackLeft(points=4), RackLeft(points=15)],
        [(450, -4, 446, 1), (460, -15, 445, 2)],
        id="TV-NL-11",
    ),
    pytest.param(
        "nl",
        "sbnl",
        [510, 520],
        [EMPTY, RackLeft(points=6)],
        [(510, 6, 516, 1), (520, -6, 514, 2)],
        id="TV-NL-12",
    ),
    pytest.param(
        "it",
        "figs",
        [300, 280],
        [EMPTY, RackLeft("ZA")],
        [(300, 9, 309, 1), (280, -9, 271, 2)],
        id="TV-IT-10",
    ),
    pytest.param(
        "it",
        "figs",
        [300, 280],
        [RackLeft("za"), EMPTY],
        [(300, -9, 291, 1), (280, 9, 289, 2)],
        id="TV-IT-10-lower-case",
    ),
    pytest.param(
        "pl",
        "pfs",
        [200, 210],
        [RackLeft("ŻB"), EMPTY],
        [(200, -8, 192, 2), (210, 8, 218, 1)],
        id="TV-PL-12",
    ),
    pytest.param(
        "pl",
        "pfs-house",
        [200, 210, 190],
        [RackLeft("żb"), RackLeft(), RackLeft("?")],
        [(200, -8, 192, 2), (210, 8, 218, 1), (190, 0, 190, 3)],
        id="TV-PL-12-blank-counts-0",
    ),
    pytest.param(
        "pl",
        "pfs",
        [423, 410],
        [EMPTY, RackLeft(points=5)],
        [(423, 5, 428, 1), (410, -5, 405, 2)],
        id="TV-PL-13",
    ),
    pytest.param(
        "nl",
        "house",
        [100, 90, 80],
        [EMPTY, RackLeft("Q"), RackLeft("C")],
        [(100, 15, 115, 1), (90, -10, 80, 2), (80, -5, 75, 3)],
        id="TV-D-12",
    ),
    pytest.param(
        "nl",
        "house",
        [100, 90, 80],
        [EMPTY, RackLeft(points=10), RackLeft(points=5)],
        [(100, 15, 115, 1), (90, -10, 80, 2), (80, -5, 75, 3)],
        id="TV-D-12-points",
    ),
    pytest.param(
        "nl",
        "house",
        [300, 300, 250],
        [RackLeft(points=0)] * 3,
        [(300, 0, 300, 1), (300, 0, 300, 1), (250, 0, 250, 3)],
        id="TV-D-25",
    ),
    pytest.param(
        "nl",
        "house",
        [300, 250, 300, 250],
        [RackLeft(points=0)] * 4,
        [(300, 0, 300, 1), (250, 0, 250, 3), (300, 0, 300, 1), (250, 0, 250, 3)],
        id="P-35-two-ties",
    ),
    pytest.param(
        "nl",
        "house",
        [40, 30],
        [RackLeft("IJ"), EMPTY],
        [(40, -5, 35, 1), (30, 5, 35, 1)],
        id="P-36-IJ-two-tiles-and-a-tie",
    ),
    pytest.param(
        "nl",
        "house",
        [40, 30],
        [RackLeft("ĳ?"), EMPTY],
        [(40, -5, 35, 1), (30, 5, 35, 1)],
        id="P-20-ij-ligature",
    ),
    pytest.param(
        "nl",
        "house",
        [40, 30],
        [RackLeft("??"), RackLeft("É")],
        [(40, 0, 40, 1), (30, -1, 29, 2)],
        id="ALP-02-accent-and-blanks",
    ),
]


@pytest.mark.parametrize(("edition", "rules", "before", "racks", "table"), SETTLEMENTS)
def test_end_game_settles_and_places(
    edition: str,
    rules: str,
    before: list[int],
    racks: list[RackLeft],
    table: list[tuple[int, int, int, int]],
) -> None:
    state = scores(start(edition, rules, len(before)), *before)
    state = play(state, c.EndGame(tuple(racks)))
    assert final(state) == table
    sheet = view(state).sheet
    assert sheet is not None and sheet.ended


def test_tv_pl_13_the_record_move_then_settlement() -> None:
    # Banaszek's 115 lifts the finisher from 308 to 423 against 410; the rack holds 5.
    state = scores(start("pl", "pfs"), 308, 410, 115)
    state = play(state, c.EndGame((EMPTY, RackLeft(points=5))))
    assert final(state) == [(423, 5, 428, 1), (410, -5, 405, 2)]


def test_tv_nl_11_after_a_run_of_passes() -> None:
    # The SBNL case the rules work out: the game ends after three passes, nobody went out.
    state = scores(start("nl", "sbnl"), 450, 460)
    state = play(state, c.Pass(), c.Pass(), c.Pass())
    state = play(state, c.EndGame((RackLeft(points=4), RackLeft(points=15))))
    assert final(state) == [(450, -4, 446, 1), (460, -15, 445, 2)]


def test_final_before_column_includes_penalties() -> None:
    state = scores(start("nl", "sbnl"), 510, 520)
    state = play(state, c.GivePenalty(1, 20), c.EndGame((EMPTY, RackLeft(points=6))))
    assert final(state) == [(510, 6, 516, 1), (500, -6, 494, 2)]


# --- P-36: what a rack may hold ---

# id, edition, racks, code, params that must be in the refusal
BAD_RACKS = [
    pytest.param(
        "it", (RackLeft("K"), EMPTY), "letter_not_in_set", {"letter": "K"}, id="IT-K-not-in-set"
    ),
    pytest.param(
        "pl", (EMPTY, RackLeft("AQ")), "letter_not_in_set", {"letter": "Q"}, id="PL-Q-not-in-set"
    ),
    pytest.param(
        "nl",
        (RackLeft("AAAAAAAA"), EMPTY),
        "too_many_letters",
        {"player": 0, "count": 8, "max": 7},
        id="eight-letters",
    ),
    pytest.param(
        "nl",
        (EMPTY, RackLeft("AAAAAAIJ")),
        "too_many_letters",
        {"player": 1, "count": 8, "max": 7},
        id="IJ-counts-two",
    ),
    pytest.param(
        "nl",
        (RackLeft("???"), EMPTY),
        "too_many_blanks",
        {"player": 0, "count": 3, "max": 2},
        id="three-blanks",
    ),
    pytest.param("nl", (EMPTY, EMPTY), "two_empty_racks", {}, id="TV-D-13"),
    pytest.param(
        "nl",
        (RackLeft(""), RackLeft(letters="")),
        "two_empty_racks",
        {},
        id="TV-D-13-empty-strings",
    ),
    pytest.param("nl", (), "two_empty_racks", {}, id="TV-D-13-no-racks"),
    pytest.param("nl", (RackLeft("A1"), EMPTY), "invalid_character", {}, id="digit"),
    pytest.param("nl", (RackLeft("A-B"), EMPTY), "invalid_character", {}, id="symbol"),
    pytest.param(
        "nl",
        (RackLeft("AB", 4), EMPTY),
        "rack_letters_and_points",
        {"player": 0},
        id="letters-and-points",
    ),
    pytest.param(
        "nl", (RackLeft(points=2001), EMPTY), "points_out_of_range", {}, id="points-over-2000"
    ),
    pytest.param(
        "nl", (RackLeft(points=-3), EMPTY), "points_out_of_range", {}, id="points-negative"
    ),
    pytest.param("nl", (EMPTY,), "rack_count", {"count": 1, "players": 2}, id="one-rack"),
    pytest.param(
        "nl",
        (EMPTY, RackLeft("A"), RackLeft("B")),
        "rack_count",
        {"count": 3, "players": 2},
        id="three-racks",
    ),
]


@pytest.mark.parametrize(("edition", "racks", "code", "params"), BAD_RACKS)
def test_end_game_refuses_bad_racks(
    edition: str, racks: tuple[RackLeft, ...], code: str, params: dict
) -> None:
    state = scores(start(edition), 50, 40)
    refused = refusal(state, c.EndGame(racks))
    assert refused.code == code
    assert params.items() <= refused.params.items()
    assert not (view(state).sheet and view(state).sheet.ended)


def test_end_game_three_players_two_empty_refused() -> None:
    state = scores(start("nl", "house", 3), 50, 40, 30)
    refused = refusal(state, c.EndGame((EMPTY, RackLeft("A"), EMPTY)))
    assert refused.code == "two_empty_racks"


@pytest.mark.parametrize(
    ("rules", "limit"),
    [pytest.param("house", 4, id="house"), pytest.param("sbnl", 3, id="sbnl")],
)
def test_end_game_after_a_pass_run_needs_every_rack(rules: str, limit: int) -> None:
    # P-36 / END-06: after a run of passes nobody went out.
    state = play(scores(start("nl", rules), 50, 40), *[c.Pass()] * limit)
    refused = refusal(state, c.EndGame((EMPTY, RackLeft("A"))))
    assert refused.code == "rack_needed_after_passes"
    assert refused.params["player"] == 0
    state = play(state, c.EndGame((RackLeft("B"), RackLeft("A"))))
    assert final(state) == [(50, -3, 47, 1), (40, -1, 39, 2)]


def test_end_game_empty_field_allowed_when_the_pass_run_was_broken() -> None:
    state = play(scores(start("nl", "sbnl"), 50, 40), c.Pass(), c.Pass(), c.Pass())
    state = scores(state, 6)  # player 1 goes out after all
    state = play(state, c.EndGame((RackLeft("B"), EMPTY)))
    assert final(state) == [(50, -3, 47, 2), (46, 3, 49, 1)]


@pytest.mark.parametrize(
    ("rack", "value"),
    [
        pytest.param(RackLeft("AAAAAIJ"), 10, id="seven-tiles-with-IJ"),
        pytest.param(RackLeft("??"), 0, id="two-blanks"),
        pytest.param(RackLeft("Qq"), 20, id="case-ignored"),
        pytest.param(RackLeft(points=2000), 2000, id="points-2000"),
        pytest.param(RackLeft(points=0), 0, id="points-0"),
    ],
)
def test_end_game_accepts_racks_within_the_rules(rack: RackLeft, value: int) -> None:
    state = scores(start("nl"), 50, 40)
    state = play(state, c.EndGame((EMPTY, rack)))
    assert final(state)[1][1] == -value


# --- after the end ---


def ended() -> State:
    state = scores(start("nl", "house"), 50, 40)
    state = play(state, c.RecordMove(c.BoardMove("H4", "across", "PLANK")))
    return play(state, c.EndGame((EMPTY, RackLeft("A"))))


AFTER_THE_END = [
    pytest.param(c.EndGame((EMPTY, RackLeft("A"))), id="end-twice"),
    pytest.param(c.EnterPoints(10), id="enter_points"),
    pytest.param(c.RecordMove(c.BoardMove("G8", "down", "AS")), id="record_move"),
    pytest.param(c.RecordMove(typed=((TypedLetter("A"), TypedLetter("S")),)), id="typed"),
    pytest.param(c.Pass(), id="pass"),
    pytest.param(c.Exchange(), id="exchange"),
    pytest.param(c.WithdrawWord(), id="withdraw_word"),
    pytest.param(c.GivePenalty(0, 10), id="give_penalty"),
    pytest.param(c.PlaceTiles(c.BoardMove("G8", "down", "AS")), id="place_tiles"),
    pytest.param(c.ClearBoard(), id="clear_board"),
    pytest.param(c.RecordTop(points=20), id="record_top"),
    pytest.param(c.CorrectCell(0, 0, 10), id="correct_cell"),
    pytest.param(c.StartClock(), id="start_clock"),
    pytest.param(c.ResetClock(), id="reset_clock"),
]


@pytest.mark.parametrize("command", AFTER_THE_END)
def test_commands_after_the_end_refused(command: c.TableCommand) -> None:
    state = ended()
    assert refusal(state, command).code == "game_over"


def test_undo_of_the_end_reopens_the_game() -> None:
    state = play(ended(), c.Undo())
    sheet = view(state).sheet
    assert sheet is not None
    assert not sheet.ended and sheet.final is None
    assert sheet.totals == (78, 40)
    state = play(state, c.Pass())  # player 1 is to move again
    sheet = view(state).sheet
    assert sheet is not None and sheet.lines[-1].player == 1
    state = play(state, c.EndGame((RackLeft("E"), EMPTY)))
    assert final(state) == [(78, -1, 77, 1), (40, 1, 41, 2)]


@pytest.mark.parametrize(
    ("players", "starter", "next_starter"),
    [
        pytest.param(2, 0, 1, id="2p"),
        pytest.param(2, 1, 0, id="2p-wraps"),
        pytest.param(3, 1, 2, id="3p"),
        pytest.param(4, 3, 0, id="4p-wraps"),
    ],
)
def test_new_game_same_players_next_starts(players: int, starter: int, next_starter: int) -> None:
    # P-35 / END-10: the player after the previous starter begins.
    names = ("Anna", None, "Carla", "Dirk")[:players]
    state, _ = record(State(), c.StartGame("pl", rules="pfs-house", players=names, starter=starter))
    state = play(state, c.EnterPoints(30), c.RecordMove(c.BoardMove("H6", "across", "KOT")))
    state = play(state, c.EndGame((RackLeft("A"), EMPTY) + (RackLeft("B"),) * (players - 2)))
    state = play(state, c.NewGame())
    game = state.game
    assert game is not None
    assert (game.edition.code, game.mode, game.rules.code, game.players) == (
        "pl",
        "classic",
        "pfs-house",
        names,
    )
    assert game.starter == next_starter
    assert game.to_move == next_starter
    assert game.totals == (0,) * players
    assert game.lines == ()
    assert game.ended is None
    sheet = view(state).sheet
    assert sheet is not None
    assert sheet.board is not None and set("".join(sheet.board)) == {"."}
    assert sheet.tracking.not_on_board == 100


def test_new_game_before_the_end_also_starts_afresh() -> None:
    state = play(scores(start("nl", starter=1), 20), c.NewGame())
    assert state.game is not None and state.game.starter == 0 and state.game.totals == (0, 0)


def test_undo_does_not_reach_into_the_previous_game() -> None:
    state = play(ended(), c.NewGame())
    assert refusal(state, c.Undo()).code == "nothing_to_undo"


def test_duplicate_end_has_no_settlement() -> None:
    # DUP-14: the ranking only; racks are not asked for.
    state, _ = record(State(), c.StartGame("nl", mode="duplicate", players=(None, None)))
    state = play(state, c.EnterPoints(20), c.EnterPoints(30), c.RecordTop(points=30))
    state = play(state, c.EndGame())
    assert final(state) == [(20, 0, 20, 2), (30, 0, 30, 1)]


# --- the pure helpers ---


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        pytest.param([4, 15], (-4, -15), id="TV-NL-11"),
        pytest.param([None, 6], (6, -6), id="TV-NL-12"),
        pytest.param([9, None], (-9, 9), id="TV-IT-10"),
        pytest.param([None, 10, 5], (15, -10, -5), id="TV-D-12"),
        pytest.param([None, 0], (0, 0), id="nothing-left"),
        pytest.param([3, 0, None, 7], (-3, 0, 10, -7), id="four-players"),
    ],
)
def test_settle(values: list[int | None], expected: tuple[int, ...]) -> None:
    assert settlement.settle(values) == expected


@pytest.mark.parametrize(
    ("finals", "expected"),
    [
        pytest.param([300, 300, 250], (1, 1, 3), id="TV-D-25"),
        pytest.param([446, 445], (1, 2), id="TV-NL-11"),
        pytest.param([10, 20, 20, 30], (4, 2, 2, 1), id="middle-tie"),
        pytest.param([5, 5, 5], (1, 1, 1), id="all-tied"),
        pytest.param([-5, 0], (2, 1), id="negative"),
    ],
)
def test_places_competition_style(finals: list[int], expected: tuple[int, ...]) -> None:
    assert settlement.places(finals) == expected


@pytest.mark.parametrize(
    ("edition", "rack", "value"),
    [
        pytest.param("it", RackLeft("ZA"), 9, id="TV-IT-10"),
        pytest.param("pl", RackLeft("ŻB"), 8, id="TV-PL-12"),
        pytest.param("nl", RackLeft("IJ?"), 5, id="IJ-and-blank"),
        pytest.param("nl", RackLeft(points=6), 6, id="points"),
        pytest.param("nl", RackLeft(), None, id="went-out"),
    ],
)
def test_rack_value(edition: str, rack: RackLeft, value: int | None) -> None:
    assert settlement.rack_value(editions.get(edition), rack) == value
