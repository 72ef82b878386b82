"""Duplicate: the sheet of rounds on every phone, the round clock, the room display."""

import re
import time
from datetime import datetime

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import (
    PHONE,
    create_table,
    join_table,
    missing_strings,
    open_app,
    post,
    ready,
    session_of,
    shot,
)

DUPLICATE = "Duplicate: iedereen dezelfde letters"

# Every vibration and every oscillator the page asks for, to read back in the tests.
LISTEN = """
window.vibrations = [];
navigator.vibrate = (pattern) => { window.vibrations.push(pattern); return true; };
window.beeps = 0;
const oscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.beeps += 1;
  return oscillator.call(this);
};
"""


def started(page: Page) -> None:
    """Wait until the phone has the first game's sheet (its start command has landed)."""
    deadline = time.monotonic() + 10
    while not page.evaluate("async () => !!(await import('/js/state.js')).app.view?.sheet"):
        assert time.monotonic() < deadline, "the game never started"
        time.sleep(0.05)


def command(server: ServerProcess, page: Page, body: dict) -> None:
    """Record a command as ``page``'s device, over HTTP, naming what the phone shows."""
    post(page, server, body)


def footer(page: Page, label: str) -> Locator:
    """The figures of a row under the rounds ("Totaal", "Verschil met de tops" …)."""
    row = page.locator(".dup-rounds tfoot tr").filter(has=page.get_by_role("rowheader", name=label))
    return row.locator("td")


def standings(page: Page) -> list[list[str]]:
    """The room display's standings, best first: rank (duplicate, or once a game ended),
    name and figures."""
    rows = page.locator(".room-standings tbody tr")
    return [
        [text.strip() for text in rows.nth(i).locator("th, td").all_inner_texts()]
        for i in range(rows.count())
    ]


def close(*pages: Page) -> None:
    for page in pages:
        assert missing_strings(page) == []
        page.context.close()


@pytest.fixture
def table(browser: Browser, server: ServerProcess):
    """A director (host) with Anna and Bas in duplicate, Bas's phone, and a room display;
    each screen's timers are Playwright's, for a test to move on."""
    director = open_app(browser, server.url, "nl", clock=True)
    code = create_table(director, ["Anna", "Bas"], mode=DUPLICATE)
    started(director)
    bas = open_app(browser, server.url, "nl", clock=True)
    join_table(bas, code, "Bas")
    display = open_app(browser, server.url, "nl", f"/display.html#join={code}", clock=True)
    yield director, bas, display, code
    close(director, bas, display)


def test_the_director_records_tops_and_everyone_edits_scores_on_every_screen(table) -> None:
    director, bas, display, code = table
    expect(director.get_by_role("heading", name="Duplicate-formulier")).to_be_visible()
    expect(display.get_by_role("heading", name="Zaalscherm")).to_be_visible()
    assert code not in display.locator("body").inner_text()  # a viewer is given no code
    expect(display.get_by_role("heading", name="Ronde 1")).to_be_visible()

    director.get_by_label("Ronde 1, top").fill("28")
    director.get_by_role("button", name="Als top noteren").click()
    expect(director.get_by_label("Ronde 2, top")).to_be_visible()  # the next round opened
    director.get_by_label("Ronde 1, Anna").fill("28")
    director.get_by_label("Ronde 1, Anna").press("Enter")
    bas.get_by_label("Ronde 1, Bas").fill("20")
    bas.get_by_label("Ronde 1, Bas").press("Tab")
    director.get_by_label("Ronde 2, top").fill("20")
    director.get_by_label("Ronde 2, top").press("Enter")  # Enter in the open top records it
    expect(director.get_by_label("Ronde 3, top")).to_be_visible()
    director.get_by_label("Ronde 2, Anna").fill("20")
    director.get_by_label("Ronde 2, Anna").press("Enter")
    bas.get_by_label("Ronde 2, Bas").fill("10")
    bas.get_by_label("Ronde 2, Bas").press("Enter")

    for page in (director, bas):
        expect(page.get_by_label("Ronde 2, Bas")).to_have_value("10")
        expect(footer(page, "Totaal")).to_have_text(["48", "48", "30"])
        expect(footer(page, "Verschil met de tops")).to_have_text(["0", "-18"])
        expect(footer(page, "Percentage van de tops")).to_have_text(["100,0%", "62,5%"])
    expect(display.get_by_role("heading", name="Ronde 3")).to_be_visible()
    expect(display.locator(".room-top .room-points")).to_have_text("20")
    assert standings(display) == [
        ["1", "Anna", "48", "0", "100,0%"],
        ["2", "Bas", "30", "-18", "62,5%"],
    ]
    shot(director, "duplicate-sheet")
    shot(display, "duplicate-room-display")

    # An earlier round stays editable; a score over the top is a notice, not a block.
    bas.get_by_label("Ronde 1, Bas").fill("30")
    bas.get_by_label("Ronde 1, Bas").press("Enter")
    for page in (director, bas):
        expect(page.locator(".duplicate .notice")).to_have_count(1)
        expect(page.get_by_label("Ronde 1, Bas")).to_have_attribute("aria-invalid", "true")
    expect(footer(bas, "Totaal")).to_have_text(["48", "48", "40"])
    expect(display.locator(".room-standings")).to_contain_text("40")
    shot(bas, "duplicate-over-top")
    bas.get_by_label("Ronde 1, Bas").fill("")  # an emptied cell counts nothing
    bas.get_by_label("Ronde 1, Bas").press("Enter")
    expect(director.locator(".duplicate .notice")).to_have_count(0)
    expect(director.get_by_label("Ronde 1, Bas")).to_have_value("")
    expect(footer(director, "Totaal")).to_have_text(["48", "48", "10"])

    # The director corrects an earlier top too; Bas may not (top cells are the director's).
    expect(bas.get_by_label("Ronde 1, top")).to_have_attribute("readonly", "")
    director.get_by_label("Ronde 1, top").fill("30")
    director.get_by_label("Ronde 1, top").press("Enter")
    expect(bas.get_by_label("Ronde 1, top")).to_have_value("30")
    expect(bas.locator(".dup-rounds tfoot")).to_contain_text("-40")


def test_a_top_from_the_board_shows_on_the_room_display_until_undone(
    table, server: ServerProcess
) -> None:
    director, bas, display, _ = table
    plank = {"start": "H4", "direction": "across", "letters": "PLANK"}
    command(server, director, {"type": "record_top", "board": plank})
    expect(director.get_by_label("Ronde 1, top")).to_have_value("28")
    expect(display.locator(".room-words")).to_have_text("PLANK 28")
    expect(display.locator(".board .marked")).to_have_count(5)
    expect(display.get_by_role("img", name=re.compile(r"^H4, .*P$"))).to_be_visible()
    display.set_viewport_size({"width": 1280, "height": 720})  # a projector
    shot(display, "duplicate-room-display-projector")

    # The director's top is the director's to undo: Bas's phone has no undo for it.
    expect(bas.get_by_role("button", name="Laatste regel ongedaan maken")).to_have_count(0)
    director.get_by_role("button", name="Laatste regel ongedaan maken").click()
    expect(director.get_by_label("Ronde 2, top")).to_have_count(0)
    expect(director.get_by_label("Ronde 1, top")).to_have_value("")
    expect(display.get_by_text("Nog geen top")).to_be_visible()
    expect(display.locator(".board .tile")).to_have_count(0)


def test_a_cell_selected_to_be_typed_over_is_typed_over_after_another_phones_change(
    table,
) -> None:
    director, bas, _, _ = table
    director.get_by_label("Ronde 1, top").fill("28")
    director.get_by_role("button", name="Als top noteren").click()
    top = director.get_by_label("Ronde 1, top")
    expect(top).to_have_value("28")
    top.select_text()  # what a tap and "select all" do, and what Playwright's fill does first
    bas.get_by_label("Ronde 1, Bas").fill("20")
    bas.get_by_label("Ronde 1, Bas").press("Enter")
    expect(director.get_by_label("Ronde 1, Bas")).to_have_value("20")  # the sheet was redrawn
    director.keyboard.insert_text("30")
    director.keyboard.press("Enter")
    for page in (director, bas):
        expect(page.get_by_label("Ronde 1, top")).to_have_value("30")


def test_a_typo_is_refused_on_the_phone_and_the_cell_keeps_its_value(phone: Page) -> None:
    create_table(phone, ["Anna", "Bas"], mode=DUPLICATE)
    phone.get_by_label("Ronde 1, Bas").fill("2o")
    phone.get_by_label("Ronde 1, Bas").press("Enter")
    expect(phone.get_by_role("alert")).to_have_text(
        "Typ een getal van 0 tot 2.000, of maak het vak leeg."
    )
    expect(phone.get_by_label("Ronde 1, Bas")).to_have_value("")


def test_the_clock_counts_down_alike_on_every_screen_and_only_the_director_sets_it(
    table,
) -> None:
    director, bas, display, _ = table
    expect(bas.get_by_role("button", name="Starten")).to_have_count(0)
    expect(bas.get_by_role("timer")).to_have_text("03:00")  # P-41: three minutes by default
    director.get_by_role("button", name="1 min").click()
    for page in (director, bas, display):
        expect(page.get_by_role("timer")).to_have_text("01:00")
    director.get_by_role("button", name="Starten").click()
    expect(director.get_by_role("button", name="Pauzeren")).to_be_visible()
    for page in (director, bas, display):
        expect(page.get_by_role("timer")).to_have_text(re.compile(r"^00:5\d$"))
    shot(director, "duplicate-director-clock")
    shot(display, "duplicate-room-display-clock")
    seconds = [seconds_of(page) for page in (director, bas, display)]
    assert max(seconds) - min(seconds) <= 1, seconds

    director.get_by_role("button", name="Pauzeren").click()
    for page in (director, bas, display):
        expect(page.locator(".clock-status")).to_have_text("Gepauzeerd")
    paused = [page.get_by_role("timer").inner_text() for page in (director, bas, display)]
    for page in (director, bas, display):
        page.clock.run_for(60_000)  # a minute of every timer the screen has: a running clock is out
    assert [page.get_by_role("timer").inner_text() for page in (director, bas, display)] == paused
    assert len(set(paused)) == 1, paused
    expect(director.get_by_role("button", name="Verdergaan")).to_be_visible()
    # A top closes the round: the clock stands ready at full time for the next one.
    director.get_by_label("Ronde 1, top").fill("12")
    director.get_by_role("button", name="Als top noteren").click()
    for page in (director, bas, display):
        expect(page.get_by_role("timer")).to_have_text("01:00")
        expect(page.locator(".clock-status")).to_have_text("Klaar om te starten")


def seconds_of(page: Page) -> int:
    minutes, seconds = page.get_by_role("timer").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def listening_phone(browser: Browser, server: ServerProcess) -> Page:
    """A Dutch phone whose timers are Playwright's (they run at real speed until told to
    jump) and whose vibrations and beeps are counted."""
    context = browser.new_context(viewport=PHONE, locale="nl")
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.clock.install()
    page.goto(f"{server.url}/")
    ready(page)
    page.mouse.click(5, 5)  # the first tap, which lets a page make sound
    return page


def running_since(page: Page) -> int | None:
    """When the table's clock started its run, as the phone last heard."""
    return page.evaluate(
        "async () => (await import('/js/state.js')).app.view.sheet.clock.running_since"
    )


def test_at_zero_every_phone_beeps_and_vibrates_once_per_run(
    browser: Browser, server: ServerProcess
) -> None:
    director = listening_phone(browser, server)
    code = create_table(director, ["Anna"], mode=DUPLICATE)
    anna = listening_phone(browser, server)
    join_table(anna, code, "Anna")
    director.get_by_role("button", name="1 min").click()
    director.get_by_role("button", name="Starten").click()
    expect(anna.get_by_role("timer")).to_have_text(re.compile(r"^00:5\d$"))
    expect(anna.locator("#clock-live")).to_have_text("")  # a run starts without a word
    # A screen reader hears the time at 30 and 10 seconds, then that it is up; no more.
    anna.clock.fast_forward(31_000)
    expect(anna.locator("#clock-live")).to_have_text("Nog 30 seconden")
    anna.clock.fast_forward(20_000)
    expect(anna.locator("#clock-live")).to_have_text("Nog 10 seconden")
    assert anna.evaluate("window.vibrations") == []
    anna.clock.fast_forward(10_000)
    director.clock.fast_forward(61_000)
    for page in (director, anna):
        expect(page.get_by_role("timer")).to_have_text("00:00")
        expect(page.locator(".clock-status")).to_have_text("De tijd is om")
        expect(page.locator("#clock-live")).to_have_text("De tijd is om")
    anna.clock.fast_forward(5_000)  # the screen keeps ticking at zero: no second signal
    for page in (director, anna):
        assert page.evaluate("window.vibrations") == [[200, 100, 200]]
        assert page.evaluate("window.beeps") == 2
    shot(anna, "duplicate-clock-zero")

    # The director starts again after zero: a new run, and a new signal at its end.
    for page in (director, anna):
        page.clock.set_system_time(datetime.now())  # back in step with the server
    first_run = running_since(anna)
    director.get_by_role("button", name="Opnieuw starten").click()
    deadline = time.monotonic() + 10
    while running_since(anna) in (first_run, None):  # reset, then started anew
        assert time.monotonic() < deadline, "the new run never reached Anna's phone"
        time.sleep(0.05)
    anna.clock.fast_forward(61_000)
    expect(anna.get_by_role("timer")).to_have_text("00:00")
    assert anna.evaluate("window.vibrations") == [[200, 100, 200]] * 2
    close(director, anna)


@pytest.mark.parametrize(
    ("clock", "now", "left", "shown"),
    [
        ({"seconds": 180, "remaining": 180000, "running_since": None}, 10**12, 180000, "03:00"),
        ({"seconds": 60, "remaining": 60000, "running_since": 1000}, 1000, 60000, "01:00"),
        ({"seconds": 60, "remaining": 60000, "running_since": 1000}, 1001, 59999, "01:00"),
        ({"seconds": 60, "remaining": 60000, "running_since": 1000}, 980, 60000, "01:00"),
        ({"seconds": 60, "remaining": 60000, "running_since": 1000}, 2000, 59000, "00:59"),
        ({"seconds": 120, "remaining": 45500, "running_since": 0}, 45000, 500, "00:01"),
        ({"seconds": 60, "remaining": 60000, "running_since": 0}, 60000, 0, "00:00"),
        ({"seconds": 60, "remaining": 60000, "running_since": 0}, 99000, 0, "00:00"),
        ({"seconds": 120, "remaining": 30000, "running_since": None}, 99000, 30000, "00:30"),
    ],
)
def test_the_countdown_is_remaining_less_the_time_run_since_the_start(
    phone: Page, clock: dict, now: int, left: int, shown: str
) -> None:
    answer = phone.evaluate(
        """async ([clock, now]) => {
            const { left, mmss } = await import('/js/clock.js');
            return [left(clock, now), mmss(left(clock, now))];
        }""",
        [clock, now],
    )
    assert answer == [left, shown]


@pytest.mark.parametrize(
    ("language", "total", "difference", "share", "name"),
    [
        ("nl", "Totaal", "Verschil met de tops", "Percentage van de tops", "Speler 2"),
        ("it", "Totale", "Rispetto ai top", "Percentuale dei top", "Giocatore 2"),
        ("pl", "Suma", "Różnica do topów", "Procent sumy topów", "Osoba 2"),
    ],
)
def test_the_worked_example_sums_to_the_documents_figures(
    phone: Page,
    server: ServerProcess,
    language: str,
    total: str,
    difference: str,
    share: str,
    name: str,
) -> None:
    """TV-NL-14, TV-IT-12, TV-PL-14, TV-D-16: tops 24, 36, 18 and three players."""
    create_table(phone, ["", "", "", ""], mode=DUPLICATE)  # the fourth enters nothing
    started(phone)
    scores = [(24, [24, 20, 24]), (36, [30, 36, 36]), (18, [18, 9, 18])]
    for round_, (top, row) in enumerate(scores):
        command(server, phone, {"type": "record_top", "points": top})
        for player, points in enumerate(row):
            command(
                server,
                phone,
                {"type": "correct_cell", "round": round_, "player": player, "points": points},
            )
    phone.get_by_label("Taal", exact=True).select_option(language)
    expect(phone.locator(".dup-rounds thead")).to_contain_text(name)
    expect(footer(phone, total)).to_have_text(["78", "72", "65", "78", "0"])
    expect(footer(phone, difference)).to_have_text(["-6", "-13", "0", "-78"])
    expect(footer(phone, share)).to_have_text(["92,3%", "83,3%", "100,0%", "0,0%"])
    # Four players fit a small phone: nothing to scroll sideways.
    scroller = phone.locator(".dup-scroll")
    assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert phone.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    shot(phone, f"duplicate-worked-example-{language}")


def test_a_percentage_without_tops_is_a_dash(phone: Page) -> None:
    create_table(phone, ["Anna", "Bas"], mode=DUPLICATE)
    phone.get_by_label("Ronde 1, Anna").fill("12")
    phone.get_by_label("Ronde 1, Anna").press("Enter")
    expect(phone.get_by_label("Ronde 1, Anna")).to_have_attribute("value", "12")
    expect(footer(phone, "Percentage van de tops")).to_have_text(["–", "–"])
    expect(footer(phone, "Verschil met de tops")).to_have_text(["12", "0"])


def test_the_end_shows_the_ranking_on_every_screen_and_copies_it_without_a_link(
    table, server: ServerProcess
) -> None:
    director, bas, display, _ = table
    for body in (
        {"type": "record_top", "points": 30},
        {"type": "correct_cell", "round": 0, "player": 0, "points": 24},
        {"type": "correct_cell", "round": 0, "player": 1, "points": 30},
    ):
        command(server, director, body)
    director.context.grant_permissions(["clipboard-read", "clipboard-write"])
    director.once("dialog", lambda dialog: dialog.accept())
    director.get_by_role("button", name="Spel beëindigen").click()
    for page in (director, bas):
        ranking = page.get_by_role("region", name="Rangschikking")
        expect(ranking).to_be_visible()
        expect(ranking.locator("tbody tr").first).to_contain_text("Bas")
        expect(page.get_by_role("timer")).to_have_count(0)
        expect(page.get_by_label("Ronde 1, Bas")).to_have_attribute("readonly", "")
    expect(bas.get_by_role("button", name="Nieuw spel, zelfde spelers")).to_have_count(0)
    expect(display.get_by_role("heading", name="Eindstand")).to_be_visible()
    assert standings(display) == [
        ["1", "Bas", "30", "0", "100,0%"],
        ["2", "Anna", "24", "-6", "80,0%"],
    ]
    shot(director, "duplicate-ranking")
    shot(display, "duplicate-room-display-final")

    director.get_by_role("button", name="Uitslag kopiëren").click()
    expect(director.get_by_text("De uitslag is gekopieerd.")).to_be_visible()
    copied = director.evaluate("navigator.clipboard.readText()")
    assert copied == "Rangschikking\n1. Bas: 30 (0, 100,0%)\n2. Anna: 24 (-6, 80,0%)"
    assert "http" not in copied and "#" not in copied

    director.get_by_role("button", name="Nieuw spel, zelfde spelers").click()
    for page in (director, bas):
        expect(page.get_by_label("Ronde 1, Anna")).to_have_value("")
        expect(page.get_by_role("timer")).to_be_visible()
    expect(display.get_by_role("heading", name="Ronde 1")).to_be_visible()


def test_a_viewer_phone_reads_but_cannot_write(
    table, browser: Browser, server: ServerProcess
) -> None:
    _, _, _, code = table
    viewer = open_app(browser, server.url, "nl")
    join_table(viewer, code, "Kijker (alleen lezen)")
    expect(viewer.get_by_label("Ronde 1, Anna")).to_have_attribute("readonly", "")
    expect(viewer.get_by_role("button", name="Laatste regel ongedaan maken")).to_have_count(0)
    expect(viewer.get_by_role("button", name="Starten")).to_have_count(0)
    expect(viewer.get_by_role("timer")).to_be_visible()
    close(viewer)


def test_the_room_display_asks_for_a_code_and_shows_a_classic_game(
    browser: Browser, server: ServerProcess
) -> None:
    host = open_app(browser, server.url, "nl")
    code = create_table(host, ["Anna", "Bas"])
    started(host)
    move = {"start": "H4", "direction": "across", "letters": "PLANK"}
    command(server, host, {"type": "record_move", "board": move})
    display = open_app(browser, server.url, "nl", "/display.html")
    display.get_by_label("Tafelcode").fill(code)
    display.get_by_role("button", name="Tonen").click()
    expect(display.get_by_role("heading", name="Bas is aan zet")).to_be_visible()
    expect(display.get_by_role("img", name=re.compile(r"^H4, .*P$"))).to_be_visible()
    expect(display.locator(".board .marked")).to_have_count(5)
    assert standings(display) == [["Anna", "28"], ["Bas", "0"]]
    expect(display.get_by_role("timer")).to_have_count(0)
    assert session_of(display) is None  # its own key: a phone in this browser keeps its place
    display.reload()
    ready(display)
    expect(display.get_by_role("heading", name="Bas is aan zet")).to_be_visible()
    shot(display, "room-display-classic")
    close(host, display)


def test_the_room_display_speaks_the_browser_language(
    browser: Browser, server: ServerProcess
) -> None:
    display = open_app(browser, server.url, "it", "/display.html")
    expect(display.get_by_role("heading", name="Mostra un tavolo")).to_be_visible()
    display.get_by_label("Codice del tavolo").fill("ZZZZZZ")
    display.get_by_role("button", name="Mostra").click()
    expect(display.get_by_role("alert")).to_be_visible()
    close(display)
