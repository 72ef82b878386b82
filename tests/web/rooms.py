"""Duplicate rooms on phones, for the browser tests: the start form's labels, the sheet a
phone holds, the moves of its rack, and a rack the director types."""

from playwright.sync_api import Browser, Page

import editions
import wordlists
from rules.board.board import Board
from rules.movegen.moves import generate
from rules.room import tops
from rules.table import rulesets
from tests.server.serving import ServerProcess
from tests.web.browser import join_table, open_app, wait_for_state

DUPLICATE = "Duplicate: iedereen dezelfde letters"
CLUB = "Duplicate, clubzaal (solo's vanaf 2 spelers)"
TYPED_RACK = "Of typ het plankje van een trekking in de zaal"
LEXICON = wordlists.get("nl")
NL = editions.get("nl")


def sheet_of(page: Page) -> dict:
    return page.evaluate("async () => (await import('/js/state.js')).app.view.sheet")


def moves(sheet: dict) -> tuple[list, object]:
    """Every move of the open round's rack on the board, best first, and the top a close
    plays (the rule set's choice among equal ones)."""
    board = Board.from_rows(NL, sheet["board"])
    rack = "".join(sheet["rounds"][-1]["rack"])
    preference = rulesets.get("duplicate").room.top_preference
    return generate(board, rack, LEXICON.graph), tops.top(board, rack, LEXICON.graph, preference)


def typed_rack(
    browser: Browser, server: ServerProcess, director: Page, code: str, rack: str
) -> Page:
    """Anna's phone at the room ``code``, once the director typed the first round's rack."""
    anna = open_app(browser, server.url, "nl")
    join_table(anna, code, "Anna")
    director.locator("#room-start > summary").click()
    director.get_by_label(TYPED_RACK).fill(rack)
    director.get_by_role("button", name="Dit plankje gebruiken").click()
    wait_for_state(anna, "app => app.view.sheet.rounds[0].rack.length === 7")
    return anna
