"""Who sits at a table: devices joining seats, the host letting a second phone in or taking a
device away, the seat the host's own device holds, the names devices give themselves, and
the table's setting of who may write the sheet.

A seat is a player of the current game; it belongs to the devices that joined it. A free
seat is taken at once; a taken one only by the same phone coming back (its lasting key) or
with the host's approval. At a physical table the host's device holds the seat the host
named at the start (``HostSeated``), or none when the host keeps score; that seat is taken
like any other. Pure, like the rest of ``rules``: the server draws device ids, hashes keys
and reads a phone's model from its user agent, and passes them in.
"""

from msgspec.structs import replace

from editions import codebook
from events import commands as c
from events.events import (
    DeviceAdmitted,
    DeviceJoined,
    DeviceLabelled,
    DeviceRemoved,
    DirectorAppointed,
    DirectorReplaced,
    HostSeated,
    Recorded,
    RecoverySet,
    Role,
    TableEvent,
    WritersSet,
)
from rules.errors import GameError
from rules.table import modes
from rules.table.decisions import MAX_NAME
from rules.table.permissions import Actor
from rules.table.state import Member, Seating, State

SEATING_EVENTS = (
    WritersSet,
    DeviceJoined,
    DeviceAdmitted,
    DeviceRemoved,
    DirectorAppointed,
    RecoverySet,
    DirectorReplaced,
    HostSeated,
    DeviceLabelled,
)
#: The longest name a device may give itself: as long as a player's.
MAX_LABEL = MAX_NAME


def seat(seating: Seating, recorded: Recorded) -> Seating:
    """The seating after one of ``SEATING_EVENTS``."""
    event = recorded.event
    if isinstance(event, WritersSet):
        return replace(seating, writers=event.writers)
    if isinstance(event, RecoverySet):
        return replace(seating, recovery=event.digest)
    if isinstance(event, HostSeated):
        return replace(seating, host_seat=event.seat)
    if isinstance(event, DeviceLabelled):
        members = tuple(
            replace(m, label=event.label) if m.id == event.device else m for m in seating.members
        )
        return replace(seating, members=members)
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
            event.device,
            event.role,
            event.seat,
            recorded.at,
            event.key,
            event.admitted,
            model=event.label,  # a joining phone is told apart by its model until it names itself
        )
        return replace(seating, members=(*seating.members, member))
    assert isinstance(event, DeviceAdmitted | DeviceRemoved)
    device = event.device
    if isinstance(event, DeviceRemoved):
        return replace(seating, members=tuple(m for m in seating.members if m.id != device))
    members = tuple(replace(m, admitted=True) if m.id == device else m for m in seating.members)
    return replace(seating, members=members)


def join(
    state: State,
    device: str,
    role: Role,
    chosen: int | None,
    key: str,
    name: str | None = None,
    *,
    model: str = "",
) -> tuple[TableEvent, ...]:
    """The events of ``device`` joining as a viewer, at seat ``chosen``, or (a player in a
    duplicate room) by ``name``, as the game's mode registers it; ``model``: what the server
    read of the phone from its user agent, which the host's list shows until it names itself.

    Raises GameError: ``no_such_seat`` for a seat the current game does not have,
    ``computer_seat`` for a seat the computer plays, ``no_registration`` for a name where
    the game's seats were named at its start, and the refusals of the mode's registration.
    """
    events = _join(state, device, role, chosen, key, name)
    label = model[:MAX_LABEL]
    return tuple(replace(e, label=label) if isinstance(e, DeviceJoined) else e for e in events)


def _join(
    state: State, device: str, role: Role, chosen: int | None, key: str, name: str | None
) -> tuple[TableEvent, ...]:
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
    if not holders and chosen != host_seat(state):  # the host's seat is taken by the host
        return (DeviceJoined(device, "player", chosen, key),)
    same = [m for m in holders if key and m.key == key]
    if same:  # the same phone again (it left, or lost its session): its old entry goes
        return (*(DeviceRemoved(m.id) for m in same), DeviceJoined(device, "player", chosen, key))
    return (DeviceJoined(device, "player", chosen, key, admitted=False),)


def host_seat(state: State) -> int | None:
    """The seat the host's device plays: where the game's mode names one, that (in an online
    game the first the computer does not play); at a physical table the one the host chose
    at the start (``HostSeated``), or None when the host keeps score."""
    game = state.game
    if game is None:
        return None
    named = modes.of(game).host_seat(game)
    if named is not None:
        return named
    chosen = state.seating.host_seat
    return chosen if chosen is not None and 0 <= chosen < len(game.players) else None


def seated(state: State, command: c.StartGame) -> tuple[TableEvent, ...]:
    """The host's seat a start records: none when it stays as it was (a new game keeps it).

    Raises GameError (``no_such_seat``) for a seat the game will not have.
    """
    chosen, seats = command.host_seat, len(command.players)
    if chosen is not None and not 0 <= chosen < seats:
        raise GameError(
            f"this game has {seats} seats", code=codebook.NO_SUCH_SEAT, seat=chosen, seats=seats
        )
    return () if chosen == state.seating.host_seat else (HostSeated(chosen),)


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
    state: State,
    command: c.SetWriters | c.AdmitDevice | c.RemoveDevice | c.AppointDirector | c.LabelDevice,
    actor: Actor | None = None,
) -> TableEvent:
    """The event of a host's seating command, or of the device ``actor`` naming itself;
    raises GameError (``unknown_device``, ``label_too_long``)."""
    if isinstance(command, c.SetWriters):
        return WritersSet(command.writers)
    if isinstance(command, c.LabelDevice):
        return _label(state, command, actor)
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


def _label(state: State, command: c.LabelDevice, actor: Actor | None) -> TableEvent:
    """A device names itself, and only itself: the command names no device, the actor is it.
    An empty name takes the name away (the list shows the model again)."""
    label = " ".join(command.label.split())  # a name on one line, as typed
    if len(label) > MAX_LABEL:
        raise GameError(
            f"a name of {len(label)} characters; at most {MAX_LABEL}",
            code=codebook.LABEL_TOO_LONG,
            max=MAX_LABEL,
        )
    device = actor.device if actor is not None else ""
    if state.seating.member(device) is None:  # the director is no member: it is the host's
        raise GameError(
            f"no device {device!r} at this table", code=codebook.UNKNOWN_DEVICE, device=device
        )
    return DeviceLabelled(device, label)
