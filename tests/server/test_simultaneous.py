"""The simultaneous over real server processes on one Redis (and on the 3-node Redis
Cluster): centres whose directors and players sit on different processes play the sealed
game over websockets, and every phone's standings, the organiser's view and the published
results are what the test works out from each room's own record.

Every frame each phone received and every HTTP answer is kept: no sealed rack of a round
reaches anyone before that room drew it (the racks read from the simultaneous's log in the
store), the organiser included, until the window has closed.
"""

import asyncio
import contextlib
import json
import urllib.parse
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis

from server.live.messages import JOINS_PER_MINUTE
from server.stores.redis_streams import RedisStore
from tests.server.redis_server import RedisServer
from tests.server.serving import (
    Api,
    Phone,
    Reply,
    ServerProcess,
    Table,
    new_address,
    phones,
    read_log,
)
from tests.server.simultaneous_helpers import (
    HOUR,
    Centre,
    Journal,
    Organiser,
    expected_standings,
    leaks,
    now_ms,
    percent_tenths,
    room_log_counts,
    sealed_racks,
    seen,
    send,
    shown,
    simultaneous_frames,
    until_frame,
)

pytestmark = pytest.mark.redis

NOW = (-60_000, HOUR)  # a window open from a minute ago for an hour
Two = tuple[str, ServerProcess, ServerProcess]  # the store's URL, two servers on it


def window(opens: int = NOW[0], closes: int = NOW[1]) -> tuple[int, int]:
    at = now_ms()
    return at + opens, at + closes


@pytest.fixture(params=["redis", "cluster"])
def two(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Two]:
    """Two server processes on one Redis, or on the Redis Cluster, emptied first; the URL."""
    if request.param == "redis":
        server: RedisServer = request.getfixturevalue("redis_server")
        client = redis.Redis.from_url(server.url)
        client.flushdb()
        client.close()
        url = server.url
    else:
        url = request.getfixturevalue("redis_cluster").empty()
    a, b = (ServerProcess(tmp_path / name, redis=url) for name in "ab")
    try:
        a.start()
        b.start()
        yield url, a, b
    finally:
        a.stop()
        b.stop()
    a.assert_no_crash()
    b.assert_no_crash()


@contextlib.asynccontextmanager
async def connected(*centres: Centre) -> AsyncIterator[None]:
    """Every phone of the centres connected (and closed on the way out)."""
    async with phones(*(p for centre in centres for p in centre.phones)):
        for centre in centres:
            await centre.connect()
        yield


async def test_three_centres_on_two_processes_stand_as_their_rooms_add_up(
    two: Two,
) -> None:
    url, a, b = two
    journal = Journal()
    organiser = Organiser.create(journal, a, [window()])
    centres = [
        Centre.open(journal, "Club Alpha", ("Ann", "Bob", "Cas"), a, [b, a, b], index=0),
        Centre.open(journal, "Club Beta", ("Dirk", "Eva", "Ann"), b, [a, b, a], index=1),
        Centre.open(journal, "Club Gamma", ("Fay", "Gus"), a, [b, b], index=2),
    ]
    async with connected(*centres):
        for centre in centres:
            assert (await centre.join(organiser, 0)).type == "accepted"
        for centre in centres:  # each phone is told of the simultaneous after the join
            for phone in centre.phones:
                frame = await until_frame(phone, lambda f: f["centres"] == 3)
                assert (frame["centre"], frame["id"]) == (centre.name, organiser.id)
                assert frame["game"]["rounds"] > 15 and not frame["game"]["closed"]
                # no round closed: nobody leads yet, nor has a place
                assert (frame["round"], frame["leaders"], frame.get("you")) == (0, [], None)
        sealed = await sealed_racks(url, organiser.id)
        assert list(sealed) == [0]

        # Before anyone played: the results are sealed; the organiser sees progress only.
        for path in ("/results.json?game=1", "/results.csv?game=1", "/record.json?game=1",
                     "/results.json?game=series"):  # fmt: skip
            reply = organiser.get(path)
            assert (reply.status, reply.json()["code"]) == (403, "results_sealed"), path
        await asyncio.gather(*(centre.play() for centre in centres))
        view = organiser.view(on=b)
        assert [(c["name"], c["closed"], c["ended"]) for c in view["centres"]] == [
            (c.name, len(sealed[0]), True) for c in centres
        ]
        expected = expected_standings(centres)
        assert shown(view["standings"][0]) == expected
        assert view["series"] == [] and not view["games"][0]["closed"]
        tops = sum(r["top"] or 0 for r in centres[0].sheet["rounds"])
        players = sum(len(c.players) for c in centres)
        for centre in centres:
            for seat, phone in enumerate(centre.players):
                place, total, tied = expected[centre.name, centre.names[seat]]
                own = sorted(centre.totals, reverse=True)
                you = {"place": place, "of": players, "total": total,
                       "centre_place": 1 + own.index(total), "centre_of": len(centre.players),
                       "percent_tenths": percent_tenths(total, tops)}  # fmt: skip
                if tied:
                    you["tied"] = True
                frame = await until_frame(phone, lambda f, you=you: f.get("you") == you)
                assert len(frame["leaders"]) == 5 and frame["players"] == players
            # the director's phone: no place of its own, the leaders (20: everyone here)
            frame = await until_frame(centre.director, lambda f: shown(f["leaders"]) == expected)
            assert frame.get("you") is None and frame["players"] == players
            # every centre has closed every round this one has
            assert (frame["round"], frame["level"]) == (len(sealed[0]), 3)
        reply = organiser.get("/results.json?game=1")
        assert (reply.status, reply.json()["code"]) == (403, "results_sealed")
        assert all(seen(journal, r.rack) for r in sealed[0])  # what ``leaks`` looks for
        assert leaks(journal, sealed) == []

        # The window closed by the organiser: the results are published, as the rooms add up.
        closed = organiser.close(1)
        assert closed["games"][0]["closed"]
        await organiser.until_closed(1, on=b)
        results = organiser.get("/results.json?game=1", on=b).json()
        assert {(p["centre"], p["name"]): (p["place"], p["total"], p["tied"])
                for p in results["players"]} == expected  # fmt: skip
        assert [t["rack"] for t in results["tops"]] == [r.rack for r in sealed[0]]
        assert sum(t["points"] for t in results["tops"]) == tops
        assert results["centres"] == [c.name for c in centres]
    for centre in centres:
        racks, tops_ = room_log_counts(await read_log(RedisStore(url), centre.table.id))
        assert racks == tops_ == {n: 1 for n in range(len(sealed[0]))}, centre.name


async def test_a_centre_playing_late_and_a_window_closed_by_the_organiser(
    pair: tuple[ServerProcess, ...], redis_server: RedisServer
) -> None:
    a, b = pair
    journal = Journal()
    later = window(HOUR, 2 * HOUR)
    organiser = Organiser.create(journal, b, [window(), later])
    early = Centre.open(journal, "Early", ("Ann", "Bob"), a, [b, a])
    late = Centre.open(journal, "Late", ("Cas", "Dirk"), b, [a, b], index=1)
    future = Centre.open(journal, "Future", ("Eva",), a, [b])
    after = Centre.open(journal, "After", ("Fay",), b, [a])
    async with connected(early, late, future, after):
        for centre, game in ((early, 0), (late, 0), (future, 1), (after, 0)):
            assert (await centre.join(organiser, game)).type == "accepted"
        refused = await future.draw(0)
        assert (refused.type, refused.code, refused.params) == (
            "rejected", "not_open_yet", {"opens": later[0]})  # fmt: skip
        sealed = await sealed_racks(redis_server.url, organiser.id)

        await early.play()
        view = organiser.view()
        progress = {c["name"]: (c["closed"], c["racked"], c["ended"]) for c in view["centres"]}
        assert progress == {"Early": (len(sealed[0]), False, True), "Late": (0, False, False),
                            "After": (0, False, False), "Future": (0, False, False)}  # fmt: skip
        await late.play()  # its first draw after the early centre finished
        expected = expected_standings([early, late, after])
        assert shown(organiser.view(on=a)["standings"][0]) == expected
        for seat, phone in enumerate(early.players):  # the early phones see the late centre
            place, total, _ = expected[early.name, early.names[seat]]
            await until_frame(phone, lambda f, p=place, t=total: (
                f["you"]["place"], f["you"]["total"], f["you"]["of"]) == (p, t, 5))  # fmt: skip
        reply = organiser.get("/results.json?game=1")
        assert (reply.status, reply.json()["code"]) == (403, "results_sealed")
        assert leaks(journal, sealed) == []

        organiser.close(1)
        refused = await after.draw(0)
        assert (refused.type, refused.code, refused.params) == (
            "rejected", "window_closed", {"game": 0})  # fmt: skip
        await organiser.until_closed(1, on=a)
        again = Centre.open(journal, "Again", ("Gus",), a, [a])
        async with connected(again):
            answer = await again.join(organiser, 0)
            assert (answer.type, answer.code) == ("rejected", "window_closed")
        results = organiser.get("/results.json?game=1", on=a).json()
        assert {(p["centre"], p["name"]): (p["place"], p["total"], p["tied"])
                for p in results["players"]} == expected  # fmt: skip
        csv = organiser.get("/results.csv?game=1")
        assert csv.status == 200 and csv.content_type.startswith("text/csv")
        assert len(csv.body.decode().splitlines()) == 2 + len(expected)
        for path in ("/results.json?game=2", "/record.json?game=2", "/results.json?game=series"):
            reply = organiser.get(path)
            assert (reply.status, reply.json()["code"]) == (403, "results_sealed"), path
        record = organiser.get("/record.json?game=1", on=b)
        assert record.status == 200
        training = journal.call(a, "POST", "/api/training", record.body)
        assert training.status == 201, training
        trained = training.json()
        assert list(trained["racks"]) == [r.rack for r in sealed[0]]
        assert list(trained["tops"]) == [r["top"] for r in early.sheet["rounds"] if r["rack"]]


async def test_a_series_of_two_games_sums_each_player_across_rooms(
    pair: tuple[ServerProcess, ...], redis_server: RedisServer
) -> None:
    a, b = pair
    journal = Journal()
    organiser = Organiser.create(journal, a, [window(), window()])
    rooms = [
        Centre.open(journal, "Club A", ("Ann", "Bob"), a, [b, a], index=0),
        Centre.open(journal, "Club B", ("Cas", "Dirk"), b, [a, b], index=1),
        Centre.open(journal, "Club A", ("Ann", "Bob"), b, [a, b], index=2),
        Centre.open(journal, "Club B", ("Cas", "Dirk"), a, [b, a], index=0),
    ]
    async with connected(*rooms):
        for n, room in enumerate(rooms):
            assert (await room.join(organiser, n // 2)).type == "accepted"
        await asyncio.gather(*(room.play() for room in rooms))
        view = organiser.view(on=b)
        per_game = [expected_standings(rooms[:2]), expected_standings(rooms[2:])]
        assert [shown(rows) for rows in view["standings"]] == per_game
        summed = {k: per_game[0][k][1] + per_game[1][k][1] for k in per_game[0]}
        series = {(r["centre"], r["name"]): (r["total"], r["rounds"]) for r in view["series"]}
        assert series == {k: (total, 2) for k, total in summed.items()}
        places = {k: 1 + sum(t > total for t in summed.values()) for k, total in summed.items()}
        assert {(r["centre"], r["name"]): r["place"] for r in view["series"]} == places
        for room in rooms[2:]:
            for seat, phone in enumerate(room.players):
                k = (room.name, room.names[seat])
                # The other centre may finish its game a moment later: until then this
                # player's total is final but the place is not, so wait for both.
                frame = await until_frame(phone, lambda f, k=k: f.get("series") is not None
                                          and f["series"]["total"] == summed[k]
                                          and f["series"]["place"] == places[k])  # fmt: skip
                assert frame["series"]["of"] == 4
                assert frame["games"] == 2 and frame["game"]["game"] == 1
        assert leaks(journal, await sealed_racks(redis_server.url, organiser.id)) == []
        organiser.close(1)
        reply = organiser.get("/results.json?game=series")
        assert (reply.status, reply.json()["code"]) == (403, "results_sealed")
        organiser.close(2)
        await organiser.until_closed(2, on=b)
        published = organiser.get("/results.json?game=series", on=b).json()
        assert published["games"] == 2
        assert {(p["centre"], p["name"]): (p["place"], p["total"], p["games"])
                for p in published["players"]} == {
            k: (places[k], total, 2) for k, total in summed.items()}  # fmt: skip


async def test_a_centres_process_killed_mid_round_finishes_the_round_once(
    pair: tuple[ServerProcess, ...], redis_server: RedisServer
) -> None:
    a, b = pair
    journal = Journal()
    organiser = Organiser.create(journal, b, [window()])
    centre = Centre.open(journal, "Club Kill", ("Ann", "Bob", "Cas"), a, [a, b, a])
    async with connected(centre):
        assert (await centre.join(organiser, 0)).type == "accepted"
        assert await centre.play_round(0)
        drawn = await centre.draw(1, command_id="draw-1")
        assert drawn.type == "accepted"
        points = [await centre.slip(seat, 1) for seat in (0, 1)]
        a.kill()
        for phone in (centre.director, centre.players[0], centre.players[2]):
            with contextlib.suppress(Exception):
                await phone.close()
        a.start()
        for phone in (centre.director, centre.players[0], centre.players[2]):
            assert (await phone.open()).type == "state"
        again = await centre.draw(1, command_id="draw-1")  # the director's phone retries
        assert (again.type, again.seq) == ("accepted", drawn.seq)
        points.append(await centre.slip(2, 1))
        closed = await centre.close_round(1, command_id="close-1")
        retried = await send(centre.director, {"type": "close_round", "round": 1}, "close-1")
        assert (retried.type, retried.seq) == ("accepted", closed.seq)
        assert [s or 0 for s in centre.sheet["rounds"][1]["scores"]] == points
        centre.totals = [t + p for t, p in zip(centre.totals, points, strict=True)]
        assert await centre.play_round(2)
        expected = expected_standings([centre])  # the restarted process follows it again
        await until_frame(centre.director, lambda f: shown(f["leaders"]) == expected)
    sealed = await sealed_racks(redis_server.url, organiser.id)
    log = await read_log(RedisStore(redis_server.url), centre.table.id)
    assert [r.seq for r in log] == list(range(1, len(log) + 1))
    racks, tops = room_log_counts(log)
    assert racks == tops == {0: 1, 1: 1, 2: 1}
    assert ["".join(r["rack"]) for r in centre.sheet["rounds"][:3]] == [
        r.rack for r in sealed[0][:3]]  # fmt: skip
    assert leaks(journal, sealed) == []


async def test_who_may_do_what_at_a_simultaneous(pair: tuple[ServerProcess, ...]) -> None:
    a, b = pair
    journal = Journal()
    organiser = Organiser.create(journal, a, [window()])
    centre = Centre.open(journal, "Club", ("Ann", "Bob"), a, [b, a])
    async with connected(centre):
        player = centre.players[0]
        for body in ({"type": "join_simultaneous", "code": organiser.code, "centre": "Mine"},
                     {"type": "draw_rack", "round": 0}):  # fmt: skip
            answer = await send(player, body)
            assert (answer.type, answer.code) == ("rejected", "host_only"), body
        assert (await centre.join(organiser, 0)).type == "accepted"
        answer = await send(player, {"type": "draw_rack", "round": 0})
        assert (answer.type, answer.code) == ("rejected", "host_only")
        for body in ({"type": "set_rack", "rack": "ABCDEFG", "round": 0},
                     {"type": "record_top", "points": 30, "round": 0},
                     {"type": "new_game", "game": 1}):  # fmt: skip
            answer = await send(centre.director, body)
            assert (answer.type, answer.code) == ("rejected", "sealed_game"), body
        # The simultaneous is no table: not to join, read, command or say hello to.
        joined = journal.call(b, "POST", "/api/join", {"code": organiser.code, "role": "player",
                              "seat": 0, "device": "d" * 32})  # fmt: skip
        assert joined.json()["code"] == "not_a_table"
        tries: list[tuple[str, str, object]] = [
            ("GET", f"/api/tables/{organiser.id}/view", None),
            ("GET", f"/api/tables/{organiser.id}/record.json", None),
            ("POST", f"/api/tables/{organiser.id}/commands",
             {"id": "x", "command": {"type": "draw_rack"}}),
        ]  # fmt: skip
        for method, path, sent in tries:
            reply = journal.call(b, method, path, sent, token=organiser.token)
            assert reply.json()["code"] == "not_a_table", path
        hello = Phone(a.ws_url, organiser.id, organiser.token)
        async with phones(hello):
            answer = await hello.open()
            assert (answer.type, answer.code) == ("rejected", "not_a_table")
        for token in ("wrong", centre.table.host):
            reply = organiser.get(token=token, on=b)
            assert reply.json()["code"] == "bad_token", token
            reply = journal.call(a, "POST", f"/api/simultaneous/{organiser.id}/close?game=1", {},
                                 token=token)  # fmt: skip
            assert reply.json()["code"] == "bad_token", token
        assert not organiser.view()["games"][0]["closed"]
        assert not json.dumps(organiser.view()).count('"rack"')


async def test_a_phone_that_comes_back_is_sent_its_standings_at_once(
    pair: tuple[ServerProcess, ...],
) -> None:
    a, b = pair
    journal = Journal()
    organiser = Organiser.create(journal, a, [window()])
    centre = Centre.open(journal, "Club Terug", ("Ann", "Bob"), a, [a, b])
    async with connected(centre):
        assert (await centre.join(organiser, 0)).type == "accepted"
        assert await centre.play_round(0)
        expected = expected_standings([centre])
        bob = centre.players[1]
        first = await until_frame(bob, lambda f: shown(f["leaders"]) == expected)
        await bob.close()  # the phone reloads: nothing changes in any room meanwhile
        sent = len(simultaneous_frames(bob))
        assert (await bob.open()).type == "state"
        again = await until_frame(bob, lambda f: len(simultaneous_frames(bob)) > sent)
        assert again == first


async def test_a_simultaneous_deleted_by_its_organiser_leaves_its_centres_their_rooms(
    pair: tuple[ServerProcess, ...],
) -> None:
    a, b = pair
    journal = Journal()
    organiser = Organiser.create(journal, a, [window()])
    centre = Centre.open(journal, "Club Weg", ("Ann", "Bob"), b, [a, b])
    async with connected(centre):
        assert (await centre.join(organiser, 0)).type == "accepted"
        assert await centre.play_round(0)
        reply = journal.call(b, "DELETE", f"/api/simultaneous/{organiser.id}", token="wrong")
        assert (reply.status, reply.json()["code"]) == (401, "bad_token")
        reply = journal.call(b, "DELETE", f"/api/simultaneous/{organiser.id}",
                             token=organiser.token)  # fmt: skip
        assert reply.status == 204
        for on in (a, b):
            gone = organiser.get(token=organiser.token, on=on)
            assert (gone.status, gone.json()["code"]) == (401, "bad_token")
            reply = organiser.get("/results.json?game=1", on=on)
            assert (reply.status, reply.json()["code"]) == (404, "no_simultaneous")
        refused = await centre.draw(1)  # the room is there; its sealed game is not
        assert (refused.type, refused.code) == ("rejected", "no_simultaneous")
        assert centre.sheet["rounds"][0]["top"] is not None  # what it played stays


def test_a_simultaneous_code_is_guessed_no_faster_than_a_join_code(
    pair: tuple[ServerProcess, ...],
) -> None:
    a, b = pair
    organiser = Organiser.create(Journal(), a, [window()])
    start = {"type": "start_game", "edition": "nl", "mode": "duplicate", "players": []}
    room = Table.create(b, start=start)
    guesser = Api(b.url, source=new_address())  # one address, guessing over both processes
    for n in range(JOINS_PER_MINUTE):
        wrong = {"type": "join_simultaneous", "code": f"ZZZ{n:03d}", "centre": "Club"}
        reply = guesser.command(room.id, room.host, f"guess-{n}", wrong)
        assert (reply.status, reply.json()["code"]) == (404, "no_simultaneous")
    right = {"type": "join_simultaneous", "code": organiser.code, "centre": "Club"}
    reply = Api(a.url, source=guesser.source).command(room.id, room.host, "right", right)
    assert (reply.status, reply.json()["code"]) == (429, "rate_limited")
    elsewhere = Api(a.url, source=new_address())  # the director's own network: not held up
    assert elsewhere.command(room.id, room.host, "right", right).status == 200


@pytest.mark.parametrize("game", ["0", "13", "x", "²", "9" * 5000, "-1", ""])
def test_a_game_that_is_no_game_of_the_simultaneous_is_refused(
    pair: tuple[ServerProcess, ...], game: str
) -> None:
    a, _ = pair
    organiser = Organiser.create(Journal(), a, [window()])
    game = urllib.parse.quote(game)
    for path in ("/results.json", "/results.csv", "/record.json"):
        reply = organiser.get(f"{path}?game={game}")
        assert (reply.status, reply.json()["code"]) == (400, "no_such_game"), (path, game)
    closing = a.api().post(f"/api/simultaneous/{organiser.id}/close?game={game}", {},
                           token=organiser.token)  # fmt: skip
    assert (closing.status, closing.json()["code"]) == (400, "no_such_game")


def test_a_second_room_under_a_centres_name_is_refused_and_leaves_no_centre(
    pair: tuple[ServerProcess, ...],
) -> None:
    # Two rooms of one game under one name would be one club in the standings and the
    # results, and one player in a series; on two processes, as a federation's clubs are.
    a, b = pair
    organiser = Organiser.create(Journal(), a, [window(), window()])
    start = {"type": "start_game", "edition": "nl", "mode": "duplicate", "players": []}
    delft, brussels, later = (Table.create(server, start=start) for server in (a, b, b))

    def join(room: Table, name: str, game: int = 0) -> Reply:
        body = {"type": "join_simultaneous", "code": organiser.code, "game": game, "centre": name}
        return room.command(f"join-{name}-{game}", body)

    assert join(delft, "Woordclub Delft").status == 200
    taken = join(brussels, "  woordclub   DELFT ")
    assert (taken.status, taken.json()["code"]) == (409, "centre_name_taken")
    assert taken.json()["params"] == {"name": "Woordclub Delft"}
    assert join(brussels, "Club Bruxelles").status == 200
    assert join(later, "Woordclub Delft", game=1).status == 200  # its room of the next game
    centres = [(c["name"], c["game"]) for c in organiser.view()["centres"]]
    assert sorted(centres) == [
        ("Club Bruxelles", 0),
        ("Woordclub Delft", 0),
        ("Woordclub Delft", 1),
    ]
