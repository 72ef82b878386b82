"""Online play on a phone, as the browser tests drive it: read the view the phone holds,
lay tiles by tapping the rack and the board, and find a word for a rack the seed dealt.

Words are looked up in the list the server judges with (the tests are on the server's
side; the phone never sees the list). ``test_play`` and ``test_computer`` share these.
"""

import re
from itertools import permutations

from playwright.sync_api import Page, expect

import wordlists

LEXICON = wordlists.get("nl")  # Woordstrijd judges with the Dutch list


def online(page: Page) -> dict:
    return page.evaluate("async () => (await import('/js/state.js')).app.view.sheet.online")


def sheet(page: Page) -> dict:
    return page.evaluate("async () => (await import('/js/state.js')).app.view.sheet")


def tap_square(page: Page, square: str) -> None:
    """Tap a square as a thumb does: the whole board zooms in first, then the tap lays."""
    cell = page.locator(f'#play-board [data-square="{square}"]')
    if not page.locator("#play-board.zoomed").count():
        cell.click()
        expect(page.locator("#play-board.zoomed")).to_be_attached()
    cell.click()


def lay(page: Page, tiles: list[tuple[str, str]]) -> None:
    """Lay ``(tile, square)`` pairs by tapping the tile on the rack, then the square."""
    for tile, square in tiles:
        page.locator(f'#play-rack .rack-tile[data-tile="{tile}"]:not(.laid)').first.click()
        tap_square(page, square)
        laid = page.locator(f'#play-board td:has([data-square="{square}"])')
        expect(laid).to_have_class(re.compile(r"\bnew\b"))


def first_word(rack: list[str]) -> list[str]:
    """The tiles of a word from ``rack`` (no blank) for the first move, longest first."""
    letters = [tile for tile in rack if len(tile) == 1 and tile != "?"]
    for size in (5, 4, 3, 2):
        for tiles in dict.fromkeys(permutations(letters, size)):
            if LEXICON.contains("".join(tiles)):
                return list(tiles)
    raise AssertionError(f"no word in {rack}")
