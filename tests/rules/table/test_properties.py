"""Invariants of scoring, checked with hypothesis on random legal games in the Dutch edition.

The oracles here are written from the spec, not from the code: the premium squares come from
Appendix B's coordinate lists, the letter values from Appendix A.1, and the words a move forms
from a plain walk along the board (SCR-13, P-22).
"""

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

import editions
from rules import Board, Direction, MoveScore, Square, Tile, score_words, typed_word
from rules.board.placement import Play

NL = editions.get("nl")
SIZE = 15
ROWS = "ABCDEFGHIJKLMNO"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

APPENDIX_B = {
    "3W": "A1 A8 A15 H1 H15 O1 O8 O15",
    "2W": "B2 C3 D4 E5 K5 L4 M3 N2 B14 C13 D12 E11 K11 L12 M13 N14 H8",
    "3L": "B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10",
    "2L": "A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12",
}
PREMIUM_AT = {
    (ROWS.index(name[0]), int(name[1:]) - 1): kind
    for kind, names in APPENDIX_B.items()
    for name in names.split()
}

APPENDIX_A1 = {
    "A": 1,
    "B": 3,
    "C": 5,
    "D": 2,
    "E": 1,
    "F": 4,
    "G": 3,
    "H": 4,
    "I": 1,
    "J": 4,
    "K": 3,
    "L": 3,
    "M": 3,
    "N": 1,
    "O": 1,
    "P": 3,
    "Q": 10,
    "R": 2,
    "S": 2,
    "T": 2,
    "U": 4,
    "V": 4,
    "W": 5,
    "X": 8,
    "Y": 8,
    "Z": 4,
}

Cell = tuple[int, int]  # row, column from 0
Tiles = dict[Cell, tuple[str, bool]]  # letter, blank
Move = tuple[Tiles, str]  # new tiles, the direction chosen (decides a single tile's main word)

STEP = {"across": (0, 1), "down": (1, 0)}
OTHER = {"across": "down", "down": "across"}
PROPERTY = settings(max_examples=100, deadline=None)


def inside(cell: Cell) -> bool:
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def name(cell: Cell) -> str:
    return f"{ROWS[cell[0]]}{cell[1] + 1}"


def draw_tiles(draw: Any, cells: list[Cell]) -> Tiles:
    letters = st.sampled_from(LETTERS)
    blanks = st.integers(0, 5).map(lambda n: n == 0)
    return {cell: (draw(letters), draw(blanks)) for cell in cells}


def draw_move(draw: Any, grid: Tiles) -> Move:
    """A legal move on ``grid``: one line, no empty square inside, touching the board."""
    way = draw(st.sampled_from(["across", "down"]))
    dr, dc = STEP[way]
    if not grid:  # BRD-15/16: two to seven tiles through the centre
        count = draw(st.integers(2, 7))
        first = draw(st.integers(8 - count, 7))
        cells = [(7 + dr * (first + i - 7), 7 + dc * (first + i - 7)) for i in range(count)]
        return draw_tiles(draw, cells), way
    anchors = sorted(
        {
            (r + a, c + b)
            for r, c in grid
            for a, b in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if inside((r + a, c + b)) and (r + a, c + b) not in grid
        }
    )
    anchor = draw(st.sampled_from(anchors))
    free: dict[int, list[Cell]] = {-1: [], 1: []}  # empty squares before / after the anchor
    for sign, found in free.items():
        cell = (anchor[0] + sign * dr, anchor[1] + sign * dc)
        while inside(cell) and len(found) < 6:
            if cell not in grid:
                found.append(cell)
            cell = (cell[0] + sign * dr, cell[1] + sign * dc)
    more = draw(st.integers(0, 6))  # new tiles besides the anchor, if the line has room
    before = draw(st.integers(0, min(more, len(free[-1]))))
    after = min(more - before, len(free[1]))
    cells = [*free[-1][:before][::-1], anchor, *free[1][:after]]
    return draw_tiles(draw, cells), way


@st.composite
def games(draw: Any) -> list[Move]:
    """One to six legal moves from an empty board; the last is the one under test."""
    grid: Tiles = {}
    moves: list[Move] = []
    for _ in range(draw(st.integers(1, 6))):
        tiles, way = draw_move(draw, grid)
        moves.append((tiles, way))
        grid |= tiles
    return moves


def to_play(board: Board, move: Move) -> Play:
    tiles, way = move
    return board.place_tiles(
        [(Square(*cell), Tile(letter, blank)) for cell, (letter, blank) in tiles.items()], way
    )


def set_up(moves: list[Move]) -> tuple[Board, Tiles]:
    """The board after every move but the last, applied one by one, and its tiles."""
    board, grid = Board.empty(NL), {}
    for move in moves[:-1]:
        board = board.apply(to_play(board, move))
        grid |= move[0]
    return board, grid


def draw_rows(grid: Tiles) -> list[str]:
    rows = [["."] * SIZE for _ in range(SIZE)]
    for (r, c), (letter, blank) in grid.items():
        rows[r][c] = letter.lower() if blank else letter
    return ["".join(row) for row in rows]


def line_through(grid: Tiles, cell: Cell, way: str) -> list[Cell]:
    """The filled squares through ``cell`` along ``way``, in reading order."""
    dr, dc = STEP[way]
    start = cell
    while (start[0] - dr, start[1] - dc) in grid:
        start = (start[0] - dr, start[1] - dc)
    line = [start]
    while (line[-1][0] + dr, line[-1][1] + dc) in grid:
        line.append((line[-1][0] + dr, line[-1][1] + dc))
    return line


def reference_words(old: Tiles, move: Move) -> list[tuple[list[Cell], str]]:
    """The main word first, then each cross word in reading order (SCR-13, P-22)."""
    new, chosen = move
    grid = old | new
    cells = sorted(new)
    if len(cells) > 1:
        way = "across" if len({r for r, _ in cells}) == 1 else "down"
    else:
        way = chosen if len(line_through(grid, cells[0], chosen)) >= 2 else OTHER[chosen]
    words = [(line_through(grid, cells[0], way), way)]
    for cell in cells:
        cross = line_through(grid, cell, OTHER[way])
        if len(cross) >= 2:
            words.append((cross, OTHER[way]))
    return words


def typed_move(old: Tiles, move: Move) -> MoveScore:
    """The move typed as words, each tile marked as the player would mark it (TYP-05)."""
    new, _ = move
    grid = old | new
    words = []
    for line, _ in reference_words(old, move):
        words.append(
            typed_word(
                NL,
                "".join(grid[cell][0] for cell in line),
                premiums={i: PREMIUM_AT[cell] for i, cell in enumerate(line) if cell in PREMIUM_AT},
                blanks={i for i, cell in enumerate(line) if grid[cell][1]},
                old={i for i, cell in enumerate(line) if cell not in new},
            )
        )
    return score_words(NL, words)


def tiles_of(text: str, way: str, start: str) -> Move:
    """A move written the short way, for the explicit examples."""
    dr, dc = STEP[way]
    r, c = ROWS.index(start[0]), int(start[1:]) - 1
    return {(r + i * dr, c + i * dc): (x.upper(), x.islower()) for i, x in enumerate(text)}, way


PLANK = tiles_of("PLANK", "across", "H4")
KRAAN = ({**tiles_of("KR", "down", "F6")[0], **tiles_of("AN", "down", "I6")[0]}, "down")


@PROPERTY
@given(games())
@example([PLANK, tiles_of("ENE", "across", "I5")])  # parallel play
@example([PLANK, KRAAN, tiles_of("E", "across", "G5")])  # one tile, two words
@example([PLANK, KRAAN, tiles_of("E", "down", "G5")])
@example([PLANK, tiles_of("O", "across", "G4")])  # one tile, the chosen way is one letter
@example([tiles_of("LeTTERS", "across", "H2"), tiles_of("AbCDEFg", "down", "A8")])
def test_board_scores_as_the_same_words_typed(moves: list[Move]) -> None:
    """BRD-03: the board finds the words and premiums the player would otherwise type."""
    board, old = set_up(moves)
    scored = board.score(to_play(board, moves[-1]))
    typed = typed_move(old, moves[-1])
    expected = [(name(line[0]), way) for line, way in reference_words(old, moves[-1])]
    assert [(w.start, w.direction) for w in scored.words] == expected
    assert [w.word for w in scored.words] == [w.word for w in typed.words]
    assert [w.formula for w in scored.words] == [w.formula for w in typed.words]
    assert [w.points for w in scored.words] == [w.points for w in typed.words]
    assert scored.total == typed.total
    assert (scored.bingo, scored.new_tiles) == (typed.bingo, typed.new_tiles)
    assert scored.new_tiles == len(moves[-1][0])


def transpose(rows: tuple[str, ...]) -> list[str]:
    """Mirror a drawing of one-letter tiles across the main diagonal."""
    return ["".join(row[col] for row in rows) for col in range(SIZE)]


def mirror(square: str) -> str:
    row, col = Square.parse(square)
    return Square(col, row).name


@PROPERTY
@given(games())
@example([PLANK, KRAAN, tiles_of("E", "across", "G5")])
def test_board_score_is_symmetric_across_the_diagonal(moves: list[Move]) -> None:
    """Appendix B is symmetric under the diagonal, so a mirrored move scores the same."""
    board, _ = set_up(moves)
    play = to_play(board, moves[-1])
    flipped = Board.from_rows(NL, transpose(board.rows()))
    flipped_play = flipped.place_tiles(
        [(Square(col, row), tile) for (row, col), tile in play.tiles],
        Direction(play.direction).other,
    )
    scored, mirrored = board.score(play), flipped.score(flipped_play)
    assert mirrored.total == scored.total
    assert [w.formula for w in mirrored.words] == [w.formula for w in scored.words]
    assert [w.word for w in mirrored.words] == [w.word for w in scored.words]
    assert [(w.start, w.direction) for w in mirrored.words] == [
        (mirror(w.start), OTHER[w.direction]) for w in scored.words if w.start and w.direction
    ]


@PROPERTY
@given(games(), st.data())
def test_board_score_depends_only_on_tiles_and_squares(
    moves: list[Move], data: st.DataObject
) -> None:
    """The order of the new tiles does not matter; a played board equals its drawing."""
    board, old = set_up(moves)
    play = to_play(board, moves[-1])
    shuffled = Play(tuple(data.draw(st.permutations(play.tiles))), play.direction)
    assert board.score(shuffled) == board.score(play)
    assert board == Board.from_rows(NL, draw_rows(old))
    after = board.apply(shuffled)
    assert after == Board.from_rows(NL, draw_rows(old | moves[-1][0]))
    assert after == board.apply(play)
    assert Board.from_rows(NL, after.rows()).rows() == after.rows()


@PROPERTY
@given(st.text(alphabet=LETTERS + LETTERS.lower(), min_size=1, max_size=15))
def test_score_words_plain_word_is_the_sum_of_its_letters(text: str) -> None:
    """SCR-04 with no premiums: a Dutch word is worth the sum of its Appendix A.1 values."""
    result = score_words(NL, [typed_word(NL, text)])
    values = [APPENDIX_A1[x] for x in text.upper()]
    (word,) = result.words
    assert word.points == sum(values)
    assert word.formula == " + ".join(map(str, values)) + f" = {sum(values)}"
    assert result.total == sum(values) + (50 if len(text) == 7 else 0)
    assert result.new_tiles == len(text)
