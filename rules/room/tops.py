"""The top of a duplicate round: the best move for the round's rack, found by the generator.

Among moves of the best score the rule set's ``top_preference`` chooses — Eliot's master
move keeps the blank (``fewest_blanks``) — and then the generator's own stable order (the
main word's square, across before down, the tiles), so the same position always has the
same top.
"""

from collections.abc import Callable, Sequence
from functools import lru_cache

from rules.board.board import Board
from rules.movegen.moves import Move, WordGraph, generate

#: A preference's key: a move with a smaller key is preferred.
PREFERENCES: dict[str, Callable[[Move], int]] = {
    "fewest_blanks": lambda move: sum(tile.blank for _, tile in move.play.tiles),
    "most_tiles": lambda move: -len(move.play.tiles),
    "fewest_tiles": lambda move: len(move.play.tiles),
}


def top(board: Board, rack: str, graph: WordGraph, preference: Sequence[str]) -> Move | None:
    """The move a close plays with ``rack`` (row notation, ``?`` a blank); None when no
    move is possible. Raises KeyError for a preference that is not in ``PREFERENCES``,
    and what ``generate`` raises for a bad rack.

    Remembered for the last few positions: the server finds the top in a thread first
    (two blanks on a large list take a good part of a second), and the close it then
    decides on its event loop finds it here.
    """
    return _top(board, rack, graph, tuple(preference))


@lru_cache(maxsize=16)
def _top(board: Board, rack: str, graph: WordGraph, preference: tuple[str, ...]) -> Move | None:
    keys = [PREFERENCES[name] for name in preference]
    moves = generate(board, rack, graph)
    if not moves:
        return None
    totals = moves.scores
    tied = next((i for i, total in enumerate(totals) if total != totals[0]), len(totals))
    best = moves[:tied]  # in the generator's order
    return min(best, key=lambda move: tuple(key(move) for key in keys))  # min keeps the first
