"""What every browser test needs of Chromium and the app.

Chromium itself, and the start page driven in it, are ``bench.browser``'s (the benchmarks
use them too): Debian's ``/usr/bin/chromium`` through Playwright, no download. Screenshots
of key screens go to ``test-artifacts/screens`` (``SCREENSHOTS`` overrides it), kept after
the run.
"""

import os
import re
import uuid
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from bench.browser import PHONE as PHONE
from bench.browser import create_table as create_table
from bench.browser import launch as launch
from bench.browser import ready as ready
from bench.browser import show as show
from bench.browser import wait_for_state as wait_for_state
from tests.server.serving import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS", ROOT / "test-artifacts" / "screens"))
#: The ``phones`` fixture: a new phone (browser context) each call.
Phones = Callable[[], Page]


def open_app(
    browser: Browser,
    url: str,
    language: str = "nl",
    path: str = "/",
    *,
    clock: bool = False,
    user_agent: str | None = None,
) -> Page:
    """A phone in a fresh context (its own local storage), the app loaded and ready. With
    ``clock`` the app's timers are Playwright's (``page.clock``): they run at real speed
    until the test moves them on; ``user_agent``: the phone's browser as it names itself."""
    context = browser.new_context(
        viewport=PHONE, locale=language, device_scale_factor=1, user_agent=user_agent
    )
    page = context.new_page()
    if clock:
        page.clock.install()
    page.set_default_timeout(10_000)
    expect.set_options(timeout=10_000)
    page.goto(url + path)
    ready(page)
    return page


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


SCOREKEEPER = "Eén telefoon houdt het formulier bij"


def join_table(page: Page, code: str, seat: str, admitted: bool = True) -> None:
    """Join the table with ``code`` from the start page at the seat the server lists as
    ``seat`` ("Bas", "Bas · bezet", "Kijker (alleen lezen)"); in a duplicate game, whose
    form asks the player's name, ``seat`` is typed as the name. With ``admitted`` wait for
    the sheet, else for the screen that waits for the host."""
    if page.locator("#tab-start").count():  # no table yet: the join form is in Start
        show(page, "start")
    form = page.locator("#start .join")
    form.get_by_label("Tafelcode").fill(code)
    form.locator("input[name=seat], input[name=name]").first.wait_for()  # the seats came
    if form.locator("input[name=name]").count() and not form.get_by_label(seat, exact=True).count():
        form.get_by_label(YOUR_NAME, exact=True).fill(seat)
    else:
        form.get_by_label(seat, exact=True).check()
    page.get_by_role("button", name="Aanschuiven", exact=True).click()
    if admitted:
        expect(page.locator(".table-bar .who")).to_be_attached()  # in the Table view
        wait_for_state(page, "app => app.view && !app.view.waiting")
    else:
        expect(page.get_by_role("heading", name=WAITING)).to_be_visible()


WAITING = "Wachten tot de gastheer deze telefoon binnenlaat"
YOUR_NAME = "Je naam"  # a duplicate room's join form


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
