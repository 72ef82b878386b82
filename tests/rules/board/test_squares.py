"""References as a rule set writes them (``rules.board.squares``): the square with its
direction beside it, or the FISF's, whose order says the direction (H4 across, 4H down)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from editions import codebook
from rules.board.squares import (
    CONVENTIONS,
    Convention,
    Direction,
    Square,
    parse_reference,
    reference,
)
from rules.errors import NotationError

ACROSS, DOWN = Direction.ACROSS, Direction.DOWN


@pytest.mark.parametrize(
    ("text", "convention", "direction", "square", "way"),
    [
        ("H4", "fisf", ACROSS, "H4", ACROSS),
        ("4H", "fisf", ACROSS, "H4", DOWN),  # the order says it, whatever was chosen beside it
        ("8g", "fisf", ACROSS, "G8", DOWN),  # the issue's « 8G » n'est pas une case
        ("B8", "fisf", DOWN, "B8", ACROSS),
        ("8B", "fisf", ACROSS, "B8", DOWN),
        (" o15 ", "fisf", ACROSS, "O15", ACROSS),
        ("15O", "fisf", ACROSS, "O15", DOWN),
        ("1A", "fisf", ACROSS, "A1", DOWN),
        ("H4", "board", DOWN, "H4", DOWN),  # the square, and the direction said beside it
        ("a15", "board", ACROSS, "A15", ACROSS),
    ],
)  # fmt: skip
def test_parse_reference_finds_the_square_and_the_direction(
    text: str, convention: Convention, direction: Direction, square: str, way: Direction
) -> None:
    assert parse_reference(text, convention, direction) == (Square.parse(square), way)


@pytest.mark.parametrize(
    ("text", "convention", "code"),
    [
        ("8G", "board", codebook.BAD_SQUARE),  # the Dutch/English form stays as it was
        ("", "fisf", codebook.BAD_REFERENCE),
        ("H", "fisf", codebook.BAD_REFERENCE),
        ("16H", "fisf", codebook.BAD_REFERENCE),
        ("H0", "fisf", codebook.BAD_REFERENCE),
        ("4HH", "fisf", codebook.BAD_REFERENCE),
        ("P4", "fisf", codebook.BAD_REFERENCE),
        ("4 H", "fisf", codebook.BAD_REFERENCE),
        ("H²", "fisf", codebook.BAD_REFERENCE),  # str.isdigit says yes; no square says so
        ("H²", "board", codebook.BAD_SQUARE),
        ("44", "fisf", codebook.BAD_REFERENCE),
    ],
)  # fmt: skip
def test_parse_reference_refuses_what_names_no_move_with_its_code(
    text: str, convention: Convention, code: str
) -> None:
    with pytest.raises(NotationError) as refused:
        parse_reference(text, convention)
    assert (refused.value.code, refused.value.params) == (code, {"text": text})


@pytest.mark.parametrize(
    ("square", "direction", "convention", "written"),
    [
        ("H4", ACROSS, "fisf", "H4"),
        ("H4", DOWN, "fisf", "4H"),
        ("B8", DOWN, "fisf", "8B"),  # the tops said "B8 vertical"
        ("O15", DOWN, "fisf", "15O"),
        ("H4", DOWN, "board", "H4"),
    ],
)  # fmt: skip
def test_reference_writes_a_move_as_the_convention_does(
    square: str, direction: Direction, convention: Convention, written: str
) -> None:
    assert reference(Square.parse(square), direction, convention) == written


squares = st.builds(Square, st.integers(0, 14), st.integers(0, 14))


@given(squares, st.sampled_from(Direction), st.sampled_from(CONVENTIONS))
def test_a_written_reference_reads_back_as_the_same_move(
    square: Square, direction: Direction, convention: Convention
) -> None:
    assert parse_reference(reference(square, direction, convention), convention, direction) == (
        square,
        direction,
    )
