"""The live events of a Redis store: one listener per process, over sharded pub/sub.

The append script publishes each append's events on the table's shard channel, so a node
publishes only what it stores; the listener holds one subscriber connection per node (a
``Feed``: one for a single Redis, one per primary of a cluster, read as it arrives:
``server.stores.redis_wire.take``) and hands each table's events to its subscribers.
Pub/sub keeps nothing for a subscriber that was away, so the stream stays the record: once a
subscription is confirmed, and whenever an event arrives above the next number expected, the
table's gap is read from its stream (``_fill``). A connection lost, a Redis restarted or a
slot moved to another node only costs that read; every event reaches a subscriber once and
in order.

This process's own appends reach its subscribers as soon as Redis answers the append
(``appended``), not after the round trip of its publication; heard back, their bytes are
matched to the records sent and not decoded again (``appending``).

Deletions come the same way, on the channel of the ``deletions`` stream, whose entries the
listener reads again after any gap in its subscription.
"""

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

import msgspec
from redis.crc import key_slot
from redis.exceptions import AskError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from events.events import Recorded, decode
from server.stores.protocols import StoreUnavailable, TableGone
from server.stores.redis_wire import Connect, command, take

log = logging.getLogger("tilestream")

TOMBSTONE = b"deleted"  # what the delete script publishes on the table's channel
PING_EVERY = 5.0  # seconds a subscriber connection may be silent before it is asked
RETRY_MIN, RETRY_MAX = 0.02, 0.5  # seconds between tries while Redis is away
MINE = 8  # this process's appends to a table, heard back or not yet, remembered at most


class Listened(Protocol):
    """What the listener needs of its store (``server.stores.redis_streams.RedisStore``):
    the channels, the node serving each, and reads to catch up after a gap."""

    @property
    def deletions_channel(self) -> str:
        """The channel every deletion is published on."""
        ...

    def channel(self, table_id: str) -> str:
        """The channel a table's appends are published on."""
        ...

    def node_of(self, channel: str) -> tuple[str, Connect]:
        """The node serving ``channel``: its name, and how to connect to it."""
        ...

    async def refresh_nodes(self) -> None:
        """Learn the cluster's nodes again (after a move of slots)."""

    async def read(self, table_id: str, after: int = 0) -> tuple[Recorded, ...]:
        """The table's events numbered above ``after``."""
        ...

    async def deletions_since(self, entry_id: bytes | None) -> list[tuple[bytes, str]]:
        """The deletions after ``entry_id``: their entry ids and tables."""
        ...


class Listener:
    """The live events of every table this process follows, from one subscriber connection
    per node, and the deletions of every table."""

    def __init__(self, store: Listened) -> None:
        self._store = store
        self._feeds: dict[str, Feed] = {}  # by node name
        self._tables: dict[bytes, str] = {}  # channel → table id
        self._queues: defaultdict[str, set[asyncio.Queue[Any]]] = defaultdict(set)
        self._positions: dict[str, int] = {}  # followed tables: the last seq delivered
        self._current: set[str] = set()  # followed, subscribed and caught up
        self._filling: dict[str, bool] = {}  # tables being read: whether to read once more
        # channel → what this process's appends there publish, and their records, oldest first
        self._mine: dict[bytes, list[tuple[bytes, tuple[Recorded, ...]]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._deleted: Callable[[str], None] | None = None  # told of every deletion
        self._deletions: bytes | None = None  # the last deletion entry seen
        self._deletions_channel = store.deletions_channel.encode()
        self._closing = False

    # What subscribers ask

    def add(self, table_id: str, queue: asyncio.Queue[Any]) -> None:
        """Deliver the table's events to ``queue`` once the table is followed."""
        self._queues[table_id].add(queue)

    async def follow(self, table_id: str, seen: int) -> None:
        """Follow the table from ``seen`` on unless it is followed already."""
        if table_id in self._positions or table_id not in self._queues:
            return
        self._positions[table_id] = seen
        channel = self._store.channel(table_id)
        self._tables[channel.encode()] = table_id
        await self._feed(channel).want(channel.encode())

    def follows(self, table_id: str) -> bool:
        return table_id in self._current

    def remove(self, table_id: str, queue: asyncio.Queue[Any]) -> None:
        """Stop delivering to ``queue``; the table's last subscriber stops following it."""
        self._queues[table_id].discard(queue)
        if self._queues[table_id]:
            return
        del self._queues[table_id]
        self._positions.pop(table_id, None)
        self._current.discard(table_id)
        channel = self._store.channel(table_id)
        self._tables.pop(channel.encode(), None)
        self._mine.pop(channel.encode(), None)
        for feed in self._feeds.values():
            feed.unwant(channel.encode())

    def appending(self, table_id: str, records: tuple[Recorded, ...], published: bytes) -> None:
        """This process appends ``records``, to be ``published`` on the table's channel if
        they are recorded: heard back, those bytes are taken for these records, not decoded
        again (they may come before the append's own reply)."""
        if table_id in self._positions:
            mine = self._mine.setdefault(self._store.channel(table_id).encode(), [])
            mine.append((published, records))
            del mine[:-MINE]  # appends never published (refused) are not waited for long

    def appended(self, table_id: str, records: tuple[Recorded, ...]) -> None:
        """This process's append was recorded: the subscribers get it now, unless events
        before it are still to come, rather than after a round trip through Redis."""
        seen = self._positions.get(table_id)
        if seen is not None and records and records[0].seq == seen + 1:
            self._deliver(table_id, records)

    def watch(self, deleted: Callable[[str], None]) -> None:
        """Tell ``deleted`` the id of every table deleted from now on, by any process."""
        self._deleted = deleted
        channel = self._store.deletions_channel
        self._spawn(self._feed(channel).want(channel.encode()))

    async def close(self) -> None:
        """Stop every connection and every read."""
        self._closing = True
        tasks = [feed.task for feed in self._feeds.values() if feed.task is not None]
        tasks += self._tasks
        # A cancel may be swallowed by a read that completes as it lands: cancel until done.
        while any(not task.done() for task in tasks):
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks, timeout=0.05)
        for feed in self._feeds.values():
            await feed.disconnect()

    # What the feeds hear

    def heard(self, channel: bytes, data: bytes) -> None:
        """An append's events (or a tombstone) published on ``channel``."""
        if channel == self._deletions_channel:
            self._told(data)
            return
        table_id = self._tables.get(channel)
        if table_id is None or table_id not in self._positions:
            return
        if data == TOMBSTONE:
            self._fail(table_id, TableGone(f"table {table_id} was deleted"))
            return
        try:
            records = self._own(channel, data) or tuple(map(decode, data.split(b"\n")))
        except (msgspec.DecodeError, msgspec.ValidationError) as bad:
            self._fail(table_id, bad)  # that table's subscribers alone
            return
        seen = self._positions[table_id]
        if records[0].seq <= seen + 1:
            fresh = tuple(r for r in records if r.seq > seen)
            if fresh:
                self._deliver(table_id, fresh)
        else:  # a message missed: before the subscription began, or on a lost connection
            self._fill(table_id)

    def _own(self, channel: bytes, data: bytes) -> tuple[Recorded, ...]:
        """The records of this process's append that published ``data``; () for another's.
        A channel's messages come in order: the appends before it published nothing."""
        mine = self._mine.get(channel, [])
        for i, (published, records) in enumerate(mine):
            if published == data:
                del mine[: i + 1]
                return records
        return ()

    def subscribed(self, channel: bytes) -> None:
        """A subscription confirmed: what was appended before it began is read."""
        if channel == self._deletions_channel:
            self._spawn(self._catch_up_deletions())
            return
        table_id = self._tables.get(channel)
        if table_id is not None and table_id in self._positions:
            self._fill(table_id)

    def lost(self, feed: "Feed") -> None:
        """A feed's connection ended: its tables are not current until subscribed again."""
        for channel in feed.wanted:
            table_id = self._tables.get(channel)
            if table_id is not None:
                self._current.discard(table_id)

    async def moved(self, channels: set[bytes]) -> None:
        """Channels whose slot moved to another node (a cluster resharded): subscribe them
        where they are now."""
        await self._store.refresh_nodes()
        for channel in channels:
            text = channel.decode()
            feed = self._feed(text)
            for other in self._feeds.values():
                if other is not feed:
                    other.unwant(channel)
            await feed.want(channel)

    # Inside

    def _feed(self, channel: str) -> "Feed":
        name, connect = self._store.node_of(channel)
        feed = self._feeds.get(name)
        if feed is None:
            feed = self._feeds[name] = Feed(self, connect)
        return feed

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _fill(self, table_id: str) -> None:
        """Read the table's events above its position from the stream (once more if one
        is under way), then count it current."""
        self._current.discard(table_id)
        if table_id in self._filling:
            self._filling[table_id] = True
            return
        self._filling[table_id] = False
        self._spawn(self._filled(table_id))

    async def _filled(self, table_id: str) -> None:
        delay = RETRY_MIN
        try:
            while not self._closing and table_id in self._positions:
                self._filling[table_id] = False
                try:
                    records = await self._store.read(table_id, self._positions[table_id])
                except StoreUnavailable:  # its feed reconnects and asks for this read again
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, RETRY_MAX)
                    continue
                if table_id not in self._positions:
                    break
                fresh = tuple(r for r in records if r.seq > self._positions[table_id])
                if fresh:
                    self._deliver(table_id, fresh)
                if not self._filling[table_id]:
                    channel = self._store.channel(table_id).encode()
                    if any(channel in feed.heard for feed in self._feeds.values()):
                        self._current.add(table_id)
                    break
        except (msgspec.DecodeError, msgspec.ValidationError, KeyError, TableGone) as bad:
            self._fail(table_id, bad)
        finally:
            self._filling.pop(table_id, None)

    async def _catch_up_deletions(self) -> None:
        """The deletions recorded while this process was not subscribed to them (from the
        first watch on: none before it)."""
        delay = RETRY_MIN
        while not self._closing:
            try:
                missed = await self._store.deletions_since(self._deletions)
            except StoreUnavailable:
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)
                continue
            if self._deletions is None:  # where to begin, unless a deletion came meanwhile
                self._deletions = missed[0][0]
                return
            for entry_id, table_id in missed:
                self._tell(entry_id, table_id.encode())
            return

    def _told(self, data: bytes) -> None:
        entry_id, _, table_id = data.partition(b" ")
        self._tell(entry_id, table_id)

    def _tell(self, entry_id: bytes, table_id: bytes) -> None:
        """Tell the watcher of a deletion not told before; its trouble is its own."""
        if self._deletions is not None and _entry_key(entry_id) <= _entry_key(self._deletions):
            return
        self._deletions = entry_id
        try:
            if self._deleted is not None:
                self._deleted(table_id.decode())
        except Exception:
            log.exception("a deleted table's watcher failed")

    def _fail(self, table_id: str, error: BaseException) -> None:
        """The table's subscribers raise ``error``; it is followed again once subscribed."""
        self._positions.pop(table_id, None)
        self._current.discard(table_id)
        for queue in self._queues[table_id]:
            queue.put_nowait(error)

    def _deliver(self, table_id: str, records: tuple[Recorded, ...]) -> None:
        self._positions[table_id] = records[-1].seq
        for queue in self._queues[table_id]:
            queue.put_nowait(records)

    def broken(self, feed: "Feed", error: BaseException) -> None:
        """A bug in handling what a feed heard: every subscriber of its tables raises it."""
        for channel in feed.wanted:
            table_id = self._tables.get(channel)
            if table_id is not None and table_id in self._positions:
                self._fail(table_id, error)


def _entry_key(entry_id: bytes) -> tuple[int, int]:
    ms, _, n = entry_id.partition(b"-")
    return int(ms), int(n or 0)


class Feed:
    """One subscriber connection to one node: the shard channels this process hears there,
    subscribed again whenever the connection is made anew."""

    def __init__(self, listener: Listener, connect: Connect) -> None:
        self.listener = listener
        self._connect = connect
        self.wanted: set[bytes] = set()
        self.heard: set[bytes] = set()  # confirmed on the current connection
        self.task: asyncio.Task[None] | None = None
        self._transport: asyncio.Transport | None = None
        self._ended: asyncio.Future[Exception] | None = None  # why the current connection ended
        self._wanting = asyncio.Event()
        self._delay = RETRY_MIN
        self._spoke = False  # the node said something since the last look

    async def want(self, channel: bytes) -> None:
        """Hear ``channel`` (again: a confirmation starts a catch-up read either way)."""
        self.wanted.add(channel)
        self._wanting.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run(), name="redis-store-listener")
        else:
            self._send("SSUBSCRIBE", channel)

    def unwant(self, channel: bytes) -> None:
        """Stop hearing ``channel``."""
        if channel not in self.wanted:
            return
        self.wanted.discard(channel)
        self.heard.discard(channel)
        self._send("SUNSUBSCRIBE", channel)

    def _send(self, *args: bytes | str) -> None:
        """Write a command on the current connection; without one, it is subscribed anew."""
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(command(*args))

    async def disconnect(self) -> None:
        if self._transport is not None:
            self._transport.close()
            self._transport = None

    async def _run(self) -> None:
        self._delay = RETRY_MIN
        while not self.listener._closing:
            if not self.wanted:
                self._wanting.clear()
                await self._wanting.wait()
                continue
            try:
                await self._listen()
            except (RedisConnectionError, RedisTimeoutError, OSError):
                pass
            self.heard.clear()
            self.listener.lost(self)
            await self.disconnect()
            await asyncio.sleep(self._delay)  # what it wants stays: subscribed again when back
            self._delay = min(self._delay * 2, RETRY_MAX)

    async def _listen(self) -> None:
        """One connection's life: subscribe every wanted channel, then hear until it ends.
        What arrives is handled as it is read (``_reply``); this only watches for silence."""
        ended = self._ended = asyncio.get_running_loop().create_future()
        self._transport = await take(self._connect, self._reply, lambda why: _end(ended, why))
        slots: defaultdict[int, list[bytes]] = defaultdict(list)
        for channel in self.wanted:
            slots[key_slot(channel)].append(channel)
        for channels in slots.values():  # one slot per SSUBSCRIBE, as a cluster requires
            self._send("SSUBSCRIBE", *channels)
        self._delay = RETRY_MIN
        asked = False
        while True:
            self._spoke = False
            await asyncio.wait([ended], timeout=PING_EVERY)
            if ended.done():
                raise ended.result()
            if self._spoke:
                asked = False
                continue
            if asked:  # silent: asked, and give up on a connection that stays so
                raise RedisTimeoutError("the subscriber connection stopped answering")
            self._send("PING")
            asked = True

    def _reply(self, reply: Any) -> None:
        self._spoke = True
        if isinstance(reply, AskError):  # MOVED: a slot is served by another node now
            self.listener._spawn(self.listener.moved(set(self.wanted - self.heard)))
            return
        if isinstance(reply, Exception):  # no reply a subscriber expects: start anew
            if self._ended is not None:
                _end(self._ended, reply)
            return
        try:
            self._hear(reply)
        except Exception as error:  # a bug: this feed's tables raise it, the feed goes on
            self.listener.broken(self, error)

    def _hear(self, reply: Any) -> None:
        kind, channel = reply[0], reply[1]
        if kind == b"smessage":
            self.listener.heard(channel, reply[2])
        elif kind == b"ssubscribe":
            if channel in self.wanted:
                self.heard.add(channel)
                self.listener.subscribed(channel)
        elif kind == b"sunsubscribe" and channel in self.wanted:  # not ours: its slot moved
            self.heard.discard(channel)
            self.listener._spawn(self.listener.moved({channel}))


def _end(ended: "asyncio.Future[Exception]", why: Exception) -> None:
    """A connection ended, and why (the first reason counts)."""
    if not ended.done():
        ended.set_result(why)
