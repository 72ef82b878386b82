"""A simple player that finds a legal move for a rack: what the online benchmark plays and
the online tests play with, so the server should accept every move it finds."""

import itertools
from collections import defaultdict
from collections.abc import Sequence

import editions
import wordlists
from rules.board import bag
from rules.board.board import Board
from rules.board.squares import SIZE, Square
from rules.errors import GameError

EDITION = "woordstrijd"


class Finder:
    """A simple player: a word of the edition's list made of some of the rack's letters
    (never a blank) and at most one tile on the board, checked by the rules and the list
    before it is sent, so the server should accept every move it finds."""

    def __init__(self, edition: str = EDITION) -> None:
        self.edition = editions.get(edition)
        lexicon = wordlists.get(self.edition.language)
        self.contains = lexicon.contains
        self.words: defaultdict[str, list[str]] = defaultdict(list)  # sorted letters → words
        for word in lexicon.keys():
            if 2 <= len(word) <= 8 and word.isascii() and word.isalpha():
                self.words["".join(sorted(word))].append(word)

    def move(self, rows: Sequence[str], rack: Sequence[str]) -> dict[str, str] | None:
        """A legal move (``start``, ``direction``, ``letters``) for ``rack``, most tiles
        first, or None."""
        board = Board.from_rows(self.edition, rows)
        letters = sorted(t for t in rack if t != bag.BLANK and len(t) == 1)
        if board.is_empty:
            for size in range(len(letters), 1, -1):
                for combo in sorted(set(itertools.combinations(letters, size))):
                    for word in self.words.get("".join(combo), ()):
                        if found := self._try(board, "H8", "across", word):
                            return found
            return None
        anchors = [(square, tile.letter) for square, tile in board if len(tile.letter) == 1]
        for size in range(len(letters), 0, -1):
            for combo in sorted(set(itertools.combinations(letters, size))):
                for square, letter in anchors:
                    for word in self.words.get("".join(sorted((*combo, letter))), ()):
                        if found := self._through(board, square, letter, word):
                            return found
        return None

    def _through(
        self, board: Board, square: Square, letter: str, word: str
    ) -> dict[str, str] | None:
        for i, each in enumerate(word):
            if each != letter:
                continue
            for direction, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
                row, col = square.row - dr * i, square.col - dc * i
                if row >= 0 and col >= 0 and row < SIZE and col < SIZE:
                    start = Square(row, col).name
                    if found := self._try(board, start, direction, word[:i] + word[i + 1 :]):
                        return found
        return None

    def _try(self, board: Board, start: str, direction: str, letters: str) -> dict[str, str] | None:
        try:
            result = board.score(board.place(start, direction, letters))
        except GameError:
            return None
        if all(self.contains(w.word) for w in result.words):
            return {"start": start, "direction": direction, "letters": letters}
        return None

    def not_a_word(self, rack: Sequence[str]) -> str | None:
        """Two or three of the rack's letters that make no word, for a move to refuse."""
        letters = [t for t in rack if t != bag.BLANK and len(t) == 1]
        for size in (2, 3):
            for tiles in itertools.permutations(letters, size):
                if not self.contains("".join(tiles)):
                    return "".join(tiles)
        return None
