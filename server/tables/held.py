"""Tables in a server process: who may do what, and commands decided, appended and folded.

Each table's state is kept in memory, current by its follower's subscription (or, for a table
no phone here follows, by a read before it is used), so several processes can serve one
table: an append that loses the race (``Conflict``) brings the events it missed and is decided
again on the fresh state, never dropped.

Online play gets from here what ``rules`` may not hold: a seed drawn with ``secrets`` for
every new game, the edition's word list bound as ``contains``, the clock that passes a
player whose time per move ran out, and a view per seat with that seat's rack only. A
duplicate room gets a fresh seed for every rack drawn, the list as a graph for the move
generator to find each round's top (in a thread first), and while slips are in, a view
per seat with that seat's own slip only.
"""

import asyncio
import contextlib
import hashlib
import random
import secrets
import time
from collections.abc import Callable

from msgspec.structs import replace

import editions
import wordlists
from editions import codebook
from editions.errors import GameError
from events import commands as c
from events.events import Recorded, TableEvent
from rules.board.board import Board
from rules.board.placement import Play
from rules.board.scoring import MoveScore
from rules.board.wordcheck import Contains, word_statuses
from rules.movegen.moves import WordGraph
from rules.online import opponent as computer
from rules.online import play as online
from rules.room import rounds as room
from rules.room import tops
from rules.table import permissions, seating
from rules.table.decide import decide, judges_words, score_move
from rules.table.permissions import COMPUTER, HOST, Actor
from rules.table.reducer import evolve
from rules.table.state import Game, State
from rules.table.views import Audience, SheetView, TableView, for_seat, view
from server.live.messages import Move
from server.live.sheets import Frame, SheetDiffs, Version
from server.stores.base import Conflict, Device, Store, TableGone, TableInfo

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud at a table
CODE_LENGTH = 6
RETRIES = 8  # tries for a free join code
APPEND_TRIES = 64  # conflicting appends in a row before a command is refused as "busy"

IDLE_MS = 600_000  # a table no phone here follows leaves memory after 10 minutes unused
HELD_MAX = 5_000  # tables held at most: beyond it the least recently used go first
SWEEP_MS = 60_000  # how often ``live`` looks for idle tables

SEEN_EVERY_MS = 30_000  # how often a device's "last seen" is written: not on every command

# A held table answers a retry of its last 500 to 1,000 commands without the store (a phone
# resends within minutes); older ids would hold a long game's every command in memory.
COMMANDS_HELD = 500


def token_hash(token: str) -> str:
    """What the store keeps of a token: a leaked store reveals no usable token."""
    return hashlib.sha256(token.encode()).hexdigest()


def now_ms() -> int:
    """The server's clock, in ms since the epoch."""
    return time.time_ns() // 1_000_000


def actor(state: State, device: Device) -> Actor | None:
    """Who ``device`` is at the table as it stands; None once it was taken away.

    A device still waiting for the host is a ``waiting`` actor: it sees that it waits and
    may ask nothing.
    """
    if device.role == "host":
        return Actor("host", seating.host_seat(state), HOST)
    member = state.seating.member(device.id)
    if member is None:
        return None
    return Actor(member.role if member.admitted else "waiting", member.seat, member.id)


def audience(who: Actor) -> Audience:
    """Which of the table's views a device gets."""
    if who.role in ("host", "waiting"):
        return who.role  # type: ignore[return-value]
    return "member"


def seat_of(who: Actor) -> int | None:
    """The seat whose rack a device may see in an online game: its own, if it plays."""
    return who.seat if who.role in ("player", "host") else None


def lexicon(edition_code: str) -> Contains | None:
    """The word list that judges ``edition_code``'s words, or None when it has none."""
    language = editions.get(edition_code).language
    return wordlists.get(language).contains if language in wordlists.available() else None


def word_graph(edition_code: str) -> WordGraph | None:
    """That list as the move generator walks it (a duplicate room's top), or None."""
    language = editions.get(edition_code).language
    return wordlists.get(language).graph if language in wordlists.available() else None


#: What a device's view is encoded for: its audience and, in an online game, its seat.
ViewKey = tuple[Audience, int | None]


class Live:
    """One table as this process knows it: the folded state and the command ids seen."""

    def __init__(self) -> None:
        self.state = State()
        self.commands: dict[str, int] = {}  # the last commands' ids → the last seq each recorded
        self.lock = asyncio.Lock()
        self._versions: dict[ViewKey, Version] = {}  # each key's newest view
        self._sheet_diffs = SheetDiffs()  # a change's sheet part, worked out once for every key
        # The sheet at one seq, per seat whose view is private (None for every other): built
        # once for every audience, and kept while the game itself does not change.
        self._sheets: dict[int | None, SheetView] = {}
        self._sheets_at: tuple[int, Game | None] = (-1, None)

    def fold(self, records: tuple[Recorded, ...]) -> None:
        for record in records:
            if record.seq == self.state.seq + 1:
                self.state = evolve(self.state, record)
                if record.command:
                    self.commands[record.command] = record.seq
                    if len(self.commands) > 2 * COMMANDS_HELD:  # the older half goes
                        self.commands = dict(list(self.commands.items())[COMMANDS_HELD:])

    def key(self, seen_by: Audience = "member", seat: int | None = None) -> ViewKey:
        """Which view ``seen_by`` at ``seat`` gets: the seat counts only where the game keeps
        racks (online) or slips (a duplicate room) private."""
        game = self.state.game
        private = game is not None and (game.online is not None or bool(game.slips))
        return seen_by, seat if private else None

    def version(self, key: ViewKey) -> Version:
        """The view of ``key`` at the current seq, built once however many phones get it;
        it remembers the key's view before it, for the change."""
        current = self._versions.get(key)
        if current is None or current.seq != self.state.seq:
            current = self._versions[key] = Version(
                self.state.seq, self._view(key), current, self._sheet_diffs
            )
        return current

    def _view(self, key: ViewKey) -> TableView:
        """``rules.table.views.view`` for ``key``, its sheet shared with the other keys.

        What differs between audiences is outside the sheet (the host's devices, a device
        that waits), and between seats only a private game's rack and slip: those are made
        for the key, the rest of the sheet once (``rules.table.views`` builds the whole sheet,
        tile tracking and board rows included, on every call).
        """
        seen_by, seat = key
        table = view(replace(self.state, game=None), seen_by)  # all but the sheet
        if seen_by == "waiting" or self.state.game is None:
            return table
        return replace(table, sheet=self._sheet(seat))

    def _sheet(self, seat: int | None) -> SheetView:
        state, game = self.state, self.state.game
        assert game is not None
        at, of = self._sheets_at
        if at != state.seq:
            # A join or a device let in changes no sheet but its seq.
            kept = self._sheets.items() if game is of else ()
            self._sheets = {s: replace(v, seq=state.seq) for s, v in kept}
            self._sheets_at = (state.seq, game)
        sheet = self._sheets.get(seat)
        if sheet is None:
            other = next(iter(self._sheets.values()), None)
            if other is None:
                sheet = view(state, "member", seat).sheet
                assert sheet is not None
            else:
                sheet = for_seat(other, game, seat)
            self._sheets[seat] = sheet
        return sheet

    def view_json(self, seen_by: Audience = "member", seat: int | None = None) -> bytes:
        """The table at the current seq as ``seen_by`` sees it — in an online game with the
        rack of ``seat`` and no other — encoded once however many phones get it."""
        return self.version(self.key(seen_by, seat)).json()

    def frame(self, key: ViewKey, after: int) -> Frame:
        """What a phone that has the view of ``key`` at seq ``after`` (-1: none) is sent of
        the current seq: the change from there, or else the whole state."""
        return self.version(key).frame(after)


class Tables:
    """Every table this process serves, over one store."""

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
        self._touched: dict[tuple[str, str], int] = {}  # (table, device) → last written
        self._watchers: list[Callable[[str], None]] = []

    def watch(self, watcher: Callable[[str], None]) -> None:
        """Call ``watcher(table_id)`` whenever a table this process holds has moved on."""
        self._watchers.append(watcher)

    def _moved(self, table_id: str, live: Live, before: int) -> None:
        if live.state.seq != before:
            for watcher in self._watchers:
                watcher(table_id)

    async def create(self) -> tuple[TableInfo, str]:
        """A new table and its host's token."""
        for _ in range(RETRIES):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            table = TableInfo(secrets.token_urlsafe(16), code, self.clock())
            try:
                await self.store.create_table(table)
            except Conflict:
                continue  # the code is taken; draw another
            return table, await self._token(Device(table.id, "host", None, HOST))
        raise GameError("no free join code", code=codebook.BUSY)

    async def by_code(self, code: str) -> tuple[TableInfo, Live]:
        """The table with join ``code``, caught up; raises GameError (``unknown_code``)."""
        table = await self.store.table_by_code(code.strip().upper())
        if table is None:
            raise GameError(f"no table has the code {code!r}", code=codebook.UNKNOWN_CODE)
        return table, await self.live(table.id)

    async def join(
        self, code: str, role: str, seat: int | None, key: str
    ) -> tuple[TableInfo, str, Actor]:
        """A new device at the table with join ``code``: its token and where it sits (a
        device asking for a taken seat waits for the host).

        Raises GameError (``unknown_code``, ``no_such_seat``), StoreUnavailable.
        """
        table, _ = await self.by_code(code)
        device = Device(table.id, role, seat if role == "player" else None, secrets.token_hex(6))
        key_hash = token_hash(key)[:32] if key else ""

        def joining(state: State) -> tuple[tuple[TableEvent, ...], str]:
            return seating.join(state, device.id, role, device.seat, key_hash), device.id

        state, _ = await self._append(table.id, joining, "")
        token = await self._token(device)
        who = actor(state, device)
        assert who is not None
        return table, token, who

    async def _token(self, device: Device) -> str:
        token = secrets.token_urlsafe(24)
        await self.store.add_device(token_hash(token), device)
        return token

    async def delete(self, table_id: str) -> bool:
        """Delete the table — its log, join code and devices — from the store and from this
        process (P-11); whether it was there. Raises StoreUnavailable."""
        deleted = await self.store.delete_table(table_id)
        self.forget(table_id)
        return deleted

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

    async def device(self, table_id: str, token: str) -> Device:
        """The device holding ``token`` at ``table_id``; raises GameError (``bad_token``)."""
        device = await self.store.device(token_hash(token)) if token else None
        if device is None or device.table != table_id or not device.id:
            raise GameError("this token does not open that table", code=codebook.BAD_TOKEN)
        return device

    async def authorise(self, table_id: str, token: str) -> tuple[Device, Actor, Live]:
        """The device holding ``token``, who it is at the table now, and the table.

        Raises GameError: ``bad_token``, or ``device_removed`` once the host took it away.
        """
        device = await self.device(table_id, token)
        live = await self.live(table_id)
        return device, self.actor(live, device), live

    def actor(self, live: Live, device: Device) -> Actor:
        """Who ``device`` is at the table now; raises GameError (``device_removed``)."""
        who = actor(live.state, device)
        if who is None:
            raise GameError("this device was removed from the table", code=codebook.DEVICE_REMOVED)
        at, place = self.clock(), (device.table, who.device)
        if at - self._touched.get(place, 0) >= SEEN_EVERY_MS:
            if len(self._touched) > 10_000:  # phones supply these: keep the memo bounded
                self._touched.clear()
            self._touched[place] = at
            touching = asyncio.ensure_future(self.store.touch(device.table, who.device, at))
            touching.add_done_callback(_quiet)  # "last seen" may lag; a command must not
        return who

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

    def keep_while(self, followed: Callable[[str], bool]) -> None:
        """Hold a table for as long as ``followed(table_id)``: the hub's phones follow it."""
        self._followed = followed

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
        when it is next used. A table in the middle of a command stays, and so does an online
        game waiting for its clock or the computer (this process passes or plays for it)."""
        for table_id, used in list(self._used.items()):
            if now - used < self.idle_ms and len(self._live) < self.held_max:
                break  # the rest were used later
            live = self._live.get(table_id)
            if live is None:
                del self._used[table_id]
            elif not (
                table_id == using
                or self._followed(table_id)
                or live.lock.locked()
                or _waits(live.state)
            ):
                del self._live[table_id], self._used[table_id]

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

    async def command(
        self, table_id: str, device: Device, command: c.TableCommand, command_id: str
    ) -> int:
        """Decide and record ``command`` for ``device``; the seq of its last event.

        Raises GameError with the refusal's code, StoreUnavailable when the store is down.
        """
        missing = permissions.missing_reference(command)
        if missing is not None:
            raise GameError(
                f"a phone's command names what it saw: {missing} is missing",
                code=codebook.REFERENCE_MISSING,
                field=missing,
            )

        # An online game's bag is a function of a seed only the server knows (rules draws
        # nothing itself); a new game of any mode gets one, which only online play uses.
        seed = secrets.token_hex(16) if isinstance(command, c.StartGame | c.NewGame) else ""
        if isinstance(command, c.CloseRound):  # the move generator off the event loop
            await self._find_top(table_id)
        if isinstance(command, c.DrawRack):  # a duplicate room's draw: a seed of its own
            seed = secrets.token_hex(16)

        def deciding(state: State) -> tuple[tuple[TableEvent, ...], str]:
            who = actor(state, device)
            if who is None:
                raise GameError(
                    "this device was removed from the table", code=codebook.DEVICE_REMOVED
                )
            if who.role == "waiting":
                raise GameError(
                    "the host has not let this device in yet", code=codebook.NOT_ADMITTED
                )
            edition = command.edition if isinstance(command, c.StartGame) else None
            if edition is None and state.game is not None:
                edition = state.game.edition.code
            contains = None  # looked up only where it may judge a word: that costs file checks
            if edition is not None and judges_words(state, command):
                contains = lexicon(edition)
            found = isinstance(command, c.CloseRound) and edition is not None  # a room's top
            events = decide(
                state,
                command,
                at=self.clock(),
                actor=who,
                seed=seed,
                contains=contains,
                graph=word_graph(edition) if found and edition is not None else None,
            )
            return events, who.device

        _, seq = await self._append(table_id, deciding, command_id)
        return seq

    async def _find_top(self, table_id: str) -> None:
        """Find a duplicate room's top in a thread, so that the close then decided on the
        event loop finds it remembered (``rules.room.tops``); nothing without a rack or a list."""
        game = (await self.live(table_id)).state.game
        if game is None or game.board is None or not room.in_room(game):
            return
        graph = await asyncio.to_thread(word_graph, game.edition.code)
        if graph is None:
            return
        _, rules = room.rules_of(game)
        rack = "".join(game.rounds[-1].rack)
        with contextlib.suppress(GameError):  # the close itself says what is wrong
            await asyncio.to_thread(tops.top, game.board, rack, graph, rules.top_preference)

    async def time_out(self, table_id: str, turn: c.Turn, since: int) -> int:
        """Pass the player of ``turn`` (begun at ``since``, ms) whose time per move ran out;
        the seq of the pass.

        The pass names the turn, and its command id is the turn's: a second process (or a
        second tick) passing the same turn records nothing. Raises GameError when the table
        has moved on (``turn_taken``, ``not_to_move``, ``game_changed``, ``not_due``,
        ``game_over``), StoreUnavailable.
        """

        def deciding(state: State) -> tuple[tuple[TableEvent, ...], str]:
            return online.time_out(state, turn, at=self.clock()), ""

        # The turn's start is part of the id: after an undo the same turn runs out anew.
        command_id = f"time-out:{turn.game}:{turn.player}:{turn.number}:{since}"
        _, seq = await self._append(table_id, deciding, command_id)
        return seq

    async def computer_turn(
        self, table_id: str, command: c.Play | c.Exchange | c.Pass, since: int
    ) -> int:
        """Record the computer's turn ``command`` (``rules.online.opponent.choose``) for the turn it
        names, begun at ``since`` (ms); the seq of its last event.

        As with the time per move, the command id is the turn's: a second process deciding
        the same turn records nothing. Raises GameError when the table has moved on
        (``turn_taken``, ``not_to_move``, ``game_changed``, ``game_over``) or the rules
        refuse the turn, StoreUnavailable.
        """
        turn = command.turn
        assert turn is not None
        who = Actor(COMPUTER, turn.player, COMPUTER)

        def deciding(state: State) -> tuple[tuple[TableEvent, ...], str]:
            edition = state.game.edition.code if state.game is not None else None
            contains = lexicon(edition) if edition is not None else None
            return decide(state, command, at=self.clock(), actor=who, contains=contains), COMPUTER

        command_id = f"computer:{turn.game}:{turn.player}:{turn.number}:{since}"
        _, seq = await self._append(table_id, deciding, command_id)
        return seq

    def computer_turns(self, tables: set[str] | None = None) -> list[tuple[str, c.Turn, int]]:
        """The computer's turns to take in the online games this process holds (of
        ``tables``; None: all), by its own perhaps stale state: the table, the turn and
        since when (ms) it is to move."""
        found = []
        chosen = self._live.keys() if tables is None else tables & self._live.keys()
        for table_id in chosen:
            game = self._live[table_id].state.game
            meant = computer.turn(game)
            if meant is not None and game is not None and game.online is not None:
                found.append((table_id, meant, game.online.turn_since))
        return found

    def due(self) -> list[tuple[str, c.Turn, int]]:
        """The turns of the online games this process holds whose time per move has run out
        by its own (perhaps stale) state; each is decided again on the fresh log."""
        now, found = self.clock(), []
        for table_id, live in self._live.items():
            game = live.state.game
            if game is None or game.online is None:
                continue
            deadline = online.deadline(game)
            if deadline is not None and now >= deadline:
                player = game.to_move
                turn = c.Turn(game.started, player, game.turns[player])
                found.append((table_id, turn, game.online.turn_since))
        return found

    async def _append(
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
                if command_id and command_id in live.commands:
                    return live.state, live.commands[command_id]  # a retry: as the first time
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

    async def preview(
        self, table_id: str, move: Move, check: bool
    ) -> tuple[MoveScore, tuple[str, ...]]:
        """Score ``move`` on the table's board without recording it."""
        state = (await self.live(table_id)).state
        if state.game is None:
            raise GameError("start a game first", code=codebook.NO_GAME)
        # WS-30: told only on confirm; a duplicate room's slips only when the round closes.
        if check and (state.game.online is not None or room.in_room(state.game)):
            raise GameError(
                "an online game tells whether a word exists only when the move is confirmed",
                code=codebook.NO_WORD_CHECK,
            )
        result, words, _ = preview_move(state.game.board or state.game.edition, move, check)
        return result, words


def _waits(state: State) -> bool:
    """Whether an online game waits for the server: a time per move, or the computer."""
    game = state.game
    return game is not None and (
        online.deadline(game) is not None or computer.turn(game) is not None
    )


def _quiet(task: "asyncio.Future[None]") -> None:
    if not task.cancelled():
        task.exception()  # read, so a store that was down is not logged as never retrieved


def preview_move(
    where: Board | editions.Edition, move: Move, check: bool
) -> tuple[MoveScore, tuple[str, ...], Play | None]:
    """A move scored as ``rules.table.decide.score_move`` scores it — on the board ``where``, or
    typed in its edition — its words' list statuses when asked, and the tiles it lays (None
    for typed words).

    Raises GameError with the refusal's code. The list never changes a score (WL-12).
    """
    result, play = score_move(where, move.board, move.typed)
    if not check:
        return result, (), play
    edition = where.edition if isinstance(where, Board) else where
    words = [w.word for w in result.words]
    statuses = word_statuses(edition, words, lexicon(edition.code))
    return result, tuple(str(s) for s in statuses), play
