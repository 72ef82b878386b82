"""Fixtures for the browser tests: one real ``tilestream serve`` and one Chromium per run."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from server.http import app as app_module
from tests.server.serving import ServerProcess
from tests.web.browser import Phones, launch, missing_strings, open_app
from tests.web.moved_clock import Moved


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The table server on SQLite; every browser shares 127.0.0.1, hence the join limit."""
    process = ServerProcess(
        tmp_path_factory.mktemp("web-server"), options=("--joins-per-minute", "10000")
    )
    process.start()
    yield process
    process.stop()
    process.assert_no_crash()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server the test may stop, kill and start again (the shared one stays up)."""
    process = ServerProcess(tmp_path / "data", options=("--joins-per-minute", "10000"))
    process.start()
    yield process
    if process.running:
        process.stop()
    process.assert_no_crash()


@pytest.fixture
def moved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Moved]:
    """A server on a clock the test moves on (``tests.web.moved_clock``)."""
    server = Moved(tmp_path)
    monkeypatch.setattr(app_module, "now_ms", server.clock)  # /api/time: the same clock
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser: Browser, server: ServerProcess) -> Iterator[Page]:
    """A Dutch phone with the app open; the test fails if a string was missing."""
    page = open_app(browser, server.url, "nl")
    yield page
    assert missing_strings(page) == []
    page.context.close()


@pytest.fixture
def phones(browser: Browser, server: ServerProcess) -> Iterator[Phones]:
    """Dutch phones, each in a browser context of its own (its own storage and device key);
    the test fails if a string was missing on any of them."""
    opened: list[Page] = []

    def new() -> Page:
        page = open_app(browser, server.url, "nl")
        opened.append(page)
        return page

    yield new
    for page in opened:
        assert missing_strings(page) == []
        page.context.close()
