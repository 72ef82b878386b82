"""The end of a game with a rack per player (END): rack values, the settlement, the final table
and places; classic and online games end so, a duplicate game settles nothing (DUP-14)."""

from collections.abc import Sequence

import msgspec

from editions import Edition, codebook
from events.events import RackLeft
from rules.errors import GameError
from rules.table import gameclock
from rules.table.state import Game

BLANK = "?"


class FinalRow(msgspec.Struct, frozen=True):
    """One player's line of the final table (END-07); ``overtime``: the points the game
    clock's overtime penalties took (negative, part of ``before``); ``lost_on_time``: the
    player lost the game on time and is placed after every player who did not."""

    player: int
    before: int
    settlement: int
    final: int
    place: int
    overtime: int = 0
    lost_on_time: bool = False


def rack_tiles(edition: Edition, letters: str) -> tuple[str, ...]:
    """The tiles of rack letters as typed at the end: ``?`` a blank, IJ as I + J (P-36).

    Raises GameError: ``letter_not_in_set`` for a letter the set lacks, NotationError for
    digits and symbols.

    >>> import editions
    >>> rack_tiles(editions.get("nl"), "ij?")
    ('I', 'J', '?')
    """
    tiles = edition.letters(letters.replace(BLANK, "")) + (BLANK,) * letters.count(BLANK)
    for tile in tiles:
        if tile != BLANK and tile not in edition.faces:
            raise GameError(
                f"{tile!r} is not in the {edition.code} set",
                code=codebook.LETTER_NOT_IN_SET,
                letter=tile,
            )
    return tiles


def rack_value(edition: Edition, rack: RackLeft) -> int | None:
    """What a rack costs its holder; None for the empty field of the player who went out."""
    if rack.points is not None:
        return rack.points
    if not rack.letters:
        return None
    return sum(edition.values.get(t, 0) for t in rack_tiles(edition, rack.letters))


def settle(values: Sequence[int | None]) -> tuple[int, ...]:
    """Each player's settlement: minus their own rack, plus all others' for who went out.

    >>> settle([None, 6]), settle([4, 15]), settle([None, 10, 5])
    ((6, -6), (-4, -15), (15, -10, -5))
    """
    others = sum(v for v in values if v is not None)
    return tuple(others if v is None else -v for v in values)


def places(finals: Sequence[int], lost: Sequence[bool] = ()) -> tuple[int, ...]:
    """Competition places: equal scores share a place, the next is skipped (P-35); a player
    who ``lost`` on time comes after every one who did not, whatever the score.

    >>> places([300, 300, 250]), places([300, 250], [True, False])
    ((1, 1, 3), (2, 1))
    """
    out = list(lost) or [False] * len(finals)
    return tuple(
        1 + sum((out[i], -other) < (out[p], -score) for i, other in enumerate(finals))
        for p, score in enumerate(finals)
    )


def final_table(
    totals: Sequence[int],
    settlement: Sequence[int],
    overtime: Sequence[int] = (),
    lost: Sequence[bool] = (),
) -> tuple[FinalRow, ...]:
    """The final table in player order."""
    finals = [t + s for t, s in zip(totals, settlement, strict=True)]
    over = list(overtime) or [0] * len(finals)
    out = list(lost) or [False] * len(finals)
    return tuple(
        FinalRow(i, totals[i], settlement[i], final, place, over[i], out[i])
        for i, (final, place) in enumerate(zip(finals, places(finals, out), strict=True))
    )


def final(game: Game) -> tuple[FinalRow, ...] | None:
    """The final table once a game with a rack per player has ended (END-05..08), with what
    the game clock cost: the overtime penalties recorded with the end, and who lost on time
    (the clock stood still at the end, so its time used is the game's)."""
    if game.ended is None:
        return None
    count = len(game.totals)
    overtime = [0] * count
    for line in game.lines:
        if line.overtime:
            overtime[line.player] += line.points
    clock = game.game_clock
    lost = [clock is not None and gameclock.lost(game, clock, p) for p in range(count)]
    if not game.ended:
        return final_table(game.totals, (0,) * count, overtime, lost)
    settled = settle([rack_value(game.edition, r) for r in game.ended])
    return final_table(game.totals, settled, overtime, lost)
