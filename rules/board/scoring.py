"""Scoring words and moves, with the formula players check at the table (SCR, TYP, BNG).

Letter premiums count before word premiums, and only under tiles new in this move; a
word's multipliers multiply each other; the bingo bonus is added after all premiums, only
when exactly a full rack of new tiles was laid.
"""

from collections.abc import Iterable, Mapping, Sequence

import msgspec

from editions import Edition, codebook
from editions.layout import Premium
from rules.board.tiles import Tile, check_tile, parse_word
from rules.errors import InvalidMove, NotationError

MAX_CROSS_WORDS = 7  # TYP-03
MAX_WORD_TILES = 15  # TYP-04
_PREMIUMS = frozenset(Premium)


class TypedTile(msgspec.Struct, frozen=True, gc=False):
    """A tile of a typed word with the marks the player gave it (TYP-05)."""

    tile: Tile
    premium: Premium | None = None
    old: bool = False  # 'Ligt al op het bord': face value only, the square no longer counts


class WordScore(msgspec.Struct, frozen=True):
    """One word of a move: its points and the formula shown under it (SCR-17)."""

    word: str
    points: int
    formula: str
    new_tiles: int
    start: str | None = None  # board mode: the first square ("H4") …
    direction: str | None = None  # … and which way the word reads ("across", "down")
    note: str | None = None  # "no_new_tiles": the word scores 0 (TYP-11)


class MoveScore(msgspec.Struct, frozen=True):
    """A whole move: main word first, then every cross word, the bingo and the total."""

    total: int
    words: tuple[WordScore, ...]
    bingo: int
    new_tiles: int
    refusal: str | None = None  # "too_many_new_tiles": shown, but not recordable (P-21)


def score_word(
    edition: Edition,
    cells: Iterable[tuple[Tile, Premium | None, bool]],
    start: str | None = None,
    direction: str | None = None,
) -> WordScore:
    """Score one word from (tile, premium under it, new?) triples, in reading order; the
    word is its tiles as the edition spells them (``Edition.spelled``: "C·HINO", C then H).

    >>> from editions import get
    >>> score_word(get("nl"), [(Tile(c), Premium.TL if c == "K" else None, True)
    ...                        for c in "BOEK"]).formula
    '3 + 1 + 1 + 3 × 3 = 14'
    """
    values = edition.values
    parts: list[str] = []
    word: list[str] = []
    total = 0
    multiplier = 1
    new = 0
    for tile, premium, is_new in cells:
        word.append(tile.text)
        value = 0 if tile.blank else values[tile.letter]
        if is_new:
            new += 1
            if premium is not None:
                multiplier *= premium.word_multiplier
                factor = premium.letter_multiplier
                if factor > 1 and value:
                    parts.append(f"{value} × {factor}")
                    total += value * factor
                    continue
        parts.append(str(value))
        total += value
    if not new:
        return WordScore(edition.spelled(word), 0, "0", 0, start, direction, note="no_new_tiles")
    body = " + ".join(parts)
    if multiplier > 1:
        formula = f"({body}) × {multiplier} = {total * multiplier}"
    else:
        formula = f"{body} = {total}"
    return WordScore(edition.spelled(word), total * multiplier, formula, new, start, direction)


def total_move(edition: Edition, words: Sequence[WordScore], new_tiles: int) -> MoveScore:
    """Add the words and the bingo bonus (BNG-03); flag more new tiles than a rack holds."""
    points = sum(w.points for w in words)
    if new_tiles > edition.rack_size:
        return MoveScore(points, tuple(words), 0, new_tiles, refusal=codebook.TOO_MANY_NEW_TILES)
    bingo = edition.bingo_bonus if new_tiles == edition.rack_size else 0
    return MoveScore(points + bingo, tuple(words), bingo, new_tiles)


def score_words(edition: Edition, words: Sequence[Sequence[TypedTile]]) -> MoveScore:
    """Score a typed move: the main word first, then up to 7 cross words (TYP).

    The move's new tiles are those of the word with the most of them (BNG-04).
    Raises InvalidMove for an empty or over-long word, too many words, or a premium the
    edition does not offer; NotationError (``locked_blank``) for a missing letter un-blanked.
    """
    if not words:
        raise InvalidMove("a typed move needs a main word", code=codebook.NO_WORDS)
    if len(words) > 1 + MAX_CROSS_WORDS:
        raise InvalidMove(
            f"{len(words) - 1} cross words; at most {MAX_CROSS_WORDS}",
            code=codebook.TOO_MANY_WORDS,
            count=len(words) - 1,
            max=MAX_CROSS_WORDS,
        )
    for index, word in enumerate(words):
        if not word:
            raise InvalidMove(
                f"word {index + 1} has no tiles", code=codebook.EMPTY_WORD, index=index
            )
        if len(word) > MAX_WORD_TILES:
            raise InvalidMove(
                f"word {index + 1} has {len(word)} tiles; at most {MAX_WORD_TILES}",
                code=codebook.WORD_TOO_LONG,
                index=index,
                length=len(word),
                max=MAX_WORD_TILES,
            )
        for typed in word:
            check_tile(edition, typed.tile)
            if typed.premium is not None and typed.premium not in edition.premiums:
                raise InvalidMove(
                    f"{edition.code} has no {typed.premium} squares",
                    code=codebook.PREMIUM_NOT_OFFERED,
                    premium=str(typed.premium),
                    edition=edition.code,
                )
    scored = [score_word(edition, ((t.tile, t.premium, not t.old) for t in word)) for word in words]
    return total_move(edition, scored, max(w.new_tiles for w in scored))


def typed_word(
    edition: Edition,
    text: str,
    *,
    premiums: Mapping[int, Premium | str] | None = None,
    blanks: Iterable[int] = (),
    old: Iterable[int] = (),
) -> tuple[TypedTile, ...]:
    """A typed word with its marks, tiles counted from 0: ``premiums={4: "3L"}``, ``old={1}``.

    Raises NotationError for text that is not letters or a premium that is not one,
    InvalidMove (``bad_index``) for a mark past the word's end.

    >>> import editions
    >>> nl = editions.get("nl")
    >>> score_words(nl, [typed_word(nl, "index", premiums={0: "2W", 4: "3L"})]).total
    58
    """
    tiles = parse_word(edition, text)
    marks: dict[int, Premium] = {}
    for index, premium in (premiums or {}).items():
        if premium not in _PREMIUMS:
            raise NotationError(
                f"{premium!r} is not a premium; they are 2L 3L 2W 3W",
                code=codebook.BAD_PREMIUM,
                text=str(premium),
            )
        marks[index] = Premium(premium)
    blank_set, old_set = set(blanks), set(old)
    for index in (*marks, *blank_set, *old_set):
        if not 0 <= index < len(tiles):
            raise InvalidMove(
                f"no tile {index} in {text!r} ({len(tiles)} tiles)",
                code=codebook.BAD_INDEX,
                index=index,
                length=len(tiles),
            )
    return tuple(
        TypedTile(
            Tile(tile.letter, blank=tile.blank or i in blank_set),
            marks.get(i),
            i in old_set,
        )
        for i, tile in enumerate(tiles)
    )
