"""The top of a duplicate round: the best move for the round's rack, found by the generator.

Among moves of the best score the rule set's ``top_preference`` chooses — Eliot's master
move keeps the blank (``fewest_blanks``) — and then the generator's own stable order (the
main word's square, across before down, the tiles), so the same position always has the
same top.

The search is the shell's to run, off its event loop (two blanks on a large list take a good
part of a second): ``needed`` says what a command must have searched, ``find`` searches it,
and the decider takes the ``Top`` found as data, as it takes the seed of a draw.
"""

from collections.abc import Callable, Sequence

from events import commands as c
from rules.board.board import Board
from rules.movegen.moves import Move, WordGraph, generate
from rules.room.rounds import query
from rules.table.inputs import Top, TopQuery
from rules.table.state import State

#: A preference's key: a move with a smaller key is preferred.
PREFERENCES: dict[str, Callable[[Move], int]] = {
    "fewest_blanks": lambda move: sum(tile.blank for _, tile in move.play.tiles),
    "most_tiles": lambda move: -len(move.play.tiles),
    "fewest_tiles": lambda move: len(move.play.tiles),
}


def needed(state: State, command: c.TableCommand) -> TopQuery | None:
    """What ``command`` on ``state`` needs searched before it is decided: a room round's
    close its top; None for any other command, or a round without its rack yet."""
    if not isinstance(command, c.CloseRound) or state.game is None:
        return None
    return query(state.game)


def find(searched: TopQuery, graph: WordGraph) -> Top:
    """The top of ``searched`` in the list ``graph``; raises what ``top`` raises."""
    return Top(searched, top(searched.board, searched.rack, graph, searched.preference))


def top(board: Board, rack: str, graph: WordGraph, preference: Sequence[str]) -> Move | None:
    """The move a close plays with ``rack`` (row notation, ``?`` a blank); None when no
    move is possible. Raises KeyError for a preference that is not in ``PREFERENCES``,
    and what ``generate`` raises for a bad rack."""
    keys = [PREFERENCES[name] for name in preference]
    moves = generate(board, rack, graph)
    if not moves:
        return None
    totals = moves.scores
    tied = next((i for i, total in enumerate(totals) if total != totals[0]), len(totals))
    best = moves[:tied]  # in the generator's order
    return min(best, key=lambda move: tuple(key(move) for key in keys))  # min keeps the first
