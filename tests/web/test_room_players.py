"""A player's phone in a duplicate room of many (issue 25): it joins by typing its name,
never from a list of 200 seats; a name another phone holds is refused, and so is a new name
once the entries close; the same phone coming back gets its own seat. After a close it shows
its own slip as judged, its place ("Plaats 12 van 30", equal totals sharing it) and the first
five of the standings — without the players the director took out — and nothing on it is
wider than a 390 px phone.

The other players register over HTTP as their phones would, and hand in their slips with
their own tokens; the moves come from the same generator and list the server uses.
"""

import uuid

from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import (
    YOUR_NAME,
    axe,
    create_table,
    join_table,
    missing_strings,
    open_app,
    post,
    session_of,
    shot,
    show,
    wait_for_state,
)
from tests.web.rooms import DUPLICATE, moves, register, sheet_of, slip
from tests.web.screen_fit import fits_width

VIEWER = "Kijker (alleen lezen)"


def typed_name(page: Page, code: str, name: str) -> None:
    """Type the code and ``name`` in the join form, and ask to join."""
    if page.locator("#tab-start").count():  # no table: the join form is in Start
        show(page, "start")
    join = page.locator("#start .join")
    join.get_by_label("Tafelcode").fill(code)
    join.get_by_label(YOUR_NAME, exact=True).fill(name)
    page.get_by_role("button", name="Aanschuiven", exact=True).click()


def test_a_phone_joins_a_room_by_its_name_and_comes_back_to_its_seat(
    browser: Browser, server: ServerProcess
) -> None:
    director = open_app(browser, server.url, "nl")
    code = create_table(director, ["Anna"], mode=DUPLICATE)  # typed before the room fills

    anna = open_app(browser, server.url, "nl")
    join = anna.locator("#start .join")
    join.get_by_label("Tafelcode").fill(code)
    expect(join.get_by_label(YOUR_NAME, exact=True)).to_have_attribute("maxlength", "40")
    expect(join.get_by_label(YOUR_NAME, exact=True)).to_have_attribute("autocomplete", "off")
    expect(join.locator("input[type=radio]")).to_have_count(0)  # no list of seats
    join.evaluate("form => form.scrollIntoView()")
    shot(anna, "room-join-by-name", full_page=False)
    assert axe(anna, "#start .join") == []
    typed_name(anna, code, " anna ")  # the director's spelling, whatever the case
    expect(anna.locator(".table-bar .who")).to_have_text("Je bent Anna")
    assert session_of(anna)["seat"] == 0
    # The phone that opened the room is its director's, and its bar says so.
    show(director, "table")
    expect(director.locator(".table-bar .who")).to_have_text("Je bent de wedstrijdleider")
    director.evaluate("import('/js/i18n.js').then((m) => m.setLanguage('it'))")
    expect(director.locator(".table-bar .who")).to_have_text("Sei l'arbitro")
    director.evaluate("import('/js/i18n.js').then((m) => m.setLanguage('nl'))")
    expect(director.locator(".table-bar .who")).to_have_text("Je bent de wedstrijdleider")

    # Another phone may not take her name; a new name is a new player at the end.
    other = open_app(browser, server.url, "nl")
    typed_name(other, code, "Anna")
    expect(other.locator("#messages")).to_have_text(
        "‘Anna’ is in deze zaal al bezet. Kies een andere naam, of vraag het de wedstrijdleider."
    )
    other.locator("#start .join").get_by_label(YOUR_NAME, exact=True).fill("Bas")
    other.get_by_role("button", name="Aanschuiven", exact=True).click()
    expect(other.locator(".table-bar .who")).to_have_text("Je bent Bas")
    assert session_of(other)["seat"] == 1
    wait_for_state(director, "app => app.view.sheet.players.length === 2")

    # Anna's phone leaves and comes back: its own seat, though it still holds her name.
    show(anna, "table")
    anna.once("dialog", lambda dialog: dialog.accept())
    anna.get_by_role("button", name="Tafel verlaten").click()
    typed_name(anna, code, "Anna")
    expect(anna.locator(".table-bar .who")).to_have_text("Je bent Anna")
    assert session_of(anna)["seat"] == 0

    # Once the director closes the entries, a new name is refused; watching stays possible.
    post(director, server, {"type": "set_entries", "until": 0})
    viewer = open_app(browser, server.url, "nl")
    typed_name(viewer, code, "Cas")
    expect(viewer.locator("#messages")).to_have_text(
        "Inschrijven voor deze zaal is gesloten. Vraag het de wedstrijdleider als je toch nog"
        " meespeelt."
    )
    join_table(viewer, code, VIEWER)
    assert session_of(viewer)["role"] == "viewer"
    wait_for_state(viewer, "app => app.view.sheet.players.length === 2")  # no one registered
    for page in (director, anna, other, viewer):
        assert missing_strings(page) == []
        page.context.close()


PLAYERS = 30
FIRST = (
    "Anna Bas Cas Daan Eva Fleur Gijs Hanna Iris Joost Karin Lotte Maarten Noor Olaf Pien Ruben"
    " Sanne Thijs Vera"
).split()
LAST = "Vos Jansen Bakker Visser Smit Meijer Mulder Dekker Bos Peters".split()


def name(i: int) -> str:
    """The name of the room's ``i``-th player registered over HTTP: no two alike, none the
    start of another."""
    return f"{FIRST[i % len(FIRST)]} {LAST[i // len(FIRST) % len(LAST)]}"


def close_a_round(browser: Browser, server: ServerProcess, players: int) -> tuple[Page, Page]:
    """A room of ``players``: Zoë on her phone, the others registered over HTTP, slips from
    most of them (many the same, so that totals tie) and hers, and the first round closed.
    The director's phone and Zoë's."""
    director = open_app(browser, server.url, "nl")
    code = create_table(director, [], mode=DUPLICATE)  # no names: every player registers
    others = [register(server, code, name(i)) for i in range(players - 1)]
    zoe = open_app(browser, server.url, "nl")
    join_table(zoe, code, "Zoë")
    wait_for_state(director, f"app => app.view.sheet.players.length === {players}")
    post(director, server, {"type": "draw_rack", "round": 0})
    wait_for_state(zoe, "app => app.view.sheet.rounds[0].rack.length === 7")

    sheet = sheet_of(zoe)
    found, _ = moves(sheet)
    distinct = list({move.score: move for move in found}.values())[:8]  # best first
    api = server.api()
    for i, joined in enumerate(others):
        if i % 7 == 6:
            continue  # no slip: 0 for the round
        move = distinct[i % len(distinct)]
        body = slip(move, sheet["started"], joined["seat"])
        reply = api.command(joined["table"], joined["token"], str(uuid.uuid4()), body)
        assert reply.status == 200, reply
    mine = distinct[len(distinct) // 2]
    post(zoe, server, slip(mine, sheet["started"], session_of(zoe)["seat"]))
    post(director, server, {"type": "close_round", "round": 0})
    wait_for_state(zoe, "app => app.view.sheet.rounds[0].results.length > 0")
    show(zoe, "sheet")
    return director, zoe


def expected(sheet: dict, seat: int) -> tuple[str, list[str]]:
    """Zoë's place as the phone should say it and the first five names, from the server's
    totals: equal totals share a place, the players taken out are not ranked."""
    left = set(sheet.get("left", []))
    standings = sorted(
        (s for s in sheet["standings"] if s["player"] not in left),
        key=lambda s: (-s["total"], s["player"]),
    )
    total = next(s["total"] for s in standings if s["player"] == seat)
    place = 1 + sum(s["total"] > total for s in standings)
    shared = sum(s["total"] == total for s in standings) > 1
    said = f"{'Gedeelde plaats' if shared else 'Plaats'} {place} van {len(standings)}"
    return said, [sheet["players"][s["player"]] for s in standings[:5]]


def test_a_player_sees_its_own_slip_its_place_and_the_first_five(
    browser: Browser, server: ServerProcess
) -> None:
    director, zoe = close_a_round(browser, server, PLAYERS)
    seat = session_of(zoe)["seat"]
    sheet = sheet_of(zoe)
    place, first = expected(sheet, seat)
    expect(zoe.locator("#room-place")).to_have_text(place)
    expect(zoe.locator(".room-first tbody tr:not(.gap) th")).to_have_text(
        [*first, "Zoë"] if "Zoë" not in first else first
    )
    result = next(r for r in sheet["rounds"][0]["results"] if r["player"] == seat)
    expect(zoe.locator("#room-mine")).to_contain_text(result["word"])
    expect(zoe.locator("#room-mine")).to_contain_text(str(sheet["rounds"][0]["scores"][seat]))
    expect(zoe.locator(".room-results")).to_have_count(0)  # not every slip of the room
    fits_width(zoe, 390, 844)
    assert axe(zoe, "#room-result") == [] and axe(zoe, "#place-card") == []
    shot(zoe, f"room-player-{PLAYERS}")

    # The director takes the leader out: the standings close up without that name.
    leader = next(p for p, name in enumerate(sheet["players"]) if name == first[0])
    post(director, server, {"type": "remove_player", "player": leader})
    wait_for_state(zoe, f"app => app.view.sheet.left.includes({leader})")
    place, first = expected(sheet_of(zoe), seat)
    expect(zoe.locator("#room-place")).to_have_text(place)
    expect(zoe.locator(".room-first tbody tr:not(.gap) th").first).to_have_text(first[0])
    expect(zoe.locator("#place-card")).not_to_contain_text(sheet["players"][leader])
    for page in (director, zoe):
        assert missing_strings(page) == []
        page.context.close()
