"""Online play in the fold: the bag dealt from the game's seed, racks filled again after each
move, tiles exchanged back into the bag, and the time per move started at each new turn.

Tiles here are bag letters (``A``, ``CH``, ``?`` for a blank), as in ``rules.board.bag``.
"""

from msgspec.structs import replace

from editions import codebook
from events.events import Exchanged, GameStarted
from rules.board import bag
from rules.online.play import held
from rules.table import lines
from rules.table.lines import Odd
from rules.table.state import Game, LastTurn, Online


def begin(game: Game, event: GameStarted, at: int) -> Game:
    """The bag in the order the seed gives and every rack dealt from it."""
    if game.board is None:
        raise Odd(codebook.NO_BOARD)
    count = len(game.players)
    tiles, racks = bag.deal(game.edition, event.seed, count)
    computers = (*event.computers, *(None,) * count)[:count]  # a person where none said
    online = Online(event.seed, tiles, racks, event.move_seconds, at, computers=computers)
    return replace(game, online=online)


def turned(before: Game, after: Game, at: int) -> Game:
    """A new turn (after a line, or an undo) starts the time per move at ``at``."""
    if after.lines is before.lines:
        return after
    return replace(after, online=replace(held(after), turn_since=at))


def from_rack(game: Game, player: int, tiles: tuple[str, ...]) -> Game:
    """The player's rack less the tiles laid, filled again from the bag (WS-10)."""
    online = held(game)
    player = lines.seat(game, player)
    rack = online.racks[player]
    if bag.missing(rack, tiles):
        raise Odd(codebook.TILES_NOT_ON_RACK)  # no tiles named: a warning is seen by all
    left, rack = bag.draw(online.bag, bag.without(rack, tiles), game.edition.rack_size)
    racks = lines.put(online.racks, player, rack)
    return replace(game, online=replace(online, bag=left, racks=racks))


def last(game: Game, turn: LastTurn) -> Game:
    """The latest turn as every device may see it."""
    return replace(game, online=replace(held(game), last=turn))


def exchanged(game: Game, event: Exchanged, seq: int) -> Game:
    """The named tiles go back after as many are drawn; the bag is shuffled again."""
    online = held(game)
    player = lines.seat(game, event.player)
    tiles = bag.parse(game.edition, event.tiles)
    rack = online.racks[player]
    if bag.missing(rack, tiles):
        raise Odd(codebook.TILES_NOT_ON_RACK)
    left, rack = bag.exchange(online.bag, rack, tiles, online.seed, seq)
    online = replace(
        online,
        bag=left,
        racks=lines.put(online.racks, player, rack),
        last=LastTurn(player, "exchange", count=len(tiles)),
    )
    game = lines.turn(replace(game, online=online), seq, "exchange", player)
    return replace(game, exchanges=lines.put(game.exchanges, player, game.exchanges[player] + 1))
