"""Who sits at a table: devices joining seats, the host letting a second phone in or taking a
device away, and the table's setting of who may write the sheet.

A seat is a player of the current game; it belongs to the devices that joined it. A free
seat is taken at once; a taken one only by the same phone coming back (its lasting key) or
with the host's approval. Pure, like the rest of ``rules``: the server draws device ids and
hashes keys, and passes them in.
"""

from msgspec.structs import replace

from editions import codebook
from events import commands as c
from events.events import (
    DeviceAdmitted,
    DeviceJoined,
    DeviceRemoved,
    DirectorAppointed,
    DirectorReplaced,
    Recorded,
    RecoverySet,
    Role,
    TableEvent,
    WritersSet,
)
from rules.errors import GameError
from rules.table import modes
from rules.table.state import Member, Seating, State

SEATING_EVENTS = (
    WritersSet,
    DeviceJoined,
    DeviceAdmitted,
    DeviceRemoved,
    DirectorAppointed,
    RecoverySet,
    DirectorReplaced,
)


def seat(seating: Seating, recorded: Recorded) -> Seating:
    """The seating after one of ``SEATING_EVENTS``."""
    event = recorded.event
    if isinstance(event, WritersSet):
        return replace(seating, writers=event.writers)
    if isinstance(event, RecoverySet):
        return replace(seating, recovery=event.digest)
    if isinstance(event, DirectorReplaced):  # the old director's device opens nothing now;
        return replace(seating, director=event.device, recovery="")  # co-directors stay
    if isinstance(event, DirectorAppointed):
        members = tuple(
            replace(m, role="host", seat=None, admitted=True) if m.id == event.device else m
            for m in seating.members
        )
        return replace(seating, members=members)
    if isinstance(event, DeviceJoined):
        member = Member(
            event.device, event.role, event.seat, recorded.at, event.key, event.admitted
        )
        return replace(seating, members=(*seating.members, member))
    assert isinstance(event, DeviceAdmitted | DeviceRemoved)
    device = event.device
    if isinstance(event, DeviceRemoved):
        return replace(seating, members=tuple(m for m in seating.members if m.id != device))
    members = tuple(replace(m, admitted=True) if m.id == device else m for m in seating.members)
    return replace(seating, members=members)


def join(
    state: State, device: str, role: Role, chosen: int | None, key: str, name: str | None = None
) -> tuple[TableEvent, ...]:
    """The events of ``device`` joining as a viewer, at seat ``chosen``, or (a player in a
    duplicate room) by ``name``, as the game's mode registers it.

    Raises GameError: ``no_such_seat`` for a seat the current game does not have,
    ``computer_seat`` for a seat the computer plays, ``no_registration`` for a name where
    the game's seats were named at its start, and the refusals of the mode's registration.
    """
    if role == "viewer":
        return (DeviceJoined(device, "viewer"),)
    if name is not None and chosen is None:
        game = state.game
        if game is None:
            raise GameError("no game to register in yet", code=codebook.NO_REGISTRATION)
        return modes.of(game).register(state, game, device, name, key)
    seats = len(state.game.players) if state.game is not None else 0
    if chosen is None or not 0 <= chosen < seats:
        raise GameError(
            f"this table has {seats} seats", code=codebook.NO_SUCH_SEAT, seat=chosen, seats=seats
        )
    if computer(state, chosen):
        raise GameError(
            f"seat {chosen} is the computer's", code=codebook.COMPUTER_SEAT, seat=chosen
        )
    holders = [m for m in state.seating.members if m.seat == chosen and m.admitted]
    if not holders and chosen != host_seat(state):
        return (DeviceJoined(device, "player", chosen, key),)
    same = [m for m in holders if key and m.key == key]
    if same:  # the same phone again (it left, or lost its session): its old entry goes
        return (*(DeviceRemoved(m.id) for m in same), DeviceJoined(device, "player", chosen, key))
    return (DeviceJoined(device, "player", chosen, key, admitted=False),)


def host_seat(state: State) -> int | None:
    """The seat the host's device plays, as the game's mode has it (in an online game the
    first the computer does not play; at a physical table none: the host keeps the sheet)."""
    game = state.game
    return None if game is None else modes.of(game).host_seat(game)


def computer(state: State, seat: int) -> str | None:
    """The strength the computer plays ``seat`` of the current game at; None: a person's."""
    game = state.game
    return None if game is None else modes.of(game).computer(game, seat)


def taken(state: State) -> tuple[bool, ...]:
    """Per seat of the current game: does an admitted device, the host or the computer
    hold it?"""
    if state.game is None:
        return ()
    held = {m.seat for m in state.seating.members if m.admitted} | {host_seat(state)}
    seats = range(len(state.game.players))
    return tuple(seat in held or computer(state, seat) is not None for seat in seats)


def let_go(state: State, seat: int) -> tuple[TableEvent, ...]:
    """The removal of every device playing ``seat``: a player taken out of a room."""
    return tuple(
        DeviceRemoved(m.id) for m in state.seating.members if m.role == "player" and m.seat == seat
    )


def directs(state: State, device: str) -> bool:
    """Does ``device`` direct the table: the director (``director`` of the seating, the table's
    maker until a phone took its place) or a co-director?"""
    if device == state.seating.director:
        return True
    member = state.seating.member(device)
    return member is not None and member.role == "host"


def decide(
    state: State, command: c.SetWriters | c.AdmitDevice | c.RemoveDevice | c.AppointDirector
) -> TableEvent:
    """The event of a host's seating command; raises GameError (``unknown_device``)."""
    if isinstance(command, c.SetWriters):
        return WritersSet(command.writers)
    if state.seating.member(command.device) is None:
        raise GameError(
            f"no device {command.device!r} at this table",
            code=codebook.UNKNOWN_DEVICE,
            device=command.device,
        )
    if isinstance(command, c.AdmitDevice):
        return DeviceAdmitted(command.device)
    if isinstance(command, c.AppointDirector):
        return DirectorAppointed(command.device)
    return DeviceRemoved(command.device)
