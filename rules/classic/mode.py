"""The classic score sheet: 2–4 players at a physical table, turn by turn, settled at the end.

The table keeps the tiles; the sheet records what each turn scored, as computed from the
board or typed words, or as points typed by hand. Only a challenge of the latest move is
judged against a word list (``rules.table.challenge``).
"""

from typing import assert_never

from msgspec.structs import replace

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
    RackLeft,
    Recorded,
    SlipSubmitted,
    TableEvent,
    TilesPlaced,
    TimeRanOut,
    TopRecorded,
    WordWithdrawn,
)
from rules.table import challenge, decisions, gameclock, lines, permissions, settlement
from rules.table.decisions import refuse
from rules.table.inputs import Inputs
from rules.table.mode import GameCommand, GameEvent, ModeRules
from rules.table.rulesets import RuleSet
from rules.table.sheet import SheetView, build, noticed
from rules.table.state import Game, Notice, State
from rules.table.tracking import track


def rule_set(asked: RuleSet) -> RuleSet | None:
    """Any rule set of a sheet kept at the table: not the duplicate's, not online play's."""
    return None if asked.duplicate or asked.online else asked


def started(
    command: c.StartGame,
    edition: Edition,
    rules: RuleSet,
    players: tuple[str | None, ...],
    inputs: Inputs,
) -> GameStarted:
    """A classic game's start: no bag, no time per move, no computer."""
    return decisions.started(Mode.CLASSIC, command, edition, rules, players)


def evolve(game: Game, event: GameEvent, seq: int) -> Game:
    """The sheet after one of its events."""
    match event:
        case MoveRecorded():
            tiles = lines.move_tiles(game, event)
            game = lines.placed(game, event.placed)
            squares = tuple(p.square for p in event.placed)
            kept = (event.words, event.bingo, tiles, bool(squares), squares)
            return lines.turn(game, seq, "move", event.player, event.points, *kept)
        case PointsEntered():
            return lines.turn(game, seq, "points", event.player, event.points)
        case Passed():
            return lines.turn(game, seq, "pass", event.player)
        case Exchanged():
            return _exchanged(game, event, seq)
        case WordWithdrawn():
            return lines.turn(game, seq, "withdrawn", event.player)
        case PenaltyGiven():
            return lines.penalty(game, event, seq, _penalty_row(game, event))
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
        case GameClockStarted() | GameClockPaused() | ClockSwitched() | TimeRanOut():
            return gameclock.evolve(game, event)
        case ChallengeJudged():
            return challenge.evolve(game, event, seq)
        case (
            TopRecorded()
            | RackDrawn()
            | SlipSubmitted()
            | CellCorrected()
            | PlayerAdded()
            | PlayerRenamed()
            | PlayerRemoved()
            | EntriesSet()
        ):
            return lines.elsewhere(game, codebook.NOT_IN_CLASSIC)
        case _:
            assert_never(event)


def _penalty_row(game: Game, event: PenaltyGiven) -> int:
    """The sheet row a penalty (or bonus) is written in: a challenge's beside the challenged
    move (or the line that withdrew it), whoever pays or earns it — after a second seat's
    move the player to move is in the next round already; any other beside the round in
    play, the row of who is to move."""
    mover = (
        next((v.player for v in reversed(game.challenges) if v.line == event.challenge), None)
        if event.challenge
        else None
    )
    if mover is not None:
        for line in reversed(game.lines):
            if line.player == mover and line.kind not in ("penalty", "bonus"):
                return line.round
    return game.turns[game.to_move]


def _exchanged(game: Game, event: Exchanged, seq: int) -> Game:
    """An exchange line; the rule set's limits become notices, never refusals (P-33)."""
    rules = game.rules
    in_bag = track(game).in_bag if rules.exchange_min_bag is not None else 0
    game = lines.turn(game, seq, "exchange", event.player)
    count = game.exchanges[event.player] + 1
    notices = []
    if rules.exchange_min_bag is not None and in_bag < rules.exchange_min_bag:
        notices.append(
            Notice(
                codebook.EXCHANGE_BAG_LOW,
                {"seq": seq, "player": event.player, "bag": in_bag, "min": rules.exchange_min_bag},
            )
        )
    if rules.exchange_max is not None and count > rules.exchange_max:
        notices.append(
            Notice(
                codebook.EXCHANGE_LIMIT,
                {"seq": seq, "player": event.player, "count": count, "max": rules.exchange_max},
            )
        )
    return replace(
        game,
        exchanges=lines.put(game.exchanges, event.player, count),
        notices=(*game.notices, *notices),
    )


def decide(game: Game, command: GameCommand, inputs: Inputs) -> tuple[TableEvent, ...]:
    """The events of a command on the sheet; raises GameError with a code if refused."""
    if isinstance(command, permissions.TURNS):  # a player out of time may have no more
        gameclock.check_turn(game, command.player, inputs.at)
    match command:
        case c.Play():
            raise decisions.not_online(game)
        case c.Exchange() if command.tiles:
            raise decisions.not_online(game)
        case c.RecordMove():
            return decisions.move(game, command)
        case c.EnterPoints():
            return decisions.enter_points(game, command)
        case c.Pass():
            return (Passed(decisions.player(game, command.player)),)
        case c.Exchange():
            return (Exchanged(decisions.player(game, command.player)),)
        case c.WithdrawWord():
            return (WordWithdrawn(decisions.player(game, command.player)),)
        case c.GivePenalty():
            return decisions.penalty(game, command)
        case c.PlaceTiles():  # who lays them: the asking device's seat (None: the host's)
            return decisions.place_tiles(game, command, inputs.seat)
        case c.ClearBoard():
            return decisions.clear_board(game, command)
        case c.EndGame():  # the overtime penalties first: the end closes the sheet
            end = _end(game, command)
            return (*gameclock.overtime(game, inputs.at), end)
        case c.StartGameClock() | c.PauseGameClock() | c.SwitchClock() | c.CallTime():
            return gameclock.decide(game, command, inputs.at)
        case c.Challenge():
            return challenge.decide(game, command, inputs.contains)
        case (
            c.DrawRack()
            | c.SetRack()
            | c.SubmitSlip()
            | c.CloseRound()
            | c.AddPlayer()
            | c.RenamePlayer()
            | c.RemovePlayer()
            | c.SetEntries()
            | c.JoinSimultaneous()
        ):
            raise decisions.not_in_mode(game, command, "is part of a duplicate game")
        case c.RecordTop() | c.CorrectCell() | c.StartClock() | c.PauseClock() | c.ResetClock():
            raise decisions.not_in_mode(game, command)
        case _:
            assert_never(command)


def _strike(state: State, line: Recorded) -> tuple[int, ...]:
    """The lines an undo of ``line`` strikes: the end with its overtime penalties, a challenge
    with its consequence, any other line alone."""
    return gameclock.strike(state, line) or challenge.strike(state, line)


def _end(game: Game, command: c.EndGame) -> GameEnded:
    """The end with each player's rack as typed; only who went out leaves it empty."""
    edition = game.edition
    racks = command.racks or (c.RackLeft(),) * len(game.players)
    if len(racks) != len(game.players):
        raise refuse(
            f"{len(racks)} racks for {len(game.players)} players",
            codebook.RACK_COUNT,
            count=len(racks),
            players=len(game.players),
        )
    empty = [p for p, rack in enumerate(racks) if rack.points is None and not rack.letters]
    if len(empty) > 1:
        raise refuse(
            "only the player who went out leaves the field empty",
            codebook.TWO_EMPTY_RACKS,
            players=len(empty),
        )
    if empty and game.rules.pass_limit_reached(game.pass_run, len(game.players)) is not None:
        raise refuse(
            "after a run of passes nobody went out: fill in every rack",
            codebook.RACK_NEEDED_AFTER_PASSES,
            player=empty[0],
        )
    for player, rack in enumerate(racks):
        _check_rack(edition, player, rack)
    return GameEnded(tuple(RackLeft(r.letters, r.points) for r in racks))


def _check_rack(edition: Edition, player: int, rack: c.RackLeft) -> None:
    if rack.points is not None:
        if rack.letters:
            raise refuse(
                "a rack is letters or points, not both",
                codebook.RACK_LETTERS_AND_POINTS,
                player=player,
            )
        decisions.points(rack.points)
        return
    tiles = settlement.rack_tiles(edition, rack.letters or "")
    if len(tiles) > edition.rack_size:
        raise refuse(
            f"{len(tiles)} tiles on a rack of {edition.rack_size}",
            codebook.TOO_MANY_LETTERS,
            player=player,
            count=len(tiles),
            max=edition.rack_size,
        )
    blanks = tiles.count(settlement.BLANK)
    if blanks > edition.blanks:
        raise refuse(
            f"{blanks} blanks; the set has {edition.blanks}",
            codebook.TOO_MANY_BLANKS,
            player=player,
            count=blanks,
            max=edition.blanks,
        )


def sheet(state: State, game: Game, seat: int | None) -> SheetView:
    """The whole sheet, the same for everyone at the table."""
    return build(state, game, notices=noticed(game), final=settlement.final(game))


def for_seat(sheet: SheetView, game: Game, seat: int | None) -> SheetView:
    """Every seat sees the same sheet."""
    return sheet


RULES = ModeRules(
    mode=Mode.CLASSIC,
    least_players=2,  # SHC-03
    most_players=4,
    judges_words=False,
    rule_set=rule_set,
    started=started,
    new_game=decisions.again,
    begin=gameclock.begin,
    evolve=evolve,
    turned=gameclock.turned,
    decide=decide,
    undo=_strike,
    check=permissions.check_turn_sheet,
    check_turn=permissions.check_turn_taken,
    sheet=sheet,
    for_seat=for_seat,
    final=settlement.final,
    host_seat=permissions.no_host_seat,
    computer=permissions.no_computer,
    register=permissions.no_registration,
)
