"""One table as a process holds it: the folded state, the command ids it has seen, and each
audience's view built once per seq however many phones get it, with the change from the view
before (``server.live.sheets``)."""

import asyncio

from msgspec.structs import replace

from events.events import Recorded
from rules.table.reducer import evolve
from rules.table.state import Game, Notice, Seating, State
from rules.table.views import Audience, SheetView, TableView, for_seat, view
from server.live.sheets import Frame, SheetDiffs, Version
from server.tables.retries import Retries

ViewKey = tuple[Audience, int | None]


def _room(game: Game) -> bool:
    """Is ``game`` a duplicate room (a round had a rack): its slips are private, so each seat
    has its view from the first draw on, and a phone's key stays the same all game."""
    return game.slips != () or any(r.rack for r in game.rounds)


class Live:
    """One table as this process knows it: the folded state and the command ids seen."""

    def __init__(self) -> None:
        self.state = State()
        self.retries = Retries()
        self.lock = asyncio.Lock()
        self._versions: dict[ViewKey, Version] = {}  # each key's newest view
        self._sheet_diffs = SheetDiffs()  # a change's sheet part, worked out once for every key
        # The sheet at one seq, per seat whose view is private (None for every other): built
        # once for every audience, and kept while the game itself does not change.
        self._sheets: dict[int | None, SheetView] = {}
        self._sheets_at: tuple[int, Game | None] = (-1, None)
        self._outside: dict[Audience, tuple[Seating, tuple[Notice, ...], TableView]] = {}

    def fold(self, records: tuple[Recorded, ...]) -> None:
        for record in records:
            if record.seq == self.state.seq + 1:
                self.state = evolve(self.state, record)
                if record.command:
                    self.retries.add(record.command, record.seq)

    def key(self, seen_by: Audience = "member", seat: int | None = None) -> ViewKey:
        """Which view ``seen_by`` at ``seat`` gets: the seat counts only where the game keeps
        racks (online) or slips (a duplicate room) private."""
        game = self.state.game
        private = game is not None and (game.online is not None or _room(game))
        return seen_by, seat if private else None

    def version(self, key: ViewKey) -> Version:
        """The view of ``key`` at the current seq, built once however many phones get it;
        it remembers the key's view before it, for the change."""
        current = self._versions.get(key)
        if current is None or current.seq != self.state.seq:
            view, outside = self._view(key)
            current = self._versions[key] = Version(
                self.state.seq, view, current, self._sheet_diffs, outside
            )
        return current

    def _view(self, key: ViewKey) -> tuple[TableView, TableView]:
        """``rules.table.views.view`` for ``key``, its sheet shared with the other keys.

        What differs between audiences is outside the sheet (the host's devices, a device
        that waits), and between seats only a private game's rack and slip: those are made
        for the key, the rest of the sheet once (``rules.table.views`` builds the whole sheet,
        tile tracking and board rows included, on every call). Returned with the view: the
        part outside the sheet it was made of.
        """
        seen_by, seat = key
        state = self.state
        # All but the sheet, made of the seating and the warnings outside a game alone: kept
        # while those stay the same, so the change does not compare it anew.
        made = self._outside.get(seen_by)
        if made is None or made[0] is not state.seating or made[1] is not state.warnings:
            table = view(replace(state, game=None), seen_by)
            self._outside[seen_by] = (state.seating, state.warnings, table)
        else:
            table = made[2]
        if seen_by == "waiting" or state.game is None:
            return replace(table, seq=state.seq), table
        return replace(table, seq=state.seq, sheet=self._sheet(seat)), table

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

    def frame(self, key: ViewKey, after: int) -> Frame | None:
        """What a phone that has the view of ``key`` at seq ``after`` (-1: none) is sent of
        the current seq: nothing when only the seq changed for it, the change from there,
        or else the whole state."""
        return self.version(key).frame(after)
