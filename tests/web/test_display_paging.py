"""The room display of a room of 200 players after a closed round, on a projector (1280×720)
and a large screen (1920×1080): the top with its word, reference, score and bingo, the solo,
and the standings in pages of as many rows as the screen holds — names of 24 px at least, a
long one ending in "…", nothing outside its box — turning by themselves, ties sharing a rank,
the player the director took out left out."""

import dataclasses
import itertools
import math
import re
import uuid

import pytest
from playwright.sync_api import Browser, Page, expect

from bench.serving import device_key, new_address
from rules.board.squares import reference
from tests.server.serving import ServerProcess
from tests.web.browser import missing_strings, open_app, shot
from tests.web.rooms import moves, slip
from tests.web.screen_fit import fits, spilled

FIRST = ["Anna", "Bas", "Cas", "Daan", "Eva", "Femke", "Gijs", "Hanna", "Iris", "Jan"]
FIRST += ["Kees", "Lotte", "Maarten", "Noor", "Otto", "Pien", "Quinten", "Roos", "Sem", "Tess"]
LAST = ["de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder"]
LAST += ["de Groot", "Bos"]
LONG = "Bartholomeus van den Oudenrijn-Vermeulen"  # 40 characters: the longest a name may be
NAMES = [LONG, *(f"{first} {last}" for last in LAST for first in FIRST)][:200]
SOLO = 0  # the one player who finds the top
TAKEN_OUT = 1  # the director takes this player out after the close
RACK = "PLANKEN"  # its top, PLANKEN down from C8, is a bingo
SIZES = [(1280, 720), (1920, 1080)]
PAGE_MS = 8_000  # how long a page shows

# The rows the standings show now, and the computed size of the names shown: the cells a
# page of a large room does without (``.extra``) are hidden, as are the other pages' rows.
SHOWN = """() => [...document.querySelectorAll('.room-standings tbody tr:not([hidden])')]
  .map((row) => [...row.querySelectorAll('th, td:not(.extra)')].map((cell) => cell.textContent))"""
NAME_SIZES = """() => [...document.querySelectorAll('.room-standings tbody tr:not([hidden]) th')]
  .map((cell) => parseFloat(getComputedStyle(cell).fontSize))"""
EVERY_NAME = """() => [...document.querySelectorAll('.room-standings tbody th')]
  .map((cell) => cell.textContent)"""


@dataclasses.dataclass
class Room:
    code: str
    rows: list[list[str]]  # rank, name, total and percentage of every player, best first
    top: object  # the round's top (``rules.movegen`` move)
    table: str = ""  # the table, and its director's token, for a test's own commands
    host: str = ""


@pytest.fixture(scope="module")
def room(server: ServerProcess) -> Room:
    """A room of 200 players registered by name on their phones, its first round closed:
    one player alone at the top, the others at one of fifteen lesser scores or without a
    slip, and one player taken out by the director."""
    return closed_room(server, NAMES)


def closed_room(server: ServerProcess, names: list[str]) -> Room:
    """A room of ``names`` registered on their phones, its first round closed as ``room``'s."""
    api = server.api()
    made = api.create_table()
    table, host, code = made["table"], made["token"], made["code"]

    def command(body: dict, token: str = host) -> None:
        reply = api.command(table, token, str(uuid.uuid4()), body)
        assert reply.status == 200, reply.body

    def sheet() -> dict:
        return api.view(table, host).json()["sheet"]

    command({"type": "start_game", "edition": "nl", "mode": "duplicate", "rules": "duplicate",
             "players": []})  # fmt: skip
    tokens = []
    for name in names:  # each phone from its own address, as joins are limited per address
        joined = server.api(new_address()).post(
            "/api/join", {"code": code, "role": "player", "name": name, "device": device_key()}
        )
        assert joined.status == 200, joined.body
        tokens.append(joined.json()["token"])
    command({"type": "set_rack", "rack": RACK, "round": 0, "force": True})
    opened = sheet()
    found, top = moves(opened)
    assert top is not None and len(top.play.tiles) == 7
    lesser = sorted({m.score: m for m in found if m.score < top.score}.values(),
                    key=lambda m: -m.score)  # fmt: skip
    for player, token in enumerate(tokens):
        if player % 3 == 2:
            continue  # no slip: 0 points, a tie of some sixty players at the bottom
        move = top if player == SOLO else lesser[player % len(lesser)]
        command(slip(move, opened["started"], player), token)
    command({"type": "close_round", "round": 0})
    command({"type": "remove_player", "player": TAKEN_OUT})
    closed = sheet()
    assert closed["left"] == [TAKEN_OUT]
    return Room(code, ranked(closed), top, table, host)


def ranked(sheet: dict) -> list[list[str]]:
    """The standings as the display should show them: best first, equal totals sharing a
    rank and the next skipped, the players taken out left out."""
    standing = [s for s in sheet["standings"] if s["player"] not in sheet["left"]]
    standing.sort(key=lambda s: (-s["total"], s["player"]))
    totals = [s["total"] for s in standing]
    return [
        [str(1 + sum(t > s["total"] for t in totals)), sheet["players"][s["player"]],
         str(s["total"]), f"{s['percent_tenths'] // 10},{s['percent_tenths'] % 10}%"]
        for s in standing
    ]  # fmt: skip


def displayed(
    browser: Browser, server: ServerProcess, code: str, width: int, height: int, players: int = 200
) -> Page:
    """The room display at ``width``×``height``, its timers Playwright's to move on."""
    display = open_app(browser, server.url, "nl", f"/display.html#join={code}", clock=True)
    display.set_viewport_size({"width": width, "height": height})
    expect(display.locator(".room-standings tbody tr")).to_have_count(players - 1)
    return display


def laid_out(display: Page, width: int, height: int) -> list[list[str]]:
    """The rows the page shows, once it is seen to fit: names of 24 px at least, a long one
    ending in "…", nothing outside the screen or its box."""
    fits(display, width, height, ellipsis=True)
    assert spilled(display) == []
    sizes = display.evaluate(NAME_SIZES)
    assert sizes and min(sizes) >= 24, sizes
    return display.evaluate(SHOWN)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_room_of_200_pages_its_standings_by_itself(
    room: Room, browser: Browser, server: ServerProcess, width: int, height: int
) -> None:
    display = displayed(browser, server, room.code, width, height)
    assert display.evaluate(EVERY_NAME) == [row[1] for row in room.rows]  # the one out, out
    assert NAMES[TAKEN_OUT] not in display.evaluate(EVERY_NAME)

    # The last closed round: its top, where it lies, its score, the bingo and the solo.
    top = room.top
    expect(display.locator(".room-points")).to_have_text(str(top.score))
    expect(display.locator(".room-words")).to_contain_text(top.word)
    expect(display.locator(".room-where")).to_have_text(reference(top.start, top.direction, "fisf"))
    expect(display.locator(".room-bingo")).to_be_visible()
    # The words add up to the points with the bingo beside them.
    expect(display.locator(".room-words")).to_contain_text(" · +50 alle letters")
    expect(display.locator(".room-solos")).to_have_text([f"Solo: {LONG} +10"])

    # Page 1: as many rows as fit, the page count beside the caption.
    label = display.locator(".room-page")
    expect(label).to_have_text(re.compile(r"^pagina 1 van \d+$"))
    first = laid_out(display, width, height)
    size = len(first)
    pages = math.ceil(len(room.rows) / size)
    assert size >= 15 and 2 <= pages <= 14, (size, pages)
    expect(label).to_have_text(f"pagina 1 van {pages}")
    assert first == room.rows[:size]
    assert any(a[0] == b[0] for a, b in itertools.pairwise(first)), first  # ties share a rank
    ellipsised = display.locator(".room-standings tbody th").first
    assert ellipsised.evaluate("(cell) => cell.scrollWidth > cell.clientWidth")  # LONG, cut
    shot(display, f"display-{width}-p1", full_page=False)

    # Page 2 comes by itself once a page has shown for its time.
    display.clock.run_for(PAGE_MS)
    expect(label).to_have_text(f"pagina 2 van {pages}")
    assert laid_out(display, width, height) == room.rows[size : 2 * size]
    shot(display, f"display-{width}-p2", full_page=False)

    # After the last page, the first again.
    display.clock.run_for(PAGE_MS * (pages - 1))
    expect(label).to_have_text(f"pagina 1 van {pages}")
    assert missing_strings(display) == []
    display.context.close()


def test_the_pages_follow_a_resized_screen(
    room: Room, browser: Browser, server: ServerProcess
) -> None:
    display = displayed(browser, server, room.code, 1280, 720)
    label = display.locator(".room-page")
    expect(label).to_have_text(re.compile(r"^pagina 1 van \d+$"))
    small = len(laid_out(display, 1280, 720))
    display.clock.run_for(PAGE_MS)
    expect(label).to_have_text(re.compile(r"^pagina 2 van "))
    large = len(laid_out(display, 1920, 1080))  # the page it shows, with more rows on it
    assert large > small
    expect(label).to_have_text(f"pagina 2 van {math.ceil(len(room.rows) / large)}")
    assert display.evaluate(SHOWN) == room.rows[large : 2 * large]
    display.context.close()


def test_a_club_room_beside_its_news_keeps_every_column_while_they_fit(
    browser: Browser, server: ServerProcess
) -> None:
    """Twelve players are too many for the standings under the news on a 1080p screen, but
    beside it they fit on one page with every column: the round's score and the difference
    stay, as only a room that pages does without them."""
    club = closed_room(server, NAMES[1:13])
    display = displayed(browser, server, club.code, 1920, 1080, players=12)
    expect(display.locator(".room-grid")).to_have_class(re.compile(r"\bpaged\b"))
    expect(display.locator(".room-page")).to_have_text("")
    extra = display.locator(".room-standings td.extra")
    expect(extra).to_have_count(2 * 11)
    for cell in extra.all():
        expect(cell).to_be_visible()
    assert display.evaluate(SHOWN) == club.rows
    assert spilled(display) == []
    shot(display, "display-1920-club", full_page=False)
    display.context.close()
