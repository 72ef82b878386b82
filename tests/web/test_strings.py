"""Every refusal and notice the server can send has a sentence in every language, and
numbers are written as each language writes them (FMT-01..03, BRD-17, OQ-09).

The codes are read from the Python sources, never listed by hand: a new code without a
sentence fails here. The language files having the same keys is test_start's.
"""

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from rules.rulesets import RULE_SETS
from tests.server.serving import ServerProcess
from tests.web.browser import ROOT, missing_strings, open_app

LANGUAGES = ["nl", "en", "fr", "de", "es", "it", "pl"]
PACKAGES = ["editions", "rules", "events", "server", "wordlists"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")

# Where a refusal's code is written in the sources.
REFUSALS = [
    re.compile(r'\bcode\s*=\s*"(\w+)"'),  # GameError(..., code="gap"); a class's default code
    re.compile(r'\brefuse\(\s*f?"(?:[^"\\]|\\.)*"\s*,\s*"(\w+)"', re.S),  # rules/decide.py
    re.compile(r'\bRejected\(\s*\w+\s*,\s*"(\w+)"'),  # server/app.py: store down, bad JSON
    re.compile(r'\brefusal\s*=\s*"(\w+)"'),  # a scored move that cannot be recorded (P-21)
]
PHONE_REFUSALS = re.compile(r'\bnew Refused\(\s*"(\w+)"')  # the phone's own: offline
NOTICES = re.compile(r'\b(?:Notice|Odd)\(\s*"(\w+)"')  # the sheet's notices and warnings


def sources() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def strings(language: str) -> dict[str, str]:
    return json.loads((ROOT / "web" / "strings" / f"{language}.json").read_text("utf-8"))


def names(text: str) -> set[str]:
    """The {placeholders} of a string."""
    return set(PLACEHOLDER.findall(text))


def command_line_only(code: str) -> bool:
    """GCG import and export run from the command line, in English."""
    return code.startswith("gcg_")


def refusal_codes() -> set[str]:
    found = {
        code
        for path in sources()
        for pattern in REFUSALS
        for code in pattern.findall(path.read_text("utf-8"))
    }
    for script in (ROOT / "web" / "js").glob("*.js"):
        found |= set(PHONE_REFUSALS.findall(script.read_text("utf-8")))
    # RuleSet(code="sbnl", …) names rules, it refuses nothing
    return {code for code in found if not command_line_only(code)} - set(RULE_SETS)


def notice_codes() -> set[str]:
    return {code for path in sources() for code in NOTICES.findall(path.read_text("utf-8"))}


def test_the_sources_are_read_for_codes() -> None:
    # A pattern that stopped matching would make the coverage tests below pass on nothing.
    assert {"gap", "not_in_line", "player_count", "bad_token", "store_unavailable"} <= (
        refusal_codes()
    )
    assert {"too_many_new_tiles", "offline", "invalid_character"} <= refusal_codes()
    assert {"pass_limit", "over_top", "over_use", "exchange_bag_low"} <= notice_codes()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_has_a_sentence(language: str) -> None:
    keys = strings(language)
    assert sorted(c for c in refusal_codes() if f"error.{c}" not in keys) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_notice_has_a_sentence(language: str) -> None:
    keys = strings(language)
    assert sorted(c for c in notice_codes() if f"notice.{c}" not in keys) == []


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_string_has_the_placeholders_of_the_english_one(language: str) -> None:
    english, other = strings("en"), strings(language)
    differ = {
        key: (names(text), names(english[key]))
        for key, text in other.items()
        if key in english and names(text) != names(english[key])
    }
    assert differ == {}


def raise_sites() -> dict[str, list[set[str]]]:
    """Per code (``error.gap``, ``notice.over_use``), the parameter names of each place that
    raises it. GCG records are left out: they never reach a phone."""
    sites: dict[str, list[set[str]]] = {}
    for path in sources():
        if path.name.startswith("gcg"):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            words = {k.arg for k in node.keywords if k.arg not in (None, "code")}
            literal = [a.value for a in node.args if isinstance(a, ast.Constant)]
            code = next(
                (k.value.value for k in node.keywords
                 if k.arg == "code" and isinstance(k.value, ast.Constant)), None,
            )  # fmt: skip
            if name == "refuse" and len(literal) == 2:
                code = literal[1]
            if code is not None:
                sites.setdefault(f"error.{code}", []).append(words)
            if name == "Odd" and literal:
                sites.setdefault(f"notice.{literal[0]}", []).append(words)
            if name == "Notice" and literal and len(node.args) == 2:
                keys = node.args[1].keys if isinstance(node.args[1], ast.Dict) else []
                params = {k.value for k in keys if isinstance(k, ast.Constant)}
                sites.setdefault(f"notice.{literal[0]}", []).append(params)
    return sites


def test_a_sentence_uses_only_parameters_every_raise_of_its_code_gives() -> None:
    english = strings("en")
    wrong = {
        key: (used, set.intersection(*params))
        for key, params in raise_sites().items()
        if key in english and not (used := names(english[key])) <= set.intersection(*params)
    }
    assert wrong == {}


# --- in the browser ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def page(browser: Browser, server: ServerProcess) -> Iterator[Page]:
    """One phone for the module; each test switches its language."""
    phone = open_app(browser, server.url, "nl")
    yield phone
    assert missing_strings(phone) == []
    phone.context.close()


def call(page: Page, language: str, name: str, *args: object) -> str:
    """``i18n[name](...args)`` in the page, after switching to ``language``."""
    return page.evaluate(
        """async ([language, name, args]) => {
            const i18n = await import('/js/i18n.js');
            await i18n.setLanguage(language);
            return i18n[name](...args);
        }""",
        [language, name, list(args)],
    )


@pytest.mark.parametrize(
    ("case", "language", "function", "value", "written"),
    [
        ("FMT-01", "nl", "number", 2000, "2.000"),
        ("FMT-01", "it", "number", 2000, "2000"),
        ("FMT-01", "pl", "number", 2000, "2000"),
        ("FMT-01", "nl", "number", 254957, "254.957"),
        ("FMT-02", "nl", "percent", 923, "92,3%"),
        ("FMT-02", "it", "percent", 923, "92,3%"),
        ("FMT-02", "pl", "percent", 923, "92,3%"),
        ("FMT-02", "nl", "percent", 833, "83,3%"),
        ("P-42", "nl", "percent", 1000, "100,0%"),
        ("P-42", "nl", "percent", None, "–"),
        ("P-42", "it", "percent", None, "–"),
        ("P-42", "pl", "percent", None, "–"),
        ("FMT-03", "nl", "number", -6, "-6"),
        ("FMT-03", "it", "number", -13, "-13"),
        ("FMT-03", "pl", "number", -6, "-6"),
        ("FMT-03", "nl", "number", 0, "0"),
    ],
)
def test_numbers_are_written_as_the_language_writes_them(
    page: Page, case: str, language: str, function: str, value: int | None, written: str
) -> None:
    assert call(page, language, function, value) == written


PLANK = ["." * 15] * 7 + ["...PLANK......."] + ["." * 15] * 7


def board(start: str, letters: str) -> dict:
    return {"board": {"start": start, "direction": "across", "letters": letters}}


@pytest.mark.parametrize(
    ("case", "language", "edition", "move", "rows", "sentence"),
    [
        ("TV-D-19", "nl", "nl", board("H9", "AB"), [],
         "De eerste zet moet het middelste vakje H8 bedekken."),
        ("TV-D-20", "it", "it", board("H8", "A"), [],
         "La prima giocata deve usare almeno due tessere."),
        ("TV-D-23", "pl", "pl", board("B2", "AB"), PLANK,
         "Nowe płytki muszą dotykać płytki, która już leży na planszy."),
        ("OQ-07", "nl", "nl", board("H14", "ABC"), PLANK,
         "Vanaf H14 lopen de letters van het bord af. Kies een ander beginvakje of minder"
         " letters."),
        ("TV-D-06", "pl", "pl", {"typed": [[["K"], ["O"], ["T"], ["1"]]]}, [],
         "„1” to nie litera. Wpisuj tylko litery, bez cyfr, spacji i innych znaków."),
        ("TV-D-06", "it", "it", {"typed": [[["K"], ["O"], ["-"], ["T"]]]}, [],
         "«-» non è una lettera. Scrivi solo lettere: niente cifre, spazi o simboli."),
    ],
)  # fmt: skip
def test_a_refused_move_says_why_in_the_phone_language(
    page: Page, case: str, language: str, edition: str, move: dict, rows: list, sentence: str
) -> None:
    said = page.evaluate(
        """async ([language, edition, move, rows]) => {
            const i18n = await import('/js/i18n.js');
            const api = await import('/js/api.js');
            await i18n.setLanguage(language);
            try {
                await api.score(edition, move, rows, false);
                return 'scored';
            } catch (refused) {
                return i18n.refusal(refused.code, refused.params);
            }
        }""",
        [language, edition, move, rows],
    )
    assert said == sentence


@pytest.mark.parametrize(
    ("language", "kind", "code", "params", "sentence"),
    [
        ("nl", "refusal", "points_out_of_range", {"points": 2001, "max": 2000},
         "2.001 punten kan niet: vul een getal in tot en met 2.000."),
        ("it", "refusal", "points_out_of_range", {"points": 2001, "max": 2000},
         "2001 punti non si possono segnare: inserisci un numero fino a 2000."),
        ("nl", "notice", "pass_limit", {"count": 4, "limit": 4},
         "4 passen op rij: volgens de regels is het spel afgelopen. Beëindig het spel als"
         " jullie het eens zijn."),
        ("pl", "notice", "pass_limit", {"count": 4, "limit": 4},
         "Pauzy z rzędu: 4. Według zasad gra jest skończona. Zakończcie partię, jeśli wszyscy"
         " się zgadzacie."),
        ("it", "notice", "over_top", {"round": 0, "player": 1, "points": 30, "top": 24},
         "Un punteggio di 30 supera il top del suo giro (24): probabile errore di battitura."
         " Controlla il punteggio."),
        ("nl", "notice", "over_use", {"letter": "Q", "used": 2, "count": 1},
         "Q is 2 keer gelegd, maar de set heeft er maar 1. Een van de ingevoerde zetten bevat"
         " een fout: controleer de zetten."),
        ("pl", "notice", "exchange_limit", {"seq": 9, "player": 0, "count": 4, "max": 3},
         "To wymiana nr 4 tej osoby; te zasady pozwalają najwyżej na 3. Sprawdź wymianę."),
    ],
)  # fmt: skip
def test_sentences_fill_in_their_numbers_as_the_language_writes_them(
    page: Page, language: str, kind: str, code: str, params: dict, sentence: str
) -> None:
    assert call(page, language, kind, code, params) == sentence
