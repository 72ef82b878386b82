"""How long the computer opponent takes to choose a move, on the positions of real games.

Run: ``python -m bench.computer [--games N] [EDITION ...]`` (default: woordstrijd en pl,
6 games). Each game is an online game of two seats played to its end through the rules
(``rules.table.record.record``, judged by the edition's list), the seats the computer at ``best``
and at ``good``, from seeds ``bench-0`` … ; every turn of either seat is one sample of
``rules.online.opponent.choose`` — the move generator over every move of the rack, and the pick —
timed in CPU ms (``process_time``) with the wall clock beside it. The figures are grouped
by the blanks on the rack (0, 1, 2): the median, p99 and the slowest. What a phone waits
on a server is this and one round trip of the store; ``server.jobs.computer_turns`` runs it in a
thread, so the event loop never waits on a slow one.
"""

import argparse
import statistics
import time
from collections import defaultdict

from msgspec.structs import replace

import wordlists
from events import commands as c
from events.events import Mode
from rules.online import opponent as computer
from rules.table.permissions import COMPUTER, HOST, Actor
from rules.table.record import record
from rules.table.state import State

EDITIONS = ("woordstrijd", "en", "pl")


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def play(edition: str, seed: str) -> list[tuple[int, float, float]]:
    """One game to its end: (blanks on the rack, CPU ms, wall ms) per turn."""
    lexicon = wordlists.get(edition)
    graph = lexicon.graph
    start = c.StartGame(edition, Mode.ONLINE, players=("A", "B"), computers=(None, "good"))
    state, _ = record(State(), start, seed=seed, contains=lexicon.contains)
    samples = []
    while state.game is not None and state.game.ended is None:
        game = state.game
        assert game.online is not None
        # The person's seat is played as the computer at its best, and timed the same way.
        seat = game.to_move
        level = game.online.computers[seat] or "best"
        computers = tuple(level if s == seat else None for s in range(len(game.players)))
        timed = replace(game, online=replace(game.online, computers=computers))
        meant = computer.turn(timed)
        assert meant is not None
        cpu, wall = time.process_time(), time.perf_counter()
        command = computer.choose(timed, graph, meant)
        cpu, wall = (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000
        samples.append((game.online.racks[seat].count("?"), cpu, wall))
        actor = Actor(COMPUTER, seat, COMPUTER) if seat == 1 else Actor("host", 0, HOST)
        state, _ = record(state, command, actor=actor, contains=lexicon.contains)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("editions", nargs="*", default=list(EDITIONS))
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    print(
        f"{'edition':<12} {'blanks':>6} {'turns':>6} {'median ms':>10} {'p99 ms':>8}"
        f" {'max ms':>8} {'wall median':>11}"
    )
    for edition in args.editions:
        assert len(wordlists.get(edition).graph)  # loaded (or converted) before any timing
        by_blanks: dict[int, list[tuple[float, float]]] = defaultdict(list)
        for n in range(args.games):
            for blanks, cpu, wall in play(edition, f"bench-{n}"):
                by_blanks[min(blanks, 2)].append((cpu, wall))
        for blanks in sorted(by_blanks):
            cpus = [s[0] for s in by_blanks[blanks]]
            walls = [s[1] for s in by_blanks[blanks]]
            print(
                f"{edition:<12} {blanks:>6} {len(cpus):>6} {statistics.median(cpus):>10.1f}"
                f" {p99(cpus):>8.1f} {max(cpus):>8.1f} {statistics.median(walls):>11.1f}"
            )


if __name__ == "__main__":
    main()
