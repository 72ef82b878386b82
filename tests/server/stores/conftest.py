"""The ``store`` fixture: each backend in turn (SQLite, one Redis, a Redis Cluster of three
nodes), as pyeventsourcing's recorder test case and broadcaster's per-backend tests do."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.stores.protocols import Store
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from tests.server.serving import opened


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("redis", marks=pytest.mark.redis),
        pytest.param("cluster", marks=pytest.mark.redis),
    ]
)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """Each backend in turn, empty: the contract tests run once per store."""
    if request.param == "sqlite":
        backend: Store = SqliteStore(tmp_path / "tilestream.db")
    elif request.param == "redis":
        backend = RedisStore(request.getfixturevalue("redis_server").empty())
    else:
        backend = RedisStore(request.getfixturevalue("redis_cluster").empty())
    async with opened(backend):
        yield backend
