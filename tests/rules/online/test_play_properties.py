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

from events import commands as c
from rules.board import bag
from rules.board.squares import SIZE, Square
from rules.errors import GameError
from rules.table.permissions import Actor
from rules.table.state import Game
from rules.table.views import view
from tests.rules.online_games import Table, candidates, check, letters_of

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HOST = Actor("host", None, "host")

MOVES = st.tuples(st.just("pattern"), st.integers(0, 50))  # a move the word set accepts
OTHERS = st.one_of(
    st.tuples(  # anywhere: often refused (placement, a long word, a tile not held)
        st.just("wild"),
        st.integers(0, SIZE * SIZE - 1),
        st.sampled_from(["across", "down"]),
        st.integers(1, 7),
        st.booleans(),
    ),
    st.tuples(  # next to the tiles, outside the pattern: often a word of four letters or more
        st.just("beside"),
        st.integers(0, 200),
        st.sampled_from(["across", "down"]),
        st.integers(1, 4),
    ),
    st.tuples(st.just("exchange"), st.integers(0, 8)),
    st.tuples(st.just("pass")),
    st.tuples(st.just("undo")),
)
# Mostly moves, so that many games run to their end (the bag runs low, someone goes out).
ACTIONS = st.integers(0, 9).flatmap(lambda n: MOVES if n < 6 else OTHERS)


def act(table: Table, action: tuple) -> None:
    """One command as a phone (or the host) would send it; raises GameError if refused."""
    kind, *args = action
    turn = table.turn()
    rack = table.rack()
    if kind == "pattern":
        tried = list(candidates(table.game, rack))
        for move in tried[args[0] % max(1, len(tried)) :] + tried:
            try:
                table.do(c.Play(move, turn=turn), actor=Actor("player", turn.player))
                return
            except GameError:
                continue
        raise GameError("no move", code="no_move")
    if kind == "wild":
        square, direction, count, foreign = args
        letters = "QQ" if foreign else letters_of(rack[:count])
        move = c.BoardMove(Square(*divmod(square, SIZE)).name, direction, letters)
        table.do(c.Play(move, turn=turn), actor=Actor("player", turn.player))
    elif kind == "beside":
        index, direction, count = args
        squares = next_to_tiles(table.game)
        start = squares[index % len(squares)] if squares else Square(7, 7)
        move = c.BoardMove(start.name, direction, letters_of(rack[:count]))
        table.do(c.Play(move, turn=turn), actor=Actor("player", turn.player))
    elif kind == "exchange":
        tiles = bag.rack_notation(rack[: args[0]])
        table.do(c.Exchange(turn=turn, tiles=tiles), actor=Actor("player", turn.player))
    elif kind == "pass":
        table.do(c.Pass(turn=turn), actor=Actor("player", turn.player))
    else:
        table.do(c.Undo(), actor=HOST)


def next_to_tiles(game: Game) -> list[Square]:
    """The free squares beside a tile, row by row."""
    assert game.board is not None
    taken = {square for square, _ in game.board}
    return sorted(
        Square(r, col)
        for r in range(SIZE)
        for col in range(SIZE)
        if Square(r, col) not in taken
        and {Square(r - 1, col), Square(r + 1, col), Square(r, col - 1), Square(r, col + 1)} & taken
    )


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
