"""Duplicate rooms on phones, for the browser tests: the start form's labels, a room opened
with no names and players joining it by name, the sheet a phone holds, the moves of its rack,
a rack the director types, players registered over HTTP and their slips, and the page errors a phone
raised."""

from typing import Any

from playwright.sync_api import Browser, Page

import editions
import wordlists
from bench.serving import device_key
from bench.serving import slip as slip  # the tests' rooms hand slips in as the benchmarks do
from rules.board.board import Board
from rules.movegen.moves import generate
from rules.room import tops
from rules.table import rulesets
from tests.server.serving import ServerProcess
from tests.web.browser import join_table, open_app, session_of, show, wait_for_state

DUPLICATE = "Duplicate: iedereen dezelfde letters"
CLUB = "Duplicate, clubzaal (solo's vanaf 2 spelers)"
TYPED_RACK = "Of typ het plankje van een trekking in de zaal"
LEXICON = wordlists.get("nl")
NL = editions.get("nl")


def sheet_of(page: Page) -> dict:
    return page.evaluate("async () => (await import('/js/state.js')).app.view.sheet")


def letters(page: Page, count: int) -> list[str]:
    """The first ``count`` tiles of the first round's rack on ``page`` that are not blanks: a
    blank laid asks its letter first (the seed deals one now and then)."""
    return [tile for tile in sheet_of(page)["rounds"][0]["rack"] if tile != "?"][:count]


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


def register(server: ServerProcess, code: str, name: str) -> dict[str, Any]:
    """A player's phone entering the room by name over HTTP: its place at the table."""
    body = {"code": code, "role": "player", "name": name, "device": device_key()}
    reply = server.api().post("/api/join", body)
    assert reply.status == 200, reply
    return dict(reply.json())


def errors_of(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def open_room(director: Page) -> str:
    """The director opens a room on the start form with no names; its join code."""
    director.get_by_label("Duplicate: iedereen dezelfde letters").check()
    director.get_by_label("Aantal spelers").select_option("0")
    director.get_by_role("button", name="Spel beginnen").click()
    wait_for_state(director, "app => app.view?.sheet?.mode === 'duplicate'")
    return str(session_of(director)["code"])


def join_by_name(page: Page, code: str, name: str) -> None:
    show(page, "start")
    join = page.locator("#start .join")
    join.get_by_label("Tafelcode").fill(code)
    join.get_by_label("Je naam", exact=True).fill(name)
    page.get_by_role("button", name="Aanschuiven", exact=True).click()
    wait_for_state(page, "app => app.view?.sheet?.players?.length > 0")
