"""The tile panel (TRK): the set letter by letter, what is left of it during a game, the two
numbers above the list, moves entered as points only, and the over-use warning."""

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import create_table, missing_strings, open_app, post, shot, show

PLANK = {"type": "record_move", "board": {"start": "H4", "direction": "across", "letters": "PLANK"}}


def missing_here(page: Page) -> list[str]:
    """Missing keys of this panel's strings (other screens test their own)."""
    return [k for k in missing_strings(page) if k.startswith(("tiles.", "print.", "notice."))]


def open_panel(page: Page, title: str = "Letterverdeling") -> None:
    show(page, "tiles" if page.locator("#tab-tiles").count() else "start")
    if page.locator("#tiles details").get_attribute("open") is None:
        page.locator("#tiles summary", has_text=title).click()
    expect(page.locator("#tiles details")).to_have_attribute("open", "")


def count(page: Page, letter: str):
    return page.locator(f'#tiles .tile[data-letter="{letter}"] .count')


def number(page: Page, which: str):
    return page.locator(f'#tiles [data-number="{which}"]')


@pytest.mark.parametrize(
    ("language", "title", "kinds", "letter", "shown"),
    [
        ("nl", "Letterverdeling", 26, "E", "×18"),  # EDN-11: E 18 of 102
        ("it", "Riquadro delle tessere", 21, "O", "×15"),  # EDN-24: O the most frequent
        ("pl", "Panel zestawu płytek", 32, "Ź", "×1"),  # EDN-31: Ź is worth 9
        ("en", "Tile distribution", 26, "Z", "×1"),
    ],
)
def test_with_no_game_the_panel_shows_the_set_of_the_phone_language(
    browser: Browser, server: ServerProcess, language, title, kinds, letter, shown
) -> None:
    page = open_app(browser, server.url, language)
    open_panel(page, title)
    tiles = page.locator("#tiles .tile")
    expect(tiles).to_have_count(kinds + 1)  # every letter, then the blanks
    expect(count(page, letter)).to_have_text(shown)
    expect(count(page, "?")).to_have_text("×2")  # EDN-04: two blanks in every set
    shot(page, f"tiles-set-{language}")
    assert missing_here(page) == []
    page.context.close()


@pytest.mark.parametrize(
    ("edition", "letter", "value", "summary"),
    [
        ("nl", "Q", "10", "102 letterblokjes, waarvan 2 blanco's; samen 230 punten"),  # EDN-12
        ("pl", "Ź", "9", "100 letterblokjes, waarvan 2 blanco's; samen 190 punten"),
        ("it", "Z", "8", "120 letterblokjes, waarvan 2 blanco's; samen 293 punten"),
    ],
)
def test_the_panel_follows_the_calculators_edition_and_so_does_the_print_link(
    phone: Page, edition, letter, value, summary
) -> None:
    open_panel(phone)
    show(phone, "score")
    phone.locator("#calc-edition").select_option(edition)
    show(phone, "start")
    expect(phone.locator(f'#tiles .tile[data-letter="{letter}"] .value')).to_have_text(value)
    expect(phone.locator("#tiles .tiles-body")).to_contain_text(summary)
    link = phone.get_by_role("link", name="Letteroverzicht:")
    expect(link).to_have_attribute("href", f"/print.html?page=tiles&edition={edition}")


def test_after_plank_five_letters_are_one_fewer(phone: Page, server: ServerProcess) -> None:
    create_table(phone, ["Anna", "Bas"])
    open_panel(phone)
    post(phone, server, PLANK)
    for letter, left in {"P": "1/2", "L": "2/3", "A": "5/6", "N": "9/10", "K": "2/3"}.items():
        expect(count(phone, letter)).to_have_text(left)
    expect(count(phone, "E")).to_have_text("18/18")
    expect(number(phone, "a")).to_have_text("97")  # 102 − 5
    expect(number(phone, "b")).to_have_text("83")  # 97 − 2 × 7
    expect(phone.locator("#tiles .tiles-numbers")).to_contain_text("Nog niet op het bord")
    expect(phone.locator("#tiles .tiles-points-only")).to_have_count(0)
    phone.locator("#tiles").scroll_into_view_if_needed()
    shot(phone, "tiles-after-plank")


def test_a_used_up_letter_is_greyed(phone: Page, server: ServerProcess) -> None:
    create_table(phone, ["Anna", "Bas"])
    open_panel(phone)
    post(phone, server, {"type": "record_move", "typed": [[["Q", None, False]]]})
    expect(phone.locator('#tiles .tile[data-letter="Q"]')).to_have_class("tile gone")
    expect(count(phone, "Q")).to_have_text("0/1")


@pytest.mark.parametrize(
    ("edition", "players", "not_on_board", "in_bag"),
    [
        ("nl", 2, "102", "88"),  # TRK-08, NL:106
        ("it", 4, "120", "92"),  # TRK-08, IT:91: 28 out, 92 left
        ("pl", 2, "100", "86"),  # TRK-08, PL:95
        ("pl", 4, "100", "72"),  # TRK-08, PL:95: 28 dealt, 72 left
    ],
)
def test_bag_facts_at_the_start_of_a_game(
    phone: Page, edition, players, not_on_board, in_bag
) -> None:
    create_table(phone, ["Anna", "Bas", "Cor", "Dirk"][:players], edition=edition)
    open_panel(phone)
    expect(number(phone, "a")).to_have_text(not_on_board)
    expect(number(phone, "b")).to_have_text(in_bag)


def test_moves_entered_as_points_only_are_not_counted_and_a_line_says_how_many(
    phone: Page, server: ServerProcess
) -> None:
    create_table(phone, ["Anna", "Bas"])
    open_panel(phone)
    post(phone, server, {"type": "enter_points", "points": 30})
    line = phone.locator("#tiles .tiles-points-only")
    expect(line).to_have_text("Zetten alleen als punten ingevoerd (tellen hier niet mee): 1")
    expect(number(phone, "a")).to_have_text("102")
    post(phone, server, PLANK)
    post(phone, server, {"type": "enter_points", "points": 12})
    expect(line).to_have_text("Zetten alleen als punten ingevoerd (tellen hier niet mee): 2")
    expect(number(phone, "a")).to_have_text("97")


def test_a_letter_played_more_often_than_the_set_has_warns_in_red(
    phone: Page, server: ServerProcess
) -> None:
    create_table(phone, ["Anna", "Bas"])
    open_panel(phone)
    zz = {"type": "record_move", "typed": [[["Z", None, False], ["Z", None, False]]]}
    post(phone, server, zz)
    expect(count(phone, "Z")).to_have_text("0/2")
    expect(phone.locator("#tiles .tiles-warnings")).to_have_count(0)
    post(phone, server, zz)
    warning = phone.locator("#tiles .tiles-warnings li")
    expect(warning).to_have_count(1)
    expect(warning).to_contain_text("Z is 4 keer gelegd, maar de set heeft er maar 2")
    z = phone.locator('#tiles .tile[data-letter="Z"]')
    expect(z).to_have_class("tile over")
    expect(z).to_contain_text("-2/2")
    expect(z.locator(".sr-only")).to_have_text("Z, waarde 4: 2 te veel gelegd, de set heeft er 2")
    phone.locator("#tiles").scroll_into_view_if_needed()
    shot(phone, "tiles-over-use")
    show(phone, "sheet")  # the sheet lists it too, from the tile panel's warnings
    notice = phone.locator(".notices [data-code=over_use]")
    expect(notice).to_have_count(1)
    expect(notice).to_contain_text("Z is 4 keer gelegd")


def test_blanks_count_against_the_edition_blanks(phone: Page, server: ServerProcess) -> None:
    create_table(phone, ["Anna", "Bas"])
    open_panel(phone)
    post(phone, server, {"type": "record_move", "typed": [[["e", None, False]] * 3]})
    expect(count(phone, "?")).to_have_text("-1/2")  # P-43
    expect(phone.locator("#tiles .tiles-warnings")).to_contain_text("blanco is 3 keer gelegd")


def test_duplicate_counts_the_tops_only(phone: Page, server: ServerProcess) -> None:
    create_table(phone, ["Anna", "Bas"], mode="Duplicate: iedereen dezelfde letters")
    open_panel(phone)
    kaas = [["K", None, False], ["A", None, False], ["A", None, False], ["S", None, False]]
    post(phone, server, {"type": "record_move", "typed": [kaas]})  # Anna's score, not a top
    post(phone, server, {**PLANK, "type": "record_top"})
    expect(count(phone, "K")).to_have_text("2/3")  # PLANK's K only (DUP-16)
    expect(count(phone, "S")).to_have_text("5/5")
    expect(number(phone, "a")).to_have_text("97")
    expect(number(phone, "b")).to_have_text("90")  # P-42: one shared rack, (a) − 7
    expect(phone.locator("#tiles .tiles-numbers")).to_contain_text(
        "In het zakje als het plankje vol is"
    )
    shot(phone, "tiles-duplicate")
