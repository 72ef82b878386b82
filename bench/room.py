"""A duplicate room of 200 players against real ``tilestream serve`` processes.

Run: ``python -m bench.room`` (2–4 minutes) or ``python -m bench.room --quick`` (3 rounds
instead of 5, shorter slip windows).

Every player registers by name (``POST /api/join``) and follows the room on a websocket of
its own, with a room display (a viewer) and the director's phone (``bench.room_phones``).
Setups, each on servers of its own:

- base: a room of 4 players on one process over SQLite, the baseline of ``× base``;
- A: one room of 200 players on one process over SQLite;
- B: 8 rooms of 200 on two processes sharing one Redis (append-only file fsynced
  ``always``); every room's phones alternate between the processes, its director on one.

Each round the director draws the rack and starts the clock; the client finds the rack's
moves with the move generator over the server's own list and every player's phone hands in
one of them (a valid slip), spread over the slip window; then the director closes the round
— in B every room at the same moment, as when one bell closes every room of a tournament.
A first round is played unmeasured: each process compiles the move generator then.

Figures: slip → ``accepted`` on that phone's socket; close → the last of the players'
phones and the display has the frame with the closed round (goal < 1 s); the servers' CPU
time (``/proc/<pid>/stat``) less their idle rate, per slip (its fan-out, and the round's
draw and clock shared among its slips) and per close (top search, 200 judgements, every
view and its frame; in B both processes, divided by the rooms closing at once); each
player's phone's bytes a round (frame payloads from the draw to the close, the websocket's
2–4 header bytes a frame left out; goal ≤ 4 KB), then where they go and what the close
frame is made of.
"""

import argparse
import asyncio
import contextlib
import gzip
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

import editions
import wordlists
from bench.fanout import start_redis
from bench.fanout_client import cpu_seconds, machine_busy, raise_fd_limit
from bench.room_phones import EDITION, RULES, VIEWS, Phone, Room, everyone
from bench.serving import ServerProcess
from server.live.sheets import read_frame

PLAYERS = 200
ROOMS = 8
BASE_PLAYERS = 4
CLOSE_GOAL = 1.0  # s, from the close to the last phone
BYTES_GOAL = 4096  # per player's phone and round
IDLE = 2.0  # s of idle servers measured for the CPU baseline
# 200 registrations a room from one address: the limits a real room meets are not measured.
OPTIONS = ("--joins-per-minute", "100000", "--table-joins-per-minute", "100000")


class Setup(NamedTuple):
    name: str
    rooms: int
    players: int
    processes: int
    redis: bool
    window: float  # s over which a round's slips are handed in


class Result(NamedTuple):
    setup: Setup
    slip_ms: list[float]
    close_ms: list[float]
    slip_cpu_ms: list[float]  # per slip, per round
    close_cpu_ms: list[float]  # per close, per round
    rooms: list[Room]
    cpu: dict[str, float]  # % of one core over the measured rounds: servers, redis, client, other


class Cpu:
    """CPU seconds of the servers, and of everything else, read from /proc."""

    def __init__(self, servers: list[int], redis: int | None) -> None:
        self.servers, self.redis = servers, redis

    def __call__(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.servers)

    def shares(self) -> dict[str, float]:
        ours = {"servers": self(), "client": cpu_seconds(os.getpid())}
        ours["redis"] = cpu_seconds(self.redis) if self.redis else 0.0
        return {**ours, "machine": machine_busy()}


async def measure(setup: Setup, rooms: list[Room], cpu: Cpu, rounds: int) -> Result:
    """Open every phone, play a warm-up round, then ``rounds`` measured ones."""
    for room in rooms:  # a room at a time: not 1,600 handshakes at once on two cores
        await asyncio.gather(*(p.open() for p in room.phones))
        await everyone(room.phones, 1)
    graph = wordlists.get(editions.get(EDITION).language).graph
    idle = 0.0

    async def timed(work: Any) -> tuple[Any, float]:
        """What ``work`` gave, and the servers' CPU seconds for it beyond their idle rate."""
        began, before = time.perf_counter(), cpu()
        done = await work
        return done, max(0.0, cpu() - before - idle * (time.perf_counter() - began))

    async def play(number: int) -> tuple[list[float], list[float], float, float]:
        slips, slip_cpu = await timed(
            asyncio.gather(*(r.slips(number, setup.window, graph) for r in rooms))
        )
        closed, close_cpu = await timed(asyncio.gather(*(r.close(number) for r in rooms)))
        return [ms for each in slips for ms in each], list(closed), slip_cpu, close_cpu

    await play(0)  # each process compiles the move generator at its first close
    at, before = time.perf_counter(), cpu()
    await asyncio.sleep(IDLE)  # phones connected, nothing sent: pings and timers only
    idle = (cpu() - before) / (time.perf_counter() - at)
    at, start = time.perf_counter(), cpu.shares()
    result = Result(setup, [], [], [], [], rooms, {})
    for number in range(1, rounds + 1):
        slips, closed, slip_cpu, close_cpu = await play(number)
        result.slip_ms.extend(slips)
        result.close_ms.extend(closed)
        result.slip_cpu_ms.append(1000 * slip_cpu / len(slips))
        result.close_cpu_ms.append(1000 * close_cpu / len(rooms))
    span, end = time.perf_counter() - at, cpu.shares()
    used = {role: 100 * (end[role] - start[role]) / span for role in end}
    used["other"] = max(0.0, used.pop("machine") - sum(used.values()))
    result.cpu.update(used)
    for room in rooms:
        for phone in room.phones:
            if phone.ws is not None:
                await phone.ws.close()
    return result


def run(setup: Setup, rounds: int) -> Result:
    """Start the setup's servers (and Redis), set up its rooms, measure, stop."""
    print(f"running {setup.name} …", end=" ", file=sys.stderr, flush=True)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="room-") as folder, contextlib.ExitStack() as stack:
        work = Path(folder)
        redis_pid, redis = (
            start_redis(work / "redis", "always", stack) if setup.redis else (0, None)
        )
        servers = [
            stack.enter_context(ServerProcess(work / f"data-{n}", redis, OPTIONS))
            for n in range(setup.processes)
        ]
        rooms = [Room.create(servers, setup.players, n) for n in range(setup.rooms)]
        pids = [s.process.pid for s in servers if s.process is not None]
        result = asyncio.run(measure(setup, rooms, Cpu(pids, redis_pid or None), rounds))
        for server in servers:
            server.assert_no_crash()
    print(f"{time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)
    return result


# --- where a phone's bytes go ---------------------------------------------------------------


def rounds_of(room: Room) -> list[tuple[int, int, int]]:
    """The measured rounds: their number, the seq of the draw and of the close."""
    return [(n, d, c) for n, (d, c) in enumerate(zip(room.draws, room.closes, strict=True))][1:]


def in_round(phone: Phone, draw: int, close: int) -> list[tuple[int, str, int, float]]:
    return [f for f in phone.frames if draw <= f[0] <= close]


def sizes(result: Result) -> dict[int, list[int]]:
    """Bytes each player's phone got in each measured round, by round."""
    found: dict[int, list[int]] = {}
    for room in result.rooms:
        for number, draw, close in rounds_of(room):
            for phone in room.players:
                total = sum(f[2] for f in in_round(phone, draw, close))
                found.setdefault(number, []).append(total)
    return found


def part(phone: Phone, number: int, seq: int, kind: str, draw: int, close: int) -> str:
    """Which part of its round a frame is (a frame that catches a phone up counts as its
    newest seq)."""
    if kind not in VIEWS:
        return f"answers ({kind})"
    whole = " (whole state)" if kind == "state" else ""
    if seq == draw:
        return f"draw{whole}"
    if seq == draw + 1:
        return f"clock started{whole}"
    if seq == close:
        return f"close{whole}"
    return f"{'own slip' if seq == phone.own.get(number) else 'others’ slips'}{whole}"


def breakdown(result: Result) -> list[str]:
    """Per player's phone and round: bytes and frames by part of the round."""
    total: Counter[str] = Counter()
    frames: Counter[str] = Counter()
    count = 0
    for room in result.rooms:
        for number, draw, close in rounds_of(room):
            for phone in room.players:
                count += 1
                for seq, kind, size, _ in in_round(phone, draw, close):
                    name = part(phone, number, seq, kind, draw, close)
                    total[name] += size
                    frames[name] += 1
    return [
        f"    {name:<32} {total[name] / count:>8,.0f} B in {frames[name] / count:>6.1f} frames"
        for name, _ in total.most_common()
    ]


def _gzipped(value: Any) -> tuple[int, int]:
    raw = msgspec.json.encode(value)
    return len(raw), len(gzip.compress(raw, 6, mtime=0))


def close_frame(frame: str | bytes) -> list[str]:
    """What a close frame is made of: its parts, each as JSON and gzipped on its own."""
    data = read_frame(frame)
    message = msgspec.json.decode(data)
    gz = f", gzip {len(frame):,} B as sent" if isinstance(frame, bytes) else ", as sent"
    parts: dict[str, Any] = {}
    if message["type"] == "state":
        sheet = message["view"]["sheet"]
        *before, closed, opened = sheet["rounds"]
        parts[f"rounds: the closed one ({len(closed['results'])} slips judged)"] = closed
        parts[f"rounds: the {len(before)} closed before it"] = before
        parts["rounds: the new open one"] = opened
        parts |= {f"sheet.{name}": v for name, v in sheet.items() if name != "rounds"}
    else:
        for path, value in message["set"]:
            parts[f"set {_path(path)}"] = value
        for path, _, _, items in message["splice"]:
            parts[f"splice {_path(path)}"] = items
    lines = [f"    a {message['type']} of {len(data):,} B{gz}; its parts (JSON / alone gzipped):"]
    measured = sorted(((_gzipped(v), name) for name, v in parts.items()), reverse=True)
    lines += [f"      {name:<46} {raw:>8,} / {gz:>6,} B" for (raw, gz), name in measured[:7]]
    return lines


def _path(path: list[str | int]) -> str:
    return ".".join("#" if isinstance(step, int) else step for step in path)


def news(room: Room) -> str:
    """What a close tells that no phone had: the closed round and the standings, gzipped
    together — a floor for a close frame that repeats no earlier round."""
    sheet = room.display.view["sheet"]
    raw, gz = _gzipped([sheet["rounds"][-2], sheet["standings"], sheet["totals"]])
    return f"{raw:,} B as JSON, {gz:,} B gzipped"


# --- the report -----------------------------------------------------------------------------


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _median(values: list[float] | list[int]) -> float:
    return statistics.median(values)


def table(results: list[Result]) -> None:
    base = results[0]
    base_bytes = [b for each in sizes(base).values() for b in each]
    print(
        f"{'setup':<28} {'slip→accepted ms':>16} {'slip cpu':>8} {'close→last phone ms':>19}"
        f" {'close cpu':>9} {'B/phone/round':>13}  × base"
    )
    print(
        f"{'':<28} {'p50':>7} {'p99':>8} {'ms/slip':>8} {'p50':>9} {'p99':>9} {'ms':>9}"
        f" {'p50':>6} {'max':>6}  close p50 / cpu / bytes"
    )
    for r in results:
        b = [each for n in sizes(r).values() for each in n]
        ratio = (
            f"{_median(r.close_ms) / _median(base.close_ms):.1f}"
            f" / {_median(r.close_cpu_ms) / max(_median(base.close_cpu_ms), 1.0):.1f}"
            f" / {_median(b) / _median(base_bytes):.1f}"
        )
        print(
            f"{r.setup.name:<28} {_median(r.slip_ms):>7.1f} {pct(r.slip_ms, 0.99):>8.1f}"
            f" {_median(r.slip_cpu_ms):>8.2f} {_median(r.close_ms):>9.0f}"
            f" {pct(r.close_ms, 0.99):>9.0f} {_median(r.close_cpu_ms):>9.0f}"
            f" {_median(b):>6,.0f} {max(b):>6,}  {ratio}"
        )
    for r in results:
        cpu = ", ".join(f"{role} {share:.0f} %" for role, share in r.cpu.items() if share)
        print(
            f"  {r.setup.name}: {r.setup.rooms} × {r.setup.players} players, slips over"
            f" {r.setup.window:g} s a round; {len(r.close_ms)} closes; cpu of one core over"
            f" the rounds: {cpu}"
        )
    print("  (cpu ms: the servers' less their idle rate; base's are 10 ms clock ticks)")


def goals(r: Result) -> None:
    by_round = sizes(r)
    b = [each for n in by_round.values() for each in n]
    met = "met" if pct(r.close_ms, 0.99) < CLOSE_GOAL * 1000 else "MISSED"
    print(
        f"goal close → every phone < {CLOSE_GOAL:g} s, {r.setup.name}: {met} — p50"
        f" {_median(r.close_ms):.0f} ms, p99 {pct(r.close_ms, 0.99):.0f} ms, max"
        f" {max(r.close_ms):.0f} ms"
    )
    met = "met" if max(b) <= BYTES_GOAL else "MISSED"
    growth = ", ".join(f"{n}: {_median(each):,.0f}" for n, each in sorted(by_round.items()))
    print(
        f"goal ≤ {BYTES_GOAL:,} B per phone and round, {r.setup.name}: {met} — median"
        f" {_median(b):,.0f} B, max {max(b):,} B; median by round ({growth} B; round 0,"
        " the warm-up, left out); per phone and round:"
    )
    print("\n".join(breakdown(r)))


def anatomy(r: Result) -> None:
    """The newest close as a player's phone and as the display got it."""
    room = r.rooms[0]
    number, _, close = rounds_of(room)[-1]
    print(f"the close of round {number} in {r.setup.name}, as the first player's phone got it:")
    print("\n".join(close_frame(room.players[0].raw[close])))
    if room.display.raw[close] != room.players[0].raw[close]:
        print("  and as the display got it:")
        print("\n".join(close_frame(room.display.raw[close])))
    else:
        print("  the display got the very same frame")
    shown = [sum(f[2] for f in in_round(room.display, d, c)) for _, d, c in rounds_of(room)]
    print(
        f"  what only this close tells (the closed round, standings, totals): {news(room)};"
        f" the display's bytes a round: median {_median(shown):,.0f} B"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.room", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="3 rounds, shorter slip windows")
    args = parser.parse_args()
    raise_fd_limit()
    rounds, scale = (3, 0.5) if args.quick else (5, 1.0)
    setups = [
        Setup(f"base: {BASE_PLAYERS} players, sqlite ×1", 1, BASE_PLAYERS, 1, False, 1.0),
        Setup(f"A: {PLAYERS} players, sqlite ×1", 1, PLAYERS, 1, False, 4.0 * scale),
        Setup(f"B: {ROOMS}×{PLAYERS}, redis always ×2", ROOMS, PLAYERS, 2, True, 8.0 * scale),
    ]
    load = os.getloadavg()
    began = time.monotonic()
    results = [run(setup, rounds) for setup in setups]
    after = os.getloadavg()
    print(
        f"duplicate rooms: {rounds} measured rounds after a warm-up; edition {EDITION}, rules"
        f" {RULES}; {os.cpu_count()} cores shared by servers, Redis and the client; load"
        f" average (1/5/15 min) {load[0]:.1f}/{load[1]:.1f}/{load[2]:.1f} before,"
        f" {after[0]:.1f}/{after[1]:.1f}/{after[2]:.1f} after"
    )
    table(results)
    for r in results[1:]:
        goals(r)
    anatomy(results[1])
    print(f"whole run: {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
