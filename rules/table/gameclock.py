"""A physical table's game clock: each player's time, running for one of them at a time.

The clock is data in the log (DESIGN, "Clocks and challenges at the table"): another player
or the host starts it (``rules.table.permissions.check_start``), the host pauses it, the mover
taps it, a phone at zero calls the time — each an event with the server's time — and a
recorded turn switches it. The fold keeps each player's time used up to the last change
(``GameClock``); the phones only count down from there, in server time.

Whose time runs is a function of the sheet: the player to move, or the next one once the
mover tapped the clock and the turn's line is still to come (the line then switches nothing
more). A player out of time under a rule set that stops their play is passed over.

The clock is never undone: an undo (the reducer replays the game without ``turned``, then
calls it once) changes whose turn it is, never the time anyone used. ``turned`` keeps the
clock of the newer game — the one with more of the clock's own events folded in, the game
before the undo on a tie — and switches it to whoever is to move now.

What running out costs, per rule set (``RuleSet.overtime``; docs/decisions.md, "The game
clock (issue 27)"): ``none`` nothing, the time is only said; ``loss`` the game (SBNL,
FED-SBNL-03); ``points`` ``overtime_points`` per started minute over, at the end (WESPA,
NASPA); ``figs`` an extra minute for 30 points, and when that runs out too 50 more and the
game (FED-FIGS-10); ``stops`` no more moves, the other plays on, and the game is over once
every player is out (FED-PFS-13). A loss stops the clock; the sheet says it and the host
ends the game with the racks as ever, and the final table places the player last
(``rules.table.settlement``). Penalties are recorded as lines with the end of the game.
"""

from msgspec.structs import replace

from editions import codebook
from events import commands as c
from events.events import (
    ClockSwitched,
    GameClockPaused,
    GameClockStarted,
    GameEnded,
    GameStarted,
    PenaltyGiven,
    Recorded,
    TableEvent,
    TimeRanOut,
)
from rules.errors import GameError
from rules.table.decisions import player as chosen_player
from rules.table.decisions import refuse
from rules.table.state import Game, GameClock, State
from rules.table.steps import chain

ClockEvent = GameClockStarted | GameClockPaused | ClockSwitched | TimeRanOut
ClockCommand = c.StartGameClock | c.PauseGameClock | c.SwitchClock | c.CallTime

MINUTE = 60_000  # ms
#: FIGS art. 36-37 (FED-FIGS-10): the extra minute after the clock's time costs 30 points;
#: when it runs out too, 50 more and the game.
FIGS_EXTRA = MINUTE
FIGS_EXTRA_POINTS = 30
FIGS_LOSS_POINTS = 50


def begin(game: Game, event: GameStarted, at: int) -> Game:
    """A classic game with the clock its start asked for, not started yet."""
    if not event.clock_minutes:
        return game
    count = len(game.players)
    clock = GameClock(event.clock_minutes, (0,) * count, since=at, called=(0,) * count)
    return replace(game, game_clock=clock)


# --- what the clock says ---------------------------------------------------------------------


def limit(clock: GameClock) -> int:
    """Each player's time, ms."""
    return clock.minutes * MINUTE


def extra(game: Game) -> int:
    """The time after the clock's own a rule set gives before the game is lost (FIGS)."""
    return FIGS_EXTRA if game.rules.overtime == "figs" else 0


def stages(game: Game) -> int:
    """How many times a player's time can run out: the clock's, then FIGS's extra minute."""
    return 2 if game.rules.overtime == "figs" else 1


def stage(game: Game, clock: GameClock, player: int) -> int:
    """How far ``player``'s time ran out by ``clock.since``: 0 in time, 1 the clock's time
    used up, 2 the extra time after it too."""
    used = clock.used[player]
    if used < limit(clock):
        return 0
    return 2 if stages(game) == 2 and used >= limit(clock) + extra(game) else 1


def lost(game: Game, clock: GameClock, player: int) -> bool:
    """Whether ``player`` lost the game on time: SBNL at the clock's end, FIGS at the end of
    the extra minute."""
    reached = stage(game, clock, player)
    overtime = game.rules.overtime
    return (overtime == "loss" and reached >= 1) or (overtime == "figs" and reached >= 2)


def stopped(game: Game, clock: GameClock, player: int) -> bool:
    """Whether ``player`` makes no more moves: out of time under PFS rules, or lost on time."""
    return (game.rules.overtime == "stops" and stage(game, clock, player) >= 1) or lost(
        game, clock, player
    )


def _odd(code: str) -> GameError:
    """History the fold passes over, as a warning. Not ``rules.table.lines.Odd``: the final
    table (``rules.table.settlement``, which ``lines`` imports) reads the clock from here."""
    return GameError(f"a clock event the game cannot take: {code}", code=code)


def _put(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _next(game: Game, clock: GameClock, player: int) -> int:
    """The player after ``player`` who still plays; ``player`` when nobody else does."""
    count = len(game.players)
    for step in range(1, count + 1):
        candidate = (player + step) % count
        if not stopped(game, clock, candidate):
            return candidate
    return player


def runner(game: Game, clock: GameClock) -> int | None:
    """Whose time runs on ``clock`` in ``game``: None before the start, paused, at the end, or
    once the game is lost on time or nobody may move any more."""
    if not clock.started or clock.paused or game.ended is not None:
        return None
    players = range(len(game.players))
    if any(lost(game, clock, p) for p in players) or all(stopped(game, clock, p) for p in players):
        return None
    mover = game.to_move
    if stopped(game, clock, mover):
        mover = _next(game, clock, mover)
    if (mover, game.turns[mover]) in clock.tapped:  # tapped: the line is still to come
        mover = _next(game, clock, mover)
    return mover


def advanced(clock: GameClock, at: int) -> GameClock:
    """``clock`` brought up to server time ``at``: the running player's time used until then.
    A time before the last change (another process's clock a little behind) counts nothing;
    a clock nobody's time runs on stays as it is (so a game whose clock never ran is the fold
    of its log without the lines undone, as every other game)."""
    if clock.running is None or at <= clock.since:
        return clock
    used = _put(clock.used, clock.running, clock.used[clock.running] + at - clock.since)
    return replace(clock, used=used, since=at)


def _run(game: Game, clock: GameClock, at: int) -> Game:
    """``game`` with ``clock`` (brought up to ``at``) running from ``at`` for whoever it runs
    for now; under PFS rules the turn passes over a player out of time."""
    if game.rules.overtime == "stops" and stopped(game, clock, game.to_move):
        game = replace(game, to_move=_next(game, clock, game.to_move))
    runs = runner(game, clock)
    if runs != clock.running:
        clock = replace(clock, running=runs, since=max(clock.since, at))
    return replace(game, game_clock=clock)


def at_time(game: Game, at: int) -> Game:
    """``game`` as its clock stands at server time ``at``."""
    clock = game.game_clock
    return game if clock is None else _run(game, advanced(clock, at), at)


# --- the fold --------------------------------------------------------------------------------


def evolve(game: Game, event: ClockEvent) -> Game:
    """The game after one of the clock's events; odd in a game without a clock, after its end,
    or for a pause or a tap while the clock stands still and a start while it runs."""
    clock = game.game_clock
    if clock is None:
        raise _odd(codebook.NO_CLOCK)
    if game.ended is not None:
        raise _odd(codebook.GAME_OVER)
    going = clock.started and not clock.paused
    clock = replace(advanced(clock, event.at), events=clock.events + 1)
    match event:
        case GameClockStarted():
            if going:
                raise _odd(codebook.CLOCK_RUNNING)
            clock = replace(clock, started=True, paused=False)
        case GameClockPaused():
            if not going:
                raise _odd(codebook.CLOCK_NOT_RUNNING)
            clock = replace(clock, paused=True)
        case ClockSwitched():
            if not going:
                raise _odd(codebook.CLOCK_NOT_RUNNING)
            ended = (game.to_move, game.turns[game.to_move])
            clock = replace(clock, tapped=(*clock.tapped, ended))
        case TimeRanOut():
            if not 0 <= event.player < len(game.players):
                raise _odd(codebook.NO_SUCH_PLAYER)
            called = max(clock.called[event.player], event.stage)
            clock = replace(clock, called=_put(clock.called, event.player, called))
    return _run(game, clock, event.at)


def turned(before: Game, after: Game, at: int) -> Game:
    """The game after an event or an undo changed ``before`` into it, at server time ``at``:
    the clock of the newer of the two, brought up to ``at`` and running for whoever it runs
    for now (a recorded turn switches it)."""
    old, new = before.game_clock, after.game_clock
    if old is None or new is None:
        return after
    clock = new if new.events > old.events else old  # an undo never winds the clock back
    return _run(after, advanced(clock, at), at)


# --- the decisions ---------------------------------------------------------------------------


def decide(game: Game, command: ClockCommand, at: int) -> tuple[TableEvent, ...]:
    """The event of a clock command at server time ``at``; raises GameError (``no_clock``,
    ``clock_running``, ``clock_not_running``, ``out_of_time``, ``not_to_move``,
    ``no_such_player``, ``not_due``, ``time_called``)."""
    if game.game_clock is None:
        raise refuse("this game has no game clock", codebook.NO_CLOCK)
    now = at_time(game, at)
    clock = now.game_clock
    assert clock is not None
    going = clock.started and not clock.paused
    match command:
        case c.StartGameClock():
            if going:
                raise refuse("the game clock runs already", codebook.CLOCK_RUNNING)
            _refuse_decided(now, clock)
            return (GameClockStarted(at),)
        case c.PauseGameClock():
            if not going:
                raise refuse("the game clock does not run", codebook.CLOCK_NOT_RUNNING)
            return (GameClockPaused(at),)
        case c.SwitchClock():
            return (_switch(now, clock, at),)
        case c.CallTime():
            return _call(now, clock, command, at)


def _refuse_decided(game: Game, clock: GameClock) -> None:
    """Refuse to run a clock whose game was lost on time, or where nobody may move."""
    players = range(len(game.players))
    out = next((p for p in players if lost(game, clock, p)), None)
    if out is None and all(stopped(game, clock, p) for p in players):
        out = game.to_move
    if out is not None:
        raise refuse(f"player {out} is out of time", codebook.OUT_OF_TIME, player=out)


def _switch(game: Game, clock: GameClock, at: int) -> ClockSwitched:
    """The mover's tap: the next player's time runs. Once tapped, the clock waits for the
    turn's line before it is tapped again (``not_to_move``: it runs for the next player,
    whose turn it is not yet on the sheet). Under PFS rules, once everyone else is out of
    time the mover plays on and their time with them: a tap would hand the clock to nobody
    (``out_of_time``, naming the next player, who is out)."""
    runs = clock.running
    if runs is None:
        raise refuse("the game clock does not run", codebook.CLOCK_NOT_RUNNING)
    if runs != game.to_move:
        raise refuse(
            f"the clock runs for player {runs}; player {game.to_move}'s turn is to be recorded",
            codebook.NOT_TO_MOVE,
            player=runs,
            to_move=game.to_move,
        )
    following = _next(game, clock, runs)
    if following == runs:
        out = (runs + 1) % len(game.players)
        raise refuse(f"player {out} is out of time", codebook.OUT_OF_TIME, player=out)
    return ClockSwitched(following, at)


def _call(game: Game, clock: GameClock, command: c.CallTime, at: int) -> tuple[TableEvent, ...]:
    """Time called for a player by a phone at zero: recorded (each stage not yet recorded up
    to the one called) once the server's clock agrees."""
    called = chosen_player(game, command.player)
    if not 1 <= command.stage <= stages(game):
        raise refuse(f"the time never runs out a {command.stage}th time", codebook.NOT_DUE)
    if clock.called[called] >= command.stage:
        raise refuse(f"player {called}'s time was called", codebook.TIME_CALLED, player=called)
    if stage(game, clock, called) < command.stage:
        raise refuse(f"player {called} has time left", codebook.NOT_DUE)
    first = clock.called[called] + 1
    return tuple(TimeRanOut(called, at, s) for s in range(first, command.stage + 1))


def check_turn(game: Game, player: int | None, at: int) -> None:
    """Refuse a turn of a player out of time where that ends their play (``out_of_time``)."""
    now = at_time(game, at)
    clock = now.game_clock
    meant = game.to_move if player is None else player
    if clock is not None and 0 <= meant < len(game.players) and stopped(now, clock, meant):
        raise refuse(f"player {meant} is out of time", codebook.OUT_OF_TIME, player=meant)


# --- the end ---------------------------------------------------------------------------------


def overtime(game: Game, at: int) -> tuple[TableEvent, ...]:
    """The overtime penalties recorded with the end of the game at server time ``at``:
    ``overtime_points`` per started minute over (WESPA, NASPA); under FIGS rules 30 for the
    extra minute begun and 50 more once it ran out."""
    now = at_time(game, at)
    clock = now.game_clock
    if clock is None:
        return ()
    found: list[TableEvent] = []
    for p, used in enumerate(clock.used):
        over = used - limit(clock)
        if over <= 0:
            continue
        if game.rules.overtime == "points":
            minutes = -(-over // MINUTE)
            found.append(PenaltyGiven(p, minutes * game.rules.overtime_points, overtime=minutes))
        elif game.rules.overtime == "figs":
            found.append(PenaltyGiven(p, FIGS_EXTRA_POINTS, overtime=1))
            if over >= FIGS_EXTRA:
                found.append(PenaltyGiven(p, FIGS_LOSS_POINTS, overtime=2))
    return tuple(found)


def strike(state: State, line: Recorded) -> tuple[int, ...]:
    """The overtime penalties recorded with ``line``, the end of the game, which an undo of
    the end strikes with it, newest first (``line`` first); () for any other line."""
    if not isinstance(line.event, GameEnded):
        return ()
    struck = [line.seq]
    for step in chain(state.steps):
        if step.recorded.seq >= line.seq:
            continue
        event = step.recorded.event
        if step.recorded.seq != struck[-1] - 1 or not (
            isinstance(event, PenaltyGiven) and event.overtime
        ):
            break
        struck.append(step.recorded.seq)
    return tuple(struck)
