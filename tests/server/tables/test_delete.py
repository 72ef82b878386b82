"""Tables come and go (P-11): the host deletes a table, and tables idle past the retention
time are swept away — on SQLite and on two processes sharing one Redis.

Real server processes and websocket phones: every phone of the table, on every process, is
told ``table_deleted`` and let go; its tokens open nothing after (``bad_token``), on any
process; its code joins nothing. Retention runs in process on both stores with a clock
argument, and in real processes on tables written with old timestamps before they start.
"""

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from events import commands as c
from events.events import CentreJoined, GameSealed, GameStarted, Mode, SimultaneousCreated
from server.jobs.retention import DAY_MS, Retention
from server.stores.protocols import Store
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from server.tables.commands import Tables
from tests.server.redis_server import RedisServer
from tests.server.serving import (
    Phone,
    ServerProcess,
    Table,
    phones,
    points,
    request,
    turn,
)

NOW = 1_800_000_000_000  # the in-process tests' clock: ms since the epoch


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("delete-server"))
    process.start()
    yield process
    process.stop()
    process.assert_no_crash()


def delete(table: Table, token: str | None = None, via: ServerProcess | None = None) -> int:
    """DELETE the table with ``token`` (the host's unless given); the HTTP status."""
    url = (via or table.server).url
    return request(url, "DELETE", f"/api/tables/{table.id}", token=token or table.host).status


async def told_deleted(phone: Phone) -> None:
    """The phone is told ``table_deleted`` (after any views in flight), then closed 1008."""
    message = await phone.receive()
    while message.type in ("state", "change"):
        message = await phone.receive()
    assert (message.type, message.code) == ("rejected", "table_deleted"), message
    with pytest.raises(ConnectionClosed) as closed:
        await phone.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def assert_gone(table: Table, tokens: list[str], via: ServerProcess) -> None:
    """Nothing of the table answers through ``via``: its tokens, its code."""
    api = via.api()
    for token in tokens:
        view = api.view(table.id, token)
        assert (view.status, view.json()["code"]) == (401, "bad_token")
        reply = api.command(table.id, token, "after", points(5, turn(0)))
        assert (reply.status, reply.json()["code"]) == (401, "bad_token")
        games = api.post("/api/games", {"tokens": [{"table": table.id, "token": token}]})
        assert games.json() == {"games": []}
    seats = api.post("/api/seats", {"code": table.code})
    assert (seats.status, seats.json()["code"]) == (404, "unknown_code")
    joining = api.post("/api/join", {"code": table.code, "role": "viewer", "seat": None,
                                     "device": "k" * 24})  # fmt: skip
    assert (joining.status, joining.json()["code"]) == (404, "unknown_code")


async def assert_no_hello(table: Table, token: str, via: ServerProcess) -> None:
    async with phones(Phone(via.ws_url, table.id, token)) as (phone,):
        answer = await phone.open()
        assert (answer.type, answer.code) == ("rejected", "bad_token")


# --- the host deletes a table ----------------------------------------------------------------


async def test_the_host_deletes_a_table_and_every_phone_is_told(server: ServerProcess) -> None:
    table = Table.create(server)
    seat, viewer = table.join("player", 1), table.join("viewer")
    async with phones(table.phone(), table.phone(seat), table.phone(viewer)) as members:
        for phone in members:
            assert (await phone.open()).type == "state"
        assert delete(table, seat) == 403  # only the host
        assert delete(table, viewer) == 403
        assert table.command("x", points(7, turn(0))).json()["seq"] == 4  # still there
        assert delete(table) == 204
        await asyncio.gather(*(told_deleted(phone) for phone in members))
    assert delete(table) == 401  # a second time: the host's token opens nothing now
    assert_gone(table, [table.host, seat, viewer], server)
    await assert_no_hello(table, table.host, server)
    other = Table.create(server)  # the server goes on as before
    assert other.command("y", points(3, turn(0))).json()["seq"] == 2
    server.assert_no_crash()


def test_only_the_host_may_delete_and_a_refusal_says_why(server: ServerProcess) -> None:
    table = Table.create(server)
    seat = table.join("player", 0)
    reply = request(server.url, "DELETE", f"/api/tables/{table.id}", token=seat)
    assert (reply.status, reply.json()["code"]) == (403, "host_only")
    reply = request(server.url, "DELETE", f"/api/tables/{table.id}", token="nonsense")
    assert (reply.status, reply.json()["code"]) == (401, "bad_token")
    other = Table.create(server)  # another table's host is no host here
    reply = request(server.url, "DELETE", f"/api/tables/{table.id}", token=other.host)
    assert (reply.status, reply.json()["code"]) == (401, "bad_token")
    assert table.api.view(table.id, seat).status == 200


async def test_a_deletion_reaches_the_phones_of_both_processes(
    pair: tuple[ServerProcess, ...],
) -> None:
    a, b = pair
    table = Table.create(a)
    seat = table.on(b).join("player", 1)
    held = Table.create(a)  # opened by b over HTTP only: in b's memory, no phone there
    assert held.on(b).view()
    async with phones(
        Phone(a.ws_url, table.id, table.host),
        Phone(b.ws_url, table.id, seat),
        Phone(b.ws_url, table.id, table.host),
    ) as members:
        for phone in members:
            assert (await phone.open()).type == "state"
        assert delete(table, via=b) == 204  # deleted through the other process
        await asyncio.gather(*(told_deleted(phone) for phone in members))
    assert delete(held) == 204
    for process in (a, b):
        assert_gone(table, [table.host, seat], process)
        assert_gone(held, [held.host], process)
        await assert_no_hello(table, seat, process)
    for process in (a, b):
        fresh = Table.create(process)  # both go on serving
        assert fresh.on(a if process is b else b).command("z", points(2, turn(0))).status == 200


async def test_a_phone_coming_back_to_a_deleted_table_is_told_at_once(
    pair: tuple[ServerProcess, ...],
) -> None:
    """The phone was offline while its table was deleted: its hello, on either process,
    opens nothing."""
    a, b = pair
    table = Table.create(a)
    seat = table.join("player", 0)
    async with phones(Phone(b.ws_url, table.id, seat)) as (phone,):
        await phone.open()
        await phone.close()
        assert delete(table) == 204
        for process in (b, a):
            phone.ws_url = process.ws_url
            answer = await phone.open()
            assert (answer.type, answer.code) == ("rejected", "bad_token")
            await phone.close()


# --- retention ---------------------------------------------------------------------------------


async def made_at(store: Store, at: int, *, started: bool = True) -> tuple[str, str]:
    """A table made (and its game started) at ``at`` ms: its id and the host's token."""
    tables = Tables(store, clock=lambda: at)
    table, token = await tables.create()
    if started:
        device = await tables.device(table.id, token)
        await tables.command(table.id, device, c.StartGame("nl"), f"start-{table.id}")
    return table.id, token


async def test_retention_deletes_the_idle_tables_and_keeps_the_others(store: Store) -> None:
    clock = [NOW]
    tables = Tables(store, clock=lambda: clock[0])
    idle, _ = await made_at(store, NOW - 31 * DAY_MS)
    never_used, _ = await made_at(store, NOW - 40 * DAY_MS, started=False)
    recent, token = await made_at(store, NOW - 29 * DAY_MS)
    revived, revived_token = await made_at(store, NOW - 90 * DAY_MS)
    clock[0] = NOW - DAY_MS  # a line yesterday
    device = await tables.device(revived, revived_token)
    await tables.command(revived, device, c.EnterPoints(12, turn=c.Turn(1, 0, 0)), "late")
    clock[0] = NOW
    await tables.live(idle)  # held in this process's memory
    told: list[str] = []
    retention = Retention(tables, told.append, 30, clock=lambda: clock[0])
    assert sorted(await retention.sweep()) == sorted([idle, never_used])
    assert sorted(told) == sorted([idle, never_used])
    assert idle not in tables._live
    for gone in (idle, never_used):
        assert await store.table(gone) is None
    assert await retention.sweep() == []  # nothing idle is left
    for kept in (recent, revived):
        assert await store.table(kept) is not None
    await tables.device(recent, token)  # its tokens still open it
    clock[0] = NOW + 2 * DAY_MS  # two days on, the recent one is idle too
    assert await retention.sweep() == [recent]


async def test_retention_deletes_a_bounded_batch_per_sweep(store: Store) -> None:
    for n in range(5):
        await made_at(store, NOW - (40 + n) * DAY_MS, started=False)
    retention = Retention(Tables(store), lambda _: None, 30, batch=2, clock=lambda: NOW)
    assert [len(await retention.sweep()) for _ in range(4)] == [2, 2, 1, 0]


async def simultaneous_at(store: Store, at: int, closes: int | None = None) -> str:
    """A simultaneous made at ``at`` ms whose one game's window closes at ``closes`` (a day
    later by default; no round: its log, not its seal)."""
    tables = Tables(store, clock=lambda: at)
    table, _ = await tables.create()
    window = GameSealed(0, at, at + DAY_MS if closes is None else closes, ())
    events = (SimultaneousCreated("S", "nl", "duplicate"), window)
    await store.append(table.id, 0, events, at=at)
    return table.id


async def centre_at(store: Store, at: int, simultaneous: str) -> str:
    """A duplicate room made at ``at`` ms that became a centre of ``simultaneous``."""
    table_id, _ = await made_at(store, at, started=False)
    events = (
        GameStarted("nl", Mode.DUPLICATE, "duplicate", ()),
        CentreJoined(simultaneous, 0, "Club A", "nl", "duplicate"),
    )
    await store.append(table_id, 0, events, at=at)
    return table_id


async def test_an_idle_centre_stays_while_its_simultaneous_does(store: Store) -> None:
    simultaneous = await simultaneous_at(store, NOW - 31 * DAY_MS)
    centre = await centre_at(store, NOW - 40 * DAY_MS, simultaneous)
    retention = Retention(Tables(store), lambda _: None, 30, clock=lambda: NOW)
    assert await retention.sweep() == [simultaneous]  # its centre holds its results till then
    assert await store.table(centre) is not None
    assert await retention.sweep() == [centre]


async def test_a_simultaneous_is_idle_from_its_last_window_on(store: Store) -> None:
    running = await simultaneous_at(store, NOW - 40 * DAY_MS, closes=NOW + 10 * DAY_MS)
    centre = await centre_at(store, NOW - 35 * DAY_MS, running)
    retention = Retention(Tables(store), lambda _: None, 30, clock=lambda: NOW)
    assert await retention.sweep() == []  # a six-week window: its centres play on
    later = Retention(Tables(store), lambda _: None, 30, clock=lambda: NOW + 41 * DAY_MS)
    assert sorted(await later.sweep()) == sorted([running, centre])  # it first, then its centre


async def test_centres_kept_never_hold_up_other_tables(store: Store) -> None:
    simultaneous = await simultaneous_at(store, NOW - DAY_MS)
    centre = await centre_at(store, NOW - 50 * DAY_MS, simultaneous)
    other, _ = await made_at(store, NOW - 40 * DAY_MS)
    retention = Retention(Tables(store), lambda _: None, 30, batch=1, clock=lambda: NOW)
    swept = [await retention.sweep() for _ in range(3)]
    assert [other] in swept
    assert await store.table(centre) is not None


async def test_retention_of_zero_days_keeps_every_table(store: Store) -> None:
    table_id, _ = await made_at(store, 1_000)
    retention = Retention(Tables(store), lambda _: None, 0, clock=lambda: NOW)
    retention.start()  # no task at all
    assert retention._task is None
    assert await retention.sweep() == []
    assert await store.table(table_id) is not None


async def seeded(store: Store, at: int) -> tuple[str, str]:
    """A table made in ``store`` at ``at`` ms by a process that has gone: id, host token."""
    await store.start()
    try:
        return await made_at(store, at)
    finally:
        await store.close()


def until_gone(process: ServerProcess, table_id: str, token: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while process.api().view(table_id, token).status != 401:
        assert time.monotonic() < deadline, "the idle table was not swept"
        time.sleep(0.05)


def test_a_server_sweeps_idle_tables_at_start(tmp_path: Path) -> None:
    now = time.time_ns() // 1_000_000
    data = tmp_path / "data"
    old = asyncio.run(seeded(SqliteStore(data / "tilestream.db"), now - 31 * DAY_MS))
    fresh = asyncio.run(seeded(SqliteStore(data / "tilestream.db"), now - 29 * DAY_MS))
    kept = asyncio.run(seeded(SqliteStore(data / "tilestream.db"), now - 300 * DAY_MS))
    with ServerProcess(data, options=("--retention-days", "100")) as process:
        until_gone(process, *kept)
        assert process.api().view(*old).status == 200  # 31 days: within 100
    with ServerProcess(data) as process:  # the default: 30 days
        until_gone(process, *old)
        assert process.api().view(*fresh).status == 200
        process.assert_no_crash()
    with ServerProcess(data, options=("--retention-days", "0")) as process:
        deadline = time.monotonic() + 10  # said at start: no sweep runs in this process
        while "retention off: idle tables are kept for ever" not in process.output():
            assert time.monotonic() < deadline, process.output()[-3000:]
            time.sleep(0.05)
        assert process.api().view(*fresh).status == 200
        process.assert_no_crash()


def test_servers_on_one_redis_sweep_idle_tables(tmp_path: Path, redis_server: RedisServer) -> None:
    now = time.time_ns() // 1_000_000
    old = asyncio.run(seeded(RedisStore(redis_server.url), now - 31 * DAY_MS))
    fresh = asyncio.run(seeded(RedisStore(redis_server.url), now - DAY_MS))
    servers = [ServerProcess(tmp_path / n, redis=redis_server.url) for n in "ab"]
    try:
        for process in servers:
            process.start()  # both sweep at start: the table is deleted once
        for process in servers:
            until_gone(process, *old)
            assert process.api().view(*fresh).status == 200
    finally:
        for process in servers:
            process.stop()
    for process in servers:
        process.assert_no_crash()
