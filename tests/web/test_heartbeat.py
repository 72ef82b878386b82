"""The phone's watchdog: a server that stops answering without closing the socket (stopped
with SIGSTOP, as a hung replica or a host gone to sleep) is noticed within a few seconds, not
the minutes TCP takes. The server sends a beat every 2 s while it has nothing else to send;
a socket that hears nothing for 6 s is given up and connected again as a dropped one is."""

import dataclasses
import json
import signal
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect

from tests.server.serving import ServerProcess
from tests.web.browser import create_table, join_table, open_app, post, session_of, shot
from tests.web.browser import wait_for_state as wait_until

# Seconds from the stop to the "no connection" banner: at most 6 s without a frame, the
# banner's own 1.5 s, and a margin for a loaded machine.
NOTICED = 9.0


@dataclasses.dataclass
class Heard:
    """What a page's websockets received, from its first one on: each socket and the types
    of the text messages, in order."""

    sockets: list[WebSocket] = dataclasses.field(default_factory=list)
    kinds: list[str] = dataclasses.field(default_factory=list)

    def listen(self, page: Page) -> None:
        page.on("websocket", self.opened)

    def opened(self, ws: WebSocket) -> None:
        self.sockets.append(ws)
        ws.on("framereceived", self.read)

    def read(self, payload: str | bytes) -> None:
        self.kinds.append(json.loads(payload)["type"] if isinstance(payload, str) else "binary")


@pytest.fixture
def errors() -> list[str]:
    return []


@pytest.fixture
def heard() -> Heard:
    return Heard()


@pytest.fixture
def pair(
    browser: Browser, own_server: ServerProcess, errors: list[str], heard: Heard
) -> Iterator[list[Page]]:
    """The host's phone (its sockets ``heard``) and a guest's at a table of ``own_server``."""
    host = open_app(browser, own_server.url)
    heard.listen(host)
    code = create_table(host, ["Anna", "Bas"])
    guest = open_app(browser, own_server.url)
    join_table(guest, code, "Bas")
    for page in (host, guest):
        page.on("pageerror", lambda error: errors.append(str(error)))
        wait_until(page, "app => app.online")
    yield [host, guest]
    assert own_server.process is not None
    own_server.process.send_signal(signal.SIGCONT)  # stopped or not: the fixture stops it
    for page in (host, guest):
        page.context.close()


def test_a_quiet_table_keeps_its_socket_on_the_beats(
    pair: list[Page], heard: Heard, errors: list[str]
) -> None:
    host, _ = pair
    quiet_from = len(heard.kinds)
    deadline = time.monotonic() + 15
    while heard.kinds[quiet_from:].count("beat") < 4:  # 8 s and more: past the watchdog's 6
        assert time.monotonic() < deadline, heard.kinds
        host.wait_for_timeout(100)
    assert set(heard.kinds[quiet_from:]) == {"beat"}, heard.kinds
    assert len(heard.sockets) == 1, "the phone connected again although the server was there"
    wait_until(host, "app => app.online")
    assert errors == []


def test_a_stopped_server_shows_no_connection_and_the_phone_catches_up_after(
    pair: list[Page], own_server: ServerProcess, errors: list[str]
) -> None:
    host, guest = pair
    process = own_server.process
    assert process is not None
    process.send_signal(signal.SIGSTOP)
    stopped = time.monotonic()
    wait_until(host, "app => !app.online", timeout=NOTICED)  # the watchdog gave the socket up
    given_up = time.monotonic() - stopped
    for page in (host, guest):
        expect(page.locator("#banner")).to_contain_text("Geen verbinding", timeout=12_000)
    noticed = time.monotonic() - stopped
    shot(guest, "heartbeat-stopped-server")
    assert noticed <= NOTICED, f"the phones said so {noticed:.1f} s after the stop"
    # Tapped while the server hangs: kept in the outbox, sent once when it answers again.
    host.evaluate(
        """async () => {
            const { app } = await import('/js/state.js');
            const { refer } = await import('/js/turn.js');
            const live = await import('/js/live.js');
            live.send(refer(app.view.sheet, { type: 'enter_points', points: 17 })).catch(() => {});
        }"""
    )

    process.send_signal(signal.SIGCONT)
    resumed = time.monotonic()
    for page in (host, guest):
        expect(page.locator("#banner")).to_be_hidden(timeout=15_000)
        wait_until(page, "app => app.online && app.view.sheet.totals[0] === 17", timeout=15)
    back = time.monotonic() - resumed
    post(guest, own_server, {"type": "enter_points", "points": 5})  # live again, both ways
    for page in (host, guest):
        session = session_of(page)
        served = own_server.api().view(session["table"], session["token"]).json()
        wait_until(page, f"app => app.view.seq === {served['seq']}")
        expect(page.locator(".scoreboard .total")).to_have_text(["17", "5"])
    assert errors == []
    print(f"given up after {given_up:.1f} s, banner {noticed:.1f} s, back {back:.1f} s")
