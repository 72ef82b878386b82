"""What happened at a table: one frozen Struct per kind under a tagged base, and their codec.

Stored events never forbid unknown fields, so a log written by a newer server stays
readable; new fields get defaults and old fields never change type. Every event that makes
a line on the sheet can be undone; ``LineUndone`` names the line by its sequence number.
"""

from enum import StrEnum
from typing import Literal

import msgspec


class Mode(StrEnum):
    """How a game is played. On the wire and in the log it is its value, a string, as it
    was when the field was a plain code; a game's state holds the member."""

    CLASSIC = "classic"  # a physical table keeps its score sheet
    DUPLICATE = "duplicate"  # everyone plays the same rack against the round's top
    ONLINE = "online"  # the server holds the bag and the racks


#: Who may write the sheet: each phone its own seat (the default), or one scorekeeper.
Writers = Literal["own_seat", "scorekeeper"]
#: A device's place at a table, as the log knows it; the host's is made with the table.
Role = Literal["host", "player", "viewer"]


class PlacedTile(msgspec.Struct, frozen=True, array_like=True):
    """A new tile on the board: the square's name and the tile in row notation."""

    square: str  # "H4"
    tile: str  # "P", "a" (a blank), "[CH]"


class TypedLetter(msgspec.Struct, frozen=True, array_like=True, omit_defaults=True):
    """A tile of a typed word with the player's marks (TYP-05)."""

    tile: str  # row notation
    premium: str | None = None  # "2L" "3L" "2W" "3W"
    old: bool = False  # already on the board


class WordLine(msgspec.Struct, frozen=True, array_like=True, omit_defaults=True):
    """One scored word of a move, as it was shown when the move was recorded."""

    word: str
    points: int
    formula: str
    start: str = ""  # board moves: the word's first square ("H4") …
    direction: str = ""  # … and which way it reads


# gc=False (events, and the Recorded that holds one): an event holds only its values, never
# a cycle, and a table keeps its whole log in memory for undo; the cycle collector need not
# walk it.
class Event(msgspec.Struct, frozen=True, tag_field="kind", omit_defaults=True, gc=False):
    """The base of every event. Each kind says ``frozen=True`` again, which msgspec inherits
    anyway, for type checkers: a dataclass transform does not inherit it."""


class GameStarted(Event, frozen=True, tag="game_started"):
    """A new game: a new sheet (and an empty board) with these players."""

    edition: str
    mode: Mode
    rules: str  # a rule set code, see rules.table.rulesets
    players: tuple[str | None, ...]  # None: the default name in the phone's language
    starter: int = 0
    # Online: the server's random seed; the bag and every draw are a function of it and the
    # log, so the log (which never leaves the server) replays every rack.
    seed: str = ""
    move_seconds: int | None = None  # online: the time per move, off by default
    # Online: per seat, None for a person or the strength the computer plays that seat at;
    # empty (every seat a person's) in the logs written before there was a computer.
    computers: tuple[str | None, ...] = ()
    # A table's game clock: minutes per player, 0 without one (``rules.table.gameclock``).
    clock_minutes: int = 0


class MoveRecorded(Event, frozen=True, tag="move"):
    """A scored move for a player, as entered and as ``decide`` scored it then.

    A board move lists its new tiles (``placed``); a typed move its words (``typed``).
    The reducer trusts ``points``: a later rules change never rewrites an old game.
    In duplicate, the move fills the player's cell of the current round.
    """

    player: int
    points: int
    words: tuple[WordLine, ...] = ()
    bingo: int = 0
    placed: tuple[PlacedTile, ...] = ()
    direction: str = "across"
    typed: tuple[tuple[TypedLetter, ...], ...] = ()


class PointsEntered(Event, frozen=True, tag="points"):
    """Points typed by hand for a player's turn (0–2000); no tiles are known."""

    player: int
    points: int


class Passed(Event, frozen=True, tag="pass"):
    """A turn without a move or an exchange; online, the server passes a player whose time
    per move ran out (``timed_out``)."""

    player: int
    timed_out: bool = False


class Exchanged(Event, frozen=True, tag="exchange"):
    """A turn spent exchanging tiles; online, the tiles that went back to the bag (row
    notation, ``?`` a blank)."""

    player: int
    tiles: str = ""


class WordWithdrawn(Event, frozen=True, tag="withdrawn"):
    """A move taken back after a challenge: the turn is lost (a 'strata')."""

    player: int


class PenaltyGiven(Event, frozen=True, tag="penalty"):
    """Points taken from any player without using a turn; negative points are a bonus
    (a challenge bonus in an imported game record). ``overtime``: the started minutes over
    the game clock it pays for, recorded with the end of the game (``rules.table.gameclock``);
    ``challenge``: the seq of the challenge it is the consequence of."""

    player: int
    points: int
    overtime: int = 0
    challenge: int = 0


class TilesPlaced(Event, frozen=True, tag="tiles_placed"):
    """Tiles laid on the board without a score, until the board is cleared (BRD-21/22);
    ``player``: the seat that laid them (the player to move), None for the host."""

    placed: tuple[PlacedTile, ...]
    player: int | None = None


class BoardCleared(Event, frozen=True, tag="board_cleared"):
    """Tiles placed without a score are taken off the board."""


class LineUndone(Event, frozen=True, tag="undone"):
    """The line recorded as event ``line`` is struck; the state replays without it."""

    line: int


class TopRecorded(Event, frozen=True, tag="top"):
    """Duplicate: the round's top; it closes the round and opens the next (P-40).

    A top entered from the board stays on it for the following rounds (DUP-10).
    """

    points: int
    words: tuple[WordLine, ...] = ()
    placed: tuple[PlacedTile, ...] = ()
    direction: str = "across"
    typed: tuple[tuple[TypedLetter, ...], ...] = ()
    # A round with a rack (the director's room): each player's slip as the close judged it,
    # which sets the player's cell; and whether the move generator found the top.
    results: tuple["SlipScore", ...] = ()
    computed: bool = False


class SlipScore(msgspec.Struct, frozen=True, omit_defaults=True):
    """Duplicate room: one player's slip as the round's close judged it.

    ``kind``: ``valid`` (scored), ``invalid`` (a word not in the table's list: ``bad``
    names them), ``unplayable`` (it no longer fits the rack or the board), ``late`` (after
    the clock), ``missing`` (no slip), ``entered`` (no slip, the cell typed by hand, kept).
    ``solo``: the solo bonus, added to the total; ``bingo``: the bonus within ``points``
    of a valid slip that used the whole rack, for every screen to mark.
    """

    player: int
    points: int
    kind: str
    word: str = ""  # the main word as the player gave it, blanks in lower case
    start: str = ""
    direction: str = ""
    bad: str = ""  # the words the list lacks, comma-separated
    solo: int = 0
    bingo: int = 0  # a valid slip that used every tile of the rack: its bonus


class RackDrawn(Event, frozen=True, tag="rack"):
    """Duplicate room: the open round's rack (row notation, ``?`` a blank), drawn by the
    server under the rule set's rack rule (``rejected``: the racks that failed it and went
    back to the bag) or typed by the director from a draw in the room (``typed``)."""

    round: int
    rack: str
    rejected: tuple[str, ...] = ()
    typed: bool = False
    sealed: bool = False  # a simultaneous's centre: the rack sealed for every centre


class SlipSubmitted(Event, frozen=True, tag="slip"):
    """Duplicate room: a player's slip for the open round — the whole word from its first
    square, blanks in lower case — private to the player until the round closes. ``late``:
    it came after the round clock ran out (the decider read the clock)."""

    player: int
    round: int
    word: str
    start: str
    direction: str = "across"
    late: bool = False


class CellCorrected(Event, frozen=True, tag="cell"):
    """Duplicate: a cell of a round set to a value; ``player`` None is the top."""

    round: int
    player: int | None
    points: int | None  # None empties the cell


class ClockStarted(Event, frozen=True, tag="clock_started"):
    """Duplicate: the round clock runs from ``at`` (server time, ms) with ``remaining`` ms."""

    at: int
    remaining: int


class ClockPaused(Event, frozen=True, tag="clock_paused"):
    """Duplicate: the clock stops at ``at`` (server time, ms)."""

    at: int


class ClockReset(Event, frozen=True, tag="clock_reset"):
    """Duplicate: the clock is set back to ``seconds``, not running."""

    seconds: int


class PlayerAdded(Event, frozen=True, tag="player_added"):
    """Duplicate room: a player registered on their phone, or the director added them; their
    closed rounds count 0 (a late entry), the open round is theirs to play."""

    name: str


class PlayerRenamed(Event, frozen=True, tag="player_renamed"):
    """Duplicate room: the director corrected a player's name."""

    player: int
    name: str


class PlayerRemoved(Event, frozen=True, tag="player_removed"):
    """Duplicate room: a player left the room; their place stays (every other player keeps
    theirs), they leave the standings and hand in no more slips."""

    player: int


class EntriesSet(Event, frozen=True, tag="entries"):
    """Duplicate room: players may register up to and including round ``until`` (1-based;
    0 closes the entries)."""

    until: int


class RackLeft(msgspec.Struct, frozen=True, array_like=True, omit_defaults=True):
    """What one player holds at the end: letters (``?`` a blank), or points, or nothing."""

    letters: str | None = None
    points: int | None = None


class GameEnded(Event, frozen=True, tag="game_ended"):
    """The end of the game with each player's rack; one empty rack went out (END-03)."""

    racks: tuple[RackLeft, ...] = ()


class WritersSet(Event, frozen=True, tag="writers"):
    """The table's setting of who may write the sheet."""

    writers: Writers


class DeviceJoined(Event, frozen=True, tag="device_joined"):
    """A device took a seat (or joined as a viewer); one asking for a taken seat waits for
    the host (``admitted`` false). ``key`` is the hash of the phone's own lasting key: the same
    phone coming back to its seat is let in at once."""

    device: str
    role: Role
    seat: int | None = None
    key: str = ""
    admitted: bool = True
    label: str = ""  # how the phone tells itself apart: a name it chose, or its model


class HostSeated(Event, frozen=True, tag="host_seated"):
    """The seat the host's own device holds at a physical table, from the start on; None:
    the host keeps the sheet as scorekeeper and holds no seat. A held seat is joined only
    with the host's approval, as any taken seat."""

    seat: int | None


class DeviceLabelled(Event, frozen=True, tag="device_labelled"):
    """The name a device gave itself ("Anna's phone"), shown in the devices list."""

    device: str
    label: str


class DeviceAdmitted(Event, frozen=True, tag="device_admitted"):
    """The host let a waiting device in."""

    device: str


class DirectorAppointed(Event, frozen=True, tag="director_appointed"):
    """A device at the table becomes a co-director: every act of the director's is its too."""

    device: str


class RecoverySet(Event, frozen=True, tag="recovery_set"):
    """The director asked for a recovery code; the log keeps only its hash, and a new code
    replaces the one before."""

    digest: str


class DirectorReplaced(Event, frozen=True, tag="director_replaced"):
    """A phone took the director's place with the recovery code: ``device`` is the director
    now, every device that directed before it is let go, and the code is used up."""

    device: str


class DeviceRemoved(Event, frozen=True, tag="device_removed"):
    """A device left the table, or the host took it away: its token opens nothing more."""

    device: str


class GameClockStarted(Event, frozen=True, tag="game_clock_started"):
    """The table's game clock starts at ``at`` (server time, ms), or runs on after a pause,
    for the player whose time it counts (``rules.table.gameclock``)."""

    at: int


class GameClockPaused(Event, frozen=True, tag="game_clock_paused"):
    """The host paused the game clock at ``at``; nobody's time runs until it starts again."""

    at: int


class ClockSwitched(Event, frozen=True, tag="clock_switched"):
    """The mover tapped the clock at ``at``: ``player``'s time runs from then. The turn's
    line may come after; it does not switch the clock again."""

    player: int
    at: int


class TimeRanOut(Event, frozen=True, tag="time_ran_out"):
    """``player``'s time ran out, as the server's clock saw it at ``at`` (``stage`` 1: the
    clock's time; 2: the rule set's extra time after it); the rule set's consequence
    follows."""

    player: int
    at: int
    stage: int = 1


class ChallengeJudged(Event, frozen=True, tag="challenge"):
    """``challenger`` challenged the move recorded as event ``line`` (``player``'s); the
    server judged its words against the table's list. ``bad``: the words the list lacks,
    comma-separated (kept even where the rule set does not name them to the players). Its
    consequence follows as lines of their own in the same append: the word withdrawn, a
    turn lost, a penalty."""

    line: int
    challenger: int
    player: int
    valid: bool
    bad: str = ""


class CentreJoined(Event, frozen=True, tag="centre_joined"):
    """Duplicate room: the room became a centre of a simultaneous and plays its game
    ``game`` (from 0) as the centre ``centre``, in the simultaneous's edition and rule set;
    its racks and tops are the sealed ones (``rules.simultaneous``)."""

    simultaneous: str  # the simultaneous's id
    game: int
    centre: str
    edition: str
    rules: str


# --- a simultaneous's own log (``rules.simultaneous``): never any phone's view -----------


class SealedRound(msgspec.Struct, frozen=True, omit_defaults=True):
    """One round of a sealed game: the rack the server drew (and the racks the rack rule
    sent back first) and what closing it records: the top found once for every centre,
    and the game's end when the bag cannot refill a rack after it."""

    rack: str
    rejected: tuple[str, ...] = ()
    closing: tuple["TopRecorded | GameEnded", ...] = ()


class SimultaneousCreated(Event, frozen=True, tag="simultaneous_created"):
    """A simultaneous: one or more sealed games for many rooms, in one edition and rule
    set. ``schedule``: every centre starts at the game's set time (``set_time``), or each
    plays it when it likes within the game's window (``window``)."""

    name: str
    edition: str
    rules: str
    schedule: Literal["set_time", "window"] = "window"


class GameSealed(Event, frozen=True, tag="game_sealed"):
    """A game of the simultaneous: every round drawn and its top found, once, by the
    server; a centre may open its first round from ``opens`` and draw no rack after
    ``closes`` (ms since the epoch). Its results are published once the window closed."""

    game: int
    opens: int
    closes: int
    rounds: tuple[SealedRound, ...]


class CentreAdded(Event, frozen=True, tag="centre_added"):
    """A room joined the simultaneous as the centre ``name`` for its game ``game``: where
    the standings look for that centre's results (the room's own log holds them)."""

    table: str
    name: str
    game: int


class WindowClosed(Event, frozen=True, tag="window_closed"):
    """The organiser closed game ``game``'s window before its time: no centre draws a rack
    of it any more, and its results are published."""

    game: int


TableEvent = (
    GameStarted
    | MoveRecorded
    | PointsEntered
    | Passed
    | Exchanged
    | WordWithdrawn
    | PenaltyGiven
    | TilesPlaced
    | BoardCleared
    | LineUndone
    | TopRecorded
    | RackDrawn
    | SlipSubmitted
    | CellCorrected
    | ClockStarted
    | ClockPaused
    | ClockReset
    | GameEnded
    | PlayerAdded
    | PlayerRenamed
    | PlayerRemoved
    | EntriesSet
    | WritersSet
    | DeviceJoined
    | DeviceAdmitted
    | DeviceRemoved
    | DirectorAppointed
    | RecoverySet
    | DirectorReplaced
    | CentreJoined
    | HostSeated
    | DeviceLabelled
    | GameClockStarted
    | GameClockPaused
    | ClockSwitched
    | TimeRanOut
    | ChallengeJudged
    | SimultaneousCreated
    | GameSealed
    | CentreAdded
    | WindowClosed
)


class Recorded(msgspec.Struct, frozen=True, gc=False):
    """An event as the log holds it: gapless sequence number, who, when, which command."""

    seq: int
    event: TableEvent
    device: str = ""
    at: int = 0  # server time, ms since the epoch
    command: str = ""  # the client's command id: the same id twice appends once


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Recorded)


def encode(recorded: Recorded) -> bytes:
    """A recorded event as JSON."""
    return _encoder.encode(recorded)


def decode(data: bytes | str) -> Recorded:
    """A recorded event from JSON; raises msgspec.ValidationError on a malformed one."""
    return _decoder.decode(data)
