"""What phones see (rules.views): duplicate standings, notices, number formats and the result
text to copy (DUP-05..07/11/15, END-07..09, FMT-01..03, P-03, P-42)."""

import pytest

from events import commands as c
from events.commands import RackLeft
from events.events import Mode
from rules import views
from rules.state import State
from rules.table import record
from rules.views import SheetView, view

EMPTY = RackLeft()
LANGUAGES = ["nl", "en", "fr", "de", "es", "it", "pl"]
DEFAULT_NAMES = {
    "nl": "Speler",
    "en": "Player",
    "fr": "Joueur",
    "de": "Spieler",
    "es": "Jugador",
    "it": "Giocatore",
    "pl": "Osoba",
}


def start(
    edition: str = "nl",
    players: tuple[str | None, ...] = (None, None),
    mode: Mode = "classic",
    rules: str = "house",
) -> State:
    command = c.StartGame(edition, mode=mode, rules=rules, players=players)
    state, _ = record(State(), command)
    return state


def play(state: State, *commands: c.TableCommand) -> State:
    for command in commands:
        state, _ = record(state, command)
    return state


def sheet(state: State) -> SheetView:
    found = view(state).sheet
    assert found is not None
    return found


def duplicate_game(edition: str, rounds: list[tuple[int, ...]], players: int = 2) -> State:
    """Rounds of (player scores …, top), entered as a director does."""
    state = start(edition, (None,) * players, "duplicate")
    for *scores, top in rounds:
        state = play(state, *(c.EnterPoints(s) for s in scores), c.RecordTop(points=top))
    return state


TOPS_78 = [(24, 20, 24), (30, 36, 36), (18, 9, 18)]  # TV-NL-14, TV-IT-12, TV-PL-14


def assert_result_lines(text: str, expected: list[tuple[int, str, list[str]]]) -> None:
    """Each line: its place first, then the name, then these figures in this order."""
    lines = text.splitlines()
    assert len(lines) == len(expected)
    for line, (place, name, figures) in zip(lines, expected, strict=True):
        assert line.startswith(f"{place}."), line
        rest = line[len(f"{place}.") :]
        assert name in rest, line
        rest = rest[rest.index(name) + len(name) :]
        for figure in figures:
            assert figure in rest, (figure, line)
            rest = rest[rest.index(figure) + len(figure) :]
    assert "http" not in text and "://" not in text  # END-09: text, without a link


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
    state = play(start("nl", (None, None), "duplicate"), c.EnterPoints(20))
    assert [s.percent_tenths for s in sheet(state).standings] == [None, None]
    assert views.format_percent(None, "nl") == "–"


def test_classic_has_no_standings() -> None:
    assert sheet(start()).standings == ()


# --- notices: shown, never blocking ---


def test_over_top_is_a_notice_not_a_block() -> None:
    # TV-D-17 / DUP-11 / P-42
    state = start("nl", (None, None), "duplicate")
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


# --- number formats (FMT) ---


@pytest.mark.parametrize(
    ("value", "language", "text"),
    [
        pytest.param(2000, "nl", "2.000", id="FMT-01-nl"),
        pytest.param(254957, "nl", "254.957", id="FMT-01-nl-swl"),
        pytest.param(2000, "it", "2000", id="FMT-01-it"),
        pytest.param(2000, "pl", "2000", id="FMT-01-pl"),
        pytest.param(999, "nl", "999", id="three-digits"),
        pytest.param(-6, "nl", "-6", id="FMT-03-minus-6"),
        pytest.param(-13, "it", "-13", id="FMT-03-minus-13"),
        pytest.param(0, "pl", "0", id="FMT-03-zero"),
    ],
)
def test_format_number(value: int, language: str, text: str) -> None:
    assert views.format_number(value, language) == text


@pytest.mark.parametrize(
    ("tenths", "language", "text"),
    [
        pytest.param(923, "nl", "92,3%", id="FMT-02-nl"),
        pytest.param(833, "it", "83,3%", id="FMT-02-it"),
        pytest.param(923, "pl", "92,3%", id="FMT-02-pl"),
        pytest.param(1000, "nl", "100,0%", id="TV-D-16"),
        pytest.param(0, "nl", "0,0%", id="zero"),
        pytest.param(None, "pl", "–", id="P-42"),
    ],
)
def test_format_percent(tenths: int | None, language: str, text: str) -> None:
    assert views.format_percent(tenths, language) == text


# --- the result text (END-09, DUP-15) ---


def test_result_text_tv_nl_12_default_names() -> None:
    state = play(start("nl", rules="sbnl"), c.EnterPoints(510), c.EnterPoints(520))
    state = play(state, c.EndGame((EMPTY, RackLeft(points=6))))
    assert_result_lines(
        views.result_text(state, "nl"),
        [(1, "Speler 1", ["516"]), (2, "Speler 2", ["514"])],
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_result_text_default_names_per_language(language: str) -> None:
    # P-03; SHC-05: "Osoba 1", "Osoba 2" …
    state = play(start("nl", (None, "Anna", None)), c.EnterPoints(5), c.EnterPoints(30))
    state = play(state, c.EnterPoints(20), c.EndGame((EMPTY, RackLeft("A"), RackLeft("B"))))
    name = DEFAULT_NAMES[language]
    assert_result_lines(
        views.result_text(state, language),
        [(1, "Anna", ["29"]), (2, f"{name} 3", ["17"]), (3, f"{name} 1", ["9"])],
    )


def test_result_text_ranks_ties_competition_style() -> None:
    # TV-D-25
    state = play(start("nl", (None, None, None)), c.EnterPoints(300), c.EnterPoints(250))
    state = play(state, c.EnterPoints(300), c.EndGame((RackLeft(points=0),) * 3))
    assert_result_lines(
        views.result_text(state, "nl"),
        [(1, "Speler 1", ["300"]), (1, "Speler 3", ["300"]), (3, "Speler 2", ["250"])],
    )


@pytest.mark.parametrize(
    ("language", "figure", "not_figure"),
    [
        pytest.param("nl", "2.000", "2000", id="FMT-01-nl"),
        pytest.param("it", "2000", "2.000", id="FMT-01-it"),
        pytest.param("pl", "2000", "2.000", id="FMT-01-pl"),
    ],
)
def test_result_text_thousands(language: str, figure: str, not_figure: str) -> None:
    state = play(start("nl"), c.EnterPoints(2000), c.EnterPoints(10))
    state = play(state, c.EndGame((RackLeft(points=0), RackLeft(points=0))))
    text = views.result_text(state, language)
    assert_result_lines(
        text,
        [
            (1, f"{DEFAULT_NAMES[language]} 1", [figure]),
            (2, f"{DEFAULT_NAMES[language]} 2", ["10"]),
        ],
    )
    assert not_figure not in text


@pytest.mark.parametrize(
    ("language", "edition"),
    [
        pytest.param("nl", "nl", id="TV-NL-14"),
        pytest.param("it", "it", id="TV-IT-12"),
        pytest.param("pl", "pl", id="TV-PL-14"),
    ],
)
def test_result_text_duplicate(language: str, edition: str) -> None:
    state = play(duplicate_game(edition, TOPS_78), c.EndGame())
    name = DEFAULT_NAMES[language]
    assert_result_lines(
        views.result_text(state, language),
        [(1, f"{name} 1", ["72", "-6", "92,3%"]), (2, f"{name} 2", ["65", "-13", "83,3%"])],
    )


def test_result_text_duplicate_all_tops() -> None:
    state = play(duplicate_game("nl", [(24, 24), (36, 36), (18, 18)], players=1), c.EndGame())
    assert_result_lines(views.result_text(state, "nl"), [(1, "Speler 1", ["78", "0", "100,0%"])])


def test_result_text_duplicate_before_any_top() -> None:
    # P-42: no tops yet → "–".
    state = play(start("nl", (None,), "duplicate"), c.EnterPoints(12), c.EndGame())
    assert_result_lines(views.result_text(state, "nl"), [(1, "Speler 1", ["12", "–"])])


# --- the view itself ---


def test_view_of_an_empty_table() -> None:
    table = view(State())
    assert (table.seq, table.sheet, table.warnings) == (0, None, ())


def test_view_shows_totals_and_who_is_to_move() -> None:
    # SHC-10
    state = play(start("nl", ("Anna", None, None)), c.EnterPoints(12), c.Pass())
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


def test_view_is_the_same_for_every_viewer_at_a_table() -> None:
    state = play(start(), c.EnterPoints(12))
    assert view(state, views.Viewer(0)) == view(state, views.Viewer(1)) == view(state)
