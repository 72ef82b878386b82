"""The director's phone with phones asking for a seat (issue 25, item 8): however many ask,
they are a badge with their count and a list the director opens, in the page's flow —
never pinned over the clock or the round's controls on a 390 px phone."""

from playwright.sync_api import Page, expect

from tests.server.serving import Api, ServerProcess, device_key, new_address
from tests.web.browser import Phones, create_table, shot, show, wait_for_state

DUPLICATE = "Duplicate: iedereen dezelfde letters"
PLAYERS = ["Anna", "Bas", "Cas", "Dirk"]
ASKING = 5  # second phones for taken seats, all waiting for the director

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
