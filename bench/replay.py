"""Rebuilding a table's state from its log: 4-player classic games of 100, 400 and 2,000 events.

Run: ``python -m bench.replay``. Each game is made once with a fixed seed: board moves found
by trying random placements until ``decide`` accepts one, with manual points, passes,
exchanges, penalties and undos among them. The baseline, in the same process, is decoding
the same log from its stored JSON — the work a server does anyway before it can replay. A
linear reducer keeps the time per event flat from 100 to 2,000 events.
"""

import random

import editions
from bench.timing import Figures, measure
from events import commands as c
from events.events import LineUndone, MoveRecorded, Recorded, decode, encode
from rules.errors import GameError
from rules.table.record import record
from rules.table.reducer import replay
from rules.table.state import State

SIZES = (100, 400, 2000)
SEED = 7
GOAL_MS = 10.0  # replay of 2,000 events
SAMPLE_MS = 40  # about this long per sample, so each size takes a few seconds


def _board_move(state: State, rng: random.Random) -> c.RecordMove | None:
    letters = [k.face for k in editions.get("nl").kinds for _ in range(k.count)]
    for _ in range(300):
        start = f"{'ABCDEFGHIJKLMNO'[rng.randrange(15)]}{rng.randrange(1, 16)}"
        word = "".join(rng.sample(letters, rng.randint(1, 4)))
        command = c.RecordMove(c.BoardMove(start, rng.choice(["across", "down"]), word))
        try:
            record(state, command)
        except GameError:
            continue
        return command
    return None


def make_game(events: int = 400, seed: int = SEED) -> list[Recorded]:
    """A 4-player log of ``events`` events, the same every run."""
    rng = random.Random(seed)
    state, log = record(State(), c.StartGame("nl", players=("Ann", "Bas", "Cor", "Dirk")))
    logged = list(log)
    while len(logged) < events:
        roll = rng.random()
        command: c.TableCommand | None
        if roll < 0.6:
            command = _board_move(state, rng) or c.Pass()
        elif roll < 0.7:
            command = c.EnterPoints(rng.randrange(0, 60))
        elif roll < 0.8:
            command = c.Exchange() if rng.random() < 0.5 else c.Pass()
        elif roll < 0.85:
            command = c.GivePenalty(rng.randrange(4), 10)
        else:
            command = c.Undo() if state.game and state.game.lines else c.Pass()
        state, log = record(state, command)
        logged.extend(log)
    return logged[:events]


def _row(f: Figures, events: int, baseline: Figures) -> str:
    return (
        f"{f.name:<40} {f.median / 1000:>10.3f} {f.p99 / 1000:>9.3f} {f.median / events:>11.2f}"
        f" {f.median / baseline.median:>8.1f}"
    )


def measure_size(events: int) -> Figures:
    """Print the game of ``events`` events, its baseline and its replay; the replay's figures."""
    log = make_game(events)
    stored = [encode(r) for r in log]
    moves = sum(isinstance(r.event, MoveRecorded) and bool(r.event.placed) for r in log)
    undos = sum(isinstance(r.event, LineUndone) for r in log)
    final = replay(log)
    assert final.game is not None
    print(
        f"log of {len(log)} events: {moves} board moves, {undos} undos;"
        f" {len(final.game.lines)} lines stand, totals {final.game.totals}"
    )
    calls = max(1, round(SAMPLE_MS * 200 / events))  # at about 5 µs an event
    baseline = measure(
        f"baseline: decode {events} stored events",
        lambda: [decode(b) for b in stored],
        calls=calls,
        samples=60,
    )
    rebuild = measure(f"replay {events} events", lambda: replay(log), calls=calls, samples=60)
    print(_row(baseline, events, baseline))
    print(_row(rebuild, events, baseline))
    return rebuild


def main() -> None:
    print(f"{'measurement':<40} {'median ms':>10} {'p99 ms':>9} {'µs / event':>11} {'× base':>8}")
    figures = {events: measure_size(events) for events in SIZES}
    medians = ", ".join(
        f"{n}: {f.median / 1000:.2f} ms (p99 {f.p99 / 1000:.2f})" for n, f in figures.items()
    )
    print(f"replay by events, median — {medians}; goal at 2,000 < {GOAL_MS:g} ms")


if __name__ == "__main__":
    main()
