"""Typed text → letters: ALP-01..09, P-20 and WS-26, edition by edition."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import editions
from editions import alphabet
from editions.errors import NotationError


@pytest.mark.parametrize(
    ("code", "text", "expected"),
    [
        ("nl", "IDEEËN", "I D E E E N"),  # ALP-02, TV-D-01
        ("nl", "bijl", "B I J L"),  # ALP-03, TV-D-02
        ("nl", "IJS", "I J S"),  # ALP-03, TV-NL-05: three tiles
        ("nl", "ĳs", "I J S"),  # P-20, WS-26: the ligature is I + J
        ("nl", "Ĳ", "I J"),
        ("nl", "café", "C A F E"),  # P-20
        ("nl", "ç", "C"),
        ("nl", "ñ", "N"),
        ("nl", "Straße", "S T R A S S E"),
        ("woordstrijd", "ĳzer", "I J Z E R"),  # WS-26
        ("it", "CITTÀ", "C I T T A"),  # ALP-04, TV-D-03
        ("it", "PERCHÉ", "P E R C H E"),  # IT:19 writes È for the É of PERCHÉ
        ("it", "PERCHÈ", "P E R C H E"),
        ("it", "KIWI", "K I W I"),  # ALP-05: K, W come back for the caller to blank
        ("pl", "ŻÓŁW", "Ż Ó Ł W"),  # ALP-06, TV-PL-01
        ("pl", "spóźniły", "S P Ó Ź N I Ł Y"),  # TV-PL-07
        ("pl", "VOX", "V O X"),  # ALP-07, TV-D-05
        ("pl", "café", "C A F E"),  # P-20: é is not a Polish letter
        ("pl-literaki", "DŹWIG", "D Ź W I G"),
        ("de", "Straße", "S T R A S S E"),  # P-20: ß → SS
        ("de", "Größe", "G R Ö S S E"),
        ("de", "ÄÖÜ", "Ä Ö Ü"),
        ("de", "café", "C A F E"),
        ("es", "chorro", "CH O RR O"),  # P-20: digraph tiles
        ("es", "llama", "LL A M A"),
        ("es", "C·H", "C H"),  # P-20: the separator splits a digraph
        ("es", "r·r", "R R"),
        ("es", "Ñandú", "Ñ A N D U"),
        ("es", "CHCH", "CH CH"),
        ("es", "ACH", "A CH"),
        ("es", "LLL", "LL L"),  # longest match from the left
        ("fr", "élève", "E L E V E"),
        ("en", "Zoo", "Z O O"),
        ("fr", "cœur", "C O E U R"),  # ligatures the set spells out
        ("nl", "ÆON", "A E O N"),
        ("de", "GROẞE", "G R O S S E"),  # capital sharp s
        ("pl", "Z\u0307ABA", "Ż A B A"),  # decomposed input is composed first
        ("nl", "cafe\u0301", "C A F E"),
        ("nl", "Łódź", "Ł O D Z"),  # a Latin letter the set lacks, for a locked blank
    ],
)
def test_letters_of_typed_text(code, text, expected):
    assert editions.get(code).letters(text) == tuple(expected.split())


@pytest.mark.parametrize(
    ("code", "text", "missing"),
    [
        ("it", "KIWI", {"K", "W"}),  # ALP-05
        ("it", "JAZZ", {"J"}),
        ("it", "XYLOFONO", {"X", "Y"}),
        ("pl", "VOX", {"V", "X"}),  # ALP-07
        ("pl", "QUIZ", {"Q"}),
        ("es", "KIWI", {"K", "W"}),
        ("nl", "ĳs", set()),
        ("de", "ÄRGER", set()),
    ],
)
def test_letters_missing_from_the_set_come_back_as_letters(code, text, missing):
    edition = editions.get(code)
    assert {letter for letter in edition.letters(text) if letter not in edition.faces} == missing


@pytest.mark.parametrize(
    ("code", "text"),
    [("nl", "ideeën"), ("it", "perché"), ("pl", "żółw"), ("de", "größe"), ("es", "ñandú")],
)
def test_letters_ignores_case(code, text):
    edition = editions.get(code)
    assert edition.letters(text) == edition.letters(text.upper())


@pytest.mark.parametrize(
    ("code", "text", "char"),
    [
        ("pl", "KOT1", "1"),  # ALP-08, TV-D-06
        ("pl", "KO-T", "-"),
        ("nl", "A B", " "),  # P-20: every edition
        ("nl", "ZO'N", "'"),
        ("it", "A.B", "."),
        ("nl", "C·H", alphabet.SEPARATOR),  # no multi-letter faces, so no separator
        ("de", "B?", "?"),
        ("es", "N2", "2"),
        ("nl", "ΩMEGA", "Ω"),  # letters outside the Latin script are not tiles anywhere
        ("pl", "кот", "к"),
    ],
)
def test_letters_rejects_digits_and_symbols(code, text, char):
    with pytest.raises(NotationError) as caught:
        editions.get(code).letters(text)
    assert caught.value.code == "invalid_character"
    assert caught.value.params["char"] == char
    assert repr(text) in str(caught.value)


def test_letters_of_empty_text_is_empty():
    assert editions.get("nl").letters("") == ()


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))
def test_nl_letters_of_plain_latin_text_is_its_upper_case(text):
    assert editions.get("nl").letters(text) == tuple(text.upper())


@given(st.text(alphabet="ACHLRÑOñcahlr"))
def test_es_letters_join_back_to_the_upper_case_text(text):
    letters = editions.get("es").letters(text)
    assert "".join(letters) == text.upper()
    assert all(letter in editions.get("es").faces for letter in letters)
