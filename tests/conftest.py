"""Marks each test by what it needs beyond Python, so a quick loop can leave it out:
``browser`` (Chromium, through the ``browser`` fixture) and ``redis`` (a redis-server,
through the Redis fixtures, a store parameter of their own, or a mark on the test)."""

import pytest

BROWSER = frozenset({"browser"})
REDIS = frozenset({"redis_server", "redis_cluster"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test whose fixtures (and theirs) start Chromium or a redis-server."""
    for item in items:
        needs = frozenset(getattr(item, "fixturenames", ()))
        if needs & BROWSER:
            item.add_marker(pytest.mark.browser)
        if needs & REDIS:
            item.add_marker(pytest.mark.redis)
