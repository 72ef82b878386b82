"""``tilestream top``: the best moves of a position, each with its formulas.

Also the ``--wordlist EDITION=FILE`` option of ``tilestream serve``, which loads a club's
own list the same way ``top --words`` does, and ``tilestream compile``.
"""

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import editions
import wordlists
from editions import codebook
from editions.errors import GameError
from rules import Board
from rules.board.squares import gcg_position
from rules.movegen.moves import Move, generate, parse_rack
from wordlists.graph import Graph, cache_folder
from wordlists.lexicon import load_text, use

COUNT = 10


class Refused(Exception):
    """Input ``top`` cannot use: one line with a stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def compile_generator() -> int:
    """``tilestream compile``: compile the move generator's search, or load it compiled, and
    make the word graph of every committed list.

    numba compiles the search on the first ``generate`` of an installation (some 20 seconds)
    and keeps the machine code on disk; a list's graph takes a second or two to convert and
    is kept in the cache folder (``wordlists.graph.cache_folder``). The install
    (``scripts/env``, the image) runs this once, so a director's first close or a computer's
    first move takes half a second, not 20.
    """
    edition = editions.get("en")
    generate(Board.empty(edition), "AB?", Graph.from_words(edition, ["AB"]))
    for language in wordlists.available():
        wordlists.get(language).graph  # noqa: B018 (converted and cached on first use)
    print(f"compiled; word graphs in {cache_folder() / 'graphs'}")
    return 0


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``top`` and ``compile`` to the command line's subcommands."""
    commands.add_parser(
        "compile",
        help="compile the move generator ahead of its first use (once per installation)",
        description="Compile the move generator's search (numba; some 20 seconds) and make the "
        "word graph of every list, kept on disk for every later process "
        "($TILESTREAM_CACHE, else the user's cache folder). The install runs it.",
    )
    parser = commands.add_parser(
        "top",
        help="the best moves of a position",
        description="The best moves for a rack on a board, each with its square, direction, "
        "word, score and formulas. Errors are one line with a stable code, status 1.",
    )
    parser.add_argument("edition", help=f"the tile set: {' '.join(editions.codes())}")
    parser.add_argument(
        "--board",
        required=True,
        metavar="FILE",
        help="the board as 15 rows in row notation ('.' empty, 'a' a blank as A, '[CH]'); "
        "'-' reads it from standard input",
    )
    parser.add_argument(
        "--rack", required=True, help="the rack, e.g. 'PLANK?E' ('?' a blank, '[CH]' a tile)"
    )
    parser.add_argument(
        "--words",
        metavar="FILE",
        help="a plain text word list (one word a line) instead of the edition's own",
    )
    parser.add_argument(
        "--count", type=int, default=COUNT, metavar="N", help=f"moves to show (default {COUNT})"
    )
    parser.add_argument("--json", action="store_true", help="print JSON: {moves: [...], count}")


def run(args: argparse.Namespace) -> int:
    """Run ``tilestream top`` from parsed arguments; the exit status."""
    try:
        moves, total, board = best(args.edition, args.board, args.rack, args.words, args.count)
    except Refused as refused:
        print(f"error: {refused} [{refused.code}]", file=sys.stderr)
        return 1
    if args.json:
        out = {"moves": [as_json(board, m) for m in moves], "count": len(moves), "total": total}
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"{total} moves; the best {len(moves)}:")
    for move in moves:
        result = board.score(move.play)
        print(f"{move.start.name} {move.direction} {move.word} ({move.letters}): {move.score}")
        for word in result.words:
            print(f"  {word.word:<15} {word.formula}")
        if result.bingo:
            print(f"  {'bingo':<15} +{result.bingo}")
    return 0


def best(
    edition_code: str, board_file: str, rack: str, words: str | None, count: int
) -> tuple[list[Move], int, Board]:
    """The best ``count`` moves, how many there are in all, and the board; raises Refused."""
    if edition_code not in editions.codes():
        raise Refused(
            codebook.UNKNOWN_EDITION,
            f"unknown edition {edition_code!r}; known: {', '.join(editions.codes())}",
        )
    edition = editions.get(edition_code)
    if edition.layout is None:
        raise Refused(codebook.NO_BOARD, f"{edition.name} ({edition_code}) has no board")
    board = read_board(edition, board_file)
    try:
        parse_rack(board, rack)
    except GameError as error:
        raise Refused(codebook.BAD_RACK, f"rack {rack!r}: {error} ({error.code})") from None
    graph = word_graph(edition_code, words)
    moves = generate(board, rack, graph)
    return moves[: max(count, 0)], len(moves), board


def read_board(edition: editions.Edition, path: str) -> Board:
    """The board drawn in a file (or standard input for ``-``); raises Refused."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise Refused(codebook.BAD_BOARD, f"{path}: {reason}") from None
    try:
        return Board.from_rows(edition, text)
    except GameError as error:
        raise Refused(codebook.BAD_BOARD, f"{path}: {error} ({error.code})") from None


def word_graph(edition_code: str, words: str | None) -> Graph:
    """The edition's list as a graph, or a plain text list's; raises Refused."""
    try:
        lexicon = wordlists.get(edition_code) if words is None else load_text(words, edition_code)
    except wordlists.UnknownLanguage as error:
        raise Refused(codebook.NO_WORD_LIST, str(error)) from None
    except (OSError, UnicodeDecodeError, GameError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise Refused(codebook.BAD_WORDS, f"{words}: {reason}") from None
    return lexicon.graph


def as_json(board: Board, move: Move) -> dict[str, object]:
    """A move for ``--json``: where, which way, the word, the score and its formulas."""
    result = board.score(move.play)
    formula = "; ".join(f"{w.word}: {w.formula}" for w in result.words)
    if result.bingo:
        formula += f"; bingo +{result.bingo}"
    return {
        "start": move.start.name,
        "direction": str(move.direction),
        "word": move.word,
        "tiles": move.letters,
        "score": move.score,
        "formula": formula,
        "words": [{"word": w.word, "points": w.points, "formula": w.formula} for w in result.words],
        "bingo": result.bingo,
        "gcg": gcg_position(move.start, move.direction),
    }


def use_wordlists(pairs: Sequence[str]) -> int:
    """Judge each ``EDITION=FILE``'s language by that plain text list (``serve``): 0, or
    1 after one line naming the problem (``bad_wordlist_option``, ``no_word_list``,
    ``bad_words``)."""
    for pair in pairs:
        code, sep, path = pair.partition("=")
        try:
            if not sep or not code or not path:
                raise Refused(
                    codebook.BAD_WORDLIST_OPTION, f"--wordlist {pair!r} is not EDITION=FILE"
                )
            try:
                use(code, path)
            except wordlists.UnknownLanguage as error:
                raise Refused(codebook.NO_WORD_LIST, str(error)) from None
            except (OSError, UnicodeDecodeError, GameError) as error:
                reason = error.strerror if isinstance(error, OSError) and error.strerror else error
                raise Refused(codebook.BAD_WORDS, f"{path}: {reason}") from None
        except Refused as refused:
            print(f"tilestream: {refused} [{refused.code}]", file=sys.stderr, flush=True)
            return 1
    return 0
