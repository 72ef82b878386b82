"""A bounded hostile run against a real ``tilestream serve`` on loopback, with a baseline.

Run: ``python -m bench.hostile`` (about 20 s; ``--frames N`` per kind, ``--idle N`` idle
connections per kind).

One SQLite server process on 127.0.0.1 (only loopback, a fresh data folder) gets N of each
hostile kind — bodies and frames nested 30,000 deep (under the size limit: refused by the
nesting scan) and 100,000 deep (over it), 1 MB bodies, invalid UTF-8 text frames, bytes that
are no HTTP, cross-origin posts and websockets, joins with forged ``X-Forwarded-For`` — and
``--idle`` connections of each idle kind at once: websockets that never say hello, TCP
connections that never send a byte, slowloris. Printed per kind: what was tried, the answers
by code (``ok`` where it was let through), 5xx answers, and the time from sending to the
refusal (median, p99, and × the baseline: ordinary requests and frames of the same run,
``POST /api/score`` and a websocket ``preview``). Then what it cost the server: tracebacks
in its log, the log's size, and its resident memory before and after (``/proc/PID/status``).
"""

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from bench.timing import Figures
from server.live.sheets import read_frame

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # never anything but loopback
HELLO, HEADERS = 1.0, 2.0  # the server's --hello-timeout and --header-timeout, seconds
SCORE = {"edition": "nl", "move": {"typed": [[["W"], ["O"], ["O"], ["R"], ["D"]]]}}
PREVIEW = {"type": "preview", "id": "p", "move": {"typed": [[["W"], ["O"], ["O"], ["R"]]]}}


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


class Kind:
    """One kind of request: the answers it got by code, 5xx answers, times to the answer."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.base: Kind | None = None  # the ordinary kind its times compare with
        self.codes: Counter[str] = Counter()
        self.errors = 0  # 5xx, or a socket dropped without a close code
        self.times: list[float] = []  # µs

    def add(self, code: str, started: float, server_error: bool = False) -> None:
        self.codes[code] += 1
        self.errors += server_error
        self.times.append((time.perf_counter() - started) * 1e6)

    @property
    def figures(self) -> Figures:
        return Figures(self.name, self.times)


# --- the server ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def rss_kb(pid: int) -> int:
    """The process's resident memory, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def start_server(data: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "server.cli.main",
        "serve",
        "--host",
        HOST,
        "--port",
        str(port),
    ]
    command += ["--data", str(data), "--hello-timeout", str(HELLO)]
    command += ["--header-timeout", str(HEADERS)]
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "FORWARDED_ALLOW_IPS")}
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(OSError):
            if http_request(port, "GET", "/health")[0] == 200:
                return process
        time.sleep(0.05)
    raise RuntimeError(f"the server did not start:\n{log.read_text(errors='replace')}")


def http_request(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def code_of(status: int, body: bytes | bytearray) -> str:
    if status < 300:
        return "ok"
    with contextlib.suppress(ValueError, KeyError, TypeError):
        return str(json.loads(body)["code"])
    return f"http_{status}"


# --- HTTP kinds ----------------------------------------------------------------------------


def http_kind(
    port: int,
    name: str,
    frames: int,
    method: str,
    path: str,
    body: Callable[[int], bytes],
    headers: Callable[[int], dict[str, str]] = lambda n: {},
) -> Kind:
    kind = Kind(name)
    for n in range(frames):
        started = time.perf_counter()
        try:
            status, answer = http_request(port, method, path, body(n), headers(n))
        except (OSError, http.client.HTTPException):  # the server closed before answering
            kind.add("dropped", started, server_error=True)
            continue
        kind.add(code_of(status, answer), started, status >= 500)
    return kind


def raw_kind(port: int, name: str, frames: int, data: bytes) -> Kind:
    """Bytes that are no HTTP request: uvicorn answers 400 itself and closes."""
    kind = Kind(name)
    for _ in range(frames):
        started = time.perf_counter()
        with socket.create_connection((HOST, port), timeout=30) as raw:
            raw.sendall(data)
            answer = b""
            with contextlib.suppress(ConnectionResetError):
                while chunk := raw.recv(65536):
                    answer += chunk
        status = int(answer.split()[1]) if answer.startswith(b"HTTP/1.1 ") else 0
        kind.add(f"http_{status}" if status else "dropped", started, status >= 500 or not status)
    return kind


# --- websocket kinds -----------------------------------------------------------------------


async def ws_frames(url: str, hello: str, name: str, frames: int, frame: bytes | str) -> Kind:
    """``frames`` frames on one joined socket, each answered before the next."""
    kind = Kind(name)
    async with connect(url, max_size=None) as ws:
        await ws.send(hello)
        await ws.recv()
        for _ in range(frames):
            started = time.perf_counter()
            await ws.send(frame)
            answer = json.loads(read_frame(await ws.recv()))
            kind.add(answer.get("code") or "ok", started)
    return kind


async def ws_closing(url: str, name: str, frames: int, frame: bytes | str, text: bool) -> Kind:
    """One socket per frame: the server closes each, and the close code is the answer."""
    kind = Kind(name)
    for _ in range(frames):
        started = time.perf_counter()
        async with connect(url, max_size=None) as ws:
            await ws.send(frame, text=text)
            kind.add(await close_code(ws), started)
    return kind


async def close_code(ws: ClientConnection) -> str:
    try:
        while True:
            await asyncio.wait_for(ws.recv(), 30)
    except ConnectionClosed as closed:
        return f"close_{closed.rcvd.code}" if closed.rcvd is not None else "dropped"


async def ws_foreign(url: str, frames: int) -> Kind:
    kind = Kind("ws from another origin")
    for _ in range(frames):
        started = time.perf_counter()
        try:
            async with connect(url, origin="http://evil.example"):  # type: ignore[arg-type]
                kind.add("accepted", started)
        except InvalidStatus as refused:
            status = refused.response.status_code
            kind.add(code_of(status, refused.response.body), started, status >= 500)
    return kind


# --- idle kinds: all at once ----------------------------------------------------------------


async def idle(name: str, count: int, hold: Callable[[], Awaitable[str]]) -> Kind:
    kind = Kind(name)

    async def one() -> None:
        started = time.perf_counter()
        kind.add(await hold(), started)

    await asyncio.gather(*(one() for _ in range(count)))
    return kind


async def no_hello(url: str) -> str:
    async with connect(url) as ws:
        return await close_code(ws)


async def silent_tcp(port: int) -> str:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        return "closed" if await asyncio.wait_for(reader.read(), 30) == b"" else "answered"
    finally:
        writer.close()


async def slowloris(port: int) -> str:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
        for n in range(200):
            with contextlib.suppress(TimeoutError):
                if await asyncio.wait_for(reader.read(1), HEADERS / 8) == b"":
                    return "closed"
            writer.write(f"X-Slow-{n}: y\r\n".encode())
            with contextlib.suppress(ConnectionError):
                await writer.drain()
        return "held"
    except ConnectionError:
        return "closed"
    finally:
        writer.close()


# --- the run -------------------------------------------------------------------------------


async def ws_opening(url: str, hello: str, frames: int) -> Kind:
    """The ordinary socket: opened, hello, the sheet; what a per-socket refusal compares with."""
    kind = Kind("ws open + hello (ordinary)")
    for _ in range(frames):
        started = time.perf_counter()
        async with connect(url) as ws:
            await ws.send(hello)
            answer = json.loads(read_frame(await ws.recv()))  # a big state comes gzipped
            kind.add("ok" if answer["type"] == "state" else answer.get("code", "?"), started)
    return kind


async def run(port: int, frames: int, idle_count: int) -> tuple[list[Kind], list[Kind]]:
    status, made = http_request(port, "POST", "/api/tables")
    assert status == 201, made
    table = json.loads(made)
    start = {
        "id": "start",
        "command": {"type": "start_game", "edition": "nl", "players": ["A", "B"]},
    }
    status, started = http_request(
        port, "POST", f"/api/tables/{table['table']}/commands", json.dumps(start).encode(),
        {"authorization": f"Bearer {table['token']}"},
    )  # fmt: skip
    assert status == 200, started
    hello = json.dumps({"type": "hello", "table": table["table"], "token": table["token"]})
    url = f"ws://{HOST}:{port}/ws"
    score = json.dumps(SCORE).encode()
    http_base = http_kind(port, "POST /api/score (ordinary)", frames, "POST", "/api/score",
                          lambda n: score)  # fmt: skip
    frame_base = await ws_frames(url, hello, "ws preview (ordinary)", frames, json.dumps(PREVIEW))
    socket_base = await ws_opening(url, hello, frames)

    deep, deeper = nested(30_000), nested(100_000)
    big = b'{"code": "' + b"A" * 1_000_000 + b'"}'
    join = json.dumps({"code": table["code"], "role": "viewer"}).encode()
    foreign = {"origin": "http://evil.example", "content-type": "text/plain"}
    by_http = [
        http_kind(port, "POST nested 30,000 deep", frames, "POST", "/api/score", lambda n: deep),
        http_kind(port, "POST nested 100,000 deep", frames, "POST", "/api/score", lambda n: deeper),
        http_kind(port, "POST 1 MB", frames, "POST", "/api/score", lambda n: big),
        http_kind(port, "POST cross-origin text/plain", frames, "POST", "/api/tables",
                  lambda n: b"{}", lambda n: foreign),
        http_kind(port, "POST join, forged X-Forwarded-For", frames, "POST", "/api/join",
                  lambda n: join, lambda n: {"x-forwarded-for": f"10.{n // 250}.{n % 250}.1"}),
        raw_kind(port, "bytes that are no HTTP", frames, b"\x16\x03\x01\x00\xff junk\r\n\r\n"),
    ]  # fmt: skip
    by_frame = [await ws_frames(url, hello, "ws frame nested 30,000 deep", frames, deep.decode())]
    by_socket = [
        await ws_closing(url, "ws frame nested 100,000 deep", frames, deeper, text=True),
        await ws_closing(url, "ws invalid UTF-8 text frame", frames, b'{"\xff\xfe"}', text=True),
        await ws_foreign(url, frames),
    ]
    for kinds, base in ((by_http, http_base), (by_frame, frame_base), (by_socket, socket_base)):
        for kind in kinds:
            kind.base = base
    idling = await asyncio.gather(
        idle("ws never saying hello", idle_count, lambda: no_hello(url)),
        idle("TCP never sending a byte", idle_count, lambda: silent_tcp(port)),
        idle("slowloris", idle_count, lambda: slowloris(port)),
    )
    return [http_base, frame_base, socket_base], [*by_http, *by_frame, *by_socket, *idling]


def report(baseline: list[Kind], hostile: list[Kind]) -> None:
    print(
        f"{'kind':<36} {'tried':>6} {'5xx':>4} {'median ms':>10} {'p99 ms':>9} {'× base':>7}"
        "  answers by code"
    )
    for kind in [*baseline, *hostile]:
        figures = kind.figures
        ratio = f"{figures.median / kind.base.figures.median:.1f}" if kind.base else "-"
        codes = ", ".join(f"{code} {n}" for code, n in kind.codes.most_common())
        print(
            f"{kind.name:<36} {len(kind.times):>6} {kind.errors:>4} {figures.median / 1000:>10.2f}"
            f" {figures.p99 / 1000:>9.2f} {ratio:>7}  {codes}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300, help="tries of each kind")
    parser.add_argument("--idle", type=int, default=100, help="idle connections of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tilestream-hostile-") as folder:
        data, log, port = Path(folder) / "data", Path(folder) / "server.log", free_port()
        server = start_server(data, port, log)
        try:
            before = rss_kb(server.pid)
            started = time.monotonic()
            baseline, hostile = asyncio.run(run(port, args.frames, args.idle))
            took = time.monotonic() - started
            after = rss_kb(server.pid)
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        text = log.read_text(errors="replace")
    report(baseline, hostile)
    tried = sum(len(k.times) for k in hostile)
    refused = sum(n for k in hostile for code, n in k.codes.items() if code != "ok")
    print(
        f"\nhostile tries {tried} (refused {refused}) in {took:.1f} s; 5xx or dropped "
        f"{sum(k.errors for k in hostile)}; tracebacks in the log {text.count('Traceback')}; "
        f"log {len(text.encode())} bytes, {len(text.splitlines())} lines; "
        f"server RSS {before / 1024:.1f} MB before, {after / 1024:.1f} MB after"
    )
    print("the server's log:\n  " + "\n  ".join(text.splitlines()))


if __name__ == "__main__":
    main()
