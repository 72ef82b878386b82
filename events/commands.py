"""What a phone asks a table to do: one Struct per command, strict about unknown fields.

Commands are checked by ``rules.table.decide.decide``, which turns an accepted command into
events. A player left out (``player: None``) means the player to move.
"""

from typing import Literal

import msgspec

from events.events import Mode, Writers


class TypedLetter(msgspec.Struct, frozen=True, array_like=True, forbid_unknown_fields=True):
    """A tile of a typed word: row notation, the premium under it, already on the board?"""

    tile: str
    premium: str | None = None
    old: bool = False


class RackLeft(msgspec.Struct, frozen=True, array_like=True, forbid_unknown_fields=True):
    """A rack at the end: letters (``?`` a blank), or points, or neither for who went out."""

    letters: str | None = None
    points: int | None = None


class BoardMove(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Tiles laid from a start square: letters in row notation fill the free squares."""

    start: str  # "H4"
    direction: Literal["across", "down"]
    letters: str  # "PLANK", blanks in lower case, "[CH]" for a multi-letter tile


class Turn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The turn a command is meant for, as the phone showed it: the game (the seq of its
    start), the player, and that player's turn count (classic) or the open round (duplicate).

    A command whose turn has been recorded meanwhile is refused, never applied to the next
    player: the same optimistic rule the stores use for appends.
    """

    game: int
    player: int
    number: int


class Command(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """The base of every command; each says ``frozen=True`` again for type checkers (see
    ``events.events.Event``)."""


class StartGame(Command, frozen=True, tag="start_game"):
    """Open a new sheet (and an empty board)."""

    edition: str
    mode: Mode = Mode.CLASSIC
    rules: str = "house"
    players: tuple[str | None, ...] = (None, None)
    starter: int = 0
    writers: Writers = "own_seat"
    move_seconds: int | None = None  # online: the time per move; None leaves it off
    # Online: per seat, None for a person or the computer's strength ("best", "good",
    # "easy"; ``rules.online.opponent.STRENGTHS``); left out, every seat is a person's.
    computers: tuple[str | None, ...] = ()
    # A physical table: the seat the host's own device holds; None, the host keeps the sheet
    # as scorekeeper and holds none.
    host_seat: int | None = None
    # The game clock's minutes per player; None, the rule set's own (off where it has
    # none); 0 turns it off.
    clock_minutes: int | None = None


class NewGame(Command, frozen=True, tag="new_game"):
    """A new game with the same players; the player after the last starter begins (P-35).

    ``game`` is the seq of the game the phone saw end: a second tap starts no third game.
    """

    game: int | None = None


class RecordMove(Command, frozen=True, tag="record_move"):
    """A computed move, from the board or typed as words, for a player."""

    board: BoardMove | None = None
    typed: tuple[tuple[TypedLetter, ...], ...] = ()
    player: int | None = None
    turn: Turn | None = None


class EnterPoints(Command, frozen=True, tag="enter_points"):
    """Points typed by hand for a player's turn (0–2000, SHC-12)."""

    points: int
    player: int | None = None
    turn: Turn | None = None


class Pass(Command, frozen=True, tag="pass"):
    """The player passes."""

    player: int | None = None
    turn: Turn | None = None


class Exchange(Command, frozen=True, tag="exchange"):
    """The player exchanges tiles; online, ``tiles`` names the 1–7 tiles put back (row
    notation, ``?`` a blank)."""

    player: int | None = None
    turn: Turn | None = None
    tiles: str | None = None


class Play(Command, frozen=True, tag="play"):
    """Online: lay tiles from the player's own rack; the server judges every word formed."""

    board: BoardMove
    player: int | None = None
    turn: Turn | None = None


class WithdrawWord(Command, frozen=True, tag="withdraw_word"):
    """The player's word came off the board after a challenge: the turn is lost."""

    player: int | None = None
    turn: Turn | None = None


class GivePenalty(Command, frozen=True, tag="give_penalty"):
    """Take points from any player without using a turn (SHC-16)."""

    player: int
    points: int
    last_line: int | None = None  # the newest line the phone saw: a second tap gives no second


class PlaceTiles(Command, frozen=True, tag="place_tiles"):
    """Lay tiles on the board without a score (BRD-20/21)."""

    board: BoardMove


class ClearBoard(Command, frozen=True, tag="clear_board"):
    """Take the tiles placed without a score off the board (BRD-22)."""


class Undo(Command, frozen=True, tag="undo"):
    """Strike the latest line still standing (P-30); ``last_line`` is the line the phone saw
    as the latest, so a second tap strikes nothing more."""

    last_line: int | None = None


class RecordTop(Command, frozen=True, tag="record_top"):
    """Duplicate: the round's top, from a computed move or as points."""

    board: BoardMove | None = None
    typed: tuple[tuple[TypedLetter, ...], ...] = ()
    points: int | None = None
    round: int | None = None  # the open round the director saw: a second tap closes no other


class DrawRack(Command, frozen=True, tag="draw_rack"):
    """Duplicate room: the server draws the open round's rack under the rack rule."""

    round: int | None = None  # the open round the director saw


class SetRack(Command, frozen=True, tag="set_rack"):
    """Duplicate room: the director types the open round's rack from a draw in the room
    (row notation, ``?`` a blank); ``force`` takes one the rack rule would send back."""

    rack: str
    round: int | None = None
    force: bool = False


class SubmitSlip(Command, frozen=True, tag="submit_slip"):
    """Duplicate room: a player's slip — the whole word from its first square, blanks in
    lower case (row notation) — before the round clock runs out; another slip replaces it.

    ``paper``: the director types a slip handed in on paper in time; typing it after the
    bell does not make it late. Only the director's phone may say so."""

    word: str
    start: str
    direction: Literal["across", "down"] = "across"
    player: int | None = None
    turn: Turn | None = None
    paper: bool = False


class CloseRound(Command, frozen=True, tag="close_round"):
    """Duplicate room: close the open round with the top the move generator finds; every
    slip is judged then."""

    round: int | None = None


class CorrectCell(Command, frozen=True, tag="correct_cell"):
    """Duplicate: set a cell of a round; ``player`` None is the top, ``points`` None empties."""

    round: int
    player: int | None
    points: int | None


class StartClock(Command, frozen=True, tag="start_clock"):
    """Duplicate: start (or resume) the round clock."""


class PauseClock(Command, frozen=True, tag="pause_clock"):
    """Duplicate: pause the round clock."""


class ResetClock(Command, frozen=True, tag="reset_clock"):
    """Duplicate: set the round clock back to 1, 2 or 3 minutes (P-41)."""

    minutes: Literal[1, 2, 3] = 3


class EndGame(Command, frozen=True, tag="end_game"):
    """End the game with each player's rack: letters, points, or empty for who went out."""

    racks: tuple[RackLeft, ...] = ()


class AddPlayer(Command, frozen=True, tag="add_player"):
    """Duplicate room: the director adds a player by name (one without a phone, or before the
    room fills)."""

    name: str


class RenamePlayer(Command, frozen=True, tag="rename_player"):
    """Duplicate room: the director corrects a player's name."""

    player: int
    name: str


class RemovePlayer(Command, frozen=True, tag="remove_player"):
    """Duplicate room: the director takes a player out of the room, and their phones with
    them."""

    player: int


class SetEntries(Command, frozen=True, tag="set_entries"):
    """Duplicate room: players may register up to and including round ``until`` (1-based;
    0 closes the entries)."""

    until: int


class AppointDirector(Command, frozen=True, tag="appoint_director"):
    """Make a device at the table a co-director, with every act of the director's."""

    device: str


class SetWriters(Command, frozen=True, tag="set_writers"):
    """Who may write the sheet: each phone its own seat, or one scorekeeper for everybody."""

    writers: Writers


class AdmitDevice(Command, frozen=True, tag="admit_device"):
    """Let a device that asked for a taken seat in."""

    device: str


class RemoveDevice(Command, frozen=True, tag="remove_device"):
    """Take a device away from the table (or refuse one that asked): its token stops working."""

    device: str


class StartGameClock(Command, frozen=True, tag="start_game_clock"):
    """The game clock starts — by the host, or the first time by a player for the player to
    move (``rules.table.permissions.check_start``) — or runs on after a pause (the host)."""


class PauseGameClock(Command, frozen=True, tag="pause_game_clock"):
    """The host pauses the game clock."""


class SwitchClock(Command, frozen=True, tag="switch_clock"):
    """The player whose time runs taps the clock: the next player's time runs (``turn``:
    the turn the phone showed, so a second tap switches nothing more)."""

    turn: Turn | None = None


class CallTime(Command, frozen=True, tag="call_time"):
    """Any phone at the table, when the clock it shows reaches zero: the server records that
    ``player``'s time ran out if its own clock agrees (``not_due`` if not yet)."""

    player: int
    stage: int = 1


class Challenge(Command, frozen=True, tag="challenge"):
    """A player challenges the latest move, the line recorded as event ``line``; ``player``
    is the challenger (left out: the phone's own seat)."""

    line: int
    player: int | None = None


class LabelDevice(Command, frozen=True, tag="label_device"):
    """A device names itself for the devices list ("Anna's phone")."""

    label: str


class JoinSimultaneous(Command, frozen=True, tag="join_simultaneous"):
    """Duplicate room: the director makes the room a centre of the simultaneous with the
    join code ``code``, playing its game ``game`` (from 0) as the centre ``centre`` (the
    club's name); only before the room's first rack."""

    code: str
    game: int = 0
    centre: str = ""


TableCommand = (
    StartGame
    | NewGame
    | RecordMove
    | EnterPoints
    | Pass
    | Exchange
    | Play
    | WithdrawWord
    | GivePenalty
    | PlaceTiles
    | ClearBoard
    | Undo
    | RecordTop
    | DrawRack
    | SetRack
    | SubmitSlip
    | CloseRound
    | CorrectCell
    | StartClock
    | PauseClock
    | ResetClock
    | EndGame
    | AddPlayer
    | RenamePlayer
    | RemovePlayer
    | SetEntries
    | SetWriters
    | AdmitDevice
    | RemoveDevice
    | AppointDirector
    | JoinSimultaneous
    | StartGameClock
    | PauseGameClock
    | SwitchClock
    | CallTime
    | Challenge
    | LabelDevice
)

_decoder = msgspec.json.Decoder(TableCommand)


def decode(data: bytes | str) -> TableCommand:
    """A command from JSON; raises msgspec.ValidationError naming what is wrong."""
    return _decoder.decode(data)
