"""A Dutch player refused in an online game reads online play's words (WS-05): "stenen" and
"rekje", as the game's own strings say, not the sheet's "blokjes" and "plankje"
(docs/decisions.md; the strings themselves are test_terms').
"""

from playwright.sync_api import Page, expect

from tests.web.browser import Phones, show, wait_for_state
from tests.web.online_play import lay, online


def start_online(page: Page) -> None:
    """An online game of Anna and Bas, started on ``page``: Anna's, and her turn."""
    show(page, "start")
    start = page.locator("#start")
    start.get_by_label("Online spelen").check()
    start.get_by_label("Aantal spelers").select_option("2")
    for index, name in enumerate(["Anna", "Bas"], 1):
        start.get_by_label(f"Naam van speler {index}").fill(name)
    start.get_by_role("button", name="Spel beginnen").click()
    page.wait_for_selector("body[data-view=play]")
    wait_for_state(page, "app => app.view?.sheet?.online?.seat === 0")


def test_a_refusal_in_an_online_game_says_stenen(phones: Phones) -> None:
    anna = phones()
    start_online(anna)
    letters = [tile for tile in online(anna)["rack"] if len(tile) == 1 and tile != "?"]
    score, refusal = anna.locator("#play-score"), anna.locator("#play-refusal")

    # The server's refusal, as the score of what is laid and again on Confirm.
    lay(anna, [(letters[0], "H8")])
    single = "De eerste zet moet minstens twee stenen tellen."
    expect(score).to_have_text(single)
    anna.locator("#play-confirm").click()
    expect(refusal).to_have_text(single)
    expect(anna.locator("#play-board .new")).to_have_count(0)  # back on the rack

    # The phone's own: an empty square between the tiles.
    lay(anna, [(letters[0], "H8"), (letters[1], "H10")])
    gap = "Vakje H9 blijft leeg tussen de nieuwe stenen. Er mag geen leeg vakje tussen zitten."
    expect(score).to_have_text(gap)
    anna.locator("#play-confirm").click()
    expect(refusal).to_have_text(gap)
    # Off an online game the same refusal keeps the sheet's words.
    shared = anna.evaluate(
        """async () => (await import('/js/i18n.js')).refusal('gap', {square: 'H9'})"""
    )
    assert shared == gap.replace("stenen", "blokjes")
