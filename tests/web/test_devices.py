"""The director's phone with phones asking for a seat (issue 25, item 8): however many ask,
they are a badge with their count and a list the director opens, in the page's flow —
never pinned over the clock or the round's controls on a 390 px phone. The list tells two
phones of one seat apart (issue 27): by the name a phone gave itself, or by its model and the
second it joined."""

import re

from playwright.sync_api import Browser, Page, expect

from tests.server.serving import Api, ServerProcess, device_key, new_address
from tests.web.browser import (
    Phones,
    create_table,
    join_table,
    missing_strings,
    open_app,
    shot,
    show,
    wait_for_state,
)
from tests.web.rooms import open_room

DUPLICATE = "Duplicate: iedereen dezelfde letters"
PLAYERS = ["Anna", "Bas", "Cas", "Dirk"]
ASKING = 5  # second phones for taken seats, all waiting for the director
CROWD = 30  # players joining a room while the director's list of devices is open

# The director's controls: the clock, its buttons, the round's.
CONTROLS = ["section.clock", "#clock-go", "#clock-1", "#room-close"]

# Scrolled to the middle of the screen, is ``selector`` the element a tap there reaches?
ON_TOP = """selector => {
  const element = document.querySelector(selector);
  element.scrollIntoView({ block: 'center' });
  const box = element.getBoundingClientRect();
  const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return element === found || element.contains(found);
}"""
BOX = """selector => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return [box.left, box.top + scrollY, box.right, box.bottom + scrollY];
}"""


# The page's requests for the list of devices, each answer held back a quarter of a second
# as on a club's busy Wi-Fi; `window.listing` counts how many are out at once.
SLOW_LIST = """() => {
  const fetch = window.fetch;
  window.listing = { out: 0, most: 0, asked: 0 };
  window.fetch = async (...args) => {
    if (!String(args[0]).endsWith('/devices')) return fetch(...args);
    const listing = window.listing;
    listing.asked += 1;
    listing.most = Math.max(listing.most, ++listing.out);
    try {
      const answer = await fetch(...args);
      await new Promise((done) => setTimeout(done, 250));
      return answer;
    } finally {
      listing.out -= 1;
    }
  };
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def uncovered(page: Page, *requests: str) -> None:
    """Every control of the director reached by a tap, and none of them under ``requests``."""
    for control in CONTROLS:
        assert page.evaluate(ON_TOP, control), f"{control} is covered"
        expect(page.locator(control).first).to_be_visible()
        for request in requests:
            assert not overlap(page.evaluate(BOX, control), page.evaluate(BOX, request)), (
                control, request,
            )  # fmt: skip
    page.locator("#clock-1").click(trial=True)  # Playwright's own check: nothing in the way
    page.locator("#room-close").click(trial=True)


def test_many_seat_requests_are_a_badge_and_a_list_that_cover_no_control(
    phones: Phones, server: ServerProcess
) -> None:
    director = phones()
    code = create_table(director, PLAYERS, mode=DUPLICATE)
    director.locator("#room-start > summary").click()
    director.get_by_role("button", name="Plankje trekken").click()
    expect(director.locator("#room-close")).to_be_visible()

    # Every seat has its phone; five more phones ask for one of the taken seats.
    for seat in range(len(PLAYERS)):
        Api(server.url, new_address()).join(code, "player", seat)
    for n in range(ASKING):
        asked = Api(server.url, new_address()).join(code, "player", n % len(PLAYERS))
        assert not asked["admitted"]
    wait_for_state(
        director, f"app => app.view.devices.filter(d => !d.admitted).length === {ASKING}"
    )

    badge = director.get_by_role("button", name=f"{ASKING} telefoons vragen om een plaats")
    expect(badge).to_have_text(f"Vragen om een plaats {ASKING}")
    expect(badge).to_have_attribute("aria-expanded", "false")
    expect(director.locator(".request")).to_have_count(0)  # nothing asks from over the sheet
    director.evaluate("() => scrollTo(0, 0)")
    shot(director, "requests-badge", full_page=False)
    uncovered(director, "#seat-requests")

    # Opened, the list is in the page's flow too: it moves the controls, never covers them.
    badge.click()
    expect(badge).to_have_attribute("aria-expanded", "true")
    expect(director.locator(".request")).to_have_count(ASKING)
    expect(director.locator(".request").first).to_contain_text(
        "De tweede telefoon van Anna vraagt om aan te schuiven"
    )
    director.evaluate("() => scrollTo(0, 0)")
    shot(director, "requests-list", full_page=False)
    uncovered(director, "#seat-requests", "#requests-list")

    # Answered one by one, the count goes down; the last answer takes the badge away.
    director.locator(".request").first.get_by_role("button", name="Toelaten").click()
    expect(director.locator(".request")).to_have_count(ASKING - 1)
    expect(director.locator("#requests-badge .count")).to_have_text(str(ASKING - 1))
    for left in range(ASKING - 1, 0, -1):
        expect(director.locator(".request")).to_have_count(left)
        director.locator(".request").first.get_by_role("button", name="Weigeren").click()
    expect(director.locator("#seat-requests")).to_have_count(0)
    wait_for_state(director, "app => app.view.devices.every(d => d.admitted)")
    uncovered(director)


def test_the_badge_is_on_every_view_of_the_director(phones: Phones, server: ServerProcess) -> None:
    director = phones()
    code = create_table(director, PLAYERS, mode=DUPLICATE)
    Api(server.url, new_address()).join(code, "player", 1)
    assert not Api(server.url, new_address()).join(code, "player", 1, device_key())["admitted"]
    for view in ("sheet", "score", "tiles", "table"):
        show(director, view)
        badge = director.get_by_role("button", name="1 telefoon vraagt om een plaats")
        expect(badge).to_be_visible()


PIXEL = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Mobile Safari/537.36"
)
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, "
    "like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)


def test_two_phones_of_one_seat_are_told_apart(
    phones: Phones, browser: Browser, server: ServerProcess
) -> None:
    """Bas's two phones (issue 27): one named by itself, the other by its model; each with
    the second it joined. Before, the list showed "Bas" twice."""
    host = phones()
    code = create_table(host, ["Anna", "Bas"])
    first = open_app(browser, server.url, "nl", user_agent=PIXEL)
    second = open_app(browser, server.url, "nl", user_agent=IPHONE)
    try:
        join_table(first, code, "Bas")
        join_table(second, code, "Bas · bezet", admitted=False)
        host.get_by_role("button", name="1 telefoon vraagt om een plaats").click()
        expect(host.locator(".request .device-what")).to_have_text(
            re.compile(r"^iPhone · Safari · \d\d:\d\d:\d\d$")
        )
        host.locator(".request").get_by_role("button", name="Toelaten").click()
        wait_for_state(second, "app => app.view && !app.view.waiting")

        show(first, "table")
        first.get_by_label("Naam van deze telefoon").fill("Bas thuis")
        first.get_by_role("button", name="Naam opslaan").click()
        expect(first.get_by_role("status")).to_have_text(
            "De gastheer ziet deze telefoon nu als ‘Bas thuis’."
        )
        first.reload()  # kept with the phone's place
        show(first, "table")
        expect(first.get_by_label("Naam van deze telefoon")).to_have_value("Bas thuis")

        show(host, "table")
        host.get_by_text("Telefoons aan tafel", exact=True).click()
        rows = host.locator(".device-list li")
        expect(rows.locator(".device-name")).to_have_text(["Bas", "Bas"])
        expect(rows.locator(".device-what")).to_have_text(["Bas thuis", "iPhone · Safari"])
        expect(rows.locator(".hint")).to_have_text(
            [re.compile(r"^Sinds \d\d:\d\d:\d\d · "), re.compile(r"^Sinds \d\d:\d\d:\d\d · ")]
        )
        expect(host.locator("#host-device")).to_have_text(
            "Houdt de score bij, zonder plaats Telefoon van de gastheer"
        )
        shot(host, "devices-told-apart")

        # A name too long is refused in the phone's language; only the phone names itself.
        first.get_by_label("Naam van deze telefoon").evaluate("e => e.removeAttribute('maxlength')")
        first.get_by_label("Naam van deze telefoon").fill("x" * 41)
        first.get_by_role("button", name="Naam opslaan").click()
        expect(first.get_by_role("alert")).to_have_text(
            "Een naam voor deze telefoon is hoogstens 40 tekens lang."
        )
    finally:
        for page in (first, second):
            assert missing_strings(page) == []
            page.context.close()


def test_the_open_list_of_devices_asks_once_at_a_time_while_a_crowd_joins(
    phones: Phones, server: ServerProcess
) -> None:
    """Every join changes the devices; on a slow network the answers would overlap and an
    older one could land last. The card has one request out at a time and ends on them all."""
    director = phones()
    code = open_room(director)
    show(director, "table")
    director.evaluate(SLOW_LIST)
    director.locator("#devices-summary").click()
    for n in range(CROWD):
        body = {"code": code, "role": "player", "name": f"Speler {n:02d}", "device": device_key()}
        assert server.api().post("/api/join", body).status == 200
    expect(director.locator(".device-list li")).to_have_count(CROWD)
    listing = director.evaluate("() => window.listing")
    assert listing["most"] == 1, listing
    assert listing["asked"] < CROWD, listing  # the changes while one was out, asked together


def test_a_rooms_director_reads_as_such_and_once_racks_are_drawn_chooses_no_writers(
    phones: Phones,
) -> None:
    """A duplicate table may keep one scorekeeper (DUP-04), so the card asks who writes
    until a rack is drawn; from then on each phone hands in its own slip. The host's row
    says the director, not a scorekeeper."""
    director = phones()
    create_table(director, PLAYERS, mode=DUPLICATE)
    show(director, "table")
    director.locator("#devices-summary").click()
    expect(director.locator("#host-device")).to_have_text(
        "Wedstrijdleider, zonder plaats Telefoon van de wedstrijdleider"
    )
    expect(director.locator("#devices-writers")).to_be_visible()
    # Folded shut, the card has no list to refresh: only the draw itself may redraw it. The
    # rack is drawn as the room's draw button sends it.
    director.locator("#devices-summary").click()
    director.evaluate(
        "async () => (await import('/js/live.js')).send({type: 'draw_rack', round: 0})"
    )
    wait_for_state(director, "app => app.view.sheet.rounds[0].rack.length === 7")
    expect(director.locator("#devices-writers")).to_have_count(0)
    director.locator("#devices-summary").click()
    expect(director.locator("#host-device")).to_be_visible()
    assert missing_strings(director) == []
