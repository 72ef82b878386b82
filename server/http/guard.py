"""Browser-facing safety for every response: security headers and no cross-origin writes.

A pure ASGI middleware (not Starlette's BaseHTTPMiddleware, which would buffer responses and
does not see websockets). Every HTTP response, the app's files and errors included, gets
``nosniff`` and ``Cross-Origin-Resource-Policy``; the policies that only a document or a
worker obeys (CSP, framing, referrer, permissions, opener) go with HTML pages and the
service worker only, since on the 25 scripts, styles and strings of a first load they would
cost ~10 KB and protect nothing.

A request that may change something (anything but GET, HEAD, OPTIONS) from a page of
another site is refused with 403 ``cross_origin``, as is a websocket opened from one: a
browser says where a request comes from in ``Sec-Fetch-Site`` and ``Origin``. A request
with neither (curl, scripts, the tests) is no browser's and passes; CORS needs no answer
here, since no other site is ever allowed.
"""

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers

from editions import codebook
from editions.codebook import DECLARED
from editions.errors import GameError
from server.http.logbook import Logbook
from server.live.messages import Rejected, encoder

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

# No inline script or style: an injected <script> or style attribute does nothing. Images
# may be data: or blob: URLs (the join QR code is shown from a blob).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
EVERY_RESPONSE = [
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
HEADERS = [  # a document's and a worker's
    *EVERY_RESPONSE,
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
WORKERS = frozenset({"/sw.js"})  # a worker script's own response sets its CSP
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FOREIGN_SITES = frozenset({"cross-site", "same-site"})  # Sec-Fetch-Site of another origin
DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def foreign(headers: Headers) -> bool:
    """Whether a browser sent this request from a page of another origin."""
    if headers.get("sec-fetch-site", "").lower() in FOREIGN_SITES:
        return True
    origin = headers.get("origin")
    if origin is None:
        return False
    parts = urlsplit(origin.lower())  # "null" (a sandboxed page, a file) has no host: foreign
    default = DEFAULT_PORTS.get(parts.scheme)
    return not parts.netloc or _host(parts.netloc, default) != _host(
        headers.get("host", "").lower(), default
    )


def _host(netloc: str, default_port: str | None) -> str:
    """``netloc`` without the scheme's default port: ``example.org:443`` is ``example.org``."""
    host, colon, port = netloc.rpartition(":")
    return host if colon and port == default_port else netloc  # "[::1]" keeps its "1]"


def refusal() -> bytes:
    """The 403 body: the phone's own pages never see it."""
    error = GameError("requests from another site's page are refused", code=codebook.CROSS_ORIGIN)
    return encoder.encode(Rejected("", error.code, {}, str(error)))


class Guard:
    """Security headers on every HTTP response; cross-origin writes and sockets refused."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            if scope["method"] not in SAFE_METHODS and foreign(Headers(scope=scope)):
                _count(scope)
                await _refuse(send, "http.response.start", "http.response.body")
                return
            await self.app(scope, receive, _with_headers(send, scope["path"] in WORKERS))
        elif scope["type"] == "websocket":
            if foreign(Headers(scope=scope)):
                _count(scope)
                await _refuse_websocket(send)
                return
            await self.app(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def _with_headers(send: Send, worker: bool) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            own = message.get("headers", ())
            present = {name.lower() for name, _ in own}
            document = worker or any(
                name.lower() == b"content-type" and value.startswith(b"text/html")
                for name, value in own
            )
            wanted = HEADERS if document else EVERY_RESPONSE
            extra = [(name, value) for name, value in wanted if name not in present]
            message["headers"] = [*message.get("headers", ()), *extra]
        await send(message)

    return sending


async def _refuse(send: Send, start: str, body: str) -> None:
    content = refusal()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(content)).encode()),
        *HEADERS,
    ]
    await send(
        {"type": start, "status": DECLARED[codebook.CROSS_ORIGIN].status, "headers": headers}
    )
    await send({"type": body, "body": content})


async def _refuse_websocket(send: Send) -> None:
    """Refuse the handshake: closing before accepting is a plain 403. (uvicorn 0.54 would log
    an error for every denial sent as a ``websocket.http.response`` with the JSON body.)"""
    await send({"type": "websocket.close", "code": 1008, "reason": codebook.CROSS_ORIGIN})


def _count(scope: Scope) -> None:
    logbook: Logbook | None = scope.get("state", {}).get("logbook")
    if logbook is not None:
        logbook.count(codebook.CROSS_ORIGIN)
