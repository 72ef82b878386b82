"""The ``tilestream`` command."""

import argparse
import sys
from collections.abc import Sequence

import editions
from rules import Board, GameError

MOVE_HELP = "a move as START DIRECTION LETTERS, e.g. 'H4 across PLANK' (blanks in lower case)"


def score(edition_code: str, moves: Sequence[str], show_board: bool) -> int:
    """Lay ``moves`` one after another on an empty board, printing each with its formulas."""
    board = Board.empty(editions.get(edition_code))
    for move in moves:
        try:
            start, direction, letters = move.split()
        except ValueError:
            print(f"error: {move!r} is not {MOVE_HELP}", file=sys.stderr)
            return 2
        play = board.place(start, direction, letters)
        result = board.score(play)
        print(f"{start} {direction} {letters}: {result.total}")
        for word in result.words:
            print(f"  {word.word:<15} {word.formula}")
        if result.bingo:
            print(f"  {'bingo':<15} +{result.bingo}")
        board = board.apply(play)
    if show_board:
        print("\n".join(board.rows()))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="tilestream", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    scorer = commands.add_parser(
        "score",
        help="score moves laid one after another on an empty board",
        description="Score moves laid one after another on an empty board, "
        "with the formula under every word.",
    )
    scorer.add_argument("edition", choices=editions.codes(), help="the tile set")
    scorer.add_argument("moves", nargs="+", metavar="MOVE", help=MOVE_HELP)
    scorer.add_argument("--board", action="store_true", help="print the board at the end")
    args = parser.parse_args(argv)
    try:
        return score(args.edition, args.moves, args.board)
    except GameError as error:
        print(f"error: {error} [{error.code}]", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
