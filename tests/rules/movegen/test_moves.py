"""The move generator: hand-checked boards, the spec's examples, and brute force as the oracle.

The oracle lays every ordering of every part of the rack (each blank as every letter) on
every run of free squares of every row and column, keeps what ``Board.validate`` allows
and whose every word ``Board.score`` reports is in the list: nothing of the generator's
search, anchors or cross-checks.
"""

import itertools
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import editions
import wordlists
from rules import Board, Direction, IllegalPlacement, NotationError, Square, Tile, WordScore
from rules.board.squares import SIZE
from rules.movegen.moves import Move, generate, parse_rack
from wordlists.graph import Graph

NL = editions.get("nl")
ES = editions.get("es")
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def rows(*middle: str, at: int = 7) -> list[str]:
    """A board of 15 rows with ``middle`` drawn from row ``at`` on (centred 15 wide)."""
    board = ["." * SIZE] * SIZE
    for k, row in enumerate(middle):
        board[at + k] = row
    return board


def brute_force(board: Board, rack: str, words: set[tuple[str, ...]]) -> dict[frozenset, int]:
    """Every legal move as its set of (square, tile) with its total, found the slow way."""
    # A blank stands for a letter of the edition's alphabet, not any letter the list has.
    alphabet = sorted({letter for word in words for letter in word} & board.edition.alphabet)
    tiles: list[list[Tile]] = []
    for tile in parse_rack(board, rack):
        tiles.append([Tile(x, blank=True) for x in alphabet] if tile is None else [tile])
    found: dict[frozenset, int] = {}
    for direction in Direction:
        for row, col in itertools.product(range(SIZE), repeat=2):
            if board[Square(row, col)] is not None:
                continue
            for count in range(1, len(tiles) + 1):
                squares = _free_run(board, Square(row, col), direction, count)
                if squares is None:
                    break
                dummy = board.place_tiles([(sq, Tile("A")) for sq in squares], direction)
                try:
                    board.validate(dummy)
                except IllegalPlacement:
                    continue
                for order in itertools.permutations(range(len(tiles)), count):
                    for choice in itertools.product(*(tiles[k] for k in order)):
                        play = board.place_tiles(list(zip(squares, choice, strict=True)), direction)
                        result = board.score(play)
                        after = board.lay(play.tiles)
                        if all(word_tiles(after, w) in words for w in result.words):
                            found[frozenset(play.tiles)] = result.total
    return found


def _free_run(board: Board, start: Square, direction: Direction, count: int) -> list[Square] | None:
    dr, dc = (0, 1) if direction == Direction.ACROSS else (1, 0)
    row, col = start
    squares = []
    while len(squares) < count:
        if row >= SIZE or col >= SIZE:
            return None
        if board[Square(row, col)] is None:
            squares.append(Square(row, col))
        row, col = row + dr, col + dc
    return squares


def word_tiles(board: Board, word: WordScore) -> tuple[str, ...]:
    """The letters of a word as the board's tiles (C + H is not the CH tile)."""
    assert word.start is not None
    row, col = Square.parse(word.start)
    dr, dc = (0, 1) if word.direction == "across" else (1, 0)
    letters = []
    while row < SIZE and col < SIZE and (tile := board[Square(row, col)]) is not None:
        letters.append(tile.letter)
        row, col = row + dr, col + dc
    return tuple(letters)


def as_found(moves: Iterable[Move]) -> dict[frozenset, int]:
    return {frozenset(m.play.tiles): m.score for m in moves}


def graph_of(edition: editions.Edition, words: Iterable[str]) -> tuple[Graph, set]:
    words = list(words)
    return Graph.from_words(edition, words), {edition.letters(w) for w in words}


# Hand-checked


def test_generate_finds_the_three_moves_of_a_hand_checked_board() -> None:
    graph, _ = graph_of(NL, ["AB", "BA", "ABA"])
    board = Board.from_rows(NL, rows("......AB......."))  # A on H7, B on H8
    moves = generate(board, "A", graph)
    assert [(m.start.name, str(m.direction), m.word, m.letters, m.score) for m in moves] == [
        ("H7", "across", "ABA", "A", 1 + 3 + 1),  # A on H9
        ("G8", "down", "AB", "A", 1 + 3),  # A over the B
        ("H8", "down", "BA", "A", 3 + 1),  # A under the B
    ]


def test_generate_on_an_empty_board_covers_the_centre() -> None:
    graph, _ = graph_of(NL, ["AB", "BAD"])
    moves = generate(Board.empty(NL), "ABD", graph)
    assert {(m.start.name, str(m.direction), m.word) for m in moves} == {
        ("H7", "across", "AB"),
        ("H8", "across", "AB"),
        ("G8", "down", "AB"),
        ("H8", "down", "AB"),
        ("H6", "across", "BAD"),
        ("H7", "across", "BAD"),
        ("H8", "across", "BAD"),
        ("F8", "down", "BAD"),
        ("G8", "down", "BAD"),
        ("H8", "down", "BAD"),
    }
    assert all(m.score == Board.empty(NL).score(m.play).total for m in moves)


def test_a_lone_tile_forming_two_words_is_one_move_across() -> None:
    graph, _ = graph_of(NL, ["AB", "BA", "ABA"])
    board = Board.from_rows(NL, rows(".......B.......", "......B........", at=6))
    centre = [m for m in generate(board, "A", graph) if m.play.tiles[0][0].name == "H8"]
    # BA across and BA down, both doubled by the centre square
    assert [(m.start.name, str(m.direction), m.word, m.score) for m in centre] == [
        ("H7", "across", "BA", (3 + 1) * 2 + (3 + 1) * 2)
    ]


def test_moves_are_ordered_by_score_then_square_direction_word() -> None:
    graph, _ = graph_of(NL, ["AB", "BA", "ABA", "BAD", "DAB"])
    board = Board.from_rows(NL, rows(".......BA......"))
    moves = generate(board, "ABD", graph)
    keys = [(-m.score, m.start.row, m.start.col, m.direction != Direction.ACROSS) for m in moves]
    assert keys == sorted(keys)
    assert generate(board, "ABD", graph, limit=3) == moves[:3]


def test_moves_read_in_any_order_are_the_moves_of_the_list() -> None:
    # Each move is made when first read (and then kept), from either end or a slice.
    graph, _ = graph_of(NL, ["AB", "BA", "ABA", "BAD", "DAB"])
    board = Board.from_rows(NL, rows(".......BA......"))
    listed = list(generate(board, "ABD", graph))
    moves = generate(board, "ABD", graph)
    assert moves[-1] == listed[-1] and moves[len(moves) - 1] is moves[-1]
    assert moves[1:3] == listed[1:3] and moves[::-1] == listed[::-1]
    assert list(moves) == listed and moves.scores == [m.score for m in listed]
    assert generate(board, "ABD", graph, limit=0) == []


# The spec's examples (§20), with the committed lists


@pytest.mark.parametrize(
    ("edition", "board", "rack", "start", "direction", "word", "score"),
    [
        ("nl", [], "PLANK", "H4", "across", "PLANK", 28),  # TV-NL-07
        ("nl", ["H4 across PLANK"], "KRAN", "F6", "down", "KRAAN", 16),  # TV-NL-08
        ("nl", ["H4 across PLANK"], "O", "G4", "down", "OP", 4),  # TV-D-09
        ("it", [], "LEGGIO", "H3", "across", "LEGGIO", 46),  # TV-IT-08
        ("pl", [], "ŻUBRY", "H4", "across", "ŻUBRY", 38),  # TV-PL-05
        ("pl", ["H4 across ŻUBRY"], "KLAN", "E5", "down", "KLAUN", 18),  # TV-PL-06
        ("pl", [], "ŁOPATKA", "H5", "across", "ŁOPATKA", 74),  # TV-PL-09
    ],
)
def test_generate_finds_the_spec_examples(
    edition: str,
    board: list[str],
    rack: str,
    start: str,
    direction: str,
    word: str,
    score: int,
) -> None:
    position = Board.empty(editions.get(edition))
    for move in board:
        position = position.apply(position.place(*move.split()))
    moves = generate(position, rack, wordlists.get(edition).graph)
    found = {(m.start.name, str(m.direction), m.word): m.score for m in moves}
    assert found[(start, direction, word)] == score


def test_generate_plays_spanish_digraph_tiles_and_blanks_as_digraphs() -> None:
    graph, _ = graph_of(ES, ["chorro", "oso", "coro"])
    moves = generate(Board.empty(ES), "[CH]O[RR]O", graph)
    assert ("H8", "across", "[CH]O[RR]O") in {
        (m.start.name, str(m.direction), m.word) for m in moves
    }
    blank = generate(Board.empty(ES), "?O[RR]O", graph)
    words = {m.word for m in blank}
    assert "[ch]O[RR]O" in words
    assert "CORRO" not in words  # C + the RR tile is not CORO, and C + R + R is no tile


@pytest.mark.parametrize(
    ("rack", "code"),
    [
        ("AB1", "invalid_character"),
        ("A[B", "bad_tile"),
        ("ABCDEFGH", "too_many_tiles"),
        ("A.B", "bad_tile"),
    ],
)
def test_parse_rack_refuses_what_is_no_rack(rack: str, code: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_rack(Board.empty(NL), rack)
    assert refused.value.code == code


def test_parse_rack_refuses_a_letter_the_set_lacks() -> None:
    with pytest.raises(NotationError) as refused:
        parse_rack(Board.empty(editions.get("it")), "KA")
    assert refused.value.code == "locked_blank"


def test_a_polish_blank_is_never_q_v_or_x_though_the_list_has_such_words() -> None:
    pl = editions.get("pl")
    graph, _ = graph_of(pl, ["AX", "VA", "AVA", "QUA", "AU"])
    words = {m.word for m in generate(Board.empty(pl), "AU?", graph)}
    assert words == {"AU", "Au", "aU"}  # not Ax, vA, Ava, qUA


@pytest.mark.parametrize("rack", ["AO?", "E??", "AEIO??"])
def test_no_polish_move_of_the_committed_list_has_a_blank_outside_the_set(rack: str) -> None:
    pl = editions.get("pl")
    moves = generate(Board.empty(pl), rack, wordlists.get("pl").graph)
    assert moves
    assert all(tile.letter in pl.faces for move in moves for _, tile in move.play.tiles)


def test_an_italian_blank_stands_for_j_k_w_x_or_y() -> None:
    # ALP-05: FIGS art. 8 lets a jolly be any of the 26 letters, the five the set lacks too.
    it = editions.get("it")
    graph, _ = graph_of(it, ["KA", "OK"])
    assert {m.word for m in generate(Board.empty(it), "AO?", graph)} == {"kA", "Ok"}


# Brute force as the oracle

TINY = ["AB", "BA", "AD", "DA", "ABA", "BAD", "DAB", "BED", "BEE", "EB", "DE", "ED", "ADDED"]
TINY_GRAPH, TINY_WORDS = graph_of(NL, TINY)
LETTERS = "ABDE"


@st.composite
def positions(draw: st.DrawFn) -> tuple[Board, str]:
    """A board with a few tiles near the centre (words or not) and a rack of up to 4."""
    tiles = draw(
        st.dictionaries(
            st.tuples(st.integers(4, 10), st.integers(4, 10)),
            st.tuples(st.sampled_from(LETTERS), st.booleans()),
            max_size=8,
        )
    )
    cells: list[Tile | None] = [None] * (SIZE * SIZE)
    for (row, col), (letter, blank) in tiles.items():
        cells[row * SIZE + col] = Tile(letter, blank=blank and draw(st.booleans()))
    rack = draw(st.lists(st.sampled_from(LETTERS + "?"), min_size=1, max_size=4))
    if rack.count("?") > 2:
        rack = [x for x in rack if x != "?"] + ["?", "?"]
    return Board(NL, cells), "".join(rack)


@PROPERTY
@given(positions())
@example((Board.from_rows(NL, rows(".......BA......")), "AD?"))
@example((Board.empty(NL), "AB?"))
def test_generate_finds_exactly_the_moves_brute_force_finds(position: tuple[Board, str]) -> None:
    board, rack = position
    moves = generate(board, rack, TINY_GRAPH)
    assert as_found(moves) == brute_force(board, rack, TINY_WORDS)
    assert len(moves) == len(as_found(moves))  # no move twice


@PROPERTY
@given(positions())
def test_every_move_is_legal_and_scores_as_the_board_scores_it(
    position: tuple[Board, str],
) -> None:
    board, rack = position
    moves = generate(board, rack, TINY_GRAPH)
    assert moves.scores == [move.score for move in moves]  # read from the keys alone
    for move in moves:
        result = board.score(move.play)  # validates first
        assert result.total == move.score
        assert result.words[0].start == move.start.name
        assert result.words[0].direction == str(move.direction)
        after = board.lay(move.play.tiles)
        assert all(word_tiles(after, w) in TINY_WORDS for w in result.words)
        assert board.place(move.start, move.direction, move.letters) == move.play


def test_generate_finds_every_spanish_move_brute_force_finds() -> None:
    words = ["CHA", "ACHE", "CHE", "RRA", "ARRE", "ERRE", "CE", "HE", "ECHE"]
    graph, tiles = graph_of(ES, words)
    board = Board.from_rows(ES, rows("......[CH]A......."))
    for rack in ("E?", "A[RR]E", "CHE"):
        assert as_found(generate(board, rack, graph)) == brute_force(board, rack, tiles)
