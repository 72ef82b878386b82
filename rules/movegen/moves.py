"""Every legal move for a board, a rack and a word graph, best first (Appel & Jacobson).

The lexicon enters as a ``WordGraph``: a DAWG over the edition's tiles as flat arrays,
which ``wordlists.graph`` builds from the committed lists or from a club's own list.
The search is Appel and Jacobson's "The World's Fastest Scrabble Program" (1988), as
macondo and wolges run it, one line (row or column) at a time:

* an *anchor* is an empty square next to a tile (the centre on an empty board); a move's
  new tiles cover at least one, and each move is found from the leftmost it covers;
* a *cross-check* is, per empty square, the bitmask of the letters that make a word
  with the tiles above and below it (across; left and right, down), computed once;
* a *left part* is what goes before an anchor: the tiles already there, or rack tiles on
  the free squares before it that touch nothing, which therefore need no check;
* from the anchor the word *extends right* through the graph, taking board tiles as
  they come and rack tiles (a blank as any letter) where the cross-check allows them.

A move's total is added up as it is found, from the same values and premium squares
``rules.board.scoring`` reads (letter premiums, then word premiums, under new tiles only; the
bingo bonus for exactly a full rack): ranking thousands of moves through ``Board.score``
would cost 25 µs each. ``Move.play`` is what ``Board.score`` takes for the formulas, and
the tests check that it gives every move the same total.

The search runs compiled (``rules.movegen.kernel``, numba, over the graph's arrays
without a copy): in Python a position with two blanks took a fifth of a second. It
finds each move as two integers whose order is the moves' order, and sorts those; a
``Move`` is made only when a caller reads it (``Moves``), as most read a few of
20,000.
"""

from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, overload

import msgspec

from editions import codebook
from editions.edition import Edition
from rules.board.board import Board
from rules.board.placement import Play
from rules.board.squares import SIZE, Direction, Square
from rules.board.tiles import Tile, parse_tiles
from rules.errors import NotationError

if TYPE_CHECKING:  # numpy is imported with the search, on the first ``generate``
    import numpy as np
    import numpy.typing as npt

BLANK = "?"
_UNKNOWN = 63  # the code of a board letter no word has: no mask has bit 63


class WordGraph(Hashable, Protocol):
    """A lexicon as a graph of tiles; node 0 is the root (``wordlists.graph.Graph``).

    The child of ``node`` by letter ``code`` is
    ``targets[offsets[node] + popcount(masks[node] & ((1 << code) - 1))]`` when bit
    ``code`` of ``masks[node]`` is set; ``words[node]`` is nonzero where a word ends.
    """

    # Read-only (properties), so a graph may hold them as tuples or arrays.
    @property
    def letters(self) -> Sequence[str]:
        """Code → the tile letter ("A", "CH", "Ł"); at most 63."""

    @property
    def masks(self) -> Sequence[int]:
        """Node → the codes leaving it, one bit each."""

    @property
    def offsets(self) -> Sequence[int]:
        """Node → where its children start in ``targets``."""

    @property
    def targets(self) -> Sequence[int]:
        """Every node's children, in code order."""

    @property
    def words(self) -> Sequence[int]:
        """Node → 1 if the path from the root spells a word."""


class Move(msgspec.Struct, frozen=True, gc=False):
    """One legal move: its total, where its main word starts, which way, the word."""

    score: int
    start: Square  # the main word's first square (a tile already there, or a new one)
    direction: Direction
    word: str  # the main word in row notation, tiles already on the board included
    play: Play  # the new tiles, for ``Board.score`` (formulas) and ``Board.apply``

    @property
    def letters(self) -> str:
        """The new tiles in row notation: what ``Board.place(start, direction, …)`` takes."""
        return "".join(tile.notation for _, tile in self.play.tiles)


def parse_rack(board: Board, rack: str) -> tuple[Tile | None, ...]:
    """A rack in row notation, ``?`` a blank (None): ``"AB?[CH]"``.

    Letters are read as tiles whatever their case. Raises NotationError: ``bad_tile`` or
    ``invalid_character`` for what is not a tile, ``locked_blank`` for a letter the set
    lacks, ``too_many_tiles`` for more tiles than a rack holds.

    >>> import editions
    >>> rack = parse_rack(Board.empty(editions.get("es")), "a?[ch]")
    >>> [t and t.notation for t in rack]
    ['A', None, '[CH]']
    """
    edition = board.edition
    tiles: list[Tile | None] = []
    for part in rack.strip().upper().split(BLANK):
        for tile in parse_tiles(edition, part):
            if tile is None or tile.blank:
                text = "." if tile is None else tile.letter
                if tile is not None and tile.letter not in edition.faces:
                    raise NotationError(
                        f"{tile.letter!r} is not in the {edition.code} set; a blank is '?'",
                        code=codebook.LOCKED_BLANK,
                        letter=tile.letter,
                    )
                raise NotationError(
                    f"{text!r} in the rack {rack!r} is not a tile",
                    code=codebook.BAD_TILE,
                    text=text,
                )
            tiles.append(tile)
        tiles.append(None)
    tiles.pop()
    if len(tiles) > edition.rack_size:
        raise NotationError(
            f"the rack {rack!r} has {len(tiles)} tiles; a rack holds {edition.rack_size}",
            code=codebook.TOO_MANY_TILES,
            count=len(tiles),
            rack_size=edition.rack_size,
        )
    return tuple(tiles)


def generate(board: Board, rack: str, graph: WordGraph, limit: int | None = None) -> "Moves":
    """Every legal move with ``rack`` whose words are all in ``graph``, best first.

    Equal totals are ordered by the main word's first square (row, then column), across
    before down, then the new tiles (by square, then the graph's letter order, a tile
    before a blank). ``limit`` keeps only the best so many. Raises what ``parse_rack``
    raises. The first call in a process imports and loads the compiled search
    (``rules.movegen.kernel``).
    """
    import numpy as np

    from rules.movegen import kernel as movegen_kernel

    tiles = parse_rack(board, rack)
    if len(tiles) > movegen_kernel.MAX_TILES:  # a key has no slot for more (racks hold 7)
        raise ValueError(f"at most {movegen_kernel.MAX_TILES} tiles a rack")
    edition = board.edition
    premiums = _premiums(edition)
    letters = _letters(edition, graph.letters)
    cells = [-1] * (SIZE * SIZE)  # a code, or -1 for an empty square
    points_at = [0] * (SIZE * SIZE)  # a tile's points (a blank's are 0)
    codes, values = letters.codes, edition.values
    for (row, col), tile in board:
        cells[row * SIZE + col] = codes.get(tile.letter, _UNKNOWN)
        points_at[row * SIZE + col] = 0 if tile.blank else values[tile.letter]
    have = np.zeros(len(graph.letters), np.int64)
    blanks = 0
    for held in tiles:
        if held is None:
            blanks += 1
        elif (code := codes.get(held.letter)) is not None:
            have[code] += 1
    keys = movegen_kernel.search(
        (
            _view(graph.masks, np.uint64).view(np.int64),
            _view(graph.offsets, np.uint32),
            _view(graph.targets, np.uint32),
            _view(graph.words, np.uint8),
        ),
        np.array(cells, np.int64),
        np.array(points_at, np.int64),
        letters.values,
        have,
        blanks,
        letters.blankable,
        edition.bingo_bonus,
        edition.rack_size,
        premiums.letter,
        premiums.word,
        premiums.centre,
    )
    return Moves(board, graph.letters, keys if limit is None else keys[: max(limit, 0)])


class Moves(Sequence[Move]):
    """The moves ``generate`` found, best first: a sequence of ``Move``, each made when it
    is first read (``moves[i]``, iteration, a slice as a list) and then kept.

    A position with two blanks has some 20,000 moves, and a ``Move`` takes a few µs to
    make; a caller mostly reads a few of them. Equal to any sequence of the same moves.
    """

    __slots__ = ("_board", "_decode", "_decoded", "_keys", "_letters")

    def __init__(self, board: Board, letters: Sequence[str], keys: "npt.NDArray[np.int64]"):
        self._board = board
        self._letters = letters
        self._keys = keys  # a row of two keys per move (``_pack`` in movegen_kernel)
        self._decoded: list[Move | None] = [None] * len(keys)
        self._decode: Callable[[int, int], Move] | None = None

    def _decoder(self) -> Callable[[int, int], Move]:
        if self._decode is None:
            self._decode = _decoder(self._board, self._letters)
        return self._decode

    def __len__(self) -> int:
        return len(self._decoded)

    @property
    def scores(self) -> list[int]:
        """Each move's total, best first, read from the keys: no move is made for it."""
        from rules.movegen.kernel import BEST, FIRST_SLOTS, SLOT

        totals: list[int] = (BEST - (self._keys[:, 0] >> (9 + SLOT * FIRST_SLOTS))).tolist()
        return totals

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        move = self._decoded[index]
        if move is None:
            if index < 0:
                index += len(self)
            first, second = self._keys[index].tolist()
            move = self._decoded[index] = self._decoder()(first, second)
        return move

    def __iter__(self) -> Iterator[Move]:
        decoded = self._decoded
        if None in decoded:
            decode = self._decoder()
            for index, (first, second) in enumerate(self._keys.tolist()):
                if decoded[index] is None:
                    decoded[index] = decode(first, second)
        return iter(decoded)  # type: ignore[arg-type]  # none is None now

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # a sequence is compared by its moves

    def __repr__(self) -> str:
        return f"<Moves: {len(self)}>"


# The search's constants, once per edition and list: the premium squares, the letters'
# codes and values, the letters a blank may stand for.


class _Premiums(NamedTuple):
    letter: "npt.NDArray[np.int64]"
    word: "npt.NDArray[np.int64]"
    centre: int


class _Letters(NamedTuple):
    codes: dict[str, int]
    values: "npt.NDArray[np.int64]"
    blankable: int


@lru_cache(maxsize=32)
def _premiums(edition: Edition) -> _Premiums:
    import numpy as np

    layout = edition.board_layout
    return _Premiums(
        np.array([p.letter_multiplier if p else 1 for p in layout.premiums], np.int64),
        np.array([p.word_multiplier if p else 1 for p in layout.premiums], np.int64),
        layout.centre[0] * SIZE + layout.centre[1],
    )


@lru_cache(maxsize=32)
def _letters(edition: Edition, letters: Sequence[str]) -> _Letters:
    # A blank stands only for a letter of the edition's alphabet: a list may spell words
    # with others (Polish Q, V, X), which a blank must not make playable.
    import numpy as np

    alphabet = edition.alphabet
    return _Letters(
        {letter: code for code, letter in enumerate(letters)},
        np.array([edition.values.get(letter, 0) for letter in letters], np.int64),
        sum(1 << code for code, letter in enumerate(letters) if letter in alphabet),
    )


def _view(values: Sequence[int], dtype: "type[np.generic]") -> "npt.NDArray[Any]":
    """A graph's array as numpy's, without a copy when it is one already (``array``)."""
    import numpy as np

    try:
        buffer = memoryview(values)  # type: ignore[arg-type]
    except TypeError:
        return np.asarray(values, dtype)
    if buffer.itemsize != np.dtype(dtype).itemsize:
        return np.asarray(values, dtype)
    return np.frombuffer(buffer, dtype)


_SQUARES = tuple(Square(*divmod(i, SIZE)) for i in range(SIZE * SIZE))
_DIRECTIONS = (Direction.ACROSS, Direction.DOWN)


def scores(moves: Sequence[Move]) -> Sequence[int]:
    """The totals of ``moves``: for ``Moves`` without making a move (``Moves.scores``)."""
    return moves.scores if isinstance(moves, Moves) else [move.score for move in moves]


def _decoder(board: Board, letters: Sequence[str]) -> Callable[[int, int], Move]:
    """Turns a found move's two keys into its ``Move``."""
    from rules.movegen.kernel import BEST, FIRST_SLOTS, MAX_TILES, SLOT

    on_board = [""] * (SIZE * SIZE)
    for (row, col), tile in board:
        on_board[row * SIZE + col] = tile.notation
    tiles = [Tile(letter, blank) for letter in letters for blank in (False, True)]
    notation = [tile.notation for tile in tiles]
    mask = (1 << SLOT) - 1
    shifts = [(0, SLOT * (FIRST_SLOTS - 1 - k)) for k in range(FIRST_SLOTS)]
    shifts += [(1, SLOT * (MAX_TILES - 1 - k)) for k in range(FIRST_SLOTS, MAX_TILES)]
    head_shift = SLOT * FIRST_SLOTS

    # Shared by the moves: fewer objects for the garbage collector to go through.
    pairs: dict[int, tuple[Square, Tile]] = {}

    def decode(first_key: int, second_key: int) -> Move:
        head = first_key >> head_shift
        total, first, way = BEST - (head >> 9), head >> 1 & 255, head & 1
        step = 1 if way == 0 else SIZE
        origin = first - (first % SIZE if way == 0 else first // SIZE * SIZE)
        keys = (first_key, second_key)
        i = first
        new = []
        text = []
        for which, shift in shifts:
            packed = (keys[which] >> shift & mask) - 1
            if packed < 0:
                break
            at, kind = origin + (packed >> 7) * step, packed & 127
            while i < at:
                text.append(on_board[i])
                i += step
            pair = pairs.get(at << 7 | kind)
            if pair is None:
                pair = pairs[at << 7 | kind] = (_SQUARES[at], tiles[kind])
            new.append(pair)
            text.append(notation[kind])
            i += step
        while i < SIZE * SIZE and (way == 1 or i // SIZE == first // SIZE) and on_board[i]:
            text.append(on_board[i])
            i += step
        direction = _DIRECTIONS[way]
        return Move(total, _SQUARES[first], direction, "".join(text), Play(tuple(new), direction))

    return decode
