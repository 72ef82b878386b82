"""Debian's Chromium driven by Playwright, and what every browser test needs of it.

No browser is downloaded: Playwright starts ``/usr/bin/chromium`` (``CHROMIUM`` overrides
it), headless, with the flags that keep it off the network. Screenshots of key screens go
to ``test-artifacts/screens`` (``SCREENSHOTS`` overrides it), kept after the run.
"""

import os
import re
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, Playwright, ViewportSize, expect

from tests.server.serving import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS", ROOT / "test-artifacts" / "screens"))
ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",  # no calls home: this machine's network is closed
    "--disable-component-update",
    "--disable-sync",
]
PHONE: ViewportSize = {"width": 390, "height": 844}  # a small phone, in CSS pixels
#: The ``phones`` fixture: a new phone (browser context) each call.
Phones = Callable[[], Page]


def launch(playwright: Playwright) -> Browser:
    """Headless Chromium from the system; fails loudly when it is missing."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: install Debian's chromium (.ci/run does)")
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)


def open_app(browser: Browser, url: str, language: str = "nl", path: str = "/") -> Page:
    """A phone in a fresh context (its own local storage), the app loaded and ready."""
    context = browser.new_context(viewport=PHONE, locale=language, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(10_000)
    expect.set_options(timeout=10_000)
    page.goto(url + path)
    ready(page)
    return page


def ready(page: Page) -> None:
    """Wait until the app has its strings and catalog (``body[data-ready]``)."""
    page.wait_for_selector("body[data-ready=true]")


def wait_for_state(page: Page, predicate: str, timeout: float = 10.0) -> None:
    """Wait until ``predicate`` (JavaScript, given the app's state) holds on ``page``.

    Not ``page.wait_for_function``: it takes a promise for a truthy value and returns at
    once, and the state is only reachable through an (async) import.
    """
    script = "async () => Boolean((" + predicate + ")((await import('/js/state.js')).app))"
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            raise AssertionError(f"{predicate} did not hold within {timeout} s")
        page.wait_for_timeout(50)


def line_kinds(page: Page) -> list[str]:
    """The kinds of the lines of the sheet the phone shows ("points", "pass", "move" …)."""
    return page.evaluate(
        "async () => (await import('/js/state.js')).app.view.sheet.lines.map(l => l.kind)"
    )


def missing_strings(page: Page) -> list[str]:
    """Keys the page asked for that its language file lacks."""
    return page.evaluate("async () => [...(await import('/js/i18n.js')).missing]")


def shot(page: Page, name: str, full_page: bool = True) -> Path:
    """Keep a screenshot of the whole page (or of what the phone's screen shows) as a test
    artifact."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / (re.sub(r"[^\w.-]+", "-", name) + ".png")
    page.screenshot(path=path, full_page=full_page)
    return path


def show(page: Page, view: str) -> None:
    """Switch the phone to ``view`` ("score", "sheet", "tiles", "table"; without a table
    "start" and "score") with its tab in the bottom bar."""
    if page.evaluate("() => document.body.dataset.view") != view:
        page.locator(f"#tab-{view}").click()
    page.wait_for_selector(f"body[data-view={view}]")


SCOREKEEPER = "Eén telefoon houdt het formulier bij"


def create_table(
    page: Page,
    players: list[str],
    mode: str = "Klassiek: om beurten",
    rules: str | None = None,
    edition: str = "nl",
    writers: str | None = None,
) -> str:
    """Start a sheet from the start page (``writers``: the label of who writes the sheet,
    each phone its own seat by default); the table's join code."""
    if page.locator("#tab-start").count():  # no table yet: the start form is its own view
        show(page, "start")
    start = page.locator("#start")  # the calculator has its own edition menu
    start.get_by_label(mode).check()
    start.get_by_label("Taal en letterset").select_option(edition)
    start.get_by_label("Aantal spelers").select_option(str(len(players)))
    for index, name in enumerate(players, 1):
        start.get_by_label(f"Naam van speler {index}").fill(name)
    if rules:
        start.get_by_label(rules).check()
    if writers:
        start.get_by_label(writers).check()
    start.get_by_role("button", name="Spel beginnen").click()
    code = page.locator(".table-bar .code")
    expect(code).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
    wait_for_state(page, "app => app.view?.sheet")
    return code.inner_text()


def join_table(page: Page, code: str, seat: str, admitted: bool = True) -> None:
    """Join the table with ``code`` from the start page at the seat the server lists as
    ``seat`` ("Bas", "Bas · bezet", "Kijker (alleen lezen)"); with ``admitted`` wait for the
    sheet, else for the screen that waits for the host."""
    if page.locator("#tab-start").count():  # no table yet: the join form is in Start
        show(page, "start")
    page.get_by_label("Tafelcode").fill(code)
    page.locator("#start .join").get_by_label(seat, exact=True).check()
    page.get_by_role("button", name="Aanschuiven", exact=True).click()
    if admitted:
        expect(page.locator(".table-bar .who")).to_be_attached()  # in the Table view
        wait_for_state(page, "app => app.view && !app.view.waiting")
    else:
        expect(page.get_by_role("heading", name=WAITING)).to_be_visible()


WAITING = "Wachten tot de gastheer deze telefoon binnenlaat"


def session_of(page: Page) -> dict:
    """The phone's place at its table as kept in local storage: table, token, role, seat."""
    return page.evaluate("() => JSON.parse(localStorage.getItem('tilestream.session'))")


def referenced(page: Page, command: dict) -> dict:
    """``command`` with the reference the phone would give it (its turn, the newest line,
    the open round or the game), from the sheet the phone shows now."""
    return page.evaluate(
        """async (command) => {
            const { app } = await import('/js/state.js');
            const { refer } = await import('/js/turn.js');
            return app.view?.sheet ? refer(app.view.sheet, command, command.player ?? null)
                : command;
        }""",
        command,
    )


def post(page: Page, server: ServerProcess, command: dict) -> None:
    """Record a command over HTTP with this phone's token, as another client at the table,
    naming what the phone shows as a phone does."""
    wait_for_state(page, "app => app.view?.sheet")
    session = session_of(page)
    body = referenced(page, command)
    reply = server.api().command(session["table"], session["token"], str(uuid.uuid4()), body)
    assert reply.status == 200, reply.body
    # The phone has it before the next command names what the phone shows.
    wait_for_state(page, f"app => app.view?.seq >= {reply.json()['seq']}")


SERIOUS = ("serious", "critical")


def axe(page: Page, context: str | None = None) -> list[dict]:
    """The serious and critical violations axe-core (bundled by ``axe-playwright-python``)
    finds on what ``page`` shows now (or in the ``context`` selector): rule, impact, what it
    asks, and the elements, short enough to read in a failed assertion."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, context=context).response["violations"]
    return [
        {
            "rule": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [" ".join(map(str, node["target"])) for node in v["nodes"]][:8],
        }
        for v in found
        if v["impact"] in SERIOUS
    ]
