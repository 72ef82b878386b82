"""Every set fact the sources state (EDN, LIT, WS, TV-*), checked against editions/data."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import editions
from editions.errors import UnknownEdition
from editions.layout import Premium

CODES = ("de", "en", "es", "fr", "it", "nl", "pl", "pl-literaki", "woordstrijd")


def count(code: str, face: str) -> int:
    return next((k.count for k in editions.get(code).kinds if k.face == face), 0)


def letters(code: str) -> int:
    return sum(k.count for k in editions.get(code).kinds)


def word_value(code: str, word: str) -> int:
    edition = editions.get(code)
    return sum(edition.values[letter] for letter in edition.letters(word))


def test_codes_lists_every_edition():
    assert editions.codes() == CODES


def test_get_unknown_code_names_every_known_code():
    with pytest.raises(UnknownEdition) as caught:
        editions.get("xx")
    assert caught.value.code == "unknown_edition"
    assert "'xx'" in str(caught.value)
    for code in CODES:
        assert code in str(caught.value)


@pytest.mark.parametrize("code", CODES)
def test_edition_has_two_blanks_and_a_rack_of_seven(code):
    edition = editions.get(code)
    assert (edition.blanks, edition.rack_size) == (2, 7)  # EDN-04, WS-10


@pytest.mark.parametrize("code", CODES)
def test_edition_faces_are_upper_case_with_positive_counts(code):
    for kind in editions.get(code).kinds:
        assert kind.face == kind.face.upper()
        assert kind.count >= 1 and kind.value >= 1


@pytest.mark.parametrize("code", CODES)
def test_edition_colours_cover_the_premiums_it_offers(code):
    edition = editions.get(code)
    assert {premium for premium, _ in edition.colours} == set(edition.premiums)


@pytest.mark.parametrize(
    ("code", "tiles", "letters_", "bingo"),
    [
        ("nl", 102, 100, 50),  # EDN-10, TV-NL-21
        ("it", 120, 118, 50),  # EDN-20, TV-IT-18
        ("pl", 100, 98, 50),  # EDN-30, TV-PL-19
        ("pl-literaki", 100, 98, 50),  # LIT-02, LIT-07
        ("en", 100, 98, 50),  # EDN-40, P-04
        ("fr", 102, 100, 50),  # P-04
        ("de", 102, 100, 50),  # P-04
        ("es", 100, 98, 50),  # P-04
        ("woordstrijd", 105, 103, 40),  # WS-21, WS-18
    ],
)
def test_edition_tile_totals(code, tiles, letters_, bingo):
    edition = editions.get(code)
    assert (edition.total_tiles, letters(code), edition.bingo_bonus) == (tiles, letters_, bingo)


@pytest.mark.parametrize(
    ("code", "face", "tiles"),
    [
        ("nl", "E", 18),  # EDN-11
        ("nl", "N", 10),
        ("it", "O", 15),  # EDN-24
        ("it", "Q", 1),  # EDN-23
        ("pl", "Ł", 2),  # EDN-33
        ("woordstrijd", "E", 18),  # WS-22
        ("woordstrijd", "Y", 1),
        ("woordstrijd", "X", 1),
        ("woordstrijd", "Q", 1),
    ],
)
def test_edition_letter_count(code, face, tiles):
    assert count(code, face) == tiles


@pytest.mark.parametrize(
    ("code", "face", "value"),
    [
        ("nl", "Q", 10),  # EDN-13
        ("nl", "Z", 4),  # EDN-15, ALP-01
        ("it", "Q", 10),  # EDN-23
        ("it", "Z", 8),  # EDN-25
        ("pl", "Ź", 9),  # EDN-31
        ("en", "Z", 10),  # EDN-40
        ("fr", "Z", 10),  # EDN-41
        ("woordstrijd", "Y", 8),  # WS-20, OQ-82
        ("woordstrijd", "X", 8),
        ("woordstrijd", "Q", 10),
        ("woordstrijd", "J", 3),  # WS-25
        ("woordstrijd", "U", 3),
    ],
)
def test_edition_letter_value(code, face, value):
    assert editions.get(code).values[face] == value


@pytest.mark.parametrize(
    ("code", "most_frequent"),
    [("nl", "E"), ("it", "O"), ("woordstrijd", "E")],  # EDN-11, EDN-24, WS-22
)
def test_edition_most_frequent_letter(code, most_frequent):
    kinds = editions.get(code).kinds
    top = max(k.count for k in kinds)
    assert [k.face for k in kinds if k.count == top] == [most_frequent]


@pytest.mark.parametrize(
    ("code", "highest"),
    [("nl", "Q"), ("it", "Q"), ("pl", "Ź")],  # EDN-13, EDN-23, EDN-31
)
def test_edition_single_highest_valued_face(code, highest):
    kinds = editions.get(code).kinds
    top = max(k.value for k in kinds)
    assert [(k.face, k.count) for k in kinds if k.value == top] == [(highest, 1)]


def test_nl_letters_are_worth_230_points():
    assert editions.get("nl").total_points == 230  # EDN-12


@pytest.mark.parametrize(
    ("code", "faces", "tiles"),
    [
        ("nl", "AEINO", 44),  # EDN-14
        ("it", "AEIO", 52),  # EDN-21
    ],
)
def test_edition_one_point_letters_tally(code, faces, tiles):
    edition = editions.get(code)
    assert all(edition.values[f] == 1 for f in faces)
    assert sum(count(code, f) for f in faces) == tiles


def test_pl_one_point_tiles_are_52():
    kinds = editions.get("pl").kinds
    assert sum(k.count for k in kinds if k.value == 1) == 52  # EDN-32


@pytest.mark.parametrize(
    ("code", "absent"),
    [
        ("it", "JKWXY"),  # EDN-22, ALP-05
        ("pl", "QVX"),  # EDN-35, ALP-07
        ("pl-literaki", "QVX"),
        ("nl", "Ĳ"),  # EDN-16, WS-26: IJ is two tiles
        ("woordstrijd", "Ĳ"),
    ],
)
def test_edition_lacks_letters(code, absent):
    assert not set(absent) & editions.get(code).faces


@pytest.mark.parametrize(
    ("face", "value", "tiles"),
    [
        ("Ą", 5, 1),  # EDN-33
        ("Ę", 5, 1),
        ("Ó", 5, 1),
        ("Ś", 5, 1),
        ("Ż", 5, 1),
        ("Ć", 6, 1),
        ("Ń", 7, 1),
        ("Ź", 9, 1),
        ("Ł", 3, 2),
    ],
)
def test_pl_diacritic_tiles(face, value, tiles):
    assert (editions.get("pl").values[face], count("pl", face)) == (value, tiles)


# EDN-18, EDN-26, EDN-36 (with EDN-33), WS-20: the values the worked examples imply.
IMPLIED_VALUES = {
    "nl": "A1 B3 D2 E1 G3 I1 J4 K3 L3 M3 N1 O1 P3 Q10 R2 S2 T2 U4 X8 Y8 Z4",
    "it": "A1 C2 E1 F5 G8 I1 L3 M3 O1 P5 Q10 R2 S2 T2 Z8",
    "pl": "A1 B3 D2 G3 I1 K2 L2 Ł3 M2 N1 O1 P2 R1 S1 T2 U3 W1 Y2 Z1 Ą5 Ę5 Ó5 Ś5 Ż5 Ć6 Ń7 Ź9",
    "woordstrijd": "E1 N1 A1 O1 I1 T2 R2 D2 S2 L3 G3 K3 M3 U3 J3 B3 P3 H4 V4 F4 Z4 W5 C5 Y8 X8 Q10",
}


@pytest.mark.parametrize(
    ("code", "face", "value"),
    [
        (code, pair[:1], int(pair[1:]))
        for code, pairs in IMPLIED_VALUES.items()
        for pair in pairs.split()
    ],
)
def test_edition_implied_value(code, face, value):
    assert editions.get(code).values[face] == value


@pytest.mark.parametrize("face", ["Ć", "Ń", "Ź"])
def test_pl_literaki_values_colour_band_five(face):
    assert editions.get("pl-literaki").values[face] == 5  # LIT-03


def test_pl_literaki_keeps_pl_counts_and_other_values():
    pl, literaki = editions.get("pl"), editions.get("pl-literaki")  # LIT-02, LIT-03
    changed = {"Ć", "Ń", "Ź"}
    assert [(k.face, k.count) for k in literaki.kinds] == [(k.face, k.count) for k in pl.kinds]
    assert {f: v for f, v in literaki.values.items() if f not in changed} == {
        f: v for f, v in pl.values.items() if f not in changed
    }


def test_pl_literaki_has_no_board_and_no_2l():
    literaki = editions.get("pl-literaki")  # LIT-06, LIT-07, P-02
    assert literaki.layout is None
    assert literaki.premiums == (Premium.TL, Premium.DW, Premium.TW)


@pytest.mark.parametrize("code", [c for c in CODES if c != "pl-literaki"])
def test_edition_uses_standard_board_with_every_premium(code):
    edition = editions.get(code)  # P-04, P-50
    assert edition.layout is not None and edition.layout.name == "standard"
    assert edition.premiums == tuple(Premium)


@pytest.mark.parametrize(
    ("code", "word", "points"),
    [
        ("pl", "DŹWIG", 16),  # TV-PL-10
        ("pl-literaki", "DŹWIG", 12),  # TV-PL-11
        ("woordstrijd", "WOORD", 11),  # TV-D-30
        ("woordstrijd", "DOEN", 5),
        ("nl", "IJS", 7),  # TV-NL-05
    ],
)
def test_edition_word_on_plain_squares(code, word, points):
    assert word_value(code, word) == points


@pytest.mark.parametrize(
    ("code", "players", "bag"),
    [
        ("nl", 2, 88),  # TV-NL-13
        ("nl", 3, 81),  # TV-D-14
        ("nl", 4, 74),
        ("it", 2, 106),
        ("it", 3, 99),
        ("it", 4, 92),  # TV-IT-13
        ("pl", 2, 86),  # TV-PL-15
        ("pl", 3, 79),  # TV-D-14
        ("pl", 4, 72),  # TV-PL-16
    ],
)
def test_edition_bag_at_start(code, players, bag):
    edition = editions.get(code)
    assert edition.total_tiles - players * edition.rack_size == bag


@pytest.mark.parametrize("code", ["es", "nl", "pl"])
@given(data=st.data())
def test_a_word_spelled_from_tiles_reads_back_as_the_same_tiles(
    code: str, data: st.DataObject
) -> None:
    """Whatever tiles lie in a row — C then H, L then LL, blanks in lower case — the word
    written for them splits back into exactly those tiles."""
    edition = editions.get(code)
    faces = sorted(edition.faces)
    tile = st.sampled_from(faces).flatmap(lambda face: st.sampled_from([face, face.lower()]))
    tiles = data.draw(st.lists(tile, min_size=1, max_size=15))
    assert edition.letters(edition.spelled(tiles)) == tuple(face.upper() for face in tiles)
