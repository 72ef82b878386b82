"""The messages between a phone and the server, over the websocket and HTTP.

Every message is a msgspec Struct, decoded strictly where bytes enter: an unknown field, a
wrong type or an oversized frame is refused with a stable code, never a crash.
"""

from typing import Annotated, Any, Literal

import msgspec

from events.commands import BoardMove, TableCommand, TypedLetter
from rules.table.permissions import ActorRole
from rules.table.state import LastTurn

MAX_MESSAGE = 64 * 1024  # bytes; a whole sheet of commands is far smaller
JOINS_PER_MINUTE = 20  # join attempts per client address by default: codes are short
# join requests per known table by default: 200 phones (two requests each) in a minute
TABLE_JOINS_PER_MINUTE = 400
# A socket sent nothing for this long gets a ``beat``: a phone that hears nothing for three
# knows its server hangs (stopped, or its host asleep) and connects again, through the proxy
# to another replica, rather than waiting for TCP to notice, which takes minutes.
BEAT_SECONDS = 2.0
MAX_GAMES = 50  # tokens one "my games" request may ask about

#: A phone's id for a command: what makes a resent command land once.
CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]


class Hello(msgspec.Struct, frozen=True, tag="hello", tag_field="type", forbid_unknown_fields=True):
    """Join a table's live sheet; ``after`` is the last sequence number the phone saw."""

    table: str
    token: str
    after: int = 0


class CommandMessage(
    msgspec.Struct, frozen=True, tag="command", tag_field="type", forbid_unknown_fields=True
):
    """A command with the phone's id for it: the same id twice is recorded once."""

    id: CommandId
    command: TableCommand


class Move(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A move to score without recording it: from the board or typed as words."""

    board: BoardMove | None = None
    typed: tuple[tuple[TypedLetter, ...], ...] = ()


class PreviewMessage(
    msgspec.Struct, frozen=True, tag="preview", tag_field="type", forbid_unknown_fields=True
):
    """Score a move on the table's board without recording it; ``check`` asks the word list."""

    id: str
    move: Move
    check: bool = False


class Resync(
    msgspec.Struct, frozen=True, tag="resync", tag_field="type", forbid_unknown_fields=True
):
    """Send the whole view again: a change came that does not follow the phone's sheet."""


ClientMessage = Hello | CommandMessage | PreviewMessage | Resync

client_decoder = msgspec.json.Decoder(ClientMessage)


class StateMessage(msgspec.Struct, frozen=True, tag="state", tag_field="type"):
    """The sheet as this phone may see it, at sequence number ``seq``: after a hello or a
    resync, and whenever a change would not follow the phone's view. Over 4 KiB it comes as
    one binary frame, gzip-compressed (``server.live.sheets``)."""

    seq: int
    view: msgspec.Raw  # encoded once per table and sequence number, sent to every phone


#: Where in a view a change applies: field names and, in sequences, indexes.
Path = tuple[str | int, ...]


class Splice(msgspec.Struct, frozen=True, array_like=True):
    """In the sequence at ``path``, from index ``start``, ``remove`` items are replaced by
    ``items`` (JavaScript's ``splice``): new lines at the end, or after an undo or a new
    game what stands from where the old and the new part."""

    path: Path
    start: int
    remove: int
    items: tuple[Any, ...]


class ChangeMessage(msgspec.Struct, frozen=True, tag="change", tag_field="type"):
    """What changed from the view at ``after`` to the view at ``seq``, for a phone that has
    the view at ``after``: each ``[path, value]`` of ``set`` replaces the value at that path,
    then each ``[path, start, remove, items]`` of ``splice`` replaces a stretch of a
    sequence. Any other phone gets a ``state``; a
    phone whose view is not at ``after`` sends ``resync`` for one."""

    after: int
    seq: int
    set: tuple[tuple[Path, Any], ...] = ()
    splice: tuple[Splice, ...] = ()


class Beat(msgspec.Struct, frozen=True, tag="beat", tag_field="type"):
    """Nothing changed for ``BEAT_SECONDS``: the server is still there."""


class Accepted(msgspec.Struct, frozen=True, tag="accepted", tag_field="type"):
    """The command ``id`` is recorded; its last event has number ``seq``."""

    id: str
    seq: int


class Rejected(msgspec.Struct, frozen=True, tag="rejected", tag_field="type"):
    """The message ``id`` (empty when it had none) was refused: a code the phone translates."""

    id: str
    code: str
    params: dict[str, Any] = {}
    message: str = ""  # English, for logs and people reading the wire


class PreviewResult(msgspec.Struct, frozen=True, tag="preview", tag_field="type"):
    """A scored move: the breakdown, and per word its list status when asked."""

    id: str
    score: Any  # rules.board.scoring.MoveScore
    words: tuple[str, ...] = ()  # "in_list" / "not_in_list" / "no_list", one per word
    rows: tuple[str, ...] | None = None  # /api/score: the board after a board move


encoder = msgspec.json.Encoder()

# --- HTTP bodies -------------------------------------------------------------------------


#: A join code as typed: six characters, bounded so a guess costs nothing to refuse.
JoinCode = Annotated[str, msgspec.Meta(max_length=16)]
#: The phone's own lasting key: the same phone coming back to its seat is let in at once.
DeviceKey = Annotated[str, msgspec.Meta(max_length=128)]


#: A name as a phone typed it; trimmed and held to 40 characters when a room registers it.
PlayerName = Annotated[str, msgspec.Meta(max_length=200)]
#: A recovery code as read off paper: dashes and spaces allowed.
RecoveryCode = Annotated[str, msgspec.Meta(max_length=64)]


class SeatsRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Which seats the table with this code has, for the join form."""

    code: JoinCode


class SeatView(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat for the join form: its player's name (None: the default name), whether a
    device (or the computer) holds it, the computer's strength at a seat it plays (left
    out at a person's), and whether the host's own device holds it (left out if not)."""

    seat: int
    name: str | None
    taken: bool
    computer: str | None = None  # online: no phone joins a seat the computer plays
    host: bool = False  # taken by the host's phone: joined only with the host's approval


class Seats(msgspec.Struct, frozen=True):
    """The seats of the table's current game; none before its first game."""

    mode: str | None
    seats: tuple[SeatView, ...]


#: The place a device asks for with a join code: the host's is made with the table.
JoiningRole = Literal["player", "viewer"]


class JoinRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Join the table with this code at a seat of its game, or as a viewer; a player of a
    duplicate room registers by ``name`` instead of a seat."""

    code: JoinCode
    role: JoiningRole = "player"
    seat: int | None = None
    device: DeviceKey = ""
    name: PlayerName | None = None


class RecoverRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Take the director's place at the table with this join code by its recovery code."""

    code: JoinCode
    recovery: RecoveryCode


class Recovery(msgspec.Struct, frozen=True):
    """A table's new recovery code, shown once to the director: any phone that shows it
    takes the director's place, and the phone that directed before is let go."""

    recovery: str


class Joined(msgspec.Struct, frozen=True):
    """A device's place at a table and the token it proves it with; a device that asked for
    a taken seat is not ``admitted`` until the host lets it in."""

    table: str
    token: str
    role: ActorRole
    seat: int | None = None
    code: str = ""  # the join code, for the host and the players to show
    device: str = ""  # as the log names it
    admitted: bool = True


class DeviceSeen(msgspec.Struct, frozen=True):
    """A device at the table for the host's list: where it sits, since and last seen (ms),
    and what tells it apart: its model as it joined, the name it gave itself."""

    id: str
    role: ActorRole
    seat: int | None
    since: int
    last_seen: int | None
    admitted: bool
    model: str = ""
    label: str = ""


class CommandRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A command over HTTP, with the same meaning as over the websocket."""

    id: CommandId
    command: TableCommand


class ScoreRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A stateless score: an edition, a board drawn as 15 rows (or none), and a move; with
    ``check`` the words' list statuses too (``server.http.limits.WordChecks``)."""

    edition: str
    move: Move
    rows: tuple[str, ...] = ()
    check: bool = False


class ServerTime(msgspec.Struct, frozen=True):
    """The server's clock in ms since the epoch."""

    now: int


class Health(msgspec.Struct, frozen=True):
    """The server answers and knows its store."""

    status: str
    store: str


#: A table id or a token as a phone keeps it, bounded: ours are far shorter.
Key = Annotated[str, msgspec.Meta(max_length=128)]


class GameToken(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A table the phone keeps, and the token it holds there."""

    table: Key
    token: Key


class GamesRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The phone's list of its games: every table and token it keeps."""

    tokens: Annotated[tuple[GameToken, ...], msgspec.Meta(max_length=MAX_GAMES)]


# Why the player to move makes no move (a physical table's game clock): "lost" the game on
# time, or "all" players are out of time (PFS); the web's `rights.outOfTime` says the same.
OutOfTime = Literal["lost", "all"]


class GameEntry(msgspec.Struct, frozen=True):
    """One of the phone's games as its device sees it: whose turn, its own seat, the last
    turn. ``code`` is the join code (empty for a viewer); a table without a game has no
    ``mode``."""

    table: str
    code: str
    mode: str | None
    edition: str | None
    players: tuple[str | None, ...]
    to_move: int | None
    your_seat: int | None
    your_turn: bool
    last: LastTurn | None
    ended: bool
    seq: int
    deadline: int | None = None  # online with a time per move: when the player is passed
    out_of_time: OutOfTime | None = None  # the game clock stops the player to move


class Games(msgspec.Struct, frozen=True):
    """The phone's games, in the order it asked; a token that opens nothing is left out."""

    games: tuple[GameEntry, ...]
