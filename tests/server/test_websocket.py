"""The websocket protocol at ``/ws``, between a real server process and real clients.

hello → the current view, then live states in order, each with its seq; commands accepted
(and the new view on every phone) or rejected with a code and its parameters; previews
scored without recording; the same command id recorded once; a phone that stops reading
is dropped with 1013 and resumes from its last seq.
"""

import asyncio
import json
import socket
from collections.abc import Iterator

import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.serving import (
    DUPLICATE,
    Phone,
    ServerProcess,
    Table,
    Turns,
    line,
    phones,
    points,
    same_table,
    turn,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One SQLite server for the module; every test makes its own tables."""
    with ServerProcess(tmp_path_factory.mktemp("websocket")) as running:
        yield running
    running.assert_no_crash()


@pytest.fixture
def table(server: ServerProcess) -> Table:
    """A table with a classic game of four started (seq 1)."""
    return Table.create(server)


PLANK = {"board": {"start": "H8", "direction": "across", "letters": "PLANK"}}


async def test_hello_sends_the_current_view_with_its_seq(table: Table) -> None:
    turns = Turns()
    for n in range(3):
        assert table.command(f"c{n}", turns.points(10 + n)).status == 200
    async with phones(table.phone()) as (phone,):
        first = await phone.open(after=0)
        assert (first.type, first.seq) == ("state", 4)
        assert phone.view == table.view()  # byte for byte what HTTP says
        assert json.loads(phone.view)["sheet"]["totals"] == [10, 11, 12, 0]


async def test_hello_after_the_latest_seq_still_gets_the_view(table: Table) -> None:
    async with phones(table.phone()) as (phone,):
        assert (await phone.open(after=1)).seq == 1
    async with phones(table.phone()) as (phone,):
        assert (await phone.open(after=99)).seq == 1  # a phone from a wiped server


async def test_a_command_reaches_every_phone_of_the_table(table: Table) -> None:
    viewer, player = table.join("viewer"), table.join("player", 0)  # seq 2, 3: the joins
    other = Table.create(table.server)
    async with phones(table.phone(), table.phone(player), table.phone(viewer), other.phone()) as (
        host,
        seat,
        room,
        elsewhere,
    ):
        for phone in (host, seat, room, elsewhere):
            await phone.open()
        await seat.command("m1", {"type": "record_move", **PLANK, "turn": turn(0)})
        answer = await seat.answer("m1")
        assert (answer.type, answer.seq) == ("accepted", 4)
        for phone in (host, seat, room):
            await phone.until_seq(4)
            assert json.loads(phone.view)["sheet"]["totals"] == [28, 0, 0, 0]
        assert host.view == table.view()
        assert seat.view == room.view == table.view(player)  # a player's view and a viewer's
        same_table(host.view, seat.view)
        with pytest.raises(TimeoutError):  # another table's phone hears nothing of it
            await elsewhere.receive(timeout=0.3)


async def test_phones_sending_together_all_see_the_same_states_in_order(
    server: ServerProcess,
) -> None:
    # Lines that no other phone's command makes stale: what is tested is the order and
    # agreement of states, not turns (test_roles has two phones meaning the same turn).
    table = Table.create(server, start=DUPLICATE)
    tokens = [table.host, table.join("player", 1), table.join("viewer")]
    base = table.seq  # the start and two joins
    async with phones(*(table.phone(t) for t in tokens)) as (a, b, room):
        for phone in (a, b, room):
            await phone.open()

        async def burst(phone: Phone, name: str, player: int) -> list[int]:
            for n in range(30):
                await phone.command(f"{name}{n}", line(n, player))
            return [(await phone.answer(f"{name}{n}")).seq for n in range(30)]

        seqs_a, seqs_b = await asyncio.gather(burst(a, "a", 0), burst(b, "b", 1))
        final = base + 60
        assert sorted(seqs_a + seqs_b) == list(range(base + 1, final + 1))  # once each, no gap
        assert seqs_a == sorted(seqs_a) and seqs_b == sorted(seqs_b)  # a phone's own order
        for phone in (a, b, room):
            await phone.until_seq(final)
            seen = [seq for seq, _ in phone.states]
            assert seen == sorted(set(seen)), "states out of order or repeated"
            assert all(json.loads(view)["seq"] == seq for seq, view in phone.states)
        views = [dict(phone.states) for phone in (a, b, room)]
        for seq in set(views[0]) & set(views[1]) & set(views[2]):
            assert views[1][seq] == views[2][seq]  # the player's and the viewer's: the same bytes
            same_table(views[0][seq], views[1][seq])  # the host's: the same, and the devices
        assert a.view == table.view()
        assert b.view == room.view == table.view(tokens[2])
        assert json.loads(a.view)["sheet"]["totals"] == [29, 29, 0, 0]  # each phone's last


async def test_a_refused_command_names_its_code_and_parameters_and_records_nothing(
    table: Table,
) -> None:
    async with phones(table.phone(), table.phone()) as (phone, watcher):
        await phone.open()
        await watcher.open()
        await phone.command("bad", points(5000, turn(0)))
        refused = await phone.answer("bad")
        assert (refused.type, refused.code) == ("rejected", "points_out_of_range")
        assert refused.params == {"points": 5000, "max": 2000}
        await phone.command("typo", {"type": "record_move", "turn": turn(0), "board": {
            "start": "Z99", "direction": "across", "letters": "PLANK"}})  # fmt: skip
        assert (await phone.answer("typo")).code == "bad_square"
        assert table.seq == 1
        await phone.command("typed", {"type": "pass", "turn": {"game": 1, "player": 0,
            "number": None}})  # fmt: skip
        wrong = await phone.answer("typed")  # a wrong type still names the command it refuses
        assert (wrong.code, wrong.params["error"]) == ("bad_message", "Expected `int`, got `null`"
                                                       " - at `$.command.turn.number`")  # fmt: skip
        await phone.command("good", points(7, turn(0)))
        assert (await phone.answer("good")).seq == 2  # nothing was recorded in between
        await watcher.until_seq(2)
        assert [seq for seq, _ in watcher.states] == [1, 2]


async def test_preview_scores_a_move_without_recording_it(table: Table) -> None:
    async with phones(table.phone(), table.phone()) as (phone, watcher):
        await phone.open()
        await watcher.open()
        await phone.send({"type": "preview", "id": "p1", "move": PLANK, "check": True})
        preview = await phone.answer("p1")
        assert preview.type == "preview"
        assert preview.score["total"] == 28
        assert [w["word"] for w in preview.score["words"]] == ["PLANK"]
        assert len(preview.words) == 1  # the word's list status, asked for with check
        await phone.send({"type": "preview", "id": "p2", "move": {
            "board": {"start": "H1", "direction": "across", "letters": "PLANK"}}})  # fmt: skip
        assert (await phone.answer("p2")).code == "first_move_off_centre"
        with pytest.raises(TimeoutError):
            await watcher.receive(timeout=0.3)  # no state: nothing happened
        assert table.seq == 1


async def test_preview_before_a_game_is_refused(server: ServerProcess) -> None:
    empty = Table.create(server, start=None)
    async with phones(empty.phone()) as (phone,):
        assert (await phone.open()).seq == 0
        await phone.send({"type": "preview", "id": "p", "move": PLANK})
        assert (await phone.answer("p")).code == "no_game"


async def test_the_same_command_id_twice_is_recorded_once(table: Table) -> None:
    async with phones(table.phone(), table.phone()) as (phone, retry):
        await phone.open()
        await retry.open()
        await phone.command("once", points(9, turn(0)))
        first = await phone.answer("once")
        await retry.command("once", points(9, turn(0)))  # the phone again, on a new connection
        again = await retry.answer("once")
        assert (first.type, again.type) == ("accepted", "accepted")
        assert first.seq == again.seq == 2
        over_http = table.command("once", points(9, turn(0)))
        assert over_http.json() == {"type": "accepted", "id": "once", "seq": 2}
        assert table.seq == 2
        assert json.loads(table.view())["sheet"]["totals"] == [9, 0, 0, 0]


async def test_a_phone_resumes_from_the_last_seq_it_saw(table: Table) -> None:
    async with phones(table.phone(), table.phone()) as (phone, other):
        await phone.open()
        await other.open()
        await phone.close()
        turns = Turns()
        for n in range(5):
            await other.command(f"o{n}", turns.points(n))
        await other.until_seq(6)
        resumed = await phone.open(after=1)
        assert (resumed.type, resumed.seq) == ("state", 6)
        assert phone.view == other.view


async def test_the_socket_refuses_commands_before_hello_and_a_second_hello(table: Table) -> None:
    async with phones(table.phone()) as (phone,):
        await phone.connect()
        await phone.command("early", points(1, turn(0)))
        assert (await phone.answer("early")).code == "not_joined"
        await phone.send({"type": "hello", "table": table.id, "token": "nope"})
        assert (await phone.receive()).code == "bad_token"
        await phone.send({"type": "hello", "table": "nope", "token": table.host})
        assert (await phone.receive()).code == "bad_token"
        await phone.send({"type": "hello", "table": table.id, "token": table.host})
        assert (await phone.receive()).seq == 1  # the same socket, still open
        await phone.send({"type": "hello", "table": table.id, "token": table.host})
        assert (await phone.receive()).code == "already_joined"
        assert table.seq == 1


SLOW_BURST = 400  # ~20 MB of states: past the socket buffers (~4 MB here), then the queue


def small_socket(server: ServerProcess) -> socket.socket:
    """A connected socket with a fixed small receive buffer (no autotuning up to 32 MB)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
    sock.connect(("127.0.0.1", server.port))
    sock.setblocking(False)
    return sock


async def test_a_phone_that_stops_reading_is_dropped_with_1013_and_resumes(
    table: Table,
) -> None:
    # The slow phone reads nothing while the others play on; its states pile up in the
    # socket buffers and then in its bounded queue, which overflows: the server closes it.
    async with phones(table.phone(), table.phone(), table.phone(compression=None)) as (
        fast,
        watcher,
        slow,
    ):
        await fast.open()
        await watcher.open()
        # The client library buffers one frame, no more; the kernel 64 KiB.
        await slow.open(max_queue=1, sock=small_socket(table.server))
        started = asyncio.get_running_loop().time()
        turns = Turns()  # one phone's turns in a row: the sheet grows as a real one does
        for n in range(SLOW_BURST):
            await fast.command(f"f{n}", turns.points(n % 50))
        answers = [await fast.answer(f"f{n}") for n in range(SLOW_BURST)]
        assert [a.seq for a in answers] == list(range(2, SLOW_BURST + 2))
        await watcher.until_seq(SLOW_BURST + 1)
        took = asyncio.get_running_loop().time() - started
        assert took < 15, f"the table waited for the slow phone ({took:.1f} s)"
        with pytest.raises(ConnectionClosed) as closed:
            while True:  # now it reads: what was buffered, then the close
                await slow.receive(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        assert slow.seq < SLOW_BURST + 1  # it had fallen behind when it was dropped
        print(f"\nslow phone: dropped at seq {slow.seq}; the table took {took:.2f} s")
        resumed = await slow.open(after=slow.seq)
        assert resumed.seq == SLOW_BURST + 1
        assert slow.view == watcher.view == table.view()


async def test_a_frame_over_the_size_limit_closes_with_1009(table: Table) -> None:
    async with phones(table.phone()) as (phone,):
        await phone.open()
        await phone.send(json.dumps({"type": "preview", "id": "x" * 70_000, "move": {}}))
        with pytest.raises(ConnectionClosed) as closed:
            await phone.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # too big
    assert table.seq == 1
    async with phones(table.phone()) as (phone,):
        assert (await phone.open()).seq == 1  # the server goes on
