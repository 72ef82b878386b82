"""The game sheet to publish on phones (issue 25, item 7): at the end of a room the director
downloads the record (JSON) and the result list (CSV) and opens the A4 print with the racks;
another phone trains on the downloaded record from the start page, against the same top;
and the print of a room of 200 players runs over several A4 pages, the head row on each."""

import csv
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import msgspec
from playwright.sync_api import Browser, Page, expect

from rules.room import record
from tests.server.serving import ServerProcess
from tests.web.browser import (
    SCREENSHOTS,
    create_table,
    missing_strings,
    open_app,
    post,
    ready,
    shot,
    show,
    wait_for_state,
)
from tests.web.printing import A4

DUPLICATE = "Duplicate: iedereen dezelfde letters"


def sheet_of(page: Page) -> dict:
    return page.evaluate("async () => (await import('/js/state.js')).app.view.sheet")


def synthetic(players: int, rounds: int) -> record.GameRecord:
    """A record of a room of ``players`` over ``rounds`` rounds, as the server writes one."""
    names = tuple(f"Speler {p + 1:03d}" for p in range(players))
    played = []
    for r in range(rounds):
        top = record.TopRecord("KRAAN", "H4", "across", "H4", 30 + r, r % 4 == 0, True)
        slips = tuple(
            record.SlipRecord(p, "valid", "KAN", "H4", (p * 7 + r) % (30 + r), 0)
            for p in range(players)
        )
        scores = tuple(s.points for s in slips)
        played.append(record.RoundRecord(r + 1, "RAANKSE", top, scores, slips))
    totals = [sum(rr.scores[p] or 0 for rr in played) for p in range(players)]
    tops = sum(rr.top.points for rr in played if rr.top)
    results = tuple(
        sorted(
            (
                record.PlayerRecord(
                    p,
                    names[p],
                    1 + sum(t > totals[p] for t in totals),
                    totals[p],
                    totals[p] - tops,
                    totals[p] * 1000 // tops,
                    0,
                    0,
                )
                for p in range(players)
            ),
            key=lambda row: (row.rank, row.player),
        )
    )
    return record.GameRecord("nl", "duplicate", names, tuple(played), results, tops, True)


def print_record(page: Page, body: bytes) -> Page:
    """The record page of a phone whose table's record is ``body`` (served in its place)."""
    sheet = page.context.new_page()
    sheet.set_viewport_size(A4)
    sheet.route(re.compile(r".*/api/tables/[^/]+/record\.json.*"), lambda route: route.fulfill(
        status=200, content_type="application/json", body=body))  # fmt: skip
    origin = re.match(r"https?://[^/]+", page.url).group(0)
    sheet.goto(f"{origin}/print.html?page=record")
    ready(sheet)
    return sheet


def test_a_room_of_200_prints_over_a4_pages_with_the_head_row_on_each(
    browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    phone = open_app(browser, server.url, "nl")
    phone.evaluate("""() => localStorage.setItem('tilestream.session',
        JSON.stringify({table: 'synthetic', token: 'token', role: 'host', seat: null}))""")
    room = synthetic(200, 12)
    page = print_record(phone, record.encode(room))
    expect(page.get_by_role("heading", name="Partijverslag duplicaat")).to_be_visible()
    expect(page.locator("table.record.results tbody tr")).to_have_count(200)
    expect(page.locator("table.record.rounds tbody tr")).to_have_count(12)
    expect(page.locator("table.record.rounds tbody tr").first).to_contain_text("RAANKSE")
    expect(page.locator("table.record.rounds tbody tr").first).to_contain_text("scrabble")
    expect(page.locator("table.record.slips")).to_have_count(12)
    assert missing_strings(page) == []
    page.emulate_media(media="print")
    shot(page, "record-200-print", full_page=False)
    pdf = page.pdf(format="A4")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "record-200.pdf").write_bytes(pdf)
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))
    assert pages > 1
    assert shutil.which("pdftotext"), "pdftotext is missing: install poppler-utils (.ci/run does)"
    path = tmp_path / "record.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout  # fmt: skip
    printed = text.split("\f")[:pages]
    assert len(printed) == pages
    # the result list's head on every page it runs over, a slip table's on the others
    for number, content in enumerate(printed[1:], 2):
        assert "Naam" in content, f"page {number} has no head row"
    results = [p for p in printed if "Speler 200" in p or "Percentage" in p]
    assert sum("Verschil met de tops" in p or "Percentage" in p for p in results) >= 2
    if shutil.which("pdftoppm"):  # pages to look at, beside the test's own check
        subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "3", str(path),
                        str(SCREENSHOTS / "record-200-page")], check=True)  # fmt: skip


def test_the_director_downloads_the_sheet_prints_it_and_a_phone_trains_on_it(
    browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    director = open_app(browser, server.url, "nl")
    create_table(director, ["Anna", "Bas"], mode=DUPLICATE)
    post(director, server, {"type": "set_rack", "rack": "PLANKES"})
    post(director, server, {"type": "close_round", "round": 0})
    post(director, server, {"type": "end_game"})
    wait_for_state(director, "app => app.view?.sheet?.ended")
    played = sheet_of(director)["rounds"][0]
    show(director, "sheet")
    with director.expect_download() as listed:
        director.get_by_role("button", name="Uitslag downloaden (CSV)").click()
    rows = list(csv.reader(io.StringIO(Path(listed.value.path()).read_text(encoding="utf-8"))))
    assert rows[0][:3] == ["rank", "name", "R1"] and rows[1][2] == str(played["top"])
    assert sorted(row[1] for row in rows[2:]) == ["Anna", "Bas"]
    with director.expect_download() as downloaded:
        director.get_by_role("button", name="Partij downloaden (JSON, om te oefenen)").click()
    assert downloaded.value.suggested_filename.endswith(".json")
    saved = tmp_path / "partij.json"
    downloaded.value.save_as(saved)
    sheet = msgspec.json.decode(saved.read_bytes(), type=record.GameRecord)
    assert sheet.rounds[0].rack == "PLANKES" and sheet.rounds[0].top is not None
    shot(director, "record-end-of-game")

    with director.context.expect_page() as opened:
        director.get_by_role("link", name="Partijverslag afdrukken (A4)").click()
    printed = opened.value
    ready(printed)
    expect(printed.locator("table.record.rounds tbody tr").first).to_contain_text("PLANKES")
    expect(printed.locator("table.record.results tbody tr")).to_have_count(2)
    shot(printed, "record-print")

    trainee = open_app(browser, server.url, "nl")
    show(trainee, "start")
    trainee.get_by_role("heading", name="Oefenen met een partij").wait_for()
    trainee.locator(".training input[type=file]").set_input_files(str(saved))
    wait_for_state(trainee, "app => app.view?.sheet?.rounds?.[0]?.rack?.length === 7")
    training = sheet_of(trainee)
    assert training["players"] == [None] or len(training["players"]) == 1
    assert "".join(training["rounds"][0]["rack"]) == "PLANKES"
    post(trainee, server, {"type": "close_round", "round": 0})
    wait_for_state(trainee, "app => app.view?.sheet?.rounds?.length === 2")
    assert sheet_of(trainee)["rounds"][0]["top"] == played["top"]  # the same top again
    assert missing_strings(trainee) == [] and missing_strings(director) == []
    shot(trainee, "record-training")
    for page in (director, trainee):
        page.context.close()


def test_an_import_of_another_file_says_it_is_no_game_record(
    browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    phone = open_app(browser, server.url, "nl")
    show(phone, "start")
    other = tmp_path / "boodschappen.json"
    other.write_text(json.dumps({"melk": 2}), encoding="utf-8")
    phone.locator(".training input[type=file]").set_input_files(str(other))
    expect(phone.get_by_text("Dit bestand is geen partijverslag van Tilestream.")).to_be_visible()
    phone.context.close()


def test_after_a_new_game_the_phone_links_to_the_previous_games_sheet(
    browser: Browser, server: ServerProcess
) -> None:
    director = open_app(browser, server.url, "nl")
    create_table(director, ["Anna", "Bas"], mode=DUPLICATE)
    post(director, server, {"type": "set_rack", "rack": "PLANKES"})
    post(director, server, {"type": "close_round", "round": 0})
    top = sheet_of(director)["rounds"][0]["top"]
    post(director, server, {"type": "new_game"})
    wait_for_state(director, "app => app.view.sheet.rounds[0].top === null")
    show(director, "table")
    previous = director.locator("#print-links").get_by_role(
        "link", name="Uitslagformulier van het vorige spel"
    )
    with director.context.expect_page() as opened:
        previous.click()
    sheet = opened.value
    ready(sheet)
    expect(sheet.locator("body")).to_contain_text("Anna")
    expect(sheet.locator("body")).to_contain_text(str(top))
    assert missing_strings(sheet) == []


def test_the_sheet_counts_the_players_ranked_not_one_taken_out(
    browser: Browser, server: ServerProcess
) -> None:
    """A player the director took out keeps their slips of the rounds they played, but no
    place: the sheet's head counts the ranked players."""
    phone = open_app(browser, server.url, "nl")
    phone.evaluate("""() => localStorage.setItem('tilestream.session',
        JSON.stringify({table: 'synthetic', token: 'token', role: 'host', seat: null}))""")
    room = synthetic(5, 2)
    out = msgspec.structs.replace(
        room, results=tuple(row for row in room.results if row.player != 2)
    )
    page = print_record(phone, record.encode(out))
    expect(page.locator("table.record.results tbody tr")).to_have_count(4)
    expect(page.locator("body")).to_contain_text("Spelers: 4")
    expect(page.locator("body")).not_to_contain_text("Spelers: 5")
    phone.context.close()
