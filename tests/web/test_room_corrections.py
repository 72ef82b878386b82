"""The director corrects a crowded room's cells on the phone (DUP-04; decisions, "A room's
figures after a correction"): in a room of more players than the sheet has columns, the
rounds show only the tops, and a closed round's list of judged slips holds each player's cell
to correct — a jury's verdict on a word the list refused, an arbiter's recount — for any
closed round, the player found by name. The player's phone, the standings and the display
follow; another player's phone offers no cell but its own, and that one read-only."""

import uuid

from playwright.sync_api import Browser, Locator, Page, expect

from rules.board.board import Board
from rules.movegen.moves import Move
from rules.room.slips import lay
from tests.server.serving import ServerProcess
from tests.web.browser import Phones, axe, open_app, post, session_of, shot, wait_for_state
from tests.web.rooms import (
    NL,
    TYPED_RACK,
    errors_of,
    join_by_name,
    moves,
    open_room,
    register,
    sheet_of,
    slip,
)
from tests.web.screen_fit import fits_width

RACK = "PLANKEN"
OTHERS = ["Cas", "Dirk", "Eva", "Fleur", "Gijs", "Henk", "Ilse", "Jan", "Kees", "Lot"]
ANNA, BAS, EVA = 0, 1, 4  # seats: Anna and Bas join on their phones first


def jury_points(sheet: dict, word: str, start: str) -> int:
    """What ``word`` from ``start`` across scores on the board of ``sheet``'s open round: the
    points a jury gives a word the list refused."""
    board = Board.from_rows(NL, sheet["board"])
    rack = "".join(sheet["rounds"][-1]["rack"])
    return board.score(lay(board, rack, word, start, "across")).total


def hand_in(server: ServerProcess, table: str, tokens: dict[int, str], slips: dict) -> None:
    """The slips of players without a phone here, over HTTP."""
    for seat, body in slips.items():
        reply = server.api().command(table, tokens[seat], str(uuid.uuid4()), body)
        assert reply.status == 200, reply.body


def place_of(totals: dict[int, int], seat: int) -> str:
    """``seat``'s place among ``totals`` as the phone says it."""
    place = 1 + sum(total > totals[seat] for total in totals.values())
    shared = sum(total == totals[seat] for total in totals.values()) > 1
    return f"{'Gedeelde plaats' if shared else 'Plaats'} {place} van {len(totals)}"


def total(page: Page, seat: int) -> Locator:
    """``seat``'s total in the standings under the rounds on ``page``."""
    return page.locator(f'.dup-standings-list tr[data-player="{seat}"] td').nth(1)


def shown_total(display: Page, name: str) -> Locator:
    """``name``'s total in the display's standings."""
    return display.locator(".room-standings tbody tr").filter(has_text=name).locator("td.total")


def slips_list(director: Page) -> Locator:
    """Every judged slip of a closed round on the director's phone, unfolded."""
    every = director.locator("#room-result details.room-all-slips")
    if every.get_attribute("open") is None:
        every.locator("summary").click()
    expect(every.locator(".room-results")).to_be_visible()
    return every


def test_the_director_corrects_any_players_cell_of_any_closed_round_in_a_crowded_room(
    browser: Browser, phones: Phones, server: ServerProcess
) -> None:
    director = phones()
    code = open_room(director)
    table = session_of(director)["table"]
    anna, bas = phones(), phones()
    errors = [errors_of(page) for page in (director, anna, bas)]
    join_by_name(anna, code, "Anna")
    join_by_name(bas, code, "Bas")
    tokens: dict[int, str] = {}  # the players without a phone here, by seat
    for name in OTHERS:
        joined = register(server, code, name)
        tokens[joined["seat"]] = joined["token"]
    assert sorted(tokens) == list(range(2, 12))
    display = open_app(browser, server.url, "nl", f"/display.html#join={code}")
    display.set_viewport_size({"width": 1280, "height": 720})

    # Round 1: PLANKEN typed; Anna hands in KLANP, a word the list refuses.
    director.locator("#room-start > summary").click()
    director.get_by_label(TYPED_RACK).fill(RACK)
    director.get_by_role("button", name="Dit plankje gebruiken").click()
    wait_for_state(anna, "app => app.view.sheet.rounds[0].rack.length === 7")
    sheet = sheet_of(anna)
    found, top = moves(sheet)
    lesser = sorted({m.score for m in found if m.score < top.score}, reverse=True)
    jury = jury_points(sheet, "KLANP", "H4")
    assert 0 < jury < top.score
    turn = {"game": sheet["started"], "player": ANNA, "number": 0}
    post(anna, server, {"type": "submit_slip", "word": "KLANP", "start": "H4",
                        "direction": "across", "turn": turn})  # fmt: skip
    chosen: dict[int, Move] = {BAS: next(m for m in found if m.score == lesser[-1])}
    for i, seat in enumerate(sorted(tokens)):  # the top twice (no solo), then lesser moves
        points = top.score if i < 2 else lesser[min(i, len(lesser) - 1)]
        chosen[seat] = next(m for m in found if m.score == points)
    post(bas, server, slip(chosen[BAS], sheet["started"], BAS))
    hand_in(server, table, tokens, {s: slip(chosen[s], sheet["started"], s) for s in tokens})
    director.get_by_role("button", name="Ronde sluiten: top zoeken").click()
    wait_for_state(anna, "app => app.view.sheet.rounds[0].results.length === 12")
    totals = {seat: move.score for seat, move in chosen.items()} | {ANNA: 0}
    expect(anna.locator("#room-mine")).to_contain_text("niet in de lijst")
    expect(anna.locator("#room-place")).to_have_text(place_of(totals, ANNA))

    # The rounds on the director's phone have no column a player: the round's list of
    # slips holds the cells, the player found by name.
    expect(director.locator(".dup-rounds thead th")).to_have_count(2)
    every = slips_list(director)
    expect(every.locator(".room-results tbody tr")).to_have_count(12)
    director.locator("#room-result").get_by_label("Speler zoeken").fill("ann")
    expect(every.locator(".room-results tbody tr")).to_have_count(1)
    cell = every.get_by_label("Ronde 1, Anna", exact=True)
    expect(cell).to_be_editable()
    expect(cell).to_have_value("0")
    assert axe(director, "#room-result") == []
    director.set_viewport_size({"width": 390, "height": 844})
    # In the page, at once: the list may be drawn anew between finding it and scrolling.
    director.evaluate("document.getElementById('room-all-slips').scrollIntoView()")
    shot(director, "room-corrections-12-director", full_page=False)
    fits_width(director, 390, 844)

    # Not a number: said, and the cell as it stands again.
    cell.fill("veel")
    cell.press("Enter")
    expect(director.get_by_role("alert")).to_be_visible()
    expect(cell).to_have_value("0")

    # The jury accepts KLANP: the director types its score; Enter sends it.
    cell.fill(str(jury))
    cell.press("Enter")
    totals[ANNA] = jury
    for page in (director, anna, bas):
        wait_for_state(page, f"app => app.view.sheet.rounds[0].scores[{ANNA}] === {jury}")
        expect(total(page, ANNA)).to_have_text(str(jury))
    expect(cell).to_be_focused()
    expect(every.locator(f'tr[data-player="{ANNA}"] td').nth(2)).to_have_text(str(jury - top.score))
    expect(anna.locator("#room-mine")).to_contain_text(str(jury))
    expect(anna.locator("#room-place")).to_have_text(place_of(totals, ANNA))
    expect(shown_total(display, "Anna")).to_have_text(str(jury))

    # Bas's phone: no slip list of the room, no cell of another player, his own read-only.
    expect(bas.locator(".room-results")).to_have_count(0)
    expect(bas.locator("input.dup-cell:not([readonly])")).to_have_count(0)
    expect(bas.get_by_label("Ronde 1, Anna")).to_have_count(0)
    expect(bas.get_by_label("Ronde 1, Bas", exact=True)).not_to_be_editable()

    # Round 2 drawn: while slips come in the director types in Eva's cell of round 1 (the
    # round that closed last), and neither the focus nor what is typed is lost.
    director.locator("#room-result").get_by_label("Speler zoeken").fill("Eva")
    cell = every.get_by_label("Ronde 1, Eva", exact=True)
    eva_before = chosen[EVA].score
    director.locator("#room-draw").click()
    wait_for_state(anna, "app => app.view.sheet.rounds[1].rack.length === 7")
    second = sheet_of(anna)
    found, top2 = moves(second)
    cell.focus()
    cell.press("Control+a")
    cell.press_sequentially(str(eva_before + 1)[:1])
    hand_in(server, table, tokens, {s: slip(top2, second["started"], s, 1) for s in (2, 3)})
    wait_for_state(director, "app => app.view.sheet.room.slips.length === 2")
    expect(cell).to_be_focused()
    expect(cell).to_have_value(str(eva_before + 1)[:1])
    cell.press_sequentially(str(eva_before + 1)[1:])
    cell.press("Enter")
    wait_for_state(anna, f"app => app.view.sheet.rounds[0].scores[{EVA}] === {eva_before + 1}")
    totals[EVA] += 1
    expect(total(director, EVA)).to_have_text(str(totals[EVA]))

    # Round 2 closed: the list shows it; round 1 is a choice away, and Bas's cell there is
    # corrected (a recount), on his own phone too.
    hand_in(server, table, tokens, {s: slip(top2, second["started"], s, 1) for s in (4, 5)})
    director.locator("#room-close").click()
    wait_for_state(bas, "app => app.view.sheet.rounds[1].results.length === 12")
    for seat in totals:
        totals[seat] += top2.score if seat in (2, 3, 4, 5) else 0
    expect(every.locator("summary")).to_contain_text("ronde 2")
    director.locator("#room-result").get_by_label("Speler zoeken").fill("")
    expect(every.locator(".room-results tbody tr")).to_have_count(12)
    expect(every.get_by_label("Ronde 2, Bas", exact=True)).to_have_value("0")
    every.get_by_label("Ronde", exact=True).select_option(label="1")
    expect(every.locator("summary")).to_contain_text("ronde 1")
    bas_cell = every.get_by_label("Ronde 1, Bas", exact=True)
    recount = chosen[BAS].score + 5
    bas_cell.fill(str(recount))
    bas_cell.press("Tab")  # leaving the cell sends it, as Enter does
    totals[BAS] += 5
    wait_for_state(director, f"app => app.view.sheet.rounds[0].scores[{BAS}] === {recount}")
    expect(every.get_by_label("Ronde 1, Cas", exact=True)).to_be_focused()  # the next cell
    wait_for_state(bas, f"app => app.view.sheet.rounds[0].scores[{BAS}] === {recount}")
    expect(bas.get_by_label("Ronde 1, Bas", exact=True)).to_have_value(str(recount))
    expect(total(bas, BAS)).to_have_text(str(totals[BAS]))
    expect(total(director, BAS)).to_have_text(str(totals[BAS]))
    expect(anna.locator("#room-place")).to_have_text(place_of(totals, ANNA))
    expect(shown_total(display, "Bas")).to_have_text(str(totals[BAS]))
    shot(director, "room-corrections-12-earlier-round", full_page=False)
    assert errors == [[] for _ in errors]
    display.context.close()
