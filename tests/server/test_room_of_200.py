"""A room of 200 players over real websockets, on SQLite and on two servers sharing one Redis
(each with its own store: a command on one reaches the phones on the other).

200 phones register by name and every write of theirs but their own slip is refused; the
director types the rack and 200 slips come in (valid, not in the list, late, missing, one
typed by the director, one from paper); the director's phone dies mid-round and, rather than
the co-director appointed before, a phone takes its place with the recovery code on the
other server and closes the round; every phone's own result and place are what the test
works out from the slips; a recount moves the solo; a player taken out; a second round; the
record imported again as training replays to the same racks and tops. That co-directors stay
when the director is replaced is the test at the end.

The round clock runs for minutes, so the servers run in the test's process (uvicorn on real
ports, real websockets, the real stores) on a clock the test moves (``in_process``).
"""

import asyncio
import contextlib
import itertools
import json
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.exceptions import ConnectionClosed

import editions
import wordlists
from rules.board.board import Board
from rules.errors import GameError
from rules.movegen.moves import Move, generate
from rules.room import slips
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from tests.server.in_process import Clock, Served, serving
from tests.server.redis_server import RedisServer
from tests.server.serving import Message, Phone, device_key

PLAYERS = 200  # the duplicate rule sets' max_players
RACK = "PLANKES"  # typed by the director, so the test knows every move of it
NEXT_RACK = "DOORTEN"  # the second round's; no one hands in a slip then
# What each player hands in, by index:
TOP = 0  # the round's best move, alone at it: the solo
SECOND = 1  # alone at the next best score: the solo is theirs once player 0 is recounted
VALID = range(2, 150)  # lesser words of the list, a few distinct ones at a few places
INVALID = range(150, 170)  # lies on the board from the rack, but the list lacks the word
TYPED = 170  # the director types it in time from the player's paper: a word not in the list
PAPER = 171  # a paper slip handed in in time, typed after the bell: on time, valid
LATE = range(172, 180)  # from the phone after the bell
# 180–199 hand in nothing
GONE = 199  # taken out after the close
SOLO = 10  # duplicate-club: Eliot's solo from 2 players
NL = editions.get("nl")
LEXICON = wordlists.get("nl")
_ids = (f"c{n}" for n in itertools.count())


@contextlib.asynccontextmanager
async def servers(kind: str, request: pytest.FixtureRequest, clock: Clock) -> AsyncIterator[
    list[Served]
]:  # fmt: skip
    """One server on SQLite, or two on one Redis, each with its own store: a table is
    served by both."""
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
    """POST ``body`` (GET without one) to ``served``; the status and the JSON answer."""
    reply = await served.call("POST" if body is not None else "GET", path, body, token)
    return reply.status, reply.json()


async def command(served: Served, table: str, token: str, body: dict[str, Any]) -> tuple[int, Any]:
    """A command over HTTP; the status and the answer."""
    path = f"/api/tables/{table}/commands"
    return await call(served, path, {"id": next(_ids), "command": body}, token)


async def send(phone: Phone, body: dict[str, Any]) -> Message:
    """A command from ``phone``'s socket; the server's answer to it."""
    name = next(_ids)
    await phone.command(name, body)
    return await phone.answer(name)


async def until(phone: Phone, ready: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """Receive until the phone's view passes ``ready``; the view."""
    while not ready(view := json.loads(phone.view)):
        await phone.receive()
    return view


async def all_until(
    phones: Iterable[Phone], ready: Callable[[dict[str, Any]], Any]
) -> list[dict[str, Any]]:
    """Each phone's view once it passes ``ready``, in the phones' order."""
    return await asyncio.gather(*(until(phone, ready) for phone in phones))


async def told_removed(phone: Phone, code: str = "device_removed") -> None:
    """The phone is told ``code`` (after any views in flight) and let go (1008)."""
    while (message := await phone.receive()).type in ("state", "change"):
        pass
    assert (message.type, message.code) == ("rejected", code), message
    with pytest.raises(ConnectionClosed) as closed:
        await phone.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    await phone.close()


def slip_of(move: Move) -> dict[str, str]:
    return {"word": move.word, "start": move.start.name, "direction": str(move.direction)}


def nonsense(board: Board, found: list[Move]) -> dict[str, str]:
    """A slip that lies on the board from the rack but is no word: a move's word with two
    letters swapped."""
    for move in found:
        word, start, direction = move.word, move.start.name, str(move.direction)
        for i in range(len(word) - 1):
            swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
            if swapped == word or not word.isalpha() or LEXICON.contains(swapped):
                continue
            try:
                slips.lay(board, tuple(RACK), swapped, start, direction)
            except GameError:
                continue
            return {"word": swapped, "start": start, "direction": direction}
    raise AssertionError("no nonsense slip")


def places(totals: dict[int, int]) -> dict[int, int]:
    """Competition places, as a player's phone shows its own: equal totals share one."""
    return {p: 1 + sum(other > total for other in totals.values()) for p, total in totals.items()}


def standings(view: dict[str, Any]) -> dict[int, int]:
    return {s["player"]: s["total"] for s in view["sheet"]["standings"]}


def refused_writes(player: int, device: str, game: int) -> list[tuple[dict[str, Any], str]]:
    """Every write a player's phone might try in a room but its own slip, with the code it
    is refused with."""
    own = {"game": game, "player": player, "number": 0}
    other = {**own, "player": (player + 1) % PLAYERS}
    slip = {"type": "submit_slip", "word": "PLANK", "start": "H4", "direction": "across"}
    return [
        ({"type": "enter_points", "points": 2000, "turn": own}, "slip_only"),
        ({"type": "record_move", "typed": [[["Z", "3W"]] * 3], "turn": own}, "slip_only"),
        ({"type": "correct_cell", "round": 0, "player": player, "points": 2000}, "slip_only"),
        ({"type": "record_top", "points": 810, "round": 0}, "host_only"),
        ({"type": "draw_rack", "round": 0}, "host_only"),
        ({"type": "set_rack", "rack": "QQQQQQQ", "round": 0}, "host_only"),
        ({"type": "start_clock"}, "host_only"),
        ({"type": "close_round", "round": 0}, "host_only"),
        ({"type": "add_player", "name": "Mallory"}, "host_only"),
        ({"type": "rename_player", "player": other["player"], "name": "Mallory"}, "host_only"),
        ({"type": "remove_player", "player": other["player"]}, "host_only"),
        ({"type": "set_entries", "until": 0}, "host_only"),
        ({"type": "appoint_director", "device": device}, "host_only"),  # not even itself
        ({**slip, "turn": other}, "not_your_seat"),
        ({**slip, "turn": own, "paper": True}, "host_only"),  # paper is the director's
    ]


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
async def test_a_room_of_200_phones_to_the_close_with_a_replaced_director(
    kind: str, request: pytest.FixtureRequest
) -> None:
    clock = Clock()
    async with servers(kind, request, clock) as served:
        await room_of_200(served, clock)


async def room_of_200(served: list[Served], clock: Clock) -> None:
    """The whole scenario; ``served``: one server, or two sharing a store's data."""
    first, last = served[0], served[-1]  # on Redis, ``last`` is the other server
    _, made = await call(first, "/api/tables", {})
    table, director, code = made["table"], made["token"], made["code"]
    start = {"type": "start_game", "edition": "nl", "mode": "duplicate",
             "rules": "duplicate-club", "players": []}  # fmt: skip
    assert (await command(first, table, director, start))[0] == 200
    status, recovery = await call(first, f"/api/tables/{table}/recovery", {}, director)
    assert status == 201, recovery

    # 200 phones register by name, half of them through each server; the 201st finds the
    # room full.
    def on(p: int) -> Served:
        return served[p % len(served)]

    joined = []
    for p in range(PLAYERS):
        body = {"code": code, "role": "player", "name": f"Speler {p:03d}", "device": device_key()}
        status, answer = await call(on(p), "/api/join", body)
        assert (status, answer["seat"], answer["admitted"]) == (200, p, True), answer
        joined.append(answer)
    body = {"code": code, "role": "player", "name": "Speler 200", "device": device_key()}
    status, full = await call(last, "/api/join", body)
    assert (status, full["code"], full["params"]) == (409, "room_full", {"max": PLAYERS})
    phones = [Phone(on(p).ws_url, table, j["token"]) for p, j in enumerate(joined)]
    _, viewer = await call(last, "/api/join", {"code": code, "role": "viewer", "device": ""})
    display = Phone(last.ws_url, table, viewer["token"])
    _, helper = await call(first, "/api/join", {"code": code, "role": "viewer", "device": ""})
    co_director = Phone(first.ws_url, table, helper["token"])
    host = Phone(first.ws_url, table, director)
    second_tab = Phone(last.ws_url, table, director)  # the director's own device, elsewhere
    watching = [*phones, display, co_director]  # the devices that see what the room sees
    opened = [*watching, host, second_tab]
    # Left unread once the recovery lets it go (below), the co-director's socket still takes
    # the server's close at the end, without waiting out the close timeout: its frames queue
    # unbounded, as every test phone's do.
    await asyncio.gather(*(phone.open() for phone in opened))
    try:
        # A player's only write is its own slip: every other act is refused with its code
        # (each act tried by every 15th phone, on both servers), and nothing is logged.
        game = json.loads(host.view)["sheet"]["started"]
        seqs = [(await call(s, f"/api/tables/{table}/view", None, director))[1]["seq"]
                for s in served]  # fmt: skip

        async def try_to_write(p: int) -> None:
            tries = refused_writes(p, joined[p]["device"], game)
            act, code = tries[p % len(tries)]
            answer = await send(phones[p], act)
            assert (answer.type, answer.code) == ("rejected", code), (p, act, answer)

        await asyncio.gather(*(try_to_write(p) for p in range(PLAYERS)))
        for s, seq in zip(served, seqs, strict=True):
            _, seen = await call(s, f"/api/tables/{table}/view", None, director)
            assert seen["seq"] == seq

        # A co-director is appointed: its phone gets the director's view, and acts.
        assert (await send(host, {"type": "appoint_director", "device": helper["device"]})
                ).type == "accepted"  # fmt: skip
        await until(co_director, lambda v: v["devices"] is not None)

        # The director types the rack; it reaches every phone; the clock starts.
        typed = await send(host, {"type": "set_rack", "rack": RACK, "round": 0})
        assert typed.type == "accepted", typed
        drawn = await all_until(watching, lambda v: v["sheet"]["rounds"][0]["rack"])
        assert {"".join(v["sheet"]["rounds"][0]["rack"]) for v in drawn} == {RACK}
        board = Board.from_rows(NL, drawn[0]["sheet"]["board"])
        found = generate(board, RACK, LEXICON.graph)
        top = found[0]
        second = next(m for m in found if m.score < top.score)
        words: dict[str, Move] = {}  # a few distinct words of lesser score, one place each
        for move in found:
            if move.score < second.score:
                words.setdefault(move.word, move)
        lesser = list(words.values())[:4]
        assert len(lesser) == 4, found
        bad = nonsense(board, found)
        assert (await send(co_director, {"type": "start_clock"})).type == "accepted"

        # The slips, and what the test expects of each: (kind, points).
        handed: dict[int, tuple[str, int]] = {}
        chosen = {TOP: top, SECOND: second} | {p: lesser[p % len(lesser)] for p in VALID}
        for p, move in chosen.items():
            handed[p] = ("valid", move.score)
        handed |= {p: ("invalid", 0) for p in (*INVALID, TYPED)}
        handed |= {PAPER: ("valid", lesser[0].score)} | {p: ("late", 0) for p in LATE}
        handed |= {p: ("missing", 0) for p in range(PLAYERS) if p not in handed}

        async def hand_in(p: int, slip: dict[str, str]) -> None:
            turn = {"game": game, "player": p, "number": 0}
            answer = await send(phones[p], {"type": "submit_slip", **slip, "turn": turn})
            assert answer.type == "accepted", (p, answer)

        await asyncio.gather(*(hand_in(p, slip_of(m)) for p, m in chosen.items()),
                             *(hand_in(p, bad) for p in INVALID))  # fmt: skip

        async def director_types(p: int, slip: dict[str, str]) -> None:
            """As the director's phone does: the player's slip from paper, marked so."""
            turn = {"game": game, "player": p, "number": 0}
            body = {"type": "submit_slip", **slip, "player": p, "turn": turn, "paper": True}
            answer = await send(host, body)
            assert answer.type == "accepted", (p, answer)

        await director_types(TYPED, bad)
        clock.advance(181)  # the bell: the round's three minutes are over
        await asyncio.gather(*(hand_in(p, slip_of(lesser[1])) for p in LATE))
        await director_types(PAPER, slip_of(lesser[0]))
        mine = (await until(phones[TOP], lambda v: v["sheet"]["room"]["mine"]))["sheet"]["room"]
        assert (mine["mine"]["word"], mine["slips"]) == (top.word, [])  # who else: not its to see
        late = await until(phones[LATE[0]], lambda v: v["sheet"]["room"]["mine"])
        assert late["sheet"]["room"]["mine"]["late"] is True
        held = await until(display, lambda v: len(v["sheet"]["room"]["slips"]) == 180)
        assert held["sheet"]["room"]["mine"] is None

        # The director's phone dies mid-round. The co-director does not close the round: a
        # new phone takes the director's place with the recovery code, on the other server,
        # and closes it. (That the co-director stays is the test at the end; its phone is
        # left unread here.)
        await host.close()
        watching.remove(co_director)
        body = {"code": code, "recovery": recovery["recovery"]}
        status, taken = await call(last, "/api/recover", body)
        assert (status, taken["role"]) == (201, "host"), taken
        # The old device's socket still open is let go, told why: not "the host removed it".
        await told_removed(second_tab, "director_replaced")
        for s in served:
            status, gone = await call(s, f"/api/tables/{table}/view", None, director)
            assert (status, gone["code"]) == (401, "director_replaced")
            old = Phone(s.ws_url, table, director)  # the dead phone coming back
            opened.append(old)
            back = await old.open()
            assert (back.type, back.code) == ("rejected", "director_replaced")
        new_director = Phone(last.ws_url, table, taken["token"])
        opened.append(new_director)
        assert (await new_director.open()).type == "state"
        watching.append(new_director)
        assert json.loads(new_director.view)["devices"] is not None
        closing = await send(new_director, {"type": "close_round", "round": 0})
        assert closing.type == "accepted", closing
        closed = await all_until(watching, lambda v: v["sheet"]["rounds"][0]["results"])

        # Every phone has the same judgement; each player's own result and place are the
        # test's, the director's typed slip judged like any other.
        results = closed[0]["sheet"]["rounds"][0]["results"]
        assert all(v["sheet"]["rounds"][0]["results"] == results for v in closed)
        assert {r["player"]: (r["kind"], r["points"]) for r in results} == handed
        assert {r["player"]: r["solo"] for r in results if r.get("solo")} == {TOP: SOLO}
        assert next(r for r in results if r["player"] == TYPED)["bad"] == bad["word"]
        totals = {p: points for p, (_, points) in handed.items()} | {TOP: top.score + SOLO}
        expected = places(totals)
        for p, view in enumerate(closed[:PLAYERS]):
            own = next(r for r in view["sheet"]["rounds"][0]["results"] if r["player"] == p)
            assert (own["kind"], own["points"]) == handed[p], p
            assert places(standings(view))[p] == expected[p], p
        assert (expected[TOP], expected[SECOND]) == (1, 2)

        # The director recounts player 0's move lower, through the first server: the solo
        # moves to player 1, on every phone.
        recount = {"type": "correct_cell", "round": 0, "player": TOP, "points": lesser[0].score}
        assert (await command(first, table, taken["token"], recount))[0] == 200
        totals |= {TOP: lesser[0].score, SECOND: second.score + SOLO}
        moved = await all_until(watching, lambda v: standings(v)[SECOND] == second.score + SOLO)
        for view in moved:
            results = view["sheet"]["rounds"][0]["results"]
            assert {r["player"]: r["solo"] for r in results if r.get("solo")} == {SECOND: SOLO}
            assert standings(view) == totals

        # A player taken out (through the first server; on Redis its phone is on the other)
        # is let go, and leaves the standings; every other total stays.
        out = await command(first, table, taken["token"], {"type": "remove_player", "player": GONE})
        assert out[0] == 200, out
        await told_removed(phones[GONE])
        watching.remove(phones[GONE])
        del totals[GONE]
        after = await all_until(watching, lambda v: len(v["sheet"]["standings"]) == PLAYERS - 1)
        assert all(standings(v) == totals and v["sheet"]["left"] == [GONE] for v in after)

        # A second round, with no slips at all, so that the record has racks to replay.
        for act in ({"type": "set_rack", "rack": NEXT_RACK, "round": 1},
                    {"type": "close_round", "round": 1}):  # fmt: skip
            answer = await send(new_director, act)
            assert answer.type == "accepted", (act, answer)
        await all_until(watching, lambda v: len(v["sheet"]["rounds"]) == 3)

        # The record has every player still in, ranked as the test ranks them; it imports
        # again as training, on the other server, and replays to the same racks and tops.
        reply = await first.call("GET", f"/api/tables/{table}/record.json", token=taken["token"])
        record = reply.json()
        assert {r["player"]: r["rank"] for r in record["results"]} == places(totals)
        assert {r["player"]: r["solos"] for r in record["results"] if r["solos"]} == {SECOND: SOLO}
        assert [r["rack"] for r in record["rounds"]] == [RACK, NEXT_RACK]
        # As the phone does, only what training needs is sent: a room of 200's slips are
        # soon more than a request may carry (web/js/record.js).
        await replay(last, record | {"results": [], "rounds": [
            r | {"slips": [], "lines": [], "scores": []} for r in record["rounds"]]})  # fmt: skip
    finally:
        await asyncio.gather(*(phone.close() for phone in opened if phone.ws is not None))


async def replay(served: Served, record: dict[str, Any]) -> None:
    """Import ``record`` as training and play it round by round: each round has the
    recorded rack, and its close finds the recorded top."""
    status, training = await call(served, "/api/training?name=Solo", record)
    assert status == 201, training
    assert training["racks"] == [r["rack"] for r in record["rounds"]]
    practice, token = training["joined"]["table"], training["joined"]["token"]
    for number, rack in enumerate(training["racks"]):
        if number:  # the first rack is on the table already
            act = {"type": "set_rack", "rack": rack, "round": number, "force": True}
            assert (await command(served, practice, token, act))[0] == 200
        _, view = await call(served, f"/api/tables/{practice}/view", None, token)
        assert "".join(view["sheet"]["rounds"][number]["rack"]) == rack
        act = {"type": "close_round", "round": number}
        assert (await command(served, practice, token, act))[0] == 200
    _, again = await call(served, f"/api/tables/{practice}/record.json", None, token)
    assert [(r["rack"], r["top"]) for r in again["rounds"]] == [
        (r["rack"], r["top"]) for r in record["rounds"]
    ]


async def test_a_co_director_stays_when_a_phone_recovers_the_directors_place(
    tmp_path: Path,
) -> None:
    async with serving(SqliteStore(tmp_path / "room.db"), Clock()) as served:
        _, made = await call(served, "/api/tables", {})
        table, director, code = made["table"], made["token"], made["code"]
        start = {"type": "start_game", "edition": "nl", "mode": "duplicate", "players": []}
        assert (await command(served, table, director, start))[0] == 200
        _, helper = await call(served, "/api/join", {"code": code, "role": "viewer", "device": ""})
        appoint = {"type": "appoint_director", "device": helper["device"]}
        assert (await command(served, table, director, appoint))[0] == 200
        _, recovery = await call(served, f"/api/tables/{table}/recovery", {}, director)
        body = {"code": code, "recovery": recovery["recovery"]}
        assert (await call(served, "/api/recover", body))[0] == 201
        status, seen = await call(served, f"/api/tables/{table}/view", None, helper["token"])
        assert status == 200, seen
        assert seen["devices"] is not None
