"""The HTTP API of a real server process: tables, joins, commands, views, exports, previews.

Every refusal is JSON with a stable code and a 4xx status; nothing here may answer 500.
"""

import base64
import http.client
import json
import string
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import editions
from tests.server.serving import (
    START,
    ServerProcess,
    Table,
    Turns,
    new_address,
    points,
    request,
    same_table,
    turn,
)

CODE_ALPHABET = set("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One SQLite server for the module; every test makes its own tables."""
    with ServerProcess(tmp_path_factory.mktemp("http")) as running:
        yield running
    running.assert_no_crash()


@pytest.fixture
def table(server: ServerProcess) -> Table:
    """A table with a classic game of four started (seq 1)."""
    return Table.create(server)


def bits(token: str) -> int:
    """How many random bits a ``secrets.token_urlsafe`` string carries."""
    return len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8


def test_health_answers_and_names_the_store(server: ServerProcess) -> None:
    reply = server.api().get("/health")
    assert reply.status == 200
    assert reply.json() == {"status": "ok", "store": "sqlite"}  # and no path of the server's


def test_openapi_describes_every_route(server: ServerProcess) -> None:
    reply = server.api().get("/api/openapi.json")
    assert (reply.status, reply.content_type) == (200, "application/json")
    document = reply.json()
    assert document["openapi"].startswith("3.")
    assert set(document["paths"]) >= {
        "/health",
        "/api/tables",
        "/api/join",
        "/api/score",
        "/api/tables/{table}/view",
        "/api/tables/{table}/commands",
        "/api/tables/{table}/gcg",
        "/api/tables/{table}/qr.svg",
        "/api/seats",
        "/api/tables/{table}/devices",
    }
    assert {"Joined", "Rejected", "TableView", "CommandRequest", "Seats", "DeviceSeen"} <= set(
        document["components"]["schemas"]
    )


def test_a_new_table_has_unguessable_ids_and_tokens_and_a_short_code(
    server: ServerProcess,
) -> None:
    api = server.api()
    made = [api.create_table() for _ in range(5)]
    for table in made:
        assert table["role"] == "host"
        assert bits(table["table"]) >= 128 and bits(table["token"]) >= 128
        assert len(table["code"]) == 6 and set(table["code"]) <= CODE_ALPHABET
    assert len({t["table"] for t in made}) == len({t["token"] for t in made}) == 5
    assert len({t["code"] for t in made}) == 5


def test_join_by_code_as_a_player_seat_or_a_viewer(table: Table) -> None:
    api = table.server.api()
    player = api.join(table.code, "player", 3)
    viewer = api.join(f" {table.code.lower()} ", "viewer")  # read aloud, typed sloppily
    assert (player["table"], player["role"], player["seat"]) == (table.id, "player", 3)
    assert (viewer["table"], viewer["role"], viewer["seat"]) == (table.id, "viewer", None)
    assert player["admitted"] and viewer["admitted"]  # a free seat; a viewer takes none
    assert (player["code"], viewer["code"]) == (table.code, "")  # viewers never get the code
    assert bits(player["token"]) >= 128 and player["token"] != viewer["token"]
    assert player["device"] and viewer["device"] and player["device"] != viewer["device"]
    assert table.seq == 3  # each join is an event of the table's log
    views = [api.view(table.id, token).body for token in (player["token"], viewer["token"])]
    assert views[0] == views[1]  # a player sees what a viewer sees
    same_table(table.view(), views[0])  # and what the host sees, but the devices


def test_a_command_over_http_is_recorded_and_shown(server: ServerProcess) -> None:
    table = Table.create(server, start={**START, "starter": 1})
    seat = table.join("player", 1)  # seq 2
    reply = table.command("m", {"type": "record_move", "turn": turn(1), "board": {
        "start": "H8", "direction": "down", "letters": "PLANK"}}, seat)  # fmt: skip
    assert (reply.status, reply.json()) == (200, {"type": "accepted", "id": "m", "seq": 3})
    sheet = json.loads(table.view())["sheet"]
    assert sheet["totals"] == [0, 28, 0, 0]
    assert [row[7] for row in sheet["board"]][7:12] == list("PLANK")


def test_the_same_command_id_twice_over_http_is_recorded_once(table: Table) -> None:
    first = table.command("retry-1", points(12, turn(0)))
    again = table.command("retry-1", points(12, turn(0)))
    assert first.status == again.status == 200
    assert first.body == again.body  # answered with the same result
    assert table.seq == 2
    assert table.command("retry-2", points(12, turn(1))).json()["seq"] == 3


@pytest.mark.parametrize(
    ("command", "status", "code", "params"),
    [
        (points(2001, turn(0)), 400, "points_out_of_range", {"points": 2001, "max": 2000}),
        (points(5, turn(7)), 400, "no_such_player", {"player": 7}),
        ({"type": "start_game", "edition": "xx"}, 400, "unknown_edition", None),
        ({"type": "clear_board"}, 400, "nothing_to_clear", {}),
        ({"type": "record_top", "points": 5, "round": 0}, 400, "not_in_mode", {"mode": "classic"}),
        ({"type": "pass"}, 400, "reference_missing", {"field": "turn"}),
        ({"type": "undo"}, 400, "reference_missing", {"field": "last_line"}),
        ({"type": "record_top", "points": 5}, 400, "reference_missing", {"field": "round"}),
        ({"type": "new_game"}, 400, "reference_missing", {"field": "game"}),
        ({"type": "end_game", "racks": [[None, None]]}, 400, "rack_count", None),
    ],
)
def test_a_refused_command_answers_its_code_and_records_nothing(
    table: Table, command: dict[str, Any], status: int, code: str, params: dict[str, Any] | None
) -> None:
    reply = table.command("refused", command)
    assert (reply.status, reply.content_type) == (status, "application/json")
    refused = reply.json()
    assert (refused["type"], refused["id"], refused["code"]) == ("rejected", "refused", code)
    if params is not None:
        assert refused["params"] == params
    assert refused["message"]  # English, naming the input, for logs
    assert table.seq == 1


def test_the_view_and_exports_need_a_token_of_that_table(table: Table) -> None:
    other = Table.create(table.server)
    api = table.server.api()
    for path in ("view", "gcg", "qr.svg"):
        for token in (None, "", other.host, table.host + "x"):
            reply = api.get(f"/api/tables/{table.id}/{path}", token)
            assert (reply.status, reply.json()["code"]) == (401, "bad_token"), (path, token)
        reply = api.get(f"/api/tables/not-a-table/{path}", table.host)
        assert (reply.status, reply.json()["code"]) == (401, "bad_token")


def test_gcg_exports_the_game(table: Table) -> None:
    turns = Turns()
    table.command("m1", turns.play("record_move", board={
        "start": "H8", "direction": "across", "letters": "PLANK"}))  # fmt: skip
    table.command("m2", turns.play("pass"))
    reply = table.api.get(f"/api/tables/{table.id}/gcg", table.host)
    assert (reply.status, reply.content_type) == (200, "text/plain; charset=utf-8")
    lines = reply.body.decode().splitlines()
    assert lines[0] == "#character-encoding UTF-8"
    assert lines[1] == "#player1 Ann Ann"
    assert ">Ann: PLANK 8H PLANK +28 28" in lines
    assert ">Bob: UNKNOWN - +0 0" in lines


def test_player_names_are_data_never_markup(server: ServerProcess) -> None:
    names = ["<script>alert(1)</script>", 'Bob" onmouseover="x', "Cas\n#player1 evil", "&amp;"]
    table = Table.create(server, start={**START, "players": names})
    sheet = json.loads(table.view())["sheet"]
    assert sheet["players"] == names  # kept as typed: escaping is the page's job
    gcg = table.api.get(f"/api/tables/{table.id}/gcg", table.host).body.decode()
    assert [line for line in gcg.splitlines() if line.startswith("#player")] == [
        "#player1 <script>alert(1)</script <script>alert(1)</script>",
        '#player2 Bob"_onmouseover="x Bob" onmouseover="x',
        "#player3 Cas_#player1_evil Cas #player1 evil",  # a name cannot add a line
        "#player4 &amp; &amp;",
    ]
    qr = table.api.get(f"/api/tables/{table.id}/qr.svg", table.host).body.decode()
    assert "script" not in qr and "Bob" not in qr  # the QR code carries no names


def test_the_join_qr_code_is_an_svg_with_the_code(table: Table) -> None:
    reply = table.api.get(f"/api/tables/{table.id}/qr.svg", table.host)
    assert (reply.status, reply.content_type) == (200, "image/svg+xml")
    svg = ET.fromstring(reply.body)
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg.findtext("{http://www.w3.org/2000/svg}title") == f"Join code {table.code}"
    assert table.id not in reply.body.decode()  # the link carries the code, not the table


def test_score_is_a_stateless_preview(server: ServerProcess) -> None:
    api = server.api()
    move = {"board": {"start": "H8", "direction": "across", "letters": "PLANK"}}
    reply = api.post("/api/score", {"edition": "nl", "move": move})
    assert reply.status == 200
    preview = reply.json()
    assert preview["type"] == "preview"
    assert preview["score"]["total"] == 28
    assert preview["score"]["words"][0]["formula"] == "(3 + 3 + 1 + 1 + 3 × 2) × 2 = 28"
    rows = ["." * 15] * 7 + ["...PLANK......."] + ["." * 15] * 7
    through = {"board": {"start": "G5", "direction": "down", "letters": "KAN"}}
    reply = api.post("/api/score", {"edition": "nl", "move": through, "rows": rows})
    assert reply.status == 200 and reply.json()["score"]["words"][0]["word"] == "KLAN"
    typed = {"typed": [[["W", "3W"], ["O"], ["O"], ["R"], ["D", "2L"]]]}
    reply = api.post("/api/score", {"edition": "nl", "move": typed})
    assert reply.status == 200 and reply.json()["score"]["total"] == (5 + 1 + 1 + 2 + 4) * 3
    refused = api.post("/api/score", {"edition": "nl", "move": {
        "board": {"start": "A1", "direction": "across", "letters": "PLANK"}}})  # fmt: skip
    assert (refused.status, refused.json()["code"]) == (400, "first_move_off_centre")


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"),
    [
        ("POST", "/api/score", b"{", 400, "bad_message"),
        ("POST", "/api/score", b"[]", 400, "bad_message"),
        ("POST", "/api/score", b'{"edition": "nl"}', 400, "bad_message"),
        ("POST", "/api/score", b'{"edition": "nl", "move": {}, "extra": 1}', 400, "bad_message"),
        ("POST", "/api/score", b'{"edition": 7, "move": {}}', 400, "bad_message"),
        ("POST", "/api/score", b'{"edition": "zz", "move": {}}', 400, "unknown_edition"),
        ("POST", "/api/score", b'{"edition": "nl", "move": {}, "rows": ["."]}', 400, "bad_rows"),
        ("POST", "/api/score", b'{"edition": "nl", "move": {}}', 400, "no_move"),
        ("POST", "/api/score", b"x" * 70_000, 413, "too_large"),
        ("POST", "/api/join", b"", 400, "bad_message"),
        ("POST", "/api/join", b'{"code": "ZZZZZZ"}', 404, "unknown_code"),
        ("POST", "/api/join", b'{"code": 5}', 400, "bad_message"),
        ("POST", "/api/join", b'{"code": "C", "role": "host"}', 400, "bad_message"),
        ("POST", "/api/join", b"\xff\xfe\x00", 400, "bad_message"),
    ],
)
def test_bad_requests_are_refused_with_a_code(
    server: ServerProcess, method: str, path: str, body: bytes, status: int, code: str
) -> None:
    reply = server.api().post(path, body)
    assert (reply.status, reply.json()["code"]) == (status, code)


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"", 400, "bad_message"),
        (b"null", 400, "bad_message"),
        (b'{"id": "x"}', 400, "bad_message"),
        (b'{"id": 1, "command": {"type": "pass"}}', 400, "bad_message"),
        (b'{"id": "x", "command": {"type": "pass", "who": 1}}', 400, "bad_message"),
        (b'{"id": "x", "command": {"type": "launch"}}', 400, "bad_message"),
        (b'{"id": "x", "command": {"type": "enter_points", "points": "5"}}', 400, "bad_message"),
        (b'{"id": "x", "command": {"type": "enter_points", "points": 1e400}}', 400, "bad_message"),
        (b'{"id": "", "command": {"type": "pass"}}', 400, "bad_message"),  # ids make retries safe
        (b'{"id": "x", "command": {"type": "pass"}}' + b" " * 70_000, 413, "too_large"),
    ],
)
def test_bad_command_bodies_are_refused_and_record_nothing(
    table: Table, body: bytes, status: int, code: str
) -> None:
    reply = table.api.post(f"/api/tables/{table.id}/commands", body, table.host)
    assert (reply.status, reply.json()["code"]) == (status, code)
    assert table.seq == 1


def test_a_huge_declared_body_is_refused_without_waiting_for_it(table: Table) -> None:
    # A client that announces a gigabyte and sends a few bytes: the answer comes at once.
    host, port = table.server.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    try:
        connection.putrequest("POST", "/api/score")
        connection.putheader("content-length", str(2**30))
        connection.putheader("content-type", "application/json")
        connection.endheaders(b'{"edition": "nl"')
        response = connection.getresponse()
        assert response.status == 413
        assert json.loads(response.read())["code"] == "too_large"
    finally:
        connection.close()
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    try:  # chunked: no length announced, refused once what arrived is over the limit
        chunks = iter([b'{"edition": "nl", "rows": ["', *[b"." * 10_000] * 10, b'"]}'])
        connection.request("POST", "/api/score", body=chunks, encode_chunked=True)
        response = connection.getresponse()
        assert response.status == 413
        assert json.loads(response.read())["code"] == "too_large"
    finally:
        connection.close()


def test_unknown_paths_and_methods_are_not_errors(server: ServerProcess) -> None:
    api = server.api()
    assert api.get("/api/nothing").status == 404
    assert request(server.url, "PUT", "/api/tables").status == 405
    assert request(server.url, "GET", "/api/join").status in (404, 405)
    assert api.get("/").status == 200  # the phone app


def test_table_ids_are_url_safe(table: Table) -> None:
    # Table ids go into URLs: only URL-safe characters.
    assert set(table.id) <= set(string.ascii_letters + string.digits + "-_")


def test_catalog_lists_every_edition_and_rule_set(server: ServerProcess) -> None:
    reply = server.api().get("/api/catalog")
    assert (reply.status, reply.content_type) == (200, "application/json")
    catalog = reply.json()
    by_code = {edition["code"]: edition for edition in catalog["editions"]}
    assert tuple(by_code) == editions.codes()
    nl = by_code["nl"]
    assert sum(count for _, _, count in nl["letters"]) + nl["blanks"] == 102  # EDN-10
    assert len(nl["board"]) == 15 and nl["board"][7].split()[7] == "2W"  # the centre star
    assert by_code["pl-literaki"]["board"] is None  # typed words only
    # What a blank may stand for, in the order the phone offers it: FIGS art. 8 adds J K W
    # X Y to the Italian faces; the Polish alphabet keeps its own order and no Q V X.
    assert "".join(by_code["it"]["blank_letters"]) == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert "".join(by_code["pl"]["blank_letters"]) == "AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ"
    rules = {r["code"]: r for r in catalog["rules"]}
    assert set(rules) >= {"house", "sbnl", "figs", "pfs-house", "pfs", "duplicate"}
    assert (rules["sbnl"]["max_players"], rules["sbnl"]["penalty"]) == (2, 20)  # SHC-08, P-32


def test_time_is_the_server_clock_in_ms(server: ServerProcess) -> None:
    before = time.time() * 1000
    reply = server.api().get("/api/time")
    after = time.time() * 1000
    assert reply.status == 200
    now = reply.json()["now"]
    assert isinstance(now, int) and before - 1000 <= now <= after + 1000


def test_score_of_a_board_move_answers_the_board_after_it(server: ServerProcess) -> None:
    api = server.api()
    move = {"board": {"start": "H4", "direction": "across", "letters": "PLANK"}}
    reply = api.post("/api/score", {"edition": "nl", "move": move})
    assert reply.status == 200
    assert reply.json()["rows"] == ["." * 15] * 7 + ["...PLANK......."] + ["." * 15] * 7
    typed = {"typed": [[["W"], ["O"], ["O"], ["R"], ["D"]]]}
    reply = api.post("/api/score", {"edition": "nl", "move": typed})
    assert reply.status == 200 and reply.json()["rows"] is None  # typed: no board to show


@pytest.mark.parametrize(("options", "allowed"), [(("--joins-per-minute", "2"), 2), ((), 20)])
def test_joins_per_minute_sets_the_limit_of_guesses_per_address(
    tmp_path: Path, options: tuple[str, ...], allowed: int
) -> None:
    with ServerProcess(tmp_path, options=options) as running:
        table = Table.create(running, start=None)
        phone = running.api(new_address())  # one address for every attempt
        guess = {"code": "000000", "role": "viewer"}  # no code holds a 0
        for _ in range(allowed):
            assert phone.post("/api/join", guess).status == 404
        refused = phone.post("/api/join", guess)
        assert (refused.status, refused.json()["code"]) == (429, "rate_limited")
        other = running.api(new_address()).post("/api/join", {"code": table.code, "role": "viewer"})
        assert other.status == 200  # the limit is per address
    running.assert_no_crash()


def test_openapi_describes_the_catalog_and_the_clock(server: ServerProcess) -> None:
    document = server.api().get("/api/openapi.json").json()
    assert {"/api/catalog", "/api/time"} <= set(document["paths"])
    assert {"Catalog", "ServerTime"} <= set(document["components"]["schemas"])
