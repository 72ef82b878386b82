"""The duplicate game sheet over HTTP (issue 25, item 7): who may download the record and
the result list, and when — no slip before its round closes, nothing of the open round, the
players' copy once the game has ended — and the import that starts a training table from a
record, whose close finds the recorded top again."""

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.serving import DUPLICATE, START, ServerProcess, Table, turn

ROOM = {**DUPLICATE, "players": ["Ann", "Bob"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("records")) as running:
        yield running
    running.assert_no_crash()


def accepted(table: Table, name: str, command: dict[str, Any], token: str | None = None) -> None:
    reply = table.command(name, command, token)
    assert reply.status == 200, reply


class Room:
    """A room of two at a real server: the director (host), Ann's phone, a display."""

    def __init__(self, server: ServerProcess) -> None:
        self.table = Table.create(server, start=ROOM)
        self.ann = self.table.join("player", 0)
        self.display = self.table.join("viewer")

    def get(self, what: str, token: str | None = None):
        return self.table.api.get(f"/api/tables/{self.table.id}/{what}", token or self.table.host)

    def first_round(self) -> None:
        accepted(self.table, "r0", {"type": "set_rack", "rack": "PLANKES", "round": 0})
        slip = {"type": "submit_slip", "word": "PLANK", "start": "H4", "direction": "across",
                "turn": turn(0)}  # fmt: skip
        accepted(self.table, "s0", slip, self.ann)

    def close(self, index: int) -> None:
        accepted(self.table, f"c{index}", {"type": "close_round", "round": index})


def test_a_slip_is_in_no_record_before_its_round_closes(server: ServerProcess) -> None:
    room = Room(server)
    room.first_round()
    host = room.get("record.json")
    assert host.status == 200 and host.content_type.startswith("application/json")
    assert json.loads(host.body)["rounds"] == []
    assert b"PLANK" not in host.body  # neither the open round's rack nor Ann's slip
    for token in (room.ann, room.display):
        for what in ("record.json", "record.csv"):
            refused = room.get(what, token)
            assert (refused.status, refused.json()["code"]) == (403, "record_not_yet")


def test_the_director_has_every_closed_round_the_players_once_the_game_ended(
    server: ServerProcess,
) -> None:
    room = Room(server)
    room.first_round()
    room.close(0)
    sheet = json.loads(room.get("record.json").body)
    (first,) = sheet["rounds"]
    assert first["rack"] == "PLANKES" and first["top"]["computed"]
    assert first["top"]["points"] >= 28  # PLANK laid anywhere scores 28 at least
    assert [(s["player"], s["kind"], s["word"]) for s in first["slips"]] == [
        (0, "valid", "PLANK"), (1, "missing", "")]  # fmt: skip
    assert room.get("record.json", room.ann).status == 403  # the game goes on
    accepted(room.table, "end", {"type": "end_game"})
    for token in (room.table.host, room.ann, room.display):
        reply = room.get("record.json", token)
        assert reply.status == 200
        ended = json.loads(reply.body)
        assert ended["rounds"] == sheet["rounds"] and ended["ended"]
    listed = room.get("record.csv", room.ann)
    assert listed.status == 200 and listed.content_type.startswith("text/csv")
    rows = list(csv.reader(io.StringIO(listed.body.decode())))
    assert rows[0] == ["rank", "name", "R1", "solos", "penalties", "total", "difference",
                       "percentage"]  # fmt: skip
    assert [row[1] for row in rows[2:]] == ["Ann", "Bob"]


def test_a_classic_game_has_no_game_sheet(server: ServerProcess) -> None:
    table = Table.create(server, start=START)
    refused = table.api.get(f"/api/tables/{table.id}/record.json", table.host)
    assert (refused.status, refused.json()["code"]) == (400, "not_in_mode")


def test_the_record_needs_a_token_of_that_table(server: ServerProcess) -> None:
    room, other = Room(server), Room(server)
    assert room.get("record.json", other.table.host).status == 401


def test_an_imported_record_replays_as_training_to_the_recorded_top(
    server: ServerProcess,
) -> None:
    room = Room(server)
    room.first_round()
    room.close(0)
    recorded = json.loads(room.get("record.json").body)
    made = server.api().post("/api/training?name=Solo", recorded)
    assert made.status == 201, made
    training = made.json()
    assert training["racks"] == ["PLANKES"]
    assert training["tops"] == [recorded["rounds"][0]["top"]["points"]]
    joined = training["joined"]
    practice = Table(server, server.api(), joined["table"], joined["token"], joined["code"])
    sheet = json.loads(practice.view())["sheet"]
    assert sheet["players"] == ["Solo"] and sheet["mode"] == "duplicate"
    accepted(practice, "c0", {"type": "close_round", "round": 0})
    again = json.loads(practice.api.get(f"/api/tables/{practice.id}/record.json",
                                        practice.host).body)  # fmt: skip
    assert again["rounds"][0]["top"] == recorded["rounds"][0]["top"]


@pytest.mark.parametrize("body", [b"{}", b"not json", b'{"format": "tilestream-duplicate-1"}'])
def test_an_import_of_what_is_not_a_record_is_refused(server: ServerProcess, body: bytes) -> None:
    refused = server.api().post("/api/training", body)
    assert (refused.status, refused.json()["code"]) == (400, "bad_record")


def test_a_new_game_keeps_the_sheet_of_the_one_before_for_everybody(
    server: ServerProcess,
) -> None:
    room = Room(server)
    room.first_round()
    room.close(0)
    before = json.loads(room.get("record.json").body)
    sheet = json.loads(room.table.view())["sheet"]
    accepted(room.table, "new", {"type": "new_game", "game": sheet["started"]})
    assert json.loads(room.get("record.json").body)["rounds"] == []  # the new game's
    for token in (room.table.host, room.ann, room.display):
        kept = room.get("record.json?game=previous", token)
        assert kept.status == 200, kept
        assert json.loads(kept.body)["rounds"] == before["rounds"]
        assert json.loads(kept.body)["ended"]  # a new game ended it


def test_a_table_of_one_game_has_no_previous_sheet(server: ServerProcess) -> None:
    room = Room(server)
    refused = room.get("record.json?game=previous")
    assert (refused.status, refused.json()["code"]) == (400, "no_game")
