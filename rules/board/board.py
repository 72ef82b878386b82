"""The immutable 15×15 Board: drawn from rows, moves placed, checked, scored and applied."""

from collections.abc import Iterable, Iterator, Sequence

from editions import Edition, codebook
from rules.board import placement
from rules.board.placement import Play
from rules.board.scoring import MoveScore
from rules.board.squares import SIZE, Direction, Square
from rules.board.tiles import Tile, check_tile, parse_tile, parse_tiles
from rules.errors import GameError, IllegalPlacement, NotationError


class Board:
    """An immutable board of one edition; ``apply`` returns a new board."""

    __slots__ = ("_cells", "_rows", "edition")

    def __init__(self, edition: Edition, cells: Sequence[Tile | None]) -> None:
        if edition.layout is None:
            raise GameError(
                f"{edition.name} has no board", code=codebook.NO_BOARD, edition=edition.code
            )
        if len(cells) != SIZE * SIZE:
            raise ValueError(f"a board has {SIZE * SIZE} squares, not {len(cells)}")
        self.edition = edition
        self._cells = tuple(cells)
        self._rows: tuple[str, ...] | None = None

    @classmethod
    def empty(cls, edition: Edition) -> "Board":
        """An empty board; raises GameError (``no_board``) for an edition without one."""
        return cls(edition, (None,) * (SIZE * SIZE))

    @classmethod
    def from_rows(cls, edition: Edition, rows: str | Sequence[str]) -> "Board":
        """A board drawn as 15 rows: ``.`` empty, ``A`` tile, ``a`` blank, ``[CH]`` multi-letter.

        ``rows`` may be one string of lines; blank lines and surrounding spaces are ignored.
        Raises NotationError (``bad_rows``, ``bad_tile``, ``invalid_character``).
        """
        lines = rows.split() if isinstance(rows, str) else [r.strip() for r in rows if r.strip()]
        cells = [parse_tiles(edition, line) for line in lines]
        if len(cells) != SIZE or any(len(row) != SIZE for row in cells):
            raise NotationError(
                f"a board is {SIZE} rows of {SIZE} squares",
                code=codebook.BAD_ROWS,
                rows=len(cells),
                size=SIZE,
            )
        return cls(edition, [tile for row in cells for tile in row])

    def rows(self) -> tuple[str, ...]:
        """The board in row notation, the inverse of ``from_rows``."""
        # Kept: every view of the table sends them, and most lines lay no tile.
        if self._rows is None:
            self._rows = tuple(_row(self._cells, r) for r in range(SIZE))
        return self._rows

    def __getitem__(self, square: Square | str) -> Tile | None:
        row, col = Square.parse(square)
        return self._cells[row * SIZE + col]

    def __iter__(self) -> Iterator[tuple[Square, Tile]]:
        """The tiles on the board with their squares, row by row."""
        for i, tile in enumerate(self._cells):
            if tile is not None:
                yield Square(*divmod(i, SIZE)), tile

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self.edition == other.edition
            and self._cells == other._cells
        )

    def __hash__(self) -> int:
        return hash((self.edition.code, self._cells))

    def __repr__(self) -> str:
        return f"Board.from_rows(editions.get({self.edition.code!r}), {self.rows()!r})"

    @property
    def is_empty(self) -> bool:
        return not any(self._cells)

    def place(self, start: Square | str, direction: Direction | str, letters: str) -> Play:
        """The move a player types after tapping ``start``: letters in row notation fill the
        free squares from there on, skipping tiles already on the board (BRD-09/10).

        Raises NotationError for bad letters, IllegalPlacement (``off_board``) when they run
        past the edge.
        """
        square, way = Square.parse(start), Direction.parse(direction)
        parsed = parse_tiles(self.edition, letters)
        tiles = [tile for tile in parsed if tile is not None]
        if len(tiles) != len(parsed):
            raise NotationError(
                f"{letters!r}: '.' has no place in a move; tiles on the board are skipped",
                code=codebook.BAD_TILE,
                text=".",
            )
        dr, dc = (0, 1) if way == Direction.ACROSS else (1, 0)
        row, col = square
        placed: list[tuple[Square, Tile]] = []
        for tile in tiles:
            while row < SIZE and col < SIZE and self._cells[row * SIZE + col] is not None:
                row, col = row + dr, col + dc
            if row >= SIZE or col >= SIZE:
                raise IllegalPlacement(
                    f"{letters!r} from {square.name} {way} runs past the board's edge",
                    code=codebook.OFF_BOARD,
                    square=square.name,
                )
            placed.append((Square(row, col), tile))
            row, col = row + dr, col + dc
        return Play(tuple(placed), way)

    def place_tiles(
        self,
        tiles: Iterable[tuple[Square | str, Tile | str]],
        direction: Direction | str = Direction.ACROSS,
    ) -> Play:
        """A move from explicit (square, tile) pairs, tiles as ``Tile`` or row notation.

        ``direction`` only matters for a single tile (P-22). Raises NotationError.
        """
        placed = [
            (
                Square.parse(square),
                parse_tile(self.edition, tile) if isinstance(tile, str) else tile,
            )
            for square, tile in tiles
        ]
        return Play(tuple(placed), Direction.parse(direction))

    def validate(self, play: Play) -> None:
        """Raise IllegalPlacement (or NotationError) if ``play`` may not be laid here."""
        for _, tile in play.tiles:
            check_tile(self.edition, tile)
        placement.validate(self._cells, SIZE, self.edition, play)

    def score(self, play: Play) -> MoveScore:
        """Validate ``play`` and score every word it forms, main word first (SCR-13)."""
        self.validate(play)
        return placement.score(self._cells, SIZE, self.edition, play)

    def apply(self, play: Play) -> "Board":
        """The board with ``play``'s tiles laid (validated first)."""
        self.validate(play)
        return self.lay(play.tiles)

    def lay(self, tiles: Iterable[tuple[Square, Tile | None]]) -> "Board":
        """The board with these squares set, unchecked: for history already recorded."""
        cells = list(self._cells)
        touched = set()
        for (row, col), tile in tiles:
            cells[row * SIZE + col] = tile
            touched.add(row)
        laid = Board.__new__(Board)  # not through __init__: this board passed its checks
        laid.edition, laid._cells, laid._rows = self.edition, tuple(cells), None
        if self._rows is not None:  # drawn already (a view sent them): redraw what changed
            rows = list(self._rows)
            for row in touched:
                rows[row] = _row(laid._cells, row)
            laid._rows = tuple(rows)
        return laid

    def word_at(self, start: Square | str, direction: Direction | str) -> tuple[Tile, ...]:
        """The tiles of the word on the board from ``start`` reading ``direction``."""
        row, col = Square.parse(start)
        dr, dc = (0, 1) if Direction.parse(direction) == Direction.ACROSS else (1, 0)
        tiles = []
        while row < SIZE and col < SIZE and (tile := self._cells[row * SIZE + col]) is not None:
            tiles.append(tile)
            row, col = row + dr, col + dc
        return tuple(tiles)


def _row(cells: Sequence[Tile | None], row: int) -> str:
    """One row of ``cells`` in row notation."""
    return "".join(t.notation if t else "." for t in cells[row * SIZE : (row + 1) * SIZE])
