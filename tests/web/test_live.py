"""Live: changes reach every phone without a reload; a lost server shows a quiet banner, the
phones reconnect by themselves, and a command tapped while offline lands exactly once."""

from playwright.sync_api import Browser, Page, expect

from tests.server.serving import ServerProcess
from tests.web.browser import create_table, join_table, line_kinds, open_app, shot, wait_for_state


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
