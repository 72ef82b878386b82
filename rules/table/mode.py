"""What a way to play brings to a table: its rules as functions, one record per mode.

The fold (``rules.table.reducer``), the decider (``rules.table.decide``), the views and the
seating look a game's mode up in the table of modes (``rules.table.modes``) and call what
its record holds; each mode's package builds its record from the shared pieces of
``rules.table`` (``lines``, ``decisions``, ``permissions``, ``sheet``) and its own.
"""

from collections.abc import Callable

import msgspec

from editions import Edition
from events import commands as c
from events.events import (
    BoardCleared,
    CellCorrected,
    ChallengeJudged,
    ClockPaused,
    ClockReset,
    ClockStarted,
    ClockSwitched,
    EntriesSet,
    Exchanged,
    GameClockPaused,
    GameClockStarted,
    GameEnded,
    GameStarted,
    Mode,
    MoveRecorded,
    Passed,
    PenaltyGiven,
    PlayerAdded,
    PlayerRemoved,
    PlayerRenamed,
    PointsEntered,
    RackDrawn,
    Recorded,
    SlipSubmitted,
    TableEvent,
    TilesPlaced,
    TimeRanOut,
    TopRecorded,
    WordWithdrawn,
)
from rules.table.inputs import Inputs
from rules.table.permissions import Actor
from rules.table.rulesets import RuleSet
from rules.table.settlement import FinalRow
from rules.table.sheet import SheetView
from rules.table.state import Game, State

#: The events of a duplicate room's players and entries; no other mode has them.
RoomEvent = PlayerAdded | PlayerRenamed | PlayerRemoved | EntriesSet
#: The director's commands for a duplicate room's players and entries.
RoomCommand = c.AddPlayer | c.RenamePlayer | c.RemovePlayer | c.SetEntries | c.JoinSimultaneous
#: The events of a physical table's game clock (``rules.table.gameclock``) and challenge
#: (``rules.table.challenge``); the other modes have neither.
TableClockEvent = GameClockStarted | GameClockPaused | ClockSwitched | TimeRanOut
#: The commands of the game clock and the challenge.
TableClockCommand = c.StartGameClock | c.PauseGameClock | c.SwitchClock | c.CallTime

#: The events a game folds in: every event but the seating, a start and an undo, which the
#: reducer applies to the table whatever its mode.
GameEvent = (
    MoveRecorded
    | PointsEntered
    | Passed
    | Exchanged
    | WordWithdrawn
    | PenaltyGiven
    | TilesPlaced
    | BoardCleared
    | TopRecorded
    | RackDrawn
    | SlipSubmitted
    | CellCorrected
    | ClockStarted
    | ClockPaused
    | ClockReset
    | GameEnded
    | RoomEvent
    | TableClockEvent
    | ChallengeJudged
)

#: The commands a game decides: every command but the seating's, a start, a new game and an
#: undo, which the decider takes the same way in every mode (asking the mode what differs).
GameCommand = (
    c.RecordMove
    | c.EnterPoints
    | c.Pass
    | c.Exchange
    | c.Play
    | c.WithdrawWord
    | c.GivePenalty
    | c.PlaceTiles
    | c.ClearBoard
    | c.RecordTop
    | c.DrawRack
    | c.SetRack
    | c.SubmitSlip
    | c.CloseRound
    | c.CorrectCell
    | c.StartClock
    | c.PauseClock
    | c.ResetClock
    | c.EndGame
    | RoomCommand
    | TableClockCommand
    | c.Challenge
)


class ModeRules(msgspec.Struct, frozen=True):
    """One mode's rules, python-chess's variants as functions rather than subclasses."""

    mode: Mode
    #: The fewest and the most players a game of the mode has.
    least_players: int
    most_players: int
    #: Whether the decider may need the word list (``contains``) in a game of the mode.
    judges_words: bool
    #: The rule set a game asked for with a rule set plays (a mode's default for the house
    #: rules); None when that rule set is not for the mode.
    rule_set: Callable[[RuleSet], RuleSet | None]
    #: The start of a game (the shared checks passed), with the mode's own checks.
    started: Callable[[c.StartGame, Edition, RuleSet, tuple[str | None, ...], Inputs], GameStarted]
    #: A new game of the same players, ``starter`` to begin, with the server's seed.
    new_game: Callable[[Game, int, str], GameStarted]
    #: The game a start folds into, from the game every mode starts with.
    begin: Callable[[Game, GameStarted, int], Game]
    #: The game after one of its events (odd history raises ``rules.table.lines.Odd``).
    evolve: Callable[[Game, GameEvent, int], Game]
    #: The game after an event or an undo changed ``before`` into it, at server time ``at``.
    turned: Callable[[Game, Game, int], Game]
    #: The events of a command on an open game, with the player its turn names.
    decide: Callable[[Game, GameCommand, Inputs], tuple[TableEvent, ...]]
    #: The lines an undo of ``line`` strikes, newest first.
    undo: Callable[[State, Recorded], tuple[int, ...]]
    #: Raise GameError unless ``actor`` may ask the command of the game as it stands.
    check: Callable[[State, Game, Actor, c.TableCommand], None]
    #: Raise GameError when the turn a phone meant was taken meanwhile.
    check_turn: Callable[[State, Game, c.Turn], None]
    #: The sheet as ``seat`` (None: a device without one) may see it.
    sheet: Callable[[State, Game, int | None], SheetView]
    #: A sheet built for any seat, made ``seat``'s own.
    for_seat: Callable[[SheetView, Game, int | None], SheetView]
    #: The final table once the game has ended.
    final: Callable[[Game], tuple[FinalRow, ...] | None]
    #: The seat the host's device plays, if any.
    host_seat: Callable[[Game], int | None]
    #: The strength the computer plays a seat at; None for a person's seat.
    computer: Callable[[Game, int], str | None]
    #: The events of a phone registering by name (device, name, lasting key's hash); the
    #: modes whose seats are given at the start refuse it.
    register: Callable[[State, Game, str, str, str], tuple[TableEvent, ...]]
