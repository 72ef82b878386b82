"""A room of 200 in Chromium, on SQLite and on two servers sharing one Redis: the director
opens the room on the start form with no names, three players join on their phones by name
and 197 more over HTTP, the room display follows on the other server; the director draws,
200 players hand in slips or none, the director's phone dies and another phone takes its
place with the recovery code and closes the round; every Chromium phone shows its place and
its own result, the display pages the standings of 200, and nothing overflows a phone."""

import random
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from bench.serving import device_key, new_address
from tests.server.redis_server import RedisServer
from tests.server.serving import ServerProcess
from tests.web.browser import open_app, session_of, shot, show, wait_for_state
from tests.web.rooms import errors_of, join_by_name, moves, open_room, slip
from tests.web.screen_fit import fits_width

PLAYERS = 200
PHONES = ["Anna de Vries", "Bas Jansen", "Cas Bakker"]  # in Chromium; the rest over HTTP


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def servers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """One SQLite server, or two servers on one Redis (a table is served by both)."""
    if request.param == "sqlite":
        with ServerProcess(tmp_path / "one") as one:
            yield [one]
        one.assert_no_crash()
        return
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


def test_a_room_of_200_in_chromium_with_a_director_replaced_by_the_recovery_code(
    browser: Browser, servers: list[ServerProcess]
) -> None:
    first, last = servers[0], servers[-1]
    director = open_app(browser, first.url)
    code = open_room(director)
    table = session_of(director)["table"]

    phones = [open_app(browser, servers[i % len(servers)].url) for i in range(len(PHONES))]
    errors = [errors_of(page) for page in (director, *phones)]
    for page, name in zip(phones, PHONES, strict=True):
        join_by_name(page, code, name)
    seats = {session_of(page)["seat"]: session_of(page)["token"] for page in phones}
    assert sorted(seats) == [0, 1, 2]
    for n in range(len(PHONES), PLAYERS):
        via = servers[n % len(servers)]
        body = {"code": code, "role": "player", "name": f"Speler {n:03d}", "device": device_key()}
        joined = via.api(new_address()).post("/api/join", body)
        assert joined.status == 200, joined.body
        seats[joined.json()["seat"]] = joined.json()["token"]
    display = open_app(browser, last.url, "nl", f"/display.html#join={code}")
    display.set_viewport_size({"width": 1280, "height": 720})
    errors.append(errors_of(display))

    # The director makes a recovery code, draws, and starts the clock.
    show(director, "table")
    director.locator("#devices-summary").click()
    director.get_by_role("button", name="Herstelcode maken").click()
    recovery = director.locator("#recovery-code").inner_text()
    director.locator("#recovery-dialog").get_by_role("button", name="Sluiten").click()
    show(director, "sheet")
    if director.locator("#room-start > summary").count():
        director.locator("#room-start > summary").click()
    director.get_by_role("button", name="Plankje trekken").click()
    for page in (*phones, display):
        wait_for_state(page, "app => app.view.sheet.rounds[0].rack.length === 7")
    api = first.api()
    sheet = api.view(table, seats[0]).json()["sheet"]
    found, top = moves(sheet)
    lesser = [m for m in found if m.score < top.score] or found
    chosen = random.Random(25)
    expected: dict[int, int] = {}
    for seat, token in seats.items():
        if seat % 5 == 4:
            expected[seat] = 0  # no slip
            continue
        move = top if seat == 1 else lesser[chosen.randrange(min(40, len(lesser)))]
        body = slip(move, sheet["started"], seat)
        reply = servers[seat % len(servers)].api().command(table, token, str(uuid.uuid4()), body)
        assert reply.status == 200, reply.body
        expected[seat] = move.score
    expect(display.locator(".room-slips-in")).to_contain_text(str(len(expected) - 40))

    # The director's phone dies; a phone on the other server takes its place and closes.
    director.context.close()
    rescuer = open_app(browser, last.url)
    errors.append(errors_of(rescuer))
    rescuer.locator("#take-over > summary").click()
    form = rescuer.locator("#take-over")
    form.get_by_label("Tafelcode").fill(code)
    form.get_by_label("Herstelcode").fill(recovery)
    form.get_by_role("button", name="Overnemen").click()
    expect(rescuer.locator("#room-close")).to_be_visible()
    rescuer.locator("#room-close").click()
    expect(rescuer.locator("#room-result")).to_be_visible()
    # Every judged slip is a tap away, folded under the result: 200 rows cover no control.
    every = rescuer.locator("#room-result details.room-all-slips")
    expect(every).not_to_have_attribute("open", "")
    every.locator("summary").click()
    expect(every.locator(".room-results tbody tr")).to_have_count(PLAYERS)
    # Each row's points are the player's cell, for the director to correct; the player is
    # found by name among 200, and nothing is wider than the phone.
    rescuer.evaluate("document.querySelector('#room-all-slips .room-results').scrollIntoView()")
    fits_width(rescuer, 390, 844)
    shot(rescuer, "room-200-director-slips", full_page=False)
    every.get_by_label("Speler zoeken").fill("speler 137")
    expect(every.locator(".room-results tbody tr")).to_have_count(1)
    expect(every.get_by_label("Ronde 1, Speler 137", exact=True)).to_be_editable()
    every.get_by_label("Speler zoeken").fill("")

    # Every Chromium phone: its own result and its place among 200 (the solo of player 1).
    totals = {seat: points + (10 if seat == 1 else 0) for seat, points in expected.items()}
    for seat, page in enumerate(phones):
        wait_for_state(page, "app => app.view.sheet.rounds[0].results.length === 200")
        place = 1 + sum(total > totals[seat] for total in totals.values())
        shared = sum(total == totals[seat] for total in totals.values()) > 1
        wording = "Gedeelde plaats" if shared else "Plaats"
        expect(page.locator("#room-place")).to_contain_text(f"{wording} {place} van 200")
        expect(page.locator("#room-mine")).to_contain_text(str(expected[seat]))
        fits_width(page, 390, 844)
    expect(display.locator(".room-standings tbody tr")).to_have_count(PLAYERS)
    expect(display.locator(".room-points")).to_have_text(str(top.score))
    shot(phones[0], "room-200-player", full_page=False)
    shot(rescuer, "room-200-new-director", full_page=False)
    shot(display, "room-200-display-1280")
    assert errors == [[] for _ in errors]
