"""Tiles, and text → tiles in the two notations Tilestream reads.

*Typed text* (what a player types into a word box) ignores case; *row notation* (board
drawings, board moves, records) is exact: ``A`` a tile, ``a`` a blank standing for A,
``[CH]`` / ``[ch]`` a multi-letter tile or blank.
"""

import re
from collections.abc import Iterable
from functools import lru_cache

import msgspec

from editions import Edition, codebook
from rules.errors import NotationError


class Tile(msgspec.Struct, frozen=True, gc=False):
    """A tile as laid: the letter it shows (for a blank, the letter it stands for)."""

    letter: str
    blank: bool = False

    @property
    def notation(self) -> str:
        """The tile in row notation.

        >>> Tile("CH", blank=True).notation, Tile("Ż").notation
        ('[ch]', 'Ż')
        """
        text = self.letter if len(self.letter) == 1 else f"[{self.letter}]"
        return text.lower() if self.blank else text

    @property
    def text(self) -> str:
        """The tile as a word shows it: blanks in lower case."""
        return self.letter.lower() if self.blank else self.letter


def parse_word(edition: Edition, text: str) -> tuple[Tile, ...]:
    """Typed text → tiles; a letter the set lacks becomes a locked blank (ALP-09).

    Raises NotationError (``invalid_character``) for digits, symbols and spaces.

    >>> import editions
    >>> [t.notation for t in parse_word(editions.get("it"), "Kiwi")]
    ['k', 'I', 'w', 'I']
    """
    faces = edition.faces
    return tuple(Tile(x) if x in faces else Tile(x, blank=True) for x in edition.letters(text))


_TOKEN = re.compile(r"\[[^\[\]]*\]|.", re.DOTALL)


def parse_tiles(edition: Edition, notation: str) -> tuple[Tile | None, ...]:
    """Row notation → tiles, ``.`` giving None (an empty square).

    Raises NotationError: ``bad_tile`` for a bracket that is not one face,
    ``invalid_character`` for a digit or symbol.

    >>> import editions
    >>> [t and t.notation for t in parse_tiles(editions.get("es"), "[CH]a.")]
    ['[CH]', 'a', None]
    """
    tiles: list[Tile | None] = []
    for token in _TOKEN.findall(notation):
        if token == ".":
            tiles.append(None)
            continue
        inner = token[1:-1] if token.startswith("[") else token
        letters = edition.letters(inner) if inner.strip() == inner else ()
        if not letters or (token.startswith("[") and len(letters) != 1):
            raise NotationError(
                f"{token!r} in {notation!r} is not a tile", code=codebook.BAD_TILE, text=token
            )
        blank = inner.islower() or any(x not in edition.faces for x in letters)
        tiles.extend(Tile(x, blank=blank) for x in letters)
    return tuple(tiles)


@lru_cache(maxsize=4096)  # bounded: notation can come from phones
def parse_tile(edition: Edition, notation: str) -> Tile:
    """One tile in row notation, remembered: recorded moves repeat the same few tiles.

    Raises NotationError (``bad_tile``) unless ``notation`` is exactly one tile.
    """
    tiles = parse_tiles(edition, notation)
    if len(tiles) != 1 or tiles[0] is None:
        raise NotationError(f"{notation!r} is not one tile", code=codebook.BAD_TILE, text=notation)
    return tiles[0]


def bag_letter(notation: str) -> str:
    """The letter a tile in row notation takes from the bag: ``?`` for any blank.

    >>> bag_letter("[CH]"), bag_letter("a"), bag_letter("Ż")
    ('CH', '?', 'Ż')
    """
    inner = notation[1:-1] if notation.startswith("[") else notation
    return "?" if inner.islower() else inner


def check_tile(edition: Edition, tile: Tile) -> None:
    """Refuse a non-blank tile whose letter the set lacks (ALP-07: it stays a blank)."""
    if not tile.blank and tile.letter not in edition.faces:
        raise NotationError(
            f"{tile.letter!r} is not in the {edition.code} set, so it can only be a blank",
            code=codebook.LOCKED_BLANK,
            letter=tile.letter,
        )


def check_blanks(edition: Edition, tiles: Iterable[Tile]) -> None:
    """Refuse a blank played as a letter outside the edition's alphabet: in a game the blank
    is one of the set's letters (a Polish blank is never Q, V or X), although the calculator
    scores any letter typed as a blank (ALP-07)."""
    for tile in tiles:
        if tile.blank and tile.letter not in edition.alphabet:
            raise NotationError(
                f"a blank is no {tile.letter!r} in the {edition.code} set",
                code=codebook.BLANK_NOT_IN_ALPHABET,
                letter=tile.letter,
            )
