"""The challenge at a table of three phones (issue 27): the host's, Bas's seat and a room
display. In every classic rule set the latest move is challenged from a phone — Bas's own
button for Anna's valid PLANK, the host's for Anna against Bas's KXK, the arbiter's check
under SBNL — and every phone shows the verdict in Dutch, with the lines it brought, the
totals and the marks in the rounds table; an undo by the host gives the move back."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import (
    Phones,
    axe,
    create_table,
    join_table,
    line_kinds,
    post,
    shot,
    show,
    wait_for_state,
)

PLANK = {"start": "H8", "direction": "across", "letters": "PLANK"}  # Anna: 28
KXK = {"start": "H12", "direction": "down", "letters": "XK"}  # Bas: K·X·K through her K, 14
RULE_SETS = ("house", "pfs-house", "pfs", "sbnl", "figs", "wespa", "naspa")

#: Bas challenges Anna's PLANK (the host checks it under SBNL): what every phone then shows
#: — the verdict, the totals, the kinds of the lines, the marks in the rounds table.
VALID = {
    "house": ("Bas vocht PLANK van Anna aan. De zet is geldig. Dat kost niets.",
              ["28", "0"], ["move"], ["aangevochten: geldig"]),
    "pfs-house": ("Bas vocht PLANK van Anna aan. De zet is geldig. Dat kost niets.",
                  ["28", "0"], ["move"], ["aangevochten: geldig"]),
    "pfs": ("Bas vocht PLANK van Anna aan. De zet is geldig. Dat kost niets.",
            ["28", "0"], ["move"], ["aangevochten: geldig"]),
    "sbnl": ("De jury controleerde PLANK van Anna. De zet is geldig.",
             ["28", "0"], ["move"], ["jury: geldig"]),
    # FIGS art. 30: 10 % of 28 = 2,8 → 3 for the challenger
    "figs": ("Bas vocht PLANK van Anna aan. De zet is geldig. Bas krijgt 3 strafpunten.",
             ["28", "-3"], ["move", "penalty"], ["aangevochten: geldig", "na aanvechten"]),
    "wespa": ("Bas vocht PLANK van Anna aan. De zet is geldig. Anna krijgt 5 punten erbij.",
              ["33", "0"], ["move", "bonus"], ["aangevochten: geldig", "na aanvechten"]),
    "naspa": ("Bas vocht PLANK van Anna aan. De zet is geldig. Bas verliest de beurt.",
              ["28", "0"], ["move", "pass"],
              ["aangevochten: geldig", "beurt verloren na aanvechten"]),
}  # fmt: skip

WITHDRAWN = "Bas neemt de zet terug en verliest de beurt."
NAMED = "Anna vocht KXK van Bas aan. De zet is niet geldig. Niet in de lijst: KXK."
#: The host challenges Bas's KXK for Anna (checks it under SBNL).
INVALID = {
    "house": (f"{NAMED} {WITHDRAWN}", ["28", "0"], ["move", "withdrawn"],
              ["aangevochten: ongeldig"]),
    "pfs-house": (f"{NAMED} {WITHDRAWN}", ["28", "0"], ["move", "withdrawn"],
                  ["aangevochten: ongeldig"]),
    "pfs": (f"{NAMED} {WITHDRAWN}", ["28", "0"], ["move", "withdrawn"],
            ["aangevochten: ongeldig"]),
    # SBNL III.10: the turn's 14 plus 20, and the word stays
    "sbnl": ("De jury controleerde KXK van Bas. De zet is niet geldig. Niet in de lijst: KXK."
             " Bas krijgt 34 strafpunten. Het woord blijft liggen.",
             ["28", "-20"], ["move", "move", "penalty"], ["jury: ongeldig", "na aanvechten"]),
    # FIGS art. 30: withdrawn, and 20 % of 14 = 2,8 → 3
    "figs": (f"{NAMED} {WITHDRAWN} Bas krijgt 3 strafpunten.", ["28", "-3"],
             ["move", "withdrawn", "penalty"], ["aangevochten: ongeldig", "na aanvechten"]),
    # WESPA and NASPA judge the play as a whole: no word is named
    "wespa": (f"Anna vocht KXK van Bas aan. De zet is niet geldig. {WITHDRAWN}", ["28", "0"],
              ["move", "withdrawn"], ["aangevochten: ongeldig"]),
    "naspa": (f"Anna vocht KXK van Bas aan. De zet is niet geldig. {WITHDRAWN}", ["28", "0"],
              ["move", "withdrawn"], ["aangevochten: ongeldig"]),
}  # fmt: skip


@pytest.fixture
def table(phones: Phones) -> tuple[Page, Page, Page]:
    """The host's phone, Bas's and a room display's, at one table, each on the sheet."""
    host = phones()
    code = create_table(host, ["Anna", "Bas"])
    bas, room = phones(), phones()
    join_table(bas, code, "Bas")
    join_table(room, code, "Kijker (alleen lezen)")
    return host, bas, room


def new_game(server: ServerProcess, host: Page, rules: str, *pages: Page) -> None:
    """A new game for Anna and Bas under ``rules``, its start on every phone, each on its sheet."""
    post(host, server, {"type": "start_game", "edition": "nl", "rules": rules,
                        "players": ["Anna", "Bas"]})  # fmt: skip
    seq = host.evaluate("async () => (await import('/js/state.js')).app.view.seq")
    for page in pages:
        wait_for_state(page, f"app => app.view?.seq >= {seq} && app.view.sheet.lines.length == 0")
        show(page, "sheet")


def verdict_everywhere(pages: tuple[Page, ...], shown: tuple[str, list, list, list]) -> None:
    text, totals, kinds, marks = shown
    for page in pages:
        expect(page.locator(".challenge.verdict .verdict-text")).to_have_text(text)
        expect(page.locator(".scoreboard .total")).to_have_text(totals)
        expect(page.locator(".rounds .challenge-note")).to_have_text(marks)
        assert line_kinds(page) == kinds
    # said once as it came, on a phone that only watches
    expect(pages[-1].locator("#messages .message.info")).to_have_text(text)


def test_a_valid_move_challenged_in_each_rule_set(
    server: ServerProcess, table: tuple[Page, Page, Page]
) -> None:
    host, bas, room = table
    for rules in RULE_SETS:
        new_game(server, host, rules, host, bas, room)
        post(host, server, {"type": "record_move", "board": PLANK})
        offer = bas.locator(".challenge")
        expect(offer.get_by_role("heading")).to_have_text("Laatste zet: PLANK van Anna, 28")
        if rules == "sbnl":  # no player challenges: the arbiter checks
            expect(offer).to_contain_text("Met de SBNL-regels vecht niemand aan tafel aan")
            expect(offer.get_by_role("button")).to_have_count(0)
            shot(bas, "challenge-sbnl-seat")
            host.get_by_role("button", name="Door de jury laten controleren").click()
        else:
            if rules == "house":
                shot(bas, "challenge-offer")
                assert axe(bas, ".challenge") == []
            offer.get_by_role("button", name="Aanvechten").click()
        verdict_everywhere((host, bas, room), VALID[rules])
        expect(bas.locator(".challenge").get_by_role("button")).to_have_count(0)
        shot(room, f"challenge-valid-{rules}")


KOK = {"start": "H12", "direction": "down", "letters": "OK"}  # Bas: K·O·K through her K, 7


def test_a_wespa_bonus_stands_beside_the_challenged_move_of_the_second_seat(
    server: ServerProcess, table: tuple[Page, Page, Page]
) -> None:
    """Bas moves second in round 1; Anna, to move in round 2, challenges his valid KOK: his
    +5 is in round 1's row beside the move, said as a bonus, not in round 2's as a penalty."""
    host, bas, room = table
    new_game(server, host, "wespa", host, bas, room)
    post(host, server, {"type": "record_move", "board": PLANK})
    post(bas, server, {"type": "record_move", "board": KOK})
    host.locator(".challenge").get_by_role("button", name="Aanvechten").click()
    for page in (host, bas, room):
        expect(page.locator(".rounds tbody tr")).to_have_count(1)
        bonus = page.locator(".rounds tbody tr").nth(0).locator("td").nth(1).locator(".line-bonus")
        expect(bonus).to_have_text("bonus +5")
        expect(page.locator(".scoreboard .total")).to_have_text(["28", "12"])
    shot(bas, "challenge-wespa-bonus-row", full_page=False)


def test_an_invalid_move_challenged_in_each_rule_set_and_an_undo(
    server: ServerProcess, table: tuple[Page, Page, Page]
) -> None:
    host, bas, room = table
    for rules in RULE_SETS:
        new_game(server, host, rules, host, bas, room)
        post(host, server, {"type": "record_move", "board": PLANK})
        post(bas, server, {"type": "record_move", "board": KXK})
        why = "Met de SBNL-regels vecht niemand" if rules == "sbnl" else "Alleen de anderen kunnen"
        expect(bas.locator(".challenge")).to_contain_text(why)  # his own move
        offer = host.locator(".challenge")
        expect(offer.get_by_role("heading")).to_have_text("Laatste zet: KXK van Bas, 14")
        if rules == "sbnl":
            offer.get_by_role("button", name="Door de jury laten controleren").click()
        else:
            expect(offer.get_by_label("Wie vecht aan")).to_have_value("0")  # Anna, to move
            if rules == "house":
                shot(host, "challenge-host-offer")
                assert axe(host, ".challenge") == []
            offer.get_by_role("button", name="Aanvechten").click()
        verdict_everywhere((host, bas, room), INVALID[rules])
        if rules == "figs":
            assert axe(room, ".classic-sheet") == []  # the verdict and the marks in the table
        shot(bas, f"challenge-invalid-{rules}")

    # The last challenge (NASPA's) and its withdrawal are the host's to strike, not Bas's,
    # whose line the withdrawn word is; struck, Bas's KXK is back.
    expect(bas.get_by_role("button", name="Laatste regel ongedaan maken")).to_have_count(0)
    host.get_by_role("button", name="Laatste regel ongedaan maken").click()
    for page in (host, bas, room):
        expect(page.locator(".scoreboard .total")).to_have_text(["28", "14"])
        expect(page.locator(".challenge.verdict")).to_have_count(0)
        assert line_kinds(page) == ["move", "move"]
    # Challenged again, and then once more from another phone: that one is told why not.
    host.locator(".challenge").get_by_role("button", name="Aanvechten").click()
    expect(room.locator(".challenge.verdict")).to_be_visible()
    line = host.evaluate(
        "async () => (await import('/js/state.js')).app.view.sheet.challenges[0].line"
    )
    bas.evaluate(
        """async (line) => {
            const { send } = await import('/js/live.js');
            const { sayRefusal } = await import('/js/ui.js');
            send({ type: 'challenge', line, player: 1 }).catch(sayRefusal);
        }""",
        line,
    )
    expect(bas.get_by_role("alert")).to_have_text(re.compile("Die zet is al aangevochten"))
