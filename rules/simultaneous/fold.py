"""A simultaneous's log folded (``rules.table.reducer`` hands its events here)."""

from msgspec.structs import replace

from events.events import CentreAdded, GameSealed, SimultaneousCreated, WindowClosed
from rules.simultaneous.state import Centre, SealedGame, Simultaneous

SimultaneousEvent = SimultaneousCreated | GameSealed | CentreAdded | WindowClosed


def evolve(simultaneous: Simultaneous | None, event: SimultaneousEvent, at: int) -> Simultaneous:
    """The simultaneous after ``event`` (recorded at ``at``, ms); a later event before
    ``simultaneous_created`` raises ValueError, never recorded by the server."""
    if isinstance(event, SimultaneousCreated):
        return Simultaneous(event.name, event.edition, event.rules, event.schedule)
    if simultaneous is None:
        raise ValueError(f"{type(event).__name__} before the simultaneous was created")
    match event:
        case GameSealed():
            sealed = SealedGame(event.game, event.opens, event.closes, event.rounds)
            return replace(simultaneous, games=(*simultaneous.games, sealed))
        case CentreAdded():
            centre = Centre(event.table, event.name, event.game)
            if centre in simultaneous.centres:  # the same room joining again: one centre
                return simultaneous
            return replace(simultaneous, centres=(*simultaneous.centres, centre))
        case WindowClosed():
            games = tuple(
                replace(g, closed_at=g.closed_at or at) if g.game == event.game else g
                for g in simultaneous.games
            )
            return replace(simultaneous, games=games)
