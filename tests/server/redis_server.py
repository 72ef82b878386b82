"""A redis-server owned by a test: its own port and folder, stopped and restarted at will.

It runs with ``--appendonly yes --appendfsync always``, so every write Redis acknowledged
is on disk and survives ``stop(kill=True)`` followed by ``start()`` — the fault tests rely
on that. The port stays the same across restarts, so clients reconnect to the same URL.
"""

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import redis

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on just now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """One redis-server process with its data in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self._process: subprocess.Popen[bytes] | None = None
        self._started = False  # once it has run, the port is part of its clients' URL

    @property
    def url(self) -> str:
        """Where clients find it."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        """Whether the process is up."""
        return self._process is not None and self._process.poll() is None

    def start(self, timeout: float = 10.0) -> None:
        """Start the server (a first start may move to another port if this one is taken)."""
        assert not self.running, "already running"
        self.folder.mkdir(parents=True, exist_ok=True)
        for _ in range(3):
            self._process = subprocess.Popen(
                [
                    REDIS_SERVER,
                    "--bind", "127.0.0.1",
                    "--port", str(self.port),
                    "--dir", str(self.folder),
                    "--appendonly", "yes",
                    "--appendfsync", "always",
                    "--save", "",
                    "--daemonize", "no",
                    "--logfile", str(self.folder / "redis.log"),
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
            if self._wait_ready(timeout):
                self._started = True
                return
            self._process.kill()
            self._process.wait()
            self._process = None
            if not self._started:
                self.port = free_port()  # taken meanwhile by someone else
        log = (self.folder / "redis.log").read_text(errors="replace")[-2000:]
        raise RuntimeError(f"redis-server did not start on port {self.port}:\n{log}")

    def _wait_ready(self, timeout: float) -> bool:
        """Whether the server answers PING (not LOADING) before ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        client = redis.Redis(port=self.port, socket_timeout=1, socket_connect_timeout=1)
        try:
            while time.monotonic() < deadline:
                assert self._process is not None
                if self._process.poll() is not None:
                    return False
                try:
                    if client.ping():
                        return True
                except redis.exceptions.RedisError:
                    pass
                time.sleep(0.01)
            return False
        finally:
            client.close()

    def stop(self, *, kill: bool = False) -> None:
        """Stop the server: SIGTERM (a clean shutdown), or SIGKILL with ``kill``."""
        if self._process is None:
            return
        if self._process.poll() is None:
            self._process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None

    def restart(self, *, kill: bool = False) -> None:
        """Stop and start again on the same port with the same data."""
        self.stop(kill=kill)
        self.start()
