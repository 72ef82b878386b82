"""Lighthouse (mobile) on the start page and on a live sheet: performance and accessibility.

Run: ``python -m bench.lighthouse`` (about two minutes; ``--runs N``, default 3).

Needs npm's Lighthouse, which this module does not install: ``npm install -g lighthouse``
(12.x), and Debian's Chromium (``/usr/bin/chromium``; ``CHROMIUM`` overrides it, as for
``bench.browser``). A real ``tilestream serve`` (SQLite in a temporary folder); every run a
fresh headless Chromium with a profile of its own, which Lighthouse drives through its
debugging port (``--port``) with its defaults: a mid-range phone emulated (412 px, the CPU
slowed 4×, a slow 4G simulated), and the HTTP cache, the service worker and the cache
storage cleared before the load, so every load is a first one.

- **start**: ``/`` in a new profile.
- **sheet**: the same browser first starts a classic table of four on the start page and
  records a few turns, as a phone at a table would; Lighthouse keeps local storage, so its
  cold load of ``/#view=sheet`` opens the live sheet as a phone at its table does.

Each page's figures are the median of its runs: the performance and accessibility scores,
Largest Contentful Paint, Total Blocking Time and Cumulative Layout Shift; then what the
median run flagged (accessibility audits failed, performance audits below 0.9). Goal on the
sheet: performance ≥ 95, accessibility 100. The machine's load average is quoted before and
after: Lighthouse's timings are simulated from what it observes, so a busy machine lowers
the performance score.

So does a slow one: the 4× slowdown is Lighthouse's for a high-end desktop (its
``benchmarkIndex`` 1,500–2,000, which turns it into a mid-tier phone); on a slower host the
phone emulated is slower than that. The host's median index is quoted, and a host below the
range is said to be; ``--cpu-slowdown`` sets another multiplier (Lighthouse's
``throttling.cpuSlowdownMultiplier``, as its throttling guide suggests by the host's index),
which the report then names.
"""

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from playwright.sync_api import Page, sync_playwright

from bench.browser import ARGS, CHROMIUM, create_table, ready, wait_for_state
from bench.serving import Api, ServerProcess
from bench.timing import load_average

PERFORMANCE_GOAL = 95
ACCESSIBILITY_GOAL = 100
PLAYERS = ["Anna", "Bas", "Cor", "Dirk"]
TURNS = [23, 14, 31, 8, 40, 17, 26, 12]  # points the seats score in turn
START_TIMEOUT = 20.0  # seconds for Chromium's debugging port to answer
RETRIES = 2  # failed Lighthouse runs a page may have before the benchmark gives up
CALIBRATED = 1_500  # Lighthouse's benchmarkIndex of the slowest host its 4× slowdown is for


class Figures(NamedTuple):
    """One Lighthouse run of one page."""

    performance: float  # score, 0–100
    accessibility: float
    lcp: float  # ms
    tbt: float  # ms
    cls: float
    flagged: tuple[str, ...]  # what the run found wanting
    host: float  # Lighthouse's benchmarkIndex of the machine, in this run


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def chromium() -> Iterator[int]:
    """A fresh headless Chromium (a new profile, in Dutch) until the block ends; its
    debugging port."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="lighthouse-profile-") as profile:
        process = subprocess.Popen(
            [CHROMIUM, "--headless=new", f"--remote-debugging-port={port}",
             f"--user-data-dir={profile}", "--lang=nl", "--accept-lang=nl", *ARGS, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=1)
                    break
                except OSError:
                    if time.monotonic() > deadline or process.poll() is not None:
                        raise RuntimeError("Chromium's debugging port did not answer") from None
                    time.sleep(0.1)
            yield port
        finally:
            process.terminate()
            process.wait(10)


def seat_at_a_table(port: int, server: ServerProcess) -> None:
    """In the browser on ``port``: a classic table of four started from the start page, a
    few turns recorded; the phone's place at it stays in local storage."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
        page = browser.contexts[0].new_page()
        page.set_default_timeout(15_000)
        page.goto(server.url + "/")
        ready(page)
        create_table(page, PLAYERS)
        for points in TURNS:
            record(page, server.api(), {"type": "enter_points", "points": points})
        page.close()
        browser.close()  # lets go of the browser; Chromium and its profile stay


def record(page: Page, api: Api, command: dict[str, Any]) -> None:
    """Record ``command`` over HTTP with the phone's token, for the turn the phone shows."""
    session = page.evaluate("() => JSON.parse(localStorage.getItem('tilestream.session'))")
    body = page.evaluate(
        """async (command) => {
            const { app } = await import('/js/state.js');
            const { refer } = await import('/js/turn.js');
            return refer(app.view.sheet, command, null);
        }""",
        command,
    )
    reply = api.command(session["table"], session["token"], str(uuid.uuid4()), body)
    if reply.status != 200:
        raise RuntimeError(f"the command was refused: {reply.body!r}")
    wait_for_state(page, f"app => app.view?.seq >= {reply.json()['seq']}")


def lighthouse(port: int, url: str, output: Path, slowdown: float | None) -> Figures:
    """One Lighthouse run of ``url`` in the browser on ``port`` (``slowdown``: a CPU
    slowdown other than Lighthouse's own)."""
    subprocess.run(
        ["lighthouse", url, f"--port={port}", "--only-categories=performance,accessibility",
         "--output=json", f"--output-path={output}", "--quiet",
         *([f"--throttling.cpuSlowdownMultiplier={slowdown:g}"] if slowdown else [])],
        check=True, env={**os.environ, "CHROME_PATH": CHROMIUM},
    )  # fmt: skip
    report = json.loads(output.read_text("utf-8"))
    categories, audits = report["categories"], report["audits"]
    flagged = tuple(
        f"{name}: {ref['id']} ({audits[ref['id']].get('displayValue') or ''})"
        for name, category in categories.items()
        for ref in category["auditRefs"]
        if wanting(name, ref["weight"], audits[ref["id"]])
    )
    return Figures(
        round(categories["performance"]["score"] * 100),
        round(categories["accessibility"]["score"] * 100),
        audits["largest-contentful-paint"]["numericValue"],
        audits["total-blocking-time"]["numericValue"],
        audits["cumulative-layout-shift"]["numericValue"],
        flagged,
        report["environment"]["benchmarkIndex"],
    )


def wanting(category: str, weight: float, audit: dict[str, Any]) -> bool:
    """Whether the run found the page wanting here: an accessibility audit failed, or a
    performance diagnostic or opportunity (no weight in the score) below 0.9."""
    if category == "accessibility":
        return bool(audit["score"] == 0)
    if weight != 0 or audit["score"] is None:
        return False
    return audit["scoreDisplayMode"] in ("numeric", "metricSavings") and audit["score"] < 0.9


def measure(
    runs: int,
    server: ServerProcess,
    path: str,
    setup: Callable[[int], None],
    folder: Path,
    slowdown: float | None,
) -> list[Figures]:
    found: list[Figures] = []
    attempts = 0
    while len(found) < runs:
        attempts += 1
        with chromium() as port:
            setup(port)
            try:
                output = folder / f"{len(found)}.json"
                found.append(lighthouse(port, server.url + path, output, slowdown))
            except subprocess.CalledProcessError:
                # Lighthouse now and then loses its trace (NO_NAVSTART on a busy machine)
                if attempts >= runs + RETRIES:
                    raise
                print(f"{path}: Lighthouse failed, run again")
    return found


def median(found: list[Figures]) -> Figures:
    """Each figure's median; what the run of the median performance flagged."""
    middle = sorted(found, key=lambda f: f.performance)[len(found) // 2]
    return Figures(
        statistics.median(f.performance for f in found),
        statistics.median(f.accessibility for f in found),
        statistics.median(f.lcp for f in found),
        statistics.median(f.tbt for f in found),
        statistics.median(f.cls for f in found),
        middle.flagged,
        statistics.median(f.host for f in found),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per page (default: 3)")
    parser.add_argument("--reports", type=Path, help="keep Lighthouse's JSON reports here")
    parser.add_argument(
        "--cpu-slowdown", type=float, help="Lighthouse's CPU slowdown multiplier (its own: 4)"
    )
    args = parser.parse_args()
    if shutil.which("lighthouse") is None:
        raise SystemExit("lighthouse is missing: npm install -g lighthouse")
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as folder:
        server = ServerProcess(Path(folder) / "data")
        server.start()
        try:
            pages = {
                "start": ("/", lambda port: None),
                "sheet": ("/#view=sheet", lambda port: seat_at_a_table(port, server)),
            }
            results = {}
            for name, (path, setup) in pages.items():
                reports = (args.reports or Path(folder)) / name
                reports.mkdir(parents=True, exist_ok=True)
                found = measure(args.runs, server, path, setup, reports, args.cpu_slowdown)
                results[name] = median(found)
        finally:
            server.stop()
    print(f"load average after: {load_average()}")
    slowdown = f"{args.cpu_slowdown:g}× (set)" if args.cpu_slowdown else "4× (its own)"
    print(
        f"\nLighthouse {version()}, mobile, CPU slowdown {slowdown},"
        f" median of {args.runs} runs a page"
    )
    print(f"{'page':<6} {'perf':>5} {'a11y':>5} {'LCP ms':>8} {'TBT ms':>7} {'CLS':>6}")
    for name, f in results.items():
        print(f"{name:<6} {f.performance:>5.0f} {f.accessibility:>5.0f} {f.lcp:>8.0f} "
              f"{f.tbt:>7.0f} {f.cls:>6.3f}")  # fmt: skip
    for name, f in results.items():
        for line in f.flagged:
            print(f"{name}: {line}")
    host = statistics.median(f.host for f in results.values())
    slow = (
        f", below the {CALIBRATED:,}–2,000 Lighthouse's 4× slowdown is for: the phone emulated"
        " is slower than its mid-tier one (its throttling guide names 2×, 1–5, for a host of"
        " 1,000–1,500)"
    )
    print(f"\nhost: benchmarkIndex {host:,.0f}{slow if host < CALIBRATED else ''}")
    sheet = results["sheet"]
    met = sheet.performance >= PERFORMANCE_GOAL and sheet.accessibility >= ACCESSIBILITY_GOAL
    print(f"sheet goal (performance ≥ {PERFORMANCE_GOAL}, accessibility "
          f"{ACCESSIBILITY_GOAL}): {'met' if met else 'NOT met'}")  # fmt: skip


def version() -> str:
    return subprocess.run(
        ["lighthouse", "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()


if __name__ == "__main__":
    main()
