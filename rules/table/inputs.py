"""What the shell hands the decider besides the state and the command.

``rules`` reads no clock, draws no randomness and runs no search on a server's event loop: the
server's time, a seed it drew (``secrets``), the edition's word list and a duplicate round's
top (found by the move generator in a thread, ``rules.room.tops.find``) arrive as data, and a
replay of the log needs none of them.
"""

import msgspec

from rules.board.board import Board
from rules.board.wordcheck import Contains
from rules.movegen.moves import Move
from rules.simultaneous.state import Sealed


class TopQuery(msgspec.Struct, frozen=True, gc=False):
    """What a duplicate round's close must search: the board, the round's rack (row
    notation, ``?`` a blank), and the rule set's preference among moves of the top's score."""

    board: Board
    rack: str
    preference: tuple[str, ...]


class Top(msgspec.Struct, frozen=True, gc=False):
    """The top found for ``query``: the move the close plays, None when no move is possible."""

    query: TopQuery
    move: Move | None


class Inputs(msgspec.Struct, frozen=True, gc=False):
    """The server's clock (ms), a seed it drew, the word list (text → bool), a top, a
    simultaneous's sealed games (a centre's draw and close, a room joining one), and the
    seat of the device that asks (None: the host without one, or no device: a record)."""

    at: int = 0
    seed: str = ""
    contains: Contains | None = None
    top: Top | None = None
    sealed: Sealed | None = None
    seat: int | None = None
