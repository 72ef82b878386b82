"""deploy/Caddyfile on Debian's Caddy: it loads for each kind of site a club may give it,
it hands the replicas the client's own address whatever the client claims, and its https
site with a certificate from Caddy's local CA serves a phone that trusts that CA's root."""

import http.client
import http.server
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.serving import free_port, new_address
from tests.deploy import caddy
from tests.deploy.caddy import Caddy
from tests.deploy.phones import Crowd, WatchfulPhone
from tests.server.serving import ServerProcess

PUBLIC = "scrabble.example.org"


def server_of(config: dict[str, Any]) -> dict[str, Any]:
    (server,) = config["apps"]["http"]["servers"].values()
    return dict(server)


def proxy_of(config: dict[str, Any]) -> dict[str, Any]:
    """The reverse_proxy handler of the site."""
    (route,) = server_of(config)["routes"]
    (subroute,) = route["handle"]
    handlers = [h for r in subroute["routes"] for h in r["handle"]]
    (proxy,) = [h for h in handlers if h["handler"] == "reverse_proxy"]
    return dict(proxy)


def test_a_public_name_gets_its_certificate_from_acme_on_443(tmp_path: Path) -> None:
    settings = {"TILESTREAM_SITE": PUBLIC}
    config = caddy.adapt(tmp_path, settings)
    caddy.validate(tmp_path, settings)
    assert server_of(config)["listen"] == [":443"]
    assert "tls" not in config["apps"], "a public name takes Caddy's default: ACME"
    proxy = proxy_of(config)
    assert [u["dial"] for u in proxy["upstreams"]] == ["app1:8000", "app2:8000"]
    assert proxy["load_balancing"]["selection_policy"] == {"policy": "round_robin"}
    assert proxy["health_checks"]["active"]["uri"] == "/health"
    assert proxy["health_checks"]["passive"]["max_fails"] == 1
    assert proxy["flush_interval"] == -1
    # No request waits a minute: the replica's answer must begin within 5 s.
    assert proxy["transport"]["response_header_timeout"] == 5_000_000_000


def test_tls_internal_gives_any_name_a_certificate_of_caddy_s_own_ca(tmp_path: Path) -> None:
    settings = {"TILESTREAM_SITE": "scrabble.lan", "TILESTREAM_TLS": "internal"}
    config = caddy.adapt(tmp_path, settings)
    caddy.validate(tmp_path, settings)
    (policy,) = config["apps"]["tls"]["automation"]["policies"]
    assert policy["subjects"] == ["scrabble.lan"]
    assert policy["issuers"] == [{"module": "internal"}]
    # The proxy's own machine is left alone: the phones install the root (README).
    assert config["apps"]["pki"]["certificate_authorities"]["local"]["install_trust"] is False


class Echo(http.server.BaseHTTPRequestHandler):
    """Answers with the request's headers as JSON: what a replica is told."""

    def do_GET(self) -> None:
        body = json.dumps(dict(self.headers)).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def echo() -> Iterator[str]:
    """An upstream that tells what it was sent, as "127.0.0.1:port"."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_the_replicas_are_told_the_client_s_own_address_not_what_it_claims(
    tmp_path: Path, echo: str
) -> None:
    with Caddy(tmp_path, [echo]) as proxy:
        client = new_address()
        connection = http.client.HTTPConnection(
            "127.0.0.1", proxy.port, timeout=10, source_address=(client, 0)
        )
        forged = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
        connection.request("GET", "/anything", headers=forged)
        told = json.loads(connection.getresponse().read())
        connection.close()
    assert told["X-Forwarded-For"] == client
    assert told["X-Forwarded-Proto"] == "http"


def test_an_https_site_of_the_local_ca_serves_a_phone_that_trusts_its_root(
    tmp_path: Path,
) -> None:
    with (
        ServerProcess(tmp_path / "replica", options=("--forwarded-allow-ips", "127.0.0.1")) as app,
        Caddy(tmp_path / "caddy", [f"127.0.0.1:{app.port}"], https=True) as proxy,
    ):
        trusting = proxy.trusting()  # the root, from Caddy's data folder (XDG_DATA_HOME)
        connection = http.client.HTTPSConnection(
            "127.0.0.1", proxy.port, timeout=10, context=trusting
        )
        connection.request("POST", "/api/tables")
        made = json.loads(connection.getresponse().read())
        connection.close()
        # The phone on a loop of its own: Chromium's tests may hold this thread's loop.
        crowd = Crowd()
        try:
            phone = WatchfulPhone("https", proxy.ws_url, made["table"], made["token"], ssl=trusting)
            crowd.add([phone])
            assert phone.states, "no state over wss"
        finally:
            crowd.close()
    app.assert_no_crash()


def test_a_proxy_whose_port_was_taken_before_it_bound_starts_on_another(
    tmp_path: Path, echo: str
) -> None:
    proxy = Caddy(tmp_path, [echo])
    taken = proxy.port
    with socket.create_server(("127.0.0.1", taken)), proxy:
        assert proxy.port != taken
        assert "address already in use" in proxy.output()
        connection = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=10)
        connection.request("GET", "/anything")
        assert connection.getresponse().status == 200
        connection.close()
