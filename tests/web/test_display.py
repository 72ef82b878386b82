"""The room display on a projector (1280×720) and a large screen (1920×1080): board, round,
clock, last top and standings of up to four players with long names, on one screen, never
scrolled, no name broken inside a word."""

import time
import uuid

import pytest
from playwright.sync_api import Browser, expect

from tests.server.serving import ServerProcess
from tests.web.browser import create_table, missing_strings, open_app, post, shot
from tests.web.rooms import register
from tests.web.screen_fit import fits, spilled

DUPLICATE = "Duplicate: iedereen dezelfde letters"
# Four names of 20 characters (the longest the room display promises to fit).
LONG = [
    "Johannes Vermeulen-D",
    "Annemarie Zuidervaar",
    "Bartholomeus Jansens",
    "Wilhelmina de Groote",
]
SIZES = [(1280, 720), (1920, 1080)]


@pytest.fixture
def room(browser: Browser, server: ServerProcess):
    """A director's duplicate table of four long names, a top laid on the board, and the
    room display showing it."""
    director = open_app(browser, server.url, "nl")
    code = create_table(director, LONG, mode=DUPLICATE)
    post(
        director,
        server,
        {"type": "record_top", "board": {"start": "H4", "direction": "across", "letters": "PLANK"}},
    )
    display = open_app(browser, server.url, "nl", f"/display.html#join={code}")
    expect(display.locator(".room-words")).to_have_text("PLANK 28")
    yield director, display
    for page in (director, display):
        assert missing_strings(page) == []
        page.context.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_four_long_names_fit_on_one_screen_with_board_round_clock_and_top(
    room, width: int, height: int
) -> None:
    _, display = room
    fits(display, width, height)
    assert spilled(display) == []
    for part in (".room-board .board", ".room-round", ".clock-time", ".room-points"):
        expect(display.locator(part)).to_be_in_viewport(ratio=1)
    rows = display.locator(".room-standings tbody tr")
    expect(rows).to_have_count(4)
    for index in range(4):
        expect(rows.nth(index)).to_be_in_viewport(ratio=1)
    names = display.locator(".room-standings tbody th").all_inner_texts()
    assert sorted(name.replace("\n", " ") for name in names) == sorted(LONG)
    board = display.locator(".room-board .board").bounding_box()
    assert board["height"] >= height * 0.7  # the board stays the largest thing on the screen
    shot(
        display,
        f"display-{width}x{height}-4-long-names" if width == 1280 else f"display-{width}x{height}",
        full_page=False,
    )


@pytest.mark.parametrize("count", [2, 3, 4])
def test_a_classic_game_of_long_names_fits_too(
    browser: Browser, server: ServerProcess, count: int
) -> None:
    host = open_app(browser, server.url, "nl")
    code = create_table(host, LONG[:count])
    post(
        host,
        server,
        {
            "type": "record_move",
            "board": {"start": "H4", "direction": "across", "letters": "PLANK"},
        },
    )
    display = open_app(browser, server.url, "nl", f"/display.html#join={code}")
    expect(display.locator(".room-words")).to_have_text("PLANK 28")
    for width, height in SIZES:
        fits(display, width, height)
    shot(display, f"display-classic-1920x1080-{count}-long-names", full_page=False)
    for page in (host, display):
        assert missing_strings(page) == []
        page.context.close()


# Each player's column head on the director's sheet: no word split over two lines, nothing
# cut off; and the round column no wider than its numbers need.
SHEET = """() => {
  const broken = [];
  const heads = [...document.querySelectorAll('.dup-rounds thead th')].slice(2);
  for (const cell of heads) {
    const text = cell.firstChild;
    let at = 0;
    for (const word of cell.textContent.split(/[ -]/)) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const lines = new Set([...range.getClientRects()]
        .map((r) => `${Math.round(r.top)},${Math.round(r.left)}`));
      if (lines.size > 1) broken.push(word);
      at += word.length + 1;
    }
    if (cell.scrollWidth > cell.clientWidth + 1) broken.push(`${cell.textContent} (cut)`);
  }
  const round = document.querySelector('.dup-rounds tbody th').getBoundingClientRect().width;
  const table = document.querySelector('.dup-rounds').getBoundingClientRect();
  return { broken, round, right: table.right, width: innerWidth,
    scroll: document.documentElement.scrollWidth };
}"""


def test_the_directors_sheet_of_four_long_names_breaks_no_name_inside_a_word(room) -> None:
    director, _ = room
    director.get_by_label(f"Ronde 2, {LONG[0]}").wait_for()
    expect(director.locator(".dup-rounds thead th")).to_have_count(6)
    # In the page's own step: an update may draw the sheet anew between a locate and a scroll.
    director.evaluate("() => document.querySelector('.dup-rounds tbody').scrollIntoView()")
    found = director.evaluate(SHEET)
    shot(director, "duplicate-long-names", full_page=False)
    assert found["broken"] == [], found
    assert found["round"] <= 64, found  # "Ronde" and "24", not ~170 px
    assert found["scroll"] <= found["width"], found  # the page itself never scrolls sideways


def test_the_room_display_fits_in_polish_too(room, browser: Browser, server: ServerProcess) -> None:
    director, _ = room
    code = director.locator(".table-bar .code").text_content()
    display = open_app(browser, server.url, "pl", f"/display.html#join={code}")
    expect(display.locator(".room-words")).to_have_text("PLANK 28")
    for width, height in SIZES:
        fits(display, width, height)
        assert spilled(display) == []
    display.set_viewport_size({"width": 1280, "height": 720})
    shot(display, "display-1280x720-pl-4-long-names", full_page=False)
    assert missing_strings(display) == []
    display.context.close()


# Six names of 20 characters: a room that is a simultaneous's centre, whose leaders across
# every centre stand under its standings.
SIX = [*LONG, "Cornelis van Dijkman", "Maximiliaan Brouwers"]


def test_a_centres_six_long_names_show_whole_above_the_leaders(
    browser: Browser, server: ServerProcess
) -> None:
    """Six players are more than the side column holds under the news, so the standings
    stand beside it; but six rows fit there on one page, so no name is cut to "…": the
    leaders below them show the same names whole."""
    api = server.api()
    now = int(time.time() * 1000)
    games = [{"opens": now - 1_000, "closes": now + 3_600_000}]
    created = api.post("/api/simultaneous", {"name": "Voorjaarssimultaan", "edition": "nl",
                                              "games": games})  # fmt: skip
    assert created.status == 201, created.body
    room = api.create_table()

    def command(body: dict) -> None:
        reply = api.command(room["table"], room["token"], str(uuid.uuid4()), body)
        assert reply.status == 200, reply.body

    command({"type": "start_game", "edition": "nl", "mode": "duplicate", "rules": "duplicate",
             "players": []})  # fmt: skip
    command({"type": "join_simultaneous", "code": created.json()["code"], "game": 0,
             "centre": "Woordclub Delft"})  # fmt: skip
    for name in SIX:
        register(server, room["code"], name)
    # A round closed (the leaders come with it), the next one's rack drawn: its band under
    # the board and the news.
    command({"type": "draw_rack", "round": 0})
    command({"type": "close_round", "round": 0})
    command({"type": "draw_rack", "round": 1})

    display = open_app(browser, server.url, "nl", f"/display.html#join={room['code']}")
    expect(display.locator(".room-standings tbody tr")).to_have_count(6)
    for width, height in SIZES:
        display.set_viewport_size({"width": width, "height": height})
        expect(display.locator("#room-sim-leaders tbody tr").first).to_be_visible()
        fits(display, width, height)  # no name ends in "…"
        assert spilled(display) == []
        names = display.locator(".room-standings tbody th").all_inner_texts()
        assert sorted(names) == sorted(SIX)
        expect(display.locator(".room-page")).to_have_text("")  # one page
        shot(display, f"display-{width}x{height}-centre-6-long-names", full_page=False)
    assert missing_strings(display) == []
    display.context.close()
