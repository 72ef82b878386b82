"""The sheet as every mode folds it: turn lines, penalties, tiles on the board, the round clock
and the end — the pieces each mode's fold (``ModeRules.evolve``) is made of.

A piece never lets odd history raise out of the fold: it raises ``Odd`` (or a GameError),
which the reducer turns into a warning in the state.
"""

import sys
from functools import lru_cache
from typing import TypeVar

from msgspec.structs import replace

from editions import codebook
from events.events import (
    BoardCleared,
    ClockPaused,
    ClockReset,
    ClockStarted,
    GameEnded,
    GameStarted,
    MoveRecorded,
    PenaltyGiven,
    PlacedTile,
    TilesPlaced,
    TopRecorded,
    TypedLetter,
    WordLine,
)
from rules.board.squares import Square
from rules.board.tiles import bag_letter, parse_tile
from rules.table.history import History
from rules.table.settlement import rack_value
from rules.table.state import Clock, Game, Laying, Line, LineKind, Notice
from rules.table.tracking import line_written, taken

_square = lru_cache(maxsize=1024)(Square.parse)  # moves name the same squares again
V = TypeVar("V")


class Odd(Exception):
    """History the reducer cannot apply; it becomes a warning, never an error."""

    def __init__(self, code: str, **params: int | str) -> None:
        super().__init__(code)
        self.notice = Notice(code, params)


def as_started(game: Game, event: GameStarted, at: int) -> Game:
    """A game that holds nothing more than every game does when it starts."""
    return game


def no_turn_clock(before: Game, after: Game, at: int) -> Game:
    """A game without a time per move: a new turn changes nothing more."""
    return after


def put(values: tuple[V, ...], index: int, value: V) -> tuple[V, ...]:
    """``values`` with the item at ``index`` replaced by ``value``."""
    changed = list(values)  # quicker than joining slices for the few items of a table
    changed[index] = value
    return tuple(changed)


def seat(game: Game, player: int) -> int:
    """``player``, a seat of ``game``; odd otherwise."""
    if not 0 <= player < len(game.players):
        raise Odd(codebook.NO_SUCH_PLAYER, player=player)
    return player


def check_open(game: Game) -> None:
    """Odd unless the game is still being played."""
    if game.ended is not None:
        raise Odd(codebook.GAME_OVER)


def elsewhere(game: Game, code: str) -> Game:
    """An event of another mode's sheet (``code`` says whose): odd; after the end, the end is."""
    check_open(game)
    raise Odd(code)


def turn(
    game: Game,
    seq: int,
    kind: LineKind,
    player: int,
    points: int = 0,
    words: tuple[WordLine, ...] = (),
    bingo: int = 0,
    tiles: tuple[str, ...] = (),
    from_board: bool = False,
    squares: tuple[str, ...] = (),
    timed_out: bool = False,
) -> Game:
    """A turn line: the total, the next player, the run of scoreless turns."""
    check_open(game)
    at = seat(game, player)
    total = game.totals[at] + points
    counted = kind in game.rules.pass_kinds  # any other turn breaks the run
    row = game.turns[at]
    if squares or words:
        words, squares = _shared(words), tuple(map(sys.intern, squares))
    line = Line(
        seq, kind, at, points, total, row, words, bingo, tiles, from_board, squares,
        timed_out=timed_out,
    )  # fmt: skip
    return replace(
        game,
        lines=game.lines.plus(line),
        tally=line_written(game.tally, game.edition, line),
        totals=put(game.totals, at, total),
        to_move=(at + 1) % len(game.players),
        pass_run=game.pass_run + 1 if counted else 0,
        turns=put(game.turns, at, row + 1),
    )


def _shared(words: tuple[WordLine, ...]) -> tuple[WordLine, ...]:
    """A move's words with their squares and directions the strings every line shares (a
    line keeps them for as long as the table is held): as decoded, each was a string of its
    own, about 100 B a word and 50 a new tile."""
    return tuple(
        replace(word, start=sys.intern(word.start), direction=sys.intern(word.direction))
        for word in words
    )


def taken_back(game: Game, line: Line) -> Game:
    """``game`` without ``line``, its newest line, a move (a challenge withdrew it): what
    ``turn`` and ``placed`` did for it undone, so that the game is the one before the move
    with every later event that wrote no line still applied."""
    board = game.board
    if line.squares:
        if board is None:
            raise Odd(codebook.NO_BOARD)
        board = board.lay((_square(square), None) for square in line.squares)
    kept = History(game.lines[:-1])
    return replace(
        game,
        lines=kept,
        board=board,
        tally=taken(game.tally, game.edition, line.tiles, -1),
        totals=put(game.totals, line.player, game.totals[line.player] - line.points),
        to_move=line.player,
        pass_run=_run(game, kept),
        turns=put(game.turns, line.player, line.round),
    )


def _run(game: Game, lines: History[Line]) -> int:
    """The counted scoreless turns that end ``lines``, as ``turn`` counted them: penalties
    and bonuses neither count nor break the run."""
    run = 0
    for line in reversed(lines):
        if line.kind in ("penalty", "bonus"):
            continue
        if line.kind not in game.rules.pass_kinds:
            break
        run += 1
    return run


def placed(game: Game, tiles: tuple[PlacedTile, ...], unscored: bool = False) -> Game:
    """Lay recorded tiles; a taken square is odd, and then nothing is laid."""
    if not tiles:
        return game
    if game.board is None:
        raise Odd(codebook.NO_BOARD)
    laid = [(_square(p.square), parse_tile(game.edition, p.tile)) for p in tiles]
    for square, _ in laid:
        if game.board[square] is not None:
            raise Odd(codebook.SQUARE_TAKEN, square=square.name)
    squares = game.unscored | {p.square for p in tiles} if unscored else game.unscored
    return replace(game, board=game.board.lay(laid), unscored=squares)


def _typed_tiles(game: Game, typed: tuple[tuple[TypedLetter, ...], ...]) -> tuple[str, ...]:
    """The tiles a typed move took: the new tiles of the word with the most (BNG-04, OQ-57).

    Read as tiles, so a letter the set lacks (a locked blank) or an accent counts as the
    scoring counted it.
    """
    words = [[parse_tile(game.edition, t.tile) for t in word if not t.old] for word in typed]
    return tuple("?" if t.blank else t.letter for t in max(words, key=len, default=[]))


def move_tiles(game: Game, event: MoveRecorded | TopRecorded) -> tuple[str, ...]:
    """The bag letters a move (or a top) took: its tiles laid, or those of its typed words."""
    return tuple(bag_letter(p.tile) for p in event.placed) or _typed_tiles(game, event.typed)


def penalty(game: Game, event: PenaltyGiven, seq: int, row: int) -> Game:
    """A penalty (or, negative, a bonus) line beside the sheet's row ``row``."""
    check_open(game)
    at = seat(game, event.player)
    total = game.totals[at] - event.points
    kind: LineKind = "penalty" if event.points >= 0 else "bonus"
    line = Line(seq, kind, at, -event.points, total, row, overtime=event.overtime)
    return replace(game, lines=game.lines.plus(line), totals=put(game.totals, at, total))


def tiles_placed(game: Game, event: TilesPlaced) -> Game:
    """Tiles laid without a score, until the board is cleared; who laid them is kept, so
    every phone says it and the clearing says whose tiles it takes."""
    laid = placed(game, event.placed, unscored=True)
    if laid is game:
        return game
    laying = Laying(event.player, tuple(p.square for p in event.placed))
    return replace(laid, laid=(*game.laid, laying))


def board_cleared(game: Game, event: BoardCleared) -> Game:
    """The tiles laid without a score taken off the board."""
    if game.board is None:
        raise Odd(codebook.NO_BOARD)
    lifted = [(_square(square), None) for square in game.unscored]
    return replace(game, board=game.board.lay(lifted), unscored=frozenset(), laid=())


def clock_started(game: Game, event: ClockStarted) -> Game:
    """The round clock runs; a game without one finds that odd."""
    if game.clock is None:
        raise Odd(codebook.NO_CLOCK)
    return replace(
        game, clock=replace(game.clock, remaining=event.remaining, running_since=event.at)
    )


def clock_paused(game: Game, event: ClockPaused) -> Game:
    """The round clock stops with what it had left."""
    clock = game.clock
    if clock is None or clock.running_since is None:
        raise Odd(codebook.CLOCK_NOT_RUNNING)
    left = max(0, clock.remaining - (event.at - clock.running_since))
    return replace(game, clock=Clock(clock.seconds, left))


def clock_reset(game: Game, event: ClockReset) -> Game:
    """The round clock set back, not running."""
    if game.clock is None:
        raise Odd(codebook.NO_CLOCK)
    return replace(game, clock=Clock(event.seconds, event.seconds * 1000))


def ended(game: Game, event: GameEnded, settled: bool) -> Game:
    """The end of the game; with a rack per player (``settled``) the racks must add up."""
    check_open(game)
    if settled and event.racks:
        if len(event.racks) != len(game.players):
            raise Odd(codebook.RACK_COUNT, count=len(event.racks))
        if [rack_value(game.edition, rack) for rack in event.racks].count(None) > 1:
            raise Odd(codebook.TWO_EMPTY_RACKS)
    return replace(game, ended=event.racks)
