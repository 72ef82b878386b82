"""The start page: seven languages, a new sheet, joining by code, rejoining after a reload."""

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import create_table, join_table, missing_strings, open_app, shot, show
from tests.web.screen_fit import fits_width

LANGUAGES = ["nl", "en", "fr", "de", "es", "it", "pl"]


@pytest.mark.parametrize(
    ("language", "heading", "join"),
    [
        ("nl", "Nieuw scoreformulier", "Aanschuiven"),
        ("en", "New score sheet", "Join"),
        ("fr", "Nouvelle feuille de marque", "Rejoindre"),
        ("de", "Neuer Spielbogen", "Beitreten"),
        ("es", "Nueva hoja de puntuación", "Unirse"),
        ("it", "Nuovo foglio segnapunti", "Unisciti"),
        ("pl", "Nowy arkusz wyników", "Dołącz"),
    ],
)
def test_start_page_speaks_the_browser_language_with_no_missing_string(
    browser: Browser, server: ServerProcess, language: str, heading: str, join: str
) -> None:
    page = open_app(browser, server.url, language)
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
    expect(page.get_by_role("button", name=join, exact=True)).to_be_visible()
    shot(page, f"start-{language}")
    assert missing_strings(page) == []
    # Each kind of game's form fits a 360 px phone in every language: a long option ("Ein
    # Mensch, der mit dem Code dazukommt") once made the online form scroll sideways.
    for mode in ("classic", "duplicate", "online"):
        page.locator(f"#start input[type=radio][name$=-mode][value={mode}]").check()
        fits_width(page, 360, 800)
    page.context.close()


def test_every_language_file_has_every_key() -> None:
    import json

    from tests.web.browser import ROOT

    # Not a language's own wording for online play (online.*): only a language that words it
    # differently has it (test_strings).
    keys = {
        language: {
            key
            for key in json.loads((ROOT / "web" / "strings" / f"{language}.json").read_text())
            if not key.startswith("online.")
        }
        for language in LANGUAGES
    }
    for language in LANGUAGES:
        assert keys[language] == keys["en"], (language, keys[language] ^ keys["en"])


def test_every_card_on_the_start_page_has_a_title(phone: Page) -> None:
    # Each card is told apart by its heading (a folded one by its summary): read out in a
    # screen reader's list of headings, and seen when the eye runs down the page.
    expect(phone.locator("#start .card").first).to_be_visible()
    titles = phone.locator("#start .card").evaluate_all(
        """cards => cards.map(card => card.querySelector(
             ":scope > h2, :scope > h3, :scope > summary, :scope > form > h3")?.innerText)"""
    )
    assert len(titles) >= 5 and all(titles) and "Simultaan" in titles, titles


def test_language_switch_changes_every_label_and_is_remembered(phone: Page) -> None:
    phone.get_by_label("Taal", exact=True).select_option("it")
    expect(phone.get_by_role("heading", name="Nuovo foglio segnapunti")).to_be_visible()
    phone.reload()
    expect(phone.locator("html")).to_have_attribute("lang", "it")


def test_a_second_phone_joins_by_code_and_a_reload_rejoins_at_once(
    browser: Browser, server: ServerProcess
) -> None:
    host = open_app(browser, server.url, "nl")
    code = create_table(host, ["Anna", ""])
    guest = open_app(browser, server.url, "nl")
    guest.get_by_label("Tafelcode").fill(code)
    # The seats of the game by name (the second without one under its default name), no
    # seat beyond the player count, and the viewer.
    seats = guest.locator("#start .join fieldset label")
    expect(seats).to_have_text(["Anna", "Speler 2", "Kijker (alleen lezen)"])
    join_table(guest, code, "Speler 2")
    show(guest, "table")
    expect(guest.get_by_text("Je bent Speler 2")).to_be_visible()
    guest.reload()
    expect(guest.get_by_text("Je bent Speler 2")).to_be_visible()
    # A third phone sees that seat taken.
    third = open_app(browser, server.url, "nl")
    third.get_by_label("Tafelcode").fill(code)
    expect(third.locator("#start .join fieldset label")).to_have_text(
        ["Anna", "Speler 2 · bezet", "Kijker (alleen lezen)"]
    )
    third.locator("#start .join").get_by_label("Speler 2 · bezet", exact=True).check()
    expect(third.locator(".taken-hint")).to_contain_text("De gastheer moet deze telefoon")
    shot(third, "join-seats")
    third.context.close()
    assert missing_strings(host) == missing_strings(guest) == []
    for page in (host, guest):
        page.context.close()


def test_the_qr_link_fills_in_the_code(browser: Browser, server: ServerProcess) -> None:
    host = open_app(browser, server.url, "nl")
    code = create_table(host, ["Anna", "Bas"])
    show(host, "table")
    host.get_by_role("button", name="Anderen uitnodigen").click()
    expect(
        host.get_by_role("img", name=f"QR-code om aan tafel {code} aan te schuiven")
    ).to_be_visible()
    shot(host, "invite-qr")
    guest = open_app(browser, server.url, "nl", f"/#join={code}")
    expect(guest.get_by_label("Tafelcode")).to_have_value(code)
    expect(guest.locator("#start .join fieldset label")).to_have_text(
        ["Anna", "Bas", "Kijker (alleen lezen)"]
    )
    for page in (host, guest):
        page.context.close()


def test_a_table_can_be_started_with_the_keyboard_alone(phone: Page) -> None:
    """Tab order runs through the form in reading order; Enter on the button starts."""
    phone.locator("body").focus()
    seen = []
    for _ in range(40):
        phone.keyboard.press("Tab")
        name = phone.evaluate(
            "() => document.activeElement.labels?.[0]?.textContent"
            " || document.activeElement.textContent"
        )
        seen.append(name.strip())
        if name.strip() == "Spel beginnen":
            break
    assert seen.index("Taal en letterset") < seen.index("Aantal spelers")
    assert seen.index("Naam van speler 1") < seen.index("Wie begint") < len(seen) - 1
    phone.keyboard.press("Enter")
    expect(phone.locator(".shell-bar .code")).to_be_visible()


def test_what_is_typed_in_the_form_survives_a_change_elsewhere_on_the_page(phone: Page) -> None:
    phone.get_by_label("Naam van speler 1").fill("Anna")
    show(phone, "score")
    phone.locator("#calc-edition").select_option("it")  # the calculator's set changes
    show(phone, "start")
    expect(phone.get_by_label("Naam van speler 1")).to_have_value("Anna")


def test_nothing_on_the_pages_needs_an_inline_script_or_style(
    browser: Browser, server: ServerProcess
) -> None:
    """The server's CSP forbids inline scripts and style attributes: a host's phone through
    its screens (premium colours in both calculator modes, the sheet, the table's phones)
    and the room display run without a single violation."""
    from tests.web.browser import PHONE, ready

    context = browser.new_context(viewport=PHONE, locale="nl")
    context.add_init_script(
        "window.violations = [];"
        "document.addEventListener('securitypolicyviolation',"
        " (e) => window.violations.push(`${e.violatedDirective} ${e.sourceFile}:${e.lineNumber}`));"
    )
    page = context.new_page()
    answer = page.goto(server.url + "/")
    assert answer is not None and "style-src 'self'" in answer.headers["content-security-policy"]
    ready(page)
    code = create_table(page, ["Anna", "Bas"])
    show(page, "score")
    page.locator("#calc-word-0").fill("plank")
    page.locator("#calc-tile-0-0").click()
    page.locator("#calc-tile-0-0-premium-2W").check()
    page.locator("#calc-tile-0-0-panel button").click()
    expect(page.locator("#calc-total")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())  # the typed move goes
    page.locator("#calc-mode-board").check()
    expect(page.locator("#calc-board")).to_be_visible()
    show(page, "table")
    page.get_by_text("Telefoons aan tafel", exact=True).click()
    expect(page.locator(".devices h3").first).to_be_visible()
    display = context.new_page()
    display.goto(f"{server.url}/display.html#join={code}")
    ready(display)
    expect(display.get_by_role("heading", name="Anna is aan zet")).to_be_visible()
    assert page.evaluate("window.violations") == []
    assert display.evaluate("window.violations") == []
    context.close()


def test_a_room_opens_with_no_names_and_its_players_register_on_their_phones(
    phone: Page,
) -> None:
    """The form types a table's 1–4 names; a room of up to 200 opens with none."""
    phone.get_by_label("Duplicate: iedereen dezelfde letters").check()
    counts = phone.locator("select[name=count] option").all_inner_texts()
    assert counts == ["0", "1", "2", "3", "4"]  # never 200 name fields
    phone.get_by_label("Aantal spelers").select_option("0")
    expect(phone.locator("fieldset.names")).to_have_count(0)
    expect(phone.get_by_text("de spelers melden zich met de tafelcode aan")).to_be_visible()
    phone.get_by_role("button", name="Spel beginnen").click()
    phone.wait_for_function(
        """async () => { const { app } = await import('/js/state.js');
            const sheet = app.view?.sheet;
            return sheet?.mode === 'duplicate' && sheet.players.length === 0; }"""
    )
