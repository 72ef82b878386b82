"""A simultaneous of 2,000 players in 50 centres against real ``tilestream serve`` processes.

Run: ``python -m bench.simultaneous`` (3 measured rounds, about 2 minutes) or
``python -m bench.simultaneous --quick`` (10 centres, 2 rounds, about a minute).

Two server processes share one Redis (append-only file fsynced ``always``). The organiser
creates the simultaneous (``POST /api/simultaneous``, edition fr, one game); each club's
director opens a room (duplicate, no players), makes it a centre (``join_simultaneous``)
and holds a websocket in this process; 40 players a centre register by name
(``POST /api/join``) and hold websockets in client processes of their own
(``bench.simultaneous_phones``), a room's phones alternating between the servers.

Each round every director draws the sealed rack; this process finds its moves (every centre
has the same board and rack) and every player hands in one of them over their websocket, the
slips spread over a window; then every director closes the round at the same moment, as one
bell closes every room. A first round is played unmeasured (each process's first close and
first fold). The baseline, in the same run on the same servers before the simultaneous is
created: a room of 40 players that is no centre, the same rounds.

Figures, per player's phone and round:

- close → own room: from its director's ``accepted`` of ``close_round`` to the room's close
  on the phone (the baseline's latency, and the simultaneous's own room);
- close → standings: from the last ``accepted`` of the round's 50 closes to the phone's last
  ``simultaneous`` frame of the round (a phone is sent one only when it changed, so its
  last is the one of every centre's close; one before the last close is counted as 0).
  Every phone's last frame is checked against the organiser's view read afterwards: its
  own place, total and percentage, and the five leaders with their rounds (goal: p99 < 2 s);
- the servers' CPU per slip (both processes' utime + stime over the slip window, less their
  idle rate) and per close (the 50 closes and the folds and frames they cause);
- the bytes of ``simultaneous`` frames a phone gets a round, as sent (websocket header left
  out), and how many;
- Redis ``used_memory`` before the simultaneous, after its creation (the sealed game), after
  the centres and registrations, after each round: per player, per round, and for a whole
  game of its sealed rounds.
"""

import argparse
import asyncio
import contextlib
import itertools
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import redis

import editions
import wordlists
from bench.fanout import start_redis
from bench.fanout_client import cpu_seconds, raise_fd_limit
from bench.room_phones import Phone
from bench.serving import ROOT, Api, ServerProcess, device_key
from bench.simultaneous_phones import FIRST, Seat, Settled, Slip
from rules.board.board import Board
from rules.movegen.moves import WordGraph, generate

EDITION = "fr"
PER_CENTRE = 40
CLIENTS = 4  # client processes holding the players' phones
GOAL = 2.0  # s, p99 from the last close to a phone's standings
IDLE = 3.0  # s of idle servers measured for the CPU baseline
MOVES = 200  # different slips handed in a round, best first
OPTIONS = ("--joins-per-minute", "100000", "--table-joins-per-minute", "100000")


class Centre:
    """A room: its director's phone here, its players' seats in the client processes."""

    def __init__(self, number: int, director: Phone, table: str, seats: list[Seat]) -> None:
        self.number, self.director, self.table, self.seats = number, director, table, seats
        self.ids = iter(range(1_000_000))
        self.closed_at = 0.0  # when the director had the last close's ``accepted``

    @classmethod
    def create(cls, servers: list[ServerProcess], number: int, code: str | None) -> "Centre":
        """Over HTTP: the table, its duplicate game, the centre (``code``: the
        simultaneous's), every player's registration by name."""
        home = servers[number % len(servers)]
        api = home.api()
        made = api.create_table()
        start = {"type": "start_game", "edition": EDITION, "mode": "duplicate",
                 "rules": "duplicate", "players": []}  # fmt: skip
        commands = [start]
        name = f"Club {number}"
        if code is not None:
            commands.append({"type": "join_simultaneous", "code": code, "centre": name})
        for k, command in enumerate(commands):
            reply = api.command(made["table"], made["token"], f"c{k}", command)
            assert reply.status == 200 and reply.json()["type"] == "accepted", reply
        seats = []
        for k in range(PER_CENTRE):
            body = {"code": made["code"], "device": device_key(), "name": f"P{k}"}
            joined = api.post("/api/join", body | {"role": "player"})
            assert joined.status == 200, joined
            url = servers[(number + k) % len(servers)].ws_url
            index = number * PER_CENTRE + k
            token, seat = joined.json()["token"], joined.json()["seat"]
            seats.append(Seat(index, url, made["table"], token, seat, f"P{k}", name))
        director = Phone(home.ws_url, made["table"], made["token"], None, keep=number == 0)
        return cls(number, director, made["table"], seats)

    async def command(self, command: dict[str, Any]) -> tuple[float, int]:
        """The director's command: when it was accepted, its seq."""
        command_id = f"d{next(self.ids)}"
        await self.director.command(command_id, command)
        at, answer = await self.director.answer(command_id)
        if answer.type != "accepted":
            raise RuntimeError(f"{command['type']} refused in centre {self.number}: {answer.code}")
        return at, answer.seq


class Client:
    """A client process of ``bench.simultaneous_phones`` and its phones."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls) -> "Client":
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.simultaneous_phones", cwd=ROOT,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 26,
        )  # fmt: skip
        return cls(process)

    async def ask(self, order: dict[str, Any]) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(msgspec.json.encode(order) + b"\n")
        await self.process.stdin.drain()
        line = await self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"a client process ended on {order['do']}")
        return msgspec.json.decode(line)

    async def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        await self.process.wait()


async def ask_all(clients: list[Client], order: dict[str, Any]) -> list[Any]:
    return list(await asyncio.gather(*(c.ask(order) for c in clients)))


class Round(NamedTuple):
    slip_ms: list[float]
    refused: Counter[str]
    room_ms: list[float]  # own close → the phone has it
    standings_ms: list[float]  # last close → the phone's last standings frame
    spread_ms: float  # first close sent → last close accepted
    slip_cpu_ms: float  # per slip
    slip_raw_ms: float  # per slip, the idle rate left in
    close_cpu_ms: float  # per close
    frames: list[int]  # standings frames per phone
    sizes: list[int]  # their bytes per phone
    mismatched: int  # phones whose last frame is not the organiser's standings
    silent: int  # phones sent no standings frame in the round


class Run(NamedTuple):
    name: str
    centres: int
    rounds: list[Round]
    memory: dict[str, int]  # Redis used_memory at each step
    sealed_rounds: int
    cpu: dict[str, float]  # % of one core over the measured rounds
    idle: float  # % of one core both servers use with the phones connected and quiet
    unranked: int  # phones with no standings frame in their first seconds


class Servers(NamedTuple):
    processes: list[ServerProcess]
    pids: list[int]
    redis_pid: int
    redis: redis.Redis

    def cpu(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids)

    def memory(self) -> int:
        return int(self.redis.info("memory")["used_memory"])


def moves_of(view: dict[str, Any], graph: WordGraph) -> list[Slip]:
    """Slips of the open round's rack, best first and then spread over the rest."""
    sheet = view["sheet"]
    board = Board.from_rows(editions.get(EDITION), sheet["board"])
    moves = generate(board, "".join(sheet["rounds"][-1]["rack"]), graph)
    step = max(1, len(moves) // MOVES)
    return [Slip(m.word, m.start.name, str(m.direction)) for m in list(moves)[::step][:MOVES]]


async def play(
    servers: Servers, centres: list[Centre], clients: list[Client], number: int,
    window: float, graph: WordGraph, check: "Organiser | None", idle: float,
) -> Round:  # fmt: skip
    """One round in every centre at once."""
    await ask_all(clients, {"do": "begin"})
    await asyncio.gather(*(c.command({"type": "draw_rack", "round": number}) for c in centres))
    keeper = centres[0].director
    while keeper.view.get("sheet", {}).get("rounds", [{}])[-1].get("rack", []) == []:
        await asyncio.sleep(0.01)  # the draw's view on the director's phone
    moves = moves_of(keeper.view, graph)
    players = sum(len(c.seats) for c in centres)
    at = time.perf_counter() + 0.2
    order = {"do": "slips", "round": number, "game": keeper.view["sheet"]["started"],
             "moves": moves, "at": at, "spacing": window / players}  # fmt: skip
    before = servers.cpu()
    slipped = await ask_all(clients, order) if moves else []
    span = time.perf_counter() - at
    slip_raw = servers.cpu() - before
    slip_cpu = max(0.0, slip_raw - idle * span)
    await asyncio.sleep(0.5)  # the slips' frames and folds done before the bell

    began, before = time.perf_counter(), servers.cpu()
    closed = await asyncio.gather(
        *(c.command({"type": "close_round", "round": number}) for c in centres)
    )
    last = max(at for at, _ in closed)
    seqs = {c.table: seq for c, (_, seq) in zip(centres, closed, strict=True)}
    acks = {c.table: at for c, (at, _) in zip(centres, closed, strict=True)}
    settle = {"do": "settle", "closes": seqs, "standings": check is not None}
    answers = await ask_all(clients, settle)
    close_cpu = max(0.0, servers.cpu() - before - idle * (time.perf_counter() - began))
    phones = [msgspec.convert(s, Settled) for each in answers for s in each]
    seat = {s.index: s for c in centres for s in c.seats}
    room_ms = [1000 * (p.change - acks[seat[p.index].table]) for p in phones]
    standings_ms = [1000 * max(0.0, p.last - last) for p in phones]
    mismatched = check.mismatched(phones, seat, number) if check is not None else 0
    refused: Counter[str] = Counter(code for s in slipped for code in s["refused"])
    return Round(
        [ms for s in slipped for ms in s["ms"]],
        refused,
        room_ms,
        standings_ms if check is not None else [],
        1000 * (last - began),
        1000 * slip_cpu / max(1, players),
        1000 * slip_raw / max(1, players),
        1000 * close_cpu / len(centres),
        [p.frames for p in phones],
        [p.size for p in phones],
        mismatched,
        sum(p.frames == 0 for p in phones) if check is not None else 0,
    )


class Organiser:
    """The organiser's view, read once a round has settled: what every phone should show."""

    def __init__(self, api: Api, of: str, token: str) -> None:
        self.api, self.of, self.token = api, of, token

    def view(self) -> dict[str, Any]:
        reply = self.api.get(f"/api/simultaneous/{self.of}", self.token)
        assert reply.status == 200, reply
        view: dict[str, Any] = reply.json()
        return view

    def mismatched(self, phones: list[Settled], seat: dict[int, Seat], number: int) -> int:
        """Phones whose last standings frame is not the organiser's standings after every
        centre's close of round ``number``."""
        view = self.view()
        assert all(c["closed"] == number + 1 for c in view["centres"]), view["centres"]
        rows = view["standings"][0]
        by_player = {(r["centre"], r["name"]): r for r in rows}
        fields = ("place", "total", "percent_tenths", "tied")
        wrong = 0
        for phone in phones:
            you, leaders = phone.frame["you"] or {}, phone.frame["leaders"] or []
            row = by_player[(seat[phone.index].centre, seat[phone.index].name)]
            same = all(you.get(f, False) == row.get(f, False) for f in fields)
            same &= leaders == rows[: len(leaders)] and phone.frame["players"] == len(rows)
            wrong += not same
        return wrong


async def measure(
    name: str, servers: Servers, centres: list[Centre], rounds: int, window: float,
    check: Organiser | None, memory: dict[str, int],
) -> Run:  # fmt: skip
    """Open every phone, play a warm-up round, then ``rounds`` measured ones."""
    await asyncio.gather(*(c.director.open() for c in centres))
    clients = [await Client.start() for _ in range(CLIENTS)]
    seats = [s for c in centres for s in c.seats]
    opening = time.perf_counter()
    opened = await asyncio.gather(
        *(
            client.ask({"do": "open", "seats": seats[k::CLIENTS], "standings": check is not None})
            for k, client in enumerate(clients)
        )
    )
    unranked = sum(o["unranked"] for o in opened)
    print(f"{len(seats)} phones open in {time.perf_counter() - opening:.1f} s", end="; ",
          file=sys.stderr, flush=True)  # fmt: skip
    graph = wordlists.get(editions.get(EDITION).language).graph
    await play(servers, centres, clients, 0, window, graph, check, 0.0)  # warm-up
    await asyncio.sleep(1.0)  # the warm-up's last frames and the organiser's look done
    at, before = time.perf_counter(), servers.cpu()
    await asyncio.sleep(IDLE)  # phones connected, nothing sent: pings and timers only
    idle = (servers.cpu() - before) / (time.perf_counter() - at)
    start = {"servers": servers.cpu(), "redis": cpu_seconds(servers.redis_pid)}
    start["client"] = sum(cpu_seconds(c.process.pid) for c in clients) + cpu_seconds(os.getpid())
    at = time.perf_counter()
    played = []
    for number in range(1, rounds + 1):
        played.append(await play(servers, centres, clients, number, window, graph, check, idle))
        memory[f"after round {number}"] = servers.memory()
    span = time.perf_counter() - at
    end = {"servers": servers.cpu(), "redis": cpu_seconds(servers.redis_pid)}
    end["client"] = sum(cpu_seconds(c.process.pid) for c in clients) + cpu_seconds(os.getpid())
    for client in clients:
        await client.stop()
    for centre in centres:
        if centre.director.ws is not None:
            await centre.director.ws.close()
    sealed = int(check.view()["games"][0]["rounds"]) if check is not None else 0
    cpu = {role: 100 * (end[role] - start[role]) / span for role in end}
    return Run(name, len(centres), played, memory, sealed, cpu, 100 * idle, unranked)


def run(count: int, rounds: int, window: float) -> tuple[Run, Run]:
    """The servers and Redis; the baseline room, then the simultaneous."""
    with (
        tempfile.TemporaryDirectory(prefix="simultaneous-") as folder,
        contextlib.ExitStack() as stack,
    ):
        work = Path(folder)
        redis_pid, url = start_redis(work / "redis", "always", stack)
        processes = [
            stack.enter_context(ServerProcess(work / f"data-{n}", url, OPTIONS)) for n in range(2)
        ]
        pids = [p.process.pid for p in processes if p.process is not None]
        servers = Servers(processes, pids, redis_pid, redis.Redis.from_url(url))
        print("running the baseline …", end=" ", file=sys.stderr, flush=True)
        base = [Centre.create(processes, 0, None)]
        baseline = asyncio.run(measure("base: 1 room × 40, no centre", servers, base, rounds,
                                       window * len(base[0].seats) / (count * PER_CENTRE),
                                       None, {}))  # fmt: skip
        print(f"the simultaneous ({count} × {PER_CENTRE}) …", end=" ", file=sys.stderr, flush=True)
        memory = {"before": servers.memory()}
        api = processes[0].api()
        now = int(time.time() * 1000)
        game = {"opens": now - 60_000, "closes": now + 3_600_000}
        body = {"name": "Bench simultaneous", "edition": EDITION, "games": [game]}
        created = api.post("/api/simultaneous", body)
        assert created.status == 201, created
        made = created.json()
        memory["created"] = servers.memory()
        with ThreadPoolExecutor(8) as pool:
            centres = list(pool.map(lambda n: Centre.create(processes, n, made["code"]),
                                    range(count)))  # fmt: skip
        memory["centres and players"] = servers.memory()
        check = Organiser(api, made["id"], made["token"])
        name = f"simultaneous: {count} × {PER_CENTRE}"
        try:
            simultaneous = asyncio.run(
                measure(name, servers, centres, rounds, window, check, memory)
            )
        except Exception:
            for process in processes:
                print(f"--- {process.log.name}:\n{process.output()[-3000:]}", file=sys.stderr)
            raise
        for process in processes:
            process.assert_no_crash()
    print("done", file=sys.stderr, flush=True)
    return baseline, simultaneous


# --- the report -----------------------------------------------------------------------------


def pct(values: list[float] | list[int], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def every(r: Run, field: str) -> list[Any]:
    return [v for each in r.rounds for v in getattr(each, field)]


def table(base: Run, sim: Run) -> None:
    print(
        f"{'setup':<30} {'slip→accepted':>13} {'slip cpu':>8} {'close→own room':>14}"
        f" {'close cpu':>9} {'last close→standings ms':>25} {'standings/phone/round':>21}"
    )
    print(
        f"{'':<30} {'p50':>6} {'p99':>6} {'ms/slip':>8} {'p50':>6} {'p99':>7} {'ms':>9}"
        f" {'p50':>7} {'p99':>7} {'max':>9} {'frames':>7} {'B p50':>6} {'B max':>6}"
    )
    for r in (base, sim):
        slips, room = every(r, "slip_ms"), every(r, "room_ms")
        stand, frames, sizes = every(r, "standings_ms"), every(r, "frames"), every(r, "sizes")
        shown = (
            f"{pct(stand, 0.5):>7.0f} {pct(stand, 0.99):>7.0f} {max(stand):>9.0f}"
            f" {pct(frames, 0.5):>7.0f} {pct(sizes, 0.5):>6,.0f} {max(sizes):>6,}"
            if stand
            else f"{'—':>7} {'—':>7} {'—':>9} {'—':>7} {'—':>6} {'—':>6}"
        )
        print(
            f"{r.name:<30} {pct(slips, 0.5):>6.1f} {pct(slips, 0.99):>6.1f}"
            f" {statistics.median(x.slip_cpu_ms for x in r.rounds):>8.2f}"
            f" {pct(room, 0.5):>6.0f} {pct(room, 0.99):>7.0f}"
            f" {statistics.median(x.close_cpu_ms for x in r.rounds):>9.1f} {shown}"
        )
    ratio = [
        pct(every(sim, f), q) / max(1.0, pct(every(base, "room_ms"), q))
        for f in ("room_ms", "standings_ms")
        for q in (0.5, 0.99)
    ]
    print(
        f"× base (its close → own room): own room p50 {ratio[0]:.1f}, p99 {ratio[1]:.1f};"
        f" standings p50 {ratio[2]:.1f}, p99 {ratio[3]:.1f}"
    )
    for r in (base, sim):
        cpu = ", ".join(f"{role} {share:.1f} %" for role, share in r.cpu.items())
        raw = statistics.median(x.slip_raw_ms for x in r.rounds)
        cpu += f" (servers idle, phones connected: {r.idle:.1f} %; slip cpu with it {raw:.2f} ms)"
        rounds = "; ".join(
            f"round {n}: closes spread {x.spread_ms:.0f} ms, standings p99"
            f" {pct(x.standings_ms, 0.99) if x.standings_ms else 0:.0f} ms,"
            f" {pct(x.frames, 0.5) if x.frames else 0:.0f} frames of"
            f" {pct(x.sizes, 0.5) if x.sizes else 0:,.0f} B"
            for n, x in enumerate(r.rounds, 1)
        )
        print(f"  {r.name}: cpu of one core over the rounds: {cpu}; {rounds}")
        refused = sum((x.refused for x in r.rounds), Counter())
        if refused:
            print(f"  {r.name}: slips refused: {dict(refused)}")
    wrong = sum(x.mismatched for x in sim.rounds)
    checked = sum(len(x.standings_ms) for x in sim.rounds)
    silent = sum(x.silent for x in sim.rounds)
    print(
        f"  every phone's last standings frame against the organiser's view: {checked - wrong}"
        f" of {checked} match (own place, total, percentage; the five leaders; players);"
        f" {silent} phone-rounds without a standings frame; {sim.unranked} phones had no"
        f" standings frame {FIRST:g} s after their hello (owed within ~0.2 s)"
    )


def goal(sim: Run) -> None:
    stand = every(sim, "standings_ms")
    met = "met" if pct(stand, 0.99) < GOAL * 1000 else "MISSED"
    print(
        f"goal last close → every phone's standings p99 < {GOAL:g} s: {met} — p50"
        f" {pct(stand, 0.5):.0f} ms, p99 {pct(stand, 0.99):.0f} ms, max {max(stand):.0f} ms"
    )


def memory(sim: Run, players: int, rounds: int) -> None:
    m = sim.memory
    steps = list(m.items())
    shown = ", ".join(
        f"{name} +{(value - prior) / 1024:,.0f} KiB"
        for (_, prior), (name, value) in itertools.pairwise(steps)
    )
    print(f"Redis used_memory: before {m['before'] / 1024:,.0f} KiB; {shown}")
    fixed = m["centres and players"] - m["before"]
    per_round = (m[f"after round {rounds}"] - m["centres and players"]) / (rounds + 1)
    whole = fixed + per_round * sim.sealed_rounds  # the warm-up round 0 was played too
    print(
        f"  per player: {fixed / players:,.0f} B to set up (the sealed game, the centres,"
        f" the registrations), {per_round / players:,.0f} B a round; a game of"
        f" {sim.sealed_rounds} rounds ≈ {whole / players / 1024:,.1f} KiB a player"
        f" (measured {m[f'after round {rounds}'] - m['before']:,} B for the set-up and"
        f" {rounds + 1} rounds: {(m[f'after round {rounds}'] - m['before']) / players:,.0f} B"
        " a player)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.simultaneous", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10 centres, 2 rounds")
    args = parser.parse_args()
    raise_fd_limit()
    count, rounds, window = (10, 2, 4.0) if args.quick else (50, 3, 15.0)
    load = os.getloadavg()
    began = time.monotonic()
    base, sim = run(count, rounds, window)
    after = os.getloadavg()
    players = count * PER_CENTRE
    print(
        f"a simultaneous of {players:,} players in {count} centres of {PER_CENTRE}, edition"
        f" {EDITION}, on 2 server processes and one Redis (appendfsync always); {rounds}"
        f" measured rounds after a warm-up, slips over {window:g} s a round; {os.cpu_count()}"
        f" cores shared by servers, Redis and {CLIENTS} + 1 client processes; load average"
        f" (1/5/15 min) {load[0]:.1f}/{load[1]:.1f}/{load[2]:.1f} before,"
        f" {after[0]:.1f}/{after[1]:.1f}/{after[2]:.1f} after"
    )
    table(base, sim)
    goal(sim)
    memory(sim, players, rounds)
    print(f"whole run: {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
