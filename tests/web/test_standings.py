"""The standings of a room too big for a column per player, on the director's phone
(``web/js/standings.js``): while a round's slips come in nothing of them changes, and they
stay on the screen as they are — not taken out and put back, which restyled and laid out
every line of them at each slip (a room of 200: a third of the screen, ``python -m
bench.director_phone``) — until the close changes them."""

import uuid

from playwright.sync_api import Browser, expect

from tests.server.serving import ServerProcess
from tests.web.browser import create_table, missing_strings, open_app, wait_for_state
from tests.web.rooms import DUPLICATE, moves, register, sheet_of, slip

PLAYERS = 8  # more than the six columns a phone has: the standings are a list

# In the page: the standings element now, and whether the screen ever took it out.
WATCH = """() => {
    window.standings = document.querySelector('.dup-standings');
    window.takenOut = false;
    new MutationObserver((records) => {
        for (const record of records) {
            if ([...record.removedNodes].includes(window.standings)) window.takenOut = true;
        }
    }).observe(window.standings.parentNode, { childList: true });
}"""


def test_the_standings_stay_on_the_screen_while_slips_come_in_and_change_at_the_close(
    browser: Browser, server: ServerProcess
) -> None:
    director = open_app(browser, server.url, "nl")
    code = create_table(director, [], mode=DUPLICATE)  # no names: every player registers
    players = [register(server, code, f"Speler {n}") for n in range(1, PLAYERS + 1)]
    wait_for_state(director, f"app => app.view.sheet.players.length === {PLAYERS}")
    director.locator("#room-start > summary").click()
    director.get_by_role("button", name="Plankje trekken").click()
    wait_for_state(director, "app => app.view.sheet.rounds[0].rack.length === 7")
    expect(director.locator(".dup-standings-list tbody tr")).to_have_count(PLAYERS)
    director.evaluate(WATCH)

    sheet = sheet_of(director)
    found, _ = moves(sheet)
    api = server.api()
    for n, player in enumerate(players[:3]):
        move = found[n]
        body = slip(move, sheet["started"], player["seat"])
        reply = api.command(player["table"], player["token"], str(uuid.uuid4()), body)
        assert reply.status == 200, reply
        expect(director.locator("#roster-slips")).to_contain_text(f"{n + 1} van {PLAYERS}")
    assert director.evaluate("() => document.querySelector('.dup-standings') === window.standings")
    assert director.evaluate("() => window.takenOut") is False

    director.get_by_role("button", name="Ronde sluiten: top zoeken").click()
    wait_for_state(director, "app => app.view.sheet.rounds[0].results.length > 0")
    assert director.evaluate("() => document.querySelector('.dup-standings') !== window.standings")
    best = found[0].score
    expect(
        director.locator(".dup-standings-list tbody tr").first.locator("td").nth(1)
    ).to_have_text(str(best))

    # At the end the ranking says it: no "provisional" standings under it.
    director.once("dialog", lambda dialog: dialog.accept())
    director.get_by_role("button", name="Spel beëindigen").click()
    expect(director.locator(".dup-ranking tbody tr")).to_have_count(PLAYERS)
    expect(director.locator(".dup-standings")).to_have_count(0)
    assert missing_strings(director) == []
    director.context.close()
