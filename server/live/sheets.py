"""Changes instead of whole sheets: what a phone is sent after its first full view.

A view is compared with the previous view of the same key — its audience and, where racks
or slips are private, its seat — and never with another key's, so a seat's change carries
nothing that seat may not see. The difference is a list of paths to set and a list of
stretches of sequences to replace; applied to the previous view (``apply``), it gives the
new one, field for field and in the same order, so re-encoding it gives the server's bytes.

How much is sent follows the shape of the data: a struct of the same type is compared field
by field, a sequence that only grew sends its new items (a sheet's lines), one that changed
in a few places sends those places (the board's rows, the tile panel's letters, the open
round), anything else is sent whole. A struct that omits its defaults or is encoded as an
array is sent whole too: a field set on it could not be told from a field it left out.

A full view or a change over ``GZIP_OVER`` bytes goes as one gzip-compressed binary frame,
compressed once per key and seq however many phones get it; smaller ones stay text. A view
that changed in nothing but its seq is not sent at all (``Version.frame``).
"""

import gzip
from itertools import compress
from operator import is_not
from typing import Any

import msgspec
from msgspec.structs import astuple, replace

from rules.table.views import SheetView, TableView
from server.live.messages import ChangeMessage, Path, Splice, StateMessage, encoder

GZIP_OVER = 4 * 1024  # bytes of a state message: smaller ones go as text, as they are
GZIP_LEVEL = 6  # once per key and seq, so the smaller frame is worth the time
_SEQS = {("seq",), ("sheet", "seq")}  # where a view says its seq
_SCALARS = frozenset({int, bool, str, float, type(None)})
_SHEET_FIELDS = SheetView.__struct_fields__

#: A websocket frame as the hub queues it: text, or a compressed state as binary.
Frame = str | bytes


class Diff:
    """What turns one view into another: values to set at paths, sequences to splice; and
    the change messages made of it, by the seq they follow (one for every key it serves)."""

    __slots__ = ("messages", "sets", "splices")

    def __init__(self) -> None:
        self.sets: list[tuple[Path, Any]] = []
        self.splices: list[Splice] = []
        self.messages: dict[int, Frame] = {}


class SheetDiffs:
    """The sheets of one table compared last, and what that gave: every audience of a table
    has the same sheet (``server.tables.held.Live``), so the next audience's change reuses it;
    an audience whose part outside the sheet stayed the same reuses the whole change."""

    __slots__ = ("_last", "_views")

    def __init__(self) -> None:
        self._last: tuple[SheetView, SheetView, Path, Diff] | None = None
        self._views: tuple[int, SheetView | None, SheetView | None, Diff] | None = None

    def views(self, old: TableView, new: TableView) -> Diff:
        """What ``diff`` gives for two views whose parts outside the seq and the sheet are the
        same objects (an audience's, unchanged since): the seq and the sheet's change, found
        once for every audience so."""
        last = self._views
        if (
            last is None
            or last[0] != old.seq
            or last[1] is not old.sheet
            or last[2] is not new.sheet
        ):
            found = Diff()
            _compare(old.seq, new.seq, ("seq",), found, None)  # the fields' order, as ``diff``
            _compare(old.sheet, new.sheet, ("sheet",), found, self)
            last = self._views = (old.seq, old.sheet, new.sheet, found)
        return last[3]

    def compare(self, old: SheetView, new: SheetView, path: Path, out: Diff) -> None:
        last = self._last
        if (
            last is None
            or not _same_but_room(last[0], old)
            or not _same_but_room(last[1], new)
            or last[2] != path
        ):
            found = Diff()
            if old.room is None and new.room is None:  # no room: nothing to take out
                _fields(old, new, path, found, None)
            else:
                _fields(replace(old, room=None), replace(new, room=None), path, found, None)
            last = self._last = (old, new, path, found)
        out.sets += last[3].sets
        out.splices += last[3].splices
        # A room's seats differ in their own slip only: that part is compared per seat.
        if old.room is not new.room:
            _compare(old.room, new.room, (*path, "room"), out, None)


def _same_but_room(a: SheetView, b: SheetView) -> bool:
    """Are two sheets the same sheet but for the room part (one seat's and another's)?"""
    return a is b or all(
        getattr(a, name) is getattr(b, name) or name == "room" for name in _SHEET_FIELDS
    )


def diff(old: TableView, new: TableView, sheets: SheetDiffs | None = None) -> Diff:
    """What turns ``old`` into ``new``; a sheet as ``sheets`` compared it last, if it did."""
    out = Diff()
    _compare(old, new, (), out, sheets)
    return out


def _compare(old: Any, new: Any, path: Path, out: Diff, sheets: SheetDiffs | None) -> None:
    if old is new:
        return
    kind = type(new)
    if kind in _SCALARS:  # most of what changes: a count, a seq, a seat
        if old != new:
            out.sets.append((path, new))
    elif type(old) is kind and isinstance(new, msgspec.Struct) and _by_field(kind):
        if sheets is not None and isinstance(new, SheetView):
            sheets.compare(old, new, path, out)
        else:
            _fields(old, new, path, out, sheets)
    elif type(old) is tuple and kind is tuple:
        _sequence(old, new, path, out, sheets)
    elif old != new:
        out.sets.append((path, new))


def _fields(old: Any, new: Any, path: Path, out: Diff, sheets: SheetDiffs | None) -> None:
    """Two structs of one type, field by field; the fields that are the same object are
    passed over in C (``compress``), without a step of Python each: most of a view is what
    the view before held."""
    names = type(new).__struct_encode_fields__
    before, after = astuple(old), astuple(new)
    for i in compress(range(len(names)), map(is_not, before, after)):
        _compare(before[i], after[i], (*path, names[i]), out, sheets)


def _by_field(kind: type[msgspec.Struct]) -> bool:
    config = kind.__struct_config__
    return not (config.omit_defaults or config.array_like)


def _sequence(
    old: tuple[Any, ...], new: tuple[Any, ...], path: Path, out: Diff, sheets: SheetDiffs | None
) -> None:
    count = len(old)
    # Compared as tuples: in C, each item by identity first (a sheet's lines mostly are).
    if len(new) >= count and new[:count] == old:
        if len(new) > count:
            out.splices.append(Splice(path, count, 0, new[count:]))
        return
    if len(new) == count:
        changed = [i for i in range(count) if old[i] is not new[i] and old[i] != new[i]]
        if 2 * len(changed) <= count:
            for i in changed:
                _compare(old[i], new[i], (*path, i), out, sheets)
        else:
            out.sets.append((path, new))
        return
    # An undo, a new game, a warning between two others: one stretch is replaced.
    limit = min(count, len(new))
    start = 0
    while start < limit and _same(old[start], new[start]):
        start += 1
    end = 0  # items kept at the end
    while end < limit - start and _same(old[count - 1 - end], new[len(new) - 1 - end]):
        end += 1
    out.splices.append(Splice(path, start, count - start - end, new[start : len(new) - end]))


def _same(a: Any, b: Any) -> bool:
    return a is b or bool(a == b)


class Version:
    """One key's view at one seq and the frames made of it, each made once, when first
    asked for: the full state, and the change from the key's previous view."""

    __slots__ = (
        "_change",
        "_diff",
        "_json",
        "_previous",
        "_same_outside",
        "_sheets",
        "_state",
        "after",
        "outside",
        "seq",
        "shown",
        "view",
    )

    def __init__(
        self,
        seq: int,
        view: TableView,
        previous: "Version | None",
        sheets: SheetDiffs | None = None,  # the table's, shared by its keys
        outside: TableView | None = None,  # what ``view`` is, but for its seq and sheet
    ) -> None:
        self.seq = seq
        self.view = view
        self.outside = outside
        self._sheets = sheets
        # Made of what the key's previous view was made of, but for the seq and the sheet:
        # its change is every such key's (``SheetDiffs.views``).
        self._same_outside = (
            outside is not None and previous is not None and (previous.outside is outside)
        )
        # What the change follows: the view the key's phones hold when up to date with the
        # previous version, which is older than it when nothing but the seq changed since.
        self.after: int = previous.shown if previous is not None else -1
        self._previous = previous.view if previous is not None else None
        self._json: bytes | None = None
        self._state: Frame | None = None
        self._change: Frame | None = None
        self._diff: Diff | None = None
        self.shown: int = seq  # the seq of the view a phone up to date with this one holds
        if previous is not None and self._quiet():
            # Nothing the key's phones show changed but the seq (another player's slip in a
            # room): they keep the view they hold, and the next change is made from it.
            self.shown = previous.shown
            self.after = -1  # a phone behind that view gets the whole state

    def json(self) -> bytes:
        """The view, encoded."""
        if self._json is None:
            self._json = encoder.encode(self.view)
        return self._json

    def state(self) -> Frame:
        """The ``state`` message: text, or gzip as binary over ``GZIP_OVER`` bytes."""
        if self._state is None:
            # The view's JSON is not kept for it: the frame is what phones get, and a long
            # sheet's JSON (0.4 MB at 2,000 lines) would stay in memory beside it.
            json = self._json or encoder.encode(self.view)
            message = encoder.encode(StateMessage(self.seq, msgspec.Raw(json)))
            if len(message) > GZIP_OVER:
                self._state = gzip.compress(message, GZIP_LEVEL, mtime=0)
            else:
                self._state = message.decode()
        return self._state

    def _changed(self) -> Diff:
        if self._diff is None:
            assert self._previous is not None, "a first view has no change"
            if self._same_outside and self._sheets is not None:
                self._diff = self._sheets.views(self._previous, self.view)
            else:
                self._diff = diff(self._previous, self.view, self._sheets)
            self._previous = None  # what it was changed from is no longer needed
        return self._diff

    def _quiet(self) -> bool:
        changed = self._changed()
        return not changed.splices and all(path in _SEQS for path, _ in changed.sets)

    def change(self) -> Frame:
        """The ``change`` message from the key's view at ``after``: text, or gzip as binary
        over ``GZIP_OVER`` bytes (a room's close: 200 judged slips and the standings)."""
        if self._change is None:
            changed = self._changed()
            frame = changed.messages.get(self.after)  # another key's, of the same change
            if frame is None:
                message = encoder.encode(
                    ChangeMessage(self.after, self.seq, tuple(changed.sets), tuple(changed.splices))
                )
                if len(message) > GZIP_OVER:
                    frame = gzip.compress(message, GZIP_LEVEL, mtime=0)
                else:
                    frame = message.decode()
                changed.messages[self.after] = frame
            self._change = frame
        return self._change

    def frame(self, after: int) -> Frame | None:
        """What a phone that has this key's view at seq ``after`` (-1: none) is sent: None
        when its view is current but for the seq, the change from ``after``, or else the
        whole state."""
        if 0 <= self.shown <= after <= self.seq:
            return None
        if after == self.after and self.after >= 0:
            return self.change()
        return self.state()


# --- the phone's side, for Python clients (tests, benchmarks) ------------------------------


def read_frame(frame: str | bytes) -> bytes:
    """A frame's JSON: binary frames are gzip-compressed states, text frames as they are."""
    return gzip.decompress(frame) if isinstance(frame, bytes) else frame.encode()


def apply(view: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """``view`` (decoded JSON, changed in place) with a decoded ``change`` message applied."""
    for path, value in change["set"]:
        _parent(view, path)[path[-1]] = value
    for path, start, remove, items in change["splice"]:
        _parent(view, path)[path[-1]][start : start + remove] = items
    return view


def _parent(view: Any, path: list[str | int]) -> Any:
    for step in path[:-1]:
        view = view[step]
    return view
