"""Squares and directions, named as the sources name them.

Rows are letters A–O from top to bottom, columns numbers 1–15 from left to right, so the
centre star is H8 (BRD-04/05). GCG records name a move's first square the other way round:
``8D`` for a move across from H4, ``D8`` for a move down from it. A rule set says how its
players write a move's reference (``RuleSet.references``): ``board`` names the first square
and says the direction beside it (H4 across); ``fisf`` lets the order say it, as the FISF
and its programs write it: the row letter first across (H4), the column first down (4H).
"""

from enum import StrEnum
from typing import Literal, NamedTuple

from editions import codebook
from rules.errors import NotationError

SIZE = 15
_ROWS = "ABCDEFGHIJKLMNO"
#: How a rule set's players write a move's reference (see the module's docstring).
Convention = Literal["board", "fisf"]
CONVENTIONS: tuple[Convention, ...] = ("board", "fisf")
_DIGITS = "0123456789"


def _whole(text: str) -> bool:
    """Digits 0–9 only (``str.isdigit`` takes ² and other scripts' digits too)."""
    return bool(text) and all(c in _DIGITS for c in text)


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
        if name[:1] and name[0] in _ROWS and _whole(name[1:]) and 1 <= int(name[1:]) <= SIZE:
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


def reference(square: Square, direction: "str | Direction", convention: Convention) -> str:
    """A move's reference as ``convention`` writes it: the square alone under ``board`` (the
    direction is said beside it); under ``fisf`` the row letter first across, the column first
    down.

    >>> h4 = Square.parse("H4")
    >>> [reference(h4, way, rule) for way, rule in (("across", "fisf"), ("down", "fisf"),
    ...                                             ("down", "board"))]
    ['H4', '4H', 'H4']
    """
    if convention == "fisf" and Direction.parse(direction) is Direction.DOWN:
        return f"{square.col + 1}{_ROWS[square.row]}"
    return square.name


def parse_reference(
    text: str, convention: Convention, direction: "str | Direction" = Direction.ACROSS
) -> tuple[Square, Direction]:
    """A move's first square and direction from its reference as ``convention`` writes it.

    Under ``board`` the reference is the square and ``direction`` is the one said beside it
    (raises NotationError ``bad_square``); under ``fisf`` the order says the direction and
    ``direction`` is not asked (raises NotationError ``bad_reference``).

    >>> [(square.name, str(way)) for square, way in (parse_reference("8g", "fisf"),
    ...     parse_reference("G8", "fisf"), parse_reference("G8", "board", "down"))]
    [('G8', 'down'), ('G8', 'across'), ('G8', 'down')]
    """
    if convention == "board":
        return Square.parse(text), Direction.parse(direction)
    t = text.strip().upper()
    down = bool(t) and t[0] in _DIGITS
    number = t.rstrip(_ROWS) if down else t[1:]
    letter = t[len(number) :] if down else t[:1]
    if len(letter) == 1 and letter in _ROWS and _whole(number) and 1 <= int(number) <= SIZE:
        square = Square(_ROWS.index(letter), int(number) - 1)
        return square, Direction.DOWN if down else Direction.ACROSS
    raise NotationError(
        f"{text!r} is not a FISF reference like H4 (across) or 4H (down)",
        code=codebook.BAD_REFERENCE,
        text=text,
    )
