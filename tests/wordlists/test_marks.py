"""Abbreviations, units and acronyms out of every list (wordlists.marks, abbreviations.toml):
the committed lists per language, and the marking functions on tiny fixtures."""

import json

import pytest

import editions
import wordlists
from tests.wordlists.samples import ABBREVIATIONS, TABLE
from wordlists import marks
from wordlists.build import REASONS, classify
from wordlists.keys import Keyer
from wordlists.lexicon import DATA, LANGUAGES

#: Real short words and inflected forms that stay (WS-27: loopt, gelopen, mooiste).
WORDS = {
    "nl": "ui ja nu om op ha hm st brr loopt gelopen mooiste liep ideeën ĳsje mei ufo aids",
    "en": "ox oy ax by my ah hm shh cwm nth running colours aa ab aw admin bio",
    "de": "ja zu da du ob Häuser ging gingen qualifiziere Straße Abt",
    "pl": "ul on źdźbło żółwiami hm brr pst bzz drze",
    "es": "ya ni yo casas comeríamos niño chorro",
    "it": "ed se mangiavamo dimmelo città kiwi hm",
    "fr": "un au mangeons chevaux être pst",
}


def _cases(table):
    return [(lang, word) for lang, words in table.items() for word in words.split()]


@pytest.mark.parametrize(("lang", "word"), _cases(ABBREVIATIONS))
def test_list_has_no_abbreviation_of_the_sample(lang, word):
    assert not wordlists.get(lang).contains(word)


@pytest.mark.parametrize(("lang", "word"), _cases(WORDS))
def test_list_keeps_short_words_and_inflections(lang, word):
    assert wordlists.get(lang).contains(word)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_table_covers_every_language(lang):
    entry = TABLE[lang]
    assert set(entry) <= {"vowels", "listed", "keep"}
    assert entry["vowels"] == entry["vowels"].upper()


@pytest.mark.parametrize(
    ("lang", "word"), [(lang, word) for lang in LANGUAGES for word in TABLE[lang].get("keep", {})]
)
def test_every_exception_is_in_its_list_and_a_rule_would_remove_it(lang, word):
    # The build records every entry it kept only by exception. An exception that no rule
    # or marking would remove, or that is not in the list, is a mistake in the table.
    lexicon = wordlists.get(lang)
    keyer = Keyer(lexicon.edition)
    assert keyer.key(word) in {keyer.key(w) for w in lexicon.record["kept_by_exception"]}
    assert lexicon.contains(word)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_key_without_a_vowel_but_the_exceptions(lang):
    lexicon = wordlists.get(lang)
    keyer = Keyer(lexicon.edition)
    vowels = set(TABLE[lang]["vowels"])
    kept = {keyer.key(word) for word in TABLE[lang].get("keep", {})}
    assert {k for k in lexicon.keys() if vowels.isdisjoint(k)} <= kept


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_listed_abbreviation_is_in_the_list(lang):
    lexicon = wordlists.get(lang)
    assert [w for w in TABLE[lang].get("listed", []) if lexicon.contains(w)] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_record_gives_examples_of_every_reason_it_counts(lang):
    record = json.loads((DATA / f"{lang}.json").read_text(encoding="utf-8"))
    assert set(record["dropped"]) <= set(REASONS)
    for reason in record["dropped"]:
        assert record["examples"][reason]
    for reason in ("marked_abbreviation", "listed_abbreviation", "no_vowel"):
        for example in record["examples"].get(reason, ()):
            assert not wordlists.get(lang).contains(example), (reason, example)


def test_screen_tests_exceptions_then_markings_then_list_then_vowels():
    screen = marks.Screen(
        frozenset("AEIOUY"),
        keep=frozenset({"HM", "ETC"}),
        marked=frozenset({"BTW", "CAO"}),
        listed=frozenset({"CAO", "APR"}),
    )
    assert [screen.reason(k) for k in ("HM", "ETC", "BTW", "CAO", "APR", "KG", "UI")] == [
        None,
        None,
        "marked_abbreviation",
        "marked_abbreviation",
        "listed_abbreviation",
        "no_vowel",
        None,
    ]
    assert screen.kept_by_exception("HM")
    assert not screen.kept_by_exception("UI")


@pytest.mark.parametrize(
    ("lang", "entry", "reason"),
    [
        ("nl", "kg", "no_vowel"),
        ("nl", "hm", "kept"),
        ("nl", "sept", "listed_abbreviation"),
        ("nl", "ui", "kept"),
        ("pl", "ćśś", "kept"),
        ("pl", "mgr", "no_vowel"),
        ("pl", "itd", "listed_abbreviation"),
        ("es", "sra", "listed_abbreviation"),
        ("es", "ya", "kept"),
        ("de", "Pkw", "no_vowel"),
        ("en", "cwm", "kept"),
        ("en", "XXV", "abbreviation"),  # all capitals: the older rule comes first
    ],
)
def test_classify_applies_the_language_rules(lang, entry, reason):
    keyer = Keyer(editions.get(lang))
    screen = marks.screen(lang, keyer)
    language = wordlists.sources.LANGUAGES[lang]
    assert classify(entry, keyer, language.nouns_capitalised, screen)[0] == reason


def test_keepcase_letterwords_are_short_lower_case_kc_entries(tmp_path):
    dic = tmp_path / "nl.dic"
    dic.write_text(
        "6\ntv/ClCwKcZcYg\nkg\ndecember/Kc\nDVD/Kc\nmei/KcZa\nlopen/PbPd\n", encoding="utf-8"
    )
    assert marks.keepcase_letterwords(dic) == {"tv", "mei"}  # mei: kept by the table


def test_scowl_abbreviations_reads_every_size_in_latin_1(tmp_path):
    (tmp_path / "english-abbreviations.10").write_bytes(b"etc\nmph\nU.S.\nDr\n")
    (tmp_path / "american-abbreviations.70").write_bytes("caf\xe9s\n".encode("latin-1"))
    (tmp_path / "english-words.10").write_bytes(b"ox\n")
    assert marks.scowl_abbreviations(tmp_path) == {"etc", "mph", "cafés"}


def test_dotted_entries_skip_letters_that_are_a_word_of_their_own(tmp_path):
    dic = tmp_path / "de_DE.dic"
    dic.write_text("5\nusw.\nbzw.\nAbt.\nAbt/EPT\nz.B.\n", encoding="utf-8")
    assert marks.dotted_entries(dic, "utf-8") == {"usw", "bzw"}
