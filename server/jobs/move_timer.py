"""The time per move of online games: the server passes a player whose time ran out.

One task per process looks every ``tick`` seconds at the deadlines of the online games it has
seen — the tables a phone opened, or listed among its games, since the process started,
held in memory or let go since (``server.tables.waiting``) — and passes the player to move
once the deadline of the view (``online.deadline``) is behind, reading the table again when
it was let go.
Each pass names the turn and is decided again on the fresh log: when another process (or
a move just in time) got there first it is refused (``turn_taken``, ``not_due`` …) and
dropped without a word. A table no process has opened since a restart waits until one
does; then its player is passed at the next tick, once.
"""

import asyncio
import contextlib
import logging

from editions import codebook
from editions.errors import GameError
from server.stores.protocols import StoreUnavailable
from server.tables.commands import Tables

log = logging.getLogger("tilestream")

TICK = 1.0  # seconds between looks: a pass comes at most this late
#: What a pass that came too late (or too early, by a stale state) is refused with.
MOVED_ON = frozenset(
    {
        codebook.TURN_TAKEN,
        codebook.NOT_TO_MOVE,
        codebook.GAME_CHANGED,
        codebook.NOT_DUE,
        codebook.GAME_OVER,
        codebook.NO_GAME,
        codebook.NOT_ONLINE,
    }
)


class MoveTimer:
    """Passes the players whose time per move ran out, in the tables of one process."""

    def __init__(self, tables: Tables, tick: float = TICK) -> None:
        self.tables = tables
        self.tick = tick
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            await self.check()

    async def check(self) -> int:
        """Pass every player due now; how many passes this process recorded."""
        passed = 0
        for table_id, turn, since in self.tables.due():
            try:
                await self.tables.time_out(table_id, turn, since)
            except GameError as refused:
                if refused.code not in MOVED_ON:  # e.g. busy: the next tick tries again
                    log.warning("table %s: no pass for the time per move (%s)", table_id, refused)
                continue
            except StoreUnavailable as error:
                log.warning("time per move: store unavailable (%s); retrying", error)
                break
            passed += 1
        return passed
