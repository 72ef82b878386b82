"""One table, three phones (the host and two players), as a club table uses it: a board move
on one phone reaches the others, undo takes it off everywhere, the pass-limit notice and the
SBNL settlement show on every phone, and the room display follows."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import create_table, join_table, missing_strings, open_app, shot, show

SBNL = "Wedstrijdregels (SBNL)"


@pytest.fixture
def table(browser: Browser, server: ServerProcess) -> Iterator[tuple[Page, Page, Page, str]]:
    """The host's phone with an SBNL sheet for Anna and Bas, and Anna's and Bas's phones."""
    host = open_app(browser, server.url)
    code = create_table(host, ["Anna", "Bas"], rules=SBNL)
    anna = open_app(browser, server.url)
    join_table(anna, code, "Anna")
    bas = open_app(browser, server.url)
    join_table(bas, code, "Bas")
    yield host, anna, bas, code
    for page in (host, anna, bas):
        assert missing_strings(page) == []
        page.context.close()


def lay(page: Page, start: str, letters: str, down: bool = False) -> None:
    """Board mode: tap the start square (twice to turn it down), type the rack letters."""
    show(page, "score")
    if not page.locator("#calc-board").is_visible():
        page.locator("#calc-mode-board").check()
    square = page.locator(f'#calc-board [data-square="{start}"]')
    square.click()
    if down:
        square.click()
    page.locator("#calc-letters").fill(letters)


def on_board(page: Page, square: str):
    return page.locator(f'#calc-board [data-square="{square}"]')


def totals(page: Page):
    return page.locator(".scoreboard .total")


def test_moves_from_the_board_reach_every_phone_and_undo_takes_them_off(
    table: tuple[Page, Page, Page, str],
) -> None:
    host, anna, bas, _ = table
    lay(anna, "H4", "PLANK")
    expect(anna.locator("#calc-total")).to_contain_text("28")
    anna.get_by_role("button", name="28 voor Anna").click()
    for page in (host, anna, bas):
        expect(totals(page)).to_have_text(["28", "0"])
    lay(bas, "F6", "KRAN", down=True)
    expect(bas.locator("#calculator .formula")).to_have_text(["3 × 3 + 2 + 1 + 1 + 1 × 3 = 16"])
    bas.get_by_role("button", name="16 voor Bas").click()
    for page in (host, anna, bas):
        expect(totals(page)).to_have_text(["28", "16"])
    lay(host, "A1", "")  # the host looks at the board
    expect(on_board(host, "F6")).to_have_accessible_name("F6, drievoudige letterwaarde, K")
    expect(on_board(host, "H6")).to_have_accessible_name("H6, A")
    shot(host, "table-host-after-kraan")
    shot(bas, "table-bas-after-kraan")

    show(host, "sheet")
    host.get_by_role("button", name="Laatste regel ongedaan maken").click()
    for page in (host, anna, bas):
        expect(totals(page)).to_have_text(["28", "0"])
        expect(page.locator(".scoreboard .turn-line")).to_have_text("Bas is aan de beurt")
    show(host, "score")
    expect(on_board(host, "F6")).to_have_accessible_name("F6, drievoudige letterwaarde, leeg")
    expect(on_board(host, "H6")).to_have_accessible_name("H6, A")


def test_the_pass_limit_notice_and_the_sbnl_settlement_show_on_every_phone(
    table: tuple[Page, Page, Page, str],
) -> None:
    host, anna, bas, _ = table
    for page, points in ((anna, 450), (bas, 460)):
        page.get_by_label("Punten, tot 2.000").fill(str(points))
        page.get_by_role("button", name="Punten noteren").click()
        expect(totals(host)).to_contain_text([str(points)])
    for page in (anna, bas, anna):
        expect(page.get_by_role("button", name="Passen")).to_be_enabled()
        before = page.locator(".rounds .line").count()
        page.get_by_role("button", name="Passen").click()
        expect(page.locator(".rounds .line")).to_have_count(before + 1)
    for page in (host, anna, bas):
        expect(page.locator('[data-code="pass_limit"]')).to_be_visible()
    shot(bas, "table-pass-limit")

    # FED-SBNL-10: after the passes each loses their own rack: 450 − 4 = 446, 460 − 15 = 445
    host.get_by_role("button", name="Spel beëindigen").click()
    host.locator("#end-rack-0").fill("4")
    host.locator("#end-rack-1").fill("QAZ")
    host.get_by_role("button", name="Eindstand opmaken").click()
    for page in (host, anna, bas):
        rows = page.locator(".final-table tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(0).locator("th, td")).to_have_text(["Anna", "450", "-4", "446", "1"])
        expect(rows.nth(1).locator("th, td")).to_have_text(["Bas", "460", "-15", "445", "2"])
    shot(anna, "table-final")
