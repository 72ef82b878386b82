"""The messages of a simultaneous: the organiser's request, the organiser's view, and the
frame a centre's phones get with the standings across every centre."""

from typing import Annotated, Literal

import msgspec

from rules.simultaneous.standings import Progress

MAX_GAMES = 12  # games in one simultaneous: a season's series of a club's weeks
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=80)]
Ms = Annotated[int, msgspec.Meta(ge=0, le=10**13)]


class GameWindow(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """When a game may be played (ms since the epoch): its first rack from ``opens``, no
    rack after ``closes``."""

    opens: Ms
    closes: Ms


class CreateSimultaneous(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A new simultaneous of ``games`` sealed games (a series when more than one)."""

    name: Name
    edition: Annotated[str, msgspec.Meta(max_length=16)]
    games: Annotated[tuple[GameWindow, ...], msgspec.Meta(min_length=1, max_length=MAX_GAMES)]
    rules: Annotated[str, msgspec.Meta(max_length=32)] = "duplicate"
    schedule: Literal["set_time", "window"] = "window"


class Created(msgspec.Struct, frozen=True):
    """The new simultaneous: its id, the code club directors join with, the organiser's
    token (it opens the organiser's view, and nothing of a table)."""

    id: str
    code: str
    token: str
    games: int


class Placed(msgspec.Struct, frozen=True, omit_defaults=True):
    """A player in the standings, as a phone shows them."""

    place: int
    name: str
    centre: str
    total: int
    percent_tenths: int | None
    rounds: int
    tied: bool = False


class Position(msgspec.Struct, frozen=True, omit_defaults=True):
    """A player's own place overall and in their centre, of how many."""

    place: int
    of: int
    centre_place: int
    centre_of: int
    total: int
    percent_tenths: int | None
    tied: bool = False


class GameInfo(msgspec.Struct, frozen=True):
    game: int
    opens: int
    closes: int
    rounds: int
    closed: bool  # the window has closed: the results are published


class SimultaneousFrame(msgspec.Struct, frozen=True, tag="simultaneous", tag_field="type"):
    """What a centre's phone shows of the simultaneous: its name, the game the room plays,
    the centres and players across them, the phone's own position (a player's phone), and
    the leaders (five for a player, more for the director and the room display)."""

    id: str
    name: str
    centre: str
    game: GameInfo
    games: int
    centres: int
    players: int
    leaders: tuple[Placed, ...]
    round: int = 0  # the rounds this centre has closed; the standings stand after them
    level: int = 0  # the centres of the game that have closed as many rounds or more
    you: Position | None = None
    series: Position | None = None  # the player's place across the series so far


class OrganiserView(msgspec.Struct, frozen=True):
    """The organiser's view: the code, every game's window, every centre's progress, and the
    standings of each game (and of the series)."""

    id: str
    code: str
    name: str
    edition: str
    rules: str
    schedule: str
    games: tuple[GameInfo, ...]
    centres: tuple[Progress, ...]
    standings: tuple[tuple[Placed, ...], ...]
    series: tuple[Placed, ...]
