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
NEW_RACKS = 6  # games started again before a rack without a word fails the test


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


def first_word(page: Page) -> list[str]:
    """The tiles of a word (no blank) for the first move from the rack of the player to move
    on ``page``, longest first. A rack the seed dealt may make none (TPHXRQR): the phone
    then starts the game again, once for every player since the one to begin moves on by one
    each game, so that the same player begins, until one does."""
    for _ in range(NEW_RACKS):
        seen = online(page)
        letters = [tile for tile in seen["rack"] if len(tile) == 1 and tile != "?"]
        for size in (5, 4, 3, 2):
            for tiles in dict.fromkeys(permutations(letters, size)):
                if LEXICON.contains("".join(tiles)):
                    return list(tiles)
        for _ in range(len(sheet(page)["players"])):
            started = sheet(page)["started"]
            page.evaluate(
                """async game => (await import('/js/live.js')).send({type: 'new_game', game})""",
                started,
            )
            page.wait_for_function(
                """async game => (await import('/js/state.js')).app.view.sheet.started > game
                   && (await import('/js/state.js')).app.view.sheet.online.rack""",
                arg=started,
            )
        assert sheet(page)["to_move"] == seen["seat"], "the player to begin did not come round"
    raise AssertionError(f"no word in {NEW_RACKS} racks")
