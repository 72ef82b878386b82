"""The proxy of the compose file, run natively: Debian's ``caddy`` on ``deploy/Caddyfile``,
every value the file reads from the environment set here (the site, the replicas, free
ports), its certificates and state in a folder of the test's own.

Caddy must be installed (``apt-get install caddy``; ``.ci/run`` does): without it the tests
fail, they are not skipped.
"""

import http.client
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bench.serving import ROOT, free_port

CADDYFILE = ROOT / "deploy" / "Caddyfile"
START_TIMEOUT = 20.0  # seconds for Caddy to load its config and listen
START_TRIES = 3  # starts on new ports when a port was taken meanwhile


def caddy() -> str:
    """The caddy binary; an error that says how to install it when there is none."""
    found = shutil.which("caddy")
    if found is None:
        raise RuntimeError("caddy is missing: apt-get install -y caddy (.ci/run does)")
    return found


def version() -> str:
    """What ``caddy version`` says (Debian stable: v2.6.2)."""
    return subprocess.run([caddy(), "version"], capture_output=True, text=True, check=True).stdout


def environment(folder: Path, settings: Mapping[str, str]) -> dict[str, str]:
    """The environment for a caddy command: its data (certificates, the local CA) and config
    under ``folder``, the Caddyfile's settings, nothing else of the test's."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
        "XDG_CONFIG_HOME": str(folder / "config"),
        **settings,
    }


def adapt(folder: Path, settings: Mapping[str, str]) -> dict[str, Any]:
    """The JSON config ``caddy adapt`` makes of the Caddyfile with ``settings``; fails on
    any directive Caddy does not know."""
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [caddy(), "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        capture_output=True, text=True, env=environment(folder, settings), timeout=30,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    config: dict[str, Any] = json.loads(done.stdout)
    return config


def validate(folder: Path, settings: Mapping[str, str]) -> None:
    """``caddy validate``: the config adapts and every module provisions."""
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [caddy(), "validate", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        capture_output=True, text=True, env=environment(folder, settings), timeout=30,
    )  # fmt: skip
    assert done.returncode == 0 and "Valid configuration" in done.stdout + done.stderr, (
        done.stdout + done.stderr
    )


class Caddy:
    """``caddy run`` on the Caddyfile in front of ``upstreams`` ("127.0.0.1:port"), on a
    free port: plain http, or https with a certificate from Caddy's local CA (``https``)."""

    def __init__(self, folder: Path, upstreams: Sequence[str], *, https: bool = False) -> None:
        self.folder = folder
        self.upstreams = tuple(upstreams)
        self.https = https
        self.port = free_port()
        self.admin = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = folder / "caddy.log"

    @property
    def url(self) -> str:
        return f"{'https' if self.https else 'http'}://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"{'wss' if self.https else 'ws'}://127.0.0.1:{self.port}/ws"

    @property
    def root_certificate(self) -> Path:
        """The local CA's root, which a phone installs once to trust the https site."""
        return self.folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def trusting(self) -> ssl.SSLContext:
        """A client TLS context that trusts the local CA's root and nothing else."""
        return ssl.create_default_context(cafile=str(self.root_certificate))

    def settings(self) -> dict[str, str]:
        """What the Caddyfile reads from the environment."""
        return {
            "TILESTREAM_SITE": self.url,
            # https: a certificate from the local CA, as a club's LAN name would get one
            **({"TILESTREAM_TLS": "internal"} if self.https else {}),
            "TILESTREAM_UPSTREAMS": " ".join(self.upstreams),
            "TILESTREAM_ADMIN": f"127.0.0.1:{self.admin}",
            "TILESTREAM_HTTP_PORT": str(free_port()),  # an https site's redirects: not on 80
            "TILESTREAM_HTTPS_PORT": str(self.port if self.https else free_port()),
        }

    def start(self) -> "Caddy":
        """Start Caddy; wait until its config is loaded and its site port listens.

        A port found free may be taken before Caddy binds it (by a server of another
        process that drew the same one): Caddy then exits saying so, and starts again on
        other ports, as ``bench.serving.ServerProcess`` does.
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        for _ in range(START_TRIES):
            began = len(self.output())  # what this start says comes after
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(
                    [caddy(), "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
                    env=environment(self.folder, self.settings()),
                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                )  # fmt: skip
            if self._wait_listening():
                return self
            self.stop()
            if "address already in use" not in self.output()[began:]:
                break
            self.port, self.admin = free_port(), free_port()
        raise RuntimeError(f"caddy did not start:\n{self.output()[-3000:]}")

    def _wait_listening(self) -> bool:
        """Has Caddy come to listen before it exited or the time ran out?"""
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT
        while not self._listening():
            if self.process.poll() is not None or time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def _listening(self) -> bool:
        try:
            if len(self.upstream_states()) != len(self.upstreams):
                return False
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as raw:
                if self.https:
                    # The site's certificate comes from the local CA a moment after the port
                    # listens (a handshake before it gets "internal error"): ready once one
                    # succeeds against the root.
                    self.trusting().wrap_socket(raw, server_hostname="127.0.0.1").close()
            return True
        except (OSError, http.client.HTTPException, ValueError):  # ssl.SSLError is an OSError
            return False

    def upstream_states(self) -> dict[str, dict[str, int]]:
        """Per replica ("127.0.0.1:port"): the requests it is serving now (an open websocket
        is one) and its recent failures, from Caddy's admin API."""
        connection = http.client.HTTPConnection("127.0.0.1", self.admin, timeout=2)
        try:
            connection.request("GET", "/reverse_proxy/upstreams")
            states = json.loads(connection.getresponse().read())
        finally:
            connection.close()
        return {s["address"]: {"requests": s["num_requests"], "fails": s["fails"]} for s in states}

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def __enter__(self) -> "Caddy":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
