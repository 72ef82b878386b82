"""Tile tracking (TRK): what is left of the set, from the moves computed on the sheet.

Only moves whose tiles are known count: board and typed moves in a classic game, the tops
in duplicate (TRK-02/03). Moves entered as points only are counted apart (TRK-04).
"""

from collections import Counter

import msgspec

from editions import codebook
from events.events import Mode
from rules.state import Game, Notice

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


def used_tiles(game: Game) -> Counter[str]:
    """The letters taken from the bag by the moves whose tiles are known."""
    used: Counter[str] = Counter()
    if game.mode is Mode.DUPLICATE:
        for played in game.rounds:
            used.update(played.top_tiles)
    else:
        for line in game.lines:
            used.update(line.tiles)
    return used


def track(game: Game) -> Tracking:
    """The tile panel of ``game``."""
    edition = game.edition
    used = used_tiles(game)
    kinds = [(k.face, k.value, k.count) for k in edition.kinds] + [(BLANK, 0, edition.blanks)]
    letters = tuple(LetterLeft(f, v, n, n - used[f]) for f, v, n in kinds)
    not_on_board = edition.total_tiles - sum(used.values())
    duplicate = game.mode is Mode.DUPLICATE
    racks = 1 if duplicate else len(game.players)  # P-42: one shared rack
    if duplicate:
        points_only = sum(1 for r in game.rounds if r.top is not None and not r.top_tiles)
    else:
        points_only = sum(1 for line in game.lines if line.kind == "points")
    warnings = tuple(
        Notice(codebook.OVER_USE, {"letter": x.letter, "used": x.count - x.left, "count": x.count})
        for x in letters
        if x.left < 0
    )
    return Tracking(
        letters=letters,
        not_on_board=not_on_board,
        in_bag=not_on_board - racks * edition.rack_size,
        points_only=points_only,
        warnings=warnings,
    )
