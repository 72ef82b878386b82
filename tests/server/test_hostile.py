"""Hostile clients against real server processes: refused with the right code, without a trace.

Frames nested 100,000 deep, invalid UTF-8, 1 MB bodies, sockets that never say hello, TCP
connections that never finish their headers, forged ``X-Forwarded-For``, cross-origin writes
and websockets; limits across two processes; ``/health`` when the store cannot write; start-up
failures. Each test ends with the server's log free of tracebacks and barely grown: what a
client makes the server log is a summary line a minute, not a line per frame.
"""

import asyncio
import contextlib
import http.client
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.frames import Close

from server.live.sheets import read_frame
from tests.server.redis_server import RedisServer
from tests.server.serving import (
    ROOT,
    Reply,
    ServerProcess,
    Table,
    free_port,
    new_address,
    request,
)

HELLO = 0.5  # --hello-timeout of these servers, seconds
HEADERS = 1.0  # --header-timeout
FAST = ("--hello-timeout", str(HELLO), "--header-timeout", str(HEADERS))
SLACK = 2.0  # seconds a timeout may take beyond its own before the test calls it held
LOG_GROWTH = 1_500  # bytes one test may add to a server's log: a summary line or three
EVERY_RESPONSE = {"x-content-type-options", "cross-origin-resource-policy"}
DOCUMENT_HEADERS = {  # what a page and the service worker obey
    *EVERY_RESPONSE,
    "content-security-policy",
    "x-frame-options",
    "referrer-policy",
    "permissions-policy",
    "cross-origin-opener-policy",
}


class Watch:
    """A server's log as a test found it: at the end, no traceback and little growth."""

    def __init__(self, *servers: ServerProcess) -> None:
        self.servers = servers
        self.sizes = [self._size(s) for s in servers]

    @staticmethod
    def _size(server: ServerProcess) -> int:
        return server.log.stat().st_size if server.log.exists() else 0

    def check(self) -> None:
        for server, size in zip(self.servers, self.sizes, strict=True):
            server.assert_no_crash()
            grown = self._size(server) - size
            assert grown < LOG_GROWTH, server.output()[-LOG_GROWTH:]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One SQLite server with short timeouts for the module."""
    with ServerProcess(tmp_path_factory.mktemp("hostile"), options=FAST) as running:
        yield running
    running.assert_no_crash()


@pytest.fixture
def watch(server: ServerProcess) -> Watch:
    return Watch(server)


@pytest.fixture
def table(server: ServerProcess) -> Table:
    return Table.create(server)


def nested(depth: int, opening: str = "[", closing: str = "]") -> bytes:
    return (opening * depth + "1" + closing * depth).encode()


DEEP_OBJECT = b'{"a":' * 10_000 + b"1" + b"}" * 10_000  # 60 KB: under the size limit


def bodies(depth: int) -> list[bytes]:
    """Ways to nest ``depth`` deep: bare, as a command (a tag looked for), a skipped field."""
    deep = nested(depth)
    return [
        deep,
        b'{"id": "x", "command": {"type": "pass", "x": ' + deep + b"}}",
        b'{"code": "ABCDEF", "x": ' + deep + b"}",
        b'{"edition": "nl", "move": {"typed": ' + deep + b"}}",
    ]


# --- nesting and size ----------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/join", "/api/seats", "/api/score", "commands"])
def test_deeply_nested_bodies_are_refused_never_a_500(
    server: ServerProcess, table: Table, watch: Watch, path: str
) -> None:
    if path == "commands":
        path = f"/api/tables/{table.id}/commands"
    cases = [(b, 400, "bad_message") for b in [*bodies(30_000), *bodies(65), DEEP_OBJECT]]
    cases += [(b, 413, "too_large") for b in bodies(100_000)]  # 100 KB: over the limit first
    for body, status, code in cases:
        reply = request(server.url, "POST", path, body, token=table.host, source=new_address())
        assert (reply.status, reply.json()["code"]) == (status, code), (path, body[:40], reply)
        assert len(reply.body) < 1_000  # the answer does not echo the input
    assert table.seq == 1
    watch.check()


def test_nesting_our_messages_use_is_still_fine(table: Table, watch: Watch) -> None:
    typed = {"typed": [[["W"], ["O"], ["O"], ["R"], ["D"]]]}
    reply = table.api.post("/api/score", {"edition": "nl", "move": typed})
    assert reply.status == 200, reply
    watch.check()


async def test_deeply_nested_frames_are_rejected_and_the_socket_stays(
    table: Table, watch: Watch
) -> None:
    async with connect(table.server.ws_url, max_size=None) as ws:
        for frame in [nested(30_000), nested(65), DEEP_OBJECT, *bodies(20_000)[1:]]:
            await ws.send(frame.decode())
            answer = await _answer(ws)
            assert (answer["type"], answer["code"]) == ("rejected", "bad_message"), answer
        await ws.send(_hello(table))  # the same socket joins as usual
        assert (await _answer(ws))["type"] == "state"
        await ws.send(b'{"type": "command", "id": "c", "command": ' + nested(20_000) + b"}")
        assert (await _answer(ws))["code"] == "bad_message"  # joined: the same refusal
    watch.check()


async def test_a_frame_nested_100000_deep_is_over_the_size_limit(
    table: Table, watch: Watch
) -> None:
    for frame in (nested(100_000).decode(), nested(100_000)):  # text and binary
        async with connect(table.server.ws_url, max_size=None) as ws:
            await ws.send(frame)
            assert await _close_code(ws) == 1009  # message too big
    watch.check()


async def test_invalid_utf8_text_frames_are_closed_1007_without_a_traceback(
    table: Table, watch: Watch
) -> None:
    for _ in range(30):
        async with connect(table.server.ws_url) as ws:
            await ws.send(b'{"type": "hello", "table": "\xff\xfe"}', text=True)
            assert await _close_code(ws) == 1007  # invalid frame payload data
    async with connect(table.server.ws_url) as ws:  # a binary frame is decoded by msgspec
        await ws.send(b'{"type": "hello", "table": "\xff", "token": "x"}')
        assert (await _answer(ws))["code"] == "bad_message"
    watch.check()


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
def test_a_1_mb_body_is_refused_too_large(
    server: ServerProcess, watch: Watch, declared: bool
) -> None:
    big = b'{"code": "' + b"A" * 1_000_000 + b'"}'
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
        if declared:
            head = f"POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Length: {len(big)}\r\n\r\n"
            chunks = [big]
        else:
            head = "POST /api/join HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            chunks = [b"%x\r\n%s\r\n" % (len(c), c) for c in _pieces(big, 60_000)] + [b"0\r\n\r\n"]
        raw.sendall(head.encode())
        with contextlib.suppress(OSError):  # the server may answer, and close, before the end
            for chunk in chunks:
                raw.sendall(chunk)
        answer = _read_until_closed_or(raw, b"}")
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert b'"code":"too_large"' in answer
    watch.check()


async def test_a_1_mb_frame_is_closed_1009(table: Table, watch: Watch) -> None:
    async with connect(table.server.ws_url, max_size=None) as ws:  # no deflate: 1 MB sent
        await ws.send("x" * 1_000_000)
        assert await _close_code(ws) == 1009
    watch.check()


# --- idle and slow connections -------------------------------------------------------------


async def test_a_socket_that_never_says_hello_is_closed_1008(table: Table, watch: Watch) -> None:
    async def silent() -> float:
        start = time.monotonic()
        async with connect(table.server.ws_url) as ws:
            closed = await _closed(ws, HELLO + SLACK)
        assert (closed.code, closed.reason) == (1008, "hello expected")
        return time.monotonic() - start

    async def chatty() -> float:  # talking is no hello either
        start = time.monotonic()
        async with connect(table.server.ws_url) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(100):
                    await ws.send('{"type": "preview", "id": "p", "move": {}}')
                    assert (await _answer(ws))["code"] == "not_joined"
                    await asyncio.sleep(0.02)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        return time.monotonic() - start

    times = await asyncio.gather(*(silent() for _ in range(10)), chatty())
    assert max(times) < HELLO + SLACK
    watch.check()


async def test_a_socket_that_said_hello_outlives_the_hello_timeout(
    table: Table, watch: Watch
) -> None:
    async with connect(table.server.ws_url) as ws:
        await ws.send(_hello(table))
        assert (await _answer(ws))["type"] == "state"
        # A silent socket opened after it is closed when its hello time is up: ours, opened
        # first, would have been closed before it.
        async with connect(table.server.ws_url) as silent:
            closed = await _closed(silent, HELLO + SLACK)
        assert (closed.code, closed.reason) == (1008, "hello expected")
        await ws.send('{"type": "preview", "id": "p1", "move": {"typed": [[["W"], ["O"]]]}}')
        assert (await _answer(ws))["type"] == "preview"
    watch.check()


def test_silent_tcp_connections_are_closed(server: ServerProcess, watch: Watch) -> None:
    sockets = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(20)]
    start = time.monotonic()
    try:
        for raw in sockets:
            assert _read_until_closed_or(raw, None, HEADERS + SLACK) == b""
        assert time.monotonic() - start < HEADERS + SLACK
    finally:
        for raw in sockets:
            raw.close()
    watch.check()


def test_slowloris_is_closed_within_the_header_timeout(server: ServerProcess, watch: Watch) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=HEADERS + SLACK) as raw:
        start = time.monotonic()
        raw.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        for n in range(100):  # a header line every 0.2 s, never the blank line
            time.sleep(HEADERS / 5)
            if not _open(raw):
                break
            with contextlib.suppress(OSError):
                raw.sendall(f"X-Slow-{n}: y\r\n".encode())
        took = time.monotonic() - start
        assert not _open(raw) and HEADERS * 0.8 < took < HEADERS + SLACK, took
    watch.check()


def test_an_idle_keep_alive_connection_is_closed(server: ServerProcess, watch: Watch) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=HEADERS + SLACK) as raw:
        raw.sendall(b"GET /api/time HTTP/1.1\r\nHost: x\r\n\r\n")
        first = _read_until_closed_or(raw, b"}")  # the whole answer, {"now": …}
        assert first.startswith(b"HTTP/1.1 200 "), first
        start = time.monotonic()
        assert _read_until_closed_or(raw, None, HEADERS + SLACK) == b""
        assert time.monotonic() - start < HEADERS + SLACK
    watch.check()


def test_a_body_that_never_comes_is_refused(server: ServerProcess, watch: Watch) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=HEADERS + SLACK) as raw:
        raw.sendall(b'POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"co')
        answer = _read_until_closed_or(raw, b"}", HEADERS + SLACK)
    assert answer.startswith(b"HTTP/1.1 400 ") and b'"code":"bad_message"' in answer, answer
    watch.check()


# --- addresses and limits ------------------------------------------------------------------

# A guess: no join code holds a 0. The join limit per address counts guesses; a code that
# names a table counts against that table instead (tests/server/http/test_limits.py).
GUESS = {"code": "000000", "role": "viewer"}


def test_a_forged_x_forwarded_for_does_not_bypass_the_join_limit(
    server: ServerProcess, watch: Watch
) -> None:
    source = new_address()
    statuses = [
        request(server.url, "POST", "/api/join", GUESS,
                source=source, headers={"x-forwarded-for": f"10.9.{n // 250}.{n % 250}"}).status
        for n in range(25)
    ]  # fmt: skip
    assert statuses == [404] * 20 + [429] * 5  # 20 a minute for the one real address
    watch.check()


def test_x_forwarded_for_counts_from_a_trusted_proxy(tmp_path: Path) -> None:
    proxy = "127.0.0.1"
    options = (*FAST, "--joins-per-minute", "2", "--forwarded-allow-ips", proxy)
    with ServerProcess(tmp_path, options=options) as running:
        watch = Watch(running)

        def join(phone: str) -> int:
            return request(running.url, "POST", "/api/join", GUESS,
                           source=proxy, headers={"x-forwarded-for": phone}).status  # fmt: skip

        assert [join("10.1.1.1") for _ in range(3)] == [404, 404, 429]  # per phone
        assert [join(f"10.1.2.{n}") for n in range(5)] == [404] * 5  # not per proxy
        other = request(running.url, "POST", "/api/join", GUESS,
                        source=new_address(), headers={"x-forwarded-for": "10.1.1.1"})  # fmt: skip
        assert other.status == 404  # an untrusted peer's header is ignored: its own count
    watch.check()


def test_limits_hold_across_two_redis_processes(redis_server: RedisServer, tmp_path: Path) -> None:
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    options = (*FAST, "--joins-per-minute", "4")
    one = ServerProcess(tmp_path / "one", redis_server.url, options)
    two = ServerProcess(tmp_path / "two", redis_server.url, options)
    try:
        one.start()
        two.start()
        watch = Watch(one, two)
        Table.create(one, start=None)
        source = new_address()
        statuses = [
            request(server.url, "POST", "/api/join", GUESS, source=source).status
            for server in (one, two) * 3
        ]  # fmt: skip
        assert statuses == [404] * 4 + [429] * 2  # one count for both processes
        assert client.keys("hits:join:*") and client.keys("hits:create:*")  # kept in Redis
    finally:
        one.stop()
        two.stop()
        client.close()
    watch.check()


# --- browsers: origins and headers ---------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"origin": "http://evil.example", "content-type": "text/plain"}, 403),
        ({"origin": "null", "content-type": "text/plain"}, 403),
        ({"sec-fetch-site": "cross-site", "content-type": "text/plain"}, 403),
        ({"sec-fetch-site": "same-site"}, 403),
        ({"sec-fetch-site": "same-origin"}, 201),
        ({}, 201),  # curl, scripts
    ],
)
def test_a_cross_origin_post_is_refused(
    server: ServerProcess, watch: Watch, headers: dict[str, str], status: int
) -> None:
    reply = request(server.url, "POST", "/api/tables", b"{}", headers=headers,
                    source=new_address())  # fmt: skip
    assert reply.status == status, reply
    if status == 403:
        assert reply.json()["code"] == "cross_origin"
    own = {"origin": server.url, "content-type": "text/plain"}  # our own page
    assert request(server.url, "POST", "/api/tables", b"{}", headers=own).status == 201
    watch.check()


async def test_a_websocket_from_another_origin_is_refused(table: Table, watch: Watch) -> None:
    with pytest.raises(InvalidStatus) as refused:
        async with connect(table.server.ws_url, origin="http://evil.example"):  # type: ignore[arg-type]
            pass
    assert refused.value.response.status_code == 403
    own = table.server.url
    async with connect(table.server.ws_url, origin=own) as ws:  # type: ignore[arg-type]
        await ws.send(_hello(table))
        assert (await _answer(ws))["type"] == "state"
    watch.check()


def test_every_response_is_nosniff_and_pages_and_the_worker_carry_every_policy(
    server: ServerProcess, table: Table, watch: Watch
) -> None:
    answers = {
        "/": ("GET", None, {}, DOCUMENT_HEADERS),
        "/print.html": ("GET", None, {}, DOCUMENT_HEADERS),
        "/sw.js": ("GET", None, {}, DOCUMENT_HEADERS),
        "/js/app.js": ("GET", None, {}, EVERY_RESPONSE),
        "/api/catalog": ("GET", None, {}, EVERY_RESPONSE),
        "/no/such/page": ("GET", None, {}, EVERY_RESPONSE),
        "/api/join": ("POST", b"{", {}, EVERY_RESPONSE),  # a refusal
        "/api/tables": ("POST", None, {"origin": "http://evil.example"}, EVERY_RESPONSE),
    }
    for path, (method, body, headers, expected) in answers.items():
        status, got = request_with_headers(server, method, path, body, headers)
        assert expected <= set(got), (path, status, got)
        assert got["x-content-type-options"] == "nosniff"
        assert "server" not in got, (path, got["server"])
        if expected is DOCUMENT_HEADERS:
            assert "'unsafe-inline'" not in got["content-security-policy"]
            assert got["x-frame-options"] == "DENY"
    watch.check()


# --- /health and start-up ------------------------------------------------------------------


def test_health_names_no_path_and_says_unavailable_when_sqlite_cannot_write(
    server: ServerProcess, watch: Watch
) -> None:
    reply = request(server.url, "GET", "/health")
    assert (reply.status, reply.json()) == (200, {"status": "ok", "store": "sqlite"})
    assert str(server.data).encode() not in reply.body
    other = sqlite3.connect(server.data / "tilestream.db", isolation_level=None, timeout=0)
    try:
        other.execute("BEGIN EXCLUSIVE")  # another program holds the database
        reply = _health_until(server, 503)
        assert reply.json() == {"status": "unavailable", "store": "sqlite"}
    finally:
        other.execute("ROLLBACK")
        other.close()
    _health_until(server, 200)
    watch.check()


@pytest.mark.redis  # a redis-server of its own
def test_health_says_unavailable_when_redis_is_full_or_stopped(tmp_path: Path) -> None:
    store = RedisServer(tmp_path / "redis")
    store.start()
    server = ServerProcess(tmp_path / "data", store.url, FAST)
    client = redis.Redis.from_url(store.url)
    try:
        server.start()
        watch = Watch(server)
        assert request(server.url, "GET", "/health").json() == {"status": "ok", "store": "redis"}
        client.config_set("maxmemory-policy", "noeviction")
        client.config_set("maxmemory", 1)  # full: every write refused
        assert _health_until(server, 503).json()["status"] == "unavailable"
        reply = request(server.url, "POST", "/api/tables", source=new_address())
        assert (reply.status, reply.json()["code"]) == (503, "store_unavailable")  # the limit
        client.config_set("maxmemory", 0)
        _health_until(server, 200)
        store.stop()
        assert _health_until(server, 503).json()["status"] == "unavailable"
        reply = request(server.url, "POST", "/api/join", {"code": "ABCDEF"}, source=new_address())
        assert (reply.status, reply.json()["code"]) == (503, "store_unavailable")
    finally:
        client.close()
        server.stop()
        store.stop()
    watch.check()


def test_a_second_server_on_the_same_data_exits_with_one_line(
    server: ServerProcess, watch: Watch
) -> None:
    done = serve("--data", str(server.data))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"tilestream: another Tilestream server is using the data folder {server.data}"
    ]
    assert request(server.url, "GET", "/health").status == 200  # the first one serves on
    watch.check()


@pytest.mark.parametrize(
    ("earlier", "writable", "said"),
    [
        (False, (), "cannot write to the data folder"),
        (True, (), "cannot write to the data folder"),
        (True, ("tilestream.lock",), "the database"),  # the lock is taken, SQLite refuses
    ],
    ids=["empty", "used", "database"],
)
def test_a_read_only_data_folder_is_one_sentence(
    tmp_path: Path, earlier: bool, writable: tuple[str, ...], said: str
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    if earlier:
        with ServerProcess(folder, options=FAST):
            pass  # a database, a lock file and a log, from an earlier run
    with read_only(folder, but=writable):
        done = serve("--data", str(folder))
    assert done.returncode == 1, done
    (line,) = done.stderr.splitlines()
    assert line.startswith("tilestream: ") and said in line and str(folder) in line, line
    assert "Traceback" not in done.stdout + done.stderr


def test_a_locked_database_is_one_sentence(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, options=FAST):
        pass  # the database exists
    other = sqlite3.connect(tmp_path / "tilestream.db", isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")  # another program writing, for longer than we wait
        done = serve("--data", str(tmp_path))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"tilestream: the database {tmp_path / 'tilestream.db'} takes no writes "
        "(read-only, full or locked)"
    ]


def test_an_unreachable_redis_is_one_sentence(tmp_path: Path) -> None:
    done = serve("--data", str(tmp_path), "--redis", f"redis://:secret@127.0.0.1:{free_port()}/0")
    assert done.returncode == 1
    (line,) = done.stderr.splitlines()
    assert line.startswith("tilestream: cannot open Redis at redis://:***@127.0.0.1:"), line
    assert "secret" not in done.stdout + done.stderr


def test_a_port_in_use_is_one_sentence(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = serve("--data", str(tmp_path), port=port)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"tilestream: cannot listen on 127.0.0.1:{port}: Address already in use"
    ]


# --- helpers -------------------------------------------------------------------------------


def _hello(table: Table) -> str:
    return f'{{"type": "hello", "table": "{table.id}", "token": "{table.host}"}}'


async def _answer(ws: ClientConnection) -> dict[str, object]:
    return json.loads(read_frame(await asyncio.wait_for(ws.recv(), 10)))


async def _closed(ws: ClientConnection, timeout: float) -> Close:
    with pytest.raises(ConnectionClosed) as closed:
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()
    assert closed.value.rcvd is not None, "dropped without a close frame"
    return closed.value.rcvd


async def _close_code(ws: ClientConnection) -> int:
    return (await _closed(ws, 10)).code


def _open(raw: socket.socket) -> bool:
    """Whether the server still holds the connection open."""
    try:
        return raw.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except BlockingIOError:  # nothing to read: open
        return True
    except OSError:
        return False


def _pieces(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def _read_until_closed_or(raw: socket.socket, end: bytes | None, timeout: float = 10) -> bytes:
    """What the server sent until it closed (or, with ``end``, until it sent that)."""
    raw.settimeout(timeout)
    got = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := raw.recv(65536):
            got += chunk
            if end is not None and got.endswith(end):
                break
    return got


def request_with_headers(
    server: ServerProcess, method: str, path: str, body: bytes | None, headers: dict[str, str]
) -> tuple[int, dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()


def _health_until(server: ServerProcess, status: int, timeout: float = 10) -> Reply:
    deadline = time.monotonic() + timeout
    while (reply := request(server.url, "GET", "/health")).status != status:
        assert time.monotonic() < deadline, reply
        time.sleep(0.1)
    return reply


def serve(*options: str, port: int | None = None) -> subprocess.CompletedProcess[str]:
    """``tilestream serve`` on loopback, expected to refuse to start."""
    command = [sys.executable, "-m", "server.cli.main", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port or free_port()), *options]
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "FORWARDED_ALLOW_IPS")}
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)


@contextlib.contextmanager
def read_only(folder: Path, but: tuple[str, ...] = ()) -> Iterator[None]:
    """``folder`` and what is in it unwritable but the files named ``but``, for root too
    (with the immutable attribute)."""
    paths = [folder, *(p for p in folder.iterdir() if p.name not in but)]
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in paths}
        for path in modes:
            path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            for path, mode in modes.items():
                path.chmod(mode)
        return
    chattr = shutil.which("chattr")
    if chattr is None:
        pytest.fail("root without chattr (e2fsprogs): no way to make a folder read-only")
    names = list(map(str, paths))
    if subprocess.run([chattr, "+i", *names], capture_output=True).returncode != 0:
        pytest.fail("this file system has no immutable attribute: no read-only folder for root")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", *names], check=True)
