"""A real table server to measure or test against, and a plain HTTP request to it.

``ServerProcess`` runs ``python -m server.cli.main serve`` as a subprocess on a port of its own,
waits for ``/health``, and can be killed (``SIGKILL``), stopped and started again on the
same port and data. ``Api`` and ``request`` are ``http.client``, one connection a call, from
a loopback address of the caller's choosing (``new_address``: each client its own, so a
per-address limit of one never touches another); ``slip`` is a room's slip as a phone sends
it. The benchmarks and the tests use these.
"""

import http.client
import itertools
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:  # the move generator (numba) is loaded only where moves are made
    from rules.movegen.moves import Move

ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT = 20.0  # seconds for a server to answer /health


# Ports for servers are drawn below the kernel's ephemeral range (32,768 and up by default):
# a port the kernel picks (a bind to port 0) comes from that range, where an outgoing
# connection may take it before the server meant for it binds it. Each process draws them in
# an order of its own and never twice (the cluster's nodes draw from 20,000 up).
_ports = iter(random.sample(range(10_000, 20_000), 10_000))


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on just now, and that no outgoing
    connection takes meanwhile."""
    for port in _ports:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:  # listened on, or still closing
                continue
            return port
    raise RuntimeError("no free port left below the ephemeral range")


_addresses = (f"127.0.{i // 250}.{i % 250 + 2}" for i in itertools.count(4))


def new_address() -> str:
    """A loopback address no other client of this run uses (127.0.0.0/8 is all loopback)."""
    return next(_addresses)


class Reply(msgspec.Struct, frozen=True):
    """An HTTP answer."""

    status: int
    content_type: str
    body: bytes

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)


def request(
    url: str,
    method: str,
    path: str,
    body: object = None,
    *,
    token: str | None = None,
    source: str = "127.0.0.1",
    timeout: float = 10.0,
    headers: dict[str, str] | None = None,
) -> Reply:
    """One HTTP request; ``body`` as bytes is sent as it is, anything else as JSON."""
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(
        host, int(port), timeout=timeout, source_address=(source, 0)
    )
    headers = {"content-type": "application/json", **(headers or {})}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        return Reply(response.status, response.getheader("content-type", ""), response.read())
    finally:
        connection.close()


def device_key() -> str:
    """A new phone's lasting key (a phone keeps its own in localStorage)."""
    return secrets.token_urlsafe(24)


def slip(move: "Move", game: int, seat: int, round_: int = 0) -> dict[str, Any]:
    """The ``submit_slip`` a player's phone at ``seat`` sends for ``move`` in round
    ``round_`` of the duplicate game started at seq ``game``."""
    turn = {"game": game, "player": seat, "number": round_}
    return {"type": "submit_slip", "word": move.word, "start": move.start.name,
            "direction": str(move.direction), "turn": turn}  # fmt: skip


class Api:
    """The HTTP API of one server, as one client address sees it."""

    def __init__(self, url: str, source: str = "127.0.0.1") -> None:
        self.url = url
        self.source = source

    def get(self, path: str, token: str | None = None) -> Reply:
        return request(self.url, "GET", path, token=token, source=self.source)

    def post(self, path: str, body: object = None, token: str | None = None) -> Reply:
        return request(self.url, "POST", path, body, token=token, source=self.source)

    def create_table(self) -> dict[str, Any]:
        """A new table: ``table``, the host's ``token`` and the join ``code``."""
        reply = self.post("/api/tables")
        assert reply.status == 201, reply
        return dict(reply.json())

    def join(
        self,
        code: str,
        role: str = "player",
        seat: int | None = None,
        device: str = "",
        name: str | None = None,
    ) -> dict[str, Any]:
        """A device's place at the table with ``code``; ``device`` is the phone's lasting key
        (a new phone's own unless given); ``name``, a player registering in a room by name."""
        key = device or device_key()
        body = {"code": code, "role": role, "seat": seat, "device": key}
        reply = self.post("/api/join", body if name is None else {**body, "name": name})
        assert reply.status == 200, reply
        return dict(reply.json())

    def command(self, table: str, token: str, command_id: str, command: dict[str, Any]) -> Reply:
        return self.post(
            f"/api/tables/{table}/commands", {"id": command_id, "command": command}, token
        )

    def view(self, table: str, token: str) -> Reply:
        return self.get(f"/api/tables/{table}/view", token)

    def seq(self, table: str, token: str) -> int:
        """The number of the table's last event, read over HTTP."""
        reply = self.view(table, token)
        assert reply.status == 200, reply
        return int(reply.json()["seq"])


class ServerProcess:
    """``tilestream serve`` on 127.0.0.1, over SQLite in ``data`` or over Redis at ``redis``."""

    def __init__(self, data: Path, redis: str | None = None, options: Sequence[str] = ()) -> None:
        self.data = data
        self.redis = redis
        self.options = tuple(options)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._started = False  # once it has run, its port is part of its phones' URLs
        self.log = data / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def api(self, source: str | None = None) -> Api:
        """An HTTP client of this server from its own loopback address."""
        return Api(self.url, source or new_address())

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> "ServerProcess":
        """Start the process and wait until it answers /health."""
        assert not self.running, "already running"
        self.data.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "server.cli.main", "serve", "--host", "127.0.0.1"]
        command += ["--data", str(self.data)]
        if self.redis:
            command += ["--redis", self.redis]
        command += self.options
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}  # SQLite unless told
        for _ in range(3):
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(
                    [*command, "--port", str(self.port)],
                    cwd=ROOT,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            if self._wait_healthy():
                self._started = True
                return self
            self.kill()
            if self._started:
                break
            self.port = free_port()  # taken meanwhile: a first start may move
        raise RuntimeError(f"the server did not start:\n{self.output()[-3000:]}")

    def _wait_healthy(self) -> bool:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                return False
            try:
                if request(self.url, "GET", "/health", timeout=1).status == 200:
                    return True
            # Not listening yet; a connect to a free port of the ephemeral range may even
            # meet itself (TCP self-connect) and read its own request back as the answer.
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.02)
        return False

    def output(self) -> str:
        """What the process printed (its log), for failure messages."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def assert_no_crash(self) -> None:
        """Nothing in the log says an exception escaped (a 500, a socket dropped by a bug)."""
        output = self.output()
        assert "Traceback" not in output and "Exception in ASGI" not in output, output[-3000:]

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flush, no goodbye to phones."""
        self._end(signal.SIGKILL)

    def stop(self) -> int | None:
        """A clean shutdown (SIGTERM); the exit status (None: it was not running)."""
        return self._end(signal.SIGTERM)

    def _end(self, how: signal.Signals) -> int | None:
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(how)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        status, self.process = self.process.returncode, None
        return status

    def restart(self, *, kill: bool = False) -> None:
        """Stop (or kill) and start again on the same port with the same data."""
        if kill:
            self.kill()
        else:
            self.stop()
        self.start()

    def __enter__(self) -> "ServerProcess":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
