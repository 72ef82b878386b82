"""Fixtures for the server tests: a test-owned redis-server, the stores on top of it, and two
table servers sharing it."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis

from server.stores.protocols import Store
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from tests.server.redis_server import RedisClusterServers, RedisServer
from tests.server.serving import ServerProcess, opened


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A redis-server for the whole run; tests that stop it start their own instead."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisClusterServers]:
    """A three-node Redis Cluster for the whole run, started on first use."""
    cluster = RedisClusterServers(tmp_path_factory.mktemp("cluster"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


def _flushed(server: RedisServer) -> str:
    """The server's URL, its database emptied."""
    client = redis.Redis.from_url(server.url)
    try:
        client.flushdb()
    finally:
        client.close()
    return server.url


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    """A started SqliteStore in a fresh file."""
    store = SqliteStore(tmp_path / "tilestream.db")
    async with opened(store):
        yield store


@pytest.fixture
async def redis_store(redis_server: RedisServer) -> AsyncIterator[RedisStore]:
    """A started RedisStore on the test-owned redis-server, emptied first."""
    store = RedisStore(_flushed(redis_server))
    async with opened(store):
        yield store


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """Each backend in turn: the contract tests run once per store."""
    if request.param == "sqlite":
        backend: Store = SqliteStore(tmp_path / "tilestream.db")
    else:
        backend = RedisStore(_flushed(request.getfixturevalue("redis_server")))
    async with opened(backend):
        yield backend


@pytest.fixture
def pair(tmp_path: Path, redis_server: RedisServer) -> Iterator[tuple[ServerProcess, ...]]:
    """Two table servers on the test-owned Redis, each with its own port and data folder:
    any table is served by both. The second reaches Redis through its Unix socket, as a
    server on Redis's own machine would: what one records the other shows either way."""
    urls = {"a": redis_server.url, "b": redis_server.socket_url}
    servers = tuple(ServerProcess(tmp_path / name, redis=url) for name, url in urls.items())
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()
    for server in servers:
        server.assert_no_crash()


@pytest.fixture(scope="module", params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def module_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One server for a test module on each store in turn; every test makes its own tables."""
    redis = request.getfixturevalue("redis_server").url if request.param == "redis" else None
    name = request.module.__name__.rpartition(".")[2]
    with ServerProcess(tmp_path_factory.mktemp(f"{name}-{request.param}"), redis=redis) as running:
        yield running
    running.assert_no_crash()
