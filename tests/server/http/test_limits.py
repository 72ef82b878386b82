"""Joins behind one router (issue 25, item 8), over real HTTP and websockets: a guess of a
join code costs its address (20 a minute, as before), a join of a table the code names costs
that table (400 requests a minute: a phone asks for the seats, then joins). So the 200 phones
of a room behind one address join in a minute, guessing codes is as slow as ever, and a
burst of guesses in flight at once is held to the same limit. On Redis both limits are
counted across the server processes (docs/decisions.md, "Joins behind one router").
"""

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.server.redis_server import RedisServer
from tests.server.serving import (
    DUPLICATE,
    Api,
    Reply,
    ServerProcess,
    Table,
    device_key,
    new_address,
    phones,
)

GUESSES = 20  # --joins-per-minute's default
ROOM = 200  # phones of one room behind one router
WITHIN = 120.0  # seconds the room may take to join


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One SQLite server with the default limits; every test makes its own tables."""
    with ServerProcess(tmp_path_factory.mktemp("limits")) as running:
        yield running
    running.assert_no_crash()


def unknown_code(n: int) -> str:
    """A code no table has: codes never hold 0, O, 1 or I."""
    return f"{n:06d}".replace("1", "0")


def join_as_a_phone(api: Api, code: str, role: str = "viewer", seat: int | None = None) -> Reply:
    """What the app does with a code: ask for the seats, then join; the join's answer (or
    the seats' refusal)."""
    seats = api.post("/api/seats", {"code": code})
    if seats.status != 200:
        return seats
    return api.post("/api/join", {"code": code, "role": role, "seat": seat, "device": device_key()})


def refusal(reply: Reply) -> tuple[int, str]:
    return reply.status, reply.json().get("code", "")


async def test_two_hundred_phones_behind_one_address_join_one_table_in_time(
    server: ServerProcess,
) -> None:
    table = Table.create(server, start=DUPLICATE)
    router = server.api(new_address())  # the club's one address
    began = time.monotonic()

    def phone(n: int) -> Reply:  # the four players first, then the room's other phones
        return join_as_a_phone(router, table.code, *(("player", n) if n < 4 else ("viewer",)))

    with ThreadPoolExecutor(8) as pool:  # phones come in together, a few at a time
        joined = list(pool.map(phone, range(ROOM)))
    took = time.monotonic() - began
    assert [reply.status for reply in joined] == [200] * ROOM, {refusal(r) for r in joined}
    assert took < WITHIN

    # Every phone is at the table: its socket says hello and gets the sheet as it stands.
    seq = table.seq
    members = [table.phone(reply.json()["token"]) for reply in joined]
    async with phones(*members):
        hellos = await asyncio.gather(*(member.open() for member in members))
    assert {(hello.type, hello.seq) for hello in hellos} == {("state", seq)}


def test_a_table_that_had_its_joins_of_the_minute_refuses_more_from_any_address(
    tmp_path: Path,
) -> None:
    with ServerProcess(tmp_path, options=("--table-joins-per-minute", "6")) as running:
        table, other = Table.create(running), Table.create(running)
        router = running.api(new_address())
        assert [join_as_a_phone(router, table.code).status for _ in range(3)] == [200] * 3
        for api in (router, running.api(new_address())):
            assert refusal(join_as_a_phone(api, table.code)) == (429, "table_joins_busy")
        assert join_as_a_phone(router, other.code).status == 200  # each table its own
        assert refusal(router.post("/api/seats", {"code": unknown_code(1)})) == (
            404, "unknown_code"
        )  # fmt: skip  # a busy table costs the address no guess
    running.assert_no_crash()


@pytest.mark.parametrize("path", ["/api/seats", "/api/join"])
def test_guessing_codes_from_one_address_is_refused_after_twenty_a_minute(
    server: ServerProcess, path: str
) -> None:
    table = Table.create(server)
    guesser = server.api(new_address())
    body = {"role": "viewer", "device": device_key()} if path == "/api/join" else {}
    answers = [refusal(guesser.post(path, {"code": unknown_code(n), **body}))
               for n in range(GUESSES + 1)]  # fmt: skip
    assert answers == [(404, "unknown_code")] * GUESSES + [(429, "rate_limited")]
    # Once refused, a right code is refused too: the refusal tells no code from another.
    assert refusal(guesser.post(path, {"code": table.code, **body})) == (429, "rate_limited")
    assert join_as_a_phone(server.api(new_address()), table.code).status == 200


def test_joins_of_a_known_table_buy_no_guesses_and_spend_none(server: ServerProcess) -> None:
    table = Table.create(server)
    api = server.api(new_address())
    steps = [(table.code, 200), (unknown_code(2), 404)] * GUESSES + [
        (unknown_code(3), 429), (table.code, 429),
    ]  # fmt: skip
    answers = [(code, join_as_a_phone(api, code).status) for code, _ in steps]
    assert answers == steps


def test_a_burst_of_guesses_in_flight_at_once_is_held_to_the_limit(
    server: ServerProcess,
) -> None:
    guesser = server.api(new_address())
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(
            lambda n: refusal(guesser.post("/api/seats", {"code": unknown_code(n)})),
            range(3 * GUESSES),
        ))  # fmt: skip
    assert sorted(answers) == sorted(
        [(404, "unknown_code")] * GUESSES + [(429, "rate_limited")] * 2 * GUESSES
    )


@pytest.mark.redis
def test_two_processes_on_one_redis_count_one_limit(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    options = ("--table-joins-per-minute", "10")
    pair = [ServerProcess(tmp_path / n, redis=redis_server.url, options=options) for n in "ab"]
    with pair[0], pair[1]:
        guesser = new_address()
        apis = [server.api(guesser) for server in pair]
        answers = [refusal(apis[n % 2].post("/api/seats", {"code": unknown_code(n + 100)}))
                   for n in range(GUESSES + 2)]  # fmt: skip
        assert answers == [(404, "unknown_code")] * GUESSES + [(429, "rate_limited")] * 2

        table = Table.create(pair[0])
        joined = [join_as_a_phone(pair[n % 2].api(new_address()), table.code)
                  for n in range(5)]  # fmt: skip  # 10 requests, over both processes
        assert [reply.status for reply in joined] == [200] * 5
        for server in pair:
            busy = join_as_a_phone(server.api(new_address()), table.code)
            assert refusal(busy) == (429, "table_joins_busy")
    for server in pair:
        server.assert_no_crash()
