"""Rebuilding a table's state from its log: a 4-player classic game of 400 events.

Run: ``python -m bench.replay``. The game is made once with a fixed seed: board moves found
by trying random placements until ``decide`` accepts one, with manual points, passes,
exchanges, penalties and undos among them. The baseline, in the same process, is decoding
the same log from its stored JSON — the work a server does anyway before it can replay.
"""

import random

import editions
from bench.timing import measure
from events import commands as c
from events.events import LineUndone, MoveRecorded, Recorded, decode, encode
from rules.errors import GameError
from rules.reducer import replay
from rules.state import State
from rules.table import record

EVENTS = 400
SEED = 7


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


def make_game(events: int = EVENTS, seed: int = SEED) -> list[Recorded]:
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


def main() -> None:
    log = make_game()
    stored = [encode(r) for r in log]
    moves = sum(isinstance(r.event, MoveRecorded) and bool(r.event.placed) for r in log)
    undos = sum(isinstance(r.event, LineUndone) for r in log)
    final = replay(log)
    assert final.game is not None
    print(
        f"log: {len(log)} events, {moves} board moves, {undos} undos; "
        f"{len(final.game.lines)} lines stand, totals {final.game.totals}"
    )
    baseline = measure(
        "baseline: decode the 400 stored events",
        lambda: [decode(b) for b in stored],
        calls=20,
        samples=60,
    )
    rebuild = measure(
        "replay the 400 events from scratch", lambda: replay(log), calls=20, samples=60
    )
    print(f"{'measurement':<44} {'median ms':>10} {'p99 ms':>9} {'× base':>8}")
    for f in (baseline, rebuild):
        print(
            f"{f.name:<44} {f.median / 1000:>10.3f} {f.p99 / 1000:>9.3f}"
            f" {f.median / baseline.median:>8.1f}"
        )
    print(
        f"replay median {rebuild.median / 1000:.2f} ms, p99 {rebuild.p99 / 1000:.2f} ms "
        "(goal < 5 ms)"
    )


if __name__ == "__main__":
    main()
