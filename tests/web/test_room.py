"""The duplicate director's room on phones (issue 14): the director draws the rack, two
players hand in slips on their phones (a tap on the board, the word, the direction), the
director sees whose slips are in but no word, closes the round with the computed top, and
every phone and the room display show the top, each player's score and the standings.

The rack is drawn with the server's seed, so the test reads it from the view and finds the
moves with the same generator and list the server uses (the phone never sees the list).
"""

import re

from playwright.sync_api import Browser, Page, expect

import editions
import wordlists
from rules import rulesets, tops
from rules.board import Board
from rules.movegen import generate
from tests.server.serving import ServerProcess
from tests.web.browser import (
    axe,
    create_table,
    join_table,
    missing_strings,
    open_app,
    post,
    shot,
    wait_for_state,
)
from tests.web.test_display import fits

DUPLICATE = "Duplicate: iedereen dezelfde letters"
LEXICON = wordlists.get("nl")
NL = editions.get("nl")


def sheet_of(page: Page) -> dict:
    return page.evaluate("async () => (await import('/js/state.js')).app.view.sheet")


def view_text(page: Page) -> str:
    """Everything the phone was sent of the table, as JSON."""
    return page.evaluate("async () => JSON.stringify((await import('/js/state.js')).app.view)")


def moves(sheet: dict) -> tuple[list, object]:
    """Every move of the open round's rack on the board, best first, and the top a close
    plays (the rule set's choice among equal ones)."""
    board = Board.from_rows(NL, sheet["board"])
    rack = "".join(sheet["rounds"][-1]["rack"])
    preference = rulesets.get("duplicate").room.top_preference
    return generate(board, rack, LEXICON.graph), tops.top(board, rack, LEXICON.graph, preference)


def test_a_round_in_the_room_from_the_draw_to_the_standings(
    browser: Browser, server: ServerProcess
) -> None:
    director = open_app(browser, server.url, "nl")
    code = create_table(director, ["Anna", "Bas", "Cas"], mode=DUPLICATE)
    anna = open_app(browser, server.url, "nl")
    join_table(anna, code, "Anna")
    bas = open_app(browser, server.url, "nl")
    join_table(bas, code, "Bas")
    room = open_app(browser, server.url, "nl", f"/display.html#join={code}")
    expect(room.get_by_role("heading", name="Ronde 1")).to_be_visible()

    # The director opens the room and draws the rack.
    director.locator("#room-start > summary").click()
    director.get_by_role("button", name="Plankje trekken").click()
    expect(director.locator("#room-rack .rack-tile")).to_have_count(7)
    for page in (anna, bas, director, room):
        wait_for_state(page, "app => app.view.sheet.rounds[0].rack.length === 7")
    expect(room.locator("#display-rack .rack-tile")).to_have_count(7)
    shot(director, "director-rack-drawn", full_page=False)

    found, top = moves(sheet_of(bas))
    assert top is not None
    lesser = next(m for m in found if m.score < top.score and m.word != top.word)

    # Bas lays his slip with a tap on the board and the word; Anna hands in the top.
    expect(bas.locator("#room-slip .room-rack .rack-tile")).to_have_count(7)
    bas.locator(f'#room-slip [data-square="{lesser.start.name}"]').click()
    if str(lesser.direction) == "down":
        bas.get_by_label("Verticaal").check()
    expect(bas.get_by_label("Eerste vak", exact=True)).to_have_value(lesser.start.name)
    bas.get_by_label("Woord", exact=True).fill(lesser.word)
    shot(bas, "slip-written")
    bas.get_by_role("button", name="Briefje inleveren").click()
    mine = bas.locator("#slip-mine")
    expect(mine).to_contain_text(f"Ingeleverd: {lesser.word} op {lesser.start.name}")
    expect(mine).to_contain_text(f"{lesser.score} punten")
    shot(bas, "slip-handed-in")
    turn = {"game": sheet_of(anna)["started"], "player": 0, "number": 0}
    post(anna, server, {"type": "submit_slip", "word": top.word, "start": top.start.name,
                        "direction": str(top.direction), "turn": turn})  # fmt: skip

    # The director sees whose slips are in, never a word; so does the room.
    expect(director.locator("#room-slips")).to_have_text("Briefjes binnen: 2 van 3")
    expect(director.locator(".room-slip-list .in")).to_have_count(2)
    expect(director.locator(".room-slip-list .waiting")).to_contain_text("Cas")
    expect(room.locator(".room-slips-in")).to_have_text("Briefjes 2/3")
    for page in (director, room, anna):
        assert f'"{lesser.word}"' not in view_text(page)
    assert f'"{top.word}"' not in view_text(bas)
    assert f'"{top.word}"' in view_text(anna)  # her own slip, on her phone only
    shot(director, "director-slips-in", full_page=False)
    room.set_viewport_size({"width": 1280, "height": 720})
    fits(room, 1280, 720)
    shot(room, "room-slips-in-1280x720", full_page=False)
    assert axe(director, "#room-director") == []
    assert axe(bas, "#room-slip") == []

    # The close: the computed top with its word, square and score on every screen.
    director.get_by_role("button", name="Ronde sluiten: top zoeken").click()
    line = f"{top.word} op {top.start.name}"
    for page in (director, anna, bas):
        expect(page.locator("#room-top-line")).to_contain_text(line)
        expect(page.locator("#room-top-line")).to_contain_text(f"{top.score} punten")
    results = bas.locator(".room-results tbody tr")
    expect(results).to_have_count(3)
    expect(bas.locator(".room-results tr.mine")).to_contain_text(str(lesser.score))
    expect(bas.locator(".room-results tr.mine")).to_contain_text(str(lesser.score - top.score))
    expect(results.nth(2)).to_contain_text("geen briefje")
    shot(director, "director-round-closed")
    shot(bas, "slip-result")
    assert axe(bas, "#room-result") == []

    expect(room.locator(".room-top .room-points")).to_have_text(str(top.score))
    expect(room.locator(".room-where")).to_have_text(re.compile(top.start.name))
    rows = room.locator(".room-standings tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Anna")
    expect(rows.nth(0)).to_contain_text(str(top.score))
    expect(room.locator(".room-standings thead")).to_contain_text("Ronde 1")
    for width, height in ((1280, 720), (1920, 1080)):
        fits(room, width, height)
        shot(room, f"room-{width}x{height}", full_page=False)

    # The next round: a rack typed from a draw in the room.
    expect(director.locator("#room-no-rack")).to_be_visible()
    director.get_by_label("Of typ het plankje van een trekking in de zaal").fill("bcdfghj")
    director.once("dialog", lambda dialog: dialog.dismiss())  # the rule sends it back
    director.get_by_role("button", name="Dit plankje gebruiken").click()
    expect(director.locator("#room-no-rack")).to_be_visible()
    for page in (director, anna, bas, room):
        assert missing_strings(page) == []
        page.context.close()
