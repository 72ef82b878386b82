"""Squares and directions, named as the sources name them.

Rows are letters A–O from top to bottom, columns numbers 1–15 from left to right, so the
centre star is H8 (BRD-04/05). GCG records name a move's first square the other way round:
``8D`` for a move across from H4, ``D8`` for a move down from it.
"""

from enum import StrEnum
from typing import NamedTuple

from editions import codebook
from rules.errors import NotationError

SIZE = 15
_ROWS = "ABCDEFGHIJKLMNO"


class Direction(StrEnum):
    """Which way a move reads."""

    ACROSS = "across"
    DOWN = "down"

    @classmethod
    def parse(cls, text: "str | Direction") -> "Direction":
        """``"across"`` or ``"down"``; raises NotationError (``bad_direction``)."""
        try:
            return cls(text)
        except ValueError:
            raise NotationError(
                f"direction {text!r} is neither 'across' nor 'down'",
                code=codebook.BAD_DIRECTION,
                text=str(text),
            ) from None

    @property
    def other(self) -> "Direction":
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


class Square(NamedTuple):
    """A square by row and column, both counted from 0."""

    row: int
    col: int

    @classmethod
    def parse(cls, text: "str | Square") -> "Square":
        """A square from its name; raises NotationError (``bad_square``).

        >>> Square.parse("H8"), Square.parse("a15")
        (Square(row=7, col=7), Square(row=0, col=14))
        """
        if isinstance(text, Square):
            return text
        name = text.strip().upper()
        if name[:1] and name[0] in _ROWS and name[1:].isdigit() and 1 <= int(name[1:]) <= SIZE:
            return cls(_ROWS.index(name[0]), int(name[1:]) - 1)
        raise NotationError(f"{text!r} is not a square A1–O15", code=codebook.BAD_SQUARE, text=text)

    @property
    def name(self) -> str:
        """The square's name.

        >>> Square(7, 3).name
        'H4'
        """
        return f"{_ROWS[self.row]}{self.col + 1}"


def gcg_position(square: Square, direction: Direction) -> str:
    """A move's start in GCG form: row number first for across, column letter first for down.

    >>> gcg_position(Square.parse("H4"), Direction.ACROSS), gcg_position(Square.parse("H4"), "down")
    ('8D', 'D8')
    """
    row, col = str(square.row + 1), _ROWS[square.col]
    return row + col if direction == Direction.ACROSS else col + row


def parse_gcg_position(text: str) -> tuple[Square, Direction]:
    """The inverse of ``gcg_position``; raises NotationError (``bad_square``).

    >>> [(square.name, str(way)) for square, way in (parse_gcg_position("8D"),
    ...                                                parse_gcg_position("d8"))]
    [('H4', 'across'), ('H4', 'down')]
    """
    t = text.strip().upper()
    if t[:1].isdigit():
        number, letter, direction = t[:-1], t[-1:], Direction.ACROSS
    else:
        letter, number, direction = t[:1], t[1:], Direction.DOWN
    if letter and letter in _ROWS and number.isdigit() and 1 <= int(number) <= SIZE:
        return Square(int(number) - 1, _ROWS.index(letter)), direction
    raise NotationError(
        f"{text!r} is not a GCG position like 8D or D8", code=codebook.BAD_SQUARE, text=text
    )
