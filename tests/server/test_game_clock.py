"""The game clock over real websockets between real server processes (issue 27): the times
every phone is sent are the server's, folded from the timestamps in the log, so after a
server process is killed and started again the clock is exactly what it was, and the time
kept running meanwhile, as a chess clock on the table does.

With SQLite one process serves the table and is killed; with Redis two processes serve it,
the phones on both, and one of them is killed while the other goes on serving.
"""

import json
import time
from pathlib import Path
from typing import Any

import pytest

from server.stores.sqlite import SqliteStore
from tests.server.in_process import Clock, serving
from tests.server.serving import Api, Phone, ServerProcess, Table, device_key, new_address, phones

MINUTE = 60_000  # ms
START = {"type": "start_game", "edition": "en", "rules": "wespa", "players": ["Ann", "Bob"]}


def turn(player: int, number: int = 0) -> dict[str, int]:
    return {"game": 1, "player": player, "number": number}


def clock_of(phone: Phone) -> dict[str, Any]:
    """The game clock as the phone was last sent it."""
    clock: dict[str, Any] = json.loads(phone.view)["sheet"]["game_clock"]
    return clock


def server_time(server: ServerProcess) -> int:
    reply = server.api().get("/api/time")
    assert reply.status == 200, reply
    return int(reply.json()["now"])


async def done(phone: Phone, name: str, command: dict[str, Any]) -> int:
    """Send ``command`` and wait until the phone holds the view it made; its seq."""
    await phone.command(name, command)
    answer = await phone.answer(name)
    assert answer.type == "accepted", answer
    await phone.until_seq(answer.seq)
    return answer.seq


@pytest.mark.parametrize("store", ["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
async def test_the_game_clock_is_the_logs_after_a_server_process_is_killed(
    store: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    redis = request.getfixturevalue("redis_server").url if store == "redis" else None
    count = 2 if redis else 1
    servers = [ServerProcess(tmp_path / f"s{i}", redis=redis) for i in range(count)]
    for server in servers:
        server.start()
    first, other = servers[0], servers[-1]  # the one killed, and the one Bob's phone is on
    try:
        table = Table.create(first, start={**START, "clock_minutes": 1})
        ann = Api(first.url, new_address()).join(table.code, "player", 0)["token"]
        bob = Api(first.url, new_address()).join(table.code, "player", 1)["token"]
        host, anna = table.phone(), table.phone(ann)
        bas = table.on(other).phone(bob)
        async with phones(host, anna, bas) as members:
            for phone in members:
                await phone.open()
            assert clock_of(host)["started"] is False
            await done(host, "clock-start", {"type": "start_game_clock"})
            started = clock_of(host)["since"]
            seq = await done(anna, "ann-1", {"type": "enter_points", "points": 12, "turn": turn(0)})
            switched = clock_of(anna)  # Bob's time runs from Ann's line on
            assert switched["running"] == 1
            ann_used = switched["since"] - started
            assert switched["left"] == [MINUTE - ann_used, MINUTE]
            await bas.until_seq(seq)  # Bob taps the clock his phone shows running for him
            seq = await done(bas, "bob-tap", {"type": "switch_clock", "turn": turn(1)})
            tapped = clock_of(bas)
            bob_used = tapped["since"] - switched["since"]
            assert tapped["running"] == 0
            assert tapped["left"] == [MINUTE - ann_used, MINUTE - bob_used]
            await anna.until_seq(seq)
            assert clock_of(anna) == tapped  # the same clock on either process
            # Each phone counts down from the same numbers in server time.
            now = server_time(first)
            assert 0 <= now - tapped["since"] < 5_000

        killed = time.monotonic()
        first.restart(kill=True)
        down = round((time.monotonic() - killed) * 1000)

        host, anna = table.phone(), table.phone(ann)
        bas = table.on(other).phone(bob)
        async with phones(host, anna, bas) as members:
            for phone in members:
                await phone.open(after=0)  # the whole view again
                assert phone.seq == seq
                assert clock_of(phone) == tapped  # exactly the clock it was
            # Bob's line after his tap leaves Ann's time running: it ran on while the server
            # was away, and the line counts all of it.
            await done(bas, "bob-1", {"type": "enter_points", "points": 9, "turn": turn(1)})
            written = clock_of(bas)
            ann_run = written["since"] - tapped["since"]
            assert ann_run >= down - 50
            assert written["running"] == 0
            assert written["left"] == [MINUTE - ann_used - ann_run, MINUTE - bob_used]
            await done(anna, "ann-2", {"type": "enter_points", "points": 9, "turn": turn(0, 1)})
            after = clock_of(anna)
            ann_run += after["since"] - written["since"]
            assert after["running"] == 1
            assert after["left"] == [MINUTE - ann_used - ann_run, MINUTE - bob_used]
            # Bob's time has not run out by the server's clock: a phone calling it is refused.
            await bas.command("call", {"type": "call_time", "player": 1})
            refused = await bas.answer("call")
            assert (refused.type, refused.code) == ("rejected", "not_due")
            # A seat whose time does not run does not tap the clock; the host pauses it.
            await anna.command("tap", {"type": "switch_clock", "turn": turn(1)})
            refused = await anna.answer("tap")
            assert (refused.code, refused.params) == ("not_your_clock", {"player": 1})
            await done(host, "pause", {"type": "pause_game_clock"})
            paused = clock_of(host)
            assert paused["running"] is None and paused["paused"] is True
            await bas.until_seq(host.seq)
            assert clock_of(bas) == paused
    finally:
        for server in servers:
            server.stop()
    for server in servers:
        server.assert_no_crash()


def test_a_clock_length_out_of_range_is_refused_with_its_code(tmp_path: Path) -> None:
    with ServerProcess(tmp_path) as server:
        api = server.api()
        made = api.create_table()
        reply = api.command(made["table"], made["token"], "s", {**START, "clock_minutes": 500})
        assert reply.status == 400
        assert reply.json()["code"] == "clock_minutes_out_of_range"
        assert reply.json()["params"] == {"minutes": 500, "min": 1, "max": 180}
    server.assert_no_crash()


# --- the phone's list of its games ---------------------------------------------------------


@pytest.mark.parametrize(
    ("edition", "rules", "out"),
    [("nl", "sbnl", "lost"), ("pl", "pfs", "all")],
)
async def test_the_games_list_says_why_the_player_to_move_makes_no_move(
    edition: str, rules: str, out: str, tmp_path: Path
) -> None:
    """SBNL: Ann's time runs out and she has lost; PFS: Ann's and then Bob's run out. Either
    way the list of the players' games says so instead of whose turn it is."""
    clock = Clock()
    async with serving(SqliteStore(tmp_path / "t.db"), clock) as server:
        made = (await server.call("POST", "/api/tables")).json()
        host = made["token"]

        async def send(name: str, command: dict[str, Any], token: str = host) -> None:
            body = {"id": name, "command": command}
            sent = await server.call("POST", f"/api/tables/{made['table']}/commands", body, token)
            assert sent.status == 200, sent

        start = {**START, "edition": edition, "rules": rules, "clock_minutes": 1}
        await send("start", start)
        seats = []
        for seat in (0, 1):
            joining = {"code": made["code"], "role": "player", "seat": seat, "device": device_key()}
            seats.append((await server.call("POST", "/api/join", joining)).json()["token"])

        async def listed() -> list[tuple[bool, str | None]]:
            """Each player's row: their turn, and why nobody moves."""
            kept = [{"table": made["table"], "token": token} for token in seats]
            games = (await server.call("POST", "/api/games", {"tokens": kept})).json()["games"]
            return [(game["your_turn"], game["out_of_time"]) for game in games]

        await send("clock", {"type": "start_game_clock"})
        assert await listed() == [(True, None), (False, None)]
        clock.advance(61)
        await send("ann-out", {"type": "call_time", "player": 0})
        if out == "all":  # the turn passed over Ann to Bob, whose time runs on
            assert await listed() == [(False, None), (True, None)]
            clock.advance(61)
            await send("bob-out", {"type": "call_time", "player": 1})
        assert await listed() == [(False, out), (False, out)]
