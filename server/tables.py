"""Tables in a server process: who may do what, and commands decided, appended and folded.

Each table's state is kept in memory and caught up from the store before every decision, so
several processes can serve one table: an append that loses the race (``Conflict``) is
decided again on the fresh state, never dropped.
"""

import asyncio
import hashlib
import random
import secrets
import time
from collections.abc import Callable

import msgspec

import editions
import wordlists
from editions.errors import GameError
from events import commands as c
from events.events import Recorded
from rules.board import Board
from rules.decide import decide
from rules.decide import score_move as rules_score_move
from rules.placement import Play
from rules.reducer import evolve
from rules.scoring import MoveScore
from rules.state import State
from rules.views import view
from rules.wordcheck import word_statuses
from server.protocol import Move, StateMessage, encoder
from server.store import Conflict, Device, Store, TableInfo

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud at a table
CODE_LENGTH = 6
RETRIES = 8  # tries for a free join code
APPEND_TRIES = 64  # conflicting appends in a row before a command is refused as "busy"

#: What only the host (the director, in duplicate) may ask.
HOST_ONLY = (c.StartGame, c.NewGame, c.RecordTop, c.StartClock, c.PauseClock, c.ResetClock)


def token_hash(token: str) -> str:
    """What the store keeps of a token: a leaked store reveals no usable token."""
    return hashlib.sha256(token.encode()).hexdigest()


def now_ms() -> int:
    """The server's clock, in ms since the epoch."""
    return time.time_ns() // 1_000_000


class Live:
    """One table as this process knows it: the folded state and the command ids seen."""

    def __init__(self) -> None:
        self.state = State()
        self.commands: dict[str, int] = {}  # command id → the last seq it recorded
        self.lock = asyncio.Lock()
        self._view: tuple[int, bytes] = (-1, b"")

    def fold(self, records: tuple[Recorded, ...]) -> None:
        for record in records:
            if record.seq == self.state.seq + 1:
                self.state = evolve(self.state, record)
                if record.command:
                    self.commands[record.command] = record.seq

    def view_json(self) -> bytes:
        """The sheet at the current seq, encoded once however many phones get it."""
        if self._view[0] != self.state.seq:
            self._view = (self.state.seq, encoder.encode(view(self.state)))
        return self._view[1]

    def state_message(self) -> bytes:
        """The ``state`` message for every phone of the table at the current seq."""
        return encoder.encode(StateMessage(self.state.seq, msgspec.Raw(self.view_json())))


class Tables:
    """Every table this process serves, over one store."""

    def __init__(self, store: Store, clock: Callable[[], int] = now_ms) -> None:
        self.store = store
        self.clock = clock
        self._live: dict[str, Live] = {}

    async def create(self) -> tuple[TableInfo, str]:
        """A new table and its host's token."""
        for _ in range(RETRIES):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            table = TableInfo(secrets.token_urlsafe(16), code, self.clock())
            try:
                await self.store.create_table(table)
            except Conflict:
                continue  # the code is taken; draw another
            return table, await self._device(Device(table.id, "host"))
        raise GameError("no free join code", code="busy")

    async def join(self, code: str, role: str, seat: int | None) -> tuple[TableInfo, str]:
        """A device's token at the table with join ``code``."""
        table = await self.store.table_by_code(code.strip().upper())
        if table is None:
            raise GameError(f"no table has the code {code!r}", code="unknown_code")
        if role == "player" and (seat is None or not 0 <= seat < 4):
            raise GameError("a player takes seat 0 to 3", code="bad_seat", seat=seat)
        device = Device(table.id, role, seat if role == "player" else None)
        return table, await self._device(device)

    async def _device(self, device: Device) -> str:
        token = secrets.token_urlsafe(24)
        await self.store.add_device(token_hash(token), device)
        return token

    async def authorise(self, table_id: str, token: str) -> Device:
        """The device holding ``token`` at ``table_id``; raises GameError (``bad_token``)."""
        device = await self.store.device(token_hash(token)) if token else None
        if device is None or device.table != table_id:
            raise GameError("this token does not open that table", code="bad_token")
        return device

    async def live(self, table_id: str) -> Live:
        """The table caught up with its log."""
        live = self._live.get(table_id)
        if live is None:
            live = self._live[table_id] = Live()
        elif not self.store.shared:
            return live  # every append to it went through this process
        live.fold(await self.store.read(table_id, live.state.seq))
        return live

    def advance(self, table_id: str, records: tuple[Recorded, ...]) -> Live | None:
        """Fold events that arrived by subscription; None when a gap needs a read first."""
        live = self._live.get(table_id)
        if live is None or (records and records[0].seq > live.state.seq + 1):
            return None
        live.fold(records)
        return live

    async def command(
        self, table_id: str, device: Device, command: c.TableCommand, command_id: str
    ) -> int:
        """Decide and record ``command``; the seq of its last event.

        Raises GameError with the refusal's code, StoreUnavailable when the store is down.
        """
        _check_role(device, command)
        live = self._live.get(table_id) or await self.live(table_id)
        async with live.lock:
            for attempt in range(APPEND_TRIES):
                live = await self.live(table_id)
                if command_id and command_id in live.commands:
                    return live.commands[command_id]  # a retry: answered as the first time
                at = self.clock()
                events = decide(live.state, command, at=at)
                try:
                    records = await self.store.append(
                        table_id,
                        live.state.seq,
                        events,
                        device=token_id(device),
                        at=at,
                        command=command_id,
                    )
                except Conflict:  # another process appended first: decide again on its state,
                    # after a random pause so two processes stop colliding in step
                    await asyncio.sleep(random.uniform(0, 0.002 * min(attempt + 1, 10)))
                    continue
                live.fold(records)
                return records[-1].seq
        raise GameError("the table is too busy; try again", code="busy")

    async def preview(
        self, table_id: str, move: Move, check: bool
    ) -> tuple[MoveScore, tuple[str, ...]]:
        """Score ``move`` on the table's board without recording it."""
        state = (await self.live(table_id)).state
        if state.game is None:
            raise GameError("start a game first", code="no_game")
        result, words, _ = score_move(state.game.edition, state.game.board, move, check)
        return result, words


def token_id(device: Device) -> str:
    """A device as the log names it: its role and seat (tokens never enter the log)."""
    return device.role if device.seat is None else f"{device.role}:{device.seat}"


def _check_role(device: Device, command: c.TableCommand) -> None:
    if device.role == "viewer":
        raise GameError("a viewer cannot change the sheet", code="viewer_read_only")
    top_cell = isinstance(command, c.CorrectCell) and command.player is None
    if device.role != "host" and (isinstance(command, HOST_ONLY) or top_cell):
        raise GameError("only the host (the director) may do that", code="host_only")


def score_move(
    edition_code: str, board: Board | None, move: Move, check: bool
) -> tuple[MoveScore, tuple[str, ...], Play | None]:
    """A move's score on ``board`` (or typed), its words' list statuses when asked, and the
    tiles it lays (None for typed words).

    Raises GameError with the refusal's code. The list never changes a score (WL-12).
    """
    edition = editions.get(edition_code)
    result, play = rules_score_move(edition_code, board, move.board, move.typed)
    if not check:
        return result, (), play
    contains = None
    if edition.language in wordlists.available():
        contains = wordlists.get(edition.language).contains
    words = [w.word for w in result.words]
    return result, tuple(str(s) for s in word_statuses(edition, words, contains)), play
