"""The standing steps of a game, newest first, their older runs packed as bytes.

A run is a step that keeps its game before it (or starts the game) and the steps that fold
theirs again from it (``rules.table.reducer``). The newest run stays objects: the reducer
reads there, and so do the rules that look back a little (the open round's cells). The run
before it is packed when a new one starts: one ``Packed``, its kept game and its steps'
events as JSON, compressed (to a fifth; 15 µs a run). JSON is the log's own encoding, so
every event a store gives back packs as it is (MessagePack refuses an int past 64 bits,
which a log may hold). A run is opened again only by a walk that goes back that far (an undo
of an older line, a game's record); a search by seq or by kind of event passes the runs
that cannot hold what it looks for.

A 2,000-event game's standing steps took 260 KiB as objects and take 29 KiB packed
(``bench.held``).
"""

import functools
import sys
import typing
import zlib
from collections.abc import Callable, Iterator

import msgspec

from events.events import Event, Recorded, TableEvent
from rules.table.state import Follows, Packed, Step


class _Entry(msgspec.Struct, array_like=True, frozen=True, gc=False):
    """A packed step: a standing event has no command id (``rules.table.reducer.standing``)."""

    follows: Follows
    seq: int
    device: str
    at: int
    event: TableEvent


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(list[_Entry]).decode
# A bit for each kind of event: a run knows the kinds it holds (``Packed.kinds``).
_BITS = {kind: 1 << bit for bit, kind in enumerate(typing.get_args(TableEvent))}


@functools.cache
def _mask(kinds: tuple[type[Event], ...]) -> int:
    return sum(_BITS[kind] for kind in kinds)


def older(step: Step) -> Step | None:
    """The step before ``step``, its packed run opened when it is in one."""
    previous = step.previous
    return _opened(previous) if isinstance(previous, Packed) else previous


def chain(steps: Step | None, kinds: tuple[type[Event], ...] | None = None) -> Iterator[Step]:
    """The standing steps, newest first, the packed runs opened as the walk reaches them;
    with ``kinds``, a packed run that holds none of them is passed unopened (its steps are
    not given): a room's round of slips is runs of them, and every sheet looks past them for
    its newest line (``rules.table.permissions.latest_line``)."""
    wanted = -1 if kinds is None else _mask(kinds)
    return _walk(steps, lambda packed: not packed.kinds & wanted)


def find(steps: Step | None, seq: int) -> Step | None:
    """The standing step of the event ``seq``; None when it is not standing. Packed runs that
    begin after ``seq`` are passed unopened."""
    for step in _walk(steps, lambda packed: packed.oldest > seq):
        if step.recorded.seq <= seq:
            return step if step.recorded.seq == seq else None
    return None


def newest(steps: Step | None, kinds: tuple[type[Event], ...]) -> Recorded | None:
    """The newest standing event of one of ``kinds``; None when none stands."""
    found = next((s for s in chain(steps, kinds) if isinstance(s.recorded.event, kinds)), None)
    return found.recorded if found is not None else None


def _walk(steps: Step | None, passes: Callable[[Packed], bool]) -> Iterator[Step]:
    """The steps newest first, a packed run opened unless ``passes`` it."""
    step: Step | Packed | None = steps
    while step is not None:
        if isinstance(step, Packed):
            if passes(step):
                step = step.previous
                continue
            step = _opened(step)
        yield step
        step = step.previous


def packing(last: Step | None) -> Step | Packed | None:
    """What a step that keeps its game follows: the run that ends with ``last`` packed (the
    step's own run is the newest, and stays objects)."""
    if last is None:
        return None
    entries = []  # each an _Entry's fields: encoded alike, made faster
    kinds = 0
    step = last
    while True:
        r = step.recorded
        entries.append((step.follows, r.seq, r.device, r.at, r.event))
        kinds |= _BITS[type(r.event)]
        if step.follows in ("start", "kept"):
            break
        assert isinstance(step.previous, Step)  # a run is packed whole, or not at all
        step = step.previous
    entries.reverse()
    data = zlib.compress(_encode(entries), 1)  # as small as the default's, in 3/4 the time
    return Packed(step.kept, data, step.recorded.seq, kinds, step.previous)


def _opened(packed: Packed) -> Step:
    """A packed run as steps again, its newest first."""
    step: Step | Packed | None = packed.previous
    for depth, entry in enumerate(_decode(zlib.decompress(packed.data))):
        recorded = Recorded(entry.seq, entry.event, sys.intern(entry.device), entry.at)
        kept = packed.kept if depth == 0 else None
        step = Step(recorded, kept, step, entry.follows, depth)
    assert isinstance(step, Step)
    return step
