"""Every refusal and notice the server can send has a sentence in every language, and
numbers are written as each language writes them (FMT-01..03, BRD-17, OQ-09).

The codes are those declared once in ``editions.codebook`` (with their parameters), never
listed here by hand: a new code without a sentence fails here. The phone's own codes
(``offline``) are read from its modules. The language files having the same keys is
test_start's; a language's own words for a refusal in online play (``online.error.{code}``,
``i18n.refusal``) are only in the languages that word it differently (Dutch: Woordstrijd's
"stenen" and "rekje" for the sheet's "blokjes" and "plankje"), and only beside the sentence
every language has.

A string with a count is plural: a form per category of its language's plural rules
(``Intl.PluralRules``: English one/other, French one/many/other, Polish one/few/many/other),
and ``plural`` names the parameter whose number chooses the form (``web/js/i18n.js``).
"""

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from editions.codebook import DECLARED
from tests.server.serving import ServerProcess
from tests.web.browser import ROOT, missing_strings, open_app

LANGUAGES = ["nl", "en", "fr", "de", "es", "it", "pl"]
ONLINE = "online."  # a key's prefix: how online play words it, where a language differs
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PHONE_REFUSALS = re.compile(r'\bnew Refused\(\s*"(\w+)"')  # the phone's own: offline
# A scored move that is shown but cannot be recorded (P-21) names its refusal in a field
# of the score, not as a raised code.
SCORE_REFUSALS = re.compile(r'\brefusal\s*=\s*"(\w+)"')


#: A string, or a plural string: {"plural": "n", "one": "{n} tile", "other": "{n} tiles"}.
Text = str | dict[str, str]


def strings(language: str) -> dict[str, Text]:
    return json.loads((ROOT / "web" / "strings" / f"{language}.json").read_text("utf-8"))


def forms(text: Text) -> dict[str, str]:
    """A string's forms by plural category; a plain string is the one form ``other``."""
    if isinstance(text, str):
        return {"other": text}
    return {category: form for category, form in text.items() if category != "plural"}


def names(text: Text) -> set[str]:
    """The {placeholders} of a string (of every form of a plural one)."""
    return {name for form in forms(text).values() for name in PLACEHOLDER.findall(form)}


def phone_codes() -> set[str]:
    """Refusals the phone makes itself, and the scores' own."""
    scoring = ROOT / "rules" / "board" / "scoring.py"
    found = set(SCORE_REFUSALS.findall(scoring.read_text("utf-8")))
    for script in (ROOT / "web" / "js").glob("*.js"):
        found |= set(PHONE_REFUSALS.findall(script.read_text("utf-8")))
    return found


def refusal_codes() -> set[str]:
    """Every refusal a phone can be told (GCG's are the command line's, in English)."""
    declared = {code for code, d in DECLARED.items() if d.refusal and d.phone}
    return declared | phone_codes()


def notice_codes() -> set[str]:
    return {code for code, d in DECLARED.items() if d.notice and d.phone}


def test_the_codes_are_found() -> None:
    # A source that stopped answering would make the coverage tests below pass on nothing.
    assert {"gap", "not_in_line", "player_count", "bad_token", "store_unavailable"} <= (
        refusal_codes()
    )
    assert {"turn_taken", "device_removed", "not_your_seat", "reference_missing"} <= (
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
    """A notice says ``notice.{code}``; a warning that carries a refusal's code may use
    its ``error.{code}`` sentence (i18n.notice)."""
    keys = strings(language)
    missing = [
        code
        for code in notice_codes()
        if f"notice.{code}" not in keys and not (DECLARED[code].refusal and f"error.{code}" in keys)
    ]
    assert sorted(missing) == []


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_string_has_the_placeholders_of_the_english_one(language: str) -> None:
    english, other = strings("en"), strings(language)
    differ = {
        key: (names(text), names(english[key]))
        for key, text in other.items()
        if key in english and names(text) != names(english[key])
    }
    assert differ == {}


def plural_of(text: Text) -> str | None:
    """The parameter whose number chooses a plural string's form; None for a plain one."""
    return text.get("plural") if isinstance(text, dict) else None


@pytest.mark.parametrize("language", LANGUAGES)
def test_online_wording_words_a_sentence_the_language_has(language: str) -> None:
    """``online.error.{code}`` stands beside ``error.{code}``, with its placeholders and its
    count, and says it otherwise: a copy would be a second sentence to keep in step."""
    own = strings(language)
    wrong = [
        key
        for key, text in own.items()
        if key.startswith(ONLINE)
        and (
            not key.startswith(f"{ONLINE}error.")
            or (shared := own.get(key.removeprefix(ONLINE))) is None
            or names(text) != names(shared)
            or plural_of(text) != plural_of(shared)
            or text == shared
        )
    ]
    assert wrong == []


def test_online_wording_is_found() -> None:
    assert "online.error.tiles_not_on_rack" in strings("nl")  # a source that answers
    assert not [key for key in strings("en") if key.startswith(ONLINE)]


def test_a_sentence_uses_only_the_parameters_its_code_declares() -> None:
    english = strings("en")  # a plural sentence's count is one of them too
    wrong = {
        f"{kind}.{code}": (used, declaration.params)
        for code, declaration in DECLARED.items()
        for kind in ("error", "notice")
        if f"{kind}.{code}" in english
        and not (used := names(english[f"{kind}.{code}"])) <= set(declaration.params)
    }
    assert wrong == {}


# The other way of saying "you", which a language's strings never use: each addresses the
# player one way throughout, the app and its rules page alike (docs/decisions.md).
OTHER_YOU = {
    "de": r"\b(Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)\b|\b[a-zäöüß]+en Sie\b",  # du, not Sie
    "fr": r"\b(tu|toi|ton|ta|tes|te)\b",  # vous, not tu
    "es": r"\b(usted|ustedes|[Ee]scriba|[Ee]lija|[Ii]ntroduzca|[Pp]ulse|[Ss]eleccione)\b",  # tú
    "it": r"\b(Lei|Suo|Sua|Suoi|Sue)\b",  # tu
    "nl": r"\b[Uu]w\b",  # je
    "pl": r"\b(Pan|Pani|Pana|Panu|Państwo)\b",  # ty
}


@pytest.mark.parametrize(("language", "other"), OTHER_YOU.items())
def test_a_language_addresses_the_player_one_way_throughout(language: str, other: str) -> None:
    found = {
        f"{file.parent.name}/{file.name}": sorted(
            {m.group(0) for m in re.finditer(other, file.read_text("utf-8"))}
        )
        for file in (ROOT / "web" / "strings").glob(f"**/{language}.json")
    }
    assert found and all(words == [] for words in found.values()), found


def plurals(language: str) -> dict[str, dict[str, str]]:
    return {key: text for key, text in strings(language).items() if isinstance(text, dict)}


def test_the_plural_strings_are_found() -> None:
    assert {"room.bag", "error.bag_too_small", "start.move_time_days"} <= set(plurals("en"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_plural_string_is_plural_in_every_language_and_names_its_count(language: str) -> None:
    english, own = plurals("en"), plurals(language)
    assert sorted(key for key in own if not key.startswith(ONLINE)) == sorted(english)
    wrong = {
        key: text.get("plural")
        for key, text in own.items()
        if text.get("plural") != english[key]["plural"]
        or any(f"{{{text['plural']}}}" not in form for form in forms(text).values())
    }
    assert wrong == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_form_of_a_plural_string_has_the_same_placeholders(language: str) -> None:
    differ = {
        (key, category): PLACEHOLDER.findall(form)
        for key, text in plurals(language).items()
        for category, form in forms(text).items()
        if set(PLACEHOLDER.findall(form)) != names(text)
    }
    assert differ == {}


def test_no_sentence_is_for_a_code_nobody_sends() -> None:
    english = strings("en")
    known = set(DECLARED) | phone_codes() | {"unknown"}  # "unknown": the general sentence
    stale = [
        key for key in english
        if key.split(".")[0] in ("error", "notice") and key.split(".", 1)[1] not in known
    ]  # fmt: skip
    assert stale == []


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


@pytest.mark.parametrize(
    ("locale", "moment"),
    [
        ("en-GB", r"\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d"),  # 6 Dec 2026, 18:46
        ("en-US", r"[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M"),  # Dec 6, 2026, 6:46 PM
    ],
)
def test_dates_are_written_as_the_phones_region_writes_them_in_its_language(
    browser: Browser, server: ServerProcess, locale: str, moment: str
) -> None:
    """An English phone in Britain and one in the United States: a simultaneous's window in
    the app's English, each with its own way of writing a date and an hour."""
    phone = open_app(browser, server.url, locale, "/simultaneous.html")
    phone.get_by_label("Name of the simultaneous").fill("Spring")
    phone.get_by_role("button", name="Create the simultaneous").click()
    window = phone.get_by_text(re.compile(f"^{moment} to {moment}$"))
    expect(window).to_be_visible(timeout=30_000)  # the games are sealed first
    assert missing_strings(phone) == []
    phone.context.close()


def test_every_plural_string_has_every_form_its_language_needs(page: Page) -> None:
    """The categories are the browser's own (``Intl.PluralRules``), never listed here."""
    needed = page.evaluate(
        """(languages) => Object.fromEntries(languages.map((language) => [language,
            new Intl.PluralRules(language).resolvedOptions().pluralCategories]))""",
        LANGUAGES,
    )
    assert set(needed["pl"]) == {"one", "few", "many", "other"}  # a source that answers
    wrong = {
        (language, key): sorted(forms(text))
        for language in LANGUAGES
        for key, text in plurals(language).items()
        if set(forms(text)) != set(needed[language])
    }
    assert wrong == {}


@pytest.mark.parametrize(
    ("language", "key", "params", "said"),
    [
        ("en", "room.bag", {"n": 1}, "1 tile in the bag"),
        ("en", "room.bag", {"n": 2}, "2 tiles in the bag"),
        ("en", "room.bag", {"n": 0}, "0 tiles in the bag"),
        ("pl", "room.bag", {"n": 1}, "W woreczku: 1 płytka"),
        ("pl", "room.bag", {"n": 2}, "W woreczku: 2 płytki"),
        ("pl", "room.bag", {"n": 5}, "W woreczku: 5 płytek"),
        ("pl", "room.bag", {"n": 12}, "W woreczku: 12 płytek"),
        ("pl", "room.bag", {"n": 22}, "W woreczku: 22 płytki"),
        ("nl", "room.bag", {"n": 1}, "1 blokje in het zakje"),
        # FIGS's minimum of 1 point on a challenge (FED-FIGS-07): often one
        ("it", "challenge.penalty", {"name": "Ugo", "points": 1},
         "Ugo riceve 1 punto di penalità."),
        ("en", "challenge.penalty", {"name": "Bas", "points": 2}, "Bas gets 2 penalty points."),
        ("nl", "challenge.bonus", {"name": "Anna", "points": 1}, "Anna krijgt 1 punt erbij."),
        ("en", "clock.seconds_left", {"n": 1}, "1 second left"),
        ("pl", "clock.seconds_left", {"n": 30}, "Zostało 30 sekund"),
        ("en", "play.last_points", {"name": "Bas", "points": 1}, "Bas: 1 point"),
        ("nl", "play.last_points", {"name": "Bas", "points": 2000}, "Bas: 2.000 punten"),
    ],
)  # fmt: skip
def test_a_count_chooses_its_form_in_the_phone_language(
    page: Page, language: str, key: str, params: dict, said: str
) -> None:
    assert call(page, language, "t", key, params) == said


@pytest.mark.parametrize(
    ("language", "seconds", "said"),
    [
        ("en", 120, "2 minutes"), ("en", 3600, "1 hour"), ("en", 86400, "1 day"),
        ("en", 259200, "3 days"), ("nl", 600, "10 minuten"), ("nl", 3600, "1 uur"),
        ("pl", 120, "2 minuty"), ("pl", 600, "10 minut"), ("pl", 3600, "1 godzina"),
        ("pl", 86400, "1 dzień"), ("pl", 604800, "7 dni"), ("it", 259200, "3 giorni"),
    ],
)  # fmt: skip
def test_a_time_per_move_is_said_with_its_unit(
    page: Page, language: str, seconds: int, said: str
) -> None:
    assert call(page, language, "moveTime", seconds) == said


@pytest.mark.parametrize(
    ("language", "bag", "said"),
    [
        ("en", 1, "Only 1 tile is left in the bag: you may exchange only while it holds at"
         " least 7. Play a word or pass."),
        ("en", 2, "Only 2 tiles are left in the bag: you may exchange only while it holds at"
         " least 7. Play a word or pass."),
        ("pl", 1, "W woreczku została tylko 1 płytka. Wymiana jest możliwa tylko, gdy jest"
         " ich co najmniej 7. Ułóż słowo albo pasuj."),
        ("pl", 2, "W woreczku zostały tylko 2 płytki. Wymiana jest możliwa tylko, gdy jest"
         " ich co najmniej 7. Ułóż słowo albo pasuj."),
        ("pl", 5, "W woreczku zostało tylko 5 płytek. Wymiana jest możliwa tylko, gdy jest"
         " ich co najmniej 7. Ułóż słowo albo pasuj."),
    ],
)  # fmt: skip
def test_a_refusal_with_a_count_reads_right(page: Page, language: str, bag: int, said: str) -> None:
    """The issue's example: "Only 1 tiles are left" in English, whatever the number."""
    assert call(page, language, "refusal", "bag_too_small", {"bag": bag, "min": 7}) == said


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
        ("it", "notice", "scoreless_limit", {"count": 6, "limit": 6},
         "6 turni senza punti di fila: secondo le regole la partita è finita. Terminatela se"
         " siete tutti d'accordo."),
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


# The start form's rule sets for the language's own set, as the sources name them: house
# rules and the federation's tournament rules, never "house rules (the PFS rules)" beside
# "polska (PFS)". The Italian source calls the publisher's standard rules "regole di base"
# (IT:59), and the source's wording wins.
RULE_LABELS = {
    "it": ["Regole di base", "Regole da torneo (FIGS)"],
    "pl": ["Zasady domowe", "Regulamin turniejowy PFS"],
}


@pytest.mark.parametrize("language", sorted(RULE_LABELS))
def test_house_and_tournament_rules_read_apart(
    browser: Browser, server: ServerProcess, language: str
) -> None:
    phone = open_app(browser, server.url, language)
    legend = strings(language)["start.rules"]
    rules = phone.locator("#start fieldset").filter(
        has=phone.locator("legend", has_text=re.compile(f"^{legend}$"))
    )
    labels = [text.strip() for text in rules.first.locator("label").all_inner_texts()]
    assert labels == RULE_LABELS[language]
    assert missing_strings(phone) == []
    phone.context.close()
    own = strings(language)
    assert own["rules.house"] != own["rules.pfs"]
    assert not ("domowe" in own["rules.pfs-house"] and "PFS" in own["rules.pfs-house"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_start_lead_points_to_the_score_tab_by_its_name(language: str) -> None:
    """The calculator has its own view now: the lead names its tab rather than "below"."""
    said = strings(language)
    assert said["shell.view_score"] in said["start.lead"]


def test_words_the_list_lacks_are_said_in_capitals_a_blanks_letter_too(page: Page) -> None:
    """The server names a laid blank in lower case, as the row notation does ("lE"); the
    phone says the word as a word."""
    said = page.evaluate(
        """async () => {
            const { setLanguage } = await import('/js/i18n.js');
            await setLanguage('nl');
            const { refusalText } = await import('/js/refusals.js');
            return refusalText('words_not_in_list', { words: 'lE, VAaK', count: 2 });
        }"""
    )
    assert said.startswith("Niet in de woordenlijst: LE, VAAK.")
