"""What a device may see of a duplicate room: the same for everyone but a player's own slip.

Until the round closes a slip is its player's alone: every device sees whose slips are in
(the director counts them, the room display too), the player's own phone sees its word,
square and score as it lies, and no device sees another player's word (DESIGN: slips
private until the round closes). Once the round has closed every slip is on the sheet,
judged (``Round.results``).
"""

import msgspec

from rules.errors import GameError
from rules.room import racks, slips
from rules.room.rounds import rules_of
from rules.table.state import Game, Slip


class SlipView(msgspec.Struct, frozen=True):
    """A player's own slip for the open round, as it lies on the board (never judged yet)."""

    word: str  # the whole word, row notation, blanks in lower case
    start: str
    direction: str
    points: int  # its score on the board, 0 when it no longer fits
    late: bool


class RoomView(msgspec.Struct, frozen=True):
    """The duplicate room as one device sees it; the rack is the open round's ``rack``."""

    bag: int  # tiles in the bag, the rack (or the tiles kept for it) aside
    slips: tuple[int, ...]  # the players whose slip for the open round is in
    mine: SlipView | None  # the device's own slip: only the seat's own player sees it
    minimum: int | None  # vowels and consonants the next rack holds; None: none can be drawn


def room_view(game: Game, seat: int | None) -> RoomView:
    """The room of a duplicate ``game`` as the device at ``seat`` (None: none) sees it."""
    rule, _ = rules_of(game)
    held = racks.rack_of(game) or racks.kept(game)
    tiles = (*held, *racks.in_bag(game, held))
    kind = racks.kinds(game.edition, rule)
    own = next((s for s in game.slips if s.player == seat), None) if seat is not None else None
    return RoomView(
        bag=racks.bag_count(game),
        slips=tuple(sorted(s.player for s in game.slips)),
        mine=_mine(game, own) if own is not None else None,
        minimum=racks.minimum(rule, kind, len(game.rounds), tiles),
    )


def _mine(game: Game, slip: Slip) -> SlipView:
    points = 0
    if game.board is not None:
        try:
            play = slips.lay(game.board, racks.rack_of(game), slip.word, slip.start, slip.direction)
            points = game.board.score(play).total
        except GameError:
            points = 0  # the rack was typed again since: the close will say it does not fit
    return SlipView(slip.word, slip.start, slip.direction, points, slip.late)
