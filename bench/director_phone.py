"""The director's phone in a room of 200 as the slips come in: how far behind it shows them.

Run: ``python -m bench.director_phone`` (about half a minute; ``--rate N`` slips a second,
20 by default, as in a round's last seconds; ``--players N``, 200).

A real ``tilestream serve`` (SQLite in a temporary folder) and Debian's Chromium through
Playwright: the director's phone (390 px, in Dutch) opens a duplicate room, the players
register by name over HTTP, the director draws the rack on the phone, then every player
hands a valid slip in over HTTP, ``--rate`` a second. The phone's CPU is slowed 4× (CDP
``Emulation.setCPUThrottlingRate``), as on a mid-range phone; the baseline is the same burst
in a room of its own with the phone at the host's own speed, in the same run.

Per slip: from its command's answer (it is recorded) to the moment the director's screen
counts it among the slips in (a MutationObserver on the roster's count, in the page; both
clocks are this machine's). Printed: median, p99 and the ratio of each to the baseline's;
then how often the phone drew the room for the frames it got, and the share of the burst it
spent in long tasks.
"""

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from playwright.sync_api import Browser, sync_playwright

import editions
import wordlists
from bench.browser import PHONE, create_table, launch, ready, wait_for_state
from bench.serving import ServerProcess, device_key, slip
from bench.timing import Figures, load_average
from rules.board.board import Board
from rules.movegen.moves import Move, generate

DUPLICATE = "Duplicate: iedereen dezelfde letters"
SLOWDOWN = 4
SLIPS = "#roster-slips"  # "Briefjes binnen: 12 van 200"

# In the page, before the burst: when the screen first counted each number of slips in
# (performance time, as the epoch's ms), and every drawing of the screens.
WATCH = """async () => {
    window.bench = { shown: {}, draws: 0, busy: 0 };
    (await import('/js/state.js')).subscribe(() => { window.bench.draws += 1; });
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.bench.busy += entry.duration;
    }).observe({ type: 'longtask' });
    const seen = () => {
        const count = Number(document.querySelector('#roster-slips')?.textContent.match(/\\d+/));
        if (count && !(count in window.bench.shown)) {
            window.bench.shown[count] = performance.timeOrigin + performance.now();
        }
    };
    new MutationObserver(seen).observe(document.getElementById('main'),
        { subtree: true, childList: true, characterData: true });
}"""


class Burst(NamedTuple):
    """One burst of slips on the director's phone."""

    lags: list[float]  # ms per slip, from recorded to counted on the screen
    frames: int  # slips handed in (a frame each to the phone)
    draws: int
    busy: float  # share of the burst in long tasks
    seconds: float  # the burst, first slip to the screen's last count


def valid_moves(sheet: dict[str, Any]) -> list[Move]:
    """Twenty moves of the open round's rack: the slips the players hand in."""
    board = Board.from_rows(editions.get("nl"), sheet["board"])
    rack = "".join(sheet["rounds"][-1]["rack"])
    return generate(board, rack, wordlists.get("nl").graph)[:20]


def burst(browser: Browser, server: ServerProcess, players: int, rate: float,
          slowdown: float) -> Burst:  # fmt: skip
    context = browser.new_context(viewport=PHONE, locale="nl-NL")
    try:
        page = context.new_page()
        page.set_default_timeout(120_000)
        page.goto(server.url + "/")
        ready(page)
        code = create_table(page, ["Speler 1"], mode=DUPLICATE)
        # Each from an address of its own: the server allows an address 20 joins a minute.
        joined = [server.api().join(code, name=f"Speler {n}") for n in range(1, players + 1)]
        wait_for_state(page, f"app => app.view.sheet.players.length === {players}", 60)
        page.locator("#room-start > summary").click()
        page.get_by_role("button", name="Plankje trekken").click()
        wait_for_state(page, "app => app.view.sheet.rounds[0]?.rack?.length === 7", 30)
        sheet = page.evaluate("async () => (await import('/js/state.js')).app.view.sheet")
        moves, round_ = valid_moves(sheet), len(sheet["rounds"]) - 1
        page.context.new_cdp_session(page).send(
            "Emulation.setCPUThrottlingRate", {"rate": slowdown}
        )
        page.evaluate(WATCH)
        recorded: list[float] = []
        began = time.monotonic()
        for n, player in enumerate(joined):
            handed = slip(moves[n % len(moves)], sheet["started"], player["seat"], round_)
            reply = server.api().command(player["table"], player["token"], device_key(), handed)
            if reply.status != 200:
                raise RuntimeError(f"the slip was refused: {reply.body!r}")
            recorded.append(time.time() * 1000)
            pause = began + (n + 1) / rate - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        page.wait_for_function(
            f"() => window.bench.shown[{players}] !== undefined", timeout=300_000
        )
        seen = page.evaluate("() => window.bench")
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 1})
    finally:
        context.close()
    shown = {int(count): at for count, at in seen["shown"].items()}
    # A count the screen skipped (frames drawn together) was shown with the next one drawn.
    lags = [min(at for count, at in shown.items() if count >= n) - recorded[n - 1]
            for n in range(1, players + 1)]  # fmt: skip
    seconds = (shown[players] - recorded[0]) / 1000
    return Burst(lags, players, seen["draws"], seen["busy"] / 1000 / seconds, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, default=20.0, help="slips a second (20)")
    parser.add_argument("--players", type=int, default=200, help="players in the room (200)")
    args = parser.parse_args()
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="bench-director-") as folder:
        server = ServerProcess(Path(folder) / "data")
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = launch(playwright)
                base = burst(browser, server, args.players, args.rate, 1)
                slow = burst(browser, server, args.players, args.rate, SLOWDOWN)
                browser.close()
        finally:
            server.stop()
    print(f"load average after: {load_average()}")
    print(
        f"a room of {args.players}, {args.rate:g} slips a second; per slip, recorded → counted"
        " on the director's screen"
    )
    print(f"{'phone':<28} {'median ms':>10} {'p99 ms':>9} {'× base':>8} {'draws':>12}"
          f" {'busy':>6} {'burst s':>8}")  # fmt: skip
    baseline = Figures("baseline", base.lags)
    for name, b in (("host's speed (baseline)", base), (f"CPU slowed {SLOWDOWN}×", slow)):
        lags = Figures(name, b.lags)
        print(
            f"{name:<28} {lags.median:>10.0f} {lags.p99:>9.0f}"
            f" {lags.median / baseline.median:>8.1f}"
            f" {f'{b.draws} / {b.frames}':>12} {b.busy:>6.0%} {b.seconds:>8.1f}"
        )


if __name__ == "__main__":
    main()
