"""The phone app's first load: bytes on the wire and time to a usable start page.

Run: ``python -m bench.web`` (about a minute; ``--runs N``, default 15).

A real ``tilestream serve`` (SQLite in a temporary folder) and Debian's Chromium through
Playwright, as the browser tests use them. Every run is a fresh browser context, so the
cache is empty, on a 390 px phone viewport in Dutch, loading ``/``:

- **bytes**: the sum over every response of CDP ``Network.loadingFinished``'s
  ``encodedDataLength`` — headers plus the body as sent, gzipped by the server's
  GZipMiddleware (DevTools' "transferred"). Goal ≤ 60 KB (60,000 bytes). Baseline: the
  same load asking for ``Accept-Encoding: identity``, i.e. what gzip saves.
- **usable**: from navigation start (``performance.now()`` of the new page) to the moment
  ``body[data-ready=true]`` holds and the start form's submit button is visible, seen by a
  MutationObserver installed before the page's own scripts, with the CPU slowed 4×
  (CDP ``Emulation.setCPUThrottlingRate``) as on a cheap phone. Goal ≤ 1.5 s. Baseline:
  the same load without the slowdown.

Loopback has no network latency; the figures are the page's own weight and work. A table
lists the heaviest files of one load, so an over-budget page shows what to trim; the last
one what each view loaded later costs (its modules, styles and API calls, the websocket's
frames not counted), one phone opening them in turn.
"""

import argparse
import os
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from bench.browser import PHONE, create_table, launch, ready, show
from bench.serving import ServerProcess

BYTES_GOAL = 60_000
USABLE_GOAL = 1500.0  # ms, with the CPU slowed 4×
SLOWDOWN = 4
HEAVIEST = 12  # files listed

# Installed before any script of the page: notes when the start page can first be used.
USABLE = """
(() => {
  const check = () => {
    if (window.__usable !== undefined) return;
    const ready = document.body && document.body.dataset.ready === "true";
    const button = document.querySelector("form.setup button[type=submit]");
    if (!ready) return;
    if (button && button.checkVisibility()) {
      window.__usable = performance.now();
      observer.disconnect();
    } else {
      requestAnimationFrame(check);  // ready, but styles or layout still to come
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true });
})();
"""


class File(NamedTuple):
    """One response of a load."""

    path: str
    kind: str
    encoding: str
    transferred: int  # headers + body as sent
    headers: int  # of which the response headers
    size: int  # the body after decoding


class Load(NamedTuple):
    """One first load of the app."""

    usable: float  # ms from navigation start
    files: tuple[File, ...]

    @property
    def transferred(self) -> int:
        return sum(f.transferred for f in self.files)

    @property
    def headers(self) -> int:
        return sum(f.headers for f in self.files)


class Recorder:
    """Every response a page receives, from CDP's network events, as ``File`` rows."""

    def __init__(self, page: Page, base: str) -> None:
        self.base = base
        self.cdp = page.context.new_cdp_session(page)
        self.seen: dict[str, dict[str, Any]] = {}
        self.cdp.on("Network.responseReceived", self._received)
        self.cdp.on("Network.dataReceived", self._data)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.send("Network.enable")

    def _received(self, event: dict[str, Any]) -> None:
        response = event["response"]
        headers = {k.lower(): v for k, v in response["headers"].items()}
        self.seen[event["requestId"]] = {
            "path": response["url"].removeprefix(self.base) or "/",
            "kind": event["type"],
            "encoding": headers.get("content-encoding", "—"),
            "headers": int(response.get("encodedDataLength", 0)),
            "size": 0,
        }

    def _data(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.seen:
            self.seen[event["requestId"]]["size"] += event["dataLength"]

    def _finished(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.seen:
            self.seen[event["requestId"]]["transferred"] = int(event["encodedDataLength"])

    def take(self) -> tuple[File, ...]:
        """The responses finished since the last take."""
        done = [key for key, f in self.seen.items() if "transferred" in f]
        return tuple(File(**self.seen.pop(key)) for key in done)


def context_for(
    browser: Browser, encoding: str | None = None, workers: bool = True
) -> BrowserContext:
    headers = {"Accept-Encoding": encoding} if encoding else {}
    return browser.new_context(
        viewport=PHONE,
        locale="nl",
        device_scale_factor=1,
        extra_http_headers=headers,
        service_workers="allow" if workers else "block",
    )


def load(browser: Browser, url: str, slowdown: float = 1, encoding: str | None = None) -> Load:
    """Load ``url`` in a fresh context (empty cache) and wait until all is quiet."""
    context = context_for(browser, encoding)
    try:
        page = context.new_page()
        recorder = Recorder(page, url)
        recorder.cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
        page.add_init_script(USABLE)
        page.goto(url + "/", wait_until="load", timeout=60_000)
        usable = page.wait_for_function("() => window.__usable", timeout=60_000).json_value()
        page.wait_for_load_state("networkidle", timeout=60_000)
        return Load(float(usable), recorder.take())
    finally:
        context.close()


def quiet(page: Page) -> None:
    """Until the page's requests have settled (the websocket does not count)."""
    page.wait_for_load_state("networkidle", timeout=60_000)
    page.wait_for_timeout(300)  # a module a view imports once its state arrived


# What a phone loads only when it first needs it, step by step after the first load: each
# step names what it opened, and how to open it.
LATER: list[tuple[str, Callable[[Page], object]]] = [
    ("Score a move: the calculator", lambda page: show(page, "score")),
    ("a classic table started: the sheet, the host's devices",
     lambda page: create_table(page, ["Ann", "Bas", "Cas"])),
    ("Tiles", lambda page: show(page, "tiles")),
    ("Table", lambda page: show(page, "table")),
]  # fmt: skip
#: Tables started afresh, each in its own context: the mode's label on the start form.
FRESH = {
    "a duplicate table started: its sheet, the host's devices": (
        "Duplicate: iedereen dezelfde letters"
    ),
    "an online game started: the play view, the host's devices": "Online spelen",
}


def later(browser: Browser, url: str) -> list[tuple[str, tuple[File, ...]]]:
    """The bytes of each view loaded after the first load (gzip, empty cache), in one
    context for the steps of LATER and a fresh one for each table of FRESH.

    The service worker is blocked here: it fetches every view's modules in the background
    after the first load (so that each opens offline), which would make them cost nothing
    here; these are the bytes a view costs, whoever fetches them.
    """
    steps: list[tuple[str, tuple[File, ...]]] = []
    context = context_for(browser, workers=False)
    try:
        page = context.new_page()
        recorder = Recorder(page, url)
        page.goto(url + "/", wait_until="load", timeout=60_000)
        ready(page)
        quiet(page)
        steps.append(("first load", recorder.take()))
        for name, step in LATER:
            step(page)
            quiet(page)
            steps.append((name, recorder.take()))
    finally:
        context.close()
    for name, mode in FRESH.items():
        context = context_for(browser, workers=False)
        try:
            page = context.new_page()
            page.goto(url + "/", wait_until="load", timeout=60_000)
            ready(page)
            quiet(page)
            recorder = Recorder(page, url)
            create_table(page, ["Ann", "Bas"], mode=mode)
            quiet(page)
            steps.append((name, recorder.take()))
        finally:
            context.close()
    return steps


def show_later(steps: list[tuple[str, tuple[File, ...]]]) -> None:
    """Each later step's bytes on the wire and the files it loaded."""
    print("\nloaded later, one phone step by step (gzip, empty cache, no service worker):")
    print(f"{'step':<58} {'on the wire':>11} {'files':>6}  scripts and styles")
    for name, files in steps:
        code = sorted(f.path for f in files if f.kind in ("Script", "Stylesheet"))
        print(
            f"{name[:58]:<58} {sum(f.transferred for f in files):>11,} {len(files):>6}"
            f"  {', '.join(code) if name != 'first load' else '(above)'}"
        )


class Figures(NamedTuple):
    """A measurement over the runs: its samples and how to print them."""

    name: str
    samples: list[float]
    unit: str  # "KB" or "ms"

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def p99(self) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]

    def show(self, value: float) -> str:
        return f"{value / 1000:.1f} KB" if self.unit == "KB" else f"{value:.0f} ms"


def verdict(value: float, goal: float | None) -> str:
    return "" if goal is None else ("PASS" if value <= goal else "MISS")


def report(rows: list[tuple[Figures, Figures, float | None]]) -> None:
    """One line per measurement: median, p99, ratio to its baseline, goal and verdicts."""
    print(
        f"{'measurement':<40} {'median':>10} {'p99':>10} {'× base':>7} {'goal':>9}"
        f" {'median':>7} {'p99':>5}"
    )
    for figures, baseline, goal in rows:
        ratio = figures.median / baseline.median if baseline.median else float("nan")
        shown = "" if goal is None else "≤ " + figures.show(goal)
        print(
            f"{figures.name:<40} {figures.show(figures.median):>10}"
            f" {figures.show(figures.p99):>10} {ratio:>7.2f} {shown:>9}"
            f" {verdict(figures.median, goal):>7} {verdict(figures.p99, goal):>5}"
        )


def heaviest(one: Load) -> None:
    """The largest files of one load, by bytes on the wire."""
    total = one.transferred
    print(
        f"\nheaviest files of one gzip load: {len(one.files)} responses, {total:,} bytes,"
        f" of which {one.headers:,} in response headers"
    )
    print(f"{'file':<30} {'type':<10} {'encoding':<9} {'on the wire':>11} {'headers':>8}"
          f" {'decoded':>8} {'share':>6}")  # fmt: skip
    for f in sorted(one.files, key=lambda f: f.transferred, reverse=True)[:HEAVIEST]:
        print(
            f"{f.path[:30]:<30} {f.kind:<10} {f.encoding:<9} {f.transferred:>11,}"
            f" {f.headers:>8,} {f.size:>8,} {f.transferred / total:>6.0%}"
        )
    kinds: dict[str, int] = {}
    for f in one.files:
        kinds[f.kind] = kinds.get(f.kind, 0) + f.transferred
    ranked = sorted(kinds.items(), key=lambda kind: -kind[1])
    print("by type: " + ", ".join(f"{kind} {size:,}" for kind, size in ranked))
    plain = [f.path for f in one.files if f.encoding == "—" and f.size >= 500]
    if plain:
        print(f"not compressed (≥ 500 bytes): {', '.join(plain)}")


def runs(count: int, setups: list[Callable[[], Load]]) -> list[list[Load]]:
    """``count`` loads of each setup, interleaved, so that whatever else the machine does
    meanwhile weighs on every setup alike; after one warm-up load of each (the server's
    first answers, the catalog built once, are not a phone's)."""
    for one in setups:
        one()
    loads: list[list[Load]] = [[] for _ in setups]
    for _ in range(count):
        for done, one in zip(loads, setups, strict=True):
            done.append(one())
    return loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="loads per setup (default 15)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder, sync_playwright() as pw:
        browser = launch(pw)
        with ServerProcess(Path(folder)) as server:
            url = server.url
            before = os.getloadavg()[0]
            slow, fast, plain = runs(
                args.runs,
                [
                    lambda: load(browser, url, SLOWDOWN),
                    lambda: load(browser, url),
                    lambda: load(browser, url, encoding="identity"),
                ],
            )
            after = os.getloadavg()[0]
            steps = later(browser, url)
            server.assert_no_crash()
        browser.close()
    gzipped = Figures("first load, bytes (gzip)", [x.transferred for x in slow], "KB")
    identity = Figures("baseline: bytes without gzip", [x.transferred for x in plain], "KB")
    usable = Figures(f"usable start page, CPU {SLOWDOWN}× slower", [x.usable for x in slow], "ms")
    quick = Figures("baseline: usable start page, CPU 1×", [x.usable for x in fast], "ms")
    print(f"{args.runs} runs per row, each a fresh context (empty cache), Chromium, 390 px, nl")
    cores = os.cpu_count() or 1
    print(f"machine load (1-min average) {before:.1f} before, {after:.1f} after, {cores} cores")
    if max(before, after) > cores:
        print("  busy: other work shares the CPU, the times are noisy; compare the ratios")
    report(
        [
            (gzipped, identity, BYTES_GOAL),
            (identity, identity, None),
            (usable, quick, USABLE_GOAL),
            (quick, quick, None),
        ]
    )
    heaviest(slow[len(slow) // 2])
    show_later(steps)


if __name__ == "__main__":
    main()
