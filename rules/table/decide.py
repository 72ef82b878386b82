"""The decider: state + command → the events to record, or a refusal with a stable code.

Pure: the server passes in its clock (``at``, ms) for the round clock, and for online play
the seed it drew for a new game (``seed``) and the edition's word list (``contains``, text →
bool); nothing else from outside enters.
"""

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

import editions
from editions import codebook
from editions.layout import Premium
from events import commands as c
from events.events import (
    BoardCleared,
    CellCorrected,
    ClockPaused,
    ClockReset,
    ClockStarted,
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
    RackLeft,
    TableEvent,
    TilesPlaced,
    TopRecorded,
    TypedLetter,
    WordLine,
    WordWithdrawn,
    WritersSet,
)
from rules.board.board import Board
from rules.board.placement import Play
from rules.board.scoring import MoveScore, TypedTile, score_words
from rules.board.tiles import parse_tile
from rules.board.wordcheck import Contains
from rules.classic.settlement import BLANK, rack_tiles
from rules.errors import GameError
from rules.movegen.moves import WordGraph
from rules.online import opponent as computer
from rules.online import play as online
from rules.room import rounds as room
from rules.table import permissions, rulesets, seating
from rules.table.permissions import Actor
from rules.table.state import Game, State

MAX_POINTS = 2000  # SHC-12
_PREMIUMS = frozenset(Premium)
MAX_PLAYERS = 4
MAX_NAME = 40  # characters: a name is shown in a narrow column on a phone


class Refused(GameError):
    """A command the table cannot record as it stands."""

    code = codebook.REFUSED


def refuse(message: str, code: str, **params: object) -> Refused:
    """A refusal to raise."""
    return Refused(message, code=code, **params)


def decide(
    state: State,
    command: c.TableCommand,
    *,
    at: int = 0,
    actor: Actor | None = None,
    seed: str = "",
    contains: Contains | None = None,
    graph: WordGraph | None = None,
) -> tuple[TableEvent, ...]:
    """The events ``command`` records on ``state``; raises GameError with a code if refused.

    With an ``actor`` (a device at the table) it is first checked that the actor may ask it;
    without one (a game record, a Python shell) everything is allowed. An online game needs
    ``seed`` (fresh from ``secrets``) to start or start again — ValueError without one — and
    ``contains``, the edition's word list, to start and to judge a move. A duplicate room
    (``rules.room.rounds``) needs ``seed`` for every draw, and ``graph`` (the list as the move
    generator walks it) to find a top; its slips are judged by ``contains``.
    """
    if actor is not None:
        permissions.check(state, actor, command)
    if isinstance(command, c.SetWriters | c.AdmitDevice | c.RemoveDevice):
        return (seating.decide(state, command),)
    if isinstance(command, c.StartGame):
        started = _start(command, seed, contains)
        if command.writers == state.seating.writers:
            return (started,)
        return (started, WritersSet(command.writers))
    game = state.game
    if game is None:
        raise refuse("start a game first", codebook.NO_GAME)
    meant = permissions.check_reference(state, game, command)
    if isinstance(command, c.NewGame):
        starter = (game.starter + 1) % len(game.players)
        if game.mode is Mode.ONLINE:
            return (online.new_game(game, starter, seed),)
        return (GameStarted(game.edition.code, game.mode, game.rules.code, game.players, starter),)
    if isinstance(command, c.Undo):
        line = permissions.latest_line(state)
        if line is None:
            raise refuse("there is no line to undo", codebook.NOTHING_TO_UNDO)
        if game.mode is Mode.ONLINE:
            return tuple(LineUndone(seq) for seq in online.undo_lines(state, line))
        return (LineUndone(line.seq),)
    if game.ended is not None:
        raise refuse("the game is over: undo the end or start a new game", codebook.GAME_OVER)
    if meant is not None:  # the turn names its player
        command = replace(command, player=meant)
    if game.mode is Mode.ONLINE:
        return online.decide(game, command, contains)
    if isinstance(command, c.Play) or (isinstance(command, c.Exchange) and command.tiles):
        raise refuse(
            "tiles are laid or exchanged from a rack only in an online game",
            codebook.NOT_ONLINE,
            mode=game.mode.value,
        )
    if isinstance(command, room.COMMANDS):
        return room.decide(game, command, at=at, seed=seed, contains=contains, graph=graph)
    handler = _CLASSIC if game.mode is Mode.CLASSIC else _DUPLICATE
    try:
        decide_one = handler[type(command)]
    except KeyError:
        raise refuse(
            f"{type(command).__struct_config__.tag} is not part of a {game.mode} game",
            codebook.NOT_IN_MODE,
            mode=game.mode.value,
        ) from None
    return room.judged(game, decide_one(game, command, at), contains)  # a typed top's slips


def judges_words(state: State, command: c.TableCommand) -> bool:
    """Whether ``decide`` may need the word list (``contains``) for ``command``: to start a
    game (an online one needs a list), and in an online game or a duplicate room. A classic
    sheet never judges a word, so a server need not look the list up for its commands."""
    game = state.game
    return isinstance(command, c.StartGame) or (game is not None and game.mode is not Mode.CLASSIC)


def _start(command: c.StartGame, seed: str, contains: Contains | None) -> GameStarted:
    edition = editions.get(command.edition)
    mode = Mode(command.mode)  # the codes are read once, here and when the game starts
    rules = rulesets.get(command.rules)
    count = len(command.players)
    if mode is Mode.DUPLICATE and not rules.duplicate:
        rules = rulesets.DUPLICATE
    if mode is Mode.ONLINE and rules is rulesets.HOUSE:
        rules = rulesets.ONLINE
    if (rules.duplicate, rules.online) != (mode is Mode.DUPLICATE, mode is Mode.ONLINE):
        raise refuse(
            f"{rules.name} are not for {mode} games",
            codebook.RULES_NOT_FOR_MODE,
            rules=rules.code,
            mode=mode.value,
        )
    least = 1 if mode is Mode.DUPLICATE else 2  # SHC-03; DUP-03: one against the tops
    if not least <= count <= MAX_PLAYERS:
        raise refuse(
            f"{count} players; a {mode} game has {least} to {MAX_PLAYERS}",
            codebook.PLAYER_COUNT,
            count=count,
            min=least,
            max=MAX_PLAYERS,
        )
    if count > rules.max_players:
        raise refuse(
            f"{rules.name} are for {rules.max_players} players",
            codebook.RULES_PLAYER_COUNT,
            rules=rules.code,
            max=rules.max_players,
        )
    if not 0 <= command.starter < count:
        raise refuse(
            f"no player {command.starter} to start", codebook.NO_SUCH_PLAYER, player=command.starter
        )
    players = tuple((name or "").strip() or None for name in command.players)
    for name in players:
        if name is not None and len(name) > MAX_NAME:
            raise refuse(
                f"a name of {len(name)} characters; at most {MAX_NAME}",
                codebook.NAME_TOO_LONG,
                length=len(name),
                max=MAX_NAME,
            )
    if mode is not Mode.ONLINE:
        if command.move_seconds is not None:
            raise refuse(
                "only an online game has a time per move", codebook.NOT_ONLINE, mode=mode.value
            )
        if any(command.computers):
            raise refuse(
                "the computer plays only in an online game", codebook.NOT_ONLINE, mode=mode.value
            )
        return GameStarted(edition.code, mode, rules.code, players, command.starter)
    computer.check(command.computers, count)
    online.check_start(edition, command.move_seconds, seed, contains)
    return GameStarted(
        edition.code,
        mode,
        rules.code,
        players,
        command.starter,
        seed=seed,
        move_seconds=command.move_seconds,
        computers=command.computers if any(command.computers) else (),
    )


def _player(game: Game, player: int | None) -> int:
    chosen = game.to_move if player is None else player
    if not 0 <= chosen < len(game.players):
        raise refuse(f"no player {chosen}", codebook.NO_SUCH_PLAYER, player=chosen)
    return chosen


def _points(points: int) -> int:
    if not 0 <= points <= MAX_POINTS:
        raise refuse(
            f"{points} points; from 0 to {MAX_POINTS}",
            codebook.POINTS_OUT_OF_RANGE,
            points=points,
            max=MAX_POINTS,
        )
    return points


def score_move(
    where: Board | editions.Edition,
    on_board: c.BoardMove | None,
    typed: tuple[tuple[c.TypedLetter, ...], ...],
) -> tuple[MoveScore, Play | None]:
    """Score a move as a phone sends it — laid on the board ``where``, or typed as words in
    its edition (``where`` an edition: one without a board, or no board at hand) — and the
    play it lays (None for typed words). Raises GameError with the refusal's code."""
    if (on_board is None) == (not typed):
        raise refuse("a move comes from the board or as typed words", codebook.NO_MOVE)
    edition = where.edition if isinstance(where, Board) else where
    if on_board is None:
        words = [[_typed_tile(edition, t) for t in word] for word in typed]
        return score_words(edition, words), None
    if not isinstance(where, Board):
        raise refuse(f"{edition.code} has no board", codebook.NO_BOARD, edition=edition.code)
    play = where.place(on_board.start, on_board.direction, on_board.letters)
    return where.score(play), play


def _typed_tile(edition: editions.Edition, letter: c.TypedLetter) -> TypedTile:
    if letter.premium is not None and letter.premium not in _PREMIUMS:
        raise refuse(
            f"{letter.premium!r} is not a premium", codebook.BAD_PREMIUM, text=letter.premium
        )
    premium = Premium(letter.premium) if letter.premium else None
    return TypedTile(parse_tile(edition, letter.tile), premium, letter.old)


class _Scored:
    """A computed move: its score and what to record of it."""

    def __init__(
        self, game: Game, board: c.BoardMove | None, typed: tuple[tuple[c.TypedLetter, ...], ...]
    ) -> None:
        result, play = score_move(game.board or game.edition, board, typed)
        if result.refusal:
            raise refuse(
                "more new tiles than a rack holds: mark the tiles already on the board",
                result.refusal,
                count=result.new_tiles,
                rack_size=game.edition.rack_size,
            )
        self.result = result
        self.placed = tuple(PlacedTile(sq.name, t.notation) for sq, t in play.tiles) if play else ()
        self.direction = board.direction if board else "across"
        self.typed = tuple(tuple(TypedLetter(t.tile, t.premium, t.old) for t in w) for w in typed)
        self.words = tuple(
            WordLine(w.word, w.points, w.formula, w.start or "", w.direction or "")
            for w in result.words
        )


def _move(game: Game, command: c.RecordMove, at: int) -> tuple[TableEvent, ...]:
    player = _player(game, command.player)
    scored = _Scored(game, command.board, command.typed)
    return (
        MoveRecorded(
            player,
            scored.result.total,
            scored.words,
            scored.result.bingo,
            scored.placed,
            scored.direction,
            scored.typed,
        ),
    )


def _first_empty(game: Game, player: int | None) -> int:
    """DUP-08: a score without a player goes to the first empty cell of the current round."""
    if player is not None:
        return player
    empty = [p for p, score in enumerate(game.rounds[-1].scores) if score is None]
    if not empty:
        raise refuse("every player has a score this round", codebook.ROUND_FULL)
    return empty[0]


def _duplicate_move(game: Game, command: c.RecordMove, at: int) -> tuple[TableEvent, ...]:
    player = _first_empty(game, command.player)
    return _move(game, c.RecordMove(command.board, command.typed, player), at)


def _duplicate_points(game: Game, command: c.EnterPoints, at: int) -> tuple[TableEvent, ...]:
    player = _first_empty(game, command.player)
    return _enter_points(game, c.EnterPoints(command.points, player), at)


def _enter_points(game: Game, command: c.EnterPoints, at: int) -> tuple[TableEvent, ...]:
    return (PointsEntered(_player(game, command.player), _points(command.points)),)


def _penalty(game: Game, command: c.GivePenalty, at: int) -> tuple[TableEvent, ...]:
    if not 0 < command.points <= MAX_POINTS:
        raise refuse(
            f"a penalty of {command.points}; from 1 to {MAX_POINTS}",
            codebook.POINTS_OUT_OF_RANGE,
            points=command.points,
            max=MAX_POINTS,
        )
    return (PenaltyGiven(_player(game, command.player), command.points),)


def _place_tiles(game: Game, command: c.PlaceTiles, at: int) -> tuple[TableEvent, ...]:
    if game.board is None:
        raise refuse("this edition has no board", codebook.NO_BOARD, edition=game.edition.code)
    play = game.board.place(command.board.start, command.board.direction, command.board.letters)
    game.board.validate(play)
    return (TilesPlaced(tuple(PlacedTile(sq.name, t.notation) for sq, t in play.tiles)),)


def _clear_board(game: Game, command: c.ClearBoard, at: int) -> tuple[TableEvent, ...]:
    if not game.unscored:
        raise refuse("no tiles were placed without a score", codebook.NOTHING_TO_CLEAR)
    return (BoardCleared(),)


def _top(game: Game, command: c.RecordTop, at: int) -> tuple[TableEvent, ...]:
    if command.points is not None:
        if command.board is not None or command.typed:
            raise refuse("a top is a move or points, not both", codebook.NO_MOVE)
        return (TopRecorded(_points(command.points)),)
    scored = _Scored(game, command.board, command.typed)
    return (
        TopRecorded(
            scored.result.total, scored.words, scored.placed, scored.direction, scored.typed
        ),
    )


def _cell(game: Game, command: c.CorrectCell, at: int) -> tuple[TableEvent, ...]:
    if not 0 <= command.round < len(game.rounds):
        raise refuse(f"no round {command.round + 1}", codebook.NO_SUCH_ROUND, round=command.round)
    player = None if command.player is None else _player(game, command.player)
    points = None if command.points is None else _points(command.points)
    return (CellCorrected(command.round, player, points),)


def _start_clock(game: Game, command: c.StartClock, at: int) -> tuple[TableEvent, ...]:
    clock = game.clock
    assert clock is not None
    if clock.running_since is not None:
        raise refuse("the clock is running", codebook.CLOCK_RUNNING)
    remaining = clock.remaining or clock.seconds * 1000  # run out: start a new count
    return (ClockStarted(at, remaining),)


def _pause_clock(game: Game, command: c.PauseClock, at: int) -> tuple[TableEvent, ...]:
    if game.clock is None or game.clock.running_since is None:
        raise refuse("the clock is not running", codebook.CLOCK_NOT_RUNNING)
    return (ClockPaused(at),)


def _reset_clock(game: Game, command: c.ResetClock, at: int) -> tuple[TableEvent, ...]:
    return (ClockReset(command.minutes * 60),)


def _end(game: Game, command: c.EndGame, at: int) -> tuple[TableEvent, ...]:
    if game.mode is Mode.DUPLICATE:  # DUP-14: nothing to settle
        return (GameEnded(),)
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
    rules = game.rules
    if empty and rules.pass_limit_reached(game.pass_run, len(game.players)) is not None:
        raise refuse(
            "after a run of passes nobody went out: fill in every rack",
            codebook.RACK_NEEDED_AFTER_PASSES,
            player=empty[0],
        )
    for player, rack in enumerate(racks):
        _check_rack(edition, player, rack)
    return (GameEnded(tuple(RackLeft(r.letters, r.points) for r in racks)),)


def _check_rack(edition: editions.Edition, player: int, rack: c.RackLeft) -> None:
    if rack.points is not None:
        if rack.letters:
            raise refuse(
                "a rack is letters or points, not both",
                codebook.RACK_LETTERS_AND_POINTS,
                player=player,
            )
        _points(rack.points)
        return
    tiles = rack_tiles(edition, rack.letters or "")
    if len(tiles) > edition.rack_size:
        raise refuse(
            f"{len(tiles)} tiles on a rack of {edition.rack_size}",
            codebook.TOO_MANY_LETTERS,
            player=player,
            count=len(tiles),
            max=edition.rack_size,
        )
    blanks = tiles.count(BLANK)
    if blanks > edition.blanks:
        raise refuse(
            f"{blanks} blanks; the set has {edition.blanks}",
            codebook.TOO_MANY_BLANKS,
            player=player,
            count=blanks,
            max=edition.blanks,
        )


#: Decides one kind of command; the table it is in says which (the type cannot: Any).
_Decider = Callable[[Game, Any, int], tuple[TableEvent, ...]]


def _turn(event: type[Passed | Exchanged | WordWithdrawn]) -> _Decider:
    return lambda game, command, at: (event(_player(game, command.player)),)


_SHARED: dict[type[c.TableCommand], _Decider] = {
    c.GivePenalty: _penalty,
    c.PlaceTiles: _place_tiles,
    c.ClearBoard: _clear_board,
    c.EndGame: _end,
}
_CLASSIC: dict[type[c.TableCommand], _Decider] = {
    **_SHARED,
    c.RecordMove: _move,
    c.EnterPoints: _enter_points,
    c.Pass: _turn(Passed),
    c.Exchange: _turn(Exchanged),
    c.WithdrawWord: _turn(WordWithdrawn),
}
_DUPLICATE: dict[type[c.TableCommand], _Decider] = {
    **_SHARED,
    c.RecordMove: _duplicate_move,
    c.EnterPoints: _duplicate_points,
    c.RecordTop: _top,
    c.CorrectCell: _cell,
    c.StartClock: _start_clock,
    c.PauseClock: _pause_clock,
    c.ResetClock: _reset_clock,
}
