"""The simultaneous in Chromium: the organiser creates one on its page at a phone's width and
sees the code; a club director opens a room and makes it a centre on the room's card; two
players join it by name on their own phones, and a room display shows it; the director
draws the sealed racks and closes two rounds (the slips handed in over HTTP); every phone
shows its place across the simultaneous, the display the leaders, the organiser the
centre's progress; the organiser closes the window, and the results print with the players."""

import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from rules.movegen.moves import Move
from tests.server.redis_server import RedisServer
from tests.server.serving import ServerProcess
from tests.web.browser import (
    missing_strings,
    open_app,
    post,
    session_of,
    shot,
    show,
    wait_for_state,
)
from tests.web.rooms import errors_of, join_by_name, moves, open_room, slip
from tests.web.screen_fit import fits_width, spilled

NAME = "Voorjaarssimultaan"
CENTRE = "Woordclub Delft"
ANNA, BAS = "Anna de Vries", "Bas Jansen"
ROUNDS = 2


def shoot(page: Page, name: str, full_page: bool = True) -> None:
    shot(page, f"simultaneous-{name}", full_page)


def join_as_centre(director: Page, code: str) -> None:
    """The director makes the room a centre of game 1 on the room's card."""
    director.locator("#sim-join > summary").click()
    card = director.locator("#sim-join")
    card.get_by_label("Code van de simultaan").fill(code)
    card.get_by_label("Partijnummer").fill("1")
    card.get_by_label("Naam van je zaal").fill(CENTRE)
    card.get_by_role("button", name="Meedoen").click()


def hand_in(server: ServerProcess, page: Page, move: Move, round_: int) -> None:
    """The player of ``page`` hands in ``move`` as the open round's slip, over HTTP."""
    session = session_of(page)
    sheet = page.evaluate("async () => (await import('/js/state.js')).app.view.sheet")
    body = slip(move, sheet["started"], session["seat"], round_)
    reply = server.api().command(session["table"], session["token"], str(uuid.uuid4()), body)
    assert reply.status == 200, reply.body


def test_a_simultaneous_from_the_organiser_to_the_printed_results(
    browser: Browser, server: ServerProcess
) -> None:
    # The organiser, at a phone's width: the form, then the code large.
    organiser = open_app(browser, server.url, "nl", "/simultaneous.html")
    errors = [errors_of(organiser)]
    expect(organiser.get_by_role("heading", name="Simultaan organiseren")).to_be_visible()
    organiser.get_by_label("Naam van de simultaan").fill(NAME)
    expect(organiser.get_by_label("Opent")).to_have_count(1)
    organiser.get_by_role("button", name="Partij toevoegen").click()
    expect(organiser.get_by_label("Opent")).to_have_count(2)
    organiser.get_by_role("button", name="Partij 2 weghalen").click()
    fits_width(organiser, 390, 844)
    shoot(organiser, "organiser-form")
    # A window that closes as it opens is refused; once mended, the refusal goes with it.
    closes = organiser.get_by_label("Sluit")
    kept = closes.input_value()
    closes.fill(organiser.get_by_label("Opent").input_value())
    organiser.get_by_role("button", name="Simultaan maken").click()
    expect(organiser.locator("#messages .error")).to_have_count(1)
    closes.fill(kept)
    organiser.get_by_role("button", name="Simultaan maken").click()
    code = organiser.locator("#sim-code").inner_text(timeout=20_000)
    assert organiser.locator("#messages .error").count() == 0  # gone as the code came
    assert len(code) == 6
    simultaneous_id = organiser.evaluate(
        "() => JSON.parse(localStorage.getItem('tilestream.simultaneous')).id"
    )
    expect(organiser.locator("#sim-title")).to_have_text(NAME)
    expect(organiser.locator("#sim-game-1 .sim-state")).to_contain_text("Open")

    # A club director opens a room and joins it as a centre on the room's card.
    director = open_app(browser, server.url)
    errors.append(errors_of(director))
    room = open_room(director)
    show(director, "sheet")
    join_as_centre(director, code)
    expect(director.locator("#sim-card")).to_contain_text(f"Simultaan {NAME} — {CENTRE}")
    expect(director.locator("#sim-join")).to_have_count(0)
    # A centre's racks and tops are the sealed ones: no typed rack or top is offered, and
    # after a reload the join card stays away (the sheet says the room is a centre).
    director.reload()
    show(director, "sheet")
    expect(director.locator("#room-draw")).to_have_count(1)
    expect(director.locator("#sim-join")).to_have_count(0)
    expect(director.locator("#room-type-rack")).to_have_count(0)
    expect(director.locator("#dup-top-form")).to_have_count(0)

    # Two players join by name, each on a phone of their own; the room display follows.
    players = [open_app(browser, server.url) for _ in (ANNA, BAS)]
    errors += [errors_of(page) for page in players]
    for page, name in zip(players, (ANNA, BAS), strict=True):
        join_by_name(page, room, name)
    for page in players:  # no round closed: no place yet, not a first place everyone shares
        expect(page.locator("#sim-place")).to_have_text(
            "Je plaats staat hier zodra er een ronde gesloten is."
        )
        expect(page.locator("#sim-leaders")).to_have_text("Nog geen ronde gesloten.")
    display = open_app(browser, server.url, "nl", f"/display.html#join={room}")
    display.set_viewport_size({"width": 1280, "height": 720})
    errors.append(errors_of(display))

    # Two rounds: the sealed rack drawn, Anna finds the top, Bas a lesser move; closed.
    for round_ in range(ROUNDS):
        if director.locator("#room-start > summary").count():
            director.locator("#room-start > summary").click()
        director.get_by_role("button", name="Plankje trekken").click()
        for page in players:
            wait_for_state(page, f"app => app.view.sheet.rounds[{round_}].rack.length > 0")
        found, top = moves(
            players[0].evaluate("async () => (await import('/js/state.js')).app.view.sheet")
        )
        lesser = next(m for m in found if m.score < top.score)
        hand_in(server, players[0], top, round_)
        hand_in(server, players[1], lesser, round_)
        expect(director.locator("#room-slips")).to_contain_text("2")
        director.locator("#room-close").click()
        for page in (director, *players):
            wait_for_state(page, f"app => app.view.sheet.rounds[{round_}].results.length === 2")

    # Every phone: its place across the simultaneous; the director the counts and leaders.
    expect(players[0].locator("#sim-place")).to_have_text("1e van 2 (zaal: 1e van 2)")
    expect(players[1].locator("#sim-place")).to_have_text("2e van 2 (zaal: 2e van 2)")
    for page in players:
        expect(page.locator("#sim-card")).to_contain_text(f"Simultaan {NAME} — {CENTRE}")
        expect(page.locator("#sim-leaders tbody tr")).to_have_count(2)
        expect(page.locator("#sim-leaders tbody tr").first).to_contain_text(ANNA)
        fits_width(page, 390, 844)
    expect(director.locator("#sim-counts")).to_have_text("1 zaal · 2 spelers")
    expect(director.locator("#sim-leaders tbody tr")).to_have_count(2)
    fits_width(director, 390, 844)
    players[0].locator("#sim-card").scroll_into_view_if_needed()
    shoot(players[0], "player-phone", full_page=False)
    shoot(players[0], "player-phone-whole")
    shoot(director, "director-phone")

    # The display: the centre's name and the overall leaders beside the room's standings.
    expect(display.locator("#room-head-sim")).to_contain_text(f"Zaal {CENTRE}")
    expect(display.locator("#room-sim-leaders tbody tr")).to_have_count(2)
    expect(display.locator("#room-sim-leaders tbody tr").first).to_contain_text(ANNA)
    shoot(display, "display-1280")
    assert spilled(display) == []
    # On a 1080p screen the two players beside the news leave room for every column: the
    # round's score and the difference too, not only the total and percentage that every
    # page of a large room keeps (at 1280 px they do not fit beside it, so they go).
    display.set_viewport_size({"width": 1920, "height": 1080})
    expect(display.locator(".room-grid")).not_to_have_class(re.compile(r"\bcompact\b"))
    extra = display.locator(".room-standings td.extra")
    expect(extra).to_have_count(4)
    for cell in extra.all():
        expect(cell).to_be_visible()
    assert spilled(display) == []
    shoot(display, "display-1920")
    display.set_viewport_size({"width": 1280, "height": 720})

    # The director takes 5 points from Bas (a penalty line of the room's sheet): his row of
    # the results adds up to his total with it in a ± column.
    post(director, server, {"type": "give_penalty", "player": 1, "points": 5})
    wait_for_state(director, "app => app.view.sheet.lines.some((l) => l.kind === 'penalty')")

    # The organiser sees the centre's progress and the standings, closes the window, prints.
    centres = organiser.locator("#sim-centres tbody tr")
    expect(centres).to_have_count(1)
    expect(centres.first).to_contain_text(CENTRE)
    sealed = re.compile(rf"^{ROUNDS}/\d+$")  # of the rounds the game was sealed with
    expect(centres.first.locator("td").nth(0)).to_have_text(sealed)
    expect(centres.first.locator("td").nth(1)).to_have_text("2")
    expect(organiser.locator("#sim-standings-1 tbody tr")).to_have_count(2)
    expect(organiser.locator("#sim-standings-1 tbody tr").first).to_contain_text(ANNA)
    fits_width(organiser, 390, 844)
    shoot(organiser, "organiser-view")
    organiser.once("dialog", lambda dialog: dialog.accept())
    organiser.get_by_role("button", name="Venster nu sluiten").click()
    expect(organiser.locator("#sim-game-1 .sim-state")).to_contain_text("Gesloten")
    with organiser.context.expect_page() as opened:
        organiser.get_by_role("link", name="Uitslag afdrukken").click()
    printed = opened.value
    errors.append(errors_of(printed))
    printed.wait_for_selector("body[data-ready=true]")
    rows = printed.locator(".sim-results tbody tr")
    expect(rows).to_have_count(3)  # the tops, then the players
    expect(rows.nth(0)).to_contain_text("Top")
    expect(rows.nth(1)).to_contain_text(ANNA)
    expect(rows.nth(1)).to_contain_text(CENTRE)
    expect(rows.nth(2)).to_contain_text(BAS)
    expect(rows.nth(2).locator("td.extra")).to_have_text("-5")
    expect(printed.locator(".legend")).to_contain_text("±")
    printed.set_viewport_size({"width": 794, "height": 1123})
    shoot(printed, "results-print")
    fits_width(organiser, 390, 844)
    shoot(organiser, "organiser-closed")

    # A window closed: every phone of the centre says so, with the results to print, and the
    # director has no rack to draw.
    results = f"/print.html?page=simultaneous&id={simultaneous_id}&game=1"
    for page in (director, *players):
        shut = page.locator("#sim-window")
        expect(shut).to_contain_text("Het venster van partij 1 is gesloten: er wordt geen plankje")
        link = shut.get_by_role("link", name="Uitslag afdrukken")
        expect(link).to_have_attribute("href", results)
    expect(director.get_by_role("button", name="Plankje trekken")).to_have_count(0)
    players[0].locator("#sim-window").scroll_into_view_if_needed()
    shoot(players[0], "player-window-closed", full_page=False)
    # No round is played any more: the director's card offers the end, the round clock does
    # not start (saying why), and the display shows the standings as final, not a clock.
    expect(director.locator("#room-no-rack")).to_have_text(
        "Het venster is gesloten: er komt geen ronde meer. Beëindig het spel voor de rangschikking."
    )
    director.locator("#clock-go").evaluate("button => button.click()")  # aria-disabled
    expect(director.locator("#messages .message")).to_have_text(
        "Het venster is gesloten: er komt geen ronde meer. Beëindig het spel voor de rangschikking."
    )
    assert director.evaluate("async () => (await import('/js/state.js')).app.view.sheet.clock"
                             ".running_since") is None  # fmt: skip
    expect(display.locator(".room-round")).to_have_text("Eindstand")
    expect(display.locator("#room-window")).to_contain_text("Het venster van partij 1 is gesloten")
    expect(display.locator(".clock-time")).to_have_count(0)
    shoot(display, "display-window-closed")

    # The director ends the room's game: the ranking, and no other game in this room.
    director.once("dialog", lambda dialog: dialog.accept())
    director.locator("#room-end").click()
    wait_for_state(director, "app => app.view.sheet.ended !== null")
    expect(director.get_by_role("button", name="Uitslag kopiëren")).to_be_visible()
    expect(director.get_by_role("button", name="Nieuw spel, zelfde spelers")).to_have_count(0)

    # The organiser deletes the simultaneous: the form again; the room keeps what it played.
    organiser.once("dialog", lambda dialog: dialog.accept())
    organiser.get_by_role("button", name="Simultaan verwijderen").click()
    expect(organiser.get_by_role("heading", name="Simultaan organiseren")).to_be_visible()
    gone = server.api().get(f"/api/simultaneous/{simultaneous_id}/results.json")
    assert (gone.status, gone.json()["code"]) == (404, "no_simultaneous")
    expect(director.locator("#dup-r1-top")).to_be_visible()

    for page in (organiser, director, *players, display, printed):
        assert missing_strings(page) == []
    assert errors == [[] for _ in errors]


# --- one centre in Chromium among three, on two processes over one Redis -------------------


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Two servers on one Redis: a centre's phones on either, any room on any process."""
    redis = RedisServer(tmp_path / "redis")
    redis.start()
    try:
        with (
            ServerProcess(tmp_path / "a", redis=redis.url) as a,
            ServerProcess(tmp_path / "b", redis=redis.url) as b,
        ):
            yield [a, b]
        a.assert_no_crash()
        b.assert_no_crash()
    finally:
        redis.stop()


class HttpCentre:
    """A centre whose director and players are plain HTTP clients: a room opened with no
    names, joined to the simultaneous, its players registered by name, rounds played with
    the second-best move for one player and the top for the other."""

    def __init__(self, server: ServerProcess, code: str, name: str, players: list[str]):
        self.api = server.api()
        self.name = name
        room = self.api.create_table()
        self.table, self.token = room["table"], room["token"]
        self.command({"type": "start_game", "edition": "nl", "mode": "duplicate",
                      "rules": "duplicate", "players": []})  # fmt: skip
        self.command({"type": "join_simultaneous", "code": code, "game": 0, "centre": name})
        self.seats: list[tuple[int, str]] = []
        for player in players:
            joined = self.api.post(
                "/api/join",
                {
                    "code": room["code"],
                    "role": "player",
                    "name": player,
                    "device": uuid.uuid4().hex,
                },
            )
            assert joined.status == 200, joined.body  # fmt: skip
            self.seats.append((joined.json()["seat"], joined.json()["token"]))

    def command(self, body: dict[str, Any], token: str | None = None) -> None:
        reply = self.api.command(self.table, token or self.token, uuid.uuid4().hex, body)
        assert reply.status == 200, reply.body

    def sheet(self) -> dict[str, Any]:
        return dict(self.api.view(self.table, self.token).json()["sheet"])

    def play(self, round_: int) -> None:
        self.command({"type": "draw_rack", "round": round_})
        sheet = self.sheet()
        found, top = moves(sheet)
        for (seat, token), move in zip(self.seats, (top, found[-1]), strict=False):
            self.command(slip(move, sheet["started"], seat, round_), token)
        self.command({"type": "close_round", "round": round_})

    def totals(self) -> dict[str, int]:
        """Each player's total as the room's own record has it."""
        record = self.api.get(f"/api/tables/{self.table}/record.json", self.token).json()
        return {row["name"]: row["total"] for row in record["results"]}


@pytest.mark.redis
def test_a_centre_in_chromium_among_three_on_two_processes(
    browser: Browser, servers: list[ServerProcess]
) -> None:
    a, b = servers
    now = int(time.time() * 1000)
    created = a.api().post(
        "/api/simultaneous",
        {
            "name": NAME,
            "edition": "nl",
            "games": [{"opens": now - 1_000, "closes": now + 3_600_000}],
        },
    )
    code = created.json()["code"]  # fmt: skip

    # The Chromium centre: its director on one process, a player and the display on the other.
    director = open_app(browser, a.url)
    errors = [errors_of(director)]
    room = open_room(director)
    show(director, "sheet")
    join_as_centre(director, code)
    expect(director.locator("#sim-card")).to_be_visible()
    players = [open_app(browser, server.url) for server in (a, b)]
    errors += [errors_of(page) for page in players]
    for page, name in zip(players, (ANNA, BAS), strict=True):
        join_by_name(page, room, name)
    display = open_app(browser, b.url, "nl", f"/display.html#join={room}")
    display.set_viewport_size({"width": 1280, "height": 720})
    errors.append(errors_of(display))

    # Two more centres over HTTP, one on each process, with three players each.
    others = [HttpCentre(b, code, "Scrabbleclub Zwolle", ["Dirk", "Eva", "Fleur"]),
              HttpCentre(a, code, "Club Gent", ["Gijs", "Hanna", "Ilse"])]  # fmt: skip
    for round_ in range(ROUNDS):
        for centre in others:
            centre.play(round_)
        if director.locator("#room-start > summary").count():
            director.locator("#room-start > summary").click()
        director.get_by_role("button", name="Plankje trekken").click()
        for page in players:
            wait_for_state(page, f"app => app.view.sheet.rounds[{round_}].rack.length > 0")
        found, top = moves(
            players[0].evaluate("async () => (await import('/js/state.js')).app.view.sheet")
        )
        hand_in(a, players[0], top, round_)
        hand_in(b, players[1], found[-1], round_)
        expect(director.locator("#room-slips")).to_contain_text("2")
        director.locator("#room-close").click()
        for page in (director, *players):
            wait_for_state(page, f"app => app.view.sheet.rounds[{round_}].results.length === 2")

    # Every phone's place is its total's among the eight players of the three rooms' records.
    totals: dict[tuple[str, str], int] = {}
    for centre in others:
        totals.update({(centre.name, n): t for n, t in centre.totals().items()})
    sheet = director.evaluate("async () => (await import('/js/state.js')).app.view.sheet")
    totals.update({(CENTRE, n): t for n, t in zip(sheet["players"], sheet["totals"], strict=True)})
    for page, name in zip(players, (ANNA, BAS), strict=True):
        mine = totals[CENTRE, name]
        overall = 1 + sum(t > mine for t in totals.values())
        room_place = 1 + sum(t > mine for (c, _), t in totals.items() if c == CENTRE)
        shared = "Gedeeld " if list(totals.values()).count(mine) > 1 else ""
        expect(page.locator("#sim-place")).to_have_text(
            f"{shared}{overall}e van 8 (zaal: {room_place}e van 2)"
        )
        fits_width(page, 390, 844)
    expect(director.locator("#sim-counts")).to_have_text("3 zalen · 8 spelers")
    for page in (director, *players):  # every centre has closed what this one has
        expect(page.locator("#sim-level")).to_have_text("3 van 3 zalen hebben ronde 2 gesloten")
    best = max(totals.items(), key=lambda item: item[1])
    expect(display.locator("#room-sim-leaders tbody tr").first).to_contain_text(str(best[1]))
    assert spilled(display) == []
    shoot(display, "display-three-centres")
    shoot(players[1], "player-three-centres")
    for page in (director, *players, display):
        assert missing_strings(page) == []
    assert errors == [[] for _ in errors]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Voorjaarstoernooi", "Simultaan Voorjaarstoernooi"),
        ("Simultané du Benelux", "Simultané du Benelux"),  # not "Simultaan Simultané …"
        ("Grand simultané de Noël", "Grand simultané de Noël"),
        ("Symultana jesienna", "Symultana jesienna"),
        ("Simultaneous Cup", "Simultaneous Cup"),
    ],
)
def test_a_simultaneous_whose_name_says_so_is_not_called_simultaneous_twice(
    phone: Page, name: str, shown: str
) -> None:
    said = phone.evaluate(
        "async (name) => (await import('/js/centre.js')).simultaneousName(name)", name
    )
    assert said == shown
