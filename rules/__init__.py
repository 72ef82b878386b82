"""Pure game logic: tiles from text, the board, placement checks and scoring.

No I/O, no clock, no randomness: everything arrives as arguments.

>>> import editions, rules
>>> board = rules.Board.empty(editions.get("nl"))
>>> board.score(board.place("H4", "across", "PLANK")).total
28
"""

from rules.board import Board
from rules.errors import GameError, IllegalPlacement, InvalidMove, NotationError
from rules.scoring import MoveScore, TypedTile, WordScore, score_words, typed_word
from rules.squares import Direction, Square
from rules.tiles import Tile, parse_word

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
