"""Where new tiles may go (BRD-12..17, P-22) and the errors that say why not."""

from collections.abc import Callable
from typing import Any

import pytest

import editions
from rules import Board, GameError, IllegalPlacement, InvalidMove, NotationError, Square, Tile
from rules.board.placement import Play

NL = editions.get("nl")
PLANK = Board.empty(NL).apply(Board.empty(NL).place("H4", "across", "PLANK"))
# Only the edge matters here: PLANK on H4–H8 and DAG on H13–H15 leave H9–H12 free.
EDGE = Board.from_rows(NL, ["." * 15] * 7 + ["...PLANK....DAG"] + ["." * 15] * 7)

# board, the move (built and scored; raising in either step), code, params
PLACEMENT_ERRORS = [
    pytest.param(PLANK, lambda b: b.place_tiles([]), "no_tiles", {}, id="no_tiles"),
    pytest.param(PLANK, lambda b: b.place("I1", "across", ""), "no_tiles", {}, id="no_tiles-typed"),
    pytest.param(
        Board.empty(NL),
        lambda b: b.place("H1", "across", "ABCDEFGH"),
        "too_many_tiles",
        {"count": 8, "rack_size": 7},
        id="too_many_tiles",
    ),
    pytest.param(
        Board.empty(NL),
        lambda b: b.place("H12", "across", "PLANK"),
        "off_board",
        {"square": "H12"},
        id="off_board-across",
    ),
    pytest.param(
        Board.empty(NL),
        lambda b: b.place("L8", "down", "PLANK"),
        "off_board",
        {"square": "L8"},
        id="off_board-down",
    ),
    pytest.param(
        EDGE,
        lambda b: b.place("H9", "across", "EENDEN"),  # H9–H12 free, H13–H15 taken
        "off_board",
        {"square": "H9"},
        id="off_board-after-skipping",
    ),
    pytest.param(
        PLANK,
        lambda b: b.place_tiles([("H4", "S")]),
        "occupied",
        {"square": "H4"},
        id="occupied",
    ),
    pytest.param(
        PLANK,
        lambda b: b.place_tiles([("I4", "A"), ("I5", "B"), ("I4", "C")]),
        "occupied",
        {"square": "I4"},
        id="occupied-twice",
    ),
    pytest.param(
        Board.empty(NL),
        lambda b: b.place_tiles([("H4", "A"), ("I5", "B")]),
        "not_in_line",
        {},
        id="TV-D-22",
    ),
    pytest.param(
        PLANK,
        lambda b: b.place_tiles([("G4", "A"), ("I5", "B")]),
        "not_in_line",
        {},
        id="not_in_line-around-old",
    ),
    pytest.param(
        Board.empty(NL),
        lambda b: b.place_tiles([("H4", "A"), ("H6", "B")]),
        "gap",
        {"square": "H5"},
        id="TV-D-21",
    ),
    pytest.param(
        PLANK,
        lambda b: b.place_tiles([("F6", "K"), ("I6", "A"), ("J6", "N")]),
        "gap",
        {"square": "G6"},  # H6 is old and may fill the line, G6 is empty
        id="gap-beside-old-tile",
    ),
    pytest.param(
        Board.empty(NL),
        lambda b: b.place("H9", "across", "AB"),
        "first_move_off_centre",
        {"centre": "H8"},
        id="TV-D-19",
    ),
    pytest.param(
        Board.empty(NL),
        lambda b: b.place_tiles([("H8", "A")]),
        "first_move_single_tile",
        {},
        id="TV-D-20",
    ),
    pytest.param(
        PLANK,
        lambda b: b.place("A1", "across", "AB"),
        "not_connected",
        {},
        id="TV-D-23",
    ),
    pytest.param(
        PLANK,
        lambda b: b.place_tiles([("G3", "A")]),  # diagonal to P on H4 is not touching
        "not_connected",
        {},
        id="not_connected-diagonal",
    ),
]


@pytest.mark.parametrize(("board", "make", "code", "params"), PLACEMENT_ERRORS)
def test_placement_refuses_with_code_and_params(
    board: Board, make: Callable[[Board], Play], code: str, params: dict[str, Any]
) -> None:
    """BRD-17: an invalid placement is refused with its reason."""
    with pytest.raises(IllegalPlacement) as caught:
        board.score(make(board))
    assert isinstance(caught.value, InvalidMove)
    assert caught.value.code == code
    assert caught.value.params == params


@pytest.mark.parametrize(
    "square", [Square(7, 15), Square(15, 7), Square(-1, 7), Square(7, -1)], ids=str
)
def test_placement_refuses_squares_off_the_board(square: Square) -> None:
    """P-22: a square past the edge given to place_tiles is refused, not wrapped round."""
    play = PLANK.place_tiles([(Square(7, 8), "S"), (square, "A")])
    with pytest.raises(IllegalPlacement) as caught:
        PLANK.validate(play)
    assert caught.value.code == "off_board"
    assert caught.value.params == {"square": f"{square.row},{square.col}"}


@pytest.mark.parametrize(
    ("board", "make"),
    [
        pytest.param(Board.empty(NL), lambda b: b.place("H8", "down", "AB"), id="first-down"),
        pytest.param(
            Board.empty(NL),
            lambda b: b.place("H2", "across", "ABCDEFG"),
            id="first-full-rack-to-centre",
        ),
        pytest.param(
            PLANK,
            lambda b: b.place_tiles([("F6", "K"), ("G6", "R"), ("I6", "A"), ("J6", "N")]),
            id="BRD-13-old-fills-gap",
        ),
        pytest.param(PLANK, lambda b: b.place_tiles([("H9", "S")]), id="single-tile-extension"),
        pytest.param(PLANK, lambda b: b.place_tiles([("I8", "E")], "down"), id="single-below"),
        pytest.param(PLANK, lambda b: b.place("I1", "across", "ABCDEFG"), id="parallel-seven"),
        pytest.param(EDGE, lambda b: b.place("H9", "across", "EEND"), id="up-to-the-edge"),
    ],
)
def test_placement_accepts_legal_moves(board: Board, make: Callable[[Board], Play]) -> None:
    play = make(board)
    board.validate(play)
    assert board.score(play).total > 0


@pytest.mark.parametrize(
    ("make", "code", "params"),
    [
        pytest.param(
            lambda b: b.place("P1", "across", "AB"),
            "bad_square",
            {"text": "P1"},
            id="bad_square-row",
        ),
        pytest.param(
            lambda b: b.place("H16", "across", "AB"),
            "bad_square",
            {"text": "H16"},
            id="bad_square-column",
        ),
        pytest.param(
            lambda b: b.place("H0", "across", "AB"),
            "bad_square",
            {"text": "H0"},
            id="bad_square-zero",
        ),
        pytest.param(
            lambda b: b.place("", "across", "AB"), "bad_square", {"text": ""}, id="bad_square-empty"
        ),
        pytest.param(
            lambda b: b.place_tiles([("8H", "A")]),
            "bad_square",
            {"text": "8H"},
            id="bad_square-gcg-order",
        ),
        pytest.param(
            lambda b: b.place("H8", "diagonal", "AB"),
            "bad_direction",
            {"text": "diagonal"},
            id="bad_direction",
        ),
        pytest.param(
            lambda b: b.place_tiles([("H8", "A"), ("H9", "B")], "up"),
            "bad_direction",
            {"text": "up"},
            id="bad_direction-tiles",
        ),
        pytest.param(
            lambda b: b.place_tiles([("H8", "AB")]),
            "bad_tile",
            {"text": "AB"},
            id="bad_tile-two-letters",
        ),
        pytest.param(
            lambda b: b.place_tiles([("H8", ".")]),
            "bad_tile",
            {"text": "."},
            id="bad_tile-empty-square",
        ),
        pytest.param(
            lambda b: b.place("H8", "across", "[CH]"),
            "bad_tile",
            {"text": "[CH]"},
            id="bad_tile-digraph-not-in-nl",
        ),
        pytest.param(
            lambda b: b.place("H8", "across", "A1"),
            "invalid_character",
            {"char": "1", "text": "1"},
            id="invalid_character-digit",
        ),
        pytest.param(
            lambda b: b.place("H8", "across", "KO-T"),
            "invalid_character",
            {"char": "-", "text": "-"},
            id="invalid_character-symbol",
        ),
    ],
)
def test_board_notation_errors(
    make: Callable[[Board], Play], code: str, params: dict[str, Any]
) -> None:
    with pytest.raises(NotationError) as caught:
        Board.empty(NL).score(make(Board.empty(NL)))
    assert caught.value.code == code
    assert caught.value.params == params


@pytest.mark.parametrize(
    ("rows", "params"),
    [
        pytest.param(["." * 15] * 14, {"rows": 14, "size": 15}, id="14-rows"),
        pytest.param(["." * 15] * 16, {"rows": 16, "size": 15}, id="16-rows"),
        pytest.param(["." * 15] * 14 + ["." * 16], {"rows": 15, "size": 15}, id="16-squares"),
        pytest.param(["." * 15] * 14 + ["." * 14], {"rows": 15, "size": 15}, id="14-squares"),
        pytest.param([], {"rows": 0, "size": 15}, id="nothing"),
    ],
)
def test_board_from_rows_refuses_wrong_shape(rows: list[str], params: dict[str, Any]) -> None:
    with pytest.raises(NotationError) as caught:
        Board.from_rows(NL, rows)
    assert caught.value.code == "bad_rows"
    assert caught.value.params == params


@pytest.mark.parametrize(
    ("code", "row", "error", "params"),
    [
        pytest.param("es", "[CH" + "." * 12, "bad_tile", {"text": "["}, id="open-bracket"),
        pytest.param("es", "[XY]" + "." * 14, "bad_tile", {"text": "[XY]"}, id="two-faces"),
        pytest.param("es", "[]" + "." * 15, "bad_tile", {"text": "[]"}, id="empty-bracket"),
        pytest.param(
            "nl", "1" + "." * 14, "invalid_character", {"char": "1", "text": "1"}, id="digit"
        ),
        pytest.param(
            "pl", "KO-T" + "." * 11, "invalid_character", {"char": "-", "text": "-"}, id="symbol"
        ),
    ],
)
def test_board_from_rows_refuses_bad_tiles(
    code: str, row: str, error: str, params: dict[str, Any]
) -> None:
    with pytest.raises(NotationError) as caught:
        Board.from_rows(editions.get(code), [row] + ["." * 15] * 14)
    assert caught.value.code == error
    assert caught.value.params == params


def test_board_literaki_has_no_board() -> None:
    """TV-D-29 / BRD-23: no board mode with Literaki values (a coded GameError)."""
    literaki = editions.get("pl-literaki")
    for make in (Board.empty, lambda ed: Board.from_rows(ed, ["." * 15] * 15)):
        with pytest.raises(GameError) as caught:
            make(literaki)
        assert caught.value.code == "no_board"
        assert caught.value.params == {"edition": "pl-literaki"}


def test_placement_error_leaves_first_move_rules_to_the_first_move() -> None:
    """BRD-14/15/16: later moves need not touch the centre, nor use two tiles."""
    play = PLANK.place_tiles([("G4", Tile("O"))])
    PLANK.validate(play)
    assert PLANK.score(play).total == 4
