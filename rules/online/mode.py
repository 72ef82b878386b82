"""Online play as a mode: the server holds the bag and the racks and judges every word.

The decisions are ``rules.online.play``'s, the fold's own pieces ``rules.online.fold``'s,
who may do what ``rules.online.rights``' and what each seat sees ``rules.online.view``'s;
this module dispatches every event and command to them.
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
from rules.online import fold, play, rights, view
from rules.online import opponent as computer
from rules.table import challenge, decisions, lines, permissions, rulesets, settlement
from rules.table.inputs import Inputs
from rules.table.mode import GameCommand, GameEvent, ModeRules
from rules.table.rulesets import RuleSet
from rules.table.state import Game, LastTurn


def rule_set(asked: RuleSet) -> RuleSet | None:
    """Online play's own rule set for the house rules; a rule set for online play as asked."""
    chosen = rulesets.ONLINE if asked is rulesets.HOUSE else asked
    return chosen if chosen.online and not chosen.duplicate else None


def started(
    command: c.StartGame,
    edition: Edition,
    rules: RuleSet,
    players: tuple[str | None, ...],
    inputs: Inputs,
) -> GameStarted:
    """An online game's start with the server's seed; the computer's seats as asked."""
    computer.check(command.computers, len(players))
    play.check_start(edition, command.move_seconds, inputs.seed, inputs.contains)
    return GameStarted(
        edition.code,
        Mode.ONLINE,
        rules.code,
        players,
        command.starter,
        seed=inputs.seed,
        move_seconds=command.move_seconds,
        computers=command.computers if any(command.computers) else (),
    )


def evolve(game: Game, event: GameEvent, seq: int) -> Game:
    """The game after one of its events: the sheet's lines, and the racks and bag behind."""
    match event:
        case MoveRecorded():
            tiles = lines.move_tiles(game, event)
            game = fold.from_rack(game, event.player, tiles)
            squares = tuple(p.square for p in event.placed)
            game = fold.last(
                game, LastTurn(event.player, "move", event.words, event.points, squares)
            )
            game = lines.placed(game, event.placed)
            words, laid = event.words, bool(event.placed)
            return lines.turn(
                game, seq, "move", event.player, event.points, words, event.bingo, tiles, laid
            )
        case PointsEntered():
            return lines.turn(game, seq, "points", event.player, event.points)
        case Passed():
            game = fold.last(game, LastTurn(event.player, "pass", timed_out=event.timed_out))
            return lines.turn(game, seq, "pass", event.player, timed_out=event.timed_out)
        case Exchanged():
            return fold.exchanged(game, event, seq)
        case WordWithdrawn():
            return lines.turn(game, seq, "withdrawn", event.player)
        case PenaltyGiven():
            return lines.penalty(game, event, seq, game.turns[game.to_move])
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
            return lines.ended(game, event, settled=True)
        case (
            TopRecorded()
            | RackDrawn()
            | SlipSubmitted()
            | CellCorrected()
            | PlayerAdded()
            | PlayerRenamed()
            | PlayerRemoved()
            | EntriesSet()
            | GameClockStarted()
            | GameClockPaused()
            | ClockSwitched()
            | TimeRanOut()
            | ChallengeJudged()
        ):
            return lines.elsewhere(game, codebook.NOT_IN_CLASSIC)
        case _:
            assert_never(event)


def decide(game: Game, command: GameCommand, inputs: Inputs) -> tuple[TableEvent, ...]:
    """The events of a turn in an online game; raises GameError with a code if refused."""
    match command:
        case c.Play():
            return play.play(game, command, inputs.contains)
        case c.Exchange():
            return play.exchange(game, command)
        case c.Pass():
            return play.pass_turn(game, play.mover(game, command.player))
        case c.EndGame():
            return (play.end(game),)
        case (
            c.RecordMove()
            | c.EnterPoints()
            | c.WithdrawWord()
            | c.GivePenalty()
            | c.PlaceTiles()
            | c.ClearBoard()
            | c.RecordTop()
            | c.DrawRack()
            | c.SetRack()
            | c.SubmitSlip()
            | c.CloseRound()
            | c.JoinSimultaneous()
            | c.CorrectCell()
            | c.StartClock()
            | c.PauseClock()
            | c.ResetClock()
            | c.AddPlayer()
            | c.RenamePlayer()
            | c.RemovePlayer()
            | c.SetEntries()
            | c.StartGameClock()
            | c.PauseGameClock()
            | c.SwitchClock()
            | c.CallTime()
        ):
            raise decisions.not_in_mode(game, command, "is not part of an online game")
        case c.Challenge():  # refused: the server judges every word as it is played
            return challenge.decide(game, command, inputs.contains)
        case _:
            assert_never(command)


RULES = ModeRules(
    mode=Mode.ONLINE,
    least_players=2,
    most_players=4,
    judges_words=True,
    rule_set=rule_set,
    started=started,
    new_game=play.new_game,
    begin=fold.begin,
    evolve=evolve,
    turned=fold.turned,
    decide=decide,
    undo=play.undo_lines,
    check=rights.check,
    check_turn=permissions.check_turn_taken,
    sheet=view.sheet,
    for_seat=view.for_seat,
    final=settlement.final,
    host_seat=rights.host_seat,
    computer=rights.computer,
    register=permissions.no_registration,
)
