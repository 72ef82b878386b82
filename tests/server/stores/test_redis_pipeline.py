"""A script's calls pipelined on a real Redis (and a real Redis Cluster): those made together
share a round trip, and each still gets its own reply or error."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from server.stores.redis_pipeline import Call, ScriptPipeline
from tests.server.redis_server import RedisClusterServers, RedisServer

# KEYS: a counter. ARGV: a label; 'bad' is refused. Answers the label and the count.
SCRIPT = """
if ARGV[1] == 'bad' then return redis.error_reply('ERR bad label') end
return {ARGV[1], redis.call('INCR', KEYS[1])}
"""


class Counted(ScriptPipeline):
    """Counts the pipelines it sends: one round trip each."""

    sent = 0

    async def _pipeline(self, calls: list[Call]) -> list[Any]:
        self.sent += 1
        return await super()._pipeline(calls)


@pytest.fixture
async def client(redis_server: RedisServer) -> AsyncIterator[redis.Redis]:
    """A client of the test's Redis, emptied, that knows the script."""
    client = redis.Redis.from_url(redis_server.empty())
    await client.script_load(SCRIPT)
    yield client
    await client.aclose()


async def test_calls_made_together_share_one_round_trip_and_get_their_own_replies(
    client: redis.Redis,
) -> None:
    calls = Counted(client, client.register_script(SCRIPT))
    replies = await asyncio.gather(*(calls([f"count:{n % 3}"], [f"c{n}"]) for n in range(30)))
    assert calls.sent == 1
    assert [label for label, _ in replies] == [f"c{n}".encode() for n in range(30)]
    assert sorted(count for _, count in replies) == sorted([*range(1, 11)] * 3)


async def test_a_quiet_call_goes_out_alone_at_once(client: redis.Redis) -> None:
    calls = Counted(client, client.register_script(SCRIPT))
    assert await calls(["count"], ["a"]) == [b"a", 1]
    assert await calls(["count"], ["b"]) == [b"b", 2]
    assert calls.sent == 2


async def test_calls_made_while_a_round_trip_is_out_go_in_the_next(client: redis.Redis) -> None:
    calls = Counted(client, client.register_script(SCRIPT))
    first = asyncio.create_task(calls(["count"], ["first"]))
    await asyncio.sleep(0)  # the first is on its way
    later = [asyncio.create_task(calls(["count"], [f"l{n}"])) for n in range(5)]
    assert (await first)[1] == 1
    assert [count for _, count in await asyncio.gather(*later)] == [2, 3, 4, 5, 6]
    assert calls.sent == 2


async def test_a_refused_call_raises_its_own_error_and_the_others_stand(
    client: redis.Redis,
) -> None:
    calls = ScriptPipeline(client, client.register_script(SCRIPT))
    replies = await asyncio.gather(
        calls(["count"], ["a"]), calls(["count"], ["bad"]), calls(["count"], ["b"]),
        return_exceptions=True,
    )  # fmt: skip
    assert replies[0] == [b"a", 1]
    assert isinstance(replies[1], ResponseError) and "bad label" in str(replies[1])
    assert replies[2] == [b"b", 2]


async def test_a_script_redis_forgot_is_loaded_again(client: redis.Redis) -> None:
    calls = ScriptPipeline(client, client.register_script(SCRIPT))
    assert await calls(["count"], ["a"]) == [b"a", 1]
    await client.script_flush()  # as after a restart without the scripts
    replies = await asyncio.gather(calls(["count"], ["b"]), calls(["count"], ["c"]))
    assert replies == [[b"b", 2], [b"c", 3]]


@pytest.mark.redis  # a redis-server of its own
async def test_a_broken_connection_fails_every_call_of_it_and_the_next_call_reconnects(
    tmp_path: Path,
) -> None:
    server = RedisServer(tmp_path)
    server.start()
    client = redis.Redis.from_url(server.url)
    try:
        calls = ScriptPipeline(client, client.register_script(SCRIPT))
        assert await calls(["count"], ["a"]) == [b"a", 1]
        server.stop(kill=True)
        failed = await asyncio.gather(
            calls(["count"], ["b"]), calls(["count"], ["c"]), return_exceptions=True
        )
        assert all(isinstance(error, RedisConnectionError) for error in failed)
        server.start()
        assert await calls(["count"], ["d"]) == [b"d", 2]  # fsynced: the count survived
    finally:
        await client.aclose()
        server.stop()


async def test_calls_on_a_cluster_go_to_the_shard_of_their_keys(
    redis_cluster: RedisClusterServers,
) -> None:
    url = redis_cluster.empty().replace("redis+cluster://", "redis://")
    client = RedisCluster.from_url(url)
    try:
        calls = ScriptPipeline(client, client.register_script(SCRIPT))
        keys = [f"count:{{{n}}}" for n in range(12)]  # slots on every node
        assert len({redis_cluster.holder(key) for key in keys}) == 3
        replies = await asyncio.gather(*(calls([key], [key]) for key in keys * 2))
        assert replies == [[key.encode(), 1] for key in keys] + [[key.encode(), 2] for key in keys]
    finally:
        await client.aclose()
