"""The Dutch words for the game's things follow the source of each screen (docs/decisions.md):
online play is Woordstrijd's and says "stenen", "rekje" and "zak" (WS-05); the calculator,
the sheet, the duplicate room, a simultaneous, print and training say "blokjes", "plankje" and
"zakje", as the calculator's source does (EDN-17). So a Dutch player online reads "Jouw rekje"
and then "Niet op je rekje", never "Niet op je plankje".

Online play says its own strings (``play.*``), a refusal in its own wording where Dutch has
one (``online.error.*``, ``i18n.refusal``), the refusals only online play gives (its rules
raise them and no other module names them) and the rules page, which is Woordstrijd's.
Everything else is the club's.
"""

import json
import re
from functools import cache

import pytest

from editions.codebook import DECLARED
from tests.web.browser import ROOT

# Whole words, compounds too ("letterblokjes", "letterstenen"); not "steentje" or "zakje".
CLUB_WORDS = re.compile(r"\b\w*(blokjes?|plankjes?|zakjes?)\b", re.IGNORECASE)
ONLINE_WORDS = re.compile(r"\b\w*(steen|stenen|rekjes?|zak|zakken)\b", re.IGNORECASE)

# Online play's beyond the rules above, with why.
ONLINE_KEYS = {
    "common.rules_description": "the rules page's description, and the page is Woordstrijd's",
}

# What a move, a rack or an exchange in online play can be refused with.
ONLINE_REFUSALS = [
    "bad_tile", "bag_too_small", "blank_not_in_alphabet", "exchange_count",
    "first_move_off_centre", "first_move_single_tile", "gap", "illegal_placement", "no_tiles",
    "not_connected", "not_in_line", "occupied", "off_board", "online_final", "tiles_not_on_rack",
    "too_many_tiles", "word_too_long", "words_not_in_list",
]  # fmt: skip


def dutch(file: str = "nl.json") -> dict[str, str | dict[str, str]]:
    return json.loads((ROOT / "web" / "strings" / file).read_text("utf-8"))


def words(text: str | dict[str, str]) -> str:
    """A string's words, every form of a plural one."""
    if isinstance(text, str):
        return text
    return " ".join(form for category, form in text.items() if category != "plural")


@cache
def online_only() -> set[str]:
    """The refusals only online play gives: named under ``rules/online`` and nowhere else
    (the server's and the rules' modules; the codebook declares them all)."""
    named: dict[str, set[tuple[str, ...]]] = {}  # a code's constant → the folders naming it
    for folder in ("rules", "server", "editions"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name != "codebook.py":
                for constant in set(re.findall(r"\b[A-Z][A-Z0-9_]+\b", path.read_text("utf-8"))):
                    named.setdefault(constant, set()).add(path.relative_to(ROOT).parts[:2])
    return {code for code in DECLARED if named.get(code.upper()) == {("rules", "online")}}


def online_keys(keys: set[str]) -> set[str]:
    """Those of ``keys`` that online play says."""
    only = {f"error.{code}" for code in online_only()}
    said = {key for key in keys if key.startswith(("play.", "online.")) or key in only}
    return said | set(ONLINE_KEYS)


def test_the_online_strings_are_found() -> None:
    # A source that stopped answering would make the tests below pass on nothing.
    only = online_only()
    assert {"bag_too_small", "exchange_count", "words_not_in_list", "online_final"} <= only
    assert not {"gap", "tiles_not_on_rack", "not_online"} & only  # the room, the sheet's own
    keys = online_keys(set(dutch()))
    assert {"play.rack", "online.error.gap", "error.bag_too_small"} <= keys
    assert not {"error.gap", "room.bag", "slip.hint"} & keys
    assert set(ONLINE_KEYS) <= set(dutch())


def test_online_play_says_stenen_rekje_and_zak() -> None:
    own = dutch()
    found = {
        key: CLUB_WORDS.findall(words(own[key]))
        for key in sorted(online_keys(set(own)))
        if CLUB_WORDS.search(words(own[key]))
    }
    assert found == {}


def test_the_rules_page_says_stenen_rekje_and_zak() -> None:
    page = dutch("rules/nl.json")
    assert {key: text for key, text in page.items() if CLUB_WORDS.search(words(text))} == {}


def test_the_club_says_blokjes_plankje_and_zakje() -> None:
    own = dutch()
    online = online_keys(set(own))
    found = {
        key: ONLINE_WORDS.findall(words(text))
        for key, text in own.items()
        if key not in online and ONLINE_WORDS.search(words(text))
    }
    assert found == {}


@pytest.mark.parametrize("code", ONLINE_REFUSALS)
def test_a_refusal_in_online_play_is_said_in_its_words(code: str) -> None:
    """As the phone in an online game says it: its online wording, else the shared one."""
    own = dutch()
    text = words(own.get(f"online.error.{code}", own[f"error.{code}"]))
    assert CLUB_WORDS.findall(text) == []


def test_the_italian_board_is_the_tavoliere_and_the_host_the_organiser() -> None:
    """EDN-27: the source says «tavoliere» for the board (IT:35,45); the host is
    «l'organizzatore» throughout, not «chi ospita» on some screens."""
    italian = json.loads((ROOT / "web" / "strings" / "it.json").read_text("utf-8"))
    wrong = {key: words(text) for key, text in italian.items()
             if re.search(r"tabellon|\bospit", words(text), re.IGNORECASE)}  # fmt: skip
    assert wrong == {}
    assert "tavoliere" in words(italian["calc.whole_board"])  # the rule reads the strings
