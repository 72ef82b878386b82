"""The computer opponent of online play: a task per process that takes the computer's turns.

Whenever a table this process holds moves on to a turn of a seat the computer plays
(``Tables.watch``), and once a ``tick`` besides for every table, the task looks for online
games whose player to move is such a seat, and takes that turn: the move generator runs in a
thread on the game as it stands (a position with two blanks takes up to a few hundred ms,
which the event loop must not wait for), and the move goes in as a ``play`` naming the turn
(``rules.online.opponent``), never before ``MIN_REPLY_MS`` from the turn's start, so that
how soon it moves says nothing of its rack. The command id is the turn's, as for the time
per move: with several processes each may decide the same turn — the same move, drawn from
the game's seed — one is recorded, the others are dropped without a word. A turn the rules
refuse all the same (which would be a bug) is logged and passed, so the game never waits on
the computer; a busy table or an unreachable store is tried again at the next look; a table
no process has opened since a restart gets its turn when a phone opens it.
"""

import asyncio
import contextlib
import logging
from functools import partial

import editions
import wordlists
from editions import codebook
from editions.errors import GameError
from events import commands as c
from rules.movegen.moves import WordGraph
from rules.online import opponent as computer
from server.jobs.move_timer import MOVED_ON, TICK
from server.stores.protocols import StoreUnavailable
from server.tables.commands import Tables

log = logging.getLogger("tilestream")

FORGET = 10_000  # turns remembered as given up: a bound, not a number a game reaches
#: The least time from the start of the computer's turn to its move, ms: the search takes
#: 2 ms on a rack without a blank and 20 ms or more with two, so a reply as fast as the
#: search would tell the other players what the computer holds.
MIN_REPLY_MS = 1_000


def graph(edition_code: str) -> WordGraph:
    """The graph of the list that judges ``edition_code``'s words (loaded once; blocking)."""
    return wordlists.get(editions.get(edition_code).language).graph


class ComputerPlayer:
    """Takes the computer's turns in the online games of one process."""

    def __init__(
        self, tables: Tables, tick: float = TICK, min_reply_ms: int = MIN_REPLY_MS
    ) -> None:
        self.tables = tables
        self.tick = tick
        self.min_reply_ms = min_reply_ms
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._moved: set[str] = set()  # tables that moved on since the last look
        self._thinking: dict[str, asyncio.Task[int | None]] = {}  # a table's turn → its task
        self._given_up: set[str] = set()  # turns refused even as a pass: not tried again

    def start(self) -> None:
        self.tables.watch(self._moved_on)
        self._task = asyncio.create_task(self._run())

    def _moved_on(self, table_id: str) -> None:
        # Looked at here, where it is cheap: waking the task for every line of the tables
        # the computer does not play at (nearly all) cost more than the look.
        if self.tables.computer_turns({table_id}):
            self._moved.add(table_id)
            self._wake.set()

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._thinking.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            moved: set[str] | None = None  # every table, once a tick
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.tick):
                    await self._wake.wait()
                moved = self._moved  # or the tables that moved on
            self._wake.clear()
            self._moved = set()
            self.check(moved)

    def check(self, tables: set[str] | None = None) -> int:
        """Start thinking about every computer's turn due now in ``tables`` (None: all of
        this process's); how many were started."""
        started = 0
        for table_id, turn, since in self.tables.computer_turns(tables):
            key = f"{table_id}:{turn.game}:{turn.player}:{turn.number}:{since}"
            if key in self._thinking or key in self._given_up:
                continue
            task = asyncio.create_task(self.take(table_id, turn, since))
            self._thinking[key] = task
            task.add_done_callback(partial(self._done, key))
            started += 1
        return started

    def _done(self, key: str, _: "asyncio.Task[int | None]") -> None:
        self._thinking.pop(key, None)

    async def take(self, table_id: str, turn: c.Turn, since: int) -> int | None:
        """Take the computer's ``turn`` (begun at ``since``, ms) at ``table_id``, decided
        on the fresh log; the seq recorded, or None when the table moved on."""
        try:
            game = (await self.tables.live(table_id)).state.game
            if game is None or game.online is None or computer.turn(game) != turn:
                return None  # taken meanwhile, here or by another process
            since = game.online.turn_since  # as the fresh log says: after an undo, anew
            found = await asyncio.to_thread(graph, game.edition.code)
            command = await asyncio.to_thread(computer.choose, game, found, turn)
            wait = since + self.min_reply_ms - self.tables.clock()
            if wait > 0:  # never sooner than the least reply time, whatever the rack
                await asyncio.sleep(wait / 1000)
            return await self._send(table_id, command, since)
        except StoreUnavailable as error:  # the next look tries again
            log.warning("computer: store unavailable (%s); retrying", error)
            return None

    async def _send(
        self, table_id: str, command: c.Play | c.Exchange | c.Pass, since: int
    ) -> int | None:
        try:
            return await self.tables.computer_turn(table_id, command, since)
        except GameError as refused:
            if refused.code in MOVED_ON:
                return None
            if refused.code == codebook.BUSY:  # the next look tries again
                log.warning("table %s: no turn for the computer yet (%s)", table_id, refused)
                return None
            turn = command.turn
            assert turn is not None
            log.warning("table %s: the computer's turn was refused (%s)", table_id, refused)
            if not isinstance(command, c.Pass):
                return await self._send(table_id, c.Pass(turn=turn), since)
            if len(self._given_up) > FORGET:
                self._given_up.clear()
            self._given_up.add(f"{table_id}:{turn.game}:{turn.player}:{turn.number}:{since}")
            return None
