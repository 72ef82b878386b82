"""Errors of the game logic, each with a stable ``code`` the phones translate.

Codes and their parameters:

=========================  ==========================================================
``invalid_character``      char, text — a digit, symbol or space in typed letters
``locked_blank``           letter — a letter the set lacks can only be a blank
``bad_tile``               text — row notation that is not a tile (``[CH`` …)
``bad_square``             text — not a square name like ``H8``
``bad_direction``          text — not ``across`` or ``down``
``bad_rows``               rows, size — a board drawing of the wrong shape
``no_board``               edition — the edition has no board (Literaki)
``no_tiles``               — a move without new tiles
``too_many_tiles``         count, rack_size — more new tiles than a rack holds
``off_board``              square — letters run past the edge from this start square
``occupied``               square — a new tile on a square already taken
``not_in_line``            — new tiles not in one row or one column
``gap``                    square — an empty square between the new tiles
``first_move_off_centre``  centre — the first move must cover the centre star
``first_move_single_tile`` — the first move needs at least two tiles
``not_connected``          — a later move must touch a tile on the board
``no_words``               — typed mode without any word
``too_many_words``         count, max — a main word and at most 7 cross words
``empty_word``             index — a typed word without tiles
``word_too_long``          index, length, max — a typed word over 15 tiles
``premium_not_offered``    premium, edition — e.g. 2L with Literaki values
``bad_premium``            text — not one of 2L 3L 2W 3W
``bad_index``              index, length — a typed-word mark past the word's end
=========================  ==========================================================

Not errors but results: a move with more new tiles than a rack holds scores without bonus and
carries ``refusal = "too_many_new_tiles"``; a typed word without new tiles scores 0 with
``note = "no_new_tiles"``.
"""

from editions.errors import GameError, NotationError


class InvalidMove(GameError, ValueError):
    """A move that cannot be scored as given."""

    code = "invalid_move"


class IllegalPlacement(InvalidMove):
    """New tiles laid where the rules do not allow them."""

    code = "illegal_placement"


__all__ = ["GameError", "IllegalPlacement", "InvalidMove", "NotationError"]
