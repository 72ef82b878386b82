"""Commands decided, appended and folded: what ``rules`` may not hold, the shell gives.

Online play gets from here a seed drawn with ``secrets`` for every new game, the edition's
word list bound as ``contains``, the clock that passes a player whose time per move ran out,
and the computer's turns. A duplicate room gets a fresh seed for every rack drawn and the
list as a graph for the move generator to find each round's top (in a thread first).
"""

import asyncio
import secrets
from collections.abc import Callable

import editions
import wordlists
from editions import codebook
from editions.errors import GameError
from events import commands as c
from events.events import TableEvent
from rules.board.board import Board
from rules.board.placement import Play
from rules.board.scoring import MoveScore
from rules.board.wordcheck import Contains, word_statuses
from rules.movegen.moves import WordGraph
from rules.online import play as online
from rules.room import rounds as room
from rules.room import tops
from rules.table import permissions
from rules.table.decide import check, decide, judges_words
from rules.table.decisions import score_move
from rules.table.inputs import Top
from rules.table.permissions import COMPUTER, Actor
from rules.table.state import State
from server.live.messages import Move
from server.simultaneous.sealed import add_centre, sealed_for
from server.stores.protocols import Device, Store
from server.tables.held import HELD_MAX, IDLE_MS, Deciding, now_ms
from server.tables.joins import Joins, actor, gone
from server.tables.waiting import Due, Waiting


def lexicon(edition_code: str) -> Contains | None:
    """The word list that judges ``edition_code``'s words, or None when it has none."""
    language = editions.get(edition_code).language
    return wordlists.get(language).contains if language in wordlists.available() else None


def word_graph(edition_code: str) -> WordGraph | None:
    """That list as the move generator walks it (a duplicate room's top), or None."""
    language = editions.get(edition_code).language
    return wordlists.get(language).graph if language in wordlists.available() else None


TOP_TRIES = 8  # a close whose round moved on while its top was searched searches again


class _TopStale(Exception):
    """The round a top was searched for is no longer the table's: search again."""


class Tables(Joins):
    """Every table this process serves: joined, followed, and commanded."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], int] = now_ms,
        *,
        idle_ms: int = IDLE_MS,
        held_max: int = HELD_MAX,
    ) -> None:
        super().__init__(store, clock, idle_ms=idle_ms, held_max=held_max)
        self.waiting = Waiting()  # what the online games wait for, kept when they are let go
        self.watch(self._waits)

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
        if isinstance(command, c.DrawRack):  # a duplicate room's draw: a seed of its own
            seed = secrets.token_hex(16)
        # A simultaneous's centre draws and closes its sealed rounds; a room joining one is
        # first recorded in the simultaneous's log (``server.simultaneous.sealed``).
        sealed = await sealed_for(self, table_id, command)
        if isinstance(command, c.JoinSimultaneous) and sealed is not None:
            await add_centre(self, table_id, device, command, sealed)

        def deciding(top: Top | None) -> Deciding:
            def on(state: State) -> tuple[tuple[TableEvent, ...], str]:
                who = actor(state, device)
                if who is None:
                    raise gone(state, device)
                if who.role == "waiting":
                    raise GameError(
                        "the host has not let this device in yet", code=codebook.NOT_ADMITTED
                    )
                if top is not None and tops.needed(state, command) != top.query:
                    raise _TopStale  # the round moved on while its top was searched
                edition = command.edition if isinstance(command, c.StartGame) else None
                if edition is None and state.game is not None:
                    edition = state.game.edition.code
                contains = None  # looked up only where it may judge a word: file checks
                if edition is not None and judges_words(state, command):
                    contains = lexicon(edition)
                at = self.clock()
                events = decide(
                    state,
                    command,
                    at=at,
                    actor=who,
                    seed=seed,
                    contains=contains,
                    top=top,
                    sealed=sealed,
                )
                return events, who.device

            return on

        for _ in range(TOP_TRIES):
            top = await self._top(table_id, device, command)
            try:
                _, seq = await self.record(table_id, deciding(top), command_id)
            except _TopStale:
                continue
            return seq
        raise GameError("the table is too busy; try again", code=codebook.BUSY)

    async def _top(self, table_id: str, device: Device, command: c.TableCommand) -> Top | None:
        """The top a room round's close needs, searched in a thread: the move generator never
        runs on the event loop. None for any other command, or without a word list (the
        close then says so). Who may not close is refused first: a player's phone tapping
        close costs no search."""
        if not isinstance(command, c.CloseRound):  # the only command that needs one
            return None
        state = (await self.live(table_id)).state
        who = actor(state, device)
        if who is not None:
            check(state, who, command)  # raises the refusal the decision would give
        query = tops.needed(state, command)
        if query is None or (state.game is not None and state.game.centre is not None):
            return None  # a centre's top was found once, when its game was sealed
        graph = await asyncio.to_thread(word_graph, query.board.edition.code)
        if graph is None:
            return None
        return await asyncio.to_thread(tops.find, query, graph)

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
        _, seq = await self.record(table_id, deciding, command_id)
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
        _, seq = await self.record(table_id, deciding, command_id)
        return seq

    def computer_turns(self, tables: set[str] | None = None) -> list[Due]:
        """The computer's turns to take in the online games this process has seen (of
        ``tables``; None: all), by their last seen, perhaps stale, state: the table, the turn
        and since when (ms) it is to move."""
        return self.waiting.computer_turns(tables)

    def due(self) -> list[Due]:
        """The turns of the online games this process has seen whose time per move has run
        out by their last seen (perhaps stale) state; each is decided again on the fresh log,
        the table read again if it was let go meanwhile."""
        return self.waiting.due(self.clock())

    def forget(self, table_id: str) -> None:
        super().forget(table_id)
        self.waiting.forget(table_id)

    def _waits(self, table_id: str) -> None:
        live = self.holding(table_id)
        if live is not None:
            self.waiting.update(table_id, live.state.game)

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
        if check and state.game.ended is None:  # a challenge judges by the same list
            raise GameError(
                "the word check of a game's list waits for its end",
                code=codebook.WORD_CHECK_SECRET,
            )
        result, words, _ = preview_move(state.game.board or state.game.edition, move, check)
        return result, words


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
