"""The reducer: state + recorded event → state. Pure; odd history becomes a warning.

Undo is replay: a ``LineUndone`` restores the game from before the struck line and applies
again every standing event recorded after it, so the state always equals the fold of the
log without the undone lines.
"""

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, TypeVar

from msgspec.structs import replace

import editions
from editions import codebook
from events.events import (
    BoardCleared,
    CellCorrected,
    ClockPaused,
    ClockReset,
    ClockStarted,
    Event,
    Exchanged,
    GameEnded,
    GameStarted,
    LineUndone,
    Mode,
    MoveRecorded,
    Passed,
    PenaltyGiven,
    PlacedTile,
    PointsEntered,
    RackDrawn,
    Recorded,
    SlipSubmitted,
    TilesPlaced,
    TopRecorded,
    TypedLetter,
    WordLine,
    WordWithdrawn,
)
from rules.board import bag
from rules.board.board import Board
from rules.board.squares import Square
from rules.board.tiles import bag_letter, parse_tile
from rules.classic.settlement import rack_value
from rules.errors import GameError
from rules.table import rulesets
from rules.table.seating import SEATING_EVENTS, seat
from rules.table.state import Clock, Game, LastTurn, Line, Notice, Online, Round, Slip, State, Step
from rules.table.tracking import line_written, opened, round_changed, track

_square = lru_cache(maxsize=1024)(Square.parse)  # moves name the same squares again
V = TypeVar("V")


class Odd(Exception):
    """History the reducer cannot apply; it becomes a warning, never an error."""

    def __init__(self, code: str, **params: int | str) -> None:
        super().__init__(code)
        self.notice = Notice(code, params)


def replay(log: Iterable[Recorded], state: State | None = None) -> State:
    """Fold ``log`` into ``state`` (a new table when None)."""
    state = state or State()
    for recorded in log:
        state = evolve(state, recorded)
    return state


def evolve(state: State, recorded: Recorded) -> State:
    """The state after one recorded event."""
    game = state.game
    if game is None or type(recorded.event) not in _HANDLERS:
        return _beside(state, recorded)
    after = _turn_clock(game, _apply(game, recorded), recorded.at)
    step = Step(recorded, game, state.steps)
    return State(recorded.seq, after, step, state.warnings, state.seating)


def _beside(state: State, recorded: Recorded) -> State:
    """An event no handler applies to a game: the seating, a start, an undo, or any event
    before the first game. Kept out of ``evolve``, so that the game's own events (nearly
    all of a log) cost it one dictionary lookup."""
    event = recorded.event
    if isinstance(event, SEATING_EVENTS):
        return replace(state, seq=recorded.seq, seating=seat(state.seating, recorded))
    if isinstance(event, GameStarted):
        try:
            started = replace(_start(event, recorded.at), started=recorded.seq)
        except (Odd, GameError) as problem:
            return _table_warning(state, recorded, problem)
        step = Step(recorded, None, None)
        return State(recorded.seq, started, step, state.warnings, state.seating)
    game = state.game
    if game is None:
        return _table_warning(state, recorded, Odd(codebook.NO_GAME))
    assert isinstance(event, LineUndone)  # every other kind has a handler
    after, steps = _undo(state, game, event.line, recorded.seq)
    return State(
        recorded.seq, _turn_clock(game, after, recorded.at), steps, state.warnings, state.seating
    )


def _turn_clock(before: Game, after: Game, at: int) -> Game:
    """Online: a new turn (after a line, or an undo) starts the time per move at ``at``."""
    if after.online is None or after.lines is before.lines:
        return after
    return replace(after, online=replace(after.online, turn_since=at))


def _apply(game: Game, recorded: Recorded) -> Game:
    try:
        return _HANDLERS[type(recorded.event)](game, recorded.event, recorded.seq)
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
        game, steps = _apply(game, recorded), Step(recorded, game, steps)
    return game, steps


def _kind(event: Event) -> str:
    return type(event).__struct_config__.tag  # type: ignore[return-value]


def _start(event: GameStarted, at: int) -> Game:
    count = len(event.players)
    if not count or not 0 <= event.starter < count:
        raise Odd(codebook.NO_SUCH_PLAYER, player=event.starter)
    edition = editions.get(event.edition)
    mode = Mode(event.mode)
    rules = rulesets.get(event.rules)
    duplicate = mode is Mode.DUPLICATE
    online = None
    if mode is Mode.ONLINE:
        if edition.layout is None:
            raise Odd(codebook.NO_BOARD)
        tiles, racks = bag.deal(edition, event.seed, count)
        computers = (*event.computers, *(None,) * count)[:count]  # a person where none said
        online = Online(event.seed, tiles, racks, event.move_seconds, at, computers=computers)
    return Game(
        edition=edition,
        mode=mode,
        rules=rules,
        players=event.players,
        starter=event.starter,
        to_move=event.starter,
        totals=(0,) * count,
        board=Board.empty(edition) if edition.layout else None,
        turns=(0,) * count,
        rounds=(Round((None,) * count),) if duplicate else (),
        exchanges=(0,) * count,
        clock=Clock(rules.clock_seconds, rules.clock_seconds * 1000)
        if duplicate and rules.clock_seconds
        else None,
        online=online,
        tally=opened(edition),
    )


def _player(game: Game, player: int) -> int:
    if not 0 <= player < len(game.players):
        raise Odd(codebook.NO_SUCH_PLAYER, player=player)
    return player


def _open(game: Game) -> None:
    if game.ended is not None:
        raise Odd(codebook.GAME_OVER)


def _turn(
    game: Game,
    seq: int,
    kind: str,
    player: int,
    points: int = 0,
    words: tuple[WordLine, ...] = (),
    bingo: int = 0,
    tiles: tuple[str, ...] = (),
    from_board: bool = False,
) -> Game:
    """A classic turn line: the total, the next player, the run of scoreless turns."""
    _open(game)
    if game.mode is Mode.DUPLICATE:
        raise Odd(codebook.NOT_IN_DUPLICATE)
    player = _player(game, player)
    total = game.totals[player] + points
    counted = kind in game.rules.pass_kinds  # any other turn breaks the run
    row = game.turns[player]
    line = Line(seq, kind, player, points, total, row, words, bingo, tiles, from_board)
    return replace(
        game,
        lines=game.lines.plus(line),
        tally=line_written(game.tally, game.edition, line),
        totals=_set(game.totals, player, total),
        to_move=(player + 1) % len(game.players),
        pass_run=game.pass_run + 1 if counted else 0,
        turns=_set(game.turns, player, row + 1),
    )


def _set(values: tuple[V, ...], index: int, value: V) -> tuple[V, ...]:
    changed = list(values)  # quicker than joining slices for the few items of a table
    changed[index] = value
    return tuple(changed)


def _placed(game: Game, placed: tuple[PlacedTile, ...], unscored: bool = False) -> Game:
    """Lay recorded tiles; a taken square is odd, and then nothing is laid."""
    if not placed:
        return game
    if game.board is None:
        raise Odd(codebook.NO_BOARD)
    tiles = [(_square(p.square), parse_tile(game.edition, p.tile)) for p in placed]
    for square, _ in tiles:
        if game.board[square] is not None:
            raise Odd(codebook.SQUARE_TAKEN, square=square.name)
    squares = game.unscored | {p.square for p in placed} if unscored else game.unscored
    return replace(game, board=game.board.lay(tiles), unscored=squares)


def _typed_tiles(game: Game, typed: tuple[tuple[TypedLetter, ...], ...]) -> tuple[str, ...]:
    """The tiles a typed move took: the new tiles of the word with the most (BNG-04, OQ-57).

    Read as tiles, so a letter the set lacks (a locked blank) or an accent counts as the
    scoring counted it.
    """
    words = [[parse_tile(game.edition, t.tile) for t in word if not t.old] for word in typed]
    return tuple("?" if t.blank else t.letter for t in max(words, key=len, default=[]))


def _move(game: Game, event: MoveRecorded, seq: int) -> Game:
    tiles = tuple(bag_letter(p.tile) for p in event.placed) or _typed_tiles(game, event.typed)
    if game.mode is Mode.DUPLICATE:  # the player's cell; the board keeps only tops (P-40)
        return _cell(game, len(game.rounds) - 1, event.player, event.points)
    if game.online is not None:
        game = _from_rack(game, event.player, tiles)
        squares = tuple(p.square for p in event.placed)
        last = LastTurn(event.player, "move", event.words, event.points, squares)
        game = _last(game, last)
    game = _placed(game, event.placed)
    words, placed = event.words, bool(event.placed)
    return _turn(game, seq, "move", event.player, event.points, words, event.bingo, tiles, placed)


def _points(game: Game, event: PointsEntered, seq: int) -> Game:
    if game.mode is Mode.DUPLICATE:
        return _cell(game, len(game.rounds) - 1, event.player, event.points)
    return _turn(game, seq, "points", event.player, event.points)


def _from_rack(game: Game, player: int, tiles: tuple[str, ...]) -> Game:
    """Online: the player's rack less the tiles laid, filled again from the bag (WS-10)."""
    online = game.online
    assert online is not None
    player = _player(game, player)
    rack = online.racks[player]
    if bag.missing(rack, tiles):
        raise Odd(codebook.TILES_NOT_ON_RACK)  # no tiles named: a warning is seen by all
    left, rack = bag.draw(online.bag, bag.without(rack, tiles), game.edition.rack_size)
    return replace(game, online=replace(online, bag=left, racks=_set(online.racks, player, rack)))


def _last(game: Game, last: LastTurn) -> Game:
    assert game.online is not None
    return replace(game, online=replace(game.online, last=last))


def _pass(game: Game, event: Passed, seq: int) -> Game:
    if game.online is not None:
        game = _last(game, LastTurn(event.player, "pass", timed_out=event.timed_out))
    return _turn(game, seq, "pass", event.player)


def _online_exchange(game: Game, event: Exchanged, seq: int) -> Game:
    """Online: the named tiles go back after as many are drawn; the bag is shuffled again."""
    online = game.online
    assert online is not None
    player = _player(game, event.player)
    tiles = bag.parse(game.edition, event.tiles)
    rack = online.racks[player]
    if bag.missing(rack, tiles):
        raise Odd(codebook.TILES_NOT_ON_RACK)
    left, rack = bag.exchange(online.bag, rack, tiles, online.seed, seq)
    online = replace(
        online,
        bag=left,
        racks=_set(online.racks, player, rack),
        last=LastTurn(player, "exchange", count=len(tiles)),
    )
    game = _turn(replace(game, online=online), seq, "exchange", player)
    return replace(game, exchanges=_set(game.exchanges, player, game.exchanges[player] + 1))


def _exchange(game: Game, event: Exchanged, seq: int) -> Game:
    if game.online is not None:
        return _online_exchange(game, event, seq)
    rules = game.rules
    in_bag = track(game).in_bag if rules.exchange_min_bag is not None else 0
    game = _turn(game, seq, "exchange", event.player)
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
        game, exchanges=_set(game.exchanges, event.player, count), notices=(*game.notices, *notices)
    )


def _penalty(game: Game, event: PenaltyGiven, seq: int) -> Game:
    _open(game)
    player = _player(game, event.player)
    total = game.totals[player] - event.points
    # Beside the turns of the round in play: the row of the player to move.
    row = len(game.rounds) - 1 if game.mode is Mode.DUPLICATE else game.turns[game.to_move]
    kind = "penalty" if event.points >= 0 else "bonus"
    line = Line(seq, kind, player, -event.points, total, row)
    return replace(game, lines=game.lines.plus(line), totals=_set(game.totals, player, total))


def _cell(game: Game, index: int, player: int | None, points: int | None) -> Game:
    """Duplicate: set one cell (``player`` None: the top) and keep the totals in step."""
    _open(game)
    if game.mode is not Mode.DUPLICATE:
        raise Odd(codebook.NOT_IN_CLASSIC)
    if not 0 <= index < len(game.rounds):
        raise Odd(codebook.NO_SUCH_ROUND, round=index)
    played = game.rounds[index]
    if player is None:
        topped = replace(played, top=points)
        tally = round_changed(game.tally, game.edition, played, topped)
        return replace(game, rounds=_set(game.rounds, index, topped), tally=tally)
    player = _player(game, player)
    delta = (points or 0) - (played.scores[player] or 0)
    played = replace(played, scores=_set(played.scores, player, points))
    return replace(
        game,
        rounds=_set(game.rounds, index, played),
        totals=_set(game.totals, player, game.totals[player] + delta),
    )


def _top(game: Game, event: TopRecorded, seq: int) -> Game:
    _open(game)
    if game.mode is not Mode.DUPLICATE:
        raise Odd(codebook.NOT_IN_CLASSIC)
    game = _placed(game, event.placed)
    for result in event.results:  # the room's slips as the close judged them fill the cells
        game = _cell(game, len(game.rounds) - 1, result.player, result.points)
        if result.solo:  # the solo bonus: a bonus line beside the round
            game = _penalty(game, PenaltyGiven(result.player, -result.solo), seq)
    tiles = tuple(bag_letter(p.tile) for p in event.placed) or _typed_tiles(game, event.typed)
    closed = replace(
        game.rounds[-1],
        top=event.points,
        top_seq=seq,
        top_words=event.words,
        top_tiles=tiles,
        results=event.results,
        computed=event.computed,
    )
    empty = Round((None,) * len(game.players))
    clock = game.clock and Clock(game.clock.seconds, game.clock.seconds * 1000)
    tally = round_changed(game.tally, game.edition, game.rounds[-1], closed)
    return replace(
        game, rounds=(*game.rounds[:-1], closed, empty), clock=clock, slips=(), tally=tally
    )


def _rack(game: Game, event: RackDrawn, seq: int) -> Game:
    """Duplicate room: the open round's rack, drawn or typed; it replaces one before it."""
    _open(game)
    if game.mode is not Mode.DUPLICATE:
        raise Odd(codebook.NOT_IN_CLASSIC)
    if event.round != len(game.rounds) - 1:
        raise Odd(codebook.NO_SUCH_ROUND, round=event.round)
    rack = tuple(bag.notation(t) for t in bag.parse(game.edition, event.rack))
    played = replace(
        game.rounds[-1], rack=rack, rejected=len(event.rejected), typed_rack=event.typed
    )
    return replace(game, rounds=(*game.rounds[:-1], played))


def _slip(game: Game, event: SlipSubmitted, seq: int) -> Game:
    """Duplicate room: a player's slip for the open round; a later one replaces it."""
    _open(game)
    if game.mode is not Mode.DUPLICATE:
        raise Odd(codebook.NOT_IN_CLASSIC)
    if event.round != len(game.rounds) - 1 or not game.rounds[-1].rack:
        raise Odd(codebook.NO_SUCH_ROUND, round=event.round)
    player = _player(game, event.player)
    slip = Slip(player, event.word, event.start, event.direction, event.late)
    return replace(game, slips=(*(s for s in game.slips if s.player != player), slip))


def _tiles_placed(game: Game, event: TilesPlaced, seq: int) -> Game:
    return _placed(game, event.placed, unscored=True)


def _board_cleared(game: Game, event: BoardCleared, seq: int) -> Game:
    if game.board is None:
        raise Odd(codebook.NO_BOARD)
    lifted = [(_square(square), None) for square in game.unscored]
    return replace(game, board=game.board.lay(lifted), unscored=frozenset())


def _clock_started(game: Game, event: ClockStarted, seq: int) -> Game:
    if game.clock is None:
        raise Odd(codebook.NO_CLOCK)
    return replace(
        game, clock=replace(game.clock, remaining=event.remaining, running_since=event.at)
    )


def _clock_paused(game: Game, event: ClockPaused, seq: int) -> Game:
    clock = game.clock
    if clock is None or clock.running_since is None:
        raise Odd(codebook.CLOCK_NOT_RUNNING)
    left = max(0, clock.remaining - (event.at - clock.running_since))
    return replace(game, clock=Clock(clock.seconds, left))


def _clock_reset(game: Game, event: ClockReset, seq: int) -> Game:
    if game.clock is None:
        raise Odd(codebook.NO_CLOCK)
    return replace(game, clock=Clock(event.seconds, event.seconds * 1000))


def _ended(game: Game, event: GameEnded, seq: int) -> Game:
    _open(game)
    if game.mode is not Mode.DUPLICATE and event.racks:  # DUP-14: nothing to settle
        if len(event.racks) != len(game.players):
            raise Odd(codebook.RACK_COUNT, count=len(event.racks))
        if [rack_value(game.edition, rack) for rack in event.racks].count(None) > 1:
            raise Odd(codebook.TWO_EMPTY_RACKS)
    return replace(game, ended=event.racks)


#: Applies one kind of event; the key says which (the type cannot: Any).
_Handler = Callable[[Game, Any, int], Game]
_HANDLERS: dict[type[Event], _Handler] = {
    MoveRecorded: _move,
    PointsEntered: _points,
    Passed: _pass,
    Exchanged: _exchange,
    WordWithdrawn: lambda game, event, seq: _turn(game, seq, "withdrawn", event.player),
    PenaltyGiven: _penalty,
    TilesPlaced: _tiles_placed,
    BoardCleared: _board_cleared,
    TopRecorded: _top,
    RackDrawn: _rack,
    SlipSubmitted: _slip,
    CellCorrected: lambda game, event, seq: _cell(game, event.round, event.player, event.points),
    ClockStarted: _clock_started,
    ClockPaused: _clock_paused,
    ClockReset: _clock_reset,
    GameEnded: _ended,
}
