"""Several ``tilestream serve`` processes on one Redis serve one table.

Real processes on two ports, real websocket clients on each: what one process records, the
phones of the other see, in the same order and byte for byte the same.
"""

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.store_redis import RedisStore
from tests.server.redis_server import RedisServer
from tests.server.serving import (
    Phone,
    ServerProcess,
    Table,
    check_log,
    phones,
    play,
    points,
    read_log,
)


@pytest.fixture
def pair(tmp_path: Path, redis_server: RedisServer) -> Iterator[tuple[ServerProcess, ...]]:
    """Two servers on the test-owned Redis, each with its own port and data folder."""
    servers = tuple(ServerProcess(tmp_path / name, redis=redis_server.url) for name in "ab")
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()
    for server in servers:
        server.assert_no_crash()


def on(server: ServerProcess, table: Table, token: str) -> Phone:
    """A phone of ``table`` connected to ``server`` (any server will do: no sticky sessions)."""
    return table.on(server).phone(token)


EACH = 100


async def test_phones_on_two_processes_see_the_same_states_in_the_same_order(
    pair: tuple[ServerProcess, ...], redis_server: RedisServer
) -> None:
    a, b = pair
    table = Table.create(a)
    seat = table.on(b).join("player", 1)  # joined through b
    async with phones(
        on(a, table, table.host), on(b, table, seat), on(a, table, table.host), on(b, table, seat)
    ) as members:
        writer_a, writer_b = members[:2]  # the other two only follow
        for phone in members:
            assert (await phone.open()).seq == 1
        work = [{f"{side}{n}": points(n % 50, player=k) for n in range(EACH)}
                for k, side in enumerate("ab")]  # fmt: skip
        started = time.perf_counter()
        await asyncio.gather(play(writer_a, work[0]), play(writer_b, work[1]))
        answers = {**writer_a.answers, **writer_b.answers}
        accepted = {name: m.seq for name, m in answers.items() if m.type == "accepted"}
        busy = [name for name, m in answers.items() if m.type != "accepted"]
        assert all(answers[name].code == "busy" for name in busy)  # conflicts lost 8 times
        final = 1 + len(accepted)
        assert sorted(accepted.values()) == list(range(2, final + 1))
        await asyncio.gather(*(play(phone, {}, until=final) for phone in members))
        took = time.perf_counter() - started
        print(f"\ntwo processes, 2×{EACH}: {took:.2f} s, {len(busy)} busy")

        # Every phone saw increasing seqs (Phone checks); where two saw a seq, the same bytes.
        seen: dict[int, bytes] = {}
        for phone in members:
            for seq, view in phone.states:
                assert seen.setdefault(seq, view) == view, f"seq {seq} differs between phones"
                assert json.loads(view)["seq"] == seq
        assert len({phone.view for phone in members}) == 1
        assert members[0].view == table.view() == table.on(b).view()
    log = await read_log(RedisStore(redis_server.url), table.id)
    counts = check_log(log, {"start": 1, **accepted})
    assert set(counts) == {"start", *accepted}  # a busy refusal recorded nothing


async def test_what_one_process_records_the_other_shows_live(
    pair: tuple[ServerProcess, ...],
) -> None:
    a, b = pair
    table = Table.create(a)
    via_b = table.on(b)
    async with phones(on(b, table, table.join("viewer"))) as (room,):
        assert (await room.open()).seq == 1
        assert table.command("x", points(7)).json()["seq"] == 2  # HTTP to a
        await room.until_seq(2)  # the room display on b
        again = via_b.command("x", points(7))  # the phone retries, through b this time
        assert again.json() == {"type": "accepted", "id": "x", "seq": 2}
        assert via_b.command("y", points(8)).json()["seq"] == 3
        await room.until_seq(3)
        assert room.view == table.view() == via_b.view()
        assert json.loads(room.view)["sheet"]["totals"] == [7, 8, 0, 0]


async def test_a_phone_moves_to_the_other_process_when_one_dies(
    pair: tuple[ServerProcess, ...],
) -> None:
    a, b = pair
    table = Table.create(a)
    phone = on(a, table, table.host)
    async with phones(phone):
        await phone.open()
        for n in range(5):
            await phone.command(f"p{n}", points(n))
        await phone.answer("p4")
        await phone.until_seq(6)
        a.kill()
        await phone.close()
        phone.ws_url = b.ws_url  # what a load balancer does with the next connection
        assert (await phone.open()).seq == 6
        for n in range(3, 8):  # p3, p4 again (a retry), then new ones
            await phone.command(f"p{n}", points(n))
        assert [(await phone.answer(f"p{n}")).seq for n in range(3, 8)] == [5, 6, 7, 8, 9]
        await phone.until_seq(9)
