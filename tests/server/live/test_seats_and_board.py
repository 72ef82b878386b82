"""Seats and the shared board between a real server process and real clients (issue 27): the
host's own seat is listed as taken and joined only with the host's approval; a phone's
model comes from its user agent and its name from itself; tiles without a score laid off
the turn are refused ``not_your_board`` over the websocket, and a laying on the turn reaches
every phone with who laid it."""

import json
from collections.abc import Iterator

import pytest

from tests.server.serving import (
    START,
    Api,
    ServerProcess,
    Table,
    device_key,
    new_address,
    phones,
    request,
    turn,
)

PIXEL = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Mobile Safari/537.36"
)
KAT = {"type": "place_tiles", "board": {"start": "H8", "direction": "across", "letters": "KAT"}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("seats")) as running:
        yield running
    running.assert_no_crash()


def join_as(table: Table, seat: int, agent: str = "") -> dict[str, object]:
    """A new phone's place at ``seat``, its user agent ``agent``."""
    body = {"code": table.code, "role": "player", "seat": seat, "device": device_key()}
    headers = {"user-agent": agent} if agent else None
    reply = request(table.api.url, "POST", "/api/join", body, source=new_address(),
                    headers=headers)  # fmt: skip
    assert reply.status == 200, reply
    return dict(reply.json())


def test_the_host_seat_is_listed_taken_and_joined_only_with_approval(
    server: ServerProcess,
) -> None:
    table = Table.create(server, start={**START, "host_seat": 0})
    seats = Api(server.url, new_address()).post("/api/seats", {"code": table.code}).json()
    assert [(s["name"], s["taken"], s.get("host", False)) for s in seats["seats"]] == [
        ("Ann", True, True),
        ("Bob", False, False),
        ("Cas", False, False),
        ("Dirk", False, False),
    ]
    asked = join_as(table, 0, PIXEL)
    assert asked["admitted"] is False
    assert join_as(table, 1)["admitted"] is True
    listed = table.api.get(f"/api/tables/{table.id}/devices", table.host).json()
    assert [(d["seat"], d["admitted"], d["model"], d["label"]) for d in listed] == [
        (0, False, "Pixel 7 · Chrome", ""),
        (1, True, "", ""),
    ]
    assert json.loads(table.view())["host_seat"] == 0
    # The waiting phone may ask nothing, not even to name itself.
    refused = table.command("name", {"type": "label_device", "label": "Ann 2"}, str(asked["token"]))
    assert refused.json()["code"] == "not_admitted"
    admitted = table.command("admit", {"type": "admit_device", "device": asked["device"]})
    assert admitted.status == 200
    named = table.command("name", {"type": "label_device", "label": "Ann 2"}, str(asked["token"]))
    assert named.status == 200, named
    listed = table.api.get(f"/api/tables/{table.id}/devices", table.host).json()
    assert (listed[0]["model"], listed[0]["label"]) == ("Pixel 7 · Chrome", "Ann 2")


async def test_tiles_laid_off_the_turn_are_refused_over_the_websocket(
    server: ServerProcess,
) -> None:
    table = Table.create(server)
    ann, bob = table.join("player", 0), table.join("player", 1)
    async with phones(table.phone(), table.phone(ann), table.phone(bob)) as (host, first, second):
        for phone in (host, first, second):
            await phone.open()
        before = table.seq
        await second.command("bob-lays", KAT)  # Ann's turn
        refused = await second.answer("bob-lays")
        assert (refused.type, refused.code, refused.params) == (
            "rejected",
            "not_your_board",
            {"to_move": 0},
        )
        await second.command("bob-clears", {"type": "clear_board"})
        assert (await second.answer("bob-clears")).code == "not_your_board"
        assert table.seq == before  # nothing recorded

        await first.command("ann-lays", KAT)
        accepted = await first.answer("ann-lays")
        assert accepted.type == "accepted"
        for phone in (host, first, second):
            await phone.until_seq(accepted.seq)
            sheet = json.loads(phone.view)["sheet"]
            assert sheet["laid"] == [{"player": 0, "squares": ["H8", "H9", "H10"]}]

        # Ann's turn recorded, the board is Bob's: now he may clear it, and she may not.
        await first.command("ann-pass", {"type": "pass", "turn": turn(0)})
        assert (await first.answer("ann-pass")).type == "accepted"
        await first.command("ann-clears", {"type": "clear_board"})
        assert (await first.answer("ann-clears")).params == {"to_move": 1}
        await second.command("bob-clears-now", {"type": "clear_board"})
        cleared = await second.answer("bob-clears-now")
        assert cleared.type == "accepted"
        await host.until_seq(cleared.seq)
        assert json.loads(host.view)["sheet"]["laid"] == []
