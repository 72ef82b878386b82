"""Typed-word scoring (spec Part II §2 SCR, §3 TYP, §6 BNG; test vectors §20)."""

from typing import Any

import pytest

import editions
from rules import InvalidMove, NotationError, Tile, TypedTile, score_words, typed_word


def w(text: str, **marks: Any) -> tuple[str, dict[str, Any]]:
    """A typed word as the table gives it: text plus 0-based marks (premiums, blanks, old)."""
    return text, marks


def typed(code: str, words: list[tuple[str, dict[str, Any]]]) -> list[tuple[TypedTile, ...]]:
    edition = editions.get(code)
    return [typed_word(edition, text, **marks) for text, marks in words]


def points_of(formula: str) -> int:
    """The number a formula line ends with (SCR-17: "… = total")."""
    return int(formula.rsplit(" = ", 1)[1])


# id, edition, words typed, move total, (word, formula) per word, bingo, new tiles, refusal
TYPED_VECTORS = [
    pytest.param(
        "nl",
        [w("INDEX", premiums={0: "2W", 4: "3L"})],
        58,
        [("INDEX", "(1 + 1 + 2 + 1 + 8 × 3) × 2 = 58")],
        0,
        5,
        None,
        id="TV-NL-01",
    ),
    pytest.param(
        "nl",
        [w("BOEK", premiums={3: "3L"})],
        14,
        [("BOEK", "3 + 1 + 1 + 3 × 3 = 14")],
        0,
        4,
        None,
        id="TV-NL-02",
    ),
    pytest.param(
        "nl",
        [w("KAAS", premiums={0: "3L"}, old={1, 2, 3})],
        13,
        [("KAAS", "3 × 3 + 1 + 1 + 2 = 13")],
        0,
        1,
        None,
        id="TV-NL-03",
    ),
    pytest.param(
        "nl",
        [w("BOEK", premiums={3: "3L"}), w("KAAS", premiums={0: "3L"}, old={1, 2, 3})],
        27,
        [("BOEK", "3 + 1 + 1 + 3 × 3 = 14"), ("KAAS", "3 × 3 + 1 + 1 + 2 = 13")],
        0,
        4,
        None,
        id="TV-NL-04",
    ),
    pytest.param(
        "nl",
        [w("IJS")],
        7,
        [("IJS", "1 + 4 + 2 = 7")],
        0,
        3,
        None,
        id="TV-NL-05",
    ),
    pytest.param(
        "nl",
        [w("LETTERS", premiums={0: "2W", 6: "2W"}, old={3})],
        52,
        [("LETTERS", "(3 + 1 + 2 + 2 + 1 + 2 + 2) × 4 = 52")],
        0,
        6,
        None,
        id="TV-NL-06",
    ),
    pytest.param(
        "nl",
        [w("AQUAGYM", premiums={1: "2L", 5: "2W"})],
        130,
        [("AQUAGYM", "(1 + 10 × 2 + 4 + 1 + 3 + 8 + 3) × 2 = 80")],
        50,
        7,
        None,
        id="TV-NL-09",
    ),
    pytest.param(
        "nl",
        [w("QALYTJE", premiums={0: "2L", 4: "2W"})],
        128,
        [("QALYTJE", "(10 × 2 + 1 + 3 + 8 + 2 + 4 + 1) × 2 = 78")],
        50,
        7,
        None,
        id="TV-NL-10",
    ),
    pytest.param(
        "it",
        [w("MICIO", premiums={2: "2W"})],
        16,
        [("MICIO", "(3 + 1 + 2 + 1 + 1) × 2 = 16")],
        0,
        5,
        None,
        id="TV-IT-01",
    ),
    pytest.param(
        "it",
        [w("FRAGOLA", premiums={4: "2W"})],
        92,
        [("FRAGOLA", "(5 + 2 + 1 + 8 + 1 + 3 + 1) × 2 = 42")],
        50,
        7,
        None,
        id="TV-IT-02",
    ),
    pytest.param(
        "it",
        [w("POSTER", old={0, 1, 2, 3, 4})],
        13,
        [("POSTER", "5 + 1 + 2 + 2 + 1 + 2 = 13")],
        0,
        1,
        None,
        id="TV-IT-03",
    ),
    pytest.param(
        "it",
        [w("FRAGOLA", premiums={4: "2W"}), w("POSTER", old={0, 1, 2, 3, 4})],
        105,
        [
            ("FRAGOLA", "(5 + 2 + 1 + 8 + 1 + 3 + 1) × 2 = 42"),
            ("POSTER", "5 + 1 + 2 + 2 + 1 + 2 = 13"),
        ],
        50,
        7,
        None,
        id="TV-IT-04",
    ),
    pytest.param(
        "it",
        [w("FICO", premiums={0: "2W"})],
        18,
        [("FICO", "(5 + 1 + 2 + 1) × 2 = 18")],
        0,
        4,
        None,
        id="TV-IT-05",
    ),
    pytest.param(
        "it",
        [w("FA", premiums={0: "2W"}, old={1})],
        12,
        [("FA", "(5 + 1) × 2 = 12")],
        0,
        1,
        None,
        id="TV-IT-06",
    ),
    pytest.param(
        "it",
        [w("FICO", premiums={0: "2W"}), w("FA", premiums={0: "2W"}, old={1})],
        30,
        [("FICO", "(5 + 1 + 2 + 1) × 2 = 18"), ("FA", "(5 + 1) × 2 = 12")],
        0,
        4,
        None,
        id="TV-IT-07",
    ),
    pytest.param(
        "pl",
        [w("ŻÓŁW", premiums={0: "2L", 3: "2W"})],
        38,
        [("ŻÓŁW", "(5 × 2 + 5 + 3 + 1) × 2 = 38")],
        0,
        4,
        None,
        id="TV-PL-01",
    ),
    pytest.param(
        "pl",
        [w("MYSZ", premiums={1: "3L"})],
        10,
        [("MYSZ", "2 + 2 × 3 + 1 + 1 = 10")],
        0,
        4,
        None,
        id="TV-PL-02",
    ),
    pytest.param(
        "pl",
        [w("KOTY", premiums={3: "3L"}, old={0, 1, 2})],
        11,
        [("KOTY", "2 + 1 + 2 + 2 × 3 = 11")],
        0,
        1,
        None,
        id="TV-PL-03",
    ),
    pytest.param(
        "pl",
        [w("MYSZ", premiums={1: "3L"}), w("KOTY", premiums={3: "3L"}, old={0, 1, 2})],
        21,
        [("MYSZ", "2 + 2 × 3 + 1 + 1 = 10"), ("KOTY", "2 + 1 + 2 + 2 × 3 = 11")],
        0,
        4,
        None,
        id="TV-PL-04",
    ),
    pytest.param(
        "pl",
        [w("SPÓŹNIŁY", premiums={0: "3W", 3: "2L", 7: "3W"}, old={6})],
        347,
        [("SPÓŹNIŁY", "(1 + 2 + 5 + 9 × 2 + 1 + 1 + 3 + 2) × 9 = 297")],
        50,
        7,
        None,
        id="TV-PL-07",
    ),
    pytest.param(
        "pl",
        [w("ŻABA", premiums={1: "2W"}, blanks={1})],
        18,
        [("ŻaBA", "(5 + 0 + 3 + 1) × 2 = 18")],
        0,
        4,
        None,
        id="TV-PL-08",
    ),
    pytest.param(
        "pl",
        [w("ŁOPATKA", premiums={3: "2W"})],
        74,
        [("ŁOPATKA", "(3 + 1 + 2 + 1 + 2 + 2 + 1) × 2 = 24")],
        50,
        7,
        None,
        id="TV-PL-09",
    ),
    pytest.param(
        "pl",
        [w("DŹWIG")],
        16,
        [("DŹWIG", "2 + 9 + 1 + 1 + 3 = 16")],
        0,
        5,
        None,
        id="TV-PL-10",
    ),
    pytest.param(
        "pl-literaki",
        [w("DŹWIG")],
        12,
        [("DŹWIG", "2 + 5 + 1 + 1 + 3 = 12")],
        0,
        5,
        None,
        id="TV-PL-11",
    ),
    pytest.param(
        "nl",
        [w("IDEEËN")],
        7,
        [("IDEEEN", "1 + 2 + 1 + 1 + 1 + 1 = 7")],
        0,
        6,
        None,
        id="TV-D-01",
    ),
    pytest.param(
        "nl",
        [w("bijl")],
        11,
        [("BIJL", "3 + 1 + 4 + 3 = 11")],
        0,
        4,
        None,
        id="TV-D-02",
    ),
    pytest.param(
        "it",
        [w("CITTÀ")],
        8,
        [("CITTA", "2 + 1 + 2 + 2 + 1 = 8")],
        0,
        5,
        None,
        id="TV-D-03",
    ),
    pytest.param(
        "it",
        [w("KIWI")],
        2,
        [("kIwI", "0 + 1 + 0 + 1 = 2")],
        0,
        4,
        None,
        id="TV-D-04",
    ),
    pytest.param(
        "pl",
        [w("VOX")],
        1,
        [("vOx", "0 + 1 + 0 = 1")],
        0,
        3,
        None,
        id="TV-D-05",
    ),
    pytest.param(
        "pl",
        [w("SPÓŹNIŁY", premiums={0: "3W", 3: "2L", 7: "3W"})],
        297,
        [("SPÓŹNIŁY", "(1 + 2 + 5 + 9 × 2 + 1 + 1 + 3 + 2) × 9 = 297")],
        0,
        8,
        "too_many_new_tiles",
        id="TV-D-07",
    ),
    pytest.param(
        "nl",
        [w("LETTERS", premiums={0: "2W", 6: "2W"})],
        102,
        [("LETTERS", "(3 + 1 + 2 + 2 + 1 + 2 + 2) × 4 = 52")],
        50,
        7,
        None,
        id="TV-D-08",
    ),
    pytest.param(
        "woordstrijd",
        [w("WOORD")],
        11,
        [("WOORD", "5 + 1 + 1 + 2 + 2 = 11")],
        0,
        5,
        None,
        id="TV-D-30-WOORD",
    ),
    pytest.param(
        "woordstrijd",
        [w("DOEN")],
        5,
        [("DOEN", "2 + 1 + 1 + 1 = 5")],
        0,
        4,
        None,
        id="TV-D-30-DOEN",
    ),
    pytest.param(
        "woordstrijd",
        [w("WOORDEN")],
        53,
        [("WOORDEN", "5 + 1 + 1 + 2 + 2 + 1 + 1 = 13")],
        40,
        7,
        None,
        id="TV-D-30-bingo",
    ),
]


@pytest.mark.parametrize(
    ("code", "words", "total", "expected", "bingo", "new_tiles", "refusal"), TYPED_VECTORS
)
def test_score_words_reproduces_typed_vector(
    code: str,
    words: list[tuple[str, dict[str, Any]]],
    total: int,
    expected: list[tuple[str, str]],
    bingo: int,
    new_tiles: int,
    refusal: str | None,
) -> None:
    result = score_words(editions.get(code), typed(code, words))
    assert [(s.word, s.formula) for s in result.words] == expected
    assert [s.points for s in result.words] == [points_of(f) for _, f in expected]
    assert result.total == total
    assert result.bingo == bingo
    assert result.new_tiles == new_tiles
    assert result.refusal == refusal
    assert all(s.note is None for s in result.words)


def test_score_words_counts_the_word_with_most_new_tiles() -> None:
    """BNG-04: the move's new tiles are those of the word holding the most, not a sum."""
    nl = editions.get("nl")
    cross = typed_word(nl, "AS", old={0})
    main = typed_word(nl, "KAAS", old={0, 1, 2})
    result = score_words(nl, [cross, main])
    assert result.new_tiles == 1


def test_score_words_adds_bingo_only_for_exactly_a_full_rack() -> None:
    """BNG-03/06: 6 new tiles get nothing, 7 get the edition's bonus, 8 are refused."""
    nl = editions.get("nl")
    six = score_words(nl, [typed_word(nl, "LETTERS", old={3})])
    seven = score_words(nl, [typed_word(nl, "LETTERS")])
    eight = score_words(nl, [typed_word(nl, "LETTEREN")])
    assert (six.total, six.bingo, six.refusal) == (13, 0, None)
    assert (seven.total, seven.bingo, seven.refusal) == (13 + 50, 50, None)
    assert (eight.total, eight.bingo, eight.refusal) == (13, 0, "too_many_new_tiles")


def test_score_words_marks_word_without_new_tiles() -> None:
    """TYP-11: a word without new tiles scores 0 with a note; premiums under it don't count."""
    nl = editions.get("nl")
    main = typed_word(nl, "KAAS", premiums={0: "3L"})
    stale = typed_word(nl, "AS", premiums={0: "3W"}, old={0, 1})
    result = score_words(nl, [main, stale])
    assert result.words[1].word == "AS"
    assert result.words[1].points == 0
    assert result.words[1].new_tiles == 0
    assert result.words[1].note == "no_new_tiles"
    assert result.words[0].note is None
    assert result.total == 13


def test_score_words_single_word_without_new_tiles_scores_zero() -> None:
    nl = editions.get("nl")
    result = score_words(nl, [typed_word(nl, "KAAS", old={0, 1, 2, 3})])
    assert (result.total, result.bingo, result.new_tiles) == (0, 0, 0)
    assert result.words[0].note == "no_new_tiles"


@pytest.mark.parametrize(
    ("text", "marks", "formula"),
    [
        pytest.param(
            "KAAS", {"premiums": {0: "2W", 3: "3W"}}, "(3 + 1 + 1 + 2) × 6 = 42", id="SCR-09-2W-3W"
        ),
        pytest.param(
            "KAAS", {"premiums": {0: "2W", 3: "2W"}}, "(3 + 1 + 1 + 2) × 4 = 28", id="SCR-09-2W-2W"
        ),
        pytest.param(
            "KAAS", {"premiums": {0: "3W", 3: "3W"}}, "(3 + 1 + 1 + 2) × 9 = 63", id="SCR-09-3W-3W"
        ),
        pytest.param(
            "A" * 15,
            {"premiums": {0: "3W", 7: "3W", 14: "3W"}},
            "(" + " + ".join(["1"] * 15) + ") × 27 = 405",
            id="OQ-01-three-3W",
        ),
        pytest.param(
            "KAAS",
            {"premiums": {0: "3L"}, "blanks": {0}},
            "0 + 1 + 1 + 2 = 4",
            id="SCR-12-blank-on-3L",
        ),
        pytest.param(
            "KAAS",
            {"premiums": {0: "2L"}, "blanks": {0}},
            "0 + 1 + 1 + 2 = 4",
            id="SCR-12-blank-on-2L",
        ),
        pytest.param(
            "KAAS",
            {"premiums": {0: "3W"}, "blanks": {0}},
            "(0 + 1 + 1 + 2) × 3 = 12",
            id="SCR-12-blank-on-3W",
        ),
        pytest.param(
            "KAAS",
            {"premiums": {0: "3W", 3: "3L"}, "old": {0, 3}},
            "3 + 1 + 1 + 2 = 7",
            id="TYP-08-old-tile-premium-ignored",
        ),
        pytest.param(
            "KAAS",
            {"premiums": {1: "2L", 2: "3L"}},
            "3 + 1 × 2 + 1 × 3 + 2 = 10",
            id="SCR-04-letter-premiums",
        ),
    ],
)
def test_score_words_formula_format(text: str, marks: dict[str, Any], formula: str) -> None:
    """SCR-17: values in order, 'v × f' for letter premiums, one combined '× m', '= total'."""
    nl = editions.get("nl")
    (word,) = score_words(nl, [typed_word(nl, text, **marks)]).words
    assert word.formula == formula
    assert word.points == points_of(formula)


def test_score_words_literaki_offers_3l_but_not_2l() -> None:
    """P-02 / LIT-07: Literaki has no 2L, so the typed panel refuses one."""
    literaki = editions.get("pl-literaki")
    ok = score_words(literaki, [typed_word(literaki, "DŹWIG", premiums={1: "3L"})])
    assert ok.total == 2 + 5 * 3 + 1 + 1 + 3
    with pytest.raises(InvalidMove) as caught:
        score_words(literaki, [typed_word(literaki, "DŹWIG", premiums={1: "2L"})])
    assert caught.value.code == "premium_not_offered"
    assert caught.value.params == {"premium": "2L", "edition": "pl-literaki"}


def test_score_words_refuses_unblanking_a_locked_blank() -> None:
    """TV-D-05 / ALP-07: V is not in the Polish set, so it cannot be turned into a real V."""
    pl = editions.get("pl")
    unblanked = (TypedTile(Tile("V")), *typed_word(pl, "OX"))
    with pytest.raises(NotationError) as caught:
        score_words(pl, [unblanked])
    assert caught.value.code == "locked_blank"
    assert caught.value.params == {"letter": "V"}


def test_typed_word_locks_missing_letters_as_blanks() -> None:
    """ALP-05/07/09: a letter the set lacks is a blank, whatever the blanks mark says."""
    pl = editions.get("pl")
    tiles = typed_word(pl, "vox")
    assert [(t.tile.letter, t.tile.blank) for t in tiles] == [
        ("V", True),
        ("O", False),
        ("X", True),
    ]


TYPED_ERRORS = [
    pytest.param(lambda nl: score_words(nl, []), InvalidMove, "no_words", {}, id="no-words"),
    pytest.param(
        lambda nl: score_words(nl, [typed_word(nl, "KAT")] * 9),
        InvalidMove,
        "too_many_words",
        {"count": 8, "max": 7},
        id="TV-D-27",
    ),
    pytest.param(
        lambda nl: score_words(nl, [typed_word(nl, "ONBESPREEKBAARHEID")]),
        InvalidMove,
        "word_too_long",
        {"index": 0, "length": 18, "max": 15},
        id="TV-D-26-long",
    ),
    pytest.param(
        lambda nl: score_words(nl, [typed_word(nl, "KAT"), typed_word(nl, "A" * 16)]),
        InvalidMove,
        "word_too_long",
        {"index": 1, "length": 16, "max": 15},
        id="TV-D-26",
    ),
    pytest.param(
        lambda nl: score_words(nl, [typed_word(nl, "KAT"), ()]),
        InvalidMove,
        "empty_word",
        {"index": 1},
        id="empty-word",
    ),
    pytest.param(
        lambda nl: score_words(nl, [typed_word(nl, "")]),
        InvalidMove,
        "empty_word",
        {"index": 0},
        id="empty-text",
    ),
    pytest.param(
        lambda nl: typed_word(nl, "KAT", premiums={3: "2L"}),
        InvalidMove,
        "bad_index",
        {"index": 3, "length": 3},
        id="bad-index-premium",
    ),
    pytest.param(
        lambda nl: typed_word(nl, "KAT", blanks={-1}),
        InvalidMove,
        "bad_index",
        {"index": -1, "length": 3},
        id="bad-index-blank",
    ),
    pytest.param(
        lambda nl: typed_word(nl, "IJS", old={3}),
        InvalidMove,
        "bad_index",
        {"index": 3, "length": 3},
        id="bad-index-old-after-ij",
    ),
    pytest.param(
        lambda nl: typed_word(nl, "KAT", premiums={0: "4W"}),
        NotationError,
        "bad_premium",
        {"text": "4W"},
        id="bad-premium",
    ),
]


@pytest.mark.parametrize(("call", "kind", "code", "params"), TYPED_ERRORS)
def test_score_words_refuses_bad_input(
    call: Any, kind: type[InvalidMove | NotationError], code: str, params: dict[str, Any]
) -> None:
    with pytest.raises(kind) as caught:
        call(editions.get("nl"))
    assert caught.value.code == code
    assert caught.value.params == params


@pytest.mark.parametrize("code", ["pl", "it", "nl"])
def test_typed_word_rejects_digits_and_symbols_in_every_edition(code: str) -> None:
    """TV-D-06 / P-20: 'KOT1' and 'KO-T' are refused with a message, in every edition."""
    edition = editions.get(code)
    for text, char in (("KOT1", "1"), ("KO-T", "-")):
        with pytest.raises(NotationError) as caught:
            typed_word(edition, text)
        assert caught.value.code == "invalid_character"
        assert caught.value.params == {"char": char, "text": text}


def test_score_words_accepts_limits_exactly() -> None:
    """TYP-03/04: 7 cross words and a 15-tile word are still allowed."""
    nl = editions.get("nl")
    result = score_words(nl, [typed_word(nl, "A" * 15)] + [typed_word(nl, "KAT")] * 7)
    assert len(result.words) == 8
    assert result.words[0].points == 15
    assert result.refusal == "too_many_new_tiles"  # 15 new tiles: mark the old ones
