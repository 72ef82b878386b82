"""The standings of each simultaneous this process has phones or an organiser of: every
centre followed, the projection folded again after any change, and each centre's phones
sent their frame.

Any process serves any room: a process with a phone of one centre follows the
simultaneous's log and every centre's (``Hub.watch``), so the standings it sends are those
of every centre, folded from their logs as they come (``rules.simultaneous.standings``);
nothing of them is stored. Changes that come together — fifty centres closing a round —
are folded once (``COALESCE``), and a phone is sent its frame only when it changed.
"""

import asyncio
import contextlib
import logging
import weakref

from msgspec.structs import replace

from editions import codebook
from editions.errors import GameError
from rules.simultaneous.standings import Row, SeriesRow, Standings, key, project, series, upto
from rules.simultaneous.state import SealedGame, Simultaneous
from rules.table.settlement import places
from rules.table.state import Game
from server.live.hub import Connection, Hub
from server.live.messages import encoder
from server.simultaneous.messages import (
    GameInfo,
    OrganiserView,
    Placed,
    Position,
    SimultaneousFrame,
)
from server.tables.commands import Tables
from server.tables.joins import actor, seat_of
from server.tables.live import Live

log = logging.getLogger("tilestream")

COALESCE = 0.15  # seconds changes gather before the standings are folded and sent
LEADERS = 5  # the leaders a player's phone shows
LEADERS_ROOM = 20  # the leaders on the director's phone and the room display
IDLE_MS = 600_000  # an organiser's view keeps the centres followed this long after a look


class Centres:
    """This process's simultaneous standings and the frames of their centres' phones."""

    def __init__(self, tables: Tables, hub: Hub) -> None:
        self.tables = tables
        self.hub = hub
        hub.on_moved(self._moved)
        self._watched: dict[str, set[str]] = {}  # simultaneous → the logs followed for it
        self._asked: dict[str, int] = {}  # simultaneous → when its organiser last looked
        self._dirty: set[str] = set()
        self._flushing: asyncio.Task[None] | None = None
        self._sent: weakref.WeakKeyDictionary[Connection, bytes] = weakref.WeakKeyDictionary()
        self._shown: dict[str, tuple[object, ...]] = {}  # centre → what its standings read
        self.folds = 0  # how often standings were folded (the benchmark reads it)

    async def close(self) -> None:
        if self._flushing is not None:
            self._flushing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flushing

    # --- following -----------------------------------------------------------------------

    def _moved(self, table_id: str, live: Live) -> None:
        state = live.state
        if state.simultaneous is not None:
            of = table_id
        elif state.game is not None and state.game.centre is not None:
            of = state.game.centre.simultaneous
            # A slip, a draw, a join to the room changes no phone's standings: only what
            # the projection reads of the room does (its closed rounds, totals, players),
            # and a phone that has no frame yet (it just came, or came back) needs one.
            shown = _shown(state.game)
            sent = all(phone in self._sent for phone in self.hub.phones(table_id))
            if self._shown.get(table_id) == shown and of in self._watched and sent:
                return
            self._shown[table_id] = shown
        else:
            return
        self._follow(of)
        self._dirty.add(of)
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.create_task(self._flush())

    def _follow(self, of: str) -> None:
        """Follow the simultaneous's log and, once it is held, every centre's."""
        watched = self._watched.setdefault(of, set())
        wanted = {of}
        held = self.tables.holding(of)
        simultaneous = held.state.simultaneous if held is not None else None
        if simultaneous is not None:
            wanted.update(c.table for c in simultaneous.centres)
        for table_id in wanted - watched:
            self.hub.watch(table_id)
            watched.add(table_id)

    def _let_go(self) -> None:
        """Stop following a simultaneous none of whose centres has a phone here and whose
        organiser has not looked for a while."""
        now = self.tables.clock()
        for of, watched in list(self._watched.items()):
            if now - self._asked.get(of, 0) < IDLE_MS or any(self.hub.phones(t) for t in watched):
                continue
            for table_id in watched:
                self.hub.unwatch(table_id)
                self._shown.pop(table_id, None)  # read afresh when followed again
            del self._watched[of]
            self._asked.pop(of, None)

    async def _flush(self) -> None:
        await asyncio.sleep(COALESCE)
        while self._dirty:
            of = self._dirty.pop()
            try:
                await self._send(of)
            except Exception:  # a simultaneous's trouble never stops the others'
                log.exception("simultaneous %s: its standings failed", of)
        self._let_go()

    # --- the projection ------------------------------------------------------------------

    def standings(self, of: str) -> tuple[Simultaneous, Standings] | None:
        """The simultaneous ``of`` and its standings from every centre as held here."""
        held = self.tables.holding(of)
        simultaneous = held.state.simultaneous if held is not None else None
        if simultaneous is None:
            return None
        rooms = {}
        for centre in simultaneous.centres:
            live = self.tables.holding(centre.table)
            rooms[centre.table] = live.state.game if live is not None else None
        self.folds += 1
        return simultaneous, project(of, simultaneous, rooms)

    async def _send(self, of: str) -> None:
        found = self.standings(of)
        if found is None:
            return
        simultaneous, standings = found
        now = self.tables.clock()
        seen: dict[tuple[int, int], _Seen] = {}  # centres at the same round see the same
        for progress in (p for g in standings.games for p in g.centres):
            phones = self.hub.phones(progress.table)
            live = self.tables.holding(progress.table)
            if not phones or live is None:
                continue
            game = live.state.game
            if game is None or game.centre is None or game.centre.simultaneous != of:
                continue
            at = (game.centre.game, progress.closed)
            if at not in seen:
                seen[at] = _Seen(standings, *at)
            frames = _Frames(of, simultaneous, seen[at], progress.table, game.centre.name, now)
            for phone in phones:
                who = actor(live.state, phone.device) if phone.device is not None else None
                if who is None:
                    continue
                data = frames.frame(seat_of(who) if who.role == "player" else None)
                if self._sent.get(phone) != data:
                    self._sent[phone] = data
                    phone.send(data)
            # One room's frames at a time: the bell's other closes, a room's own frames,
            # are not held up behind every centre's.
            await asyncio.sleep(0)

    # --- the organiser -------------------------------------------------------------------

    async def organiser(self, of: str, token: str) -> OrganiserView:
        """The organiser's view of the simultaneous ``of``: raises GameError (``bad_token``,
        ``no_simultaneous``) for any token but the organiser's."""
        await self.authorise(of, token)
        self._asked[of] = self.tables.clock()
        self._follow(of)
        found = await self.current(of)
        simultaneous, standings = found
        table = await self.tables.store.table(of)
        now = self.tables.clock()
        return OrganiserView(
            of,
            table.code if table is not None else "",
            simultaneous.name,
            simultaneous.edition,
            simultaneous.rules,
            simultaneous.schedule,
            tuple(_info(g, now) for g in simultaneous.games),
            tuple(p for g in standings.games for p in g.centres),
            tuple(tuple(_placed(r) for r in g.rows) for g in standings.games),
            tuple(_series_placed(r) for r in standings.series),
        )

    async def authorise(self, of: str, token: str) -> None:
        device = await self.tables.device(of, token)
        if device.role != "host":
            raise GameError("only the organiser may do that", code=codebook.HOST_ONLY)
        await self.simultaneous(of)

    async def simultaneous(self, of: str) -> Simultaneous:
        """The simultaneous ``of`` as its log stands; raises GameError (``no_simultaneous``).
        An id that names nothing is looked up in the registry first: a public route never
        holds a log for any id a client makes up."""
        simultaneous = None
        if await self.tables.store.table(of) is not None:
            with contextlib.suppress(GameError):
                simultaneous = (await self.tables.caught_up(of)).state.simultaneous
        if simultaneous is None:
            raise GameError("no simultaneous has that id", code=codebook.NO_SIMULTANEOUS)
        return simultaneous

    async def current(self, of: str) -> tuple[Simultaneous, Standings]:
        """The standings with every centre caught up with its log (read where no follower
        here brings it): what the organiser and the published results show."""
        simultaneous = await self.simultaneous(of)
        for centre in simultaneous.centres:
            await self.tables.live(centre.table)
        found = self.standings(of)
        assert found is not None
        return found


class _Seen:
    """The standings as the centres that have closed ``closed`` rounds of game ``game`` see
    them (``rules.simultaneous.standings.upto``), with the series so far."""

    def __init__(self, standings: Standings, game: int, closed: int) -> None:
        self.game = game
        self.rows = upto(standings.games[game].rows, closed)
        self.centres = len(standings.games[game].centres)
        self.closed = closed
        self.level = sum(p.closed >= closed for p in standings.games[game].centres)
        games = [g.rows for g in standings.games[:game]] + [self.rows]
        self.series = (
            {key(r.centre, r.name): r for r in series(games)} if len(standings.games) > 1 else {}
        )
        # Before a round closed everyone shares first place on 0: no leaders yet.
        self.leaders = tuple(_placed(r) for r in self.rows[:LEADERS_ROOM]) if closed else ()


class _Frames:
    """The frames of one centre's phones, from one fold of the standings."""

    def __init__(self, of: str, simultaneous: Simultaneous, seen: _Seen, table: str,
                 centre: str, now: int) -> None:  # fmt: skip
        self.seen = seen
        self.room = SimultaneousFrame(
            of,
            simultaneous.name,
            centre,
            _info(simultaneous.games[seen.game], now),
            len(simultaneous.games),
            seen.centres,
            len(seen.rows),
            seen.leaders,
            seen.closed,
            seen.level,
        )
        mine = [r for r in seen.rows if r.table == table]
        self.centre_places = dict(
            zip((r.player for r in mine), places([r.total for r in mine]), strict=True)
        )
        self.centre_of = len(mine)
        self.rows = {r.player: r for r in mine}

    def frame(self, seat: int | None) -> bytes:
        if seat is None:  # the director, a co-director, the room display
            return encoder.encode(self.room)
        row = self.rows.get(seat)
        you = series_place = None
        if row is not None:
            if self.seen.closed:  # before, everyone shares first place: no place yet
                you = Position(row.place, len(self.seen.rows), self.centre_places[seat],
                               self.centre_of, row.total, row.percent_tenths, row.tied)  # fmt: skip
            overall = self.seen.series.get(key(row.centre, row.name))
            if overall is not None:
                series_place = Position(overall.place, len(self.seen.series), 0, 0,
                                        overall.total, overall.percent_tenths,
                                        overall.tied)  # fmt: skip
        leaders = self.room.leaders[:LEADERS]
        return encoder.encode(replace(self.room, leaders=leaders, you=you, series=series_place))


def _shown(game: Game) -> tuple[object, ...]:
    """What the standings read of a centre's game, to compare: its closed rounds (and each
    one's cells), its totals, its players and who left, whether it ended."""
    return (len(game.rounds), game.totals, game.players, game.left, game.ended is not None)


def _info(game: SealedGame, now: int) -> GameInfo:
    return GameInfo(game.game, game.opens, game.closes, len(game.rounds), game.closed(now))


def _placed(row: Row) -> Placed:
    return Placed(row.place, row.name, row.centre, row.total, row.percent_tenths,
                  len(row.scores), row.tied)  # fmt: skip


def _series_placed(row: SeriesRow) -> Placed:
    return Placed(row.place, row.name, row.centre, row.total, row.percent_tenths, row.games,
                  row.tied)  # fmt: skip
