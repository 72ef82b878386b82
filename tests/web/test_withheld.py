"""Every withheld action explained (issue 27, item 3): where a phone may not record a turn,
undo, give a penalty, clear the sheet, end the game or start a new one, it says why where the
button would be, in its own language; a refusal the server sends for a command the phone did
send is said; the phone that loses a race for a turn keeps its move off the new board; going
back to "Mijn potjes" raises no "no connection" banner."""

import json
import re
import time

from playwright.sync_api import Browser, Locator, Page, WebSocketRoute, expect

from tests.server.serving import ServerProcess
from tests.web.browser import (
    Phones,
    create_table,
    join_table,
    open_app,
    post,
    shot,
    show,
    wait_for_state,
)

TURN_CAS = "Cas is aan de beurt — alleen Cas of de gastheer noteert die beurt."
ONLY_WATCHES = "Deze telefoon kijkt alleen mee en noteert niets."
POINTS = "Punten, tot 2.000"


def enter_points(page: Page, points: int) -> None:
    show(page, "sheet")
    page.get_by_label(POINTS).fill(str(points))
    page.get_by_role("button", name="Punten noteren").click()


def english(page: Page) -> None:
    page.locator("#language").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def said(page: Page) -> Locator:
    """The phone's message line (what it said last)."""
    return page.locator("#messages .message")


class Behind:
    """A phone's websocket through Playwright: while ``holding``, what the server sends it
    waits, so the phone shows the table as it was a moment ago; ``let_go`` hands it on."""

    def __init__(self, page: Page) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self.route: WebSocketRoute | None = None
        page.route_web_socket(re.compile(r"/ws$"), self._connect)

    def _connect(self, route: WebSocketRoute) -> None:
        self.route = route
        route.connect_to_server().on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        if self.holding:
            self.held.append(message)
        else:
            assert self.route is not None
            self.route.send(message)

    def until_held(self, page: Page, kind: str) -> None:
        """Wait until a message of ``kind`` ("rejected" …) is among those held back."""
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


def test_each_withheld_action_says_why_where_its_button_would_be(
    phones: Phones, server: ServerProcess
) -> None:
    host = phones()
    code = create_table(host, ["Anna", "Bas", "Cas"], host_plays="Anna")
    bas, cas = phones(), phones()
    line = Behind(bas)  # Bas's phone will fall a moment behind
    join_table(bas, code, "Bas")
    join_table(cas, code, "Cas")
    english(cas)
    show(cas, "sheet")
    enter_points(host, 12)  # Anna's turn, on the host's phone that holds her seat
    enter_points(bas, 10)
    wait_for_state(cas, "app => app.view.sheet.to_move === 2")

    # Bas's phone on Cas's turn: no turn buttons, and why, on the sheet and in the calculator.
    expect(bas.locator(".waiting-turn")).to_have_text("Wachten op Cas")
    expect(bas.locator("#sheet-turn-withheld")).to_have_text(TURN_CAS)
    expect(bas.get_by_role("button", name="Punten noteren")).to_have_count(0)
    expect(bas.locator("#sheet-penalty-withheld")).to_have_text(
        "Strafpunten geeft alleen de gastheer."
    )
    expect(bas.locator("#sheet-clear-withheld")).to_have_text(
        "Alleen de gastheer wist het formulier."
    )
    expect(bas.get_by_role("button", name="Laatste regel ongedaan maken")).to_be_visible()  # his
    shot(bas, "withheld-sheet")
    show(bas, "score")
    bas.locator("#calc-word-0").fill("kat")
    expect(bas.locator("#calc-total")).to_be_visible()
    expect(bas.locator("#calculator .result button.primary")).to_have_count(0)
    expect(bas.locator("#calc-record-withheld")).to_have_text(TURN_CAS)
    shot(bas, "withheld-calculator", full_page=False)

    # Cas's phone, in English, on his own turn: the last line is Bas's to undo.
    expect(cas.locator("#sheet-undo-withheld")).to_have_text(
        "The last line is Bas’s: only Bas or the host undoes it."
    )
    expect(cas.get_by_role("button", name="Pass")).to_be_visible()
    # A penalty is the host's line: neither Bas nor Cas strikes it.
    show(host, "sheet")
    host.locator("#penalty-summary").click()
    host.get_by_role("button", name="Strafpunten geven").click()
    wait_for_state(bas, "app => app.view.sheet.last_line_seat === null")
    show(bas, "sheet")
    expect(bas.locator("#sheet-undo-withheld")).to_have_text(
        "De laatste regel is er een van de gastheer (een straf of een uitdaging): alleen de"
        " gastheer maakt hem ongedaan."
    )
    expect(cas.locator("#sheet-undo-withheld")).to_have_text(re.compile("^The last line is one"))

    # A refusal of a command the phone did send is said: Bas's phone falls a moment behind,
    # the host writes Bas's turn meanwhile, and Bas taps Pass on the turn his phone shows.
    cas.get_by_role("button", name="Pass").click()
    enter_points(host, 5)  # Anna
    expect(bas.get_by_role("button", name="Passen")).to_be_visible()
    line.holding = True
    enter_points(host, 7)  # the host writes Bas's turn meanwhile
    wait_for_state(host, "app => app.view.sheet.to_move === 2")
    bas.get_by_role("button", name="Passen").click()
    line.until_held(bas, "rejected")
    line.let_go()
    expect(said(bas)).to_have_text(
        "De beurt van Bas is net genoteerd door de telefoon van de gastheer: 7"
    )

    # After the end, the new game is the host's.
    post(host, server, {"type": "end_game", "racks": [[None, None], [None, 0], [None, 0]]})
    expect(bas.locator(".final-table")).to_be_visible()
    expect(bas.get_by_role("button", name="Nieuw spel, zelfde spelers")).to_have_count(0)
    expect(bas.locator("#end-new-game-withheld")).to_have_text(
        "Alleen de gastheer start een nieuwe partij."
    )
    expect(cas.locator("#end-new-game-withheld")).to_have_text("Only the host starts a new game.")
    expect(host.get_by_role("button", name="Nieuw spel, zelfde spelers")).to_be_visible()
    shot(bas, "withheld-new-game")


def test_a_viewer_is_told_once_that_it_only_watches(phones: Phones) -> None:
    host = phones()
    code = create_table(host, ["Anna", "Bas"])
    viewer = phones()
    join_table(viewer, code, "Kijker (alleen lezen)")
    expect(viewer.locator(".waiting-turn")).to_have_text("Wachten op Anna")
    expect(viewer.locator(".withheld")).to_have_text([ONLY_WATCHES])
    show(viewer, "score")
    viewer.locator("#calc-word-0").fill("kat")
    expect(viewer.locator("#calc-total")).to_be_visible()
    expect(viewer.locator("#calc-record-withheld")).to_have_text(ONLY_WATCHES)


def test_the_phone_that_lost_a_race_keeps_its_move_off_the_new_board(phones: Phones) -> None:
    """The host's phone and Anna's both lay KOK for Anna; Anna's lands first. The host's is
    refused with who recorded the turn, and its letters come back off the board, not beside
    Anna's KOK."""
    host = phones()
    line = Behind(host)
    code = create_table(host, ["Anna", "Bas"])
    anna = phones()
    join_table(anna, code, "Anna")
    for page in (host, anna):
        show(page, "score")
        page.locator("#calc-mode-board").check()
        page.locator('#calc-board [data-square="H8"]').click()
        page.locator("#calc-letters").fill("kok")
        expect(page.get_by_role("button", name="14 voor Anna")).to_be_visible()
    line.holding = True
    anna.get_by_role("button", name="14 voor Anna").click()
    wait_for_state(anna, "app => app.view.sheet.to_move === 1")
    host.get_by_role("button", name="14 voor Anna").click()
    line.until_held(host, "rejected")
    line.let_go()
    expect(said(host)).to_have_text(
        "De beurt van Anna is net genoteerd door de telefoon van Anna: KOK, 14"
    )
    wait_for_state(host, "app => app.view.sheet.to_move === 1")
    expect(host.locator("#calc-letters")).to_have_value("kok")  # kept, off the board
    expect(host.locator("#calc-total")).to_be_hidden()
    for square in ("H11", "H12", "H13"):  # no phantom KOKKOK
        expect(host.locator(f'#calc-board [data-square="{square}"]')).to_have_accessible_name(
            re.compile(r", leeg$")
        )
    shot(host, "race-lost-board", full_page=False)


def test_going_back_to_my_games_raises_no_connection_banner(
    browser: Browser, server: ServerProcess
) -> None:
    """Leaving a game for the list is no lost connection: the banner stays down, however
    long the phone waits on the list."""
    anna = open_app(browser, server.url, clock=True)
    show(anna, "start")
    start = anna.locator("#start")
    start.get_by_label("Online spelen").check()
    start.get_by_label("Aantal spelers").select_option("2")
    start.get_by_label("Naam van speler 1").fill("Anna")
    start.get_by_label("Naam van speler 2").fill("Bas")
    start.get_by_role("button", name="Spel beginnen").click()
    anna.wait_for_selector("body[data-view=play]")
    wait_for_state(anna, "app => app.online")
    anna.locator("#play-games").click()
    anna.wait_for_selector("body[data-view=start]")
    expect(anna.locator(".my-games .game-row")).to_have_count(1)
    anna.clock.run_for(5000)  # past the banner's delay
    expect(anna.locator(".my-games .game-turn")).to_have_text("Jij bent aan de beurt")
    expect(anna.locator("#banner")).to_be_hidden()
    anna.context.close()
