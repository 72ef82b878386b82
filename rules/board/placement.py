"""Where new tiles may go (BRD-12..17), and which words they form (SCR-13, P-22)."""

from collections.abc import Sequence

import msgspec

from editions import Edition, codebook
from rules.board.scoring import MoveScore, WordScore, score_word, total_move
from rules.board.squares import Direction, Square
from rules.board.tiles import Tile
from rules.errors import IllegalPlacement


class Play(msgspec.Struct, frozen=True):
    """New tiles for one move; ``direction`` decides the main word of a single tile."""

    tiles: tuple[tuple[Square, Tile], ...]
    direction: Direction = Direction.ACROSS


def validate(cells: Sequence[Tile | None], size: int, edition: Edition, play: Play) -> None:
    """Raise IllegalPlacement with the first rule ``play`` breaks on this board."""
    count = len(play.tiles)
    if not count:
        raise IllegalPlacement("a move needs at least one new tile", code=codebook.NO_TILES)
    if count > edition.rack_size:
        raise IllegalPlacement(
            f"{count} new tiles; a rack holds {edition.rack_size}",
            code=codebook.TOO_MANY_TILES,
            count=count,
            rack_size=edition.rack_size,
        )
    seen: set[Square] = set()
    for square, _ in play.tiles:
        row, col = square
        if not (0 <= row < size and 0 <= col < size):
            raise IllegalPlacement(
                f"row {row}, column {col} is off the board",
                code=codebook.OFF_BOARD,
                square=f"{row},{col}",
            )
        if cells[row * size + col] is not None or square in seen:
            raise IllegalPlacement(
                f"{square.name} is already taken", code=codebook.OCCUPIED, square=square.name
            )
        seen.add(square)
    rows = {row for row, _ in seen}
    cols = {col for _, col in seen}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalPlacement(
            "new tiles must lie in one row or one column", code=codebook.NOT_IN_LINE
        )
    if count > 1:
        (fixed,), span = (rows, cols) if len(rows) == 1 else (cols, rows)
        for i in range(min(span), max(span)):
            square = Square(fixed, i) if len(rows) == 1 else Square(i, fixed)
            if square not in seen and cells[square.row * size + square.col] is None:
                raise IllegalPlacement(
                    f"the move leaves {square.name} empty", code=codebook.GAP, square=square.name
                )
    if not any(cells):
        centre = Square(*edition.board_layout.centre)
        if centre not in seen:
            raise IllegalPlacement(
                f"the first move must cover {centre.name}",
                code=codebook.FIRST_MOVE_OFF_CENTRE,
                centre=centre.name,
            )
        if count < 2:
            raise IllegalPlacement(
                "the first move needs at least two tiles", code=codebook.FIRST_MOVE_SINGLE_TILE
            )
        return
    for row, col in seen:
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < size and 0 <= c < size and cells[r * size + c] is not None:
                return
    raise IllegalPlacement(
        "the move must touch a tile already on the board", code=codebook.NOT_CONNECTED
    )


def _on(cells: Sequence[Tile | None], index: int) -> Tile:
    """The tile on a square a word runs over: never empty."""
    tile = cells[index]
    assert tile is not None
    return tile


def score(cells: Sequence[Tile | None], size: int, edition: Edition, play: Play) -> MoveScore:
    """Score a validated ``play``: the main word, then each cross word in reading order."""
    new = {row * size + col: tile for (row, col), tile in play.tiles}
    way = _main_direction(cells, size, new, play)
    step, cross_step = (1, size) if way == Direction.ACROSS else (size, 1)
    premiums = edition.board_layout.premiums
    ordered = sorted(new)
    lines = [(ordered[0], step, way)]
    lines += [(i, cross_step, way.other) for i in ordered]
    words: list[WordScore] = []
    for index, line_step, direction in lines:
        squares = _line(cells, size, new, index, line_step)
        if len(squares) < 2:
            continue
        tiles = [
            (new[i], premiums[i], True) if i in new else (_on(cells, i), None, False)
            for i in squares
        ]
        words.append(
            score_word(edition, tiles, Square(*divmod(squares[0], size)).name, direction.value)
        )
    return total_move(edition, words, len(new))


def _main_direction(
    cells: Sequence[Tile | None], size: int, new: dict[int, Tile], play: Play
) -> Direction:
    """The line of the new tiles; for a single tile the chosen way if it forms a word (P-22)."""
    if len(new) > 1:
        first, second = sorted(new)[:2]
        return Direction.ACROSS if first // size == second // size else Direction.DOWN
    (index,) = new
    step = 1 if play.direction == Direction.ACROSS else size
    if len(_line(cells, size, new, index, step)) >= 2:
        return play.direction
    return play.direction.other


def _line(
    cells: Sequence[Tile | None], size: int, new: dict[int, Tile], index: int, step: int
) -> list[int]:
    """The squares of the word through ``index`` along ``step`` (1 across, size down)."""

    def filled(i: int) -> bool:
        return cells[i] is not None or i in new

    def inside(i: int, j: int) -> bool:  # j a neighbour of i along the line, on the board
        return 0 <= j < size * size and (step != 1 or i // size == j // size)

    start = index
    while inside(start, start - step) and filled(start - step):
        start -= step
    squares = [start]
    while inside(squares[-1], squares[-1] + step) and filled(squares[-1] + step):
        squares.append(squares[-1] + step)
    return squares
