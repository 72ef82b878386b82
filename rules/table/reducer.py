"""The reducer: state + recorded event → state. Pure; odd history becomes a warning.

The table applies what every mode shares — the seating, a game's start, an undo — and hands
each event of a game to the fold of the game's mode (``ModeRules.evolve``, found in
``rules.table.modes``).

Undo is replay: a ``LineUndone`` restores the game from before the struck line and applies
again every standing event recorded after it, so the state always equals the fold of the
log without the undone lines.
"""

import sys
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
from rules.table.state import CHECKPOINT, RECENT, CentreGame, Follows, Game, Notice, State, Step
from rules.table.steps import chain, older, packing
from rules.table.tracking import opened


def replay(log: Iterable[Recorded], state: State | None = None) -> State:
    """Fold ``log`` into ``state`` (a new table when None)."""
    state = state or State()
    for recorded in log:
        state = evolve(state, recorded)
    return state


def evolve(state: State, recorded: Recorded) -> State:
    """The state after one recorded event."""
    recorded = standing(recorded)
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
            step = _step(state, recorded)
            recent = (game, *state.recent[: RECENT - 1])
            return State(recorded.seq, after, step, state.warnings, state.seating, recent=recent,
                         folded=recorded.seq)  # fmt: skip
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
            step = Step(recorded, None, None, "start")
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
            restored, steps, recent, folds = _undo(state, game, event.line, recorded.seq)
            after = modes.of(game).turned(game, restored, recorded.at)
            # Where the undo left the game as its newest step made it, the next step can
            # fold its game from it again rather than keep it (``_step``).
            newest = steps.recorded.seq if folds and after is restored and steps else 0
            return State(recorded.seq, after, steps, state.warnings, state.seating, recent=recent,
                         folded=newest)  # fmt: skip
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


def _undo(
    state: State, game: Game, line: int, seq: int
) -> tuple[Game, Step | None, tuple[Game, ...], bool]:
    """The game without ``line``, the steps that stand then, the games before the newest of
    them at hand (``State.recent``), and whether that game is the newest step's folded as a
    turn (the line was the newest, and its game was folded)."""
    later: list[Recorded] = []
    step = state.steps
    while step is not None and step.recorded.seq != line:
        later.append(step.recorded)
        step = older(step)
    if step is None or step.follows == "start":  # not standing, or the game's start
        odd = Notice(codebook.UNDO_UNKNOWN_LINE, {"seq": seq, "line": line})
        return replace(game, warnings=(*game.warnings, odd)), state.steps, state.recent, False
    # The newest steps' games are at hand (``State.recent``): an undo of the latest line
    # folds nothing again, nor one of the line before it.
    restored = state.recent[len(later)] if len(later) < len(state.recent) else before(step)
    assert restored is not None  # only a start has no game before it
    base = older(step)
    if not later:  # the newest struck: the older games at hand still are
        return restored, base, state.recent[1:], step.follows == "turn"
    game, steps = restored, base
    for recorded in reversed(later):
        if steps is base or steps is None or _keeps(steps, recorded):
            steps = Step(recorded, game, packing(steps))  # the first keeps the game it starts from
        else:
            steps = Step(recorded, None, steps, "again", steps.depth + 1)
        game = _again(game, recorded)
    return game, steps, (), False


def standing(recorded: Recorded) -> Recorded:
    """``recorded`` as the state keeps it: without its command id, which nothing folded
    reads (the log answers a retry), and with its device's id the same object as the
    table's other events': a long game's steps hold thousands of them (bench.held)."""
    device = sys.intern(recorded.device)
    if recorded.command or device is not recorded.device:
        return replace(recorded, device=device, command="")
    return recorded


def _step(state: State, recorded: Recorded) -> Step:
    """The step of a game event ``evolve`` folds into ``state`` as a turn. It need not keep
    the game before it when the step before it made that game, as a turn, with nothing
    since (``State.folded``: an undo's own turn, a failed undo's warning)."""
    previous = state.steps
    if (
        previous is not None
        and previous.follows in ("kept", "turn")
        and previous.recorded.seq == state.folded
        and not _keeps(previous, recorded)
    ):
        return Step(recorded, None, previous, "turn", previous.depth + 1)
    return Step(recorded, state.game, packing(previous))


def _keeps(previous: Step | None, recorded: Recorded) -> bool:
    """Must the step of ``recorded`` after ``previous`` keep the game before it: one in
    ``CHECKPOINT`` does, and an end's does (an online undo asks whether the rules had ended
    the game before it, ``rules.online.play``, which cannot fold a game again)."""
    return (
        previous is None
        or previous.depth + 1 >= CHECKPOINT
        or isinstance(recorded.event, GameEnded)
    )


def before(step: Step) -> Game | None:
    """The game before ``step``'s event; None before the event that started the game."""
    run = []
    while step.follows in ("turn", "again"):
        run.append(step)
        assert isinstance(step.previous, Step)  # a folded step follows another of its run
        step = step.previous
    game = step.kept
    for later in reversed(run):
        assert game is not None and isinstance(later.previous, Step)
        game = _folded(game, later.previous.recorded, later.follows)
    return game


def befores(steps: Step | None) -> list[tuple[Step, Game | None]]:
    """Every step from the game's start on, oldest first, each with the game before it:
    folded once along the way, not again from a kept game for each."""
    paired: list[tuple[Step, Game | None]] = []
    game: Game | None = None
    for step in reversed(list(chain(steps))):
        if step.follows in ("turn", "again"):
            assert game is not None and paired  # a folded step follows another
            game = _folded(game, paired[-1][0].recorded, step.follows)
        else:
            game = step.kept
        paired.append((step, game))
    return paired


def _folded(game: Game, recorded: Recorded, follows: Follows) -> Game:
    """``game`` with ``recorded`` folded in again as it was when its step was made."""
    applied = _again(game, recorded)
    return applied if follows == "again" else modes.of(game).turned(game, applied, recorded.at)


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
    step = Step(recorded, None, None, "start")
    return State(recorded.seq, joined, step, state.warnings, state.seating)


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
