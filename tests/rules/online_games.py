"""Online games played through ``record`` for the tests: a word set, a simple player that
finds a legal move, and what every test checks after every step (conservation, replay).

The word set is every string of two or three letters: small enough to hold as a Python set,
yet it lets a game run to its end — a move is refused only for a word of four letters or
more, so the player below still meets refusals when it lays tiles beside others.
"""

from collections import Counter
from collections.abc import Iterator
from itertools import product

from hypothesis import strategies as st

import editions
from events import commands as c
from events.events import Event, Recorded
from rules.board import bag
from rules.board.squares import SIZE, Square
from rules.board.wordcheck import Contains
from rules.errors import GameError
from rules.table.permissions import Actor
from rules.table.record import record
from rules.table.reducer import replay
from rules.table.state import Game, Online, State

EDITION = "woordstrijd"
LETTERS = sorted(editions.get(EDITION).faces)
SHORT_WORDS = frozenset(
    "".join(word) for n in (2, 3) for word in product(LETTERS, repeat=n)
)  # fmt: skip
contains = SHORT_WORDS.__contains__


class Table:
    """One online game and its whole log, played a command at a time."""

    def __init__(
        self,
        players: int,
        seed: str,
        edition: str = EDITION,
        words: Contains = contains,
        move_seconds: int | None = None,
    ) -> None:
        self.seed = seed
        self.words = words
        self.log: list[Recorded] = []
        self.state = State()
        self.do(
            c.StartGame(edition, "online", players=(None,) * players, move_seconds=move_seconds)
        )

    @property
    def game(self) -> Game:
        assert self.state.game is not None
        return self.state.game

    @property
    def online(self) -> Online:
        assert self.game.online is not None
        return self.game.online

    def do(
        self, command: c.TableCommand, at: int = 0, actor: Actor | None = None
    ) -> tuple[Recorded, ...]:
        """Record ``command``; raises GameError (the state and log stay as they were)."""
        self.state, log = record(
            self.state, command, at=at, actor=actor, seed=self.seed, contains=self.words
        )
        self.log.extend(log)
        return log

    def append(self, events: tuple[Event, ...], at: int = 0) -> None:
        """Record events decided elsewhere (the server's own pass when time runs out)."""
        log = tuple(Recorded(self.state.seq + i, e, "", at) for i, e in enumerate(events, 1))
        self.state = replay(log, self.state)
        self.log.extend(log)

    def turn(self) -> c.Turn:
        game = self.game
        return c.Turn(game.started, game.to_move, game.turns[game.to_move])

    def rack(self, player: int | None = None) -> tuple[str, ...]:
        return self.online.racks[self.game.to_move if player is None else player]


def letters_of(tiles: tuple[str, ...]) -> str:
    """Rack tiles as the letters of a play: a blank stands for E."""
    return "".join("e" if t == bag.BLANK else bag.notation(t) for t in tiles)


#: Where the player below lays tiles: three squares in four, no row or column run longer
#: than three, all of it one connected shape with the centre in it. Every word formed there
#: has two or three letters, so a move inside it is always accepted, and a free square
#: next to the tiles is always left for a game's 105 tiles.
PATTERN = ("XX.X", "XXX.", "X.XX", ".XXX")


def inside(square: Square) -> bool:
    return PATTERN[square.row % 4][square.col % 4] == "X"


def _runs() -> list[tuple[str, tuple[Square, ...]]]:
    """Every run of pattern squares along a row (across) or a column (down)."""
    found = []
    for direction in ("across", "down"):
        for line in range(SIZE):
            run: list[Square] = []
            for i in range(SIZE + 1):
                square = (
                    (Square(line, i) if direction == "across" else Square(i, line))
                    if i < SIZE
                    else None
                )
                if square is not None and inside(square):
                    run.append(square)
                    continue
                if len(run) > 1 or (run and direction == "across"):
                    found.append((direction, tuple(run)))
                run = []
    return found  # fmt: skip


RUNS = _runs()


def candidates(game: Game, rack: tuple[str, ...]) -> Iterator[c.BoardMove]:
    """Placements inside the pattern, most tiles first: the free squares of a run, or a
    part of them with no empty square between."""
    board = game.board
    assert board is not None
    found = []
    for direction, run in RUNS:
        free = [i for i, square in enumerate(run) if board[square] is None]
        for first in free:
            for last in free:
                chosen = [i for i in free if first <= i <= last]
                if last < first or len(chosen) > len(rack):
                    continue
                letters = letters_of(rack[: len(chosen)])
                found.append((-len(chosen), run[first].name, direction, letters))
    for _, start, direction, letters in sorted(found):
        yield c.BoardMove(start, direction, letters)  # type: ignore[arg-type]


def play_turn(table: Table, refused: list[GameError] | None = None) -> str:
    """The player to move plays the first move the rules accept, else exchanges (while the
    bag allows), else passes; what it did."""
    rack = table.rack()
    for move in candidates(table.game, rack):
        try:
            table.do(c.Play(move, turn=table.turn()))
        except GameError as error:
            if refused is not None:
                refused.append(error)
            continue
        return "move"
    online = table.game.online
    assert online is not None
    if len(online.bag) >= 7:
        table.do(c.Exchange(turn=table.turn(), tiles=bag.rack_notation(rack[:3])))
        return "exchange"
    table.do(c.Pass(turn=table.turn()))
    return "pass"


def play_out(table: Table, limit: int = 400) -> list[str]:
    """Turns until the game ends; what each was."""
    done = []
    while table.game.ended is None and len(done) < limit:
        done.append(play_turn(table))
        check(table)
    return done


def on_board(game: Game) -> Counter[str]:
    """The bag letters of the tiles on the board (a blank is ``?`` whatever it stands for)."""
    assert game.board is not None
    return Counter(bag.BLANK if tile.blank else tile.letter for _, tile in game.board)


def tiles_now(game: Game) -> Counter[str]:
    """Board + racks + bag: always the edition's set."""
    online = game.online
    assert online is not None
    counted = on_board(game) + Counter(online.bag)
    for rack in online.racks:
        counted.update(rack)
    return counted


def check(table: Table) -> None:
    """The invariants after every step: tiles are conserved, and the log replays to the
    same racks and bag."""
    game = table.game
    assert tiles_now(game) == Counter(bag.full_set(game.edition))
    again = replay(table.log)
    assert again.game is not None
    assert again.game.online == game.online
    assert again.game.totals == game.totals


# --- random games: what a phone (or the host) sends, drawn by hypothesis ---------------------

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
