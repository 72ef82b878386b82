"""What a device may see of a duplicate game: the same for everyone but a player's own slip.

Every device sees the rounds, the standings against the tops and the final table, which
settles no rack (DUP-14). In a room (a round with a rack), until the round closes a slip is
its player's alone: the director and the room display see whose slips are in (a player's
phone does not, so another player's slip sends it nothing), the player's own phone sees its
word, square and score as it lies, and no device sees another player's word (DESIGN: slips
private until the round closes). Once the round has closed every slip is on the sheet,
judged (``Round.results``).
"""

from msgspec.structs import replace

from rules.room import racks
from rules.room.rounds import rules_of
from rules.table.settlement import FinalRow, final_table, places
from rules.table.sheet import RoomView, SheetView, SlipView, Standing, build, noticed, tops
from rules.table.state import Game, Slip, State


def room_view(game: Game, seat: int | None) -> RoomView:
    """The room of a duplicate ``game`` as the device at ``seat`` (None: none) sees it."""
    rule, _ = rules_of(game)
    held = racks.rack_of(game) or racks.kept(game)
    tiles = (*held, *racks.in_bag(game, held))
    kind = racks.kinds(game.edition, rule)
    shared = RoomView(
        bag=racks.bag_count(game),
        slips=(),
        late=(),
        mine=None,
        minimum=racks.minimum(rule, kind, len(game.rounds), tiles),
        centre=game.centre.name if game.centre is not None else None,
    )
    return _seen_from(shared, game, seat)


def _seen_from(room: RoomView, game: Game, seat: int | None) -> RoomView:
    """``room`` as ``seat`` sees it: the director and the room display whose slips are in (a
    player's phone does not, so another player's slip sends it nothing), a player its own."""
    if seat is None:
        slips = tuple(sorted(s.player for s in game.slips))
        late = tuple(sorted(s.player for s in game.slips if s.late))
        return replace(room, slips=slips, late=late, mine=None)
    own = next((s for s in game.slips if s.player == seat), None)
    return replace(room, slips=(), mine=_mine(own) if own is not None else None)


def _mine(slip: Slip) -> SlipView:
    return SlipView(slip.word, slip.start, slip.direction, slip.points, slip.late)


def standings(game: Game) -> tuple[Standing, ...]:
    """Duplicate totals, difference to the sum of the tops and percentage (DUP-05..07), of
    the players still in the room."""
    top = tops(game)
    return tuple(
        Standing(p, total, total - top, (total * 1000 + top // 2) // top if top else None)
        for p, total in enumerate(game.totals)
        if p not in game.left
    )


def final(game: Game) -> tuple[FinalRow, ...] | None:
    """The final table once the game has ended: the totals as they stand, placed among the
    players still in the room."""
    if game.ended is None:
        return None
    rows = [
        r for r in final_table(game.totals, (0,) * len(game.totals)) if r.player not in game.left
    ]
    return tuple(
        replace(r, place=place)
        for r, place in zip(rows, places([r.final for r in rows]), strict=True)
    )


def sheet(state: State, game: Game, seat: int | None) -> SheetView:
    """The sheet with the standings, and the room as ``seat`` sees it."""
    return build(
        state,
        game,
        notices=noticed(game),
        final=final(game),
        standings=standings(game),
        room=room_view(game, seat) if game.board else None,
    )


def for_seat(sheet: SheetView, game: Game, seat: int | None) -> SheetView:
    """``sheet`` with ``seat``'s own slip: the rest of the room is every seat's (200 seats
    of a room are 200 views of every event, so only what differs is made again)."""
    if sheet.room is None:
        return sheet
    return replace(sheet, room=_seen_from(sheet.room, game, seat))
