"""The decisions more than one mode makes: refusals, a move scored as a phone sends it, points,
a penalty, tiles placed without a score — the pieces each mode's decider
(``ModeRules.decide``) is made of.
"""

import editions
from editions import codebook
from editions.layout import Premium
from events import commands as c
from events.events import (
    BoardCleared,
    GameStarted,
    Mode,
    MoveRecorded,
    PenaltyGiven,
    PlacedTile,
    PointsEntered,
    Recorded,
    TableEvent,
    TilesPlaced,
    TypedLetter,
    WordLine,
)
from rules.board.board import Board
from rules.board.placement import Play
from rules.board.scoring import MoveScore, TypedTile, score_words
from rules.board.tiles import parse_tile
from rules.errors import GameError
from rules.table.rulesets import RuleSet
from rules.table.state import Game, State

MAX_POINTS = 2000  # SHC-12
MAX_NAME = 40  # characters: a name is shown in a narrow column on a phone
# The game clock's length a host may set: a minute (a quick game, a test) to three hours.
MIN_CLOCK_MINUTES = 1
MAX_CLOCK_MINUTES = 180
_PREMIUMS = frozenset(Premium)


class Refused(GameError):
    """A command the table cannot record as it stands."""

    code = codebook.REFUSED


def refuse(message: str, code: str, **params: object) -> Refused:
    """A refusal to raise."""
    return Refused(message, code=code, **params)


def not_in_mode(game: Game, command: c.TableCommand, why: str = "") -> Refused:
    """The refusal of a command another mode takes; ``why`` says so after its name."""
    return refuse(
        f"{type(command).__struct_config__.tag} {why or f'is not part of a {game.mode} game'}",
        codebook.NOT_IN_MODE,
        mode=game.mode.value,
    )


def not_online(game: Game) -> Refused:
    """The refusal of tiles laid or exchanged from a rack at a table that holds none."""
    return refuse(
        "tiles are laid or exchanged from a rack only in an online game",
        codebook.NOT_ONLINE,
        mode=game.mode.value,
    )


def started(
    mode: Mode,
    command: c.StartGame,
    edition: editions.Edition,
    rules: RuleSet,
    players: tuple[str | None, ...],
) -> GameStarted:
    """The start of a ``mode`` game whose server holds no bag: no time per move, no computer."""
    if command.move_seconds is not None:
        raise refuse(
            "only an online game has a time per move", codebook.NOT_ONLINE, mode=mode.value
        )
    if any(command.computers):
        raise refuse(
            "the computer plays only in an online game", codebook.NOT_ONLINE, mode=mode.value
        )
    minutes = clock_minutes(mode, command.clock_minutes, rules)
    return GameStarted(
        edition.code, mode, rules.code, players, command.starter, clock_minutes=minutes
    )


def clock_minutes(mode: Mode, asked: int | None, rules: RuleSet) -> int:
    """The game clock's minutes per player a start asks for: ``None`` the rule set's own (none
    for house rules), 0 none; only a classic sheet has one, from 1 minute to 3 hours."""
    minutes = (rules.clock_minutes or 0) if asked is None else asked
    if minutes and mode is not Mode.CLASSIC:
        raise refuse("only a classic sheet has a game clock", codebook.NOT_IN_MODE, mode=mode.value)
    if minutes and not MIN_CLOCK_MINUTES <= minutes <= MAX_CLOCK_MINUTES:
        raise refuse(
            f"{minutes} minutes on the game clock; 0 (none) or {MIN_CLOCK_MINUTES} to"
            f" {MAX_CLOCK_MINUTES}",
            codebook.CLOCK_MINUTES_OUT_OF_RANGE,
            minutes=minutes,
            min=MIN_CLOCK_MINUTES,
            max=MAX_CLOCK_MINUTES,
        )
    return minutes


def name(text: str) -> str:
    """A player's name as typed, trimmed; refused empty (``name_missing``) or too long."""
    named = text.strip()
    if not named:
        raise refuse("a name is needed", codebook.NAME_MISSING)
    if len(named) > MAX_NAME:
        raise refuse(
            f"a name of {len(named)} characters; at most {MAX_NAME}",
            codebook.NAME_TOO_LONG,
            length=len(named),
            max=MAX_NAME,
        )
    return named


def again(game: Game, starter: int, seed: str) -> GameStarted:
    """The same players again, ``starter`` to begin, on a game clock of the same length; no
    seed needed."""
    minutes = game.game_clock.minutes if game.game_clock is not None else 0
    return GameStarted(
        game.edition.code, game.mode, game.rules.code, game.players, starter, clock_minutes=minutes
    )


def strike(state: State, line: Recorded) -> tuple[int, ...]:
    """The lines an undo strikes where every line stands alone: ``line`` only."""
    return (line.seq,)


def player(game: Game, player: int | None) -> int:
    """The player a command names, or the player to move; refused for a seat not in play."""
    chosen = game.to_move if player is None else player
    if not 0 <= chosen < len(game.players):
        raise refuse(f"no player {chosen}", codebook.NO_SUCH_PLAYER, player=chosen)
    return chosen


def points(points: int) -> int:
    """Points typed by hand, 0–2000; refused otherwise."""
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


class Scored:
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


def move(game: Game, command: c.RecordMove) -> tuple[TableEvent, ...]:
    """A move computed from the board or typed words, for the player it names."""
    chosen = player(game, command.player)
    scored = Scored(game, command.board, command.typed)
    return (
        MoveRecorded(
            chosen,
            scored.result.total,
            scored.words,
            scored.result.bingo,
            scored.placed,
            scored.direction,
            scored.typed,
        ),
    )


def enter_points(game: Game, command: c.EnterPoints) -> tuple[TableEvent, ...]:
    """Points typed by hand for a player's turn."""
    return (PointsEntered(player(game, command.player), points(command.points)),)


def penalty(game: Game, command: c.GivePenalty) -> tuple[TableEvent, ...]:
    """Points taken from any player without using a turn."""
    if not 0 < command.points <= MAX_POINTS:
        raise refuse(
            f"a penalty of {command.points}; from 1 to {MAX_POINTS}",
            codebook.POINTS_OUT_OF_RANGE,
            points=command.points,
            max=MAX_POINTS,
        )
    return (PenaltyGiven(player(game, command.player), command.points),)


def place_tiles(
    game: Game, command: c.PlaceTiles, player: int | None = None
) -> tuple[TableEvent, ...]:
    """Tiles laid on the board without a score by seat ``player`` (None: the host)."""
    if game.board is None:
        raise refuse("this edition has no board", codebook.NO_BOARD, edition=game.edition.code)
    play = game.board.place(command.board.start, command.board.direction, command.board.letters)
    game.board.validate(play)
    placed = tuple(PlacedTile(sq.name, t.notation) for sq, t in play.tiles)
    return (TilesPlaced(placed, player),)


def clear_board(game: Game, command: c.ClearBoard) -> tuple[TableEvent, ...]:
    """The tiles placed without a score taken off the board."""
    if not game.unscored:
        raise refuse("no tiles were placed without a score", codebook.NOTHING_TO_CLEAR)
    return (BoardCleared(),)
