"""Faults, with real processes: each test starts the servers (and the Redis) it needs.

kill -9 in the middle of a burst; Redis going away and coming back; four phones sending
at once; junk from phones and HTTP clients. What must hold each time: every acknowledged
command is in the log exactly once, the log has no gap, phones resume where they were, and
junk never changes the log nor gets a 500. The bursts write ``line``s (cells of a duplicate
game) that no other phone's command makes stale: they test the log and the stores, not
turns (test_roles has those).
"""

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from server.stores.redis_streams import RedisStore
from server.stores.sqlite import SqliteStore
from tests.server.redis_server import RedisServer
from tests.server.serving import (
    DUPLICATE,
    Phone,
    ServerProcess,
    Table,
    check_log,
    line,
    new_address,
    phones,
    play,
    points,
    read_log,
    request,
    same_table,
    turn,
)

# --- kill -9 ------------------------------------------------------------------------------

BURST = 300  # commands per phone
KILL_AT = 40  # acknowledgements seen before the kill


async def test_kill_9_in_a_burst_loses_no_acknowledged_command(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data").start()
    try:
        table = Table.create(server, start=DUPLICATE)
        tokens = (table.host, table.join("player", 1))  # phone k writes player k's cell
        members = tuple(table.phone(token) for token in tokens)
        base = table.seq  # the start and the join
        names = [[f"{k}-{n}" for n in range(BURST)] for k in range(len(members))]
        acknowledged = {"start": 1}
        async with phones(*members):
            for phone in members:
                await phone.open()

            async def burst(phone: Phone, mine: list[str], player: int) -> None:
                with contextlib.suppress(ConnectionClosed):
                    for n, name in enumerate(mine):
                        await phone.command(name, line(n, player))

            async def listen(phone: Phone) -> None:
                with contextlib.suppress(ConnectionClosed):
                    while True:
                        message = await phone.receive()
                        assert message.type in ("state", "change", "accepted"), message
                        if message.type == "accepted":
                            acknowledged[message.id] = message.seq
                            if len(acknowledged) == KILL_AT and server.running:
                                server.kill()

            await asyncio.gather(
                *(burst(phone, names[k], k) for k, phone in enumerate(members)),
                *(listen(p) for p in members),
            )
            assert not server.running
            assert KILL_AT <= len(acknowledged) < 1 + 2 * BURST, "the kill came after the burst"

            # On disk, with the server dead: everything acknowledged, once, no gap.
            log = await read_log(SqliteStore(server.data / "tilestream.db"), table.id)
            check_log(log, acknowledged)
            print(f"\nkill -9: {len(acknowledged)} acknowledged, {len(log)} in the log")

            server.start()  # the same port and data
            for phone, token in zip(members, tokens, strict=True):
                seen = phone.seq
                resumed = await phone.open()  # after the last seq it saw
                assert resumed.type == "state" and resumed.seq == len(log) >= seen
                assert phone.view == table.view(token)

            # Each phone sends its whole burst again, as a retrying phone does: what was
            # acknowledged is answered as before, the rest is recorded now.
            for phone in members:
                phone.answers.clear()
            everything = [
                {name: line(n, k) for n, name in enumerate(mine)} for k, mine in enumerate(names)
            ]
            final = base + 2 * BURST
            await asyncio.gather(
                *(play(p, c, until=final) for p, c in zip(members, everything, strict=True))
            )
            for phone in members:
                for name, seq in acknowledged.items():
                    if name in phone.answers:
                        assert phone.answers[name].seq == seq, "a retry got another answer"
                assert all(a.type == "accepted" for a in phone.answers.values())
            assert members[0].view == table.view() and members[1].view == table.view(tokens[1])
            same_table(members[0].view, members[1].view)
            # Each phone's commands in its own order: its last one wrote its cell last.
            assert json.loads(members[0].view)["sheet"]["totals"] == [BURST - 1] * 2 + [0, 0]
    finally:
        server.stop()
    server.assert_no_crash()
    log = await read_log(SqliteStore(server.data / "tilestream.db"), table.id)
    counts = check_log(log, acknowledged)
    assert set(counts) == {"start", *names[0], *names[1]}  # every command, once


# --- Redis away --------------------------------------------------------------------------


@pytest.mark.redis  # a redis-server of its own
@pytest.mark.parametrize("kill", [False, True], ids=["stop", "kill-9"])
async def test_redis_going_away_refuses_clearly_and_loses_nothing(
    tmp_path: Path, kill: bool
) -> None:
    redis = RedisServer(tmp_path / "redis")
    redis.start()
    server = ServerProcess(tmp_path / "data", redis=redis.url)
    try:
        server.start()
        table = Table.create(server, start=DUPLICATE)
        acknowledged, refused = await _lose_redis_and_get_it_back(server, redis, table, kill)
        server.stop()
        log = await read_log(RedisStore(redis.url), table.id)
    finally:
        server.stop()
        redis.stop()
    server.assert_no_crash()
    counts = check_log(log, acknowledged)
    assert set(counts) == set(acknowledged)  # nothing else crept in
    print(f"\nRedis {'killed' if kill else 'stopped'}: {len(refused)} refused, then recorded")


async def _lose_redis_and_get_it_back(
    server: ServerProcess, redis: RedisServer, table: Table, kill: bool
) -> tuple[dict[str, int], list[str]]:
    """Commands before, during and after Redis is away; what was acknowledged and refused."""
    acknowledged: dict[str, int] = {"start": 1}
    refused: list[str] = []
    viewer = table.join("viewer")
    async with phones(table.phone(), table.phone(viewer)) as (phone, room):
        await phone.open()
        await room.open()
        for n in range(10):
            await phone.command(f"a{n}", line(n))
            acknowledged[f"a{n}"] = (await phone.answer(f"a{n}")).seq

        # A burst, and Redis goes away while it is being answered.
        for n in range(40):
            await phone.command(f"b{n}", line(n))
        for n in range(40):
            answer = await phone.answer(f"b{n}")
            if n == 10:
                redis.stop(kill=kill)
            if answer.type == "accepted":
                acknowledged[answer.id] = answer.seq
            else:
                assert answer.code == "store_unavailable", answer
                refused.append(answer.id)

        # Meanwhile: clear refusals, over the socket and over HTTP; the server stays up.
        await phone.command("c0", line(1))
        assert (await phone.answer("c0")).code == "store_unavailable"
        reply = table.command("c1", line(1))
        assert (reply.status, reply.json()["code"]) == (503, "store_unavailable")
        refused += ["c0", "c1"]
        deadline = time.monotonic() + 5  # /health tests a write at most once a second
        while (health := request(server.url, "GET", "/health")).status == 200:
            assert time.monotonic() < deadline, "/health still says ok without Redis"
            await asyncio.sleep(0.1)
        assert (health.status, health.json()["status"]) == (503, "unavailable")  # up, though
        reply = table.api.view(table.id, table.host)
        assert (reply.status, reply.json()["code"]) == (503, "store_unavailable")
        async with phones(table.phone()) as (newcomer,):
            answer = await newcomer.open()
            assert (answer.type, answer.code) == ("rejected", "store_unavailable")

        redis.start()  # the same port and append-only file
        deadline = time.monotonic() + 15
        while True:  # the server finds Redis again by itself
            reply = table.command("probe", line(1))
            if reply.status == 200 or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        assert reply.status == 200, reply
        acknowledged["probe"] = reply.json()["seq"]

        # The phone sends what was refused again, with the same ids: each recorded once; what
        # was acknowledged before is answered as before.
        for name in ["a0", "b0"]:
            phone.answers.pop(name)
            await phone.command(name, line(1))
            assert (await phone.answer(name)).seq == acknowledged[name]
        for name in refused:
            phone.answers.pop(name, None)
            await phone.command(name, line(1))
        for name in refused:
            answer = await phone.answer(name)
            assert answer.type == "accepted", answer
            acknowledged[name] = answer.seq
        last = max(acknowledged.values())
        await room.until_seq(last)  # the room display follows again, live
        await phone.until_seq(last)
        assert phone.view == table.view() and room.view == table.view(viewer)
        same_table(phone.view, room.view)
    return acknowledged, refused


# --- four phones at once --------------------------------------------------------------------

PHONES, EACH = 4, 250


async def test_four_phones_sending_at_once_end_on_the_same_seq_and_state(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data").start()
    try:
        table = Table.create(server, start=DUPLICATE)
        tokens = [table.host, *(table.join("player", seat) for seat in (1, 2, 3))]
        base = table.seq  # the start and three joins
        # No compression: what is tested is order and agreement.
        members = [table.phone(token, compression=None) for token in tokens]
        work = [{f"{k}-{n}": line(n, k) for n in range(EACH)} for k in range(PHONES)]
        async with phones(*members):
            for phone in members:
                await phone.open()
            started = time.perf_counter()
            final = base + PHONES * EACH  # a single process never answers "busy"
            reconnects = await asyncio.gather(
                *(play(p, w, until=final) for p, w in zip(members, work, strict=True))
            )
            took = time.perf_counter() - started
            sent = sum(len(view) for phone in members for _, view in phone.states) / 1e6
            print(
                f"\n{PHONES}×{EACH}: {took:.2f} s, {sent:.0f} MB of views, reconnects {reconnects}"
            )
            answers = {name: a for phone in members for name, a in phone.answers.items()}
            assert {a.type for a in answers.values()} == {"accepted"}
            assert sorted(a.seq for a in answers.values()) == list(range(base + 1, final + 1))
            assert {phone.seq for phone in members} == {final}
            host, *seats = members
            assert host.view == table.view()  # what HTTP says
            views = {phone.view for phone in seats}
            assert views == {table.view(tokens[1])}  # byte-identical on the players' phones
            same_table(host.view, *views)  # and the host's, but the devices
            # Each phone's commands in its own order: its last one wrote its cell last.
            assert json.loads(host.view)["sheet"]["totals"] == [EACH - 1] * PHONES
    finally:
        server.stop()
    server.assert_no_crash()
    log = await read_log(SqliteStore(server.data / "tilestream.db"), table.id)
    acknowledged = {"start": 1, **{name: a.seq for name, a in answers.items()}}
    assert set(check_log(log, acknowledged)) == set(acknowledged)


# --- junk -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One SQLite server for the junk tests."""
    with ServerProcess(tmp_path_factory.mktemp("junk")) as running:
        yield running
    running.assert_no_crash()


@pytest.fixture(scope="module")
def table(server: ServerProcess) -> Table:
    """The table the junk is thrown at: a game and one line (seq 2)."""
    made = Table.create(server)
    assert made.command("line", points(10, turn(0))).status == 200
    return made


JUNK = settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

COMMAND = {"type": "command", "id": "junk", "command": {"type": "enter_points", "points": 5}}
PREVIEW = {
    "type": "preview",
    "id": "junk",
    "move": {"board": {"start": "H8", "direction": "across", "letters": "PLANK"}},
}


def _set(message: Any, path: tuple[str, ...], value: Any) -> Any:
    copy = json.loads(json.dumps(message))
    inner = copy
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return copy


def _not_a(kind: type | tuple[type, ...]) -> st.SearchStrategy[Any]:
    """A JSON value of another type than ``kind`` (bool is not an int here, as in msgspec)."""
    return json_values.filter(
        lambda v: not isinstance(v, kind) or (isinstance(v, bool) and kind is int)
    )


# Valid messages with one field of the wrong type, an unknown tag, or a field too many.
wrong_commands = st.one_of(
    _not_a(str).map(lambda v: _set(COMMAND, ("id",), v)),
    _not_a(int).map(lambda v: _set(COMMAND, ("command", "points"), v)),
    _not_a(dict).map(lambda v: _set(COMMAND, ("command",), v)),
    st.text(max_size=12).map(lambda v: _set(COMMAND, ("command", "type"), v + "?")),
    st.text(min_size=1, max_size=8)
    .filter(lambda k: k not in ("type", "points", "player", "turn"))  # enter_points' own
    .map(lambda k: _set(COMMAND, ("command", k), 1)),
)
wrong_messages = st.one_of(
    wrong_commands,
    st.text(max_size=12).map(lambda v: _set(COMMAND, ("type",), v + "?")),
    _not_a(str).map(lambda v: _set(PREVIEW, ("move", "board", "start"), v)),
    st.text(max_size=8).map(lambda v: _set(PREVIEW, ("move", "board", "direction"), v + "!")),
    st.text(min_size=1, max_size=8)
    .filter(lambda k: k not in COMMAND)
    .map(lambda k: {**COMMAND, k: 1}),
).map(json.dumps)

text = st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=300)
frames = st.one_of(text, st.binary(max_size=300), json_values.map(json.dumps), wrong_messages)

REFUSALS = {"bad_message", "not_joined", "already_joined"}


@JUNK
@given(hello_first=st.booleans(), junk=st.lists(frames, min_size=1, max_size=8))
def test_junk_frames_are_refused_and_change_nothing(
    table: Table, hello_first: bool, junk: list[str | bytes]
) -> None:
    async def throw() -> None:
        async with phones(table.phone()) as (phone,):
            if hello_first:
                assert (await phone.open()).seq == 2
            else:
                await phone.connect()
            for frame in junk:
                await phone.send(frame)
                answer = await phone.receive(timeout=5)  # one answer per frame, in order
                assert (answer.type, answer.code in REFUSALS) == ("rejected", True), answer

    asyncio.run(throw())
    assert table.seq == 2


# Commands of the right shape with wild values: each is recorded or refused with a code, and
# whatever gets recorded still makes a view and an export (never a crash, never a 500).
ints = st.one_of(st.integers(-3, 12), st.integers(-(2**63), 2**63 - 1))
maybe_ints = st.none() | ints
words = st.text(alphabet="PLANKEIJSabcéß?[CH]]1 .-", max_size=12) | st.text(max_size=12)
squares = st.sampled_from(["H8", "G8", "H7", "A1", "O15", "P1", "H16", "8H", ""]) | st.text(
    max_size=4
)
boards = st.fixed_dictionaries(
    {"start": squares, "direction": st.sampled_from(["across", "down"]), "letters": words}
)
typed = st.lists(
    st.lists(
        st.tuples(words, st.sampled_from([None, "2L", "3L", "2W", "3W", "4W", ""]), st.booleans()),
        max_size=9,
    ),
    max_size=8,
)
moves = st.fixed_dictionaries({}, optional={"board": boards, "typed": typed})
# What a phone names of the sheet it saw (a seq, a player, a turn count, a round): what the
# sheet shows as the command is sent (SEEN, filled in then: half the time), none (refused as
# reference_missing), a small number or anything.
SEEN = "seen"
number = st.just(SEEN) | st.integers(0, 3) | ints
seen = st.one_of(st.just(SEEN), st.just(SEEN), st.none(), number)
turns = st.one_of(
    st.just(SEEN),
    st.just(SEEN),
    st.none(),
    st.fixed_dictionaries({"game": number, "player": number, "number": number}),
)
NOT_IN = {"record_move": {"points", "round"}, "record_top": {"player", "turn"}}
wild_commands = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.just("start_game"),
            "edition": st.sampled_from(["nl", "en", "es", "pl-literaki", "woordstrijd", "xx"]),
        },
        optional={
            "mode": st.sampled_from(["classic", "duplicate"]),
            "rules": st.sampled_from(["house", "sbnl", "figs", "pfs", "duplicate", "?"]),
            "players": st.lists(st.none() | st.text(max_size=10), max_size=6),
            "starter": ints,
        },
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["record_move", "record_top"]), "turn": turns, "round": seen},
        optional={"board": boards, "typed": typed, "player": maybe_ints, "points": maybe_ints},
    ).map(lambda c: {k: v for k, v in c.items() if k not in NOT_IN[c["type"]]}),
    st.fixed_dictionaries(
        {"type": st.just("enter_points"), "points": ints, "turn": turns},
        optional={"player": maybe_ints},
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["pass", "exchange", "withdraw_word"]), "turn": turns},
        optional={"player": maybe_ints},
    ),
    st.fixed_dictionaries(
        {"type": st.just("give_penalty"), "player": ints, "points": ints, "last_line": seen}
    ),
    st.fixed_dictionaries({"type": st.just("place_tiles"), "board": boards}),
    st.fixed_dictionaries({"type": st.just("undo"), "last_line": seen}),
    st.fixed_dictionaries({"type": st.just("new_game"), "game": seen}),
    st.fixed_dictionaries({"type": st.sampled_from(["clear_board", "start_clock", "pause_clock"])}),
    st.fixed_dictionaries({"type": st.just("reset_clock"), "minutes": st.sampled_from([1, 2, 3])}),
    st.fixed_dictionaries(
        {"type": st.just("correct_cell"), "round": ints, "player": maybe_ints, "points": maybe_ints}
    ),
    st.fixed_dictionaries(
        {"type": st.just("end_game")},
        optional={"racks": st.lists(st.tuples(st.none() | words, maybe_ints), max_size=5)},
    ),
)


def as_seen(command: dict[str, Any], sheet: dict[str, Any] | None) -> dict[str, Any]:
    """``command`` with each SEEN reference as a phone showing ``sheet`` names it: the turn
    of the command's player (or of the player to move), the newest line, the open round, the
    game."""
    if sheet is None:  # nothing to see: zeros
        meant = {"game": 0, "player": 0, "number": 0}
        named: dict[str, Any] = {"turn": meant, "last_line": 0, "round": 0, "game": 0}
    else:
        player = command.get("player")
        if not (isinstance(player, int) and 0 <= player < len(sheet["players"])):
            player = sheet["to_move"]
        duplicate = sheet["mode"] == "duplicate"
        number = len(sheet["rounds"]) - 1 if duplicate else sheet["turns"][player]
        meant = {"game": sheet["started"], "player": player, "number": number}
        named = {
            "turn": meant,
            "last_line": sheet["last_line"],
            "round": len(sheet["rounds"]) - 1,
            "game": sheet["started"],
        }
    filled = {k: named[k] if v == SEEN else v for k, v in command.items()}
    if isinstance(filled.get("turn"), dict):  # a turn of its own, some of it as seen
        filled["turn"] = {k: meant[k] if v == SEEN else v for k, v in filled["turn"].items()}
    return filled


games = st.sampled_from([
    {"type": "start_game", "edition": "nl", "players": ["A", "B"]},
    {"type": "start_game", "edition": "es", "rules": "figs", "players": ["A", "B"]},
    {"type": "start_game", "edition": "nl", "mode": "duplicate", "players": ["A", "B"]},
    {"type": "start_game", "edition": "woordstrijd", "players": ["A", "B"]},
])  # fmt: skip


@JUNK
@given(start=games, commands=st.lists(wild_commands, min_size=1, max_size=10))
def test_wild_commands_are_recorded_or_refused_never_a_crash(
    server: ServerProcess, start: dict[str, Any], commands: list[dict[str, Any]]
) -> None:
    table = Table.create(server, start=start)

    async def send() -> int:
        async with phones(table.phone()) as (phone,):
            await phone.open()
            for n, wild in enumerate(commands):
                command = as_seen(wild, json.loads(table.view())["sheet"])
                await phone.command(f"w{n}", command)
                answer = await phone.answer(f"w{n}", timeout=5)
                assert answer.type == "accepted" or answer.code, (command, answer)
            return sum(a.type == "accepted" for a in phone.answers.values())

    accepted = asyncio.run(send())
    assert json.loads(table.view())["seq"] >= 1 + accepted  # a command may record several
    reply = table.api.get(f"/api/tables/{table.id}/gcg", table.host)
    assert reply.status == 200 or (400 <= reply.status < 500 and reply.json()["code"]), reply


@JUNK
@given(table_id=st.text(max_size=40), token=st.text(max_size=60), after=json_values)
def test_hello_with_unknown_tables_and_tokens_is_refused(
    table: Table, table_id: str, token: str, after: Any
) -> None:
    async def hello() -> None:
        async with phones(table.phone()) as (phone,):
            await phone.connect()
            for who in ((table_id, token), (table.id, token), (table_id, table.host)):
                await phone.send({"type": "hello", "table": who[0], "token": who[1]})
                answer = await phone.receive(timeout=5)
                assert (answer.type, answer.code) == ("rejected", "bad_token"), (who, answer)
            await phone.send({"type": "hello", "table": table.id, "token": table.host,
                              "after": after})  # fmt: skip
            answer = await phone.receive(timeout=5)
            if not isinstance(after, int) or isinstance(after, bool):
                assert (answer.type, answer.code) == ("rejected", "bad_message")
            elif -(2**63) <= after < 2**63:
                assert (answer.type, answer.seq) == ("state", 2)
            else:  # past 64 bits: refused or read as the very last seq, either is fine
                assert answer.type == "state" or answer.code == "bad_message", answer

    asyncio.run(hello())
    assert table.seq == 2


ENDPOINTS = ["/api/tables/{table}/commands", "/api/join", "/api/score", "/api/tables"]


@JUNK
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    body=st.one_of(
        st.binary(max_size=300),
        json_values.map(lambda v: json.dumps(v).encode()),
        wrong_commands.map(lambda v: json.dumps(v).encode()),  # {"id": …, "command": …}
        wrong_messages.map(str.encode),
    ),
    token=st.sampled_from(["host", "none", "junk"]),
)
def test_junk_http_bodies_are_refused_never_a_500(
    table: Table, endpoint: str, body: bytes, token: str
) -> None:
    bearer = {"host": table.host, "none": None, "junk": "junk"}[token]
    path = endpoint.format(table=table.id)
    reply = request(table.server.url, "POST", path, body, token=bearer, source=new_address())
    assert reply.status < 500, reply
    if endpoint == "/api/tables":  # takes no body: a new table, whatever was sent
        assert reply.status == 201
    else:
        assert 400 <= reply.status < 500, reply
        refused = reply.json()
        assert refused["type"] == "rejected" and refused["code"], refused
    assert table.seq == 2


@JUNK
@given(path=st.text(alphabet="abc/._-%?=&{}", max_size=30), method=st.sampled_from(
    ["GET", "POST", "PUT", "DELETE", "PATCH"]))  # fmt: skip
def test_junk_paths_and_methods_never_get_a_500(table: Table, path: str, method: str) -> None:
    for prefix in ("/", "/api/", f"/api/tables/{table.id}/"):
        body = None if method == "GET" else b"{}"
        reply = request(
            table.server.url, method, prefix + path, body, token=table.host, source=new_address()
        )
        assert reply.status < 500, (method, prefix + path, reply)
    assert table.seq == 2


def test_the_server_survived_the_junk(server: ServerProcess, table: Table) -> None:
    assert request(server.url, "GET", "/health").status == 200
    assert table.seq == 2
    assert server.running
    server.assert_no_crash()
