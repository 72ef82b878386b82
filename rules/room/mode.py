"""Duplicate as a mode: every player plays the same rack against the round's top.

At a table the sheet keeps a cell per player and round and the tops typed in; in the
director's room (``rules.room.rounds``) the server draws the racks, the phones hand in
slips and the close plays the move generator's top. The fold's pieces are
``rules.room.fold``'s, who may do what ``rules.room.rights``' and what each device sees
``rules.room.view``'s; this module dispatches every event and command to them.
"""

from typing import assert_never

from editions import Edition, codebook
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
    SlipSubmitted,
    TableEvent,
    TilesPlaced,
    TimeRanOut,
    TopRecorded,
    WordWithdrawn,
)
from rules.room import entries, fold, rights, rounds, view
from rules.simultaneous import centre
from rules.table import challenge, decisions, lines, permissions, rulesets
from rules.table.decisions import refuse
from rules.table.inputs import Inputs
from rules.table.mode import GameCommand, GameEvent, ModeRules
from rules.table.rulesets import RuleSet
from rules.table.state import Game


def rule_set(asked: RuleSet) -> RuleSet | None:
    """A duplicate rule set as asked; the FISF one for any other."""
    chosen = asked if asked.duplicate else rulesets.DUPLICATE
    return None if chosen.online else chosen


def started(
    command: c.StartGame,
    edition: Edition,
    rules: RuleSet,
    players: tuple[str | None, ...],
    inputs: Inputs,
) -> GameStarted:
    """A duplicate game's start: no bag held for the players, no time per move, no computer."""
    return decisions.started(Mode.DUPLICATE, command, edition, rules, players)


def evolve(game: Game, event: GameEvent, seq: int) -> Game:
    """The sheet after one of its events; the board keeps only the tops (P-40)."""
    match event:
        case MoveRecorded():
            lines.move_tiles(game, event)  # read as any move is: a tile the set lacks is odd
            return fold.cell(game, fold.row(game), event.player, event.points)
        case PointsEntered():
            return fold.cell(game, fold.row(game), event.player, event.points)
        case Passed() | Exchanged() | WordWithdrawn():
            return lines.elsewhere(game, codebook.NOT_IN_DUPLICATE)
        case PenaltyGiven():
            return lines.penalty(game, event, seq, fold.row(game))
        case TopRecorded():
            return fold.top(game, event, seq)
        case RackDrawn():
            return fold.rack(game, event)
        case SlipSubmitted():
            return fold.slip(game, event)
        case CellCorrected():
            return fold.cell(game, event.round, event.player, event.points)
        case TilesPlaced():
            return lines.tiles_placed(game, event)
        case BoardCleared():
            return lines.board_cleared(game, event)
        case ClockStarted():
            return lines.clock_started(game, event)
        case ClockPaused():
            return lines.clock_paused(game, event)
        case ClockReset():
            return lines.clock_reset(game, event)
        case GameEnded():
            return lines.ended(game, event, settled=False)  # DUP-14: nothing to settle
        case PlayerAdded():
            return entries.added(game, event)
        case PlayerRenamed():
            return entries.renamed(game, event)
        case PlayerRemoved():
            return entries.removed(game, event)
        case EntriesSet():
            return entries.entries(game, event)
        case (
            GameClockStarted()
            | GameClockPaused()
            | ClockSwitched()
            | TimeRanOut()
            | ChallengeJudged()
        ):
            return lines.elsewhere(game, codebook.NOT_IN_DUPLICATE)
        case _:
            assert_never(event)


def decide(game: Game, command: GameCommand, inputs: Inputs) -> tuple[TableEvent, ...]:
    """The events of a command on the duplicate sheet; raises GameError with a code if
    refused."""
    match command:
        case c.Play():
            raise decisions.not_online(game)
        case c.Exchange() if command.tiles:
            raise decisions.not_online(game)
        case c.DrawRack() | c.CloseRound() if game.centre is not None:
            return centre.decide(game, command, inputs)  # the sealed rack and top
        case c.SetRack() | c.RecordTop() if game.centre is not None:
            raise centre.refused_change()
        case c.DrawRack() | c.SetRack() | c.SubmitSlip() | c.CloseRound():
            return rounds.decide(game, command, inputs)
        case c.JoinSimultaneous():
            return (centre.join(game, command, inputs.sealed, inputs.at),)
        case c.RecordMove():
            player = _first_empty(game, command.player)
            return decisions.move(game, c.RecordMove(command.board, command.typed, player))
        case c.EnterPoints():
            player = _first_empty(game, command.player)
            return decisions.enter_points(game, c.EnterPoints(command.points, player))
        case c.RecordTop():  # in a room's round the typed top judges every slip
            return rounds.judged(game, (_top(game, command),), inputs.contains)
        case c.CorrectCell():
            return (_cell(game, command),)
        case c.StartClock():
            return (_start_clock(game, inputs.at),)
        case c.PauseClock():
            if game.clock is None or game.clock.running_since is None:
                raise refuse("the clock is not running", codebook.CLOCK_NOT_RUNNING)
            return (ClockPaused(inputs.at),)
        case c.ResetClock():
            return (ClockReset(command.minutes * 60),)
        case c.GivePenalty():
            return decisions.penalty(game, command)
        case c.PlaceTiles():
            return decisions.place_tiles(game, command, inputs.seat)  # who laid them
        case c.ClearBoard():
            return decisions.clear_board(game, command)
        case c.EndGame():
            return (GameEnded(),)  # DUP-14: nothing to settle
        case c.AddPlayer() | c.RenamePlayer() | c.RemovePlayer() | c.SetEntries():
            return (entries.decide(game, command),)
        case (
            c.Pass()
            | c.Exchange()
            | c.WithdrawWord()
            | c.StartGameClock()
            | c.PauseGameClock()
            | c.SwitchClock()
            | c.CallTime()
        ):
            raise decisions.not_in_mode(game, command)
        case c.Challenge():  # refused: a slip's words are judged when the round closes
            return challenge.decide(game, command, inputs.contains)
        case _:
            assert_never(command)


def _first_empty(game: Game, player: int | None) -> int:
    """DUP-08: a score without a player goes to the first empty cell of the current round."""
    if player is not None:
        return player
    empty = [p for p, score in enumerate(game.rounds[-1].scores) if score is None]
    if not empty:
        raise refuse("every player has a score this round", codebook.ROUND_FULL)
    return empty[0]


def _top(game: Game, command: c.RecordTop) -> TopRecorded:
    """The round's top from a computed move, or as points."""
    if command.points is not None:
        if command.board is not None or command.typed:
            raise refuse("a top is a move or points, not both", codebook.NO_MOVE)
        return TopRecorded(decisions.points(command.points))
    scored = decisions.Scored(game, command.board, command.typed)
    return TopRecorded(
        scored.result.total, scored.words, scored.placed, scored.direction, scored.typed
    )


def _cell(game: Game, command: c.CorrectCell) -> CellCorrected:
    if not 0 <= command.round < len(game.rounds):
        raise refuse(f"no round {command.round + 1}", codebook.NO_SUCH_ROUND, round=command.round)
    player = None if command.player is None else decisions.player(game, command.player)
    points = None if command.points is None else decisions.points(command.points)
    return CellCorrected(command.round, player, points)


def _start_clock(game: Game, at: int) -> ClockStarted:
    clock = game.clock
    assert clock is not None
    if clock.running_since is not None:
        raise refuse("the clock is running", codebook.CLOCK_RUNNING)
    if rounds.racked(game) and not rounds.in_room(game):  # a room's round runs on its rack
        raise refuse("the round has no rack yet", codebook.NO_RACK)
    remaining = clock.remaining or clock.seconds * 1000  # run out: start a new count
    return ClockStarted(at, remaining)


RULES = ModeRules(
    mode=Mode.DUPLICATE,
    least_players=0,  # a room opens before its players register (DUP-03: one at a table)
    most_players=200,  # the largest room a duplicate rule set takes (its max_players)
    judges_words=True,
    rule_set=rule_set,
    started=started,
    new_game=decisions.again,
    begin=fold.begin,
    evolve=evolve,
    turned=lines.no_turn_clock,
    decide=decide,
    undo=decisions.strike,
    check=rights.check,
    check_turn=rights.check_cell,
    sheet=view.sheet,
    for_seat=view.for_seat,
    final=view.final,
    host_seat=permissions.no_host_seat,
    computer=permissions.no_computer,
    register=entries.register,
)
