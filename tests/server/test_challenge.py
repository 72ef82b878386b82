"""The challenge over real websockets between a real server process and real phones: the
server judges the challenged move against the edition's real list (Dutch: OpenTaal), and
the verdict and its consequence reach every phone of the table as one change; the log the
store keeps says the same, and a refusal names its code.

How fast the answer comes is ``bench.challenge``'s to measure.
"""

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

import wordlists
from events.events import ChallengeJudged, WordWithdrawn
from server.stores.sqlite import SqliteStore
from tests.server.serving import Phone, ServerProcess, Table, phones, read_log, turn

START = {"type": "start_game", "edition": "nl", "players": ["Ann", "Bob"]}
PLANK = {"start": "H8", "direction": "across", "letters": "PLANK"}  # Ann: 28
#: Bob's KOK across G12–G14, on top of PLANK's K: KOK, and KK down through the K.
KOK_KK = {"start": "G12", "direction": "across", "letters": "KOK"}
#: Bob's KOK down from PLANK's K: one word, in the list.
KOK = {"start": "H12", "direction": "down", "letters": "OK"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("challenge")) as running:
        yield running
    running.assert_no_crash()


def sheet(phone: Phone) -> dict[str, Any]:
    return json.loads(phone.view)["sheet"]


async def played(table: Table, *members: Phone, bob: dict[str, str]) -> int:
    """Ann's PLANK and Bob's ``bob`` recorded from their own phones (the first two of
    ``members``); every phone has the sheet after them. The seq of Bob's move."""
    ann, bob_phone = members[0], members[1]
    await ann.command("ann", {"type": "record_move", "board": PLANK, "turn": turn(0)})
    assert (await ann.answer("ann")).type == "accepted"
    await bob_phone.command("bob", {"type": "record_move", "board": bob, "turn": turn(1)})
    answer = await bob_phone.answer("bob")
    assert answer.type == "accepted", answer
    await asyncio.gather(*(p.until_seq(answer.seq) for p in members))
    return answer.seq


async def test_a_challenge_is_judged_against_the_real_list_on_every_phone(
    server: ServerProcess,
) -> None:
    listed = wordlists.get("nl").contains
    assert listed("KOK") and not listed("KK")  # the list this server judges by
    table = Table.create(server, start=START)
    seats = [table.join("player", 0), table.join("player", 1), table.join("viewer")]
    async with phones(*(table.phone(token) for token in seats), table.phone()) as members:
        for phone in members:
            await phone.open()
        ann, bob, room, _ = members  # and the host's phone
        move = await played(table, *members, bob=KOK_KK)
        assert sheet(room)["totals"][1] > 0

        await ann.command("c", {"type": "challenge", "line": move, "player": 0})
        answer = await ann.answer("c")
        assert (answer.type, answer.seq) == ("accepted", move + 2)  # the verdict, the withdrawal
        await asyncio.gather(*(p.until_seq(answer.seq) for p in members))
        for phone in members:
            seen = sheet(phone)
            (verdict,) = seen["challenges"]
            assert (verdict["valid"], verdict["words"], verdict["bad"]) == (
                False,
                ["KOK", "KK"],
                ["KK"],  # house rules name the word the list lacks
            )
            assert (verdict["challenger"], verdict["player"], verdict["line"]) == (0, 1, move)
            assert [line["kind"] for line in seen["lines"]] == ["move", "withdrawn"]
            assert seen["totals"] == [28, 0] and seen["to_move"] == 0
            assert seen["last_line"] == answer.seq and seen["last_line_seat"] is None
        assert bob.view == room.view  # a seat and a viewer: the same bytes
        # Every phone had the verdict as one change from the move before it.
        assert [seq for seq, _ in room.states][-2:] == [move, answer.seq]

    log = await read_log(SqliteStore(server.data / "tilestream.db"), table.id)
    judged = [r for r in log if r.seq > move]
    assert [r.event for r in judged] == [
        ChallengeJudged(move, 0, 1, False, "KK"),
        WordWithdrawn(1),
    ]
    assert {r.command for r in judged} == {"c"}  # one command, one append
    assert len({r.at for r in judged}) == 1


async def test_a_valid_move_stands_and_a_wrong_challenge_costs_what_the_rules_say(
    server: ServerProcess,
) -> None:
    table = Table.create(server, start={**START, "rules": "figs"})
    seats = [table.join("player", 0), table.join("player", 1)]
    async with phones(*(table.phone(token) for token in seats)) as members:
        for phone in members:
            await phone.open()
        ann, bob = members
        move = await played(table, *members, bob=KOK)
        points = sheet(ann)["lines"][-1]["points"]
        await ann.command("c", {"type": "challenge", "line": move, "player": 0})
        answer = await ann.answer("c")
        await bob.until_seq(answer.seq)
        seen = sheet(bob)
        (verdict,) = seen["challenges"]
        assert (verdict["valid"], verdict["bad"]) == (True, [])
        # FIGS art. 30: 10 % of the move, 0.5 rounded down, at least 1, off the challenger.
        share = max(1, (points * 10 + 49) // 100)
        last = seen["lines"][-1]
        assert (last["kind"], last["player"], last["points"]) == ("penalty", 0, -share)
        assert seen["totals"] == [28 - share, points]


async def test_refusals_name_their_code(server: ServerProcess) -> None:
    table = Table.create(server, start=START)
    seats = [table.join("player", 0), table.join("player", 1), table.join("viewer")]
    async with phones(*(table.phone(token) for token in seats)) as members:
        for phone in members:
            await phone.open()
        ann, bob, room = members
        move = await played(table, *members, bob=KOK)
        await bob.command("own", {"type": "challenge", "line": move, "player": 1})
        assert (await bob.answer("own")).code == "own_move"
        await room.command("look", {"type": "challenge", "line": move, "player": 0})
        assert (await room.answer("look")).code == "viewer_read_only"
        await ann.command("old", {"type": "challenge", "line": move - 1, "player": 0})
        assert (await ann.answer("old")).code == "nothing_to_challenge"
        await ann.command("c", {"type": "challenge", "line": move, "player": 0})
        assert (await ann.answer("c")).type == "accepted"
        await ann.command("again", {"type": "challenge", "line": move, "player": 0})
        assert (await ann.answer("again")).code == "already_challenged"
        # The challenge's line is the host's to strike, whoever made it.
        await ann.command("undo", {"type": "undo", "last_line": move + 1})
        assert (await ann.answer("undo")).code == "host_only"
