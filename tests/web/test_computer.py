"""Online play against the computer on a phone (issue 14, point 5): one phone starts a
Woordstrijd game with the second seat the computer's, lays its first word by tapping tiles
and squares, and the computer's reply arrives on its own — its move on the board, marked
as the last, and the turn back with the phone. Another phone looking for a seat by the code
finds the computer's taken and not to be chosen. axe finds nothing serious on the start form
with the computer's choice or on the game.
"""

import re

from playwright.sync_api import expect

from tests.web.browser import Phones, axe, shot, show, wait_for_state
from tests.web.online_play import first_word, lay, online, sheet

ONLINE = "Online spelen"


def test_a_phone_plays_a_woordstrijd_game_against_the_computer(phones: Phones) -> None:
    anna = phones()
    show(anna, "start")
    start = anna.locator("#start")
    start.get_by_label(ONLINE).check()
    expect(start.get_by_label("Taal en letterset")).to_have_value("woordstrijd")
    start.get_by_label("Naam van speler 1").fill("Anna")
    who = start.get_by_label("Wie speelt op plaats 2")
    expect(who).to_have_value("")  # a person, unless chosen
    who.select_option(label="De computer: een goede zet")
    expect(start.get_by_label("Naam van speler 2")).to_have_attribute("placeholder", "Computer")
    expect(start.locator(".names .hint").last).to_contain_text("60–90%")
    assert axe(anna) == []
    shot(anna, "start-computer-nl")
    start.get_by_role("button", name="Spel beginnen").click()
    anna.wait_for_selector("body[data-view=play]")
    wait_for_state(anna, "app => app.view?.sheet?.online?.seat === 0")
    game = sheet(anna)
    assert game["players"] == ["Anna", "Computer"]
    assert game["online"]["computers"] == [None, "good"]
    expect(anna.locator(".play-turn")).to_have_text("Jij bent aan de beurt.")
    # Named as the form names it, the computer's seat says its strength, not "computer" twice.
    expect(anna.locator(".play-players [data-player='1']")).to_contain_text(
        "Computer (goede zetten): 7"
    )

    # Anna's first word across the centre; the computer answers by itself.
    word = first_word(anna)
    lay(anna, list(zip(word, [f"H{8 + i}" for i in range(len(word))], strict=True)))
    anna.locator("#play-confirm").click()
    wait_for_state(anna, "app => app.view.sheet.turns[0] === 1")
    wait_for_state(anna, "app => app.view.sheet.turns[1] === 1 && app.view.sheet.to_move === 0")
    last = online(anna)["last"]
    assert last["player"] == 1 and last["kind"] in ("move", "exchange", "pass")
    expect(anna.locator(".play-turn")).to_have_text("Jij bent aan de beurt.")
    if last["kind"] == "move":  # marked on the board, and said with its words
        for square in last["squares"]:
            cell = anna.locator(f'#play-board td:has([data-square="{square}"])')
            expect(cell).to_have_class(re.compile(r"\bmarked\b"))
        expect(anna.locator(".play-last")).to_contain_text(f"Computer: {last['words'][0][0]}")
    assert len(online(anna)["rack"]) == 7 and online(anna)["racks"] == [7, 7]
    anna.locator("#play-whole-board").click()  # zoomed in since the tap: the whole board
    expect(anna.locator("#play-board.zoomed")).to_have_count(0)
    shot(anna, "play-computer-nl")
    assert axe(anna) == []

    # Another phone looking for a seat finds the computer's taken, not to be chosen.
    code = anna.evaluate("() => JSON.parse(localStorage.getItem('tilestream.session')).code")
    bas = phones()
    show(bas, "start")
    bas.get_by_label("Tafelcode").fill(code)
    seat = bas.locator("#start .join").get_by_label("Computer · goede zetten")
    expect(seat).to_be_disabled()


def test_a_computer_given_a_name_is_said_to_be_the_computer(phones: Phones) -> None:
    anna = phones()
    show(anna, "start")
    start = anna.locator("#start")
    start.get_by_label(ONLINE).check()
    start.get_by_label("Naam van speler 1").fill("Anna")
    start.get_by_label("Wie speelt op plaats 2").select_option(
        label="De computer: steeds zijn beste zet"
    )
    start.get_by_label("Naam van speler 2").fill("Robbie")
    start.get_by_role("button", name="Spel beginnen").click()
    wait_for_state(anna, "app => app.view?.sheet?.online?.seat === 0")
    expect(anna.locator(".play-players [data-player='1']")).to_contain_text(
        "Robbie (computer, beste zetten): 7"
    )
