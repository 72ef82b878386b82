"""Board mode: moves placed on a drawn board and scored (spec §2 SCR, §4 BRD, §6 BNG, P-22)."""

import pytest

import editions
from rules import Board, IllegalPlacement, NotationError, Square, Tile

Move = tuple[str, str, str]  # start square, direction, letters in row notation

PLANK: Move = ("H4", "across", "PLANK")
KRAAN: Move = ("F6", "down", "KRAN")  # the A of PLANK on H6 is skipped
LEGGIO: Move = ("H3", "across", "LEGGIO")
ZUBRY: Move = ("H4", "across", "ŻUBRY")

# TV-PL-13: one board on which SZANUJĘ (blank n) + SNÓW scores 115 with the layout the spec
# suggests (SZANUJĘ on A6–A12, SNÓW down from A6). Each earlier move is legal, and the tile
# counts of the PFS set hold.
BANASZEK_MOVES: list[Move] = [
    ("H7", "across", "RAZ"),
    ("D9", "down", "ARBU"),  # ARBUZ, the Z of RAZ on H9
    ("D6", "across", "WOD"),  # WODA, the A of ARBUZ on D9
    ("B6", "down", "NÓ"),  # NÓW, the W of WODA on D6
]
BANASZEK_BOARD = """
    ...............
    .....N.........
    .....Ó.........
    .....WODA......
    ........R......
    ........B......
    ........U......
    ......RAZ......
    ...............
    ...............
    ...............
    ...............
    ...............
    ...............
    ...............
"""

# TV-PL-07 on the board: SPÓŹNIŁY down A1–H1 (S and Y on 3W, Ź on the 2L D1) through the old
# Ł of ŁAWA on G1.
SPOZNILY_MOVES: list[Move] = [ZUBRY, ("G1", "across", "ŁAWA")]  # ŁAWA also forms AŻ down


def play_out(code: str, moves: list[Move]) -> Board:
    """An empty board with ``moves`` applied one by one (each validated)."""
    board = Board.empty(editions.get(code))
    for move in moves:
        board = board.apply(board.place(*move))
    return board


# edition, moves before, the move, total, bingo, new tiles, (word, start, direction, formula)
BOARD_VECTORS = [
    pytest.param(
        "nl",
        [],
        PLANK,
        28,
        0,
        5,
        [("PLANK", "H4", "across", "(3 × 2 + 3 + 1 + 1 + 3) × 2 = 28")],
        id="TV-NL-07",
    ),
    pytest.param(
        "nl",
        [PLANK],
        KRAAN,
        16,
        0,
        4,
        [("KRAAN", "F6", "down", "3 × 3 + 2 + 1 + 1 + 1 × 3 = 16")],
        id="TV-NL-08",
    ),
    pytest.param(
        "nl",
        [("E8", "down", "TRAM")],
        ("E5", "across", "LETERS"),
        52,
        0,
        6,
        [("LETTERS", "E5", "across", "(3 + 1 + 2 + 2 + 1 + 2 + 2) × 4 = 52")],
        id="TV-NL-06",
    ),
    pytest.param(
        "nl",
        [],
        ("H3", "across", "AQUAGYM"),
        130,
        50,
        7,
        [("AQUAGYM", "H3", "across", "(1 + 10 × 2 + 4 + 1 + 3 + 8 + 3) × 2 = 80")],
        id="TV-NL-09",
    ),
    pytest.param(
        "nl",
        [],
        ("H4", "across", "QALYTJE"),
        128,
        50,
        7,
        [("QALYTJE", "H4", "across", "(10 × 2 + 1 + 3 + 8 + 2 + 4 + 1) × 2 = 78")],
        id="TV-NL-10",
    ),
    pytest.param(
        "it",
        [],
        ("H6", "across", "MICIO"),
        16,
        0,
        5,
        [("MICIO", "H6", "across", "(3 + 1 + 2 + 1 + 1) × 2 = 16")],
        id="TV-IT-01",
    ),
    pytest.param(
        "it",
        [],
        LEGGIO,
        46,
        0,
        6,
        [("LEGGIO", "H3", "across", "(3 + 1 × 2 + 8 + 8 + 1 + 1) × 2 = 46")],
        id="TV-IT-08",
    ),
    pytest.param(
        "it",
        [LEGGIO],
        ("F3", "down", "SOE"),
        9,
        0,
        3,
        [("SOLE", "F3", "down", "2 + 1 × 2 + 3 + 1 × 2 = 9")],
        id="TV-IT-09",
    ),
    pytest.param(
        "pl",
        [],
        ZUBRY,
        38,
        0,
        5,
        [("ŻUBRY", "H4", "across", "(5 × 2 + 3 + 3 + 1 + 2) × 2 = 38")],
        id="TV-PL-05",
    ),
    pytest.param(
        "pl",
        [ZUBRY],
        ("E5", "down", "KLAN"),
        18,
        0,
        4,
        [("KLAUN", "E5", "down", "(2 + 2 + 1 + 3 + 1) × 2 = 18")],
        id="TV-PL-06",
    ),
    pytest.param(
        "pl",
        SPOZNILY_MOVES,
        ("A1", "down", "SPÓŹNIY"),
        347,
        50,
        7,
        [("SPÓŹNIŁY", "A1", "down", "(1 + 2 + 5 + 9 × 2 + 1 + 1 + 3 + 2) × 9 = 297")],
        id="TV-PL-07",
    ),
    pytest.param(
        "pl",
        [],
        ("H5", "across", "ŁOPATKA"),
        74,
        50,
        7,
        [("ŁOPATKA", "H5", "across", "(3 + 1 + 2 + 1 + 2 + 2 + 1) × 2 = 24")],
        id="TV-PL-09",
    ),
    pytest.param(
        "pl",
        BANASZEK_MOVES,
        ("A6", "across", "SZAnUJĘ"),
        115,
        50,
        7,
        [
            ("SZAnUJĘ", "A6", "across", "(1 + 1 + 1 + 0 + 3 + 3 + 5 × 2) × 3 = 57"),
            ("SNÓW", "A6", "down", "1 + 1 + 5 + 1 = 8"),
        ],
        id="TV-PL-13",
    ),
    pytest.param(
        "nl",
        [PLANK],
        ("G4", "across", "O"),
        4,
        0,
        1,
        [("OP", "G4", "down", "1 + 3 = 4")],
        id="TV-D-09",
    ),
    pytest.param(
        "nl",
        [PLANK],
        ("G4", "down", "O"),
        4,
        0,
        1,
        [("OP", "G4", "down", "1 + 3 = 4")],
        id="TV-D-09-down",
    ),
    pytest.param(
        "woordstrijd",
        [],
        ("H2", "across", "WOORDEN"),
        68,
        40,
        7,
        [("WOORDEN", "H2", "across", "(5 + 1 + 1 × 2 + 2 + 2 + 1 + 1) × 2 = 28")],
        id="TV-D-30-bingo",
    ),
    pytest.param(
        "nl",
        [PLANK],
        ("F8", "down", "DEEN"),
        8,
        0,
        4,
        [("DEKEN", "F8", "down", "2 + 1 + 3 + 1 + 1 = 8")],
        id="SCR-10-centre-once",
    ),
    pytest.param(
        "nl",
        [PLANK],
        ("H9", "across", "EN"),
        13,
        0,
        2,
        [("PLANKEN", "H4", "across", "3 + 3 + 1 + 1 + 3 + 1 + 1 = 13")],
        id="SCR-13b-extension",
    ),
    pytest.param(
        "nl",
        [PLANK],
        ("I5", "across", "ENE"),
        13,
        0,
        3,
        [
            ("ENE", "I5", "across", "1 + 1 + 1 × 2 = 4"),
            ("LE", "H5", "down", "3 + 1 = 4"),
            ("AN", "H6", "down", "1 + 1 = 2"),
            ("NE", "H7", "down", "1 + 1 × 2 = 3"),  # SCR-08: the 2L of I7 counts in both
        ],
        id="SCR-13c-parallel",
    ),
    pytest.param(
        "nl",
        [PLANK, KRAAN],
        ("G7", "down", "EE"),
        12,
        0,
        2,
        [
            ("ENE", "G7", "down", "1 × 2 + 1 + 1 × 2 = 5"),
            ("RE", "G6", "across", "2 + 1 × 2 = 4"),
            ("AE", "I6", "across", "1 + 1 × 2 = 3"),
        ],
        id="SCR-13-reading-order",
    ),
    pytest.param(
        "nl",
        [],
        ("H4", "across", "PLANk"),
        22,
        0,
        5,
        [("PLANk", "H4", "across", "(3 × 2 + 3 + 1 + 1 + 0) × 2 = 22")],
        id="SCR-12-blank-on-2W",
    ),
    pytest.param(
        "nl",
        [],
        ("H4", "across", "pLANK"),
        16,
        0,
        5,
        [("pLANK", "H4", "across", "(0 + 3 + 1 + 1 + 3) × 2 = 16")],
        id="SCR-12-blank-on-2L",
    ),
    pytest.param(
        "nl",
        [PLANK, KRAAN],
        ("G5", "across", "E"),
        7,
        0,
        1,
        [("ER", "G5", "across", "1 + 2 = 3"), ("EL", "G5", "down", "1 + 3 = 4")],
        id="P-22-across",
    ),
    pytest.param(
        "nl",
        [PLANK, KRAAN],
        ("G5", "down", "E"),
        7,
        0,
        1,
        [("EL", "G5", "down", "1 + 3 = 4"), ("ER", "G5", "across", "1 + 2 = 3")],
        id="P-22-down",
    ),
]


@pytest.mark.parametrize(
    ("code", "before", "move", "total", "bingo", "new_tiles", "words"), BOARD_VECTORS
)
def test_board_score_reproduces_vector(
    code: str,
    before: list[Move],
    move: Move,
    total: int,
    bingo: int,
    new_tiles: int,
    words: list[tuple[str, str, str, str]],
) -> None:
    board = play_out(code, before)
    result = board.score(board.place(*move))
    assert [(s.word, s.start, s.direction, s.formula) for s in result.words] == words
    assert [s.points for s in result.words] == [int(f.rsplit(" = ", 1)[1]) for *_, f in words]
    assert result.total == total
    assert result.bingo == bingo
    assert result.new_tiles == new_tiles
    assert result.refusal is None
    assert all(s.note is None for s in result.words)


@pytest.mark.parametrize(
    ("code", "before", "move", "squares"),
    [
        pytest.param("nl", [PLANK], KRAAN, ["F6", "G6", "I6", "J6"], id="TV-NL-08"),
        pytest.param("it", [LEGGIO], ("F3", "down", "SOE"), ["F3", "G3", "I3"], id="TV-IT-09"),
        pytest.param(
            "pl", [ZUBRY], ("E5", "down", "KLAN"), ["E5", "F5", "G5", "I5"], id="TV-PL-06"
        ),
        pytest.param("nl", [], PLANK, ["H4", "H5", "H6", "H7", "H8"], id="TV-NL-07"),
    ],
)
def test_board_place_fills_free_squares_skipping_old_tiles(
    code: str, before: list[Move], move: Move, squares: list[str]
) -> None:
    """BRD-09/10: typed letters fill the free squares from the start, skipping old tiles."""
    play = play_out(code, before).place(*move)
    assert [square.name for square, _ in play.tiles] == squares


def test_board_banaszek_layout_is_a_legal_position() -> None:
    """TV-PL-13: the moves that lead to the suggested layout give exactly the drawn board."""
    pl = editions.get("pl")
    assert play_out("pl", BANASZEK_MOVES) == Board.from_rows(pl, BANASZEK_BOARD)
    after = play_out("pl", [*BANASZEK_MOVES, ("A6", "across", "SZAnUJĘ")])
    assert after.rows()[0] == ".....SZAnUJĘ..."
    assert after["A9"] == Tile("N", blank=True)


def test_board_from_rows_scores_like_the_played_board() -> None:
    """Scoring needs only the tiles on the board, not the moves that put them there."""
    pl = editions.get("pl")
    drawn = Board.from_rows(pl, BANASZEK_BOARD)
    move = drawn.place("A6", "across", "SZAnUJĘ")
    assert drawn.score(move) == play_out("pl", BANASZEK_MOVES).score(move)


def test_board_apply_lays_tiles_and_leaves_the_old_board() -> None:
    """BRD-19: a scored move stays on the board; ``apply`` returns a new board."""
    nl = editions.get("nl")
    empty = Board.empty(nl)
    board = empty.apply(empty.place(*PLANK))
    assert empty.is_empty
    assert not board.is_empty
    assert board.rows()[7] == "...PLANK......."
    assert [(square.name, tile.notation) for square, tile in board] == [
        ("H4", "P"),
        ("H5", "L"),
        ("H6", "A"),
        ("H7", "N"),
        ("H8", "K"),
    ]
    assert board["H8"] == Tile("K")
    assert board[Square(7, 8)] is None


def test_board_apply_refuses_an_illegal_move() -> None:
    board = play_out("nl", [PLANK])
    before = board.rows()
    with pytest.raises(IllegalPlacement) as caught:
        board.apply(board.place_tiles([("H4", "S")]))
    assert caught.value.code == "occupied"
    assert board.rows() == before


def test_board_full_rack_on_the_board_gets_the_bonus_once() -> None:
    """BNG-01/02/07: seven new tiles add 50 after premiums; the count comes from the board."""
    board = play_out("nl", [PLANK])
    result = board.score(board.place("I1", "across", "ABCDEFG"))
    assert result.new_tiles == 7
    assert result.bingo == 50
    assert result.total == sum(s.points for s in result.words) + 50


def test_board_locked_blank_on_the_board() -> None:
    """ALP-07 in board mode: row notation 'V' in the Polish set is a blank; a real V is refused."""
    pl = editions.get("pl")
    board = Board.empty(pl)
    play = board.place("H7", "across", "VOX")
    assert [tile.notation for _, tile in play.tiles] == ["v", "O", "x"]
    assert board.score(play).words[0].formula == "(0 + 1 + 0) × 2 = 2"
    with pytest.raises(NotationError) as caught:
        board.score(board.place_tiles([("H8", Tile("V")), ("H9", Tile("O"))]))
    assert caught.value.code == "locked_blank"
    assert caught.value.params == {"letter": "V"}


def test_board_multi_letter_tile_scores_as_one_square() -> None:
    """P-04 / P-20: the Spanish CH is one tile on one square, worth 5."""
    es = editions.get("es")
    board = Board.empty(es)
    play = board.place("H8", "across", "[CH]E")
    assert [square.name for square, _ in play.tiles] == ["H8", "H9"]
    result = board.score(play)
    assert [(s.word, s.formula) for s in result.words] == [("CHE", "(5 + 1) × 2 = 12")]
    assert board.apply(play).rows()[7] == ".......[CH]E......"
