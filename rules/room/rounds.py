"""The duplicate director's room: racks drawn or typed, slips from the players' phones, and
the round closed with the top the move generator finds (or the director's typed top).

The director (the host) draws each round's rack — the server passes a fresh seed for every
draw (``rules.room.racks``) — or types the rack of a real draw in the room. Each player's phone
hands in a slip for the open round (``rules.room.slips``); it stays the player's own until the
round closes. Closing the round plays the top on the board and judges every slip; the
players' cells, the solo bonus and the standings follow from the ``TopRecorded`` it
records. The director can still override everything: a typed rack, a typed top
(``record_top``), a cell corrected (``correct_cell``), a slip handed in for a player.
"""

from msgspec.structs import replace

from editions import codebook
from events import commands as c
from events.events import (
    GameEnded,
    Mode,
    PlacedTile,
    RackDrawn,
    SlipSubmitted,
    TableEvent,
    TopRecorded,
    WordLine,
)
from rules.board import bag
from rules.board.tiles import bag_letter
from rules.board.wordcheck import Contains, invalid_words
from rules.errors import GameError
from rules.room import racks, slips
from rules.table.inputs import Inputs, Top, TopQuery
from rules.table.permissions import check_round
from rules.table.rulesets import RackRule, RoomRules
from rules.table.state import Game


def _refuse(message: str, code: str, **params: object) -> GameError:
    return GameError(message, code=code, **params)


def rules_of(game: Game) -> tuple[RackRule, RoomRules]:
    """The rack rule and the room rules of ``game``'s rule set (the FISF ones by default)."""
    rules = game.rules
    return rules.rack_rule or RackRule(), rules.room or RoomRules()


def in_room(game: Game) -> bool:
    """Is the open round a room's round, with a rack drawn or typed?"""
    return game.mode is Mode.DUPLICATE and bool(game.rounds) and bool(game.rounds[-1].rack)


def racked(game: Game) -> bool:
    """Has a round of the game had a rack: a room's game, whose rounds are played from racks
    (a sheet kept at a table, with none, takes its tops as points)?"""
    return game.mode is Mode.DUPLICATE and any(played.rack for played in game.rounds)


def query(game: Game) -> TopQuery | None:
    """What closing the open round must search: the board, the round's rack and the rule
    set's preference; None before the round has its rack."""
    if game.board is None or not in_room(game):
        return None
    _, rules = rules_of(game)
    return TopQuery(game.board, "".join(game.rounds[-1].rack), rules.top_preference)


def decide(
    game: Game, command: c.DrawRack | c.SetRack | c.SubmitSlip | c.CloseRound, inputs: Inputs
) -> tuple[TableEvent, ...]:
    """The events of a room command; raises GameError with a code if refused, ValueError
    for a draw without the server's seed or a top found for another position."""
    if game.board is None:
        raise _refuse(
            f"{game.edition.code} has no board", codebook.NO_BOARD, edition=game.edition.code
        )
    if isinstance(command, c.SubmitSlip):
        return (submit(game, command, inputs.at),)
    check_round(game, command.round)
    if isinstance(command, c.DrawRack):
        return (draw(game, inputs.seed),)
    if isinstance(command, c.SetRack):
        return (set_rack(game, command),)
    return close(game, inputs.contains, inputs.top)


def draw(game: Game, seed: str) -> TableEvent:
    """The open round's rack, drawn under the rack rule; the end of the game when the tiles
    left cannot make a rack that passes."""
    if game.rounds[-1].rack:
        raise _refuse("this round has its rack", codebook.RACK_DRAWN, round=len(game.rounds) - 1)
    if not seed:
        raise ValueError("a draw needs the server's seed: decide(..., seed=...)")
    rule, _ = rules_of(game)
    edition = game.edition
    kind = racks.kinds(edition, rule)
    held = racks.kept(game)
    left = racks.in_bag(game, held)
    number = len(game.rounds)
    least = racks.minimum(rule, kind, number, (*held, *left))
    if least is None:
        return GameEnded()
    drawn = racks.draw(kind, least, held, left, seed, f"round {number}", edition.rack_size)
    rejected = tuple(bag.rack_notation(r) for r in drawn.rejected)
    return RackDrawn(number - 1, bag.rack_notation(drawn.rack), rejected)


def set_rack(game: Game, command: c.SetRack) -> TableEvent:
    """The rack the director typed, from the tiles not on the board; one the rack rule
    would send back only with ``force``."""
    edition = game.edition
    tiles = bag.parse(edition, command.rack)
    if not 1 <= len(tiles) <= edition.rack_size:
        raise _refuse(
            f"a rack of {len(tiles)} tiles; from 1 to {edition.rack_size}",
            codebook.TOO_MANY_TILES,
            count=len(tiles),
            rack_size=edition.rack_size,
        )
    left = racks.in_bag(game)  # every tile not on the board: the typed rack replaces all
    short = bag.missing(left, tiles)
    if short:
        raise _refuse(
            f"no {bag.rack_notation(short)} is left to draw",
            codebook.TILES_NOT_IN_BAG,
            tiles=bag.rack_notation(short),
        )
    rule, _ = rules_of(game)
    kind = racks.kinds(edition, rule)
    least = racks.minimum(rule, kind, len(game.rounds), left)
    if least is not None and not racks.passes(kind, tiles, least) and not command.force:
        vowels, consonants = kind.count(tiles)
        raise _refuse(
            f"the rule asks {least} vowels and {least} consonants; this rack has {vowels}"
            f" and {consonants}",
            codebook.RACK_RULE,
            min=least,
            vowels=vowels,
            consonants=consonants,
        )
    return RackDrawn(len(game.rounds) - 1, bag.rack_notation(tiles), typed=True)


def submit(game: Game, command: c.SubmitSlip, at: int) -> TableEvent:
    """A player's slip, checked to lie on the board from the rack; late after the clock."""
    player = command.player
    if player is None or not 0 <= player < len(game.players):
        raise _refuse(f"no player {player}", codebook.NO_SUCH_PLAYER, player=player)
    if player in game.left:
        raise _refuse(f"player {player} left the room", codebook.PLAYER_REMOVED, player=player)
    if not in_room(game):
        raise _refuse("the round has no rack yet", codebook.NO_RACK)
    if slips.paused(game):  # the director stopped the room: no one writes on meanwhile
        raise _refuse("the round clock is paused", codebook.CLOCK_PAUSED)
    _, rules = rules_of(game)
    late = not command.paper and slips.ran_out(game, at)  # paper: handed in in time
    if late and (rules.late == "refused" or any(s.player == player for s in game.slips)):
        raise _refuse("the round's time is up", codebook.TIME_UP)
    board = game.board
    assert board is not None
    rack = racks.rack_of(game)
    play = slips.lay(board, rack, command.word, command.start, command.direction)
    word = slips.written(board, play, command.start, command.direction)
    index = len(game.rounds) - 1
    return SlipSubmitted(player, index, word, command.start, command.direction, late)


def close(game: Game, contains: Contains | None, top: Top | None) -> tuple[TableEvent, ...]:
    """The open round closed with ``top``, the move generator's (``rules.room.tops.find``),
    every slip judged. Refused without a top (the edition has no list to find it with);
    ValueError for a top found for another position than the round's."""
    searched = query(game)
    if searched is None:
        raise _refuse("the round has no rack yet", codebook.NO_RACK)
    if top is None:
        raise _refuse(
            f"{game.edition.code} has no word list to find the top",
            codebook.NO_WORD_LIST,
            edition=game.edition.code,
        )
    if top.query != searched:
        raise ValueError(f"a top found for {top.query}, not for the round's {searched}")
    board = searched.board
    _, rules = rules_of(game)
    results = slips.judge(game, contains, rules)
    move = top.move
    if move is None:  # no move at all: the rack goes back whole (``racks.kept``)
        closed = TopRecorded(0, results=results, computed=True)
        return (closed, GameEnded()) if not racks.in_bag(game, racks.rack_of(game)) else (closed,)
    result = board.score(move.play)
    return (
        TopRecorded(
            move.score,
            tuple(
                WordLine(w.word, w.points, w.formula, w.start or "", w.direction or "")
                for w in result.words
            ),
            tuple(PlacedTile(sq.name, t.notation) for sq, t in move.play.tiles),
            str(move.direction),
            results=results,
            computed=True,
        ),
    )


def judged(
    game: Game, events: tuple[TableEvent, ...], contains: Contains | None
) -> tuple[TableEvent, ...]:
    """The director's typed top of a room's round with every slip judged. A room's top is a
    move: laid on the board from the rack, its words in the table's list (all bad ones
    named at once). Other events pass as they are."""
    if not in_room(game):
        if racked(game) and any(isinstance(event, TopRecorded) for event in events):
            # A room between two rounds: a top now would close the next round with no rack,
            # every player's cell 0.
            raise _refuse("the round has no rack yet", codebook.NO_RACK)
        return events
    _, rules = rules_of(game)
    out = []
    for event in events:
        if isinstance(event, TopRecorded):
            _check_top(game, event, contains)
            event = replace(event, results=slips.judge(game, contains, rules))
        out.append(event)
    return tuple(out)


def _check_top(game: Game, top: TopRecorded, contains: Contains | None) -> None:
    if not top.placed:  # as points, or typed words with no square: the board would not move
        raise _refuse(
            "a room's top is a word on the board: give its square and direction",
            codebook.TOP_ON_BOARD,
        )
    laid = tuple(bag_letter(p.tile) for p in top.placed)
    short = bag.missing(racks.rack_of(game), laid)
    if short:
        raise _refuse(
            f"the rack holds no {bag.rack_notation(short)}",
            codebook.TILES_NOT_ON_RACK,
            tiles=bag.rack_notation(short),
        )
    if contains is None:  # no list to judge by (a Python shell, a record): the word stands
        return
    bad = invalid_words(game.edition, [w.word for w in top.words], contains)
    if bad:
        raise _refuse(
            f"not in the list: {', '.join(bad)}",
            codebook.TOP_NOT_IN_LIST,
            words=", ".join(bad),
            count=len(bad),
        )
