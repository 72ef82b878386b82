"""A room's figures on the phones follow the log (issue 25, items 2 and 5): a correction
that ties the best score takes the solo away on every phone, the display and the printed
sheet, whose ± column makes each player's columns add up to the total; a typed top is a
move, laid on every phone's board."""

import re

from playwright.sync_api import Browser, Page, expect

from rules.board.squares import reference
from tests.server.serving import ServerProcess
from tests.web.browser import (
    create_table,
    join_table,
    open_app,
    post,
    ready,
    shot,
    wait_for_state,
)
from tests.web.printing import print_from
from tests.web.rooms import CLUB, DUPLICATE, moves, sheet_of, typed_rack

PLANK_WITH_BLANK = 26  # PLAnK across the star from H8, the blank as its N


def printed(page: Page) -> Page:
    """The printed game sheet of ``page``'s table, read again."""
    sheet = print_from(page, "page=duplicate-game")
    expect(sheet.locator("table.sheet")).to_be_visible()
    return sheet


def club_room(browser: Browser, server: ServerProcess) -> tuple[Page, str, Page]:
    """A club room of Anna and Bas, its first rack PLA?KET typed: the director's phone, the
    join code and Anna's phone."""
    director = open_app(browser, server.url, "nl")
    code = create_table(director, ["Anna", "Bas"], mode=DUPLICATE, rules=CLUB)
    return director, code, typed_rack(browser, server, director, code, "PLA?KET")


def plank_from_the_star(anna: Page, server: ServerProcess, direction: str) -> None:
    """Anna hands in PLAnK from H8, ``direction``: 26 either way."""
    turn = {"game": sheet_of(anna)["started"], "player": 0, "number": 0}
    post(anna, server, {"type": "submit_slip", "word": "PLAnK", "start": "H8",
                        "direction": direction, "turn": turn})  # fmt: skip


def test_a_correction_moves_the_solo_on_every_screen_and_the_print_adds_up(
    browser: Browser, server: ServerProcess
) -> None:
    director, code, anna = club_room(browser, server)
    bas = open_app(browser, server.url, "nl")
    join_table(bas, code, "Bas")
    room = open_app(browser, server.url, "nl", f"/display.html#join={code}")
    plank_from_the_star(anna, server, "across")
    director.get_by_role("button", name="Ronde sluiten: top zoeken").click()
    phones = (director, anna, bas)
    for page in phones:
        expect(page.locator('.room-results tr[data-player="0"]')).to_contain_text("26 solo +10")
        # Her sheet's column adds up: the solo stands under the round's cell.
        expect(page.locator(".dup-rounds tbody tr").first.locator(".dup-extra")).to_have_text(
            ["+10"]
        )
    expect(room.locator(".room-solo")).to_have_text([" +10"])
    anna.locator(".dup-rounds").scroll_into_view_if_needed()
    shot(anna, "room-solo-sheet", full_page=False)

    # The printed sheet: a ± column beside each player's points, adding up to the total.
    sheet = printed(director)
    expect(sheet.locator("table.sheet thead tr").nth(1).locator("th")).to_have_text(
        ["Punten", "±", "Punten", "±"]
    )
    expect(sheet.locator("table.sheet tbody tr.round").first.locator("td").nth(2)).to_have_text(
        str(PLANK_WITH_BLANK)
    )
    expect(sheet.locator("table.sheet tbody tr.round").first.locator("td").nth(3)).to_have_text(
        "+10"
    )
    total = sheet.locator("table.sheet tfoot tr").first.locator("td")
    expect(total.nth(1)).to_have_text(str(PLANK_WITH_BLANK + 10))
    expect(sheet.locator(".legend")).to_contain_text("±")
    sheet.emulate_media(media="print")
    shot(sheet, "print-room-solo")

    # The director corrects Bas's cell to Anna's score (a paper slip judged by hand): Anna
    # is no longer alone at the best score, and her solo goes on every screen.
    post(director, server, {"type": "correct_cell", "round": 0, "player": 1,
                            "points": PLANK_WITH_BLANK})  # fmt: skip
    for page in phones:
        wait_for_state(page, "app => app.view.sheet.rounds[0].scores[1] === 26")
        row = page.locator('.room-results tr[data-player="0"]')
        expect(row).not_to_contain_text("solo")
        expect(page.locator(".dup-rounds .dup-extra")).to_have_count(0)
        expect(page.locator('.room-results tr[data-player="1"]')).to_contain_text("26")
    expect(room.locator(".room-solo")).to_have_count(0)
    shot(bas, "room-solo-corrected")
    sheet.reload()
    ready(sheet)
    expect(sheet.locator("table.sheet thead tr")).to_have_count(1)  # no ± left to show
    expect(sheet.locator("table.sheet tfoot tr").first.locator("td")).to_have_text(
        [re.compile(r"\d+"), "26", "26"]
    )
    for page in (*phones, room):
        page.context.close()


def test_a_typed_top_is_laid_on_every_phones_board(browser: Browser, server: ServerProcess) -> None:
    director = open_app(browser, server.url, "nl")

    code = create_table(director, ["Anna", "Bas"], mode=DUPLICATE)
    anna = typed_rack(browser, server, director, code, "PLANKEN")
    bas = open_app(browser, server.url, "nl")
    join_table(bas, code, "Bas")
    room = open_app(browser, server.url, "nl", f"/display.html#join={code}")
    wait_for_state(bas, "app => app.view.sheet.rounds[0].rack.length === 7")

    # The director types a top that is not the best: a move from the rack, with its square.
    found, best = moves(sheet_of(anna))
    assert best is not None
    typed = next(m for m in found if m.word != best.word and len(m.play.tiles) > 2)
    letters = "".join(tile.notation for _, tile in typed.play.tiles)
    post(
        director,
        server,
        {
            "type": "record_top",
            "round": 0,
            "board": {
                "start": typed.start.name,
                "direction": str(typed.direction),
                "letters": letters,
            },
        },
    )
    line = f"{typed.word} op {reference(typed.start, typed.direction, 'fisf')}"  # FISF rules
    for page in (director, anna, bas):
        expect(page.locator("#room-top-line")).to_contain_text(line)
        expect(page.locator("#room-top-line")).to_contain_text(f"{typed.score} punten")
        expect(page.locator("#room-top-line")).not_to_contain_text("geen zet")
    squares = {square.name: tile.notation.upper() for square, tile in typed.play.tiles}
    for square, face in squares.items():
        expect(
            room.locator(f'.room-board td.tile:has([data-square="{square}"]) .face')
        ).to_have_text(face)
    shot(room, "room-typed-top", full_page=False)

    # The next rack: the slip board of every player's phone shows the typed top laid.
    director.get_by_role("button", name="Plankje trekken").click()
    for page in (anna, bas):
        wait_for_state(page, "app => app.view.sheet.rounds[1].rack.length === 7")
        for square, face in squares.items():
            expect(
                page.locator(f'#slip-board td.tile:has([data-square="{square}"]) .face')
            ).to_have_text(face)
    shot(anna, "slip-board-typed-top", full_page=False)
    for page in (director, anna, bas, room):
        page.context.close()


def test_a_slip_down_the_board_says_so_in_a_club_room_and_on_its_printed_sheet(
    browser: Browser, server: ServerProcess
) -> None:
    # Club rules write a place as a square and a direction (not FISF's 8H): a slip laid down
    # from H8 reads "H8 ↓" in the results, never as the across slip from the same square.
    director, _, anna = club_room(browser, server)
    plank_from_the_star(anna, server, "down")
    director.get_by_role("button", name="Ronde sluiten: top zoeken").click()
    for page in (director, anna):
        expect(page.locator('.room-results tr[data-player="0"] td').first).to_have_text(
            "PLAnK\u00a0H8\u00a0↓"
        )
    where = printed(director).locator("table.sheet tbody tr.round .where").first
    expect(where).to_have_text(re.compile(r"^[A-O]\d+\u00a0[↓→]$"))
