"""A room of 200 players over real websockets, on SQLite and on two servers sharing one Redis:
200 phones register by name, a drawn rack, 200 slips (valid, not in the list, late, missing,
one typed by the director from paper), the director's phone gone mid-round and replaced by
the recovery code on the other server, which closes the round; every phone's own result and
place; a correction that moves the solo; a player taken out; the record imported again as
training.

The round clock runs for minutes, so the servers run in the test's process (uvicorn on real
ports, real websockets, the real stores) on a clock the test moves (``in_process``).
"""

import asyncio
import contextlib
import itertools
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis

import editions
import wordlists
from rules.board.board import Board
from rules.errors import GameError
from rules.movegen.moves import generate
from rules.room import slips
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from tests.server.in_process import Clock, Served, serving
from tests.server.redis_server import RedisServer
from tests.server.serving import Phone, device_key

PLAYERS = 200
VALID = range(0, 150)  # hand in a word of the list; player 0 alone at the top
INVALID = range(150, 170)  # a word the list lacks
PAPER = 170  # a paper slip the director types after the bell: on time
LATE = range(171, 180)  # after the clock ran out
# 180–199 hand in nothing
NL = editions.get("nl")
LEXICON = wordlists.get("nl")


@contextlib.asynccontextmanager
async def servers(kind: str, request: pytest.FixtureRequest, clock: Clock) -> AsyncIterator[
    list[Served]
]:  # fmt: skip
    """One server on SQLite, or two on one Redis: a table is served by both."""
    if kind == "sqlite":
        tmp = request.getfixturevalue("tmp_path")
        async with serving(SqliteStore(tmp / "room.db"), clock) as one:
            yield [one]
        return
    server: RedisServer = request.getfixturevalue("redis_server")
    client = redis.Redis.from_url(server.url)
    client.flushdb()
    client.close()
    async with (
        serving(RedisStore(server.url), clock) as a,
        serving(RedisStore(server.url), clock) as b,
    ):
        yield [a, b]


async def call(served: Served, path: str, body: object = None, token: str | None = None) -> Any:
    reply = await served.call("POST" if body is not None else "GET", path, body, token)
    return reply.status, reply.json()


def moves(sheet: dict[str, Any]) -> list[Any]:
    board = Board.from_rows(NL, sheet["board"])
    return generate(board, "".join(sheet["rounds"][-1]["rack"]), LEXICON.graph)


def nonsense(sheet: dict[str, Any], found: list[Any]) -> dict[str, str]:
    """A slip that lies on the board from the rack but is no word: two letters swapped."""
    board = Board.from_rows(NL, sheet["board"])
    rack = tuple(sheet["rounds"][-1]["rack"])
    for move in found:
        word, start, direction = move.word, move.start.name, str(move.direction)
        for i in range(len(word) - 1):
            swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
            if swapped == word or not word.isalpha() or LEXICON.contains(swapped):
                continue
            try:
                slips.lay(board, rack, swapped, start, direction)
            except GameError:
                continue
            return {"word": swapped, "start": start, "direction": direction}
    raise AssertionError("no nonsense slip")


def slip_of(move: Any) -> dict[str, str]:
    return {"word": move.word, "start": move.start.name, "direction": str(move.direction)}


async def until(phone: Phone, ready: Any) -> dict[str, Any]:
    """Receive until the phone's view passes ``ready``; the view."""
    while not ready(view := json.loads(phone.view)):
        await phone.receive()
    return view


def places(totals: dict[int, int]) -> dict[int, int]:
    """Competition places: equal totals share a place."""
    return {p: 1 + sum(other > total for other in totals.values()) for p, total in totals.items()}


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
async def test_a_room_of_200_phones_to_the_close_with_a_replaced_director(
    kind: str, request: pytest.FixtureRequest
) -> None:
    clock = Clock()
    async with servers(kind, request, clock) as served:
        first, last = served[0], served[-1]
        _, made = await call(first, "/api/tables", {})
        table, director, code = made["table"], made["token"], made["code"]
        ids = (f"c{n}" for n in itertools.count())

        async def command(token: str, body: dict[str, Any], via: Served = first) -> Any:
            path = f"/api/tables/{table}/commands"
            return await call(via, path, {"id": next(ids), "command": body}, token)

        start = {"type": "start_game", "edition": "nl", "mode": "duplicate",
                 "rules": "duplicate-club", "players": []}  # fmt: skip
        assert (await command(director, start))[0] == 200
        _, recovery = await call(first, f"/api/tables/{table}/recovery", {}, director)

        # 200 phones register by name, half of them through each server.
        tokens = []
        for p in range(PLAYERS):
            body = {"code": code, "role": "player", "name": f"Speler {p:03d}",
                    "device": device_key()}  # fmt: skip
            status, joined = await call(served[p % len(served)], "/api/join", body)
            assert (status, joined["seat"]) == (200, p), joined
            tokens.append(joined["token"])
        phones = [
            Phone(served[p % len(served)].ws_url, table, token) for p, token in enumerate(tokens)
        ]
        _, viewer = await call(last, "/api/join", {"code": code, "role": "viewer", "device": ""})
        display = Phone(last.ws_url, table, viewer["token"])
        host = Phone(first.ws_url, table, director)
        everyone = [*phones, display, host]
        await asyncio.gather(*(phone.open() for phone in everyone))
        try:
            # A player's only write is its slip: every other act is refused, nothing logged.
            seq = (await until(host, lambda v: True))["seq"]
            game = json.loads(host.view)["sheet"]["started"]
            turn = {"game": game, "player": 0, "number": 0}
            for act in (
                {"type": "enter_points", "points": 2000, "turn": turn},
                {"type": "correct_cell", "round": 0, "player": 0, "points": 2000},
                {"type": "record_top", "points": 810, "round": 0},
                {"type": "draw_rack", "round": 0},
                {"type": "close_round", "round": 0},
                {"type": "add_player", "name": "Mallory"},
                {"type": "remove_player", "player": 1},
                {"type": "appoint_director", "device": "x"},
            ):
                status, refused = await command(tokens[0], act)
                assert (status, refused["code"]) in ((403, "host_only"), (403, "slip_only")), act
            _, seen = await call(first, f"/api/tables/{table}/view", None, director)
            assert seen["seq"] == seq

            # The draw reaches every phone; the clock starts.
            assert (await command(director, {"type": "draw_rack", "round": 0}))[0] == 200
            drawn = await asyncio.gather(
                *(until(p, lambda v: v["sheet"]["rounds"][0]["rack"]) for p in everyone)
            )
            sheet = drawn[-1]["sheet"]
            assert all(v["sheet"]["rounds"][0]["rack"] == sheet["rounds"][0]["rack"]
                       for v in drawn)  # fmt: skip
            found = moves(sheet)
            top = found[0]
            lesser = [m for m in found if m.score < top.score] or found[-1:]
            bad = nonsense(sheet, found)
            assert (await command(director, {"type": "start_clock"}))[0] == 200

            handed: dict[int, tuple[str, int]] = {}  # player → (kind, points) expected
            for p in VALID:
                move = top if p == 0 else lesser[p % len(lesser)]
                handed[p] = ("valid", move.score)
            for p in INVALID:
                handed[p] = ("invalid", 0)

            async def hand_in(p: int, slip: dict[str, str]) -> None:
                turn = {"game": game, "player": p, "number": 0}
                body = {"type": "submit_slip", **slip, "turn": turn}
                await phones[p].command(f"s{p}", body)
                answer = await phones[p].answer(f"s{p}")
                assert answer.type == "accepted", (p, answer)

            await asyncio.gather(*(
                hand_in(p, slip_of(top if p == 0 else lesser[p % len(lesser)])) for p in VALID
            ), *(hand_in(p, bad) for p in INVALID))  # fmt: skip

            clock.advance(181)  # the bell
            for p in LATE:
                handed[p] = ("late", 0)
            await asyncio.gather(*(hand_in(p, slip_of(lesser[0])) for p in LATE))
            paper = {"type": "submit_slip", **slip_of(lesser[0]), "paper": True,
                     "turn": {"game": game, "player": PAPER, "number": 0}}  # fmt: skip
            assert (await command(director, paper))[0] == 200
            handed[PAPER] = ("valid", lesser[0].score)
            for p in range(PLAYERS):
                handed.setdefault(p, ("missing", 0))
            mine = (await until(phones[1], lambda v: v["sheet"]["room"]["mine"]))["sheet"]["room"]
            assert mine["mine"]["word"] == slip_of(lesser[1 % len(lesser)])["word"]
            assert mine["slips"] == []  # who else handed in is the director's to know
            held = await until(display, lambda v: len(v["sheet"]["room"]["slips"]) == 180)
            assert held["sheet"]["room"]["mine"] is None

            # The director's phone dies; another phone takes its place on the other server
            # with the recovery code, and closes the round.
            await host.close()
            everyone.remove(host)
            body = {"code": code, "recovery": recovery["recovery"]}
            status, taken = await call(last, "/api/recover", body)
            assert status == 201 and taken["role"] == "host"
            for via in served:
                status, gone = await call(via, f"/api/tables/{table}/view", None, director)
                assert (status, gone["code"]) == (401, "device_removed")
            status, _ = await command(taken["token"], {"type": "close_round", "round": 0}, last)
            assert status == 200
            closed = await asyncio.gather(
                *(until(p, lambda v: v["sheet"]["rounds"][0]["results"]) for p in everyone)
            )

            # Every phone has the same judgement; each player's own result and place.
            results = {r["player"]: r for r in closed[-1]["sheet"]["rounds"][0]["results"]}
            assert {p: (r["kind"], r["points"]) for p, r in results.items()} == handed
            solos = {p: r["solo"] for p, r in results.items() if r.get("solo")}
            assert solos == {0: 10}  # player 0 alone at the top
            totals = {p: points + (10 if p == 0 else 0) for p, (_, points) in handed.items()}
            for p, view in enumerate(closed[:PLAYERS]):
                standings = {s["player"]: s["total"] for s in view["sheet"]["standings"]}
                assert standings == totals, p
                assert places(standings)[p] == places(totals)[p]

            # A correction gives player 1 the top too: the solo goes, on every phone.
            fix = {"type": "correct_cell", "round": 0, "player": 1, "points": top.score}
            assert (await command(taken["token"], fix, last))[0] == 200
            fixed = await until(phones[0], lambda v: v["sheet"]["totals"][0] == top.score)
            assert fixed["sheet"]["totals"][1] == top.score

            # A player taken out is let go, and leaves the standings.
            assert (await command(taken["token"], {"type": "remove_player", "player": 199}))[
                0
            ] == 200
            while (message := await phones[199].receive()).type != "rejected":
                pass
            assert message.code == "device_removed"
            after = await until(display, lambda v: len(v["sheet"]["standings"]) == PLAYERS - 1)
            assert 199 not in {s["player"] for s in after["sheet"]["standings"]}

            # The record of the game imports again as training, with the round's rack.
            reply = await first.call(
                "GET", f"/api/tables/{table}/record.json", token=taken["token"]
            )
            record = reply.json()
            assert len(record["results"]) == PLAYERS - 1
            status, training = await call(first, "/api/training?name=Solo", record)
            assert status == 201 and training["racks"] == ["".join(sheet["rounds"][0]["rack"])]
        finally:
            await asyncio.gather(*(phone.close() for phone in everyone))
