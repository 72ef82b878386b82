"""The phone app's files: versioned URLs kept for a year, pages and the worker revalidated
(a 304 when unchanged), every URL a page or the worker names answering, and a new release
the moment a web file changes (``server.http.static``).

A real server (uvicorn on a port of its own, in this process) over the real web folder, or
over a copy of it in a temporary folder where a test edits a file.
"""

import asyncio
import base64
import contextlib
import hashlib
import http.client
import re
import shutil
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest
import uvicorn

from server.http.app import WEB, Settings, create_app
from server.http.static import IMMUTABLE, REVALIDATE, VERSIONED
from server.stores.sqlite import SqliteStore

PAGES = ["/", "/index.html", "/display.html", "/print.html", "/rules.html", "/simultaneous.html"]
# Where a page names a URL: an attribute (src, href) or the import map.
ATTRIBUTE = re.compile(r'\b(?:src|href)="(/[^"]*)"')
IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)
ASSET = re.compile("^/(" + "|".join(VERSIONED) + ")/")


class Answer(msgspec.Struct, frozen=True):
    status: int
    headers: dict[str, str]
    body: bytes


class Served:
    """A server over one web folder, and plain GETs to it."""

    def __init__(self, port: int) -> None:
        self.port = port

    async def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return await asyncio.to_thread(self._get, path, headers or {})

    def _get(self, path: str, headers: dict[str, str]) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            found = {name.lower(): value for name, value in response.getheaders()}
            return Answer(response.status, found, response.read())
        finally:
            connection.close()

    async def release(self) -> str:
        """The release the start page's files are under."""
        page = (await self.get("/")).body.decode()
        found = re.search(r'src="/v/(\w+)/js/app\.js"', page)
        assert found is not None, page[:400]
        return found[1]


@contextlib.asynccontextmanager
async def serving(web: Path, data: Path) -> AsyncIterator[Served]:
    """The app over ``web`` on a free port, until the block ends."""
    settings = Settings(SqliteStore(data / "tilestream.db"), "sqlite", web=web)
    config = uvicorn.Config(create_app(settings), log_level="warning", lifespan="on")
    listener = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(config)
    running = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        if running.done():
            running.result()
        await asyncio.sleep(0.01)
    try:
        yield Served(listener.getsockname()[1])
    finally:
        server.should_exit = True
        await running


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    """The server over the real web folder."""
    async with serving(WEB, tmp_path) as server:
        yield server


def named_urls(page: str) -> list[str]:
    """The same-site URLs a page names in its attributes."""
    return [url for url in ATTRIBUTE.findall(page) if not url.startswith("//")]


async def test_versioned_files_are_kept_a_year_and_everything_else_revalidates(
    served: Served,
) -> None:
    release = await served.release()
    kinds = {
        f"/v/{release}/js/app.js": IMMUTABLE,
        f"/v/{release}/css/app.css": IMMUTABLE,
        f"/v/{release}/strings/nl.json": IMMUTABLE,
        f"/v/{release}/icons/icon.svg": IMMUTABLE,
        "/": REVALIDATE,
        "/display.html": REVALIDATE,
        "/sw.js": REVALIDATE,
        "/manifest.webmanifest": REVALIDATE,
        "/favicon.ico": REVALIDATE,
        "/js/app.js": REVALIDATE,  # an unversioned URL (a page of before versioning)
    }
    for path, wanted in kinds.items():
        answer = await served.get(path)
        assert answer.status == 200, path
        assert answer.headers["cache-control"] == wanted, path
        assert answer.headers["etag"], path


async def test_another_releases_url_gets_todays_file_but_not_for_a_year(served: Served) -> None:
    release = await served.release()
    today = await served.get(f"/v/{release}/js/state.js")
    other = await served.get("/v/0123456789ab/js/state.js")
    assert other.status == 200 and other.body == today.body
    assert other.headers["cache-control"] == REVALIDATE


@pytest.mark.parametrize(
    "path", ["/", "/print.html", "/sw.js", "/manifest.webmanifest", "/js/app.js", "RELEASE"]
)
async def test_an_unchanged_file_revalidates_as_a_304(served: Served, path: str) -> None:
    if path == "RELEASE":
        path = f"/v/{await served.release()}/js/app.js"
    first = await served.get(path)
    again = await served.get(path, {"if-none-match": first.headers["etag"]})
    assert again.status == 304 and again.body == b""
    assert again.headers["cache-control"] == first.headers["cache-control"]
    changed = await served.get(path, {"if-none-match": '"not-this-one"'})
    assert changed.status == 200 and changed.body == first.body


@pytest.mark.parametrize("path", PAGES)
async def test_every_asset_a_page_names_is_of_this_release_and_answers(
    served: Served, path: str
) -> None:
    release = await served.release()
    answer = await served.get(path)
    assert answer.status == 200
    page = answer.body.decode()
    urls = named_urls(page)
    assets = [url for url in urls if url.startswith("/v/")]
    assert assets, page[:400]
    assert all(url.startswith(f"/v/{release}/") for url in assets), assets
    assert not [url for url in urls if ASSET.match(url)]  # none left unversioned
    for url in urls:
        assert (await served.get(url)).status == 200, url
    # The import map sends the modules' /js/ specifiers to the same release, and the page's
    # policy lets that one inline script run, by its hash.
    imports = IMPORT_MAP.findall(page)
    assert len(imports) == 1
    assert msgspec.json.decode(imports[0]) == {"imports": {"/js/": f"/v/{release}/js/"}}
    digest = base64.b64encode(hashlib.sha256(imports[0].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in answer.headers["content-security-policy"]
    assert page.index("importmap") < page.index("<link")  # before any module is named


async def test_every_file_the_worker_keeps_answers(served: Served) -> None:
    release = await served.release()
    worker = (await served.get("/sw.js")).body.decode()
    assert f'const RELEASE = "{release}";' in worker
    shell = re.search(r"const SHELL = \[(.*?)\];", worker, re.S)
    assert shell is not None
    entries = re.findall(r'"([^"]+)"', shell[1])
    assert "/" in entries and f"/v/{release}/js/sheet.js" in entries
    assert not [url for url in entries if ASSET.match(url)]
    for url in entries:
        assert (await served.get(url)).status == 200, url


async def test_a_changed_web_file_is_a_new_release(tmp_path: Path) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB, web)
    async with serving(web, tmp_path) as server:
        before = await server.release()
        old_page = (await server.get("/")).body
    style = web / "css" / "shell.css"
    style.write_text(style.read_text("utf-8") + "\n/* a release later */\n", "utf-8")
    async with serving(web, tmp_path) as server:
        after = await server.release()
        assert after != before
        page = (await server.get("/")).body
        assert page != old_page and f"/v/{after}/css/shell.css".encode() in page
        served = await server.get(f"/v/{after}/css/shell.css")
        assert served.body.endswith(b"/* a release later */\n")
        assert served.headers["cache-control"] == IMMUTABLE
        worker = (await server.get("/sw.js")).body.decode()
        assert f'const RELEASE = "{after}";' in worker  # phones install the new worker


async def test_only_the_versioned_folders_are_under_a_release(served: Served) -> None:
    release = await served.release()
    assert (await served.get(f"/v/{release}/index.html")).status == 404
    assert (await served.get(f"/v/{release}/sw.js")).status == 404
    assert (await served.get(f"/v/{release}")).status == 404
    assert (await served.get(f"/v/{release}/js/no-such.js")).status == 404
