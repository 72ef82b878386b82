"""Several ``tilestream serve`` processes on one Redis serve one table.

Real processes on two ports, real websocket clients on each: what one process records, the
phones of the other see, in the same order and byte for byte the same.
"""

import asyncio
import json
import time

import redis

from server.stores.redis_streams import RedisStore
from tests.server.redis_server import RedisServer
from tests.server.serving import (
    DUPLICATE,
    Phone,
    ServerProcess,
    Table,
    Turns,
    check_log,
    line,
    phones,
    play,
    points,
    read_log,
    same_table,
    turn,
)


def reads(client: redis.Redis) -> int:
    """How many times the Redis server has been asked to read a log (``XRANGE``)."""
    return int(client.info("commandstats").get("cmdstat_xrange", {}).get("calls", 0))


def on(server: ServerProcess, table: Table, token: str) -> Phone:
    """A phone of ``table`` connected to ``server`` (any server will do: no sticky sessions)."""
    return table.on(server).phone(token)


EACH = 100


async def test_phones_on_two_processes_see_the_same_states_in_the_same_order(
    pair: tuple[ServerProcess, ...], redis_server: RedisServer
) -> None:
    a, b = pair
    # Lines that no other phone's command makes stale: the processes' appends race (and
    # are decided again), the turns do not.
    table = Table.create(a, start=DUPLICATE)
    seat = table.on(b).join("player", 1)  # joined through b: seq 2
    async with phones(
        on(a, table, table.host), on(b, table, seat), on(a, table, table.host), on(b, table, seat)
    ) as members:
        writer_a, writer_b = members[:2]  # the other two only follow
        for phone in members:
            assert (await phone.open()).seq == 2
        work = [{f"{side}{n}": line(n, player=k) for n in range(EACH)}
                for k, side in enumerate("ab")]  # fmt: skip
        started = time.perf_counter()
        await asyncio.gather(play(writer_a, work[0]), play(writer_b, work[1]))
        answers = {**writer_a.answers, **writer_b.answers}
        accepted = {name: m.seq for name, m in answers.items() if m.type == "accepted"}
        busy = [name for name, m in answers.items() if m.type != "accepted"]
        assert all(answers[name].code == "busy" for name in busy)  # conflicts lost 64 times
        final = 2 + len(accepted)
        assert sorted(accepted.values()) == list(range(3, final + 1))
        await asyncio.gather(*(play(phone, {}, until=final) for phone in members))
        took = time.perf_counter() - started
        print(f"\ntwo processes, 2×{EACH}: {took:.2f} s, {len(busy)} busy")

        # Every phone saw increasing seqs (Phone checks); where two of an audience saw a seq,
        # the same bytes; the host's and the player's differ by the devices only.
        seen: dict[tuple[bool, int], bytes] = {}
        for k, phone in enumerate(members):
            for seq, view in phone.states:
                host = k % 2 == 0
                assert seen.setdefault((host, seq), view) == view, f"seq {seq} differs"
                assert json.loads(view)["seq"] == seq
        for host, seq in seen:
            if host and (False, seq) in seen:
                same_table(seen[True, seq], seen[False, seq])
        assert members[0].view == members[2].view == table.view() == table.on(b).view()
        assert members[1].view == members[3].view == table.view(seat) == table.on(b).view(seat)
        # Each writer's commands in its own order: its last accepted one wrote its cell last.
        last = [max((n for n in range(EACH) if f"{side}{n}" in accepted), default=None)
                for side in "ab"]  # fmt: skip
        assert json.loads(members[0].view)["sheet"]["rounds"][0]["scores"][:2] == last
    log = await read_log(RedisStore(redis_server.url), table.id)
    counts = check_log(log, {"start": 1, **accepted})
    assert set(counts) == {"start", *accepted}  # a busy refusal recorded nothing


async def test_what_one_process_records_the_other_shows_live(
    pair: tuple[ServerProcess, ...],
) -> None:
    a, b = pair
    table = Table.create(a)
    via_b = table.on(b)
    viewer = table.join("viewer")  # seq 2
    async with phones(on(b, table, viewer)) as (room,):
        assert (await room.open()).seq == 2
        x = points(7, turn(0))
        assert table.command("x", x).json()["seq"] == 3  # HTTP to a
        await room.until_seq(3)  # the room display on b
        again = via_b.command("x", x)  # the phone retries, through b this time
        assert again.json() == {"type": "accepted", "id": "x", "seq": 3}
        y = points(8, turn(1))
        assert via_b.command("y", y).json()["seq"] == 4
        await room.until_seq(4)
        assert room.view == table.view(viewer) == via_b.view(viewer)
        assert table.view() == via_b.view()
        same_table(table.view(), room.view)
        assert json.loads(room.view)["sheet"]["totals"] == [7, 8, 0, 0]


async def test_a_phone_moves_to_the_other_process_when_one_dies(
    pair: tuple[ServerProcess, ...],
) -> None:
    a, b = pair
    table = Table.create(a)
    phone = on(a, table, table.host)
    turns = Turns()
    meant = {f"p{n}": turns.points(n) for n in range(8)}  # one phone's turns, in order
    async with phones(phone):
        await phone.open()
        for n in range(5):
            await phone.command(f"p{n}", meant[f"p{n}"])
        await phone.answer("p4")
        await phone.until_seq(6)
        a.kill()
        await phone.close()
        phone.ws_url = b.ws_url  # what a load balancer does with the next connection
        assert (await phone.open()).seq == 6
        for n in range(3, 8):  # p3, p4 again (a retry), then new ones
            await phone.command(f"p{n}", meant[f"p{n}"])
        assert [(await phone.answer(f"p{n}")).seq for n in range(3, 8)] == [5, 6, 7, 8, 9]
        await phone.until_seq(9)


async def test_a_malformed_entry_in_one_table_silences_no_other_and_is_logged_once(
    pair: tuple[ServerProcess, ...], redis_server: RedisServer
) -> None:
    """An entry this process cannot read (a newer server's event kind, a damaged log) stops
    its own table's follower only; that follower keeps trying from its last seq, logging the
    trouble once, and every other table stays live."""
    a, _ = pair
    broken, fine = Table.create(a), Table.create(a)
    watchers = broken.join("viewer"), fine.join("viewer")
    async with phones(on(a, broken, watchers[0]), on(a, fine, watchers[1])) as (lost, room):
        top = (await lost.open()).seq
        await room.open()
        client = redis.Redis.from_url(redis_server.url)
        try:
            before = reads(client)
            entry = b'{"seq": 0, "event": {"kind": "?"'
            client.xadd(f"table:{{{broken.id}}}", {"data": entry}, id=f"{top + 1}-0")
            client.spublish(f"table:{{{broken.id}}}@0", entry)  # heard, as an append is
            # The broken table's follower tries again a few times: each try reads its log.
            deadline = time.monotonic() + 20
            while reads(client) < before + 2:
                assert time.monotonic() < deadline, "the follower did not try again"
                await asyncio.sleep(0.05)
        finally:
            client.close()
        seq = fine.command("x", points(7, turn(0))).json()["seq"]
        await room.until_seq(seq)  # the other table is as live as before
        assert json.loads(room.view)["sheet"]["totals"][0] == 7
        assert lost.ws is not None
        await asyncio.wait_for(await lost.ws.ping(), 5)  # its phones keep their sockets
    a.assert_no_crash()
    said = a.log.read_text()
    assert said.count(f"table {broken.id}: its follower stopped") == 1, said
    assert "Traceback" not in said
