"""The start page: seven languages, a new sheet, joining by code, rejoining after a reload."""

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import create_table, join_table, missing_strings, open_app, shot

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
    page.context.close()


def test_every_language_file_has_every_key() -> None:
    import json

    from tests.web.browser import ROOT

    keys = {
        language: set(json.loads((ROOT / "web" / "strings" / f"{language}.json").read_text()))
        for language in LANGUAGES
    }
    for language in LANGUAGES:
        assert keys[language] == keys["en"], (language, keys[language] ^ keys["en"])


def test_language_switch_changes_every_label_and_is_remembered(phone: Page) -> None:
    phone.get_by_label("Taal", exact=True).select_option("it")
    expect(phone.get_by_role("heading", name="Nuovo foglio segnapunti")).to_be_visible()
    phone.reload()
    expect(phone.locator("html")).to_have_attribute("lang", "it")


def test_a_second_phone_joins_by_code_and_a_reload_rejoins_at_once(
    browser: Browser, server: ServerProcess
) -> None:
    host = open_app(browser, server.url, "nl")
    code = create_table(host, ["Anna", "Bas"])
    guest = open_app(browser, server.url, "nl")
    join_table(guest, code, "Speler 2")
    expect(guest.get_by_text("Je bent Bas")).to_be_visible()
    guest.reload()
    expect(guest.get_by_text("Je bent Bas")).to_be_visible()
    assert missing_strings(host) == missing_strings(guest) == []
    for page in (host, guest):
        page.context.close()


def test_the_qr_link_fills_in_the_code(browser: Browser, server: ServerProcess) -> None:
    host = open_app(browser, server.url, "nl")
    code = create_table(host, ["Anna", "Bas"])
    host.get_by_role("button", name="Anderen uitnodigen").click()
    expect(
        host.get_by_role("img", name=f"QR-code om aan tafel {code} aan te schuiven")
    ).to_be_visible()
    shot(host, "invite-qr")
    guest = open_app(browser, server.url, "nl", f"/#join={code}")
    expect(guest.get_by_label("Tafelcode")).to_have_value(code)
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
    expect(phone.locator(".table-bar .code")).to_be_visible()


def test_what_is_typed_in_the_form_survives_a_change_elsewhere_on_the_page(phone: Page) -> None:
    phone.get_by_label("Naam van speler 1").fill("Anna")
    phone.locator("#calc-edition").select_option("it")  # the calculator's set changes
    expect(phone.get_by_label("Naam van speler 1")).to_have_value("Anna")
