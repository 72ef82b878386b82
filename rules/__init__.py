"""Pure game logic: tiles from text, the board, placement checks and scoring.

No I/O, no clock, no randomness: everything arrives as arguments.

>>> import editions, rules
>>> board = rules.Board.empty(editions.get("nl"))
>>> board.score(board.place("H4", "across", "PLANK")).total
28
"""

from rules.board.board import Board
from rules.board.scoring import MoveScore, TypedTile, WordScore, score_words, typed_word
from rules.board.squares import Direction, Square
from rules.board.tiles import Tile, parse_word
from rules.errors import GameError, IllegalPlacement, InvalidMove, NotationError

__all__ = [
    "Board",
    "Direction",
    "GameError",
    "IllegalPlacement",
    "InvalidMove",
    "MoveScore",
    "NotationError",
    "Square",
    "Tile",
    "TypedTile",
    "WordScore",
    "parse_word",
    "score_words",
    "typed_word",
]
