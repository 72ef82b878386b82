"""Online play on a clock the test moves on: the time per move, and what the server binds.

A time per move is a minute at least, too long for a test to wait; so the servers here run
in the test's own process on a clock the test moves (``tests.server.in_process``), looking
for a time run out every 20 ms. The player to move is passed once the deadline is behind,
once: with several processes on one Redis each one tries, one pass is recorded and the
others' are refused and dropped without a word.
"""

import asyncio
import contextlib
import json
import logging
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import wordlists
from editions.errors import GameError
from events import commands as c
from events.events import GameEnded, GameStarted, Passed, Recorded
from rules.table.permissions import HOST
from server.jobs.move_timer import MoveTimer
from server.stores.protocols import Device
from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from server.tables.commands import Tables
from server.tables.live import Live
from tests.server.in_process import TICK, Clock, Served, serving
from tests.server.redis_server import RedisServer
from tests.server.serving import Phone, device_key, phones

START = {"type": "start_game", "edition": "woordstrijd", "mode": "online",
         "players": ["Ann", "Bob"], "move_seconds": 60}  # fmt: skip


class OnlineTable:
    """An online game of Ann and Bob with a minute per move, made over HTTP."""

    def __init__(self, table: str, code: str, tokens: dict[str, str]) -> None:
        self.id = table
        self.code = code
        self.tokens = tokens

    @classmethod
    async def create(cls, server: Served, start: dict[str, Any] = START) -> "OnlineTable":
        made = (await server.call("POST", "/api/tables")).json()
        table, host = made["table"], made["token"]
        started = await server.call(
            "POST", f"/api/tables/{table}/commands", {"id": "start", "command": start}, host
        )
        assert started.status == 200, started
        joining = {"code": made["code"], "role": "player", "seat": 1, "device": device_key()}
        joined = await server.call("POST", "/api/join", joining)
        tokens = {"ann": host, "bob": joined.json()["token"]}  # the host plays the first seat
        return cls(table, made["code"], tokens)

    def phone(self, server: Served, name: str) -> Phone:
        return Phone(server.ws_url, self.id, self.tokens[name])


def online_of(phone: Phone) -> dict[str, Any]:
    return json.loads(phone.view)["sheet"]["online"]


class Looks:
    """The servers' looks for a time run out (``MoveTimer.check``), counted per timer as
    each ends."""

    def __init__(self) -> None:
        self.ended: Counter[int] = Counter()

    async def since_now(self) -> None:
        """Until every server's timer has ended a look begun after this call: one at the
        time as the clock shows it now."""
        mark = Counter(self.ended)
        deadline = time.monotonic() + 10
        while not self.ended or any(n < mark[timer] + 2 for timer, n in self.ended.items()):
            assert time.monotonic() < deadline, "the servers stopped looking at the time"
            await asyncio.sleep(TICK / 2)


@pytest.fixture
def looks(monkeypatch: pytest.MonkeyPatch) -> Looks:
    counted = Looks()
    check = MoveTimer.check

    async def counting(timer: MoveTimer) -> int:
        try:
            return await check(timer)
        finally:
            counted.ended[id(timer)] += 1

    monkeypatch.setattr(MoveTimer, "check", counting)
    return counted


async def nothing_comes(looks: Looks, server: Served, table: OnlineTable, *members: Phone) -> None:
    """No pass is due: every server has looked at the time since, and the log still ends
    at the state the phones have."""
    seen = {phone.seq for phone in members}
    await looks.since_now()
    log = await server.store.read(table.id)
    assert {log[-1].seq} == seen, (log[-1], seen)


def quiet_log(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing a server said was a warning, an error or a traceback."""
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not loud, [r.getMessage() for r in loud]
    assert not re.search("Traceback|Exception in ASGI", caplog.text)


def passes(log: tuple[Recorded, ...]) -> list[tuple[int, bool]]:
    return [(r.event.player, r.event.timed_out) for r in log if isinstance(r.event, Passed)]


async def test_the_time_per_move_passes_the_player_to_move_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, looks: Looks
) -> None:
    caplog.set_level(logging.INFO)
    clock = Clock()
    began = clock.now
    async with serving(SqliteStore(tmp_path / "t.db"), clock) as server:
        table = await OnlineTable.create(server)
        async with phones(table.phone(server, "ann"), table.phone(server, "bob")) as (ann, bob):
            await ann.open()
            await bob.open()
            seq = ann.seq
            assert online_of(ann)["move_seconds"] == 60
            assert online_of(ann)["deadline"] == online_of(bob)["deadline"] == began + 60_000
            clock.advance(59)
            await nothing_comes(looks, server, table, ann, bob)

            clock.advance(2)  # Ann's minute is over: the server passes her, once
            await ann.until_seq(seq + 1)
            passed = online_of(ann)
            assert passed["last"]["kind"] == "pass" and passed["last"]["timed_out"]
            assert (passed["last"]["player"], passed["passes"]) == (0, 1)
            assert passed["deadline"] == clock.now + 60_000  # Bob's minute from now
            await bob.until_seq(seq + 1)
            await nothing_comes(looks, server, table, ann, bob)

            clock.advance(30)  # Bob passes himself within his minute
            turn = {"game": 1, "player": 1, "number": 0}
            await bob.command("bob", {"type": "pass", "turn": turn})
            assert (await bob.answer("bob")).seq == seq + 2
            await ann.until_seq(seq + 2)
            clock.advance(40)  # 70 s since Bob's turn began, 40 since Ann's
            await nothing_comes(looks, server, table, ann)
            assert online_of(ann)["passes"] == 2 and not online_of(ann)["last"]["timed_out"]
            # The sheet's lines say which pass was the server's, after the last turn moved on.
            last_two = json.loads(ann.view)["sheet"]["lines"][-2:]
            assert [(line["player"], line["timed_out"]) for line in last_two] == [
                (0, True),
                (1, False),
            ]

            clock.advance(21)  # Ann's again: the third pass in a row ends the game
            await ann.until_seq(seq + 4)
            sheet = json.loads(ann.view)["sheet"]
            assert sheet["ended"] and sheet["online"]["deadline"] is None
            await bob.until_seq(seq + 4)
            clock.advance(600)
            await nothing_comes(looks, server, table, ann, bob)
        log = await server.store.read(table.id)
    assert passes(log) == [(0, True), (1, False), (0, True)]
    assert isinstance(log[-1].event, GameEnded)
    quiet_log(caplog)


async def test_processes_on_one_redis_pass_a_player_once(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture, looks: Looks
) -> None:
    # A and B each follow the table for a phone; C only listed it once, so what it holds
    # goes stale: all three try each pass, one is recorded, the rest are dropped quietly.
    caplog.set_level(logging.INFO)
    clock = Clock()
    async with contextlib.AsyncExitStack() as stack:
        a, b, c = [
            await stack.enter_async_context(serving(RedisStore(redis_server.url), clock))
            for _ in range(3)
        ]
        table = await OnlineTable.create(a)
        listed = await c.call("POST", "/api/games", {"tokens": [
            {"table": table.id, "token": table.tokens["ann"]}]})  # fmt: skip
        assert listed.json()["games"][0]["deadline"] == clock.now + 60_000
        async with phones(table.phone(a, "ann"), table.phone(b, "bob")) as (ann, bob):
            await ann.open()
            await bob.open()
            seq = ann.seq
            for n in range(1, 4):
                clock.advance(61)
                await asyncio.gather(ann.until_seq(seq + n), bob.until_seq(seq + n))
                await nothing_comes(looks, a, table, ann, bob)
            assert json.loads(ann.view)["sheet"]["ended"] and json.loads(bob.view)["sheet"]["ended"]
        log = await a.store.read(table.id)
    assert [r.seq for r in log] == list(range(1, len(log) + 1))
    assert passes(log) == [(0, True), (1, True), (0, True)]
    assert isinstance(log[-1].event, GameEnded)
    assert len(log) == seq + 4
    quiet_log(caplog)


# --- what the server binds into the rules ----------------------------------------------------


HOSTING = Device("", "host", None, HOST)


async def started(tables: Tables, command: c.StartGame) -> tuple[str, GameStarted]:
    made, _ = await tables.create()
    await tables.command(made.id, Device(made.id, "host", None, HOST), command, "start")
    event = (await tables.store.read(made.id))[0].event
    assert isinstance(event, GameStarted)
    return made.id, event


async def test_the_server_draws_a_new_secret_seed_for_every_online_game(
    sqlite_store: SqliteStore,
) -> None:
    tables = Tables(sqlite_store)
    online = c.StartGame("woordstrijd", "online", players=("Ann", "Bob"))
    seeds = {(await started(tables, online))[1].seed for _ in range(3)}
    assert len(seeds) == 3 and all(re.fullmatch("[0-9a-f]{32}", s) for s in seeds)
    table_id, classic = await started(tables, c.StartGame("nl", players=("Ann", "Bob")))
    assert classic.seed == ""  # only online play draws tiles
    table_id, first = await started(tables, online)
    host = Device(table_id, "host", None, HOST)
    await tables.command(table_id, host, c.NewGame(game=1), "again")
    again = (await sqlite_store.read(table_id))[-1].event
    assert isinstance(again, GameStarted) and again.seed not in ("", first.seed)


async def test_an_online_game_needs_the_editions_word_list(
    sqlite_store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wordlists, "available", lambda: ())  # an installation without lists
    tables = Tables(sqlite_store)
    with pytest.raises(GameError) as refused:
        await started(tables, c.StartGame("woordstrijd", "online", players=("Ann", "Bob")))
    assert (refused.value.code, refused.value.params) == (
        "no_word_list",
        {"edition": "woordstrijd"},
    )
    await started(tables, c.StartGame("woordstrijd", players=("Ann", "Bob")))  # classic: fine


def test_views_are_encoded_per_seat_in_online_games_only() -> None:
    live = Live()
    for mode in ("classic", "online"):
        start = GameStarted("woordstrijd", mode, mode if mode == "online" else "house",
                            ("Ann", "Bob"), seed="s" * 32 if mode == "online" else "")  # fmt: skip
        live.fold((Recorded(live.state.seq + 1, start),))
        seat0, seat1 = live.view_json("member", 0), live.view_json("member", 1)
        nobody = live.view_json("member", None)
        if mode == "classic":
            assert seat0 is seat1 is nobody  # one encoding for every phone of the table
        else:
            racks = [json.loads(v)["sheet"]["online"]["rack"] for v in (seat0, seat1, nobody)]
            assert len(racks[0]) == len(racks[1]) == 7 and racks[0] != racks[1]
            assert racks[2] is None
            assert live.view_json("member", 0) is seat0  # cached for the seq
