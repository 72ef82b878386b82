"""The round's top explained on every room screen (GEN-08, SCR-17), and the open round's rack
read from the back of the room.

After a close, the director's phone and a player's show under the top each of its words with
the formula the server scored it by (the calculator's), and the bingo: the lines add up to the
top's points (once the director has corrected the top's points, the word alone). The room
display shows them too, and the rack the whole room copies in tiles whose letters are as large
as the clock's digits (the same type, compared by size), on one line, a blank marked "?" and
named in words; nothing runs off the screen, in a room of three and in a room of 200 whose
standings turn in pages beside the news.
"""

import re
import uuid

from playwright.sync_api import Browser, Locator, Page, expect

from rules.board.board import Board
from tests.server.serving import ServerProcess
from tests.web.browser import (
    create_table,
    join_table,
    missing_strings,
    open_app,
    post,
    shot,
    wait_for_state,
)
from tests.web.display_rooms import NAMES, closed_room, displayed, laid_out
from tests.web.rooms import DUPLICATE, NL, moves, sheet_of
from tests.web.screen_fit import fits, spilled

# Racks typed by the director, each round's top known (``moves`` finds it as the server does).
BINGO = "PLANKEN"  # PLANKEN down from C8: one word and the bingo, 82
CROSSED = "TWONEPU"  # then OUWE down from F7, which makes four cross words: five lines
BLANK = "ENORST?"  # then WEERSTONd, its blank a 0 in the formula, and the bingo
SIZES = [(1280, 720), (1920, 1080)]

# The display's rack: each letter's type and the clock's, the rows the tiles make, what a
# blank shows in place of a letter, and the rack's name.
RACK = """() => {
  const size = (element) => parseFloat(getComputedStyle(element).fontSize);
  const tiles = [...document.querySelectorAll('#display-rack .rack-tile')];
  const faces = tiles.map((tile) => tile.querySelector('.face'));
  const clock = document.querySelector('.clock-time');
  return {
    letters: faces.map(size), clock: size(clock),
    same_type: faces.every((face) => getComputedStyle(face).fontFamily
      === getComputedStyle(clock).fontFamily),
    rows: new Set(tiles.map((tile) => Math.round(tile.getBoundingClientRect().top))).size,
    blanks: tiles.filter((tile) => tile.classList.contains('blank')).map((tile) => {
      const face = tile.querySelector('.face');
      const mark = getComputedStyle(face, '::before');
      return { mark: mark.content, size: parseFloat(mark.fontSize),
        width: face.getBoundingClientRect().width, visible: mark.visibility };
    }),
    label: document.querySelector('#display-rack').getAttribute('aria-label'),
  };
}"""


def expected(sheet: dict) -> tuple[list[str], int]:
    """The open round's top as a close will play it: a line a word, "WORD formula", and the
    line of the bingo; and its points."""
    _, top = moves(sheet)
    assert top is not None
    scored = Board.from_rows(NL, sheet["board"]).score(top.play)
    lines = [f"{word.word} {word.formula}" for word in scored.words]
    if scored.bingo:
        lines.append(f"+{scored.bingo} alle letters")
    return lines, top.score


def adds_up(lines: list[str]) -> int:
    """What the lines add up to: every formula's result, and the bingo."""
    total = 0
    for line in lines:
        bonus = re.fullmatch(r"\+(\d+) alle letters", line)
        total += int(bonus[1]) if bonus else int(re.search(r" = (\d+)$", line)[1])
    return total


def formulas(page: Page, scope: str) -> Locator:
    return page.locator(f"{scope} .room-formulas li")


def close(
    server: ServerProcess, director: Page, rack: str, pages: list[Page]
) -> tuple[list[str], int]:
    """The director types ``rack`` and closes the round; once every page has the top, what
    its formula lines should be and its points."""
    index = len(sheet_of(director)["rounds"]) - 1
    post(director, server, {"type": "set_rack", "rack": rack, "round": index, "force": True})
    lines, points = expected(sheet_of(director))
    post(director, server, {"type": "close_round", "round": index})
    for page in pages:
        wait_for_state(page, f"app => app.view.sheet.rounds[{index}].top !== null")
    return lines, points


def test_the_tops_formula_shows_on_the_phones_and_the_display_with_a_large_rack(
    browser: Browser, server: ServerProcess
) -> None:
    director = open_app(browser, server.url, "nl")
    code = create_table(director, ["Anna", "Bas", "Cas"], mode=DUPLICATE)
    anna = open_app(browser, server.url, "nl")
    join_table(anna, code, "Anna")
    display = open_app(browser, server.url, "nl", f"/display.html#join={code}")
    display.set_viewport_size({"width": 1280, "height": 720})
    pages = [director, anna, display]

    # A bingo of one word: its formula, then the bingo; they make the top's 82.
    lines, points = close(server, director, BINGO, pages)
    assert points == 82 and len(lines) == 2 and adds_up(lines) == points, lines
    for phone in (director, anna):
        expect(phone.locator("#room-top-line")).to_contain_text(f"{points} punten")
        expect(formulas(phone, "#room-result")).to_have_text(lines)
    shot(director, "room-top-formula-bingo-director")
    shot(anna, "room-top-formula-bingo-player", full_page=False)
    expect(formulas(display, ".room-top")).to_have_text(lines)
    expect(display.locator(".room-top .room-points")).to_have_text(str(points))

    # The director corrects the top's cell: no word's score or formula is left beside
    # points it no longer makes; the word stays. Then back to what the server scored.
    for corrected in (points - 2, points):
        post(director, server, {"type": "correct_cell", "round": 0, "player": None,
                                "points": corrected})  # fmt: skip
        shown = 2 if corrected == points else 0
        for phone in (director, anna):
            expect(phone.locator("#room-top-line")).to_contain_text(f"{corrected} punten")
            expect(formulas(phone, "#room-result")).to_have_count(shown)
        expect(display.locator(".room-top .room-points")).to_have_text(str(corrected))
        expect(display.locator(".room-top .room-words")).to_have_text(
            "PLANKEN 32 · +50 alle letters" if shown else "PLANKEN"
        )
        expect(formulas(display, ".room-top")).to_have_count(shown)

    # Five words: a line each, no bingo.
    lines, points = close(server, director, CROSSED, pages)
    assert len(lines) == 5 and adds_up(lines) == points, lines
    for phone in (director, anna):
        expect(formulas(phone, "#room-result")).to_have_text(lines)
    shot(anna, "room-top-formula-words-player", full_page=False)
    expect(formulas(display, ".room-top")).to_have_text(lines)

    # The next rack on the display, with a blank: large, on one line, the blank a "?".
    round_ = len(sheet_of(director)["rounds"]) - 1
    post(director, server, {"type": "set_rack", "rack": BLANK, "round": round_, "force": True})
    expect(display.locator("#display-rack .rack-tile")).to_have_count(7)
    for width, height in SIZES:
        large_rack(display, width, height)
        expect(formulas(display, ".room-top")).to_have_text(lines)
        for line in formulas(display, ".room-top").all():
            expect(line).to_be_in_viewport(ratio=1)
        shot(display, f"display-rack-{width}x{height}", full_page=False)

    # A top with the blank: its 0 in the formula, and the bingo.
    lines, points = close(server, director, BLANK, pages)
    assert " + 0) × 3" in lines[0] and adds_up(lines) == points, lines
    for phone in (director, anna):
        expect(formulas(phone, "#room-result")).to_have_text(lines)
    shot(anna, "room-top-formula-blank-player", full_page=False)
    for page in pages:
        assert missing_strings(page) == []
        page.context.close()


def large_rack(display: Page, width: int, height: int, ellipsis: bool = False) -> dict:
    """The display at ``width``×``height`` fits its screen (with ``ellipsis`` a long name
    on a page of standings may end in "…"), and its rack is as large as its clock, on one
    line, the blank marked and named."""
    fits(display, width, height, ellipsis)
    assert spilled(display) == []
    rack = display.evaluate(RACK)
    assert rack["same_type"] and min(rack["letters"]) >= rack["clock"], rack
    assert rack["rows"] == 1, rack
    assert rack["blanks"] and all(
        blank["mark"] == '"?"' and blank["size"] >= rack["clock"] and blank["width"] > 0
        and blank["visible"] == "visible" for blank in rack["blanks"]
    ), rack  # fmt: skip
    assert re.search(r"\bblanco\b", rack["label"]), rack
    for tile in display.locator("#display-rack .rack-tile").all():
        expect(tile).to_be_in_viewport(ratio=1)
    return rack


def test_a_room_of_200s_display_shows_the_rack_large_beside_its_pages(
    browser: Browser, server: ServerProcess
) -> None:
    """The paged layout of a large room: the rack in a band under the board and the news,
    the standings' pages beside them, the top's formula in the news."""
    room = closed_room(server, NAMES)
    api = server.api()
    reply = api.command(room.table, room.host, str(uuid.uuid4()),
                        {"type": "set_rack", "rack": BLANK, "round": 1, "force": True})  # fmt: skip
    assert reply.status == 200, reply.body
    for width, height in SIZES:
        display = displayed(browser, server, room.code, width, height)
        expect(display.locator("#display-rack .rack-tile")).to_have_count(7)
        expect(display.locator(".room-grid")).to_have_class(re.compile(r"\bpaged\b"))
        large_rack(display, width, height, ellipsis=True)
        rows = laid_out(display, width, height)  # names of 24 px at least, nothing cut
        assert rows == room.rows[: len(rows)] and len(rows) >= 15, rows
        lines = formulas(display, ".room-top")
        expect(lines).to_have_count(2)  # PLANKEN and the bingo
        assert adds_up(lines.all_inner_texts()) == room.top.score
        for line in lines.all():
            expect(line).to_be_in_viewport(ratio=1)
        shot(display, f"display-200-rack-{width}x{height}", full_page=False)
        assert missing_strings(display) == []
        display.context.close()
