"""What every route shares: JSON answers and refusals, the body read within its limits,
the bearer token, and who the request's token is at the table of its path."""

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.websockets import WebSocket

from editions import codebook
from editions.codebook import DECLARED
from editions.errors import GameError
from rules.table.permissions import Actor
from server.live.decoding import decode
from server.live.messages import MAX_MESSAGE, Rejected, encoder
from server.live.socket import as_rejected
from server.stores.protocols import Device, StoreUnavailable
from server.tables.commands import Tables
from server.tables.live import Live


def reject(rejected: Rejected) -> Response:
    return Response(
        encoder.encode(rejected), DECLARED[rejected.code].status, media_type="application/json"
    )


def ok(body: Any, status: int = 200) -> Response:
    return Response(encoder.encode(body), status, media_type="application/json")


Handler = Callable[[Request], Awaitable[Response]]


def api(handler: Handler) -> Handler:
    """Turn every refusal of ``handler`` into a JSON error with its code: never a 500."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except (GameError, StoreUnavailable, msgspec.ValidationError, msgspec.DecodeError) as e:
            return reject(as_rejected(e))

    return wrapped


async def body(request: Request, kind: type) -> Any:
    """The JSON body as ``kind``: refused (``too_large``) as soon as it is over the limit,
    whatever it announced, so a huge body is never held in memory nor waited for; refused
    (``bad_message``) when it comes too slowly or not at all, or nests too deep."""
    try:
        return decode(await read(request), _decoder(kind))
    except (GameError, msgspec.ValidationError, msgspec.DecodeError) as error:
        request.state.logbook.count(as_rejected(error).code)
        raise


async def read(request: Request) -> bytes:
    declared = request.headers.get("content-length", "")
    too_large = GameError(f"the body is over {MAX_MESSAGE} bytes", code=codebook.TOO_LARGE)
    # Read as a number only as ASCII digits ("²" is a digit to ``isdigit``, not to ``int``);
    # any longer than a dozen is over the limit anyway.
    if (
        declared.isascii()
        and declared.isdigit()
        and (len(declared) > 12 or int(declared) > MAX_MESSAGE)
    ):
        raise too_large
    data = bytearray()
    seconds = request.state.body_timeout
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                data += chunk
                if len(data) > MAX_MESSAGE:
                    raise too_large
    except TimeoutError:
        late = f"the body did not come within {seconds:g} s"
        raise GameError(late, code=codebook.BAD_MESSAGE) from None
    except ClientDisconnect:  # nobody hears the answer; the client's mistake, not ours
        raise GameError("the client left before its body came", code=codebook.BAD_MESSAGE) from None
    return bytes(data)


@functools.cache
def _decoder(kind: type) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(kind)


def bearer(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def tables_of(request: Request | WebSocket) -> Tables:
    tables: Tables = request.state.tables
    return tables


async def member(request: Request) -> tuple[str, Device, Actor, Live]:
    """The table of the request's path, the device of its token and who that is there."""
    table_id = request.path_params["table"]
    device, who, live = await tables_of(request).authorise(table_id, bearer(request))
    return table_id, device, who, live


def host_only(who: Actor) -> None:
    if who.role != "host":
        raise GameError("only the host may do that", code=codebook.HOST_ONLY)


def client(request: Request) -> str:
    return request.client.host if request.client else "?"
