"""What a table held in memory costs, counted by tracemalloc as ``bench.held`` counts it: a
four-player game's log as a server writes it (devices, command ids, times) decoded as a store
gives it, folded, and the frames a host's phone and a player's get. The bounds are what was
measured (docs/scaling.md) with a tenth more: a regression guard. A game kept before every
event for the undo cost 1,615 KiB at 2,000 events (without devices and command ids); one
kept in ``CHECKPOINT`` (``rules.table.state.Step``) brought it to 698 KiB; with what a
server's log holds it is 997 KiB, 858 KiB once the steps keep no command id and share their
devices' ids, 758 KiB with the command ids held as hashes (``server.tables.retries``), 526
KiB with the older runs of steps packed (``rules.table.steps``), and 498 KiB with a move's
squares shared strings. What is left is mostly the sheet's lines."""

import gc
import tracemalloc

import pytest

from bench.held import decoded, hold, served
from bench.replay import make_game
from events.events import encode


@pytest.mark.parametrize(("events", "measured_kib"), [(60, 71), (500, 223), (2_000, 498)])
def test_a_held_table_costs_no_more_than_was_measured(events: int, measured_kib: int) -> None:
    encoded = [encode(r) for r in served(make_game(events))]
    gc.collect()
    tracemalloc.start()
    try:
        table = hold(decoded(encoded))
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] / 1024
    finally:
        tracemalloc.stop()
    assert table.state.seq == events
    assert held <= 1.1 * measured_kib, f"{held:.0f} KiB"


def test_a_held_table_keeps_the_frame_a_phone_gets_not_the_json_it_was_made_of() -> None:
    table = hold(decoded([encode(r) for r in make_game(500)]))
    version = table.version(table.key("member", None))
    assert version.state()  # made for the phone that opened the table
    assert version._json is None  # the sheet's JSON (0.1 MB here) was let go
