"""Debian's Chromium driven by Playwright, and what every browser test needs of it.

No browser is downloaded: Playwright starts ``/usr/bin/chromium`` (``CHROMIUM`` overrides
it), headless, with the flags that keep it off the network. Screenshots of key screens go
to ``test-artifacts/screens`` (``SCREENSHOTS`` overrides it), kept after the run.
"""

import os
import re
import time
import uuid
from pathlib import Path

from playwright.sync_api import Browser, Page, Playwright, expect

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
PHONE = {"width": 390, "height": 844}  # a small phone, in CSS pixels


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


def missing_strings(page: Page) -> list[str]:
    """Keys the page asked for that its language file lacks."""
    return page.evaluate("async () => [...(await import('/js/i18n.js')).missing]")


def shot(page: Page, name: str) -> Path:
    """Keep a screenshot of the whole page as a test artifact."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / (re.sub(r"[^\w.-]+", "-", name) + ".png")
    page.screenshot(path=path, full_page=True)
    return path


def create_table(
    page: Page,
    players: list[str],
    mode: str = "Klassiek: om beurten",
    rules: str | None = None,
    edition: str = "nl",
) -> str:
    """Start a sheet from the start page; the table's join code."""
    start = page.locator("#start")  # the calculator has its own edition menu
    start.get_by_label(mode).check()
    start.get_by_label("Taal en letterset").select_option(edition)
    start.get_by_label("Aantal spelers").select_option(str(len(players)))
    for index, name in enumerate(players, 1):
        start.get_by_label(f"Naam van speler {index}").fill(name)
    if rules:
        start.get_by_label(rules).check()
    start.get_by_role("button", name="Spel beginnen").click()
    code = page.locator(".table-bar .code")
    expect(code).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
    wait_for_state(page, "app => app.view?.sheet")
    return code.inner_text()


def join_table(page: Page, code: str, seat: str) -> None:
    """Join the table with ``code`` from the start page, as "Speler 2" or "Kijker …"."""
    page.get_by_label("Tafelcode").fill(code)
    page.get_by_label("Jouw plaats").select_option(label=seat)
    page.get_by_role("button", name="Aanschuiven", exact=True).click()
    expect(page.locator(".table-bar .code")).to_have_text(code)


def session_of(page: Page) -> dict:
    """The phone's place at its table as kept in local storage: table, token, role, seat."""
    return page.evaluate("() => JSON.parse(localStorage.getItem('tilestream.session'))")


def post(page: Page, server: ServerProcess, command: dict) -> None:
    """Record a command over HTTP with this phone's token, as another client at the table."""
    wait_for_state(page, "app => app.view?.sheet")
    session = session_of(page)
    reply = server.api().command(session["table"], session["token"], str(uuid.uuid4()), command)
    assert reply.status == 200, reply.body
