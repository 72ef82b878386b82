"""Retention (P-11): tables idle for ``--retention-days`` are deleted, log, code and devices.

One task per process sweeps at start and then every ``every`` seconds (an hour), deleting
at most ``batch`` of the tables whose newest event — or creation, for a table without
one — is older than the retention time; a larger backlog goes over the following sweeps,
so no sweep holds the store for long. Several processes on one Redis all sweep: a table
two of them find is deleted once, and each process's phones of it are told
(``table_deleted``) as when its host deletes it. Zero days keeps every table for ever.

A simultaneous's centres hold its results (``rules.simultaneous.standings`` folds them from
their logs), so an idle centre stays as long as its simultaneous does, and goes in the
sweep after it; a simultaneous is idle from its last window's close on, not before. A sweep
looks past the tables it kept before, so however many there are they never hold up the
deletion of other tables.
"""

import asyncio
import contextlib
import logging
from collections.abc import Callable

from server.stores.protocols import StoreUnavailable, TableGone
from server.tables.commands import Tables
from server.tables.held import now_ms

log = logging.getLogger("tilestream")

DAYS = 30  # the default retention time (P-11)
DAY_MS = 86_400_000
EVERY = 3_600.0  # seconds between sweeps
BATCH = 500  # tables deleted per sweep at most


class Retention:
    """Deletes the tables of a store idle for longer than ``days``."""

    def __init__(
        self,
        tables: Tables,
        gone: Callable[[str], None],
        days: int = DAYS,
        *,
        every: float = EVERY,
        batch: int = BATCH,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.tables = tables
        self.gone = gone  # told of each table deleted: its phones here are let go
        self.days = days
        self.every = every
        self.batch = batch
        self.clock = clock
        self._task: asyncio.Task[None] | None = None
        self._kept: set[str] = set()  # idle centres of a simultaneous still there

    def start(self) -> None:
        """Sweep now and every ``every`` seconds; nothing when tables are kept for ever."""
        if self.days > 0:
            self._task = asyncio.create_task(self._run(), name="retention")
        else:
            log.info("retention off: idle tables are kept for ever")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except StoreUnavailable as error:  # the next sweep tries again
                log.warning("retention: store unavailable (%s); retrying", error)
            except Exception:  # a bug: logged, and the next sweep runs all the same
                log.exception("retention: the sweep failed")
            await asyncio.sleep(self.every)

    async def sweep(self) -> list[str]:
        """Delete at most ``batch`` tables idle for longer than ``days``; their ids.

        Raises StoreUnavailable (what was deleted before stays deleted).
        """
        if self.days <= 0:
            return []
        before = self.clock() - self.days * DAY_MS
        deleted: list[str] = []
        idle = await self.tables.store.idle_tables(before, self.batch + len(self._kept))
        self._kept &= set(idle)
        for table_id in idle:
            if len(deleted) >= self.batch:
                break
            if await self._kept_for_a_simultaneous(table_id, before):
                self._kept.add(table_id)
                continue
            if await self.tables.delete(table_id):
                deleted.append(table_id)
            self.gone(table_id)
        if deleted:
            log.info("retention: %d tables idle for %d days deleted", len(deleted), self.days)
        return deleted

    async def _kept_for_a_simultaneous(self, table_id: str, before: int) -> bool:
        """Is the table a centre whose simultaneous is still there, or a simultaneous with a
        window that closed after ``before`` (its idle time counts from its last window)?"""
        try:
            state = (await self.tables.live(table_id)).state
        except TableGone:
            return False
        if state.simultaneous is not None:
            return any(g.closes > before for g in state.simultaneous.games)
        game = state.game
        if game is None or game.centre is None:
            return False
        return await self.tables.store.table(game.centre.simultaneous) is not None
