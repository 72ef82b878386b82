"""The websocket protocol at ``/ws``, between a real server process and real clients.

hello → the current view, then live changes in order, each with its seq and the seq it
follows; commands accepted (and the change on every phone) or rejected with a code and its
parameters; previews scored without recording; the same command id recorded once; a phone
that stops reading is dropped with 1013 and resumes from its last seq.

The changes are held against the rules: the log is read from the store afterwards and folded
again, and every view a phone made from its changes is ``rules.table.views.view`` at that seq, byte
for byte, for a real game record replayed command by command, an undo and a new game, and an
online game's seats, whose changes carry nothing their own view does not hold.
"""

import asyncio
import json
import socket
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest
from websockets.exceptions import ConnectionClosed

from events.events import (
    Exchanged,
    GameEnded,
    LineUndone,
    MoveRecorded,
    Passed,
    PenaltyGiven,
    PointsEntered,
    WordWithdrawn,
)
from rules.gcg import read as gcg
from rules.table.reducer import evolve
from rules.table.state import State
from rules.table.views import Audience, view
from server.live.messages import encoder
from server.live.sheets import apply, read_frame
from server.stores.sqlite import SqliteStore
from tests.server.serving import (
    DUPLICATE,
    Api,
    Phone,
    Recording,
    ServerProcess,
    Table,
    Turns,
    line,
    new_address,
    phones,
    points,
    read_log,
    same_table,
    turn,
)

GCG = Path(__file__).resolve().parents[2] / "fixtures" / "gcg"


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
        # The phone that sent it gets the change it made right after the answer.
        assert (await seat.receive()).type == "change" and seat.seq == 4
        for phone in (host, seat, room):
            await phone.until_seq(4)
            assert json.loads(phone.view)["sheet"]["totals"] == [28, 0, 0, 0]
        assert host.view == table.view()
        assert seat.view == room.view == table.view(player)  # a player's view and a viewer's
        same_table(host.view, seat.view)
        # Another table's phone hears nothing of it: the next it hears is its own table's
        # next line, recorded after (one queue per phone, in order).
        heard = len(elsewhere.frames_in)
        assert other.command("o1", Turns().points(5)).status == 200
        await elsewhere.until_seq(2)
        assert len(elsewhere.frames_in[heard:]) == 1, elsewhere.frames_in
        assert elsewhere.view == other.view()


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
        await phone.send({"type": "preview", "id": "p0", "move": PLANK, "check": True})
        secret = await phone.answer("p0")  # the list judges a challenge while the game runs
        assert (secret.type, secret.code) == ("rejected", "word_check_secret")
        await phone.send({"type": "preview", "id": "p1", "move": PLANK})
        preview = await phone.answer("p1")
        assert preview.type == "preview"
        assert preview.score["total"] == 28
        assert [w["word"] for w in preview.score["words"]] == ["PLANK"]
        assert preview.words == ()  # no list status unless asked for with check
        await phone.send({"type": "preview", "id": "p2", "move": {
            "board": {"start": "H1", "direction": "across", "letters": "PLANK"}}})  # fmt: skip
        assert (await phone.answer("p2")).code == "first_move_off_centre"
        assert table.seq == 1
        # No state, nothing at all: the next the watcher hears is the line recorded after.
        heard = len(watcher.frames_in)
        await phone.command("after", points(7, turn(0)))
        assert (await phone.answer("after")).seq == 2
        await watcher.until_seq(2)
        assert len(watcher.frames_in[heard:]) == 1, watcher.frames_in


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


SLOW_BURST = 400  # turns: the sheet of a long game
#: Whole sheets asked for and never read, ~4 KB each gzipped: past the socket buffers (the
#: server's send buffer grows to 4 MB and more here: about 1,000 of them), the transport's
#: 64 KiB, then the queue. A frame goes straight to the socket while it takes it, so only a
#: phone that stays behind by megabytes is dropped. Changes are a few hundred bytes: a phone
#: that only stopped reading would take tens of thousands of them to fill the buffers.
RESYNCS = 4_000


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
    # The slow phone reads nothing while the others play on, and asks for the whole sheet
    # again and again; what it is sent piles up in the socket buffers and then in its
    # bounded queue, which overflows: the server closes it.
    async with phones(table.phone(), table.phone(), table.phone()) as (fast, watcher, slow):
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
        for _ in range(RESYNCS):
            await slow.send({"type": "resync"})
        assert slow.ws is not None
        frames = 0
        with pytest.raises(ConnectionClosed) as closed:
            while True:  # now it reads: what was buffered, then the close
                await asyncio.wait_for(slow.ws.recv(), 10)
                frames += 1
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        assert frames < 1 + SLOW_BURST + RESYNCS  # it was dropped with its queue
        print(f"\nslow phone: dropped after {frames} frames; the table took {took:.2f} s")
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


# --- changes instead of whole sheets ---------------------------------------------------------


def turn_of(sheet: dict[str, Any]) -> dict[str, int]:
    """The turn of the player to move, as a phone names it from its sheet."""
    player = sheet["to_move"]
    return {"game": sheet["started"], "player": player, "number": sheet["turns"][player]}


def command_for(event: Any, sheet: dict[str, Any]) -> dict[str, Any]:
    """The command a phone showing ``sheet`` sends to record ``event`` of a game record."""
    if isinstance(event, PenaltyGiven):
        given = {"player": event.player, "points": event.points}
        return {"type": "give_penalty", **given, "last_line": sheet["last_line"]}
    if isinstance(event, LineUndone):  # a withdrawn word: its move is the latest line
        return {"type": "undo", "last_line": sheet["last_line"]}
    if isinstance(event, GameEnded):
        return {"type": "end_game", "racks": [[r.letters, r.points] for r in event.racks]}
    assert event.player == sheet["to_move"], (event, sheet["to_move"])
    meant = turn_of(sheet)
    if isinstance(event, MoveRecorded) and event.placed:
        letters = "".join(tile.tile for tile in event.placed)
        laid = {"start": event.placed[0].square, "direction": event.direction, "letters": letters}
        return {"type": "record_move", "board": laid, "turn": meant}
    if isinstance(event, MoveRecorded | PointsEntered):
        return {"type": "enter_points", "points": event.points, "turn": meant}
    kind = {Passed: "pass", Exchanged: "exchange", WordWithdrawn: "withdraw_word"}[type(event)]
    return {"type": kind, "turn": meant}


async def send(sender: Phone, command_id: str, command: dict[str, Any], *others: Phone) -> int:
    """``command`` from ``sender``, accepted; once every phone has the view after it."""
    await sender.command(command_id, command)
    answer = await sender.answer(command_id)
    assert answer.type == "accepted", (command, answer)
    await asyncio.gather(*(p.until_seq(answer.seq) for p in (sender, *others)))
    return answer.seq


async def log_of(server: ServerProcess, table: Table) -> dict[int, State]:
    """The table's state after every seq, folded again from the store."""
    state, states = State(), {}
    for record in await read_log(SqliteStore(server.data / "tilestream.db"), table.id):
        state = evolve(state, record)
        states[record.seq] = state
    return states


def assert_views(
    phone: Phone, states: dict[int, State], seen_by: Audience, seat: int | None
) -> None:
    """Every view the phone had is the rules' view at its seq, byte for byte; after its
    first state, it was sent changes only."""
    assert phone.states
    for seq, got in phone.states:
        assert got == encoder.encode(view(states[seq], seen_by, seat)), seq
    kinds = [kind for kind, _ in phone.frames_in if kind in ("state", "change")]
    assert kinds == ["state"] + ["change"] * (len(kinds) - 1), kinds


async def test_a_game_record_replayed_reaches_every_phone_as_changes_that_make_its_views(
    server: ServerProcess,
) -> None:
    record = gcg.read((GCG / "noah_vs_peter.gcg").read_bytes())
    imported = gcg.to_events(record, None)
    names = [player.name for player in imported.players]
    start = {"type": "start_game", "edition": imported.edition, "players": names}
    table = Table.create(server, start=start)
    seat, viewer, late = table.join("player", 0), table.join("viewer"), table.join("viewer")
    async with phones(table.phone(), table.phone(seat), table.phone(viewer), table.phone(late)) as (
        host,
        player,
        room,
        latecomer,
    ):
        for phone in (host, player, room):
            await phone.open()
        following: tuple[Phone, ...] = (player, room)
        events = [r.event for r in imported.log[1:]]  # after its start
        for n, event in enumerate(events):
            if isinstance(event, LineUndone):
                assert event.line == imported.log[n].seq  # the line just before
            if isinstance(event, PenaltyGiven) and event.points < 0:
                continue  # a bonus: no phone may give one
            sheet = json.loads(host.view)["sheet"]
            await send(host, f"g{n}", command_for(event, sheet), *following)
            if n == len(events) // 2:  # a phone comes in halfway: the whole view, then changes
                await latecomer.open()
                following = (*following, latecomer)
        sheet = json.loads(host.view)["sheet"]
        assert sheet["ended"] and len(sheet["lines"]) > 40
        await send(host, "new", {"type": "new_game", "game": sheet["started"]}, *following)
        sheet = json.loads(host.view)["sheet"]
        laid = {"start": "H8", "direction": "across", "letters": "QUIET"}
        move = {"type": "record_move", "board": laid, "turn": turn_of(sheet)}
        await send(host, "q", move, *following)
        sheet = json.loads(host.view)["sheet"]
        await send(host, "u", {"type": "undo", "last_line": sheet["last_line"]}, *following)
        assert json.loads(host.view)["sheet"]["lines"] == []

        states = await log_of(server, table)
        assert_views(host, states, "host", 0)
        for phone in following:
            assert_views(phone, states, "member", None)
        assert host.view == table.view() and room.view == table.view(viewer)
        frames = [f for phone in (host, *following) for f in phone.frames_in]
        changes = [size for kind, size in frames if kind == "change"]
        print(
            f"\n{len(changes)} changes: {sum(changes) / len(changes):.0f} bytes on average,"
            f" at most {max(changes)}; the last whole view {len(table.view())} bytes"
        )
        assert max(changes) < 2_048


def within(view: Any, path: Sequence[str | int]) -> Any:
    for step in path:
        view = view[step]
    return view


async def test_an_online_games_seats_get_changes_with_their_own_rack_only(
    server: ServerProcess,
) -> None:
    online = {"type": "start_game", "edition": "nl", "mode": "online", "players": ["Ann", "Bob"]}
    table = Table.create(server, start=online)
    ann = Recording("ann", server.ws_url, table.id, table.host)
    bobs = Recording("bob", server.ws_url, table.id, table.join("player", 1))
    room = Recording("room", server.ws_url, table.id, table.join("viewer"))
    async with phones(ann, bobs, room):
        for phone in (ann, bobs, room):
            await phone.open()
        seats = (ann, bobs)
        for n in range(30):
            sheet = room.sheet
            if sheet["ended"]:
                break
            mover = seats[sheet["to_move"]]
            rack = mover.sheet["online"]["rack"]
            command: dict[str, Any] = {"type": "pass", "turn": turn_of(sheet)}
            if n < 6 and sheet["online"]["bag"] >= 7:  # racks change: each seat's own
                command = {"type": "exchange", "tiles": "".join(rack[:3]), "turn": turn_of(sheet)}
            await send(mover, f"o{n}", command, *(p for p in (ann, bobs, room) if p is not mover))
        assert room.sheet["ended"]

        states = await log_of(server, table)
        assert_views(ann, states, "host", 0)
        assert_views(bobs, states, "member", 1)
        assert_views(room, states, "member", None)
        for phone in (ann, bobs, room):
            views = dict(phone.states)
            for frame in phone.frames:
                change = json.loads(frame)
                if change["type"] != "change":
                    continue
                made = json.loads(views[change["seq"]])
                # A change holds values of the view it makes, which has the seat's rack only.
                for path, value in change["set"]:
                    assert within(made, path) == value, (phone.name, path)
                for path, start, _, items in change["splice"]:
                    assert within(made, path)[start : start + len(items)] == items
        racks = [json.loads(v)["sheet"]["online"]["rack"] for _, v in bobs.states]
        assert len({tuple(r) for r in racks}) > 2  # Bob's rack changed, and he saw it change


async def test_a_phone_that_missed_changes_or_asks_again_gets_the_whole_view(
    table: Table,
) -> None:
    async with phones(table.phone(), table.phone()) as (phone, other):
        await phone.open()
        await other.open()
        await phone.close()
        turns = Turns()
        for n in range(3):
            await send(other, f"m{n}", turns.points(10 + n))
        resumed = await phone.open()  # after the last seq it saw: 1
        assert (resumed.type, resumed.seq) == ("state", 4)
        assert phone.view == other.view == table.view()
        await send(other, "m3", turns.points(13), phone)
        assert phone.frames_in[-1][0] == "change"
        await phone.resync()  # as the app does when a change does not follow its view
        again = await phone.receive()
        assert (again.type, again.seq) == ("state", 5)
        assert phone.view == table.view()
        await send(other, "m4", turns.points(14), phone)
        assert phone.frames_in[-1][0] == "change"
        assert phone.view == table.view()


async def test_a_device_let_in_gets_the_whole_view_not_a_change_of_its_waiting_one(
    server: ServerProcess,
) -> None:
    table = Table.create(server)
    api = Api(server.url, new_address())
    api.join(table.code, "player", 1, device="first-phone-key-0123456")
    second = api.join(table.code, "player", 1, device="second-phone-key-012345")
    assert not second["admitted"]
    async with phones(table.phone(second["token"]), table.phone()) as (waiting, host):
        assert json.loads(bytes((await waiting.open()).view))["waiting"] is True
        await host.open()
        await send(host, "p", points(5, turn(0)))  # it still waits: nothing of it is sent
        await send(host, "in", {"type": "admit_device", "device": second["device"]}, waiting)
        assert [kind for kind, _ in waiting.frames_in] == ["state", "state"]
        assert waiting.view == table.view(second["token"])


async def test_a_resync_is_a_message_like_any_other(table: Table) -> None:
    async with phones(table.phone()) as (phone,):
        await phone.connect()
        await phone.send({"type": "resync"})
        assert (await phone.receive()).code == "not_joined"
        await phone.send({"type": "hello", "table": table.id, "token": table.host})
        assert (await phone.receive()).type == "state"
        await phone.send({"type": "resync", "after": 3})
        assert (await phone.receive()).code == "bad_message"


async def test_a_big_view_comes_gzipped_once_in_a_binary_frame_and_nothing_is_deflated(
    table: Table,
) -> None:
    turns = Turns()
    for n in range(40):
        assert table.command(f"b{n}", turns.points(n)).status == 200
    async with phones(table.phone(), table.phone()) as (first, second):
        for phone in (first, second):
            await phone.connect()  # offering permessage-deflate, as browsers do
            assert phone.ws is not None and phone.ws.protocol.extensions == []
            await phone.send({"type": "hello", "table": table.id, "token": table.host})
        frames = [await asyncio.wait_for(p.ws.recv(), 10) for p in (first, second) if p.ws]
        assert isinstance(frames[0], bytes) and frames[0] == frames[1]  # the same bytes
        state = json.loads(read_frame(frames[0]))
        assert (state["type"], state["seq"]) == ("state", 41)
        assert msgspec.json.encode(state["view"]) == table.view()
        assert len(frames[0]) < len(table.view()) // 3


CHANGES = 2_000  # turns after the start: a long sheet


async def test_a_change_to_a_long_sheet_is_small(table: Table) -> None:
    async with phones(table.phone()) as (phone,):
        await phone.connect()  # read frame by frame here: 2,000 views are not re-encoded
        assert phone.ws is not None
        await phone.send({"type": "hello", "table": table.id, "token": table.host})
        turns = Turns()
        for n in range(CHANGES):
            await phone.command(f"l{n}", turns.points(n % 60))
        views = []  # frames of the state and the changes, as they came
        while not views or json.loads(read_frame(views[-1]))["seq"] < 1 + CHANGES:
            frame = await asyncio.wait_for(phone.ws.recv(), 10)
            if json.loads(read_frame(frame))["type"] in ("state", "change"):
                views.append(frame)
        first, *changes = (json.loads(read_frame(frame)) for frame in views)
        made = first["view"]
        for change in changes:
            assert change["type"] == "change"
            apply(made, change)
        assert msgspec.json.encode(made) == table.view()
        sizes = [len(frame) for frame in views[1:]]
        assert len(sizes) >= CHANGES // 2  # the follower may fold a burst into one change
        whole = len(table.view())
        print(f"\nat {CHANGES} lines: the view {whole:,} bytes, a change at most {max(sizes)}")
        assert max(sizes) <= 2_048 < whole // 50
