"""A script's calls on wires of their own to a real Redis (and a real Redis Cluster): each
written as it is made, and each call gets its own reply or error, in the order Redis answered
them; a Redis that stops answering fails the calls out within the silence a wire allows."""

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.stores import redis_wire
from server.stores.redis_wire import Connect, ScriptCalls, Wire
from tests.server.redis_server import RedisClusterServers, RedisServer

# KEYS: a counter. ARGV: a label; 'bad' is refused. Answers the label and the count.
SCRIPT = """
if ARGV[1] == 'bad' then return redis.error_reply('ERR bad label') end
return {ARGV[1], redis.call('INCR', KEYS[1])}
"""


def node_of(client: redis.Redis) -> Callable[[str], tuple[str, Connect]]:
    """Every key on the one Redis of ``client``."""
    return lambda key: ("", connect(client))


@pytest.fixture
async def client(redis_server: RedisServer) -> AsyncIterator[redis.Redis]:
    """A client of the test's Redis, emptied, that knows the script."""
    client = redis.Redis.from_url(redis_server.empty())
    await client.script_load(SCRIPT)
    yield client
    await client.aclose()


def connect(client: redis.Redis) -> Connect:
    pool = client.connection_pool
    return lambda: pool.connection_class(**pool.connection_kwargs)


async def test_calls_made_together_get_their_own_replies(client: redis.Redis) -> None:
    wire = Wire(connect(client))
    sha = client.register_script(SCRIPT).sha
    await wire.call("PING")  # connected: calls made meanwhile would each wait for that
    replies = await asyncio.gather(
        *(wire.call("EVALSHA", sha, 1, f"count:{n % 3}", f"c{n}") for n in range(30))
    )
    assert [label for label, _ in replies] == [f"c{n}".encode() for n in range(30)]
    assert [count for _, count in replies] == [n // 3 + 1 for n in range(30)]  # Redis's order
    await wire.close()


async def test_a_call_is_written_as_it_is_made(client: redis.Redis) -> None:
    wire = Wire(connect(client))
    await wire.call("PING")  # connected
    transport = wire._transport
    assert transport is not None
    written: list[bytes] = []
    write = transport.write

    def recorded(data: bytes | bytearray | memoryview) -> None:
        written.append(bytes(data))
        write(data)

    transport.write = recorded  # type: ignore[method-assign]
    call = asyncio.create_task(wire.call("INCR", "count"))
    await asyncio.sleep(0)  # the call made, and no other turn of the event loop since
    assert written == [redis_wire.command("INCR", "count")]
    assert await call == 1
    await wire.close()


async def test_a_refused_call_raises_its_own_error_and_the_others_stand(
    client: redis.Redis,
) -> None:
    calls = ScriptCalls(client, SCRIPT, node_of(client))
    replies = await asyncio.gather(
        calls(["count"], ["a"]), calls(["count"], ["bad"]), calls(["count"], ["b"]),
        return_exceptions=True,
    )  # fmt: skip
    assert replies[0] == [b"a", 1]
    assert isinstance(replies[1], ResponseError) and "bad label" in str(replies[1])
    assert replies[2] == [b"b", 2]
    await calls.close()


async def test_a_call_its_caller_gave_up_on_leaves_the_others_their_own_replies(
    client: redis.Redis,
) -> None:
    wire = Wire(connect(client))
    await wire.call("PING")
    first = asyncio.create_task(wire.call("INCR", "count"))
    second = asyncio.create_task(wire.call("INCR", "count"))
    await asyncio.sleep(0)  # both written
    first.cancel()
    assert await second == 2
    assert await wire.call("GET", "count") == b"2"  # the first ran all the same
    await wire.close()


async def test_a_script_redis_forgot_is_loaded_again(client: redis.Redis) -> None:
    calls = ScriptCalls(client, SCRIPT, node_of(client))
    assert await calls(["count"], ["a"]) == [b"a", 1]
    await client.script_flush()  # as after a restart without the scripts
    replies = await asyncio.gather(calls(["count"], ["b"]), calls(["count"], ["c"]))
    assert replies == [[b"b", 2], [b"c", 3]]
    assert await calls(["count"], ["d"]) == [b"d", 4]
    await calls.close()


async def test_a_wire_says_the_database_of_its_url(redis_server: RedisServer) -> None:
    client = redis.Redis.from_url(redis_server.empty().replace("/0", "/3"))
    try:
        wire = Wire(connect(client))
        assert await wire.call("SET", "here", "3") == b"OK"
        assert await client.get("here") == b"3"
        await wire.close()
    finally:
        await client.aclose()


@pytest.mark.redis  # a redis-server of its own
async def test_a_broken_connection_fails_every_call_of_it_and_the_next_call_reconnects(
    tmp_path: Path,
) -> None:
    server = RedisServer(tmp_path)
    server.start()
    client = redis.Redis.from_url(server.url)
    try:
        await client.script_load(SCRIPT)
        calls = ScriptCalls(client, SCRIPT, node_of(client))
        assert await calls(["count"], ["a"]) == [b"a", 1]
        server.stop(kill=True)
        failed = await asyncio.gather(
            calls(["count"], ["b"]), calls(["count"], ["c"]), return_exceptions=True
        )
        assert all(isinstance(error, RedisConnectionError) for error in failed)
        server.start()
        assert await calls(["count"], ["d"]) == [b"d", 2]  # fsynced: the count survived
        await calls.close()
    finally:
        await client.aclose()
        server.stop()


@pytest.mark.redis  # a redis-server of its own
async def test_a_redis_that_stops_answering_fails_the_calls_within_the_silence_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_wire, "SILENCE", 0.4)
    server = RedisServer(tmp_path)
    server.start()
    client = redis.Redis.from_url(server.url)
    paused = False
    try:
        wire = Wire(connect(client))
        assert await wire.call("INCR", "count") == 1
        server.pause()
        paused = True
        start = time.monotonic()
        failed = await asyncio.gather(
            wire.call("INCR", "count"), wire.call("INCR", "count"), return_exceptions=True
        )
        assert all(isinstance(error, RedisTimeoutError) for error in failed), failed
        assert time.monotonic() - start < 2 * redis_wire.SILENCE
        server.resume()
        paused = False
        assert int(await wire.call("INCR", "count")) >= 2  # connected anew; the others may have run
        await wire.close()
    finally:
        if paused:
            server.resume()
        await client.aclose()
        server.stop()


async def test_a_reply_no_redis_would_send_fails_the_calls_and_is_no_crash(
    client: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    wire = Wire(connect(client))
    assert await wire.call("INCR", "count") == 1
    transport = wire._transport
    assert transport is not None
    waiting = [asyncio.ensure_future(wire.call("INCR", "count")) for _ in range(2)]
    await asyncio.sleep(0)  # written
    transport.get_protocol().data_received(b"?what\r\n")  # as if it came before their replies
    failed = await asyncio.gather(*waiting, return_exceptions=True)
    assert all(isinstance(error, RedisConnectionError) for error in failed), failed
    assert not [record for record in caplog.records if record.levelname == "ERROR"]
    assert int(await wire.call("INCR", "count")) >= 2  # connected anew
    await wire.close()


@pytest.fixture
async def cluster(redis_cluster: RedisClusterServers) -> AsyncIterator[RedisCluster]:
    """A client of the test's Redis Cluster, emptied, that knows its slots."""
    client = RedisCluster.from_url(redis_cluster.empty().replace("redis+cluster://", "redis://"))
    await client.initialize()
    yield client
    await client.aclose()


def on(node: Any) -> tuple[str, Connect]:
    """A cluster node's name, and how to connect to it."""
    return node.name, lambda: node.connection_class(**node.connection_kwargs)


async def test_calls_on_a_cluster_go_to_the_shard_of_their_keys(
    cluster: RedisCluster, redis_cluster: RedisClusterServers
) -> None:
    calls = ScriptCalls(cluster, SCRIPT, lambda key: on(cluster.get_node_from_key(key)))
    keys = [f"count:{{{n}}}" for n in range(12)]  # slots on every node
    assert len({redis_cluster.holder(key) for key in keys}) == 3
    replies = await asyncio.gather(*(calls([key], [key]) for key in keys * 2))
    counts = {key.encode(): sorted(n for k, n in replies if k == key.encode()) for key in keys}
    assert counts == {key.encode(): [1, 2] for key in keys}
    assert len(calls._wires) == 3  # a wire to each node
    await calls.close()


async def test_a_call_sent_to_a_node_without_its_slot_is_made_where_the_slot_is(
    cluster: RedisCluster,
) -> None:
    first = on(cluster.get_primaries()[0])
    calls = ScriptCalls(cluster, SCRIPT, lambda key: first)  # wrong for two keys in three
    keys = [f"count:{{{n}}}" for n in range(12)]
    replies = await asyncio.gather(*(calls([key], [key]) for key in keys))
    assert replies == [[key.encode(), 1] for key in keys]  # MOVED: made again where it is
    await calls.close()
