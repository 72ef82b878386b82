"""Debian's Chromium driven by Playwright, and the app's start page driven in it.

No browser is downloaded: Playwright starts ``/usr/bin/chromium`` (``CHROMIUM`` overrides
it), headless, with the flags that keep it off the network. The benchmarks and the browser
tests both use these.
"""

import os
import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, Playwright, ViewportSize, expect

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
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
KEEPS_SCORE = "Ik houd alleen de score bij (geen plaats)"  # the host's phone holds no seat


def launch(playwright: Playwright) -> Browser:
    """Headless Chromium from the system; fails loudly when it is missing."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: install Debian's chromium (.ci/run does)")
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)


def ready(page: Page) -> None:
    """Wait until the app has its strings and catalog (``body[data-ready]``)."""
    page.wait_for_selector("body[data-ready=true]")


def wait_for_state(page: Page, predicate: str, timeout: float = 10.0) -> None:
    """Wait until ``predicate`` (JavaScript, given the app's state) holds on ``page``.

    Not ``page.wait_for_function``: it takes a promise for a truthy value and returns at
    once, and the state is only reachable through an (async) import. Once it holds, the
    screens show it too: a phone slow to draw draws a frame at the next animation frame
    (``web/js/live.js``), which comes before the one waited for here.
    """
    script = (
        "async () => {"
        " if (!(" + predicate + ")((await import('/js/state.js')).app)) return false;"
        " await new Promise((drawn) => document.hidden ? setTimeout(drawn)"
        " : requestAnimationFrame(() => drawn()));"
        " return true; }"
    )
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            raise AssertionError(f"{predicate} did not hold within {timeout} s")
        page.wait_for_timeout(50)


def show(page: Page, view: str) -> None:
    """Switch the phone to ``view`` ("score", "sheet", "tiles", "table"; without a table
    "start" and "score") with its tab in the bottom bar."""
    if page.evaluate("() => document.body.dataset.view") != view:
        page.locator(f"#tab-{view}").click()
    page.wait_for_selector(f"body[data-view={view}]")


def create_table(
    page: Page,
    players: list[str],
    mode: str = "Klassiek: om beurten",
    rules: str | None = None,
    edition: str = "nl",
    writers: str | None = None,
    host_plays: str | None = None,
) -> str:
    """Start a sheet from the start page (``writers``: the label of who writes the sheet,
    each phone its own seat by default; ``host_plays``: at a classic table, the player whose
    seat the host's phone holds, or None: it only keeps the score); the table's join code."""
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
    if start.get_by_label(KEEPS_SCORE).count():  # a classic table: the host's own seat
        start.get_by_label(f"Ik speel als {host_plays}" if host_plays else KEEPS_SCORE).check()
    start.get_by_role("button", name="Spel beginnen").click()
    code = page.locator(".table-bar .code")
    expect(code).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
    wait_for_state(page, "app => app.view?.sheet")
    return code.inner_text()
