"""Typed text → the letters of an edition: case, accents, ligatures and digraph tiles.

The rules are derived from the edition's faces, so they are data too: a character that
is a face stays itself (Polish Ł, German Ä, Spanish Ñ); any other letter loses its accents
and ligatures (é → E, ç → C, ß → SS, ĳ → I + J); multi-letter faces (Spanish CH, LL, RR)
match longest first unless a separator splits them; a letter the set still lacks comes
back as it is, for the caller to turn into a locked blank.
"""

import unicodedata
from functools import lru_cache

from editions import codebook
from editions.errors import NotationError

#: Letters Unicode does not decompose but every tile set spells out.
_SPELLED_OUT = {"Œ": "OE", "Æ": "AE", "ẞ": "SS"}

#: Splits letters that would otherwise form a multi-letter tile ("C·H" is C then H), as
#: the Catalan punt volat does in "l·l"; valid only in editions with such tiles.
SEPARATOR = "·"


def split(faces: frozenset[str], text: str) -> tuple[str, ...]:
    """Split ``text`` into letters: faces where the set has them, folded letters otherwise.

    Raises NotationError (code ``invalid_character``) for a digit, symbol, space or a
    letter outside the Latin script.

    >>> nl = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    >>> split(nl, "ĳsCafé")
    ('I', 'J', 'S', 'C', 'A', 'F', 'E')
    >>> split(nl | {"CH"}, "chico"), split(nl | {"CH"}, "c·h")
    (('CH', 'I', 'C', 'O'), ('C', 'H'))
    """
    multi = sorted((f for f in faces if len(f) > 1), key=len, reverse=True)
    letters: list[str] = []
    breaks: set[int] = set()  # positions in `letters` a multi-letter face may not span
    for char in unicodedata.normalize("NFC", text.strip()):
        if char == SEPARATOR and multi:
            breaks.add(len(letters))
        else:
            letters.extend(_fold(faces, char, text))
    if not multi:
        return tuple(letters)
    tiles: list[str] = []
    i = 0
    while i < len(letters):
        for face in multi:
            n = len(face)
            if "".join(letters[i : i + n]) == face and not breaks & set(range(i + 1, i + n)):
                tiles.append(face)
                i += n
                break
        else:
            tiles.append(letters[i])
            i += 1
    return tuple(tiles)


def _fold(faces: frozenset[str], char: str, text: str) -> tuple[str, ...]:
    folded = _fold_char(faces, char)
    if folded is None:
        raise NotationError(
            f"{char!r} in {text!r} is not a letter",
            code=codebook.INVALID_CHARACTER,
            char=char,
            text=text,
        )
    return folded


@lru_cache(maxsize=65536)  # bounded: characters come from phones
def _fold_char(faces: frozenset[str], char: str) -> tuple[str, ...] | None:
    if not char.isalpha() or not unicodedata.name(char, "").startswith("LATIN"):
        return None
    out: list[str] = []
    for upper in char.upper():  # "ß".upper() is "SS"
        if upper in faces:
            out.append(upper)
            continue
        bare = _SPELLED_OUT.get(upper) or "".join(
            c for c in unicodedata.normalize("NFKD", upper) if not unicodedata.combining(c)
        )
        out.extend(bare if bare.isalpha() and bare.isupper() else upper)
    return tuple(out)
