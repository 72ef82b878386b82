"""Connections to Redis that the store reads and writes itself: the append script's calls and
the listener's subscriptions, the two things a server does for every event.

Through redis-py a call paid its whole way to the socket and back — a connection or a
pipeline from the pool, its retry and timeouts, the command packed in Python, each reply
read under a timeout of its own, a task woken to read it — more than a fifth of the server's
time per event (``python -m bench.fanout``). Here redis-py opens the connection (its
handshake, AUTH, database and TLS as for any of its own), then hands it over (``take``):
replies go to hiredis as the bytes arrive, in the callback that receives them, and commands
are packed by hiredis and written straight to the transport.

Redis answers a connection's commands in the order they came, so a ``Wire`` writes every
call as it is made and hands the replies to the calls in that order: a call costs its
packing, a write and a future, and calls made together share a round trip. Written at once,
not gathered until the end of the event loop's turn: at a table's pace a turn holds one
call, and the gathering cost a turn of its own per command (``python -m bench.fanout``).

A connection that fails fails every call out on it with redis-py's ConnectionError, and one
that answers nothing for ``SILENCE`` (a paused Redis) with its TimeoutError — each may have
run, as through redis-py — and the next call connects anew. One timer looks at a wire's
calls every ``SILENCE`` / 2, not a timeout per call.
"""

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import hiredis
from redis._parsers.base import BaseParser
from redis.asyncio.client import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import AskError, ClusterDownError, NoScriptError, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

Connect = Callable[[], AbstractConnection]
Arg = str | int | float | bytes  # what a command is made of
SILENCE = 5.0  # seconds within which a connection that answers nothing is given up (redis-py's)
Reply = Any  # as redis-py's parser gives it: bytes, int, None, a list, or an error instance


class _Replies(asyncio.Protocol):
    """A taken connection's replies, parsed as they arrive."""

    def __init__(
        self,
        writer: asyncio.StreamWriter,
        reply: Callable[[Reply], None],
        lost: Callable[[Exception], None],
    ) -> None:
        self._parser = hiredis.Reader(replyError=BaseParser.parse_error)
        self._writer = writer  # kept: a StreamWriter let go of closes its transport
        self._reply = reply
        self._lost = lost

    def data_received(self, data: bytes) -> None:
        self._parser.feed(data)
        try:
            while (reply := self._parser.gets()) is not False:
                self._reply(reply)
        except hiredis.ProtocolError:  # no Redis speaks so: the calls out fail, as on a loss
            self._writer.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost(RedisConnectionError(f"the connection to Redis was lost ({exc or 'closed'})"))


async def take(
    connect: Connect, reply: Callable[[Reply], None], lost: Callable[[Exception], None]
) -> asyncio.Transport:
    """A connection redis-py opened, taken over: every reply goes to ``reply`` from now on,
    and ``lost`` hears once that it ended. Raises redis-py's ConnectionError."""
    connection = connect()
    await connection.connect()  # type: ignore[no-untyped-call]  # unannotated in redis-py
    reader, writer = connection._reader, connection._writer
    assert reader is not None and writer is not None, "connect() opened them"
    connection._reader = connection._writer = None  # redis-py never touches it again
    transport: asyncio.Transport = writer.transport  # type: ignore[assignment]
    protocol = _Replies(writer, reply, lost)
    transport.set_protocol(protocol)
    if left := bytes(reader._buffer):  # type: ignore[attr-defined]  # arrived before the hand-over
        protocol.data_received(left)
    if transport.is_closing():
        raise RedisConnectionError("the connection to Redis closed as it opened")
    return transport


def command(*args: Arg) -> bytes:
    """A command as Redis reads it."""
    return bytes(hiredis.pack_command(args))  # type: ignore[arg-type]  # any length, not one


class Wire:
    """One connection that writes commands as they come and hands the replies back in order."""

    def __init__(self, connect: Connect) -> None:
        self._connect = connect
        self._opening = asyncio.Lock()
        self._transport: asyncio.Transport | None = None  # None: to be connected
        self._waiting: deque[asyncio.Future[Reply]] = deque()  # in the order written
        self._watch: asyncio.TimerHandle | None = None  # looks every SILENCE / 2 while calls wait
        self._oldest: asyncio.Future[Reply] | None = None  # the oldest call at the last look
        self._silent = False  # the connection was given up for not answering

    async def call(self, *args: Arg) -> Reply:
        """The command's reply; raises its error reply as redis-py would (an instance of
        ``BaseParser.EXCEPTION_CLASSES``), or ConnectionError or TimeoutError when it may not
        have run."""
        transport = self._transport or await self._open()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Reply] = loop.create_future()
        transport.write(command(*args))
        self._waiting.append(done)
        if self._watch is None:
            self._watch = loop.call_later(SILENCE / 2, self._look)
        return await done

    async def close(self) -> None:
        """Wait for the calls out, then close the connection."""
        await asyncio.gather(*self._waiting, return_exceptions=True)
        if self._watch is not None:
            self._watch.cancel()
        if self._transport is not None:
            self._transport.close()
        self._lost(RedisConnectionError("the wire was closed"))

    async def _open(self) -> asyncio.Transport:
        async with self._opening:
            if self._transport is None:  # else another call connected meanwhile
                self._transport = await take(self._connect, self._reply, self._lost)
            return self._transport

    def _reply(self, reply: Reply) -> None:
        if not self._waiting:  # no call of ours asked for it: the connection is not ours
            assert self._transport is not None
            self._transport.abort()
            return
        done = self._waiting.popleft()
        if done.cancelled():  # its caller is gone; what Redis did stands
            return
        if isinstance(reply, Exception):
            done.set_exception(reply)
        else:
            done.set_result(reply)

    def _look(self) -> None:
        """A look at the calls out, one timer for all of them rather than a timeout each: a
        connection that answered nothing since the last look while a call waited through it
        is given up (a paused or unreachable Redis), failing its calls."""
        self._watch = None
        if not self._waiting:
            self._oldest = None
            return
        if self._waiting[0] is self._oldest and self._transport is not None:
            self._silent = True
            self._transport.abort()  # every call out on it fails, as told in ``_lost``
            return
        self._oldest = self._waiting[0]
        self._watch = asyncio.get_running_loop().call_later(SILENCE / 2, self._look)

    def _lost(self, error: Exception) -> None:
        if self._silent:
            error = RedisTimeoutError(f"Redis answered nothing for {SILENCE:g} s and more")
            self._silent = False
        self._transport = None
        waiting, self._waiting = self._waiting, deque()
        for done in waiting:
            if not done.done():
                done.set_exception(error)


class ScriptCalls:
    """Run the Lua ``script`` as redis-py's call would, on a wire to the node of its first key.

    A script the Redis does not know (it restarted) is loaded on that wire and called again;
    a cluster's call whose slot moved (MOVED, ASK) or cannot be served just now (TRYAGAIN,
    CLUSTERDOWN) is made again by redis-py's cluster client, which follows the slot. Redis
    ran none of those.
    """

    def __init__(
        self,
        client: Redis | RedisCluster,
        script: str,
        node_of: Callable[[str], tuple[str, Connect]],
    ) -> None:
        self._text = script
        self._script = client.register_script(script)
        self._node_of = node_of
        self._wires: dict[str, Wire] = {}  # by node name

    async def __call__(self, keys: Sequence[str], args: Sequence[Arg]) -> Reply:
        """The script's reply; raises what running it through redis-py would raise."""
        name, connect = self._node_of(keys[0])
        wire = self._wires.get(name)
        if wire is None:
            wire = self._wires[name] = Wire(connect)
        call = ("EVALSHA", self._script.sha, len(keys), *keys, *args)
        try:
            try:
                return await wire.call(*call)
            except NoScriptError:
                await wire.call("SCRIPT", "LOAD", self._text)
                return await wire.call(*call)
        except (AskError, TryAgainError, ClusterDownError):
            return await self._script(keys=keys, args=args)

    async def close(self) -> None:
        """Wait for the calls already made; close the wires."""
        for wire in self._wires.values():
            await wire.close()
