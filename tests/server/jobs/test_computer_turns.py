"""The computer opponent over a real server process and real websockets, on SQLite and on
Redis.

A person (the host's phone, seat 0) plays an online game against the computer (seat 1) to
its end, with a room display watching; the person only ever sends their own turns, and the
computer's come by themselves. Every frame each device received is kept and held against
the log read straight from the store afterwards: the person's phone got its own rack and
never the computer's, the room display no rack. The computer's seat shows as the computer's
in ``/api/seats`` and cannot be joined or played by a phone. With two processes on one
Redis, both of which hold the table, each computer turn is recorded once. In this process,
the task on its own: a turn taken once, and one the rules refuse (a bug) passed.
"""

import asyncio
import json
import statistics
import time
from typing import Any

import pytest

import editions
import wordlists
from events import commands as c
from events.events import Exchanged, MoveRecorded, Passed, Recorded
from rules.board import bag
from rules.board.board import Board
from rules.movegen.moves import generate
from rules.online import opponent as computer
from rules.table.permissions import HOST
from server.jobs.computer_turns import MIN_REPLY_MS, ComputerPlayer
from server.stores.protocols import Device as Hosting
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from server.tables.commands import Tables
from tests.server.online_log import Secrets, before_end, encoded, states, store_of
from tests.server.serving import Api, Recording, ServerProcess, Table, new_address, phones, read_log

EDITION = "woordstrijd"
START = {"type": "start_game", "edition": EDITION, "mode": "online", "players": ["Ann", None],
         "computers": [None, "good"]}  # fmt: skip
TURNS = 120  # a game of two ends long before
GRAPH = wordlists.get(EDITION).graph


@pytest.fixture(scope="module")
def server(module_server: ServerProcess) -> ServerProcess:
    return module_server


def sheet(device: Recording) -> dict[str, Any]:
    return json.loads(device.view)["sheet"]


def the_turn(view: dict[str, Any]) -> dict[str, int]:
    player = view["to_move"]
    return {"game": view["started"], "player": player, "number": view["turns"][player]}


def best_move(view: dict[str, Any]) -> dict[str, str] | None:
    """The person's move: the generator's top for their rack, as a phone sends it."""
    board = Board.from_rows(editions.get(EDITION), view["board"])
    moves = generate(board, "".join(view["online"]["rack"]), GRAPH, limit=1)
    if not moves:
        return None
    top = moves[0]
    return {"start": top.start.name, "direction": str(top.direction), "letters": top.letters}


async def persons_turn(ann: Recording, n: int) -> dict[str, Any]:
    """Ann's turn: her best move, else an exchange of her rack while the bag allows, else a
    pass; the answer."""
    view = sheet(ann)
    move = best_move(view)
    if move is not None:
        command = {"type": "play", "board": move, "turn": the_turn(view)}
    elif view["online"]["bag"] >= 7:
        tiles = "".join(view["online"]["rack"])
        command = {"type": "exchange", "tiles": tiles, "turn": the_turn(view)}
    else:
        command = {"type": "pass", "turn": the_turn(view)}
    await ann.command(f"a{n}", command)
    answer = await ann.answer(f"a{n}")
    assert answer.type == "accepted", (command, answer)
    return {"seq": answer.seq}


async def until(device: Recording, test: Any, timeout: float = 20.0) -> None:
    """Receive until the device's sheet passes ``test``."""
    async with asyncio.timeout(timeout):
        while not (device.states and test(sheet(device))):
            await device.receive()


def persons(view: dict[str, Any]) -> bool:
    return view["ended"] or view["to_move"] == 0


def computers_turns(log: tuple[Recorded, ...]) -> list[Recorded]:
    """The computer's lines of a gapless log, each turn once (a command id of its own)."""
    assert [r.seq for r in log] == list(range(1, len(log) + 1))
    taken = [r for r in log if r.device == "computer" and hasattr(r.event, "player")]
    assert all(r.command.startswith("computer:") for r in taken)
    assert len({r.command for r in taken}) == len(taken)
    assert all(getattr(r.event, "player", None) == 1 for r in taken)  # its own seat only
    return taken


async def test_a_person_plays_the_computer_to_the_end_and_never_sees_its_rack(
    server: ServerProcess,
) -> None:
    table = Table.create(server, start=START)
    api = server.api()
    seats = api.post("/api/seats", {"code": table.code}).json()
    assert seats["seats"] == [
        {"seat": 0, "name": "Ann", "taken": True, "host": True},  # the host's phone plays it
        {"seat": 1, "name": None, "taken": True, "computer": "good"},
    ]
    joining = {"code": table.code, "role": "player", "seat": 1, "device": "phone"}
    refused = Api(server.url, new_address()).post("/api/join", joining)
    assert (refused.status, refused.json()["code"]) == (409, "computer_seat")
    ann = Recording("ann", server.ws_url, table.id, table.host)
    room = Recording("room", server.ws_url, table.id, table.join("viewer"))
    waited: list[float] = []
    done: list[str] = []
    async with phones(ann, room):
        await ann.open()
        await room.open()
        first = sheet(ann)["online"]
        assert first["computers"] == [None, "good"] and first["seat"] == 0
        assert sheet(room)["online"]["rack"] is None

        # Ann may not take the computer's turn, nor pass for it.
        view = sheet(ann)
        await ann.command("x", {"type": "pass", "turn": {**the_turn(view), "player": 1}})
        assert (await ann.answer("x")).code == "computer_seat"

        for n in range(TURNS):
            view = sheet(ann)
            if view["ended"]:
                break
            assert view["to_move"] == 0  # the computer never keeps Ann waiting
            answer = await persons_turn(ann, n)
            sent = time.perf_counter()
            await ann.until_seq(answer["seq"])
            await until(ann, persons)  # the computer's turn comes by itself
            if not sheet(ann)["ended"] or sheet(ann)["seq"] > answer["seq"]:
                waited.append(time.perf_counter() - sent)
            last = sheet(ann)["online"]["last"]
            done.append(last["kind"] if last["player"] == 1 else "-")
        final = sheet(ann)
        assert final["ended"], done
        await room.until_seq(ann.seq)
    log = await read_log(store_of(server), table.id)
    by_computer = computers_turns(log)
    assert sum(isinstance(r.event, MoveRecorded) for r in by_computer) >= 5
    print(f"\n{len(done)} rounds, the computer: {' '.join(done)}; totals {final['totals']}; "
          f"its reply after {statistics.median(waited) * 1000:.0f} ms (median), "
          f"{max(waited) * 1000:.0f} ms at most")  # fmt: skip

    secrets = Secrets(log)
    ended = secrets.ended
    assert ended is not None
    for seq, view in states(ann):
        online = view["sheet"]["online"]
        assert (online["seat"], online["rack"]) == (0, secrets.rack(seq, 0))
    for _, view in states(room):
        assert view["sheet"]["online"]["rack"] is None
    for device in (ann, room):
        for frame in before_end(device, secrets):
            assert secrets.seed not in frame
            for seq in secrets.racks:
                theirs = secrets.rack(seq, 1)
                if seq < ended and len(theirs) >= 3 and theirs != secrets.rack(seq, 0):
                    assert encoded(theirs) not in frame, (device.name, seq, theirs)
                    # as a string of its own: a short rack ("EEG") is also a piece of
                    # a word on the board ("VEEG"), which every phone sees
                    notation = json.dumps(bag.rack_notation(secrets.racks[seq][1]))
                    assert notation not in frame, (device.name, seq, notation)


async def test_the_computer_begins_by_itself_when_it_starts(server: ServerProcess) -> None:
    table = Table.create(server, start={**START, "starter": 1, "computers": [None, "best"]})
    ann = Recording("ann", server.ws_url, table.id, table.host)
    async with phones(ann):
        await ann.open()
        await until(ann, persons)
        view = sheet(ann)
        assert view["turns"] == [0, 1] and view["online"]["last"]["player"] == 1
        # A dealt rack with no word on the empty board (rare, by the game's random seed) is
        # exchanged whole (rules.online.opponent): the computer took its turn either way.
        last = view["online"]["last"]
        if last["kind"] == "exchange":
            assert last["count"] == 7 and view["board"] == first_board()
        else:
            assert last["kind"] == "move" and view["board"] != first_board()


def first_board() -> list[str]:
    return ["." * 15] * 15


async def test_processes_on_one_redis_take_each_computer_turn_once(
    pair: tuple[ServerProcess, ...],
) -> None:
    # Ann's phone on a, the room display on b: both processes hold the table and both try
    # every computer turn; the log has each once, and the phones of both see the same.
    a, b = pair
    table = Table.create(a, start=START)
    ann = Recording("ann", a.ws_url, table.id, table.host)
    viewer = table.on(b).join("viewer")
    room = Recording("room", b.ws_url, table.id, viewer)
    async with phones(ann, room):
        await ann.open()
        await room.open()
        for n in range(6):
            if sheet(ann)["ended"]:
                break
            answer = await persons_turn(ann, n)
            await ann.until_seq(answer["seq"] + 1)
            await until(ann, persons)
            await room.until_seq(ann.seq)
            assert sheet(room)["totals"] == sheet(ann)["totals"]
        # A viewer joining now is the table's next event: a late try of either process
        # would have come before it.
        seq = ann.seq
        table.join("viewer")
        assert table.seq == seq + 1
        await ann.until_seq(seq + 1)  # the host's list of devices grew
        # The display is sent nothing of a join: only the seq changed for it.
        await room.until_current(seq + 1, lambda: asyncio.to_thread(table.on(b).view, viewer))
    assert table.seq == seq + 1
    log = await read_log(RedisStore(a.redis or ""), table.id)
    assert len(computers_turns(log)) >= 5


# --- the task in this process ----------------------------------------------------------------


async def started(tables: Tables, starter: int) -> str:
    made, _ = await tables.create()
    host = Hosting(made.id, "host", None, HOST)
    command = c.StartGame(EDITION, "online", players=("Ann", "Computer"), starter=starter,
                          computers=(None, "best"))  # fmt: skip
    await tables.command(made.id, host, command, "start")
    return made.id


async def test_the_computer_takes_each_turn_once_and_nothing_when_it_is_not_its_turn(
    sqlite_store: SqliteStore,
) -> None:
    tables = Tables(sqlite_store)
    table_id = await started(tables, starter=1)
    player = ComputerPlayer(tables)
    (due,) = tables.computer_turns()
    assert due[:2] == (table_id, c.Turn(1, 1, 0))
    seq = await player.take(*due)
    assert seq == 2
    assert await player.take(*due) is None  # taken: the same turn again records nothing
    assert tables.computer_turns() == [] and player.check() == 0  # Ann's turn now
    log = await sqlite_store.read(table_id)
    assert (log[-1].device, log[-1].command) == ("computer", f"computer:1:1:0:{log[0].at}")
    # Its move, or its whole rack exchanged when that holds no word for the empty board (a
    # rack of the game's random seed: NTPTRMJ once): either way its turn, taken once.
    assert isinstance(log[-1].event, MoveRecorded | Exchanged) and log[-1].event.player == 1


async def test_a_turn_the_rules_refuse_is_logged_and_passed_so_the_game_goes_on(
    sqlite_store: SqliteStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    tables = Tables(sqlite_store)
    table_id = await started(tables, starter=1)

    def wrong(game: object, graph: object, turn: c.Turn) -> c.Play:
        return c.Play(c.BoardMove("A1", "across", "QQ"), turn=turn)  # off the centre

    monkeypatch.setattr(computer, "choose", wrong)
    (due,) = tables.computer_turns()
    assert await ComputerPlayer(tables).take(*due) == 2
    log = await sqlite_store.read(table_id)
    assert isinstance(log[-1].event, Passed) and log[-1].event.player == 1
    assert "the computer's turn was refused" in caplog.text


async def test_the_computer_never_answers_before_the_least_reply_time(
    sqlite_store: SqliteStore,
) -> None:
    """Its search took 2 ms on a rack without a blank and 23 ms with two: a move recorded as
    soon as it was found told the other player what the computer held."""
    tables = Tables(sqlite_store)
    table_id = await started(tables, starter=1)
    (due,) = tables.computer_turns()
    assert await ComputerPlayer(tables).take(*due) == 2
    start, move = await sqlite_store.read(table_id)
    assert move.at - start.at >= MIN_REPLY_MS
