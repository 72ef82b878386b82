"""A room's director, replaceable: a co-director with every act of the director's, and a
recovery code with which any phone takes the director's place, the old phone let go — over
HTTP against a real server process. (Two processes sharing Redis, with 200 phones, are
``tests/server/test_room_of_200.py``'s.)"""

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.serving import Api, ServerProcess, Table, new_address

ROOM = {"type": "start_game", "edition": "nl", "mode": "duplicate", "players": []}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("directors")) as running:
        yield running
    running.assert_no_crash()


def phone(table: Table) -> Api:
    """A phone of its own address: joins and guesses are counted per address."""
    return Api(table.api.url, new_address())


def register(table: Table, name: str, key: str = "") -> Any:
    body = {"code": table.code, "role": "player", "name": name, "device": key or name * 3}
    return phone(table).post("/api/join", body)


def recovery(table: Table, token: str) -> Any:
    return table.api.post(f"/api/tables/{table.id}/recovery", None, token)


def recover(table: Table, code: str, api: Api | None = None) -> Any:
    return (api or phone(table)).post("/api/recover", {"code": table.code, "recovery": code})


def refusal(reply: Any) -> tuple[int, str]:
    return reply.status, reply.json()["code"]


def test_players_register_by_name_and_the_refusals_say_why(server: ServerProcess) -> None:
    table = Table.create(server, start=ROOM)
    anna = register(table, "Anna", key="anna-phone-key")
    assert (anna.status, anna.json()["seat"]) == (200, 0)
    assert refusal(register(table, " ANNA ", key="other-phone-key")) == (409, "name_taken")
    assert refusal(register(table, "   ")) == (400, "name_missing")
    again = register(table, "anything", key="anna-phone-key")  # the same phone: its seat
    assert (again.status, again.json()["seat"]) == (200, 0)
    table.command("close", {"type": "set_entries", "until": 0})
    assert refusal(register(table, "Bas")) == (409, "entries_closed")
    classic = Table.create(server)
    assert refusal(register(classic, "Bas")) == (409, "no_registration")


def test_a_co_director_does_what_the_director_does_until_taken_away(server: ServerProcess) -> None:
    table = Table.create(server, start=ROOM)
    joined = phone(table).post("/api/join", {"code": table.code, "role": "viewer", "device": ""})
    co, device = joined.json()["token"], joined.json()["device"]
    early = table.command("early", {"type": "add_player", "name": "Bas"}, co)
    assert refusal(early) == (403, "viewer_read_only")
    assert table.command("appoint", {"type": "appoint_director", "device": device}).status == 200
    assert table.command("add", {"type": "add_player", "name": "Bas"}, co).status == 200
    assert table.command("draw", {"type": "draw_rack", "round": 0}, co).status == 200
    seen = json.loads(table.view(co))
    assert seen["devices"] is not None and seen["sheet"]["players"] == ["Bas"]
    assert recovery(table, co).status == 201  # every act of the director's
    table.command("away", {"type": "remove_device", "device": device})
    late = table.command("late", {"type": "add_player", "name": "Cas"}, co)
    assert refusal(late) == (401, "device_removed")


def test_the_recovery_code_makes_a_new_director_once_and_lets_the_old_phone_go(
    server: ServerProcess,
) -> None:
    table = Table.create(server, start=ROOM)
    first = recovery(table, table.host).json()["recovery"]
    code = recovery(table, table.host).json()["recovery"]  # a new one replaces the first
    assert refusal(recover(table, first)) == (403, "bad_recovery")
    assert refusal(recover(table, "AAAA-BBBB-CCCC")) == (403, "bad_recovery")
    taken = recover(table, f" {code.lower().replace('-', ' ')} ")  # as read off paper
    assert taken.status == 201 and taken.json()["role"] == "host"
    director = taken.json()["token"]
    assert refusal(table.api.view(table.id, table.host)) == (401, "director_replaced")
    assert table.command("add", {"type": "add_player", "name": "Anna"}, director).status == 200
    assert refusal(recover(table, code)) == (403, "bad_recovery")  # used up
    assert recovery(table, director).status == 201  # the new director keeps one at hand


def test_a_player_asks_for_no_recovery_code(server: ServerProcess) -> None:
    table = Table.create(server, start=ROOM)
    anna = register(table, "Anna").json()["token"]
    assert refusal(recovery(table, anna)) == (403, "host_only")


def test_recovery_codes_are_guessed_no_faster_than_join_codes(server: ServerProcess) -> None:
    table = Table.create(server, start=ROOM)
    guesser = phone(table)
    answers = [refusal(recover(table, "AAAA-BBBB-CCCC", guesser)) for _ in range(21)]
    assert answers[:20] == [(403, "bad_recovery")] * 20  # the server's 20 a minute
    assert answers[20] == (429, "rate_limited")
