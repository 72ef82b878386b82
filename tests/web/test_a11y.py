"""Accessibility: axe-core finds no serious or critical violation on any view of the app, the
room display or a print page, in Dutch and in Polish.

Each scene sets a table up (in Dutch, with the helpers' labels), switches the phone to the
language under test, and has axe check every view it reaches; a scene's test fails with the
views and their violations. A new view is one more ``check`` in the scene that reaches it
(or a new scene in ``SCENES``).
"""

import re
from collections.abc import Callable

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
