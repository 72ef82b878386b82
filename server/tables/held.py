"""The tables a server process holds in memory, kept current and let go when idle.

Each table's state is kept in memory, current by its follower's subscription (or, for a table
no phone here follows, by a read before it is used), so several processes can serve one
table: an append that loses the race (``Conflict``) brings the events it missed and is decided
again on the fresh state, never dropped.
"""

import asyncio
import random
import time
from collections.abc import Callable

from editions import codebook
from editions.errors import GameError
from events.events import Recorded, TableEvent
from rules.table.state import State
from server.stores.protocols import Conflict, Store, TableGone
from server.tables.live import Live

APPEND_TRIES = 64  # conflicting appends in a row before a command is refused as "busy"

IDLE_MS = 600_000  # a table no phone here follows leaves memory after 10 minutes unused
HELD_MAX = 5_000  # tables held at most: beyond it the least recently used go first
SWEEP_MS = 60_000  # how often ``live`` looks for idle tables

Deciding = Callable[[State], tuple[tuple[TableEvent, ...], str]]


def now_ms() -> int:
    """The server's clock, in ms since the epoch."""
    return time.time_ns() // 1_000_000


class Held:
    """Every table this process holds, over one store: read, followed, appended to, let go."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], int] = now_ms,
        *,
        idle_ms: int = IDLE_MS,
        held_max: int = HELD_MAX,
    ) -> None:
        self.store = store
        self.clock = clock
        self.idle_ms = idle_ms
        self.held_max = held_max
        self._live: dict[str, Live] = {}
        self._used: dict[str, int] = {}  # table → last used (ms), the least recent first
        self._swept = 0
        self._followed: Callable[[str], bool] = lambda table_id: False
        self._watchers: list[Callable[[str], None]] = []

    def watch(self, watcher: Callable[[str], None]) -> None:
        """Call ``watcher(table_id)`` whenever a table this process holds has moved on."""
        self._watchers.append(watcher)

    def _moved(self, table_id: str, live: Live, before: int) -> None:
        if live.state.seq != before:
            for watcher in self._watchers:
                watcher(table_id)

    def forget(self, table_id: str) -> None:
        """Let go of a table that was deleted (by this process or another)."""
        self._live.pop(table_id, None)
        self._used.pop(table_id, None)

    async def _read(self, table_id: str, after: int) -> tuple[Recorded, ...]:
        """The table's log after ``after``; raises TableGone, forgetting the table."""
        try:
            return await self.store.read(table_id, after)
        except TableGone:
            self.forget(table_id)
            raise

    async def live(self, table_id: str) -> Live:
        """The table caught up with its log.

        A table this process does not hold yet is read once. A held one is read again only on
        a shared store that no subscription here follows: a followed table is as current as
        its follower, which folds each event as it comes (``advance``), and every append to a
        store that is not shared goes through this process.
        """
        self._use(table_id)
        live = self._live.get(table_id)
        if live is not None and (not self.store.shared or self.store.follows(table_id)):
            return live
        records = await self._read(table_id, live.state.seq if live is not None else 0)
        # Held only once read: a caller meanwhile reads too rather than taking an empty
        # table for the real one; the first to be done is kept and the other folds into it.
        live = self._live.setdefault(table_id, live if live is not None else Live())
        before = live.state.seq
        live.fold(records)
        self._moved(table_id, live, before)
        return live

    async def caught_up(self, table_id: str) -> Live:
        """The table read to its last event even when a subscription here follows it: for a
        decision that must not lag another process's append by a moment (a simultaneous's
        window closed early, read by a centre's draw)."""
        live = await self.live(table_id)
        if self.store.shared:
            before = live.state.seq
            live.fold(await self._read(table_id, before))
            self._moved(table_id, live, before)
        return live

    def keep_while(self, followed: Callable[[str], bool]) -> None:
        """Hold a table for as long as ``followed(table_id)``: the hub's phones follow it."""
        self._followed = followed

    def holding(self, table_id: str) -> Live | None:
        """The table as this process holds it now, perhaps stale; None when not held."""
        return self._live.get(table_id)

    def held(self) -> frozenset[str]:
        """The tables this process holds in memory."""
        return frozenset(self._live)

    def _use(self, table_id: str) -> None:
        now = self.clock()
        self._used.pop(table_id, None)
        self._used[table_id] = now  # to the end: the dict runs from least to most recent
        if now - self._swept >= SWEEP_MS or len(self._live) >= self.held_max:
            self._swept = now
            self._evict(now, table_id)

    def _evict(self, now: int, using: str) -> None:
        """Let go of the tables no phone here follows that went unused for ``idle_ms``, and of
        the least recently used beyond ``held_max``: a table comes back whole from its log
        when it is next used (an online game's clock and computer wait in ``Tables.waiting``
        meanwhile). A table followed or in the middle of a command stays, moved to the back
        as if used now, so that the next look starts past it: each look takes the tables it
        lets go from the front and touches no other."""
        for _ in range(len(self._used)):
            table_id, used = next(iter(self._used.items()))
            if now - used < self.idle_ms and len(self._live) < self.held_max:
                break  # the rest were used later
            del self._used[table_id]
            live = self._live.get(table_id)
            if live is None:
                continue
            if table_id == using or self._followed(table_id) or live.lock.locked():
                self._used[table_id] = now
            else:
                del self._live[table_id]

    def advance(self, table_id: str, records: tuple[Recorded, ...]) -> Live | None:
        """Fold events that arrived by subscription; None when a gap needs a read first."""
        live = self._live.get(table_id)
        if live is None:
            return None
        if records and records[0].seq > live.state.seq + 1:
            # Never for a table held while followed; should it happen, the table is let go
            # so that ``live`` reads it whole rather than trusting its follower.
            del self._live[table_id]
            return None
        before = live.state.seq
        live.fold(records)
        self._moved(table_id, live, before)
        return live

    async def record(
        self,
        table_id: str,
        deciding: Callable[[State], tuple[tuple[TableEvent, ...], str]],
        command_id: str,
    ) -> tuple[State, int]:
        """Decide (the events, and the device as the log names it) on the table as held and
        append; decided again when another process appended first, never dropped. The state
        after, and the seq of the last event — for a command id seen before, as then.

        One round trip to the store when the table is current: the append names the seq the
        decision was made on, and a store that has moved on refuses it with the events this
        process missed (``Conflict.records``), which are folded before deciding again. A
        refusal of the command itself holds only on the table as it stands: a table no
        subscription here follows is caught up first.
        """
        live = self._live.get(table_id) or await self.live(table_id)

        def fold(records: tuple[Recorded, ...]) -> None:
            before = live.state.seq
            live.fold(records)
            self._moved(table_id, live, before)

        async with live.lock:
            current = not self.store.shared or self.store.follows(table_id)
            for attempt in range(APPEND_TRIES):
                retried = live.retries.seq(command_id) if command_id else None
                if retried is not None:
                    return live.state, retried  # a retry: as the first time
                at = self.clock()
                try:
                    events, by = deciding(live.state)
                except GameError:
                    if current:
                        raise
                    fold(await self._read(table_id, live.state.seq))
                    current = True
                    continue
                try:
                    records = await self.store.append(
                        table_id, live.state.seq, events, device=by, at=at, command=command_id
                    )
                except Conflict as conflict:  # another process appended first
                    missed = conflict.records or await self._read(table_id, live.state.seq)
                    fold(missed)
                    current = True
                    if attempt:  # again: a random pause, so two processes stop colliding in step
                        await asyncio.sleep(random.uniform(0, 0.002 * min(attempt, 10)))
                    continue
                except TableGone:
                    self.forget(table_id)
                    raise
                if records and records[0].seq > live.state.seq + 1:
                    # A command recorded before, past what this process holds: catch up so
                    # the state returned has it.
                    fold(await self._read(table_id, live.state.seq))
                fold(records)
                return live.state, records[-1].seq if records else live.state.seq
        raise GameError("the table is too busy; try again", code=codebook.BUSY)
