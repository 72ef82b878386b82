"""A Redis Cluster of three nodes under the store: each table's keys in one slot, tables on
every shard, and two processes — two stores, then two ``tilestream serve`` — sharing the
tables through it. (The contract suite of every store protocol runs on the cluster too:
``test_event_log.py``, ``test_registry.py``, ``test_limits.py``.)"""

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis

from events.events import PointsEntered
from server.stores.protocols import Conflict, Device, TableGone, TableInfo
from server.stores.redis_streams import RedisStore
from tests.server.redis_server import RedisClusterServers
from tests.server.serving import DUPLICATE, ServerProcess, Table, line, opened, phones, play

TABLES = 12  # all on one of three shards by chance: 3 · (1/3)¹² ≈ 6 in a million


@pytest.fixture
async def two(redis_cluster: RedisClusterServers) -> AsyncIterator[tuple[RedisStore, RedisStore]]:
    """Two processes' stores on the cluster, emptied first."""
    a, b = RedisStore(redis_cluster.empty()), RedisStore(redis_cluster.url)
    async with opened(a, b):
        yield a, b


def points(*values: int) -> tuple[PointsEntered, ...]:
    return tuple(PointsEntered(player=0, points=value) for value in values)


async def a_table(store: RedisStore) -> str:
    """A table with something in every key a store keeps of it: its id."""
    table = TableInfo(secrets.token_urlsafe(16), secrets.token_hex(3).upper(), 1_000)
    await store.create_table(table)
    await store.add_device(f"{table.id}-host", Device(table.id, "host", id="host"))
    await store.append(table.id, 0, points(1, 2), device="host", at=5_000, command="c1")
    await store.touch(table.id, "host", 5_000)
    return table.id


def keys_by_node(cluster: RedisClusterServers, table_id: str) -> dict[int, set[bytes]]:
    """The keys naming ``table_id`` that each node holds, by port."""
    found = {}
    for node in cluster.nodes:
        client = redis.Redis(port=node.port)
        try:
            found[node.port] = set(client.scan_iter(match=f"*{{{table_id}}}*"))
        finally:
            client.close()
    return {port: keys for port, keys in found.items() if keys}


async def test_tables_spread_over_the_shards_with_each_tables_keys_in_one_slot(
    redis_cluster: RedisClusterServers, two: tuple[RedisStore, RedisStore]
) -> None:
    store, _ = two
    ids = [await a_table(store) for _ in range(TABLES)]
    holders = {table_id: redis_cluster.holder(f"table:{{{table_id}}}") for table_id in ids}
    assert len(set(holders.values())) > 1, holders
    client = redis.Redis(port=redis_cluster.nodes[0].port)
    try:
        for table_id in ids:
            ((port, keys),) = keys_by_node(redis_cluster, table_id).items()
            assert port == holders[table_id]
            assert {key.decode().rpartition("}")[2] for key in keys} == {
                "", ":info", ":commands", ":devices", ":seen"
            }  # fmt: skip
            assert len({client.cluster("KEYSLOT", key) for key in keys}) == 1
    finally:
        client.close()


async def test_two_processes_share_a_table_through_the_cluster(
    two: tuple[RedisStore, RedisStore],
) -> None:
    a, b = two
    table_id = await a_table(a)
    info = await a.table(table_id)
    assert info is not None and await b.table_by_code(info.code) == info
    await b.add_device("seat", Device(table_id, "player", seat=1, id="d1"))
    assert await a.device("seat") == Device(table_id, "player", seat=1, id="d1")

    with pytest.raises(Conflict) as refused:  # b decided on seq 0: it gets what it missed
        await b.append(table_id, 0, points(9), command="late")
    assert [r.seq for r in refused.value.records] == [1, 2]
    assert [r.seq for r in await b.append(table_id, 2, points(3), command="late")] == [3]

    told: list[str] = []
    b.on_deleted(told.append)
    heard = {store: store.subscribe(table_id, 3) for store in (a, b)}
    waiting = {store: asyncio.ensure_future(anext(sub)) for store, sub in heard.items()}
    try:
        await asyncio.sleep(0.1)  # both followed
        await a.append(table_id, 3, points(4))
        await b.append(table_id, 4, points(5, 6))
        for store, subscription in heard.items():
            got = [r.seq for r in await asyncio.wait_for(waiting[store], 5)]
            while got[-1] < 6:
                got += [r.seq for r in await asyncio.wait_for(anext(subscription), 5)]
            assert got == [4, 5, 6]
            waiting[store] = asyncio.ensure_future(anext(subscription))
        assert await a.delete_table(table_id)
        for store in (a, b):
            with pytest.raises(TableGone):
                await asyncio.wait_for(waiting[store], 5)
    finally:
        for store, subscription in heard.items():
            waiting[store].cancel()
            with contextlib.suppress(BaseException):
                await waiting[store]
            await subscription.aclose()
    async with asyncio.timeout(5):
        while not told:
            await asyncio.sleep(0.01)
    assert told == [table_id]
    assert await b.device("seat") is None
    assert await b.table_by_code(info.code) is None
    with pytest.raises(TableGone):
        await b.append(table_id, 6, points(7))


async def test_servers_on_the_cluster_serve_tables_on_every_shard(
    tmp_path: Path, redis_cluster: RedisClusterServers
) -> None:
    """Two ``tilestream serve`` processes given the cluster's URL: what one records, the
    phones of the other see."""
    redis_cluster.empty()
    servers = [ServerProcess(tmp_path / name, redis=redis_cluster.url) for name in "ab"]
    try:
        for server in servers:
            server.start()
        a, b = servers
        tables = [Table.create(a, start=DUPLICATE) for _ in range(4)]
        seats = [table.on(b).join("player", 1) for table in tables]
        members = []
        for table, seat in zip(tables, seats, strict=True):
            members += [table.on(a).phone(table.host), table.on(b).phone(seat)]
        async with phones(*members) as connected:
            for phone in connected:
                assert (await phone.open()).seq == 2
            work = [
                play(phone, {f"{k}-{n}": line(n, player=k % 2) for n in range(5)}, until=12)
                for k, phone in enumerate(connected)
            ]
            await asyncio.gather(*work)
            pairs = zip(tables, seats, connected[::2], connected[1::2], strict=True)
            for table, seat, host_phone, seat_phone in pairs:
                assert host_phone.seq == seat_phone.seq == 12
                assert json.loads(host_phone.view) == json.loads(table.on(b).view())
                assert json.loads(seat_phone.view) == json.loads(table.view(seat))
    finally:
        for server in servers:
            server.stop()
    for server in servers:
        server.assert_no_crash()
