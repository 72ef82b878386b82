"""Seats, turns and roles as the server enforces them, with real server processes and phones.

Two phones recording the same turn at once write one line; a double tap writes one line; a
queue sent again after a restart writes nothing for a turn it did not mean. A seat belongs to
its devices: a second phone waits for the host, a removed device is refused on every
process. With the default setting a seat writes its own lines only; with one scorekeeper,
any seat writes every line. A viewer never sees the join code.
"""

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.redis_server import RedisServer
from tests.server.serving import Api, Phone, ServerProcess, Table, new_address, phones, request

TWO = {"type": "start_game", "edition": "nl", "players": ["Ann", "Bob"]}
DUPLICATE = {"type": "start_game", "edition": "nl", "mode": "duplicate", "players": ["Ann", "Bob"]}
SCOREKEEPER = {**TWO, "writers": "scorekeeper"}
PLANK = {"start": "H8", "direction": "across", "letters": "PLANK"}


def turn(player: int, number: int = 0, game: int = 1) -> dict[str, int]:
    return {"game": game, "player": player, "number": number}


def points(value: int, player: int, number: int = 0, game: int = 1) -> dict[str, Any]:
    return {"type": "enter_points", "points": value, "turn": turn(player, number, game)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One SQLite server for the module; every test makes its own tables."""
    with ServerProcess(tmp_path_factory.mktemp("roles")) as running:
        yield running
    running.assert_no_crash()


def joined(table: Table, seat: int | None, key: str = "", role: str = "player") -> dict[str, Any]:
    """A new device at ``table`` (from its own address: joins are limited per address)."""
    reply = Api(table.api.url, new_address()).post(
        "/api/join", {"code": table.code, "role": role, "seat": seat, "device": key}
    )
    assert reply.status == 200, reply
    return reply.json()


def sheet(table: Table) -> dict[str, Any]:
    return json.loads(table.view())["sheet"]


# --- the turn a command was meant for ------------------------------------------------------


@pytest.mark.parametrize("store", ["sqlite", "redis"])
async def test_two_phones_recording_the_same_turn_at_once_write_one_line(
    tmp_path: Path, redis_server: RedisServer, store: str
) -> None:
    with ServerProcess(tmp_path, redis=redis_server.url if store == "redis" else None) as one:
        table = Table.create(one, start=SCOREKEEPER)
        await same_turns_at_once(table, table)
    one.assert_no_crash()


async def test_two_phones_on_two_processes_recording_the_same_turn_at_once_write_one_line(
    pair: tuple[ServerProcess, ...],
) -> None:
    # Each process sends its append in a pipeline of Redis round trips; Redis orders them,
    # and the one decided on a stale seq hears what it missed and refuses its turn.
    a, b = pair
    table = Table.create(a, start=SCOREKEEPER)
    await same_turns_at_once(table, table.on(b))


async def same_turns_at_once(here: Table, there: Table) -> None:
    """Ten turns, each tapped on Ann's phone (through ``here``) and Bob's (through ``there``)
    at the same moment: one line each, the other tap refused naming who took it."""
    ann, bob = joined(here, 0)["token"], joined(there, 1)["token"]
    for round_ in range(10):
        async with phones(here.phone(ann), there.phone(bob)) as (a, b):
            await asyncio.gather(a.open(), b.open())
            player, number = round_ % 2, round_ // 2
            await asyncio.gather(
                a.command(f"a{round_}", points(24, player, number)),
                b.command(f"b{round_}", points(24, player, number)),
            )
            answers = [await a.answer(f"a{round_}"), await b.answer(f"b{round_}")]
        kinds = sorted(answer.type for answer in answers)
        assert kinds == ["accepted", "rejected"], answers
        refused = next(answer for answer in answers if answer.type == "rejected")
        winner = 0 if answers[0].type == "accepted" else 1
        assert refused.code == "turn_taken"
        assert refused.params == {
            "player": player, "kind": "points", "points": 24, "word": "",
            "by": winner, "by_host": False,
        }  # fmt: skip
    for table in (here, there):
        assert sheet(table)["totals"] == [120, 120]
        assert len(sheet(table)["lines"]) == 10


async def test_a_double_tap_on_pass_passes_one_player(server: ServerProcess) -> None:
    table = Table.create(server, start=TWO)
    ann = joined(table, 0)["token"]
    async with phones(table.phone(ann)) as (phone,):
        await phone.open()
        await phone.command("tap-1", {"type": "pass", "turn": turn(0)})
        await phone.command("tap-2", {"type": "pass", "turn": turn(0)})
        assert (await phone.answer("tap-1")).type == "accepted"
        second = await phone.answer("tap-2")
        assert (second.code, second.params["kind"], second.params["by"]) == (
            "turn_taken",
            "pass",
            0,
        )
    assert sheet(table)["turns"] == [1, 0] and sheet(table)["to_move"] == 1


async def test_a_queue_sent_again_after_a_restart_writes_no_line_for_a_turn_it_did_not_mean(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path)
    with server:
        table = Table.create(server, start=TWO)
        ann = joined(table, 0)["token"]
        assert table.command("p0", points(10, 0)).status == 200  # the host wrote Ann's turn
        server.restart(kill=True)
        # Ann's phone had two taps queued while it was offline, both for her first turn.
        async with phones(table.phone(ann)) as (phone,):
            await phone.open()
            for name in ("q1", "q2"):
                await phone.command(name, {"type": "pass", "turn": turn(0)})
            refused = [await phone.answer(name) for name in ("q1", "q2")]
        assert [(r.type, r.code) for r in refused] == [("rejected", "turn_taken")] * 2
        assert refused[0].params["by_host"] is True
        assert sheet(table)["to_move"] == 1 and sheet(table)["turns"] == [1, 0]  # Bob's is his
    server.assert_no_crash()


def test_a_command_without_what_the_phone_saw_is_refused(server: ServerProcess) -> None:
    table = Table.create(server, start=TWO)
    for command, field in [
        ({"type": "pass"}, "turn"),
        ({"type": "enter_points", "points": 5, "player": 1}, "turn"),
        ({"type": "undo"}, "last_line"),
        ({"type": "give_penalty", "player": 0, "points": 5}, "last_line"),
        ({"type": "new_game"}, "game"),
    ]:
        reply = table.command("x", command)
        assert (reply.status, reply.json()["code"], reply.json()["params"]) == (
            400, "reference_missing", {"field": field}
        )  # fmt: skip
    assert table.seq == 1


# --- who may do what ------------------------------------------------------------------------

#: (start, what the host writes first, a command for Ann's line that Bob's seat writes)
FORBIDDEN: list[tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]] = [
    (TWO, [], {"type": "pass", "turn": turn(0)}),
    (TWO, [], points(30, 0)),
    (TWO, [], {"type": "record_move", "board": PLANK, "turn": turn(0)}),
    (TWO, [], {"type": "give_penalty", "player": 0, "points": 2000, "last_line": 0}),
    (TWO, [points(10, 0)], {"type": "undo", "last_line": 5}),
    (DUPLICATE, [], points(30, 0)),
    (DUPLICATE, [], {"type": "correct_cell", "round": 0, "player": 0, "points": 9}),
    (DUPLICATE, [], {"type": "correct_cell", "round": 0, "player": None, "points": 9}),
    (DUPLICATE, [], {"type": "record_top", "points": 30, "round": 0}),
    (DUPLICATE, [], {"type": "end_game"}),
]


@pytest.mark.parametrize(("start", "before", "command"), FORBIDDEN)
def test_a_seat_writes_only_its_own_lines_unless_one_scorekeeper_keeps_the_sheet(
    server: ServerProcess,
    start: dict[str, Any],
    before: list[dict[str, Any]],
    command: dict[str, Any],
) -> None:
    table = Table.create(server, start=start)
    joined(table, 0)
    bob = joined(table, 1)["token"]
    assert table.command("writers", {"type": "set_writers", "writers": "own_seat"}).status == 200
    for n, line in enumerate(before):
        assert table.command(f"before{n}", line).status == 200
    seen = table.view()
    refused = table.command("bob", command, bob)
    assert (refused.status, refused.json()["code"]) in ((403, "not_your_seat"), (403, "host_only"))
    assert table.view() == seen  # nothing changed
    assert (
        table.command("writers2", {"type": "set_writers", "writers": "scorekeeper"}).status == 200
    )
    if "last_line" in command:
        command = {**command, "last_line": sheet(table)["last_line"]}
    allowed = table.command("bob2", command, bob)
    assert allowed.status == 200, allowed.json()


@pytest.mark.parametrize(
    "command",
    [
        {"type": "set_writers", "writers": "scorekeeper"},
        {"type": "new_game", "game": 1},
        {"type": "start_game", "edition": "nl"},
        {"type": "start_clock"},
        {"type": "remove_device", "device": "x"},
    ],
)
def test_the_directors_acts_stay_with_the_host_for_a_scorekeeper_too(
    server: ServerProcess, command: dict[str, Any]
) -> None:
    table = Table.create(server, start={**DUPLICATE, "writers": "scorekeeper"})
    refused = table.command("k", command, joined(table, 0)["token"])
    assert (refused.status, refused.json()["code"]) == (403, "host_only")


def test_a_viewer_writes_nothing_and_never_sees_the_join_code(server: ServerProcess) -> None:
    table = Table.create(server, start=SCOREKEEPER)
    viewer = joined(table, None, role="viewer")
    assert viewer["code"] == ""
    token = viewer["token"]
    refused = table.command("v", {"type": "pass", "turn": turn(0)}, token)
    assert (refused.status, refused.json()["code"]) == (403, "viewer_read_only")
    replies = [
        table.api.get(f"/api/tables/{table.id}/{path}", token)
        for path in ("view", "gcg", "qr.svg", "devices")
    ]
    assert [reply.status for reply in replies] == [200, 200, 403, 403]
    for reply in replies:
        assert table.code.encode() not in reply.body
    assert table.code in table.api.get(f"/api/tables/{table.id}/qr.svg", table.host).body.decode()


async def test_a_viewer_follows_live_and_sees_no_devices(server: ServerProcess) -> None:
    table = Table.create(server, start=TWO)
    viewer = joined(table, None, role="viewer")["token"]
    async with phones(table.phone(viewer), table.phone()) as (room, host):
        first = json.loads(bytes((await room.open()).view))
        assert first["devices"] is None and first["sheet"]["players"] == ["Ann", "Bob"]
        assert table.code not in json.dumps(first)
        await host.open()
        assert [d["role"] for d in json.loads(host.view)["devices"]] == ["viewer"]
        await host.command("h", points(5, 0))
        await room.until_seq((await host.answer("h")).seq)
        assert table.code.encode() not in room.view


# --- seats belong to devices --------------------------------------------------------------


def test_the_join_form_lists_the_seats_by_name_and_which_are_taken(server: ServerProcess) -> None:
    table = Table.create(server, start=TWO)
    joined(table, 1)
    reply = Api(server.url, new_address()).post("/api/seats", {"code": table.code.lower()})
    assert reply.json() == {
        "mode": "classic",
        "seats": [
            {"seat": 0, "name": "Ann", "taken": False},
            {"seat": 1, "name": "Bob", "taken": True},
        ],
    }
    for seat in (2, 3, -1, None):  # seats beyond the players do not exist
        refused = Api(server.url, new_address()).post(
            "/api/join", {"code": table.code, "role": "player", "seat": seat}
        )
        assert (refused.status, refused.json()["code"]) == (400, "no_such_seat")


async def test_a_second_phone_for_a_taken_seat_waits_until_the_host_lets_it_in(
    server: ServerProcess,
) -> None:
    table = Table.create(server, start=TWO)
    first = joined(table, 1, key="bob-phone-1-key-0123")
    second = joined(table, 1, key="bob-phone-2-key-0123")
    assert (first["admitted"], second["admitted"]) == (True, False)
    async with phones(table.phone(second["token"]), table.phone()) as (waiting, host):
        assert json.loads(bytes((await waiting.open()).view)) == {
            "seq": 3, "sheet": None, "warnings": [], "writers": "own_seat",
            "devices": None, "waiting": True, "host_seat": None,
        }  # fmt: skip
        refused = table.command("w", {"type": "pass", "turn": turn(1)}, second["token"])
        assert (refused.status, refused.json()["code"]) == (403, "not_admitted")
        await host.open()
        asking = [d for d in json.loads(host.view)["devices"] if not d["admitted"]]
        assert [(d["id"], d["seat"]) for d in asking] == [(second["device"], 1)]
        await host.command("admit", {"type": "admit_device", "device": second["device"]})
        await waiting.until_seq((await host.answer("admit")).seq)
        assert json.loads(waiting.view)["sheet"]["players"] == ["Ann", "Bob"]


def test_the_same_phone_comes_back_to_its_taken_seat_at_once(server: ServerProcess) -> None:
    table = Table.create(server, start=TWO)
    before = joined(table, 0, key="anns-phone-key-0123456")
    again = joined(table, 0, key="anns-phone-key-0123456")
    assert again["admitted"] is True
    old = table.api.view(table.id, before["token"])
    assert (old.status, old.json()["code"]) == (401, "device_removed")


async def test_a_removed_device_is_refused_on_every_process(
    pair: tuple[ServerProcess, ...],
) -> None:
    a, b = pair
    table = Table.create(a, start=TWO)
    bob = joined(table.on(b), 1)
    devices = table.api.get(f"/api/tables/{table.id}/devices", table.host).json()
    assert [(d["id"], d["seat"], d["admitted"]) for d in devices] == [(bob["device"], 1, True)]
    assert devices[0]["since"] > 0
    async with phones(Phone(b.ws_url, table.id, bob["token"])) as (phone,):
        await phone.open()
        removed = table.command("rm", {"type": "remove_device", "device": bob["device"]})
        assert removed.status == 200
        told = await phone.receive()
        while told.type in ("state", "change"):
            told = await phone.receive()
        assert (told.type, told.code) == ("rejected", "device_removed")
        with pytest.raises(Exception) as closed:
            await phone.receive()
        assert getattr(closed.value, "rcvd", None) is not None
        assert closed.value.rcvd.code == 1008  # type: ignore[attr-defined]
    for process in (a, b):
        reply = table.on(process).api.command(
            table.id, bob["token"], "after", {"type": "pass", "turn": turn(1)}
        )
        assert (reply.status, reply.json()["code"]) == (401, "device_removed")
        async with phones(Phone(process.ws_url, table.id, bob["token"])) as (again,):
            assert (await again.open()).code == "device_removed"


def test_only_the_host_sees_the_devices(server: ServerProcess) -> None:
    table = Table.create(server, start=TWO)
    ann = joined(table, 0)["token"]
    reply = request(server.url, "GET", f"/api/tables/{table.id}/devices", token=ann)
    assert (reply.status, reply.json()["code"]) == (403, "host_only")
    assert json.loads(table.api.view(table.id, ann).body)["devices"] is None
