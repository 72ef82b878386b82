"""Premium squares: the four kinds and board layouts drawn as text rows."""

from enum import StrEnum
from functools import cache
from importlib import resources

import msgspec


class Premium(StrEnum):
    """A premium square, named as the sources abbreviate it."""

    DL = "2L"
    TL = "3L"
    DW = "2W"
    TW = "3W"

    @property
    def letter_multiplier(self) -> int:
        return _LETTER_MULTIPLIER.get(self, 1)

    @property
    def word_multiplier(self) -> int:
        return _WORD_MULTIPLIER.get(self, 1)


_LETTER_MULTIPLIER = {Premium.DL: 2, Premium.TL: 3}
_WORD_MULTIPLIER = {Premium.DW: 2, Premium.TW: 3}


class Layout(msgspec.Struct, frozen=True):
    """A square board's premium squares, row by row; the centre square carries the star."""

    name: str
    size: int
    premiums: tuple[Premium | None, ...]  # row-major, size × size

    @property
    def centre(self) -> tuple[int, int]:
        return self.size // 2, self.size // 2

    def premium(self, row: int, col: int) -> Premium | None:
        return self.premiums[row * self.size + col]


def parse_layout(name: str, text: str) -> Layout:
    """Read a layout drawn as rows of tokens: ``..`` plain, ``2L 3L 2W 3W`` premiums.

    Lines starting with ``#`` are comments. Raises ValueError on a ragged or unknown drawing.
    """
    rows = [line.split() for line in text.splitlines() if line.strip()[:1] not in ("", "#")]
    size = len(rows)
    if not size or any(len(row) != size for row in rows):
        raise ValueError(f"layout {name!r}: every row must have {size} squares")
    try:
        premiums = tuple(None if tok == ".." else Premium(tok) for row in rows for tok in row)
    except ValueError as exc:
        raise ValueError(f"layout {name!r}: {exc}") from None
    return Layout(name=name, size=size, premiums=premiums)


@cache
def layout(name: str) -> Layout:
    """The layout stored as ``editions/data/boards/{name}.txt``."""
    text = resources.files("editions").joinpath("data", "boards", f"{name}.txt").read_text("utf-8")
    return parse_layout(name, text)
