"""Online play over a real server process and real websockets, on SQLite and on Redis.

Privacy is tested as a security boundary (P-52, WS-30). A 2-player game is played to its
end by two seats — the host's phone plays the first — with a room display watching, and
every frame each device
received is kept as it came. The log, read straight from the store afterwards, then says
what each rack and the bag held at every seq, and the frames are held against it: seat 0
got its own rack at every seq and never seat 1's (neither in its ``rack`` nor anywhere in
the raw text), no device ever got the bag, the seed or an exchanged tile list, and the
viewer got no rack at all. Along the way a refused word leaves rack and turn as
they were, an exchange and passes are played, a preview never says whether a word exists,
and the game's record is refused until the game is over. No response of any path, static
or API, holds the word list.
"""

import asyncio
import itertools
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import editions
import wordlists
from bench.finder import Finder
from rules.board import bag
from rules.gcg import read as gcg_records
from server.http import openapi
from server.http.app import WORD_CHECKS_PER_MINUTE
from tests.server.online_log import Secrets, before_end, encoded, ended, states, store_of
from tests.server.serving import (
    ROOT,
    Api,
    Message,
    Recording,
    ServerProcess,
    Table,
    new_address,
    phones,
    read_log,
)

EDITION = "woordstrijd"
START = {"type": "start_game", "edition": EDITION, "mode": "online", "players": ["Ann", "Bob"]}
TURNS = 200  # a game of two ends long before: three passes at the latest
RUN = 50  # list words in a row, in the list's order, that would be a served list


# --- a player that finds moves ---------------------------------------------------------------


@pytest.fixture(scope="module")
def finder() -> Finder:
    return Finder()


# --- devices that keep every frame -----------------------------------------------------------


class Game:
    """An online game at a table: the host's phone at seat 0, a phone at seat 1 and a room
    display, all connected."""

    def __init__(self, table: Table, devices: dict[str, Recording]) -> None:
        self.table = table
        self.devices = devices
        self.ids = (f"c{n}" for n in itertools.count())

    @classmethod
    def create(cls, server: ServerProcess, start: dict[str, Any] = START) -> "Game":
        table = Table.create(server, start=start)
        tokens = {
            "ann": table.host,  # who starts a game among friends plays in it
            "bob": table.join("player", 1),
            "room": table.join("viewer"),
        }
        devices = {
            name: Recording(name, server.ws_url, table.id, token) for name, token in tokens.items()
        }
        return cls(table, devices)

    def __getitem__(self, name: str) -> Recording:
        return self.devices[name]

    @property
    def seats(self) -> tuple[Recording, Recording]:
        return self.devices["ann"], self.devices["bob"]

    async def open(self) -> None:
        for device in self.devices.values():
            await device.open()

    def to_move(self) -> Recording:
        return self.seats[self["room"].sheet["to_move"]]

    def turn(self) -> dict[str, int]:
        sheet = self["room"].sheet
        player = sheet["to_move"]
        return {"game": sheet["started"], "player": player, "number": sheet["turns"][player]}

    async def send(self, device: Recording, command: dict[str, Any]) -> Message:
        """``device``'s command; once accepted, every device has the state after it."""
        command_id = next(self.ids)
        await device.command(command_id, command)
        answer = await device.answer(command_id)
        if answer.type == "accepted":
            following = [d for d in self.devices.values() if d.ws is not None]
            await asyncio.gather(*(d.until_seq(answer.seq) for d in following))
        return answer

    async def play(self, device: Recording, move: dict[str, str]) -> Message:
        return await self.send(device, {"type": "play", "board": move, "turn": self.turn()})

    async def exchange(self, device: Recording, tiles: str) -> Message:
        return await self.send(device, {"type": "exchange", "tiles": tiles, "turn": self.turn()})

    async def pass_(self, device: Recording) -> Message:
        return await self.send(device, {"type": "pass", "turn": self.turn()})

    async def preview(self, device: Recording, move: dict[str, str], check: bool) -> Message:
        preview_id = next(self.ids)
        await device.send({"type": "preview", "id": preview_id, "move": {"board": move},
                           "check": check})  # fmt: skip
        return await device.answer(preview_id)

    async def turn_of(self, finder: Finder) -> str:
        """The player to move plays what the finder finds, else exchanges the whole rack
        while the bag allows, else passes; what it did."""
        device = self.to_move()
        online = device.sheet["online"]
        move = finder.move(device.sheet["board"], online["rack"])
        if move is not None:
            answer = await self.play(device, move)
            assert answer.type == "accepted", (move, online["rack"], answer)
            return "move"
        if online["bag"] >= 7:
            answer = await self.exchange(device, "".join(online["rack"]))
            assert answer.type == "accepted", answer
            return "exchange"
        assert (await self.pass_(device)).type == "accepted"
        return "pass"


def gcg(game: Game, token: str) -> tuple[int, str, Any]:
    reply = game.table.api.get(f"/api/tables/{game.table.id}/gcg", token)
    body = reply.body.decode()
    return reply.status, body, json.loads(body) if reply.status != 200 else None


# --- the log, as the store holds it ------------------------------------------------------------


def walk(value: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) of a JSON document, however deep."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key, inner
            yield from walk(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from walk(inner)


# --- servers ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(module_server: ServerProcess) -> ServerProcess:
    return module_server


# --- the game ----------------------------------------------------------------------------------


async def test_an_online_game_played_to_its_end_shows_each_seat_its_own_rack_only(
    server: ServerProcess, finder: Finder
) -> None:
    game = Game.create(server)
    ann, bob = game.seats
    async with phones(*game.devices.values()):
        await game.open()
        first = ann.sheet["online"]
        assert (first["seat"], len(first["rack"]), first["bag"], first["racks"]) == (
            0, 7, 105 - 14, [7, 7]
        )  # fmt: skip
        assert bob.sheet["online"]["seat"] == 1 and bob.sheet["online"]["rack"] != first["rack"]
        assert game["room"].sheet["online"]["rack"] is None
        assert game["room"].sheet["online"]["seat"] is None

        # A preview scores the tiles laid and never says whether a word exists (WS-30).
        wrong = finder.not_a_word(first["rack"])
        assert wrong is not None
        nonsense = {"start": "H8", "direction": "across", "letters": wrong}
        asked = await game.preview(ann, nonsense, check=True)
        assert (asked.type, asked.code) == ("rejected", "no_word_check")
        scored = await game.preview(ann, nonsense, check=False)
        assert scored.type == "preview" and scored.score["total"] > 0 and scored.words == ()

        # A word not in the list is refused with every bad word; rack and turn stay (WS-11).
        seq = game.table.seq
        refused = await game.play(ann, nonsense)
        assert (refused.code, refused.params) == ("words_not_in_list",
                                                  {"words": wrong, "count": 1})  # fmt: skip
        absent = next(f for f in editions.get(EDITION).faces if f not in first["rack"])
        refused = await game.play(ann, {**nonsense, "letters": absent * 2})
        assert (refused.code, refused.params["tiles"][:1]) == ("tiles_not_on_rack", absent)
        refused = await game.send(ann, {"type": "pass", "turn": {**game.turn(), "player": 1}})
        assert refused.code == "not_your_seat"
        again = json.loads(game.table.view(ann.token))
        assert again["seq"] == seq and again["sheet"]["to_move"] == 0
        assert again["sheet"]["online"]["rack"] == first["rack"]

        # The record of an online game is told once it is over (it has every rack).
        for device in (game["room"], ann):
            status, _, refusal = gcg(game, device.token)
            assert (status, refusal["code"]) == (409, "game_not_over")

        # The server's seed deals the racks: a first rack may make no word (then Ann exchanges).
        kind = await game.turn_of(finder)
        played = ann.sheet["online"]["last"]
        assert played["player"] == 0 and played["kind"] == kind
        assert bool(played["words"]) is (kind == "move")
        assert bob.sheet["online"]["last"] == played == game["room"].sheet["online"]["last"]

        # An exchange: the rack is full again, the bag as full as before; nobody is told
        # which tiles went back.
        before = bob.sheet["online"]
        answer = await game.exchange(bob, "".join(before["rack"][:3]))
        assert answer.type == "accepted", answer
        after = bob.sheet["online"]
        assert (len(after["rack"]), after["bag"], after["last"]) == (7, before["bag"], {
            "player": 1, "kind": "exchange", "words": [], "points": 0, "squares": [],
            "count": 3, "timed_out": False})  # fmt: skip
        assert ann.sheet["online"]["racks"] == [7, 7]

        # A phone that comes back catches up from the seq it saw, with its own rack.
        await game.turn_of(finder)
        await ann.close()
        await game.turn_of(finder)  # Bob's
        resumed = await ann.open(after=ann.seq)
        assert resumed.type == "state" and resumed.seq == game.table.seq
        assert ann.sheet["online"]["rack"] == json.loads(game.table.view(ann.token))[
            "sheet"]["online"]["rack"]  # fmt: skip

        # A pass is a turn; a move after it starts the count of passes in a row again.
        assert (await game.pass_(ann)).type == "accepted"
        passed = bob.sheet["online"]
        assert (passed["last"]["kind"], passed["passes"], bob.sheet["to_move"]) == ("pass", 1, 1)

        done = [await game.turn_of(finder) for _ in range(TURNS) if not ann.sheet["ended"]]
        assert ann.sheet["ended"], done
        assert "move" in done and done[-1] in ("move", "pass")
        final = ann.sheet
        print(f"\n{len(done) + 4} turns: {' '.join(done)}; totals {final['totals']}")
        assert final["final"] is not None and final["online"]["ended_racks"] is not None
        for device in game.devices.values():  # HTTP says what the socket said, byte for byte
            assert game.table.view(device.token) == device.view

    secrets = Secrets(await read_log(store_of(server), game.table.id))
    assert secrets.ended is not None and secrets.exchanged
    check_frames(game, secrets)

    status, text, _ = gcg(game, game.table.host)
    assert status == 200 and "#player1 Ann Ann" in text and "#player2 Bob Bob" in text
    imported = gcg_records.to_events(gcg_records.read(text.encode()), None)  # reads back
    assert not imported.differs and not imported.problems
    assert list(imported.totals) == [row["final"] for row in final["final"]]


def check_frames(game: Game, secrets: Secrets) -> None:
    """Every frame each device received against what the log says the racks held."""
    ann, bob = game.seats
    for device in game.devices.values():
        assert device.frames
        for frame in device.frames:
            assert secrets.seed not in frame
            for tiles in secrets.bags.values():
                if len(tiles) > 7:
                    assert bag.rack_notation(tiles) not in frame and encoded(tiles) not in frame
        for _, view in states(device):
            for key, value in walk(view):
                assert key != "seed"
                if key == "tiles":  # a line's tiles: what an exchange or a rack held
                    assert not value, (device.name, view)
    for seat, device in enumerate((ann, bob)):
        seen = list(states(device))
        assert len(seen) > 20
        for seq, view in seen:
            online = view["sheet"]["online"]
            assert (online["seat"], online["rack"]) == (seat, secrets.rack(seq, seat)), seq
            assert (online["ended_racks"] is None) == (seq < ended(secrets))
        for frame in before_end(device, secrets):
            for seq in secrets.racks:
                theirs = secrets.rack(seq, 1 - seat)
                if seq < ended(secrets) and len(theirs) >= 3 and theirs != secrets.rack(seq, seat):
                    assert encoded(theirs) not in frame, (device.name, seq, theirs)
    room = game["room"]
    for _, view in states(room):
        online = view["sheet"]["online"]
        assert (online["seat"], online["rack"]) == (None, None)
    for frame in before_end(room, secrets):
        for seq, racks in secrets.racks.items():
            for rack in racks:
                tiles = [bag.notation(t) for t in rack]
                if seq < ended(secrets) and len(tiles) >= 3:
                    assert encoded(tiles) not in frame, (room.name, seq)


async def test_an_online_game_needs_a_board(server: ServerProcess) -> None:
    table = Table.create(server, start=None)
    reply = table.command("start", {**START, "edition": "pl-literaki"})
    assert (reply.status, reply.json()["code"]) == (400, "no_board")
    reply = table.command("start", {**START, "players": ["Ann"]})
    assert reply.json()["code"] == "player_count"


async def test_a_classic_game_has_no_rack_and_its_record_at_any_time(
    server: ServerProcess,
) -> None:
    table = Table.create(server, start={**START, "mode": "classic"})
    assert json.loads(table.view())["sheet"]["online"] is None
    assert table.api.get(f"/api/tables/{table.id}/gcg", table.host).status == 200
    reply = table.command("p", {"type": "play", "turn": {"game": 1, "player": 0, "number": 0},
                                "board": {"start": "H8", "direction": "across",
                                          "letters": "AA"}})  # fmt: skip
    assert reply.json()["code"] == "not_online"


# --- the phone's list of its games ------------------------------------------------------------


async def test_my_games_lists_every_game_of_a_phone_with_whose_turn(
    server: ServerProcess, finder: Finder
) -> None:
    first, second = Game.create(server), Game.create(server)
    mine = [  # one phone: seat 0 of the first game, seat 1 of the second, and junk
        {"table": first.table.id, "token": first["ann"].token},
        {"table": second.table.id, "token": second["bob"].token},
        {"table": first.table.id, "token": "not-a-token"},
        {"table": "no-such-table", "token": first["ann"].token},
        {"table": first.table.id, "token": first["ann"].token},  # twice: once in the answer
    ]
    api = server.api()
    listed = api.post("/api/games", {"tokens": mine})
    assert listed.status == 200, listed
    games = listed.json()["games"]
    assert [(g["table"], g["your_seat"], g["your_turn"]) for g in games] == [
        (first.table.id, 0, True),
        (second.table.id, 1, False),
    ]
    assert games[0] == {
        "table": first.table.id, "code": first.table.code, "mode": "online",
        "edition": EDITION, "players": ["Ann", "Bob"], "to_move": 0, "your_seat": 0,
        "your_turn": True, "last": None, "ended": False, "seq": 3, "deadline": None,
        "out_of_time": None,
    }  # fmt: skip

    async with phones(*first.devices.values()):
        await first.open()
        # A move, or an exchange when the server's random rack makes no word on the start.
        kind = await first.turn_of(finder)
        assert kind in ("move", "exchange")
        words = first["ann"].sheet["online"]["last"]["words"]
    assert bool(words) == (kind == "move")
    games = api.post("/api/games", {"tokens": mine}).json()["games"]
    assert (games[0]["your_turn"], games[0]["to_move"], games[0]["seq"]) == (False, 1, 4)
    assert games[0]["last"]["kind"] == kind and games[0]["last"]["words"] == words
    assert "rack" not in json.dumps(games)

    viewer = api.post("/api/games", {"tokens": [
        {"table": first.table.id, "token": first["room"].token},
        {"table": second.table.id, "token": second.table.host}]}).json()["games"]  # fmt: skip
    assert [(g["code"], g["your_seat"], g["your_turn"]) for g in viewer] == [
        ("", None, False),  # a viewer never gets the join code
        (second.table.code, 0, True),  # the host plays the first seat
    ]


@pytest.mark.parametrize(
    "body",
    [
        {"tokens": [{"table": "t", "token": "x"}] * 51},
        {"tokens": [{"table": "t", "token": "x" * 129}]},
        {"tokens": [{"table": "t", "token": "x", "seat": 0}]},
        {"tokens": "all"},
        {},
    ],
    ids=["51 tokens", "a long token", "an unknown field", "no list", "nothing"],
)
def test_my_games_refuses_what_no_phone_sends(server: ServerProcess, body: Any) -> None:
    reply = server.api().post("/api/games", body)
    assert (reply.status, reply.json()["code"]) == (400, "bad_message")


# --- no path serves the word list -------------------------------------------------------------


class WordList:
    """The nl list in its order, to tell a response that holds a run of it."""

    def __init__(self) -> None:
        self.rank = {word: n for n, word in enumerate(wordlists.get("nl").keys())}

    def longest_run(self, body: bytes) -> int:
        """The most list words in a row in ``body``, each after the one before in the
        list's order: a list (or any part of it) served as text has a long run, a page's
        text or a sheet a short one."""
        longest = run = 0
        previous = -1
        for token in re.findall(r"[^\W\d_]{2,}", body.decode("utf-8", "replace")):
            rank = self.rank.get(token.upper())
            if rank is None:
                run, previous = 0, -1
                continue
            run = run + 1 if rank > previous else 1
            previous = rank
            longest = max(longest, run)
        return longest


def static_paths() -> list[str]:
    web = ROOT / "web"
    return sorted("/" + str(p.relative_to(web)) for p in web.rglob("*") if p.is_file())


async def test_no_path_serves_the_word_list(server: ServerProcess, finder: Finder) -> None:
    game = Game.create(server)
    async with phones(*game.devices.values()):
        await game.open()
        await game.turn_of(finder)
    words = WordList()
    sample = " ".join(itertools.islice(wordlists.get("nl").keys(), 10_000, 10_060)).lower()
    assert words.longest_run(sample.encode()) == 60  # a piece of the list is found out
    files = static_paths()
    largest = max((ROOT / "web" / p[1:]).stat().st_size for p in files)
    # the largest page, the API's own description, or the protocol's message limit
    limit = max(largest, len(openapi.document()), 64 * 1024)
    api = server.api()
    table = f"/api/tables/{game.table.id}"
    answers = {f"GET {path}": api.get(path) for path in ["/", *files]}
    for tried in ("/wordlists/data/nl.dawg", "/../wordlists/data/nl.dawg",
                  "/%2e%2e/wordlists/data/nl.dawg", "/data/nl.dawg", "/nl.dawg"):  # fmt: skip
        answers[f"GET {tried}"] = reply = api.get(tried)
        assert reply.status == 404, tried
    for path in ("/health", "/api/openapi.json", "/api/catalog", "/api/time"):
        answers[f"GET {path}"] = api.get(path)
    for name, device in game.devices.items():
        for path in ("view", "gcg", "qr.svg", "devices"):
            answers[f"GET {path} as {name}"] = api.get(f"{table}/{path}", device.token)
        answers[f"POST games as {name}"] = api.post(
            "/api/games", {"tokens": [{"table": game.table.id, "token": device.token}]}
        )
    answers["POST seats"] = api.post("/api/seats", {"code": game.table.code})
    move = {"board": {"start": "H8", "direction": "across", "letters": "AA"}}
    answers["POST score"] = api.post("/api/score", {"edition": "nl", "move": move, "check": True})
    assert {a.status for a in answers.values()} <= {200, 403, 404, 409}
    dawg = Path(wordlists.get("nl").path).read_bytes()[4096 : 4096 + 256]
    runs = {asked: words.longest_run(reply.body) for asked, reply in answers.items()}
    for asked, reply in answers.items():
        assert len(reply.body) <= limit, (asked, len(reply.body))
        assert runs[asked] < RUN, asked
        assert dawg not in reply.body, asked
    most = max(runs, key=runs.__getitem__)
    print(
        f"\n{len(answers)} answers, at most {max(len(r.body) for r in answers.values()):,}"
        f" bytes (limit {limit:,}); longest run of list words: {runs[most]} ({most})"
    )


async def test_the_host_plays_the_first_seat_and_a_second_phone_for_it_waits(
    server: ServerProcess,
) -> None:
    table = Table.create(server, start=START)
    online = json.loads(table.view())["sheet"]["online"]
    assert online["seat"] == 0 and len(online["rack"]) == 7
    seats = table.api.post("/api/seats", {"code": table.code}).json()["seats"]
    assert [seat["taken"] for seat in seats] == [True, False]
    asking = Api(table.api.url, new_address()).join(table.code, "player", 0, "")
    assert asking["admitted"] is False  # the host lets its own second phone in


async def test_the_host_who_plays_sees_no_other_rack_by_ending_or_undoing(
    server: ServerProcess, finder: Finder
) -> None:
    """The hostile phone's probe: the host plays seat 0; ending the game and undoing (which
    showed Bob's rack, and the host's own next draw) are refused to every phone."""
    game = Game.create(server)
    ann, bob = game.seats
    async with phones(*game.devices.values()):
        await game.open()
        drawn = [await game.turn_of(finder) for _ in range(3)]
        seq = game.table.seq
        for device in (ann, bob):
            for command in ({"type": "end_game"}, {"type": "undo", "last_line": seq}):
                answer = await game.send(device, command)
                assert (answer.type, answer.code) == ("rejected", "online_final"), drawn
        status, _, refusal = gcg(game, ann.token)
        assert (status, refusal["code"]) == (409, "game_not_over")
        assert game.table.seq == seq and not ann.sheet["ended"]
        rack = "".join(bob.sheet["online"]["rack"])
        for frame in ann.frames:  # no frame the host received holds Bob's rack
            online = json.loads(frame).get("sheet", {}).get("online") or {}
            assert online.get("ended_racks") is None
            assert "".join(online.get("rack") or ()) != rack


def test_the_calculator_word_check_is_limited_per_client_and_keeps_online_plays_list(
    module_server: ServerProcess,
) -> None:
    """``POST /api/score`` with ``check`` answered 8,358 words a second: now a client
    address gets ``WORD_CHECKS_PER_MINUTE`` a minute, and never online play's list."""
    api = Api(module_server.url, new_address())
    move = {"board": {"start": "H8", "direction": "across", "letters": "KAT"}}
    secret = api.post("/api/score", {"edition": "woordstrijd", "move": move, "check": True})
    assert (secret.status, secret.json()["code"]) == (403, "word_check_secret")
    began = time.monotonic()
    statuses = [
        api.post("/api/score", {"edition": "nl", "move": move, "check": True}).status
        for _ in range(10_000)
    ]
    took = time.monotonic() - began
    answered = statuses.count(200)
    assert statuses[: WORD_CHECKS_PER_MINUTE - 1] == [200] * (WORD_CHECKS_PER_MINUTE - 1)
    assert answered + statuses.count(429) == 10_000
    assert answered <= WORD_CHECKS_PER_MINUTE * (1 + int(took // 60))  # a new minute, a new fill
    print(f"\n10,000 checks in {took:.1f} s: {answered} answered, the rest refused 429")
    refused = api.post("/api/score", {"edition": "nl", "move": move, "check": True}).json()
    assert refused["code"] == "rate_limited"
    # The score itself is never limited; another address checks as before.
    plain = api.post("/api/score", {"edition": "nl", "move": move})
    assert plain.status == 200 and plain.json()["score"]["total"] > 0
    other = Api(module_server.url, new_address())
    assert other.post("/api/score", {"edition": "nl", "move": move, "check": True}).status == 200
