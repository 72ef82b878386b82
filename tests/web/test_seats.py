"""Seats, devices and turns at one table (issue 11): two phones recording the same turn at
once make one line and the other phone is told who recorded it; a second phone for a taken
seat waits for the host, who lets it in or refuses it; the host removes a device; a
player's phone shows only what it may do."""

import re
import time

from playwright.sync_api import Page, expect

from tests.web.browser import (
    SCOREKEEPER,
    Phones,
    create_table,
    join_table,
    line_kinds,
    session_of,
    shot,
    show,
    wait_for_state,
)


def tap_together(pages: list[Page], selector: str, name: str) -> None:
    """Tap the button ``name`` under ``selector`` on every page in the same millisecond (a
    timer in each page set to one moment), as two people at a table do."""
    moment = time.time() * 1000 + 400
    for page in pages:
        expect(page.locator(selector).get_by_role("button", name=name)).to_be_enabled()
        page.evaluate(
            """([selector, name, moment]) => setTimeout(() => {
                const buttons = document.querySelectorAll(`${selector} button`);
                [...buttons].find((b) => b.textContent === name).click();
            }, moment - Date.now())""",
            [selector, name, moment],
        )
    pages[0].wait_for_timeout(600)


def refused_one(pages: list[Page], pattern: str) -> tuple[Page, Page]:
    """The phone that was told (an alert matching ``pattern``) and the one that recorded."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        told = [p for p in pages if p.get_by_role("alert").filter(has_text=re.compile(pattern))
                .count()]  # fmt: skip
        if told:
            assert len(told) == 1, "both phones were refused"
            return told[0], next(p for p in pages if p is not told[0])
        pages[0].wait_for_timeout(50)
    raise AssertionError("no phone said that the turn was taken")


def on_screen(page: Page, selector: str, button: str) -> None:
    """Scroll ``selector`` to the middle of the phone's screen, under the message line, once
    ``button`` has come back from being busy (the moment after an answer)."""
    expect(page.get_by_role("button", name=button)).to_be_enabled()
    page.locator(selector).evaluate("e => e.scrollIntoView({ block: 'center' })")


def scorekeeping_table(phones: Phones) -> tuple[Page, Page, Page, str]:
    """The host's phone with a sheet for Anna and Bas kept by one phone, and their phones."""
    host = phones()
    code = create_table(host, ["Anna", "Bas"], writers=SCOREKEEPER)
    anna, bas = phones(), phones()
    join_table(anna, code, "Anna")
    join_table(bas, code, "Bas")
    return host, anna, bas, code


def test_two_phones_entering_the_same_points_at_once_make_one_line(phones: Phones) -> None:
    host, anna, bas, _ = scorekeeping_table(phones)
    for page in (anna, bas):
        expect(page.get_by_role("heading", name="Beurt van Anna")).to_be_visible()
        page.get_by_label("Punten, tot 2.000").fill("24")
    tap_together([anna, bas], ".turn", "Punten noteren")
    told, recorder = refused_one([anna, bas], "De beurt van Anna is net genoteerd")
    who = "Anna" if recorder is anna else "Bas"
    expect(told.get_by_role("alert")).to_have_text(
        f"De beurt van Anna is net genoteerd door de telefoon van {who}: 24"
    )
    for page in (host, anna, bas):
        wait_for_state(page, "app => app.view.sheet.lines.length === 1")
        expect(page.locator(".scoreboard .total")).to_have_text(["24", "0"])
    assert line_kinds(host) == ["points"]
    # What was typed stays, now for the turn to play: nothing went to Bas.
    expect(told.get_by_label("Punten, tot 2.000")).to_have_value("24")
    expect(told.get_by_role("heading", name="Beurt van Bas")).to_be_visible()
    shot(told, "turn-taken-points")
    on_screen(told, ".classic-sheet .scoreboard", "Punten noteren")
    shot(told, "turn-taken-points-screen", full_page=False)


def test_two_phones_recording_the_same_move_at_once_make_one_line(phones: Phones) -> None:
    host, anna, bas, _ = scorekeeping_table(phones)
    for page in (anna, bas):
        show(page, "score")
        page.locator("#calc-word-0").fill("plank")
        expect(page.locator("#calculator .result").get_by_role("button")).to_have_text(
            re.compile(r"^\d+ voor Anna$")
        )
    points = anna.locator("#calculator .result button.primary").inner_text().split()[0]
    tap_together([anna, bas], "#calculator .result", f"{points} voor Anna")
    told, recorder = refused_one([anna, bas], "De beurt van Anna is net genoteerd")
    who = "Anna" if recorder is anna else "Bas"
    expect(told.get_by_role("alert")).to_have_text(
        f"De beurt van Anna is net genoteerd door de telefoon van {who}: PLANK, {points}"
    )
    for page in (host, anna, bas):
        wait_for_state(page, "app => app.view.sheet.lines.length === 1")
        expect(page.locator(".scoreboard .total")).to_have_text([points, "0"])
    assert line_kinds(host) == ["move"]
    # The refused phone keeps the move; its button now says whose turn it would go to.
    expect(told.locator("#calc-word-0")).to_have_value("plank")
    expect(told.locator("#calculator .result button.primary")).to_have_text(f"{points} voor Bas")
    shot(told, "turn-taken-move")
    on_screen(told, "#calc-word-0", f"{points} voor Bas")
    shot(told, "turn-taken-move-screen", full_page=False)


def test_a_second_phone_for_a_taken_seat_waits_until_the_host_lets_it_in(
    phones: Phones,
) -> None:
    host = phones()
    code = create_table(host, ["Anna", "Bas"])
    bas = phones()
    join_table(bas, code, "Bas")
    host.evaluate("() => scrollTo(0, document.body.scrollHeight)")
    second = phones()
    join_table(second, code, "Bas · bezet", admitted=False)
    expect(second.locator(".table-bar")).to_have_count(0)  # no code, no sheet while it waits
    expect(second.locator(".scoreboard")).to_have_count(0)
    shot(second, "seat-waiting")

    # The host, scrolled down the sheet, is told at the top of the screen as well as by the
    # badge at the top of the view.
    asked = host.locator("#messages .message.info")
    expect(asked).to_have_text("De tweede telefoon van Bas vraagt om aan te schuiven")
    expect(asked).to_be_in_viewport()
    host.get_by_role("button", name="1 telefoon vraagt om een plaats").click()
    request = host.locator(".request")
    expect(request).to_have_text(re.compile("De tweede telefoon van Bas vraagt om aan te schuiven"))
    shot(host, "seat-request")
    request.get_by_role("button", name="Toelaten").click()
    expect(request).to_have_count(0)
    show(second, "table")
    expect(second.get_by_text("Je bent Bas")).to_be_visible()  # on by itself
    expect(second.locator(".scoreboard .name")).to_have_text(["Anna", "Bas"])
    expect(second.get_by_role("status")).to_have_text(
        "De gastheer heeft deze telefoon binnengelaten."
    )
    second.reload()  # and it stays in
    expect(second.get_by_text("Je bent Bas")).to_be_visible()

    # Refused: the phone forgets the table and says so.
    third = phones()
    join_table(third, code, "Bas · bezet", admitted=False)
    host.locator("#requests-badge").click()  # the list closed with the last request
    host.locator(".request").get_by_role("button", name="Weigeren").click()
    expect(third.get_by_role("alert")).to_have_text(
        "De gastheer heeft deze telefoon van de tafel gehaald. Schuif opnieuw aan met de"
        " tafelcode als dat een vergissing was."
    )
    expect(third.get_by_role("heading", name="Aan een tafel aanschuiven")).to_be_visible()
    assert session_of(third) is None


def test_the_same_phone_takes_its_seat_back_without_the_host(phones: Phones) -> None:
    host = phones()
    code = create_table(host, ["Anna", "Bas"])
    bas = phones()
    join_table(bas, code, "Bas")
    bas.once("dialog", lambda dialog: dialog.accept())
    show(bas, "table")
    bas.get_by_role("button", name="Tafel verlaten").click()
    join_table(bas, code, "Bas · bezet")  # its own key: let in at once
    show(bas, "table")
    expect(bas.get_by_text("Je bent Bas")).to_be_visible()
    expect(host.locator(".request")).to_have_count(0)


def test_the_host_removes_a_device_and_that_phone_is_told(phones: Phones) -> None:
    host = phones()
    code = create_table(host, ["Anna", "Bas"])
    anna = phones()
    join_table(anna, code, "Anna")
    show(host, "table")
    host.get_by_text("Telefoons aan tafel", exact=True).click()
    row = host.locator(".device-list li")
    expect(row).to_have_count(1)
    expect(row.locator(".device-name")).to_have_text("Anna")
    expect(row.locator(".hint")).to_have_text(re.compile(r"^Sinds \d\d:\d\d:\d\d · laatst gezien "))
    shot(host, "devices-panel")
    host.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Anna verwijderen").click()
    expect(anna.get_by_role("alert")).to_have_text(re.compile("^De gastheer heeft deze telefoon"))
    expect(anna.get_by_role("heading", name="Aan een tafel aanschuiven")).to_be_visible()
    assert session_of(anna) is None
    expect(row).to_have_count(0)
    shot(anna, "device-removed")


def test_a_player_phone_shows_the_turn_buttons_only_on_its_own_turn(phones: Phones) -> None:
    host = phones()
    code = create_table(host, ["Anna", "Bas"])
    bas = phones()
    join_table(bas, code, "Bas")
    expect(bas.locator(".waiting-turn")).to_have_text("Wachten op Anna")
    for name in ("Punten noteren", "Passen", "Ruilen", "Woord teruggenomen"):
        expect(bas.get_by_role("button", name=name)).to_have_count(0)
    show(bas, "score")
    bas.locator("#calc-word-0").fill("plank")
    expect(bas.locator("#calc-total")).to_be_visible()
    expect(bas.locator("#calculator .result button")).to_have_count(0)  # not his turn
    # The host's acts are not on a player's phone.
    expect(bas.get_by_text("Strafpunten", exact=True)).to_have_count(0)
    for name in ("Formulier wissen", "Ander spel", "Laatste regel ongedaan maken"):
        expect(bas.get_by_role("button", name=name)).to_have_count(0)
    shot(bas, "own-seat-waiting")
    show(bas, "sheet")

    host.get_by_label("Punten, tot 2.000").fill("10")
    host.get_by_role("button", name="Punten noteren").click()
    expect(bas.get_by_role("button", name="Passen")).to_be_visible()  # his turn now
    expect(bas.locator("#calculator .result button.primary")).to_have_text(
        re.compile(r"^\d+ voor Bas$")
    )
    expect(host.get_by_role("button", name="Passen")).to_be_visible()  # the host may always

    # The host lets one phone keep the sheet: Bas's phone may write Anna's turn too.
    bas.get_by_role("button", name="Passen").click()
    expect(bas.locator(".waiting-turn")).to_have_text("Wachten op Anna")
    show(host, "table")
    host.get_by_text("Telefoons aan tafel", exact=True).click()
    host.locator("#devices").get_by_label(SCOREKEEPER).check()
    expect(bas.get_by_role("heading", name="Beurt van Anna")).to_be_visible()
    expect(bas.get_by_role("button", name="Passen")).to_be_visible()
    expect(bas.get_by_text("Strafpunten", exact=True)).to_be_visible()
    expect(bas.get_by_role("button", name="Formulier wissen")).to_have_count(0)  # the host's


def test_in_duplicate_a_player_phone_writes_its_own_cell_only(phones: Phones) -> None:
    host = phones()
    code = create_table(host, ["Anna", "Bas"], mode="Duplicate: iedereen dezelfde letters")
    bas = phones()
    join_table(bas, code, "Bas")
    expect(bas.get_by_label("Ronde 1, Anna")).to_have_attribute("readonly", "")
    expect(bas.get_by_label("Ronde 1, top")).to_have_attribute("readonly", "")
    expect(bas.get_by_label("Ronde 1, Bas")).not_to_have_attribute("readonly", "")
    show(bas, "score")
    bas.locator("#calc-word-0").fill("plank")
    record = bas.locator("#calculator .result button")
    expect(record).to_have_text([re.compile(r"^\+\d+ voor Bas$")])  # no top: the director's
    for name in ("Als top noteren", "Spel beëindigen", "Laatste regel ongedaan maken"):
        expect(bas.get_by_role("button", name=name)).to_have_count(0)
    record.click()
    expect(host.get_by_label("Ronde 1, Bas")).not_to_have_value("")
    expect(record).to_have_count(0)  # his cell is filled
    expect(host.get_by_label("Ronde 1, Anna")).to_have_value("")
