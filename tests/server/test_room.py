"""A whole duplicate room over real websockets, on SQLite and on Redis: the director draws
the racks, three players' phones hand in slips, the server finds every top and judges every
slip — a valid one, a word not in the list, a late one, a missing one — and the room display
shows the top, each player's score and the standings.

The round clock runs for a minute at least, so the server runs in the test's process
(uvicorn on a real port, real websockets, the real stores) with a clock the test moves, as
``test_online_clock`` does. Every frame each device received is kept as it came: before a
round closes no frame of any device holds another player's slip.
"""

import asyncio
import functools
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

import editions
import wordlists
from events.events import RackDrawn, SlipSubmitted, TopRecorded
from rules.board.board import Board
from rules.errors import GameError
from rules.movegen.moves import generate
from rules.room import slips, tops
from rules.table import rulesets
from server.stores.protocols import Store
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from tests.server.in_process import Clock, Served, serving
from tests.server.redis_server import RedisServer
from tests.server.serving import Recording, device_key, phones

EDITION = "nl"
NAMES = ["Ann", "Bob", "Cas"]
START = {"type": "start_game", "edition": EDITION, "mode": "duplicate", "players": NAMES}


class RoomTable:
    """A director (the host), three seated phones and a room display at one table."""

    def __init__(self, server: Served, table: str, devices: dict[str, Recording]) -> None:
        self.server = server
        self.table = table
        self.devices = devices
        self.ids = (f"c{n}" for n in itertools.count())

    @classmethod
    async def create(cls, server: Served) -> "RoomTable":
        made = (await server.call("POST", "/api/tables")).json()
        table, host = made["table"], made["token"]
        started = await server.call(
            "POST", f"/api/tables/{table}/commands", {"id": "start", "command": START}, host
        )
        assert started.status == 200, started
        tokens = {"director": host}
        for seat, name in enumerate(NAMES):
            body = {"code": made["code"], "role": "player", "seat": seat, "device": device_key()}
            tokens[name] = (await server.call("POST", "/api/join", body)).json()["token"]
        body = {"code": made["code"], "role": "viewer", "seat": None, "device": device_key()}
        tokens["room"] = (await server.call("POST", "/api/join", body)).json()["token"]
        devices = {n: Recording(n, server.ws_url, table, t) for n, t in tokens.items()}
        return cls(server, table, devices)

    def __getitem__(self, name: str) -> Recording:
        return self.devices[name]

    async def send(self, name: str, command: dict[str, Any]) -> Any:
        """``name``'s command; once accepted, every device holds its view after it (a slip
        sends nothing to the other players' phones: only the seq changed for them)."""
        device = self[name]
        command_id = next(self.ids)
        await device.command(command_id, command)
        answer = await device.answer(command_id)
        if answer.type == "accepted":
            await asyncio.gather(*(
                d.until_current(answer.seq, functools.partial(self.http_view, n))
                for n, d in self.devices.items()
            ))  # fmt: skip
        return answer

    def round(self) -> int:
        return len(self["room"].sheet["rounds"]) - 1

    async def slip(self, name: str, move: dict[str, str]) -> Any:
        sheet = self["room"].sheet
        turn = {"game": sheet["started"], "player": NAMES.index(name), "number": self.round()}
        return await self.send(name, {"type": "submit_slip", **move, "turn": turn})

    async def http_view(self, name: str) -> bytes:
        reply = await self.server.call(
            "GET", f"/api/tables/{self.table}/view", token=self[name].token
        )
        assert reply.status == 200, reply
        return reply.body


@pytest.fixture(params=["sqlite", "redis"])
def room_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Each backend in turn, not started: the server opens and closes it."""
    if request.param == "sqlite":
        yield SqliteStore(tmp_path / "room.db")
        return
    server: RedisServer = request.getfixturevalue("redis_server")
    client = redis.Redis.from_url(server.url)
    client.flushdb()
    client.close()
    yield RedisStore(server.url)


class Lexicon:
    """The edition's list, and what the test asks of it: moves of a rack on a board."""

    def __init__(self) -> None:
        self.edition = editions.get(EDITION)
        self.list = wordlists.get(self.edition.language)

    def moves(self, sheet: dict[str, Any]) -> list[dict[str, Any]]:
        """Every move of the open round's rack, best first, as a slip and its score."""
        board = Board.from_rows(self.edition, sheet["board"])
        rack = "".join(sheet["rounds"][-1]["rack"])
        found = generate(board, rack, self.list.graph)
        return [
            {"word": m.word, "start": m.start.name, "direction": str(m.direction), "score": m.score}
            for m in found
        ]

    def top(self, sheet: dict[str, Any]) -> str:
        """The word of the top a close plays (the FISF rule set's choice among equal ones)."""
        board = Board.from_rows(self.edition, sheet["board"])
        rack = "".join(sheet["rounds"][-1]["rack"])
        move = tops.top(board, rack, self.list.graph, rulesets.get("duplicate").room.top_preference)
        assert move is not None
        return move.word

    def nonsense(self, sheet: dict[str, Any]) -> dict[str, str]:
        """A slip that lies on the board from the rack but whose word is no word: a valid
        move's word with two of its new letters swapped."""
        board = Board.from_rows(self.edition, sheet["board"])
        for move in self.moves(sheet):
            word = move["word"]
            for i in range(len(word) - 1):
                swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
                if swapped == word or not word.isalpha() or self.list.contains(swapped):
                    continue
                try:
                    rack = tuple(sheet["rounds"][-1]["rack"])
                    slips.lay(board, rack, swapped, move["start"], move["direction"])
                except GameError:
                    continue
                return {"word": swapped, "start": move["start"], "direction": move["direction"]}
        raise AssertionError("no nonsense slip found")


def slip_of(move: dict[str, Any]) -> dict[str, str]:
    return {k: move[k] for k in ("word", "start", "direction")}


def private_words(
    device: Recording, words: dict[str, set[str]], since: int, upto: int
) -> list[str]:
    """The other players' slip words ``device`` received in a frame of a seq from ``since``
    (the round's draw) to before ``upto`` (its close); its own slip is the only one it is
    shown. A word on the sheet already at the draw (an earlier round's) proves nothing."""
    leaked = []
    frames = [(json.loads(f), f) for f in device.frames]
    drawn = [view.decode() for seq, view in device.states if seq == since]  # the whole view
    public = {w for theirs in words.values() for w in theirs if any(f'"{w}"' in f for f in drawn)}
    for message, frame in frames:
        if message["type"] not in ("state", "change") or not since <= message["seq"] < upto:
            continue
        for owner, theirs in words.items():
            for word in theirs - public:
                if owner != device.name and f'"{word}"' in frame:
                    at = frame.index(f'"{word}"')
                    leaked.append(f"{owner}:{word}@{message['seq']} {frame[at - 150 : at + 50]}")
    for seq, view in device.states:
        if not since <= seq < upto:
            continue
        room = (json.loads(view)["sheet"] or {}).get("room") or {}
        if room.get("mine") is not None:
            assert room["mine"]["word"] in words.get(device.name, ()), device.name
    return leaked


async def test_a_duplicate_room_of_three_phones_to_the_standings(room_store: Store) -> None:
    clock = Clock()
    lexicon = Lexicon()
    async with serving(room_store, clock) as server:
        room = await RoomTable.create(server)
        async with phones(*room.devices.values()):
            for device in room.devices.values():
                await device.open()
            display = room["room"]
            assert display.sheet["room"]["slips"] == [] and display.sheet["rounds"][0]["rack"] == []

            # Round 1: a drawn rack; Ann hands in the top, Bob a word not in the list, Cas
            # after the clock ran out.
            drawn = await room.send("director", {"type": "draw_rack", "round": 0})
            assert drawn.type == "accepted", drawn
            rack = display.sheet["rounds"][0]["rack"]
            assert len(rack) == 7 and all(d.sheet["rounds"][0]["rack"] == rack
                                          for d in room.devices.values())  # fmt: skip
            moves = lexicon.moves(display.sheet)
            before = display.sheet
            top = moves[0]
            other = next(m for m in moves if m["score"] < top["score"] and m["word"] != top["word"])
            bad = lexicon.nonsense(display.sheet)
            assert (await room.send("director", {"type": "start_clock"})).type == "accepted"
            assert (await room.slip("Ann", slip_of(other))).type == "accepted"
            assert (await room.slip("Ann", slip_of(top))).type == "accepted"  # replaces it
            assert (await room.slip("Bob", bad)).type == "accepted"
            assert display.sheet["room"]["slips"] == [0, 1]
            assert room["Ann"].sheet["room"]["mine"]["word"] == top["word"]
            assert room["Bob"].sheet["room"]["mine"]["word"] == bad["word"]
            assert room["Cas"].sheet["room"]["mine"] is None
            preview = {"type": "preview", "id": "p", "move": {"board": {
                "start": top["start"], "direction": top["direction"], "letters": "A"}},
                "check": True}  # fmt: skip
            await room["Bob"].send(preview)
            asked = await room["Bob"].answer("p")
            assert (asked.type, asked.code) == ("rejected", "no_word_check")  # not before close
            clock.advance(181)  # the round's three minutes are over
            taken = {top["word"], other["word"], bad["word"]}  # each word one player's
            late = next(m for m in moves[1:] if m["word"] not in taken)
            assert (await room.slip("Cas", slip_of(late))).type == "accepted"
            assert room["Cas"].sheet["room"]["mine"]["late"] is True
            refused = await room.slip("Ann", slip_of(other))  # an on-time slip stands
            assert (refused.type, refused.code) == ("rejected", "time_up")
            words = {
                "Ann": {other["word"], top["word"]},
                "Bob": {bad["word"]},
                "Cas": {late["word"]},
            }
            refused = await room.send("Ann", {"type": "close_round", "round": 0})
            assert (refused.type, refused.code) == ("rejected", "host_only")

            closed = await room.send("director", {"type": "close_round", "round": 0})
            assert closed.type == "accepted", closed
            for device in room.devices.values():
                assert private_words(device, words, drawn.seq, closed.seq) == [], device.name
            played = display.sheet["rounds"][0]
            assert played["top"] == top["score"] and played["computed"]
            assert played["top_words"][0][0] == lexicon.top(before)  # the rule set's tie-break
            assert [(r["kind"], r["points"]) for r in played["results"]] == [
                ("valid", top["score"]), ("invalid", 0), ("late", 0)]  # fmt: skip
            assert played["results"][1]["bad"] == bad["word"]
            assert played["scores"] == [top["score"], 0, 0]

            # Round 2: Cas finds the top, Ann a lesser move, Bob hands in nothing.
            assert (await room.send("director", {"type": "reset_clock", "minutes": 3})).type == (
                "accepted"
            )
            drawn = await room.send("director", {"type": "draw_rack", "round": 1})
            moves = lexicon.moves(display.sheet)
            best = moves[0]
            lesser = next(
                m for m in moves if m["score"] < best["score"] and m["word"] != best["word"]
            )
            await room.send("director", {"type": "start_clock"})
            assert (await room.slip("Cas", slip_of(best))).type == "accepted"
            assert (await room.slip("Ann", slip_of(lesser))).type == "accepted"
            words = {"Ann": {lesser["word"]}, "Cas": {best["word"]}}
            closed = await room.send("director", {"type": "close_round", "round": 1})
            assert closed.type == "accepted", closed
            for device in room.devices.values():
                assert private_words(device, words, drawn.seq, closed.seq) == [], device.name
            second = display.sheet["rounds"][1]
            assert second["top"] == best["score"]
            assert [(r["kind"], r["points"]) for r in second["results"]] == [
                ("valid", lesser["score"]), ("missing", 0), ("valid", best["score"])]  # fmt: skip

            # The room display's standings: totals, and the difference from the tops.
            tops = top["score"] + best["score"]
            sheet = display.sheet
            assert sheet["tops"] == tops
            expected = [top["score"] + lesser["score"], 0, best["score"]]
            assert [s["total"] for s in sheet["standings"]] == expected
            assert [s["difference"] for s in sheet["standings"]] == [t - tops for t in expected]
            for name, device in room.devices.items():  # HTTP says what the socket said
                assert await room.http_view(name) == device.view, name
        log = await room_store.read(room.table)
    kinds = [type(r.event) for r in log]
    assert kinds.count(RackDrawn) == 2 and kinds.count(TopRecorded) == 2
    assert kinds.count(SlipSubmitted) == 6
    assert [r.event.late for r in log if isinstance(r.event, SlipSubmitted)] == [
        False, False, False, True, False, False]  # fmt: skip


async def test_a_players_phone_in_a_room_writes_nothing_but_its_slip(room_store: Store) -> None:
    """The hostile-phone probe, over real websockets: every write of a cell, a top or a
    line from a player's phone is refused with its code, and the log stays as it was."""
    async with serving(room_store, Clock()) as server:
        room = await RoomTable.create(server)
        async with phones(*room.devices.values()):
            for device in room.devices.values():
                await device.open()
            assert (await room.send("director", {"type": "draw_rack", "round": 0})).type == (
                "accepted"
            )
            sheet = room["Ann"].sheet
            own = {"game": sheet["started"], "player": 0, "number": 0}
            tries = [
                ({"type": "enter_points", "points": 2000, "turn": own}, "slip_only"),
                (
                    {
                        "type": "record_move",
                        "typed": [[["Z", "3W"]] * 3],
                        "turn": own,
                    },
                    "slip_only",
                ),
                ({"type": "correct_cell", "round": 0, "player": 1, "points": 2000}, "slip_only"),
                ({"type": "correct_cell", "round": 0, "player": 0, "points": 2000}, "slip_only"),
                ({"type": "record_top", "points": 30, "round": 0}, "host_only"),
                ({"type": "close_round", "round": 0}, "host_only"),
                ({"type": "undo", "last_line": 0}, "slip_only"),
                ({"type": "give_penalty", "player": 1, "points": -10, "last_line": 0}, "host_only"),
            ]
            before = await room_store.read(room.table)
            for name in ("Ann", "Bob"):
                for command, code in tries:
                    answer = await room.send(name, command)
                    assert (answer.type, answer.code) == ("rejected", code), (name, command)
            assert await room_store.read(room.table) == before
