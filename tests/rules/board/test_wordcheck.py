"""Word checking apart from scoring: statuses per word, all invalid words at once."""

import json
from pathlib import Path

import pytest

import editions
import wordlists
from rules import Board, Tile, score_words, typed_word
from rules.board.wordcheck import WordStatus, invalid_words, lookup_text, shown, word_statuses

NL = editions.get("nl")
ES = editions.get("es")
STRINGS = Path(__file__).parents[3] / "web" / "strings"
LANGUAGES = ("nl", "en", "fr", "de", "es", "it", "pl")


def test_word_statuses_label_main_and_cross_words():
    board = Board.empty(NL)
    board = board.apply(board.place("H4", "across", "PLANK"))
    move = board.score(board.place("F6", "down", "KRAN"))
    words = [w.word for w in move.words]
    statuses = word_statuses(NL, words, wordlists.get("nl").contains)
    assert list(zip(words, statuses, strict=True)) == [("KRAAN", WordStatus.IN_LIST)]


def test_word_statuses_without_a_list_say_so_for_every_word():
    assert word_statuses(NL, ["PLANK", "XQZ"], None) == (WordStatus.NO_LIST,) * 2


def test_word_statuses_mark_missing_words():
    contains = wordlists.get("nl").contains
    assert word_statuses(NL, ["loopt", "gelopn", "ĳsje"], contains) == (
        WordStatus.IN_LIST,
        WordStatus.NOT_IN_LIST,
        WordStatus.IN_LIST,
    )


def test_word_statuses_leave_scores_alone():
    # WL-12: the same move scores the same whether its words are in the list or not.
    words = [typed_word(NL, "KAAS", premiums={0: "3L"}), typed_word(NL, "KAASX")]
    before = score_words(NL, words)
    word_statuses(NL, [w.word for w in before.words], wordlists.get("nl").contains)
    assert score_words(NL, words) == before


def test_invalid_words_names_every_bad_word_once_in_order():
    contains = wordlists.get("nl").contains
    words = ["DOE", "XQ", "KAAS", "ZZW", "XQ"]
    assert invalid_words(NL, words, contains) == ("XQ", "ZZW")
    assert invalid_words(NL, ["DOE", "KAAS"], contains) == ()


def test_invalid_words_show_blanks_in_lower_case():
    word = (Tile("X", blank=True), Tile("Q"))
    assert invalid_words(NL, [word], wordlists.get("nl").contains) == ("xQ",)


@pytest.mark.parametrize(
    ("tiles", "in_list"),
    [
        ((Tile("CH"), Tile("O"), Tile("RR"), Tile("O")), True),
        ((Tile("C"), Tile("H"), Tile("O"), Tile("RR"), Tile("O")), False),
        ((Tile("CH", blank=True), Tile("O"), Tile("R"), Tile("R"), Tile("O")), False),
    ],
)
def test_tiles_keep_spanish_digraphs_apart(tiles, in_list):
    contains = wordlists.get("es").contains
    assert contains(lookup_text(ES, tiles)) is in_list


def test_lookup_text_passes_text_through_and_joins_tiles():
    assert lookup_text(NL, "kaas") == "kaas"
    assert lookup_text(NL, (Tile("I"), Tile("J"))) == "IJ"
    assert shown(editions.get("nl"), (Tile("I", blank=True), Tile("J"))) == "iJ"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_status_has_a_label_in_every_language(lang):
    strings = json.loads((STRINGS / f"{lang}.json").read_text(encoding="utf-8"))
    for status in WordStatus:
        assert strings[f"wordcheck.{status}"].strip()
    assert strings["wordcheck.toggle"].strip()
    assert strings["wordcheck.notice"].strip()


@pytest.mark.parametrize(
    ("lang", "key", "text"),
    [
        ("nl", "wordcheck.toggle", "Woorden controleren in een open woordenlijst"),  # WL-02
        ("nl", "wordcheck.in_list", "Staat in de lijst"),  # WL-03
        ("nl", "wordcheck.not_in_list", "Staat niet in de lijst"),
        ("it", "wordcheck.toggle", "Controlla le parole su un elenco aperto"),  # WL-05
        ("it", "wordcheck.in_list", "Nell'elenco"),  # WL-06
        ("it", "wordcheck.not_in_list", "Non nell'elenco"),
        ("it", "wordcheck.no_list", "Elenco non caricato"),
        ("pl", "wordcheck.toggle", "Sprawdzaj słowa na otwartej liście słów"),  # WL-09
        ("pl", "wordcheck.in_list", "Jest na liście"),  # WL-10
        ("pl", "wordcheck.not_in_list", "Nie ma na liście"),
    ],
)
def test_labels_use_the_sources_wording(lang, key, text):
    strings = json.loads((STRINGS / f"{lang}.json").read_text(encoding="utf-8"))
    assert strings[key] == text


@pytest.mark.parametrize(
    ("lang", "authority"),
    [("nl", "SWL"), ("it", "Zingarelli"), ("pl", "OSPS")],  # WL-04, WL-08
)
def test_notice_says_the_list_is_not_the_tournament_list(lang, authority):
    strings = json.loads((STRINGS / f"{lang}.json").read_text(encoding="utf-8"))
    assert authority in strings["wordcheck.notice"]


@pytest.mark.parametrize(
    ("laid", "said"),
    [
        (("C", "H", "I", "N", "O"), "C·HINO"),  # C then H: not the CH tile
        (("CH", "I", "N", "O"), "CHINO"),
        (("L", "L", "A", "M", "A"), "L·LAMA"),
        (("R", "RR", "O"), "R·RRO"),
    ],
)
def test_a_word_names_two_letters_apart_where_the_edition_has_their_tile(
    laid: tuple[str, ...], said: str
) -> None:
    """Spanish: the list holds CHINO, spelled with the CH tile. A move laying C, H, I, N, O
    is refused naming C·HINO, which reads back as the tiles laid (not CHINO, which is in
    the list); its score line says the same word."""
    listed = {lookup_text(ES, (Tile("CH"), *map(Tile, "INO")))}
    tiles = tuple(map(Tile, laid))
    assert invalid_words(ES, [tiles], listed.__contains__) == (() if said == "CHINO" else (said,))
    assert ES.letters(said) == laid
    board = Board.empty(ES)
    notation = "".join(f"[{tile}]" if len(tile) > 1 else tile for tile in laid)
    move = board.score(board.place("H8", "across", notation))
    assert [w.word for w in move.words] == [said]
