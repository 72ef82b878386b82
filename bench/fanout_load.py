"""Scale-out: 2,000 phones (500 tables × 4) across two ``tilestream serve`` processes on one Redis.

Run: ``python -m bench.fanout_load`` (about a minute; ``--seconds`` sets each load's
measured window, ``--tables`` the number of tables).

The benchmark starts a throwaway redis-server (append-only file fsynced ``always``: on disk
before Redis answers) and two server processes sharing it through its Unix socket, then the
client process of ``bench.fanout`` creates the tables (alternately on either process) and
opens four phones per table, two on each process: every command is recorded by one process
and reaches the other's phones through Redis. After a hold, three loads: a command every 2 s
per table (a brisk real game is far slower), 1,000 commands a second per server process, and
``max`` (every table sends its next command once its last phone has the previous one).

For each load it prints p50 and p99 from a command to the last of its table's phones,
recorded events a second, views pushed a second, the errors (refused commands, dropped
phones, commands that never reached every phone), and the CPU of each server process, of
Redis, of the client and of the rest of the machine — all on this one 2-core machine, so
the client's share is what a real deployment would not pay.
"""

import argparse
import time

from bench.fanout import P99_GOAL, Setup, errors, ms, run
from bench.fanout_client import Figures, Load, Outcome, raise_fd_limit

TABLES = 500
PROCESSES = 2
HOLD = 3.0  # seconds every phone stays connected before the loads


def cpu(f: Figures) -> str:
    servers = " + ".join(f"{each:.0f}" for each in f.cpu_each.get("server", []))
    return (
        f"servers {servers} %, redis {f.cpu.get('redis', 0):.0f} %,"
        f" client {f.cpu.get('client', 0):.0f} %, other {f.cpu.get('other', 0):.0f} %"
    )


def report(outcome: Outcome, tables: int, warm: float, measure: float) -> None:
    rss = outcome.rss_kb
    per_phone = [
        (p - i) / (outcome.phones / PROCESSES)
        for p, i in zip(rss["phones"], rss["idle"], strict=True)
    ]
    print(
        f"scale-out: {tables} tables × 4 phones on {PROCESSES} server processes, one Redis"
        f" (appendfsync always); loads of {warm:g} s warm-up + {measure:g} s measured"
    )
    print(
        f"  {outcome.phones:,} phones opened in {outcome.setup:.1f} s (with their tables):"
        f" {outcome.initial:,} got their first state, {outcome.held:,} still open after"
        f" {HOLD:g} s, {outcome.ready} tables ready"
        + (f"; refused while opening: {outcome.refused}" if outcome.refused else "")
    )
    print(
        "  server RSS: "
        + ", ".join(
            f"{i / 1024:.0f} → {p / 1024:.0f} MiB ({k:.0f} KiB a phone)"
            for i, p, k in zip(rss["idle"], rss["phones"], per_phone, strict=True)
        )
    )
    heads = f"{'offered/s':>9} {'events/s':>9} {'pushes/s':>9} {'p50 ms':>7} {'p99 ms':>7}"
    print(f"{'load':<22} {heads}")
    for f in outcome.loads:
        offered = "max" if f.offered is None else f"{f.offered:,.0f}"
        p99_ok = f.p99 is not None and f.p99 < P99_GOAL
        print(
            f"{f.name:<22} {offered:>9} {f.events:>9,.0f} {f.pushes:>9,.0f} {ms(f.p50):>7}"
            f" {ms(f.p99):>7}{'' if p99_ok or f.offered is None else '  (p99 ≥ 50 ms)'}"
        )
        print(f"{'':<22} errors: {', '.join(errors(f)) or 'none'}; cpu: {cpu(f)}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.fanout_load", description=__doc__)
    parser.add_argument("--tables", type=int, default=TABLES, help="tables of four phones")
    parser.add_argument("--seconds", type=float, default=10.0, help="each load's measured window")
    args = parser.parse_args()
    raise_fd_limit()
    loads = [
        Load("every 2 s per table", 0.5),
        Load("1,000/s per process", 1_000 * PROCESSES / args.tables),
        Load("max", None),
    ]
    warm = min(2.0, args.seconds / 2)
    began = time.monotonic()
    outcome = run(Setup("always", PROCESSES), args.tables, loads, warm, args.seconds, HOLD)
    report(outcome, args.tables, warm, args.seconds)
    print(f"whole run: {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
