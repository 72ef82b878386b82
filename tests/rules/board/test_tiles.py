"""Tiles and notation: typed text, row notation, squares and GCG positions (BRD-04, ALP, P-20)."""

import pytest

import editions
from rules import Board, Direction, NotationError, Square, Tile, parse_word, score_words, typed_word
from rules.board.squares import gcg_position, parse_gcg_position

ROW_NAMES = "ABCDEFGHIJKLMNO"


@pytest.mark.parametrize(
    ("code", "text", "notation"),
    [
        pytest.param("nl", "IJS", ["I", "J", "S"], id="TV-NL-05"),
        pytest.param("nl", "ĳs", ["I", "J", "S"], id="ALP-03-ligature"),
        pytest.param("nl", "bijl", ["B", "I", "J", "L"], id="TV-D-02"),
        pytest.param("nl", "IDEEËN", ["I", "D", "E", "E", "E", "N"], id="TV-D-01"),
        pytest.param("nl", "café", ["C", "A", "F", "E"], id="ALP-02"),
        pytest.param("it", "KIWI", ["k", "I", "w", "I"], id="TV-D-04"),
        pytest.param("it", "perché", ["P", "E", "R", "C", "H", "E"], id="ALP-04-acute"),
        pytest.param("it", "CITTÀ", ["C", "I", "T", "T", "A"], id="TV-D-03"),
        pytest.param("pl", "VOX", ["v", "O", "x"], id="TV-D-05"),
        pytest.param("pl", "żółw", ["Ż", "Ó", "Ł", "W"], id="ALP-06"),
        pytest.param("es", "chorro", ["[CH]", "O", "[RR]", "O"], id="P-20-digraphs"),
        pytest.param("es", "c·h", ["C", "H"], id="P-20-separator"),
        pytest.param("es", "Llama", ["[LL]", "A", "M", "A"], id="P-20-LL"),
        pytest.param("de", "Straße", ["S", "T", "R", "A", "S", "S", "E"], id="P-20-sharp-s"),
        pytest.param("de", "Äpfel", ["Ä", "P", "F", "E", "L"], id="P-20-umlaut-kept"),
    ],
)
def test_parse_word_gives_tiles_of_the_edition(code: str, text: str, notation: list[str]) -> None:
    tiles = parse_word(editions.get(code), text)
    assert [tile.notation for tile in tiles] == notation


def test_parse_word_kiwi_scores_two() -> None:
    """TV-D-04: K and W are locked blanks in Italian, so KIWI is 0 + 1 + 0 + 1."""
    it = editions.get("it")
    assert parse_word(it, "KIWI") == (
        Tile("K", blank=True),
        Tile("I"),
        Tile("W", blank=True),
        Tile("I"),
    )
    assert score_words(it, [typed_word(it, "KIWI")]).total == 2


def test_parse_word_ij_is_two_tiles() -> None:
    """TV-NL-05 / ALP-03: IJ is an I and a J; IJS is 7 points with three tiles."""
    nl = editions.get("nl")
    result = score_words(nl, [typed_word(nl, "IJS")])
    assert (result.total, result.new_tiles) == (7, 3)


@pytest.mark.parametrize(("text", "char"), [("KOT1", "1"), ("KO-T", "-"), ("KO T", " ")])
def test_parse_word_rejects_digits_symbols_and_spaces(text: str, char: str) -> None:
    """TV-D-06 / ALP-08."""
    with pytest.raises(NotationError) as caught:
        parse_word(editions.get("pl"), text)
    assert caught.value.code == "invalid_character"
    assert caught.value.params == {"char": char, "text": text}


def test_tile_notation_and_text() -> None:
    assert [Tile("A").notation, Tile("A", blank=True).notation] == ["A", "a"]
    assert [Tile("CH").notation, Tile("CH", blank=True).notation] == ["[CH]", "[ch]"]
    assert [Tile("CH").text, Tile("CH", blank=True).text] == ["CH", "ch"]
    assert Tile("Ż", blank=True).notation == "ż"


ES_BOARD = """
    ...............
    ...............
    ...............
    ...............
    ...............
    ...............
    .......[CH].......
    .....[ll]ORO[RR]o....
    .......e.......
    ...............
    ...............
    ...............
    ...............
    ...............
    ...............
"""

PL_BOARD = """
    ...............
    ...............
    ...............
    ...............
    ....K..........
    ....L..........
    ....A..........
    ...ŻuBRY.......
    ....N..........
    ...............
    ...............
    ...............
    ...............
    ...............
    ...............
"""


def test_board_from_rows_reads_row_notation() -> None:
    """Upper case a tile, lower case a blank, brackets a multi-letter tile, '.' empty."""
    es = Board.from_rows(editions.get("es"), ES_BOARD)
    assert es["G8"] == Tile("CH")
    assert es["H6"] == Tile("LL", blank=True)
    assert es["H7"] == Tile("O")
    assert es["H10"] == Tile("RR")
    assert es["H11"] == Tile("O", blank=True)
    assert es["I8"] == Tile("E", blank=True)
    assert es["H5"] is None
    pl = Board.from_rows(editions.get("pl"), PL_BOARD)
    assert pl["H4"] == Tile("Ż")
    assert pl["H5"] == Tile("U", blank=True)


@pytest.mark.parametrize(("code", "drawing"), [("es", ES_BOARD), ("pl", PL_BOARD)])
def test_board_rows_round_trip(code: str, drawing: str) -> None:
    edition = editions.get(code)
    board = Board.from_rows(edition, drawing)
    assert Board.from_rows(edition, board.rows()).rows() == board.rows()
    assert Board.from_rows(edition, board.rows()) == board
    assert list(board.rows()) == drawing.split()


def test_board_from_rows_accepts_a_list_of_rows() -> None:
    pl = editions.get("pl")
    assert Board.from_rows(pl, PL_BOARD.split()) == Board.from_rows(pl, PL_BOARD)
    assert Board.from_rows(pl, ["", *PL_BOARD.splitlines(), "  "]) == Board.from_rows(pl, PL_BOARD)


def test_board_from_rows_locks_missing_letters_as_blanks() -> None:
    """ALP-09: a letter the set lacks is a blank even when drawn in upper case."""
    pl = editions.get("pl")
    board = Board.from_rows(pl, ["Q" + "." * 14] + ["." * 15] * 14)
    assert board["A1"] == Tile("Q", blank=True)
    assert board.rows()[0] == "q" + "." * 14


def test_square_parse_and_name_for_every_square() -> None:
    """BRD-04/05: rows A–O top to bottom, columns 1–15 left to right; H8 is the centre."""
    for row, letter in enumerate(ROW_NAMES):
        for col in range(15):
            name = f"{letter}{col + 1}"
            assert Square.parse(name) == Square(row, col)
            assert Square.parse(name.lower()) == Square(row, col)
            assert Square(row, col).name == name
    assert Square.parse("H8") == Square(7, 7)
    assert Square.parse("H4") == Square(7, 3)
    assert Square.parse("A15") == Square(0, 14)
    assert Square.parse("O1") == Square(14, 0)


@pytest.mark.parametrize("text", ["P1", "H0", "H16", "", "8H", "HH", "H-1", "H 8", "AA1"])
def test_square_parse_refuses_bad_names(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        Square.parse(text)
    assert caught.value.code == "bad_square"
    assert caught.value.params == {"text": text}


def test_gcg_position_names_h4() -> None:
    """GCG puts the row number first for across moves and the column letter first for down."""
    h4 = Square.parse("H4")
    assert gcg_position(h4, Direction.ACROSS) == "8D"
    assert gcg_position(h4, Direction.DOWN) == "D8"
    assert parse_gcg_position("8D") == (h4, Direction.ACROSS)
    assert parse_gcg_position("D8") == (h4, Direction.DOWN)
    assert parse_gcg_position("d8") == (h4, Direction.DOWN)
    assert gcg_position(Square.parse("A15"), Direction.ACROSS) == "1O"
    assert gcg_position(Square.parse("O1"), Direction.DOWN) == "A15"


def test_gcg_position_round_trip_over_every_square() -> None:
    for row in range(15):
        for col in range(15):
            for way in Direction:
                text = gcg_position(Square(row, col), way)
                assert parse_gcg_position(text) == (Square(row, col), way)


@pytest.mark.parametrize("text", ["", "8", "D", "0D", "16A", "8P", "P8", "D16", "8DD"])
def test_parse_gcg_position_refuses_bad_positions(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_gcg_position(text)
    assert caught.value.code == "bad_square"


@pytest.mark.parametrize("text", ["across", "down"])
def test_direction_parse(text: str) -> None:
    assert Direction.parse(text) == text
    assert Direction.parse(text).other != text
    assert Direction.parse(text).other.other == text


def test_direction_parse_refuses_other_words() -> None:
    with pytest.raises(NotationError) as caught:
        Direction.parse("diagonal")
    assert caught.value.code == "bad_direction"
    assert caught.value.params == {"text": "diagonal"}
