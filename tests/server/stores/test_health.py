"""What ``/health`` asks every backend: whether it takes a write now."""

from pathlib import Path

import pytest
import redis

from server.stores.protocols import Store, StoreUnavailable
from server.stores.redis_streams import RedisStore
from tests.server.redis_server import RedisServer


async def test_a_working_store_is_writable(store: Store) -> None:
    assert await store.writable()


@pytest.mark.redis  # a redis-server of its own
async def test_a_full_or_stopped_redis_is_not_writable(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis")
    server.start()
    store = RedisStore(server.url)
    client = redis.Redis.from_url(server.url)
    try:
        await store.start()
        client.config_set("maxmemory-policy", "noeviction")
        client.config_set("maxmemory", 1)  # every write refused: OOM
        assert not await store.writable()
        with pytest.raises(StoreUnavailable):
            await store.hit("k", 60_000)
        client.config_set("maxmemory", 0)
        assert await store.writable()
        server.stop()
        assert not await store.writable()
        with pytest.raises(StoreUnavailable):
            await store.hit("k", 60_000)
    finally:
        client.close()
        await store.close()
        server.stop()
