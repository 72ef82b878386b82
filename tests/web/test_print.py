"""The print pages (PRT): blank classic and duplicate sheets, the tile sheet, and the current
game's sheet, each on A4 in print media, as a PDF, with every string in the language file."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import (
    PHONE,
    SCREENSHOTS,
    axe,
    create_table,
    missing_strings,
    open_app,
    post,
    ready,
    shot,
    show,
)
from tests.web.printing import A4, print_from
from tests.web.rooms import register

LANGUAGES = ["nl", "en", "fr", "de", "es", "it", "pl"]
PLANK = {"type": "record_move", "board": {"start": "H4", "direction": "across", "letters": "PLANK"}}
KRAAN = {"type": "record_move", "board": {"start": "F6", "direction": "down", "letters": "KRAN"}}


def open_print(browser: Browser, server: ServerProcess, query: str, language: str = "nl") -> Page:
    page = open_app(browser, server.url, language, f"/print.html?{query}")
    page.set_viewport_size(A4)
    return page


def as_printed(page: Page, name: str) -> int:
    """Print media, a screenshot and an A4 PDF kept as artifacts; the PDF's page count."""
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name=re.compile("."))).to_have_count(0)  # no print button
    shot(page, f"print-{name}")
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / f"print-{name}.pdf").write_bytes(pdf)
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


def rows(page: Page):
    return page.locator("table.sheet tbody tr.round")


# --- blank sheets ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_blank_classic_sheet_has_24_rounds_a_row_for_tiles_left_and_the_final_total(
    browser: Browser, server: ServerProcess, players: int
) -> None:
    page = open_print(browser, server, f"page=classic&players={players}&edition=nl")
    expect(page.get_by_role("heading", name="Scoreformulier")).to_be_visible()
    expect(page.get_by_role("button", name="Afdrukken")).to_be_visible()
    expect(rows(page)).to_have_count(24)  # PRT-01
    expect(page.get_by_role("rowheader", name="Resterende letters")).to_have_count(1)
    expect(page.get_by_role("rowheader", name="Eindtotaal")).to_have_count(1)
    expect(page.get_by_role("columnheader", name="Naam")).to_have_count(players)
    expect(page.get_by_role("columnheader", name="Punten")).to_have_count(players)
    expect(page.get_by_role("columnheader", name="Totaal")).to_have_count(players)
    # PRT-01: the words column only in the two-player version
    expect(page.get_by_role("columnheader", name="Woorden")).to_have_count(
        players if players == 2 else 0
    )
    assert as_printed(page, f"classic-{players}") == 1
    assert missing_strings(page) == []
    page.context.close()


@pytest.mark.parametrize(
    ("edition", "language", "title", "boxes"),
    [
        ("nl", "nl", "Letteroverzicht", 102),  # EDN-10: 100 letters + 2 blanks
        ("pl", "pl", "Wykreślanka", 100),  # PRT-02, EDN-30: 98 letters + 2 blanks
        ("it", "it", "Foglio delle tessere", 120),  # EDN-20: 118 + 2 jolly
        ("en", "en", "Tile tracking sheet", 100),
        ("woordstrijd", "nl", "Letteroverzicht", 105),
    ],
)
def test_tile_sheet_has_a_box_per_tile_blanks_included(
    browser: Browser, server: ServerProcess, edition: str, language: str, title: str, boxes: int
) -> None:
    page = open_print(browser, server, f"page=tiles&edition={edition}", language)
    expect(page.get_by_role("heading", name=title)).to_be_visible()
    expect(page.locator(".tile-sheet .box")).to_have_count(boxes)
    expect(page.locator('.tile-sheet [data-letter="?"] .box')).to_have_count(2)
    assert as_printed(page, f"tiles-{edition}") == 1
    assert missing_strings(page) == []
    page.context.close()


@pytest.mark.parametrize("players", [1, 4])
def test_blank_duplicate_sheet_has_round_top_move_top_and_a_column_per_player(
    browser: Browser, server: ServerProcess, players: int
) -> None:
    page = open_print(browser, server, f"page=duplicate&players={players}")
    expect(page.get_by_role("heading", name="Scoreformulier duplicate")).to_be_visible()
    headers = page.locator("table.sheet thead th")
    expect(headers).to_have_text(["Ronde", "Topzet", "Top", *["Naam"] * players])  # PRT-05
    expect(rows(page)).to_have_count(24)
    for label in ["Totaal", "Verschil met de tops", "Percentage van de tops"]:
        expect(page.get_by_role("rowheader", name=label)).to_have_count(1)
    assert as_printed(page, f"duplicate-{players}") == 1
    page.context.close()


def test_a_blank_sheet_redraws_for_another_number_of_players(
    browser: Browser, server: ServerProcess
) -> None:
    page = open_print(browser, server, "page=classic&players=2")
    page.get_by_label("Aantal spelers").select_option("4")
    expect(page.get_by_role("columnheader", name="Naam")).to_have_count(4)
    expect(page.get_by_role("columnheader", name="Woorden")).to_have_count(0)
    assert "players=4" in page.url
    page.get_by_label("Aantal spelers").select_option("2")
    expect(page.get_by_role("columnheader", name="Woorden")).to_have_count(2)
    page.context.close()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("query", ["page=classic&players=2", "page=tiles", "page=duplicate"])
def test_every_blank_page_has_every_string(
    browser: Browser, server: ServerProcess, language: str, query: str
) -> None:
    page = open_print(browser, server, query, language)
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert missing_strings(page) == []
    page.context.close()


# --- the current game ------------------------------------------------------------------


def test_current_classic_game_prints_rounds_words_totals_and_the_final_table(
    phone: Page, server: ServerProcess
) -> None:
    create_table(phone, ["Anna", ""], rules="Wedstrijdregels (SBNL)")
    post(phone, server, PLANK)
    post(phone, server, KRAAN)
    post(phone, server, {"type": "pass"})
    post(phone, server, {"type": "give_penalty", "player": 0, "points": 20})
    page = print_from(phone, "page=game")
    expect(page.get_by_role("heading", name="Scoreformulier")).to_be_visible()
    expect(page.get_by_role("columnheader", name="Anna")).to_be_visible()
    expect(page.get_by_role("columnheader", name="Speler 2")).to_be_visible()  # SHC-05
    expect(rows(page)).to_have_count(24)  # room to go on on paper
    first, second = rows(page).nth(0).locator("td"), rows(page).nth(1).locator("td")
    expect(first).to_have_text(["PLANK", "28", "28", "KRAAN", "16", "16"])
    expect(second.nth(0)).to_contain_text("Gepast")
    expect(second.nth(0)).to_contain_text("Strafpunten")
    expect(second.nth(1)).to_have_text("0-20")
    expect(second.nth(2)).to_have_text("8")
    assert as_printed(page, "game-classic") == 1

    post(phone, server, {"type": "end_game", "racks": [[None, None], ["QE", None]]})
    page.reload()
    ready(page)
    expect(rows(page)).to_have_count(2)  # an ended game prints as it was played
    tiles_left = page.get_by_role("row", name=re.compile("^Resterende letters"))
    expect(tiles_left.locator("td")).to_have_text(["+11", "-11"])  # END-05
    final = page.get_by_role("row", name=re.compile("^Eindtotaal"))
    expect(final.locator("td")).to_have_text(["19", "5"])
    ranking = page.locator(".ranking")
    expect(ranking.get_by_role("heading", name="Rangschikking")).to_be_visible()
    expect(ranking.locator("tbody tr").first).to_have_text(re.compile("^1Anna8\\+1119$"))
    assert as_printed(page, "game-classic-ended") == 1
    assert missing_strings(page) == []


def test_current_duplicate_game_prints_tops_scores_difference_and_percentage(
    phone: Page, server: ServerProcess
) -> None:
    # The spec's worked example (NL:100-102): tops 24, 36, 18; 72 is −6 and 92,3 %,
    # 65 is −13 and 83,3 %.
    create_table(phone, ["Anna", "Bas"], mode="Duplicate: iedereen dezelfde letters")
    for anna, bas, top in [(24, 20, 24), (30, 36, 36), (18, 9, 18)]:
        post(phone, server, {"type": "enter_points", "points": anna})
        post(phone, server, {"type": "enter_points", "points": bas})
        post(phone, server, {"type": "record_top", "points": top})
    page = print_from(phone, "page=duplicate-game")
    expect(page.get_by_role("heading", name="Scoreformulier duplicate")).to_be_visible()
    expect(page.locator("table.sheet thead th")).to_have_text(
        ["Ronde", "Topzet", "Top", "Anna", "Bas"]
    )
    expect(rows(page)).to_have_count(24)
    expect(rows(page).nth(1).locator("td")).to_have_text(["", "36", "30", "36"])
    footer = page.locator("table.sheet tfoot tr")
    expect(footer.nth(0).locator("td")).to_have_text(["78", "72", "65"])
    expect(footer.nth(1).locator("td")).to_have_text(["", "-6", "-13"])  # FMT-03
    expect(footer.nth(2).locator("td")).to_have_text(["", "92,3%", "83,3%"])  # FMT-02
    assert as_printed(page, "game-duplicate") == 1

    post(phone, server, {"type": "end_game"})
    page.reload()
    ready(page)
    expect(rows(page)).to_have_count(3)
    ranking = page.locator(".ranking tbody tr")
    expect(ranking.nth(0)).to_have_text("1Anna72-692,3%")
    expect(ranking.nth(1)).to_have_text("2Bas65-1383,3%")
    assert missing_strings(page) == []


def test_a_rooms_game_prints_the_rounds_it_played_and_no_rows_to_go_on_by_hand(
    phone: Page, server: ServerProcess
) -> None:
    """A room's rounds are drawn and closed in the app (here a rack typed, its top laid):
    its sheet has the rounds played, not the blank rows a sheet kept at a table goes on in."""
    create_table(phone, ["Anna", "Bas"], mode="Duplicate: iedereen dezelfde letters")
    post(phone, server, {"type": "set_rack", "rack": "PLANKES", "round": 0, "force": True})
    top = {"start": "H4", "direction": "across", "letters": "PLANK"}
    post(phone, server, {"type": "record_top", "board": top, "round": 0})
    page = print_from(phone, "page=duplicate-game")
    expect(rows(page)).to_have_count(1)
    expect(rows(page).nth(0).locator("td").nth(1)).to_have_text("28")
    assert missing_strings(page) == []


def test_a_rooms_game_prints_four_players_a_page_each_with_their_own_scores(
    phone: Page, server: ServerProcess
) -> None:
    # Nine players in a room: three sheets of three columns, each on a page of its own (one
    # sheet of nine columns overprinted its names and figures), each column its own player's.
    code = create_table(phone, ["Anna", "Bas"], mode="Duplicate: iedereen dezelfde letters")
    others = [f"Speler {n}" for n in range(3, 10)]
    for name in others:
        register(server, code, name)
    for points in range(1, 10):
        post(phone, server, {"type": "enter_points", "points": points})
    post(phone, server, {"type": "record_top", "points": 20})
    page = print_from(phone, "page=duplicate-game")
    sheets = page.locator("table.sheet")
    expect(sheets).to_have_count(3)
    names = ["Anna", "Bas", *others]
    for n in range(3):
        sheet = sheets.nth(n)
        expect(sheet.locator("thead th")).to_have_text(
            ["Ronde", "Topzet", "Top", *names[3 * n : 3 * n + 3]]
        )
        expect(sheet.locator("tbody tr.round").first.locator("td")).to_have_text(
            ["", "20", *(str(3 * n + p) for p in (1, 2, 3))]
        )
        expect(sheet.locator("tfoot tr").first.locator("td")).to_have_text(
            ["20", *(str(3 * n + p) for p in (1, 2, 3))]
        )
    last = page.get_by_role("region", name="Scoreformulier duplicate: Speler 7, Speler 8, Speler 9")
    expect(last).to_be_visible()
    assert as_printed(page, "game-duplicate-room") == 3
    assert axe(page) == []


def test_duplicate_top_move_shows_its_words_and_square(phone: Page, server: ServerProcess) -> None:
    create_table(phone, ["Anna"], mode="Duplicate: iedereen dezelfde letters")
    post(phone, server, {"type": "enter_points", "points": 20})
    post(phone, server, {**PLANK, "type": "record_top"})
    page = print_from(phone, "page=game")  # the sheet's mode picks the layout
    # FISF rules, the default duplicate rule set: the reference alone says across (H4).
    expect(rows(page).first.locator("td")).to_have_text(["PLANK H4", "28", "20"])
    expect(page.locator("table.sheet tfoot tr").nth(2).locator("td")).to_have_text(["", "71,4%"])


def test_without_a_game_the_game_page_says_so(browser: Browser, server: ServerProcess) -> None:
    page = open_print(browser, server, "page=game")
    expect(page.locator(".problem")).to_have_text(
        "Er loopt geen spel op deze telefoon. Begin of open een spel en druk het dan af."
    )
    assert missing_strings(page) == []
    page.context.close()


# --- the print links in the app ---------------------------------------------------------


def test_print_links_open_the_pages_in_a_new_tab(phone: Page, server: ServerProcess) -> None:
    section = phone.locator("#print-links")
    expect(section.get_by_role("heading", name="Afdrukken")).to_be_visible()
    links = section.get_by_role("link")
    expect(links).to_have_text(
        [
            "Leeg scoreformulier voor 2 spelers",
            "Leeg scoreformulier voor 3 spelers",
            "Leeg scoreformulier voor 4 spelers",
            "Letteroverzicht: Nederlands (SBNL)",
            "Leeg formulier voor duplicate",  # PRT-04
        ]
    )
    expect(links.first).to_have_attribute("href", "/print.html?page=classic&players=2")
    expect(links.first).to_have_attribute("target", "_blank")
    expect(links.nth(4)).to_have_attribute("href", "/print.html?page=duplicate&players=4")

    create_table(phone, ["Anna", "Bas"])
    post(phone, server, PLANK)
    show(phone, "table")  # at a table the print links are in the Table view
    game = section.get_by_role("link", name="Het formulier van dit spel")  # PRT-03, NL:104
    expect(game).to_have_attribute("href", "/print.html?page=game")
    section.scroll_into_view_if_needed()
    shot(phone, "print-links")
    with phone.context.expect_page() as opened:
        game.click()
    page = opened.value
    ready(page)
    expect(rows(page).first.locator("td").first).to_have_text("PLANK")


def test_print_links_in_polish_name_the_duplicate_sheets_as_the_source_does(
    browser: Browser, server: ServerProcess
) -> None:
    page = open_app(browser, server.url, "pl")
    section = page.locator("#print-links")
    expect(section.get_by_role("link", name="Pusty arkusz duplicate")).to_be_visible()
    expect(section.get_by_role("link", name="Wykreślanka", exact=False)).to_be_visible()
    page.context.close()


# --- accessibility ------------------------------------------------------------------------

PAGES = [
    "page=classic&players=4",
    "page=classic&players=2",
    "page=tiles",
    "page=duplicate",
    "page=game",
]


@pytest.mark.parametrize("language", ["nl", "pl"])
@pytest.mark.parametrize("query", PAGES)
def test_every_print_page_passes_axe_on_a_phone_and_on_a4(
    browser: Browser, server: ServerProcess, query: str, language: str
) -> None:
    """No serious or critical violation, and every control inside a landmark (axe's
    "region"), on a phone, where a sheet wider than the screen scrolls, and at A4 width."""
    page = open_app(browser, server.url, language, f"/print.html?{query}")
    for size in (PHONE, A4):
        page.set_viewport_size(size)
        found = axe(page)
        assert found == [], found
        regions = [v["id"] for v in Axe().run(page).response["violations"] if v["id"] == "region"]
        assert regions == []
    assert missing_strings(page) == []
    page.context.close()


def test_a_sheet_wider_than_the_phone_scrolls_in_a_named_region_the_keyboard_reaches(
    browser: Browser, server: ServerProcess
) -> None:
    page = open_app(browser, server.url, "nl", "/print.html?page=duplicate&players=4")
    region = page.get_by_role("region", name="Scoreformulier duplicate")
    assert region.evaluate("r => r.scrollWidth > r.clientWidth")  # 390 px: it scrolls
    expect(page.get_by_role("main")).to_contain_text("Afdrukken")  # the toolbar is in main
    for _ in range(4):
        page.keyboard.press("Tab")
        if region.evaluate("r => r === document.activeElement"):
            break
    expect(region).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.sheet-scroll').scrollLeft > 0")
    shot(page, "print-duplicate-4-phone-scrolled", full_page=False)
    page.context.close()


def test_with_a_game_the_game_pages_pass_axe(phone: Page, server: ServerProcess) -> None:
    create_table(phone, ["Anna", "Bas"])
    post(phone, server, PLANK)
    page = print_from(phone, "page=game")
    page.set_viewport_size(PHONE)
    assert axe(page) == []
