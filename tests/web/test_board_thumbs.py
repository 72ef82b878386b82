"""The board for thumbs and keys (issue 12): it fills the phone's width, a tap zooms to
squares of at least 44 px, premiums tell apart in grayscale by pattern, the whole word typed
over the board's tiles is understood (and asked about when it cannot be told), and the board
is one tab stop that the arrow keys move on (the WAI-ARIA grid)."""

import base64
import itertools
import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import axe, missing_strings, open_app, shot, show

THUMB = 44  # CSS px: the smallest target a thumb hits (WCAG 2.5.5, platform guidelines)
PREMIUMS = {"2L": "A4", "3L": "B6", "2W": "B2", "3W": "A1"}


def square(page: Page, name: str):
    return page.locator(f'#calc-board [data-square="{name}"]')


def board_mode(page: Page) -> None:
    show(page, "score")
    page.locator("#calc-mode-board").check()
    expect(page.locator("#calc-board")).to_be_visible()


def formulas(page: Page):
    return page.locator("#calculator .result .formula")


def words(page: Page):
    return page.locator("#calculator .result .word-line .word")


def size(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["width"], box["height"]


def test_the_board_fills_the_phone_and_a_tap_zooms_to_thumb_sized_squares(phone: Page) -> None:
    board_mode(phone)
    board = phone.locator("#calc-board table")
    width, _ = size(board)
    assert width >= 380  # of the phone's 390 px
    assert min(size(square(phone, "H8"))) >= 23.5  # was 22
    expect(phone.locator("#calc-board")).not_to_have_class("board-frame zoomed")

    square(phone, "G7").click()  # a rough tap next to the centre
    expect(phone.locator("#calc-board")).to_have_class("board-frame zoomed")
    expect(phone.locator("#calc-start")).to_have_text("Beginvakje G7 · Horizontaal")
    frame = phone.locator("#calc-board").bounding_box()
    for name in ("G7", "H8", "F6"):  # the zoom is around the square tapped
        box = square(phone, name).bounding_box()
        assert box["width"] >= THUMB and box["height"] >= THUMB
        assert frame["x"] <= box["x"] and box["x"] + box["width"] <= frame["x"] + frame["width"]
        assert frame["y"] <= box["y"] and box["y"] + box["height"] <= frame["y"] + frame["height"]
    assert frame["x"] + frame["width"] <= 390

    square(phone, "H8").click()  # the final choice, on a thumb-sized square
    expect(phone.locator("#calc-start")).to_have_text("Beginvakje H8 · Horizontaal")
    square(phone, "H8").click()  # BRD-07: a second tap turns it
    expect(phone.locator("#calc-start")).to_have_text("Beginvakje H8 · Verticaal")
    phone.locator("#calc-letters").fill("plank")
    expect(formulas(phone)).to_have_count(1)
    # Every control of the board panel is thumb-sized, the zoomed squares included.
    controls = phone.locator(".board-mode button:visible, .board-mode input:visible")
    for index in range(controls.count()):
        control = controls.nth(index)
        if control.evaluate("e => e.matches('[data-square]')"):
            box = control.bounding_box()
            if box["y"] + box["height"] < frame["y"] or box["y"] > frame["y"] + frame["height"]:
                continue  # scrolled out of the zoomed frame
        assert min(size(control)) >= THUMB, control.evaluate("e => e.outerHTML.slice(0, 80)")
    shot(phone, "board-zoom-nl", full_page=False)

    phone.get_by_role("button", name="Heel bord").click()
    expect(phone.locator("#calc-board")).to_have_class("board-frame")
    expect(square(phone, "H8")).to_be_focused()
    expect(phone.locator("#calc-start")).to_have_text("Beginvakje H8 · Verticaal")


MEAN_LUMINANCE = """async (png) => {
    const image = new Image();
    image.src = 'data:image/png;base64,' + png;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width; canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    let sum = 0, squares = 0, grey = true;
    for (let i = 0; i < data.length; i += 4) {
        const y = 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
        sum += y; squares += y * y;
        const tint = Math.abs(data[i] - data[i + 1]) + Math.abs(data[i + 1] - data[i + 2]);
        if (tint > 4) grey = false;
    }
    const n = data.length / 4;
    return { mean: sum / n, spread: Math.sqrt(squares / n - (sum / n) ** 2), grey };
}"""


@pytest.mark.parametrize("edition", ["nl", "woordstrijd", "it", "pl"])
def test_premiums_differ_in_a_grayscale_screenshot(phone: Page, edition: str) -> None:
    """Chromium renders as for achromatopsia (no colour at all): each premium still has its
    own luminance and a pattern (dots or stripes), besides its text."""
    show(phone, "score")
    phone.locator("#calc-edition").select_option(edition)
    board_mode(phone)
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "achromatopsia"})
    measured = {}
    for premium, name in PREMIUMS.items():
        cell = phone.locator(f'#calc-board td:has([data-square="{name}"])')
        expect(cell).to_have_text(premium)  # the text stays
        png = base64.b64encode(cell.screenshot()).decode()
        measured[premium] = phone.evaluate(MEAN_LUMINANCE, png)
        assert measured[premium]["grey"]  # the emulation took: no colour left
        assert measured[premium]["spread"] >= 15, (premium, measured[premium])  # a pattern
    for a, b in itertools.combinations(PREMIUMS, 2):
        difference = abs(measured[a]["mean"] - measured[b]["mean"])
        assert difference >= 10, (edition, a, b, {k: round(v["mean"]) for k, v in measured.items()})
    if edition == "nl":
        phone.locator("#calc-board").evaluate("e => e.scrollIntoView({block: 'center'})")
        shot(phone, "board-grayscale", full_page=False)
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})


def lay_plank(page: Page) -> None:
    """PLANK from H4 across on the phone's own board (no table): the A lies on H6."""
    board_mode(page)
    square(page, "H4").click()
    page.locator("#calc-letters").fill("plank")
    page.get_by_role("button", name="Op het bord leggen", exact=True).click()
    expect(square(page, "H6")).to_have_accessible_name("H6, A")


def test_the_whole_word_typed_over_a_tile_of_the_board_is_that_word(phone: Page) -> None:
    lay_plank(phone)
    square(phone, "F6").click()
    square(phone, "F6").click()
    phone.locator("#calc-letters").fill("kraan")
    expect(words(phone)).to_have_text(["KRAAN"])  # not KRAAAN 17
    expect(formulas(phone)).to_have_text(["3 × 3 + 2 + 1 + 1 + 1 × 3 = 16"])
    expect(phone.locator("#calculator .total")).to_have_text("Totaal: 16")
    expect(phone.locator(".reading .question")).to_have_count(0)  # nothing to ask
    expect(square(phone, "H6")).to_have_accessible_name("H6, A")  # the board's A, not new
    expect(square(phone, "I6")).to_have_accessible_name("I6, A, nieuw")
    expect(square(phone, "K6")).to_have_accessible_name("K6, leeg")
    shot(phone, "board-kraan", full_page=False)
    # The move sent holds the new tiles only: the server skips the occupied square.
    move = phone.evaluate(
        "async () => (await import('/js/boardmode.js')).move("
        "{start: 'F6', direction: 'down', text: 'kraan', blanks: []},"
        "new Set('ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('')),"
        "(await import('/js/boardmode.js')).loadLocal('nl'))"
    )
    assert move == {"board": {"start": "F6", "direction": "down", "letters": "KRAN"}}


def test_the_whole_word_may_begin_on_the_tiles_before_the_square_tapped(phone: Page) -> None:
    """PLA lies on H6–H8; tapping H9, the square after it, and typing the whole word PLAATS
    lays A, T, S — not PLAPLAATS."""
    board_mode(phone)
    square(phone, "H6").click()
    phone.locator("#calc-letters").fill("pla")
    phone.get_by_role("button", name="Op het bord leggen", exact=True).click()
    square(phone, "H9").click()
    phone.locator("#calc-letters").fill("plaats")
    question = phone.locator(".reading .question")
    expect(question).to_contain_text("(H6, H7, H8)")  # both readings hold: it asks
    question.get_by_role("button", name="Ja, het hele woord: PLAATS").click()
    expect(words(phone)).to_have_text(["PLAATS"])
    expect(square(phone, "H9")).to_have_accessible_name("H9, A, nieuw")
    expect(square(phone, "H11")).to_have_accessible_name("H11, S, nieuw")
    expect(square(phone, "H12")).to_have_accessible_name("H12, dubbele letterwaarde, leeg")


def test_the_rack_letters_still_skip_the_tile_and_the_phone_asks_when_it_cannot_tell(
    phone: Page,
) -> None:
    lay_plank(phone)
    square(phone, "F6").click()
    square(phone, "F6").click()
    phone.locator("#calc-letters").fill("kran")  # BRD-10: K R A N over the A of PLANK
    expect(words(phone)).to_have_text(["KRAAN"])
    question = phone.locator(".reading .question")
    expect(question).to_contain_text("Heb je letters meegetypt die al op het bord liggen (H6)?")
    whole = question.get_by_role("button", name="Ja, het hele woord: KRAN")
    rack = question.get_by_role("button", name="Nee, alleen mijn blokjes: KRAAN")
    expect(rack).to_be_visible()
    assert min(size(whole)) >= THUMB and min(size(rack)) >= THUMB
    question.scroll_into_view_if_needed()
    shot(phone, "board-ask-nl", full_page=False)
    whole.click()
    expect(words(phone)).to_have_text(["KRAN"])
    expect(question).to_have_count(0)
    expect(phone.locator("#calc-letters")).to_be_focused()
    expect(square(phone, "I6")).to_have_accessible_name("I6, N, nieuw")


# --- the keyboard ----------------------------------------------------------------------

FOCUSED = "() => document.activeElement?.dataset?.square || document.activeElement?.id || ''"


def keyboard_move(
    page: Page,
    start: str,
    letters: str,
    down: bool = False,
    record: str = ".result .actions button.primary",
) -> int:
    """From the focused control of the calculator (its first control, in typed or board
    mode), lay ``letters`` from ``start`` with the keyboard alone and press the record button
    (``record``: a selector within ``#calculator``); the number of keys pressed.

    For other tests (the whole "start a table, move, record" count): focus the calculator's
    first control, then call this."""
    presses = 0

    def press(key: str) -> None:
        nonlocal presses
        page.keyboard.press(key)
        presses += 1

    if not page.locator("#calc-mode-board").is_checked():
        while page.evaluate(FOCUSED) != "calc-mode-typed":
            press("Tab")
            assert presses < 10, page.evaluate(FOCUSED)
        press("ArrowRight")  # the radio group: board mode
        expect(page.locator("#calc-mode-board")).to_be_checked()
    while not page.evaluate("() => Boolean(document.activeElement?.dataset?.square)"):
        press("Tab")
        assert presses < 12, page.evaluate(FOCUSED)
    at = page.evaluate(FOCUSED)
    rows = "ABCDEFGHIJKLMNO"
    for _ in range(abs(rows.index(start[0]) - rows.index(at[0]))):
        press("ArrowDown" if rows.index(start[0]) > rows.index(at[0]) else "ArrowUp")
    for _ in range(abs(int(start[1:]) - int(at[1:]))):
        press("ArrowRight" if int(start[1:]) > int(at[1:]) else "ArrowLeft")
    assert page.evaluate(FOCUSED) == start
    press("Enter")
    if down:
        press("Enter")
    press("Tab")
    assert page.evaluate(FOCUSED) == "calc-letters"
    for letter in letters:
        press(letter)
    button = page.locator(f"#calculator {record}")
    expect(button).to_be_visible()
    while not button.evaluate("b => b === document.activeElement"):
        press("Tab")
        assert presses < 60
    press("Enter")
    return presses


def test_the_board_is_one_tab_stop_that_the_arrow_keys_move_on(phone: Page) -> None:
    board_mode(phone)
    grid = phone.get_by_role("grid", name="Bord")
    expect(grid.locator('[data-square][tabindex="0"]')).to_have_count(1)
    expect(grid.locator('[data-square][tabindex="-1"]')).to_have_count(224)
    phone.locator("#calc-down").focus()
    phone.keyboard.press("Tab")
    expect(square(phone, "H8")).to_be_focused()
    expect(square(phone, "H8")).to_have_accessible_name("H8, dubbele woordwaarde, ster, leeg")
    for key in ("ArrowUp", "ArrowUp", "ArrowLeft", "ArrowLeft"):
        phone.keyboard.press(key)
    expect(square(phone, "F6")).to_be_focused()
    expect(square(phone, "F6")).to_have_attribute("tabindex", "0")
    expect(square(phone, "H8")).to_have_attribute("tabindex", "-1")
    phone.keyboard.press("Home")
    expect(square(phone, "F1")).to_be_focused()
    phone.keyboard.press("Control+End")
    expect(square(phone, "O15")).to_be_focused()
    phone.keyboard.press("ArrowDown")  # the edge holds
    expect(square(phone, "O15")).to_be_focused()
    phone.keyboard.press("Control+Home")
    phone.keyboard.press("Space")  # a tap
    expect(phone.locator("#calc-start")).to_have_text("Beginvakje A1 · Horizontaal")
    expect(square(phone, "A1")).to_be_focused()
    phone.keyboard.press("Enter")  # a second tap turns it
    expect(phone.locator("#calc-start")).to_have_text("Beginvakje A1 · Verticaal")
    phone.keyboard.press("Tab")  # the letters come right after the board
    expect(phone.locator("#calc-letters")).to_be_focused()
    phone.keyboard.press("Shift+Tab")  # and back to the board, where it was
    expect(square(phone, "A1")).to_be_focused()
    assert axe(phone, "#calculator") == []  # the grid, zoomed, with its 225 named squares
    phone.get_by_role("button", name="Heel bord").click()
    assert axe(phone, "#calculator") == []


def test_a_table_is_started_and_a_move_laid_and_recorded_in_under_30_keys(phone: Page) -> None:
    """Keyboard only, from the page as it loads: Tab to the start form, Enter starts the
    table with its defaults; the sheet's turn card leads to the score view; the move."""
    presses = 0

    def press(key: str) -> None:
        nonlocal presses
        phone.keyboard.press(key)
        presses += 1

    while phone.evaluate("() => document.activeElement?.name") != "setup-1-mode":
        press("Tab")  # the skip link, the home link, the language, the game type
        assert presses < 6, phone.evaluate(FOCUSED)
    press("Enter")  # submits the form as it stands: 2 players, nl, house rules
    expect(phone.locator(".table-bar .code")).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
    expect(phone.locator("#sheet-title")).to_be_focused()  # the view's heading, not <body>
    press("Tab")
    expect(phone.locator("#sheet-score")).to_be_focused()
    press("Enter")
    expect(phone.locator("body")).to_have_attribute("data-view", "score")
    expect(phone.locator("#calculator h2").first).to_be_focused()  # once it has loaded
    presses += keyboard_move(phone, "H4", "plank")
    expect(phone.locator(".scoreboard .total").first).to_have_text("28")
    expect(square(phone, "H6")).to_have_accessible_name("H6, A")
    assert phone.evaluate("() => document.activeElement !== document.body")
    assert presses < 30, presses


def test_the_zoomed_board_in_polish_keeps_every_square_named(browser, server) -> None:
    page = open_app(browser, server.url, "pl")
    show(page, "score")
    page.locator("#calc-mode-board").check()
    square(page, "H8").click()
    expect(page.locator("#calc-board")).to_have_class("board-frame zoomed")
    expect(page.locator("#calc-start")).to_have_text("Pole startowe H8 · Poziomo")
    expect(square(page, "H8")).to_have_accessible_name(
        "H8, podwójna premia słowna, gwiazdka, puste"
    )
    expect(page.get_by_role("button", name="Cała plansza")).to_be_visible()
    assert min(size(square(page, "H8"))) >= THUMB
    assert axe(page, "#calculator") == []
    shot(page, "board-zoom-pl", full_page=False)
    assert missing_strings(page) == []
    page.context.close()
