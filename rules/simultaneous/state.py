"""A simultaneous as its own log folds: the games sealed, the centres that joined."""

from typing import Literal

import msgspec

from events.events import SealedRound


class SealedGame(msgspec.Struct, frozen=True, gc=False):
    """A game of the simultaneous: its rounds sealed, its window (ms since the epoch), and
    when the organiser closed it early (0: it closes at ``closes``)."""

    game: int
    opens: int
    closes: int
    rounds: tuple[SealedRound, ...]
    closed_at: int = 0

    def closed(self, at: int) -> bool:
        """Has the window closed by ``at``: no rack drawn any more, the results published."""
        return at >= self.closes or (self.closed_at != 0 and at >= self.closed_at)

    def started(self, at: int) -> bool:
        return at >= self.opens


class Centre(msgspec.Struct, frozen=True, gc=False):
    """A room that plays game ``game`` of the simultaneous as the centre ``name``."""

    table: str
    name: str
    game: int


class Simultaneous(msgspec.Struct, frozen=True, gc=False):
    """The simultaneous's log folded: what it is, its sealed games and its centres."""

    name: str
    edition: str
    rules: str
    schedule: Literal["set_time", "window"]
    games: tuple[SealedGame, ...] = ()
    centres: tuple[Centre, ...] = ()

    def game(self, index: int) -> SealedGame | None:
        return self.games[index] if 0 <= index < len(self.games) else None


class Sealed(msgspec.Struct, frozen=True, gc=False):
    """What a centre's decision is given of its simultaneous (``rules.table.inputs``): the
    simultaneous's id and folded log, which game the room plays, and the room's table id
    (a room joining again finds its own centre, not another's, under its name)."""

    id: str
    simultaneous: Simultaneous
    game: int
    room: str = ""
