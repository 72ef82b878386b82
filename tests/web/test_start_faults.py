"""Two faults of the start page found by trying it as a new user (issue 27): "Wie begint" named
the players "Speler 1/2/3" although their names were typed, and a join code no table has
was answered "Typ eerst de tafelcode" as if none had been typed."""

from playwright.sync_api import Page, expect

from tests.web.browser import show, wait_for_state

UNKNOWN = "Geen tafel heeft deze code. Controleer de code en probeer het opnieuw."


def test_who_starts_lists_the_names_as_typed(phone: Page) -> None:
    show(phone, "start")
    start = phone.locator("#start")
    start.get_by_label("Aantal spelers").select_option("3")
    for index, name in enumerate(["Anna", "Bas", "Cas"], 1):
        start.get_by_label(f"Naam van speler {index}").fill(name)
    starter = start.get_by_label("Wie begint")
    expect(starter.locator("option")).to_have_text(["Anna", "Bas", "Cas"])
    start.get_by_label("Naam van speler 2").fill("")  # a name taken away: the default again
    expect(starter.locator("option")).to_have_text(["Anna", "Speler 2", "Cas"])
    start.get_by_label("Naam van speler 2").fill("Bas")
    starter.select_option(label="Cas")
    start.get_by_role("button", name="Spel beginnen").click()
    wait_for_state(phone, "app => app.view?.sheet?.starter === 2")
    show(phone, "sheet")
    expect(phone.locator(".turn-line")).to_have_text("Cas is aan de beurt")


def test_a_wrong_join_code_says_no_table_has_it(phone: Page) -> None:
    show(phone, "start")
    form = phone.locator("#start .join")
    # Tapped at once, before the seats were asked for, and again once the form shows why.
    form.get_by_label("Tafelcode").fill("ZZZZZ9")
    form.get_by_role("button", name="Aanschuiven", exact=True).click()
    expect(phone.locator("#messages .message")).to_have_text(UNKNOWN)
    expect(form.locator(".seats .refusal")).to_have_text(UNKNOWN)
    phone.evaluate("() => document.querySelector('#messages').replaceChildren()")
    form.get_by_role("button", name="Aanschuiven", exact=True).click()
    expect(phone.locator("#messages .message")).to_have_text(UNKNOWN)
