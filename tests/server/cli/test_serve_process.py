"""``tilestream`` as a volunteer runs it: its version and help, a served process's log lines
(each with its time, a request per line when asked, a line at start and at stop), status 0
after SIGTERM, and https with a certificate of the club's own."""

import http.client
import re
import signal
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

import tilestream
from bench.serving import ROOT, free_port
from tests.server.serving import ServerProcess

STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (INFO|WARNING|ERROR) ")


def tilestream_command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tilestream", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_python_m_tilestream_says_its_version() -> None:
    done = tilestream_command("--version")
    assert done.returncode == 0
    assert done.stdout == f"tilestream {tilestream.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", tilestream.__version__)


def test_the_main_help_is_plain_text_naming_every_command() -> None:
    done = tilestream_command("--help")
    assert done.returncode == 0
    assert "``" not in done.stdout  # no reStructuredText from a docstring
    for command in ("serve", "score", "top", "gcg", "compile"):
        assert f"({command})" in done.stdout
    assert "--certfile FILE" in tilestream_command("serve", "--help").stdout


def test_a_served_process_logs_with_times_and_stops_on_sigterm_with_status_0(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path, options=["--access-log"]).start()
    assert server.api().get("/health").status == 200
    assert server.stop() == 0
    lines = [line for line in server.output().splitlines() if STAMP.match(line)]
    said = [STAMP.sub("", line) for line in lines]
    assert said[0] == f"tilestream {tilestream.__version__} serving with the sqlite store"
    assert any('"GET /health HTTP/1.1" 200' in line for line in said)  # the access log
    assert said[-1] == "tilestream stopped (SIGTERM)"
    server.assert_no_crash()


def test_without_access_log_a_request_leaves_no_line(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path).start()
    assert server.api().get("/health").status == 200
    server.stop()
    assert "/health" not in server.output()
    assert server.output().rstrip().endswith("tilestream stopped (SIGTERM)")


def test_behind_a_proxy_it_gives_phones_no_address_of_its_own(tmp_path: Path) -> None:
    """A replica in the compose file listens everywhere in its container; its own address
    would send a phone past the proxy, to a port it cannot reach."""
    trusted = ["--host", "0.0.0.0", "--forwarded-allow-ips", "10.87.28.10"]
    server = ServerProcess(tmp_path, options=trusted).start()
    assert server.stop() == 0
    said = server.output()
    assert "Phones open the proxy's address; requests come through 10.87.28.10\n" in said
    assert "Phones on this network" not in said


# --- https ---------------------------------------------------------------------------------


def openssl_certificate(folder: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1, and its key (openssl)."""
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-subj", "/CN=localhost", "-days", "2", "-keyout", str(key), "-out",
         str(cert), "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    return openssl_certificate(tmp_path, "club")


@pytest.fixture
def https_server(tmp_path: Path, certificate: tuple[Path, Path]) -> Iterator[tuple[int, Path]]:
    cert, key = certificate
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tilestream", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--data", str(tmp_path / "data"), "--certfile", str(cert),
         "--keyfile", str(key)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    first = process.stdout.readline()  # printed once it listens
    try:
        assert first == f"Tilestream: open https://127.0.0.1:{port}\n", first
        yield port, cert
    finally:
        process.send_signal(signal.SIGTERM)
        rest = process.communicate(timeout=10)[0]
        assert process.returncode == 0, rest
        assert "Traceback" not in rest, rest


def test_a_certificate_and_key_serve_https_and_wss(https_server: tuple[int, Path]) -> None:
    port, cert = https_server
    trusting = ssl.create_default_context(cafile=str(cert))
    for _ in range(200):  # it prints its address before uvicorn takes the socket's first call
        connection = http.client.HTTPSConnection("localhost", port, context=trusting, timeout=5)
        try:
            connection.request("GET", "/health")
            response = connection.getresponse()
            break
        except ConnectionError:
            continue
        finally:
            connection.close()
    assert response.status == 200
    with pytest.raises(ssl.SSLCertVerificationError):  # it is https, not a plain answer
        connection = http.client.HTTPSConnection("localhost", port, timeout=5)
        connection.request("GET", "/health")
    # A phone's socket over wss: the hello of a table that is not there is answered.
    with connect(f"wss://localhost:{port}/ws", ssl=trusting) as ws:
        ws.send('{"type": "hello", "table": "nope", "token": "nope", "after": 0}')
        assert '"rejected"' in str(ws.recv(timeout=5))


@pytest.mark.parametrize(
    ("which", "said"),
    [
        ("mismatched", "cannot serve https (KEY_VALUES_MISMATCH)"),
        ("missing", "no such file"),
        ("alone", "https needs both --certfile and --keyfile"),
    ],
)
def test_a_bad_certificate_is_one_sentence_and_status_1(
    tmp_path: Path, certificate: tuple[Path, Path], which: str, said: str
) -> None:
    cert, key = certificate
    other = openssl_certificate(tmp_path, "other")[1]
    options = {
        "mismatched": ["--certfile", str(cert), "--keyfile", str(other)],
        "missing": ["--certfile", str(tmp_path / "none.crt"), "--keyfile", str(key)],
        "alone": ["--certfile", str(cert)],
    }[which]  # fmt: skip
    done = tilestream_command(
        "serve", "--port", str(free_port()), "--data", str(tmp_path / "data"), *options
    )
    assert done.returncode == 1
    assert done.stderr.startswith("tilestream: ") and said in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
