"""Online play (P-50..52, WS-06..18): the decisions of a game whose server holds the bag.

The server draws a seed when the game starts and passes it in; the bag and every rack
are pure functions of it and the log (``rules.board.bag``), so replay and undo are exact. A
move is judged on confirm: the placement (``rules.board.placement``), then the tiles against the
player's rack, then every word formed against the list — all bad words at once (WS-31) —
and only then is it scored. A refused move records nothing: the player keeps the turn and
the tiles (WS-11). The list enters as ``contains`` (text → bool), never by import.
"""

from collections.abc import Sequence
from typing import TypeVar

from msgspec.structs import replace

from editions import Edition, codebook
from events import commands as c
from events.events import (
    Exchanged,
    GameEnded,
    GameStarted,
    Mode,
    MoveRecorded,
    Passed,
    PlacedTile,
    RackLeft,
    Recorded,
    TableEvent,
    WordLine,
)
from rules.board import bag
from rules.board.tiles import bag_letter, check_blanks
from rules.board.wordcheck import Contains, invalid_words
from rules.errors import GameError
from rules.table import permissions
from rules.table.state import Game, Online, State
from rules.table.steps import find, older

V = TypeVar("V")
MIN_MOVE_SECONDS = 60
MAX_MOVE_SECONDS = 7 * 86400
#: The times per move a phone offers besides none (the default): 2 and 10 minutes, an hour,
#: a day, 3 and 7 days. A game may wait for days; whoever lets the time run out passes.
MOVE_SECONDS_CHOICES = (120, 600, 3600, 86400, 3 * 86400, 7 * 86400)


def _refuse(message: str, code: str, **params: object) -> GameError:
    return GameError(message, code=code, **params)


def check_start(
    edition: Edition, move_seconds: int | None, seed: str, contains: Contains | None
) -> None:
    """Raise GameError unless an online game can start in ``edition``.

    Raises ValueError without a seed: the server must draw one (``secrets``) for every
    online start; ``rules`` never draws randomness itself.
    """
    if edition.layout is None:
        raise _refuse(f"{edition.name} has no board", codebook.NO_BOARD, edition=edition.code)
    if contains is None:
        raise _refuse(
            f"{edition.name} has no word list to judge online moves",
            codebook.NO_WORD_LIST,
            edition=edition.code,
        )
    if move_seconds is not None and not MIN_MOVE_SECONDS <= move_seconds <= MAX_MOVE_SECONDS:
        raise _refuse(
            f"{move_seconds} seconds a move; from {MIN_MOVE_SECONDS} to {MAX_MOVE_SECONDS}",
            codebook.MOVE_SECONDS_OUT_OF_RANGE,
            seconds=move_seconds,
            min=MIN_MOVE_SECONDS,
            max=MAX_MOVE_SECONDS,
        )
    if not seed:
        raise ValueError("an online game needs the server's seed: decide(..., seed=...)")


def new_game(game: Game, starter: int, seed: str) -> GameStarted:
    """The same players again with a new bag (a new seed from the server)."""
    assert game.online is not None
    if not seed:
        raise ValueError("an online game needs the server's seed: decide(..., seed=...)")
    return GameStarted(
        game.edition.code,
        game.mode,
        game.rules.code,
        game.players,
        starter,
        seed=seed,
        move_seconds=game.online.move_seconds,
        computers=game.online.computers if any(game.online.computers) else (),
    )


def mover(game: Game, player: int | None) -> int:
    """The player to move; another player's turn is refused (a seat plays only its own)."""
    chosen = game.to_move if player is None else player
    if not 0 <= chosen < len(game.players):
        raise _refuse(f"no player {chosen}", codebook.NO_SUCH_PLAYER, player=chosen)
    if chosen != game.to_move:
        raise _refuse(
            f"it is player {game.to_move}'s turn, not player {chosen}'s",
            codebook.NOT_TO_MOVE,
            player=chosen,
            to_move=game.to_move,
        )
    return chosen


def held(game: Game) -> Online:
    """The bag and racks of an online game."""
    assert game.online is not None, "an online game has its bag"
    return game.online


def play(game: Game, command: c.Play, contains: Contains | None) -> tuple[TableEvent, ...]:
    """A move from the player's rack, judged: placement, rack, every word, then the score."""
    player = mover(game, command.player)
    online = held(game)
    if contains is None:
        raise _refuse(
            "no word list to judge the move", codebook.NO_WORD_LIST, edition=game.edition.code
        )
    board = game.board
    assert board is not None  # an online game starts only in an edition with a board
    move = command.board
    laid = board.place(move.start, move.direction, move.letters)
    check_blanks(game.edition, (t for _, t in laid.tiles))
    rack = online.racks[player]
    short = bag.missing(rack, [bag_letter(t.notation) for _, t in laid.tiles])
    if short:
        raise _refuse(
            f"the rack holds no {bag.rack_notation(short)}",
            codebook.TILES_NOT_ON_RACK,
            tiles=bag.rack_notation(short),
        )
    result = board.score(laid)  # placement first: WS-07..09 and the codes of BRD-12..17
    after = board.lay(laid.tiles)
    edition = game.edition
    words = [after.word_at(w.start or "", w.direction or "") for w in result.words]
    bad = invalid_words(edition, words, contains)
    if bad:
        raise _refuse(
            f"not in the list: {', '.join(bad)}",
            codebook.WORDS_NOT_IN_LIST,
            words=", ".join(bad),
            count=len(bad),
        )
    moved = MoveRecorded(
        player,
        result.total,
        tuple(
            WordLine(w.word, w.points, w.formula, w.start or "", w.direction or "")
            for w in result.words
        ),
        result.bingo,
        tuple(PlacedTile(sq.name, t.notation) for sq, t in laid.tiles),
        move.direction,
    )
    if online.bag or len(laid.tiles) < len(rack):
        return (moved,)
    # WS-13: the bag is empty and the player laid their last tile: the game ends at once.
    racks = _set(online.racks, player, ())
    return moved, GameEnded(_racks_left(edition, racks))


def exchange(game: Game, command: c.Exchange) -> tuple[TableEvent, ...]:
    """An exchange of 1–7 named tiles from the rack, only with 7 in the bag (P-51)."""
    player = mover(game, command.player)
    online = held(game)
    edition = game.edition
    least = exchange_least(game, edition)
    if len(online.bag) < least:
        raise _refuse(
            f"{len(online.bag)} tiles in the bag; an exchange needs {least}",
            codebook.BAG_TOO_SMALL,
            bag=len(online.bag),
            min=least,
        )
    tiles = bag.parse(edition, command.tiles or "")
    if not 1 <= len(tiles) <= edition.rack_size:
        raise _refuse(
            f"an exchange of {len(tiles)} tiles; from 1 to {edition.rack_size}",
            codebook.EXCHANGE_COUNT,
            count=len(tiles),
            max=edition.rack_size,
        )
    short = bag.missing(online.racks[player], tiles)
    if short:
        raise _refuse(
            f"the rack holds no {bag.rack_notation(short)}",
            codebook.TILES_NOT_ON_RACK,
            tiles=bag.rack_notation(short),
        )
    return (Exchanged(player, tiles=bag.rack_notation(tiles)),)


def exchange_least(game: Game, edition: Edition) -> int:
    """The tiles the bag must hold for an exchange (P-51: a full rack's worth)."""
    return game.rules.exchange_min_bag or edition.rack_size


def pass_turn(game: Game, player: int, timed_out: bool = False) -> tuple[TableEvent, ...]:
    """A pass; the third pass in a row ends the game, whatever the player count (P-51)."""
    passed = Passed(player, timed_out=timed_out)
    limit = game.rules.pass_limit_for(len(game.players))
    if limit is None or game.pass_run + 1 < limit:
        return (passed,)
    return passed, end(game)


def end(game: Game) -> GameEnded:
    """The end with every rack as it stands: the one empty rack, if any, went out."""
    return GameEnded(_racks_left(game.edition, held(game).racks))


def _racks_left(edition: Edition, racks: Sequence[tuple[str, ...]]) -> tuple[RackLeft, ...]:
    return tuple(RackLeft(bag.typed(edition, r)) if r else RackLeft() for r in racks)


def _set(values: tuple[V, ...], index: int, value: V) -> tuple[V, ...]:
    return (*values[:index], value, *values[index + 1 :])


def finished(game: Game) -> bool:
    """Has the game reached its end by the rules (out with an empty bag, or the passes)?"""
    online = game.online
    if online is None:
        return False
    if not online.bag and any(not rack for rack in online.racks):
        return True
    limit = game.rules.pass_limit_for(len(game.players))
    return limit is not None and game.pass_run >= limit


def deadline(game: Game) -> int | None:
    """Server time (ms) when the player to move is passed; None without a time per move."""
    online = game.online
    if online is None or online.move_seconds is None or game.ended is not None:
        return None
    return online.turn_since + online.move_seconds * 1000


def time_out(state: State, turn: c.Turn, *, at: int) -> tuple[TableEvent, ...]:
    """The server's pass of a player whose time per move ran out, for the turn it names.

    Raises GameError: ``turn_taken`` / ``not_to_move`` / ``game_changed`` when the table
    moved on (another process passed first), ``not_due`` before the deadline,
    ``game_over``, ``not_online``, ``no_game``.
    """
    game = state.game
    if game is None:
        raise _refuse("start a game first", codebook.NO_GAME)
    if game.mode is not Mode.ONLINE:
        raise _refuse(
            "only an online game has a time per move", codebook.NOT_ONLINE, mode=game.mode.value
        )
    if game.ended is not None:
        raise _refuse("the game is over", codebook.GAME_OVER)
    player = permissions.check_reference(
        state, game, c.Pass(turn=turn), permissions.check_turn_taken
    )
    due = deadline(game)
    if due is None or at < due:
        raise _refuse("the time per move has not run out", codebook.NOT_DUE)
    assert player is not None
    return pass_turn(game, player, timed_out=True)


def undo_lines(state: State, line: Recorded) -> tuple[int, ...]:
    """The lines an undo strikes, newest first: the latest line, and with an end the rules
    made (out with an empty bag, three passes) the turn that made it too — a game left
    standing at its end by the rules would be over without being ended. Against the
    computer, its turns go with the person's turn before them: a computer's turn struck
    alone would be played again at once, the same way."""
    struck = _with_end(state, line)
    held = state.game.online if state.game is not None else None
    while held is not None and held.computer(_seat(struck[-1])) is not None:
        rest = _before(state, struck[-1])
        earlier = None if rest is None else permissions.latest_line(rest)
        if rest is None or earlier is None:
            break
        struck = (*struck, *_with_end(rest, earlier))
    return tuple(r.seq for r in struck)


def _with_end(state: State, line: Recorded) -> tuple[Recorded, ...]:
    """``line``, and the turn before it when it is an end the rules made."""
    step = find(state.steps, line.seq)
    if step is None or not isinstance(line.event, GameEnded):
        return (line,)
    game = step.kept  # an end's step keeps the game before it (``rules.table.reducer``)
    if game is None or not finished(game):
        return (line,)
    earlier = permissions.latest_line(replace(state, steps=older(step)))
    return (line,) if earlier is None else (line, earlier)


def _before(state: State, line: Recorded) -> State | None:
    """``state`` as its steps stood before ``line`` (for the lines before it)."""
    step = find(state.steps, line.seq)
    return None if step is None else replace(state, steps=older(step))


def _seat(line: Recorded) -> int:
    seat = permissions.line_seat(line)
    return -1 if seat is None else seat
