"""The duplicate director's room on phones (issue 14): the director draws the rack, two
players hand in slips on their phones (a tap on the board, the word, the direction), the
director sees whose slips are in but no word, closes the round with the computed top, and
every phone and the room display show the top, each player's score and the standings. A
slip is laid tile by tile as an online move is (tapped, dragged, typed, a blank given its
letter) and handed in as the word the tiles make with the board's; tiles out of line are
refused on the phone. The start form starts a club room, whose solos count from 2 players.

The rack is drawn with the server's seed, so the test reads it from the view and finds the
moves with the same generator and list the server uses (the phone never sees the list).
"""

import json
import re

import pytest
from playwright.sync_api import Browser, Page, expect

import editions
from rules.board.board import Board
from rules.board.squares import reference
from rules.movegen.moves import generate
from rules.room import tops
from rules.table import rulesets
from tests.server.serving import ServerProcess
from tests.web.browser import (
    ROOT,
    axe,
    create_table,
    join_table,
    missing_strings,
    open_app,
    post,
    shot,
    show,
    wait_for_state,
)
from tests.web.moved_clock import Moved
from tests.web.rooms import (
    CLUB,
    DUPLICATE,
    LEXICON,
    NL,
    TYPED_RACK,
    letters,
    moves,
    sheet_of,
    slip,
    typed_rack,
)
from tests.web.screen_fit import fits

IT = editions.get("it")


def view_text(page: Page) -> str:
    """Everything the phone was sent of the table, as JSON."""
    return page.evaluate("async () => JSON.stringify((await import('/js/state.js')).app.view)")


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

    # Bas types his slip (the tiles come first): a tap on the board and the word; Anna
    # hands in the top.
    expect(bas.locator("#slip-rack .rack-tile")).to_have_count(7)
    bas.get_by_label("Woord typen").check()
    expect(bas.locator("#slip-tiles .rack-tile")).to_have_count(7)
    bas.locator(f'#room-slip [data-square="{lesser.start.name}"]').click()
    if str(lesser.direction) == "down":
        bas.get_by_label("Verticaal").check()
    # FISF rules (the default duplicate rule set): the reference says the direction, 4H down.
    written = reference(lesser.start, lesser.direction, "fisf")
    expect(bas.get_by_label("Referentie", exact=True)).to_have_value(written)
    bas.get_by_label("Woord", exact=True).fill(lesser.word)
    shot(bas, "slip-written")
    bas.get_by_role("button", name="Briefje inleveren").click()
    mine = bas.locator("#slip-mine")
    expect(mine).to_contain_text(f"Ingeleverd: {lesser.word} op {written}")
    expect(mine).to_contain_text(f"{lesser.score} punten")
    shot(bas, "slip-handed-in")
    post(anna, server, slip(top, sheet_of(anna)["started"], 0))

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
    line = f"{top.word} op {reference(top.start, top.direction, 'fisf')}"
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
    expect(room.locator(".room-where")).to_have_text(reference(top.start, top.direction, "fisf"))
    rows = room.locator(".room-standings tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Anna")
    expect(rows.nth(0)).to_contain_text(str(top.score))
    expect(room.locator(".room-standings thead")).to_contain_text("Ronde 1")
    for width, height in ((1280, 720), (1920, 1080)):
        fits(room, width, height)
        shot(room, f"room-{width}x{height}", full_page=False)

    # In a room a player's phone writes nothing but its slip: its cells on the sheet are
    # read only, the director's are not (the server refuses the rest: slip_only).
    was = director.evaluate("() => document.body.dataset.view")
    for page in (bas, director):
        show(page, "sheet")
    expect(bas.locator("#dup-r0-p1")).to_have_attribute("readonly", "")
    expect(director.locator("#dup-r0-p1")).not_to_have_attribute("readonly", "")
    show(director, was)

    # The next round: a rack typed from a draw in the room.
    expect(director.locator("#room-no-rack")).to_be_visible()
    director.get_by_label(TYPED_RACK).fill("bcdfghj")
    director.once("dialog", lambda dialog: dialog.dismiss())  # the rule sends it back
    director.get_by_role("button", name="Dit plankje gebruiken").click()
    expect(director.locator("#room-no-rack")).to_be_visible()
    for page in (director, anna, bas, room):
        assert missing_strings(page) == []
        page.context.close()


# --- a slip laid in tiles ------------------------------------------------------------------


def tap_square(page: Page, square: str) -> None:
    """Tap a square of the slip's board as a thumb does: the whole board zooms in first."""
    cell = page.locator(f'#slip-board [data-square="{square}"]')
    if not page.locator("#slip-board.zoomed").count():
        cell.click()
        expect(page.locator("#slip-board.zoomed")).to_be_attached()
    cell.click()


def laid(page: Page, square: str) -> None:
    expect(page.locator(f'#slip-board td:has([data-square="{square}"])')).to_have_class(
        re.compile(r"\bnew\b")
    )


def lay(page: Page, tile: str, square: str) -> None:
    """Tap ``tile`` on the slip's rack, then ``square``."""
    page.locator(f'#slip-rack .rack-tile[data-tile="{tile}"]:not(.laid)').first.click()
    tap_square(page, square)
    laid(page, square)


def sentence(code: str, **params: str) -> str:
    said = json.loads((ROOT / "web" / "strings" / "nl.json").read_text("utf-8"))[f"error.{code}"]
    for name, value in params.items():
        said = said.replace(f"{{{name}}}", value)
    return said


def test_a_club_room_scores_a_slip_laid_tile_by_tile_with_a_blank(
    browser: Browser, server: ServerProcess
) -> None:
    director = open_app(browser, server.url, "nl")
    # The start form offers both duplicate rule sets; the club room's solos count from 2.
    start = director.locator("#start")
    start.get_by_label(DUPLICATE).check()
    expect(start.get_by_label("Duplicate (solo's vanaf 16 spelers)")).to_be_checked()
    code = create_table(director, ["Anna", "Bas"], mode=DUPLICATE, rules=CLUB)
    assert sheet_of(director)["rules"] == "duplicate-club"
    anna = typed_rack(browser, server, director, code, "PLA?KET")

    # The tiles come first. PLANK across the star with the blank as its N: P tapped, L
    # dragged, A typed on its square, the blank given its letter, K tapped.
    expect(anna.get_by_label("Blokjes leggen")).to_be_checked()
    expect(anna.locator("#slip-rack .rack-tile")).to_have_count(7)
    lay(anna, "P", "H8")
    anna.locator('#slip-rack .rack-tile[data-tile="L"]').drag_to(
        anna.locator('#slip-board [data-square="H9"]')
    )
    laid(anna, "H9")
    anna.locator('#slip-board [data-square="H10"]').focus()
    anna.keyboard.press("a")
    laid(anna, "H10")
    assert anna.evaluate("() => document.activeElement.dataset.square") == "H11"
    anna.locator('#slip-rack .rack-tile[data-tile="?"]').click()
    tap_square(anna, "H11")
    dialog = anna.locator("dialog.blank-dialog")
    expect(dialog).to_be_visible()
    # A slip's blank is its own: not "it keeps that letter for the rest of the game".
    expect(dialog.locator(".hint")).to_have_text("Welke letter wordt de blanco op H11?")
    assert axe(anna) == []
    dialog.locator("#slip-blank-N").click()
    expect(dialog).to_be_hidden()
    expect(anna.locator('#slip-board [data-square="H11"]')).to_have_attribute(
        "aria-label", re.compile("N \\(blanco\\)")
    )
    lay(anna, "K", "H12")
    # The score as it lies, from the server: no word is judged before the close.
    expect(anna.locator("#slip-score")).to_have_text("Deze zet: 26 punten (PLAnK)")
    # Typing is the other way; it starts from what the tiles make, and they stay laid.
    anna.get_by_label("Woord typen").check()
    expect(anna.get_by_label("Woord", exact=True)).to_have_value("PLAnK")
    expect(anna.get_by_label("Eerste vak", exact=True)).to_have_value("H8")
    anna.get_by_label("Blokjes leggen").check()
    expect(anna.locator("#slip-board .new")).to_have_count(5)
    shot(anna, "slip-tiles-laid", full_page=False)
    assert axe(anna, "#room-slip") == []
    anna.locator("#slip-send").click()
    # Said in the dock, where Send was tapped, not below the board out of sight.
    mine = anna.locator(".slip-dock #slip-mine")
    expect(mine).to_contain_text("Ingeleverd: PLAnK op H8 horizontaal, 26 punten")
    expect(mine).to_be_in_viewport()
    shot(anna, "slip-tiles-handed-in", full_page=False)
    expect(anna.locator("#messages")).to_have_text("Je briefje is binnen.")
    expect(director.locator("#room-slips")).to_have_text("Briefjes binnen: 1 van 2")

    # The close scores the slip as it was laid, alone at the best valid score: the solo.
    preference = rulesets.get("duplicate-club").room.top_preference
    top = tops.top(Board.empty(NL), "PLA?KET", LEXICON.graph, preference)
    assert top is not None
    director.get_by_role("button", name="Ronde sluiten: top zoeken").click()
    for row in (
        director.locator('.room-results tr[data-player="0"]'),
        anna.locator(".room-results tr.mine"),
    ):
        expect(row).to_contain_text("PLAnK H8")
        expect(row).to_contain_text("26 solo +10")
        expect(row).to_contain_text(str(26 - top.score))
    expect(director.locator('.room-results tr[data-player="1"]')).to_contain_text("geen briefje")
    # The round closed: "your slip is in" goes at once, not when its 8 s are up.
    expect(anna.locator("#messages")).to_be_empty(timeout=1_000)
    shot(anna, "slip-tiles-closed")

    # The next round: a word laid through the board's tiles is handed in whole, from its
    # first square, the board's letters in it.
    director.get_by_role("button", name="Plankje trekken").click()
    wait_for_state(anna, "app => app.view.sheet.rounds[1].rack.length === 7")
    shown = sheet_of(anna)
    board = Board.from_rows(NL, shown["board"])
    rack = "".join(shown["rounds"][1]["rack"])
    through = [
        m
        for m in generate(board, rack, LEXICON.graph)
        if board[m.start] is not None and not any(t.blank for _, t in m.play.tiles)
    ]
    assert through, (shown["board"], rack)
    move = through[0]
    for square, tile in move.play.tiles:
        lay(anna, tile.notation, square.name)
    anna.locator("#slip-send").click()
    expect(mine).to_contain_text(f"op {move.start.name}")
    expect(mine).to_contain_text(f"{move.score} punten")
    handed = sheet_of(anna)["room"]["mine"]
    assert handed["word"].upper() == move.word.upper()
    assert (handed["start"], handed["direction"]) == (move.start.name, str(move.direction))
    for page in (director, anna):
        assert missing_strings(page) == []
        page.context.close()


def test_an_italian_blank_may_be_a_letter_no_tile_shows(
    browser: Browser, server: ServerProcess
) -> None:
    # FIGS art. 8: an Italian blank may also be J, K, W, X or Y, which no tile shows.
    director = open_app(browser, server.url, "nl")
    code = create_table(director, ["Anna", "Bas"], mode=DUPLICATE, edition="it")
    anna = typed_rack(browser, server, director, code, "?OALATE")
    anna.locator('#slip-rack .rack-tile[data-tile="?"]').click()
    tap_square(anna, "H8")
    dialog = anna.locator("dialog.blank-dialog")
    expect(dialog.locator(".blank-letter")).to_have_text(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    dialog.locator("#slip-blank-K").click()
    expect(anna.locator('#slip-board [data-square="H8"]')).to_have_attribute(
        "aria-label", re.compile("K \\(blanco\\)")
    )
    for tile, square in zip("OALA", ("H9", "H10", "H11", "H12"), strict=True):
        lay(anna, tile, square)
    points = Board.empty(IT).score(Board.empty(IT).place("H8", "across", "kOALA"))
    expect(anna.locator("#slip-score")).to_have_text(f"Deze zet: {points.total} punten (kOALA)")
    anna.locator("#slip-send").click()
    expect(anna.locator(".slip-dock #slip-mine")).to_contain_text("Ingeleverd: kOALA op H8")
    director.get_by_role("button", name="Ronde sluiten: top zoeken").click()
    expect(director.locator('.room-results tr[data-player="0"]')).to_contain_text("kOALA H8")
    for page in (director, anna):
        page.context.close()


def drawn_room(browser: Browser, server: ServerProcess) -> tuple[Page, Page]:
    """A room of Anna and Bas whose director drew the first rack, and Anna's phone, which
    has it: the director's phone and Anna's."""
    director = open_app(browser, server.url, "nl")
    code = create_table(director, ["Anna", "Bas"], mode=DUPLICATE)
    anna = open_app(browser, server.url, "nl")
    join_table(anna, code, "Anna")
    director.locator("#room-start > summary").click()
    director.get_by_role("button", name="Plankje trekken").click()
    wait_for_state(anna, "app => app.view.sheet.rounds[0].rack.length === 7")
    return director, anna


def test_a_redraw_right_after_a_pan_keeps_the_zoomed_board_where_it_stands(
    browser: Browser, server: ServerProcess
) -> None:
    # A change from the table may redraw the board between a finger's down and up, before
    # the pan's scroll event has come: the board must stay under the finger.
    director, anna = drawn_room(browser, server)
    lay(anna, letters(anna, 1)[0], "H8")
    stood = anna.evaluate(
        """async () => {
            const state = await import('/js/state.js');
            const panned = document.getElementById('slip-board');
            panned.scrollLeft -= 60;
            panned.scrollTop -= 40;
            const at = [panned.scrollLeft, panned.scrollTop];
            state.changed(); // as a frame from the server does
            await null;
            const now = document.getElementById('slip-board');
            return { redrawn: now !== panned, at, now: [now.scrollLeft, now.scrollTop] };
        }"""
    )
    assert stood["redrawn"] and stood["at"] != [0, 0]
    assert stood["now"] == stood["at"]
    for page in (director, anna):
        page.context.close()


def test_a_tile_and_a_square_tapped_in_quick_succession_lay_the_tile(
    browser: Browser, server: ServerProcess
) -> None:
    # A busy phone handles input before timers: the square's tap may come before the timer
    # that ends the tile's tap has run. Both taps here in one task, so no timer runs between.
    director, anna = drawn_room(browser, server)
    (tile,) = letters(anna, 1)
    anna.locator('#slip-board [data-square="H8"]').click()  # the whole board zooms in
    expect(anna.locator("#slip-board.zoomed")).to_be_attached()
    anna.evaluate(
        """tile => {
            const tap = (element) => {
                element.scrollIntoView({ block: 'center', inline: 'center' });
                const box = element.getBoundingClientRect();
                const at = { bubbles: true, isPrimary: true, pointerId: 1, button: 0,
                    clientX: box.x + box.width / 2, clientY: box.y + box.height / 2 };
                element.dispatchEvent(new PointerEvent('pointerdown', at));
                element.dispatchEvent(new PointerEvent('pointerup', at));
            };
            tap(document.querySelector(`#slip-rack .rack-tile[data-tile="${tile}"]`));
            tap(document.querySelector('#slip-board [data-square="H8"]'));
        }""",
        tile,
    )
    laid(anna, "H8")
    expect(anna.locator("#slip-rack .rack-tile.laid")).to_have_count(1)
    for page in (director, anna):
        page.context.close()


def test_tiles_out_of_line_are_refused_on_the_phone_in_its_language(
    browser: Browser, server: ServerProcess
) -> None:
    director, anna = drawn_room(browser, server)
    first, second, third = letters(anna, 3)

    # Two tiles on a diagonal: said as they lie, and refused on Send; nothing is handed in.
    lay(anna, first, "H8")
    lay(anna, second, "I9")
    refused = sentence("not_in_line")
    expect(anna.locator("#slip-score")).to_have_text(refused)
    anna.locator("#slip-send").click()
    expect(anna.locator("#slip-refusal")).to_have_text(refused)
    shot(anna, "slip-refused", full_page=False)
    assert axe(anna, "#room-slip") == []
    # In the phone's own language.
    anna.locator("#language").select_option("pl")
    anna.wait_for_function("() => document.documentElement.lang === 'pl'")
    anna.locator("#slip-send").click()
    polish = json.loads((ROOT / "web" / "strings" / "pl.json").read_text("utf-8"))
    expect(anna.locator("#slip-refusal")).to_have_text(polish["error.not_in_line"])
    anna.locator("#language").select_option("nl")
    anna.wait_for_function("() => document.documentElement.lang === 'nl'")

    # A square left empty between them is refused too; Recall takes every tile back.
    anna.locator("#slip-recall").click()
    expect(anna.locator("#slip-board .new")).to_have_count(0)
    lay(anna, first, "H8")
    lay(anna, third, "H10")
    anna.locator("#slip-send").click()
    expect(anna.locator("#slip-refusal")).to_have_text(sentence("gap", square="H9"))
    # Shuffle puts the rack's tiles in a new order, the laid ones where they lie.
    before = anna.locator("#slip-rack .rack-tile").evaluate_all(
        "tiles => tiles.map(t => t.dataset.tile).sort()"
    )
    anna.locator("#slip-shuffle").click()
    after = anna.locator("#slip-rack .rack-tile").evaluate_all(
        "tiles => tiles.map(t => t.dataset.tile).sort()"
    )
    assert after == before
    expect(anna.locator("#slip-board .new")).to_have_count(2)
    assert sheet_of(anna)["room"]["mine"] is None
    expect(director.locator("#room-slips")).to_have_text("Briefjes binnen: 0 van 2")
    for page in (director, anna):
        assert missing_strings(page) == []
        page.context.close()


def test_an_undo_in_a_room_is_asked_twice_for_every_phone_has_seen_the_rack(
    browser: Browser, server: ServerProcess
) -> None:
    """A rack undone and drawn again is another rack, which Anna's phone would show after the
    one she saw: the director's undo asks first, and a no sends nothing."""
    director, anna = drawn_room(browser, server)
    # Every undo the director's phone sends on its socket, counted.
    director.evaluate("""() => {
        const send = WebSocket.prototype.send;
        window.undos = 0;
        WebSocket.prototype.send = function (data) {
            if (String(data).includes('"type":"undo"')) window.undos += 1;
            return send.call(this, data);
        };
    }""")
    undo = director.get_by_role("button", name="Laatste regel ongedaan maken")
    asked: list[str] = []
    director.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    undo.click()
    assert len(asked) == 1
    assert asked[0].startswith("De laatste stap voor de hele zaal ongedaan maken?")
    director.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    undo.click()
    wait_for_state(anna, "app => app.view.sheet.rounds[0].rack.length === 0")
    assert len(asked) == 2
    assert director.evaluate("() => window.undos") == 1  # the one said yes to
    for page in (director, anna):
        page.context.close()


def test_between_two_rounds_a_room_offers_no_top_to_type(
    browser: Browser, server: ServerProcess
) -> None:
    """The sheet's "record as top" form would close the next round with no rack and every
    player at 0: a room's director draws instead."""
    director, anna = drawn_room(browser, server)
    record = director.get_by_role("button", name="Als top noteren")
    expect(record).to_have_count(0)
    director.get_by_role("button", name="Ronde sluiten: top zoeken").click()
    wait_for_state(director, "app => app.view.sheet.rounds.length === 2")
    expect(director.get_by_role("button", name="Plankje trekken")).to_be_visible()
    expect(record).to_have_count(0)
    for page in (director, anna):
        page.context.close()


def test_a_slip_after_the_round_clock_is_said_late_before_and_after_it_is_handed_in(
    browser: Browser, moved: Moved
) -> None:
    """The round's minute runs out (the server's clock and the phones' moved on together):
    Anna's phone says, above Send, that a slip now comes late and scores 0; handed in, it is
    said to have come late, and the director's list marks it late, not plainly in."""
    director = open_app(browser, moved.url, "nl", clock=True)
    code = create_table(director, ["Anna", "Bas"], mode=DUPLICATE)
    anna = open_app(browser, moved.url, "nl", clock=True)
    join_table(anna, code, "Anna")
    director.locator("#room-start > summary").click()
    director.get_by_role("button", name="Plankje trekken").click()
    wait_for_state(anna, "app => app.view.sheet.rounds[0].rack.length === 7")
    director.locator("#clock-1").click()
    director.locator("#clock-go").click()
    wait_for_state(anna, "app => app.view.sheet.clock.running_since !== null")
    expect(anna.locator("#slip-late")).to_have_count(0)

    moved.move_on([director, anna], 61)
    late = "De tijd is om: een briefje dat je nu inlevert, is te laat en telt 0."
    expect(anna.locator("#slip-late")).to_have_text(late)
    _, top = moves(sheet_of(anna))
    assert top is not None
    anna.get_by_label("Woord typen").check()
    expect(anna.locator("#slip-late")).to_have_text(late)  # above Send in either mode
    anna.locator(f'#room-slip [data-square="{top.start.name}"]').click()
    if str(top.direction) == "down":
        anna.get_by_label("Verticaal").check()
    anna.get_by_label("Woord", exact=True).fill(top.word)
    shot(anna, "slip-late-warning", full_page=False)
    anna.get_by_role("button", name="Briefje inleveren").click()
    expect(anna.locator("#messages .message")).to_have_text(
        "Je briefje is te laat binnen: het telt 0."
    )
    expect(anna.locator("#slip-mine")).to_contain_text("Het kwam na de klok: het telt 0 punten.")
    late_in = director.locator(".room-slip-list .late")
    expect(late_in).to_have_text("⏱ Anna: briefje te laat binnen")
    expect(director.locator(".room-slip-list .waiting")).to_contain_text("Bas")
    shot(director, "director-slip-late", full_page=False)
    # The room's list of players (a crowded room's only one) says it too.
    director.locator("#roster-manage > summary").click()
    players = director.locator(".roster-player")
    expect(players.filter(has_text="Anna").locator(".roster-late")).to_have_text(
        "briefje te laat binnen"
    )
    expect(players.filter(has_text="Bas").locator(".roster-waiting")).to_have_text(
        "nog geen briefje"
    )
    for page in (director, anna):
        assert missing_strings(page) == []
        page.context.close()


@pytest.mark.parametrize(
    ("part", "view", "mode"),
    [
        ("#room-start", None, DUPLICATE),
        ("#roster-manage", None, DUPLICATE),
        ("#sim-join", None, DUPLICATE),
        ("#devices > .card", "table", DUPLICATE),  # the devices, on the table's own view
        (".card.penalty", None, "Klassiek: om beurten"),  # the host's penalty at a classic table
    ],
)
def test_a_part_the_director_unfolds_stays_unfolded_when_a_frame_redraws_it_at_once(
    browser: Browser, server: ServerProcess, part: str, view: str | None, mode: str
) -> None:
    """The tap and a redraw in the same moment (a slip or another centre's frame coming in):
    the browser says "toggle" only a task after the tap, too late for that redraw. Every
    folding part goes through ``ui.folding``; these are the director's and the host's."""
    director = open_app(browser, server.url, "nl")
    create_table(director, ["Anna", "Bas"], mode=mode)
    if view is not None:
        show(director, view)
    expect(director.locator(part)).not_to_have_attribute("open", "")
    unfolded = director.evaluate(
        """async (part) => {
            const { changed } = await import('/js/state.js');
            const tapped = document.querySelector(part);
            const toggled = new Promise((done) => tapped.addEventListener("toggle", done));
            tapped.querySelector(":scope > summary").click();
            changed();
            await toggled; // the tapped part, drawn over already, says "toggle" only now
            return document.querySelector(part).open;
        }""",
        part,
    )
    assert unfolded
    director.evaluate("async () => (await import('/js/state.js')).changed()")
    expect(director.locator(part)).to_have_attribute("open", "")
    director.locator(f"{part} > summary").click()  # and folds again at a tap
    expect(director.locator(part)).not_to_have_attribute("open", "")
    director.context.close()
