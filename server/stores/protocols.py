"""The event store behind every table, as three small protocols — the event log, the registry
of tables and devices, the limits — that an SQLite and a Redis backend both keep; each has its
contract suite (``tests/server/stores/``).

A table's log is gapless: event ``n`` has sequence number ``n``. ``append`` takes the
sequence number the caller decided on; a store refuses the append (``Conflict``) when the
log has moved on since, and the caller decides again on the fresh state. A command id
makes an append idempotent: the same id twice is recorded once, and the second call gets
the events the first one recorded.

A table deleted (by its host, or idle past the retention time, P-11) goes whole: its record
and join code (free again), every device token of it, its log and what else is kept per
table. The store remembers the deletion for a while (``GONE_MS``): an append, a read or a
subscription of that table meanwhile raises TableGone rather than starting a new log under
its id, which is how a command racing the deletion on another process ends.
"""

import abc
import functools
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Protocol

import msgspec

from editions import codebook
from editions.errors import GameError
from events.events import Recorded, Role, TableEvent
from server.stores.windows import Windows

GONE_MS = 86_400_000  # how long a store remembers a deleted table: past any command in flight


class Conflict(Exception):
    """The log has moved past the sequence number the append expected (or, creating a table
    or a device, its id, code or token is taken).

    A refused append carries what the caller missed: the events numbered above the number it
    expected, read in the same step that refused it, so the caller folds them and decides
    again without a read of its own.
    """

    def __init__(self, message: str, records: tuple[Recorded, ...] = ()) -> None:
        super().__init__(message)
        self.records = records


class StoreUnavailable(Exception):
    """The store cannot be reached now; nothing was recorded."""


class TableGone(GameError):
    """The table was deleted (or, for a new device, is not there); nothing was recorded."""

    code = codebook.TABLE_DELETED


class TableInfo(msgspec.Struct, frozen=True):
    """A table: its id, its short join code and when it was made (ms since the epoch)."""

    id: str
    code: str
    created: int


class Device(msgspec.Struct, frozen=True):
    """What a token opens: a table, as its host or as the device ``id`` that joined it.

    Where such a device sits, whether the host let it in and whether it was taken away is
    the table's log (``rules.table.seating``); the store only knows the token.
    """

    table: str
    role: Role  # as it joined
    seat: int | None = None
    id: str = ""  # as the log names it ("host" for the host)


class EventLog(Protocol):
    """Each table's gapless log: appended to on an expected seq, read, subscribed to."""

    #: Whether other processes may append to the same tables; if not, a table loaded in this
    #: process is always current and needs no catch-up read before a decision.
    shared: bool = True

    def follows(self, table_id: str) -> bool:
        """Whether a subscription in this process has delivered every event of the table up
        to a moment ago and brings the next as it is appended: what this process folded
        from it needs no catch-up read. (A store that is not ``shared`` needs none anyway.)"""
        return False

    @abc.abstractmethod
    async def append(
        self,
        table_id: str,
        expected: int,
        events: Sequence[TableEvent],
        *,
        device: str = "",
        at: int = 0,
        command: str = "",
    ) -> tuple[Recorded, ...]:
        """Record ``events`` as numbers ``expected + 1`` on, all or none.

        Returns what was recorded — or, when ``command`` was recorded before, what that
        recorded. Raises Conflict when the log's last number is not ``expected``, carrying
        the events above ``expected`` (``Conflict.records``); TableGone when the table was
        deleted; StoreUnavailable when the store cannot be reached.
        """

    @abc.abstractmethod
    async def read(self, table_id: str, after: int = 0) -> tuple[Recorded, ...]:
        """The table's events numbered above ``after``, in order; raises TableGone."""

    @abc.abstractmethod
    def subscribe(self, table_id: str, after: int = 0) -> AsyncIterator[tuple[Recorded, ...]]:
        """Batches of the table's events above ``after``: what is there, then as they come;
        raises TableGone once the table is deleted."""


class Registry(Protocol):
    """The tables by id and join code, deleted whole; the devices by the hash of their token."""

    @abc.abstractmethod
    async def create_table(self, table: TableInfo) -> None:
        """Record a new table; raises Conflict if its id or code is taken."""

    @abc.abstractmethod
    async def table(self, table_id: str) -> TableInfo | None:
        """A table by id."""

    @abc.abstractmethod
    async def table_by_code(self, code: str) -> TableInfo | None:
        """A table by its join code."""

    @abc.abstractmethod
    async def delete_table(self, table_id: str) -> bool:
        """Delete the table: its record, join code, device tokens, log, command ids and last
        seen times, all or none; whether it was there. Its subscribers raise TableGone."""

    @abc.abstractmethod
    async def idle_tables(self, before_ms: int, limit: int) -> tuple[str, ...]:
        """At most ``limit`` tables whose last event (or, with none, whose creation) is older
        than ``before_ms`` (ms since the epoch), the longest idle first."""

    def on_deleted(self, callback: Callable[[str], None]) -> None:
        """Call ``callback`` with the id of every table deleted from now on — by any process,
        for a shared store — so a process can let go of what it holds of it."""
        self._watchers.append(callback)

    @functools.cached_property
    def _watchers(self) -> list[Callable[[str], None]]:
        return []

    def _deleted(self, table_id: str) -> None:
        for callback in self._watchers:
            callback(table_id)

    @abc.abstractmethod
    async def add_device(self, token_hash: str, device: Device) -> None:
        """Remember a device by the hash of its token; raises Conflict if the hash is taken,
        TableGone if its table is not there."""

    @abc.abstractmethod
    async def device(self, token_hash: str) -> Device | None:
        """A device by the hash of its token."""

    @abc.abstractmethod
    async def touch(self, table_id: str, device: str, at: int) -> None:
        """Note that ``device`` was seen at ``at`` (ms): the host's list of devices shows it."""

    @abc.abstractmethod
    async def last_seen(self, table_id: str) -> dict[str, int]:
        """When each device of the table was last seen (ms), by device id."""


class Limits(Protocol):
    """Hits counted per key in fixed windows: how often an address may join, for example."""

    async def hit(self, key: str, window_ms: int) -> int:
        """Count a hit on ``key``: how many it has had in its window, this one included.

        A window of ``window_ms`` begins at the first hit after the last one ended. Counted
        in this process's memory, which is every process there is for a store that is not
        ``shared``; a shared store counts for every process (raises StoreUnavailable).
        """
        return self._windows.hit(key, window_ms)

    async def refund(self, key: str) -> None:
        """Take back one hit on ``key`` in its current window (an attempt that turned out
        to be no guess); nothing once the window ended (raises StoreUnavailable)."""
        self._windows.refund(key)

    @functools.cached_property
    def _windows(self) -> "Windows":
        return Windows()


class Store(EventLog, Registry, Limits, Protocol):
    """All three, over one connection, opened and closed with the server; healthy or not."""

    @abc.abstractmethod
    async def start(self) -> None:
        """Open connections; called once before use."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Release connections."""

    @abc.abstractmethod
    async def writable(self) -> bool:
        """Whether the store takes a write now (a tiny real one): what ``/health`` says."""
