"""Live sheets: one follower per table and process, a bounded queue per phone.

A table's follower subscribes to the store once, folds what arrives and builds the new view
once per audience — and in an online game once per seat, whose phones get their own rack
and no other. A phone gets the whole view once (after its hello, or when it asks with a
``resync``), then per change only what changed since the view it has, made once per
audience and seat: every phone of an audience (and seat) gets the same frame. A phone that
stops reading fills its queue and is disconnected (``1013 try again later``): it resumes
from its last seq when it reconnects, and the table never waits for it.
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from starlette import status
from starlette.websockets import WebSocket

from editions import codebook
from server.http.ws_reading import SEND_NOW
from server.live.messages import BEAT_SECONDS, Beat, Rejected, encoder
from server.live.sheets import Frame
from server.stores.protocols import Device, Store, StoreUnavailable, TableGone
from server.tables.commands import Tables
from server.tables.joins import actor, audience, gone, seat_of
from server.tables.live import Live, ViewKey

log = logging.getLogger("tilestream")

RETRY_MIN, RETRY_MAX = 0.5, 5.0  # seconds a follower waits before it tries again
BEAT = encoder.encode(Beat()).decode()


class Connection:
    """One phone's socket: its send queue, its device, and the view it was sent last (its
    key and seq)."""

    def __init__(self, websocket: WebSocket, size: int) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[Frame | None] = asyncio.Queue(maxsize=size)  # None: close
        self.seq = -1
        self.key: ViewKey | None = None  # None: the phone has no view this socket sent
        self.table: str | None = None
        self.device: Device | None = None
        self.sent_at = time.monotonic()  # when a frame last went to this phone
        self._close = (status.WS_1013_TRY_AGAIN_LATER, "too slow")
        self._writing = False  # the writer is sending a queued frame
        extension = websocket.scope.get("extensions", {}).get(SEND_NOW)
        self._send_now: Callable[..., bool] | None = extension and extension["send"]

    def send(self, data: bytes) -> None:
        """Send a JSON message as a text frame."""
        self._put(data.decode())

    def beat(self, now: float) -> None:
        """Send a beat if nothing went to the phone for ``BEAT_SECONDS``."""
        if now - self.sent_at >= BEAT_SECONDS:
            self._put(BEAT)

    def _put(self, *frames: Frame | None) -> None:
        """Write frames straight to the socket, in one write, when nothing waits before them
        and the socket takes them, else queue them; a full queue drops the phone instead of
        the message order. None: close."""
        self.sent_at = time.monotonic()
        if (
            None not in frames
            and self._send_now is not None
            and not self._writing
            and self.queue.empty()
            and self._send_now(*frames)
        ):
            return
        try:
            for frame in frames:
                self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def send_state(self, live: Live, answer: bytes | None = None) -> None:
        """Queue the table as this device may see it — what changed since the view it has,
        or the whole view — unless it has that seq or a later one; a device the host took
        away is told so and let go. ``answer`` (a command's ``accepted``) goes before it,
        in the same write: the phone that sent a command gets both in one."""
        frames: list[Frame | None] = [] if answer is None else [answer.decode()]
        frames += self._state(live)
        if frames:
            self._put(*frames)

    def _state(self, live: Live) -> tuple[Frame | None, ...]:
        if live.state.seq <= self.seq or self.device is None:
            return ()
        who = actor(live.state, self.device)
        if who is None:
            why = gone(live.state, self.device)
            removed = Rejected("", why.code, {}, str(why))
            self._close = (status.WS_1008_POLICY_VIOLATION, "device removed")
            self.seq = live.state.seq
            return encoder.encode(removed).decode(), None
        key = live.key(audience(who), seat_of(who))  # its own rack only
        after = self.seq if key == self.key else -1  # a new seat, a new game: the whole view
        frame = live.frame(key, after)
        self.key = key
        if frame is None:  # only the seq changed for it: it keeps the view (and seq) it has
            return ()
        self.seq = live.state.seq
        return (frame,)

    def resync(self, live: Live) -> None:
        """Queue the whole view at the current seq: the phone says its view is not the one
        the last change followed."""
        self.seq, self.key = -1, None
        self.send_state(live)

    def let_go(self, code: str, message: str, reason: str) -> None:
        """Tell the phone why (a ``rejected`` with ``code``) and close its socket (1008)."""
        self.send(encoder.encode(Rejected("", code, {}, message)))
        self._close = (status.WS_1008_POLICY_VIOLATION, reason)
        self._put(None)

    async def write(self) -> None:
        """Send queued frames in order until told to close."""
        while (frame := await self.queue.get()) is not None:
            self._writing = True
            try:
                if isinstance(frame, str):
                    await self.websocket.send_text(frame)
                else:
                    await self.websocket.send_bytes(frame)
            finally:
                self._writing = False
        code, reason = self._close
        await self.websocket.close(code=code, reason=reason)


class Hub:
    """Which phones follow which table in this process."""

    def __init__(self, tables: Tables, store: Store) -> None:
        self.tables = tables
        self.store = store
        self._rooms: dict[str, set[Connection]] = {}
        self._watched: set[str] = set()  # followed with no phone here (a simultaneous's centres)
        self._followers: dict[str, asyncio.Task[None]] = {}
        self._listeners: list[Callable[[str, Live], None]] = []
        self._beats: asyncio.Task[None] | None = None
        tables.keep_while(self._follows)  # a table with phones here stays held
        store.on_deleted(self.gone)  # by this process or, with Redis, any other

    def _follows(self, table_id: str) -> bool:
        return table_id in self._rooms or table_id in self._watched

    def on_moved(self, listener: Callable[[str, Live], None]) -> None:
        """Call ``listener`` with each followed table that moved on (after its phones were
        sent the change), and with a table a phone just entered."""
        self._listeners.append(listener)

    def phones(self, table_id: str) -> frozenset[Connection]:
        """The phones of a table in this process."""
        return frozenset(self._rooms.get(table_id, ()))

    def watch(self, table_id: str) -> None:
        """Follow a table with no phone of it here (its state kept current), until
        ``unwatch``."""
        self._watched.add(table_id)
        if table_id not in self._followers:
            self._followers[table_id] = asyncio.create_task(self._follow(table_id))

    def unwatch(self, table_id: str) -> None:
        self._watched.discard(table_id)
        if table_id not in self._rooms and table_id in self._followers:
            self._followers.pop(table_id).cancel()

    def connections(self) -> int:
        return sum(len(room) for room in self._rooms.values())

    def enter(self, table_id: str, connection: Connection) -> None:
        """Follow a table; its follower starts with its first phone."""
        if self._beats is None:
            self._beats = asyncio.create_task(self._beat())
        connection.table = table_id
        self._rooms.setdefault(table_id, set()).add(connection)
        if table_id not in self._followers:
            self._followers[table_id] = asyncio.create_task(self._follow(table_id))
        live = self.tables.holding(table_id)
        if live is not None:
            for listener in self._listeners:
                listener(table_id, live)

    def leave(self, connection: Connection) -> None:
        """Stop following; the follower stops with the table's last phone."""
        table_id = connection.table
        room = self._rooms.get(table_id or "")
        if table_id is None or room is None:
            return
        room.discard(connection)
        if not room:
            del self._rooms[table_id]
            if table_id not in self._watched:
                self._followers.pop(table_id).cancel()

    def gone(self, table_id: str) -> None:
        """A deleted table (P-11): every phone of it here is told (``table_deleted``) and let
        go, and this process forgets the table."""
        self.tables.forget(table_id)
        self._watched.discard(table_id)
        for connection in self._rooms.pop(table_id, ()):
            connection.let_go(codebook.TABLE_DELETED, "this table was deleted", "table deleted")
        follower = self._followers.pop(table_id, None)
        if follower is not None and follower is not asyncio.current_task():
            follower.cancel()

    async def close(self) -> None:
        tasks = [*self._followers.values(), *([self._beats] if self._beats else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _beat(self) -> None:
        """A beat to each phone sent nothing for ``BEAT_SECONDS``, looked for twice as often:
        no phone waits more than one and a half of them."""
        while True:
            await asyncio.sleep(BEAT_SECONDS / 2)
            now = time.monotonic()
            for room in self._rooms.values():
                for connection in room:
                    connection.beat(now)

    async def _follow(self, table_id: str) -> None:
        """Follow the table for as long as it has phones: after any error (the store away,
        an entry this process cannot read) it goes on from the last seq it folded, logged
        once until it has caught up again, so no table falls silent for good."""
        said = ""  # what was logged of the current trouble
        delay = RETRY_MIN
        while True:
            try:
                live = await self.tables.live(table_id)
                self._broadcast(table_id, live)
                async for batch in self.store.subscribe(table_id, live.state.seq):
                    live = self.tables.advance(table_id, batch) or await self.tables.live(table_id)
                    self._broadcast(table_id, live)
                    said, delay = "", RETRY_MIN
            except asyncio.CancelledError:
                raise
            except TableGone:
                self.gone(table_id)
                return
            except Exception as error:  # one table's trouble is never the hub's
                trouble = f"{type(error).__name__}: {error}"
                if trouble != said:
                    if isinstance(error, StoreUnavailable):  # phones keep their sockets
                        log.warning("table %s: store unavailable (%s); retrying", table_id, error)
                    else:
                        log.error("table %s: its follower stopped (%s); retrying", table_id, error)
                    said = trouble
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)

    def _broadcast(self, table_id: str, live: Live) -> None:
        for connection in list(self._rooms.get(table_id, ())):
            connection.send_state(live)
        for listener in self._listeners:
            listener(table_id, live)
