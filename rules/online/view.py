"""What a device may see of an online game: racks stay private (P-52).

A seat sees its own rack and the others' tile counts, never another rack, the bag's order or
the seed; the host without a seat, viewers and the room display see no rack at all, and no
device the rack of a seat the computer plays (a phone left at that seat from an earlier game
included). Every line's ``tiles`` is left empty (it would tell what an exchange or a rack
held), and the host strikes every line; once the game is over the racks are public.
"""

from collections import Counter

from msgspec.structs import replace

from rules.board import bag
from rules.online.play import deadline, held
from rules.table import settlement
from rules.table.sheet import OnlineView, SheetView, build, noticed
from rules.table.state import Game, State


def online_view(game: Game, seat: int | None) -> OnlineView:
    """What ``seat`` (None: a device without one) may know of an online game's tiles."""
    online = held(game)
    if seat is not None and (not 0 <= seat < len(game.players) or online.computer(seat)):
        seat = None
    rack = online.racks[seat] if seat is not None else ()
    seen = Counter(rack)
    if game.board is not None:
        seen.update("?" if tile.blank else tile.letter for _, tile in game.board)
    left = Counter(bag.full_set(game.edition))
    left.subtract(seen)
    over = game.ended is not None
    return OnlineView(
        rack=tuple(bag.notation(t) for t in rack) if seat is not None else None,
        seat=seat,
        bag=len(online.bag),
        racks=tuple(len(r) for r in online.racks),
        unseen=tuple((bag.notation(t), n) for t, n in left.items() if n > 0),
        last=online.last,
        deadline=deadline(game),
        move_seconds=online.move_seconds,
        passes=game.pass_run,
        ended_racks=tuple(tuple(bag.notation(t) for t in r) for r in online.racks)
        if over
        else None,
        computers=online.computers,
    )


def sheet(state: State, game: Game, seat: int | None) -> SheetView:
    """The sheet with ``seat``'s own rack; the passes need no notice, they end the game."""
    return build(
        state,
        game,
        notices=noticed(game, passes=False),
        final=settlement.final(game),
        private=True,
        online=online_view(game, seat),
    )


def for_seat(sheet: SheetView, game: Game, seat: int | None) -> SheetView:
    """``sheet`` with ``seat``'s own rack."""
    return replace(sheet, online=online_view(game, seat))
