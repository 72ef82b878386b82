"""The compose topology, run natively: Redis, two ``tilestream serve --redis`` replicas and
Debian's Caddy on ``deploy/Caddyfile`` in front. One replica hangs (SIGSTOP, as a process
stuck or a container paused): every phone — Chromium phones and a few dozen websocket phones
that follow live.js's watchdog — shows a command recorded meanwhile within 10 s of the stop,
those on the hung replica included; no request through the proxy waits longer than 10 s for
an answer; once the replica runs again (SIGCONT) it takes sockets again and nothing broke.

Each phone's recovery time goes to ``test-artifacts/failover.json``.
"""

import dataclasses
import json
import signal
import statistics
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from bench.serving import ROOT, Api, Reply, new_address, request
from tests.deploy import caddy
from tests.deploy.caddy import Caddy
from tests.deploy.phones import Crowd, WatchfulPhone
from tests.server.redis_server import RedisServer
from tests.server.serving import ServerProcess
from tests.web.browser import (
    create_table,
    join_table,
    open_app,
    referenced,
    session_of,
    wait_for_state,
)

SEATS = ["Anna", "Bas", "Cas"]  # taken by Chromium phones; the host's phone keeps the score
SOCKET_PHONES = 36  # viewers on plain websockets
RECOVERED = 10.0  # seconds from the stop until every phone shows the command recorded meanwhile
ANSWERED = 10.0  # seconds a request through the proxy may wait for its answer during the hang
PROBES = 4  # POSTs sent through the proxy as the replica stops
ARTIFACT = ROOT / "test-artifacts" / "failover.json"


@dataclasses.dataclass
class Topology:
    replicas: list[ServerProcess]
    proxy: Caddy

    def address(self, replica: ServerProcess) -> str:
        """The replica as the proxy names it."""
        return f"127.0.0.1:{replica.port}"


@pytest.fixture
def topology(tmp_path: Path, redis_server: RedisServer) -> Iterator[Topology]:
    """Two replicas on one Redis, trusting X-Forwarded-For from the proxy's address only,
    and Caddy in front of both."""
    options = ("--joins-per-minute", "10000", "--forwarded-allow-ips", "127.0.0.1")
    replicas = [
        ServerProcess(tmp_path / f"replica-{n}", redis=redis_server.url, options=options)
        for n in (1, 2)
    ]
    try:
        for replica in replicas:
            replica.start()
        with Caddy(tmp_path / "caddy", [f"127.0.0.1:{r.port}" for r in replicas]) as proxy:
            yield Topology(replicas, proxy)
    finally:
        for replica in replicas:
            if replica.running:
                assert replica.process is not None
                replica.process.send_signal(signal.SIGCONT)
            replica.stop()
    for replica in replicas:
        replica.assert_no_crash()


@dataclasses.dataclass
class Chromium:
    """A Chromium phone, the replica its socket went to, and what it met."""

    name: str
    page: Page
    replica: str = ""
    sockets: int = 0  # websockets it opened
    errors: list[str] = dataclasses.field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.on("websocket", lambda _: self.count())
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def count(self) -> None:
        self.sockets += 1

    def shows_17(self) -> bool:
        """Live, and its sheet shows the 17 points recorded during the hang."""
        return bool(
            self.page.evaluate(
                "async () => { const { app } = await import('/js/state.js');"
                " return app.online && app.view?.sheet?.totals[0] === 17; }"
            )
        )


def open_sockets(proxy: Caddy, total: int) -> dict[str, int]:
    """The requests each replica serves through the proxy, once they are the ``total`` open
    websockets (a page's own fetches done)."""
    deadline = time.monotonic() + 10
    while True:
        counts = {address: s["requests"] for address, s in proxy.upstream_states().items()}
        if sum(counts.values()) == total:
            return counts
        assert time.monotonic() < deadline, (counts, total)
        time.sleep(0.05)


def joined(topology: Topology, phones: list[Chromium], phone: Chromium) -> None:
    """``phone`` is live: note the replica its socket went to."""
    wait_for_state(phone.page, "app => app.online")
    after = open_sockets(topology.proxy, len(phones) + 1)
    before = Counter(p.replica for p in phones)
    (phone.replica,) = [a for a in after if after[a] == before[a] + 1]
    phones.append(phone)


def viewer_token(proxy: Caddy, code: str) -> str:
    """A new viewer's token, joined through the proxy from an address of its own."""
    joined = Api(proxy.url, new_address()).join(code, "viewer")
    assert joined["admitted"], joined
    return str(joined["token"])


def timed(url: str, method: str, path: str, body: object, token: str = "") -> dict[str, Any]:
    """One request through the proxy from an address of its own: its status, its time."""
    start = time.monotonic()
    reply = request(url, method, path, body, token=token or None, source=new_address(), timeout=30)
    return {"path": path, "status": reply.status, "seconds": round(time.monotonic() - start, 2)}


def record(url: str, table: str, token: str, command: dict[str, Any]) -> tuple[int, list[Any]]:
    """Record ``command`` through the proxy as a phone does: an answer from the proxy instead
    of the table (a replica hung) is tried again with the same id, so it lands once. The
    command's seq, and each try's status and time."""
    command_id = str(uuid.uuid4())
    tries: list[dict[str, Any]] = []
    body = {"id": command_id, "command": command}
    while True:
        start = time.monotonic()
        reply: Reply = request(
            url, "POST", f"/api/tables/{table}/commands", body, token=token,
            source=new_address(), timeout=30,
        )  # fmt: skip
        tries.append({"status": reply.status, "seconds": round(time.monotonic() - start, 2)})
        if reply.status == 200:
            return int(reply.json()["seq"]), tries
        assert reply.status in (502, 503, 504), reply
        assert len(tries) < 10, tries


def test_a_hung_replica_s_phones_reach_the_other_within_10_s(
    browser: Browser, topology: Topology
) -> None:
    proxy = topology.proxy
    load_before = load()
    chromium, code = chromium_phones(browser, topology)
    host = chromium[0]
    table, host_token = session_of(host.page)["table"], session_of(host.page)["token"]
    crowd = Crowd()
    try:
        viewers = [
            WatchfulPhone(f"viewer-{n}", proxy.ws_url, table, viewer_token(proxy, code))
            for n in range(SOCKET_PHONES)
        ]
        crowd.add(viewers)
        counts = open_sockets(proxy, len(chromium) + SOCKET_PHONES)
        assert all(counts.values()), f"round-robin left a replica without phones: {counts}"

        # The replica with more Chromium phones hangs.
        victim = max(topology.replicas, key=lambda r: sum(
            p.replica == topology.address(r) for p in chromium
        ))  # fmt: skip
        hung = topology.address(victim)
        command = referenced(host.page, {"type": "enter_points", "points": 17})
        assert victim.process is not None
        victim.process.send_signal(signal.SIGSTOP)
        stopped = time.monotonic()
        seq, tries, probes, recovered = hang(proxy, table, host_token, command, chromium, stopped)
        for viewer in viewers:
            viewer_recovered = wait_for_seq(viewer, seq, stopped + 2 * RECOVERED)
            if viewer_recovered is not None:
                recovered[viewer.name] = viewer_recovered - stopped
        crowd.check()
        rows: list[dict[str, Any]] = [
            {"phone": p.name, "kind": "chromium", "on_hung_replica": p.replica == hung,
             "reconnects": p.sockets - 1, "recovered_s": _round(recovered.get(p.name))}
            for p in chromium
        ] + [
            {"phone": v.name, "kind": "websocket", "on_hung_replica": v.reconnects > 0,
             "reconnects": v.reconnects, "recovered_s": _round(recovered.get(v.name))}
            for v in viewers
        ]  # fmt: skip
        _keep(
            caddy=caddy.version().strip(),
            load_before=load_before,
            load_after=load(),
            phones=rows,
            hung_replica_sockets=counts[hung],
            command_tries=tries,
            probes=probes,
            summary=_summary(rows),
        )

        # The bounds: recovery, and no request through the proxy waiting on the hung replica.
        unrecovered = {row["phone"]: row["recovered_s"] for row in rows
                       if row["recovered_s"] is None or row["recovered_s"] > RECOVERED}  # fmt: skip
        assert not unrecovered, f"no command {RECOVERED} s after the stop: {unrecovered}"
        slow = [answer for answer in [*probes, *tries] if answer["seconds"] > ANSWERED]
        assert not slow, slow
        # The phones that moved are exactly those on the hung replica (the beats kept every
        # other socket), and there were some of each kind.
        moved = [p for p in chromium if p.sockets > 1]
        assert moved and moved == [p for p in chromium if p.replica == hung], rows
        assert sum(v.reconnects > 0 for v in viewers) == counts[hung] - len(moved), rows

        victim.process.send_signal(signal.SIGCONT)
        resumed(topology, victim, crowd, chromium, code)
        crowd.check()
        for phone in chromium:
            assert phone.errors == [], (phone.name, phone.errors)
    finally:
        crowd.close()
        for phone in chromium:
            phone.page.context.close()


def chromium_phones(browser: Browser, topology: Topology) -> tuple[list[Chromium], str]:
    """The host's phone makes a table through the proxy and three players' phones join it,
    one after another (so the replica each socket went to is known); and the join code."""
    chromium: list[Chromium] = []
    host = Chromium("host", open_app(browser, topology.proxy.url))
    code = create_table(host.page, [*SEATS, "Dirk"])
    joined(topology, chromium, host)
    for seat in SEATS:
        phone = Chromium(seat, open_app(browser, topology.proxy.url))
        join_table(phone.page, code, seat)
        joined(topology, chromium, phone)
    return chromium, code


def hang(
    proxy: Caddy,
    table: str,
    token: str,
    command: dict[str, Any],
    chromium: list[Chromium],
    stopped: float,
) -> tuple[int, list[Any], list[Any], dict[str, float]]:
    """Just after the stop: a few POSTs through the proxy and the command, from threads of
    their own, while the Chromium phones are watched for the command (17 points), given up
    at twice the bound. The command's seq, its tries, the POSTs' answers, and when each
    Chromium phone showed it (seconds from the stop, at ``stopped``)."""
    recovered: dict[str, float] = {}
    with ThreadPoolExecutor(PROBES + 1) as pool:
        probes = [
            pool.submit(timed, proxy.url, "POST", "/api/games", {"tokens": []})
            for _ in range(PROBES)
        ]
        recording = pool.submit(record, proxy.url, table, token, command)
        while len(recovered) < len(chromium) and time.monotonic() - stopped < 2 * RECOVERED:
            for phone in chromium:
                if phone.name not in recovered and phone.shows_17():
                    recovered[phone.name] = time.monotonic() - stopped
            time.sleep(0.02)
        seq, tries = recording.result()
        return seq, tries, [probe.result() for probe in probes], recovered


def wait_for_seq(phone: WatchfulPhone, seq: int, until: float) -> float | None:
    """When ``phone`` first held the view at ``seq``, waiting until ``until`` at most."""
    while (at := phone.seen_at(seq)) is None and time.monotonic() < until:
        time.sleep(0.05)
    return at


def resumed(
    topology: Topology, replica: ServerProcess, crowd: Crowd, chromium: list[Chromium], code: str
) -> None:
    """The stopped replica runs again: a command reaches every phone, and new sockets reach
    that replica again."""
    proxy = topology.proxy
    session = session_of(chromium[0].page)
    later = referenced(chromium[0].page, {"type": "enter_points", "points": 5})
    seq, _ = record(proxy.url, session["table"], session["token"], later)
    for phone in chromium:
        wait_for_state(phone.page, f"app => app.view.seq >= {seq}")
        expect(phone.page.locator(".scoreboard .total")).to_have_text(["17", "5", "0", "0"])
    for viewer in crowd.phones:
        assert wait_for_seq(viewer, seq, time.monotonic() + 10) is not None, viewer.name
    # A replica that failed a request rests for the Caddyfile's fail_duration (10 s) after
    # it; then of two sockets opened one after the other (round-robin), one reaches it.
    deadline = time.monotonic() + 30
    sockets = len(chromium) + len(crowd.phones)
    while open_sockets(proxy, sockets)[topology.address(replica)] == 0:
        assert time.monotonic() < deadline, "the resumed replica took no socket"
        two = [
            WatchfulPhone(f"late-{sockets + n}", proxy.ws_url, session["table"], token)
            for n, token in enumerate([viewer_token(proxy, code), viewer_token(proxy, code)])
        ]
        crowd.add(two)
        sockets += 2
        assert all(phone.seq >= seq for phone in two)
        time.sleep(0.5)


def load() -> list[str]:
    """The machine's load average over 1, 5 and 15 minutes."""
    return Path("/proc/loadavg").read_text().split()[:3]


def _round(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 2)


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Recovery times of the phones on the hung replica and of the others."""
    summary: dict[str, Any] = {}
    for label, on_hung in (("hung_replica", True), ("other_replica", False)):
        times = [r["recovered_s"] for r in rows if r["on_hung_replica"] is on_hung]
        known = sorted(t for t in times if t is not None)
        summary[label] = {
            "phones": len(times),
            "median_s": round(statistics.median(known), 2) if known else None,
            "max_s": known[-1] if len(known) == len(times) and known else None,
        }
    return summary


def _keep(**figures: Any) -> None:
    ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
    ARTIFACT.write_text(json.dumps(figures, indent=2) + "\n")
