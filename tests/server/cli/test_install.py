"""Installing as a club's volunteer would: a wheel in a fresh virtual environment serves the
phone app (the web folder is inside the package), and ``scripts/serve`` starts again with no
network once it has installed."""

import os
import signal
import subprocess
import sys
import sysconfig
import urllib.request
from pathlib import Path

import pytest

from bench.serving import ROOT, free_port
from server.http.static import VERSIONED

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")  # a served page's socket


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.read()


def until_listening(process: subprocess.Popen[str]) -> str:
    """The first line the server prints, once it listens: the address to open."""
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("Tilestream: open http://"), line + process.communicate()[0]
    return line.split()[-1]


def stopped(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGTERM)
    rest = process.communicate(timeout=20)[0]
    assert process.returncode == 0, rest
    assert "Traceback" not in rest, rest
    return rest


def test_a_wheel_in_a_fresh_virtual_environment_serves_the_app(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(tmp_path / "dist"), str(ROOT)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("tilestream-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    # The dependencies (numba and all) from this environment, without a download: a path in
    # a .pth, whose own .pth files (this checkout's editable install) are not read.
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-deps", "--no-index", str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    elsewhere = tmp_path / "club"  # not the checkout: nothing is found beside the code
    elsewhere.mkdir()
    where = subprocess.run(
        [python, "-c", "import server, tilestream; print(server.__file__, tilestream.WEB)"],
        check=True, capture_output=True, text=True, cwd=elsewhere,
    ).stdout.split()  # fmt: skip
    assert all(path.startswith(site) for path in where), where

    port = free_port()
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "REDIS_URL")}
    process = subprocess.Popen(
        [venv / "bin" / "tilestream", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=elsewhere, env=clean, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        url = until_listening(process)
        status, page = get_when_up(url + "/")
        assert status == 200 and b"<html" in page
        release = page.decode().split("/v/")[1].split("/")[0]
        for folder, name in [("js", "app.js"), ("css", "app.css"), ("strings", "nl.json")]:
            assert folder in VERSIONED
            assert get(f"{url}/v/{release}/{folder}/{name}")[0] == 200
        assert get(url + "/sw.js")[0] == 200
    finally:
        stopped(process)
    assert (elsewhere / "data" / "tilestream.db").exists()  # the default data folder


def get_when_up(url: str) -> tuple[int, bytes]:
    """``get``, once the server that printed its address takes requests."""
    for _ in range(500):
        try:
            return get(url)
        except ConnectionError:
            continue
    return get(url)


def test_scripts_serve_starts_again_with_the_network_unreachable(tmp_path: Path) -> None:
    # Installed once, as the README's first command does (here: already, by scripts/test).
    subprocess.run(["bash", "-c", ". scripts/env"], cwd=ROOT, check=True, capture_output=True)
    offline = {
        **os.environ,
        "PIP_NO_INDEX": "1",  # pip, were it run, would find nothing to build with
        "PIP_INDEX_URL": "http://127.0.0.1:9/",
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "HTTP_PROXY": "http://127.0.0.1:9",
    }
    process = subprocess.Popen(
        [ROOT / "scripts" / "serve", "--host", "127.0.0.1", "--port", str(free_port()),
         "--data", str(tmp_path / "data")],
        cwd=tmp_path, env=offline, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        url = until_listening(process)
        assert get_when_up(url + "/health")[0] == 200
    finally:
        said = stopped(process)
    assert "pip" not in said.lower()
