"""Random games for the property tests, played through ``record``. Classic: board moves
built from the tiles already on the board, points, passes, penalties, tiles laid without a
score, exchanges, withdrawn words, undos and taps of the game clock, each as a phone would
send it; a command the table refuses is skipped. Duplicate: the director's tops, cells,
corrections, penalties and undos."""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec
from hypothesis import strategies as st

import editions
from events import commands as c
from events.events import Recorded
from rules.errors import GameError
from rules.table.record import record
from rules.table.state import State
from rules.table.views import TableView

ROWS = "ABCDEFGHIJKLMNO"
#: Editions whose faces are one character each, so that a row of notation is a tile a square.
EDITIONS = ("nl", "it", "pl")


@dataclass(frozen=True)
class Setup:
    edition: str
    rules: str
    players: int
    starter: int


def board_moves(sizes: tuple[int, int]) -> st.SearchStrategy[tuple[Any, ...]]:
    """A move laid next to a tile on the board: which tile, how far before it, the way and
    the letters (an index into the set, and 0 for a blank)."""
    return st.tuples(
        st.just("board"),
        st.integers(0, 200),
        st.integers(-4, 1),
        st.sampled_from(["across", "down"]),
        st.lists(st.tuples(st.integers(0, 60), st.integers(0, 9)), min_size=sizes[0],
                 max_size=sizes[1]),
    )  # fmt: skip


ACTIONS: dict[str, st.SearchStrategy[tuple[Any, ...]]] = {
    "board": board_moves((2, 7)),
    "single": board_moves((1, 1)),
    "points": st.tuples(st.just("points"), st.integers(0, 80)),
    "pass": st.tuples(st.just("pass")),
    "penalty": st.tuples(st.just("penalty"), st.integers(0, 3), st.integers(1, 30)),
    "place": st.tuples(st.just("place"), st.integers(0, 200), st.sampled_from(["across", "down"])),
    **{
        kind: st.tuples(st.just(kind))
        for kind in ("undo", "exchange", "withdraw", "switch", "clear")
    },
}


def actions(*weights: str) -> st.SearchStrategy[tuple[Any, ...]]:
    """One action, drawn as often as its kind is named in ``weights``."""
    return st.sampled_from(weights).flatmap(ACTIONS.__getitem__)


def letters_for(edition: str, picks: list[tuple[int, int]]) -> str:
    """Row notation: letters of the set, now and then a blank (lower case)."""
    faces = sorted(editions.get(edition).faces)
    return "".join(
        faces[index % len(faces)].lower() if blank == 0 else faces[index % len(faces)]
        for index, blank in picks
    )


def starts(state: State, anchor: int, along: int, direction: str, length: int) -> Iterator[str]:
    """Start squares to try: through the centre on an empty board, else near a tile on it."""
    game = state.game
    assert game is not None and game.board is not None
    tiles = [square for square, _ in game.board]
    dr, dc = (0, 1) if direction == "across" else (1, 0)
    if not tiles:
        back = min(-along, length - 1) if along < 0 else 0
        yield f"{ROWS[7 - back * dr]}{8 - back * dc}"
        return
    row, col = tiles[anchor % len(tiles)]
    for offset in (along, -1, 1, -length, along - 1):
        r, co = row + offset * dr, col + offset * dc
        if 0 <= r < 15 and 0 <= co < 15:
            yield f"{ROWS[r]}{co + 1}"


def commands_for(state: State, setup: Setup, action: tuple[Any, ...]) -> Iterator[c.TableCommand]:
    """The commands to try for one drawn action, the first accepted wins."""
    kind = action[0]
    if kind == "board":
        _, anchor, along, direction, picks = action
        letters = letters_for(setup.edition, picks)
        for square in starts(state, anchor, along, direction, len(picks)):
            yield c.RecordMove(c.BoardMove(square, direction, letters))
    elif kind == "place":
        _, anchor, direction = action
        for square in starts(state, anchor, -1, direction, 2):
            letters = letters_for(setup.edition, [(anchor, 1)] * 2)
            yield c.PlaceTiles(c.BoardMove(square, direction, letters))
    elif kind == "points":
        yield c.EnterPoints(action[1])
    elif kind == "pass":
        yield c.Pass()
    elif kind == "penalty":
        yield c.GivePenalty(action[1] % setup.players, action[2])
    elif kind == "undo":
        yield c.Undo()
    elif kind == "exchange":
        yield c.Exchange()
    elif kind == "withdraw":
        yield c.WithdrawWord()
    elif kind == "switch":  # the game clock: the turn's end, or its start
        yield c.SwitchClock()
        yield c.StartGameClock()
    elif kind == "clear":
        yield c.ClearBoard()


def play(setup: Setup, drawn: list[tuple[Any, ...]]) -> State:
    """The table after the drawn actions; each command has an id and a time of its own."""
    start = c.StartGame(
        setup.edition, rules=setup.rules, players=(None,) * setup.players, starter=setup.starter
    )
    state, _ = record(State(), start, at=1)
    for step, action in enumerate(drawn, 2):
        for command in commands_for(state, setup, action):
            try:
                state, _ = record(state, command, at=step, command_id=f"c{step}")
            except GameError:
                continue
            break
    return state


def without_seq(table: TableView) -> TableView:
    """A view as a phone shows it: the seq aside."""
    sheet = table.sheet and msgspec.structs.replace(table.sheet, seq=0)
    return msgspec.structs.replace(table, seq=0, sheet=sheet)


# Duplicate: tops as the director records them, cells, corrections, penalties and undos.
DUPLICATE_ACTIONS = st.one_of(
    st.tuples(st.just("top"), st.integers(0, 90)),
    st.tuples(
        st.just("typed top"),
        st.lists(st.tuples(st.integers(0, 60), st.integers(0, 9)), min_size=1, max_size=7),
    ),
    st.tuples(st.just("points"), st.integers(0, 90)),
    st.tuples(st.just("correct top"), st.integers(0, 6), st.none() | st.integers(0, 90)),
    st.tuples(st.just("penalty"), st.integers(1, 20)),
    st.tuples(st.just("undo")),
)


def duplicate_command(edition: str, action: tuple[Any, ...]) -> c.TableCommand:
    """The command of a drawn duplicate action, for a duplicate game of ``edition``."""
    kind = action[0]
    if kind == "top":
        return c.RecordTop(points=action[1])
    if kind == "typed top":
        return c.RecordTop(
            typed=(tuple(c.TypedLetter(t) for t in letters_for(edition, action[1])),)
        )
    if kind == "points":
        return c.EnterPoints(action[1])
    if kind == "correct top":
        return c.CorrectCell(action[1], None, action[2])
    if kind == "penalty":
        return c.GivePenalty(0, action[1])
    return c.Undo()


def play_duplicate(
    edition: str, drawn: list[tuple[Any, ...]]
) -> tuple[list[Recorded], list[State]]:
    """A duplicate game of two of the drawn actions, a refused one skipped: its log, and the
    state after each accepted command."""
    state, log = record(State(), c.StartGame(edition, mode="duplicate", players=(None, None)))
    logged, states = list(log), [state]
    for at, action in enumerate(drawn, 2):
        try:
            state, recorded = record(state, duplicate_command(edition, action), at=at)
        except GameError:
            continue
        logged.extend(recorded)
        states.append(state)
    return logged, states
