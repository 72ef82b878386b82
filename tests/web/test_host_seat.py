"""The host's phone holds a seat (issue 27): at a classic table the host chooses "Ik speel als
Anna" (the first player by default) or to keep the score only; Anna's seat is then taken,
and a fourth phone asking for it waits until the host, told who asks, lets it in or refuses
it. Phones in separate browser contexts against a real server."""

import re

from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import (
    Phones,
    create_table,
    join_table,
    missing_strings,
    open_app,
    session_of,
    shot,
    show,
    wait_for_state,
)

PIXEL = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Mobile Safari/537.36"
)
HOST_SEAT = "Anna · bezet door de gastheer"  # the join list's seat of the host's phone


def test_the_host_chooses_its_seat_on_the_start_form_by_the_names_typed(phone: Page) -> None:
    show(phone, "start")
    start = phone.locator("#start")
    start.get_by_label("Aantal spelers").select_option("3")
    for index, name in enumerate(["Anna", "Bas", "Cas"], 1):
        start.get_by_label(f"Naam van speler {index}").fill(name)
    choice = start.locator("fieldset", has_text="Deze telefoon").locator("label")
    expect(choice).to_have_text(
        ["Ik speel als Anna", "Ik speel als Bas", "Ik speel als Cas",
         "Ik houd alleen de score bij (geen plaats)"]
    )  # fmt: skip
    expect(start.get_by_label("Ik speel als Anna")).to_be_checked()  # the first, by default
    shot(phone, "start-host-seat")
    start.get_by_label("Ik speel als Bas").check()
    start.get_by_role("button", name="Spel beginnen").click()
    wait_for_state(phone, "app => app.view?.sheet && app.view.host_seat === 1")
    show(phone, "table")
    expect(phone.locator(".table-bar .who")).to_have_text("Je bent Bas en de gastheer")


def test_a_fourth_phone_cannot_take_the_host_seat_without_the_host(
    phones: Phones, browser: Browser, server: ServerProcess
) -> None:
    host = phones()
    code = create_table(host, ["Anna", "Bas", "Cas"], host_plays="Anna")
    bas, cas = phones(), phones()
    join_table(bas, code, "Bas")
    join_table(cas, code, "Cas")
    fourth = open_app(browser, server.url, "nl", user_agent=PIXEL)
    fifth = open_app(browser, server.url, "nl")
    try:
        show(fourth, "start")
        form = fourth.locator("#start .join")
        form.get_by_label("Tafelcode").fill(code)
        expect(form.get_by_label(HOST_SEAT, exact=True)).to_be_visible()
        expect(form.get_by_label("Bas · bezet", exact=True)).to_be_visible()
        shot(fourth, "join-host-seat-taken")
        join_table(fourth, code, HOST_SEAT, admitted=False)
        expect(fourth.locator(".scoreboard")).to_have_count(0)  # nothing of the table yet

        # The host is told who asks: for its own seat, and which phone it is.
        host.get_by_role("button", name="1 telefoon vraagt om een plaats").click()
        request = host.locator(".request")
        expect(request.locator("p").first).to_have_text(
            "Een andere telefoon vraagt om de plaats van Anna, die jouw telefoon heeft"
        )
        expect(request.locator(".device-what")).to_have_text(
            re.compile(r"^Pixel 7 · Chrome · \d\d:\d\d:\d\d$")
        )
        shot(host, "host-seat-request")
        request.get_by_role("button", name="Weigeren").click()
        expect(fourth.get_by_role("alert")).to_have_text(re.compile("^De gastheer heeft deze"))
        assert session_of(fourth) is None

        # Another phone asking for it waits too, and the host may let it in.
        join_table(fifth, code, HOST_SEAT, admitted=False)
        host.locator("#requests-badge").click()
        host.locator(".request").get_by_role("button", name="Toelaten").click()
        show(fifth, "table")
        expect(fifth.get_by_text("Je bent Anna", exact=True)).to_be_visible()

        # The host's own phone heads the devices list with its seat.
        show(host, "table")
        expect(host.locator(".table-bar .who")).to_have_text("Je bent Anna en de gastheer")
        host.get_by_text("Telefoons aan tafel", exact=True).click()
        expect(host.locator("#host-device")).to_have_text("Anna Telefoon van de gastheer")
        expect(host.locator(".device-list .device-name")).to_have_text(["Bas", "Cas", "Anna"])
        shot(host, "devices-host-seat")
    finally:
        for page in (fourth, fifth):
            assert missing_strings(page) == []
            page.context.close()


def test_a_new_game_keeps_the_host_seat(phones: Phones) -> None:
    """Clearing the sheet starts the same game again: the host's phone keeps its seat."""
    host = phones()
    code = create_table(host, ["Anna", "Bas"], host_plays="Bas")
    show(host, "sheet")
    host.get_by_role("button", name="Formulier wissen").click()
    host.get_by_role("button", name="Tik nog eens om te wissen").click()
    wait_for_state(host, "app => app.view.seq >= 3")
    assert host.evaluate("async () => (await import('/js/state.js')).app.view.host_seat") == 1
    other = phones()
    join_table(other, code, "Bas · bezet door de gastheer", admitted=False)
