"""The event store behind every table: one interface, an SQLite and a Redis backend.

A table's log is gapless: event ``n`` has sequence number ``n``. ``append`` takes the
sequence number the caller decided on; a store refuses the append (``Conflict``) when the
log has moved on since, and the caller decides again on the fresh state. A command id
makes an append idempotent: the same id twice is recorded once, and the second call gets
the events the first one recorded.
"""

import abc
from collections.abc import AsyncIterator, Sequence

import msgspec

from events.events import Event, Recorded


class Conflict(Exception):
    """The log has moved past the sequence number the append expected."""


class StoreUnavailable(Exception):
    """The store cannot be reached now; nothing was recorded."""


class TableInfo(msgspec.Struct, frozen=True):
    """A table: its id, its short join code and when it was made (ms since the epoch)."""

    id: str
    code: str
    created: int


class Device(msgspec.Struct, frozen=True):
    """A phone's place at a table: ``host``, ``player`` (with a seat) or ``viewer``."""

    table: str
    role: str
    seat: int | None = None


class Store(abc.ABC):
    """Tables, their devices and their logs."""

    #: Whether other processes may append to the same tables; if not, a table loaded in this
    #: process is always current and needs no catch-up read before a decision.
    shared = True

    @abc.abstractmethod
    async def start(self) -> None:
        """Open connections; called once before use."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Release connections."""

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
    async def add_device(self, token_hash: str, device: Device) -> None:
        """Remember a device by the hash of its token; raises Conflict if the hash is taken."""

    @abc.abstractmethod
    async def device(self, token_hash: str) -> Device | None:
        """A device by the hash of its token."""

    @abc.abstractmethod
    async def append(
        self,
        table_id: str,
        expected: int,
        events: Sequence[Event],
        *,
        device: str = "",
        at: int = 0,
        command: str = "",
    ) -> tuple[Recorded, ...]:
        """Record ``events`` as numbers ``expected + 1`` on, all or none.

        Returns what was recorded — or, when ``command`` was recorded before, what that
        recorded. Raises Conflict when the log's last number is not ``expected``,
        StoreUnavailable when the store cannot be reached.
        """

    @abc.abstractmethod
    async def read(self, table_id: str, after: int = 0) -> tuple[Recorded, ...]:
        """The table's events numbered above ``after``, in order."""

    @abc.abstractmethod
    def subscribe(self, table_id: str, after: int = 0) -> AsyncIterator[tuple[Recorded, ...]]:
        """Batches of the table's events above ``after``: what is there, then as they come."""
