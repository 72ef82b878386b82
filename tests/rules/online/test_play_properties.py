"""Invariants of online play on random games (STYLE "Tests"): after every command, tiles on
the board + the racks + the bag are the edition's set; the log replays to the same racks
and bag; a refused command changes nothing; undo restores the game exactly as it was; and
no view carries another seat's rack, the bag or the seed (P-52)."""

import json
from collections.abc import Iterator
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.board import bag
from rules.errors import GameError
from rules.table.state import Game
from rules.table.views import view
from tests.rules.online_games import ACTIONS, Table, act, check

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def string_lists(doc: Any) -> Iterator[list[str]]:
    """Every list of strings anywhere in a decoded JSON document."""
    if isinstance(doc, dict):
        for value in doc.values():
            yield from string_lists(value)
    elif isinstance(doc, list):
        if doc and all(isinstance(x, str) for x in doc):
            yield doc
        for value in doc:
            yield from string_lists(value)


def check_privacy(table: Table) -> None:
    """What each device is sent: its own rack only; never the seed, the bag, another rack."""
    game: Game = table.game
    online = table.online
    racks = [[bag.notation(t) for t in rack] for rack in online.racks]
    secret_bag = [bag.notation(t) for t in online.bag]
    devices = [("member", s) for s in range(len(racks))] + [("member", None), ("host", None)]
    for audience, seat in devices:
        encoded = msgspec.json.encode(view(table.state, audience, seat))  # type: ignore[arg-type]
        assert table.seed.encode() not in encoded
        doc = json.loads(encoded)
        assert doc["sheet"]["online"]["rack"] == (racks[seat] if seat is not None else None)
        if game.ended is not None:
            continue  # the racks are public at the end
        own = racks[seat] if seat is not None else None
        others = [r for s, r in enumerate(racks) if s != seat and r and r != own]
        for found in string_lists(doc):
            if found == own:
                continue
            assert found not in others
            assert not secret_bag or found != secret_bag


@PROPERTY
@given(
    seed=st.binary(min_size=16, max_size=16).map(bytes.hex),
    players=st.integers(2, 4),
    actions=st.lists(ACTIONS, min_size=20, max_size=120),
)
def test_online_games_keep_their_invariants(seed: str, players: int, actions: list) -> None:
    table = Table(players, seed)
    undo_to: list[Game] = []  # the game before each standing turn, newest last
    for action in actions:
        before, seq = table.game, table.state.seq
        try:
            act(table, action)
        except GameError:
            assert (table.game, table.state.seq) == (before, seq)  # refused: nothing changed
        else:
            if action[0] == "undo":
                assert table.game == undo_to.pop()  # exactly as it was: rack, bag, turn
            else:
                undo_to.append(before)
        check(table)  # tiles conserved; the log replays to the same racks and bag
        check_privacy(table)
