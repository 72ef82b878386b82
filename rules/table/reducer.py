"""The reducer: state + recorded event → state. Pure; odd history becomes a warning.

The table applies what every mode shares — the seating, a game's start, an undo — and hands
each event of a game to the fold of the game's mode (``ModeRules.evolve``, found in
``rules.table.modes``).

Undo is replay: a ``LineUndone`` restores the game from before the struck line and applies
again every standing event recorded after it, so the state always equals the fold of the
log without the undone lines.
"""

from collections.abc import Iterable
from typing import assert_never

from msgspec.structs import replace

import editions
from editions import codebook
from events.events import (
    BoardCleared,
    CellCorrected,
    CentreAdded,
    CentreJoined,
    ChallengeJudged,
    ClockPaused,
    ClockReset,
    ClockStarted,
    ClockSwitched,
    DeviceAdmitted,
    DeviceJoined,
    DeviceLabelled,
    DeviceRemoved,
    DirectorAppointed,
    DirectorReplaced,
    EntriesSet,
    Event,
    Exchanged,
    GameClockPaused,
    GameClockStarted,
    GameEnded,
    GameSealed,
    GameStarted,
    HostSeated,
    LineUndone,
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
    RecoverySet,
    SimultaneousCreated,
    SlipSubmitted,
    TilesPlaced,
    TimeRanOut,
    TopRecorded,
    WindowClosed,
    WordWithdrawn,
    WritersSet,
)
from rules.board.board import Board
from rules.errors import GameError
from rules.simultaneous import fold as simultaneous
from rules.table import modes, rulesets
from rules.table.lines import Odd
from rules.table.mode import GameEvent, ModeRules
from rules.table.seating import seat
from rules.table.state import CentreGame, Game, Notice, State, Step
from rules.table.tracking import opened


def replay(log: Iterable[Recorded], state: State | None = None) -> State:
    """Fold ``log`` into ``state`` (a new table when None)."""
    state = state or State()
    for recorded in log:
        state = evolve(state, recorded)
    return state


def evolve(state: State, recorded: Recorded) -> State:
    """The state after one recorded event."""
    event = recorded.event
    match event:
        case (
            MoveRecorded()
            | PointsEntered()
            | Passed()
            | Exchanged()
            | WordWithdrawn()
            | PenaltyGiven()
            | TilesPlaced()
            | BoardCleared()
            | TopRecorded()
            | RackDrawn()
            | SlipSubmitted()
            | CellCorrected()
            | ClockStarted()
            | ClockPaused()
            | ClockReset()
            | GameEnded()
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
            game = state.game
            if game is None:
                return _table_warning(state, recorded, Odd(codebook.NO_GAME))
            rules = modes.of(game)
            after = rules.turned(game, _apply(rules, game, event, recorded), recorded.at)
            step = Step(recorded, game, state.steps)
            return State(recorded.seq, after, step, state.warnings, state.seating)
        case (
            WritersSet()
            | DeviceJoined()
            | DeviceAdmitted()
            | DeviceRemoved()
            | DirectorAppointed()
            | RecoverySet()
            | DirectorReplaced()
            | HostSeated()
            | DeviceLabelled()
        ):
            return replace(state, seq=recorded.seq, seating=seat(state.seating, recorded))
        case GameStarted():
            try:
                started = replace(_start(event, recorded.at), started=recorded.seq)
            except (Odd, GameError) as problem:
                return _table_warning(state, recorded, problem)
            step = Step(recorded, None, None)
            return State(recorded.seq, started, step, state.warnings, state.seating)
        case CentreJoined():
            return _centre(state, event, recorded)
        case SimultaneousCreated() | GameSealed() | CentreAdded() | WindowClosed():
            folded = simultaneous.evolve(state.simultaneous, event, recorded.at)
            return replace(state, seq=recorded.seq, simultaneous=folded)
        case LineUndone():
            game = state.game
            if game is None:
                return _table_warning(state, recorded, Odd(codebook.NO_GAME))
            after, steps = _undo(state, game, event.line, recorded.seq)
            after = modes.of(game).turned(game, after, recorded.at)
            return State(recorded.seq, after, steps, state.warnings, state.seating)
        case _:
            assert_never(event)


def _apply(rules: ModeRules, game: Game, event: GameEvent, recorded: Recorded) -> Game:
    """``event`` folded into ``game`` by its mode; odd history becomes the game's warning."""
    try:
        return rules.evolve(game, event, recorded.seq)
    except (Odd, GameError) as problem:
        return replace(game, warnings=(*game.warnings, _notice(recorded, problem)))


def _notice(recorded: Recorded, problem: "Odd | GameError") -> Notice:
    notice = problem.notice if isinstance(problem, Odd) else Notice(problem.code)
    return Notice(
        notice.code, {**notice.params, "seq": recorded.seq, "kind": _kind(recorded.event)}
    )


def _table_warning(state: State, recorded: Recorded, problem: "Odd | GameError") -> State:
    """An event that cannot start or join a game: the table notes it and stays as it was."""
    warnings = (*state.warnings, _notice(recorded, problem))
    return replace(state, seq=recorded.seq, warnings=warnings)


def _undo(state: State, game: Game, line: int, seq: int) -> tuple[Game, Step | None]:
    """The game without ``line``, and the steps that stand then."""
    later: list[Recorded] = []
    step = state.steps
    while step is not None and step.recorded.seq != line:
        later.append(step.recorded)
        step = step.previous
    if step is None or step.before is None:  # not standing, or the game's start
        odd = Notice(codebook.UNDO_UNKNOWN_LINE, {"seq": seq, "line": line})
        return replace(game, warnings=(*game.warnings, odd)), state.steps
    game, steps = step.before, step.previous
    for recorded in reversed(later):
        game, steps = _again(game, recorded), Step(recorded, game, steps)
    return game, steps


def _again(game: Game, recorded: Recorded) -> Game:
    """A standing event of the game applied again after an undo."""
    event = recorded.event
    match event:
        case (
            GameStarted()
            | CentreJoined()
            | SimultaneousCreated()
            | GameSealed()
            | CentreAdded()
            | WindowClosed()
            | LineUndone()
            | WritersSet()
            | DeviceJoined()
            | DeviceAdmitted()
            | DeviceRemoved()
            | DirectorAppointed()
            | RecoverySet()
            | DirectorReplaced()
            | HostSeated()
            | DeviceLabelled()
        ):
            return game  # the table's own events: never a step of a game
        case _:
            return _apply(modes.of(game), game, event, recorded)


def _kind(event: Event) -> str:
    return type(event).__struct_config__.tag  # type: ignore[return-value]


def _centre(state: State, event: CentreJoined, recorded: Recorded) -> State:
    """The room's game made the simultaneous's, in its edition and rule set, its players
    kept: a start the undo cannot reach behind (a centre's game is the sealed one)."""
    game = state.game
    if game is None:
        return _table_warning(state, recorded, Odd(codebook.NO_GAME))
    try:
        begun = _start(
            GameStarted(event.edition, Mode.DUPLICATE, event.rules, game.players), recorded.at
        )
    except (Odd, GameError) as problem:
        return _table_warning(state, recorded, problem)
    joined = replace(
        begun,
        started=game.started,
        left=game.left,
        registered=True,
        entries_until=game.entries_until,
        centre=CentreGame(event.simultaneous, event.game, event.centre),
    )
    return State(recorded.seq, joined, Step(recorded, None, None), state.warnings, state.seating)


def _start(event: GameStarted, at: int) -> Game:
    """The game every mode starts with, then made the mode's own (``ModeRules.begin``)."""
    count = len(event.players)
    rules = modes.MODES[Mode(event.mode)]
    if count < rules.least_players or not 0 <= event.starter < max(count, 1):
        raise Odd(codebook.NO_SUCH_PLAYER, player=event.starter)
    edition = editions.get(event.edition)
    game = Game(
        edition=edition,
        mode=rules.mode,
        rules=rulesets.get(event.rules),
        players=event.players,
        starter=event.starter,
        to_move=event.starter,
        totals=(0,) * count,
        board=Board.empty(edition) if edition.layout else None,
        turns=(0,) * count,
        racks=count,
        exchanges=(0,) * count,
        tally=opened(edition),
    )
    return rules.begin(game, event, at)
