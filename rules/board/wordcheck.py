"""Checking a move's words against a word list, apart from scoring (WL-01..14, P-12, WS-31).

A list enters as a ``contains`` callable (text → bool), never by import: the server binds
``wordlists.get(lang).contains``. Scores never depend on it (WL-12): these functions take
words and return labels, and nothing in scoring calls them.

Statuses, one per word (the phone shows them in its language, ``wordcheck.*`` strings):

===============  ==========================================================
``in_list``      the list has the word
``not_in_list``  the list lacks it
``no_list``      no list is loaded for the language, so nothing was checked
===============  ==========================================================
"""

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum

from editions import Edition
from editions.alphabet import SEPARATOR
from rules.board.tiles import Tile

#: A word list's membership test; it reads typed text as the edition's tiles.
Contains = Callable[[str], bool]

#: A word as typed text, or as the tiles it is made of (exact for Spanish CH, LL, RR).
Word = str | Sequence[Tile]


class WordStatus(StrEnum):
    """A word's label when word checking is on."""

    IN_LIST = "in_list"
    NOT_IN_LIST = "not_in_list"
    NO_LIST = "no_list"


def lookup_text(edition: Edition, word: Word) -> str:
    """Text that reads back as exactly this word's tiles, for a ``contains`` callable.

    Tiles of an edition with multi-letter faces are split by the separator, so the tiles
    C + H are not read as the CH tile; text is passed through as the player typed it.

    >>> import editions
    >>> es = editions.get("es")
    >>> lookup_text(es, (Tile("C"), Tile("H"), Tile("E"))), lookup_text(es, "Chico")
    ('C·H·E', 'Chico')
    """
    if isinstance(word, str):
        return word
    separator = SEPARATOR if any(len(face) > 1 for face in edition.faces) else ""
    return separator.join(tile.letter for tile in word)


def shown(edition: Edition, word: Word) -> str:
    """The word as a score line shows it: blanks in lower case, two letters the edition
    would read as one tile parted (``Edition.spelled``).

    >>> import editions
    >>> nl, es = editions.get("nl"), editions.get("es")
    >>> shown(nl, (Tile("K", blank=True), Tile("I"))), shown(nl, "kaas")
    ('kI', 'kaas')
    >>> shown(es, (Tile("C"), Tile("H"), Tile("E"))), shown(es, (Tile("CH"), Tile("E")))
    ('C·HE', 'CHE')
    """
    return word if isinstance(word, str) else edition.spelled([tile.text for tile in word])


def word_statuses(
    edition: Edition, words: Iterable[Word], contains: Contains | None
) -> tuple[WordStatus, ...]:
    """A status for every word, main and cross words alike (WL-14); ``no_list`` without one.

    >>> import editions
    >>> nl, listed = editions.get("nl"), {"PLANK", "KRAAN"}
    >>> [str(s) for s in word_statuses(nl, ["PLANK", "KRAAN", "QQ"], listed.__contains__)]
    ['in_list', 'in_list', 'not_in_list']
    >>> [str(s) for s in word_statuses(nl, ["PLANK"], None)]
    ['no_list']
    """
    if contains is None:
        return tuple(WordStatus.NO_LIST for _ in words)
    return tuple(
        WordStatus.IN_LIST if contains(lookup_text(edition, word)) else WordStatus.NOT_IN_LIST
        for word in words
    )


def invalid_words(edition: Edition, words: Iterable[Word], contains: Contains) -> tuple[str, ...]:
    """Every word of a play the list lacks, each once, in order: all of them, not the first.

    Online play (WS-31) refuses a move whose tuple is not empty and names these words.

    >>> import editions
    >>> invalid_words(editions.get("nl"), ["DOE", "XQ", "ND", "XQ"], {"DOE"}.__contains__)
    ('XQ', 'ND')
    """
    bad: dict[str, None] = {}
    for word in words:
        if not contains(lookup_text(edition, word)):
            bad.setdefault(shown(edition, word), None)
    return tuple(bad)
