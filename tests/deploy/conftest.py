"""Fixtures for the deployment tests: a redis-server and Chromium of their own."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.server.redis_server import RedisServer
from tests.web.browser import launch


@pytest.fixture
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A redis-server for the test's replicas."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for one module: Playwright's sync API keeps an event loop running in this
    thread while it is open, and the asyncio tests collected after these could not run."""
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()
