"""The calculator: typed words with their marks, board mode, the server's score with a formula
under every word, recording on the sheet, refusals with their reason, the share link."""

import json
import re
from urllib.parse import quote, unquote

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import (
    create_table,
    join_table,
    missing_strings,
    open_app,
    ready,
    shot,
    show,
)


@pytest.fixture
def phone(phone: Page) -> Page:
    """The Dutch phone of conftest, in the calculator's view (the app shows one at a time)."""
    show(phone, "score")
    return phone


def calculator(page: Page):
    return page.locator("#calculator")


def total(page: Page):
    return page.locator("#calc-total")


def formulas(page: Page):
    return page.locator("#calculator .formula")


def type_word(page: Page, index: int, text: str) -> None:
    """Fill the main word (0) or a cross word, adding its box when needed."""
    box = page.locator(f"#calc-word-{index}")
    if not box.count():
        calculator(page).locator(".add-word").click()
    box.fill(text)


def mark(page: Page, word: int, tile: int, marks: str) -> None:
    """Open a tile's panel and set its marks: "2W", "old", "blank" (space separated)."""
    page.locator(f"#calc-tile-{word}-{tile}").click()
    for item in marks.split():
        if item == "old":
            page.locator(f"#calc-tile-{word}-{tile}-old").check()
        elif item == "blank":
            page.locator(f"#calc-tile-{word}-{tile}-blank").check()
        else:
            page.locator(f"#calc-tile-{word}-{tile}-premium-{item}").check()
    page.locator(f"#calc-tile-{word}-{tile}-panel button").click()


def choose_edition(page: Page, edition: str) -> None:
    calculator(page).locator("#calc-edition").select_option(edition)


def square(page: Page, name: str):
    return page.locator(f'#calc-board [data-square="{name}"]')


def cell(page: Page, name: str):
    """The board's table cell of a square: its classes say premium, tile, new, start."""
    return page.locator(f'#calc-board td:has([data-square="{name}"])')


def board_mode(page: Page) -> None:
    page.locator("#calc-mode-board").check()
    expect(page.locator("#calc-board")).to_be_visible()


def lay(page: Page, start: str, letters: str, down: bool = False) -> None:
    """Board mode: tap the start (twice to turn it down) and type the rack letters."""
    square(page, start).click()
    if down:
        square(page, start).click()
    page.locator("#calc-letters").fill(letters)


# Typed moves from §20 with the marks the documents give: word → {tile index: marks}.
TYPED = [
    ("nl", "nl", [("index", {0: "2W", 4: "3L"})], 58, "(1 + 1 + 2 + 1 + 8 × 3) × 2 = 58"),
    (
        "nl",
        "nl",
        [("boek", {3: "3L"}), ("kaas", {0: "3L", 1: "old", 2: "old", 3: "old"})],
        27,
        "3 × 3 + 1 + 1 + 2 = 13",
    ),
    ("nl", "nl", [("ijs", {})], 7, "1 + 4 + 2 = 7"),
    (
        "nl",
        "nl",
        [("letters", {0: "2W", 3: "old", 6: "2W"})],
        52,
        "(3 + 1 + 2 + 2 + 1 + 2 + 2) × 4 = 52",
    ),
    (
        "it",
        "it",
        [
            ("fragola", {4: "2W"}),
            ("poster", {0: "old", 1: "old", 2: "old", 3: "old", 4: "old"}),
        ],
        105,
        "5 + 1 + 2 + 2 + 1 + 2 = 13",
    ),
    ("it", "it", [("fico", {0: "2W"}), ("fa", {0: "2W", 1: "old"})], 30, "(5 + 1) × 2 = 12"),
    ("pl", "pl", [("żółw", {0: "2L", 3: "2W"})], 38, "(5 × 2 + 5 + 3 + 1) × 2 = 38"),
    (
        "pl",
        "pl",
        [("mysz", {1: "3L"}), ("koty", {0: "old", 1: "old", 2: "old", 3: "3L"})],
        21,
        "2 + 1 + 2 + 2 × 3 = 11",
    ),
    (
        "pl",
        "pl",
        [("spóźniły", {0: "3W", 3: "2L", 4: "old", 7: "3W"})],
        347,
        "(1 + 2 + 5 + 9 × 2 + 1 + 1 + 3 + 2) × 9 = 297",
    ),
    ("pl", "pl", [("żaba", {1: "blank 2W"})], 18, "(5 + 0 + 3 + 1) × 2 = 18"),
    ("pl", "pl", [("dźwig", {})], 16, "2 + 9 + 1 + 1 + 3 = 16"),
    ("pl", "pl-literaki", [("dźwig", {})], 12, "2 + 5 + 1 + 1 + 3 = 12"),
]


@pytest.mark.parametrize(("language", "edition", "words", "points", "formula"), TYPED)
def test_typed_words_score_as_the_documents_say(
    browser: Browser,
    server: ServerProcess,
    language: str,
    edition: str,
    words: list,
    points: int,
    formula: str,
) -> None:
    page = open_app(browser, server.url, language)
    show(page, "score")
    choose_edition(page, edition)
    for index, (text, marks) in enumerate(words):
        type_word(page, index, text)
        for tile, marked in marks.items():
            mark(page, index, tile, marked)
    expect(total(page)).to_contain_text(str(points))
    expect(formulas(page).filter(has_text=formula)).to_have_count(1)
    assert missing_strings(page) == []
    page.context.close()


def test_typed_tiles_show_their_marks_and_old_tiles_a_dashed_border(phone: Page) -> None:
    type_word(phone, 0, "boek")
    mark(phone, 0, 3, "3L")
    type_word(phone, 1, "kaas")
    for tile, marks in enumerate(["3L", "old", "old", "old"]):
        mark(phone, 1, tile, marks)
    old = phone.locator("#calc-tile-1-1")
    expect(old).to_contain_class("old")
    assert old.evaluate("t => getComputedStyle(t).borderStyle") == "dashed"
    expect(phone.locator("#calc-tile-1-0")).to_have_accessible_name(
        "Blokje 1: K, drievoudige letterwaarde"
    )
    expect(formulas(phone)).to_have_text(["3 + 1 + 1 + 3 × 3 = 14", "3 × 3 + 1 + 1 + 2 = 13"])
    expect(total(phone)).to_have_text("Totaal: 27")
    phone.locator("#calc-tile-1-0").click()
    expect(phone.get_by_label("3L · drievoudige letterwaarde")).to_be_checked()
    shot(phone, "calculator-typed")


def test_retyping_a_word_drops_the_marks_of_the_tiles_it_changed(phone: Page) -> None:
    type_word(phone, 0, "kaas")
    mark(phone, 0, 0, "3L")
    mark(phone, 0, 3, "2W")
    type_word(phone, 0, "boek")  # another word: the K's triple letter is not the B's
    for tile in range(4):
        expect(phone.locator(f"#calc-tile-0-{tile} .premium")).to_have_count(0)
    expect(phone.locator("#calc-tile-0-0")).to_have_accessible_name("Blokje 1: B")
    expect(total(phone)).to_have_text("Totaal: 8")
    mark(phone, 0, 3, "3L")
    type_word(phone, 0, "boeken")  # a longer word keeps the marks of the letters it kept
    expect(phone.locator("#calc-tile-0-3")).to_contain_class("p3L")
    expect(phone.locator("#calc-tile-0-5 .premium")).to_have_count(0)
    type_word(phone, 0, "oeken")  # a letter off the front: the K keeps its mark, on its letter
    expect(phone.locator("#calc-tile-0-2")).to_contain_class("p3L")
    expect(phone.locator("#calc-tile-0-0 .premium")).to_have_count(0)


def test_escape_closes_a_tiles_panel_and_gives_the_tile_back_its_focus(phone: Page) -> None:
    type_word(phone, 0, "kaas")
    phone.locator("#calc-tile-0-1").click()
    phone.locator("#calc-tile-0-1-premium-3L").check()
    expect(phone.locator("#calc-tile-0-1-panel")).to_be_visible()
    phone.keyboard.press("Escape")
    expect(phone.locator("#calc-tile-0-1-panel")).to_have_count(0)
    expect(phone.locator("#calc-tile-0-1")).to_be_focused()
    expect(phone.locator("#calc-tile-0-1")).to_have_attribute("aria-expanded", "false")
    expect(phone.locator("#calc-tile-0-1")).to_contain_class("p3L")  # what was chosen stays


def test_a_tiles_panel_opened_from_the_keyboard_takes_the_focus_before_the_next_tiles(
    phone: Page,
) -> None:
    type_word(phone, 0, "kaas")
    phone.locator("#calc-tile-0-1").focus()
    phone.keyboard.press("Enter")
    expect(phone.locator("#calc-tile-0-1-premium-none")).to_be_focused()  # the square it has
    phone.keyboard.press("ArrowDown")  # the radio group's keys choose the next square
    expect(phone.locator("#calc-tile-0-1-premium-2L")).to_be_checked()
    phone.keyboard.press("Escape")
    expect(phone.locator("#calc-tile-0-1")).to_be_focused()
    expect(phone.locator("#calc-tile-0-1")).to_contain_class("p2L")


def test_an_error_goes_once_its_cause_is_fixed(phone: Page) -> None:
    rows = ["." * 15] * 15
    rows[7] = "." * 7 + "PLANK" + "." * 3  # PLANK on H8-H12 of the phone's own board
    phone.evaluate(
        "rows => localStorage.setItem('tilestream.board.nl', JSON.stringify(rows))", rows
    )
    phone.reload()
    ready(phone)
    show(phone, "score")
    board_mode(phone)
    square(phone, "H13").click()
    phone.locator("#calc-letters").press_sequentially("abcd")
    error = phone.locator("#messages .message.error")
    expect(error).to_be_visible()
    expect(formulas(phone)).to_have_count(1)  # ABC, scored before the D was refused
    expect(error).to_be_visible()  # an answer asked before the error does not take it down
    phone.locator("#calc-letters").press("Backspace")  # the move changes and scores: AB
    expect(formulas(phone)).to_have_text([re.compile(r"= \d+$")])
    expect(error).to_have_count(0, timeout=2_000)  # not 8 seconds later


def test_a_typo_alert_on_the_duplicate_sheet_goes_once_the_cell_is_saved(phone: Page) -> None:
    create_table(phone, ["Anna", "Bas"], mode="Duplicate: iedereen dezelfde letters")
    phone.get_by_label("Ronde 1, Bas").fill("2o")
    phone.get_by_label("Ronde 1, Bas").press("Enter")
    alert = phone.locator("#messages .message.error")
    expect(alert).to_be_visible()
    phone.get_by_label("Ronde 1, Bas").fill("20")
    phone.get_by_label("Ronde 1, Bas").press("Enter")
    expect(alert).to_have_count(0, timeout=2_000)  # the cell is saved: not 8 seconds later


def test_a_word_typed_over_one_with_a_sharp_s_keeps_every_letter(
    browser: Browser, server: ServerProcess
) -> None:
    """FUß is F U S S; all of it selected and MAUS typed over it is MAUS, not AUS: a box
    shown in capitals by CSS lost the first letter typed over a ß (Chromium's SS)."""
    page = open_app(browser, server.url, "de")
    show(page, "score")
    choose_edition(page, "de")
    box = page.locator("#calc-word-0")
    box.click()
    page.keyboard.type("Fuß")
    expect(calculator(page).locator(".tiles .tile")).to_have_count(4)
    box.press("Control+a")
    page.keyboard.type("Maus")
    expect(box).to_have_value("Maus")
    expect(formulas(page).first).to_have_text("3 + 1 + 1 + 1 = 6")  # M A U S, not A U S
    page.context.close()


def test_ij_is_two_tiles_in_dutch(phone: Page) -> None:
    type_word(phone, 0, "bijl")
    expect(phone.locator("#calc-tiles-0 .tile")).to_have_count(4)
    expect(total(phone)).to_have_text("Totaal: 11")


def test_a_letter_the_set_lacks_is_a_locked_blank(browser: Browser, server: ServerProcess) -> None:
    page = open_app(browser, server.url, "pl")
    show(page, "score")
    choose_edition(page, "pl")
    type_word(page, 0, "vox")
    expect(total(page)).to_have_text("Razem: 1")
    page.locator("#calc-tile-0-0").click()
    expect(page.locator("#calc-tile-0-0-blank")).to_be_checked()
    expect(page.locator("#calc-tile-0-0-blank")).to_be_disabled()
    expect(page.get_by_text("Litery V nie ma w zestawie")).to_be_visible()
    page.context.close()


@pytest.mark.parametrize(
    ("language", "word", "said", "before", "blank", "after"),
    [
        # PFS has one Ź: ŹDŹBŁO is played with a blank, which the score counts at 9 unmarked
        ("pl", "źdźbło", "To słowo ma więcej liter Ź, niż jest w zestawie (1)", "Razem: 27", 2,
         "Razem: 18"),
        ("en", "fizz", "This word has more Z than the set (1)", "Total: 25", 3, "Total: 15"),
        ("nl", "jazz", None, "Totaal: 13", None, None),  # SBNL has two Z
    ],
)  # fmt: skip
def test_a_word_with_more_of_a_letter_than_the_set_asks_for_its_blank(
    browser: Browser, server: ServerProcess, language: str, word: str, said: str | None,
    before: str, blank: int | None, after: str | None,
) -> None:  # fmt: skip
    page = open_app(browser, server.url, language)
    show(page, "score")
    choose_edition(page, language)
    type_word(page, 0, word)
    expect(total(page)).to_have_text(before)
    hint = page.locator("#calc-tiles-0 .over-set")
    if said is None:
        expect(hint).to_have_count(0)
    else:
        expect(hint).to_contain_text(said)
        mark(page, 0, blank, "blank")
        expect(total(page)).to_have_text(after)
        expect(hint).to_have_count(0)
    assert missing_strings(page) == []
    page.context.close()


@pytest.mark.parametrize(
    ("language", "laid", "letters", "said", "before", "after"),
    [
        # English has one Z: FIZ on the board, a second Z laid is a blank the player forgot
        ("en", "FIZ", "z", "The board and this move hold more Z than the set (1)", "Total: 25",
         "Total: 15"),
        ("pl", "ŹD", "źbło", "Na planszy i w tym ruchu jest więcej liter Ź, niż jest w "
         "zestawie (1)", "Razem: 30", "Razem: 21"),
        ("nl", "JAZ", "z", None, "Totaal: 13", None),  # SBNL has two Z
        ("en", "ZZ", "a", None, "Total: 21", None),  # the board's own excess is not the move's
    ],
)  # fmt: skip
def test_board_mode_asks_for_the_blank_of_a_letter_the_board_and_move_hold_too_many_of(
    browser: Browser, server: ServerProcess, language: str, laid: str, letters: str,
    said: str | None, before: str, after: str | None,
) -> None:  # fmt: skip
    page = open_app(browser, server.url, language)
    rows = ["." * 15] * 15
    rows[7] = "." * 7 + laid + "." * (8 - len(laid))  # on H8 of the phone's own board
    page.evaluate(
        "([edition, rows]) => localStorage.setItem(`tilestream.board.${edition}`,"
        " JSON.stringify(rows))",
        [language, rows],
    )
    page.reload()
    show(page, "score")
    choose_edition(page, language)
    board_mode(page)
    start = f"H{8 + len(laid)}"
    lay(page, start, letters)
    expect(total(page)).to_have_text(before)
    hint = calculator(page).locator(".over-set-board .over-set")
    if said is None:
        expect(hint).to_have_count(0)
    else:
        expect(hint).to_contain_text(said)
        square(page, start).click()  # the new tile at the start becomes a blank
        expect(total(page)).to_have_text(after)
        expect(hint).to_have_count(0)
    assert missing_strings(page) == []
    page.context.close()


def test_digits_are_refused_with_a_reason_and_nothing_to_record(
    browser: Browser, server: ServerProcess
) -> None:
    page = open_app(browser, server.url, "pl")
    show(page, "score")
    choose_edition(page, "pl")
    type_word(page, 0, "kot1")
    expect(page.locator('#calculator .refusal[data-code="invalid_character"]')).to_be_visible()
    expect(total(page)).to_be_hidden()
    page.context.close()


def test_a_word_without_new_tiles_scores_zero_with_a_note(phone: Page) -> None:
    type_word(phone, 0, "op")
    type_word(phone, 1, "pa")
    mark(phone, 1, 0, "old")
    mark(phone, 1, 1, "old")
    expect(
        phone.get_by_text("Dit woord heeft geen nieuwe blokjes en telt 0 punten.")
    ).to_be_visible()


def test_more_than_seven_new_tiles_asks_to_mark_old_tiles(
    browser: Browser, server: ServerProcess
) -> None:
    page = open_app(browser, server.url, "pl")
    show(page, "score")
    choose_edition(page, "pl")
    type_word(page, 0, "spóźniły")
    refusal = page.locator('#calculator .refusal[data-code="too_many_new_tiles"]')
    expect(refusal).to_contain_text("Nowych płytek jest 8")
    expect(total(page)).to_have_text("Razem: 24")  # shown without the bonus (P-21)
    page.context.close()


@pytest.mark.parametrize(("text", "tiles", "points"), [("chorro", 4, 15), ("c·horro", 5, 17)])
def test_spanish_digraphs_are_one_tile_unless_split(
    browser: Browser, server: ServerProcess, text: str, tiles: int, points: int
) -> None:
    page = open_app(browser, server.url, "es")
    show(page, "score")
    choose_edition(page, "es")
    type_word(page, 0, text)
    expect(page.locator("#calc-tiles-0 .tile")).to_have_count(tiles)
    expect(total(page)).to_have_text(f"Total: {points}")
    page.context.close()


def test_at_most_seven_cross_words(phone: Page) -> None:
    for index in range(8):
        type_word(phone, index, "ab")
    expect(calculator(phone).locator(".add-word")).to_have_count(0)
    expect(phone.get_by_text("Hoogstens zeven kruisende woorden.")).to_be_visible()


def test_board_mode_on_a_table_records_plank_then_scores_kraan(phone: Page) -> None:
    create_table(phone, ["Anna", "Bas"])
    show(phone, "score")  # the calculator has a view of its own
    expect(calculator(phone).locator("#calc-edition")).to_have_count(0)
    board_mode(phone)
    lay(phone, "H4", "plank")
    expect(formulas(phone)).to_have_text(["(3 × 2 + 3 + 1 + 1 + 3) × 2 = 28"])
    expect(square(phone, "H8")).to_have_accessible_name("H8, dubbele woordwaarde, ster, K, nieuw")
    phone.get_by_role("button", name="28 voor Anna").click()
    expect(square(phone, "H6")).to_have_accessible_name("H6, A")
    expect(phone.locator("#calc-letters")).to_have_value("")
    lay(phone, "F6", "kran", down=True)
    expect(cell(phone, "F6")).to_contain_class("new start down")
    expect(formulas(phone)).to_have_text(["3 × 3 + 2 + 1 + 1 + 1 × 3 = 16"])
    expect(phone.get_by_role("button", name="16 voor Bas")).to_be_visible()
    shot(phone, "calculator-board")


def test_board_mode_is_kept_over_a_reload(phone: Page) -> None:
    """Issue 27: the calculator came back in typed mode after every reload."""
    board_mode(phone)
    phone.reload()
    ready(phone)
    show(phone, "score")
    expect(phone.locator("#calc-mode-board")).to_be_checked()
    expect(phone.locator("#calc-board")).to_be_visible()
    phone.locator("#calc-mode-typed").check()
    phone.reload()
    ready(phone)
    show(phone, "score")
    expect(phone.locator("#calc-mode-typed")).to_be_checked()
    expect(phone.locator("#calc-word-0")).to_be_visible()


def test_the_direction_buttons_and_a_second_tap_turn_the_line(phone: Page) -> None:
    board_mode(phone)
    square(phone, "H8").click()
    expect(phone.locator("#calc-start")).to_have_text("Beginvakje H8 · Horizontaal")
    square(phone, "H8").click()
    expect(phone.locator("#calc-start")).to_have_text("Beginvakje H8 · Verticaal")
    phone.get_by_role("button", name="Horizontaal").click()
    expect(phone.get_by_role("button", name="Horizontaal")).to_have_attribute(
        "aria-pressed", "true"
    )
    phone.locator("#calc-letters").fill("ja")
    expect(cell(phone, "H9")).to_contain_class("tile new")


def test_tapping_a_new_tile_makes_it_a_blank(phone: Page) -> None:
    board_mode(phone)
    lay(phone, "H4", "plank")
    expect(total(phone)).to_have_text("Totaal: 28")
    square(phone, "H4").click()
    expect(formulas(phone)).to_have_text(["(0 + 3 + 1 + 1 + 3) × 2 = 16"])
    expect(square(phone, "H4")).to_have_accessible_name(
        "H4, dubbele letterwaarde, P (blanco), nieuw"
    )


@pytest.mark.parametrize(
    ("start", "letters", "code"),
    [
        ("H9", "ja", "first_move_off_centre"),  # TV-D-19
        ("H8", "a", "first_move_single_tile"),  # TV-D-20
    ],
)
def test_a_refused_placement_shows_its_reason_and_cannot_be_recorded(
    phone: Page, start: str, letters: str, code: str
) -> None:
    create_table(phone, ["Anna", "Bas"])
    show(phone, "score")  # the calculator has a view of its own
    board_mode(phone)
    lay(phone, start, letters)
    expect(phone.locator(f'#calculator .refusal[data-code="{code}"]')).to_be_visible()
    expect(calculator(phone).locator(".result button")).to_have_count(0)


def test_letters_past_the_edge_are_refused(phone: Page) -> None:
    board_mode(phone)
    square(phone, "H13").click()
    phone.locator("#calc-letters").press_sequentially("abcd")
    expect(phone.locator("#calc-letters")).to_have_value("abc")
    expect(phone.locator("#messages .message")).to_be_visible()


def test_board_mode_is_unavailable_for_literaki(browser: Browser, server: ServerProcess) -> None:
    page = open_app(browser, server.url, "pl")
    show(page, "score")
    choose_edition(page, "pl-literaki")
    expect(page.get_by_label("Ułóż płytki na planszy")).to_be_disabled()
    expect(page.get_by_text("Literaki mają własny układ planszy")).to_be_visible()
    page.context.close()


def test_switching_mode_mid_move_asks_first(phone: Page) -> None:
    type_word(phone, 0, "plank")
    phone.once("dialog", lambda dialog: dialog.dismiss())
    phone.get_by_label("Blokjes op het bord leggen").click()
    expect(phone.get_by_label("Woorden typen")).to_be_checked()
    expect(phone.locator("#calc-word-0")).to_have_value("plank")
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_label("Blokjes op het bord leggen").check()
    expect(phone.locator("#calc-board")).to_be_visible()
    expect(phone.locator("#calc-letters")).to_have_value("")


def test_word_check_labels_every_word(phone: Page) -> None:
    type_word(phone, 0, "plank")
    type_word(phone, 1, "xq")
    phone.get_by_label("Woorden controleren in een open woordenlijst").check()
    expect(calculator(phone).locator(".check")).to_have_text(
        ["Staat in de lijst", "Staat niet in de lijst"]
    )
    expect(phone.get_by_text("niet de SWL")).to_be_visible()


def test_word_check_names_the_list_of_the_tile_set_and_keeps_online_plays_list_away(
    phone: Page,
) -> None:
    """A Dutch phone checking German words is told the German list is used (not the Dutch
    one its own notice names); Woordstrijd's list is online play's, never checked for
    anyone: no check is offered, and the score stays."""
    type_word(phone, 0, "abend")
    phone.get_by_label("Woorden controleren in een open woordenlijst").check()
    phone.locator("#calc-edition").select_option("de")
    expect(calculator(phone).locator(".check")).to_have_text(["Staat in de lijst"])
    notice = calculator(phone).locator(".wordcheck .hint")
    expect(notice).to_contain_text("De woorden worden gecontroleerd in igerman98")
    expect(notice).not_to_contain_text("OpenTaal")
    phone.locator("#calc-edition").select_option("woordstrijd")
    expect(phone.locator("#calc-check")).to_have_count(0)
    expect(total(phone)).to_have_text(re.compile(r"^Totaal: \d+$"))
    expect(calculator(phone).locator(".check")).to_have_count(0)
    assert missing_strings(phone) == []


def test_letters_typed_on_the_board_after_its_start_go_into_the_rack_letters(
    phone: Page,
) -> None:
    board_mode(phone)
    square(phone, "H4").click()
    expect(square(phone, "H4")).to_be_focused()
    phone.keyboard.type("plank")
    expect(phone.locator("#calc-letters")).to_have_value("plank")
    expect(phone.locator("#calc-letters")).to_be_focused()
    expect(total(phone)).to_have_text("Totaal: 28")


def test_without_a_table_place_on_board_keeps_the_tiles(phone: Page) -> None:
    board_mode(phone)
    lay(phone, "H4", "plank")
    phone.get_by_role("button", name="Op het bord leggen", exact=True).click()
    expect(square(phone, "H8")).to_have_accessible_name("H8, dubbele woordwaarde, ster, K")
    phone.reload()
    board_mode(phone)
    expect(square(phone, "H4")).to_have_accessible_name("H4, dubbele letterwaarde, P")
    lay(phone, "F6", "kran", down=True)
    expect(total(phone)).to_have_text("Totaal: 16")
    phone.get_by_role("button", name="Bord leegmaken").click()
    expect(square(phone, "H4")).to_have_accessible_name("H4, dubbele letterwaarde, leeg")


def test_a_viewer_scores_moves_but_records_nothing(
    phone: Page, browser: Browser, server: ServerProcess
) -> None:
    code = create_table(phone, ["Anna", "Bas"])
    show(phone, "score")  # the calculator has a view of its own
    viewer = open_app(browser, server.url, "nl")
    join_table(viewer, code, "Kijker (alleen lezen)")
    show(viewer, "score")  # the calculator has a view of its own
    board_mode(viewer)
    lay(viewer, "H4", "plank")
    expect(total(viewer)).to_have_text("Totaal: 28")
    expect(calculator(viewer).locator(".result button")).to_have_count(0)
    assert missing_strings(viewer) == []
    viewer.context.close()


def test_with_a_sheet_tiles_are_placed_without_a_score_and_cleared(phone: Page) -> None:
    create_table(phone, ["Anna", "Bas"])
    show(phone, "score")  # the calculator has a view of its own
    board_mode(phone)
    lay(phone, "H4", "plank")
    phone.get_by_role("button", name="Op het bord leggen zonder score").click()
    expect(cell(phone, "H4")).to_contain_class("tile marked")
    sheet = phone.evaluate("async () => (await import('/js/state.js')).app.view.sheet")
    assert sheet["lines"] == [] and len(sheet["unscored"]) == 5
    phone.get_by_role("button", name="Bord leegmaken").click()
    expect(square(phone, "H4")).to_have_accessible_name("H4, dubbele letterwaarde, leeg")


def test_duplicate_buttons_fill_the_first_empty_cell_and_record_the_top(phone: Page) -> None:
    create_table(phone, ["", ""], mode="Duplicate: iedereen dezelfde letters")
    show(phone, "score")  # the calculator has a view of its own
    board_mode(phone)
    lay(phone, "H4", "plank")
    phone.get_by_role("button", name="+28 voor Speler 1").click()
    expect(phone.get_by_role("button", name="+28 voor Speler 2")).to_be_visible()
    phone.get_by_role("button", name="28 als top noteren").click()
    expect(square(phone, "H6")).to_have_accessible_name("H6, A")
    rounds = phone.evaluate("async () => (await import('/js/state.js')).app.view.sheet.rounds")
    assert rounds[0]["scores"] == [28, None] and rounds[0]["top"] == 28


def test_the_share_link_carries_only_the_edition_and_the_move(
    phone: Page, browser: Browser, server: ServerProcess
) -> None:
    create_table(phone, ["Anna", "Bas"])
    show(phone, "score")  # the calculator has a view of its own
    type_word(phone, 0, "index")
    mark(phone, 0, 0, "2W")
    mark(phone, 0, 4, "3L")
    expect(total(phone)).to_have_text("Totaal: 58")
    phone.get_by_role("button", name="Link kopiëren").click()
    link = phone.locator("#calc-link").input_value()
    data = json.loads(unquote(link.split("#calc=")[1]))
    assert data == {
        "edition": "nl",
        "move": {
            "typed": [
                [
                    ["I", "2W", False],
                    ["N", None, False],
                    ["D", None, False],
                    ["E", None, False],
                    ["X", "3L", False],
                ]
            ]
        },
    }
    assert "Anna" not in link
    other = open_app(browser, server.url, "nl", "/" + link.split("/", 3)[3])
    expect(total(other)).to_have_text("Totaal: 58")
    expect(other.locator("#calc-tile-0-0")).to_have_class("tile face p2W")
    other.context.close()


def test_a_board_link_opens_in_board_mode(browser: Browser, server: ServerProcess) -> None:
    move = {
        "edition": "it",
        "move": {"board": {"start": "H3", "direction": "across", "letters": "LEGGIO"}},
    }
    page = open_app(browser, server.url, "it", "/#calc=" + quote(json.dumps(move)))
    expect(page.get_by_label("Posa le tessere sul tavoliere")).to_be_checked()
    expect(formulas(page)).to_have_text(["(3 + 1 × 2 + 8 + 8 + 1 + 1) × 2 = 46"])
    assert missing_strings(page) == []
    page.context.close()


@pytest.mark.parametrize("language", ["nl", "it", "pl"])
def test_every_verification_example_gives_its_known_outcome(
    browser: Browser, server: ServerProcess, language: str
) -> None:
    page = open_app(browser, server.url, language)
    show(page, "score")
    examples = calculator(page).locator(".examples")
    examples.locator("summary").click()
    # One list per edition of the language, under its name; never "[object HTML…Element]".
    expect(examples).not_to_contain_text("[object")
    expect(examples.get_by_role("heading")).to_have_text(EXAMPLE_EDITIONS[language])
    buttons = examples.locator("button.example")
    expect(buttons).to_have_count(EXAMPLE_COUNTS[language])
    if language == "it":
        shot(page, "examples-it")
    for index in range(buttons.count()):
        button = buttons.nth(index)
        expected = button.inner_text().rsplit("= ", 1)[1]
        button.click()
        expect(total(page)).to_contain_text(f": {expected}")
    assert missing_strings(page) == []
    page.context.close()


# The examples of §20.2–20.4 (web/js/examples.js), by the language of the phone.
EXAMPLE_COUNTS = {"nl": 8, "it": 5, "pl": 9}
EXAMPLE_EDITIONS = {
    "nl": ["Nederlands (SBNL)"],
    "it": ["Italiano"],
    "pl": ["polska (PFS)", "polska, wartości z Literaków"],
}
