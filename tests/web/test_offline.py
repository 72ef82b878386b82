"""Installable and resilient: a manifest with icons, a favicon on every page, a service
worker that serves the app's files with the server away; a phone that reloads then shows the
last sheet it saw, marked as not live, and a command tapped in is sent once, for the turn it
named, when the server is back. A phone that left its table keeps nothing of the sheet."""

import re
import struct

from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess, request
from tests.web.browser import (
    ROOT,
    create_table,
    join_table,
    line_kinds,
    open_app,
    post,
    ready,
    session_of,
    shot,
    show,
    wait_for_state,
)

NOT_LIVE = "Niet live: geen verbinding met de tafel."
STATIC_IMPORT = re.compile(r'^(?:import|export)\b[^;]*?["\'](\./[\w-]+\.js)["\']', re.MULTILINE)
WORKER_LIST = re.compile(r"const SHELL = \[(.*?)\];", re.DOTALL)


def imported(module: str) -> set[str]:
    """``module`` (a path such as /js/app.js) and every module it imports statically, on and
    on: what a browser fetches with it."""
    found, todo = set(), [module]
    while todo:
        path = todo.pop()
        if path not in found:
            found.add(path)
            source = (ROOT / "web" / path.removeprefix("/")).read_text("utf-8")
            todo += [f"/js/{name.removeprefix('./')}" for name in STATIC_IMPORT.findall(source)]
    return found


def test_the_worker_keeps_every_module_a_view_loaded_later_needs() -> None:
    """A view the phone loads on demand (a game online, a room's slip) works offline after a
    release only if the worker fetched all it imports at install: what the start page does
    not import already, it lists."""
    listed = WORKER_LIST.search((ROOT / "web" / "sw.js").read_text("utf-8"))
    assert listed is not None
    shell = set(re.findall(r'"(/[^"]*)"', listed.group(1)))
    at_start = imported("/js/app.js")
    needed = set().union(*(imported(path) for path in shell if path.endswith(".js")))
    assert {"/js/play.js", "/js/rack.js"} <= needed  # the list and the imports were read
    assert needed - shell - at_start == set()


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def failures(page: Page) -> list[str]:
    """Every answer of 400 or more this page gets from now on (filled as they come)."""
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else 0)
    return failed


def worker_in_control(page: Page) -> None:
    """The service worker controls the page and keeps every file the page loaded."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function(
        """async () => {
            const cache = await caches.open('tilestream-shell-1');
            const kept = new Set((await cache.keys()).map((r) => new URL(r.url).pathname));
            const used = performance.getEntriesByType('resource').map((e) => new URL(e.name))
                .filter((u) => u.origin === location.origin && u.pathname !== '/sw.js'
                    && (!u.pathname.startsWith('/api/') || u.pathname === '/api/catalog'))
                .map((u) => u.pathname);
            return kept.has('/') && used.every((path) => kept.has(path));
        }""",
        polling=100,
    )


def kept_answers(page: Page) -> list[str]:
    """The paths the service worker keeps."""
    return page.evaluate(
        """async () => {
            const cache = await caches.open('tilestream-shell-1');
            return (await cache.keys()).map((r) => new URL(r.url).pathname);
        }"""
    )


def test_the_manifest_icons_and_favicon_load_and_the_worker_registers(
    browser: Browser, server: ServerProcess
) -> None:
    phone = open_app(browser, server.url)
    failed = failures(phone)
    phone.reload()
    ready(phone)
    manifest = phone.evaluate(
        """async () => {
            const answer = await fetch(document.querySelector('link[rel=manifest]').href);
            return { type: answer.headers.get('content-type'), body: await answer.json() };
        }"""
    )
    assert manifest["type"].startswith("application/manifest+json")
    body = manifest["body"]
    assert body["name"] == "Tilestream" and body["start_url"] == "/"
    assert body["display"] == "standalone" and body["theme_color"] == "#0b5cad"
    sizes = {}
    for icon in body["icons"]:
        answer = request(server.url, "GET", icon["src"])
        assert answer.status == 200, icon["src"]
        assert answer.content_type.startswith(icon["type"]), icon["src"]
        if icon["type"] == "image/png":
            width, height = png_size(answer.body)
            assert icon["sizes"] == f"{width}x{height}"
            sizes.setdefault(icon.get("purpose", "any"), set()).add(width)
    assert {192, 512} <= sizes["any"] and 512 in sizes["maskable"]
    favicon = request(server.url, "GET", "/favicon.ico")
    assert favicon.status == 200 and favicon.body[:4] == b"\x00\x00\x01\x00"
    scope = phone.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == server.url + "/"
    # Every page names an icon that loads, and asks for nothing that is not there.
    for path, installable in (
        ("/", True),
        ("/display.html", True),
        ("/print.html?page=classic&players=2", False),
    ):
        phone.goto(server.url + path)
        ready(phone)
        phone.wait_for_load_state("networkidle")
        href = phone.evaluate("() => document.querySelector('link[rel=icon]').href")
        assert request(server.url, "GET", href.removeprefix(server.url)).status == 200
        assert phone.locator("link[rel=manifest]").count() == int(installable)
    assert failed == []
    phone.context.close()


def test_the_room_display_opened_first_registers_the_worker_and_reloads_offline(
    browser: Browser, own_server: ServerProcess
) -> None:
    display = open_app(browser, own_server.url, path="/display.html")
    display.wait_for_function(
        "async () => (await navigator.serviceWorker.getRegistration())?.active != null",
        polling=100,
        timeout=10_000,
    )
    worker_in_control(display)
    own_server.stop()
    display.reload()  # the room display's own page, not the browser's error page
    ready(display)
    expect(display.locator("#main")).not_to_be_empty()
    display.context.close()


def test_a_reload_with_the_server_away_shows_the_kept_sheet_and_sends_a_tap_once(
    browser: Browser, own_server: ServerProcess
) -> None:
    host = open_app(browser, own_server.url)
    create_table(host, ["Anna", "Bas"])
    post(host, own_server, {"type": "enter_points", "points": 12})  # Anna's turn
    wait_for_state(host, "app => app.view.sheet.totals[0] === 12")
    worker_in_control(host)
    before = host.evaluate("async () => (await import('/js/state.js')).app.view.seq")
    assert not any(path.startswith("/api/tables/") for path in kept_answers(host))

    own_server.stop()
    host.reload()  # the browser's error page without the worker
    ready(host)
    wait_for_state(host, "app => app.kept && !app.online && app.view.sheet.totals[0] === 12")
    banner = host.locator("#banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(NOT_LIVE)
    expect(host.locator("body")).to_have_class("not-live")
    pass_button = host.locator("#sheet-pass")
    expect(pass_button).to_be_visible()  # the sheet as it was, Bas to move
    shot(host, "offline-reload-kept-sheet-nl", full_page=False)
    pass_button.click()  # Bas passes, tapped with the server away
    outbox = host.evaluate(
        """() => {
            const session = JSON.parse(localStorage.getItem('tilestream.session'));
            return JSON.parse(localStorage.getItem(`tilestream.outbox.${session.token}`));
        }"""
    )
    assert [item["command"]["type"] for item in outbox] == ["pass"]
    # The turn the kept sheet showed: Bas's first.
    assert {k: v for k, v in outbox[0]["command"]["turn"].items() if k != "game"} == {
        "player": 1,
        "number": 0,
    }

    own_server.start()
    wait_for_state(host, "app => app.online && !app.kept", timeout=30)
    expect(banner).to_be_hidden()
    expect(host.locator("body")).not_to_have_class("not-live")
    wait_for_state(host, f"app => app.view.seq === {before + 1}", timeout=15)
    assert line_kinds(host) == ["points", "pass"]
    session = session_of(host)
    view = own_server.api().view(session["table"], session["token"]).json()
    assert [line["kind"] for line in view["sheet"]["lines"]] == ["points", "pass"]
    assert view["sheet"]["lines"][1]["player"] == 1  # Bas
    # Sent once: nothing is left to send, and a reload sends nothing again. A phone sends
    # its outbox as it comes online, before anything tapped after on the same socket: once
    # Anna's pass, tapped after the reload, is answered, nothing else was recorded first.
    host.reload()
    ready(host)
    wait_for_state(host, "app => app.online")
    pass_button.click()
    host.wait_for_function(
        """() => {
            const session = JSON.parse(localStorage.getItem('tilestream.session'));
            return localStorage.getItem(`tilestream.outbox.${session.token}`) === '[]';
        }"""
    )
    assert own_server.api().seq(session["table"], session["token"]) == before + 2
    view = own_server.api().view(session["table"], session["token"]).json()
    assert [(line["kind"], line["player"]) for line in view["sheet"]["lines"][1:]] == [
        ("pass", 1),
        ("pass", 0),
    ]
    host.context.close()


def test_a_phone_that_left_its_table_keeps_nothing_of_the_sheet(
    browser: Browser, own_server: ServerProcess
) -> None:
    host = open_app(browser, own_server.url)
    code = create_table(host, ["Anna", "Bas"])
    guest = open_app(browser, own_server.url, clock=True)
    join_table(guest, code, "Bas")
    post(host, own_server, {"type": "enter_points", "points": 31})
    wait_for_state(guest, "app => app.view.sheet.totals[0] === 31")
    worker_in_control(guest)
    stored = "() => Object.keys(localStorage).filter((k) => k.startsWith('tilestream.view.'))"
    guest.wait_for_function(f"() => ({stored})().length === 1")  # within a second of a change

    # Leaving just after a change: the view waiting to be written is not written after all.
    post(host, own_server, {"type": "enter_points", "points": 12})
    wait_for_state(guest, "app => app.view.sheet.totals[1] === 12")
    show(guest, "table")
    asked: list[str] = []
    guest.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    guest.get_by_role("button", name="Tafel verlaten").click()
    wait_for_state(guest, "app => app.session === null")
    assert "je plaats blijft bezet" in asked[0]  # coming back takes the host
    wait_for_state(guest, "app => app.session === null && app.view === null")
    guest.clock.run_for(2_000)  # past the second a change waits to be written (session.js)
    assert guest.evaluate(stored) == []
    assert not any(path.startswith("/api/tables/") for path in kept_answers(guest))

    own_server.stop()
    guest.reload()
    ready(guest)
    guest.clock.run_for(2_000)  # past the delay of a not-live banner (offline.js)
    assert guest.evaluate(
        "async () => { const { app } = await import('/js/state.js');"
        " return [app.session, app.view, app.kept]; }"
    ) == [None, None, False]
    expect(guest.locator("#banner")).to_be_hidden()
    expect(guest.locator("#sheet-pass")).to_have_count(0)
    expect(guest.get_by_text("31")).to_have_count(0)
    shot(guest, "offline-reload-after-leaving-nl", full_page=False)
    for page in (host, guest):
        page.context.close()
