"""Accessibility: axe-core finds no serious or critical violation on any view of the app, the
room display or a print page, in Dutch and in Polish.

Each scene sets a table up (in Dutch, with the helpers' labels), switches the phone to the
language under test, and has axe check every view it reaches; a scene's test fails with the
views and their violations. A new view is one more ``check`` in the scene that reaches it
(or a new scene in ``SCENES``).
"""

import re
from collections.abc import Callable, Iterator
from itertools import pairwise

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import (
    PHONE,
    axe,
    create_table,
    join_table,
    missing_strings,
    open_app,
    post,
    ready,
    shot,
    show,
)

LANGUAGES = ["nl", "pl"]
A4 = {"width": 794, "height": 1123}
ROOM = {"width": 1280, "height": 720}
DUPLICATE = "Duplicate: iedereen dezelfde letters"
PLANK = {"type": "record_move", "board": {"start": "H4", "direction": "across", "letters": "PLANK"}}
KRAAN = {"type": "record_move", "board": {"start": "F6", "direction": "down", "letters": "KRAN"}}
NAMES = ["Anna", "Bas", "Johannes Wilhelmus"]
CLASSIC = {"type": "start_game", "edition": "nl", "rules": "house", "players": NAMES}
#: A line of every kind a turn makes, a penalty, and a move last (the challenge offers it).
EVERY_LINE = [
    PLANK,
    KRAAN,
    {"type": "enter_points", "points": 12},
    {"type": "pass"},
    {"type": "exchange"},
    {"type": "withdraw_word"},
    {"type": "give_penalty", "player": 1, "points": 5},
    {"type": "record_move", "board": {"start": "J6", "direction": "across", "letters": "AS"}},
]


class Scene:
    """The pages of one scene, and what axe found on each view it checked."""

    def __init__(self, browser: Browser, server: ServerProcess, language: str) -> None:
        self.browser = browser
        self.server = server
        self.language = language
        self.found: dict[str, list[dict]] = {}
        self.pages: list[Page] = []

    def phone(self, path: str = "/", language: str = "nl") -> Page:
        page = open_app(self.browser, self.server.url, language, path)
        self.pages.append(page)
        return page

    def speak(self, page: Page) -> None:
        """Switch ``page`` to the language under test (kept in its local storage)."""
        if page.evaluate("() => document.documentElement.lang") == self.language:
            return
        page.locator("#language").select_option(self.language)
        page.wait_for_function(f"() => document.documentElement.lang === '{self.language}'")
        page.wait_for_timeout(100)  # the views redrawn in the new language

    def check(self, page: Page, view: str) -> None:
        page.wait_for_timeout(150)  # past transitions and a focus move
        self.found[view] = axe(page)
        shot(page, f"a11y-{view}-{self.language}", full_page=False)

    def print_page(self, query: str, within: Page | None = None) -> Page:
        """A print page, in ``within``'s browser (its table and language) or a fresh one."""
        if within is None:
            page = self.phone(f"/print.html?{query}", self.language)
        else:
            page = within.context.new_page()
            page.goto(f"{self.server.url}/print.html?{query}")
            ready(page)
        page.set_viewport_size(A4)
        return page

    def close(self) -> list[str]:
        missing = [key for page in self.pages for key in missing_strings(page)]
        for page in self.pages:
            page.context.close()
        return missing


def start_and_calculator(scene: Scene) -> None:
    phone = scene.phone()
    scene.speak(phone)
    show(phone, "start")
    scene.check(phone, "start")
    phone.locator("#tiles summary").first.click()  # the tile panel, opened
    scene.check(phone, "start-tiles")
    show(phone, "score")
    phone.locator("#calc-word-0").fill("kaas")
    expect(phone.locator("#calculator .formula")).to_have_count(1)
    scene.check(phone, "calculator-typed")
    phone.locator("#calculator summary").last.click()  # the examples panel
    scene.check(phone, "calculator-examples")
    phone.once("dialog", lambda dialog: dialog.accept())  # the typed move goes
    phone.locator("#calc-mode-board").check()
    phone.locator('#calc-board [data-square="H8"]').click()
    phone.locator("#calc-letters").fill("kaas")
    expect(phone.locator("#calculator .formula")).to_have_count(1)
    scene.check(phone, "calculator-board")


def classic_table(scene: Scene) -> None:
    host = scene.phone()
    create_table(host, NAMES)
    post(host, scene.server, PLANK)
    post(host, scene.server, KRAAN)
    scene.speak(host)
    show(host, "sheet")
    scene.check(host, "classic-sheet")
    show(host, "score")
    host.locator("#calc-word-0").fill("kaas")
    scene.check(host, "classic-score-typed")
    host.once("dialog", lambda dialog: dialog.accept())
    host.locator("#calc-mode-board").check()
    host.locator('#calc-board [data-square="J6"]').click()
    host.locator("#calc-letters").fill("as")
    scene.check(host, "classic-score-board")
    show(host, "tiles")
    host.locator("#tiles summary").first.click()
    scene.check(host, "classic-tiles")
    show(host, "table")
    host.locator("button[aria-controls=invite]").click()  # the QR code and the join code
    expect(host.locator("#invite img")).to_be_visible()
    scene.check(host, "classic-table")
    scene.check(scene.print_page("page=game", host), "print-game")


def sheet_with_every_line_and_the_clock(scene: Scene) -> None:
    """Issue 27: a sheet with a line of every kind, the challenge offered and then judged, the
    game clock running, reading aloud on; the final table with the clock's part."""
    host = scene.phone()
    create_table(host, NAMES)
    post(host, scene.server, {**CLASSIC, "clock_minutes": 25})
    for command in EVERY_LINE:
        post(host, scene.server, command)
    show(host, "sheet")
    host.get_by_role("button", name="Klok starten").click()
    expect(host.locator("#gameclock-tap")).to_be_visible()  # it runs
    host.locator("#speech-toggle").check()
    scene.speak(host)
    expect(host.locator("#challenge-send")).to_be_visible()
    scene.check(host, "sheet-every-line")
    host.locator("#challenge-send").click()
    expect(host.locator(".challenge.verdict")).to_be_visible()
    scene.check(host, "sheet-verdict")
    post(host, scene.server, {"type": "end_game", "racks": [[None, None], ["QE", None], [None, 4]]})
    expect(host.locator(".final-table")).to_be_visible()
    scene.check(host, "sheet-final")


def joining(scene: Scene) -> None:
    host = scene.phone()
    code = create_table(host, NAMES)
    bas = scene.phone()
    join_table(bas, code, "Bas")
    link = scene.phone(f"/#join={code}", scene.language)  # the QR code's link
    expect(link.locator("#start .join input[type=radio]").first).to_be_visible()
    scene.check(link, "join")
    second = scene.phone()
    join_table(second, code, "Bas · bezet", admitted=False)  # a second phone for Bas
    scene.speak(second)
    scene.check(second, "waiting")
    scene.speak(host)
    show(host, "table")
    expect(host.locator("#devices")).to_contain_text(re.compile("Bas"))
    scene.check(host, "table-admission")


def duplicate_director(scene: Scene) -> None:
    director = scene.phone()
    code = create_table(director, NAMES, mode=DUPLICATE)
    post(director, scene.server, {"type": "enter_points", "points": 24})
    post(director, scene.server, {"type": "record_top", "points": 28})
    show(director, "sheet")
    director.get_by_role("button", name="Starten").click()
    expect(director.get_by_role("button", name="Pauzeren")).to_be_visible()  # it runs
    scene.speak(director)
    expect(director.get_by_role("timer")).to_be_visible()
    scene.check(director, "duplicate-director")
    display = scene.phone(f"/display.html#join={code}", scene.language)
    display.set_viewport_size(ROOM)
    expect(display.get_by_role("timer")).to_be_visible()
    scene.check(display, "room-display")
    scene.check(scene.print_page("page=duplicate-game", director), "print-duplicate-game")


def blank_print_pages(scene: Scene) -> None:
    for query in ("page=classic&players=2", "page=duplicate&players=4", "page=tiles"):
        name = "print-" + query.split("&")[0].removeprefix("page=")
        page = scene.print_page(f"{query}&edition={scene.language}")
        scene.check(page, name)
        page.set_viewport_size(PHONE)  # opened on a phone first, then printed
        scene.check(page, f"{name}-phone")


SCENES: dict[str, Callable[[Scene], None]] = {
    "start-and-calculator": start_and_calculator,
    "classic-table": classic_table,
    "sheet-with-every-line-and-the-clock": sheet_with_every_line_and_the_clock,
    "joining": joining,
    "duplicate-director": duplicate_director,
    "blank-print-pages": blank_print_pages,
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", SCENES)
def test_no_view_has_a_serious_or_critical_violation(
    browser: Browser, server: ServerProcess, name: str, language: str
) -> None:
    scene = Scene(browser, server, language)
    try:
        SCENES[name](scene)
    finally:
        missing = scene.close()
    assert scene.found, "no view was checked"
    assert {view: found for view, found in scene.found.items() if found} == {}
    assert missing == []


# --- the keyboard (issue 27) ---------------------------------------------------------------

#: What has the focus, named as the walk names it: its id, or its tag and text.
FOCUSED = """() => { const e = document.activeElement;
    return e.id || `${e.tagName.toLowerCase()}:${e.textContent.trim()}`; }"""
#: Everything in ``root`` the Tab key should reach, in the page's order, named the same way.
REACHABLE = """(root) => [...document.querySelector(root).querySelectorAll(
        'a[href], button, input, select, textarea, summary, [tabindex]')]
    .filter((e) => e.tabIndex >= 0 && !e.disabled && e.checkVisibility())
    .map((e) => e.id || `${e.tagName.toLowerCase()}:${e.textContent.trim()}`)"""


def focused(page: Page) -> str:
    return page.evaluate(FOCUSED)


def walk(page: Page, start: str, root: str) -> list[str]:
    """Tab from ``start`` until the focus leaves ``root``: what it stopped on, in order."""
    page.locator(start).focus()
    seen = []
    for _ in range(80):
        page.keyboard.press("Tab")
        if not page.evaluate(f"() => document.activeElement.closest('{root}') !== null"):
            return seen
        seen.append(focused(page))
    raise AssertionError(f"the focus never left {root}: {seen}")


def press(page: Page, target: str, key: str) -> None:
    page.locator(target).focus()
    page.keyboard.press(key)


def lines(page: Page, count: int) -> None:
    expect(page.locator(".rounds .line")).to_have_count(count)


def still_on(page: Page, target: str) -> None:
    """The turn's buttons are back from their answer (a tap while they were busy would have
    done nothing) and ``target`` still has the focus."""
    expect(page.locator("#sheet-pass")).not_to_have_attribute("aria-disabled", "true")
    expect(page.locator("#sheet-undo")).not_to_have_attribute("aria-disabled", "true")
    assert focused(page) == target


@pytest.fixture
def keeper(browser: Browser, server: ServerProcess) -> Iterator[Page]:
    """The host's phone keeping the sheet of a house-rules game with a 25-minute clock."""
    host = open_app(browser, server.url)
    create_table(host, NAMES)
    post(host, server, {**CLASSIC, "clock_minutes": 25})
    show(host, "sheet")
    yield host
    assert missing_strings(host) == []
    host.context.close()


def test_tab_reaches_every_action_of_the_sheet_in_order(
    keeper: Page, server: ServerProcess
) -> None:
    for command in EVERY_LINE:
        post(keeper, server, command)
    press(keeper, "#gameclock-go", "Enter")
    expect(keeper.locator("#gameclock-tap")).to_be_visible()
    expect(keeper.locator("#gameclock-go")).to_be_enabled()  # back from its answer
    walked = walk(keeper, "#sheet-title", "#sheet")
    assert walked == keeper.evaluate(REACHABLE, "#sheet")
    for earlier, later in pairwise(
        ["gameclock-tap", "gameclock-go", "challenge-who", "challenge-send", "sheet-score",
         "sheet-points", "sheet-points-add", "sheet-pass", "sheet-exchange", "sheet-withdraw",
         "sheet-undo", "sheet-clear", "penalty-summary", "end-open", "speech-toggle"]
    ):  # fmt: skip
        assert walked.index(earlier) < walked.index(later), (earlier, later)
    assert walked[-1] == "speech-toggle"  # this phone's own setting comes last
    assert "summary:PLANK" in walked  # a move's words fold open from the rounds table


def test_the_sheet_is_worked_with_enter_and_space_and_keeps_the_focus(
    keeper: Page, server: ServerProcess
) -> None:
    press(keeper, "#gameclock-go", "Enter")
    expect(keeper.locator("#gameclock-tap")).to_be_visible()
    expect(keeper.locator("#gameclock-go")).not_to_have_attribute("aria-disabled", "true")
    assert focused(keeper) == "gameclock-go"  # start became pause under the same finger
    keeper.locator("#sheet-points").focus()
    keeper.keyboard.type("12")
    keeper.keyboard.press("Enter")
    lines(keeper, 1)
    still_on(keeper, "sheet-points")
    expect(keeper.locator("#sheet-points")).to_have_value("")
    press(keeper, "#sheet-pass", " ")
    lines(keeper, 2)
    still_on(keeper, "sheet-pass")
    keeper.keyboard.press("Tab")
    keeper.keyboard.press("Enter")  # Exchange, next to Pass
    lines(keeper, 3)
    still_on(keeper, "sheet-exchange")
    # A line from another phone redraws the sheet: the focus stays where it was.
    post(keeper, server, {"type": "give_penalty", "player": 1, "points": 5})
    lines(keeper, 4)
    assert focused(keeper) == "sheet-exchange"
    press(keeper, "#sheet-undo", "Enter")
    lines(keeper, 3)
    still_on(keeper, "sheet-undo")
    press(keeper, "#sheet-zero-hint-toggle", "Enter")
    expect(keeper.locator("#sheet-zero-hint")).to_be_visible()
    press(keeper, "#speech-toggle", " ")
    expect(keeper.locator("#speech-toggle")).to_be_checked()
    # The mover's tap on the clock, then the two-step clear, from the keyboard.
    press(keeper, "#gameclock-tap", "Enter")
    expect(keeper.locator("#gameclock-record-first")).to_be_visible()
    assert focused(keeper) != "body"
    press(keeper, "#sheet-clear", "Enter")
    expect(keeper.locator("#sheet-clear")).to_have_text("Tik nog eens om te wissen")
    assert focused(keeper) == "sheet-clear"
    keeper.keyboard.press("Enter")
    expect(keeper.locator(".rounds .line")).to_have_count(0)
    expect(keeper.locator(".no-lines")).to_be_visible()
    assert focused(keeper) == "sheet-clear"
    shot(keeper, "a11y-keyboard-sheet", full_page=False)


def test_a_move_is_scored_and_recorded_from_the_keyboard(keeper: Page) -> None:
    show(keeper, "score")
    keeper.locator("#calc-word-0").fill("kaas")
    expect(keeper.locator("#calculator .formula")).to_have_count(1)
    expect(keeper.locator("#calc-total")).to_have_attribute("aria-live", "polite")
    walked = walk(keeper, "#calc-word-0", "#calculator")
    assert walked.index("calc-check") < walked.index("button:7 voor Anna")
    press(keeper, "#calc-word-0", "Tab")
    while focused(keeper) != "button:7 voor Anna":
        keeper.keyboard.press("Tab")
    keeper.keyboard.press("Enter")
    expect(keeper.locator("#shell-bar .bar-totals li").first).to_have_text("Anna 7")
    assert focused(keeper) != "body"
