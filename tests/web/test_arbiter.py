"""The arbiter's slips (issue 25, item 4): the director types the paper slip of a player
without a phone — the player, the word, its first square and direction — on the room's card,
and at the close it is judged exactly as a phone's slip is: the same word from the same
square scores the same as the phone's, a word not in the list is said so, a player without a
slip has none."""

import re
import uuid

from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import Phones, axe, create_table, post, shot
from tests.web.rooms import DUPLICATE, LEXICON, moves, register, sheet_of, slip, typed_rack

RACK = "PLANKEN"
# The rooms here play the duplicate rule set, whose slips give the FISF reference (H4 across,
# 4H down): the arbiter's form asks for it as a player's phone does.


def arbiter_slip(director: Page, player: str, word: str, start: str, down: bool = False) -> None:
    """The director types a paper slip for ``player`` and hands it in."""
    form = director.locator("#arbiter-form")
    form.get_by_label("Speler", exact=True).select_option(label=player)
    form.get_by_label("Woord", exact=True).fill(word)
    form.get_by_label("Referentie", exact=True).fill(start)
    form.get_by_label("Verticaal" if down else "Horizontaal").check()
    form.get_by_role("button", name="Briefje voor deze speler inleveren").click()
    expect(director.get_by_role("status").filter(has_text=f"Het briefje van {player} is binnen"))\
        .to_be_visible()  # fmt: skip


def drawn_room(browser: Browser, phones: Phones, server: ServerProcess) -> tuple[Page, Page]:
    """A room of Anna, Bas, Cas and Dirk, its first rack typed by the director: the
    director's phone and Anna's, the only player with a phone of her own."""
    director = phones()
    code = create_table(director, ["Anna", "Bas", "Cas", "Dirk"], mode=DUPLICATE)
    return director, typed_rack(browser, server, director, code, RACK)


def hand_in_plank(anna: Page, server: ServerProcess) -> None:
    """Anna hands in PLANK on H4 from her phone."""
    sheet = sheet_of(anna)
    found, _ = moves(sheet)
    plank = next(m for m in found if (m.word, m.start.name) == ("PLANK", "H4"))
    post(anna, server, slip(plank, sheet["started"], 0))


def test_the_arbiter_types_paper_slips_judged_as_a_phones_at_the_close(
    browser: Browser, phones: Phones, server: ServerProcess
) -> None:
    assert LEXICON.contains("PLANK") and not LEXICON.contains("KLANP")
    director, anna = drawn_room(browser, phones, server)

    # Anna hands in PLANK on H4 from her phone; the arbiter types a word not in the list for
    # Cas (another player than the one first chosen), then the same as Anna's for Bas; Dirk
    # hands in nothing.
    hand_in_plank(anna, server)
    director.locator("#arbiter > summary").click()
    # The first player without a slip is chosen.
    expect(director.get_by_label("Speler", exact=True)).to_have_value("1")
    assert axe(director, "#arbiter") == []
    arbiter_slip(director, "Cas", "KLANP", "H4")
    expect(director.get_by_label("Speler", exact=True)).to_have_value("1")
    arbiter_slip(director, "Bas", "PLANK", "H4")
    expect(director.locator("#room-slips")).to_have_text("Briefjes binnen: 3 van 4")
    expect(director.locator(".room-slip-list .waiting")).to_have_text(re.compile("Dirk"))
    expect(director.get_by_label("Speler", exact=True)).to_have_value("3")
    expect(director.locator("#arbiter-word")).to_have_value("")  # ready for the next slip
    shot(director, "arbiter-slips-in")

    # A slip that cannot lie on the board is refused at once, on the form, as on a phone.
    director.locator("#arbiter-form").get_by_label("Woord", exact=True).fill("ZZZ")
    director.locator("#arbiter-form").get_by_label("Referentie", exact=True).fill("H8")
    director.get_by_role("button", name="Briefje voor deze speler inleveren").click()
    expect(director.locator("#arbiter-refusal")).to_be_visible()
    expect(director.locator("#room-slips")).to_have_text("Briefjes binnen: 3 van 4")

    director.get_by_role("button", name="Ronde sluiten: top zoeken").click()
    rows = director.locator(".room-results tbody tr")
    expect(rows).to_have_count(4)
    sheet = director.evaluate("async () => (await import('/js/state.js')).app.view.sheet")
    results = {r["player"]: r for r in sheet["rounds"][0]["results"]}
    assert {k: results[k]["kind"] for k in results} == {
        0: "valid",
        1: "valid",
        2: "invalid",
        3: "missing",
    }
    phone_slip, paper_slip = results[0], results[1]
    assert paper_slip["points"] == phone_slip["points"] > 0
    assert (paper_slip["word"], paper_slip["start"]) == (phone_slip["word"], phone_slip["start"])
    points = str(phone_slip["points"])
    for row in (rows.nth(0), rows.nth(1)):
        expect(row).to_contain_text("PLANK H4")
        expect(row.locator("td").nth(1)).to_have_text(points)
    expect(director.locator('.room-results tr[data-player="2"]')).to_contain_text(
        "KLANP: niet in de lijst (KLANP)"
    )
    expect(director.locator('.room-results tr[data-player="3"]')).to_contain_text("geen briefje")
    # Anna's phone sees the paper slips judged as the director does.
    expect(anna.locator('.room-results tr[data-player="1"]')).to_contain_text("PLANK H4")
    expect(anna.locator('.room-results tr[data-player="2"]')).to_contain_text("niet in de lijst")
    shot(director, "arbiter-round-closed")


def test_the_director_unfolds_the_cards_by_keyboard_and_keeps_the_focus_as_slips_come_in(
    browser: Browser, phones: Phones, server: ServerProcess
) -> None:
    """The arbiter's form and the roster's list are drawn only once unfolded (a room of 200:
    200 options and 200 rows at every slip otherwise); the redraw that unfolding causes, and
    every slip's, leaves the keyboard on the summary it stood on."""
    director, anna = drawn_room(browser, phones, server)
    expect(director.locator("#arbiter-form")).to_have_count(0)  # folded: not drawn
    for card, inside in (("#arbiter", "#arbiter-form"), ("#roster-manage", "#roster-list")):
        summary = director.locator(f"{card} > summary")
        summary.focus()
        director.keyboard.press("Enter")
        expect(director.locator(inside)).to_be_visible()
        expect(summary).to_be_focused()
    hand_in_plank(anna, server)
    expect(director.locator("#room-slips")).to_have_text("Briefjes binnen: 1 van 4")
    expect(director.locator("#roster-manage > summary")).to_be_focused()
    director.keyboard.press("Enter")  # folds the roster the keyboard still stands on
    expect(director.locator("#roster-list")).to_have_count(0)
    expect(director.locator("#roster-manage > summary")).to_be_focused()


def test_a_paper_slip_half_typed_stays_as_a_crowd_hands_theirs_in(
    browser: Browser, phones: Phones, server: ServerProcess
) -> None:
    """Forty players hand in their slips while the director types a paper slip: each slip
    redraws the room's card, and the player chosen, the word half typed and the keyboard's
    place in it stay as they were."""
    director = phones()
    code = create_table(director, ["Anna"], mode=DUPLICATE)
    crowd = [register(server, code, f"Speler {n}") for n in range(1, 42)]
    typed_rack(browser, server, director, code, RACK)
    director.locator("#arbiter > summary").click()
    form = director.locator("#arbiter-form")
    form.get_by_label("Speler", exact=True).select_option(label="Speler 41")
    word = form.get_by_label("Woord", exact=True)
    word.press_sequentially("PLA")
    sheet = sheet_of(director)
    found, _ = moves(sheet)
    for n, joined in enumerate(crowd[:-1]):  # Speler 41's slip is the paper one
        handed = slip(found[n % 10], sheet["started"], joined["seat"])
        reply = server.api().command(joined["table"], joined["token"], str(uuid.uuid4()), handed)
        assert reply.status == 200, reply
    expect(director.locator("#room-slips")).to_have_text("Briefjes binnen: 40 van 42")
    expect(word).to_be_focused()
    expect(word).to_have_value("PLA")
    expect(form.get_by_label("Speler", exact=True)).to_have_value(str(crowd[-1]["seat"]))
    director.keyboard.type("NK")
    form.get_by_label("Referentie", exact=True).fill("H4")
    form.get_by_label("Horizontaal").check()
    form.get_by_role("button", name="Briefje voor deze speler inleveren").click()
    expect(director.get_by_role("status").filter(has_text="Het briefje van Speler 41 is binnen"))\
        .to_be_visible()  # fmt: skip
    expect(director.locator("#room-slips")).to_have_text("Briefjes binnen: 41 van 42")
