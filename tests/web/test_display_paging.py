"""The room display of a room of 200 players after a closed round, on a projector (1280×720)
and a large screen (1920×1080): the top with its word, reference, score and bingo, the solo,
and the standings in pages of as many rows as the screen holds — names of 24 px at least, a
long one ending in "…", nothing outside its box — turning by themselves, ties sharing a rank,
the player the director took out left out."""

import itertools
import math
import re

import pytest
from playwright.sync_api import Browser, expect

from rules.board.squares import reference
from tests.server.serving import ServerProcess
from tests.web.browser import missing_strings, shot
from tests.web.display_rooms import (
    EVERY_NAME,
    LONG,
    NAMES,
    PAGE_MS,
    SHOWN,
    SIZES,
    TAKEN_OUT,
    Room,
    closed_room,
    displayed,
    laid_out,
)
from tests.web.screen_fit import spilled


@pytest.fixture(scope="module")
def room(server: ServerProcess) -> Room:
    """A room of 200 players registered by name on their phones, its first round closed:
    one player alone at the top, the others at one of fifteen lesser scores or without a
    slip, and one player taken out by the director."""
    return closed_room(server, NAMES)


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
