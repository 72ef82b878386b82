"""The room under its rule set's conventions, and the phone faults of a room evening (issue
25, items 6 and 9).

A room under FISF rules takes and shows references as the FISF writes them — across the row
letter then the column (H4), down the column then the row (4H) — on the players' phones, the
director's, the room display and the printed sheet; the top's bingo ("scrabble") is marked
on each of them. An update arriving while a radio button of the slip is in focus raises no
page error; tiles laid and not yet sent are there again after a reload.

The racks are typed by the director, so the tops are known: RATIONS on an empty French board
is a bingo down from B8, the "B8 vertical" of the issue.
"""

import json
import re

from playwright.sync_api import Browser, Page, expect

import editions
import wordlists
from rules.board.board import Board
from rules.board.squares import Direction, reference
from rules.movegen.moves import generate
from rules.room import tops
from rules.table import rulesets
from tests.server.serving import ServerProcess
from tests.web.browser import (
    ROOT,
    create_table,
    join_table,
    missing_strings,
    open_app,
    post,
    ready,
    shot,
    wait_for_state,
)

DUPLICATE = "Duplicate: iedereen dezelfde letters"  # the FISF rule set
TYPED_RACK = "Of typ het plankje van een trekking in de zaal"
CLOSE = "Ronde sluiten: top zoeken"


def type_rack(director: Page, rack: str) -> None:
    """The director opens the room and types the first round's rack."""
    director.locator("#room-start > summary").click()
    director.get_by_label(TYPED_RACK).fill(rack)
    director.get_by_role("button", name="Dit plankje gebruiken").click()
    wait_for_state(director, "app => app.view.sheet.rounds[0].rack.length === 7")


def sheet_of(page: Page) -> dict:
    return page.evaluate("async () => (await import('/js/state.js')).app.view.sheet")


def said(language: str, key: str, **params: str) -> str:
    """A sentence of ``language``'s strings file, its parameters filled in."""
    text = json.loads((ROOT / "web" / "strings" / f"{language}.json").read_text("utf-8"))[key]
    for name, value in params.items():
        text = text.replace(f"{{{name}}}", value)
    return text


def fisf(move) -> str:
    return reference(move.start, move.direction, "fisf")


def test_a_fisf_room_takes_and_shows_references_and_the_bingo_on_every_screen(
    browser: Browser, server: ServerProcess
) -> None:
    director = open_app(browser, server.url, "nl")
    code = create_table(director, ["Anna", "Bas"], mode=DUPLICATE, edition="fr")
    assert sheet_of(director)["rules"] == "duplicate"
    assert rulesets.get("duplicate").references == "fisf"
    anna = open_app(browser, server.url, "nl")
    join_table(anna, code, "Anna")
    bas = open_app(browser, server.url, "nl")
    join_table(bas, code, "Bas")
    room = open_app(browser, server.url, "fr", f"/display.html#join={code}")
    type_rack(director, "RATIONS")
    for page in (anna, bas, room):
        wait_for_state(page, "app => app.view.sheet.rounds[0].rack.length === 7")

    fr = editions.get("fr")
    lexicon = wordlists.get("fr")
    preference = rulesets.get("duplicate").room.top_preference
    top = tops.top(Board.empty(fr), "RATIONS", lexicon.graph, preference)
    assert top is not None and len(top.play.tiles) == fr.rack_size  # a bingo
    assert (top.start.name, top.direction) == ("B8", Direction.DOWN)  # the "B8 vertical"
    lesser = next(
        m
        for m in generate(Board.empty(fr), "RATIONS", lexicon.graph)
        if m.direction == Direction.DOWN and m.score < top.score and m.word != top.word
    )
    written = fisf(lesser)  # "8D": the column first, down
    assert written == f"{lesser.start.col + 1}{lesser.start.name[0]}"

    # Anna types her slip the FISF way. A tap on the board writes the square across; a second
    # tap turns it down and the reference with it; the radios follow what is typed.
    anna.get_by_label("Woord typen").check()
    square = anna.locator(f'#room-slip [data-square="{lesser.start.name}"]')
    square.click()
    field = anna.get_by_label("Referentie", exact=True)
    expect(field).to_have_value(lesser.start.name)
    square.click()
    expect(field).to_have_value(written)
    expect(anna.get_by_label("Verticaal")).to_be_checked()
    anna.get_by_label("Horizontaal").check()
    expect(field).to_have_value(lesser.start.name)
    field.fill(written.lower())  # typed: « 8G » is a reference now, not a refused square
    expect(anna.get_by_label("Verticaal")).to_be_checked()
    anna.get_by_label("Woord", exact=True).fill(lesser.word)
    expect(anna.locator("#slip-reference-hint")).to_be_visible()
    shot(anna, "fisf-slip-typed")
    anna.get_by_role("button", name="Briefje inleveren").click()
    mine = anna.locator("#slip-mine")
    expect(mine).to_contain_text(f"Ingeleverd: {lesser.word} op {written}, {lesser.score} punten")
    handed = sheet_of(anna)["room"]["mine"]
    assert (handed["start"], handed["direction"]) == (lesser.start.name, "down")

    # The director's form for a paper slip asks for the reference too, as Anna's does.
    director.locator("#arbiter > summary").click()
    arbiter = director.locator("#arbiter-form")
    expect(arbiter.get_by_label("Referentie", exact=True)).to_be_visible()
    expect(arbiter.get_by_label("Eerste vak")).to_have_count(0)

    # A reference the FISF does not write is refused on the phone, by its own code.
    field.fill("H16")
    anna.get_by_role("button", name="Dit briefje in de plaats inleveren").click()
    expect(anna.locator("#slip-refusal")).to_have_text(
        said("nl", "error.bad_reference", text="H16")
    )

    # Bas hands in the top; the director closes the round.
    turn = {"game": sheet_of(bas)["started"], "player": 1, "number": 0}
    post(bas, server, {"type": "submit_slip", "word": top.word, "start": top.start.name,
                       "direction": "down", "turn": turn})  # fmt: skip
    expect(director.locator("#room-slips")).to_have_text("Briefjes binnen: 2 van 2")
    director.get_by_role("button", name=CLOSE).click()

    # Every phone says the top the FISF way, with its bingo; so do the results.
    line = f"{top.word} op {fisf(top)}: {top.score} punten"
    assert fisf(top) == "8B"
    for page in (director, anna, bas):
        expect(page.locator("#room-top-line")).to_contain_text(line)
        expect(page.locator("#room-top-line .bingo")).to_have_text(said("nl", "room.bingo"))
    expect(bas.locator('.room-results tr[data-player="0"]')).to_contain_text(
        f"{lesser.word}\u00a0{written}"
    )
    expect(anna.locator('.room-results tr[data-player="1"]')).to_contain_text(
        f"{top.word}\u00a0{fisf(top)}"
    )
    shot(director, "fisf-director-top", full_page=False)

    # The room display, in French: the reference and "scrabble" beside the points.
    expect(room.locator(".room-where")).to_have_text("8B")
    expect(room.locator(".room-points")).to_have_text(str(top.score))
    expect(room.locator(".room-bingo .bingo")).to_have_text("scrabble")
    room.set_viewport_size({"width": 1280, "height": 720})
    shot(room, "fisf-room-display-1280x720", full_page=False)

    # A player reading French sees it as the FISF writes it.
    anna.evaluate("async () => (await import('/js/i18n.js')).setLanguage('fr', true)")
    expect(anna.locator("#room-top-line")).to_contain_text(f"{top.word} en 8B : 66 points")
    expect(anna.locator("#room-top-line .bingo")).to_have_text("scrabble")
    shot(anna, "fisf-player-top-fr")

    # The printed sheet: the reference and the bingo beside the top's word.
    printed = director.context.new_page()
    printed.goto(f"{server.url}/print.html?page=game")
    ready(printed)
    first = printed.locator("table.sheet tbody tr.round").first
    expect(first.locator(".where")).to_have_text("8B")
    expect(first.locator(".bingo")).to_have_text(said("nl", "room.bingo"))
    shot(printed, "fisf-print-game")
    for page in (director, anna, bas, room, printed):
        assert missing_strings(page) == []
    for page in (director, anna, bas, room):
        page.context.close()


def test_a_club_room_keeps_the_square_and_the_direction_beside_it(
    browser: Browser, server: ServerProcess
) -> None:
    director = open_app(browser, server.url, "nl")
    create_table(director, ["Anna"], mode=DUPLICATE, rules="Duplicate, clubzaal (solo's vanaf 2 "
                 "spelers)", edition="fr")  # fmt: skip
    assert rulesets.get("duplicate-club").references == "board"
    type_rack(director, "RATIONS")
    director.get_by_role("button", name=CLOSE).click()
    expect(director.locator("#room-top-line")).to_contain_text("RATIONS op B8 verticaal")
    expect(director.locator("#room-top-line .bingo")).to_have_text(said("nl", "room.bingo"))
    director.context.close()


def test_updates_arriving_while_a_slip_radio_is_in_focus_raise_no_page_error(
    browser: Browser, server: ServerProcess
) -> None:
    director = open_app(browser, server.url, "nl")
    code = create_table(director, ["Anna", "Bas"], mode=DUPLICATE)
    anna = open_app(browser, server.url, "nl")
    errors: list[str] = []
    anna.on("pageerror", lambda error: errors.append(str(error)))
    join_table(anna, code, "Anna")
    bas = open_app(browser, server.url, "nl")
    join_table(bas, code, "Bas")
    type_rack(director, "PLANKEN")
    wait_for_state(anna, "app => app.view.sheet.rounds[0].rack.length === 7")
    turn = {"game": sheet_of(bas)["started"], "player": 1, "number": 0}

    def update(word: str) -> None:
        """Bas hands in a slip and the director sets the clock: an update reaches Anna's
        phone, which draws it (Bas's slip alone sends Anna's phone nothing)."""
        post(bas, server, {"type": "submit_slip", "word": word, "start": "H8",
                           "direction": "across", "turn": turn})  # fmt: skip
        minutes = {"PLANK": 1, "PLAN": 2, "PLANKEN": 3}[word]  # a new clock every time
        post(director, server, {"type": "reset_clock", "minutes": minutes})
        wait_for_state(anna, f"app => app.view.sheet.clock.seconds === {minutes * 60}")

    # "Woord typen" in focus (a tap on it), then a direction, then "Blokjes leggen".
    anna.get_by_label("Woord typen").check()
    expect(anna.get_by_label("Woord typen")).to_be_focused()
    update("PLANK")
    expect(anna.get_by_label("Woord typen")).to_be_focused()
    anna.get_by_label("Verticaal").check()
    expect(anna.get_by_label("Verticaal")).to_be_focused()
    update("PLAN")
    expect(anna.get_by_label("Verticaal")).to_be_focused()
    anna.get_by_label("Blokjes leggen").check()
    update("PLANKEN")
    expect(anna.get_by_label("Blokjes leggen")).to_be_focused()
    # The director's close and the next round reach her too, still without an error.
    director.get_by_role("button", name=CLOSE).click()
    expect(anna.locator("#room-top-line")).to_be_visible()
    assert errors == []
    for page in (director, anna, bas):
        assert missing_strings(page) == []
        page.context.close()


def laid(page: Page, square: str) -> None:
    expect(page.locator(f'#slip-board td:has([data-square="{square}"])')).to_have_class(
        re.compile(r"\bnew\b")
    )


def lay(page: Page, tile: str, square: str) -> None:
    """Tap ``tile`` on the slip's rack, then ``square`` (the whole board zooms in first)."""
    page.locator(f'#slip-rack .rack-tile[data-tile="{tile}"]:not(.laid)').first.click()
    cell = page.locator(f'#slip-board [data-square="{square}"]')
    if not page.locator("#slip-board.zoomed").count():
        cell.click()
        expect(page.locator("#slip-board.zoomed")).to_be_attached()
    cell.click()
    laid(page, square)


def racked_room(browser: Browser, server: ServerProcess) -> tuple[Page, Page]:
    """The director's room of Anna and Bas, its first rack typed, and Anna's phone with it."""
    director = open_app(browser, server.url, "nl")
    code = create_table(director, ["Anna", "Bas"], mode=DUPLICATE)
    anna = open_app(browser, server.url, "nl")
    join_table(anna, code, "Anna")
    type_rack(director, "PLA?KEN")
    wait_for_state(anna, "app => app.view.sheet.rounds[0].rack.length === 7")
    return director, anna


def reloaded(page: Page, round_: int = 0) -> None:
    """``page`` reloaded, once it shows round ``round_``'s rack again."""
    page.reload()
    ready(page)
    wait_for_state(page, f"app => app.view?.sheet?.rounds[{round_}].rack.length === 7")


def test_tiles_laid_and_not_sent_are_there_again_after_a_reload(
    browser: Browser, server: ServerProcess
) -> None:
    director, anna = racked_room(browser, server)
    lay(anna, "P", "H8")
    lay(anna, "L", "H9")
    anna.locator('#slip-rack .rack-tile[data-tile="?"]').click()  # the blank, as an A
    anna.locator('#slip-board [data-square="H10"]').click()
    anna.locator("dialog.blank-dialog #slip-blank-A").click()
    laid(anna, "H10")

    reloaded(anna)
    for square in ("H8", "H9", "H10"):
        laid(anna, square)
    expect(anna.locator('#slip-board [data-square="H10"]')).to_have_attribute(
        "aria-label", re.compile(r"A \(blanco\)")
    )
    expect(anna.locator("#slip-rack .rack-tile.laid")).to_have_count(3)
    shot(anna, "slip-after-reload")

    # The slip goes on from there and is handed in as laid.
    lay(anna, "N", "H11")
    lay(anna, "K", "H12")
    anna.locator("#slip-send").click()
    expect(anna.locator("#slip-mine")).to_contain_text("Ingeleverd: PLaNK op H8")

    # Tiles taken back stay taken back after a reload; the next round starts empty.
    anna.get_by_role("button", name="Terug", exact=True).click()
    expect(anna.locator("#slip-rack .rack-tile.laid")).to_have_count(0)
    reloaded(anna)
    expect(anna.locator("#slip-rack .rack-tile")).to_have_count(7)
    expect(anna.locator("#slip-rack .rack-tile.laid")).to_have_count(0)
    for page in (director, anna):
        assert missing_strings(page) == []
        page.context.close()


def test_a_typed_slip_not_handed_in_is_typed_again_after_a_reload(
    browser: Browser, server: ServerProcess
) -> None:
    director, anna = racked_room(browser, server)
    # Anna types her slip down from H8, the blank an A (in lower case), and reloads.
    anna.get_by_label("Woord typen").check()
    reference = anna.get_by_label("Referentie", exact=True)
    word = anna.get_by_label("Woord", exact=True)
    reference.fill("8h")
    word.fill("PLaNK")
    expect(anna.get_by_label("Verticaal")).to_be_checked()

    reloaded(anna)
    expect(anna.get_by_label("Woord typen")).to_be_checked()
    expect(reference).to_have_value("8H")
    expect(word).to_have_value("PLaNK")
    expect(anna.get_by_label("Verticaal")).to_be_checked()
    shot(anna, "slip-typed-after-reload")

    # The slip is handed in as typed; the next round starts with nothing typed, after a
    # reload too.
    anna.locator("#slip-send").click()
    expect(anna.locator("#slip-mine")).to_contain_text("Ingeleverd: PLaNK op 8H")
    director.get_by_role("button", name=CLOSE).click()
    director.get_by_role("button", name="Plankje trekken").click()
    wait_for_state(anna, "app => app.view.sheet.rounds[1].rack.length === 7")
    reloaded(anna, 1)
    expect(word).to_have_value("")
    expect(reference).to_have_value("")
    for page in (director, anna):
        assert missing_strings(page) == []
        page.context.close()
