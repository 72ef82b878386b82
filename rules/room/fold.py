"""The duplicate sheet in the fold: rounds of cells against the top, the room's racks and
slips, and the solo bonus, derived from a closed round's cells after every change of one.

Each round holds the top and every player's cell; the last round is the open one. A cell is
filled by a move or points entered for the player, by a correction, or by the close judging
the player's slip; the totals follow every change of a cell.
"""

from msgspec.structs import replace

from editions import codebook
from events.events import GameStarted, RackDrawn, SlipSubmitted, TopRecorded
from rules.board import bag
from rules.errors import GameError
from rules.room import entries, racks, slips
from rules.table import lines
from rules.table.lines import Odd
from rules.table.rulesets import RoomRules
from rules.table.state import Clock, Game, Round, Slip
from rules.table.tracking import round_changed


def begin(game: Game, event: GameStarted, at: int) -> Game:
    """The first round open, the round clock as the rule set sets it, one rack shared."""
    seconds = game.rules.clock_seconds
    return replace(
        game,
        rounds=(Round((None,) * len(game.players)),),
        clock=Clock(seconds, seconds * 1000) if seconds else None,
        racks=1,
        entries_until=entries.opening(game),
    )


def row(game: Game) -> int:
    """The sheet's row of the round in play, beside which a penalty or bonus is written."""
    return len(game.rounds) - 1


def cell(game: Game, index: int, player: int | None, points: int | None) -> Game:
    """Set one cell (``player`` None: the top) and keep the totals in step."""
    lines.check_open(game)
    if not 0 <= index < len(game.rounds):
        raise Odd(codebook.NO_SUCH_ROUND, round=index)
    played = game.rounds[index]
    if player is None:
        topped = replace(played, top=points)
        tally = round_changed(game.tally, game.edition, played, topped)
        return replace(game, rounds=lines.put(game.rounds, index, topped), tally=tally)
    player = lines.seat(game, player)
    delta = (points or 0) - (played.scores[player] or 0)
    played = replace(played, scores=lines.put(played.scores, player, points))
    game = replace(
        game,
        rounds=lines.put(game.rounds, index, played),
        totals=lines.put(game.totals, player, game.totals[player] + delta),
    )
    return solos(game, index) if played.results else game


def solos(game: Game, index: int) -> Game:
    """The solos of closed round ``index`` derived again from its cells as they stand
    (``slips.solos``), kept in its judged slips; the totals follow. Nothing of a solo is
    stored apart from the cells: a correction that moves the best score moves the solo."""
    played = game.rounds[index]
    now = slips.solos(played, game.rules.room or RoomRules())
    was = {r.player: r.solo for r in played.results}
    if all(was.get(p, 0) == solo for p, solo in enumerate(now)):
        return game
    results = tuple(replace(r, solo=now[r.player]) for r in played.results)
    totals = tuple(total + now[p] - was.get(p, 0) for p, total in enumerate(game.totals))
    rounds = lines.put(game.rounds, index, replace(played, results=results))
    return replace(game, rounds=rounds, totals=totals)


def top(game: Game, event: TopRecorded, seq: int) -> Game:
    """The round's top closes it and opens the next; a room's judged slips fill the cells."""
    lines.check_open(game)
    game = lines.placed(game, event.placed)
    for result in event.results:  # the room's slips as the close judged them fill the cells
        game = cell(game, row(game), result.player, result.points)
    tiles = lines.move_tiles(game, event)
    closed = replace(
        game.rounds[-1],
        top=event.points,
        top_seq=seq,
        top_words=event.words,
        top_tiles=tiles,
        results=tuple(replace(r, solo=0) for r in event.results),  # derived below
        computed=event.computed,
    )
    empty = Round((None,) * len(game.players))
    clock = game.clock and Clock(game.clock.seconds, game.clock.seconds * 1000)
    tally = round_changed(game.tally, game.edition, game.rounds[-1], closed)
    game = replace(
        game, rounds=(*game.rounds[:-1], closed, empty), clock=clock, slips=(), tally=tally
    )
    return solos(game, len(game.rounds) - 2) if closed.results else game


def rack(game: Game, event: RackDrawn) -> Game:
    """The open round's rack, drawn or typed; it replaces one before it."""
    lines.check_open(game)
    if event.round != row(game):
        raise Odd(codebook.NO_SUCH_ROUND, round=event.round)
    tiles = tuple(bag.notation(t) for t in bag.parse(game.edition, event.rack))
    played = replace(
        game.rounds[-1], rack=tiles, rejected=len(event.rejected), typed_rack=event.typed
    )
    game = replace(game, rounds=(*game.rounds[:-1], played))
    return replace(game, slips=tuple(_scored(game, s) for s in game.slips))  # a rack typed again


def slip(game: Game, event: SlipSubmitted) -> Game:
    """A player's slip for the open round; a later one replaces it."""
    lines.check_open(game)
    if event.round != row(game) or not game.rounds[-1].rack:
        raise Odd(codebook.NO_SUCH_ROUND, round=event.round)
    player = lines.seat(game, event.player)
    handed = _scored(game, Slip(player, event.word, event.start, event.direction, event.late))
    return replace(game, slips=(*(s for s in game.slips if s.player != player), handed))


def _scored(game: Game, slip: Slip) -> Slip:
    """``slip`` with its score on the board from the open round's rack, worked out once here
    for its player's phone rather than once per view; 0 when it no longer fits."""
    board = game.board
    assert board is not None, "a room has a board"
    try:
        play = slips.lay(board, racks.rack_of(game), slip.word, slip.start, slip.direction)
    except GameError:
        return replace(slip, points=0)
    return replace(slip, points=board.score(play).total)
