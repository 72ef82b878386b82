"""The phone app's files at ``/``: versioned URLs kept for a year, pages that revalidate.

A release is a short hash of every file under the web folder, read once at start: a new
release (or any edit, once the server restarts) gets new URLs, so a phone picks it up at its
next load while the files of one release are never fetched twice. The app's scripts, styles,
icons and strings are served under ``/v/<release>/`` (``/v/<release>/js/app.js`` is
``web/js/app.js``) as ``immutable``; the pages and the service worker are served from memory
with their URLs rewritten to that prefix, and with everything unversioned revalidate on
every load (``no-cache`` with an ETag: an unchanged file is a bodiless 304).

A module is loaded once per URL, so a module loaded under two URLs would run twice (two
``state.js``, two apps). Modules import their siblings by relative paths, which keeps them
under the prefix of the page's script; a page's import map sends any ``/js/…`` specifier (a
test's ``import('/js/state.js')``) there too, and the modules fetch their styles and strings
relative to themselves (``import.meta.url``).
"""

import hashlib
import json
import os
import re
from base64 import b64encode
from pathlib import Path

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Receive, Scope, Send

from server.http.guard import CSP

VERSIONED = ("css", "js", "icons", "strings")  # the web folder's folders served per release
PREFIX = "v"  # /v/<release>/js/app.js
IMMUTABLE = "public, max-age=31536000, immutable"  # a year: these bytes never change
REVALIDATE = "no-cache"  # kept, but asked again each time (an unchanged file is a 304)
WORKER = "sw.js"
# The worker's release as its source says it; the server says the real one.
WORKER_RELEASE = 'const RELEASE = "unversioned";'
# A quoted URL of a versioned folder: an attribute of a page, a string of the worker.
_ASSET = re.compile(r"""(?<=["'])/(""" + "|".join(VERSIONED) + ")/")


def release_of(directory: Path) -> str:
    """The release of the files under ``directory``: a hash of their names and contents."""
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        digest.update(path.relative_to(directory).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def versioned(text: str, release: str) -> str:
    """``text`` with every quoted URL of a versioned folder under the release's prefix.

    >>> versioned('<script src="/js/app.js"></script><a href="/">', "abc")
    '<script src="/v/abc/js/app.js"></script><a href="/">'
    """
    return _ASSET.sub(lambda m: f"/{PREFIX}/{release}/{m[1]}/", text)


def page(html: str, release: str) -> tuple[bytes, str]:
    """A page as served: its URLs versioned and an import map sending ``/js/`` specifiers
    to the release; with the page's CSP, which allows that one inline script by its hash."""
    imports = json.dumps({"imports": {"/js/": f"/{PREFIX}/{release}/js/"}})
    # Before the first link or script: an import map applies to the modules loaded after it
    first = re.search(r"<(link|script)\b", html)
    if first is None:
        raise ValueError("a page without a link or script")
    at = first.start()
    mapped = f'<script type="importmap">{imports}</script>\n'
    body = html[:at] + mapped + versioned(html[at:], release)
    digest = b64encode(hashlib.sha256(imports.encode()).digest()).decode()
    csp = CSP.replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'")
    if csp == CSP:
        raise ValueError("the CSP names no script-src 'self' to add the import map to")
    return body.encode(), csp


def worker(source: str, release: str) -> bytes:
    """The service worker as served: its release said and its shell's URLs versioned. Its
    bytes change with every release, which is what makes a phone install it again."""
    if source.count(WORKER_RELEASE) != 1:
        raise ValueError(f"{WORKER} must say {WORKER_RELEASE} once")
    said = source.replace(WORKER_RELEASE, f'const RELEASE = "{release}";')
    return versioned(said, release).encode()


class Rewritten:
    """A file served from memory, rewritten at start: a page or the worker."""

    def __init__(self, body: bytes, media_type: str, csp: str | None = None) -> None:
        self.body = body
        self.media_type = media_type
        self.headers = {
            "etag": f'"{hashlib.sha256(body).hexdigest()[:20]}"',
            "cache-control": REVALIDATE,
        }
        if csp is not None:  # the Guard adds its own policies but leaves this one
            self.headers["content-security-policy"] = csp

    def response(self) -> Response:
        return Response(self.body, media_type=self.media_type, headers=self.headers)


class WebFiles(StaticFiles):
    """The web folder at ``/``: pages and worker from memory, the rest from disk, each with
    the ``Cache-Control`` of its kind."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory)
        self.release = release_of(directory)
        self.memory: dict[str, Rewritten] = {}
        for html in sorted(directory.glob("*.html")):
            body, csp = page(html.read_text("utf-8"), self.release)
            self.memory[html.name] = Rewritten(body, "text/html", csp)
        self.memory["."] = self.memory["index.html"]  # "/"
        source = (directory / WORKER).read_text("utf-8")
        self.memory[WORKER] = Rewritten(worker(source, self.release), "text/javascript")

    @property
    def prefix(self) -> str:
        """The path every versioned file of this release is under."""
        return f"/{PREFIX}/{self.release}/"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)  # a websocket: closed
            return
        path = self.get_path(scope)
        kept = self.memory.get(path)
        if kept is not None:
            if scope["method"] not in ("GET", "HEAD"):
                raise HTTPException(status_code=405, headers={"Allow": "GET, HEAD"})
            response = kept.response()
            if self.is_not_modified(response.headers, Headers(scope=scope)):
                response = NotModifiedResponse(response.headers)
        else:
            parts = path.split(os.sep)
            if parts[0] == PREFIX:
                if len(parts) < 4 or parts[2] not in VERSIONED:
                    raise HTTPException(status_code=404)
                response = await self.get_response(os.path.join(*parts[2:]), scope)
                # Another release's URL: a page of it still open loads a module it had not
                # loaded yet. It gets today's file at the URL it asked for (a redirect would
                # give the module today's base URL, and its imports a second state.js), but
                # not as immutable: those bytes are not that release's, and a release rolled
                # back to would find them kept for a year.
                mine = parts[1] == self.release
                response.headers["cache-control"] = IMMUTABLE if mine else REVALIDATE
            else:
                response = await self.get_response(path, scope)
                response.headers["cache-control"] = REVALIDATE
        await response(scope, receive, send)
