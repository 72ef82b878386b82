"""The Woordstrijd rules page (issue 13): every section in every language, the tile table as
the edition's data has it, the premium colours with their text, the attributions of
WS-32..35 with their links, the language the app chose, and nothing serious for axe."""

import json
import re
from itertools import pairwise

import pytest
from playwright.sync_api import Browser, Page, expect

import editions
from tests.server.serving import ServerProcess
from tests.web.browser import PHONE, ROOT, axe, missing_strings, open_app, ready, shot

LANGUAGES = ["nl", "en", "fr", "de", "es", "it", "pl"]
SECTIONS = ["rules", "tiles", "premiums", "words", "sources"]
PATH = "/rules.html"
# WS-02: the source's sections, which the Dutch page keeps as its headings.
WS_02 = [
    "De regels in het kort",
    "De stenen en wat ze opleveren",
    "Bonusvakken en de bingo",
    "De woordenlijst: wat telt als woord",
    "Bronnen en licenties",
]


def texts(language: str) -> dict[str, str]:
    """The page's own strings in ``language``."""
    path = ROOT / "web" / "strings" / "rules" / f"{language}.json"
    return json.loads(path.read_text("utf-8"))


def app_strings(language: str) -> dict[str, str]:
    return json.loads((ROOT / "web" / "strings" / f"{language}.json").read_text("utf-8"))


def rules_page(browser: Browser, server: ServerProcess, language: str, query: str = "") -> Page:
    return open_app(browser, server.url, language, PATH + query)


def test_every_language_file_has_the_same_keys_and_placeholders() -> None:
    english = texts("en")
    for language in LANGUAGES:
        own = texts(language)
        assert own.keys() == english.keys(), (language, own.keys() ^ english.keys())
        differ = [
            key
            for key, text in own.items()
            if set(re.findall(r"\{(\w+)\}", text)) != set(re.findall(r"\{(\w+)\}", english[key]))
        ]
        assert differ == [], language


def test_the_dutch_headings_are_the_sections_of_ws_02() -> None:
    assert [texts("nl")[f"{section}.heading"] for section in SECTIONS] == WS_02


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_has_every_section_in_the_phones_language(
    browser: Browser, server: ServerProcess, language: str
) -> None:
    page = rules_page(browser, server, language)
    own = texts(language)
    assert page.evaluate("() => document.documentElement.lang") == language
    expect(page.locator("h1")).to_have_text(own["title"])
    assert page.title() == f"{own['title']} · Tilestream"
    headings = page.locator("main h2").all_inner_texts()
    assert headings == [own[f"{section}.heading"] for section in SECTIONS]
    # The table of contents leads to each section.
    links = page.locator("nav.rules-contents a")
    assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [
        f"#{section}" for section in SECTIONS
    ]
    # Headings in order: one h1, then h2s, each h3 under an h2.
    levels = page.eval_on_selector_all(
        "main h1, main h2, main h3", "els => els.map(e => Number(e.tagName[1]))"
    )
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b - a <= 1 for a, b in pairwise(levels))
    # The frame's strings are the app's own.
    chosen = page.locator("#language option:checked").inner_text()
    assert chosen == app_strings(language)[f"language.{language}"]
    expect(page.locator("footer")).to_have_text(app_strings(language)["common.trademark"])
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert missing_strings(page) == []
    shot(page, f"rules-{language}", full_page=False)
    page.context.close()


def table_rows(page: Page, part: str = "tbody") -> list[list[str]]:
    return page.eval_on_selector_all(
        f"table.tile-table {part} tr",
        "rows => rows.map(r => [...r.children].map(c => c.textContent.trim()))",
    )


def test_the_tile_table_is_the_editions_data(browser: Browser, server: ServerProcess) -> None:
    page = rules_page(browser, server, "nl")
    edition = editions.get("woordstrijd")
    own = texts("nl")
    table = page.locator("table.tile-table")
    expect(table.locator("caption")).to_have_text(own["tiles.caption"])
    header = table.locator("thead th[scope=col]")
    expect(header).to_have_text([own["tiles.letter"], own["tiles.value"], own["tiles.count"]])
    assert table.locator("tbody th[scope=row]").count() == len(edition.kinds) + 1
    expected = [[k.face, str(k.value), str(k.count)] for k in edition.kinds]
    expected.append([own["tiles.blank"], "0", str(edition.blanks)])
    rows = table_rows(page)
    assert rows == expected
    by_letter = {face: (value, count) for face, value, count in rows}
    assert by_letter["E"] == ("1", "18")  # WS-22
    assert by_letter["Y"] == by_letter["X"] == ("8", "1") and by_letter["Q"] == ("10", "1")
    assert by_letter[own["tiles.blank"]] == ("0", "2")  # WS-21
    assert sum(int(count) for _, _, count in rows) == 105
    assert table_rows(page, "tfoot") == [[own["tiles.total"], "105"]]
    summary = page.locator("#tiles p").first
    expect(summary).to_contain_text("105 stenen: 103 letters en 2 blanco's")
    # The line on the other sets leads to the app's tile panel.
    other = page.locator("#tiles .other-sets a")
    expect(other).to_have_attribute("href", "/#view=tiles")
    expect(other).to_have_text(f"‘{app_strings('nl')['tiles.title']}’ in de app")
    other.click()
    ready(page)
    expect(page.locator("#tiles h2")).to_be_visible()
    page.context.close()


def rgb(colour: str) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def test_premiums_are_green_and_blue_and_say_so_in_text(
    browser: Browser, server: ServerProcess
) -> None:
    page = rules_page(browser, server, "nl")
    own = texts("nl")
    colours = dict(editions.get("woordstrijd").colours)
    legend = page.locator("#premiums .premium-legend li")
    expect(legend).to_have_count(4)
    for index, premium in enumerate(("2L", "3L", "2W", "3W")):
        item = legend.nth(index)
        swatch = item.locator(".swatch")
        expect(swatch).to_have_text(premium)
        background = swatch.evaluate("el => getComputedStyle(el).backgroundColor")
        assert background == rgb(colours[premium])
        expect(item).to_contain_text(own[f"premiums.name.{premium}"])
        word = "groen" if premium.endswith("L") else "blauw"  # WS-19
        expect(item).to_contain_text(word)
    # The board from the edition's layout, every premium written in its square.
    board = page.locator("#premiums table.board")
    expect(board).to_have_attribute("aria-label", own["premiums.board"])
    expect(board.locator("td.square")).to_have_count(225)
    expect(board.locator('[data-square="H8"]')).to_contain_text("★")
    expect(board.locator('[data-square="A1"]')).to_contain_text("3W")
    expect(page.locator("#premiums")).to_contain_text("40 punten bingo")  # WS-18
    page.context.close()


@pytest.mark.parametrize("language", ["nl", "pl"])
def test_the_attributions_are_there_with_their_links(
    browser: Browser, server: ServerProcess, language: str
) -> None:
    page = rules_page(browser, server, language)
    sources = page.locator("#sources")
    for name, href in [
        ("Stichting OpenTaal", "https://github.com/OpenTaal/opentaal-wordlist"),  # WS-32
        ("Revised BSD License", "https://opensource.org/license/bsd-3-clause"),
        ("FrequencyWords", "https://github.com/hermitdave/FrequencyWords"),  # WS-33
        ("hermitdave", "https://github.com/hermitdave"),
        ("OpenSubtitles", "https://www.opensubtitles.org/"),
        ("CC BY-SA 3.0", f"https://creativecommons.org/licenses/by-sa/3.0/deed.{language}"),
    ]:
        link = sources.get_by_role("link", name=name, exact=True).first
        expect(link).to_have_attribute("href", href)
    expect(sources).to_contain_text("Puzzel Samen")  # WS-34
    assert missing_strings(page) == []
    page.context.close()


def test_the_word_list_is_explained_not_served(browser: Browser, server: ServerProcess) -> None:
    page = rules_page(browser, server, "nl")
    words = page.locator("#words")
    for said in ("loopt, gelopen en mooiste", "I en een J", "op de server", "bevestigt"):
        expect(words).to_contain_text(said)  # WS-26, WS-27, WS-30
    loaded = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
    assert not any(re.search(r"\.dawg|wordlist|lexicon", url) for url in loaded)
    page.context.close()


def test_the_language_is_the_query_or_the_apps_and_the_switch_keeps_it(
    browser: Browser, server: ServerProcess
) -> None:
    page = rules_page(browser, server, "nl", "?lang=de")
    expect(page.locator("h1")).to_have_text(texts("de")["title"])
    page.locator("#language").select_option("it")
    page.wait_for_selector("body[data-rendered=it]")
    expect(page.locator("h1")).to_have_text(texts("it")["title"])
    assert page.url.endswith("?lang=it")
    assert missing_strings(page) == []
    page.goto(f"{server.url}{PATH}")  # no query: the choice kept, the app's own
    ready(page)
    assert page.evaluate("() => document.documentElement.lang") == "it"
    assert missing_strings(page) == []
    page.goto(f"{server.url}/")
    ready(page)
    assert page.evaluate("() => document.documentElement.lang") == "it"
    page.context.close()


def test_the_page_loads_under_the_csp_without_a_failure(
    browser: Browser, server: ServerProcess
) -> None:
    page = rules_page(browser, server, "nl")
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else 0)
    response = page.reload()
    ready(page)
    page.wait_for_load_state("networkidle")
    assert problems == []
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    html = (ROOT / "web" / "rules.html").read_text("utf-8")
    assert re.findall(r"<script(?![^>]*\bsrc=)", html) == []  # no inline script
    assert " style=" not in html and "<style" not in html
    page.context.close()


@pytest.mark.parametrize("language", ["nl", "pl"])
def test_axe_finds_no_serious_or_critical_violation(
    browser: Browser, server: ServerProcess, language: str
) -> None:
    page = rules_page(browser, server, language)
    assert page.locator("header").count() == 1 and page.locator("main").count() == 1
    assert page.locator("footer").count() == 1 and page.locator("nav").count() == 1
    assert axe(page) == []
    shot(page, f"rules-full-{language}")
    assert missing_strings(page) == []
    page.context.close()


def test_a_link_to_a_section_shows_that_section(browser: Browser, server: ServerProcess) -> None:
    page = rules_page(browser, server, "nl", "#words")
    expect(page.locator("#words h2")).to_be_in_viewport()
    page.context.close()


def test_without_the_catalog_or_its_own_strings_the_page_says_why(
    browser: Browser, server: ServerProcess
) -> None:
    page = rules_page(browser, server, "nl")
    offline = app_strings("nl")["error.offline"]
    page.route("**/api/catalog", lambda route: route.abort())
    page.reload()
    ready(page)
    expect(page.locator("#tiles .problem")).to_have_text(offline)
    expect(page.locator("main h2")).to_have_count(len(SECTIONS))  # the rest is all there
    expect(page.locator("#sources a")).not_to_have_count(0)
    page.route("**/strings/rules/*.json", lambda route: route.abort())
    page.reload()
    ready(page)
    expect(page.locator("main .problem")).to_have_text(offline)
    assert missing_strings(page) == []
    page.context.close()
