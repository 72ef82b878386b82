"""The shared board belongs to the turn (issue 27), with three phones and the host's at one
classic table: "Op het bord leggen zonder score" is offered to the player to move only (and
the host); elsewhere the phone says whose turn it is where the button would be; a laying
tapped on a view the table has moved past is refused by the server, said in the phone's own
language; a laying on the turn is announced on every phone with who laid it; clearing says
what it takes off and whose it was, before and after."""

import json
import re
import time

from playwright.sync_api import Locator, Page, WebSocketRoute, expect

from tests.web.browser import Phones, create_table, join_table, shot, show, wait_for_state

PLACE_NL = "Op het bord leggen zonder score"
PLACE_EN = "Place on the board without a score"


def square(page: Page, name: str):
    return page.locator(f'#calc-board [data-square="{name}"]')


def lay(page: Page, start: str, letters: str) -> None:
    """The calculator in board mode, ``letters`` laid across from ``start``, scored."""
    show(page, "score")
    if not page.locator("#calc-mode-board").is_checked():
        page.locator("#calc-mode-board").check()
    square(page, start).click()
    page.locator("#calc-letters").fill(letters)
    expect(page.locator("#calc-total")).to_be_visible()


def english(page: Page) -> None:
    page.locator("#language").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def said(page: Page) -> Locator:
    """The phone's message line (what ``say`` put there last)."""
    return page.locator("#messages .message")


class Held:
    """A phone's websocket through Playwright: what the server sends it is held back while
    ``holding``, so the phone keeps showing the table as it was — a phone whose view is a
    moment behind — and handed on in order when let go."""

    def __init__(self, page: Page) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self.route: WebSocketRoute | None = None
        page.route_web_socket(re.compile(r"/ws$"), self._connect)

    def _connect(self, route: WebSocketRoute) -> None:
        server = route.connect_to_server()
        self.route = route
        server.on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        if self.holding:
            self.held.append(message)
        else:
            assert self.route is not None
            self.route.send(message)

    def until_held(self, page: Page, kind: str) -> None:
        """Wait until a message of ``kind`` ("rejected" …) was held back."""
        deadline = time.monotonic() + 10
        while not any(isinstance(m, str) and json.loads(m).get("type") == kind for m in self.held):
            assert time.monotonic() < deadline, f"no {kind} came"
            page.wait_for_timeout(50)

    def let_go(self) -> None:
        assert self.route is not None
        self.holding = False
        for message in self.held:
            self.route.send(message)
        self.held.clear()


def test_the_board_is_the_turns_and_every_phone_says_who_laid_and_cleared(phones: Phones) -> None:
    host = phones()
    code = create_table(host, ["Anna", "Bas", "Cas"], host_plays="Anna")
    bas, cas = phones(), phones()
    line = Held(bas)  # Bas's phone, in English, will be a moment behind
    join_table(bas, code, "Bas")
    join_table(cas, code, "Cas")
    english(bas)

    # Anna's turn: Bas's and Cas's phones score the tiles but say whose board it is.
    lay(cas, "H8", "kat")
    expect(cas.get_by_role("button", name=PLACE_NL)).to_have_count(0)
    expect(cas.locator("#calc-place-withheld")).to_have_text(
        "Anna is aan de beurt: alleen wie aan de beurt is (of de gastheer) legt blokjes zonder"
        " score op het bord of haalt ze weg."
    )
    lay(bas, "H8", "kat")
    expect(bas.locator("#calc-place-withheld")).to_have_text(re.compile("^It is Anna’s turn: "))
    expect(bas.get_by_role("button", name=PLACE_EN)).to_have_count(0)
    shot(cas, "board-withheld")

    # Anna passes: the board is Bas's, and his phone offers the button.
    show(host, "sheet")
    host.get_by_role("button", name="Passen").click()
    place = bas.get_by_role("button", name=PLACE_EN)
    expect(place).to_be_visible()
    expect(cas.locator("#calc-place-withheld")).to_have_text(re.compile("^Bas is aan de beurt"))

    # Bas's phone falls a moment behind: the host records his pass meanwhile, and the
    # laying he taps on the turn his phone still shows is refused, said in English.
    line.holding = True
    host.get_by_role("heading", name="Beurt van Bas").wait_for()
    host.get_by_role("button", name="Passen").click()
    wait_for_state(host, "app => app.view.sheet.to_move === 2")
    place.click()
    line.until_held(bas, "rejected")
    line.let_go()
    expect(said(bas)).to_have_text(
        "It is Cas’s turn: only the player to move (or the host) places tiles on the board"
        " without a score or takes them off."
    )
    expect(bas.locator("#calc-letters")).to_have_value("kat")  # the move stays
    shot(bas, "board-refused-en", full_page=False)
    assert host.evaluate("async () => (await import('/js/state.js')).app.view.sheet.laid") == []

    # Cas's turn: his laying is announced on every phone, with his name.
    lay(cas, "H8", "kat")
    cas.get_by_role("button", name=PLACE_NL).click()
    for page in (host, cas):
        expect(said(page)).to_have_text("Cas legde 3 blokjes op het bord: H8–H10")
    expect(said(bas)).to_have_text("Cas placed 3 tiles on the board: H8–H10")
    shot(host, "board-laid-announced", full_page=False)
    for page in (host, cas):
        show(page, "sheet")
        expect(page.locator(".classic-sheet .unscored-line")).to_have_text(
            "Zonder score op het bord: H8–H10 van Cas. Bord leegmaken haalt ze eraf."
        )
    show(bas, "sheet")
    expect(bas.locator(".classic-sheet .unscored-line")).to_have_text(
        "On the board without a score: H8–H10 by Cas. Clear the board takes them off."
    )

    # Clearing: the phone says beforehand what it takes off, and every phone after.
    show(cas, "score")
    clear = cas.get_by_role("button", name="Bord leegmaken")
    expect(clear).to_have_accessible_description(
        "Zonder score op het bord: H8–H10 van Cas. Bord leegmaken haalt ze eraf."
    )
    show(bas, "score")
    expect(bas.get_by_role("button", name="Clear the board")).to_have_count(0)  # not his
    shot(cas, "board-before-clearing")
    clear.click()
    for page in (host, cas):
        expect(said(page)).to_have_text("Het bord is leeggemaakt: H8–H10 van Cas eraf gehaald.")
    expect(said(bas)).to_have_text("The board was cleared: H8–H10 by Cas taken off.")
    shot(host, "board-cleared-announced", full_page=False)
    expect(square(cas, "H8")).to_have_accessible_name(re.compile(r", leeg$"))
