"""Errors of the game logic, each with a stable ``code`` the phones translate.

Every code, with its parameters, is declared once in ``editions/codebook.py``.

Not errors but results: a move with more new tiles than a rack holds scores without bonus and
carries ``refusal = "too_many_new_tiles"``; a typed word without new tiles scores 0 with
``note = "no_new_tiles"``.
"""

from editions import codebook
from editions.errors import GameError, NotationError


class InvalidMove(GameError, ValueError):
    """A move that cannot be scored as given."""

    code = codebook.INVALID_MOVE


class IllegalPlacement(InvalidMove):
    """New tiles laid where the rules do not allow them."""

    code = codebook.ILLEGAL_PLACEMENT


__all__ = ["GameError", "IllegalPlacement", "InvalidMove", "NotationError"]
