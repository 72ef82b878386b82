"""A redis-server owned by a test: its own port and folder, stopped and restarted at will;
and a Redis Cluster of three such servers.

It runs with ``--appendonly yes --appendfsync always``, so every write Redis acknowledged
is on disk and survives ``stop(kill=True)`` followed by ``start()`` — the fault tests rely
on that. The port stays the same across restarts, so clients reconnect to the same URL. It
also listens on a Unix socket in its folder (``socket_url``), as a Redis on the server's own
machine is best reached.
"""

import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import redis

from bench.serving import free_port

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
REDIS_CLI = shutil.which("redis-cli") or "/usr/bin/redis-cli"


def cluster_port() -> int:
    """A free port for a cluster node: a node also listens on its port + 10,000 (the cluster
    bus), so both must be free; drawn from 20,000 up, apart from ``free_port``'s ports, and
    low enough that the bus's stays below the kernel's ephemeral range (32,768 and up), where
    an outgoing connection could take it first."""
    for port in random.sample(range(20_000, 22_768), 200):
        with socket.socket() as one, socket.socket() as bus:
            try:
                one.bind(("127.0.0.1", port))
                bus.bind(("127.0.0.1", port + 10_000))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port pair for a cluster node")


class RedisServer:
    """One redis-server process with its data in ``folder``."""

    def __init__(self, folder: Path, pick: Callable[[], int] = free_port) -> None:
        self.folder = folder
        self.pick = pick
        self.port = pick()
        self._process: subprocess.Popen[bytes] | None = None
        self._started = False  # once it has run, the port is part of its clients' URL

    @property
    def url(self) -> str:
        """Where clients find it."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def socket_url(self) -> str:
        """Where clients on this machine find it through its Unix socket."""
        return f"unix://{self.folder / 'redis.sock'}?db=0"

    @property
    def running(self) -> bool:
        """Whether the process is up."""
        return self._process is not None and self._process.poll() is None

    def empty(self) -> str:
        """Delete every key; the server's URL."""
        client = redis.Redis(port=self.port)
        try:
            client.flushall()
        finally:
            client.close()
        return self.url

    def start(self, timeout: float = 10.0, options: tuple[str, ...] = ()) -> None:
        """Start the server (a first start may move to another port if this one is taken)."""
        assert not self.running, "already running"
        self.folder.mkdir(parents=True, exist_ok=True)
        for _ in range(3):
            self._process = subprocess.Popen(
                [
                    REDIS_SERVER,
                    "--bind", "127.0.0.1",
                    "--port", str(self.port),
                    "--unixsocket", str(self.folder / "redis.sock"),
                    "--unixsocketperm", "700",
                    "--dir", str(self.folder),
                    "--appendonly", "yes",
                    "--appendfsync", "always",
                    "--save", "",
                    "--daemonize", "no",
                    "--logfile", str(self.folder / "redis.log"),
                    *options,
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
                self.port = self.pick()  # taken meanwhile by someone else
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

    def pause(self) -> None:
        """Stop the process where it stands (SIGSTOP): its sockets stay open, it answers
        nothing, as a hung or unreachable Redis."""
        assert self._process is not None, "not running"
        self._process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Let a paused process go on (SIGCONT)."""
        assert self._process is not None, "not running"
        self._process.send_signal(signal.SIGCONT)

    def restart(self, *, kill: bool = False) -> None:
        """Stop and start again on the same port with the same data."""
        self.stop(kill=kill)
        self.start()


class RedisClusterServers:
    """Three redis-servers joined into one Redis Cluster (three primaries, no replicas), each
    serving a third of the hash slots."""

    def __init__(self, folder: Path, size: int = 3) -> None:
        self.nodes = [RedisServer(folder / f"node-{n}", cluster_port) for n in range(size)]

    @property
    def url(self) -> str:
        """Where a cluster client starts: any one node; it finds the others."""
        return f"redis+cluster://127.0.0.1:{self.nodes[0].port}"

    def start(self, timeout: float = 20.0) -> None:
        """Start the nodes, give each its slots and wait until every node says ``ok``."""
        for node in self.nodes:
            node.start(options=("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"))
        subprocess.run(
            [REDIS_CLI, "--cluster", "create", *(f"127.0.0.1:{n.port}" for n in self.nodes),
             "--cluster-yes"],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=timeout,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while not all(self._ready(node) for node in self.nodes):
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not come up")
            time.sleep(0.05)

    @staticmethod
    def _ready(node: RedisServer) -> bool:
        client = redis.Redis(port=node.port)
        try:
            info = client.cluster("INFO")
            slots = client.cluster("SLOTS")
        finally:
            client.close()
        # every node knows every other's slots: a client may start from any of them
        return info.get("cluster_state") == "ok" and len(slots) == 3

    def empty(self) -> str:
        """Delete every key on every node; the cluster's URL."""
        for node in self.nodes:
            node.empty()
        return self.url

    def holder(self, key: str) -> int:
        """The port of the node that serves ``key``'s slot."""
        client = redis.Redis(port=self.nodes[0].port)
        try:
            slot = client.cluster("KEYSLOT", key)
            for start, end, primary, *_ in client.cluster("SLOTS"):
                if start <= slot <= end:
                    return int(primary[1])
        finally:
            client.close()
        raise AssertionError(f"no node serves the slot of {key}")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
