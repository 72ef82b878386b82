"""Rooms on the room display, for the browser tests: players registered by name, a first
round closed with a solo, ties and a player taken out, the display opened at a screen's size,
and what its standings show."""

import dataclasses
import uuid

from playwright.sync_api import Browser, Page, expect

from bench.serving import device_key, new_address
from tests.server.serving import ServerProcess
from tests.web.browser import open_app
from tests.web.rooms import moves, slip
from tests.web.screen_fit import fits, spilled

FIRST = ["Anna", "Bas", "Cas", "Daan", "Eva", "Femke", "Gijs", "Hanna", "Iris", "Jan"]
FIRST += ["Kees", "Lotte", "Maarten", "Noor", "Otto", "Pien", "Quinten", "Roos", "Sem", "Tess"]
LAST = ["de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder"]
LAST += ["de Groot", "Bos"]
LONG = "Bartholomeus van den Oudenrijn-Vermeulen"  # 40 characters: the longest a name may be
NAMES = [LONG, *(f"{first} {last}" for last in LAST for first in FIRST)][:200]
SOLO = 0  # the one player who finds the top
TAKEN_OUT = 1  # the director takes this player out after the close
RACK = "PLANKEN"  # its top, PLANKEN down from C8, is a bingo
SIZES = [(1280, 720), (1920, 1080)]
PAGE_MS = 8_000  # how long a page shows

# The rows the standings show now, and the computed size of the names shown: the cells a
# page of a large room does without (``.extra``) are hidden, as are the other pages' rows.
SHOWN = """() => [...document.querySelectorAll('.room-standings tbody tr:not([hidden])')]
  .map((row) => [...row.querySelectorAll('th, td:not(.extra)')].map((cell) => cell.textContent))"""
NAME_SIZES = """() => [...document.querySelectorAll('.room-standings tbody tr:not([hidden]) th')]
  .map((cell) => parseFloat(getComputedStyle(cell).fontSize))"""
EVERY_NAME = """() => [...document.querySelectorAll('.room-standings tbody th')]
  .map((cell) => cell.textContent)"""


@dataclasses.dataclass
class Room:
    code: str
    rows: list[list[str]]  # rank, name, total and percentage of every player, best first
    top: object  # the round's top (``rules.movegen`` move)
    table: str = ""  # the table, and its director's token, for a test's own commands
    host: str = ""


def closed_room(server: ServerProcess, names: list[str]) -> Room:
    """A room of ``names`` registered on their phones, its first round closed as ``room``'s."""
    api = server.api()
    made = api.create_table()
    table, host, code = made["table"], made["token"], made["code"]

    def command(body: dict, token: str = host) -> None:
        reply = api.command(table, token, str(uuid.uuid4()), body)
        assert reply.status == 200, reply.body

    def sheet() -> dict:
        return api.view(table, host).json()["sheet"]

    command({"type": "start_game", "edition": "nl", "mode": "duplicate", "rules": "duplicate",
             "players": []})  # fmt: skip
    tokens = []
    for name in names:  # each phone from its own address, as joins are limited per address
        joined = server.api(new_address()).post(
            "/api/join", {"code": code, "role": "player", "name": name, "device": device_key()}
        )
        assert joined.status == 200, joined.body
        tokens.append(joined.json()["token"])
    command({"type": "set_rack", "rack": RACK, "round": 0, "force": True})
    opened = sheet()
    found, top = moves(opened)
    assert top is not None and len(top.play.tiles) == 7
    lesser = sorted({m.score: m for m in found if m.score < top.score}.values(),
                    key=lambda m: -m.score)  # fmt: skip
    for player, token in enumerate(tokens):
        if player % 3 == 2:
            continue  # no slip: 0 points, a tie of some sixty players at the bottom
        move = top if player == SOLO else lesser[player % len(lesser)]
        command(slip(move, opened["started"], player), token)
    command({"type": "close_round", "round": 0})
    command({"type": "remove_player", "player": TAKEN_OUT})
    closed = sheet()
    assert closed["left"] == [TAKEN_OUT]
    return Room(code, ranked(closed), top, table, host)


def ranked(sheet: dict) -> list[list[str]]:
    """The standings as the display should show them: best first, equal totals sharing a
    rank and the next skipped, the players taken out left out."""
    standing = [s for s in sheet["standings"] if s["player"] not in sheet["left"]]
    standing.sort(key=lambda s: (-s["total"], s["player"]))
    totals = [s["total"] for s in standing]
    return [
        [str(1 + sum(t > s["total"] for t in totals)), sheet["players"][s["player"]],
         str(s["total"]), f"{s['percent_tenths'] // 10},{s['percent_tenths'] % 10}%"]
        for s in standing
    ]  # fmt: skip


def displayed(
    browser: Browser, server: ServerProcess, code: str, width: int, height: int, players: int = 200
) -> Page:
    """The room display at ``width``×``height``, its timers Playwright's to move on."""
    display = open_app(browser, server.url, "nl", f"/display.html#join={code}", clock=True)
    display.set_viewport_size({"width": width, "height": height})
    expect(display.locator(".room-standings tbody tr")).to_have_count(players - 1)
    return display


def laid_out(display: Page, width: int, height: int) -> list[list[str]]:
    """The rows the page shows, once it is seen to fit: names of 24 px at least, a long one
    ending in "…", nothing outside the screen or its box."""
    fits(display, width, height, ellipsis=True)
    assert spilled(display) == []
    sizes = display.evaluate(NAME_SIZES)
    assert sizes and min(sizes) >= 24, sizes
    return display.evaluate(SHOWN)
