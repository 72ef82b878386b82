"""Tile tracking (TRK): what is left of the set, from the moves computed on the sheet.

Only moves whose tiles are known count: board and typed moves in a classic game, the tops
in duplicate (TRK-02/03). Moves entered as points only are counted apart (TRK-04).

The counts run with the game (``Tally``): the reducer adds each line's tiles as it writes the
line (``line_written``) and each top's as it records the top (``round_changed``), so a view
reads the panel instead of counting every line again. The property tests hold them to a
count from every line (tests/rules/table/test_log_properties.py).
"""

from functools import lru_cache

import msgspec
from msgspec.structs import replace

from editions import Edition, codebook
from rules.table.state import Game, Line, Notice, Round, Tally

BLANK = "?"


class LetterLeft(msgspec.Struct, frozen=True):
    """One letter of the set: its value, how many the set has, how many are left."""

    letter: str  # "?" for the blanks
    value: int
    count: int
    left: int  # negative when over-used


class Tracking(msgspec.Struct, frozen=True):
    """The tile panel: per letter, the two numbers (TRK-05), and the over-use warnings."""

    letters: tuple[LetterLeft, ...]
    not_on_board: int  # (a)
    in_bag: int  # (b): (a) less the full racks
    points_only: int  # moves whose tiles are unknown
    warnings: tuple[Notice, ...] = ()


@lru_cache(maxsize=64)
def _kinds(edition: Edition) -> tuple[tuple[str, int, int], ...]:
    """The panel's letters, in its order: face, value, count; the blanks last."""
    return (*((k.face, k.value, k.count) for k in edition.kinds), (BLANK, 0, edition.blanks))


@lru_cache(maxsize=64)
def _slots(edition: Edition) -> dict[str, int]:
    """Letter → its place in the panel."""
    return {face: i for i, (face, _, _) in enumerate(_kinds(edition))}


def opened(edition: Edition) -> Tally:
    """The counts of a game just started: nothing taken."""
    return Tally(tuple(count for _, _, count in _kinds(edition)))


def taken(tally: Tally, edition: Edition, tiles: tuple[str, ...], sign: int = 1) -> Tally:
    """``tally`` with ``tiles`` taken from the bag (``sign`` -1: put back)."""
    if not tiles:  # most lines: a replay writes thousands
        return tally
    left, slots = list(tally.left), _slots(edition)
    for tile in tiles:
        slot = slots.get(tile)
        if slot is not None:  # a letter the set lacks still leaves the bag's count
            left[slot] -= sign
    return Tally(tuple(left), tally.taken + sign * len(tiles), tally.points_only)


def line_written(tally: Tally, edition: Edition, line: Line) -> Tally:
    """``tally`` after a classic line is written."""
    if line.kind == "points":
        tally = Tally(tally.left, tally.taken, tally.points_only + 1)
    return taken(tally, edition, line.tiles)


def _points_only(played: Round) -> int:
    return int(played.top is not None and not played.top_tiles)


def round_changed(tally: Tally, edition: Edition, old: Round, new: Round) -> Tally:
    """``tally`` after a duplicate round's top (or its tiles) went from ``old`` to ``new``."""
    if old.top_tiles != new.top_tiles:
        tally = taken(taken(tally, edition, old.top_tiles, -1), edition, new.top_tiles)
    change = _points_only(new) - _points_only(old)
    return replace(tally, points_only=tally.points_only + change) if change else tally


@lru_cache(maxsize=4096)
def _letters(
    edition: Edition, left: tuple[int, ...]
) -> tuple[tuple[LetterLeft, ...], tuple[Notice, ...]]:
    """The panel's letters and over-use warnings for the counts ``left``; kept, so a view
    whose counts did not change holds the very same letters as the view before."""
    kinds = _kinds(edition)
    letters = tuple(LetterLeft(f, v, n, x) for (f, v, n), x in zip(kinds, left, strict=True))
    warnings = tuple(
        Notice(codebook.OVER_USE, {"letter": x.letter, "used": x.count - x.left, "count": x.count})
        for x in letters
        if x.left < 0
    )
    return letters, warnings


def track(game: Game) -> Tracking:
    """The tile panel of ``game``, from its running counts."""
    edition, tally = game.edition, game.tally
    letters, warnings = _letters(edition, tally.left)
    not_on_board = edition.total_tiles - tally.taken
    return Tracking(
        letters=letters,
        not_on_board=not_on_board,
        in_bag=not_on_board - game.racks * edition.rack_size,
        points_only=tally.points_only,
        warnings=warnings,
    )
