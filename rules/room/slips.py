"""A duplicate room's slips: a player's word on the board, and its judgement at the close.

A slip is what a player hands in on paper at a duplicate table: the whole word, where it
starts and which way it reads. The phone sends it before the round clock runs out; the
decider checks at once that it can be laid (placement, the rack's tiles) so the player can
mend it, but it tells nothing of the word list until the round closes — then every slip
is judged against the table's list and scored on the board, and the rule set's
``RoomRules`` gives the points of an invalid, a late and a missing slip (WS-30: no word
is told before it counts).

A letter typed in lower case is a blank; a letter the rack holds too few of is a blank
when the rack has one, put where the move scores most. A word whose new tiles have more
letters in lower case than the rack has blanks was typed so by a keyboard that gave no
capitals ("plank", "Plank"), not as blanks the rack cannot have: its letters are read as
capitals, and a letter the rack lacks is still its blank.
"""

import itertools
from collections import Counter
from collections.abc import Sequence

from msgspec.structs import replace

from editions import codebook
from events.events import SlipScore
from rules.board.board import Board
from rules.board.placement import Play
from rules.board.scoring import MoveScore
from rules.board.squares import SIZE, Direction, Square
from rules.board.tiles import Tile, bag_letter, check_blanks, parse_tiles
from rules.board.wordcheck import Contains, invalid_words
from rules.errors import GameError, IllegalPlacement
from rules.table.rulesets import RoomRules
from rules.table.state import Game, Round, Slip

BLANK = "?"


def _refuse(message: str, code: str, **params: object) -> GameError:
    return GameError(message, code=code, **params)


def lay(board: Board, rack: Sequence[str], word: str, start: str, direction: str) -> Play:
    """The new tiles of ``word`` (row notation) written from ``start`` reading
    ``direction`` on ``board``, from ``rack`` (bag letters, ``?`` a blank); validated.

    Raises GameError: ``bad_tile``, ``bad_square``, ``bad_direction``, ``off_board``,
    ``slip_mismatch`` (a letter that is not the board's tile on its square),
    ``not_whole_word`` (tiles before or after it make the word longer), ``no_tiles``,
    ``tiles_not_on_rack``, and the placement codes (``not_connected`` …).

    >>> import editions
    >>> empty = Board.empty(editions.get("nl"))
    >>> [(s.name, t.notation) for s, t in lay(empty, "PLANK??", "PLANk", "H8", "down").tiles]
    [('H8', 'P'), ('I8', 'L'), ('J8', 'A'), ('K8', 'N'), ('L8', 'k')]
    >>> [t.notation for _, t in lay(empty, "PLAN?ST", "plank", "H8", "down").tiles]
    ['P', 'L', 'A', 'N', 'k']
    """
    way = Direction.parse(direction)
    first = Square.parse(start)
    parsed = parse_tiles(board.edition, word)
    tiles = [tile for tile in parsed if tile is not None]
    if not tiles or len(tiles) != len(parsed):
        raise _refuse(f"{word!r} is not a word of tiles", codebook.BAD_TILE, text=word)
    dr, dc = (0, 1) if way == Direction.ACROSS else (1, 0)
    before = Square(first.row - dr, first.col - dc)
    if before.row >= 0 and before.col >= 0 and board[before] is not None:
        raise _refuse(
            f"{word} from {first.name} continues a word before it",
            codebook.NOT_WHOLE_WORD,
            square=before.name,
        )
    laid: list[tuple[Square, Tile]] = []
    row, col = first
    for tile in tiles:
        if row >= SIZE or col >= SIZE:
            raise IllegalPlacement(
                f"{word!r} from {first.name} {way} runs past the board's edge",
                code=codebook.OFF_BOARD,
                square=first.name,
            )
        square = Square(row, col)
        there = board[square]
        if there is None:
            laid.append((square, tile))
        elif there.letter != tile.letter:
            raise _refuse(
                f"{square.name} holds {there.text}, not {tile.text}",
                codebook.SLIP_MISMATCH,
                square=square.name,
                letter=there.text,
            )
        row, col = row + dr, col + dc
    if row < SIZE and col < SIZE and board[Square(row, col)] is not None:
        raise _refuse(
            f"{word} from {first.name} runs on into the tiles after it",
            codebook.NOT_WHOLE_WORD,
            square=Square(row, col).name,
        )
    if not laid:
        raise IllegalPlacement("a move needs at least one new tile", code=codebook.NO_TILES)
    if sum(1 for _, t in laid if t.blank) > Counter(rack)[BLANK]:
        faces = board.edition.faces
        laid = [(sq, Tile(t.letter, blank=t.letter not in faces)) for sq, t in laid]
    play = _best_blanks(board, rack, laid, way)
    board.validate(play)
    check_blanks(board.edition, (t for _, t in play.tiles))
    return play


def _best_blanks(
    board: Board, rack: Sequence[str], laid: list[tuple[Square, Tile]], way: Direction
) -> Play:
    """The laid tiles from ``rack``: a letter short on the rack becomes one of its blanks,
    on whichever of that letter's squares scores most (the first of equal scores)."""
    held = Counter(rack)
    wanted = Counter(t.letter for _, t in laid if not t.blank)
    spare = held[BLANK] - sum(1 for _, t in laid if t.blank)  # blanks left for short letters
    short = {letter: n - held[letter] for letter, n in wanted.items() if n > held[letter]}
    if spare < sum(short.values()):
        missing = [BLANK] * max(0, -spare) + [x for x, n in short.items() for _ in range(n)]
        tiles = "".join(f"[{t}]" if len(t) > 1 else t for t in missing)
        raise _refuse(f"the rack holds no {tiles}", codebook.TILES_NOT_ON_RACK, tiles=tiles)
    if not short:
        return Play(tuple(laid), way)
    choices = [
        itertools.combinations(
            [i for i, (_, t) in enumerate(laid) if not t.blank and t.letter == letter], n
        )
        for letter, n in short.items()
    ]
    best: tuple[int, Play] | None = None
    for picked in itertools.product(*choices):
        chosen = {i for group in picked for i in group}
        play = Play(
            tuple(
                (sq, Tile(t.letter, blank=True) if i in chosen else t)
                for i, (sq, t) in enumerate(laid)
            ),
            way,
        )
        try:
            total = board.score(play).total
        except GameError:
            total = -1
        if best is None or total > best[0]:
            best = (total, play)
    assert best is not None
    return best[1]


def written(board: Board, play: Play, start: str, direction: str) -> str:
    """The whole word ``play`` makes from ``start``, row notation, blanks in lower case."""
    after = board.lay(play.tiles)
    return "".join(t.notation for t in after.word_at(start, direction))


def used(play: Play) -> tuple[str, ...]:
    """The rack's tiles ``play`` lays (bag letters)."""
    return tuple(bag_letter(t.notation) for _, t in play.tiles)


# --- the close ------------------------------------------------------------------------------


def judge(game: Game, contains: Contains | None, rules: RoomRules) -> tuple[SlipScore, ...]:
    """Every player's slip of the open round judged on the board as it stands, with the
    solo bonus; a player without a slip whose cell was typed by hand keeps it."""
    board = game.board
    assert board is not None, "a duplicate room needs a board"
    rack = tuple(bag_letter(t) for t in game.rounds[-1].rack)
    slips = {slip.player: slip for slip in game.slips}
    cells = game.rounds[-1].scores
    judged = []
    for player in range(len(game.players)):
        if player in game.left:
            continue  # taken out of the room: no slip, no place in the round
        slip = slips.get(player)
        if slip is None:
            typed = cells[player]
            kind = "missing" if typed is None else "entered"
            judged.append(SlipScore(player, rules.missing if typed is None else typed, kind))
        else:
            judged.append(_score(board, rack, slip, contains, rules))
    return _solo(judged, rules)


def _score(
    board: Board, rack: Sequence[str], slip: Slip, contains: Contains | None, rules: RoomRules
) -> SlipScore:
    if slip.late:
        return _judged(slip, rules.late_points, "late")
    try:
        play = lay(board, rack, slip.word, slip.start, slip.direction)
        result: MoveScore = board.score(play)
    except GameError:  # the rack was typed again since: the slip no longer fits
        return _judged(slip, rules.invalid, "unplayable")
    if contains is not None:
        after = board.lay(play.tiles)
        words = [after.word_at(w.start or "", w.direction or "") for w in result.words]
        bad = invalid_words(board.edition, words, contains)
        if bad:
            return _judged(slip, rules.invalid, "invalid", ", ".join(bad))
    return replace(_judged(slip, result.total, "valid"), bingo=result.bingo)


def _judged(slip: Slip, points: int, kind: str, bad: str = "") -> SlipScore:
    return SlipScore(slip.player, points, kind, slip.word, slip.start, slip.direction, bad=bad)


def _solo(judged: list[SlipScore], rules: RoomRules) -> tuple[SlipScore, ...]:
    """The close's judgement with Eliot's solo, as ``solos`` derives it from the cells."""
    bonus = _alone_at_best(
        {s.player: s.points for s in judged if s.kind == "valid"}, len(judged), rules
    )
    return tuple(replace(s, solo=rules.solo_points) if s.player == bonus else s for s in judged)


def counted(played: Round) -> dict[int, int]:
    """The cells of a closed room round that are scored moves, by player: a slip the close
    judged valid, or a cell the director has set since to another score (a jury's verdict,
    an arbiter's recount). An invalid, late or missing slip left as judged is not."""
    judged = {r.player: r for r in played.results}
    found = {}
    for player, points in enumerate(played.scores):
        result = judged.get(player)
        if points is None or result is None:
            continue
        if result.kind == "valid" or points != result.points:
            found[player] = points
    return found


def solos(played: Round, rules: RoomRules | None) -> tuple[int, ...]:
    """Each player's solo of a closed room round, from its cells as they stand (a
    correction moves it): in a game of ``solo_players`` or more, the one player alone at
    the best scored move (``counted``) of the round earns ``solo_points``. A round without
    judged slips (a sheet at a table) has none."""
    none = (0,) * len(played.scores)
    if rules is None or not played.results:
        return none
    bonus = _alone_at_best(counted(played), len(played.results), rules)  # who was judged
    return (
        none
        if bonus is None
        else tuple(rules.solo_points if p == bonus else 0 for p in range(len(none)))
    )


def _alone_at_best(scored: dict[int, int], players: int, rules: RoomRules) -> int | None:
    """Eliot's solo: the one player alone at the best of ``scored`` (above 0), in a game of
    ``solo_players`` or more; None when there is none."""
    if not rules.solo_points or players < max(rules.solo_players, 2) or not scored:
        return None
    best = max(scored.values())
    at_best = [p for p, points in scored.items() if points == best]
    return at_best[0] if len(at_best) == 1 and best > 0 else None


def paused(game: Game) -> bool:
    """Has the director paused the open round's clock after starting it?"""
    clock = game.clock
    return (
        clock is not None
        and clock.running_since is None
        and 0 < clock.remaining < clock.seconds * 1000
    )


def ran_out(game: Game, at: int) -> bool:
    """Has the open round's clock run out at ``at`` (server time, ms)? A clock not started
    this round has not."""
    clock = game.clock
    if clock is None:
        return False
    if clock.running_since is not None:
        return at >= clock.running_since + clock.remaining
    return clock.remaining <= 0
