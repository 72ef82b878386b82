"""Who may do what at a table, over HTTP and the websocket alike.

The host does everything (the director's actions in duplicate); a player seat writes the
sheet; a viewer (a room display) only reads. A token opens its own table and no other; join
codes are short, so join attempts are limited per client address.
"""

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.serving import Api, ServerProcess, Table, new_address, phones, points, request

DUPLICATE = {"type": "start_game", "edition": "nl", "mode": "duplicate", "players": ["A", "B"]}
PLANK = {"start": "H8", "direction": "across", "letters": "PLANK"}

#: One of every command a phone can send.
EVERY_COMMAND: list[dict[str, Any]] = [
    {"type": "start_game", "edition": "nl"},
    {"type": "new_game"},
    {"type": "record_move", "board": PLANK},
    points(10),
    {"type": "pass"},
    {"type": "exchange"},
    {"type": "withdraw_word"},
    {"type": "give_penalty", "player": 0, "points": 5},
    {"type": "place_tiles", "board": PLANK},
    {"type": "clear_board"},
    {"type": "undo"},
    {"type": "record_top", "points": 30},
    {"type": "correct_cell", "round": 0, "player": None, "points": 30},
    {"type": "start_clock"},
    {"type": "pause_clock"},
    {"type": "reset_clock", "minutes": 2},
    {"type": "end_game"},
]

#: What only the host, the director, may ask in a duplicate game (with the state it needs).
DIRECTOR_ONLY: list[dict[str, Any]] = [
    {"type": "record_top", "points": 30},
    {"type": "correct_cell", "round": 0, "player": None, "points": 31},
    {"type": "start_clock"},
    {"type": "pause_clock"},
    {"type": "reset_clock", "minutes": 2},
    {"type": "new_game"},
    DUPLICATE,
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One SQLite server for the module; every test makes its own tables."""
    with ServerProcess(tmp_path_factory.mktemp("roles")) as running:
        yield running
    running.assert_no_crash()


def kind(command: dict[str, Any]) -> str:
    return str(command["type"])


@pytest.mark.parametrize("command", EVERY_COMMAND, ids=kind)
def test_a_viewer_cannot_write(server: ServerProcess, command: dict[str, Any]) -> None:
    table = Table.create(server)
    table.command("setup", {"type": "place_tiles", "board": PLANK})  # so most could succeed
    before = table.view()
    reply = table.command("v", command, table.join("viewer"))
    assert reply.status == 403
    assert reply.json()["code"] == "viewer_read_only"
    assert table.view() == before


async def test_a_viewer_reads_live_but_cannot_write_over_the_socket(server: ServerProcess) -> None:
    table = Table.create(server)
    async with phones(table.phone(table.join("viewer")), table.phone()) as (room, host):
        assert (await room.open()).seq == 1
        await host.open()
        await room.command("v1", points(5))
        refused = await room.answer("v1")
        assert (refused.type, refused.code) == ("rejected", "viewer_read_only")
        await host.command("h1", points(5))
        assert (await host.answer("h1")).seq == 2
        await room.until_seq(2)  # the room display follows the sheet
        await room.send({"type": "preview", "id": "p", "move": {"board": PLANK}})
        assert (await room.answer("p")).score["total"] == 28  # reading a score is no write


@pytest.mark.parametrize("command", DIRECTOR_ONLY, ids=kind)
def test_only_the_director_may_run_a_duplicate_round(
    server: ServerProcess, command: dict[str, Any]
) -> None:
    table = Table.create(server, start=DUPLICATE)
    table.command("clock", {"type": "start_clock"})
    seat = table.join("player", 0)
    refused = table.command("p", command, seat)
    assert (refused.status, refused.json()["code"]) == (403, "host_only")
    assert refused.json()["id"] == "p"
    assert table.seq == 2
    if kind(command) == "start_clock":
        table.command("pause", {"type": "pause_clock"})
    accepted = table.command("h", command)  # the host may
    assert accepted.status == 200, accepted.json()


def test_a_player_seat_writes_the_sheet(server: ServerProcess) -> None:
    table = Table.create(server, start=DUPLICATE)
    seat = table.join("player", 1)
    for n, command in enumerate([
        points(12, player=1),
        {"type": "record_move", "board": PLANK, "player": 0},
        {"type": "correct_cell", "round": 0, "player": 1, "points": 14},  # a player's own cell
        {"type": "give_penalty", "player": 1, "points": 2},
        {"type": "undo"},
    ]):  # fmt: skip
        reply = table.command(f"s{n}", command, seat)
        assert reply.status == 200, reply.json()
    assert table.seq == 6


async def test_a_non_director_top_is_refused_over_the_socket(server: ServerProcess) -> None:
    table = Table.create(server, start=DUPLICATE)
    async with phones(table.phone(table.join("player", 0)), table.phone()) as (seat, host):
        await seat.open()
        await host.open()
        await seat.command("top", {"type": "record_top", "board": PLANK})
        refused = await seat.answer("top")
        assert (refused.type, refused.code) == ("rejected", "host_only")
        await host.command("top", {"type": "record_top", "board": PLANK})
        assert (await host.answer("top")).type == "accepted"
        await seat.until_seq(2)


async def test_a_token_opens_its_own_table_only(server: ServerProcess) -> None:
    mine, other = Table.create(server), Table.create(server)
    tokens = [mine.host, mine.join("player", 0), mine.join("viewer")]
    api = server.api()
    for token in tokens:
        assert api.view(mine.id, token).status == 200
        reply = api.view(other.id, token)
        assert (reply.status, reply.json()["code"]) == (401, "bad_token")
        reply = api.command(other.id, token, "x", points(1))
        assert (reply.status, reply.json()["code"]) == (401, "bad_token")
        async with phones(other.phone(token)) as (phone,):
            refused = await phone.open()
            assert (refused.type, refused.code) == ("rejected", "bad_token")
    assert other.seq == 1


@pytest.mark.parametrize(
    "token", ["", "host", "Bearer", "x" * 32, "' OR 1=1 --", "é", "a" * 10_000]
)
def test_a_made_up_token_opens_nothing(server: ServerProcess, token: str) -> None:
    table = Table.create(server)
    reply = table.api.command(table.id, token, "x", points(1))
    assert (reply.status, reply.json()["code"]) == (401, "bad_token")
    reply = table.api.view(table.id, token)
    assert (reply.status, reply.json()["code"]) == (401, "bad_token")
    assert table.seq == 1


def test_join_attempts_are_limited_per_client_address(server: ServerProcess) -> None:
    table = Table.create(server)
    guesser = Api(server.url, new_address())
    for n in range(20):
        reply = guesser.post("/api/join", {"code": f"ZZZZ{n:02}", "role": "viewer"})
        assert (reply.status, reply.json()["code"]) == (404, "unknown_code")
    for n in range(3):  # a header naming another client changes nothing: it is not a proxy
        spoofed = request(
            server.url,
            "POST",
            "/api/join",
            {"code": table.code, "role": "viewer"},
            source=guesser.source,
            headers={"x-forwarded-for": f"10.0.0.{n}"},
        )
        assert (spoofed.status, spoofed.json()["code"]) == (429, "rate_limited")
    refused = guesser.post("/api/join", {"code": table.code, "role": "viewer"})
    assert (refused.status, refused.json()["code"]) == (429, "rate_limited")  # even the right code
    elsewhere = Api(server.url, new_address())
    assert elsewhere.join(table.code, "viewer")["table"] == table.id  # another address may


def test_a_player_takes_a_seat_from_0_to_3(server: ServerProcess) -> None:
    table = Table.create(server)
    api = Api(server.url, new_address())
    for seat in (None, -1, 4):
        reply = api.post("/api/join", {"code": table.code, "role": "player", "seat": seat})
        assert (reply.status, reply.json()["code"]) == (400, "bad_seat")
    reply = api.post("/api/join", {"code": table.code, "role": "host"})
    assert (reply.status, reply.json()["code"]) == (400, "bad_message")  # nobody joins as host
