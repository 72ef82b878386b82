"""Live: changes reach every phone without a reload; a lost server shows a quiet banner, the
phones reconnect by themselves, and a command tapped while offline lands exactly once.

After its first whole view a phone is sent only what changed; the view it makes of each
change is the server's own, and a phone that missed changes, or holds a view a change does
not follow, gets the whole view again (a big one compressed, as a binary frame)."""

import gzip
import json
from typing import Any

from playwright.sync_api import Browser, Page, WebSocket, expect

from tests.server.serving import ServerProcess
from tests.web.browser import (
    create_table,
    join_table,
    line_kinds,
    open_app,
    post,
    session_of,
    shot,
    wait_for_state,
)


def sheet_seq(page: Page) -> int:
    return page.evaluate("async () => (await import('/js/state.js')).app.view.seq")


def send(page: Page, command: dict) -> None:
    """Tap a command through the app's own outbox (what every button does), naming the turn
    the phone shows as its buttons do."""
    page.evaluate(
        """async (c) => {
            const { app } = await import('/js/state.js');
            const { refer } = await import('/js/turn.js');
            (await import('/js/live.js')).send(refer(app.view.sheet, c)).catch(() => {});
        }""",
        command,
    )


def test_a_command_on_one_phone_reaches_the_other_without_a_reload(
    browser: Browser, server: ServerProcess
) -> None:
    host = open_app(browser, server.url)
    code = create_table(host, ["Anna", "Bas"])
    guest = open_app(browser, server.url)
    join_table(guest, code, "Anna")
    send(guest, {"type": "enter_points", "points": 12})
    wait_for_state(host, "app => app.view?.sheet?.totals[0] === 12")
    for page in (host, guest):
        page.context.close()


def test_offline_banner_reconnect_and_a_command_sent_once(
    browser: Browser, own_server: ServerProcess
) -> None:
    host = open_app(browser, own_server.url)
    code = create_table(host, ["Anna", "Bas"])
    guest = open_app(browser, own_server.url)
    join_table(guest, code, "Bas")
    wait_for_state(host, "app => app.view?.sheet")
    before = sheet_seq(host)

    own_server.kill()
    banner = host.locator("#banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Geen verbinding")
    shot(host, "offline-banner")
    send(host, {"type": "pass"})  # tapped while the server is down

    own_server.restart()
    expect(banner).to_be_hidden(timeout=30_000)
    for page in (host, guest):
        wait_for_state(page, f"app => app.view.seq === {before + 1}", timeout=30)
        assert line_kinds(page) == ["pass"]
    # The outbox is empty: a reload sends nothing again.
    host.reload()
    wait_for_state(host, "app => app.online")
    assert sheet_seq(host) == before + 1
    for page in (host, guest):
        page.context.close()


def test_a_command_queued_for_a_turn_recorded_meanwhile_is_refused_and_said(
    browser: Browser, server: ServerProcess
) -> None:
    """The host's phone tapped Pass for Anna while it was offline; Anna's own phone recorded
    her 24 meanwhile. Sent after a reload, the pass is refused, the phone says who recorded
    that turn and what, and the sheet has one line."""
    host = open_app(browser, server.url)
    code = create_table(host, ["Anna", "Bas"])
    anna = open_app(browser, server.url)
    join_table(anna, code, "Anna")
    stale = host.evaluate(
        """async () => {
            const { app } = await import('/js/state.js');
            const { refer } = await import('/js/turn.js');
            return refer(app.view.sheet, { type: 'pass' });
        }"""
    )
    anna.get_by_label("Punten, tot 2.000").fill("24")
    anna.get_by_role("button", name="Punten noteren").click()
    wait_for_state(host, "app => app.view.sheet.totals[0] === 24")
    host.evaluate(
        """(command) => {
            const session = JSON.parse(localStorage.getItem('tilestream.session'));
            localStorage.setItem(`tilestream.outbox.${session.token}`,
                JSON.stringify([{ id: crypto.randomUUID(), command }]));
        }""",
        stale,
    )
    host.reload()
    expect(host.get_by_role("alert")).to_have_text(
        "De beurt van Anna is net genoteerd door de telefoon van Anna: 24"
    )
    assert line_kinds(host) == ["points"]
    assert host.evaluate(
        "() => Object.keys(localStorage).filter(k => k.includes('outbox'))"
        " .map(k => localStorage.getItem(k))"
    ) == ["[]"]
    for page in (host, anna):
        page.context.close()


def frames_of(page: Page) -> list[str]:
    """The types of the messages the page's websockets receive from now on; a binary frame
    (a compressed state) as "state (gzip)"."""
    kinds: list[str] = []

    def read(payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            kinds.append(json.loads(gzip.decompress(payload))["type"] + " (gzip)")
        else:
            kinds.append(json.loads(payload)["type"])

    def opened(ws: WebSocket) -> None:
        ws.on("framereceived", read)

    page.on("websocket", opened)
    return kinds


def shown(page: Page) -> Any:
    return page.evaluate("async () => (await import('/js/state.js')).app.view")


def served(page: Page, server: ServerProcess) -> Any:
    """The view the server has for the page's device, over HTTP."""
    session = session_of(page)
    return server.api().view(session["table"], session["token"]).json()


def test_two_phones_follow_changes_and_an_undo_and_a_phone_that_missed_some_catches_up(
    browser: Browser, server: ServerProcess
) -> None:
    host = open_app(browser, server.url)
    host_frames = frames_of(host)
    code = create_table(host, ["Anna", "Bas"])
    guest = open_app(browser, server.url)
    guest_frames = frames_of(guest)
    join_table(guest, code, "Bas")
    for command, totals in (
        ({"type": "enter_points", "points": 12}, ["12", "0"]),
        ({"type": "enter_points", "points": 30}, ["12", "30"]),
        ({"type": "pass"}, ["12", "30"]),
        ({"type": "undo"}, ["12", "30"]),
        ({"type": "enter_points", "points": 7}, ["19", "30"]),
    ):
        post(host, server, command)
        wait_for_state(guest, f"app => app.view.seq === {shown(host)['seq']}")
        for page in (host, guest):
            expect(page.locator(".scoreboard .total")).to_have_text(totals)
            assert shown(page) == served(page, server)
    assert line_kinds(guest) == ["points", "points", "points"]
    for kinds in (host_frames, guest_frames):
        views = [k for k in kinds if k.startswith(("state", "change"))]
        assert views[0] == "state" and views.count("change") >= 5, kinds
        assert views[1:] == ["change"] * (len(views) - 1), kinds

    # The guest's phone loses its socket; the sheet grows past the size sent compressed.
    guest.evaluate("async () => (await import('/js/live.js')).disconnect()")
    for n in range(30):
        post(host, server, {"type": "enter_points", "points": n + 1})
    guest_frames.clear()
    guest.evaluate("async () => (await import('/js/live.js')).nudge()")
    wait_for_state(guest, f"app => app.online && app.view.seq === {shown(host)['seq']}")
    assert guest_frames[0] == "state (gzip)", guest_frames
    assert shown(guest) == served(guest, server)
    expect(guest.locator(".scoreboard .total")).to_have_text(
        [str(19 + sum(range(2, 31, 2))), str(30 + sum(range(1, 31, 2)))]  # Bas first
    )

    # A view a change does not follow (as after a phone's own mistake): it asks again.
    guest.evaluate(
        """async () => {
            const { app } = await import('/js/state.js');
            app.view = { ...app.view, seq: app.view.seq - 1 };
        }"""
    )
    guest_frames.clear()
    post(host, server, {"type": "pass"})
    wait_for_state(guest, f"app => app.view.seq === {shown(host)['seq']}")
    assert guest_frames[:2] == ["change", "state (gzip)"], guest_frames
    assert shown(guest) == served(guest, server)
    for page in (host, guest):
        page.context.close()
