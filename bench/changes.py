"""What a change costs: bytes per phone and server time per change, at 100, 400 and 2,000
events of a 4-player classic game (``bench.replay``'s, with board moves, points, passes,
exchanges, penalties and undos).

Run: ``python -m bench.changes`` (about half a minute). For the last ``WINDOW`` changes before
each size, a table of a host and three players (two views: the host's and the players')
is sent each change two ways, in the same process:

- baseline, as phones were sent it before: the whole view built and encoded for each
  audience, then compressed per phone by permessage-deflate (one compressor per phone,
  its window kept from message to message, as uvicorn and browsers negotiate it);
- now (``server.tables.held.Live``): the view built with its sheet shared by the audiences, and
  the change from the view before encoded once per audience — no compression per phone.

Bytes are per phone and change as they go on the wire (the frame's payload). Times are per
change for the whole table, each sample one change; ``× base`` is the median over the
baseline's. A phone that connects (or asks again) gets the whole state, gzipped once per
seq: its size and the time to compress it are shown too.
"""

import statistics
import time
import zlib
from collections.abc import Callable

import msgspec

from bench.replay import make_game
from bench.timing import Figures
from events.events import Recorded
from rules.table.reducer import evolve
from rules.table.state import State
from rules.table.views import view
from server.live.messages import StateMessage, encoder
from server.live.sheets import GZIP_OVER, Version
from server.tables.live import Live, ViewKey

SIZES = (100, 400, 2000)
WINDOW = 60  # changes measured before each size
REPEATS = 5  # times each change is timed
PHONES: tuple[ViewKey, ...] = (("host", None), ("member", None), ("member", None), ("member", None))
GOAL_BYTES = 2048  # per change and phone at 2,000 events


def states(log: list[Recorded]) -> list[State]:
    """The state after every event."""
    state, made = State(), []
    for record in log:
        state = evolve(state, record)
        made.append(state)
    return made


def deflater() -> "zlib._Compress":
    """A phone's permessage-deflate compressor: raw deflate, its window kept."""
    return zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)


def deflated(compressor: "zlib._Compress", data: bytes) -> bytes:
    """One message as permessage-deflate sends it (RFC 7692: the flush's tail taken off)."""
    return (compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH))[:-4]


def whole(state: State) -> dict[ViewKey, bytes]:
    """The state message per audience, as the server encoded it before."""
    message = {}
    for key in set(PHONES):
        raw = msgspec.Raw(encoder.encode(view(state, *key)))
        message[key] = encoder.encode(StateMessage(state.seq, raw))
    return message


def before(state: State, phones: list["zlib._Compress"]) -> list[bytes]:
    """The frames of the baseline: the whole state, per audience, deflated per phone."""
    message = whole(state)
    return [deflated(c, message[key]) for c, key in zip(phones, PHONES, strict=True)]


def now(live: Live, after: int) -> list[str | bytes]:
    """The frames phones are sent now: the change, once per audience; none where only the
    seq changed for it."""
    frames = {key: live.frame(key, after) for key in set(PHONES)}
    return [frame for key in PHONES if (frame := frames[key]) is not None]


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter_ns()
    call()
    return (time.perf_counter_ns() - started) / 1000


def sizes_line(name: str, sizes: list[int], baseline: list[int]) -> str:
    median, base = statistics.median(sizes), statistics.median(baseline)
    p99 = sorted(sizes)[round(0.99 * (len(sizes) - 1))]
    return f"{name:<52} {median:>10,.0f} {p99:>9,} {median / base:>8.3f}"


def time_line(f: Figures, baseline: Figures) -> str:
    return f"{f.name:<52} {f.median:>10.1f} {f.p99:>9.1f} {f.median / baseline.median:>8.3f}"


def measure(events: int) -> tuple[list[str], float]:
    """The rows for one size, and its median change in bytes per phone."""
    made = states(make_game(events))
    window = range(len(made) - WINDOW, len(made))
    phones = [deflater() for _ in PHONES]
    before(made[window.start - 1], phones)  # the phones' windows hold the sheet already
    plain_bytes: list[int] = []
    old_bytes: list[int] = []
    new_bytes: list[int] = []
    old_us: list[float] = []
    new_us: list[float] = []
    for at in window:
        previous, state = made[at - 1], made[at]
        plain_bytes += [len(whole(state)[key]) for key in PHONES]
        old_bytes += [len(f) for f in before(state, phones)]
        live = Live()
        live.state = previous
        for key in set(PHONES):
            live.version(key)  # the views phones have
        live.state = state
        new_bytes += [len(f) for f in now(live, previous.seq)]
        for _ in range(REPEATS):
            fresh = [deflater() for _ in PHONES]
            before(previous, fresh)
            old_us.append(timed(lambda: before(state, fresh)))  # noqa: B023
            live = Live()
            live.state = previous
            for key in set(PHONES):
                live.version(key)
            live.state = state
            new_us.append(timed(lambda: now(live, previous.seq)))  # noqa: B023
    last = made[-1]
    connecting = Version(last.seq, view(last, "member"), None)
    gzip_us = timed(connecting.state)
    baseline_time = Figures("baseline: whole state, deflate per phone (µs)", old_us)
    rows = [
        f"{events:,} events: a phone that connects gets the whole state gzipped once per seq,"
        f" {len(connecting.state()):,} bytes, in {gzip_us / 1000:.2f} ms"
        f" (over {GZIP_OVER:,} bytes it goes compressed)",
        sizes_line("baseline: whole state, deflated per phone (bytes)", old_bytes, old_bytes),
        sizes_line("  the same, before deflate (bytes)", plain_bytes, old_bytes),
        sizes_line("change, once per audience (bytes)", new_bytes, old_bytes),
        time_line(baseline_time, baseline_time),
        time_line(
            Figures("change: view, diff, encode, for all phones (µs)", new_us), baseline_time
        ),
    ]
    return rows, statistics.median(new_bytes)


def shared_sheet(events: int) -> list[str]:
    """What building the sheet once for every audience saves, at one seq."""
    state = states(make_game(events))[-1]
    keys: list[ViewKey] = [("host", None), ("member", None)]
    each = [timed(lambda: [view(state, *key) for key in keys]) for _ in range(40)]

    def shared() -> None:
        live = Live()
        live.state = state
        for key in keys:
            live.version(key)

    once = [timed(shared) for _ in range(40)]
    baseline = Figures(f"{events:,} events: rules.table.views.view per audience (µs)", each)
    return [
        time_line(baseline, baseline),
        time_line(Figures(f"{events:,} events: Live, the sheet once (µs)", once), baseline),
    ]


def main() -> None:
    print(f"{'measurement':<52} {'median':>10} {'p99':>9} {'× base':>8}")
    medians = []
    for events in SIZES:
        rows, median = measure(events)
        medians.append((events, median))
        print("\n".join(rows))
    for events in SIZES:
        print("\n".join(shared_sheet(events)))
    figures = ", ".join(f"{n:,}: {b:,.0f}" for n, b in medians)
    at_goal = dict(medians)[2000]
    print(
        f"bytes per change and phone (median) — {figures};"
        f" goal at 2,000 events ≤ {GOAL_BYTES:,}: {'met' if at_goal <= GOAL_BYTES else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
