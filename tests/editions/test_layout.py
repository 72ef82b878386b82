"""The standard layout against spec Appendix B, and the text-drawing parser."""

import pytest

from editions.layout import Premium, layout, parse_layout

# Appendix B, copied as the appendix lists them (rows A–O, columns 1–15).
APPENDIX_B = {
    Premium.TW: "A1 A8 A15 H1 H15 O1 O8 O15",
    Premium.DW: "B2 C3 D4 E5 K5 L4 M3 N2 B14 C13 D12 E11 K11 L12 M13 N14 H8",
    Premium.TL: "B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10",
    Premium.DL: "A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12",
}


def square(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


EXPECTED = {square(name): p for p, names in APPENDIX_B.items() for name in names.split()}
SQUARES = [(row, col) for row in range(15) for col in range(15)]


def test_appendix_b_lists_61_distinct_squares():
    assert len(EXPECTED) == sum(len(names.split()) for names in APPENDIX_B.values()) == 61


def test_standard_layout_equals_appendix_b():
    board = layout("standard")
    assert board.size == 15
    assert {sq: board.premium(*sq) for sq in SQUARES if board.premium(*sq)} == EXPECTED


@pytest.mark.parametrize(
    ("name", "mirror"),
    [
        ("vertical axis", lambda r, c: (r, 14 - c)),
        ("horizontal axis", lambda r, c: (14 - r, c)),
        ("diagonal", lambda r, c: (c, r)),
    ],
)
def test_standard_layout_is_symmetric(name, mirror):
    board = layout("standard")
    assert all(board.premium(*sq) == board.premium(*mirror(*sq)) for sq in SQUARES), name


def test_standard_layout_centre_is_h8_double_word():
    board = layout("standard")
    assert board.centre == square("H8")
    assert board.premium(*board.centre) is Premium.DW


@pytest.mark.parametrize(
    ("coordinate", "premium"),
    [
        ("H4", Premium.DL),  # NL:42, IT:39, PL:19
        ("F6", Premium.TL),  # NL:42
        ("J6", Premium.TL),
        ("G3", Premium.DL),  # IT:41
        ("I3", Premium.DL),
        ("E5", Premium.DW),  # PL:21
        ("A1", Premium.TW),  # TV-PL-07
        ("A8", Premium.TW),
        ("H3", None),  # plain squares the examples require
        ("H5", None),
        ("H6", None),
        ("H7", None),
        ("F3", None),
        ("F5", None),
        ("G5", None),
        ("G6", None),
        ("I5", None),
        ("I6", None),
    ],
)
def test_standard_layout_squares_the_sources_name(coordinate, premium):
    assert layout("standard").premium(*square(coordinate)) == premium


def test_parse_layout_reads_comments_and_tokens():
    board = parse_layout("tiny", "# a comment\n3W .. 2L\n.. 2W ..\n3L .. 3W\n")
    assert board.size == 3
    assert board.premiums == (
        Premium.TW, None, Premium.DL,
        None, Premium.DW, None,
        Premium.TL, None, Premium.TW,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("drawing", "message"),
    [
        ("3W .. 2L\n.. 2W\n3L .. 3W\n", "every row must have 3 squares"),  # ragged
        ("3W .. 2L\n.. 2W ..\n", "every row must have 2 squares"),  # not square
        ("3W .. 2L\n.. 4W ..\n3L .. 3W\n", "4W"),  # unknown token
        ("3W .. 2L\n.. 2w ..\n3L .. 3W\n", "2w"),
    ],
)
def test_parse_layout_refuses_bad_drawing(drawing, message):
    with pytest.raises(ValueError, match=message) as caught:
        parse_layout("bad", drawing)
    assert "'bad'" in str(caught.value)
