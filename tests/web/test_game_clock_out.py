"""A player out of time at a physical table (issue 27, P-53): what every phone offers then.

Two tournament games a tester played with a one-minute clock, on three phones each: the host,
who keeps score without a seat, and the two players at their seats.

- FIGS (FED-FIGS-10): Giulia's minute and then her extra minute run out. She has lost the
  game: no phone offers her turn's buttons, which the server would refuse (``out_of_time``);
  the bar, the scoreboard and the turn's card say she lost on time, say why there is no turn
  where its buttons would be, and offer ending the game there.
- PFS (FED-PFS-13): Grzegorz runs out before his first move; the turn passes to Małgorzata,
  who plays on with her time running. Her phone offers no clock tap, which would hand the
  clock to nobody, and says why where the tap would be; once her time is out too, nobody
  moves and the end is offered.

The server decides when a time is up (``not_due`` before), so these servers run on a clock
the test moves on, and the phones' clocks with it (``tests.web.moved_clock``).
"""

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.browser import (
    axe,
    join_table,
    missing_strings,
    open_app,
    shot,
    show,
    wait_for_state,
)
from tests.web.moved_clock import Moved

TURN_BUTTONS = ["#sheet-score", "#sheet-points", "#sheet-pass", "#sheet-exchange",
                "#sheet-withdraw"]  # fmt: skip


def clocked_table(
    browser: Browser, url: str, edition: str, rules: str, names: tuple[str, str]
) -> tuple[Page, Page, Page]:
    """The host's phone with a sheet of ``rules`` for ``names`` and a one-minute clock,
    keeping score without a seat, and each player's phone at their seat; every phone's
    timers Playwright's."""
    host = open_app(browser, url, clock=True)
    show(host, "start")
    start = host.locator("#start")
    start.get_by_label("Klassiek: om beurten").check()
    start.get_by_label("Taal en letterset").select_option(edition)
    start.get_by_label("Naam van speler 1").fill(names[0])
    start.get_by_label("Naam van speler 2").fill(names[1])
    start.get_by_label(rules).check()
    start.get_by_label("Spelklok: minuten per speler").fill("1")
    start.get_by_label("Ik houd alleen de score bij (geen plaats)").check()
    start.get_by_role("button", name="Spel beginnen").click()
    code = host.locator(".table-bar .code")
    expect(code).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
    first, second = open_app(browser, url, clock=True), open_app(browser, url, clock=True)
    join_table(first, code.inner_text(), names[0])
    join_table(second, code.inner_text(), names[1])
    for page in (host, first, second):
        show(page, "sheet")
        wait_for_state(page, "app => app.view?.sheet?.game_clock")
    return host, first, second


@pytest.fixture
def phones_of(browser: Browser, moved: Moved) -> Iterator[list[Page]]:
    """The phones a test opens, checked for missing strings and closed after it."""
    opened: list[Page] = []
    yield opened
    for page in opened:
        assert missing_strings(page) == []
        page.context.close()


def in_language(page: Page, language: str, name: str) -> None:
    """A screenshot of the phone in ``language`` (the tester's), then back in Dutch."""
    page.evaluate(f"async () => (await import('/js/i18n.js')).setLanguage('{language}')")
    expect(page.locator("html")).to_have_attribute("lang", language)
    shot(page, name)
    page.evaluate("async () => (await import('/js/i18n.js')).setLanguage('nl')")
    expect(page.locator("html")).to_have_attribute("lang", "nl")


def test_figs_a_player_who_lost_on_time_is_offered_no_turn_and_the_end_is(
    browser: Browser, moved: Moved, phones_of: list[Page]
) -> None:
    host, giulia, marco = clocked_table(
        browser, moved.url, "it", "Wedstrijdregels (FIGS)", ("Giulia", "Marco")
    )
    phones = [host, giulia, marco]
    phones_of.extend(phones)
    marco.get_by_role("button", name="Klok starten").click()  # Giulia's time runs
    for page in phones:
        expect(page.locator(".gameclock-status")).to_have_text("Loopt")
    expect(giulia.locator("#sheet-pass")).to_be_visible()  # her turn, while she has time

    # Her minute runs out: the extra minute (30 points) begins, and she may still move.
    moved.move_on(phones, 61)
    for page in phones:
        wait_for_state(page, "app => app.view.sheet.game_clock.called[0] === 1")
    expect(giulia.locator("#sheet-pass")).to_be_visible()
    expect(giulia.locator(".gameclock-players li[data-player='0'] .gameclock-state")).to_have_text(
        "In de extra minuut"
    )

    # The extra minute runs out too: under FIGS she has lost the game.
    moved.move_on(phones, 60)
    for page in phones:
        wait_for_state(page, "app => app.view.sheet.game_clock.lost[0]")
    lost = ("De tijd van Giulia is om en volgens deze regels heeft Giulia de partij verloren: "
            "er worden geen beurten meer genoteerd. Het spel eindigt met de letters die nog op "
            "de plankjes staan.")  # fmt: skip
    for page in phones:
        expect(page.locator(".bar-turn")).to_have_text("Giulia heeft op tijd verloren")
        expect(page.locator(".scoreboard .turn-line")).to_have_text("Giulia heeft op tijd verloren")
        expect(page.locator(".scoreboard .to-move")).to_have_count(0)
        expect(page.locator("#sheet-out-of-time .waiting-turn")).to_have_text(
            "Giulia heeft op tijd verloren"
        )
        expect(page.locator("#sheet-turn-withheld")).to_have_text(lost)
        for button in TURN_BUTTONS:
            expect(page.locator(button)).to_have_count(0)
        expect(page.locator("#gameclock-tap")).to_have_count(0)
        # The end, where the turn would be, and only there.
        expect(page.locator("#sheet-out-of-time #end-open")).to_have_text("Spel beëindigen")
        expect(page.locator("#end-open")).to_have_count(1)
    assert axe(host, "#sheet-out-of-time") == []
    # The table's display says it where it says whose turn it is, and marks nobody's row.
    code = host.locator(".table-bar .code").inner_text()
    display = open_app(browser, moved.url, "nl", f"/display.html#join={code}")
    phones_of.append(display)
    expect(display.locator(".room-turn")).to_have_text("Giulia heeft op tijd verloren")
    expect(display.locator(".room-standings tbody tr")).to_have_count(2)
    expect(display.locator(".room-standings .to-move")).to_have_count(0)
    shot(giulia, "game-clock-figs-lost-on-time")
    in_language(giulia, "it", "game-clock-figs-lost-on-time-it")
    host.locator("#sheet-out-of-time").scroll_into_view_if_needed()
    shot(host, "game-clock-figs-lost-on-time-host", full_page=False)
    # Nor does her calculator offer to record a move it scores: it says why instead.
    show(giulia, "score")
    giulia.locator("#calc-word-0").fill("casa")
    expect(giulia.locator("#calc-total")).to_be_visible()
    expect(giulia.locator("#calculator .result button.primary")).to_have_count(0)
    expect(giulia.locator("#calc-record-withheld")).to_have_text(lost)
    show(giulia, "sheet")

    # The host ends it as ever, from the card; the final table says who lost on time.
    host.locator("#end-open").click()
    expect(host.locator("#sheet-out-of-time #end-rack-0")).to_be_focused()
    shot(host, "game-clock-figs-end-form")
    host.get_by_label("Giulia: letters of punten").fill("7")
    host.get_by_label("Marco: letters of punten").fill("3")
    host.get_by_role("button", name="Eindstand opmaken").click()
    for page in phones:
        wait_for_state(page, "app => app.view.sheet.final")
        expect(page.locator(".gameclock-final")).to_have_text(
            "Giulia: -80 punten voor tijd over. Giulia heeft op tijd verloren."
        )
        expect(page.locator(".bar-turn")).to_have_text("Het spel is afgelopen.")
        expect(page.locator("#sheet-out-of-time")).to_have_count(0)


def test_pfs_the_player_who_plays_on_is_offered_no_tap_that_hands_the_clock_to_nobody(
    browser: Browser, moved: Moved, phones_of: list[Page]
) -> None:
    host, grzegorz, malgorzata = clocked_table(
        browser, moved.url, "pl", "Wedstrijdregels (PFS)", ("Grzegorz", "Małgorzata")
    )
    phones = [host, grzegorz, malgorzata]
    phones_of.extend(phones)
    malgorzata.get_by_role("button", name="Klok starten").click()  # Grzegorz's time runs
    tap = grzegorz.get_by_role("button", name="Klaar: tijd van Małgorzata laten lopen")
    expect(tap).to_be_visible()

    # Grzegorz runs out before his first move: the turn passes to Małgorzata, who plays on.
    moved.move_on(phones, 61)
    for page in phones:
        wait_for_state(page, "app => app.view.sheet.to_move === 1")
    plays_on = ("Niemand anders heeft nog tijd: Małgorzata speelt door en de tijd van "
                "Małgorzata blijft lopen.")  # fmt: skip
    for page in phones:
        expect(page.locator(".gameclock-players li.running .name")).to_have_text("Małgorzata")
        expect(page.locator(".bar-turn")).to_have_text("Małgorzata is aan de beurt")
        expect(page.locator("#gameclock-plays-on")).to_have_text(plays_on)
        expect(page.locator("#gameclock-tap")).to_have_count(0)
        expect(page.locator("#gameclock-not-yours")).to_have_count(0)
    expect(malgorzata.locator("#sheet-pass")).to_be_visible()  # her turn, and she has time
    expect(grzegorz.locator("#sheet-turn-withheld")).to_have_text(
        "Małgorzata is aan de beurt — alleen Małgorzata of de gastheer noteert die beurt."
    )
    shot(malgorzata, "game-clock-pfs-plays-on")
    in_language(malgorzata, "pl", "game-clock-pfs-plays-on-pl")

    # The game goes on: her move is recorded, and it is her turn again, her time running.
    malgorzata.get_by_label("Punten, tot 2.000").fill("24")
    malgorzata.get_by_role("button", name="Punten noteren").click()
    for page in phones:
        wait_for_state(page, "app => app.view.sheet.lines.length === 1")
        expect(page.locator(".bar-turn")).to_have_text("Małgorzata is aan de beurt")
        expect(page.locator(".gameclock-players li.running .name")).to_have_text("Małgorzata")
        expect(page.locator("#gameclock-plays-on")).to_have_text(plays_on)
    expect(malgorzata.locator("#sheet-pass")).to_be_visible()

    # Her time runs out too: nobody moves any more, and the end is offered.
    moved.move_on(phones, 61)
    for page in phones:
        wait_for_state(page, "app => app.view.sheet.game_clock.stopped.every(Boolean)")
    for page in phones:
        expect(page.locator(".bar-turn")).to_have_text("Iedereens tijd is om")
        expect(page.locator("#sheet-turn-withheld")).to_have_text(
            "De tijd van alle spelers is om: er worden geen beurten meer genoteerd. Het spel "
            "eindigt met de letters die nog op de plankjes staan."
        )
        for button in TURN_BUTTONS:
            expect(page.locator(button)).to_have_count(0)
        expect(page.locator("#gameclock-plays-on")).to_have_count(0)
        expect(page.locator("#sheet-out-of-time #end-open")).to_be_visible()
    shot(host, "game-clock-pfs-everyone-out")
