"""Server CPU per event, this tree against another revision: did a change make it cheaper?

Run: ``python -m bench.fanout_ab REV`` (about 2 minutes; ``--pairs N``, 4 by default;
``--store everysec`` or ``sqlite`` instead of Redis ``always``; ``--tcp`` to reach Redis
over TCP rather than through its Unix socket).

``bench.fanout``'s 1,000 commands a second on one server process — 100 tables of four
phones, the same client process for both — served by the working tree and by ``REV``, checked
out in a temporary git worktree. The two alternate, the order swapped every pair, so a spell of
other work on the machine weighs on both. Each run is 2 s of warm-up and 8 s measured; its
figure is the server's CPU per recorded event (``/proc``), as ``bench.fanout``'s ``µs/ev``.
Printed: every run, then per tree the median and the p99 of its runs' p99 latencies, and the
working tree's median over ``REV``'s. A tree against itself (``HEAD``, the server unchanged)
shows the noise: single runs spread by a tenth, the medians of four pairs by a few percent, so
a change of a few percent needs more pairs. ``docs/scaling.md`` has what was found with it.
"""

import argparse
import subprocess
import tempfile
from pathlib import Path
from statistics import median

from bench.fanout import GOAL, ROOT, TABLES, Setup, cpu_per_event, run
from bench.fanout_client import Figures, Load, raise_fd_limit
from bench.timing import load_average

WARM, MEASURE = 2.0, 8.0  # seconds


def git(*args: str) -> None:
    subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True)


def one_run(setup: Setup, root: Path) -> Figures:
    """The 1,000 commands a second load on the tree at ``root``."""
    load = Load(f"{GOAL:,}/s", GOAL / TABLES)
    return run(setup, TABLES, [load], WARM, MEASURE, root=root).loads[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revision", help="the revision to compare with (a commit, a branch)")
    parser.add_argument("--pairs", type=int, default=4, help="runs of each tree (default 4)")
    parser.add_argument("--store", choices=["always", "everysec", "sqlite"], default="always")
    parser.add_argument("--tcp", action="store_true", help="reach Redis over TCP")
    args = parser.parse_args()
    raise_fd_limit()
    setup = Setup(args.store, 1, tcp=args.tcp)
    print(f"{setup.name} at {GOAL:,} commands a second; load {load_average()}")
    with tempfile.TemporaryDirectory(prefix="fanout-ab-") as folder:
        other = Path(folder) / "tree"
        git("worktree", "add", "--detach", str(other), args.revision)
        try:
            trees = {"this tree": ROOT, args.revision: other}
            runs: dict[str, list[Figures]] = {name: [] for name in trees}
            for pair in range(args.pairs):
                order = list(trees) if pair % 2 == 0 else list(trees)[::-1]
                for name in order:
                    figures = one_run(setup, trees[name])
                    runs[name].append(figures)
                    print(f"  {name:<20} {cpu_per_event(figures):6.0f} µs/ev"
                          f"  p99 {figures.p99 or float('nan'):5.1f} ms", flush=True)  # fmt: skip
        finally:
            git("worktree", "remove", "--force", str(other))
    print(f"{'tree':<20} {'median µs/ev':>13} {'runs':>24} {'p99 ms (median)':>16}")
    medians = {}
    for name, measured in runs.items():
        each = [cpu_per_event(f) for f in measured]
        medians[name] = median(each)
        p99 = median([f.p99 for f in measured if f.p99 is not None] or [float("nan")])
        listed = " / ".join(f"{x:.0f}" for x in each)
        print(f"{name:<20} {medians[name]:>13.0f} {listed:>24} {p99:>16.1f}")
    mine, theirs = medians["this tree"], medians[args.revision]
    print(f"this tree / {args.revision}: {mine / theirs:.3f} ({(mine / theirs - 1) * 100:+.1f} %);"
          f" load {load_average()}")  # fmt: skip


if __name__ == "__main__":
    main()
